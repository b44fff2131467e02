"""The wheel is complete: built from this checkout, installed with its runtime dependencies
into a fresh virtual environment, it parses and prints models from outside the repository.

Slow-ish (a wheel build and a venv, ~20-40 s on 2 cores with a warm pip cache) but part
of the default run: it is the only test that sees the package as users get it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MLP = """\
<ir_version: 8, opset_import: ["" : 18]>
mlp (float[N, 4] x) => (float[N, 2] y)
<float[4, 2] w = {0.5, -1.0, 0.25, 2.0, 1.5, 0.0, -0.75, 1.0}, float[2] b = {0.1, -0.2}>
{
  h = MatMul(x, w)
  z = Add(h, b)
  y = Relu(z)
}
"""

CHECK_SCRIPT = """
import pathlib, sys
import onnxtext
from onnxtext.syntax.tables import grammar_path
from onnxtext.printing.text import to_text
from onnxtext.api import load
package = pathlib.Path(onnxtext.__file__).resolve().parent
assert pathlib.Path(sys.prefix).resolve() in package.parents, package
assert grammar_path().resolve() == package / "grammar" / "onnxtext.lark", grammar_path()
model = load("mlp.onnx")
assert [n.op_type for n in model.graph.node] == ["MatMul", "Add", "Relu"], model
assert onnxtext.parse_model(to_text(model)) == model
print("ok", onnxtext.__version__)
"""


def _clean_env() -> dict[str, str]:
    """The environment without anything pointing back at this checkout or the dev venv."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(cmd: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(cmd, cwd=cwd, env=_clean_env(), capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{cmd} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result


def test_wheel_installs_and_runs(tmp_path: Path) -> None:
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("not running from a source checkout")
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)], cwd=tmp_path)
    wheels = list(dist.glob("onnxtext-*.whl"))
    assert len(wheels) == 1, wheels
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
    for needed in (
        "onnxtext/grammar/onnxtext.lark",
        "onnxtext/__main__.py",
        "onnxtext/cli/app.py",
        "onnxtext/cli/commands/parse.py",  # each command a module, imported when it runs
        "onnxtext/proto/onnxtext_ir_pb2.py",
        "onnxtext/ide/assets/graphview.js",  # onnxtext graph -o x.html, x.svg
        "onnxtext/ide/assets/graph.css",
    ):
        assert needed in names, f"{needed} missing from {wheels[0].name}"
    assert not any(name.startswith(("tests/", "src/")) for name in names)

    # A fresh venv without pip; the running pip installs into it (--python), runtime
    # dependencies included (from the pip cache when warm).
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(wheels[0])], cwd=tmp_path)

    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "mlp.onnxtxt").write_text(MLP, encoding="utf-8")
    _run([str(bindir / "onnxtext"), "parse", "mlp.onnxtxt", "-o", "mlp.onnx"], cwd=work)
    printed = _run([str(bindir / "onnxtext"), "print", "mlp.onnx"], cwd=work)
    assert "MatMul" in printed.stdout
    _run([str(bindir / "onnxtext"), "graph", "mlp.onnxtxt", "-o", "mlp.html"], cwd=work)
    assert "MatMul" in (work / "mlp.html").read_text(encoding="utf-8")
    checked = _run([str(python), "-c", CHECK_SCRIPT], cwd=work)
    assert checked.stdout.startswith("ok "), checked.stdout
    installed_version = checked.stdout.split()[1]
    assert "+source" not in installed_version  # the metadata version, not the checkout fallback
    version = _run([str(python), "-m", "onnxtext", "--version"], cwd=work)
    assert version.stdout.strip() == f"onnxtext {installed_version}"
