"""E106: String fields (names, operators, domains, doc strings) hold UTF-8 text."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import ModelProto


class TextFields(Rule):
    code = "E106"
    name = "text-fields-utf8"
    description = (
        "String fields (names, operators, domains, doc strings) hold UTF-8 text, as protobuf's string type requires."
    )

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        for path in ctx.undecodable:
            owner, _, field = path.rpartition("/")
            ctx.report(
                self.code,
                f"'{field}' holds bytes that are not UTF-8 text (the other rules read it with U+FFFD for "
                "each bad byte)",
                owner or "header",
            )
