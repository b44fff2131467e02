"""Large tensors shown by reference: an editable text of a model too big to print whole.

:func:`reference_view` reads a binary model leaving its large ``raw_data`` in the file
(:func:`onnxtext.weights.wire.load_lazy`), keeps inline the smallest tensors while their
text fits a budget, and writes each other one as ``["digest": "sha256:…"]`` (SHA-256 of its
stored bytes, the ``print --weights digest`` syntax without statistics) — its name, type
and shape stay in the text. The tensors' data is *held*: by digest, the data type, the
dimensions and the stored data (a token naming the byte range in the file, or the typed
fields of a tensor that was parsed into memory).

:func:`held_records` finds, without touching the model, every tensor of a model parsed from
the edited text whose record is a reference of the view but not exactly one the view made
(its digest, key, entries, data location, type or shape edited): each would be saved without
its data. :func:`restore_held` puts the held data back into such a model (refusing what
:func:`held_records` finds); :func:`write_held` writes the model, the held ranges copied from
the original file by the kernel (never read into memory), atomically, checks that the bytes
copied still have the digests the view showed, and says where they are in the new file.

A tensor's digest covers everything held of it: the SHA-256 of its bytes in the file (what
``print --weights digest`` shows) when those are all it stores, else a digest of those bytes
and its other storage fields too, so tensors of equal bytes share a held entry only when they
store exactly the same.
"""

from __future__ import annotations

import hashlib
import mmap
import os
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from onnxtext.diagnostics import OnnxTextError
from onnxtext.ir.paths import ProtoPath
from onnxtext.ir.tensor.literals import STORAGE_FIELDS
from onnxtext.proto import ModelProto, TensorProto
from onnxtext.weights.digest import DIGEST_KEY
from onnxtext.weights.external import (
    MAIN,
    FileRange,
    TensorRef,
    TensorSources,
    graph_initializers,
    is_external,
    iter_tensors,
    tensor_nbytes,
)
from onnxtext.weights.sidecar import Piece, write_sidecar
from onnxtext.weights.wire import Extent, LazyRawData, load_lazy, splice_raw_data

__all__ = [
    "Held",
    "HeldTensors",
    "HeldProblem",
    "HeldChanged",
    "reference_view",
    "held_records",
    "restore_held",
    "write_held",
    "TEXT_PER_BYTE",
    "SMALL_TENSOR",
    "UNDO_BUDGET",
]

TEXT_PER_BYTE = 4.5
"""Characters of text per stored byte, an upper estimate (a float32 prints in about 13)."""
SMALL_TENSOR = 1024
"""Tensors of at most this many bytes are always in the text (shapes, scalars, small biases)."""
UNDO_BUDGET = 64 * 2**20
"""Bytes of the tensors shown by reference that a save leaves out (deleted from the text) kept in
memory: undoing the deletion and saving again puts them back."""


@dataclass(frozen=True, slots=True)
class Held:
    """The data of one tensor shown by reference."""

    data_type: int
    dims: tuple[int, ...]
    storage: TensorProto
    """Only the stored data: ``raw_data`` (a token of :attr:`HeldTensors.lazy`, or bytes) or typed fields."""

    def type_text(self) -> str:
        from onnxtext.ir.dtypes import BY_CODE

        dt = BY_CODE.get(self.data_type)
        return f"{dt.name if dt is not None else self.data_type}[{','.join(str(d) for d in self.dims)}]"


@dataclass(slots=True)
class HeldTensors:
    """The held tensors of one view, by digest, and where their bytes are."""

    lazy: LazyRawData
    by_digest: dict[str, list[Held]] = field(default_factory=dict)
    """Equal bytes may be tensors of several types or shapes (zeros): one entry each."""
    extent_digests: dict[int, str] = field(default_factory=dict)
    """The SHA-256 hex of the bytes of each extent of :attr:`lazy` a held tensor stores: what a
    save checks the bytes it copies against."""
    dropped: frozenset[str] = frozenset()
    """Digests of held tensors an earlier save left out (deleted from the text): their bytes are
    no longer in the file."""
    initializers_only: bool = True
    """Every held tensor was an initializer of the main graph (where weights are): a quick look
    at an edited text reads only those (:func:`held_records`)."""

    def __len__(self) -> int:
        return sum(len(found) for found in self.by_digest.values())


@dataclass(frozen=True, slots=True)
class HeldProblem:
    """A reference edited in the text, at the tensor's ``path`` (+ ``token``, as a source map
    locates them; None when the tensor has none)."""

    message: str
    path: ProtoPath | None = None
    token: tuple[str, int] | None = None


class HeldChanged(OnnxTextError):
    """The bytes of a held tensor in the model file are no longer those the view showed."""


def reference_view(path: str | os.PathLike[str], inline_budget: int) -> tuple[ModelProto, HeldTensors]:
    """The model at ``path`` with its large tensors by reference: the smallest tensors stay
    inline while their estimated text (:data:`TEXT_PER_BYTE`) adds up to ``inline_budget``
    characters; tensors with external data keep their reference. Raises what
    :func:`~onnxtext.weights.wire.load_lazy` raises."""
    model, lazy = load_lazy(path, SMALL_TENSOR)
    sources = TensorSources(None, lazy=lazy)
    held = HeldTensors(lazy)
    candidates = []
    for ref in iter_tensors(model):
        t = ref.tensor
        if is_external(t):
            continue
        in_file = sources.range_of(ref)
        if ref.kind == "sparse":  # parts of one message: never by reference
            if in_file is not None:
                in_file.inline_into(t)
            continue
        candidates.append((len(in_file) if in_file is not None else tensor_nbytes(t), ref, in_file))
    candidates.sort(key=lambda c: c[0])
    spent = 0.0
    by_ref: list[tuple[TensorProto, FileRange | None]] = []
    for size, ref, in_file in candidates:
        t = ref.tensor
        if size <= SMALL_TENSOR or spent + size * TEXT_PER_BYTE <= inline_budget:
            spent += size * TEXT_PER_BYTE
            if in_file is not None:
                in_file.inline_into(t)
            continue
        by_ref.append((t, in_file))
        if ref.kind != "initializer" or ref.path is None or ref.path.parent != MAIN:
            held.initializers_only = False
    in_file_digests = _range_digests(path, [r for _, r in by_ref if r is not None])
    for t, in_file in by_ref:
        _hold(t, in_file_digests[in_file] if in_file is not None else None, held)
    return model, held


def _range_digests(path: str | os.PathLike[str], ranges: list[FileRange]) -> dict[FileRange, str]:
    """The SHA-256 hex of each range of the file at ``path``: the cost of opening a big model."""
    if not ranges:
        return {}
    with open(path, "rb") as f:
        found = _extent_digests(f.fileno(), [Extent(r.offset, r.length) for r in ranges])
    return dict(zip(ranges, found, strict=True))


def _extent_digests(fd: int, extents: list[Extent]) -> list[str]:
    """The SHA-256 hex of each extent of the open file ``fd``, hashed from one memory map (no
    copies) by two threads (hashlib lets go of the GIL)."""
    if not extents:
        return []
    with mmap.mmap(fd, 0, access=mmap.ACCESS_READ) as mm:
        view = memoryview(mm)
        try:

            def digest(r: Extent) -> str:
                h = hashlib.sha256()
                for start in range(r.offset, r.offset + r.length, _HASH_BLOCK):
                    with view[start : min(start + _HASH_BLOCK, r.offset + r.length)] as block:
                        h.update(block)
                return h.hexdigest()

            with ThreadPoolExecutor(max_workers=2) as pool:
                return list(pool.map(digest, extents))
        finally:
            view.release()


_HASH_BLOCK = 1 << 24


def _hold(t: TensorProto, file_digest: str | None, held: HeldTensors) -> None:
    """Replace the data of ``t`` by its digest record (``file_digest``: of its bytes, when they
    are in the file), keeping the data in ``held``."""
    storage = TensorProto()
    storage.CopyFrom(t)
    for name in ("name", "doc_string", "metadata_props", "dims", "data_type", "segment"):
        storage.ClearField(name)  # type: ignore[arg-type]
    index = _token_index(storage, held.lazy)
    if file_digest is None or index is None:
        digest = hashlib.sha256(storage.SerializeToString(deterministic=True)).hexdigest()
    else:
        held.extent_digests[index] = file_digest
        rest = TensorProto()
        rest.CopyFrom(storage)
        rest.ClearField("raw_data")
        extra = rest.SerializeToString(deterministic=True)  # typed values too, an explicit data_location...
        digest = hashlib.sha256(bytes.fromhex(file_digest) + extra).hexdigest() if extra else file_digest
    key = f"sha256:{digest}"
    found = held.by_digest.setdefault(key, [])
    if not any((h.data_type, h.dims) == (t.data_type, tuple(t.dims)) for h in found):
        found.append(Held(t.data_type, tuple(t.dims), storage))
    for name in STORAGE_FIELDS:
        t.ClearField(name)  # type: ignore[arg-type]
    t.data_location = TensorProto.EXTERNAL
    del t.external_data[:]
    e = t.external_data.add()
    e.key, e.value = DIGEST_KEY, key


def held_records(
    model: ModelProto, held: HeldTensors, *, quick: bool = False
) -> tuple[list[TensorRef], list[HeldProblem]]:
    """The tensors of ``model`` (parsed from the edited text) whose record is exactly a reference
    the view made, and the problems of those whose record is the view's but edited; ``model`` is
    not changed, no file is read. ``quick`` (as each version typed is looked at): when the view
    held only main-graph initializers, only those are looked at (a walk of every tensor costs
    50 ms on 30,000 nodes); a save looks at every tensor."""
    refs = graph_initializers(model.graph) if quick and held.initializers_only else iter_tensors(model)
    matches, problems = _match(refs, held)
    return [ref for ref, _ in matches], problems


def _match(refs: Iterable[TensorRef], held: HeldTensors) -> tuple[list[tuple[TensorRef, Held]], list[HeldProblem]]:
    """Each reference of the view among ``refs`` with its held data, and the records that are not."""
    matches: list[tuple[TensorRef, Held]] = []
    problems: list[HeldProblem] = []
    for ref in refs:
        t = ref.tensor
        if not len(t.external_data) and not is_external(t):
            continue
        entries = [(e.key, e.value) for e in t.external_data]
        if not _is_reference(t, entries, held):
            continue
        found = _held_of(ref, entries, held)
        if isinstance(found, str):
            problems.append(HeldProblem(found, ref.path, ref.token))
        else:
            matches.append((ref, found))
    return matches, problems


def _is_reference(t: TensorProto, entries: list[tuple[str, str]], held: HeldTensors) -> bool:
    """Whether ``t``'s record stands for a tensor of the view (edited or not): it names a digest,
    holds a digest of the view under any key, or is external data without a location (no data)."""
    return any(k == DIGEST_KEY or v in held.by_digest or v in held.dropped for k, v in entries) or (
        is_external(t) and all(k != "location" for k, _ in entries)
    )


def _held_of(ref: TensorRef, entries: list[tuple[str, str]], held: HeldTensors) -> Held | str:
    """The held data of a reference whose record is exactly one the view made, else why not."""
    t, where = ref.tensor, ref.where
    shown = f"{where} is shown by reference"
    digest = next((v for k, v in entries if k == DIGEST_KEY), None)
    if digest is None:
        keys = ", ".join(repr(k) for k, _ in entries) or "nothing"
        return (
            f'{shown}: its record must stay the view\'s ["digest": "sha256:…"] (it holds {keys}); '
            "without it the tensor would be saved with no data"
        )
    if len(entries) != 1:
        others = ", ".join(repr(k) for k, _ in entries if k != DIGEST_KEY)
        return f"{shown}: its record holds only the digest (remove {others})"
    if digest in held.dropped and digest not in held.by_digest:
        return (
            f"{shown}, but an earlier save left it out of the model file: its weights are no longer there "
            "(delete it again, or reopen the model)"
        )
    found = held.by_digest.get(digest)
    if not found:
        return (
            f"{shown} and its digest was edited: "
            "no tensor of the model file has this digest (weights cannot be edited in this view)"
        )
    if not is_external(t):
        return f"{shown}: its data_location must stay EXTERNAL (the digest record is its data)"
    stored = [name for name in STORAGE_FIELDS if (t.HasField(name) if name == "raw_data" else len(getattr(t, name)))]
    if stored:
        return f"{shown}: the digest record is its data (remove {', '.join(stored)})"
    h = next((h for h in found if (h.data_type, h.dims) == (t.data_type, tuple(t.dims))), None)
    if h is None:
        now = Held(t.data_type, tuple(t.dims), found[0].storage)
        was = " or ".join(x.type_text() for x in found)
        return (
            f"{shown}: its type must stay {was} "
            f"(the text says {now.type_text()}); weights cannot be reshaped in this view"
        )
    return h


def restore_held(model: ModelProto, held: HeldTensors, *, as_reference: bool = False) -> list[HeldProblem]:
    """Put the held data back into every reference of the view in ``model`` (parsed from the
    edited text); when some record is not exactly one the view made, nothing is changed and
    those are returned (as :func:`held_records` finds them).

    With ``as_reference``, data held in the file becomes an external-data reference to its
    bytes in the model file itself (what a run loads, from the model's folder), not a token."""
    matches, problems = _match(iter_tensors(model), held)
    if problems:
        return problems
    for ref, h in matches:
        t = ref.tensor
        del t.external_data[:]
        t.ClearField("data_location")
        t.MergeFrom(h.storage)
        index = _token_index(h.storage, held.lazy) if as_reference else None
        if index is not None:
            extent = held.lazy.extents[index]
            t.ClearField("raw_data")
            t.data_location = TensorProto.EXTERNAL
            for key, value in (
                ("location", os.path.basename(held.lazy.path)),
                ("offset", str(extent.offset)),
                ("length", str(extent.length)),
            ):
                e = t.external_data.add()
                e.key, e.value = key, value
    return []


def write_held(model: ModelProto, held: HeldTensors, path: str | os.PathLike[str]) -> HeldTensors:
    """Write ``model`` (restored, its held ``raw_data`` still tokens) to ``path`` atomically,
    each held range copied from ``held.lazy.path``; the held tensors as they are in the new
    file (those no longer in the model are dropped, but for up to :data:`UNDO_BUDGET` bytes
    kept in memory, so that undoing their deletion can be saved). The bytes copied are hashed in the new file
    before it replaces ``path``: when they are not those the view showed (the model file was
    changed on disk), nothing is written and :class:`HeldChanged` is raised. Raises
    :class:`~onnxtext.weights.external.ExternalDataError` when the file cannot be written."""
    parts = splice_raw_data(model.SerializeToString(), held.lazy)
    source = Path(held.lazy.path)
    pieces: list[tuple[int, Piece]] = []
    moved: dict[Extent, Extent] = {}
    offset = 0
    pending = bytearray()
    for part in parts:
        if isinstance(part, Extent):
            if pending:
                pieces.append((offset - len(pending), bytes(pending)))
                pending.clear()
            pieces.append((offset, FileRange(source, part.offset, part.length)))
            moved[part] = Extent(offset, part.length)
            offset += part.length
        else:
            pending += part
            offset += len(part)
    if pending:
        pieces.append((offset - len(pending), bytes(pending)))
    index_of = {e: index for index, e in enumerate(held.lazy.extents)}
    checked = [(moved[e], d) for e in moved if (d := held.extent_digests.get(index_of[e])) is not None]

    def check(fd: int) -> None:
        found = _extent_digests(fd, [new for new, _ in checked])
        if any(got != expected for got, (_, expected) in zip(found, checked, strict=True)):
            raise HeldChanged(
                "the weights changed on disk since the model was opened: the tensors shown by reference are no "
                "longer the bytes the text shows (revert or reopen the model)"
            )

    kept = {index_of[e] for e in moved}
    undo = _left_out(held, kept)  # read before the file that has them is replaced
    write_sidecar(path, pieces, check=check)
    extents = [moved.get(e, e) for e in held.lazy.extents]
    lazy = LazyRawData(os.fspath(path), held.lazy.token, tuple(extents))
    by_digest: dict[str, list[Held]] = {}
    for digest, found in held.by_digest.items():
        still = [h for h in found if (index := _token_index(h.storage, lazy)) is None or index in kept]
        still += undo.get(digest, [])
        if still:
            by_digest[digest] = still
    dropped = held.dropped | (held.by_digest.keys() - by_digest.keys())
    digests = {index: d for index, d in held.extent_digests.items() if index in kept}
    return HeldTensors(lazy, by_digest, digests, frozenset(dropped), held.initializers_only)


def _left_out(held: HeldTensors, kept: set[int]) -> dict[str, list[Held]]:
    """The held tensors whose bytes in the file a save leaves out (their tensors were deleted),
    with their bytes read into memory, while they add up to :data:`UNDO_BUDGET` and still have
    the digest shown."""
    found: dict[str, list[Held]] = {}
    spent = 0
    for digest, entries in held.by_digest.items():
        for h in entries:
            index = _token_index(h.storage, held.lazy)
            if index is None or index in kept:
                continue
            extent = held.lazy.extents[index]
            if spent + extent.length > UNDO_BUDGET:
                continue
            try:
                data = FileRange(Path(held.lazy.path), extent.offset, extent.length).read()
            except OSError:
                continue
            if hashlib.sha256(data).hexdigest() != held.extent_digests.get(index):
                continue
            storage = TensorProto()
            storage.CopyFrom(h.storage)
            storage.raw_data = data
            found.setdefault(digest, []).append(Held(h.data_type, h.dims, storage))
            spent += extent.length
    return found


def _token_index(storage: TensorProto, lazy: LazyRawData) -> int | None:
    """The extent index of a held ``raw_data`` token, None for data held in memory."""
    if not storage.HasField("raw_data"):
        return None
    raw = storage.raw_data
    if len(raw) != len(lazy.token) + 8 or not raw.startswith(lazy.token):
        return None
    return int.from_bytes(raw[len(lazy.token) :], "big")
