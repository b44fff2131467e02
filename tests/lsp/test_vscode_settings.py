"""The VS Code extension's settings are the server's: every ``onnxtext.*`` property that
``editors/vscode/package.json`` declares (but the client's own ``server.path``) changes what
:class:`Settings` reads, and its declared default is the server's default."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from onnxtext.host.analyse import Settings

PACKAGE = Path(__file__).resolve().parents[2] / "editors" / "vscode" / "package.json"
CLIENT_ONLY = {"onnxtext.server.path"}

pytestmark = pytest.mark.skipif(not PACKAGE.exists(), reason="no editors/vscode")


def _properties() -> dict[str, dict[str, Any]]:
    package = json.loads(PACKAGE.read_text(encoding="utf-8"))
    props: dict[str, dict[str, Any]] = package["contributes"]["configuration"]["properties"]
    return {k: v for k, v in props.items() if k not in CLIENT_ONLY}


def _nested(key: str, value: object) -> dict[str, Any]:
    """``onnxtext.evaluate.seconds`` = 7 as the client sends it: ``{"evaluate": {"seconds": 7}}``."""
    out: dict[str, Any] = {}
    parts = key.split(".")[1:]
    here = out
    for part in parts[:-1]:
        here = here.setdefault(part, {})
    here[parts[-1]] = value
    return out


def _other_value(spec: dict[str, Any]) -> object:
    kind = spec["type"]
    if kind == "boolean":
        return not spec["default"]
    if kind in ("integer", "number"):
        return min(spec.get("maximum", spec["default"] + 1), spec["default"] + 7)
    if kind == "array":
        return ["E3"]
    if kind == "object":
        return {"N": 3} if spec.get("additionalProperties", {}).get("type") == "integer" else {"x": "[1, 2]"}
    raise AssertionError(f"no test value for a {kind} setting")


def _as_settings(key: str, value: object) -> Settings:
    return Settings.from_json(_nested(key, value))


@pytest.mark.parametrize("key", sorted(_properties()))
def test_every_setting_reaches_the_server(key: str) -> None:
    spec = _properties()[key]
    assert _as_settings(key, _other_value(spec)) != Settings(), (
        f"{key} is declared by the extension but the server ignores it"
    )


@pytest.mark.parametrize("key", sorted(_properties()))
def test_declared_defaults_are_the_servers(key: str) -> None:
    spec = _properties()[key]
    assert _as_settings(key, spec["default"]) == Settings(), (
        f"{key}: the extension's default {spec['default']!r} is not the server's"
    )
