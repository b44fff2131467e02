"""Shape-function registry: ``@shape_fn(domain, op_types, since_version)``, like the evaluator's kernels.

A shape function receives a :class:`~onnxtext.analysis.infer.node.NodeContext` whose outputs already
hold what the schema alone tells (element types bound through type constraints) and
refines them in place (``ctx.set_shape``, ``ctx.set_output``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from onnxtext.ir.versioned import VersionedRegistry

if TYPE_CHECKING:
    from onnxtext.analysis.infer.node import NodeContext

__all__ = ["ShapeFn", "shape_fn", "lookup", "registered"]

ShapeFn = Callable[["NodeContext"], None]

_REGISTRY: VersionedRegistry[ShapeFn] = VersionedRegistry()


def shape_fn(domain: str, op_types: str | Iterable[str], since_version: int = 1) -> Callable[[ShapeFn], ShapeFn]:
    """Register the decorated function for every op of ``op_types`` from ``since_version`` on."""
    names = [op_types] if isinstance(op_types, str) else list(op_types)

    def deco(fn: ShapeFn) -> ShapeFn:
        for op in names:
            _REGISTRY.add(domain, op, since_version, fn)
        return fn

    return deco


lookup = _REGISTRY.lookup
"""``lookup(domain, op_type, version)``: the function with the highest ``since_version`` ≤ ``version``
(the latest when ``None``); the registry's own method (inference asks once per node)."""


def registered() -> list[tuple[str, str, int]]:
    """Every (domain, op_type, since_version) with a shape function."""
    return _REGISTRY.registered()
