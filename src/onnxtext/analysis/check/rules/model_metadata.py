"""E105: metadata_props keys are distinct."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import ModelProto


class UniqueMetadataKeys(Rule):
    code = "E105"
    name = "unique-metadata-keys"
    description = "Keys of the model's metadata_props must be distinct."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        seen: dict[str, int] = {}
        for i, entry in enumerate(model.metadata_props):
            if entry.key in seen:
                ctx.report(
                    self.code,
                    f"metadata key '{entry.key}' appears more than once",
                    "header",
                    token=("key", "metadata_props", i),
                    related=(("first here", "header", ("key", "metadata_props", seen[entry.key])),),
                )
            else:
                seen[entry.key] = i
