"""Hostile texts found by the hostile-input campaign (#31): types nested far past what protobuf
reads, external data whose range lies, declared inputs no memory holds, names that are no
UTF-8, lines of megabytes: every command answers with a located message and an exit status,
never a traceback, a hang or a runaway allocation."""

from __future__ import annotations

from pathlib import Path

import pytest

from onnxtext.cli.app import main
from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.diagnostics.render import EXCERPT_WIDTH, render_diagnostic
from onnxtext.span import SourceFile, Span

H = '<ir_version: 8, opset_import: ["" : 18]>\n'
REFERENCE = str(Path(__file__).resolve().parents[1] / "examples" / "mlp.onnxtxt")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "Traceback" not in said, said[-3000:]
    return status, said


def _seq(depth: int) -> str:
    return H + "g (" + "seq(" * depth + "float" + ")" * depth + " x) => (float[2] y) { y = Relu (x) }\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "T"],
        ["print", "T"],
        ["parse", "T", "-o", "OUT.onnx"],
        ["fmt", "--check", "T"],
        ["run", "T", "--random-inputs"],
        ["graph", "T", "-o", "OUT.svg"],
        ["diff", REFERENCE, "T"],
        ["edit", "T", "--rename", "x=z", "-o", "OUT.onnxtxt"],
    ],
)
def test_types_nested_past_protobuf_are_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """seq(seq(...)) 100,000 deep: the lowering and the printer recursed into it (RecursionError,
    or minutes of work); now the lowering stops at protobuf's depth and says where (L009)."""
    text = tmp_path / "deep.onnxtxt"
    text.write_text(_seq(100_000))
    args = [str(text) if a == "T" else a.replace("OUT", str(tmp_path / "out")) for a in argv]
    status, said = _run(capsys, *args)
    assert status == (2 if argv[0] == "diff" else 1), said[-2000:]
    assert f"{text}:2:" in said and "error[L009]: nested too deeply" in said
    assert "input nested too deeply to process" not in said  # the catch-all, which says not where
    assert bool(list(tmp_path.glob("out*"))) == (argv[0] == "graph")  # a damaged text's graph is drawn


def test_types_at_protobufs_depth_lower_and_one_more_is_refused() -> None:
    import onnxtext

    # the innermost tensor type at depth 3 + 2 × 48 + 1 = 100 (its shape one deeper when it has one)
    model = onnxtext.parse_model(_seq(48).replace("float)", "float[])"))
    assert type(model).FromString(model.SerializeToString()) == model
    for text in (_seq(48), _seq(49)):  # a scalar's (empty) shape at 101, every nesting past
        with pytest.raises(onnxtext.ParseError, match="L009"):
            onnxtext.parse_model(text)


def test_a_kernel_given_a_sequence_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Relu run on a made-up sequence (the model is unchecked): a located run error, not an AttributeError."""
    text = tmp_path / "m.onnxtxt"
    text.write_text(_seq(3))
    status, said = _run(capsys, "run", str(text), "--random-inputs")
    assert status == 1
    assert f"{text}:2:" in said and "error[R002]: Relu: Relu cannot be computed on seq(len=1)" in said


EXTERNAL = {
    "escape": ('"location": "../../../etc/passwd", "length": "8"', "leaves the model's folder"),
    "absolute": ('"location": "/etc/passwd", "length": "8"', "is an absolute path"),
    "symlink": ('"location": "link.bin", "length": "8"', "resolves (through a symlink)"),
    "huge offset": ('"location": "w.bin", "offset": "9223372036854775807", "length": "8"', "is past its end"),
    "offset past int64": (f'"location": "w.bin", "offset": "{2**70}", "length": "8"', "is past its end"),
    "negative offset": ('"location": "w.bin", "offset": "-8", "length": "8"', "negative offset or length"),
    "huge length": ('"location": "w.bin", "length": "9223372036854775807"', "is past its end"),
    "short file": ('"location": "short.bin", "length": "8"', "is past its end"),
    "not integers": ('"location": "w.bin", "length": "abc", "offset": "1e3"', "are not integers"),
    "a folder": ('"location": ".", "length": "8"', "not a regular file"),
}


@pytest.mark.parametrize("case", sorted(EXTERNAL))
def test_graph_page_with_lying_external_data(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    """The page's weight panel read external data its own way: an unsafe location raised, an offset
    past the file made mmap raise OverflowError. It now reads the validated range every command reads
    (``weights.external.locate``), and the panel says why there are no statistics."""
    (tmp_path / "w.bin").write_bytes(bytes(8))
    (tmp_path / "short.bin").write_bytes(bytes(3))
    (tmp_path / "link.bin").symlink_to("/etc/passwd")
    entries, why = EXTERNAL[case]
    text = tmp_path / "m.onnxtxt"
    text.write_text(H + f"g (float[2] x) => (float[2] y) <float[2] w = [{entries}]> {{ y = Add (x, w) }}\n")
    page = tmp_path / "m.html"
    status, said = _run(capsys, "graph", str(text), "-o", str(page))
    assert status in (0, 1), said
    said = page.read_text().split("its external data cannot be read: ")
    assert len(said) > 1 and all(why in part.split('"')[0] for part in said[1:]), said[1:]


@pytest.mark.parametrize("command", ["run", "compare"])
def test_made_up_inputs_beyond_the_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """An input declared 2^96 elements made up by --random-inputs (or compare): numpy raised "array is
    too big" (or allocated what it could); now it is sized against --max-memory first."""
    text = tmp_path / "m.onnxtxt"
    text.write_text(H + "g (float[4294967296, 4294967296, 4294967296] x) => (float[2] y) { y = Relu (x) }\n")
    argv = ["run", str(text), "--random-inputs"] if command == "run" else ["compare", str(text), str(text)]
    status, said = _run(capsys, *argv, "--max-memory", "256M")
    assert status in (1, 2)
    assert (
        f"{text}: error: input 'x' of shape [4294967296, 4294967296, 4294967296] would take 5.63e+14 PB, "
        "beyond the memory budget of 256 MB" in said
    )


def test_made_up_input_just_within_the_budget_is_made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "m.onnxtxt"
    text.write_text(H + "g (float[1000] x) => (float[1000] y) { y = Relu (x) }\n")
    assert _run(capsys, "run", str(text), "--random-inputs", "--max-memory", "8000")[0] == 0  # 1000 float64
    status, said = _run(capsys, "run", str(text), "--random-inputs", "--max-memory", "7999")
    assert status == 1 and "input 'x' of shape [1000] would take 7.81 KB, beyond the memory budget" in said


@pytest.mark.parametrize("suffix", [".svg", ".html", ".dot"])
def test_lone_surrogate_names_in_a_graph(tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str) -> None:
    """A name written "\\ud800" is said to be no UTF-8 text, and the graph is still written (it
    raised UnicodeEncodeError when the page was encoded)."""
    text = tmp_path / "m.onnxtxt"
    text.write_text(H + 'g (float[2] "\\ud800") => (float[2] y) { y = Relu ("\\ud800") @{doc_string: "\\udfff"} }\n')
    out = tmp_path / f"g{suffix}"
    status, said = _run(capsys, "graph", str(text), "-o", str(out))
    assert status == 1 and "UTF-8" in said
    assert out.read_bytes().decode("utf-8")  # written, and valid UTF-8


def _diagnostic(line: str, start: int, end: int) -> str:
    source = SourceFile("first\n" + line + "\nlast\n", "m.onnxtxt")
    offset = len("first\n")
    return render_diagnostic(
        Diagnostic.at("P001", Severity.ERROR, "expected a name", Span(offset + start, offset + end), source)
    )


def test_a_diagnostic_on_a_10_megabyte_line_shows_a_window() -> None:
    """A 10 MB line was echoed whole, with 10 MB of tildes under it."""
    line = "a" * 5_000_000 + "@bad" + "b" * 5_000_000
    shown = _diagnostic(line, 5_000_000, 5_000_004)
    head, source_line, caret = shown.splitlines()
    assert head == "m.onnxtxt:2:5000001: error[P001]: expected a name"
    assert len(source_line) < EXCERPT_WIDTH + 20 and source_line.startswith("    2 | …a")
    assert source_line.endswith("b…")
    at = caret.index("^")
    assert source_line[at : at + 4] == "@bad" and caret[at:] == "^~~~"
    whole = _diagnostic("a" * 5_000_000, 10, 5_000_000)  # a span running to the end of the line
    assert len(whole) < 3 * (EXCERPT_WIDTH + 80)


def test_a_diagnostic_shows_control_characters_as_pictures() -> None:
    """An escape sequence in the text is not sent to the terminal; the caret stays under its character."""
    shown = _diagnostic("y = Relu (\x1b[31mx\x00)", 10, 11)
    _, source_line, caret = shown.splitlines()
    assert source_line == "    2 | y = Relu (␛[31mx␀)"
    assert source_line[caret.index("^")] == "␛"


@pytest.mark.parametrize(
    "body",
    [
        ", (float[2] x) => (float[2] y) {\n  y = Relu (x)\n  # c\n}\n",  # a graph with no name: its head is empty
        "{\n  # d\n  y = Relu (x)\n}\n",
        "# c\n=> {\n  # d\n  y = Relu (x)\n}\n",
    ],
)
def test_range_formatting_a_graph_with_an_empty_head(body: str) -> None:
    """Formatting a range of a graph whose head the recovery left empty (no name, no inputs): the
    comments' attachment looked for the body's '{' after the head's last node (max() of nothing: an
    internal error answering the editor's range formatting, found by the server campaign)."""
    from onnxtext.syntax.format import format_range

    text = H + body
    formatted = [format_range(text, a, min(len(text), a + width)) for a in range(len(text)) for width in (0, 3, 40)]
    assert any(f is not None for f in formatted)
    assert all(f is None or "y = Relu (x)" in f for f in formatted)
