"""Shape functions by operator family; importing this package registers them all."""

from . import elementwise, tensor  # noqa: F401
from . import conv, matmul, nn, reduce  # noqa: F401
from . import controlflow, sequence  # noqa: F401
