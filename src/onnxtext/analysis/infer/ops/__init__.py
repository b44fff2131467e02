"""Shape functions by operator family; importing this package registers them all."""

from onnxtext.analysis.infer.ops import (  # noqa: F401
    controlflow,
    conv,
    elem_types,
    elementwise,
    matmul,
    ml,
    nn,
    reduce,
    resize,
    sequence,
    signal,
    strings,
    tensor,
)
