"""Start-up: short commands import only what they use, and the LALR table comes from a cache.

Wall times are measured in ``bench/bench_startup.py``, never here; these tests pin the
causes (which modules a command imports, that the cache is written, read and survives
damage) in fresh interpreters.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

import onnxtext

ROOT = Path(__file__).resolve().parents[1]
MODEL = '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n   y = Relu (x)\n}\n'


def _python(code: str, env: dict[str, str] | None = None) -> str:
    full_env = dict(os.environ if env is None else env)
    full_env["PYTHONPATH"] = str(ROOT / "src")
    done = subprocess.run([sys.executable, "-c", code], env=full_env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _loaded_after(statement: str) -> set[str]:
    out = _python(f"import sys\n{statement}\nprint(' '.join(sorted(sys.modules)))")
    return set(out.split())


@pytest.mark.parametrize(
    "statement",
    [
        "import onnxtext",
        "import onnxtext.cli",
        "from onnxtext.cli import main; main(['--version'])",
    ],
)
def test_light_imports(statement: str) -> None:
    loaded = _loaded_after(statement)
    for heavy in ("lark", "numpy", "pygls", "onnxtext.syntax.parser", "onnxtext.analysis.check", "importlib.metadata"):
        assert heavy not in loaded, f"{statement!r} imports {heavy}"


def test_printing_a_binary_model_does_not_load_the_parser() -> None:
    loaded = _loaded_after(
        "from onnxtext.proto import ModelProto\nfrom onnxtext.printing.text import to_text\n"
        "m = ModelProto(ir_version=8)\nm.graph.name = 'g'\nto_text(m)"
    )
    assert "lark" not in loaded and "onnxtext.syntax.parser" not in loaded


def test_printing_a_plain_text_does_not_load_lark(tmp_path: Path) -> None:
    source = tmp_path / "m.onnxtxt"
    source.write_text(MODEL, encoding="utf-8")
    loaded = _loaded_after(f"from onnxtext.cli import main\nassert main(['print', {str(source)!r}]) == 0")
    assert "lark" not in loaded and "onnxtext.syntax.parser" not in loaded  # the fast path read it


_COMMANDS = "onnxtext.cli.commands."


def _commands_loaded(argv: list[str]) -> set[str]:
    loaded = _loaded_after(f"from onnxtext.cli import main\nassert main({argv!r}) == 0")
    return {m.removeprefix(_COMMANDS) for m in loaded if m.startswith(_COMMANDS)}


@pytest.mark.parametrize("argv", [["--help"], ["run", "--help"], ["check", "--help"], ["lsp", "--help"]])
def test_help_loads_no_command_module(argv: list[str]) -> None:
    """Each command is a module of onnxtext.cli.commands imported when it runs: help loads none."""
    assert _commands_loaded(argv) == set()


def test_a_command_loads_only_its_own_module() -> None:
    assert _commands_loaded(["rules"]) == {"rules"}


def test_lazy_public_names_are_the_real_ones() -> None:
    from onnxtext.api import parse_model
    from onnxtext.printing.text import to_text

    assert onnxtext.parse_model is parse_model
    assert onnxtext.to_text is to_text
    assert onnxtext.check_model is onnxtext.check
    assert onnxtext.proto.ModelProto.__name__ == "ModelProto"
    assert set(onnxtext.__all__) <= set(dir(onnxtext))
    with pytest.raises(AttributeError):
        onnxtext.no_such_name  # noqa: B018


def test_version_is_the_wheels() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" in meta["project"]["dynamic"]
    assert meta["tool"]["hatch"]["version"]["path"] == "src/onnxtext/_version.py"
    assert onnxtext.__version__.count(".") == 2


_PARSE = (
    "import onnxtext\n"
    "from onnxtext.syntax.tables import table_cache_path\n"
    f"m = onnxtext.parse_document({MODEL!r}).proto\n"  # the Lark path (parse_model may not need it)
    "print(m.graph.node[0].op_type, table_cache_path())"
)


def _env(cache: str) -> dict[str, str]:
    env = dict(os.environ)
    env["ONNXTEXT_TABLE_CACHE"] = cache
    return env


def test_table_cache_is_written_then_read(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    out = _python(_PARSE, _env(str(cache)))
    op, path = out.split()
    assert op == "Relu"
    written = Path(path)
    assert written.parent == cache and written.is_file()
    stamp = written.stat().st_mtime_ns
    assert _python(_PARSE, _env(str(cache))).split()[0] == "Relu"
    assert written.stat().st_mtime_ns == stamp  # read, not rebuilt


def test_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    path = Path(_python(_PARSE, _env(str(cache))).split()[1])
    path.write_bytes(path.read_bytes()[:1000])  # torn by a concurrent writer
    assert _python(_PARSE, _env(str(cache))).split()[0] == "Relu"
    path.write_bytes(b"not a cache at all\n")
    assert _python(_PARSE, _env(str(cache))).split()[0] == "Relu"


def test_unwritable_or_disabled_cache_still_parses(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    assert _python(_PARSE, _env(str(blocked / "sub"))).split() == ["Relu", "None"]
    assert _python(_PARSE, _env("")).split() == ["Relu", "None"]


def test_version_loads_nothing_but_the_version() -> None:
    """``onnxtext --version`` answers before argparse and protobuf load, as argparse's own action would."""
    loaded = _loaded_after("from onnxtext.cli import main; main(['--version'])")
    assert not {"argparse", "google.protobuf", "onnxtext.cli.app", "onnxtext.diagnostics"} & loaded
    fast = _python("from onnxtext.cli import main; raise SystemExit(main(['--version']))")
    full = _python("from onnxtext.cli import app; raise SystemExit(app.main(['--version']))")
    assert fast == full == f"onnxtext {onnxtext.__version__}\n"
