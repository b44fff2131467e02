"""W501: external_data keys are location, offset, length and checksum, each once."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import tensor_label
from onnxtext.analysis.check.rules.tensor_external import EXTERNAL_KEYS, entry_token
from onnxtext.proto import TensorProto


class ExternalDataKeys(Rule):
    code = "W501"
    name = "external-data-keys"
    description = "external_data keys are location, offset, length and checksum, each once."

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        entries = tensor.external_data
        if not entries:
            return
        seen: set[str] = set()
        label = tensor_label(tensor)
        for i, entry in enumerate(entries):
            if entry.key not in EXTERNAL_KEYS:
                ctx.report(
                    self.code,
                    f"unknown external_data key '{entry.key}' of {label} (known: location, offset, length, checksum)",
                    path,
                    token=entry_token(i, token),
                )
            elif entry.key in seen:
                ctx.report(
                    self.code,
                    f"external_data key '{entry.key}' of {label} is given twice",
                    path,
                    token=entry_token(i, token),
                )
            seen.add(entry.key)
