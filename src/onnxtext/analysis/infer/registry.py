"""Shape-function registry: ``@shape_fn(domain, op_types, since_version)``, like the evaluator's kernels.

A shape function receives a :class:`~onnxtext.analysis.infer.node.NodeContext` whose outputs already
hold what the schema alone tells (element types bound through type constraints) and
refines them in place (``ctx.set_shape``, ``ctx.set_output``).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from onnxtext.ir.schemas import normalize_domain

if TYPE_CHECKING:
    from onnxtext.analysis.infer.node import NodeContext

__all__ = ["ShapeFn", "shape_fn", "lookup", "registered"]

ShapeFn = Callable[["NodeContext"], None]

_REGISTRY: dict[tuple[str, str], list[tuple[int, ShapeFn]]] = {}
_FOUND: dict[tuple[str, str, int | None], ShapeFn | None] = {}
"""What :func:`lookup` answered, by its arguments; emptied by every registration."""


def shape_fn(domain: str, op_types: str | Iterable[str], since_version: int = 1) -> Callable[[ShapeFn], ShapeFn]:
    """Register the decorated function for every op of ``op_types`` from ``since_version`` on."""
    names = [op_types] if isinstance(op_types, str) else list(op_types)

    def deco(fn: ShapeFn) -> ShapeFn:
        for op in names:
            entries = _REGISTRY.setdefault((normalize_domain(domain), op), [])
            entries[:] = [e for e in entries if e[0] != since_version]
            entries.append((since_version, fn))
            entries.sort(key=lambda e: e[0])
        _FOUND.clear()
        return fn

    return deco


def lookup(domain: str, op_type: str, version: int | None) -> ShapeFn | None:
    """The function with the highest ``since_version`` ≤ ``version`` (the latest when ``None``)."""
    key = (domain, op_type, version)
    if key in _FOUND:
        return _FOUND[key]
    found = _FOUND[key] = _lookup(domain, op_type, version)
    return found


def _lookup(domain: str, op_type: str, version: int | None) -> ShapeFn | None:
    entries = _REGISTRY.get((normalize_domain(domain), op_type))
    if not entries:
        return None
    if version is None:
        return entries[-1][1]
    position = bisect.bisect_right([e[0] for e in entries], version)
    return entries[position - 1][1] if position else None


def registered() -> list[tuple[str, str, int]]:
    """Every (domain, op_type, since_version) with a shape function."""
    return sorted((d, op, v) for (d, op), entries in _REGISTRY.items() for v, _ in entries)
