"""E701: a node input's type is one its operator's type constraint allows."""

from __future__ import annotations

from onnxtext.analysis.check.rule import InferenceRule
from onnxtext.analysis.infer.node import Finding


class TypeConstraint(InferenceRule):
    code = "E701"
    name = "type-constraint"
    description = "The type of a node input is one the operator's type constraint allows (e.g. no string MatMul)."
    finding = Finding.TYPE_CONSTRAINT
