"""Resize / Upsample, GridSample, AffineGrid, RoiAlign, NonMaxSuppression."""

from __future__ import annotations

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops._util import axes_list
from onnxtext.evaluate.registry import kernel

# -- Resize -----------------------------------------------------------------------------------


def _cubic(t: np.ndarray, a: float) -> np.ndarray:
    t = np.abs(t)
    w1 = ((a + 2) * t - (a + 3)) * t * t + 1
    w2 = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t <= 1, w1, np.where(t < 2, w2, 0.0))


def _source_coords(out_len, in_len, scale, mode, roi_start, roi_end):
    x = np.arange(out_len, dtype=np.float64)
    out_f = in_len * scale  # the unrounded output length
    if mode == "half_pixel":
        return (x + 0.5) / scale - 0.5
    if mode == "half_pixel_symmetric":
        adj = out_len / (scale * in_len)
        center = in_len / 2
        offset = center * (1 - adj)
        return offset + (x + 0.5) / scale - 0.5
    if mode == "pytorch_half_pixel":
        return (x + 0.5) / scale - 0.5 if out_len > 1 else np.zeros_like(x)
    if mode == "align_corners":
        return np.zeros_like(x) if out_len == 1 else x * (in_len - 1) / (out_f - 1)
    if mode == "asymmetric":
        return x / scale
    if mode == "tf_crop_and_resize":
        if out_len > 1:
            return roi_start * (in_len - 1) + x * (roi_end - roi_start) * (in_len - 1) / (out_len - 1)
        return np.full_like(x, 0.5 * (roi_start + roi_end) * (in_len - 1))
    raise KernelError(f"unknown coordinate_transformation_mode {mode!r}")


def _nearest_index(x, nearest_mode):
    if nearest_mode == "round_prefer_floor":
        return np.ceil(x - 0.5)
    if nearest_mode == "round_prefer_ceil":
        return np.floor(x + 0.5)
    if nearest_mode == "floor":
        return np.floor(x)
    if nearest_mode == "ceil":
        return np.ceil(x)
    raise KernelError(f"unknown nearest_mode {nearest_mode!r}")


def _axis_weights(
    in_len, out_len, scale, mode, coord_mode, nearest_mode, cubic_a, exclude_outside, antialias, roi_start, roi_end
):
    x = _source_coords(out_len, in_len, scale, coord_mode, roi_start, roi_end)
    outside = (x < 0) | (x > in_len - 1)
    W = np.zeros((out_len, in_len), dtype=np.float64)
    rows = np.arange(out_len)
    if mode == "nearest":
        idx = np.clip(_nearest_index(x, nearest_mode), 0, in_len - 1).astype(np.int64)
        W[rows, idx] = 1.0
        return W, outside
    s = scale if (antialias and scale < 1) else 1.0
    support = (1.0 if mode == "linear" else 2.0) / s
    k = np.arange(-int(np.ceil(support)) + 1, int(np.ceil(support)) + 1)
    base = np.floor(x)
    i = base[:, None] + k[None, :]
    t = (i - x[:, None]) * s
    if mode == "linear":
        w = np.maximum(0.0, 1 - np.abs(t))
    elif mode == "cubic":
        w = _cubic(t, cubic_a)
    else:
        raise KernelError(f"unknown resize mode {mode!r}")
    out_of_range = (i < 0) | (i >= in_len)
    if antialias and s < 1:
        tot = w.sum(axis=1, keepdims=True)
        w = w / np.where(tot == 0, 1, tot)
    if exclude_outside:
        w = np.where(out_of_range, 0.0, w)
        tot = w.sum(axis=1, keepdims=True)
        w = w / np.where(tot == 0, 1, tot)
    ic = np.clip(i, 0, in_len - 1).astype(np.int64)
    np.add.at(W, (np.broadcast_to(rows[:, None], ic.shape), ic), w)
    return W, outside


def _resize(
    x,
    roi,
    scales,
    sizes,
    *,
    antialias=0,
    axes=None,
    coordinate_transformation_mode="half_pixel",
    cubic_coeff_a=-0.75,
    exclude_outside=0,
    extrapolation_value=0.0,
    keep_aspect_ratio_policy="stretch",
    mode="nearest",
    nearest_mode="round_prefer_floor",
):
    r = x.ndim
    ax = axes_list(axes, r) if axes is not None else list(range(r))
    in_shape = [x.shape[a] for a in ax]
    if sizes is not None and np.size(sizes):
        sz = [int(v) for v in np.asarray(sizes).reshape(-1)]
        sc = [sz[i] / in_shape[i] for i in range(len(ax))]
        if keep_aspect_ratio_policy in ("not_larger", "not_smaller"):
            s = min(sc) if keep_aspect_ratio_policy == "not_larger" else max(sc)
            sc = [s] * len(ax)
            sz = [int(np.floor(s * d + 0.5)) for d in in_shape]
    elif scales is not None and np.size(scales):
        sc = [float(v) for v in np.asarray(scales).reshape(-1)]
        sz = [int(np.floor(in_shape[i] * sc[i])) for i in range(len(ax))]
    else:
        raise KernelError("Resize needs scales or sizes")
    roi_v = np.asarray(roi, dtype=np.float64).reshape(-1) if roi is not None and np.size(roi) else None
    y = x.astype(np.float64)
    dead = np.zeros(x.shape, dtype=bool) if coordinate_transformation_mode == "tf_crop_and_resize" else None
    for j, a in enumerate(ax):
        if roi_v is not None and roi_v.size == 2 * len(ax):
            rs, re_ = roi_v[j], roi_v[j + len(ax)]
        elif roi_v is not None and roi_v.size == 2 * r:
            rs, re_ = roi_v[a], roi_v[a + r]
        else:
            rs, re_ = 0.0, 1.0
        if sz[j] == in_shape[j] and sc[j] == 1.0 and coordinate_transformation_mode != "tf_crop_and_resize":
            continue
        W, outside = _axis_weights(
            in_shape[j],
            sz[j],
            sc[j],
            mode,
            coordinate_transformation_mode,
            nearest_mode,
            cubic_coeff_a,
            exclude_outside,
            antialias,
            rs,
            re_,
        )
        y = np.moveaxis(np.tensordot(W, np.moveaxis(y, a, 0), axes=1), 0, a)
        if dead is not None:
            dead = np.moveaxis(np.moveaxis(dead, a, 0)[np.zeros(sz[j], dtype=np.int64)], 0, a)
            shape = [1] * r
            shape[a] = -1
            dead = dead | outside.reshape(shape)
    if dead is not None:
        y = np.where(dead, extrapolation_value, y)
    if x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        y = np.clip(np.rint(y), info.min, info.max)
    return y.astype(x.dtype)


@kernel("", "Resize", 10)
def resize10(x, scales, *, mode="nearest"):
    return _resize(x, None, scales, None, mode=mode, coordinate_transformation_mode="asymmetric", nearest_mode="floor")


@kernel("", "Resize", 11)
def resize(x, roi=None, scales=None, sizes=None, **attrs):
    return _resize(x, roi, scales, sizes, **attrs)


@kernel("", "Upsample", 7)
def upsample7(x, *, mode="nearest", scales):
    return _resize(x, None, scales, None, mode=mode, coordinate_transformation_mode="asymmetric", nearest_mode="floor")


@kernel("", "Upsample", 9)
def upsample9(x, scales, *, mode="nearest"):
    return _resize(x, None, scales, None, mode=mode, coordinate_transformation_mode="asymmetric", nearest_mode="floor")


# -- GridSample -------------------------------------------------------------------------------


def _reflect(x, lo, hi):
    span = hi - lo
    if span <= 0:
        return np.zeros_like(x)
    d = np.abs(x - lo)
    flips = np.floor(d / span)
    extra = d - flips * span
    return np.where(flips % 2 == 0, lo + extra, hi - extra)


@kernel("", "GridSample", 16)
def grid_sample(x, grid, *, align_corners=0, mode="linear", padding_mode="zeros"):
    mode = {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    r = len(spatial)
    out_sp = grid.shape[1:-1]
    g = grid.reshape(n, -1, r).astype(np.float64)
    coords = []
    for d in range(r):
        size = spatial[d]
        gv = g[..., r - 1 - d]
        if align_corners:
            v = (gv + 1) / 2 * (size - 1)
            lo, hi = 0.0, size - 1.0
        else:
            v = ((gv + 1) * size - 1) / 2
            lo, hi = -0.5, size - 0.5
        if padding_mode == "border":
            v = np.clip(v, 0, size - 1)
        elif padding_mode == "reflection":
            v = _reflect(v, lo, hi)
            v = np.clip(v, 0, size - 1) if mode != "cubic" else v
        coords.append(v)
    taps_per_dim = []
    for d in range(r):
        v = coords[d]
        size = spatial[d]
        if mode == "nearest":
            taps = [(np.rint(v), np.ones_like(v))]
        elif mode == "linear":
            f = np.floor(v)
            t = v - f
            taps = [(f, 1 - t), (f + 1, t)]
        elif mode == "cubic":
            f = np.floor(v)
            t = v - f
            taps = [(f + k, _cubic(t - k, -0.75)) for k in (-1, 0, 1, 2)]
        else:
            raise KernelError(f"unknown GridSample mode {mode!r}")
        fixed = []
        for idx, w in taps:
            if padding_mode == "border" or (padding_mode == "reflection" and mode == "cubic"):
                if padding_mode == "reflection":
                    lo, hi = (0.0, size - 1.0) if align_corners else (-0.5, size - 0.5)
                    idx = np.round(np.clip(_reflect(idx, lo, hi), 0, size - 1))
                idx = np.clip(idx, 0, size - 1)
                valid = np.ones_like(w, dtype=bool)
            else:
                valid = (idx >= 0) & (idx <= size - 1)
            fixed.append((np.clip(idx, 0, size - 1).astype(np.int64), w * valid))
        taps_per_dim.append(fixed)
    xf = x.reshape(n, c, -1).astype(np.float64)
    strides = np.cumprod((1,) + tuple(spatial[::-1]))[:-1][::-1]
    out = np.zeros((n, c, g.shape[1]))
    bidx = np.arange(n)[:, None]
    for combo in np.ndindex(*[len(t) for t in taps_per_dim]):
        lin = 0
        w = 1.0
        for d, k in enumerate(combo):
            idx, wt = taps_per_dim[d][k]
            lin = lin + idx * int(strides[d])
            w = w * wt
        vals = xf[bidx, :, lin]  # n, P, c
        out += np.moveaxis(vals, -1, 1) * w[:, None, :]
    return out.reshape((n, c) + tuple(out_sp)).astype(x.dtype)


@kernel("", "AffineGrid", 20)
def affine_grid(theta, size, *, align_corners=0):
    sz = [int(v) for v in np.asarray(size).reshape(-1)]
    n = sz[0]
    spatial = sz[2:]
    r = len(spatial)

    def lin(m):
        if align_corners:
            return np.linspace(-1, 1, m) if m > 1 else np.zeros(1)
        return (np.arange(m) * 2 + 1) / m - 1

    axes = [lin(m) for m in spatial]
    mesh = np.meshgrid(*axes, indexing="ij")  # each spatial shape; order D,H,W
    pts = [m.reshape(-1) for m in mesh[::-1]]  # x (W), y (H), z (D)
    hom = np.stack(pts + [np.ones_like(pts[0])], axis=-1)  # P, r+1
    grid = np.einsum("pk,nik->npi", hom, theta.astype(np.float64))
    return grid.reshape((n,) + tuple(spatial) + (r,)).astype(theta.dtype)


# -- RoiAlign ---------------------------------------------------------------------------------


@kernel("", "RoiAlign", 10)
def roi_align(
    x,
    rois,
    batch_indices,
    *,
    coordinate_transformation_mode="half_pixel",
    mode="avg",
    output_height=1,
    output_width=1,
    sampling_ratio=0,
    spatial_scale=1.0,
):
    n, c, h, w = x.shape
    out = np.zeros((rois.shape[0], c, output_height, output_width), dtype=np.float64)
    off = 0.5 if coordinate_transformation_mode == "half_pixel" else 0.0
    for r in range(rois.shape[0]):  # one iteration per region of interest
        x1, y1, x2, y2 = (rois[r].astype(np.float64) * spatial_scale) - off
        rw, rh = x2 - x1, y2 - y1
        if coordinate_transformation_mode != "half_pixel":
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / output_height, rw / output_width
        sh = sampling_ratio if sampling_ratio > 0 else int(np.ceil(rh / output_height))
        sw = sampling_ratio if sampling_ratio > 0 else int(np.ceil(rw / output_width))
        sh, sw = max(sh, 1), max(sw, 1)
        ys = y1 + np.arange(output_height)[:, None] * bh + (np.arange(sh)[None, :] + 0.5) * bh / sh  # oh, sh
        xs = x1 + np.arange(output_width)[:, None] * bw + (np.arange(sw)[None, :] + 0.5) * bw / sw  # ow, sw
        yy = ys[:, None, :, None]
        xx = xs[None, :, None, :]
        yy, xx = np.broadcast_arrays(yy, xx)  # oh, ow, sh, sw
        valid = ~((yy < -1) | (yy > h) | (xx < -1) | (xx > w))
        yc = np.maximum(yy, 0)
        xc = np.maximum(xx, 0)
        yl = np.floor(yc).astype(np.int64)
        xl = np.floor(xc).astype(np.int64)
        top = yl >= h - 1
        yl = np.where(top, h - 1, yl)
        yh = np.where(top, h - 1, yl + 1)
        yc = np.where(top, yl, yc)
        right = xl >= w - 1
        xl = np.where(right, w - 1, xl)
        xh = np.where(right, w - 1, xl + 1)
        xc = np.where(right, xl, xc)
        ly, lx = yc - yl, xc - xl
        hy, hx = 1 - ly, 1 - lx
        img = x[int(batch_indices[r])].astype(np.float64)  # c, h, w
        parts = [
            img[:, yl, xl] * (hy * hx * valid),
            img[:, yl, xh] * (hy * lx * valid),
            img[:, yh, xl] * (ly * hx * valid),
            img[:, yh, xh] * (ly * lx * valid),
        ]
        if mode == "avg":
            out[r] = sum(parts).mean(axis=(-1, -2))
        else:
            out[r] = np.max(np.stack(parts), axis=0).max(axis=(-1, -2))
    return out.astype(x.dtype)


# -- NonMaxSuppression ------------------------------------------------------------------------


@kernel("", "NonMaxSuppression", 10)
def non_max_suppression(
    boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None, *, center_point_box=0
):
    max_out = (
        int(np.asarray(max_output_boxes_per_class).reshape(-1)[0])
        if max_output_boxes_per_class is not None and np.size(max_output_boxes_per_class)
        else 0
    )
    iou_t = (
        float(np.asarray(iou_threshold).reshape(-1)[0]) if iou_threshold is not None and np.size(iou_threshold) else 0.0
    )
    score_t = (
        float(np.asarray(score_threshold).reshape(-1)[0])
        if score_threshold is not None and np.size(score_threshold)
        else None
    )
    b = boxes.astype(np.float64)
    if center_point_box:
        xc, yc, bw, bh = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
        y1, x1, y2, x2 = yc - bh / 2, xc - bw / 2, yc + bh / 2, xc + bw / 2
    else:
        y1 = np.minimum(b[..., 0], b[..., 2])
        y2 = np.maximum(b[..., 0], b[..., 2])
        x1 = np.minimum(b[..., 1], b[..., 3])
        x2 = np.maximum(b[..., 1], b[..., 3])
    area = (y2 - y1) * (x2 - x1)
    selected: list[tuple[int, int, int]] = []
    for bi in range(scores.shape[0]):
        iy1 = np.maximum(y1[bi][:, None], y1[bi][None, :])
        ix1 = np.maximum(x1[bi][:, None], x1[bi][None, :])
        iy2 = np.minimum(y2[bi][:, None], y2[bi][None, :])
        ix2 = np.minimum(x2[bi][:, None], x2[bi][None, :])
        inter = np.maximum(iy2 - iy1, 0) * np.maximum(ix2 - ix1, 0)
        union = area[bi][:, None] + area[bi][None, :] - inter
        iou = np.where(union > 0, inter / np.where(union > 0, union, 1), 0)
        for ci in range(scores.shape[1]):
            sc = scores[bi, ci].astype(np.float64)
            order = np.argsort(-sc, kind="stable")
            if score_t is not None:
                order = order[sc[order] > score_t]
            keep: list[int] = []
            for i in order:  # greedy selection: each box depends on the ones kept before it
                if max_out and len(keep) >= max_out:
                    break
                if not keep or np.all(iou[i, keep] <= iou_t):
                    keep.append(int(i))
            selected.extend((bi, ci, k) for k in keep)
    return np.array(selected, dtype=np.int64).reshape(-1, 3)
