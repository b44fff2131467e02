"""W105: An operator-set domain imported twice with the same version (harmless; one entry is enough)."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.model_opset_import import duplicates
from onnxtext.proto import FunctionProto, ModelProto


class RepeatedOpsetImport(Rule):
    code = "W105"
    name = "repeated-opset-import"
    description = (
        "An operator-set domain is imported twice with the same version: harmless (exporters such as "
        "skl2onnx write it, runtimes accept it), one entry is enough."
    )

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        duplicates(ctx, self.code, list(model.opset_import), "header", same_version=True)

    def function(self, ctx: CheckContext, fn: FunctionProto, path: str) -> None:
        duplicates(ctx, self.code, list(fn.opset_import), path, same_version=True)
