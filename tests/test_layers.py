"""Import contracts: the stages import only stages before them, and no onnxtext module imports itself back.

Deferred imports (inside functions) count as much as top-level ones: they run, and they are
how a backwards arrow hides. The graph is ``test_front_door._imports``.
"""

from __future__ import annotations

import pytest
from test_front_door import _imports

GRAPH = _imports(submodules_as_such=True)

# What syntax/ (text -> tokens -> AST, and AST -> text) may import: the ground floor and itself.
_BELOW_SYNTAX = ("span", "diagnostics", "ir", "_gc", "syntax")
# What each later stage may not import: the stages that come after it.
_FORBIDDEN: dict[str, tuple[str, ...]] = {
    "span": (
        "syntax",
        "diagnostics",
        "ir",
        "lowering",
        "printing",
        "analysis",
        "ide",
        "evaluate",
        "lsp",
        "cli",
        "api",
        "document",
    ),
    "lowering": ("printing", "analysis", "ide", "evaluate", "lsp", "cli", "api", "document"),
    # printing/ and lowering/ are two stages side by side (text -> protobuf, protobuf -> text): neither
    # imports the other; what needs both (fmt's fast way) is behind the front door (onnxtext.api).
    "printing": ("lowering", "analysis", "ide", "evaluate", "lsp", "cli", "api", "document"),
    # analysis/ is what a Document computes: the policy reads one through analysis.diagnose.Analysed.
    "analysis": ("ide", "lsp", "cli", "api", "document"),
}

# Cycles outside the syntax/printing work of issue #21, left for the parts of that issue that own them.


def _in(module: str, stage: str) -> bool:
    name = f"onnxtext.{stage}"
    return module == name or module.startswith(name + ".")


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (or a module importing itself): every import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        # Tarjan's algorithm without recursion: (module, its remaining successors).
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            here, successors = work[-1]
            step = next(successors, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[here] = min(low[here], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[here])
            if low[here] == index[here]:
                component = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.add(m)
                    if m == here:
                        break
                if len(component) > 1 or here in graph.get(here, ()):
                    found.append(component)
    return found


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert sorted(map(sorted, cycles(graph))) == [["a", "b", "c"], ["e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("stage", sorted(_FORBIDDEN))
def test_no_stage_imports_a_later_one(stage: str) -> None:
    wrong = sorted(
        f"{m} imports {d}"
        for m, deps in GRAPH.items()
        if _in(m, stage)
        for d in deps
        if any(_in(d, later) for later in _FORBIDDEN[stage])
    )
    assert wrong == []


def test_syntax_imports_nothing_of_the_later_stages() -> None:
    """Not lowering, printing, analysis, ide, evaluate, lsp, cli, api, document, io, weights...:
    deferred imports included."""
    wrong = sorted(
        f"{m} imports {d}"
        for m, deps in GRAPH.items()
        if _in(m, "syntax")
        for d in deps
        if not any(_in(d, below) for below in _BELOW_SYNTAX)
    )
    assert wrong == []
    assert "onnxtext.syntax.parser" in GRAPH["onnxtext.syntax.format"]  # a deferred import, seen


def test_no_import_cycles() -> None:
    found = cycles(GRAPH)
    assert found == []


def test_the_command_line_reaches_the_server_only_to_start_it() -> None:
    """cli/ imports lsp/ only in ``onnxtext lsp`` (cli/commands/lsp.py): what a command shares with the
    editor (a binary model read as text, its diagnostics as published) lives below both (binary.py)."""
    found = sorted(
        (module, imported)
        for module, imports in GRAPH.items()
        if _in(module, "cli") and module != "onnxtext.cli.commands.lsp"
        for imported in imports
        if _in(imported, "lsp")
    )
    assert found == []
