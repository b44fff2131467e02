"""One of each (DESIGN.md, "One of each"): the ideas every stage shares are written once.

Each test pins one of them: the module that holds it, and that no other module of
``src/onnxtext`` writes its own copy (a scan of the sources, so a new copy fails here).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from onnxtext.ir.scoping import attribute_values, bound_attributes, call_scope
from onnxtext.ir.varint import WireError, decode_varint, encode_varint, varint_size
from onnxtext.ir.versioned import VersionedRegistry, normalize_domain
from onnxtext.proto import AttributeProto, FunctionProto, NodeProto, TensorProto

SRC = Path(__file__).resolve().parents[1] / "src" / "onnxtext"


def _sources() -> dict[str, str]:
    return {
        str(p.relative_to(SRC)): p.read_text(encoding="utf-8")
        for p in sorted(SRC.rglob("*.py"))
        if not p.name.endswith("_pb2.py") and p.name != "_table.py"
    }


def _holders(pattern: str) -> set[str]:
    """The source files where ``pattern`` (a regex) matches."""
    rx = re.compile(pattern)
    return {name for name, text in _sources().items() if rx.search(text)}


# ------------------------------------------------------------------ varint
def test_one_varint() -> None:
    # the loops of a varint: 7 bits a byte, continuation bit 0x80
    assert _holders(r">>=\s*7\b|<<\s*7\b|\bshift\s*\+=\s*7\b") == {"ir/varint.py"}
    assert _holders(r"def \w*varint\w*\(") == {"ir/varint.py"}


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 16383, 16384, 2**31 - 1, 2**32, 2**63 - 1, 2**64 - 1])
def test_varint_agrees_with_protobuf(value: int) -> None:
    # protobuf's own encoding: a uint64 field (uint64_data, number 11, packed) holding the value
    wire = TensorProto(uint64_data=[value]).SerializeToString()
    body = encode_varint(value)
    assert wire == bytes([11 << 3 | 2]) + encode_varint(len(body)) + body
    assert varint_size(value) == len(body)
    assert decode_varint(memoryview(body + b"\x01"), 0, len(body) + 1) == (value, len(body))


def test_varint_truncated_or_overlong_is_a_wire_error() -> None:
    with pytest.raises(WireError):
        decode_varint(memoryview(b"\x80\x80"), 0, 2)
    with pytest.raises(WireError):
        decode_varint(memoryview(b"\xff" * 11 + b"\x01"), 0, 12)


# ------------------------------------------------------------------ domains and the versioned registry
def test_one_domain_normaliser() -> None:
    # comparing a domain with the default domain's spellings is normalize_domain's business
    spelled = r"""(==|!=|\bin|\bnot in)\s*\(?\s*(["']["']\s*,\s*)?["']ai\.onnx["']|["']ai\.onnx["']\s*(==|!=)"""
    assert _holders(spelled) == set()
    assert _holders(r"""frozenset\(\{\s*["']["'],\s*["']ai\.onnx["']""") == {"ir/versioned.py"}
    assert normalize_domain("ai.onnx") == normalize_domain("") == ""
    assert normalize_domain("ai.onnx.ml") == "ai.onnx.ml"


def test_one_versioned_registry() -> None:
    from onnxtext.analysis.infer import registry as shape_functions
    from onnxtext.evaluate import registry as kernels

    assert isinstance(kernels._REGISTRY, VersionedRegistry)
    assert isinstance(shape_functions._REGISTRY, VersionedRegistry)
    assert _holders(r"bisect_right\(\[e\[0\]") == {"ir/versioned.py"}
    # both answer the default domain under either spelling, at the version in force
    for lookup in (kernels.lookup, shape_functions.lookup):
        assert lookup("ai.onnx", "Relu", 14) is lookup("", "Relu", 14) is not None
        assert lookup("", "Relu", 0) is None


def test_versioned_registry_lookup() -> None:
    reg: VersionedRegistry[str] = VersionedRegistry()
    reg.add("ai.onnx", "Op", 1, "v1")
    reg.add("", "Op", 13, "v13")
    assert [reg.lookup(d, "Op", v) for d, v in [("", 0), ("", 1), ("ai.onnx", 12), ("", 13), ("", 99), ("", None)]] == [
        None,
        "v1",
        "v1",
        "v13",
        "v13",
        "v13",
    ]
    reg.add("", "Op", 13, "v13b")  # a registration replaces the one of its version, and forgets what was looked up
    assert reg.lookup("", "Op", 20) == "v13b"
    assert reg.lookup("com.x", "Op", 20) is None
    assert reg.registered() == [("", "Op", 1), ("", "Op", 13)]


# ------------------------------------------------------------------ a call's attributes
def test_one_attribute_binding() -> None:
    # reading a reference to bind it is ir/scoping's business (the checker's rules read them to report)
    assert _holders(r"\.ref_attr_name\b") - {"ir/scoping.py"} <= {
        name for name in _sources() if name.startswith(("analysis/check/", "lowering/", "printing/", "syntax/"))
    } | {"diff.py", "ir/attribute_ranges.py"}  # the range table skips a reference: no value to range-check


def test_call_attribute_binding() -> None:
    alpha = AttributeProto(name="alpha", type=AttributeProto.FLOAT, f=0.5)
    node = NodeProto(
        op_type="LeakyRelu",
        attribute=[
            AttributeProto(name="alpha", type=AttributeProto.FLOAT, ref_attr_name="a"),
            AttributeProto(name="beta", type=AttributeProto.FLOAT, ref_attr_name="unbound"),
            AttributeProto(name="gamma", type=AttributeProto.INT, i=3),
        ],
    )
    assert [(i, name, a.f or a.i) for i, name, a in bound_attributes(node, {"a": alpha})] == [
        (0, "alpha", 0.5),
        (2, "gamma", 3),
    ]
    assert list(attribute_values(node, None)) == ["gamma"]  # outside a body a reference binds nothing
    fn = FunctionProto(
        name="f",
        attribute_proto=[
            AttributeProto(name="a", type=AttributeProto.FLOAT, f=1.0),
            AttributeProto(name="b", type=AttributeProto.INT, i=7),
        ],
    )
    scope = call_scope(fn, {"a": alpha})
    assert scope["a"].f == 0.5 and scope["b"].i == 7  # the call's own over the declared defaults


# ------------------------------------------------------------------ proto paths and locate
_PATH_STRING = (
    r"""f["'][^"'\n]*(\{[a-z_.]*path[a-z_]*\}/|\b(node|input|output|initializer|value_info|attribute|"""
    r"""attribute_proto|functions|training_info|graphs|tensors|type_protos|sparse_tensors|dim)\[\{)"""
)
"""An f-string writing a proto path by hand (``f"{path}/node[{i}]"``, ``f"functions[{i}]"``)."""

_WITH_PROTO_PATHS = (
    "lowering/lower.py",
    "lowering/fields.py",
    "lowering/source_map.py",
    "document.py",
    "ir/",
    "analysis/infer/",
    "evaluate/",
    "cli/",
    "lsp/",
)
"""The modules that name messages by :class:`ProtoPath` only (the lowering's source map and its users)."""


def test_proto_paths_are_not_written_by_hand() -> None:
    held = {name for name in _holders(_PATH_STRING) if name.startswith(_WITH_PROTO_PATHS)}
    assert held == set()


def test_source_map_is_keyed_by_proto_paths() -> None:
    from onnxtext.document import parse_document
    from onnxtext.ir.paths import ROOT, ProtoPath

    text = (
        '<ir_version: 10, opset_import: ["" : 21]>\n'
        "g (float[2] x) => (float[2] y) {\n"
        "  y = If <then_branch = g1 () => (float[2] a) { a = Relu (x) }, "
        "else_branch = g2 () => (float[2] b) { b = Neg (x) }> (c)\n"
        "}\n"
    )
    doc = parse_document(text)
    assert doc.ok, doc.diagnostics
    entries = doc.source_map.entries
    assert entries and all(type(path) is ProtoPath for path in entries)
    assert ROOT in entries  # the header, standing for the model
    relu = ProtoPath.parse("graph/node[0]/attribute[0]/g/node[0]")
    assert doc.source_map.path_of(entries[relu]) == relu
    assert doc.source_map.path_at(entries[relu].span.start) == relu
    # one locate: exact, with a token, and the closest enclosing thing the text has
    assert doc.source_map.locate(relu) == entries[relu].span
    assert text[slice(*_bounds(doc.source_map.locate(relu, "op_type")))] == "Relu"
    assert doc.source_map.locate(relu / "attribute" / "t") == entries[relu].span
    assert doc.source_map.locate("graph/node[0]/attribute[0]/g/node[7]") == entries[relu.parent].span  # type: ignore[index]
    assert doc.source_map.locate("opset_import[5]") is None  # the header answers for the model only


def _bounds(span: object) -> tuple[int, int]:
    assert span is not None
    return span.start, span.end  # type: ignore[attr-defined]


def test_one_locate() -> None:
    # the walk from a path up to what the text has is SourceMap.locate's (lower.py only fills the map)
    assert _holders(r"source_map\.entries\b") <= {"lowering/lower.py"}
    assert _holders(r"\.ancestors\(\)") == set()


# ------------------------------------------------------------------ type rules
def test_type_rules_are_decided_by_inference_and_coded_by_their_rule() -> None:
    from onnxtext.analysis.check.rule import InferenceRule
    from onnxtext.analysis.check.rules import ALL_RULES
    from onnxtext.analysis.infer.node import Finding

    by_finding = {rule.finding: rule.code for rule in ALL_RULES if issubclass(rule, InferenceRule)}
    assert by_finding == {
        Finding.TYPE_CONSTRAINT: "E701",
        Finding.SAME_CONSTRAINT: "E702",
        Finding.SHAPE: "E703",
        Finding.DECLARED: "E704",
        Finding.CONTROL_FLOW: "E706",
    }
    # inference names what it proved, never a checker code; the rules do not re-announce by hand
    assert {name for name in _holders(r"""["']E7\d\d["']""") if name.startswith("analysis/infer/")} == set()
    assert _holders(r"inference\.issues") == {"analysis/check/rule.py"}


def test_an_issue_knows_where_it_is() -> None:
    from onnxtext.analysis.infer.node import Finding, Issue
    from onnxtext.ir.paths import ProtoPath

    node, output, producer = (ProtoPath.parse(p) for p in ("graph/node[1]", "graph/output[0]", "graph/node[2]"))
    assert Issue(Finding.SHAPE, "m", node, 0).token == ("input", 0)
    assert Issue(Finding.CONTROL_FLOW, "m", node).token == "op_type"
    declared = Issue(Finding.DECLARED, "m", output, node_path=producer)
    assert (declared.token, declared.related) == ("type", (("produced here", producer, "op_type"),))


# ------------------------------------------------------------------ scopes
def test_one_scope_chain_and_one_scoping_policy() -> None:
    from onnxtext.analysis.check.context import Scope as CheckScope
    from onnxtext.analysis.infer.engine import _Env
    from onnxtext.analysis.symbols import Scope as SymbolScope
    from onnxtext.ir.scoping import ScopeChain

    # three tables for three purposes (AST symbols, the checker's definitions, inference's types), one chain
    assert all(issubclass(cls, ScopeChain) for cls in (CheckScope, SymbolScope, _Env))
    assert _holders(r"\b(scope|env|root) = (scope|env|root)\.parent\b") == set()  # no walk up by hand
    # and every table picks the scope a graph sees through the one policy
    assert {"analysis/symbols.py", "analysis/check/walk.py", "analysis/infer/engine.py", "ir/walk.py"} <= _holders(
        r"\bouter_scope\("
    )


def test_scoping_policy() -> None:
    from onnxtext.ir.scoping import outer_scope

    enclosing, main, state = object(), object(), object()
    seen = {
        kind: outer_scope(kind, enclosing=enclosing, main=main, state=state)  # type: ignore[arg-type]
        for kind in ("main", "subgraph", "function", "algorithm", "initialization")
    }
    assert seen == {"main": None, "subgraph": enclosing, "function": None, "algorithm": main, "initialization": state}


def test_training_graphs_see_per_their_kind() -> None:
    from onnxtext.document import parse_document

    text = (
        '<ir_version: 10, opset_import: ["" : 21], training_info: [{initialization: init () => (float[2] s0) '
        "{ s0 = Identity (w) }, algorithm: algo () => (float[2] w_next) { w_next = Add (w, y) }}]>\n"
        "g (float[2] x) => (float[2] y) <float[2] w = {1, 2}> { y = Add (x, w) }\n"
    )
    doc = parse_document(text)
    assert doc.ok, doc.diagnostics
    by_name = {scope.node.name.value: scope for scope in doc.symbols.scopes}
    main, init, algo = by_name["g"], by_name["init"], by_name["algo"]
    # the symbol tables have no scope of the state variables alone: the main graph's stands for it
    assert init.parent is main and algo.parent is main
    assert algo.lookup("y") is main.values["y"] and init.lookup("w") is main.values["w"]
