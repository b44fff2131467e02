"""E104: An operator-set domain is imported with one version ('' and 'ai.onnx' are the same domain).

The same version twice is harmless (onnx.checker and onnxruntime accept it): W105 says so."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.model_opset_import import duplicates
from onnxtext.proto import FunctionProto, ModelProto


class UniqueOpsetDomains(Rule):
    code = "E104"
    name = "unique-opset-domains"
    description = (
        "An operator-set domain is imported with one version, not two different ones ('' and 'ai.onnx' are the "
        "same domain)."
    )

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        duplicates(ctx, self.code, list(model.opset_import), "header", same_version=False)

    def function(self, ctx: CheckContext, fn: FunctionProto, path: str) -> None:
        duplicates(ctx, self.code, list(fn.opset_import), path, same_version=False)
