"""E509: A tensor's typed values fit its element type (an int8 holds no 300, a bool only
0 and 1, a float16 bit pattern 16 bits).

onnx.parser keeps such literals as written and so does ``onnxtext parse`` (with a warning);
the stored tensor is still invalid, and this rule says so.
"""

from __future__ import annotations

import numpy as np

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import tensor_label, tensor_token
from onnxtext.ir.dtypes import dtype_by_code
from onnxtext.ir.literal_checks import valid_range
from onnxtext.proto import TensorProto


class TensorValuesRange(Rule):
    code = "E509"
    name = "tensor-values-range"
    description = (
        "A tensor's typed values fit its element type (an int8 holds no 300, a bool only 0 and 1, a float16 "
        "bit pattern 16 bits)."
    )

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        dt = dtype_by_code(tensor.data_type)
        if dt is None:
            return
        bounds = valid_range(dt)
        if bounds is None:
            return
        values = getattr(tensor, dt.field)
        if not len(values):
            return
        arr = np.array(values, dtype=np.uint64 if dt.field == "uint64_data" else np.int64)
        lo, hi = bounds
        bad = np.flatnonzero((arr < lo) | (arr > hi))
        if bad.size == 0:
            return
        first = int(bad[0])
        what = "bit patterns" if dt.kind == "float" else "values"
        more = f" (and {bad.size - 1} more)" if bad.size > 1 else ""
        ctx.report(
            self.code,
            f"{tensor_label(tensor)} holds {int(arr[first])} at element {first}{more}: {dt.name} {what} are "
            f"{lo} to {hi}",
            path,
            token=tensor_token(token),
        )
