"""Every checker rule, one small class per concern; ``ALL_RULES`` lists them by code."""

from __future__ import annotations

from ..rule import Rule
from .function_rules import (
    FunctionAttributeDefault,
    FunctionOpsetCompatible,
    FunctionSignature,
    UniqueFunctions,
)
from .graph_initializers import InitializersAreInputs, UniqueInitializers
from .graph_io_types import MainIoShaped, MainIoTyped
from .graph_name import GraphName
from .graph_outputs import OutputsProduced
from .graph_ssa import SingleAssignment
from .graph_use_before_def import DefinedBeforeUse
from .model_ir_version import IrVersionKnown, IrVersionPresent
from .model_metadata import UniqueMetadataKeys
from .model_opset_import import (
    OpsetImportPresent,
    OpsetVersionKnown,
    UniqueOpsetDomains,
)
from .model_versions import DomainNaming, IrOpsetCompatible, ModelVersion
from .names_c90 import C90Names
from .node_arity import InputArity, OutputArity
from .node_attribute_ref import AttributeReference
from .node_attributes import (
    AttributeSingleValue,
    AttributeType,
    KnownAttribute,
    RequiredAttribute,
    UniqueAttributes,
)
from .node_operator import DomainImported, KnownOperator, LocalFunctionResolved
from .tensor_external import (
    ExternalData,
    ExternalDataFile,
    ExternalDataKeys,
    ExternalDataRange,
)
from .tensor_rules import TensorDataSize, TensorDataType
from .tensor_sparse import SparseTensor
from .training_bindings import TrainingBindings
from .type_constraint import TypeConstraint
from .type_same_constraint import SameConstraintType
from .type_shape import ShapeMismatch

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
