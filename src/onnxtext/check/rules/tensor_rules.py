"""E501 / E502 / E503 / W501: tensors have a valid type, as many values as their dims say, sound external data."""

from __future__ import annotations

import math

from ...dtypes import dtype_by_code
from ...proto import TensorProto
from ..context import CheckContext, Token
from ..rule import Rule

_TYPED = ("float_data", "int32_data", "string_data", "int64_data", "double_data", "uint64_data")
EXTERNAL_KEYS = ("location", "offset", "length", "checksum", "basepath")


def _label(t: TensorProto) -> str:
    return f"tensor '{t.name}'" if t.name else "tensor"


def _external(t: TensorProto) -> bool:
    return t.HasField("data_location") and t.data_location == TensorProto.EXTERNAL


class TensorDataType(Rule):
    code = "E502"
    name = "tensor-data-type"
    description = "A tensor's data_type is set to a known element type."

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        if tensor.data_type == 0:
            ctx.report(self.code, f"{_label(tensor)} has no data_type", path, token=_tok(token))
        elif dtype_by_code(tensor.data_type) is None:
            ctx.report(self.code, f"{_label(tensor)} has unknown data_type {tensor.data_type}", path, token=_tok(token))


def _tok(token: object) -> Token:
    return token if isinstance(token, tuple) else "type"


class TensorDataSize(Rule):
    code = "E501"
    name = "tensor-data-size"
    description = "A tensor stores its values in one field, as many as the product of its dims."

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        if _external(tensor):
            return
        dt = dtype_by_code(tensor.data_type)
        if any(d < 0 for d in tensor.dims):
            ctx.report(self.code, f"{_label(tensor)} has a negative dimension {list(tensor.dims)}", path, token=_tok(token))
            return
        nelem = math.prod(tensor.dims)
        fields = [f for f in _TYPED if len(getattr(tensor, f))]
        if tensor.HasField("raw_data"):
            fields.append("raw_data")
        label = _label(tensor)
        if len(fields) > 1:
            ctx.report(self.code, f"{label} stores values in several fields ({', '.join(fields)})", path, token=_tok(token))
            return
        if not fields:
            if nelem:
                ctx.report(self.code, f"{label} of shape {list(tensor.dims)} has no values", path, token=_tok(token))
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
                    f"{label} of {dt.name}{list(tensor.dims)} needs {expected} bytes of raw_data, has {got}",
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
                f"{label} of shape {list(tensor.dims)} needs {min(allowed)} values, has {got}",
                path,
                token=_tok(token),
            )


class ExternalData(Rule):
    code = "E503"
    name = "external-data"
    description = "A tensor stored externally names its file ('location') and holds no values of its own."

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        if not _external(tensor):
            if len(tensor.external_data):
                ctx.report(
                    self.code,
                    f"{_label(tensor)} has external_data entries but data_location is not EXTERNAL",
                    path,
                    token=_tok(token),
                )
            return
        keys = [e.key for e in tensor.external_data]
        if "location" not in keys:
            ctx.report(self.code, f"{_label(tensor)} is stored externally but has no 'location'", path, token=_tok(token))
        if any(len(getattr(tensor, f)) for f in _TYPED) or tensor.HasField("raw_data"):
            ctx.report(self.code, f"{_label(tensor)} is stored externally but also holds values", path, token=_tok(token))


class ExternalDataKeys(Rule):
    code = "W501"
    name = "external-data-keys"
    description = "external_data keys are location, offset, length and checksum, each once."

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        seen: set[str] = set()
        for entry in tensor.external_data:
            if entry.key not in EXTERNAL_KEYS:
                ctx.report(
                    self.code,
                    f"unknown external_data key '{entry.key}' of {_label(tensor)} (known: location, offset, length, checksum)",
                    path,
                    token=_tok(token),
                )
            elif entry.key in seen:
                ctx.report(self.code, f"external_data key '{entry.key}' of {_label(tensor)} is given twice", path, token=_tok(token))
            seen.add(entry.key)
            if entry.key in ("offset", "length") and not entry.value.isdigit():
                ctx.report(
                    self.code,
                    f"external_data '{entry.key}' of {_label(tensor)} must be a non-negative integer, not '{entry.value}'",
                    path,
                    token=_tok(token),
                )
