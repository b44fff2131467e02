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


def einsum_shape(equation: str, shapes: list[Shape]) -> Shape:
    """The output shape of ``Einsum`` (numpy's rules: explicit ``->`` or the labels used once, in
    alphabetical order, after the broadcast ellipsis); ``None`` when a rank is unknown or the
    equation does not fit the inputs (the evaluator says why)."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes) or any(s is None for s in shapes):
        return None
    sizes: dict[str, Dim] = {}
    ellipses: list[Shape] = []
    counts: dict[str, int] = {}
    for term, shape in zip(terms, shapes, strict=True):
        assert shape is not None
        labels = term.replace("...", "")
        if not all(c.isalpha() for c in labels) or term.count("...") > 1:
            return None
        n_ellipsis = len(shape) - len(labels)
        if n_ellipsis < 0 or (n_ellipsis and "..." not in term):
            return None
        before = term.index("...") if "..." in term else len(term)
        ellipses.append(tuple(shape[before : before + n_ellipsis]))
        dims = list(shape[:before]) + list(shape[before + n_ellipsis :])
        for label, d in zip(labels, dims, strict=True):
            counts[label] = counts.get(label, 0) + 1
            known = sizes.get(label)
            # a known size other than 1 wins (numpy broadcasts a label's size 1)
            if known is None or known == 1 or (not isinstance(known, int) and isinstance(d, int) and d != 1):
                sizes[label] = d
    batch = broadcast(ellipses)
    assert batch is not None
    if not arrow:
        rhs = ("..." if any(ellipses) else "") + "".join(sorted(c for c, n in counts.items() if n == 1))
    head, dots, tail = rhs.partition("...")
    if "..." in tail or not all(label in sizes for label in head + tail):
        return None
    return tuple([sizes[label] for label in head] + (list(batch) if dots else []) + [sizes[label] for label in tail])


@shape_fn("", "Einsum")
def einsum(ctx: NodeContext) -> None:
    ctx.set_shape(0, einsum_shape(ctx.attr_str("equation", ""), [ctx.shape(i) for i in range(len(ctx.inputs))]))
