"""Kernels, one module per operator family; importing this package registers them all."""

from __future__ import annotations

import importlib

_MODULES = [
    "elementwise",
    "math",
    "logical",
    "reduce",
    "tensor",
    "nn",
    "controlflow",
    "sequence",
    "random",
    "quantize",
    "rnn",
    "image",
    "imagecodec",
    "ml",
    "training",
    "text",
    "signal",
    "attention",
    "contrib",
]

for _m in _MODULES:
    try:
        importlib.import_module(f"{__name__}.{_m}")
    except ModuleNotFoundError as _exc:
        if _exc.name != f"{__name__}.{_m}":
            raise
