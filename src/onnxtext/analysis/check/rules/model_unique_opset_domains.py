"""W106: An operator-set domain imported twice with different versions ('' and 'ai.onnx' are the same domain).

onnx.checker and onnxruntime accept it and take the last import, as we do; the same version
twice is harmless: W105 says so."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.model_opset_import import duplicates
from onnxtext.proto import FunctionProto, ModelProto


class UniqueOpsetDomains(Rule):
    code = "W106"
    name = "conflicting-opset-imports"
    description = (
        "An operator-set domain imported twice with different versions ('' and 'ai.onnx' are the same domain): "
        "onnx.checker and onnxruntime take the last."
    )

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        duplicates(ctx, self.code, list(model.opset_import), "header", same_version=False)

    def function(self, ctx: CheckContext, fn: FunctionProto, path: str) -> None:
        duplicates(ctx, self.code, list(fn.opset_import), path, same_version=False)
