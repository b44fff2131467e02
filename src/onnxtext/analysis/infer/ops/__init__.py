"""Shape functions by operator family; importing this package registers them all."""

from onnxtext.analysis.infer.ops import elementwise, tensor  # noqa: F401
from onnxtext.analysis.infer.ops import conv, matmul, nn, reduce  # noqa: F401
from onnxtext.analysis.infer.ops import controlflow, elem_types, sequence  # noqa: F401
