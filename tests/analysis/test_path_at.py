"""The source map the other way: offsets and AST nodes → proto paths."""

from __future__ import annotations

import pytest
from analysisutil import MODEL, doc, offset
from test_source_map import TRAINING  # a text with graphs inside property values

from onnxtext.ir.paths import ProtoPath
from onnxtext.syntax import ast as A
from onnxtext.syntax.query import node_at


@pytest.mark.parametrize(
    ("line", "column", "path"),
    [
        (1, 2, ""),  # the header stands for the model
        (2, 16, "graph/input[0]"),
        (3, 11, "graph/initializer[0]"),
        (5, 11, "graph/node[0]"),
        (5, 16, "graph/node[0]"),  # right after the node's ')'
        (6, 15, "graph/node[1]/attribute[0]"),
        (6, 48, "graph/node[1]/attribute[0]/g/output[0]"),
        (8, 15, "graph/node[1]/attribute[0]/g/node[1]"),
        (10, 23, "graph/node[1]/attribute[1]/g/node[0]/attribute[0]"),
        (4, 1, "graph"),
        (17, 24, "functions[0]/node[0]/attribute[0]"),
        (20, 4, "functions[1]"),
    ],
)
def test_path_at(line: int, column: int, path: str) -> None:
    d = doc()
    assert d.source_map.path_at(offset(d, line, column)) == ProtoPath.parse(path)
    assert d.path_at(offset(d, line, column)) == ProtoPath.parse(path)


def test_outside_every_node() -> None:
    d = doc()
    assert d.source_map.path_at(len(MODEL) + 5) is None


def test_path_of() -> None:
    d = doc()
    assert d.source_map.path_of(d.tree.graph) == ProtoPath.parse("graph")
    assert d.source_map.path_of(d.tree.functions[1].nodes[0]) == ProtoPath.parse("functions[1]/node[0]")
    assert d.source_map.path_of(d.tree.graph.nodes[0].inputs[0]) is None  # names are not mapped


@pytest.mark.parametrize("text", [MODEL, TRAINING], ids=["model", "training"])
def test_path_at_is_the_innermost_mapped_node_of_node_at(text: str) -> None:
    """At every offset, path_at names the innermost mapped node of node_at's chain."""
    d = doc(text)
    assert d.ok, d.diagnostics
    mapped = {id(node) for node in d.source_map.entries.values()}
    for at in range(len(text) + 1):
        chain = [n for n in node_at(d.tree, at) if id(n) in mapped]
        expected = chain[-1] if chain else None
        path = d.source_map.path_at(at)
        found = d.source_map[path] if path is not None else None
        if expected is None or found is None:
            assert found is expected, at
        else:
            assert found.span == expected.span, (at, path)


def test_the_index_follows_new_entries() -> None:
    d = doc()
    assert d.source_map.path_at(offset(d, 5, 11)) == ProtoPath.parse("graph/node[0]")
    ident = d.tree.graph.nodes[0].inputs[0]
    assert isinstance(ident, A.Ident)
    d.source_map.entries[ProtoPath.parse("graph/node[0]/input[0]")] = ident
    assert d.source_map.path_at(offset(d, 5, 11)) == ProtoPath.parse("graph/node[0]/input[0]")
