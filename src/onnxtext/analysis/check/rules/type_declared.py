"""E704: A declared type (graph output, value_info) agrees with what the producing node or the initializer gives."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import InferenceRule
from onnxtext.analysis.infer.node import Finding, Issue
from onnxtext.analysis.infer.text import type_text
from onnxtext.diagnostics import Fix


class DeclaredType(InferenceRule):
    code = "E704"
    name = "declared-type"
    description = (
        "The type a graph output or value_info declares agrees with what its node or initializer gives, as "
        "far as inference "
        "proves: element type, rank, known sizes (runtimes refuse such models)."
    )
    finding = Finding.DECLARED

    def fix(self, ctx: CheckContext, issue: Issue) -> Fix | None:
        """Declare the value as its node gives it (``float[2, 8, 32, 32]``), when the text can write that type."""
        text = type_text(issue.declare)
        if text is None:
            return None
        return ctx.replacing(f"declare it as inferred: {text}", str(issue.path), issue.token, text)
