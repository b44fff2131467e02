"""W102: model_version should be a non-negative integer."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import ModelProto


class ModelVersion(Rule):
    code = "W102"
    name = "model-version"
    description = "model_version should be a non-negative integer."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        if model.model_version < 0:
            ctx.report(
                self.code,
                f"model_version {model.model_version} is negative",
                "header",
                token=("key", "model_version"),
            )
