"""Project settings: ``[tool.onnxtext]`` in the nearest ``pyproject.toml`` (walking up from a file).

Only the first ``pyproject.toml`` found counts (it marks the project root, as for black and
ruff); a file without the table gives the defaults. Keys: ``line-width`` (the formatter's
width, default 100). Keys this version does not know are left alone (other tools' keys).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onnxtext.syntax.layout import DEFAULT_WIDTH

__all__ = ["Settings", "SettingsError", "find_settings", "MIN_WIDTH"]

MIN_WIDTH = 20


@dataclass(frozen=True, slots=True)
class Settings:
    line_width: int = DEFAULT_WIDTH
    source: Path | None = None
    """The ``pyproject.toml`` the settings came from, if any."""


class SettingsError(ValueError):
    """A ``pyproject.toml`` that cannot be read or has a bad ``[tool.onnxtext]`` value."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def find_settings(start: str | Path) -> Settings:
    """The settings for a file at ``start`` (or a directory): the nearest ``pyproject.toml`` above it."""
    here = Path(start).resolve()
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return _read(candidate)
    return Settings()


def check_width(value: Any) -> int:
    """``value`` as a line width, or ValueError saying what a width must be."""
    if isinstance(value, bool) or not isinstance(value, int) or value < MIN_WIDTH:
        raise ValueError(f"line-width must be an integer of at least {MIN_WIDTH}, not {value!r}")
    return value


def _read(path: Path) -> Settings:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(path, f"cannot read: {exc}") from None
    table = _tool_table(path, text)
    if "line-width" not in table:
        return Settings(source=path)
    try:
        width = check_width(table["line-width"])
    except ValueError as exc:
        raise SettingsError(path, f"[tool.onnxtext] {exc}") from None
    return Settings(line_width=width, source=path)


def _tool_table(path: Path, text: str) -> dict[str, Any]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: read the one table by hand
        return _scan_table(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(path, f"not valid TOML: {exc}") from None
    table = data.get("tool", {}).get("onnxtext", {})
    if not isinstance(table, dict):
        raise SettingsError(path, "[tool.onnxtext] must be a table")
    return table


_HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(?:#.*)?$")
_INT_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=\s*(-?\d+)\s*(?:#.*)?$")


def _scan_table(text: str) -> dict[str, Any]:
    """The integer keys of ``[tool.onnxtext]`` (enough for Python 3.10, which has no ``tomllib``)."""
    table: dict[str, Any] = {}
    inside = False
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:
            inside = header.group(1).strip() == "tool.onnxtext"
            continue
        entry = _INT_KEY.match(line) if inside else None
        if entry:
            table[entry.group(1)] = int(entry.group(2))
    return table
