"""Odd arguments found by the hostile-input campaign (#31): an output that is the input, a device
or a FIFO as the output, a negative seed. A message and an exit status; never a traceback, a model
replaced by its conversion, nor a device node replaced by a regular file."""

from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

import onnxtext
from onnxtext.cli.app import main
from onnxtext.io import atomic_file, model_bytes

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mlp.onnxtxt"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "Traceback" not in said
    return status, said


@pytest.mark.parametrize("command", ["parse", "print"])
def test_the_output_is_the_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """parse -o IN wrote the binary over the text it read (print: the text over the binary)."""
    text = tmp_path / "m.onnxtxt"
    text.write_text(EXAMPLE.read_text())
    binary = tmp_path / "m.onnx"
    binary.write_bytes(model_bytes(onnxtext.parse_model(text.read_text())))
    given = text if command == "parse" else binary
    before = given.read_bytes()
    other_spelling = str(tmp_path / ".." / tmp_path.name / given.name)
    status, said = _run(capsys, command, str(given), "-o", other_spelling)
    assert status == 2
    assert (
        said.strip()
        == f"{other_spelling}: error: is the input file: writing it would replace the model read; give another -o"
    )
    assert given.read_bytes() == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_output_that_is_a_fifo_is_written_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The atomic write renamed its temporary file over the output: a FIFO (or, as root, /dev/null
    or /dev/full) was replaced by a regular file. A device or a FIFO is written through, as a shell's
    redirection does."""
    fifo = tmp_path / "out.onnxtxt"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    status, said = _run(capsys, "print", str(EXAMPLE), "-o", str(fifo))
    reader.join(30)
    assert status == 0, said
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].decode() == onnxtext.to_text(onnxtext.parse_model(EXAMPLE.read_text()))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_atomic_file_is_never_made_over_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "w.data"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as raised, atomic_file(fifo):
        pass
    assert raised.value.errno == errno.EINVAL
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and [p.name for p in tmp_path.iterdir()] == ["w.data"]


@pytest.mark.parametrize("command", ["run", "compare"])
def test_a_negative_seed_is_a_usage_error(capsys: pytest.CaptureFixture[str], command: str) -> None:
    """numpy's generator raised ValueError (a traceback) for a negative --seed."""
    argv = [command, str(EXAMPLE), *([str(EXAMPLE)] if command == "compare" else ["--random-inputs"])]
    status, said = _run(capsys, *argv, "--seed", "-1")
    assert status == 2 and f"onnxtext {command}: error: argument --seed: expected an integer >= 0, not '-1'" in said


def test_a_write_interrupted_by_sigterm_is_undone(tmp_path: Path) -> None:
    """SIGTERM (timeout, a cancelled job) in the middle of writing the output: the output is as it
    was and no temporary file is left beside it (the default action killed the process with its
    hidden .out.onnx.XXXX.tmp half written)."""
    import subprocess
    import sys

    script = tmp_path / "interrupted.py"
    script.write_text(
        "import os, signal, sys\n"
        "import onnxtext.io as io\n"
        "real = io.write_all\n"
        "def interrupted(fd, data, offset):\n"
        "    real(fd, data[:10], offset)\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    real(fd, data[10:], offset + 10)\n"
        "io.write_all = interrupted\n"
        "from onnxtext.cli.app import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    out = tmp_path / "out.onnx"
    out.write_bytes(b"the model before")
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(src), os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run(
        [sys.executable, str(script), "parse", str(EXAMPLE), "-o", str(out)], env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 128 + 15, done.stderr[-2000:]
    assert out.read_bytes() == b"the model before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["interrupted.py", "out.onnx"]
