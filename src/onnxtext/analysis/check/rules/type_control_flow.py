"""E706: Control flow keeps types: If's branches give the same types, a Loop's or Scan's body
gives back each carried value with the type it came in with."""

from __future__ import annotations

from onnxtext.analysis.check.rule import InferenceRule
from onnxtext.analysis.infer.node import Finding


class ControlFlowTypes(InferenceRule):
    code = "E706"
    name = "control-flow-types"
    description = (
        "If's branches give outputs of the same types (and as many); a Loop's or Scan's body gives back each "
        "carried value with the element type it came in with."
    )
    finding = Finding.CONTROL_FLOW
