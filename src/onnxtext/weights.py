"""How ``onnxtext print`` shows weights: inline, in an external sidecar, or as digests.

Every mode is a transformation of the protobuf before printing, so lifting and printing
stay unchanged:

- ``inline``: the model as it is.
- ``external``: :func:`onnxtext.external.plan_external` moves tensors above a threshold to
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
from typing import IO, Literal

import numpy as np

from .external import iter_tensors, is_external, tensor_nbytes
from .proto import ModelProto, TensorProto
from .tensor_data import NotRepresentable, to_numpy

__all__ = [
    "MODES",
    "WeightsMode",
    "DEFAULT_THRESHOLD",
    "DIGEST_HEADER",
    "DIGEST_KEY",
    "digest_view",
    "tensor_digest",
    "is_digest_text",
    "ProgressBar",
]

WeightsMode = Literal["inline", "external", "digest"]
MODES: tuple[str, ...] = ("inline", "external", "digest")
DEFAULT_THRESHOLD = 1024
DIGEST_KEY = "digest"
DIGEST_HEADER = "# onnxtext digest view: not for parsing back (large tensors are shown as digests)\n"


def is_digest_text(text: str) -> bool:
    """Whether a text was printed with ``--weights digest``."""
    return text.startswith(DIGEST_HEADER.rstrip("\n"))


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
        h.update(np.ascontiguousarray(arr, dtype=le).tobytes())
    return "sha256:" + h.hexdigest()


def tensor_digest(t: TensorProto) -> list[tuple[str, str]]:
    """``[("digest", "sha256:..."), ("min", ...), ("max", ...), ("mean", ...), ("std", ...)]``
    for a tensor with its data in the protobuf (vectorised; NaNs are counted, not summed)."""
    arr = to_numpy(t)
    items = [(DIGEST_KEY, _values_hash(arr))]
    if arr.size == 0 or arr.dtype == object:
        return items
    if arr.dtype.kind == "c":
        items.append(("max_abs", _num(float(np.max(np.abs(arr))))))
        return items
    data = arr.astype(np.float64, copy=False) if arr.dtype != np.float64 else arr
    finite = np.isfinite(data)
    n_bad = int(data.size - np.count_nonzero(finite))
    if n_bad:
        data = data[finite]
    if data.size:
        items += [("min", _num(float(data.min()))), ("max", _num(float(data.max()))),
                  ("mean", _num(float(data.mean()))), ("std", _num(float(data.std())))]
    if n_bad:
        items.append(("nonfinite", str(n_bad)))
    return items


def digest_view(model: ModelProto, threshold_bytes: int = DEFAULT_THRESHOLD, *, progress: ProgressBar | None = None) -> ModelProto:
    """A copy of ``model`` with every tensor above ``threshold_bytes`` (data in the
    protobuf) replaced by its digest, written as an external-data list without location.

    Tensors that are still external (their data could not be loaded) keep their reference.
    """
    out = ModelProto()
    out.CopyFrom(model)
    for ref in iter_tensors(out):
        t = ref.tensor
        if is_external(t) or ref.kind == "sparse":
            continue
        size = tensor_nbytes(t)
        if size <= threshold_bytes:
            continue
        try:
            items = tensor_digest(t)
        except NotRepresentable:  # unknown type or inconsistent storage: hash the message
            items = [(DIGEST_KEY, "sha256:" + hashlib.sha256(t.SerializeToString(deterministic=True)).hexdigest())]
        for field in ("raw_data", "float_data", "int32_data", "string_data", "int64_data", "double_data", "uint64_data"):
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
