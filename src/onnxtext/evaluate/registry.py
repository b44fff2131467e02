"""Kernel registry: ``@kernel(domain, op_type, since_version)``.

A kernel is a plain function ``f(*inputs, **attributes)`` returning one value, or a
tuple of values for a node with several outputs. Missing optional inputs arrive as
``None``. A kernel that declares a keyword-only parameter ``ctx`` also receives the
:class:`~onnxtext.evaluate.evaluator.KernelContext` (subgraphs, random generator,
opset, node outputs count).
Attribute values arrive decoded (int, float, str, list, numpy array, subgraph runner);
attributes the node does not set are left to the kernel's defaults.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from onnxtext.ir.versioned import VersionedRegistry, normalize_domain

__all__ = ["kernel", "KernelInfo", "lookup", "registered_ops"]


@dataclass(frozen=True, slots=True)
class KernelInfo:
    domain: str
    op_type: str
    since_version: int
    fn: Callable[..., Any]
    wants_ctx: bool
    attr_names: frozenset[str] | None  # None: accepts **kwargs


_REGISTRY: VersionedRegistry[KernelInfo] = VersionedRegistry()


def kernel(domain: str, op_type: str, since_version: int = 1) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn`` as the kernel of ``domain::op_type`` from ``since_version`` on."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(fn)
        wants_ctx = "ctx" in sig.parameters
        has_var_kw = any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())
        attr_names = (
            None
            if has_var_kw
            else frozenset(name for name, p in sig.parameters.items() if p.kind is p.KEYWORD_ONLY and name != "ctx")
        )
        info = KernelInfo(normalize_domain(domain), op_type, since_version, fn, wants_ctx, attr_names)
        _REGISTRY.add(info.domain, op_type, since_version, info)
        return fn

    return deco


def lookup(domain: str, op_type: str, version: int | None) -> KernelInfo | None:
    """The kernel with the highest ``since_version`` ≤ ``version`` (the latest if version is None)."""
    return _REGISTRY.lookup(domain, op_type, version)


def registered_ops() -> list[tuple[str, str, int]]:
    return _REGISTRY.registered()
