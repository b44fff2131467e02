"""Every checker rule, one small class per concern; ``ALL_RULES`` lists them by code."""

from __future__ import annotations

from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.function_rules import (
    FunctionAttributeDefault,
    FunctionOpsetCompatible,
    FunctionSignature,
    UniqueFunctions,
)
from onnxtext.analysis.check.rules.graph_initializers import InitializersAreInputs, UniqueInitializers
from onnxtext.analysis.check.rules.graph_io_types import MainIoShaped, MainIoTyped
from onnxtext.analysis.check.rules.graph_name import GraphName
from onnxtext.analysis.check.rules.graph_outputs import OutputsProduced
from onnxtext.analysis.check.rules.graph_ssa import SingleAssignment
from onnxtext.analysis.check.rules.graph_use_before_def import DefinedBeforeUse
from onnxtext.analysis.check.rules.model_ir_version import IrVersionKnown, IrVersionPresent
from onnxtext.analysis.check.rules.model_metadata import UniqueMetadataKeys
from onnxtext.analysis.check.rules.model_opset_import import (
    OpsetImportPresent,
    OpsetVersionKnown,
    UniqueOpsetDomains,
)
from onnxtext.analysis.check.rules.model_versions import DomainNaming, IrOpsetCompatible, ModelVersion
from onnxtext.analysis.check.rules.names_c90 import C90Names
from onnxtext.analysis.check.rules.node_arity import InputArity, OutputArity
from onnxtext.analysis.check.rules.node_attribute_ref import AttributeReference
from onnxtext.analysis.check.rules.node_attributes import (
    AttributeSingleValue,
    AttributeType,
    KnownAttribute,
    RequiredAttribute,
    UniqueAttributes,
)
from onnxtext.analysis.check.rules.node_operator import DomainImported, KnownOperator, LocalFunctionResolved
from onnxtext.analysis.check.rules.tensor_external import (
    ExternalData,
    ExternalDataFile,
    ExternalDataKeys,
    ExternalDataRange,
)
from onnxtext.analysis.check.rules.tensor_rules import TensorDataSize, TensorDataType
from onnxtext.analysis.check.rules.tensor_sparse import SparseTensor
from onnxtext.analysis.check.rules.training_bindings import TrainingBindings
from onnxtext.analysis.check.rules.type_constraint import TypeConstraint
from onnxtext.analysis.check.rules.type_same_constraint import SameConstraintType
from onnxtext.analysis.check.rules.type_shape import ShapeMismatch

__all__ = ["ALL_RULES", "Rule", "rule_by_code"]

ALL_RULES: tuple[type[Rule], ...] = tuple(
    sorted(
        (
            IrVersionPresent,
            IrVersionKnown,
            OpsetImportPresent,
            UniqueOpsetDomains,
            UniqueMetadataKeys,
            IrOpsetCompatible,
            ModelVersion,
            DomainNaming,
            OpsetVersionKnown,
            GraphName,
            MainIoTyped,
            SingleAssignment,
            DefinedBeforeUse,
            OutputsProduced,
            UniqueInitializers,
            InitializersAreInputs,
            MainIoShaped,
            C90Names,
            KnownOperator,
            DomainImported,
            InputArity,
            OutputArity,
            KnownAttribute,
            AttributeType,
            RequiredAttribute,
            UniqueAttributes,
            AttributeReference,
            AttributeSingleValue,
            LocalFunctionResolved,
            UniqueFunctions,
            FunctionSignature,
            FunctionAttributeDefault,
            FunctionOpsetCompatible,
            TensorDataSize,
            TensorDataType,
            ExternalData,
            ExternalDataFile,
            ExternalDataRange,
            ExternalDataKeys,
            SparseTensor,
            TrainingBindings,
            TypeConstraint,
            SameConstraintType,
            ShapeMismatch,
        ),
        key=lambda r: (r.code[0] == "W", r.code),
    )
)
"""Errors first, then warnings, each by code."""


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in ALL_RULES:
        if rule.code == code:
            return rule
    return None
