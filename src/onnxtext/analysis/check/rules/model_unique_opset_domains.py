"""E104: Each operator-set domain is imported at most once ('' and 'ai.onnx' are the same domain)."""

from __future__ import annotations

from onnxtext.proto import ModelProto
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.model_opset_import import duplicates


class UniqueOpsetDomains(Rule):
    code = "E104"
    name = "unique-opset-domains"
    description = "Each operator-set domain is imported at most once ('' and 'ai.onnx' are the same domain)."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        duplicates(ctx, self.code, list(model.opset_import), "header")

    def function(self, ctx: CheckContext, fn: object, path: str) -> None:
        duplicates(ctx, self.code, list(getattr(fn, "opset_import")), path)
