"""Inputs made up from a model's declared types, to run a model nobody gave inputs for.

Used by the editor's live values: each symbolic dimension gets one small size (the same
symbol the same size everywhere, so ``float[N, 3] x`` and ``float[N] m`` agree), an
unknown dimension 1. Values are chosen not to make a correct model fail: floats are
spread over [-1, 1], integers are 0 (a valid index, count or axis in any dimension of
size ≥ 1), booleans false, strings "a"; a sequence holds one element, a map one entry.
An input that is a Loop's trip count is 1 and one that is its condition true, so that the
loop body runs (0 and false would skip it: no live values inside).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.budget import over_budget
from onnxtext.ir.versioned import normalize_domain
from onnxtext.proto import GraphProto, TypeProto

__all__ = ["SynthesisError", "Synthesized", "synthesize", "DEFAULT_SIZE"]

DEFAULT_SIZE = 2
"""The size of a symbolic dimension nobody gave a size to."""

MAX_ARRAY_BYTES = (1 << 63) - 1
"""What numpy can address at most: the limit of a making given no budget."""


class SynthesisError(ValueError):
    """An input whose type gives no way to make up a value (an opaque or sparse input)."""


@dataclass
class Synthesized:
    """The feeds, and the sizes chosen for each symbolic dimension (to tell the user)."""

    feeds: dict[str, Any]
    sizes: dict[str, int]


def synthesize(
    graph: GraphProto,
    *,
    sizes: Mapping[str, int] | None = None,
    given: Mapping[str, Any] | None = None,
    seed: int = 0,
    default_size: int = DEFAULT_SIZE,
    max_bytes: int | None = None,
) -> Synthesized:
    """Feeds for every input of ``graph`` not in ``given`` (and not an initializer's default).
    An input whose declared shape would take more than ``max_bytes`` (the run's memory budget)
    is refused with :class:`SynthesisError` before anything is allocated."""
    chosen = dict(sizes or {})
    rng = np.random.default_rng(seed)
    initialized = {t.name for t in graph.initializer}
    feeds = dict(given or {})
    fills = _loop_controls(graph)
    for vi in graph.input:
        if vi.name in feeds or vi.name in initialized:
            continue
        value = _value(vi.name, vi.type if vi.HasField("type") else None, _Making(chosen, rng, default_size, max_bytes))
        if vi.name in fills and isinstance(value, np.ndarray) and value.dtype.kind in "iub":
            value = np.full(value.shape, fills[vi.name], dtype=value.dtype)
        feeds[vi.name] = value
    return Synthesized(feeds, chosen)


def _loop_controls(graph: GraphProto) -> dict[str, int]:
    """The values that make a Loop run its body: 1 for a trip count, 1 (true) for a condition,
    by the name of the input the main graph's Loops read them from."""
    out: dict[str, int] = {}
    for node in graph.node:
        if node.op_type == "Loop" and normalize_domain(node.domain) == "":
            for name in node.input[:2]:
                if name:
                    out[name] = 1
    return out


@dataclass
class _Making:
    """What every made-up value shares: the symbols' sizes, the generator, the size of a symbol
    nobody sized, and the bytes a tensor may take (None: no limit)."""

    sizes: dict[str, int]
    rng: np.random.Generator
    default: int
    max_bytes: int | None


def _value(name: str, tp: TypeProto | None, making: _Making) -> Any:
    which = tp.WhichOneof("value") if tp is not None else None
    if tp is None or which is None:
        raise SynthesisError(f"input {name!r} has no declared type: give its value")
    if which == "tensor_type":
        tt = tp.tensor_type
        shape = _shape(tt.shape.dim if tt.HasField("shape") else None, making.sizes, making.default)
        return _tensor(name, int(tt.elem_type), shape, making)
    if which == "sequence_type":
        return [_value(name, tp.sequence_type.elem_type, making)]
    if which == "optional_type":
        return _value(name, tp.optional_type.elem_type, making)
    if which == "map_type":
        key_type = int(tp.map_type.key_type)
        key: Any = "a" if key_type == T.STRING else 0
        return {key: _value(name, tp.map_type.value_type, making)}
    raise SynthesisError(f"input {name!r} is a {which.replace('_type', '').replace('_', ' ')}: give its value")


def _shape(dims: Iterable[Any] | None, sizes: dict[str, int], default: int) -> tuple[int, ...]:
    if dims is None:  # unknown rank: a vector
        return (default,)
    shape = []
    for d in dims:
        which = d.WhichOneof("value")
        if which == "dim_value":
            shape.append(max(0, int(d.dim_value)))
        elif which == "dim_param" and d.dim_param:
            shape.append(sizes.setdefault(d.dim_param, default))
        else:
            shape.append(1)
    return tuple(shape)


def _tensor(name: str, elem: int, shape: tuple[int, ...], making: _Making) -> np.ndarray:
    if elem not in T.NP_DTYPE:
        raise SynthesisError(f"input {name!r}: element type {elem} cannot be made up: give its value")
    dtype = T.NP_DTYPE[elem]
    count = math.prod(shape)  # a Python int: no int64 product wraps around
    # made up as float64 (or complex128) before the cast: the most bytes the making takes
    size = count * max(dtype.itemsize, 16 if dtype.kind == "c" else 8)
    problem = over_budget(f"input {name!r} of shape {list(shape)}", size, making.max_bytes or MAX_ARRAY_BYTES)
    if problem is not None:
        raise SynthesisError(problem + ": give its value, or smaller --size values")
    rng = making.rng
    if elem == T.STRING:
        return np.full(shape, "a", dtype=object)
    if elem == T.BOOL:
        return np.zeros(shape, dtype=np.bool_)
    if dtype.kind in "iu":
        return np.zeros(shape, dtype=dtype)
    values = rng.uniform(-1.0, 1.0, size=shape)
    if dtype.kind == "c":
        values = values + 1j * rng.uniform(-1.0, 1.0, size=shape)
    out = values.astype(dtype)
    if elem in T.EXOTIC_FLOATS:
        out = T.round_to(out, elem)
    return out
