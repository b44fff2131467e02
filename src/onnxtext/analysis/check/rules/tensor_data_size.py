"""E501: A tensor stores its values in one field, as many as the product of its dims (external data: 'length' bytes)."""

from __future__ import annotations

import math

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import tensor_label as _label
from onnxtext.analysis.check.rules._util import tensor_token as _tok
from onnxtext.analysis.check.rules.tensor_external import entry_token, external_entries, integer_entry
from onnxtext.ir.dtypes import DType, dtype_by_code
from onnxtext.ir.tensor.literals import TYPED_FIELDS
from onnxtext.proto import TensorProto
from onnxtext.weights.external import is_external


class TensorDataSize(Rule):
    code = "E501"
    name = "tensor-data-size"
    description = (
        "A tensor stores its values in one field, as many as the product of its dims (external data: 'length' bytes)."
    )

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        dt = dtype_by_code(tensor.data_type)
        dims = list(tensor.dims)  # read once: each read of a repeated field builds a view
        if any(d < 0 for d in dims):
            ctx.report(self.code, f"{_label(tensor)} has a negative dimension {dims}", path, token=_tok(token))
            return
        nelem = math.prod(dims)
        if is_external(tensor):
            if dt is not None:
                self._external(ctx, tensor, dt, nelem, path, token)
            return
        fields = [f for f in TYPED_FIELDS if len(getattr(tensor, f))]
        if tensor.HasField("raw_data"):
            fields.append("raw_data")
        label = _label(tensor)
        if len(fields) > 1:
            ctx.report(
                self.code, f"{label} stores values in several fields ({', '.join(fields)})", path, token=_tok(token)
            )
            return
        if not fields:
            if nelem:
                ctx.report(self.code, f"{label} of shape {dims} has no values", path, token=_tok(token))
            return
        if dt is None:
            return
        where = fields[0]
        if where == "raw_data":
            if dt.kind == "string":
                ctx.report(self.code, f"{label} of strings cannot use raw_data", path, token=_tok(token))
                return
            expected = (nelem * dt.bits + 7) // 8
            got = len(tensor.raw_data)
            if got != expected:
                ctx.report(
                    self.code,
                    f"{label} of {dt.name}{dims} needs {expected} bytes of raw_data, has {got}",
                    path,
                    token=_tok(token),
                )
            return
        if where != dt.field:
            ctx.report(
                self.code,
                f"values of {label} ({dt.name}) belong in {dt.field}, not {where}",
                path,
                token=_tok(token),
            )
            return
        got = len(getattr(tensor, where))
        allowed = {nelem * 2} if dt.kind == "complex" else {nelem}
        if dt.is_packed:
            allowed.add((nelem * dt.bits + 7) // 8)
            allowed.add((nelem * dt.bits + 31) // 32)
        if got not in allowed:
            ctx.report(
                self.code,
                f"{label} of shape {dims} needs {min(allowed)} values, has {got}",
                path,
                token=_tok(token),
            )

    def _external(
        self, ctx: CheckContext, tensor: TensorProto, dt: DType, nelem: int, path: str, token: object
    ) -> None:
        """External bytes are what raw_data would hold, so 'length' (when given) is raw_data's size."""
        label = _label(tensor)
        if dt.kind == "string":
            ctx.report(
                self.code,
                f"{label} of strings cannot be stored externally (external data is raw bytes)",
                path,
                token=_tok(token),
            )
            return
        entries = external_entries(tensor)
        length = integer_entry(entries, "length")
        expected = (nelem * dt.bits + 7) // 8
        if length is not None and length != expected:
            ctx.report(
                self.code,
                f"{label} of {dt.name}{list(tensor.dims)} needs {expected} bytes of external data, its "
                f"'length' is {length}",
                path,
                token=entry_token(entries["length"][0], token),
            )
