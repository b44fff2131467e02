"""Sequences (python lists of arrays) and optionals (None or a value)."""

from __future__ import annotations

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops._util import axis_of
from onnxtext.evaluate.registry import kernel


def _pos(seq, position, insert=False):
    n = len(seq)
    p = int(np.asarray(position).reshape(-1)[0])
    hi = n if insert else n - 1
    if not -n <= p <= hi:
        raise KernelError(f"position {p} is out of range for a sequence of length {n}", input_index=1)
    return p + n if p < 0 else p


@kernel("", "SequenceEmpty", 11)
def sequence_empty(*, dtype=T.FLOAT):
    return []


@kernel("", "SequenceConstruct", 11)
def sequence_construct(*xs):
    return list(xs)


@kernel("", "SequenceInsert", 11)
def sequence_insert(seq, tensor, position=None):
    out = list(seq)
    if position is None:
        out.append(tensor)
    else:
        out.insert(_pos(seq, position, insert=True), tensor)
    return out


@kernel("", "SequenceAt", 11)
def sequence_at(seq, position):
    return seq[_pos(seq, position)]


@kernel("", "SequenceErase", 11)
def sequence_erase(seq, position=None):
    out = list(seq)
    if not out:
        raise KernelError("cannot erase from an empty sequence", input_index=0)
    del out[_pos(seq, position) if position is not None else -1]
    return out


@kernel("", "SequenceLength", 11)
def sequence_length(seq):
    return np.array(len(seq), dtype=np.int64)


@kernel("", "SplitToSequence", 11)
def split_to_sequence(x, split=None, *, axis=0, keepdims=1):
    a = axis_of(axis, x.ndim)
    dim = x.shape[a]
    if split is None:
        parts = [np.take(x, [i], axis=a) for i in range(dim)]
        return [np.squeeze(p, axis=a) for p in parts] if not keepdims else parts
    s = np.asarray(split)
    if s.ndim == 0:
        step = int(s)
        idx = list(range(step, dim, step))
    else:
        idx = list(np.cumsum(s.astype(np.int64))[:-1])
    return list(np.split(x, idx, axis=a))


@kernel("", "ConcatFromSequence", 11)
def concat_from_sequence(seq, *, axis, new_axis=0):
    if new_axis:
        a = axis + seq[0].ndim + 1 if axis < 0 else axis
        return np.stack(seq, axis=a)
    return np.concatenate(seq, axis=axis_of(axis, seq[0].ndim))


@kernel("", "SequenceMap", 17)
def sequence_map(seq, *extra, body):
    n = len(seq)
    outs: list[list] = [[] for _ in body.output_names]
    for i in range(n):
        args = [seq[i]] + [e[i] if isinstance(e, list) else e for e in extra]
        res = body(*args)
        for lst, v in zip(outs, res, strict=True):
            lst.append(v)
    return tuple(outs)


@kernel("", "Optional", 15)
def optional(x=None, *, type=None):  # noqa: A002
    return x


@kernel("", "OptionalHasElement", 15)
def optional_has_element(x=None):
    return np.array(x is not None, dtype=np.bool_)


@kernel("", "OptionalGetElement", 15)
def optional_get_element(x):
    if x is None:
        raise KernelError("the optional is empty", input_index=0)
    return x
