"""Attention family: Attention, RotaryEmbedding, LinearAttention."""

from __future__ import annotations

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops._util import cast_to
from onnxtext.evaluate.registry import kernel


def _to_4d(x, heads):
    if x.ndim == 4:
        return x
    b, s, hidden = x.shape
    if not heads:
        raise KernelError("3D inputs need q_num_heads and kv_num_heads")
    return x.reshape(b, s, heads, hidden // heads).transpose(0, 2, 1, 3)


@kernel("", "Attention", 23)
def attention(
    q,
    k,
    v,
    attn_mask=None,
    past_key=None,
    past_value=None,
    nonpad_kv_seqlen=None,
    *,
    is_causal=0,
    kv_num_heads=0,
    q_num_heads=0,
    qk_matmul_output_mode=0,
    scale=None,
    softcap=0.0,
    softmax_precision=None,
    left_window_size=-1,
    right_window_size=-1,
):
    dt = q.dtype
    three_d = q.ndim == 3
    q4 = _to_4d(q, q_num_heads)
    k4 = _to_4d(k, kv_num_heads)
    v4 = _to_4d(v, kv_num_heads)
    past_len = 0
    if past_key is not None:
        past_len = past_key.shape[2]
        k4 = np.concatenate([past_key, k4], axis=2)
    if past_value is not None:
        v4 = np.concatenate([past_value, v4], axis=2)
    present_k, present_v = k4, v4
    b, hq, sq, d = q4.shape
    hkv = k4.shape[1]
    if hq % hkv:
        raise KernelError(f"q heads {hq} is not a multiple of kv heads {hkv}")
    if hq != hkv:
        k4 = np.repeat(k4, hq // hkv, axis=1)
        v4 = np.repeat(v4, hq // hkv, axis=1)
    total = k4.shape[2]
    sc = float(scale) if scale is not None else 1.0 / np.sqrt(d)
    root = np.sqrt(sc).astype(dt) if dt.kind == "f" else np.sqrt(sc)
    qk = np.matmul(q4 * root, np.swapaxes(k4 * root, -1, -2)).astype(dt)
    out_qk = qk
    if softcap:
        qk = (softcap * np.tanh(qk / softcap)).astype(dt)
    qk_capped = qk
    bias = np.zeros((1, 1, sq, total), dtype=dt)
    allowed = np.ones((b, 1, sq, total), dtype=bool)
    if attn_mask is not None:
        m = attn_mask
        if m.shape[-1] < total:
            pad = [(0, 0)] * (m.ndim - 1) + [(0, total - m.shape[-1])]
            m = np.pad(m, pad, constant_values=(False if m.dtype == np.bool_ else -np.inf))
        if m.dtype == np.bool_:
            allowed = allowed & m
        else:
            bias = bias + m.astype(dt)
    qi = np.arange(sq)[:, None]
    kj = np.arange(total)[None, :]
    if past_len:
        offset = np.full((b,), past_len)
    elif nonpad_kv_seqlen is not None:
        offset = np.asarray(nonpad_kv_seqlen).astype(np.int64) - sq
    else:
        offset = np.zeros((b,), dtype=np.int64)
    pos = qi[None] + offset[:, None, None]  # b, sq, 1
    if is_causal:
        allowed = allowed & (kj[None] <= pos)[:, None]
    if left_window_size is not None and left_window_size >= 0:
        allowed = allowed & (kj[None] >= pos - left_window_size)[:, None]
    if right_window_size is not None and right_window_size >= 0:
        allowed = allowed & (kj[None] <= pos + right_window_size)[:, None]
    if nonpad_kv_seqlen is not None:
        valid = kj[None] < np.asarray(nonpad_kv_seqlen).astype(np.int64)[:, None, None]
        allowed = allowed & valid[:, None]
    bias = np.where(allowed, bias, -np.inf).astype(dt)
    scores = (qk + bias).astype(dt)
    out_biased = scores
    sdt = T.np_dtype(softmax_precision) if softmax_precision else dt
    if softmax_precision == T.BFLOAT16:
        s = cast_to(scores, T.BFLOAT16)
    else:
        s = scores.astype(sdt)
    mx = np.max(s, axis=-1, keepdims=True)
    dead = ~np.isfinite(mx) & (mx < 0)
    e = np.exp(s - np.where(dead, 0, mx))
    e = np.where(dead, 0, e)
    den = np.sum(e, axis=-1, keepdims=True)
    probs = np.where(dead, 0, e / np.where(den == 0, 1, den))
    probs = probs.astype(dt)
    y = np.matmul(probs, v4).astype(dt)
    if three_d:
        y = y.transpose(0, 2, 1, 3).reshape(b, sq, -1)
    mode_out = {0: out_qk, 1: qk_capped, 2: out_biased, 3: probs}.get(qk_matmul_output_mode, out_qk)
    return y, present_k, present_v, mode_out.astype(dt)


@kernel("", "RotaryEmbedding", 23)
def rotary_embedding(x, cos_cache, sin_cache, position_ids=None, *, interleaved=0, num_heads=0, rotary_embedding_dim=0):
    orig = x.shape
    if x.ndim == 4:
        xb = x.transpose(0, 2, 1, 3)  # b, s, h, d
    else:
        b, s, hidden = x.shape
        if not num_heads:
            raise KernelError("3D input needs num_heads")
        xb = x.reshape(b, s, num_heads, hidden // num_heads)
    d = xb.shape[-1]
    rd = rotary_embedding_dim or d
    if position_ids is not None:
        cos = cos_cache[position_ids]
        sin = sin_cache[position_ids]
    else:
        cos, sin = cos_cache, sin_cache
    cos = cos[..., : rd // 2][:, :, None, :]
    sin = sin[..., : rd // 2][:, :, None, :]
    rot = xb[..., :rd]
    rest = xb[..., rd:]
    if interleaved:
        x1, x2 = rot[..., 0::2], rot[..., 1::2]
    else:
        x1, x2 = rot[..., : rd // 2], rot[..., rd // 2 :]
    r1 = x1 * cos - x2 * sin
    r2 = x2 * cos + x1 * sin
    if interleaved:
        out = np.stack([r1, r2], axis=-1).reshape(rot.shape)
    else:
        out = np.concatenate([r1, r2], axis=-1)
    y = np.concatenate([out, rest], axis=-1).astype(x.dtype)
    if len(orig) == 4:
        return y.transpose(0, 2, 1, 3)
    return y.reshape(orig)


@kernel("", "LinearAttention", 27)
def linear_attention(
    q,
    k,
    v,
    past_state=None,
    decay=None,
    beta=None,
    *,
    chunk_size=64,
    kv_num_heads,
    q_num_heads,
    scale=0.0,
    update_rule="gated_delta",
):
    dt = q.dtype
    b, t, _ = q.shape
    hq, hkv = q_num_heads, kv_num_heads
    dk = k.shape[-1] // hkv
    dv = v.shape[-1] // hkv
    qh = q.reshape(b, t, hq, dk).astype(np.float64)
    kh = k.reshape(b, t, hkv, dk).astype(np.float64)
    vh = v.reshape(b, t, hkv, dv).astype(np.float64)
    sc = scale if scale else 1.0 / np.sqrt(dk)
    state = np.zeros((b, hkv, dk, dv)) if past_state is None else past_state.astype(np.float64)
    g = None
    if decay is not None:
        g = decay.astype(np.float64)
        if g.ndim == 3 and g.shape[-1] == hkv * dk:
            g = g.reshape(b, t, hkv, dk)
        elif g.ndim == 3:
            g = g.reshape(b, t, hkv, 1)
    be = None
    if beta is not None:
        be = beta.astype(np.float64)
        be = (
            be.reshape(b, t, hkv, 1)
            if be.size == b * t * hkv
            else np.broadcast_to(be.reshape(b, t, -1)[..., :1], (b, t, 1)).reshape(b, t, 1, 1)
        )
    rep = hq // hkv
    outs = []
    for step in range(t):  # recurrence over time steps (inherently sequential)
        kt = kh[:, step]  # b, hkv, dk
        vt = vh[:, step]
        if update_rule in ("gated", "gated_delta") and g is not None:
            gate = np.exp(g[:, step])  # b, hkv, dk or 1
            state = state * gate[..., None] if gate.shape[-1] == dk else state * gate[..., None]
        if update_rule in ("delta", "gated_delta"):
            pred = np.einsum("bhkv,bhk->bhv", state, kt)
            bt = be[:, step] if be is not None else np.ones((b, hkv, 1))
            state = state + np.einsum("bhk,bhv->bhkv", kt, bt * (vt - pred))
        else:
            state = state + np.einsum("bhk,bhv->bhkv", kt, vt)
        qt = qh[:, step].reshape(b, hkv, rep, dk)
        o = sc * np.einsum("bhrk,bhkv->bhrv", qt, state)
        outs.append(o.reshape(b, hq * dv))
    y = np.stack(outs, axis=1).astype(dt)
    return y, state.astype(dt)


@kernel("ai.onnx.preview", "FlexAttention", 1)
def flex_attention(q, k, v, *, prob_mod=None, score_mod=None, scale=None, softmax_precision=None):
    b, hq, lq, d = q.shape
    hkv = k.shape[1]
    if hq % hkv:
        raise KernelError(f"q heads {hq} is not a multiple of kv heads {hkv}")
    if hq != hkv:
        k = np.repeat(k, hq // hkv, axis=1)
        v = np.repeat(v, hq // hkv, axis=1)
    sdt = (
        T.np_dtype(softmax_precision)
        if softmax_precision
        else (np.dtype(np.float64) if q.dtype == np.float64 else np.dtype(np.float32))
    )
    sc = float(scale) if scale is not None else 1.0 / np.sqrt(d)
    s = (np.matmul(q.astype(sdt), np.swapaxes(k.astype(sdt), -1, -2)) * sc).astype(sdt)
    if score_mod is not None:
        (s,) = score_mod(s)
    mx = np.max(s, axis=-1, keepdims=True)
    dead = ~np.isfinite(mx)
    e = np.exp(s - np.where(dead, 0, mx))
    p = (e / np.sum(e, axis=-1, keepdims=True)).astype(sdt)
    if prob_mod is not None:
        (p,) = prob_mod(p)
    return np.matmul(p, v.astype(sdt)).astype(q.dtype)
