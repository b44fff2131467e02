"""ai.onnx.preview.training optimisers: Adagrad, Adam, Momentum (one update step)."""

from __future__ import annotations

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.registry import kernel

D = "ai.onnx.preview.training"


def _groups(tensors, k):
    if len(tensors) % k:
        raise KernelError(f"expected the tensor inputs in {k} groups of equal size, got {len(tensors)}")
    n = len(tensors) // k
    return [tensors[i * n : (i + 1) * n] for i in range(k)]


@kernel(D, "Adagrad", 1)
def adagrad(r, t, *tensors, decay_factor=0.0, epsilon=1e-6, norm_coefficient=0.0):
    xs, gs, hs = _groups(tensors, 3)
    rate = float(r) / (1 + float(t) * decay_factor)
    new_x, new_h = [], []
    for x, g, h in zip(xs, gs, hs, strict=True):
        greg = norm_coefficient * x + g
        h2 = h + greg * greg
        new_x.append((x - rate * greg / (np.sqrt(h2) + epsilon)).astype(x.dtype))
        new_h.append(h2.astype(h.dtype))
    return tuple(new_x + new_h)


@kernel(D, "Momentum", 1)
def momentum(r, t, *tensors, alpha, beta, mode, norm_coefficient):
    xs, gs, vs = _groups(tensors, 3)
    b = beta if float(t) > 0 else 1.0
    new_x, new_v = [], []
    for x, g, v in zip(xs, gs, vs, strict=True):
        greg = norm_coefficient * x + g
        v2 = alpha * v + b * greg
        if mode == "nesterov":
            x2 = x - float(r) * (greg + alpha * v2)
        else:
            x2 = x - float(r) * v2
        new_x.append(x2.astype(x.dtype))
        new_v.append(v2.astype(v.dtype))
    return tuple(new_x + new_v)


@kernel(D, "Adam", 1)
def adam(r, t, *tensors, alpha=0.9, beta=0.999, epsilon=1e-6, norm_coefficient=0.0, norm_coefficient_post=0.0):
    xs, gs, vs, hs = _groups(tensors, 4)
    tt = float(t)
    rate = float(r)
    if tt > 0:
        rate = rate * np.sqrt(1 - beta**tt) / (1 - alpha**tt)
    out_x, out_v, out_h = [], [], []
    for x, g, v, h in zip(xs, gs, vs, hs, strict=True):
        greg = norm_coefficient * x + g
        v2 = alpha * v + (1 - alpha) * greg
        h2 = beta * h + (1 - beta) * greg * greg
        x2 = x - rate * (v2 / (np.sqrt(h2) + epsilon))
        x2 = (1 - norm_coefficient_post) * x2
        out_x.append(x2.astype(x.dtype))
        out_v.append(v2.astype(v.dtype))
        out_h.append(h2.astype(h.dtype))
    return tuple(out_x + out_v + out_h)
