"""``git diff`` of .onnx files through ``onnxtext print --weights digest`` (docs/git.md)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_external import big_model

import onnxtext
from onnxtext.api import save

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SRC = Path(onnxtext.__file__).resolve().parents[1]


def _git(repo: Path, env: dict[str, str], *args: str) -> str:
    proc = subprocess.run(["git", "--no-pager", *args], cwd=repo, env=env, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"git {' '.join(args)} failed:\n{proc.stderr}"
    return proc.stdout


def git_env(home: Path) -> dict[str, str]:
    """An environment for git in a scratch repository: no user or system config, this onnxtext first."""
    env = {
        **os.environ,
        "HOME": str(home),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


@pytest.fixture()
def repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    env = git_env(tmp_path)
    path = tmp_path / "repo"
    path.mkdir()
    _git(path, env, "init", "-q")
    (path / ".gitattributes").write_text("*.onnx diff=onnx\n")
    textconv = f"{shlex.quote(sys.executable)} -m onnxtext print --weights digest"
    _git(path, env, "config", "diff.onnx.textconv", textconv)
    _git(path, env, "config", "diff.onnx.binary", "true")
    return path, env


def _changed_model() -> onnxtext.proto.ModelProto:
    m = big_model()
    relu = next(n for n in m.graph.node if n.op_type == "LeakyRelu")
    relu.attribute[0].f = 0.25
    w = next(t for t in m.graph.initializer if t.name == "W")
    arr = np.frombuffer(w.raw_data, np.float32).copy()
    arr[123] = 42.0
    w.raw_data = arr.tobytes()
    return m


def test_git_diff_shows_text(repo: tuple[Path, dict[str, str]]) -> None:
    path, env = repo
    save(big_model(), path / "model.onnx")
    _git(path, env, "add", ".gitattributes", "model.onnx")
    _git(path, env, "commit", "-q", "-m", "model")
    save(_changed_model(), path / "model.onnx")

    out = _git(path, env, "diff")
    assert "-   y = LeakyRelu <alpha = 0.01> (h2)" in out
    assert "+   y = LeakyRelu <alpha = 0.25> (h2)" in out
    w_lines = [li for li in out.splitlines() if " W = " in li]
    assert len(w_lines) == 2 and w_lines[0].startswith("-") and w_lines[1].startswith("+")
    assert '"max": "42"' in w_lines[1] and '"digest": "sha256:' in w_lines[1]
    assert "Binary files" not in out
    # the raw bytes are binary for git (binary = true): no byte-level diff without textconv
    assert "Binary files a/model.onnx and b/model.onnx differ" in _git(path, env, "diff", "--no-textconv")

    # both sides from the object store (temporary files named like the original)
    _git(path, env, "commit", "-q", "-am", "change")
    between = _git(path, env, "diff", "HEAD~1", "HEAD")
    assert "+   y = LeakyRelu <alpha = 0.25> (h2)" in between
    assert _git(path, env, "diff", "HEAD~1", "HEAD", "--stat").count("model.onnx") == 1


def test_git_diff_of_equal_rewrite_is_empty(repo: tuple[Path, dict[str, str]]) -> None:
    """Same values stored differently (a rewritten file) may change bytes, not the text."""
    path, env = repo
    save(big_model(), path / "model.onnx")
    _git(path, env, "add", ".gitattributes", "model.onnx")
    _git(path, env, "commit", "-q", "-m", "model")
    m = big_model()
    m.producer_name = "rewritten"
    save(m, path / "model.onnx")
    out = _git(path, env, "diff")
    assert '+   producer_name: "rewritten"' in out
    assert " W = " not in "\n".join(li for li in out.splitlines() if li[:1] in "+-")


def test_git_diff_with_external_data_shows_only_what_changed(repo: tuple[Path, dict[str, str]]) -> None:
    """git prints the old side from a temporary copy that cannot see the data files: both
    sides print every externally stored tensor as its reference, so only the attribute changes."""
    from onnxtext.weights.sidecar import write_external

    path, env = repo
    save(write_external(big_model(), path, "weights.bin", 1024), path / "model.onnx")
    _git(path, env, "add", ".gitattributes", "model.onnx", "weights.bin")
    _git(path, env, "commit", "-q", "-m", "model")
    m = onnxtext.load(path / "model.onnx")
    next(n for n in m.graph.node if n.op_type == "LeakyRelu").attribute[0].f = 0.25
    save(m, path / "model.onnx")
    out = _git(path, env, "diff")  # the new side from the working tree, the old from a temporary copy
    changed = [li for li in out.splitlines() if li[:1] in "+-" and li[:3] not in ("+++", "---")]
    assert changed == ["-   y = LeakyRelu <alpha = 0.01> (h2)", "+   y = LeakyRelu <alpha = 0.25> (h2)"], out
    _git(path, env, "commit", "-q", "-am", "alpha")
    between = _git(path, env, "diff", "HEAD~1", "HEAD")  # both sides from temporary copies
    changed = [li for li in between.splitlines() if li[:1] in "+-" and li[:3] not in ("+++", "---")]
    assert changed == ["-   y = LeakyRelu <alpha = 0.01> (h2)", "+   y = LeakyRelu <alpha = 0.25> (h2)"], between
