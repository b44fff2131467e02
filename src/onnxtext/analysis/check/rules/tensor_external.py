"""E503 / E505 / E506 / W501: external tensor data names a file in the model's folder that holds its range.

Only what the file system says about a file (that it exists, its size) is checked, never
its bytes, and no checksum is verified: a model with gigabytes of weights is checked as
fast as a small one. When the model's folder is unknown (a model given as text, bytes or
a proto rather than a file) only the shape of each location is checked.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from onnxtext.weights.external import ExternalDataError, is_external, location_problem, resolve_location
from onnxtext.proto import TensorProto
from onnxtext.ir.tensor_data import TYPED_FIELDS
from onnxtext.analysis.check.context import CheckContext, Token
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import tensor_label, tensor_token

__all__ = [
    "ExternalData",
    "ExternalDataFile",
    "ExternalDataKeys",
    "ExternalDataRange",
    "entry_token",
    "external_entries",
    "integer_entry",
]

EXTERNAL_KEYS = ("location", "offset", "length", "checksum", "basepath")
_INTEGER = re.compile(r"[0-9]+")

def external_entries(t: TensorProto) -> dict[str, tuple[int, str]]:
    """Key → (index, value) of a tensor's external_data; the last entry of a key wins, as onnx reads them."""
    return {e.key: (i, e.value) for i, e in enumerate(t.external_data)}


def entry_token(index: int, token: object) -> Token:
    """The token of external_data entry ``index`` of the tensor the walk's ``token`` names."""
    if isinstance(token, tuple) and len(token) > 1:
        return ("external_data", index, token[1])  # a tensor of an attribute's list
    return ("external_data", index)


def integer_entry(entries: dict[str, tuple[int, str]], key: str) -> int | None:
    """The value of ``offset`` or ``length`` if it is given as a non-negative integer."""
    found = entries.get(key)
    return int(found[1]) if found is not None and _INTEGER.fullmatch(found[1]) else None


class _Files:
    """Locations resolved and files looked up once per check: many tensors share one file."""

    def __init__(self) -> None:
        self._resolved: dict[str, tuple[Path | None, str | None]] = {}
        self._stats: dict[Path, os.stat_result | None] = {}

    def resolve(self, ctx: CheckContext, location: str) -> tuple[Path | None, str | None]:
        """The file ``location`` names (None without the model's folder), or why it is not
        a safe location inside the model's folder."""
        found = self._resolved.get(location)
        if found is None:
            if ctx.model_dir is None:  # no folder: only the location's text can be judged
                found = (None, location_problem(location))
            else:
                try:
                    found = (resolve_location(ctx.model_dir, location), None)
                except ExternalDataError as exc:
                    found = (None, exc.diagnostics[0].message if exc.diagnostics else str(exc))
            self._resolved[location] = found
        return found

    def stat(self, path: Path) -> os.stat_result | None:
        if path not in self._stats:
            try:
                self._stats[path] = path.stat()
            except OSError:
                self._stats[path] = None
        return self._stats[path]

    def file(self, ctx: CheckContext, tensor: TensorProto) -> tuple[str, int, os.stat_result | None] | None:
        """(location, entry index, stat or None when missing) of a tensor whose location is sound."""
        if ctx.model_dir is None:
            return None
        found = external_entries(tensor).get("location")
        if found is None:
            return None
        index, location = found
        path, problem = self.resolve(ctx, location)
        if path is None or problem is not None:
            return None  # E503 reports it
        return location, index, self.stat(path)


class ExternalData(Rule):
    code = "E503"
    name = "external-data"
    description = "A tensor stored externally names its file ('location', relative and inside the model's folder) and holds no values of its own."

    def __init__(self) -> None:
        self.files = _Files()

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        label = tensor_label(tensor)
        if not is_external(tensor):
            if len(tensor.external_data):
                ctx.report(self.code, f"{label} has external_data entries but data_location is not EXTERNAL", path, token=tensor_token(token))
            return
        found = external_entries(tensor).get("location")
        if found is None:
            ctx.report(self.code, f"{label} is stored externally but has no 'location'", path, token=tensor_token(token))
        else:
            _, problem = self.files.resolve(ctx, found[1])
            if problem is not None:
                ctx.report(self.code, f"{label}: {problem}", path, token=entry_token(found[0], token))
        if any(len(getattr(tensor, f)) for f in TYPED_FIELDS) or tensor.HasField("raw_data"):
            ctx.report(self.code, f"{label} is stored externally but also holds values", path, token=tensor_token(token))


class ExternalDataFile(Rule):
    code = "E505"
    name = "external-data-file"
    description = "The file an external tensor's 'location' names exists in the model's folder (checked when the model is read from a file)."

    def __init__(self) -> None:
        self.files = _Files()

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        if not is_external(tensor):
            return
        found = self.files.file(ctx, tensor)
        if found is None:
            return
        location, index, st = found
        if st is None:
            message = f"external data file '{location}' of {tensor_label(tensor)} does not exist in the model's folder {str(ctx.model_dir)!r}"
        elif not stat.S_ISREG(st.st_mode):
            message = f"external data location '{location}' of {tensor_label(tensor)} is not a file"
        else:
            return
        ctx.report(self.code, message, path, token=entry_token(index, token))


class ExternalDataRange(Rule):
    code = "E506"
    name = "external-data-range"
    description = "An external tensor's 'offset' and 'length' are non-negative integers, and its bytes lie inside the file."

    def __init__(self) -> None:
        self.files = _Files()

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        if not is_external(tensor):
            return
        entries = external_entries(tensor)
        label = tensor_label(tensor)
        malformed = False
        for key in ("offset", "length"):
            found = entries.get(key)
            if found is not None and not _INTEGER.fullmatch(found[1]):
                malformed = True
                ctx.report(
                    self.code,
                    f"external data '{key}' of {label} must be a non-negative integer, not '{found[1]}'",
                    path,
                    token=entry_token(found[0], token),
                )
        file = None if malformed else self.files.file(ctx, tensor)
        if file is None:
            return
        location, _, st = file
        if st is None or not stat.S_ISREG(st.st_mode):
            return  # E505 reports it
        offset = integer_entry(entries, "offset") or 0
        length = integer_entry(entries, "length")
        if offset + (length or 0) <= st.st_size:
            return
        span = f"offset {offset} + length {length} = {offset + length}" if length is not None else f"offset {offset}"
        where = entries["length"][0] if length is not None else entries["offset"][0]
        ctx.report(
            self.code,
            f"external data of {label} is past the end of '{location}' ({st.st_size} bytes): {span}",
            path,
            token=entry_token(where, token),
        )


class ExternalDataKeys(Rule):
    code = "W501"
    name = "external-data-keys"
    description = "external_data keys are location, offset, length and checksum, each once."

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        seen: set[str] = set()
        label = tensor_label(tensor)
        for i, entry in enumerate(tensor.external_data):
            if entry.key not in EXTERNAL_KEYS:
                ctx.report(
                    self.code,
                    f"unknown external_data key '{entry.key}' of {label} (known: location, offset, length, checksum)",
                    path,
                    token=entry_token(i, token),
                )
            elif entry.key in seen:
                ctx.report(self.code, f"external_data key '{entry.key}' of {label} is given twice", path, token=entry_token(i, token))
            seen.add(entry.key)
