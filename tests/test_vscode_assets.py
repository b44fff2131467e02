"""The VS Code extension's text assets speak the language: every snippet, its placeholders
taking their defaults, parses without a diagnostic; the language configuration's word pattern
keeps names (``com.microsoft.FusedMatMul``, quoted names) whole."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from onnxtext.document import parse_document

VSCODE = Path(__file__).resolve().parents[1] / "editors" / "vscode"
pytestmark = pytest.mark.skipif(not VSCODE.exists(), reason="no editors/vscode")


def expand(body: list[str]) -> str:
    """A snippet's text with every placeholder at its default (``${1:x}`` and later ``$1`` → ``x``)."""
    text = "\n".join(body)
    defaults: dict[str, str] = {}
    while True:  # innermost placeholders first: defaults may hold others
        found = re.search(r"\$\{(\d+):([^{}$]*)\}", text)
        if found is None:
            break
        defaults.setdefault(found.group(1), found.group(2))
        text = text[: found.start()] + found.group(2) + text[found.end():]
    return re.sub(r"\$(\d+)", lambda m: defaults.get(m.group(1), ""), text)


def _snippets() -> dict[str, dict[str, object]]:
    return json.loads((VSCODE / "snippets" / "onnxtext.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


HEADER = '<ir_version: 10, opset_import: ["" : 21]>\n'
GRAPH = "g (float[N] x, float[N, 4] W, float[4] B, bool cond, int64 trip_count, float[2] init) => (float[N] out)\n"


def as_model(name: str, text: str) -> str:
    """The snippet inside the smallest model around it."""
    if name == "Model":
        return text
    if name == "Graph":
        return HEADER + text + "\n"
    if name == "Function":
        return '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\nmain (float a) => (float b) { b = local.f(a) }\n' + text + "\n"
    if name == "Initializer":
        return HEADER + "g (float[2] x) => (float[2] y)\n" + text + "\n{ y = Add(x, w) }\n"
    return HEADER + GRAPH + "{\n" + text + "\n  out = Identity(x)\n}\n"


@pytest.mark.parametrize("name", sorted(_snippets()) if VSCODE.exists() else [])
def test_every_snippet_parses(name: str) -> None:
    snippet = _snippets()[name]
    text = as_model(name, expand(snippet["body"]))  # type: ignore[arg-type]
    doc = parse_document(text, "model", f"<snippet {name}>")
    problems = [str(d) for d in doc.diagnostics if d.is_error]
    assert problems == [], f"{text}\n" + "\n".join(problems)
    assert snippet.get("prefix") and snippet.get("description")


def test_word_pattern_keeps_names_whole() -> None:
    config = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    word = re.compile(config["wordPattern"])
    line = 'y = com.microsoft.FusedMatMul ("/l1/Gemm_output_0", x_2) # -1.5e-3'
    assert [m.group(0) for m in word.finditer(line)] == ["y", "com.microsoft.FusedMatMul", '"/l1/Gemm_output_0"', "x_2", "-1.5e-3"]
