"""How ``onnxtext print`` shows weights: inline, in an external sidecar, or as digests.

Every mode is a transformation of the protobuf before printing, so lifting and printing
stay unchanged:

- ``inline``: the model as it is.
- ``external``: :func:`onnxtext.weights.sidecar.plan_external` moves tensors above a threshold to
  a sidecar; the text shows ``["location": ..., "offset": ..., "length": ...]`` and parses
  back to a model with the same references.
- ``digest``: :func:`digest_view` replaces tensors above a threshold by an external-data
  list with a ``digest`` key (SHA-256 of the values) and statistics, and the text starts
  with :data:`DIGEST_HEADER`. Such a text is for reading and diffing (``git diff``
  textconv) only: it does not hold the weights and cannot be parsed back.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable
from typing import IO

import numpy as np

from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.ir.tensor.literals import STORAGE_FIELDS, NotRepresentable, element_count
from onnxtext.proto import ModelProto, TensorProto
from onnxtext.weights.external import (
    ContentTokens,
    FileRange,
    Progress,
    TensorSources,
    is_external,
    iter_tensors,
    tensor_nbytes,
)
from onnxtext.weights.statistics import statistics

__all__ = [
    "DEFAULT_THRESHOLD",
    "DIGEST_HEADER",
    "DIGEST_KEY",
    "digest_view",
    "tensor_digest",
    "mapped_array",
    "token_values",
    "ProgressBar",
]

DEFAULT_THRESHOLD = 1024
DIGEST_KEY = "digest"
DIGEST_HEADER = "# onnxtext digest view: not for parsing back (large tensors are shown as digests)\n"


def _num(x: float) -> str:
    return f"{x:.6g}"


def _values_hash(arr: np.ndarray) -> str:
    """SHA-256 of the values in little-endian order (equal values, equal digest, whatever
    the storage: raw_data or typed fields); strings are hashed length-prefixed."""
    h = hashlib.sha256()
    if arr.dtype == object:
        for s in arr.reshape(-1):
            b = s if isinstance(s, bytes) else str(s).encode("utf-8")
            h.update(len(b).to_bytes(8, "little"))
            h.update(b)
    else:
        le = arr.dtype.newbyteorder("<") if arr.dtype.byteorder not in ("|", "=", "<") else arr.dtype
        if le.byteorder == "=" and sys.byteorder != "little":
            le = le.newbyteorder("<")
        h.update(np.ascontiguousarray(arr, dtype=le).reshape(-1).view(np.uint8).data)  # no copy when already so
    return "sha256:" + h.hexdigest()


def tensor_digest(t: TensorProto) -> list[tuple[str, str]]:
    """``[("digest", "sha256:..."), ("min", ...), ("max", ...), ("mean", ...), ("std", ...)]``
    for a tensor with its data in the protobuf (vectorised; NaNs are counted, not summed)."""
    arr = _raw_view(t)
    return _array_digest(arr if arr is not None else to_numpy(t))


def _array_digest(arr: np.ndarray) -> list[tuple[str, str]]:
    items = [(DIGEST_KEY, _values_hash(arr))]
    if arr.size == 0 or arr.dtype == object:
        return items
    if arr.dtype.kind == "c":
        items.append(("max_abs", _num(float(np.max(np.abs(arr))))))
        return items
    return items + _stats(arr)


def _file_digest(t: TensorProto, r: FileRange) -> list[tuple[str, str]] | None:
    """:func:`tensor_digest` of ``t`` whose bytes are ``r``, computed on a memory map of
    the file (nothing copied); None when the bytes must be read in."""
    arr = mapped_array(t, r)
    return None if arr is None else _array_digest(arr)


def mapped_array(t: TensorProto, r: FileRange) -> np.ndarray | None:
    """The values of ``t``, whose ``raw_data`` bytes are ``r``, as a read-only memory map
    of the file; None for element types numpy cannot view as they are stored (bfloat16,
    float8, 4-bit, …) or a length that does not match the shape."""
    code = _RAW_NUMPY.get(t.data_type)
    n = _count(t)
    if code is None or n is None or n == 0 or n * np.dtype(code).itemsize != r.length:
        return None
    arr = np.memmap(r.path, dtype=np.dtype(code), mode="r", offset=r.offset, shape=(n,))
    return arr.reshape(tuple(int(d) for d in t.dims))


def token_values(tokens: ContentTokens) -> Callable[[TensorProto], np.ndarray]:
    """A reader of tensor values for :func:`onnxtext.diff.diff_models`: tensors standing
    as ``tokens`` are mapped from their files (read in only for types numpy cannot view),
    the others decoded by :func:`~onnxtext.ir.tensor.arrays.to_numpy`."""

    def values(t: TensorProto) -> np.ndarray:
        r = tokens.range_of(t)
        if r is None:
            return to_numpy(t)
        arr = mapped_array(t, r)
        if arr is not None:
            return arr
        loaded = TensorProto()
        loaded.CopyFrom(t)
        loaded.raw_data = r.read()
        return to_numpy(loaded)

    return values


def _count(t: TensorProto) -> int | None:
    try:
        return element_count(t)
    except NotRepresentable:
        return None


#: ``raw_data`` element types that :func:`to_numpy` returns as they are stored.
_RAW_NUMPY = {
    1: "<f4",
    2: "u1",
    3: "i1",
    4: "<u2",
    5: "<i2",
    6: "<i4",
    7: "<i8",
    10: "<f2",
    11: "<f8",
    12: "<u4",
    13: "<u8",
}


def _raw_view(t: TensorProto) -> np.ndarray | None:
    """The values of a ``raw_data`` tensor of a plain numeric type as a read-only view of
    one copy of the bytes (``to_numpy`` makes several), or None to use ``to_numpy``."""
    code = _RAW_NUMPY.get(t.data_type)
    n = _count(t)
    if code is None or n is None or not t.HasField("raw_data") or is_external(t):
        return None
    dt = np.dtype(code)
    raw = t.raw_data
    if len(raw) != n * dt.itemsize:
        return None  # to_numpy reports it
    return np.frombuffer(raw, dtype=dt).reshape(tuple(int(d) for d in t.dims))


def _stats(flat: np.ndarray) -> list[tuple[str, str]]:
    """min, max, mean and std of the finite values and the count of the others, read by blocks
    (:func:`onnxtext.weights.statistics.statistics`: no float64 copy of the whole tensor)."""
    found = statistics(flat, bins=0)
    items: list[tuple[str, str]] = []
    if found is None:
        return items
    for key in ("min", "max", "mean", "std"):
        value = getattr(found, key)
        if value is not None:
            items.append((key, _num(value)))
    if found.nonfinite:
        items.append(("nonfinite", str(found.nonfinite)))
    return items


def digest_view(
    model: ModelProto,
    threshold_bytes: int = DEFAULT_THRESHOLD,
    *,
    progress: Progress | None = None,
    sources: TensorSources | None = None,
    in_place: bool = False,
    read_external: bool = True,
) -> ModelProto:
    """A copy of ``model`` (``model`` itself if ``in_place``) with every tensor above
    ``threshold_bytes`` replaced by its digest, written as an external-data list without
    location.

    With ``sources``, tensors whose bytes are in files (external data, ``raw_data`` left
    in the file by :func:`onnxtext.weights.wire.load_lazy`) are digested from a memory map of
    the file, and the smaller ones read in. Tensors whose data cannot be read keep their
    reference (``sources.problems`` says why).

    Without ``read_external``, tensors stored in external data files keep their reference
    (location, offset, length) and are never read: ``print --weights digest`` must print
    one tensor the same whether its data files can be found or not (git's textconv prints
    the old side of a diff from a temporary copy that cannot see them).
    """
    if in_place:
        out = model
    else:
        out = ModelProto()
        out.CopyFrom(model)
    for ref in iter_tensors(out):
        t = ref.tensor
        if is_external(t) and not read_external:
            continue
        in_file = sources.range_of(ref) if sources is not None else None
        items: list[tuple[str, str]] | None = None
        if in_file is not None:
            size = len(in_file)
            if ref.kind != "sparse" and size > threshold_bytes:
                items = _file_digest(t, in_file)
            if items is None:
                in_file.inline_into(t)
        if items is None:
            if is_external(t) or ref.kind == "sparse":
                continue
            size = tensor_nbytes(t)
            if size <= threshold_bytes:
                continue
            try:
                items = tensor_digest(t)
            except NotRepresentable:  # unknown type or inconsistent storage: hash the message
                items = [(DIGEST_KEY, "sha256:" + hashlib.sha256(t.SerializeToString(deterministic=True)).hexdigest())]
        for field in STORAGE_FIELDS:
            t.ClearField(field)  # type: ignore[arg-type]
        t.data_location = TensorProto.EXTERNAL
        del t.external_data[:]
        for key, value in items:
            e = t.external_data.add()
            e.key, e.value = key, value
        if progress is not None:
            progress(size)
    return out


class ProgressBar:
    """``label: 12.0/48.0 MB`` on stderr, rewritten in place, only when it is a terminal.

    Call it with a number of bytes done; :meth:`close` clears the line.
    """

    def __init__(self, label: str, total: int, stream: IO[str] | None = None, *, interval: float = 0.2) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = total > 0 and _isatty(self.stream)
        self.label, self.total, self.done = label, total, 0
        self.interval = interval
        self._last = 0.0
        self._shown = False

    def __call__(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < self.interval and self.done < self.total:
            return
        self._last = now
        self._shown = True
        mb = 1 << 20
        self.stream.write(f"\r{self.label}: {self.done / mb:.1f}/{self.total / mb:.1f} MB")
        self.stream.flush()

    def close(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
