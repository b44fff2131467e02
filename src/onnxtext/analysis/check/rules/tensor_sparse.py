"""E504: a sparse tensor's values and indices agree with its dims (IR spec, SparseTensorProto)."""

from __future__ import annotations

import math

import numpy as np

from onnxtext.analysis.check.context import CheckContext, GraphInfo, NodeInfo
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.ir.tensor.literals import NotRepresentable
from onnxtext.proto import AttributeProto, SparseTensorProto, TensorProto


class SparseTensor(Rule):
    code = "E504"
    name = "sparse-tensor"
    description = (
        "A sparse tensor has 1-D values, int64 indices of shape [NNZ] or [NNZ, rank], in bounds and ascending."
    )

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        for i, sp in enumerate(getattr(graph.proto, "sparse_initializer", ())):
            if not sp.values.name:  # an initializer's name is its values'
                ctx.report(
                    self.code,
                    f"sparse initializer {i} has no name: its values tensor names it, "
                    f"as a graph's initializers are named",
                    graph.path,
                )
            self._check(ctx, sp, f"{graph.path}/sparse_initializer[{i}]", f"{graph.path}")

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        path = f"{node.path}/attribute[{index}]"
        if attr.HasField("sparse_tensor"):
            self._check(ctx, attr.sparse_tensor, path, path)
        for sp in attr.sparse_tensors:
            self._check(ctx, sp, path, path)

    def _check(self, ctx: CheckContext, sp: SparseTensorProto, label: str, path: str) -> None:
        def report(message: str) -> None:
            ctx.report(self.code, f"sparse tensor {_name(sp)}: {message}", path)

        dims = list(sp.dims)
        if any(d < 0 for d in dims):
            report(f"negative dimension in {dims}")
            return
        values = sp.values
        if len(values.dims) != 1:
            report(f"values must be 1-D [NNZ], not {list(values.dims)}")
            return
        nnz = values.dims[0]
        idx_t = sp.indices
        if nnz == 0 and not idx_t.dims:
            return
        if idx_t.data_type != TensorProto.INT64:
            report("indices must be int64")
            return
        shape = list(idx_t.dims)
        rank = len(dims)
        if shape not in ([nnz], [nnz, rank]):
            report(f"indices must have shape [{nnz}] or [{nnz}, {rank}], not {shape}")
            return
        try:
            idx = to_numpy(idx_t).astype(np.int64)
        except (NotRepresentable, ValueError):
            return  # E501 reports malformed data
        size = math.prod(dims)
        if len(shape) == 2:
            bad = (idx < 0) | (idx >= np.array(dims, dtype=np.int64))
            if bad.any():
                row = int(np.flatnonzero(bad.any(axis=1))[0])
                report(f"index {idx[row].tolist()} (entry {row}) is outside dims {dims}")
                return
            linear = np.ravel_multi_index(idx.T, dims) if rank else np.zeros(len(idx), dtype=np.int64)
        else:
            bad = (idx < 0) | (idx >= size)
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                report(f"linear index {int(idx[k])} (entry {k}) is outside a tensor of {size} elements")
                return
            linear = idx
        if linear.size > 1 and np.any(np.diff(linear) <= 0):
            k = int(np.flatnonzero(np.diff(linear) <= 0)[0]) + 1
            report(f"indices must be strictly ascending; entry {k} is not")


def _name(sp: SparseTensorProto) -> str:
    return f"'{sp.values.name}'" if sp.values.name else "(unnamed)"
