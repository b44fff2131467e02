"""Shape and indexing operators: reshape, slice, gather/scatter, pad, concat, split, ..."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops._util import as_int, axes_list, axis_of
from onnxtext.evaluate.registry import kernel


def _ints(x: Any) -> list[int]:
    return [int(v) for v in np.asarray(x).reshape(-1)]


# -- constants --------------------------------------------------------------------------


@kernel("", "Constant", 1)
def constant(
    *,
    value=None,
    value_float=None,
    value_floats=None,
    value_int=None,
    value_ints=None,
    value_string=None,
    value_strings=None,
    sparse_value=None,
):
    if value is not None:
        return value
    if sparse_value is not None:
        return sparse_value
    if value_float is not None:
        return np.array(value_float, dtype=np.float32)
    if value_floats is not None:
        return np.array(value_floats, dtype=np.float32)
    if value_int is not None:
        return np.array(value_int, dtype=np.int64)
    if value_ints is not None:
        return np.array(value_ints, dtype=np.int64)
    if value_string is not None:
        return np.array(value_string, dtype=object)
    if value_strings is not None:
        arr = np.empty(len(value_strings), dtype=object)
        arr[:] = value_strings
        return arr
    raise KernelError("Constant has no value attribute")


@kernel("", "ConstantOfShape", 9)
def constant_of_shape(shape, *, value=None):
    v = value if value is not None else np.zeros(1, dtype=np.float32)
    dims = _ints(shape)
    if any(d < 0 for d in dims):
        raise KernelError(f"negative dimension in shape {dims}", input_index=0)
    return np.full(dims, v.reshape(-1)[0], dtype=v.dtype)


@kernel("", "EyeLike", 9)
def eye_like(x, *, dtype=None, k=0):
    dt = T.np_dtype(dtype) if dtype is not None else x.dtype
    return np.eye(x.shape[0], x.shape[1], k=k, dtype=dt)


@kernel("", "Range", 11)
def range_(start, limit, delta):
    s, lim, d = start.item(), limit.item(), delta.item()
    if d == 0:
        raise KernelError("delta must not be zero", input_index=2)
    n = max(int(np.ceil((lim - s) / d)), 0)
    return (s + np.arange(n, dtype=np.float64 if start.dtype.kind == "f" else np.int64) * d).astype(start.dtype)


# -- shapes ------------------------------------------------------------------------------


@kernel("", "Shape", 1)
def shape(x, *, start=0, end=None):
    dims = list(np.shape(x))
    r = len(dims)
    s = max(0, min(r, start + r if start < 0 else start))
    e = r if end is None else max(0, min(r, end + r if end < 0 else end))
    return np.array(dims[s:e], dtype=np.int64)


@kernel("", "Size", 1)
def size(x):
    return np.array(np.size(x), dtype=np.int64)


@kernel("", "Reshape", 5)
def reshape(x, shape, *, allowzero=0):
    dims = _ints(shape)
    if not allowzero:
        for i, d in enumerate(dims):
            if d == 0:
                if i >= x.ndim:
                    raise KernelError(
                        f"shape {dims}: 0 at {i} copies a dimension the input does not have", input_index=1
                    )
                dims[i] = x.shape[i]
    if dims.count(-1) > 1:
        raise KernelError(f"shape {dims} has more than one -1", input_index=1)
    try:
        return np.reshape(x, dims)
    except ValueError:
        raise KernelError(f"cannot reshape {list(x.shape)} ({x.size} elements) to {dims}", input_index=1) from None


@kernel("", "Flatten", 1)
def flatten(x, *, axis=1):
    a = axis + x.ndim if axis < 0 else axis
    if not 0 <= a <= x.ndim:
        raise KernelError(f"axis={axis} out of range for rank {x.ndim}")
    outer = int(np.prod(x.shape[:a], dtype=np.int64))
    return x.reshape(outer, -1) if x.size else x.reshape(outer, int(np.prod(x.shape[a:], dtype=np.int64)))


def _squeeze(x, axes):
    if axes is None:
        return np.squeeze(x)
    ax = axes_list(axes, x.ndim)
    for a in ax:
        if x.shape[a] != 1:
            raise KernelError(f"cannot squeeze axis {a} of size {x.shape[a]}")
    return np.squeeze(x, axis=tuple(ax))


@kernel("", "Squeeze", 1)
def squeeze1(x, *, axes=None):
    return _squeeze(x, axes)


@kernel("", "Squeeze", 13)
def squeeze13(x, axes=None):
    return _squeeze(x, axes)


def _unsqueeze(x, axes):
    ax = _ints(axes)
    r = x.ndim + len(ax)
    ax = sorted(axis_of(a, r, "axes") for a in ax)
    if len(set(ax)) != len(ax):
        raise KernelError(f"repeated axes {ax}")
    return np.expand_dims(x, tuple(ax))


@kernel("", "Unsqueeze", 1)
def unsqueeze1(x, *, axes):
    return _unsqueeze(x, axes)


@kernel("", "Unsqueeze", 13)
def unsqueeze13(x, axes):
    return _unsqueeze(x, axes)


@kernel("", "Transpose", 1)
def transpose(x, *, perm=None):
    if perm is not None and sorted(perm) != list(range(x.ndim)):
        raise KernelError(f"perm {perm} is not a permutation of the {x.ndim} axes")
    return np.transpose(x, perm)


@kernel("", "Expand", 8)
def expand(x, shape):
    try:
        target = np.broadcast_shapes(x.shape, tuple(_ints(shape)))
    except ValueError:
        raise KernelError(f"cannot broadcast {list(x.shape)} to {_ints(shape)}", input_index=1) from None
    return np.array(np.broadcast_to(x, target))


@kernel("", "Tile", 6)
def tile(x, repeats):
    return np.tile(x, _ints(repeats))


@kernel("", "Concat", 4)
def concat(*xs, axis):
    if not xs:
        raise KernelError("Concat needs at least one input")
    a = axis_of(axis, xs[0].ndim)
    try:
        return np.concatenate(xs, axis=a)
    except ValueError as exc:
        raise KernelError(f"cannot concatenate {[list(x.shape) for x in xs]} on axis {axis}: {exc}") from None


def _split(x, split, axis, n, num_outputs=None):
    a = axis_of(axis, x.ndim)
    dim = x.shape[a]
    if split is not None and len(np.asarray(split).reshape(-1)):
        sizes = _ints(split)
        if sum(sizes) != dim:
            raise KernelError(f"split {sizes} does not add up to dimension {dim}")
    else:
        parts = num_outputs if num_outputs is not None else n
        chunk = -(-dim // parts)
        sizes = [min(chunk, max(dim - i * chunk, 0)) for i in range(parts)]
    idx = np.cumsum(sizes)[:-1]
    return tuple(np.split(x, idx, axis=a))


@kernel("", "Split", 2)
def split2(x, *, axis=0, split=None, ctx):
    return _split(x, split, axis, ctx.n_outputs)


@kernel("", "Split", 13)
def split13(x, split=None, *, axis=0, ctx):
    return _split(x, split, axis, ctx.n_outputs)


@kernel("", "Split", 18)
def split18(x, split=None, *, axis=0, num_outputs=None, ctx):
    return _split(x, split, axis, ctx.n_outputs, num_outputs)


# -- slicing -----------------------------------------------------------------------------


def _slice(x, starts, ends, axes, steps):
    starts, ends = _ints(starts), _ints(ends)
    axes_ = axes_list(axes, x.ndim) if axes is not None else list(range(len(starts)))
    steps_ = _ints(steps) if steps is not None else [1] * len(starts)
    index: list[Any] = [slice(None)] * x.ndim
    for s, e, a, st in zip(starts, ends, axes_, steps_, strict=False):
        if st == 0:
            raise KernelError("slice step must not be 0")
        dim = x.shape[a]
        if s < 0:
            s += dim
        if e < 0:
            e += dim
        if st > 0:
            s = min(max(s, 0), dim)
            e = min(max(e, 0), dim)
            index[a] = slice(s, e, st)
        else:
            s = min(max(s, 0), dim - 1)
            e = min(max(e, -1), dim - 1)
            index[a] = slice(s, e if e >= 0 else None, st)
    return x[tuple(index)]


@kernel("", "Slice", 1)
def slice1(x, *, starts, ends, axes=None):
    return _slice(x, starts, ends, axes, None)


@kernel("", "Slice", 10)
def slice10(x, starts, ends, axes=None, steps=None):
    return _slice(x, starts, ends, axes, steps)


# -- gather / scatter ---------------------------------------------------------------------


def _norm_indices(idx: np.ndarray, dim: int, what: str = "indices", input_index: int = 1) -> np.ndarray:
    idx = np.asarray(idx).astype(np.int64)
    bad = (idx < -dim) | (idx >= dim)
    if np.any(bad):
        v = idx[bad].reshape(-1)[0]
        raise KernelError(f"{what} value {v} is out of range for a dimension of size {dim}", input_index=input_index)
    return np.where(idx < 0, idx + dim, idx)


@kernel("", "Gather", 1)
def gather(x, indices, *, axis=0):
    a = axis_of(axis, x.ndim)
    return np.take(x, _norm_indices(indices, x.shape[a]), axis=a)


@kernel("", "GatherElements", 11)
def gather_elements(x, indices, *, axis=0):
    a = axis_of(axis, x.ndim)
    return np.take_along_axis(x, _norm_indices(indices, x.shape[a]), axis=a)


@kernel("", "GatherND", 11)
def gather_nd(x, indices, *, batch_dims=0):
    idx = np.asarray(indices).astype(np.int64)
    b = batch_dims
    k = idx.shape[-1]
    batch_shape = x.shape[:b]
    nb = int(np.prod(batch_shape, dtype=np.int64))
    xr = x.reshape((nb,) + x.shape[b:])
    ir = idx.reshape((nb, -1, k))
    dims = np.array(x.shape[b : b + k])
    ir = np.where(ir < 0, ir + dims, ir)
    if np.any((ir < 0) | (ir >= dims)):
        raise KernelError("GatherND index out of range", input_index=1)
    bidx = np.arange(nb)[:, None]
    out = xr[(bidx,) + tuple(ir[..., j] for j in range(k))]
    return out.reshape(idx.shape[:-1] + x.shape[b + k :])


_REDUCE_UFUNC = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


def _scatter_elements(x, indices, updates, axis, reduction):
    a = axis_of(axis, x.ndim)
    idx = _norm_indices(indices, x.shape[a])
    out = np.array(x, copy=True)
    grids = list(np.indices(idx.shape, sparse=True))
    grids[a] = idx
    key = tuple(grids)
    if reduction in (None, "none"):
        out[key] = updates
    else:
        _REDUCE_UFUNC[reduction].at(out, key, updates)
    return out


@kernel("", "Scatter", 9)
def scatter(x, indices, updates, *, axis=0):
    return _scatter_elements(x, indices, updates, axis, None)


@kernel("", "ScatterElements", 11)
def scatter_elements(x, indices, updates, *, axis=0, reduction="none"):
    return _scatter_elements(x, indices, updates, axis, reduction)


@kernel("", "ScatterND", 11)
def scatter_nd(x, indices, updates, *, reduction="none"):
    idx = np.asarray(indices).astype(np.int64)
    k = idx.shape[-1]
    out = np.array(x, copy=True)
    flat_idx = idx.reshape(-1, k)
    dims = np.array(x.shape[:k])
    flat_idx = np.where(flat_idx < 0, flat_idx + dims, flat_idx)
    upd = np.asarray(updates).reshape((-1,) + x.shape[k:])
    key = tuple(flat_idx[:, j] for j in range(k))
    if reduction in (None, "none"):
        out[key] = upd
    else:
        _REDUCE_UFUNC[reduction].at(out, key, upd)
    return out


@kernel("", "Compress", 9)
def compress(x, condition, *, axis=None):
    cond = np.asarray(condition).astype(bool).reshape(-1)
    if axis is None:
        flat = x.reshape(-1)
        return flat[: cond.size][cond[: flat.size]]
    a = axis_of(axis, x.ndim)
    return np.compress(cond, x, axis=a)


@kernel("", "NonZero", 9)
def nonzero(x):
    return np.array(np.nonzero(x), dtype=np.int64).reshape(x.ndim, -1)


@kernel("", "OneHot", 9)
def one_hot(indices, depth, values, *, axis=-1):
    d = int(np.asarray(depth).reshape(-1)[0])
    idx = np.asarray(indices).astype(np.int64)
    idx = np.where(idx < 0, idx + d, idx)
    r = idx.ndim + 1
    a = axis + r if axis < 0 else axis
    hot = idx[..., None] == np.arange(d)
    hot = np.moveaxis(hot, -1, a)
    v = np.asarray(values).reshape(-1)
    return np.where(hot, v[1], v[0]).astype(v.dtype)


@kernel("", "Trilu", 14)
def trilu(x, k=None, *, upper=1):
    kk = as_int(k) if k is not None else 0
    return np.triu(x, kk) if upper else np.tril(x, kk)


@kernel("", "TopK", 1)
def topk1(x, *, axis=-1, k):
    return _topk(x, k, axis, 1, 1)


@kernel("", "TopK", 10)
def topk10(x, k, *, axis=-1):
    return _topk(x, as_int(k), axis, 1, 1)


@kernel("", "TopK", 11)
def topk(x, k, *, axis=-1, largest=1, sorted=1):  # noqa: A002
    return _topk(x, as_int(k), axis, largest, sorted)


def _topk(x, k, axis, largest, sorted_):
    a = axis_of(axis, x.ndim)
    if k < 0 or k > x.shape[a]:
        raise KernelError(f"k={k} is out of range for a dimension of size {x.shape[a]}", input_index=1)
    key = x.astype(np.float64) if x.dtype.kind in "iub" else x
    order = np.argsort(-key if largest else key, axis=a, kind="stable")
    idx = np.take(order, np.arange(k), axis=a)
    vals = np.take_along_axis(x, idx, axis=a)
    return vals, idx.astype(np.int64)


@kernel("", "Unique", 11)
def unique(x, *, axis=None, sorted=1):  # noqa: A002
    if axis is None:
        flat = x.reshape(-1)
        u, first, inverse, counts = np.unique(flat, return_index=True, return_inverse=True, return_counts=True)
    else:
        a = axis_of(axis, x.ndim)
        moved = np.moveaxis(x, a, 0)
        rows = moved.reshape(moved.shape[0], -1)
        _, first, inverse, counts = np.unique(rows, axis=0, return_index=True, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    if not sorted:
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        first = first[order]
        counts = counts[order]
        inverse = rank[inverse]
    if axis is None:
        y = x.reshape(-1)[first]
    else:
        y = np.take(x, first, axis=axis_of(axis, x.ndim))
    return y, first.astype(np.int64), inverse.astype(np.int64), counts.astype(np.int64)


@kernel("", "ReverseSequence", 10)
def reverse_sequence(x, sequence_lens, *, batch_axis=1, time_axis=0):
    lens = np.asarray(sequence_lens).astype(np.int64)
    t = x.shape[time_axis]
    tpos = np.arange(t)
    # index along time for each (batch, time): reversed inside [0, len)
    src = np.where(tpos[None, :] < lens[:, None], lens[:, None] - 1 - tpos[None, :], tpos[None, :])  # [B, T]
    xb = np.moveaxis(x, (batch_axis, time_axis), (0, 1))
    out = np.take_along_axis(xb, src.reshape(src.shape + (1,) * (xb.ndim - 2)), axis=1)
    return np.moveaxis(out, (0, 1), (batch_axis, time_axis))


@kernel("", "DepthToSpace", 1)
def depth_to_space(x, *, blocksize, mode="DCR"):
    n, c, h, w = x.shape
    b = blocksize
    if mode == "DCR":
        t = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(n, c // (b * b), h * b, w * b)


@kernel("", "SpaceToDepth", 1)
def space_to_depth(x, *, blocksize, mode="DCR"):
    n, c, h, w = x.shape
    b = blocksize
    t = x.reshape(n, c, h // b, b, w // b, b)
    if mode == "DCR":
        t = t.transpose(0, 3, 5, 1, 2, 4)
    else:
        t = t.transpose(0, 1, 3, 5, 2, 4)
    return t.reshape(n, c * b * b, h // b, w // b)


@kernel("", "TensorScatter", 24)
def tensor_scatter(past_cache, update, write_indices=None, *, mode="linear", axis=-2):
    a = axis_of(axis, past_cache.ndim)
    out = np.array(past_cache, copy=True)
    b = past_cache.shape[0]
    max_len = past_cache.shape[a]
    seq = update.shape[a]
    wi = np.zeros(b, dtype=np.int64) if write_indices is None else np.asarray(write_indices).astype(np.int64)
    pos = wi[:, None] + np.arange(seq)[None, :]  # [B, seq]
    if mode == "circular":
        pos = pos % max_len
    elif np.any(pos >= max_len):
        raise KernelError("TensorScatter writes past the end of the cache", input_index=2)
    # move axis next to batch for indexing
    o = np.moveaxis(out, a, 1)
    u = np.moveaxis(update, a, 1)
    bidx = np.arange(b)[:, None]
    if a == 0:
        raise KernelError("TensorScatter axis must not be the batch axis")
    o[bidx, pos] = u
    return np.moveaxis(o, 1, a)


def _cum(fn, x, axis, exclusive, reverse):
    a = axis_of(as_int(axis), x.ndim)
    y = np.flip(x, a) if reverse else x
    r = fn(y, axis=a, dtype=x.dtype)
    if exclusive:
        ident = 0 if fn is np.cumsum else 1
        pad = np.full_like(np.take(r, [0], axis=a), ident)
        r = np.concatenate([pad, np.take(r, np.arange(r.shape[a] - 1), axis=a)], axis=a)
    return np.flip(r, a) if reverse else r


@kernel("", "CumSum", 11)
def cumsum(x, axis, *, exclusive=0, reverse=0):
    return _cum(np.cumsum, x, axis, exclusive, reverse)


@kernel("", "CumProd", 26)
def cumprod(x, axis, *, exclusive=0, reverse=0):
    return _cum(np.cumprod, x, axis, exclusive, reverse)


# -- padding ------------------------------------------------------------------------------


def _pad(x, pads, mode, value, axes=None):
    p = _ints(pads)
    ax = axes_list(axes, x.ndim) if axes is not None else list(range(x.ndim))
    n = len(ax)
    if len(p) != 2 * n:
        raise KernelError(f"pads has {len(p)} values, expected {2 * n}", input_index=1)
    begins = [0] * x.ndim
    ends = [0] * x.ndim
    for i, a in enumerate(ax):
        begins[a] = p[i]
        ends[a] = p[i + n]
    # negative pads crop
    crop = tuple(
        slice(-b if b < 0 else 0, x.shape[i] + e if e < 0 else None)
        for i, (b, e) in enumerate(zip(begins, ends, strict=True))
    )
    x = x[crop]
    width = [(max(b, 0), max(e, 0)) for b, e in zip(begins, ends, strict=True)]
    if mode == "constant":
        v = np.asarray(value).reshape(-1)[0] if value is not None and np.size(value) else 0
        return np.pad(x, width, mode="constant", constant_values=v)
    if mode == "reflect":
        return np.pad(x, width, mode="reflect")
    if mode == "edge":
        return np.pad(x, width, mode="edge")
    if mode == "wrap":
        return np.pad(x, width, mode="wrap")
    raise KernelError(f"unknown pad mode {mode!r}")


@kernel("", "Pad", 2)
def pad2(x, *, pads, mode="constant", value=0.0):
    return _pad(x, pads, mode, np.array(value, dtype=x.dtype))


@kernel("", "Pad", 11)
def pad11(x, pads, constant_value=None, *, mode="constant"):
    return _pad(x, pads, mode, constant_value)


@kernel("", "Pad", 18)
def pad18(x, pads, constant_value=None, axes=None, *, mode="constant"):
    return _pad(x, pads, mode, constant_value, axes)


@kernel("", "CenterCropPad", 18)
def center_crop_pad(x, shape, *, axes=None):
    target = _ints(shape)
    ax = axes_list(axes, x.ndim) if axes is not None else list(range(x.ndim))
    out = x
    for a, t in zip(ax, target, strict=False):
        d = out.shape[a]
        if t < d:
            s = (d - t) // 2
            out = np.take(out, np.arange(s, s + t), axis=a)
        elif t > d:
            before = (t - d) // 2
            w = [(0, 0)] * out.ndim
            w[a] = (before, t - d - before)
            out = np.pad(out, w)
    return out


@kernel("", "BitCast", 26)
def bitcast(x, *, to):
    dt = T.np_dtype(to)
    if to in T.EXOTIC_FLOATS or to in T.SUB_BYTE_INTS:
        raise KernelError(f"BitCast to {T.TYPE_NAMES.get(to, to)} is not supported")
    src = np.array(x, order="C")
    if src.dtype.itemsize == dt.itemsize:
        return src.view(dt)
    raise KernelError(f"BitCast from {src.dtype} to {dt}: element sizes differ")


# -- opset 1-5 forms -------------------------------------------------------------------------


@kernel("", "Concat", 1)
def concat1(*xs, axis=1):
    return concat(*xs, axis=axis)


@kernel("", "Reshape", 1)
def reshape1(x, *, shape=(), **_):
    return reshape(x, np.array(shape, dtype=np.int64))


@kernel("", "Split", 1)
def split1(x, split=None, *, axis=0, ctx, **attrs):
    s = split if split is not None else attrs.get("split")
    return _split(x, s, axis, ctx.n_outputs)


@kernel("", "Tile", 1)
def tile1(x, tiles, axis):
    reps = [1] * x.ndim
    reps[as_int(axis)] = as_int(tiles)
    return np.tile(x, reps)


@kernel("", "Pad", 1)
def pad1(x, *, paddings, mode="constant", value=0.0):
    return _pad(x, paddings, mode, np.array(value, dtype=x.dtype))
