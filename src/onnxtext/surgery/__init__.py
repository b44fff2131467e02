"""Model surgery on ``ModelProto``: extract a sub-model, edit one (the editor's gestures), merge two.

Every operation is lossless: the fields it does not touch stay byte for byte as they were, and no
inferred type is written unless the operation needs one (a new input or output nothing declares).
Bad input (a name the model does not have, a value of the wrong kind, conflicting opsets) raises
:class:`SurgeryError`, whose diagnostics name the model's place and the nearest names.

>>> from onnxtext.surgery import extract, rename_value  # doctest: +SKIP
>>> sub = extract(model, ["x"], ["hidden"]).model  # doctest: +SKIP
"""

from __future__ import annotations

from onnxtext.surgery.edit import (
    Dim,
    add_output,
    array_tensor,
    delete_node,
    find_node,
    identity_input,
    initializer_to_input,
    make_constant,
    only_feeders,
    remove_output,
    rename_value,
    set_input_shape,
)
from onnxtext.surgery.extract import Result, extract
from onnxtext.surgery.merge import merge
from onnxtext.surgery.outline import extract_function, function_signature
from onnxtext.surgery.problems import SurgeryError

__all__ = [
    "Dim",
    "Result",
    "SurgeryError",
    "add_output",
    "array_tensor",
    "delete_node",
    "extract",
    "extract_function",
    "find_node",
    "function_signature",
    "identity_input",
    "initializer_to_input",
    "make_constant",
    "merge",
    "only_feeders",
    "remove_output",
    "rename_value",
    "set_input_shape",
]
