"""ir/paths: the one proto-path type."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onnxtext import parse_model
from onnxtext.ir.paths import ProtoPath, describe
from onnxtext.proto import NodeProto

NESTED = """\
<ir_version: 10, opset_import: ["" : 21]>
g (bool c, float[2] x) => (float[2] y)
{
  y = If(c) <then_branch = tb () => (float[2] r) {
      r = Relu(x)
    }, else_branch = eb () => (float[2] r2) {
      r2 = Neg(x)
    }>
}
"""


def test_parse_and_format() -> None:
    path = ProtoPath.parse("graph/node[3]/attribute[0]/g")
    assert tuple(path) == (("graph",), ("node", 3), ("attribute", 0), ("g",))
    assert str(path) == "graph/node[3]/attribute[0]/g"
    assert repr(path) == "ProtoPath('graph/node[3]/attribute[0]/g')"
    assert ProtoPath.parse("") == ProtoPath() and str(ProtoPath()) == ""


@pytest.mark.parametrize("text", ["graph/", "/graph", "graph/node[x]", "graph/node[-1]", "node[3", "a b"])
def test_malformed_paths_are_rejected(text: str) -> None:
    with pytest.raises(ValueError):
        ProtoPath.parse(text)


_NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)
_STEPS = st.one_of(st.tuples(_NAMES), st.tuples(_NAMES, st.integers(0, 10**6)))


@given(st.lists(_STEPS, max_size=8))
def test_round_trip(steps: list[tuple[str] | tuple[str, int]]) -> None:
    path = ProtoPath(steps)
    assert ProtoPath.parse(str(path)) == path
    assert str(ProtoPath.parse(str(path))) == str(path)


def test_extend_and_parent() -> None:
    graph = ProtoPath.parse("graph")
    node = graph.child("node", 3)
    assert node == graph / ("node", 3) == ProtoPath.parse("graph/node[3]")
    assert node / "g" == ProtoPath.parse("graph/node[3]/g")
    assert node.parent == graph and graph.parent == ProtoPath() and ProtoPath().parent is None
    assert [str(p) for p in (node / "g").ancestors()] == ["graph/node[3]/g", "graph/node[3]", "graph"]
    assert node.startswith(graph) and not graph.startswith(node)
    assert isinstance(node.parent, ProtoPath) and isinstance(node / "g", ProtoPath)


def test_hashable_and_immutable() -> None:
    seen = {ProtoPath.parse("graph/node[1]"): 1}
    assert seen[ProtoPath.parse("graph").child("node", 1)] == 1
    with pytest.raises(TypeError):
        ProtoPath.parse("graph")[0] = ("x",)  # type: ignore[index]


def test_resolve_and_describe() -> None:
    model = parse_model(NESTED)
    node = ProtoPath.parse("graph/node[0]/attribute[1]/g/node[0]").resolve(model)
    assert isinstance(node, NodeProto) and node.op_type == "Neg"
    assert ProtoPath().resolve(model) is model
    assert ProtoPath.parse("graph/node[7]").resolve(model) is None
    assert ProtoPath.parse("graph/nothing").resolve(model) is None
    assert describe(model, ProtoPath.parse("graph/node[0]")) == "graph/node[0] (If)"
    assert describe(model, ProtoPath.parse("graph/node[0]/attribute[1]/g")) == "graph/node[0]/attribute[1]/g 'eb'"
    assert describe(model, ProtoPath()) == "model"


def test_pickles_as_a_proto_path() -> None:
    import pickle

    path = ProtoPath.parse("functions[1]/node[2]")
    copy = pickle.loads(pickle.dumps(path))
    assert copy == path and isinstance(copy, ProtoPath) and str(copy) == "functions[1]/node[2]"
