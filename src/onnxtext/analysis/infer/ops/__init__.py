"""Shape functions by operator family; importing this package registers them all."""

from onnxtext.analysis.infer.ops import controlflow, conv, elem_types, elementwise, matmul, nn, reduce, sequence, tensor  # noqa: F401  # noqa: F401  # noqa: F401
