"""Recurrent layers: RNN, GRU, LSTM (time loop, vectorised over batch and hidden units)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.registry import kernel


def _act(name: str, alpha: float | None, beta: float | None) -> Callable[[np.ndarray], np.ndarray]:
    n = name.lower()
    if n == "sigmoid":
        return lambda x: 1 / (1 + np.exp(-x))
    if n == "tanh":
        return np.tanh
    if n == "relu":
        return lambda x: np.maximum(x, 0)
    if n == "affine":
        return lambda x: (1.0 if alpha is None else alpha) * x + (0.0 if beta is None else beta)
    if n == "leakyrelu":
        a = 0.01 if alpha is None else alpha
        return lambda x: np.where(x >= 0, x, a * x)
    if n == "thresholdedrelu":
        a = 1.0 if alpha is None else alpha
        return lambda x: np.where(x > a, x, 0)
    if n == "scaledtanh":
        return lambda x: (1.0 if alpha is None else alpha) * np.tanh((1.0 if beta is None else beta) * x)
    if n == "hardsigmoid":
        a = 0.2 if alpha is None else alpha
        b = 0.5 if beta is None else beta
        return lambda x: np.clip(a * x + b, 0, 1)
    if n == "elu":
        a = 1.0 if alpha is None else alpha
        return lambda x: np.where(x > 0, x, a * (np.exp(x) - 1))
    if n == "softsign":
        return lambda x: x / (1 + np.abs(x))
    if n == "softplus":
        return lambda x: np.log1p(np.exp(x))
    raise KernelError(f"unknown activation {name!r}")


def _acts(activations, alphas, betas, defaults, ndir):
    names = list(activations) if activations else defaults * ndir
    if len(names) == len(defaults) and ndir == 2:
        names = names * 2
    al = list(alphas) if alphas else []
    be = list(betas) if betas else []
    return [_act(nm, al[i] if i < len(al) else None, be[i] if i < len(be) else None) for i, nm in enumerate(names)]


def _prep(x, layout):
    return np.swapaxes(x, 0, 1) if layout else x


def _run(cell, x, init_states, seq_lens, direction, ndir, layout, clip):
    """Shared driver: x (seq, batch, in); cell(d, xt, states) -> new states (first is h)."""
    seq, batch = x.shape[:2]
    lens = np.full(batch, seq, dtype=np.int64) if seq_lens is None else np.asarray(seq_lens).astype(np.int64)
    ys = []
    finals: list[list[np.ndarray]] = []
    for d in range(ndir):
        reverse = direction == "reverse" or d == 1
        states = [s[d] for s in init_states]
        y = np.zeros((seq, batch) + states[0].shape[1:], dtype=np.float64)
        for step in range(seq):  # recurrence over time steps
            t = step
            if reverse:
                # each batch entry reads its own sequence backwards from its last valid step
                tt = lens - 1 - step
                valid = tt >= 0
                xt = x[np.clip(tt, 0, seq - 1), np.arange(batch)]
            else:
                valid = t < lens
                xt = x[t]
            new = cell(d, xt, states)
            states = [np.where(valid[:, None], n, s) for n, s in zip(new, states, strict=True)]
            h = np.where(valid[:, None], states[0], 0)
            if reverse:
                y[np.clip(lens - 1 - step, 0, seq - 1), np.arange(batch)] = np.where(
                    valid[:, None], h, y[np.clip(lens - 1 - step, 0, seq - 1), np.arange(batch)]
                )
            else:
                y[t] = h
        ys.append(y)
        finals.append(states)
    y_all = np.stack(ys, axis=1)  # seq, dirs, batch, hidden
    outs = [np.stack([f[i] for f in finals]) for i in range(len(finals[0]))]
    if layout:
        y_all = np.transpose(y_all, (2, 0, 1, 3))
        outs = [np.swapaxes(o, 0, 1) for o in outs]
    return y_all, outs


def _clip(v, clip):
    return np.clip(v, -clip, clip) if clip is not None else v


def _common(x, w, b, initial, hidden_size, direction, layout, nb, nstates):
    ndir = 2 if direction == "bidirectional" else 1
    xs = _prep(x, layout).astype(np.float64)
    hs = hidden_size if hidden_size else w.shape[1] // nb
    batch = xs.shape[1]
    inits = []
    for init in initial:
        if init is None:
            inits.append(np.zeros((ndir, batch, hs)))
        else:
            inits.append((np.swapaxes(init, 0, 1) if layout else init).astype(np.float64))
    bias = np.zeros((ndir, 2 * nb * hs)) if b is None else b.astype(np.float64)
    return ndir, xs, hs, inits, bias


@kernel("", "RNN", 1)
@kernel("", "RNN", 7)
def rnn(
    x,
    w,
    r,
    b=None,
    sequence_lens=None,
    initial_h=None,
    *,
    activation_alpha=None,
    activation_beta=None,
    activations=None,
    clip=None,
    direction="forward",
    hidden_size=None,
    layout=0,
):
    ndir, xs, hs, (h0,), bias = _common(x, w, b, [initial_h], hidden_size, direction, layout, 1, 1)
    acts = _acts(activations, activation_alpha, activation_beta, ["Tanh"], ndir)
    W, R = w.astype(np.float64), r.astype(np.float64)

    def cell(d, xt, states):
        (h,) = states
        return [acts[d](_clip(xt @ W[d].T + h @ R[d].T + bias[d, :hs] + bias[d, hs:], clip))]

    y, (yh,) = _run(cell, xs, [h0], sequence_lens, direction, ndir, layout, clip)
    return y.astype(x.dtype), yh.astype(x.dtype)


@kernel("", "GRU", 1)
@kernel("", "GRU", 7)
def gru(
    x,
    w,
    r,
    b=None,
    sequence_lens=None,
    initial_h=None,
    *,
    activation_alpha=None,
    activation_beta=None,
    activations=None,
    clip=None,
    direction="forward",
    hidden_size=None,
    layout=0,
    linear_before_reset=0,
):
    ndir, xs, hs, (h0,), bias = _common(x, w, b, [initial_h], hidden_size, direction, layout, 3, 1)
    acts = _acts(activations, activation_alpha, activation_beta, ["Sigmoid", "Tanh"], ndir)
    W, R = w.astype(np.float64), r.astype(np.float64)

    def cell(d, xt, states):
        (h,) = states
        f, g = acts[2 * d], acts[2 * d + 1]
        wb, rb = bias[d, : 3 * hs], bias[d, 3 * hs :]
        xw = xt @ W[d].T + wb  # z, r, h
        hz = h @ R[d][:hs].T + rb[:hs]
        hr = h @ R[d][hs : 2 * hs].T + rb[hs : 2 * hs]
        z = f(_clip(xw[:, :hs] + hz, clip))
        rr = f(_clip(xw[:, hs : 2 * hs] + hr, clip))
        if linear_before_reset:
            hh = g(_clip(xw[:, 2 * hs :] + rr * (h @ R[d][2 * hs :].T + rb[2 * hs :]), clip))
        else:
            hh = g(_clip(xw[:, 2 * hs :] + (rr * h) @ R[d][2 * hs :].T + rb[2 * hs :], clip))
        return [(1 - z) * hh + z * h]

    y, (yh,) = _run(cell, xs, [h0], sequence_lens, direction, ndir, layout, clip)
    return y.astype(x.dtype), yh.astype(x.dtype)


@kernel("", "LSTM", 1)
@kernel("", "LSTM", 7)
def lstm(
    x,
    w,
    r,
    b=None,
    sequence_lens=None,
    initial_h=None,
    initial_c=None,
    p=None,
    *,
    activation_alpha=None,
    activation_beta=None,
    activations=None,
    clip=None,
    direction="forward",
    hidden_size=None,
    input_forget=0,
    layout=0,
):
    ndir, xs, hs, (h0, c0), bias = _common(x, w, b, [initial_h, initial_c], hidden_size, direction, layout, 4, 2)
    acts = _acts(activations, activation_alpha, activation_beta, ["Sigmoid", "Tanh", "Tanh"], ndir)
    W, R = w.astype(np.float64), r.astype(np.float64)
    P = np.zeros((ndir, 3 * hs)) if p is None else p.astype(np.float64)

    def cell(d, xt, states):
        h, c = states
        f, g, hact = acts[3 * d], acts[3 * d + 1], acts[3 * d + 2]
        gates = xt @ W[d].T + h @ R[d].T + bias[d, : 4 * hs] + bias[d, 4 * hs :]
        gi, go, gf, gc = (gates[:, k * hs : (k + 1) * hs] for k in range(4))
        pi, po, pf = P[d, :hs], P[d, hs : 2 * hs], P[d, 2 * hs :]
        i = f(_clip(gi + pi * c, clip))
        fg = f(_clip(gf + pf * c, clip))
        if input_forget:
            fg = 1 - i
        cc = g(_clip(gc, clip))
        c_new = fg * c + i * cc
        o = f(_clip(go + po * c_new, clip))
        return [o * hact(c_new), c_new]

    y, (yh, yc) = _run(cell, xs, [h0, c0], sequence_lens, direction, ndir, layout, clip)
    return y.astype(x.dtype), yh.astype(x.dtype), yc.astype(x.dtype)
