"""A model written to another folder than the one its external data is relative to.

External-data ``location``s are relative to the model file, so ``onnxtext parse
dir/m.onnxtxt -o elsewhere/m.onnx`` would write references that no longer resolve.
:func:`unresolved_locations` says which would break; :func:`copy_external_files` copies the
files they name next to the output, under the same relative names, so the written model
(byte for byte what was parsed) finds them again.
"""

from __future__ import annotations

import filecmp
import os
import shutil
from pathlib import Path

from onnxtext.io import atomic_file
from onnxtext.proto import ModelProto
from onnxtext.weights.external import (
    UNREADABLE,
    UNWRITABLE,
    ExternalDataError,
    _diag,
    is_external,
    iter_tensors,
    resolve_location,
)

__all__ = ["external_locations", "unresolved_locations", "copy_external_files"]


def external_locations(model: ModelProto) -> list[str]:
    """The ``location`` of every tensor stored externally, each once, in model order."""
    seen: dict[str, None] = {}
    for ref in iter_tensors(model):
        if is_external(ref.tensor):
            for e in ref.tensor.external_data:
                if e.key == "location":
                    seen.setdefault(e.value, None)
    return list(seen)


def unresolved_locations(
    model: ModelProto, source_dir: str | os.PathLike[str], output_dir: str | os.PathLike[str]
) -> list[str]:
    """The locations that name another file from ``output_dir`` than from ``source_dir``."""
    if Path(source_dir).resolve() == Path(output_dir).resolve():
        return []
    return [
        loc
        for loc in external_locations(model)
        if (Path(source_dir) / loc).resolve() != (Path(output_dir) / loc).resolve()
    ]


def copy_external_files(
    locations: list[str], source_dir: str | os.PathLike[str], output_dir: str | os.PathLike[str]
) -> list[Path]:
    """Copy each file ``locations`` name from ``source_dir`` to ``output_dir`` (same relative
    names, folders made, each file written atomically); a file already there with the same
    bytes is left alone. Returns the files written. Raises :class:`ExternalDataError`: an
    unsafe location (``X001``), a missing source (``X002``), a different file in the way (``X005``)."""
    written: list[Path] = []
    for loc in locations:
        src = resolve_location(source_dir, loc)
        dst = resolve_location(output_dir, loc)
        if not src.is_file():
            raise ExternalDataError(
                [
                    _diag(
                        UNREADABLE,
                        f"external data file {str(src)!r} (location {loc!r}) does not exist: nothing to copy",
                        None,
                    )
                ]
            )
        if dst.exists():
            if dst.is_file() and filecmp.cmp(src, dst, shallow=False):
                continue
            raise ExternalDataError(
                [
                    _diag(
                        UNWRITABLE,
                        f"{str(dst)!r} exists and is not a copy of {str(src)!r}; remove it or write the "
                        "model elsewhere",
                        None,
                    )
                ]
            )
        try:
            dst.parent.mkdir(parents=True, exist_ok=True)
            with open(src, "rb") as fin, atomic_file(dst) as fd, os.fdopen(os.dup(fd), "wb") as fout:
                shutil.copyfileobj(fin, fout, 1 << 23)
        except OSError as exc:
            raise ExternalDataError(
                [_diag(UNWRITABLE, f"cannot copy {str(src)!r} to {str(dst)!r}: {exc.strerror or exc}", None)]
            ) from None
        written.append(dst)
    return written
