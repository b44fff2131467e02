"""Every checker rule, one small class per concern; ``ALL_RULES`` lists them by code."""

from __future__ import annotations

from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.function_attribute_declared import FunctionAttributeDeclared
from onnxtext.analysis.check.rules.function_attribute_default import FunctionAttributeDefault
from onnxtext.analysis.check.rules.function_opset_compatible import FunctionOpsetCompatible
from onnxtext.analysis.check.rules.function_recursion import FunctionRecursion
from onnxtext.analysis.check.rules.function_signature import FunctionSignature
from onnxtext.analysis.check.rules.function_unique import UniqueFunctions
from onnxtext.analysis.check.rules.graph_dims_non_negative import DimsNonNegative
from onnxtext.analysis.check.rules.graph_initializers import UniqueInitializers
from onnxtext.analysis.check.rules.graph_initializers_are_inputs import InitializersAreInputs
from onnxtext.analysis.check.rules.graph_io_types import MainIoTyped
from onnxtext.analysis.check.rules.graph_main_io_shaped import MainIoShaped
from onnxtext.analysis.check.rules.graph_name import GraphName
from onnxtext.analysis.check.rules.graph_outputs import OutputsProduced
from onnxtext.analysis.check.rules.graph_ssa import SingleAssignment
from onnxtext.analysis.check.rules.graph_subgraph_outputs_local import SubgraphOutputsLocal
from onnxtext.analysis.check.rules.graph_use_before_def import DefinedBeforeUse
from onnxtext.analysis.check.rules.model_domain_naming import DomainNaming
from onnxtext.analysis.check.rules.model_ir_version import IrVersionPresent
from onnxtext.analysis.check.rules.model_ir_version_known import IrVersionKnown
from onnxtext.analysis.check.rules.model_metadata import UniqueMetadataKeys
from onnxtext.analysis.check.rules.model_opset_import import OpsetImportPresent
from onnxtext.analysis.check.rules.model_opset_import_repeated import RepeatedOpsetImport
from onnxtext.analysis.check.rules.model_opset_version_known import OpsetVersionKnown
from onnxtext.analysis.check.rules.model_text_fields import TextFields
from onnxtext.analysis.check.rules.model_unique_opset_domains import UniqueOpsetDomains
from onnxtext.analysis.check.rules.model_version import ModelVersion
from onnxtext.analysis.check.rules.model_versions import IrOpsetCompatible
from onnxtext.analysis.check.rules.names_c90 import C90Names
from onnxtext.analysis.check.rules.node_arity import InputArity
from onnxtext.analysis.check.rules.node_attribute_element_type import AttributeElementType
from onnxtext.analysis.check.rules.node_attribute_range import AttributeRange
from onnxtext.analysis.check.rules.node_attribute_ref import AttributeReference
from onnxtext.analysis.check.rules.node_attribute_single_value import AttributeSingleValue
from onnxtext.analysis.check.rules.node_attribute_type import AttributeType
from onnxtext.analysis.check.rules.node_attributes import KnownAttribute
from onnxtext.analysis.check.rules.node_axis_range import AxisInRange
from onnxtext.analysis.check.rules.node_domain_imported import DomainImported
from onnxtext.analysis.check.rules.node_local_function_resolved import LocalFunctionResolved
from onnxtext.analysis.check.rules.node_operator import KnownOperator
from onnxtext.analysis.check.rules.node_output_arity import OutputArity
from onnxtext.analysis.check.rules.node_required_attribute import RequiredAttribute
from onnxtext.analysis.check.rules.node_unique_attributes import UniqueAttributes
from onnxtext.analysis.check.rules.tensor_data_size import TensorDataSize
from onnxtext.analysis.check.rules.tensor_data_type import TensorDataType
from onnxtext.analysis.check.rules.tensor_external import ExternalData
from onnxtext.analysis.check.rules.tensor_external_data_file import ExternalDataFile
from onnxtext.analysis.check.rules.tensor_external_data_keys import ExternalDataKeys
from onnxtext.analysis.check.rules.tensor_external_data_range import ExternalDataRange
from onnxtext.analysis.check.rules.tensor_sparse import SparseTensor
from onnxtext.analysis.check.rules.tensor_values_range import TensorValuesRange
from onnxtext.analysis.check.rules.training_bindings import TrainingBindings
from onnxtext.analysis.check.rules.type_constraint import TypeConstraint
from onnxtext.analysis.check.rules.type_control_flow import ControlFlowTypes
from onnxtext.analysis.check.rules.type_declared import DeclaredType
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
            RepeatedOpsetImport,
            UniqueMetadataKeys,
            TextFields,
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
            DimsNonNegative,
            SubgraphOutputsLocal,
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
            AttributeRange,
            AttributeElementType,
            LocalFunctionResolved,
            UniqueFunctions,
            FunctionSignature,
            FunctionAttributeDefault,
            FunctionOpsetCompatible,
            FunctionRecursion,
            FunctionAttributeDeclared,
            TensorDataSize,
            TensorDataType,
            TensorValuesRange,
            ExternalData,
            ExternalDataFile,
            ExternalDataRange,
            ExternalDataKeys,
            SparseTensor,
            TrainingBindings,
            TypeConstraint,
            SameConstraintType,
            ShapeMismatch,
            DeclaredType,
            AxisInRange,
            ControlFlowTypes,
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
