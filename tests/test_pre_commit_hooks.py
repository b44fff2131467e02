"""The pre-commit hooks of ``.pre-commit-hooks.yaml``, run the way pre-commit runs them.

pre-commit itself is not needed (nor installed offline): for each hook the test takes the
staged files of a scratch git repository that the hook's ``files`` pattern selects and runs
its ``entry`` with them as arguments, as pre-commit does for a ``language: python`` hook
(the ``onnxtext`` console script is the package's ``python -m onnxtext``). A hook fails when
it exits non-zero or changes a file.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_git_textconv import git_env

import onnxtext
from onnxtext.api import save
from onnxtext.syntax.format import format_text

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

ROOT = Path(__file__).resolve().parents[1]
GOOD = (
    '<\n   ir_version: 9,\n   opset_import: ["": 19]\n>\ng (float[N] x) => (float[N] y)\n{\n'
    "   y = Relu (x)  # kept\n}\n"
)


def read_hooks(path: Path) -> dict[str, dict[str, str]]:
    """The hooks of a ``.pre-commit-hooks.yaml`` (a list of flat mappings of plain scalars)."""
    hooks: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = re.match(r"^(- |  )([a-z_]+):\s*(.*)$", line)
        assert item, f"not a plain 'key: value' line: {line!r}"
        if item.group(1) == "- ":
            current = {}
        assert current is not None
        current[item.group(2)] = item.group(3)
        if "id" in current:
            hooks[current["id"]] = current
    return hooks


HOOKS = read_hooks(ROOT / ".pre-commit-hooks.yaml")


def test_the_hooks_offered() -> None:
    assert set(HOOKS) == {"onnxtext-fmt", "onnxtext-check"}
    for hook in HOOKS.values():
        assert hook["language"] == "python" and hook["entry"].startswith("onnxtext ")
    assert re.search(HOOKS["onnxtext-fmt"]["files"], "a/model.onnxtxt")
    assert not re.search(HOOKS["onnxtext-fmt"]["files"], "a/model.onnx")
    assert re.search(HOOKS["onnxtext-check"]["files"], "a/model.onnx")
    assert (ROOT / "docs" / "pre-commit.md").read_text(encoding="utf-8").count("onnxtext-fmt") >= 2


def _git(repo: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, env=_env(repo), capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _env(repo: Path) -> dict[str, str]:
    return git_env(repo.parent)


def run_hook(repo: Path, hook_id: str) -> tuple[int, str, bool]:
    """(exit status, output, whether a file changed) of a hook over the staged files, as pre-commit runs it."""
    hook = HOOKS[hook_id]
    staged = _git(repo, "diff", "--cached", "--name-only", "--diff-filter=ACMR").split()
    files = [f for f in staged if re.search(hook["files"], f)]
    if not files:
        return 0, "", False
    before = {f: (repo / f).read_bytes() for f in files}
    entry = shlex.split(hook["entry"])
    assert entry[0] == "onnxtext"
    command = [sys.executable, "-m", "onnxtext", *entry[1:], *shlex.split(hook.get("args", "")), *files]
    proc = subprocess.run(command, cwd=repo, env=_env(repo), capture_output=True, text=True, check=False)
    changed = any((repo / f).read_bytes() != data for f, data in before.items())
    return proc.returncode, proc.stdout + proc.stderr, changed


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    path.mkdir()
    _git(path, "init", "-q")
    return path


def test_fmt_hook_reformats_then_passes(repo: Path) -> None:
    untidy = GOOD.replace("   y = Relu (x)  # kept", "y=Relu(x)   # kept")
    (repo / "models").mkdir()
    (repo / "models" / "a.onnxtxt").write_text(untidy)
    (repo / "models" / "b.onnxtxt").write_text(GOOD)
    (repo / "notes.txt").write_text("y=Relu(x)\n")
    _git(repo, "add", ".")
    status, _, changed = run_hook(repo, "onnxtext-fmt")
    assert changed  # pre-commit fails the hook: the user adds the change and commits again
    assert (repo / "models" / "a.onnxtxt").read_text() == format_text(untidy) == GOOD
    assert (repo / "notes.txt").read_text() == "y=Relu(x)\n"
    _git(repo, "add", ".")
    assert run_hook(repo, "onnxtext-fmt") == (0, "", False)
    _git(repo, "commit", "-q", "-m", "formatted")


def test_fmt_hook_fails_on_a_syntax_error_and_leaves_the_file(repo: Path) -> None:
    broken = GOOD.replace("Relu (x)", "Relu (x")
    (repo / "m.onnxtxt").write_text(broken)
    _git(repo, "add", ".")
    status, output, changed = run_hook(repo, "onnxtext-fmt")
    assert status != 0 and not changed
    assert "m.onnxtxt:7:" in output  # located: file, line, column


def test_fmt_hook_takes_the_project_width(repo: Path) -> None:
    (repo / "pyproject.toml").write_text("[tool.onnxtext]\nline-width = 25\n")
    (repo / "m.onnxtxt").write_text(GOOD)
    _git(repo, "add", ".")
    status, _, changed = run_hook(repo, "onnxtext-fmt")
    assert status == 0 and changed
    assert max(len(line) for line in (repo / "m.onnxtxt").read_text().splitlines() if "#" not in line) <= 25


def test_check_hook_on_texts_and_binaries(repo: Path) -> None:
    (repo / "good.onnxtxt").write_text(GOOD)
    save(onnxtext.parse_model(GOOD), repo / "good.onnx")
    _git(repo, "add", ".")
    assert run_hook(repo, "onnxtext-check")[0] == 0
    (repo / "bad.onnxtxt").write_text(GOOD.replace("Relu (x)", "Relu (undefined_name)"))
    _git(repo, "add", ".")
    status, output, changed = run_hook(repo, "onnxtext-check")
    assert status == 1 and not changed
    assert "bad.onnxtxt:7:" in output and "undefined_name" in output
