"""MatMul (numpy semantics, batch broadcasting) and Gemm."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext, ShapeMismatch
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.shapes import broadcast
from onnxtext.analysis.infer.types import Dim, Shape


def matmul_shape(a: Shape, b: Shape, ia: int = 0, ib: int = 1) -> Shape:
    """The shape of ``a @ b``; raises :class:`ShapeMismatch` on provably different inner dims."""
    if a is None or b is None:
        return None
    if len(a) == 0 or len(b) == 0:
        raise ShapeMismatch("MatMul inputs must not be scalars", ia if len(a) == 0 else ib)
    left = (1, *a) if len(a) == 1 else a
    right = (*b, 1) if len(b) == 1 else b
    k1, k2 = left[-1], right[-2]
    if isinstance(k1, int) and isinstance(k2, int) and k1 != k2:
        raise ShapeMismatch(f"inner dimensions differ: input {ia} has {k1} columns, input {ib} has {k2} rows", ib)
    batch = broadcast([left[:-2], right[:-2]], [ia, ib])
    assert batch is not None
    out: list[Dim] = list(batch)
    if len(a) != 1:
        out.append(left[-2])
    if len(b) != 1:
        out.append(right[-1])
    return tuple(out)


@shape_fn("", ["MatMul", "MatMulInteger"])
def matmul(ctx: NodeContext) -> None:
    ctx.set_shape(0, matmul_shape(ctx.shape(0), ctx.shape(1)))


@shape_fn("", "QLinearMatMul")
def qlinear_matmul(ctx: NodeContext) -> None:
    ctx.set_shape(0, matmul_shape(ctx.shape(0), ctx.shape(3), 0, 3))


@shape_fn("", "Gemm")
def gemm(ctx: NodeContext) -> None:
    a, b = ctx.shape(0), ctx.shape(1)
    if a is None or b is None:
        return
    if len(a) != 2 or len(b) != 2:
        raise ShapeMismatch(
            f"Gemm takes matrices, input {0 if len(a) != 2 else 1} has rank {len(a) if len(a) != 2 else len(b)}",
            0 if len(a) != 2 else 1,
        )
    ta, tb = ctx.attr_int("transA", 0), ctx.attr_int("transB", 0)
    m, k1 = (a[1], a[0]) if ta else (a[0], a[1])
    k2, n = (b[1], b[0]) if tb else (b[0], b[1])
    if isinstance(k1, int) and isinstance(k2, int) and k1 != k2:
        raise ShapeMismatch(f"inner dimensions differ: A has {k1} columns, B has {k2} rows", 1)
    ctx.set_shape(0, (m, n))
