"""E704: A declared type (graph output, value_info) agrees with what the producing node or the initializer gives."""

from __future__ import annotations

from onnxtext.analysis.check.rule import InferenceRule
from onnxtext.analysis.infer.node import Finding


class DeclaredType(InferenceRule):
    code = "E704"
    name = "declared-type"
    description = (
        "The type a graph output or value_info declares agrees with what its node or initializer gives, as "
        "far as inference "
        "proves: element type, rank, known sizes (runtimes refuse such models)."
    )
    finding = Finding.DECLARED
