"""The formatter over the corpora: canonical examples, the width kept, print and fmt agreeing.

Black's three invariants (expected output, same protobuf, stable) run on the golden corpus in
``test_golden.py``, on the printed backend corpus in ``test_roundtrip_backend.py`` and on the
examples here, where the expected output is the file itself (the examples are canonical).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import onnxtext
from onnxtext.printing.text import to_text
from onnxtext.syntax.format import format_text

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.onnxtxt"))
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.onnxtxt"))
SRC = ROOT / "src"


def serialize(text: str) -> bytes:
    return onnxtext.parse_model(text).SerializeToString(deterministic=True)  # type: ignore[no-any-return]


# ---------------------------------------------------------------- the width


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_WRAPPER = re.compile(r"\b(?:seq|optional|sparse_tensor|opaque)\(|\)")
_SHAPE = re.compile(r"(?<=[A-Za-z0-9_])\[[^\[\](){}<>]*\]")
# An external-data record (or digest) ``["key": "value", ...]`` stays on one line by design.
_RECORD = re.compile(r'\[""(?:: "")?(?:, ""(?:: "")?)*\]')


def breakable_long_lines(text: str, width: int) -> list[str]:
    """The lines of ``text`` wider than ``width`` (a trailing comment not counted) that hold a
    place to break: a comma inside the line, or a bracket opened with something after it."""
    out = []
    for line in text.splitlines():
        # Records stay on one line by design, a type's dims break only when they alone
        # overflow, and ``seq(...)``, ``optional(...)`` hold a single type.
        code = _WRAPPER.sub("", _SHAPE.sub("", _RECORD.sub("[]", _STRING.sub('""', line))))
        hash_at = code.find("#")
        if hash_at >= 0:
            # Measure the line up to its comment (the code part keeps its real length).
            line = line[: len(line) - (len(code) - hash_at)].rstrip()
            code = code[:hash_at].rstrip()
        if len(line) <= width:
            continue
        body = code.strip().rstrip(",")
        if "," in body or re.search(r"[(\[<{][^)\]>}]", body[:-1] if body.endswith(("{", "(", "[", "<")) else body):
            out.append(line)
    return out


def test_breakable_long_lines_detector() -> None:
    assert breakable_long_lines("   y = Op (a, b)\n", 10) == ["   y = Op (a, b)"]
    assert breakable_long_lines('   doc_string: "a long string, with a comma"\n', 10) == []
    assert breakable_long_lines("   y = Relu (x)  # a comment far past the width\n", 20) == []
    assert breakable_long_lines("   block (\n", 5) == []
    assert breakable_long_lines('   float[2] w = ["location": "w.bin", "offset": "0"],\n', 20) == []


@pytest.mark.parametrize("width", [100, 60, 40])
def test_no_breakable_line_over_the_width(width: int) -> None:
    over = {}
    for path in GOLDEN + EXAMPLES:
        text = path.read_text(encoding="utf-8")
        if path.parent.name == "golden":
            from test_golden import load

            text = load(path)[1]
        formatted = format_text(text, width=width)
        assert serialize(formatted) == serialize(text)
        assert format_text(formatted, width=width) == formatted
        long = breakable_long_lines(formatted, width)
        if long:
            over[path.name] = long
    assert over == {}


# ---------------------------------------------------------------- the examples


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_invariants(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert format_text(text, path=str(path)) == text, "not canonical: run onnxtext fmt on it"
    printed = to_text(onnxtext.parse_model(text))
    assert format_text(printed) == printed
    assert serialize(printed) == serialize(text)


def test_fmt_check_passes_on_the_examples() -> None:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    run = subprocess.run(
        [sys.executable, "-m", "onnxtext", "fmt", "--check", *map(str, EXAMPLES)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    assert len(EXAMPLES) == 11


# ---------------------------------------------------------------- print and fmt agree


@pytest.mark.parametrize(
    "text",
    [
        # Names that read as keywords are quoted, plain names are bare.
        '<ir_version: 9, opset_import: ["": 19]>\ng (float "x", float seq) => (float "map")\n{\n'
        '   "map" = Add (x, "seq")\n}\n',
        # Function header keys written in field order; default values keep their type.
        '<ir_version: 9, opset_import: ["": 19, "d": 1]>\ng (float x) => (float y)\n{\n   y = d.F (x)\n}\n'
        '<opset_import: ["": 19], domain: "d">\nF <a: float = 0.5> (x) => (y)\n{\n   y = Relu (x)\n}\n',
        # Inputs before the attributes when an attribute holds a graph.
        '<ir_version: 9, opset_import: ["": 19]>\ng (bool c, float x) => (float y)\n{\n'
        "   y = If <then_branch = t () => (float a) { a = Neg (x) }, else_branch = e () => (float b) { b = "
        "Abs (x) }> (c)\n}\n",
    ],
    ids=["quoting", "function-header", "graph-attributes"],
)
def test_print_and_fmt_agree(text: str) -> None:
    formatted = format_text(text)
    assert to_text(onnxtext.parse_model(text)) == formatted


def test_fmt_keeps_header_keys_in_written_order() -> None:
    """A formatter never reorders what a person wrote; ``print`` writes the canonical order."""
    text = (
        '<\n   producer_name: "me",  # who\n   ir_version: 9,\n   opset_import: ["": 19, "d": 1]\n>\n'
        "g (float x) => (float y)\n{\n   y = d.F (x)\n}\n\n"
        '<\n   domain: "d",  # the domain first\n   opset_import: ["": 19]\n>\nF (x) => (y)\n{\n   y = Relu (x)\n}\n'
    )
    assert format_text(text) == text
    printed = to_text(onnxtext.parse_model(text))
    assert printed.startswith('<\n   ir_version: 9,\n   opset_import: ["": 19, "d": 1],\n   producer_name: "me"\n>\n')
    assert '<\n   opset_import: ["": 19],\n   domain: "d"\n>\nF (x)' in printed


def test_line_width_parameter() -> None:
    text = (
        "g (float[N] first_input, float[N] second_input) => (float[N] y)\n{\n"
        "   y = Add (first_input, second_input)\n}\n"
    )
    assert format_text(text, kind="graph") == text
    narrow = format_text(text, kind="graph", width=40)
    assert narrow == (
        "g (\n   float[N] first_input,\n   float[N] second_input\n) => (float[N] y)\n"
        "{\n   y = Add (first_input, second_input)\n}\n"
    )
