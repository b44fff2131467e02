"""onnxruntime's com.microsoft operators that its transformers optimizer fuses exported models into
(``onnxruntime.transformers.optimizer.optimize_model``): SkipLayerNormalization, FastGelu."""

from __future__ import annotations

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops.nn import layer_norm
from onnxtext.evaluate.registry import kernel

MS = "com.microsoft"


@kernel(MS, "SkipLayerNormalization", 1)
def skip_layer_norm(x, skip, gamma, beta=None, bias=None, *, epsilon=1e-12):
    """LayerNormalization over the last axis of ``x + skip + bias``; the outputs are the normalized
    value, its mean and inverse standard deviation, and the sum itself (the next residual)."""
    try:
        total = x + skip if bias is None else x + skip + bias
    except ValueError:
        message = f"skip {list(skip.shape)} does not broadcast to input {list(x.shape)}"
        raise KernelError(message, input_index=1) from None
    y, mean, inv = layer_norm(total, gamma, beta, axis=-1, epsilon=epsilon)
    return y, mean, inv, total.astype(x.dtype)


@kernel(MS, "FastGelu", 1)
def fast_gelu(x, bias=None):
    """GELU by its tanh approximation, of ``x + bias``: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))."""
    v = (x if bias is None else x + bias).astype(np.float64)
    y = 0.5 * v * (1 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v**3)))
    return y.astype(x.dtype)
