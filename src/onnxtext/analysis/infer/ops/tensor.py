"""Tensor manipulation: Reshape, Transpose, Concat, Split, Slice, Gather, Squeeze, Unsqueeze, Shape, ..."""

from __future__ import annotations

import numpy as np

from onnxtext.analysis.infer.node import NodeContext, ShapeMismatch
from onnxtext.analysis.infer.ops.elem_types import attr_elem
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.shapes import broadcast, dim_mul, norm_axis, product
from onnxtext.analysis.infer.types import Dim


@shape_fn("", "Constant")
def constant(ctx: NodeContext) -> None:
    t = ctx.attr_tensor("value")
    if t is not None:
        ctx.set_shape(0, tuple(int(d) for d in t.dims), t.data_type)
        return
    a = ctx.attr("sparse_value")
    if a is not None:
        ctx.set_shape(0, tuple(int(d) for d in a.sparse_tensor.dims), a.sparse_tensor.values.data_type)
        return
    for name, elem, scalar in (
        ("value_int", 7, True),
        ("value_float", 1, True),
        ("value_string", 8, True),
        ("value_ints", 7, False),
        ("value_floats", 1, False),
        ("value_strings", 8, False),
    ):
        a = ctx.attr(name)
        if a is not None:
            n = len(a.ints) if name == "value_ints" else len(a.floats) if name == "value_floats" else len(a.strings)
            ctx.set_shape(0, () if scalar else (n,), elem)
            return


@shape_fn("", "ConstantOfShape")
def constant_of_shape(ctx: NodeContext) -> None:
    t = ctx.attr_tensor("value")
    elem = t.data_type if t is not None else 1
    dims = ctx.const_ints(0)
    if dims is not None:
        ctx.set_shape(0, dims, elem)
        return
    s = ctx.shape(0)
    ctx.set_shape(0, None if s is None or not isinstance(s[0], int) else (None,) * s[0], elem)


@shape_fn("", ["Cast"])
def cast(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0), attr_elem(ctx, "to"))  # an unknown 'to' is E312's


@shape_fn("", "CastLike")
def cast_like(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0), ctx.elem(1))


@shape_fn("", "Shape")
def shape(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None:
        ctx.set_shape(0, (None,))
        return
    r = len(s)
    start, end = ctx.attr_int("start", 0), ctx.attr_int("end", r)
    start = min(max(start + r if start < 0 else start, 0), r)
    end = min(max(end + r if end < 0 else end, 0), r)
    ctx.set_shape(0, (max(end - start, 0),))


@shape_fn("", "Size")
def size(ctx: NodeContext) -> None:
    ctx.set_shape(0, ())


@shape_fn("", "Reshape")
def reshape(ctx: NodeContext) -> None:
    target = ctx.const_ints(1)
    if target is None:
        s1 = ctx.shape(1)
        if s1 is not None and len(s1) == 1 and isinstance(s1[0], int):
            ctx.set_shape(0, (None,) * s1[0])
        return
    allowzero = ctx.attr_int("allowzero", 0)
    src = ctx.shape(0)
    out: list[Dim] = []
    unknown_at = None
    copied: set[int] = set()  # dims copied from the input cancel out of both sizes
    for k, v in enumerate(target):
        if v == 0 and not allowzero:
            out.append(src[k] if src is not None and k < len(src) else None)
            copied.add(k)
        elif v == -1:
            unknown_at = k
            out.append(None)
        else:
            out.append(v)
    if src is not None:
        total = product([d for k, d in enumerate(src) if k not in copied])
        known = product([d for k, d in enumerate(out) if k != unknown_at and k not in copied])
        if isinstance(total, int) and isinstance(known, int):
            if unknown_at is not None:
                if known != 0 and total % known == 0:
                    out[unknown_at] = total // known
                elif known != 0:
                    raise ShapeMismatch(f"cannot reshape {total} elements into a shape of {known} x (-1) elements", 1)
            elif known != total:
                raise ShapeMismatch(f"cannot reshape {_fmt(src)} ({total} elements) to {target} ({known} elements)", 1)
    ctx.set_shape(0, out)


def _fmt(s: tuple[Dim, ...]) -> str:
    return "[" + ", ".join("?" if d is None else str(d) for d in s) + "]"


@shape_fn("", "Transpose")
def transpose(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None:
        return
    perm = ctx.attr_ints("perm")
    if perm is None:
        perm = list(reversed(range(len(s))))
    if sorted(perm) != list(range(len(s))):
        raise ShapeMismatch(f"perm {perm} is not a permutation of the {len(s)} axes of the input", 0)
    ctx.set_shape(0, [s[p] for p in perm])


@shape_fn("", "Concat")
def concat(ctx: NodeContext) -> None:
    shapes = [(i, ctx.shape(i)) for i in range(len(ctx.inputs)) if ctx.has(i)]
    known = [(i, s) for i, s in shapes if s is not None]
    if not known:
        return
    first_i, first = known[0]
    rank = len(first)
    for i, s in known[1:]:
        if len(s) != rank:
            raise ShapeMismatch(f"input {i} of Concat has rank {len(s)}, but input {first_i} has rank {rank}", i)
    axis = norm_axis(ctx.attr_int("axis", 0), rank)
    if axis is None:
        return
    if len(known) != len(shapes):
        return
    out: list[Dim] = []
    for k in range(rank):
        if k == axis:
            total: Dim = 0
            for _, s in known:
                d = s[k]
                total = total + d if isinstance(total, int) and isinstance(d, int) else None
            out.append(total)
            continue
        dim: Dim = None
        symbolic_conflict = False
        for i, s in known:
            d = s[k]
            if isinstance(d, int):
                if isinstance(dim, int) and dim != d:
                    raise ShapeMismatch(f"input {i} of Concat has size {d} on axis {k}, other inputs {dim}", i)
                dim = d
            elif d is not None and not isinstance(dim, int):
                if dim is None and not symbolic_conflict:
                    dim = d
                elif dim != d:
                    symbolic_conflict = True
                    dim = None
        out.append(dim)
    ctx.set_shape(0, out)


@shape_fn("", "Split")
def split(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    n = len(ctx.outputs)
    if s is None:
        return
    axis = norm_axis(ctx.attr_int("axis", 0), len(s))
    if axis is None:
        return
    given = ctx.has(1) or ctx.attr_ints("split") is not None
    sizes = ctx.const_ints(1) if ctx.has(1) else ctx.attr_ints("split")
    total = s[axis]
    if sizes is None and not given:  # no sizes: equal parts (the last one smaller)
        if isinstance(total, int):
            chunk = -(-total // n)
            last = total - chunk * (n - 1)
            sizes = [chunk] * (n - 1) + [last] if last >= 0 else None
    if sizes is None or len(sizes) != n:
        for j in range(n):
            ctx.set_shape(j, [None if k == axis else d for k, d in enumerate(s)])
        return
    if isinstance(total, int) and sum(sizes) != total:
        raise ShapeMismatch(
            f"split sizes {sizes} add up to {sum(sizes)}, but axis {axis} has size {total}", 1 if ctx.has(1) else 0
        )
    for j, size_j in enumerate(sizes):
        ctx.set_shape(j, [size_j if k == axis else d for k, d in enumerate(s)])


def _slice_dim(d: Dim, start: int, end: int, step: int) -> Dim:
    if not isinstance(d, int):
        return None
    return len(range(*slice(start, end, step).indices(d)))


@shape_fn("", "Slice")
def slice_(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None:
        return
    if ctx.version < 10:
        starts, ends, axes = ctx.attr_ints("starts"), ctx.attr_ints("ends"), ctx.attr_ints("axes")
        steps: list[int] | None = None
    else:
        starts, ends = ctx.const_ints(1), ctx.const_ints(2)
        axes = ctx.const_ints(3) if ctx.has(3) else None
        steps = ctx.const_ints(4) if ctx.has(4) else None
        if (ctx.has(3) and axes is None) or (ctx.has(4) and steps is None):
            starts = None
    if starts is None or ends is None:
        ctx.set_shape(0, (None,) * len(s))
        return
    if axes is None:
        axes = list(range(len(starts)))
    if steps is None:
        steps = [1] * len(starts)
    out = list(s)
    for start, end, axis, step in zip(starts, ends, axes, steps, strict=False):
        a = norm_axis(axis, len(s))
        if a is None or step == 0:
            return
        out[a] = _slice_dim(s[a], start, end, step)
    ctx.set_shape(0, out)


@shape_fn("", "Gather")
def gather(ctx: NodeContext) -> None:
    s, idx = ctx.shape(0), ctx.shape(1)
    if s is None or idx is None:
        return
    axis = norm_axis(ctx.attr_int("axis", 0), len(s))
    if axis is None:
        return
    ctx.set_shape(0, list(s[:axis]) + list(idx) + list(s[axis + 1 :]))


@shape_fn("", "GatherElements")
def gather_elements(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(1))


@shape_fn("", "GatherND")
def gather_nd(ctx: NodeContext) -> None:
    s, idx = ctx.shape(0), ctx.shape(1)
    b = ctx.attr_int("batch_dims", 0)
    if s is None or idx is None or not idx or not isinstance(idx[-1], int):
        return
    ctx.set_shape(0, list(idx[:-1]) + list(s[b + idx[-1] :]))


def _axes(ctx: NodeContext) -> list[int] | None:
    if ctx.version >= 13:
        return ctx.const_ints(1) if ctx.has(1) else []
    return ctx.attr_ints("axes") or []


@shape_fn("", "Squeeze")
def squeeze(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    axes = _axes(ctx)
    if s is None or axes is None:
        return
    if not axes:
        if all(isinstance(d, int) for d in s):
            ctx.set_shape(0, [d for d in s if d != 1])
        return
    norm = {norm_axis(a, len(s)) for a in axes}
    for a in norm:
        if a is not None and isinstance(s[a], int) and s[a] != 1:
            raise ShapeMismatch(f"cannot squeeze axis {a} of size {s[a]}", 0)
    ctx.set_shape(0, [d for k, d in enumerate(s) if k not in norm])


@shape_fn("", "Unsqueeze")
def unsqueeze(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    axes = _axes(ctx)
    if s is None or axes is None:
        return
    rank = len(s) + len(axes)
    norm = sorted({a + rank if a < 0 else a for a in axes})
    out: list[Dim] = []
    it = iter(s)
    for k in range(rank):
        out.append(1 if k in norm else next(it, None))
    ctx.set_shape(0, out)


@shape_fn("", "Flatten")
def flatten(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None:
        return
    axis = ctx.attr_int("axis", 1)
    if axis < 0:
        axis += len(s)
    ctx.set_shape(0, (product(s[:axis]), product(s[axis:])))


@shape_fn("", "Expand")
def expand(ctx: NodeContext) -> None:
    target = ctx.const_ints(1)
    if target is None:
        s1 = ctx.shape(1)
        if s1 is not None and len(s1) == 1 and isinstance(s1[0], int):
            ctx.set_shape(0, broadcast([ctx.shape(0), (None,) * s1[0]], [0, 1]))
        return
    ctx.set_shape(0, broadcast([ctx.shape(0), tuple(target)], [0, 1]))


@shape_fn("", "Tile")
def tile(ctx: NodeContext) -> None:
    s, reps = ctx.shape(0), ctx.const_ints(1)
    if s is None:
        return
    if reps is None:
        ctx.set_shape(0, (None,) * len(s))
        return
    ctx.set_shape(0, [dim_mul(d, r) for d, r in zip(s, reps, strict=False)])


@shape_fn("", "Range")
def range_(ctx: NodeContext) -> None:
    start, limit, delta = ctx.const(0), ctx.const(1), ctx.const(2)
    if start is None or limit is None or delta is None or float(delta) == 0:
        ctx.set_shape(0, (None,))
        return
    n = int(max(np.ceil((float(limit) - float(start)) / float(delta)), 0))
    ctx.set_shape(0, (n,))


@shape_fn("", "EyeLike")
def eye_like(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0), attr_elem(ctx, "dtype") or ctx.elem(0))


@shape_fn("", "NonZero")
def nonzero(ctx: NodeContext) -> None:
    r = ctx.rank(0)
    ctx.set_shape(0, None if r is None else (r, None))


@shape_fn("", "Pad")
def pad(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None:
        return
    pads = ctx.attr_ints("pads") if ctx.version < 11 else ctx.const_ints(1)
    axes = ctx.const_ints(3) if ctx.has(3) else list(range(len(s)))
    if pads is None or axes is None or len(pads) != 2 * len(axes):
        ctx.set_shape(0, (None,) * len(s))
        return
    out = list(s)
    n = len(axes)
    for j, a in enumerate(axes):
        k = norm_axis(a, len(s))
        if k is None:
            return
        d = s[k]
        out[k] = d + pads[j] + pads[j + n] if isinstance(d, int) else None
    ctx.set_shape(0, out)


@shape_fn("", "OneHot")
def one_hot(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None:
        return
    depth = ctx.const(1)
    d: Dim = int(depth.reshape(-1)[0]) if depth is not None and depth.size == 1 else None
    axis = ctx.attr_int("axis", -1)
    rank = len(s) + 1
    axis = axis + rank if axis < 0 else axis
    out = list(s)
    out.insert(axis, d)
    ctx.set_shape(0, out)


@shape_fn("", "TopK")
def top_k(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None:
        return
    axis = norm_axis(ctx.attr_int("axis", -1), len(s))
    if axis is None:
        return
    k: Dim = ctx.attr_int("k", 0) if ctx.version < 10 else None
    kc = ctx.const_ints(1) if ctx.version >= 10 else None
    if kc:
        k = kc[0]
    out = list(s)
    out[axis] = k
    ctx.set_shape(0, out)
    ctx.set_shape(1, out)


@shape_fn("", ["DepthToSpace", "SpaceToDepth"])
def depth_space(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    if s is None or len(s) != 4:
        return
    b = ctx.attr_int("blocksize", 1)
    if b < 1:
        return  # E311
    n, c, h, w = s
    up = ctx.op == "DepthToSpace"

    def div(d: Dim, f: int) -> Dim:
        return d // f if isinstance(d, int) else None

    if up:
        ctx.set_shape(0, (n, div(c, b * b), dim_mul(h, b), dim_mul(w, b)))
    else:
        ctx.set_shape(0, (n, dim_mul(c, b * b), div(h, b), div(w, b)))


@shape_fn("", "Compress")
def compress(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    axis = ctx.attr("axis")
    if s is None:
        return
    if axis is None:
        ctx.set_shape(0, (None,))
        return
    k = norm_axis(int(axis.i), len(s))
    ctx.set_shape(0, [None if j == k else d for j, d in enumerate(s)])


@shape_fn("", "Det")
def det(ctx: NodeContext) -> None:
    s = ctx.shape(0)
    ctx.set_shape(0, None if s is None else s[:-2])
