"""External tensor data: walking a model's tensors, safe resolution, loading into ``raw_data``.

ONNX keeps large tensors outside the protobuf: ``TensorProto.data_location = EXTERNAL``
and ``external_data`` entries ``location`` (a path relative to the model's folder),
``offset`` and ``length`` (bytes, decimal strings) and ``checksum`` (SHA-1, hex). The
bytes are exactly what ``raw_data`` would hold.

- :func:`resolve_location` turns a location into a path and refuses anything that is not
  inside the model's folder: absolute paths, ``..`` escapes, symlinks pointing outside.
- :func:`load_external` returns a copy of a model with every external tensor inlined
  into ``raw_data`` (what the evaluator and the printer need).
- :class:`TensorSources` finds where tensors' bytes are without reading them (a
  :class:`FileRange` per tensor), for :mod:`onnxtext.weights.sidecar`, which writes sidecar files.

Reading a model (:func:`onnxtext.io.load`) never touches external data: references are
kept as they are, and loading the weights is an explicit step.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, BinaryIO

import numpy as np

from onnxtext.diagnostics import Diagnostic, OnnxTextError, Severity
from onnxtext.ir.dtypes import BY_CODE
from onnxtext.ir.paths import ProtoPath
from onnxtext.ir.tensor.literals import NotRepresentable, element_count
from onnxtext.ir.varint import encode_varint
from onnxtext.ir.walk import GraphSite, iter_graphs
from onnxtext.proto import AttributeProto, FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto
from onnxtext.span import SourceFile
from onnxtext.weights.wire import LazyRawData

__all__ = [
    "ExternalDataError",
    "UNSAFE_LOCATION",
    "UNREADABLE",
    "BAD_RANGE",
    "BAD_CHECKSUM",
    "UNWRITABLE",
    "TensorRef",
    "iter_tensors",
    "graph_initializers",
    "MAIN",
    "attribute_tensors",
    "tensor_nbytes",
    "resolve_location",
    "location_problem",
    "load_external",
    "FileRange",
    "locate",
    "TensorSources",
    "ContentTokens",
    "is_external",
]

UNSAFE_LOCATION = "X001"  # absolute path, '..' escape, symlink leaving the folder, empty location
UNREADABLE = "X002"  # missing or unreadable file
BAD_RANGE = "X003"  # bad offset/length, or the range is past the end of the file
BAD_CHECKSUM = "X004"  # the checksum entry does not match the bytes
UNWRITABLE = "X005"  # the sidecar cannot be written

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
    path: ProtoPath | None = None
    """Its proto path from the model, with :attr:`token` (a tensor of an attribute's list:
    ``("tensors", k)``) what a source map locates; None for a function attribute's default graph."""
    token: tuple[str, int] | None = None


MAIN = ProtoPath([("graph",)])
"""The main graph's proto path."""


def iter_tensors(model: ModelProto | GraphProto) -> Iterator[TensorRef]:
    """Every tensor of a model: initializers (also sparse ones' values and indices) and
    attribute tensors, in the main graph, every subgraph, the training graphs and every
    function (attribute defaults included)."""
    yield from _tensors(model, "")


def _tensors(model: ModelProto | GraphProto, base: str, paths: bool = True) -> Iterator[TensorRef]:
    for site in iter_graphs(model):
        prefix = base + _prefix(site)
        proto = site.proto
        at = site.path if paths else None
        if isinstance(proto, FunctionProto):
            for i, a in enumerate(proto.attribute_proto):
                here = at / ("attribute_proto", i) if at is not None else None
                yield from attribute_tensors(a, f"{prefix}attribute '{a.name}'", here)
                # a default graph is no part of the body the walk goes through
                if a.HasField("g"):
                    yield from _tensors(a.g, f"{prefix}attribute '{a.name}' ", False)
                for k, g in enumerate(a.graphs):
                    yield from _tensors(g, f"{prefix}attribute '{a.name}'[{k}] ", False)
        else:
            yield from graph_initializers(proto, prefix, at)
            for i, s in enumerate(proto.sparse_initializer):
                here = at / ("sparse_initializer", i) if at is not None else None
                name = s.values.name
                yield TensorRef(s.values, f"{prefix}sparse initializer '{name}' values", "sparse", here)
                yield TensorRef(s.indices, f"{prefix}sparse initializer '{name}' indices", "sparse", here)
        for i, n in enumerate(proto.node):
            label = _node_label(n)
            for k, a in enumerate(n.attribute):
                here = at / ("node", i) / ("attribute", k) if at is not None else None
                yield from attribute_tensors(a, f"{prefix}node '{label}' attribute '{a.name}'", here)


def graph_initializers(graph: GraphProto, prefix: str = "", at: ProtoPath | None = MAIN) -> Iterator[TensorRef]:
    """The initializers of ``graph`` (at the proto path ``at``; the main graph's by default), as
    :func:`iter_tensors` gives them."""
    for i, t in enumerate(graph.initializer):
        here = at / ("initializer", i) if at is not None else None
        yield TensorRef(t, f"{prefix}initializer '{t.name}'", path=here)


def _node_label(n: NodeProto) -> str:
    return n.name or (n.output[0] if len(n.output) else n.op_type)


def _prefix(site: GraphSite) -> str:
    """How a tensor's description starts for a graph: ``""`` for the main graph,
    ``training_info[0] initialization ``, ``function 'd.f' ``, ``node 'loop' attribute 'body' ``..."""
    if site.kind == "function":
        fn = site.proto
        return f"function '{fn.domain + '.' if fn.domain else ''}{fn.name}' "
    if site.kind in ("initialization", "algorithm"):
        return f"training_info[{site.training_index}] {site.kind} "
    if site.kind == "subgraph" and site.parent is not None and site.owner is not None and site.attribute is not None:
        last = site.path[-1]
        item = f"[{last[1]}]" if len(last) > 1 else ""  # type: ignore[misc]
        return f"{_prefix(site.parent)}node '{_node_label(site.owner)}' attribute '{site.attribute.name}'{item} "
    return ""


def attribute_tensors(a: AttributeProto, where: str, path: ProtoPath | None = None) -> Iterator[TensorRef]:
    """The tensors an attribute holds itself (those of the graphs it holds come with the walk);
    ``path`` is the attribute's."""
    if a.HasField("t"):
        yield TensorRef(a.t, where, "attribute", path / "t" if path is not None else None)
    for i, t in enumerate(a.tensors):
        yield TensorRef(t, f"{where}[{i}]", "attribute", path, ("tensors", i))
    if a.HasField("sparse_tensor"):
        yield TensorRef(a.sparse_tensor.values, f"{where} values", "attribute", path)
        yield TensorRef(a.sparse_tensor.indices, f"{where} indices", "attribute", path)
    for i, s in enumerate(a.sparse_tensors):
        yield TensorRef(s.values, f"{where}[{i}] values", "attribute", path, ("sparse_tensors", i))
        yield TensorRef(s.indices, f"{where}[{i}] indices", "attribute", path, ("sparse_tensors", i))


def is_external(t: TensorProto) -> bool:
    return t.data_location == TensorProto.EXTERNAL


def tensor_nbytes(t: TensorProto) -> int:
    """Size of a tensor's data in bytes as ``raw_data`` would hold it (0 for external
    tensors without a ``length``; strings count their bytes)."""
    if is_external(t):
        try:
            return int(_entries(t).get("length", "0") or 0)
        except ValueError:
            return 0
    if t.HasField("raw_data"):
        return len(t.raw_data)
    dt = BY_CODE.get(t.data_type)
    if dt is None:
        return 0
    if dt.kind == "string":
        return sum(len(s) for s in t.string_data)
    try:
        return (element_count(t) * dt.bits + 7) // 8
    except NotRepresentable:  # a negative dimension
        return 0


# ---------------------------------------------------------------- resolving


def location_problem(location: str) -> str | None:
    """Why ``location`` may not name external data, from its text alone (no file system):
    empty, a NUL byte, an absolute path (POSIX or Windows style) or ``..`` parts that leave
    the model's folder; None when it is fine. :func:`resolve_location` checks symlinks too."""
    what = f"external data location {location!r}"
    if not location:
        return "external data without a location"
    if "\x00" in location:
        return f"{what} contains a NUL byte"
    if (
        PurePosixPath(location).is_absolute()
        or PureWindowsPath(location).is_absolute()
        or PureWindowsPath(location).drive
    ):
        return f"{what} is an absolute path; locations must be relative to the model's folder"
    depth = 0
    for part in location.replace("\\", "/").split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return f"{what} leaves the model's folder ('..')"
        elif part not in ("", "."):
            depth += 1
    return None


def resolve_location(model_dir: str | os.PathLike[str], location: str, *, where: str | None = None) -> Path:
    """The file an external-data ``location`` names, which must be inside ``model_dir``.

    Raises :class:`ExternalDataError` (``X001``) for an empty or absolute location (POSIX
    or Windows style), a location whose ``..`` parts leave the folder, and one whose
    symlinks resolve to a file outside the (resolved) folder. The file need not exist.
    """
    problem = location_problem(location)
    if problem is not None:
        raise ExternalDataError([_diag(UNSAFE_LOCATION, problem, where)])
    root = Path(model_dir).resolve()
    path = root / location
    resolved = path.resolve()
    if resolved != root and root not in resolved.parents:
        raise ExternalDataError(
            [
                _diag(
                    UNSAFE_LOCATION,
                    f"external data location {location!r} resolves (through a symlink) to "
                    f"{str(resolved)!r}, outside the model's folder {str(root)!r}",
                    where,
                )
            ]
        )
    return resolved


def _entries(t: TensorProto) -> dict[str, str]:
    return {e.key: e.value for e in t.external_data}


# ---------------------------------------------------------------- locating and loading


@dataclass(frozen=True, slots=True)
class FileRange:
    """``length`` bytes at ``offset`` of the file ``path``: where a tensor's bytes are when
    they are not in memory (an external-data reference, or ``raw_data`` left in the model
    file by :func:`onnxtext.weights.wire.load_lazy`)."""

    path: Path
    offset: int
    length: int

    def __len__(self) -> int:
        return self.length

    def read(self) -> bytes:
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read(self.length)
        if len(data) != self.length:
            raise OSError(f"short read from {str(self.path)!r}")
        return data

    def inline_into(self, t: TensorProto) -> None:
        """Read the bytes into ``t.raw_data`` and drop ``t``'s external reference, if any."""
        del t.external_data[:]
        t.ClearField("data_location")
        t.raw_data = self.read()

    def sha1(self) -> str:
        """SHA-1 hex of the bytes, read in chunks (never all in memory)."""
        return self._hash(hashlib.sha1()).hexdigest()

    def sha256(self) -> bytes:
        """The SHA-256 digest of the bytes (read in chunks)."""
        return self._hash(hashlib.sha256()).digest()

    def _hash(self, h: Any) -> Any:
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            left = self.length
            while left:
                chunk = f.read(min(left, 1 << 24))
                if not chunk:
                    raise OSError(f"short read from {str(self.path)!r}")
                h.update(chunk)
                left -= len(chunk)
        return h


class _Sizes(dict[Path, int]):
    """File sizes, each file stat'ed once (``OSError`` when it cannot be opened, or is no
    regular file: a FIFO or a device would block, or never end, the reads that follow)."""

    def __missing__(self, path: Path) -> int:
        # open, not stat: the file must be readable; without blocking, as a FIFO's open does
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            st = os.fstat(fd)
        finally:
            os.close(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        self[path] = st.st_size
        return st.st_size


def _locate(
    t: TensorProto, model_dir: str | os.PathLike[str], source: str | None, where: str, sizes: _Sizes
) -> FileRange:
    """The validated byte range of an external tensor (``X001``–``X003``); reads nothing."""
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
        raise ExternalDataError(
            [
                _diag(
                    BAD_RANGE,
                    f"{where}offset {entries.get('offset')!r} / length {entries.get('length')!r} are not integers",
                    source,
                )
            ]
        ) from None
    if offset < 0 or (length is not None and length < 0):
        raise ExternalDataError([_diag(BAD_RANGE, f"{where}negative offset or length in {location!r}", source)])
    try:
        size = sizes[path]
    except OSError as exc:
        raise ExternalDataError(
            [_diag(UNREADABLE, f"{where}cannot read external data {location!r}: {exc.strerror or exc}", source)]
        ) from None
    end = size if length is None else offset + length
    if end > size or offset > size:
        raise ExternalDataError(
            [
                _diag(
                    BAD_RANGE,
                    f"{where}{location!r} holds {size} bytes; offset {offset} + length {end - offset} is past its end",
                    source,
                )
            ]
        )
    return FileRange(path, offset, end - offset)


def locate(t: TensorProto, model_dir: str | os.PathLike[str]) -> FileRange:
    """The validated byte range of the external tensor ``t`` (a location inside ``model_dir``, a
    regular file, integer offset and length within it); reads nothing. Raises
    :class:`ExternalDataError` (``X001``–``X003``) saying what is wrong."""
    return _locate(t, model_dir, None, "", _Sizes())


def _checksum_problem(t: TensorProto, sha1: str, source: str | None, where: str, r: FileRange) -> Diagnostic | None:
    """``X004`` if ``t`` has a ``checksum`` entry that is not ``sha1``."""
    checksum = _entries(t).get("checksum")
    if checksum and sha1 != checksum.lower():
        return _diag(
            BAD_CHECKSUM,
            f"{where}checksum of {r.path.name!r} [{r.offset}, {r.offset + r.length}) does not match (sha1 {checksum})",
            source,
        )
    return None


class TensorSources:
    """Where the bytes of tensors that are not in memory are, found without reading them:
    external-data references resolved against ``model_dir``, and ``raw_data`` that
    :func:`onnxtext.weights.wire.load_lazy` left in the model file (``lazy``).

    :meth:`range_of` gives a tensor's :class:`FileRange`; the problems of broken references
    (``X001``–``X004``) are collected in :attr:`problems`, not raised one by one. Checksum
    entries are verified (which reads those tensors' bytes once).
    """

    def __init__(
        self, model_dir: str | os.PathLike[str] | None, *, source: str | None = None, lazy: LazyRawData | None = None
    ) -> None:
        self.model_dir, self.source, self.lazy = model_dir, source, lazy
        self.problems: list[Diagnostic] = []
        self._sizes = _Sizes()

    def nbytes(self, t: TensorProto) -> int:
        """:func:`tensor_nbytes`, knowing the size of stripped ``raw_data`` (reads nothing)."""
        extent = self.lazy.extent(t) if self.lazy is not None else None
        return extent.length if extent is not None else tensor_nbytes(t)

    def range_of(self, ref: TensorRef) -> FileRange | None:
        """The tensor's bytes in a file, or None when they are in memory (or unreadable:
        then a problem is recorded, and the tensor keeps its reference)."""
        t = ref.tensor
        if self.lazy is not None:
            extent = self.lazy.extent(t)
            if extent is not None:
                return FileRange(Path(self.lazy.path), extent.offset, extent.length)
        if not is_external(t):
            return None
        where = f"{ref.where}: " if ref.where else ""
        if self.model_dir is None:
            self.problems.append(
                _diag(
                    UNREADABLE,
                    f"{where}refers to external data, which cannot be found without the model's folder "
                    "(give the model's file name, not standard input)",
                    self.source,
                )
            )
            return None
        try:
            r = _locate(t, self.model_dir, self.source, where, self._sizes)
            if "checksum" in _entries(t):
                problem = _checksum_problem(t, r.sha1(), self.source, where, r)
                if problem is not None:
                    raise ExternalDataError([problem])
        except ExternalDataError as exc:
            self.problems.extend(exc.diagnostics)
            return None
        except OSError as exc:
            self.problems.append(
                _diag(UNREADABLE, f"{where}cannot read {str(exc.filename or '')!r}: {exc.strerror or exc}", self.source)
            )
            return None
        return r


class ContentTokens:
    """Tensors whose bytes stay in their files, each standing in ``raw_data`` as a short
    token derived from its content (SHA-256): equal bytes give equal tokens, in every
    model given to one :class:`ContentTokens`. So two large models can be compared as
    protobufs (``diff``) without loading either's weights; :meth:`range_of` tells where
    a token's bytes are, for the tensors whose values must be looked at.
    """

    def __init__(self) -> None:
        self.prefix = b"\x00onnxtext-content\x00" + os.urandom(8)
        self._ranges: dict[bytes, FileRange] = {}

    def tokenize(
        self, model: ModelProto, sources: TensorSources, threshold_bytes: int, *, progress: Progress | None = None
    ) -> None:
        """Replace, in ``model``, the bytes of every tensor that ``sources`` finds in a file
        by a token when larger than ``threshold_bytes``, by the bytes themselves otherwise.
        ``progress`` is called with the number of bytes hashed."""
        for ref in iter_tensors(model):
            r = sources.range_of(ref)
            if r is None:
                continue
            if len(r) <= threshold_bytes:
                r.inline_into(ref.tensor)
                continue
            token = self.prefix + r.sha256()
            self._ranges.setdefault(token, r)
            if progress is not None:
                progress(len(r))
            t = ref.tensor
            del t.external_data[:]
            t.ClearField("data_location")
            t.raw_data = token

    def range_of(self, t: TensorProto) -> FileRange | None:
        """Where the bytes of ``t`` are, if its ``raw_data`` is one of the tokens."""
        if not t.HasField("raw_data"):
            return None
        raw = t.raw_data
        return self._ranges.get(raw) if raw.startswith(self.prefix) else None


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
    written by :func:`onnxtext.weights.sidecar.write_external` loads back to the original
    protobuf. ``checksum`` entries (SHA-1 hex of the tensor's bytes) are verified. With
    ``strict`` (the default) every problem is collected and raised as one
    :class:`ExternalDataError`; otherwise tensors that cannot be read keep their
    reference. ``source`` (the model's file name) prefixes the diagnostics; ``progress``
    is called with the number of bytes read.
    """
    out = ModelProto()
    out.CopyFrom(model)
    problems = _inline_all(out, model_dir, source, progress)
    if problems and strict:
        raise ExternalDataError(problems)
    return out


def _inline_all(
    model: ModelProto, model_dir: str | os.PathLike[str], source: str | None, progress: Progress | None
) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    handles: dict[Path, BinaryIO] = {}
    sizes = _Sizes()
    buffer = _ReadBuffer()
    try:
        for ref in list(iter_tensors(model)):
            t = ref.tensor
            if not is_external(t):
                continue
            where = f"{ref.where}: " if ref.where else ""
            try:
                r = _locate(t, model_dir, source, where, sizes)
                data = _read_range(r, handles, buffer)
            except ExternalDataError as exc:
                problems.extend(exc.diagnostics)
                continue
            except OSError as exc:
                problems.append(_diag(UNREADABLE, f"{where}cannot read {r.path.name!r}: {exc.strerror or exc}", source))
                continue
            problem = (
                _checksum_problem(t, hashlib.sha1(data).hexdigest(), source, where, r)
                if "checksum" in _entries(t)
                else None
            )
            if problem is not None:
                problems.append(problem)
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
        head = b"\x4a" + encode_varint(n)  # field 9 (raw_data), wire type 2, length
        start = self.HEADER - len(head)
        mv = memoryview(self._array)  # type: ignore[arg-type]
        mv[start : self.HEADER] = head
        t.ClearField("raw_data")
        t.MergeFromString(mv[start : self.HEADER + n])


def _read_range(r: FileRange, handles: dict[Path, BinaryIO], buffer: _ReadBuffer) -> memoryview:
    """The bytes of ``r`` in ``buffer`` (valid until its next use)."""
    handle = handles.get(r.path)
    if handle is None:
        handle = handles[r.path] = open(r.path, "rb")  # noqa: SIM115 (kept open for the tensors that follow)
    handle.seek(r.offset)
    data = buffer.view(r.length)
    got = 0
    while got < r.length:
        k = handle.readinto(data[got:])  # type: ignore[attr-defined]
        if not k:
            raise OSError(f"short read from {str(r.path)!r}")
        got += k
    return data
