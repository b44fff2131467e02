"""Golden corpus for the formatter and the printer, black-style.

Each ``tests/golden/*.onnxtxt`` file holds an input text, then optionally a line that
is exactly ``# output`` followed by the canonical text ``onnxtext fmt`` must produce.
Without an ``# output`` section the input is its own canonical form.

For every file these invariants are checked:

(a) format:      ``format_text(input) == expected``;
(b) equivalence: ``parse_model(input)`` and ``parse_model(expected)`` serialise to the
                 same bytes (deterministic serialisation);
(c) stability:   ``format_text(expected) == expected``;
(d) printing:    ``to_text(parse_model(expected))`` parses back to the same bytes, and
(e)              that printed text is itself canonical (``format_text`` leaves it alone).

``UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py`` rewrites the expected sections
from the current formatter (dropping the section when the input is already canonical).
Review the diff before committing it. Files/invariants listed in ``KNOWN_BUGS`` are
expected to fail (``xfail(strict=True)``) and are never rewritten.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import onnxtext
from onnxtext.printing.text import to_text
from onnxtext.syntax.format import format_text

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN_DIR.glob("*.onnxtxt"))
IDS = [p.stem for p in FILES]
UPDATE = os.environ.get("UPDATE_GOLDEN", "") not in ("", "0")
MARKER = "# output"
_MARKER_RE = re.compile(r"^# output\n", re.MULTILINE)

# (file stem, invariant) -> reason. The expected text in these files is what the
# formatter *should* produce; the test is xfail(strict=True) until src/ is fixed.
KNOWN_BUGS: dict[tuple[str, str], str] = {}


def split_golden(text: str) -> tuple[str, str | None]:
    """(input, expected or None when the input is already canonical)."""
    m = _MARKER_RE.search(text)
    if m is None:
        return text, None
    return text[: m.start()], text[m.end() :]


def load(path: Path) -> tuple[str, str]:
    source, expected = split_golden(path.read_text(encoding="utf-8"))
    return source, source if expected is None else expected


def write(path: Path, source: str, formatted: str) -> None:
    if formatted == source:
        path.write_text(source, encoding="utf-8")
    else:
        if not source.endswith("\n"):
            source += "\n"
        path.write_text(source + MARKER + "\n" + formatted, encoding="utf-8")


def serialize(msg: object) -> bytes:
    return msg.SerializeToString(deterministic=True)  # type: ignore[attr-defined,no-any-return]


def _params(invariant: str) -> list[object]:
    out = []
    for path in FILES:
        reason = KNOWN_BUGS.get((path.stem, invariant))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


def test_corpus_is_present() -> None:
    assert len(FILES) >= 20, f"expected the golden corpus in {GOLDEN_DIR}"
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert text.count("\n" + MARKER + "\n") + text.startswith(MARKER + "\n") <= 1, (
            f"{path.name}: more than one '# output' line"
        )
        assert text.endswith("\n"), f"{path.name}: no final newline"


def test_known_bugs_name_real_files() -> None:
    stems = set(IDS)
    for stem, invariant in KNOWN_BUGS:
        assert stem in stems, stem
        assert invariant in ("format", "equivalent", "stable", "print_roundtrip", "print_canonical")


@pytest.mark.parametrize("path", _params("format"))
def test_format(path: Path) -> None:
    source, expected = load(path)
    formatted = format_text(source, path=str(path))
    if UPDATE and not any(k[0] == path.stem for k in KNOWN_BUGS):
        write(path, source, formatted)
        return
    assert formatted == expected


@pytest.mark.parametrize("path", _params("equivalent"))
def test_equivalent(path: Path) -> None:
    source, expected = load(path)
    a = onnxtext.parse_model(source, path=str(path))
    b = onnxtext.parse_model(expected, path=str(path))
    assert serialize(a) == serialize(b), (str(a), str(b))


@pytest.mark.parametrize("path", _params("stable"))
def test_stable(path: Path) -> None:
    _, expected = load(path)
    assert format_text(expected, path=str(path)) == expected


@pytest.mark.parametrize("path", _params("print_roundtrip"))
def test_print_roundtrip(path: Path) -> None:
    _, expected = load(path)
    model = onnxtext.parse_model(expected, path=str(path))
    printed = to_text(model)
    again = onnxtext.parse_model(printed, path=f"to_text({path.name})")
    assert serialize(again) == serialize(model), printed
    # Printing is deterministic: the reparsed model prints to the same text.
    assert to_text(again) == printed


@pytest.mark.parametrize("path", _params("print_canonical"))
def test_print_canonical(path: Path) -> None:
    _, expected = load(path)
    printed = to_text(onnxtext.parse_model(expected, path=str(path)))
    assert format_text(printed) == printed


def test_onnx_messages_print_the_same() -> None:
    """``to_text`` takes the onnx package's messages too, with the same result."""
    onnx = pytest.importorskip("onnx")
    for path in FILES:
        _, expected = load(path)
        ours = onnxtext.parse_model(expected)
        theirs = onnx.ModelProto.FromString(serialize(ours))
        assert to_text(theirs) == to_text(ours), path.name


def test_split_golden() -> None:
    assert split_golden("a\n") == ("a\n", None)
    assert split_golden("a\n# output\nb\n") == ("a\n", "b\n")
    # Only a line that is exactly '# output' separates the sections.
    assert split_golden("a\n# outputs\nb\n") == ("a\n# outputs\nb\n", None)
    assert split_golden("a  # output\n") == ("a  # output\n", None)


# ---------------------------------------------------------------- other entry points of fmt


def test_format_graph_and_function_keep_comments() -> None:
    graph = "# lead\ng (float X) => (float Y) {\n Y = Relu(X)  # t\n # end\n}\n"
    assert (
        format_text(graph, kind="graph") == "# lead\ng (float X) => (float Y)\n{\n   Y = Relu (X)  # t\n   # end\n}\n"
    )
    function = '# lead\n<domain: "d"> f (x) => (y) { y = Relu(x) # t\n}\n'
    assert (
        format_text(function, kind="function")
        == '# lead\n<\n   domain: "d"\n>\nf (x) => (y)\n{\n   y = Relu (x)  # t\n}\n'
    )


def test_format_node_list_keeps_comments() -> None:
    text = "{\n   # first\n   A = Relu (X)  # trailing\n   B = Neg (A)\n   # end\n}\n"
    assert format_text(text, kind="node_list") == text


def test_format_node_keeps_comments() -> None:
    text = "Y = If (c) <\n   then_branch = t () => (float Z) {\n      # inside\n      Z = Neg (X)\n   }\n>\n"
    assert format_text(text, kind="node") == text


def test_labelled_node_without_outputs_layout() -> None:
    text = "g (float X) => ()\n{\n   [lbl] = Print (X)\n   [] = Print (X)\n}\n"
    assert format_text(text) == text
    assert to_text(onnxtext.parse_model(text)) == text
