"""Convolution, pooling, normalisation, dropout and losses."""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops._util import axis_of
from onnxtext.evaluate.registry import kernel

# -- geometry ---------------------------------------------------------------------------


def _geometry(spatial: tuple[int, ...], kernel_shape, strides, dilations, pads, auto_pad, ceil_mode=0):
    n = len(spatial)
    k = list(kernel_shape)
    s = list(strides) if strides else [1] * n
    d = list(dilations) if dilations else [1] * n
    eff = [(k[i] - 1) * d[i] + 1 for i in range(n)]
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        out = [-(-spatial[i] // s[i]) for i in range(n)]
        total = [max((out[i] - 1) * s[i] + eff[i] - spatial[i], 0) for i in range(n)]
        if auto_pad == "SAME_UPPER":
            pb = [t // 2 for t in total]
        else:
            pb = [t - t // 2 for t in total]
        pe = [total[i] - pb[i] for i in range(n)]
    elif auto_pad == "VALID":
        pb = [0] * n
        pe = [0] * n
    else:
        p = list(pads) if pads else [0] * (2 * n)
        pb, pe = p[:n], p[n:]
    out = []
    extra = []
    for i in range(n):
        span = spatial[i] + pb[i] + pe[i] - eff[i]
        if ceil_mode:
            o = -(-span // s[i]) + 1
            if (o - 1) * s[i] >= spatial[i] + pb[i]:
                o -= 1
        else:
            o = span // s[i] + 1
        o = max(o, 0)
        out.append(o)
        extra.append(max((o - 1) * s[i] + eff[i] - (spatial[i] + pb[i] + pe[i]), 0))
    return k, s, d, pb, pe, out, extra


def _windows(xp: np.ndarray, k, s, d, out) -> np.ndarray:
    """(N, C, *out, *k) view of windows of the padded input xp (N, C, *spatial)."""
    n = len(k)
    eff = [(k[i] - 1) * d[i] + 1 for i in range(n)]
    axes = tuple(range(2, 2 + n))
    w = sliding_window_view(xp, eff, axis=axes)
    idx = (
        (slice(None), slice(None))
        + tuple(slice(0, (out[i] - 1) * s[i] + 1, s[i]) for i in range(n))
        + tuple(slice(None, None, d[i]) for i in range(n))
    )
    return w[idx]


def _pad_spatial(x: np.ndarray, pb, pe, value) -> np.ndarray:
    width = [(0, 0), (0, 0)] + [(pb[i], pe[i]) for i in range(len(pb))]
    if not any(pb) and not any(pe):
        return x
    return np.pad(x, width, mode="constant", constant_values=value)


# -- convolution --------------------------------------------------------------------------


def _conv(x, w, b, auto_pad, dilations, group, kernel_shape, pads, strides):
    if x.ndim < 3:
        raise KernelError(f"Conv input must have rank ≥ 3, got {x.ndim}", input_index=0)
    ks = list(kernel_shape) if kernel_shape else list(w.shape[2:])
    nsp = x.ndim - 2
    k, s, d, pb, pe, out, _ = _geometry(x.shape[2:], ks, strides, dilations, pads, auto_pad)
    c = x.shape[1]
    m = w.shape[0]
    g = group
    if c != w.shape[1] * g:
        raise KernelError(f"input has {c} channels; weight expects {w.shape[1]} × group {g}", input_index=1)
    xp = _pad_spatial(x, pb, pe, 0)
    win = _windows(xp, k, s, d, out)  # N, C, *out, *k
    nb = x.shape[0]
    if g == 1:
        # im2col + one matrix product
        perm = (0,) + tuple(range(2, 2 + nsp)) + (1,) + tuple(range(2 + nsp, 2 + 2 * nsp))
        cols = np.ascontiguousarray(win.transpose(perm)).reshape(nb * int(np.prod(out)), -1)
        y = cols @ w.reshape(m, -1).T  # (N*out, M)
        y = np.moveaxis(y.reshape((nb,) + tuple(out) + (m,)), -1, 1)
        if b is not None:
            y = y + b.reshape((1, m) + (1,) * nsp)
        return y
    win = win.reshape((nb, g, c // g) + tuple(out) + tuple(k))
    wg = w.reshape((g, m // g, c // g) + tuple(k))
    letters_o = "opqrstuv"[:nsp]
    letters_k = "hijklwxy"[:nsp]
    eq = f"ngc{letters_o}{letters_k},gmc{letters_k}->ngm{letters_o}"
    y = np.einsum(eq, win, wg, optimize=True)
    y = y.reshape((nb, m) + tuple(out))
    if b is not None:
        y = y + b.reshape((1, m) + (1,) * nsp)
    return y


@kernel("", "Conv", 1)
def conv(x, w, b=None, *, auto_pad="NOTSET", dilations=None, group=1, kernel_shape=None, pads=None, strides=None):
    return _conv(x, w, b, auto_pad, dilations, group, kernel_shape, pads, strides).astype(x.dtype)


@kernel("", "ConvInteger", 10)
def conv_integer(
    x,
    w,
    x_zero_point=None,
    w_zero_point=None,
    *,
    auto_pad="NOTSET",
    dilations=None,
    group=1,
    kernel_shape=None,
    pads=None,
    strides=None,
):
    xi = x.astype(np.int32)
    wi = w.astype(np.int32)
    if x_zero_point is not None:
        xi = xi - np.asarray(x_zero_point).astype(np.int32).reshape(-1)[0]
    if w_zero_point is not None:
        wz = np.asarray(w_zero_point).astype(np.int32)
        wi = wi - (wz.reshape((-1,) + (1,) * (w.ndim - 1)) if wz.size > 1 else wz.reshape(()))
    return _conv(xi, wi, None, auto_pad, dilations, group, kernel_shape, pads, strides).astype(np.int32)


@kernel("", "ConvTranspose", 1)
def conv_transpose(
    x,
    w,
    b=None,
    *,
    auto_pad="NOTSET",
    dilations=None,
    group=1,
    kernel_shape=None,
    output_padding=None,
    output_shape=None,
    pads=None,
    strides=None,
):
    nsp = x.ndim - 2
    k = list(kernel_shape) if kernel_shape else list(w.shape[2:])
    s = list(strides) if strides else [1] * nsp
    d = list(dilations) if dilations else [1] * nsp
    op = list(output_padding) if output_padding else [0] * nsp
    spatial = x.shape[2:]
    eff = [(k[i] - 1) * d[i] + 1 for i in range(nsp)]
    full = [(spatial[i] - 1) * s[i] + eff[i] for i in range(nsp)]
    if output_shape is not None:
        os_ = list(output_shape)[-nsp:]
        total = [full[i] + op[i] - os_[i] for i in range(nsp)]
        if auto_pad == "SAME_UPPER":
            pb = [t // 2 for t in total]
        else:
            pb = [t - t // 2 for t in total]
        pe = [total[i] - pb[i] for i in range(nsp)]
    elif auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        os_ = [spatial[i] * s[i] for i in range(nsp)]
        total = [max(full[i] + op[i] - os_[i], 0) for i in range(nsp)]
        if auto_pad == "SAME_UPPER":
            pb = [t // 2 for t in total]
        else:
            pb = [t - t // 2 for t in total]
        pe = [total[i] - pb[i] for i in range(nsp)]
    else:
        p = list(pads) if pads else [0] * (2 * nsp)
        pb, pe = p[:nsp], p[nsp:]
    n, c = x.shape[:2]
    g = group
    m = w.shape[1] * g
    # columns: (N, G, M/G, *in, *k)
    xg = x.reshape((n, g, c // g) + tuple(spatial))
    wg = w.reshape((g, c // g, m // g) + tuple(k))
    lo = "opqrst"[:nsp]
    lk = "hijklw"[:nsp]
    cols = np.einsum(f"ngc{lo},gcm{lk}->ngm{lo}{lk}", xg, wg, optimize=True)
    cols = cols.reshape((n, m) + tuple(spatial) + tuple(k))
    full_op = [full[i] + op[i] for i in range(nsp)]
    y = np.zeros((n, m) + tuple(full_op), dtype=np.result_type(x.dtype, w.dtype))
    for kidx in np.ndindex(*k):
        sl = tuple(slice(kidx[i] * d[i], kidx[i] * d[i] + (spatial[i] - 1) * s[i] + 1, s[i]) for i in range(nsp))
        y[(slice(None), slice(None)) + sl] += cols[(Ellipsis,) + kidx]
    if min(pb + pe) < 0:
        width = [(0, 0), (0, 0)] + [(max(-pb[i], 0), max(-pe[i], 0)) for i in range(nsp)]
        y = np.pad(y, width)
        pb = [max(v, 0) for v in pb]
        pe = [max(v, 0) for v in pe]
        full_op = list(y.shape[2:])
    crop = tuple(slice(pb[i], full_op[i] - pe[i]) for i in range(nsp))
    y = y[(slice(None), slice(None)) + crop]
    if b is not None:
        y = y + b.reshape((1, m) + (1,) * nsp)
    return y.astype(x.dtype)


@kernel("", "DeformConv", 19)
def deform_conv(
    x,
    w,
    offset,
    b=None,
    mask=None,
    *,
    dilations=None,
    group=1,
    kernel_shape=None,
    offset_group=1,
    pads=None,
    strides=None,
):
    n, c = x.shape[:2]
    h, wd = x.shape[2:]
    m = w.shape[0]
    kh, kw = kernel_shape if kernel_shape else w.shape[2:]
    sh, sw = strides if strides else (1, 1)
    dh, dw = dilations if dilations else (1, 1)
    p = pads if pads else [0, 0, 0, 0]
    oh = (h + p[0] + p[2] - ((kh - 1) * dh + 1)) // sh + 1
    ow = (wd + p[1] + p[3] - ((kw - 1) * dw + 1)) // sw + 1
    og = offset_group
    off = offset.reshape(n, og, kh, kw, 2, oh, ow)
    msk = np.ones((n, og, kh, kw, oh, ow), dtype=x.dtype) if mask is None else mask.reshape(n, og, kh, kw, oh, ow)
    base_h = (np.arange(oh) * sh - p[0])[None, None, None, :, None] + (np.arange(kh) * dh)[None, :, None, None, None]
    base_w = (np.arange(ow) * sw - p[1])[None, None, None, None, :] + (np.arange(kw) * dw)[None, None, :, None, None]
    ph = base_h[:, None] + off[:, :, :, :, 0]  # n, og, kh, kw, oh, ow
    pw = base_w[:, None] + off[:, :, :, :, 1]
    xg = x.reshape(n, og, c // og, h, wd)
    vals = _bilinear(xg, ph, pw)  # n, og, c/og, kh, kw, oh, ow
    vals = vals * msk[:, :, None]
    cols = vals.reshape(n, group, c // group, kh, kw, oh, ow)
    wg = w.reshape(group, m // group, c // group, kh, kw)
    y = np.einsum("ngcijhw,gmcij->ngmhw", cols, wg, optimize=True).reshape(n, m, oh, ow)
    if b is not None:
        y = y + b.reshape(1, m, 1, 1)
    return y.astype(x.dtype)


def _bilinear(xg, ph, pw):
    """Sample xg (n, og, cg, H, W) at float positions ph/pw (n, og, ...) with zero outside."""
    n, og, cg, H, W = xg.shape
    h0 = np.floor(ph).astype(np.int64)
    w0 = np.floor(pw).astype(np.int64)
    out = 0
    nidx = np.arange(n).reshape((n,) + (1,) * (ph.ndim - 1))
    gidx = np.arange(og).reshape((1, og) + (1,) * (ph.ndim - 2))
    for dh in (0, 1):
        for dw in (0, 1):
            hh = h0 + dh
            ww = w0 + dw
            wt = (1 - np.abs(ph - hh)) * (1 - np.abs(pw - ww))
            valid = (hh >= 0) & (hh < H) & (ww >= 0) & (ww < W)
            hc = np.clip(hh, 0, H - 1)
            wc = np.clip(ww, 0, W - 1)
            v = xg[nidx, gidx, :, hc, wc]  # (..., cg) with advanced indexing dims first
            v = np.moveaxis(v, -1, 2)
            out = out + v * (wt * valid)[:, :, None]
    return out


@kernel("", "CausalConvWithState", 27)
def causal_conv_with_state(x, weight, bias=None, past_state=None, *, activation="none"):
    n, c, length = x.shape
    k = weight.shape[-1]
    if past_state is None:
        past_state = np.zeros((n, c, k - 1), dtype=x.dtype)
    full = np.concatenate([past_state, x], axis=2)
    win = sliding_window_view(full, k, axis=2)  # n, c, length, k
    y = np.einsum("nclk,ck->ncl", win, weight.reshape(c, k))
    if bias is not None:
        y = y + bias.reshape(1, c, 1)
    if activation in ("silu", "swish"):
        y = y / (1 + np.exp(-y))
    present = full[:, :, full.shape[2] - (k - 1) :] if k > 1 else np.zeros((n, c, 0), dtype=x.dtype)
    return y.astype(x.dtype), np.array(present)


# -- pooling --------------------------------------------------------------------------------


def _lowest(dt):
    return -np.inf if dt.kind == "f" else np.iinfo(dt).min


@kernel("", "MaxPool", 1)
def max_pool(
    x, *, auto_pad="NOTSET", ceil_mode=0, dilations=None, kernel_shape, pads=None, storage_order=0, strides=None, ctx
):
    nsp = x.ndim - 2
    k, s, d, pb, pe, out, extra = _geometry(x.shape[2:], kernel_shape, strides, dilations, pads, auto_pad, ceil_mode)
    pe2 = [pe[i] + extra[i] for i in range(nsp)]
    xp = _pad_spatial(x, pb, pe2, _lowest(x.dtype))
    win = _windows(xp, k, s, d, out)
    for _ in range(nsp):  # reduce one window axis at a time (cheap on strided views)
        win = win.max(axis=-1)
    y = win
    if not ctx.output_wanted(1):
        return y
    win = _windows(xp, k, s, d, out)
    flat = win.reshape(win.shape[: 2 + nsp] + (-1,))
    spatial = x.shape[2:]
    if storage_order:
        strides_el = np.cumprod((1,) + spatial[:-1])
    else:
        strides_el = np.cumprod((1,) + spatial[::-1][:-1])[::-1]
    grids = np.meshgrid(*[np.arange(sz) for sz in spatial], indexing="ij")
    lin = sum(g * int(st) for g, st in zip(grids, strides_el, strict=True)) if nsp else np.zeros(())
    lin = np.asarray(lin, dtype=np.int64)[None, None]
    linp = _pad_spatial(lin, pb, pe2, -1)
    lwin = _windows(linp, k, s, d, out).reshape((1, 1) + tuple(out) + (-1,))
    arg = np.argmax(flat, axis=-1)
    idx = np.take_along_axis(np.broadcast_to(lwin, flat.shape), arg[..., None], axis=-1)[..., 0]
    per = int(np.prod(spatial))
    nc = (np.arange(x.shape[0])[:, None] * x.shape[1] + np.arange(x.shape[1])[None, :]) * per
    idx = idx + nc.reshape(nc.shape + (1,) * nsp)
    return y, idx.astype(np.int64)


@kernel("", "AveragePool", 1)
def average_pool(
    x, *, auto_pad="NOTSET", ceil_mode=0, count_include_pad=0, dilations=None, kernel_shape, pads=None, strides=None
):
    nsp = x.ndim - 2
    k, s, d, pb, pe, out, extra = _geometry(x.shape[2:], kernel_shape, strides, dilations, pads, auto_pad, ceil_mode)
    pe2 = [pe[i] + extra[i] for i in range(nsp)]
    xp = _pad_spatial(x.astype(np.float64), pb, pe2, 0)
    total = _windows(xp, k, s, d, out).reshape(xp.shape[:2] + tuple(out) + (-1,)).sum(-1)
    ones = np.ones((1, 1) + x.shape[2:])
    if count_include_pad:
        mask = np.pad(ones, [(0, 0), (0, 0)] + [(pb[i], pe[i]) for i in range(nsp)], constant_values=1)
        mask = np.pad(mask, [(0, 0), (0, 0)] + [(0, extra[i]) for i in range(nsp)], constant_values=0)
    else:
        mask = _pad_spatial(ones, pb, pe2, 0)
    cnt = _windows(mask, k, s, d, out).reshape((1, 1) + tuple(out) + (-1,)).sum(-1)
    return (total / cnt).astype(x.dtype)


@kernel("", "LpPool", 1)
@kernel("", "LpPool", 2)
def lp_pool(x, *, auto_pad="NOTSET", ceil_mode=0, dilations=None, kernel_shape, p=2, pads=None, strides=None):
    nsp = x.ndim - 2
    k, s, d, pb, pe, out, extra = _geometry(x.shape[2:], kernel_shape, strides, dilations, pads, auto_pad, ceil_mode)
    pe2 = [pe[i] + extra[i] for i in range(nsp)]
    xp = _pad_spatial(np.abs(x.astype(np.float64)) ** p, pb, pe2, 0)
    total = _windows(xp, k, s, d, out).reshape(xp.shape[:2] + tuple(out) + (-1,)).sum(-1)
    return (total ** (1.0 / p)).astype(x.dtype)


@kernel("", "GlobalAveragePool", 1)
def global_average_pool(x):
    return x.mean(axis=tuple(range(2, x.ndim)), keepdims=True).astype(x.dtype)


@kernel("", "GlobalMaxPool", 1)
def global_max_pool(x):
    return x.max(axis=tuple(range(2, x.ndim)), keepdims=True)


@kernel("", "GlobalLpPool", 1)
@kernel("", "GlobalLpPool", 2)
def global_lp_pool(x, *, p=2):
    return (np.sum(np.abs(x) ** p, axis=tuple(range(2, x.ndim)), keepdims=True) ** (1.0 / p)).astype(x.dtype)


@kernel("", "MaxUnpool", 9)
def max_unpool(x, indices, output_shape=None, *, kernel_shape, pads=None, strides=None):
    nsp = x.ndim - 2
    s = list(strides) if strides else [1] * nsp
    p = list(pads) if pads else [0] * (2 * nsp)
    natural = list(x.shape[:2]) + [
        (x.shape[2 + i] - 1) * s[i] + kernel_shape[i] - p[i] - p[i + nsp] for i in range(nsp)
    ]
    y = np.zeros(int(np.prod(natural)), dtype=x.dtype)
    y[np.asarray(indices).reshape(-1)] = x.reshape(-1)
    y = y.reshape(natural)
    if output_shape is not None:
        shape = [int(v) for v in np.asarray(output_shape).reshape(-1)]
        if shape != natural:
            width = [(0, max(shape[i] - natural[i], 0)) for i in range(len(shape))]
            y = np.pad(y, width)[tuple(slice(0, d) for d in shape)]
    return y


@kernel("", "Col2Im", 18)
def col2im(x, image_shape, block_shape, *, dilations=None, pads=None, strides=None):
    img = [int(v) for v in image_shape]
    blk = [int(v) for v in block_shape]
    nsp = len(img)
    d = list(dilations) if dilations else [1] * nsp
    s = list(strides) if strides else [1] * nsp
    p = list(pads) if pads else [0] * (2 * nsp)
    n, ck, _ = x.shape
    kprod = int(np.prod(blk))
    c = ck // kprod
    padded = [img[i] + p[i] + p[i + nsp] for i in range(nsp)]
    out = [(padded[i] - ((blk[i] - 1) * d[i] + 1)) // s[i] + 1 for i in range(nsp)]
    cols = x.reshape((n, c) + tuple(blk) + tuple(out))
    y = np.zeros((n, c) + tuple(padded), dtype=x.dtype)
    for kidx in np.ndindex(*blk):
        sl = tuple(slice(kidx[i] * d[i], kidx[i] * d[i] + (out[i] - 1) * s[i] + 1, s[i]) for i in range(nsp))
        y[(slice(None), slice(None)) + sl] += cols[(slice(None), slice(None)) + kidx]
    crop = tuple(slice(p[i], p[i] + img[i]) for i in range(nsp))
    return y[(slice(None), slice(None)) + crop]


# -- normalisation --------------------------------------------------------------------------


@kernel("", "BatchNormalization", 1)
def batch_norm(x, scale, b, mean, var, *, epsilon=1e-5, momentum=0.9, training_mode=0, ctx, **_):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if training_mode:
        axes = (0,) + tuple(range(2, x.ndim))
        cur_mean = x.mean(axis=axes)
        cur_var = x.var(axis=axes)
        y = (x - cur_mean.reshape(shape)) / np.sqrt(cur_var.reshape(shape) + epsilon) * scale.reshape(
            shape
        ) + b.reshape(shape)
        run_mean = mean * momentum + cur_mean * (1 - momentum)
        run_var = var * momentum + cur_var * (1 - momentum)
        return y.astype(x.dtype), run_mean.astype(mean.dtype), run_var.astype(var.dtype)
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + epsilon) * scale.reshape(shape) + b.reshape(shape)
    return y.astype(x.dtype)


@kernel("", "InstanceNormalization", 1)
def instance_norm(x, scale, b, *, epsilon=1e-5):
    axes = tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    m = x.mean(axis=axes, keepdims=True)
    v = x.var(axis=axes, keepdims=True)
    return ((x - m) / np.sqrt(v + epsilon) * scale.reshape(shape) + b.reshape(shape)).astype(x.dtype)


def _stash(x, stash_type):
    return x.astype(np.float32) if stash_type == 1 and x.dtype != np.float64 else x.astype(np.float64)


@kernel("", "LayerNormalization", 17)
def layer_norm(x, scale, b=None, *, axis=-1, epsilon=1e-5, stash_type=1):
    a = axis_of(axis, x.ndim)
    axes = tuple(range(a, x.ndim))
    xs = _stash(x, stash_type)
    m = xs.mean(axis=axes, keepdims=True)
    v = ((xs - m) ** 2).mean(axis=axes, keepdims=True)
    inv = 1 / np.sqrt(v + epsilon)
    y = (xs - m) * inv * scale
    if b is not None:
        y = y + b
    return y.astype(x.dtype), m.astype(xs.dtype), inv.astype(xs.dtype)


@kernel("", "RMSNormalization", 23)
def rms_norm(x, scale, *, axis=-1, epsilon=1e-5, stash_type=1):
    a = axis_of(axis, x.ndim)
    axes = tuple(range(a, x.ndim))
    xs = _stash(x, stash_type)
    rms = np.sqrt((xs * xs).mean(axis=axes, keepdims=True) + epsilon)
    return ((xs / rms).astype(x.dtype) * scale).astype(x.dtype)


@kernel("", "GroupNormalization", 18)
def group_norm18(x, scale, b, *, epsilon=1e-5, num_groups):
    return _group_norm(x, scale, b, epsilon, num_groups, 1, per_group=True)


@kernel("", "GroupNormalization", 21)
def group_norm(x, scale, b, *, epsilon=1e-5, num_groups, stash_type=1):
    return _group_norm(x, scale, b, epsilon, num_groups, stash_type, per_group=False)


def _group_norm(x, scale, b, epsilon, g, stash_type, per_group):
    n, c = x.shape[:2]
    xs = _stash(x, stash_type).reshape((n, g, -1))
    m = xs.mean(axis=2, keepdims=True)
    v = xs.var(axis=2, keepdims=True)
    y = ((xs - m) / np.sqrt(v + epsilon)).reshape(x.shape)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if per_group:
        sc = np.repeat(scale, c // g)
        bb = np.repeat(b, c // g)
    else:
        sc, bb = scale, b
    return (y * sc.reshape(shape) + bb.reshape(shape)).astype(x.dtype)


@kernel("", "LRN", 1)
def lrn(x, *, alpha=1e-4, beta=0.75, bias=1.0, size):
    c = x.shape[1]
    sq = x.astype(np.float64) ** 2
    lo = (size - 1) // 2
    hi = size - 1 - lo
    padded = np.pad(sq, [(0, 0), (lo, hi)] + [(0, 0)] * (x.ndim - 2))
    cs = np.cumsum(padded, axis=1)
    cs = np.concatenate([np.zeros_like(cs[:, :1]), cs], axis=1)
    sums = cs[:, size : size + c] - cs[:, :c]
    return (x / (bias + alpha / size * sums) ** beta).astype(x.dtype)


@kernel("", "LpNormalization", 1)
def lp_norm(x, *, axis=-1, p=2):
    a = axis_of(axis, x.ndim)
    if p == 1:
        nrm = np.sum(np.abs(x), axis=a, keepdims=True)
    else:
        nrm = np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=a, keepdims=True))
    return np.where(nrm == 0, 0, x / nrm).astype(x.dtype)


@kernel("", "MeanVarianceNormalization", 9)
def mvn(x, *, axes=(0, 2, 3)):
    ax = tuple(axes)
    m = x.mean(axis=ax, keepdims=True)
    v = ((x - m) ** 2).mean(axis=ax, keepdims=True)
    return ((x - m) / np.sqrt(v + 1e-9)).astype(x.dtype)


# -- dropout, losses ------------------------------------------------------------------------


@kernel("", "Dropout", 12)
def dropout(x, ratio=None, training_mode=None, *, seed=None, ctx):
    r = 0.5 if ratio is None else float(np.asarray(ratio))
    train = training_mode is not None and bool(np.asarray(training_mode))
    if not train or r == 0:
        return x, np.ones(x.shape, dtype=np.bool_)
    if seed is not None:
        u = np.random.RandomState(int(seed) & 0xFFFFFFFF).uniform(0.0, 1.0, x.shape)
    else:
        u = ctx.rng().uniform(0.0, 1.0, x.shape)
    mask = u >= r
    return (x * mask / (1 - r)).astype(x.dtype), mask


@kernel("", "Dropout", 1)
def dropout_old(x, *, ratio=0.5, ctx, **_):
    return x, np.ones(x.shape, dtype=np.bool_)


def _nll(logp, target, weight, reduction, ignore_index):
    t = np.asarray(target).astype(np.int64)
    c = logp.shape[1]
    ignored = t == ignore_index if ignore_index is not None else np.zeros(t.shape, dtype=bool)
    tc = np.where(ignored, 0, t)
    picked = np.take_along_axis(logp, tc[:, None], axis=1)[:, 0]
    w = np.ones(c, dtype=logp.dtype) if weight is None else weight
    wt = np.where(ignored, 0, w[tc]).astype(logp.dtype)
    loss = -picked * wt
    if reduction == "none":
        return loss
    if reduction == "sum":
        return np.asarray(loss.sum())
    den = wt.sum()
    return np.asarray(loss.sum() / den)


@kernel("", "NegativeLogLikelihoodLoss", 12)
def nll_loss(x, target, weight=None, *, ignore_index=None, reduction="mean"):
    return np.asarray(_nll(x, target, weight, reduction, ignore_index)).astype(x.dtype)


@kernel("", "SoftmaxCrossEntropyLoss", 12)
def sce_loss(scores, labels, weights=None, *, ignore_index=None, reduction="mean"):
    xd = scores.astype(np.float64)
    m = xd.max(axis=1, keepdims=True)
    logp = xd - m - np.log(np.exp(xd - m).sum(axis=1, keepdims=True))
    loss = _nll(logp, labels, None if weights is None else weights.astype(np.float64), reduction, ignore_index)
    return np.asarray(loss).astype(scores.dtype), logp.astype(scores.dtype)


@kernel("", "SwiGLU", 28)
def swiglu(a, b, *, alpha=1.0):
    ad = a.astype(np.float64)
    return (ad / (1 + np.exp(-alpha * ad)) * b).astype(a.dtype)


@kernel("", "MaxRoiPool", 1)
def max_roi_pool(x, rois, *, pooled_shape, spatial_scale=1.0):
    ph, pw = pooled_shape
    n, c, h, w = x.shape
    out = np.full((rois.shape[0], c, ph, pw), -np.inf, dtype=np.float64)
    for r in range(rois.shape[0]):  # one iteration per region
        b = int(rois[r, 0])
        x1, y1, x2, y2 = np.round(rois[r, 1:] * spatial_scale).astype(np.int64)
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        for i in range(ph):
            hs = min(max(y1 + int(np.floor(i * rh / ph)), 0), h)
            he = min(max(y1 + int(np.ceil((i + 1) * rh / ph)), 0), h)
            for j in range(pw):
                ws = min(max(x1 + int(np.floor(j * rw / pw)), 0), w)
                we = min(max(x1 + int(np.ceil((j + 1) * rw / pw)), 0), w)
                if he > hs and we > ws:
                    out[r, :, i, j] = x[b, :, hs:he, ws:we].max(axis=(1, 2))
                else:
                    out[r, :, i, j] = 0
    return out.astype(x.dtype)
