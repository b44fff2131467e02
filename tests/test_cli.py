"""The ``onnxtext`` command line: in-process ``main([...])`` and ``python -m onnxtext`` subprocesses."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import onnxtext
from onnxtext.api import load, save
from onnxtext.cli import app as cli
from onnxtext.io import write_atomic
from onnxtext.printing.text import NotRepresentable
from onnxtext.proto import ModelProto
from onnxtext.syntax.format import format_text

SRC = Path(onnxtext.__file__).resolve().parents[1]

MLP = """\
<ir_version: 8, opset_import: ["" : 18], producer_name: "onnxtext-tests">
mlp (float[N, 4] x) => (float[N, 3] y)
<float[4, 2] w1 = {0.5, -1.0, 0.25, 2.0, 1.5, 0.0, -0.75, 1.0},
 float[2] b1 = {0.1, -0.2},
 float[2, 3] w2 = {1.0, 2.0, 3.0, -1.0, -2.0, -3.0},
 float[3] b2 = {0.0, 0.5, 1.0}>
{
  h1 = MatMul(x, w1)
  h2 = Add(h1, b1)
  h3 = Relu(h2)
  h4 = MatMul(h3, w2)
  y = Add(h4, b2)
}
"""

# Two independent syntax errors, on lines 3 and 4; recovery must report both.
TWO_ERRORS = """\
<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
  a = Relu(x, 3)
  y = Relu(a b)
}
"""

# The same model as MLP's graph spelled untidily: fmt has work to do.
UGLY = """<ir_version:8,opset_import:["":18]>
g(float[2] x)=>(float[2] y){y=Relu(x)}
"""


def run(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m onnxtext ARGS`` with this checkout's sources importable."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-m", "onnxtext", *args],
        input=stdin if stdin is not None else b"",
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def no_traceback(text: str) -> None:
    assert "Traceback" not in text, text


@pytest.fixture
def mlp_text(tmp_path: Path) -> Path:
    path = tmp_path / "mlp.onnxtxt"
    path.write_text(MLP, encoding="utf-8")
    return path


# ---------------------------------------------------------------- parse / print


def test_parse_print_round_trip_in_process(mlp_text: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mlp.onnx"
    assert cli.main(["parse", str(mlp_text), "-o", str(out)]) == 0
    model = ModelProto()
    model.ParseFromString(out.read_bytes())
    assert model.ir_version == 8
    assert [n.op_type for n in model.graph.node] == ["MatMul", "Add", "Relu", "MatMul", "Add"]
    assert len(model.graph.initializer) == 4
    # deterministic serialisation of exactly the parsed model
    assert out.read_bytes() == onnxtext.parse_model(MLP).SerializeToString(deterministic=True)

    assert cli.main(["print", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    printed = captured.out
    assert "MatMul" in printed
    # the printed text denotes the same model
    again = onnxtext.parse_model(printed)
    assert again.SerializeToString(deterministic=True) == out.read_bytes()

    text_out = tmp_path / "again.onnxtxt"
    assert cli.main(["print", str(out), "-o", str(text_out)]) == 0
    assert text_out.read_text(encoding="utf-8") == printed
    assert capsys.readouterr().out == ""


def test_parse_matches_onnx_parser(mlp_text: Path, tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    out = tmp_path / "mlp.onnx"
    assert cli.main(["parse", str(mlp_text), "-o", str(out)]) == 0
    reference = onnx.parser.parse_model(MLP)
    loaded = onnx.load(str(out))
    onnx.checker.check_model(loaded, full_check=True)
    assert loaded == reference


def test_parse_print_round_trip_subprocess(mlp_text: Path, tmp_path: Path) -> None:
    out = tmp_path / "mlp.onnx"
    parsed = run("parse", str(mlp_text), "-o", str(out))
    assert parsed.returncode == 0, parsed.stderr.decode()
    assert parsed.stdout == b"" and parsed.stderr == b""
    printed = run("print", str(out))
    assert printed.returncode == 0, printed.stderr.decode()
    assert onnxtext.parse_model(printed.stdout.decode()).SerializeToString(deterministic=True) == out.read_bytes()


def test_stdin_and_stdout_pipeline() -> None:
    """``parse - -o -`` reads text from stdin and writes binary to stdout; ``print -`` reads binary."""
    binary = run("parse", "-", "-o", "-", stdin=MLP.encode())
    assert binary.returncode == 0, binary.stderr.decode()
    assert binary.stdout == onnxtext.parse_model(MLP).SerializeToString(deterministic=True)
    printed = run("print", "-", stdin=binary.stdout)
    assert printed.returncode == 0, printed.stderr.decode()
    assert "mlp" in printed.stdout.decode()


def test_stdin_in_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(MLP.encode())))
    out = tmp_path / "m.onnx"
    assert cli.main(["parse", "-", "-o", str(out)]) == 0
    assert load(out) == onnxtext.parse_model(MLP)


def test_stdin_errors_are_located_as_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TWO_ERRORS.encode())))
    assert cli.main(["parse", "-", "-o", str(tmp_path / "m.onnx")]) == 1
    assert "<stdin>:3:" in capsys.readouterr().err


# ---------------------------------------------------------------- errors


def test_two_syntax_errors_reported_with_caret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.onnxtxt"
    bad.write_text(TWO_ERRORS, encoding="utf-8")
    out = tmp_path / "bad.onnx"
    assert cli.main(["parse", str(bad), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    lines = err.splitlines()
    heads = [line for line in lines if line.startswith(f"{bad}:")]
    assert len(heads) >= 2, err
    assert heads[0].startswith(f"{bad}:3:") and "error[P001]" in heads[0], err
    assert any(h.startswith(f"{bad}:4:") and "error[P001]" in h for h in heads[1:]), err
    # each head is followed by the source line and a caret under the column
    first = lines.index(heads[0])
    col = int(heads[0].split(":")[2])
    assert lines[first + 1].endswith("a = Relu(x, 3)"), err
    gutter = lines[first + 1].index("|") + 2
    assert lines[first + 2][gutter + col - 1] == "^", err
    assert not out.exists()


def test_two_syntax_errors_subprocess(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnxtxt"
    bad.write_text(TWO_ERRORS, encoding="utf-8")
    result = run("parse", "bad.onnxtxt", "-o", "bad.onnx", cwd=tmp_path)
    err = result.stderr.decode()
    assert result.returncode == 1
    no_traceback(err)
    assert "bad.onnxtxt:3:" in err and "bad.onnxtxt:4:" in err and "error[P001]" in err
    assert "^" in err
    assert result.stdout == b""
    assert not (tmp_path / "bad.onnx").exists()


def test_existing_output_untouched_on_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnxtxt"
    bad.write_text(TWO_ERRORS, encoding="utf-8")
    out = tmp_path / "out.onnx"
    out.write_bytes(b"previous")
    os.utime(out, (1_000_000, 1_000_000))
    assert cli.main(["parse", str(bad), "-o", str(out)]) == 1
    assert out.read_bytes() == b"previous"
    assert out.stat().st_mtime == 1_000_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.onnxtxt", "out.onnx"]


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.onnxtxt"
    assert cli.main(["parse", str(missing), "-o", str(tmp_path / "x.onnx")]) == 1
    assert cli.main(["print", str(tmp_path / "nope.onnx")]) == 1
    assert cli.main(["fmt", str(missing)]) == 1
    err = capsys.readouterr().err
    assert f"{missing}: error: cannot read: No such file or directory" in err
    assert not (tmp_path / "x.onnx").exists()


def test_missing_file_subprocess(tmp_path: Path) -> None:
    result = run("print", str(tmp_path / "nope.onnx"))
    assert result.returncode == 1
    no_traceback(result.stderr.decode())
    assert b"cannot read" in result.stderr


def test_directory_as_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["print", str(tmp_path)]) == 1
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [[], ["bogus"], ["parse"], ["parse", "in.onnxtxt"], ["print"], ["fmt"], ["--nope"], ["print", "a", "b"]],
)
def test_bad_usage_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert "usage: onnxtext" in capsys.readouterr().err


def test_bad_usage_subprocess() -> None:
    result = run("parse")
    assert result.returncode == 2
    assert b"usage: onnxtext parse" in result.stderr
    no_traceback(result.stderr.decode())


def test_invalid_binary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"\xff\xff\xff\xff garbage \x00\x01")
    assert cli.main(["print", str(junk)]) == 1
    err = capsys.readouterr().err
    assert f"{junk}: error: not a valid binary ONNX model" in err
    empty = tmp_path / "empty.onnx"
    empty.write_bytes(b"")
    assert cli.main(["print", str(empty)]) == 1
    assert "empty file" in capsys.readouterr().err


def test_invalid_binary_subprocess(tmp_path: Path) -> None:
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"<ir_version: 8> not binary at all")
    out = tmp_path / "junk.onnxtxt"
    result = run("print", str(junk), "-o", str(out))
    assert result.returncode == 1
    err = result.stderr.decode()
    no_traceback(err)
    assert "this is a text, not a binary ONNX model" in err
    assert not out.exists()


def test_not_utf8_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "latin1.onnxtxt"
    bad.write_bytes(MLP.replace("onnxtext-tests", "caf\xe9").encode("latin-1"))
    assert cli.main(["parse", str(bad), "-o", str(tmp_path / "m.onnx")]) == 1
    assert cli.main(["fmt", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "not UTF-8 text" in err
    assert not (tmp_path / "m.onnx").exists()


def test_not_representable(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "m.onnx"
    save(onnxtext.parse_model(MLP), model)

    def refuse(message: object, width: int = 100) -> str:
        raise NotRepresentable("graph.something cannot be written in text yet")

    monkeypatch.setattr("onnxtext.printing.text.to_text", refuse)  # the CLI imports it on use
    out = tmp_path / "m.onnxtxt"
    assert cli.main(["print", str(model), "-o", str(out)]) == 1
    assert "cannot be printed as text: graph.something" in capsys.readouterr().err
    assert not out.exists()


def test_warnings_do_not_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "warn.onnxtxt"
    text.write_text(MLP.replace('"onnxtext-tests"', '"odd \\q escape"'), encoding="utf-8")
    out = tmp_path / "warn.onnx"
    assert cli.main(["parse", str(text), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"{text}:1:" in err and "warning[" in err
    assert out.exists()


def test_pathological_nesting_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    depth = 5000  # far beyond protobuf's own nesting limit (100)
    text = tmp_path / "deep.onnxtxt"
    text.write_text(MLP.replace("float[N, 4] x", "seq(" * depth + "float" + ")" * depth + " x"), encoding="utf-8")
    out = tmp_path / "deep.onnx"
    assert cli.main(["parse", str(text), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err
    assert not out.exists()


def test_unwritable_output(mlp_text: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "no" / "such" / "dir" / "m.onnx"
    assert cli.main(["parse", str(mlp_text), "-o", str(out)]) == 1
    assert "cannot write" in capsys.readouterr().err


# ---------------------------------------------------------------- fmt


def test_fmt_check_and_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ugly = tmp_path / "ugly.onnxtxt"
    ugly.write_text(UGLY, encoding="utf-8")
    tidy = tmp_path / "tidy.onnxtxt"
    tidy.write_text(format_text(UGLY), encoding="utf-8")

    assert cli.main(["fmt", "--check", str(tidy)]) == 0
    assert cli.main(["fmt", "--check", str(tidy), str(ugly)]) == 1
    err = capsys.readouterr().err
    assert f"would reformat {ugly}" in err and str(tidy) not in err
    assert ugly.read_text(encoding="utf-8") == UGLY  # --check changes nothing

    assert cli.main(["fmt", str(ugly)]) == 0
    assert ugly.read_text(encoding="utf-8") == format_text(UGLY)
    assert cli.main(["fmt", "--check", str(ugly)]) == 0
    # idempotent, and the meaning is kept
    assert format_text(ugly.read_text(encoding="utf-8")) == ugly.read_text(encoding="utf-8")
    assert onnxtext.parse_model(ugly.read_text(encoding="utf-8")) == onnxtext.parse_model(UGLY)


def test_fmt_keeps_comments(tmp_path: Path) -> None:
    path = tmp_path / "c.onnxtxt"
    path.write_text(UGLY.replace("g(", "# the graph\ng("), encoding="utf-8")
    assert cli.main(["fmt", str(path)]) == 0
    assert "# the graph" in path.read_text(encoding="utf-8")


def test_fmt_unchanged_file_not_rewritten(tmp_path: Path) -> None:
    tidy = tmp_path / "tidy.onnxtxt"
    tidy.write_text(format_text(UGLY), encoding="utf-8")
    os.utime(tidy, (1_000_000, 1_000_000))
    assert cli.main(["fmt", str(tidy)]) == 0
    assert tidy.stat().st_mtime == 1_000_000


def test_fmt_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ugly = tmp_path / "ugly.onnxtxt"
    ugly.write_text(UGLY, encoding="utf-8")
    assert cli.main(["fmt", "--diff", str(ugly)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"--- {ugly}")
    assert f"+++ {ugly}" in out and "\n@@ " in out
    assert "\n-g(float[2] x)=>(float[2] y){y=Relu(x)}\n" in out
    assert ugly.read_text(encoding="utf-8") == UGLY
    assert cli.main(["fmt", "--diff", "--check", str(ugly)]) == 1
    assert capsys.readouterr().out == out


def test_fmt_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.onnxtxt"
    bad.write_text(TWO_ERRORS, encoding="utf-8")
    ugly = tmp_path / "ugly.onnxtxt"
    ugly.write_text(UGLY, encoding="utf-8")
    assert cli.main(["fmt", str(bad), str(ugly)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:3:" in err and "error[P001]" in err
    assert bad.read_text(encoding="utf-8") == TWO_ERRORS  # never touched
    assert ugly.read_text(encoding="utf-8") == format_text(UGLY)  # the others are still formatted


def test_fmt_stdin_subprocess() -> None:
    result = run("fmt", "-", stdin=UGLY.encode())
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode() == format_text(UGLY)
    check = run("fmt", "--check", "-", stdin=UGLY.encode())
    assert check.returncode == 1
    assert b"would reformat <stdin>" in check.stderr
    assert check.stdout == b""


# ---------------------------------------------------------------- help and version


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"onnxtext {onnxtext.__version__}"


@pytest.mark.parametrize("command", ["parse", "print", "fmt"])
def test_subcommand_help_has_example(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: onnxtext {command}")
    assert f"example:\n  onnxtext {command} " in out


def test_top_level_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("parse", "print", "fmt"):
        assert command in out


# ---------------------------------------------------------------- io


def test_load_save_by_extension(tmp_path: Path) -> None:
    model = onnxtext.parse_model(MLP)
    save(model, tmp_path / "m.onnx")
    save(model, tmp_path / "m.onnxtxt")
    assert (tmp_path / "m.onnx").read_bytes() == model.SerializeToString(deterministic=True)
    assert (tmp_path / "m.onnxtxt").read_text(encoding="utf-8").lstrip().startswith("<")
    assert load(tmp_path / "m.onnx") == model
    assert load(tmp_path / "m.onnxtxt") == model
    assert load(str(tmp_path / "m.onnx")) == model


def test_save_accepts_onnx_messages(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    model = onnx.parser.parse_model(MLP)
    save(model, tmp_path / "m.onnx")
    assert onnx.load(str(tmp_path / "m.onnx")) == model


def test_load_text_errors_carry_path(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(TWO_ERRORS, encoding="utf-8")
    with pytest.raises(onnxtext.ParseError) as info:
        load(bad)
    assert all(d.source is not None and d.source.path == str(bad) for d in info.value.diagnostics)


def test_write_atomic_failure_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.onnx"
    target.write_bytes(b"old")

    def boom(src: str, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.onnx"]


def test_write_atomic_text_and_mode(tmp_path: Path) -> None:
    target = tmp_path / "t.onnxtxt"
    write_atomic(target, "héllo\n")
    assert target.read_bytes() == "héllo\n".encode()
    umask = os.umask(0o022)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's 0o600
    target.chmod(0o640)
    write_atomic(target, b"again")
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["t.onnxtxt"]


def test_check_counts_information_apart_from_warnings(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """W201 is information by default: the summary does not call it a warning."""
    from onnxtext.cli.app import main

    path = tmp_path / "m.onnxtxt"
    path.write_text(
        '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] "/y") { "/y" = Relu (x) }\n'
    )
    assert main(["check", str(path)]) == 0
    err = capsys.readouterr().err
    assert "0 error(s), 0 warning(s), 1 note(s)" in err
