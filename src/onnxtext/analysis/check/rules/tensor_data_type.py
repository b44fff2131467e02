"""E502: A tensor's data_type is set to a known element type."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import tensor_label as _label
from onnxtext.analysis.check.rules._util import tensor_token as _tok
from onnxtext.ir.dtypes import dtype_by_code
from onnxtext.proto import TensorProto


class TensorDataType(Rule):
    code = "E502"
    name = "tensor-data-type"
    description = "A tensor's data_type is set to a known element type."

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        if tensor.data_type == 0:
            ctx.report(self.code, f"{_label(tensor)} has no data_type", path, token=_tok(token))
        elif dtype_by_code(tensor.data_type) is None:
            ctx.report(self.code, f"{_label(tensor)} has unknown data_type {tensor.data_type}", path, token=_tok(token))
