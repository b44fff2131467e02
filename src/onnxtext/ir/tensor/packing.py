"""Sub-byte element types packed into bytes, low bits first (int4/uint4/float4e2m1 two a
byte, int2/uint2 four a byte, like ``onnx.numpy_helper``), and back."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from onnxtext.ir.tensor.literals import NotRepresentable


def _pack(codes: npt.NDArray[np.int64], bits: int) -> npt.NDArray[np.uint8]:
    """Pack sub-byte codes into bytes, low bits first (like onnx.numpy_helper)."""
    c = (codes.astype(np.int64) & ((1 << bits) - 1)).astype(np.uint8)
    n = c.size
    if bits == 4:
        if n % 2:
            c = np.concatenate([c, np.zeros(1, np.uint8)])
        return (c[0::2] | (c[1::2] << 4)).astype(np.uint8)
    if bits == 2:
        pad = -n % 4
        if pad:
            c = np.concatenate([c, np.zeros(pad, np.uint8)])
        return (c[0::4] | (c[1::4] << 2) | (c[2::4] << 4) | (c[3::4] << 6)).astype(np.uint8)
    if bits == 6:
        nbytes = -(-n * 6 // 8)
        pad = -n % 4
        if pad:
            c = np.concatenate([c, np.zeros(pad, np.uint8)])
        v0, v1, v2, v3 = c[0::4], c[1::4], c[2::4], c[3::4]
        packed = np.empty((v0.size, 3), dtype=np.uint8)
        packed[:, 0] = v0 | ((v1 & 0x03) << 6)
        packed[:, 1] = (v1 >> 2) | ((v2 & 0x0F) << 4)
        packed[:, 2] = (v2 >> 4) | (v3 << 2)
        return packed.reshape(-1)[:nbytes]
    raise ValueError(bits)


def _unpack(data: npt.NDArray[np.uint8], bits: int, n: int, what: str, strict: bool = True) -> npt.NDArray[np.int64]:
    """Unpack ``n`` sub-byte codes; the container must be exactly the packed size and
    the padding bits zero (else NotRepresentable)."""
    need = -(-n * bits // 8)
    if data.size != need:
        raise NotRepresentable(
            f"{what} holds {data.size} bytes of packed {bits}-bit values, {need} expected for {n} elements"
        )
    d = data.astype(np.int64)
    if bits == 4:
        out = np.empty(d.size * 2, np.int64)
        out[0::2] = d & 0xF
        out[1::2] = d >> 4
    elif bits == 2:
        out = np.empty(d.size * 4, np.int64)
        for k in range(4):
            out[k::4] = (d >> (2 * k)) & 3
    elif bits == 6:
        groups = -(-n // 4)
        full = np.zeros(groups * 3, np.int64)
        full[: d.size] = d
        b0, b1, b2 = full[0::3], full[1::3], full[2::3]
        out = np.empty(groups * 4, np.int64)
        out[0::4] = b0 & 0x3F
        out[1::4] = (b0 >> 6) | ((b1 & 0x0F) << 2)
        out[2::4] = (b1 >> 4) | ((b2 & 0x03) << 4)
        out[3::4] = b2 >> 2
    else:
        raise ValueError(bits)
    if strict and np.any(out[n:]):
        raise NotRepresentable(f"{what}: the padding bits after the last of {n} packed {bits}-bit values are not zero")
    return out[:n]
