"""External tensor data: safe resolution, loading into ``raw_data``, writing a sidecar file.

ONNX keeps large tensors outside the protobuf: ``TensorProto.data_location = EXTERNAL``
and ``external_data`` entries ``location`` (a path relative to the model's folder),
``offset`` and ``length`` (bytes, decimal strings) and ``checksum`` (SHA-1, hex). The
bytes are exactly what ``raw_data`` would hold.

- :func:`resolve_location` turns a location into a path and refuses anything that is not
  inside the model's folder: absolute paths, ``..`` escapes, symlinks pointing outside.
- :func:`load_external` returns a copy of a model with every external tensor inlined
  into ``raw_data`` (what the evaluator and the printer need).
- :func:`write_external` moves tensors above a size threshold into one sidecar file
  (offsets aligned, written atomically) and returns the model referring to it.

Reading a model (:func:`onnxtext.io.load`) never touches external data: references are
kept as they are, and loading the weights is an explicit step.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import BinaryIO

import numpy as np

from .diagnostics import Diagnostic, OnnxTextError, Severity
from .dtypes import BY_CODE
from .proto import AttributeProto, GraphProto, ModelProto, NodeProto, TensorProto
from .span import SourceFile

__all__ = [
    "ExternalDataError",
    "UNSAFE_LOCATION",
    "UNREADABLE",
    "BAD_RANGE",
    "BAD_CHECKSUM",
    "UNWRITABLE",
    "TensorRef",
    "iter_tensors",
    "tensor_nbytes",
    "resolve_location",
    "load_external",
    "plan_external",
    "write_sidecar",
    "write_external",
    "ExternalPlan",
]

UNSAFE_LOCATION = "X001"  # absolute path, '..' escape, symlink leaving the folder, empty location
UNREADABLE = "X002"  # missing or unreadable file
BAD_RANGE = "X003"  # bad offset/length, or the range is past the end of the file
BAD_CHECKSUM = "X004"  # the checksum entry does not match the bytes
UNWRITABLE = "X005"  # the sidecar cannot be written

#: Offsets of tensors of at least ``PAGE_ALIGN_FROM`` bytes are multiples of ``PAGE`` (mmap
#: friendly, like onnx's ``save_external_data``); smaller ones of ``SMALL_ALIGN``.
PAGE = 4096
PAGE_ALIGN_FROM = 1 << 20
SMALL_ALIGN = 64

Progress = Callable[[int], None]


class ExternalDataError(OnnxTextError):
    """External tensor data that cannot be resolved, read or written safely.

    ``.diagnostics`` holds one :class:`~onnxtext.Diagnostic` (codes ``X001``…``X005``) per
    problem found; every problem of a model is reported at once.
    """

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        first = str(diagnostics[0]) if diagnostics else "external data error"
        more = f" (and {len(diagnostics) - 1} more)" if len(diagnostics) > 1 else ""
        super().__init__(first + more, diagnostics)


def _diag(code: str, message: str, where: str | None) -> Diagnostic:
    source = SourceFile("", where) if where else None
    return Diagnostic(code, Severity.ERROR, message, source=source)


# ---------------------------------------------------------------- walking tensors


@dataclass(frozen=True, slots=True)
class TensorRef:
    """A tensor of a model and a readable description of where it is."""

    tensor: TensorProto
    where: str  # e.g. "initializer 'W'" or "node 'y' attribute 'value'"
    kind: str = "initializer"  # "initializer", "sparse" (sparse initializer parts) or "attribute"


def iter_tensors(model: ModelProto | GraphProto) -> Iterator[TensorRef]:
    """Every tensor of a model: initializers (also sparse ones' values and indices) and
    attribute tensors, in the main graph, every subgraph and every function."""
    if isinstance(model, ModelProto):
        yield from _graph_tensors(model.graph, "")
        for f in model.functions:
            prefix = f"function '{f.domain + '.' if f.domain else ''}{f.name}' "
            for n in f.node:
                yield from _node_tensors(n, prefix)
            for a in f.attribute_proto:
                yield from _attr_tensors(a, f"{prefix}attribute '{a.name}'", prefix)
    else:
        yield from _graph_tensors(model, "")


def _graph_tensors(g: GraphProto, prefix: str) -> Iterator[TensorRef]:
    for t in g.initializer:
        yield TensorRef(t, f"{prefix}initializer '{t.name}'")
    for s in g.sparse_initializer:
        yield TensorRef(s.values, f"{prefix}sparse initializer '{s.values.name}' values", "sparse")
        yield TensorRef(s.indices, f"{prefix}sparse initializer '{s.values.name}' indices", "sparse")
    for n in g.node:
        yield from _node_tensors(n, prefix)


def _node_tensors(n: NodeProto, prefix: str) -> Iterator[TensorRef]:
    label = n.name or (n.output[0] if len(n.output) else n.op_type)
    for a in n.attribute:
        yield from _attr_tensors(a, f"{prefix}node '{label}' attribute '{a.name}'", f"{prefix}node '{label}' ")


def _attr_tensors(a: AttributeProto, where: str, prefix: str) -> Iterator[TensorRef]:
    if a.HasField("t"):
        yield TensorRef(a.t, where, "attribute")
    for i, t in enumerate(a.tensors):
        yield TensorRef(t, f"{where}[{i}]", "attribute")
    if a.HasField("sparse_tensor"):
        yield TensorRef(a.sparse_tensor.values, f"{where} values", "attribute")
        yield TensorRef(a.sparse_tensor.indices, f"{where} indices", "attribute")
    for i, s in enumerate(a.sparse_tensors):
        yield TensorRef(s.values, f"{where}[{i}] values", "attribute")
        yield TensorRef(s.indices, f"{where}[{i}] indices", "attribute")
    if a.HasField("g"):
        yield from _graph_tensors(a.g, f"{prefix}attribute '{a.name}' ")
    for i, g in enumerate(a.graphs):
        yield from _graph_tensors(g, f"{prefix}attribute '{a.name}'[{i}] ")


def is_external(t: TensorProto) -> bool:
    return t.data_location == TensorProto.EXTERNAL


def tensor_nbytes(t: TensorProto) -> int:
    """Size of a tensor's data in bytes as ``raw_data`` would hold it (0 for external
    tensors without a ``length``; strings count their bytes)."""
    if is_external(t):
        entries = {e.key: e.value for e in t.external_data}
        try:
            return int(entries.get("length", "0") or 0)
        except ValueError:
            return 0
    if t.HasField("raw_data"):
        return len(t.raw_data)
    dt = BY_CODE.get(t.data_type)
    if dt is None:
        return 0
    if dt.kind == "string":
        return sum(len(s) for s in t.string_data)
    n = 1
    for d in t.dims:
        n *= int(d)
    return (n * dt.bits + 7) // 8


# ---------------------------------------------------------------- resolving


def resolve_location(model_dir: str | os.PathLike[str], location: str, *, where: str | None = None) -> Path:
    """The file an external-data ``location`` names, which must be inside ``model_dir``.

    Raises :class:`ExternalDataError` (``X001``) for an empty or absolute location (POSIX
    or Windows style), a location whose ``..`` parts leave the folder, and one whose
    symlinks resolve to a file outside the (resolved) folder. The file need not exist.
    """
    what = f"external data location {location!r}"
    if not location:
        raise ExternalDataError([_diag(UNSAFE_LOCATION, "external data without a location", where)])
    if "\x00" in location:
        raise ExternalDataError([_diag(UNSAFE_LOCATION, f"{what} contains a NUL byte", where)])
    if PurePosixPath(location).is_absolute() or PureWindowsPath(location).is_absolute() or PureWindowsPath(location).drive:
        raise ExternalDataError([_diag(UNSAFE_LOCATION, f"{what} is an absolute path; locations must be relative to the model's folder", where)])
    depth = 0
    for part in location.replace("\\", "/").split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                raise ExternalDataError([_diag(UNSAFE_LOCATION, f"{what} leaves the model's folder ('..')", where)])
        elif part not in ("", "."):
            depth += 1
    root = Path(model_dir).resolve()
    path = root / location
    resolved = path.resolve()
    if resolved != root and root not in resolved.parents:
        raise ExternalDataError([_diag(UNSAFE_LOCATION, f"{what} resolves (through a symlink) to {str(resolved)!r}, outside the model's folder {str(root)!r}", where)])
    return resolved


def _entries(t: TensorProto) -> dict[str, str]:
    return {e.key: e.value for e in t.external_data}


# ---------------------------------------------------------------- loading


def load_external(
    model: ModelProto,
    model_dir: str | os.PathLike[str],
    *,
    strict: bool = True,
    source: str | None = None,
    progress: Progress | None = None,
) -> ModelProto:
    """A copy of ``model`` with every external tensor's bytes read into ``raw_data``.

    ``data_location`` and ``external_data`` are cleared on the inlined tensors, so a model
    written by :func:`write_external` loads back to the original protobuf. ``checksum``
    entries (SHA-1 hex of the tensor's bytes) are verified. With ``strict`` (the default)
    every problem is collected and raised as one :class:`ExternalDataError`; otherwise
    tensors that cannot be read keep their reference. ``source`` (the model's file name)
    prefixes the diagnostics; ``progress`` is called with the number of bytes read.
    """
    out = ModelProto()
    out.CopyFrom(model)
    problems = _inline_all(out, model_dir, source, progress)
    if problems and strict:
        raise ExternalDataError(problems)
    return out


def _inline_all(model: ModelProto, model_dir: str | os.PathLike[str], source: str | None, progress: Progress | None) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    handles: dict[Path, BinaryIO] = {}
    buffer = _ReadBuffer()
    try:
        for ref in list(iter_tensors(model)):
            t = ref.tensor
            if not is_external(t):
                continue
            where = f"{ref.where}: " if ref.where else ""
            try:
                data = _read_tensor(t, model_dir, handles, source, where, buffer)
            except ExternalDataError as exc:
                problems.extend(exc.diagnostics)
                continue
            del t.external_data[:]
            t.ClearField("data_location")
            buffer.store(t, data)
            if progress is not None:
                progress(len(data))
    finally:
        for h in handles.values():
            h.close()
    return problems


class _ReadBuffer:
    """One buffer reused for every tensor read (allocated by numpy, so large buffers get
    huge pages where the kernel offers them), laid out as a serialized ``TensorProto``
    holding only ``raw_data``: the tag and length, then the bytes.

    :meth:`store` parses that into the tensor, which copies the bytes once, straight into
    the message; ``tensor.raw_data = bytes(...)`` would make a second copy, and page
    faulting fresh memory for each copy dominates reading large weights.
    """

    HEADER = 11  # tag (1 byte) + varint length (up to 10 bytes)
    MAX_PARSE = (1 << 31) - 64  # upb parses messages below 2 GiB

    def __init__(self) -> None:
        self._array: np.ndarray | None = None

    def view(self, n: int) -> memoryview:
        """A writable view of ``n`` bytes (its content is kept until the next call)."""
        if self._array is None or self._array.size < self.HEADER + n:
            self._array = None
            self._array = np.empty(self.HEADER + n, dtype=np.uint8)
        return memoryview(self._array)[self.HEADER : self.HEADER + n]  # type: ignore[arg-type]

    def store(self, t: TensorProto, data: memoryview | bytes) -> None:
        """``t.raw_data = data`` where ``data`` is the last :meth:`view`."""
        n = len(data)
        if n >= self.MAX_PARSE or self._array is None:
            t.raw_data = bytes(data)
            return
        head = bytearray(b"\x4a")  # field 9 (raw_data), wire type 2
        v = n
        while v >= 0x80:
            head.append((v & 0x7F) | 0x80)
            v >>= 7
        head.append(v)
        start = self.HEADER - len(head)
        mv = memoryview(self._array)  # type: ignore[arg-type]
        mv[start : self.HEADER] = head
        t.ClearField("raw_data")
        t.MergeFromString(mv[start : self.HEADER + n])


def _read_tensor(
    t: TensorProto, model_dir: str | os.PathLike[str], handles: dict[Path, BinaryIO], source: str | None, where: str, buffer: _ReadBuffer | None = None
) -> memoryview | bytes:
    entries = _entries(t)
    location = entries.get("location", "")
    try:
        path = resolve_location(model_dir, location)
    except ExternalDataError as exc:
        raise ExternalDataError([_diag(UNSAFE_LOCATION, where + d.message, source) for d in exc.diagnostics]) from None
    try:
        offset = int(entries.get("offset", "0") or 0)
        length = int(entries["length"]) if entries.get("length", "") != "" else None
    except ValueError:
        raise ExternalDataError([_diag(BAD_RANGE, f"{where}offset {entries.get('offset')!r} / length {entries.get('length')!r} are not integers", source)]) from None
    if offset < 0 or (length is not None and length < 0):
        raise ExternalDataError([_diag(BAD_RANGE, f"{where}negative offset or length in {location!r}", source)])
    handle = handles.get(path)
    if handle is None:
        try:
            handle = open(path, "rb")  # noqa: SIM115 (kept open for the tensors that follow)
        except OSError as exc:
            raise ExternalDataError([_diag(UNREADABLE, f"{where}cannot read external data {location!r}: {exc.strerror or exc}", source)]) from None
        handles[path] = handle
    size = os.fstat(handle.fileno()).st_size
    end = size if length is None else offset + length
    if end > size or offset > size:
        raise ExternalDataError([_diag(BAD_RANGE, f"{where}{location!r} holds {size} bytes; offset {offset} + length {end - offset} is past its end", source)])
    handle.seek(offset)
    n = end - offset
    if buffer is None:
        data: memoryview | bytes = handle.read(n)
        got = len(data)
    else:
        data = buffer.view(n)
        got = 0
        while got < n:
            k = handle.readinto(data[got:])  # type: ignore[attr-defined]
            if not k:
                break
            got += k
    if got != n:
        raise ExternalDataError([_diag(BAD_RANGE, f"{where}short read from {location!r}", source)])
    checksum = entries.get("checksum")
    if checksum and hashlib.sha1(data).hexdigest() != checksum.lower():
        raise ExternalDataError([_diag(BAD_CHECKSUM, f"{where}checksum of {location!r} [{offset}, {end}) does not match (sha1 {checksum})", source)])
    return data


# ---------------------------------------------------------------- writing


@dataclass(slots=True)
class ExternalPlan:
    """A model whose large tensors refer to one sidecar, and the bytes to put there."""

    model: ModelProto
    sidecar: str
    pieces: list[tuple[int, bytes]]  # (offset, data), increasing offsets

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
) -> ExternalPlan:
    """Work out :func:`write_external` without writing: a copy of ``model`` (``model``
    itself if ``in_place``: one copy of the weights less) in which every tensor stored in
    ``raw_data`` with more than ``threshold_bytes`` bytes (initializers, and attribute
    tensors if ``attributes``) refers to ``sidecar_name``.

    Tensors with typed storage (``float_data``, …) and tensors that are already external
    are left as they are, so loading the data back gives the original protobuf exactly.
    """
    if PurePosixPath(sidecar_name).name != sidecar_name or sidecar_name in ("", ".", ".."):
        raise ValueError(f"sidecar name {sidecar_name!r} must be a plain file name")
    if in_place:
        out = model
    else:
        out = ModelProto()
        out.CopyFrom(model)
    pieces: list[tuple[int, bytes]] = []
    offset = 0
    for ref in iter_tensors(out):
        t = ref.tensor
        if is_external(t) or not t.HasField("raw_data") or t.ByteSize() <= threshold_bytes:
            continue  # (the tensor's size bounds its raw_data's, and costs no copy)
        if ref.kind == "sparse" or (ref.kind == "attribute" and not attributes):
            continue
        data = t.raw_data  # a copy of the bytes: read it once
        if len(data) <= threshold_bytes:
            continue
        offset = _align(offset, len(data))
        pieces.append((offset, data))
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        for key, value in (("location", sidecar_name), ("offset", str(offset)), ("length", str(len(data)))):
            e = t.external_data.add()
            e.key, e.value = key, value
        if checksum:
            e = t.external_data.add()
            e.key, e.value = "checksum", hashlib.sha1(data).hexdigest()
        offset += len(data)
    return ExternalPlan(out, sidecar_name, pieces)


def write_sidecar(path: str | os.PathLike[str], pieces: list[tuple[int, bytes]], *, progress: Progress | None = None) -> None:
    """Write ``pieces`` at their offsets (zero padding between) to ``path`` atomically:
    a temporary file in the same folder, fsynced and renamed over ``path``."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise ExternalDataError([_diag(UNWRITABLE, f"cannot write {str(target)!r}: {exc.strerror or exc}", None)]) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            pos = 0
            for offset, data in pieces:
                if offset > pos:
                    handle.write(b"\x00" * (offset - pos))
                handle.write(data)
                pos = offset + len(data)
                if progress is not None:
                    progress(len(data))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except OSError as exc:
        _unlink(tmp)
        raise ExternalDataError([_diag(UNWRITABLE, f"cannot write {str(target)!r}: {exc.strerror or exc}", None)]) from None
    except BaseException:
        _unlink(tmp)
        raise


def _unlink(name: str) -> None:
    try:
        os.unlink(name)
    except FileNotFoundError:
        pass


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


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
