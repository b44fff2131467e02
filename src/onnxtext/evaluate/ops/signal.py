"""Signal processing: DFT, STFT, window functions, MelWeightMatrix."""

from __future__ import annotations

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.ops._util import as_int
from onnxtext.evaluate.registry import kernel


def _complex(x: np.ndarray) -> np.ndarray:
    ct = np.complex64 if x.dtype in (np.float32, np.float16) else np.complex128
    if x.shape[-1] == 1:
        return x[..., 0].astype(ct)
    if x.shape[-1] == 2:
        out = np.empty(x.shape[:-1], dtype=ct)
        out.real = x[..., 0]
        out.imag = x[..., 1]
        return out
    raise KernelError(f"last dimension must be 1 (real) or 2 (complex), got {x.shape[-1]}", input_index=0)


def _dft(x, length, axis, inverse, onesided):
    c = _complex(x)
    r = x.ndim
    a = axis + r if axis < 0 else axis
    if not 0 <= a < r - 1:
        raise KernelError(f"axis {axis} is out of range for a signal of rank {r - 1}")
    if inverse and onesided:
        n = 2 * (c.shape[a] - 1) if length is None else int(length)
        y = np.fft.irfft(c, n=n, axis=a)
        return y[..., None].astype(x.dtype)
    n = c.shape[a] if length is None else int(length)
    if inverse:
        y = np.fft.ifft(c, n=n, axis=a)
    else:
        y = np.fft.fft(c, n=n, axis=a)
    if onesided:
        y = np.take(y, np.arange(n // 2 + 1), axis=a)
    return np.stack([y.real, y.imag], axis=-1).astype(x.dtype)


@kernel("", "DFT", 17)
def dft17(x, dft_length=None, *, axis=1, inverse=0, onesided=0):
    return _dft(x, None if dft_length is None else as_int(dft_length), axis, inverse, onesided)


@kernel("", "DFT", 20)
def dft20(x, dft_length=None, axis=None, *, inverse=0, onesided=0):
    ax = -2 if axis is None else as_int(axis)
    return _dft(
        x, None if dft_length is None or np.size(dft_length) == 0 else as_int(dft_length), ax, inverse, onesided
    )


@kernel("", "STFT", 17)
def stft(signal, frame_step, window=None, frame_length=None, *, onesided=1):
    c = _complex(signal)  # batch, length
    step = as_int(frame_step)
    if frame_length is not None and np.size(frame_length):
        fl = as_int(frame_length)
    elif window is not None:
        fl = window.shape[0]
    else:
        fl = c.shape[1]
    frames = (c.shape[1] - fl) // step + 1
    idx = np.arange(frames)[:, None] * step + np.arange(fl)[None, :]
    fr = c[:, idx]  # batch, frames, fl
    if window is not None:
        fr = fr * window.astype(np.float64)
    y = np.fft.fft(fr, axis=-1)
    if onesided:
        y = y[..., : fl // 2 + 1]
    return np.stack([y.real, y.imag], axis=-1).astype(signal.dtype)


def _window(size, periodic, fn, output_datatype):
    n = as_int(size)
    denom = n if periodic else n - 1
    k = np.arange(n, dtype=np.float64)
    w = fn(2 * np.pi * k / denom) if denom else np.ones(n)
    return w.astype(T.np_dtype(output_datatype))


@kernel("", "HannWindow", 17)
def hann_window(size, *, output_datatype=1, periodic=1):
    return _window(size, periodic, lambda t: 0.5 - 0.5 * np.cos(t), output_datatype)


@kernel("", "HammingWindow", 17)
def hamming_window(size, *, output_datatype=1, periodic=1):
    return _window(size, periodic, lambda t: 25 / 46 - 21 / 46 * np.cos(t), output_datatype)


@kernel("", "BlackmanWindow", 17)
def blackman_window(size, *, output_datatype=1, periodic=1):
    return _window(size, periodic, lambda t: 0.42 - 0.5 * np.cos(t) + 0.08 * np.cos(2 * t), output_datatype)


@kernel("", "MelWeightMatrix", 17)
def mel_weight_matrix(num_mel_bins, dft_length, sample_rate, lower_edge_hertz, upper_edge_hertz, *, output_datatype=1):
    nmel = as_int(num_mel_bins)
    nfft = as_int(dft_length)
    sr = as_int(sample_rate)
    lo_hz = float(np.asarray(lower_edge_hertz).reshape(-1)[0])
    hi_hz = float(np.asarray(upper_edge_hertz).reshape(-1)[0])
    nbins = nfft // 2 + 1
    lo_mel = 2595 * np.log10(1 + lo_hz / 700)
    hi_mel = 2595 * np.log10(1 + hi_hz / 700)
    pts = np.arange(nmel + 2) * ((hi_mel - lo_mel) / (nmel + 2)) + lo_mel
    hz = 700 * (10 ** (pts / 2595) - 1)
    edges = np.floor((nfft + 1) * hz / sr).astype(np.int64)
    lo, c, hi = edges[:-2][None, :], edges[1:-1][None, :], edges[2:][None, :]
    j = np.arange(nbins)[:, None]
    out = np.zeros((nbins, nmel))
    rise = (c > lo) & (j >= lo) & (j <= c)
    out = np.where(rise, (j - lo) / np.where(c > lo, c - lo, 1), out)
    out = np.where((c == lo) & (j == c), 1.0, out)
    fall = (hi > c) & (j >= c) & (j < hi)
    out = np.where(fall, (hi - j) / np.where(hi > c, hi - c, 1), out)
    return out.astype(T.np_dtype(output_datatype))
