"""One front door: ``onnxtext.api`` holds the entry points, and no stage imports it or climbs back.

The import cycle ``analysis/check ↔ document ↔ io`` (once hidden by deferred imports) stays
gone: imports are read from the source, deferred ones included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import onnxtext
from onnxtext import api

SRC = Path(__file__).resolve().parents[1] / "src"


def _all_imports(*, submodules_as_such: bool = False) -> dict[str, set[str]]:
    """Each onnxtext module → every name it imports anywhere in its source (other packages too;
    deferred imports included).

    ``from pkg import sub`` counts as importing ``pkg`` and ``pkg.sub``; with ``submodules_as_such``,
    as importing only the module ``pkg.sub`` (as ``import pkg.sub`` does: a package's ``__init__``
    runs before any of its modules, which is no arrow of its own)."""
    modules = {}
    for path in SRC.rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = {f"{node.module}.{a.name}" for a in node.names} & modules.keys()
                if not (submodules_as_such and len(subs) == len(node.names)):
                    found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        graph[name] = found
    return graph


def _imports(*, submodules_as_such: bool = False) -> dict[str, set[str]]:
    """Each onnxtext module → the onnxtext modules it imports anywhere in its source."""
    every = _all_imports(submodules_as_such=submodules_as_such)
    return {name: {m for m in found if m in every and m != name} for name, found in every.items()}


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen: set[str] = set()
    todo = [start]
    while todo:
        here = todo.pop()
        if here == goal:
            return True
        if here not in seen:
            seen.add(here)
            todo.extend(graph.get(here, ()))
    return False


GRAPH = _imports()


@pytest.mark.parametrize(
    "start, goal",
    [
        ("onnxtext.analysis.check", "onnxtext.document"),
        ("onnxtext.analysis.check", "onnxtext.io"),
        ("onnxtext.document", "onnxtext.analysis.check"),
        ("onnxtext.document", "onnxtext.io"),
        ("onnxtext.io", "onnxtext.document"),
        ("onnxtext.evaluate.evaluator", "onnxtext.document"),
    ],
)
def test_no_arrow_runs_back(start: str, goal: str) -> None:
    assert not _reaches(GRAPH, start, goal)


def test_only_the_package_its_commands_and_its_server_import_the_front_door() -> None:
    users = sorted(m for m, deps in GRAPH.items() if "onnxtext.api" in deps)
    assert all(m == "onnxtext" or m.startswith(("onnxtext.cli", "onnxtext.lsp")) for m in users), users


def test_public_entry_points_are_the_front_doors() -> None:
    exported = set(api.__all__) & set(onnxtext.__all__)
    assert exported == {"check", "diagnose", "format_text", "load", "save"} | {
        n for n in api.__all__ if n.startswith("parse_")
    }
    for name in exported:
        assert getattr(onnxtext, name) is getattr(api, name), name
