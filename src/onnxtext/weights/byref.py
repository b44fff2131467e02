"""Large tensors shown by reference: an editable text of a model too big to print whole.

:func:`reference_view` reads a binary model leaving its large ``raw_data`` in the file
(:func:`onnxtext.weights.wire.load_lazy`), keeps inline the smallest tensors while their
text fits a budget, and writes each other one as ``["digest": "sha256:…"]`` (SHA-256 of its
stored bytes, the ``print --weights digest`` syntax without statistics) — its name, type
and shape stay in the text. The tensors' data is *held*: by digest, the data type, the
dimensions and the stored data (a token naming the byte range in the file, or the typed
fields of a tensor that was parsed into memory).

:func:`restore_held` puts the held data back into a model parsed from the edited text, and
refuses a reference whose digest, type or shape was changed; :func:`write_held` writes the
model, the held ranges copied from the original file by the kernel (never read into memory),
atomically, and says where they are in the new file.
"""

from __future__ import annotations

import hashlib
import mmap
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from onnxtext.ir.tensor.literals import STORAGE_FIELDS
from onnxtext.proto import ModelProto, TensorProto
from onnxtext.weights.digest import DIGEST_KEY
from onnxtext.weights.external import FileRange, TensorSources, is_external, iter_tensors, tensor_nbytes
from onnxtext.weights.sidecar import Piece, write_sidecar
from onnxtext.weights.wire import Extent, LazyRawData, load_lazy, splice_raw_data

__all__ = [
    "Held",
    "HeldTensors",
    "HeldProblem",
    "reference_view",
    "restore_held",
    "write_held",
    "TEXT_PER_BYTE",
    "SMALL_TENSOR",
]

TEXT_PER_BYTE = 4.5
"""Characters of text per stored byte, an upper estimate (a float32 prints in about 13)."""
SMALL_TENSOR = 1024
"""Tensors of at most this many bytes are always in the text (shapes, scalars, small biases)."""


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

    def __len__(self) -> int:
        return sum(len(found) for found in self.by_digest.values())


@dataclass(frozen=True, slots=True)
class HeldProblem:
    """A reference edited in the text: ``digest`` is what the text says and ``occurrence``
    how many tensors before it (in :func:`iter_tensors` order) say it too (to find the line)."""

    digest: str
    message: str
    occurrence: int = 0


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
        candidates.append((len(in_file) if in_file is not None else tensor_nbytes(t), ref.tensor, in_file))
    candidates.sort(key=lambda c: c[0])
    spent = 0.0
    by_ref: list[tuple[TensorProto, FileRange | None]] = []
    for size, t, in_file in candidates:
        if size <= SMALL_TENSOR or spent + size * TEXT_PER_BYTE <= inline_budget:
            spent += size * TEXT_PER_BYTE
            if in_file is not None:
                in_file.inline_into(t)
            continue
        by_ref.append((t, in_file))
    in_file_digests = _range_digests(path, [r for _, r in by_ref if r is not None])
    for t, in_file in by_ref:
        _hold(t, in_file_digests[in_file] if in_file is not None else None, held)
    return model, held


def _range_digests(path: str | os.PathLike[str], ranges: list[FileRange]) -> dict[FileRange, str]:
    """The SHA-256 hex of each range of the file at ``path``, hashed from one memory map
    (no copies) by two threads (hashlib lets go of the GIL): the cost of opening a big model."""
    if not ranges:
        return {}
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        view = memoryview(mm)
        try:

            def digest(r: FileRange) -> str:
                h = hashlib.sha256()
                for start in range(r.offset, r.offset + r.length, _HASH_BLOCK):
                    end = min(start + _HASH_BLOCK, r.offset + r.length)
                    with view[start:end] as block:
                        h.update(block)
                    # hashed pages leave the process (the page cache keeps them): its memory stays
                    # a block or two, not the file's size
                    aligned = start - start % mmap.PAGESIZE
                    mm.madvise(mmap.MADV_DONTNEED, aligned, end - aligned)
                return h.hexdigest()

            with ThreadPoolExecutor(max_workers=2) as pool:
                return dict(zip(ranges, pool.map(digest, ranges), strict=True))
        finally:
            view.release()


_HASH_BLOCK = 1 << 24


def _hold(t: TensorProto, file_digest: str | None, held: HeldTensors) -> None:
    """Replace the data of ``t`` by its digest record (``file_digest`` when its bytes are in
    the file), keeping the data in ``held``."""
    storage = TensorProto()
    storage.CopyFrom(t)
    for name in ("name", "doc_string", "metadata_props", "dims", "data_type", "segment"):
        storage.ClearField(name)  # type: ignore[arg-type]
    digest = (
        file_digest
        if file_digest is not None
        else hashlib.sha256(storage.SerializeToString(deterministic=True)).hexdigest()
    )
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


def restore_held(model: ModelProto, held: HeldTensors, *, as_reference: bool = False) -> list[HeldProblem]:
    """Put the held data back into every digest record of ``model`` (parsed from the edited
    text); the references that were edited are left as they are and returned as problems.

    With ``as_reference``, data held in the file becomes an external-data reference to its
    bytes in the model file itself (what a run loads, from the model's folder), not a token."""
    problems: list[HeldProblem] = []
    seen: dict[str, int] = {}
    for ref in iter_tensors(model):
        t = ref.tensor
        entries = [(e.key, e.value) for e in t.external_data]
        digest = next((v for k, v in entries if k == DIGEST_KEY), None)
        if digest is None or not is_external(t):
            continue
        occurrence = seen[digest] = seen.get(digest, -1) + 1
        found = held.by_digest.get(digest)
        if not found:
            problems.append(
                HeldProblem(
                    digest,
                    f"{ref.where} is shown by reference and its digest was edited: "
                    "no tensor of the model file has this digest (weights cannot be edited in this view)",
                    occurrence,
                )
            )
            continue
        if len(entries) != 1:
            problems.append(
                HeldProblem(
                    digest,
                    f"{ref.where} is shown by reference: its record holds only the digest "
                    f"(remove {', '.join(repr(k) for k, _ in entries if k != DIGEST_KEY)})",
                    occurrence,
                )
            )
            continue
        h = next((h for h in found if (h.data_type, h.dims) == (t.data_type, tuple(t.dims))), None)
        if h is None:
            now = Held(t.data_type, tuple(t.dims), found[0].storage)
            was = " or ".join(x.type_text() for x in found)
            problems.append(
                HeldProblem(
                    digest,
                    f"{ref.where} is shown by reference: its type must stay {was} "
                    f"(the text says {now.type_text()}); weights cannot be reshaped in this view",
                    occurrence,
                )
            )
            continue
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
    return problems


def write_held(model: ModelProto, held: HeldTensors, path: str | os.PathLike[str]) -> HeldTensors:
    """Write ``model`` (restored, its held ``raw_data`` still tokens) to ``path`` atomically,
    each held range copied from ``held.lazy.path``; the held tensors as they are in the new
    file (those no longer in the model are dropped). Raises
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
    write_sidecar(path, pieces)
    extents = [moved.get(e, e) for e in held.lazy.extents]
    kept = {index for index, e in enumerate(held.lazy.extents) if e in moved}
    lazy = LazyRawData(os.fspath(path), held.lazy.token, tuple(extents))
    by_digest: dict[str, list[Held]] = {}
    for digest, found in held.by_digest.items():
        still = [h for h in found if (index := _token_index(h.storage, lazy)) is None or index in kept]
        if still:
            by_digest[digest] = still
    return HeldTensors(lazy, by_digest)


def _token_index(storage: TensorProto, lazy: LazyRawData) -> int | None:
    """The extent index of a held ``raw_data`` token, None for data held in memory."""
    if not storage.HasField("raw_data"):
        return None
    raw = storage.raw_data
    if len(raw) != len(lazy.token) + 8 or not raw.startswith(lazy.token):
        return None
    return int.from_bytes(raw[len(lazy.token) :], "big")
