"""Hostile input, as a user might give it by accident: a located message, never a traceback
nor a silently broken output (issue #13, section 3)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import onnxtext
from onnxtext.api import save
from onnxtext.cli.app import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
H = '<ir_version: 8, opset_import: ["" : 18]>\n'


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    return status, captured.out + captured.err


@pytest.mark.parametrize("command", ["parse", "check", "print", "run", "diff", "compare", "fmt"])
def test_dimension_beyond_int64(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    text = tmp_path / "m.onnxtxt"
    text.write_text(H + "g (float[99999999999999999999] x) => (float[2] y) {\n  y = Identity (x)\n}\n")
    args = {"parse": ["-o", str(tmp_path / "m.onnx")], "diff": [str(text)], "compare": [str(text)]}.get(command, [])
    args = ["--check"] if command == "fmt" else args
    status, out = _run(
        capsys, command, *([str(text)] if command != "fmt" else []), *args, *([str(text)] if command == "fmt" else [])
    )
    assert status == (2 if command in ("diff", "compare") else 1)  # diff, compare: 0 same, 1 different, 2 error
    assert f"{text}:2:10: error[P001]: dimension 99999999999999999999 does not fit in a 64-bit integer" in out


def test_hex_integers_in_header_and_attributes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "m.onnxtxt"
    text.write_text(
        '<ir_version: 0x8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n'
        "  y = Foo <a = 0x8, b = [0x1, 2]> (x)\n}\n"
    )
    model = onnxtext.parse_model(text.read_text())
    assert model.ir_version == 8 and model.graph.node[0].attribute[0].i == 8
    for command in (["check", str(text)], ["print", str(text)], ["run", str(text)]):
        _run(capsys, *command)


def test_parse_given_a_binary_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "m.onnxtxt"  # named like a text
    save(onnxtext.parse_model((EXAMPLES / "mlp.onnxtxt").read_text()), tmp_path / "m.onnx")
    binary.write_bytes((tmp_path / "m.onnx").read_bytes())
    status, out = _run(capsys, "parse", str(binary), "-o", str(tmp_path / "out.onnx"))
    assert status == 1
    assert (
        out.strip()
        == f"{binary}: error: this is a binary ONNX model, not a text; use 'onnxtext print' to see it as text"
    )


@pytest.mark.parametrize("command", ["print", "check", "run", "diff", "compare"])
def test_text_named_onnx(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    fake = tmp_path / "m.onnx"
    shutil.copy(EXAMPLES / "mlp.onnxtxt", fake)
    status, out = _run(capsys, command, str(fake), *([str(fake)] if command in ("diff", "compare") else []))
    assert status in (1, 2)
    assert f"{fake}: error: this is a text, not a binary ONNX model (name it .onnxtxt" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["print", "IN", "--threshold", "10"],
            "onnxtext print: error: --threshold applies to --weights external or --weights digest",
        ),
        (["diff", "IN", "IN", "--threshold", "10"], "onnxtext diff: error: --threshold applies to --unified"),
        (
            ["print", "IN", "--weights", "digest", "--threshold", "-1"],
            "onnxtext print: error: --threshold must be a number of bytes >= 0",
        ),
        (["run", "IN", "--bogus"], "onnxtext run: error: unrecognized arguments: --bogus"),
    ],
)
def test_usage_errors_name_their_command(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    argv = [str(EXAMPLES / "mlp.onnxtxt") if a == "IN" else a for a in args]
    status, out = _run(capsys, *argv)
    assert status == 2 and message in out
    assert f"usage: onnxtext {args[0]} " in out


def test_parse_elsewhere_with_external_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = EXAMPLES / "external_weights.onnxtxt"
    out = tmp_path / "elsewhere" / "m.onnx"
    out.parent.mkdir()
    status, said = _run(capsys, "parse", str(src), "-o", str(out))
    assert status == 1 and not out.exists()
    assert (
        "external data files relative to its folder ('external_weights.bin')" in said and "--copy-external-data" in said
    )
    status, said = _run(capsys, "parse", str(src), "-o", str(out), "--copy-external-data")
    assert (
        status == 0
        and (out.parent / "external_weights.bin").read_bytes() == (EXAMPLES / "external_weights.bin").read_bytes()
    )
    assert _run(capsys, "check", str(out))[0] == 0
    assert _run(capsys, "run", str(out), "--input", "X=[[1, 2, 3, 4]]")[0] == 0
    # a second time: the copy is there already and the same; a different file in the way is refused
    assert _run(capsys, "parse", str(src), "-o", str(out), "--copy-external-data")[0] == 0
    (out.parent / "external_weights.bin").write_bytes(b"other")
    status, said = _run(capsys, "parse", str(src), "-o", str(out), "--copy-external-data")
    assert status == 1 and "exists and is not a copy of" in said


def test_print_elsewhere_with_external_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnx"
    assert (
        _run(capsys, "parse", str(EXAMPLES / "external_weights.onnxtxt"), "-o", str(model), "--copy-external-data")[0]
        == 0
    )
    (tmp_path / "text").mkdir()
    status, said = _run(capsys, "print", str(model), "-o", str(tmp_path / "text" / "m.onnxtxt"))
    assert status == 1 and "--copy-external-data" in said
    assert _run(capsys, "print", str(model), "-o", str(tmp_path / "m.onnxtxt"))[0] == 0  # same folder: fine


@pytest.mark.parametrize(
    "text", ["y = Foo <a: float = 0x8> (x)", "y = Foo <a: floats = [0x8, 1]> (x)", "y = Foo (x) @{doc_string: 0x8}"]
)
def test_hex_where_a_float_or_string_is_expected(text: str) -> None:
    with pytest.raises(onnxtext.ParseError) as caught:
        onnxtext.parse_node(text)
    assert all(d.span is not None for d in caught.value.diagnostics)


def test_signaling_nan_in_float_data_prints_losslessly() -> None:
    """A signaling NaN stored in float_data (a Python float would quiet it) survives print → parse."""
    model = onnxtext.parse_model(H + "g () => (float[2] y) <float[2] w = {1.5, 2.5}> { y = Identity(w) }\n")
    data = bytearray(model.SerializeToString())
    at = data.index(bytes.fromhex("00002040"))
    data[at : at + 4] = bytes.fromhex("0100807f")  # 0x7f800001: signaling
    mutated = type(model)()
    mutated.ParseFromString(bytes(data))
    text = onnxtext.to_text(mutated)
    assert "0x7f800001" in text
    again = onnxtext.parse_model(text)
    assert again.SerializeToString(deterministic=True) == mutated.SerializeToString(deterministic=True)


@pytest.mark.parametrize("command", ["run", "diff", "print"])
def test_binary_with_names_that_are_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    model = onnxtext.parse_model(H + "g (float[2] x) => (float[2] y) { y = Relu (x) }\n")
    data = model.SerializeToString().replace(b"Relu", b"R\xffel")
    path = tmp_path / "m.onnx"
    path.write_bytes(data)
    status, out = _run(capsys, command, str(path), *([str(path)] if command == "diff" else []))
    assert status in (1, 2)
    assert "graph/node[0]/op_type holds bytes that are not UTF-8 text" in out


def test_parse_given_a_binary_file_says_so_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.onnxtxt"
    junk.write_bytes(bytes(range(256)) * 4)
    status, out = _run(capsys, "parse", str(junk), "-o", str(tmp_path / "o.onnx"))
    assert status == 1
    assert out.strip() == f"{junk}: error: this is a binary file, not a text (108 control bytes in its first 64 KiB)"


DAMAGED_ATTRIBUTES = ['<"", axs = 1>', "<, axis = 1>", "<axis = >", "<axis 1>", '<"x" = 1>', '<axs = 1, "">', "<@ = 1>"]
"""Attribute lists with a damaged attribute (an ``ErrorNode`` among the attributes) before or after an intact one."""


def _damaged_attribute_models(attrs: str) -> dict[str, str]:
    """The damaged attribute list in the main graph, a subgraph, a function body, and a damaged graph attribute."""
    return {
        "main": H + f"g (float[2,3] x) => (float[2,3] y) {{\n  y = Softmax {attrs} (x)\n}}\n",
        "subgraph": H + "g (bool c, float[2,3] x) => (float[2,3] y) {\n"
        f"  y = If (c) <then_branch = graph t () => (float[2,3] a) {{\n    a = Softmax {attrs} (x)\n  }},"
        " else_branch = graph e () => (float[2,3] b) {\n    b = Identity (x)\n  }>\n}\n",
        "function": H.replace("18]", '18, "local" : 1]')
        + "g (float[2,3] x) => (float[2,3] y) {\n  y = local.F (x)\n}\n"
        f'<domain: "local", opset_import: ["" : 18]>\nF (a) => (b) {{\n  b = Softmax {attrs} (a)\n}}\n',
        "graph attribute": H + "g (bool c, float[2,3] x) => (float[2,3] y) {\n"
        f"  y = If (c) <then_branch = graph t () => (float[2,3] a) {{ a = Softmax {attrs} (x) }},"
        " else_branch = graph {>\n}\n",
    }


@pytest.mark.parametrize("attrs", DAMAGED_ATTRIBUTES)
def test_damaged_attribute_lists_through_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], attrs: str
) -> None:
    """A damaged attribute beside an intact one: a located message from every command, never a traceback
    (the checker's fix for the intact one took its index among all the attributes: issue #29, item 12)."""
    for where, source in _damaged_attribute_models(attrs).items():
        text = tmp_path / f"{where.replace(' ', '_')}.onnxtxt"
        text.write_text(source)
        for argv in (
            ["check", str(text)],
            ["check", "--format", "json", str(text)],
            ["graph", str(text), "-o", str(tmp_path / "g.svg")],
            ["run", str(text)],
            ["fmt", "--check", str(text)],
            ["print", str(text)],
        ):
            status, out = _run(capsys, *argv)
            assert status == 1, (where, argv, out)
            assert "error[P" in out or '"code": "P' in out, (where, argv, out)


def test_damaged_attribute_before_a_misspelled_one_keeps_its_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "m.onnxtxt"
    text.write_text(_damaged_attribute_models('<"", axs = 1>')["main"])
    status, out = _run(capsys, "check", str(text))
    assert status == 1
    assert f"{text}:3:16: error[P001]: expected a name, found string" in out
    assert f"{text}:3:20: error[E305]: operator 'Softmax' (opset 18) has no attribute 'axs'" in out
    fixed = onnxtext.check(text.read_text())
    (e305,) = [d for d in fixed if d.code == "E305"]
    assert e305.fix is not None and [(e.span.start, e.span.end, e.new_text) for e in e305.fix.edits] == [
        (text.read_text().index("axs"), text.read_text().index("axs") + 3, "axis")
    ]
