"""E702: inputs bound to the same type constraint have the same type."""

from __future__ import annotations

from onnxtext.analysis.check.rule import InferenceRule
from onnxtext.analysis.infer.node import Finding


class SameConstraintType(InferenceRule):
    code = "E702"
    name = "same-constraint-different-types"
    description = "Inputs that share a type constraint have the same type (e.g. no Add(float, int64))."
    finding = Finding.SAME_CONSTRAINT
