"""E506: An external tensor's 'offset' and 'length' are non-negative integers, and its bytes lie inside the file."""

from __future__ import annotations

import stat

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import tensor_label
from onnxtext.analysis.check.rules.tensor_external import INTEGER, Files, entry_token, external_entries, integer_entry
from onnxtext.proto import TensorProto
from onnxtext.weights.external import is_external


class ExternalDataRange(Rule):
    code = "E506"
    name = "external-data-range"
    description = (
        "An external tensor's 'offset' and 'length' are non-negative integers, and its bytes lie inside the file."
    )

    def __init__(self) -> None:
        self.files = Files()

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        if not is_external(tensor):
            return
        entries = external_entries(tensor)
        label = tensor_label(tensor)
        malformed = False
        for key in ("offset", "length"):
            found = entries.get(key)
            if found is not None and not INTEGER.fullmatch(found[1]):
                malformed = True
                ctx.report(
                    self.code,
                    f"external data '{key}' of {label} must be a non-negative integer, not '{found[1]}'",
                    path,
                    token=entry_token(found[0], token),
                )
        file = None if malformed else self.files.file(ctx, tensor)
        if file is None:
            return
        location, _, st = file
        if st is None or not stat.S_ISREG(st.st_mode):
            return  # E505 reports it
        offset = integer_entry(entries, "offset") or 0
        length = integer_entry(entries, "length")
        if offset + (length or 0) <= st.st_size:
            return
        span = f"offset {offset} + length {length} = {offset + length}" if length is not None else f"offset {offset}"
        where = entries["length"][0] if length is not None else entries["offset"][0]
        ctx.report(
            self.code,
            f"external data of {label} is past the end of '{location}' ({st.st_size} bytes): {span}",
            path,
            token=entry_token(where, token),
        )
