"""The floor plan, editor half: the semantic core below, the editor's queries above it, the protocol only in ``lsp/``.

Imports are read from the source, deferred ones (inside functions, under ``TYPE_CHECKING``) included,
and followed through every module in between: a layer may not reach what sits above it.
"""

from __future__ import annotations

import pytest
from test_front_door import GRAPH, _all_imports, _reaches

EVERY = _all_imports()


def _in(package: str) -> list[str]:
    return sorted(m for m in GRAPH if m == package or m.startswith(package + "."))


def _reached(start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            todo.extend(GRAPH.get(here, ()))
    return seen


def test_the_layers_are_where_the_code_map_says() -> None:
    for package in (
        "onnxtext.analysis",
        "onnxtext.ide",
        "onnxtext.host",
        "onnxtext.lsp",
        "onnxtext.evaluate",
        "onnxtext.cli",
    ):
        assert _in(package), package


_PROTOCOL = ("pygls", "lsprotocol")


def _speaks_the_protocol(module: str) -> bool:
    return any(n.split(".")[0] in _PROTOCOL for n in EVERY[module])


def test_lsp_holds_only_protocol_code() -> None:
    """Every module of ``lsp/`` (but the package itself) imports the protocol: what does not speak it
    is the host's (``host/``) or a query's (``ide/``)."""
    quiet = [m for m in _in("onnxtext.lsp") if m != "onnxtext.lsp" and not _speaks_the_protocol(m)]
    assert quiet == []


def test_the_host_is_protocol_free_and_only_the_server_uses_it() -> None:
    """``host/`` imports neither protocol library and reaches nothing of ``lsp/`` or ``cli/``; nothing but
    ``lsp/`` (and the host itself) imports it: the layers below the server know no host."""
    assert not [m for m in _in("onnxtext.host") if _speaks_the_protocol(m)]
    climbing = sorted(
        u for m in _in("onnxtext.host") for u in _reached(m) if u.startswith(("onnxtext.lsp", "onnxtext.cli"))
    )
    assert climbing == []
    users = sorted(
        m
        for m, deps in GRAPH.items()
        if not m.startswith(("onnxtext.host", "onnxtext.lsp"))
        and any(d == "onnxtext.host" or d.startswith("onnxtext.host.") for d in deps)
    )
    assert users == []


def test_only_lsp_imports_the_protocol_libraries() -> None:
    users = sorted(m for m, names in EVERY.items() if any(n.split(".")[0] in ("pygls", "lsprotocol") for n in names))
    assert users and all(m.startswith("onnxtext.lsp.") for m in users), users


@pytest.mark.parametrize(
    "lower, upper",
    [
        ("onnxtext.ide", "onnxtext.lsp"),
        ("onnxtext.ide", "onnxtext.cli"),
        ("onnxtext.analysis", "onnxtext.ide"),
        ("onnxtext.analysis", "onnxtext.lsp"),
        ("onnxtext.analysis", "onnxtext.cli"),
        ("onnxtext.analysis", "onnxtext.document"),
        ("onnxtext.analysis", "onnxtext.api"),
        ("onnxtext.printing", "onnxtext.lowering"),
        ("onnxtext.lowering", "onnxtext.printing"),
        ("onnxtext.evaluate", "onnxtext.cli"),
        ("onnxtext.evaluate", "onnxtext.lsp"),
        ("onnxtext.evaluate", "onnxtext.ide"),
        ("onnxtext.compare", "onnxtext.cli"),
        ("onnxtext.compare", "onnxtext.lsp"),
        ("onnxtext.surgery", "onnxtext.cli"),
        ("onnxtext.surgery", "onnxtext.lsp"),
        ("onnxtext.surgery", "onnxtext.ide"),
        ("onnxtext.surgery", "onnxtext.document"),
        ("onnxtext.surgery", "onnxtext.api"),
    ],
)
def test_a_lower_layer_reaches_nothing_above_it(lower: str, upper: str) -> None:
    climbing = sorted(
        (m, sorted(u for u in _reached(m) if u == upper or u.startswith(upper + "."))) for m in _in(lower)
    )
    assert [(m, ups) for m, ups in climbing if ups] == []


@pytest.mark.parametrize("front", ["onnxtext.api", "onnxtext.syntax.parser", "onnxtext.document"])
def test_the_evaluator_takes_models_not_texts(front: str) -> None:
    """The evaluator runs a ``ModelProto``: it never parses text, so no module of it reaches the parser's front door."""
    assert [m for m in _in("onnxtext.evaluate") if _reaches(GRAPH, m, front)] == []
