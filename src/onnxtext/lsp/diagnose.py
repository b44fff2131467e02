"""Every diagnostic of one text version, stage by stage, stoppable between stages.

Plain code with plain tests: the server runs it in a worker thread and drops the result
when a newer version of the text arrived meanwhile.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from onnxtext.analysis.check import check_proto
from onnxtext.diagnostics import Diagnostic
from onnxtext.document import Document, parse_document
from onnxtext.proto import ModelProto

__all__ = ["Settings", "Cancelled", "diagnose"]


@dataclass
class Settings:
    """What the user chose (``onnxtext.*`` in the editor's settings)."""

    select: list[str] | None = None
    ignore: list[str] | None = None
    debounce_ms: int = 150

    @classmethod
    def from_json(cls, value: object) -> Settings:
        """Settings from the ``onnxtext`` section of the client's configuration; bad values are ignored."""
        out = cls()
        if not isinstance(value, dict):
            return out
        check = value.get("check")
        if isinstance(check, dict):
            out.select = _codes(check.get("select"))
            out.ignore = _codes(check.get("ignore"))
        debounce = value.get("debounceMs")
        if isinstance(debounce, int) and 0 <= debounce <= 5000:
            out.debounce_ms = debounce
        return out


def _codes(value: object) -> list[str] | None:
    if isinstance(value, str):
        value = value.split(",")
    if isinstance(value, list):
        codes = [str(v).strip().upper() for v in value if str(v).strip()]
        return codes or None
    return None


class Cancelled(Exception):
    """A newer version superseded the one being diagnosed."""


@dataclass
class Outcome:
    document: Document
    diagnostics: list[Diagnostic] = field(default_factory=list)


def diagnose(text: str, path: str, settings: Settings, cancel: threading.Event | None = None) -> Outcome:
    """Parse, lower, check and infer ``text``; raises :class:`Cancelled` between stages once ``cancel`` is set."""
    doc = parse_document(text, "model", path)
    _stop_if(cancel)
    diags: list[Diagnostic] = list(doc.diagnostics)
    if isinstance(doc.proto, ModelProto):
        diags.extend(check_proto(doc.proto, select=settings.select, ignore=settings.ignore, _doc=doc))
    diags.sort(key=lambda d: d.offset)
    return Outcome(doc, diags)


def _stop_if(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled

