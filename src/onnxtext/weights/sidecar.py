"""Writing weights to a sidecar file: the other half of :mod:`onnxtext.weights.external`.

- :func:`plan_external` decides which tensors move (``raw_data`` above a threshold) and at
  which offsets, and rewrites their references; it writes nothing.
- :func:`write_sidecar` writes the planned pieces atomically. A piece is either bytes in
  memory or a :class:`~onnxtext.weights.external.FileRange` of another file (weights that were
  never loaded: an external reference of the input, or ``raw_data`` left in the input
  model by :func:`onnxtext.weights.wire.load_lazy`), copied by the kernel with
  ``os.copy_file_range`` — so ``print --weights external`` runs at the speed of a file copy.
- :func:`write_external` is both steps for a model in memory.
"""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from onnxtext.io import atomic_file, write_all
from onnxtext.proto import ModelProto, TensorProto
from onnxtext.weights.external import (
    UNWRITABLE,
    ExternalDataError,
    FileRange,
    Progress,
    TensorSources,
    _diag,
    is_external,
    iter_tensors,
    resolve_location,
)

__all__ = [
    "ExternalPlan",
    "Piece",
    "plan_external",
    "write_sidecar",
    "write_external",
    "PAGE",
    "PAGE_ALIGN_FROM",
    "SMALL_ALIGN",
]

#: Offsets of tensors of at least ``PAGE_ALIGN_FROM`` bytes are multiples of ``PAGE`` (mmap
#: friendly, like onnx's ``save_external_data``); smaller ones of ``SMALL_ALIGN``.
PAGE = 4096
PAGE_ALIGN_FROM = 1 << 20
SMALL_ALIGN = 64

Piece = bytes | FileRange
"""The bytes of one tensor: in memory, or a range of a file (copied without loading)."""

_COPY_CHUNK = 1 << 26  # bytes per copy_file_range call (progress granularity)
_BUFFER = 1 << 23  # read/write fallback buffer


@dataclass(slots=True)
class ExternalPlan:
    """A model whose large tensors refer to one sidecar, and the bytes to put there."""

    model: ModelProto
    sidecar: str
    pieces: list[tuple[int, Piece]]  # (offset, data), increasing offsets

    @property
    def size(self) -> int:
        return self.pieces[-1][0] + len(self.pieces[-1][1]) if self.pieces else 0


def _align(offset: int, size: int) -> int:
    a = PAGE if size >= PAGE_ALIGN_FROM else SMALL_ALIGN
    return (offset + a - 1) // a * a


def plan_external(
    model: ModelProto,
    sidecar_name: str,
    threshold_bytes: int = 1024,
    *,
    attributes: bool = True,
    checksum: bool = False,
    in_place: bool = False,
    sources: TensorSources | None = None,
) -> ExternalPlan:
    """Work out :func:`write_external` without writing: a copy of ``model`` (``model``
    itself if ``in_place``: one copy of the weights less) in which every tensor stored in
    ``raw_data`` with more than ``threshold_bytes`` bytes (initializers, and attribute
    tensors if ``attributes``) refers to ``sidecar_name``.

    Tensors with typed storage (``float_data``, …) and tensors that are already external
    are left as they are, so loading the data back gives the original protobuf exactly.

    With ``sources``, the bytes of tensors that are not in memory are taken from their
    files without being read: external references of the input (which then move to the
    sidecar as well, or are read into ``raw_data`` when at or under the threshold, as
    :func:`~onnxtext.weights.external.load_external` would) and ``raw_data`` left in the input
    file by :func:`~onnxtext.weights.wire.load_lazy`. Their problems (``X001``–``X004``) are
    raised together as one :class:`~onnxtext.weights.external.ExternalDataError`.
    """
    if PurePosixPath(sidecar_name).name != sidecar_name or sidecar_name in ("", ".", ".."):
        raise ValueError(f"sidecar name {sidecar_name!r} must be a plain file name")
    if in_place:
        out = model
    else:
        out = ModelProto()
        out.CopyFrom(model)
    pieces: list[tuple[int, Piece]] = []
    offset = 0
    for ref in iter_tensors(out):
        t = ref.tensor
        movable = ref.kind != "sparse" and (ref.kind != "attribute" or attributes)
        data: Piece
        in_file = sources.range_of(ref) if sources is not None else None
        if in_file is not None:
            if not movable or len(in_file) <= threshold_bytes:
                in_file.inline_into(t)
                continue
            data = in_file
        else:
            if not movable or is_external(t) or not t.HasField("raw_data"):
                continue
            data = t.raw_data  # a copy of the bytes: read it once
            if len(data) <= threshold_bytes:
                continue
        offset = _align(offset, len(data))
        pieces.append((offset, data))
        t.ClearField("raw_data")
        if is_external(t):
            del t.external_data[:]  # the input's reference
        t.data_location = TensorProto.EXTERNAL
        for key, value in (("location", sidecar_name), ("offset", str(offset)), ("length", str(len(data)))):
            e = t.external_data.add()
            e.key, e.value = key, value
        if checksum:
            e = t.external_data.add()
            e.key, e.value = "checksum", data.sha1() if isinstance(data, FileRange) else hashlib.sha1(data).hexdigest()
        offset += len(data)
    if sources is not None and sources.problems:
        raise ExternalDataError(sources.problems)
    return ExternalPlan(out, sidecar_name, pieces)


def write_sidecar(
    path: str | os.PathLike[str],
    pieces: list[tuple[int, Piece]],
    *,
    progress: Progress | None = None,
    check: Callable[[int], None] | None = None,
) -> None:
    """Write ``pieces`` at their offsets (zeros between) to ``path`` atomically
    (:func:`onnxtext.io.atomic_file`). File ranges are copied by the kernel where it can
    (``os.copy_file_range``), else through a buffer. ``check`` is given the new file (open for
    reading and writing) once written, before it replaces ``path``: what it raises leaves
    ``path`` untouched and the new file removed."""
    target = Path(path)
    sources: dict[Path, int] = {}
    try:
        with atomic_file(target) as fd:
            end = 0
            for offset, data in pieces:
                if isinstance(data, FileRange):
                    src = sources.get(data.path)
                    if src is None:
                        src = sources[data.path] = os.open(data.path, os.O_RDONLY)
                    _copy_range(src, data, fd, offset, progress)
                else:
                    write_all(fd, data, offset)
                    if progress is not None:
                        progress(len(data))
                end = offset + len(data)
            os.ftruncate(fd, end)  # the padding after the last piece written, if any
            if check is not None:
                check(fd)
    except OSError as exc:
        raise ExternalDataError(
            [_diag(UNWRITABLE, f"cannot write {str(target)!r}: {exc.strerror or exc}", None)]
        ) from None
    finally:
        for src in sources.values():
            os.close(src)


_KERNEL_COPY = hasattr(os, "copy_file_range")


def _copy_range(src: int, r: FileRange, dst: int, offset: int, progress: Progress | None) -> None:
    """Copy ``r`` (open as ``src``) to ``dst`` at ``offset``."""
    global _KERNEL_COPY
    done = 0
    while done < r.length and _KERNEL_COPY:
        try:
            n = os.copy_file_range(src, dst, min(_COPY_CHUNK, r.length - done), r.offset + done, offset + done)
        except OSError as exc:
            if exc.errno not in (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EPERM):
                raise
            _KERNEL_COPY = False  # not across these file systems: copy through a buffer
            break
        if n == 0:
            raise OSError(errno.EIO, f"short read from {str(r.path)!r}")
        done += n
        if progress is not None:
            progress(n)
    if done < r.length:
        buffer = bytearray(min(_BUFFER, r.length - done))
        view = memoryview(buffer)
        while done < r.length:
            k = os.preadv(src, [view[: min(len(buffer), r.length - done)]], r.offset + done)
            if k == 0:
                raise OSError(errno.EIO, f"short read from {str(r.path)!r}")
            write_all(dst, view[:k], offset + done)
            done += k
            if progress is not None:
                progress(k)


def write_external(
    model: ModelProto,
    model_dir: str | os.PathLike[str],
    sidecar_name: str,
    threshold_bytes: int = 1024,
    *,
    attributes: bool = True,
    checksum: bool = False,
    progress: Progress | None = None,
) -> ModelProto:
    """Move every ``raw_data`` tensor above ``threshold_bytes`` into ``model_dir/sidecar_name``
    (one file, aligned offsets, written atomically) and return the model referring to it.

    ``model`` itself is not changed. See :func:`plan_external` for which tensors move.
    """
    plan = plan_external(model, sidecar_name, threshold_bytes, attributes=attributes, checksum=checksum)
    target = resolve_location(model_dir, sidecar_name)
    if plan.pieces:
        write_sidecar(target, plan.pieces, progress=progress)
    return plan.model
