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
        text = text[: found.start()] + found.group(2) + text[found.end() :]
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
        return (
            '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\nmain (float a) => (float b) { b = local.f(a) }\n'
            + text
            + "\n"
        )
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
    assert [m.group(0) for m in word.finditer(line)] == [
        "y",
        "com.microsoft.FusedMatMul",
        '"/l1/Gemm_output_0"',
        "x_2",
        "-1.5e-3",
    ]


FORMATTED_HEADER = '<\n   ir_version: 10,\n   opset_import: ["": 21]\n>\n'
FORMATTED_GRAPH = (
    "g (float[N] x, float[N, 4] W, float[4] B, bool cond, int64 trip_count, float[2] init)\n   => (float[N] out)\n"
)


def as_formatted_model(name: str, text: str) -> str:
    """The snippet inside the smallest model around it, written as ``fmt`` writes it."""
    if name == "Model":
        return text + "\n"
    if name == "Graph":
        return FORMATTED_HEADER + text + "\n"
    if name == "Function":
        main = (
            '<\n   ir_version: 10,\n   opset_import: ["": 21, "local": 1]\n>\nmain (float a) => (float b)\n{\n'
            "   b = local.f (a)\n}\n"
        )
        return main + "\n" + text + "\n"
    if name == "Initializer":
        return FORMATTED_HEADER + "g (float[2] x) => (float[2] y)\n" + text + "\n{\n   y = Add (x, w)\n}\n"
    body = "".join("   " + line + "\n" for line in text.split("\n"))
    return FORMATTED_HEADER + FORMATTED_GRAPH + "{\n" + body + "   out = Identity (x)\n}\n"


@pytest.mark.parametrize("name", sorted(_snippets()) if VSCODE.exists() else [])
def test_every_snippet_is_formatted(name: str) -> None:
    """A snippet inserts text as ``fmt`` writes it (3 spaces a level), so formatting changes nothing."""
    from onnxtext.syntax.format import format_text

    text = as_formatted_model(name, expand(_snippets()[name]["body"]))  # type: ignore[arg-type]
    assert format_text(text) == text


def _package() -> dict[str, object]:
    return json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_editor_defaults_indent_as_the_formatter() -> None:
    """A new file indents as Format Document does: 3 spaces, no tabs."""
    defaults = _package()["contributes"]["configurationDefaults"]["[onnxtext]"]  # type: ignore[index]
    assert defaults["editor.tabSize"] == 3
    assert defaults["editor.insertSpaces"] is True


def test_only_real_pairs_are_brackets() -> None:
    """``<``/``>`` is no bracket pair (the ``>`` of ``=>`` would be an unmatched bracket, drawn red),
    only auto-closed and surrounding; the coloured pairs are the bracket pairs."""
    config = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    pairs = [tuple(pair) for pair in config["brackets"]]
    assert ("<", ">") not in pairs
    assert sorted(pairs) == sorted(tuple(pair) for pair in config["colorizedBracketPairs"])
    assert {"open": "<", "close": ">", "notIn": ["string", "comment"]} in config["autoClosingPairs"]
    assert ["<", ">"] in config["surroundingPairs"]
