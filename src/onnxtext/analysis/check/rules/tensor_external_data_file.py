"""E505: The file an external tensor's 'location' names exists in the model's folder
(checked when the model is read from a file)."""

from __future__ import annotations

import stat

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import tensor_label
from onnxtext.analysis.check.rules.tensor_external import Files, entry_token
from onnxtext.proto import TensorProto
from onnxtext.weights.external import is_external


class ExternalDataFile(Rule):
    code = "E505"
    name = "external-data-file"
    description = (
        "The file an external tensor's 'location' names exists in the model's folder (checked when the model "
        "is read from a file)."
    )

    def __init__(self) -> None:
        self.files = Files()

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        if not is_external(tensor):
            return
        found = self.files.file(ctx, tensor)
        if found is None:
            return
        location, index, st = found
        if st is None:
            message = (
                f"external data file '{location}' of {tensor_label(tensor)} does not exist in the model's "
                f"folder {str(ctx.model_dir)!r}"
            )
        elif not stat.S_ISREG(st.st_mode):
            message = f"external data location '{location}' of {tensor_label(tensor)} is not a file"
        else:
            return
        ctx.report(self.code, message, path, token=entry_token(index, token))
