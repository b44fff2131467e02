"""Random generators. A ``seed`` attribute gives a generator of its own (same output every run);
otherwise the evaluator's generator is used, restarted from ``Evaluator(seed=...)`` at each run."""

from __future__ import annotations

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.ops._util import cast_to
from onnxtext.evaluate.registry import kernel


def _gen(ctx, seed):
    return np.random.default_rng(int(np.float32(seed).view(np.uint32))) if seed is not None else ctx.rng()


def _dt(dtype, like=None):
    if dtype is not None:
        return int(dtype)
    if like is not None:
        return T.elem_type_of(like.dtype)
    return T.FLOAT


@kernel("", "RandomUniform", 1)
def random_uniform(*, dtype=1, high=1.0, low=0.0, seed=None, shape, ctx):
    return cast_to(_gen(ctx, seed).uniform(low, high, size=tuple(shape)), dtype)


@kernel("", "RandomNormal", 1)
def random_normal(*, dtype=1, mean=0.0, scale=1.0, seed=None, shape, ctx):
    return cast_to(_gen(ctx, seed).normal(mean, scale, size=tuple(shape)), dtype)


@kernel("", "RandomUniformLike", 1)
def random_uniform_like(x, *, dtype=None, high=1.0, low=0.0, seed=None, ctx):
    return cast_to(_gen(ctx, seed).uniform(low, high, size=x.shape), _dt(dtype, x))


@kernel("", "RandomNormalLike", 1)
def random_normal_like(x, *, dtype=None, mean=0.0, scale=1.0, seed=None, ctx):
    return cast_to(_gen(ctx, seed).normal(mean, scale, size=x.shape), _dt(dtype, x))


@kernel("", "Bernoulli", 15)
def bernoulli(x, *, dtype=None, seed=None, ctx):
    u = _gen(ctx, seed).uniform(0.0, 1.0, size=x.shape)
    return cast_to(u < x, _dt(dtype, x))


@kernel("", "Multinomial", 7)
def multinomial(x, *, dtype=6, sample_size=1, seed=None, ctx):
    rng = _gen(ctx, seed)
    logits = x.astype(np.float64)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    cdf = np.cumsum(p / p.sum(axis=1, keepdims=True), axis=1)
    u = rng.uniform(size=(x.shape[0], sample_size))
    idx = (u[:, :, None] > cdf[:, None, :]).sum(axis=2)
    return np.minimum(idx, x.shape[1] - 1).astype(T.np_dtype(dtype))
