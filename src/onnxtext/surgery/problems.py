"""What model surgery reports: its codes (S), the error it raises, and "did you mean" for names.

A surgery names values, nodes and inputs of a model; a name that is not there, or not of the
kind the operation takes, is a diagnostic located at the model's place (its proto path), with
the nearest names the model has. ``tests/test_codes.py`` holds these codes and the registry equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from onnxtext.diagnostics import Diagnostic, OnnxTextError, Severity, close_matches

__all__ = [
    "DANGLING",
    "DECLARED_FOLLOW",
    "DROPPED",
    "INCOMPATIBLE",
    "NAME_TAKEN",
    "NOT_COMPUTABLE",
    "OPSET_CONFLICT",
    "RANK_CHANGED",
    "SurgeryError",
    "TYPE_UNKNOWN",
    "UNKNOWN_NAME",
    "WRONG_KIND",
    "error",
    "unknown",
    "warning",
]

UNKNOWN_NAME = "S001"
WRONG_KIND = "S002"
NAME_TAKEN = "S003"
INCOMPATIBLE = "S004"
OPSET_CONFLICT = "S005"
DANGLING = "S006"
NOT_COMPUTABLE = "S007"
TYPE_UNKNOWN = "S008"
DROPPED = "S009"
DECLARED_FOLLOW = "S010"
RANK_CHANGED = "S011"


class SurgeryError(OnnxTextError):
    """An operation that cannot be made on the model; ``.diagnostics`` says why, where."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        super().__init__(str(diagnostics[0]) if diagnostics else "surgery failed", diagnostics)


def error(code: str, message: str, path: str = "graph") -> SurgeryError:
    """A :class:`SurgeryError` holding one error at the model's place ``path``."""
    return SurgeryError([Diagnostic(code, Severity.ERROR, message, path=path)])


def warning(code: str, message: str, path: str = "graph") -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, message, path=path)


def unknown(what: str, name: str, names: Iterable[str], path: str = "graph") -> SurgeryError:
    """``no value 'x' in the model; the nearest: 'x1', 'y'`` (S001): the three names most like it."""
    choices = close_matches(name, names, n=3, cutoff=0.5)
    hint = "; the nearest: " + ", ".join(f"'{c}'" for c in choices) if choices else ""
    return error(UNKNOWN_NAME, f"no {what} '{name}' in the model{hint}", path)
