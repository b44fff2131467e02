"""Reading a binary model without its large ``raw_data``: the protobuf wire format, scanned.

``print --weights external`` moves large tensors into a sidecar. Parsing the whole model
first would copy every weight byte into memory (twice: into the protobuf arena, then out
as a Python ``bytes``) only to write it out again. Instead :func:`strip_raw_data` walks
the serialized model and replaces each ``TensorProto.raw_data`` longer than a threshold
by a short *token* naming its byte range in the file; what is left parses in no time,
and the sidecar is filled straight from the input file (``os.copy_file_range``).

The walk follows only the fields that can lead to a tensor (worked out from the
descriptors: model → graph → node → attribute → tensor, functions, training info,
sparse tensors) and skips every message no longer than the threshold, which cannot hold
a longer ``raw_data``. Everything else is copied through unchanged, so parsing the
result gives the same message as parsing the input, tokens aside.
"""

from __future__ import annotations

import mmap
import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from onnxtext.ir.varint import WireError, encode_varint
from onnxtext.ir.varint import decode_varint as _varint
from onnxtext.proto import ModelProto, TensorProto

__all__ = [
    "Extent",
    "LazyRawData",
    "Part",
    "WireError",
    "strip_raw_data",
    "splice_raw_data",
    "load_lazy",
    "encode_varint",
]

_LEN = 2  # wire type of length-delimited fields
MAX_DEPTH = 100  # protobuf's own recursion limit: deeper input is refused (by the full parse too)
_RAW_DATA = TensorProto.DESCRIPTOR.fields_by_name["raw_data"].number


@dataclass(frozen=True, slots=True)
class Extent:
    """``length`` bytes at ``offset`` of the scanned buffer."""

    offset: int
    length: int


def _tensor_paths() -> dict[str, dict[int, str]]:
    """For every message type from which a ``TensorProto`` can be reached: its message
    fields that lead there (field number → message type name)."""
    tensor = TensorProto.DESCRIPTOR.full_name
    reach: set[str] = {tensor}
    seen: dict[str, Descriptor] = {}

    def collect(d: Descriptor) -> None:
        if d.full_name in seen:
            return
        seen[d.full_name] = d
        for f in d.fields:
            if f.type == FieldDescriptor.TYPE_MESSAGE:
                collect(f.message_type)

    collect(ModelProto.DESCRIPTOR)
    changed = True
    while changed:  # fixpoint: graphs hold nodes hold attributes hold graphs
        changed = False
        for name, d in seen.items():
            if name not in reach and any(
                f.type == FieldDescriptor.TYPE_MESSAGE and f.message_type.full_name in reach for f in d.fields
            ):
                reach.add(name)
                changed = True
    return {
        name: {
            f.number: f.message_type.full_name
            for f in seen[name].fields
            if f.type == FieldDescriptor.TYPE_MESSAGE and f.message_type.full_name in reach
        }
        for name in reach
    }


_PATHS = _tensor_paths()
_MODEL = ModelProto.DESCRIPTOR.full_name
_TENSOR = TensorProto.DESCRIPTOR.full_name


Part = bytes | memoryview | Extent
"""A piece of a rewritten message: bytes, or (when splicing) an extent of another file."""


class _Scan:
    def __init__(self, buf: memoryview, threshold: int, token: bytes) -> None:
        self.buf, self.threshold, self.token = buf, threshold, token
        self.extents: list[Extent] = []

    def raw_data(self, body: int, n: int) -> tuple[list[Part], int] | None:
        """What stands for the ``raw_data`` of ``n`` bytes at ``body`` (longer than the
        threshold): a token naming its extent; None to keep it."""
        self.extents.append(Extent(body, n))
        token = self.token + struct.pack(">Q", len(self.extents) - 1)
        return [token], len(token)

    def message(self, start: int, end: int, kind: str, depth: int = 0) -> tuple[list[Part], int] | None:
        """The parts of the message in ``buf[start:end]`` with large ``raw_data``
        replaced, and their total length; None when nothing in it changes."""
        if depth > MAX_DEPTH:
            raise WireError(f"messages nested more than {MAX_DEPTH} deep")
        buf, children = self.buf, _PATHS[kind]
        parts: list[Part] | None = None
        size = 0
        copied = start  # buf[start:copied] is in parts already
        pos = start
        while pos < end:
            tag, pos = _varint(buf, pos, end)
            wire_type = tag & 7
            if wire_type == _LEN:
                tag_end = pos
                n, pos = _varint(buf, pos, end)
                body, pos = pos, pos + n
                if pos > end:
                    raise WireError("a length-delimited field runs past the end of its message")
                if n <= self.threshold:
                    continue
                field = tag >> 3
                if kind == _TENSOR and field == _RAW_DATA:
                    raw = self.raw_data(body, n)
                    if raw is None:
                        continue
                    body_parts, body_size = raw
                else:
                    child = children.get(field)
                    sub = None if child is None else self.message(body, pos, child, depth + 1)
                    if sub is None:
                        continue
                    body_parts, body_size = sub
                # the field again: its tag as it was, the new length, the new body
                length = encode_varint(body_size)
                if parts is None:
                    parts = []
                parts.append(buf[copied:tag_end])
                parts.append(length)
                parts.extend(body_parts)
                size += tag_end - copied + len(length) + body_size
                copied = pos
            elif wire_type == 0:
                _, pos = _varint(buf, pos, end)
            elif wire_type == 1:
                pos += 8
            elif wire_type == 5:
                pos += 4
            else:
                raise WireError(f"wire type {wire_type} (groups) in an ONNX model")
            if pos > end:
                raise WireError("a field runs past the end of its message")
        if parts is None:
            return None
        if end > copied:
            parts.append(buf[copied:end])
            size += end - copied
        return parts, size


def _scan_model(scan: _Scan) -> tuple[list[Part], int] | None:
    """``scan.message`` over the whole buffer. A :class:`WireError` is raised again once the
    frames it went through are gone: their views of the buffer (the parts made so far) would
    keep it exported, and releasing it (or closing the file's memory map) would raise
    ``BufferError`` in place of the error."""
    try:
        return scan.message(0, len(scan.buf), _MODEL)
    except WireError as exc:
        error = WireError(str(exc))
    raise error


def strip_raw_data(
    data: bytes | bytearray | memoryview | mmap.mmap, threshold: int, token: bytes
) -> tuple[bytes | None, list[Extent]]:
    """A serialized ``ModelProto`` with every tensor's ``raw_data`` longer than ``threshold``
    bytes replaced by ``token`` + the 8-byte big-endian index of its :class:`Extent` in
    ``data``; ``(None, [])`` when there is none. Raises :class:`WireError` for bytes that
    are not a well-formed message (unknown fields are fine: they are copied)."""
    with memoryview(data) as buf:
        scan = _Scan(buf, max(threshold, len(token) + 8), token)
        result = _scan_model(scan)
        del scan.buf
        if result is None:
            return None, []
        parts, _ = result
        stripped = b"".join(cast("list[bytes | memoryview]", parts))  # the strip scan makes no extents
        for p in parts:  # free the views of ``data`` (an mmap cannot close while they live)
            if isinstance(p, memoryview):
                p.release()
        return stripped, scan.extents


class _Splice(_Scan):
    """The inverse scan: each ``raw_data`` that is a token of ``lazy`` becomes its extent."""

    def __init__(self, buf: memoryview, lazy: LazyRawData) -> None:
        super().__init__(buf, len(lazy.token) + 7, lazy.token)  # a token is 8 bytes longer than the prefix
        self.lazy = lazy

    def raw_data(self, body: int, n: int) -> tuple[list[Part], int] | None:
        token = self.token
        if n != len(token) + 8 or self.buf[body : body + len(token)] != token:
            return None
        (index,) = struct.unpack(">Q", self.buf[body + len(token) : body + n])
        if index >= len(self.lazy.extents):
            raise WireError(f"token {index} names no extent of {self.lazy.path!r}")
        extent = self.lazy.extents[index]
        return [extent], extent.length


def splice_raw_data(data: bytes, lazy: LazyRawData) -> list[Part]:
    """The parts of the serialized model ``data`` with every ``raw_data`` token of ``lazy``
    replaced by its :class:`Extent` of ``lazy.path``: written one after the other (the
    extents copied from that file), they are the model with its weights back."""
    with memoryview(data) as buf:
        scan = _Splice(buf, lazy)
        result = _scan_model(scan)
        if result is None:
            return [bytes(data)]
        return [bytes(p) if isinstance(p, memoryview) else p for p in result[0]]


@dataclass(frozen=True, slots=True)
class LazyRawData:
    """The stripped-out ``raw_data`` of a model read by :func:`load_lazy`."""

    path: str
    token: bytes
    extents: Sequence[Extent]

    def extent(self, t: TensorProto) -> Extent | None:
        """The byte range in :attr:`path` of ``t.raw_data`` if it was stripped, else None."""
        if not t.HasField("raw_data"):
            return None
        raw = t.raw_data
        if len(raw) != len(self.token) + 8 or not raw.startswith(self.token):
            return None
        (index,) = struct.unpack(">Q", raw[len(self.token) :])
        return self.extents[index] if index < len(self.extents) else None


def load_lazy(path: str | os.PathLike[str], threshold: int) -> tuple[ModelProto, LazyRawData]:
    """Parse the binary model at ``path`` leaving ``raw_data`` above ``threshold`` bytes in
    the file. Raises :class:`OSError`, :class:`WireError` or protobuf's ``DecodeError``."""
    token = b"\x00onnxtext-lazy\x00" + os.urandom(16)
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            raise WireError("empty file")
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            stripped, extents = strip_raw_data(mm, threshold, token)
            model = ModelProto()
            model.ParseFromString(mm[:] if stripped is None else stripped)
    return model, LazyRawData(os.fspath(path), token, tuple(extents))
