"""E503: A tensor stored externally names its file ('location', relative and inside the
model's folder) and holds no values of its own.

Its helpers are shared with ``tensor_data_size``, ``tensor_external_data_file``,
``tensor_external_data_keys``, ``tensor_external_data_range``, ``tensor_data_type``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from onnxtext.analysis.check.context import CheckContext, Token
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules._util import tensor_label, tensor_token
from onnxtext.ir.tensor.literals import TYPED_FIELDS
from onnxtext.proto import TensorProto
from onnxtext.weights.external import ExternalDataError, is_external, location_problem, resolve_location

__all__ = [
    "EXTERNAL_KEYS",
    "INTEGER",
    "ExternalData",
    "Files",
    "entry_token",
    "external_entries",
    "integer_entry",
]

EXTERNAL_KEYS = ("location", "offset", "length", "checksum", "basepath")
INTEGER = re.compile(r"[0-9]+")


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
    return int(found[1]) if found is not None and INTEGER.fullmatch(found[1]) else None


class Files:
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
    description = (
        "A tensor stored externally names its file ('location', relative and inside the model's folder) and "
        "holds no values of its own."
    )

    def __init__(self) -> None:
        self.files = Files()

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        if not is_external(tensor):
            if len(tensor.external_data):
                ctx.report(
                    self.code,
                    f"{tensor_label(tensor)} has external_data entries but data_location is not EXTERNAL",
                    path,
                    token=tensor_token(token),
                )
            return
        label = tensor_label(tensor)
        found = external_entries(tensor).get("location")
        if found is None:
            ctx.report(
                self.code, f"{label} is stored externally but has no 'location'", path, token=tensor_token(token)
            )
        else:
            _, problem = self.files.resolve(ctx, found[1])
            if problem is not None:
                ctx.report(self.code, f"{label}: {problem}", path, token=entry_token(found[0], token))
        if any(len(getattr(tensor, f)) for f in TYPED_FIELDS) or tensor.HasField("raw_data"):
            ctx.report(
                self.code, f"{label} is stored externally but also holds values", path, token=tensor_token(token)
            )
