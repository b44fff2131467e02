"""Document as the analysis host: each analysis computed once, on first use, on broken texts too."""

from __future__ import annotations

import pytest
from analysisutil import MODEL, doc, offset, places, where

import onnxtext.analysis.infer as infer_module
from onnxtext.analysis.diagnose import check_document, diagnose
from onnxtext.analysis.symbols import ValueSymbol
from onnxtext.document import Document


def value(d: Document, line: int, column: int) -> ValueSymbol:
    symbol = d.symbol_at(offset(d, line, column))
    assert isinstance(symbol, ValueSymbol)
    return symbol


def test_analyses_are_lazy_and_computed_once() -> None:
    d = doc()
    assert d.symbols is d.symbols
    computed = set(vars(d))
    assert "symbols" in computed and not {"inference", "types", "resolutions"} & computed
    assert d.types is d.types and d.resolutions is d.resolutions


def test_types_of_values() -> None:
    d = doc()
    assert str(d.type_of(value(d, 5, 11))) == "float[N]"  # x
    assert str(d.type_of(value(d, 2, 24))) == "bool[]"  # c (a scalar)
    assert str(d.type_of(value(d, 3, 11))) == "float[1]"  # w
    assert str(d.type_of(value(d, 5, 3))) == "float[N]"  # t = Mul(x, w)
    assert str(d.type_of(value(d, 8, 7))) == "float[N]"  # r, in then_branch
    assert d.type_of(value(d, 17, 3)) is None  # a function value with no declared type (bodies are inferred per call)


def test_node_resolutions() -> None:
    d = doc()
    by_position = {where(d, node.op_type.span): r for node, r in d.resolutions.items()}
    mul = by_position[(5, 7)]
    assert mul.schema is not None and mul.schema.name == "Mul" and mul.version == 21
    assert by_position[(7, 11)].schema is not None  # Relu inside then_branch
    assert by_position[(10, 18)].function_path == "functions[0]"  # local.f:a
    assert by_position[(12, 13)].function_path == "functions[1]"  # local.f:b
    neg = by_position[(22, 7)]  # Neg in f:b, resolved in the function's own opset imports
    assert neg.schema is not None and neg.version == 21


def test_function_opsets_are_the_functions() -> None:
    text = MODEL.replace(
        '<domain: "local", opset_import: ["" : 21], overload: "b">',
        '<domain: "local", opset_import: ["" : 13], overload: "b">',
    )
    d = doc(text)
    by_position = {where(d, node.op_type.span): r for node, r in d.resolutions.items()}
    assert by_position[(22, 7)].version == 13 and by_position[(5, 7)].version == 21


def test_check_diagnostics_with_positions() -> None:
    d = doc()
    located = [(x.code, x.span.start.line, x.span.start.column) for x in check_document(d) if x.span is not None]
    assert ("E203", 7, 7) in located  # then_branch's t: a name must be assigned once, subgraphs included
    assert diagnose(d) == sorted(d.diagnostics + check_document(d), key=lambda x: x.offset)


def test_inference_runs_once_for_types_and_checking(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    original = infer_module.infer_model

    def counting(model: object, **kwargs: bool) -> infer_module.Inference:
        calls.append(model)
        return original(model, **kwargs)

    monkeypatch.setattr(infer_module, "infer_model", counting)
    import onnxtext.analysis.check.context as context  # where a check without a given inference runs it

    monkeypatch.setattr(context, "infer_model", counting)
    text = MODEL.replace("t = Mul(x, w)", "t = Mul(x, c)")  # a type error inference finds (E702 or E701)
    d = doc(text)
    assert d.types
    codes = [x.code for x in check_document(d)]
    assert {"E701", "E702"} & set(codes)
    assert len(calls) == 1


def test_a_broken_text_is_analysed_where_it_is_intact() -> None:
    text = MODEL.replace("t = Mul(x, w)", "t Mul(x, w) ]]")  # no '=': the statement is lost
    d = doc(text)
    assert not d.ok and d.proto is not None  # the best-effort model: the damaged node left out
    ops = [n.op_type for n in d.proto.graph.node]
    assert "Mul" not in ops and ops  # every other statement is there
    # the damaged statement still defines 't': no "undefined" or "never produced" for it
    assert not [x for x in check_document(d) if "'t'" in x.message]
    assert d.types and d.resolutions  # intact statements have types and resolutions
    assert [x.code for x in diagnose(d) if x.code.startswith("P")] == [
        x.code for x in d.diagnostics if x.code.startswith("P")
    ]
    # what the parser kept still answers queries
    assert places(d, d.definition_at(offset(d, 8, 18))) == [(3, 11)]


def test_position_queries() -> None:
    d = doc()
    symbol = d.symbol_at(offset(d, 10, 31))
    assert symbol is not None
    assert places(d, d.references(symbol, include_definitions=False)) == [(10, 31), (12, 18)]
    assert [type(n).__name__ for n in d.nodes_at(offset(d, 5, 11))] == ["Model", "Graph", "Node", "Ident"]


def test_graph_documents_have_symbols_only() -> None:
    d = doc("g (float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n", "graph")
    assert d.ok and d.model is None
    assert places(d, d.definition_at(offset(d, 2, 12))) == [(1, 13)]
    assert d.types == {} and check_document(d) == []


def test_resolution_at() -> None:
    d = doc()
    found = d.resolution_at(offset(d, 8, 13))  # Add in then_branch
    assert found is not None
    node, resolution = found
    assert node.op_type.value == "Add" and resolution.schema is not None and resolution.schema.name == "Add"
    call = d.resolution_at(offset(d, 12, 13))
    assert call is not None and call[1].function_path == "functions[1]"
    assert d.resolution_at(offset(d, 3, 3)) is None  # an initializer: no node there


def test_function_values_have_their_declared_types() -> None:
    text = """\
<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
main (float[N] x) => (float[N] y)
{
  y = local.Typed (x, x)
}
<domain: "local", opset_import: ["" : 21]>
Typed (float[N] a, b) => (float[N] c)
<float[N] s>
{
  s = Add(a, b)
  c = Relu(s)
}
"""
    d = doc(text)
    assert d.ok, d.diagnostics
    assert str(d.type_of(value(d, 10, 11))) == "float[N]"  # a
    assert d.type_of(value(d, 10, 14)) is None  # b: declared without a type
    assert str(d.type_of(value(d, 10, 3))) == "float[N]"  # s, from the value-info list
    assert str(d.type_of(value(d, 11, 3))) == "float[N]"  # c


def test_analyses_follow_the_proto_not_the_errors() -> None:
    """A best-effort proto next to errors (as the recovering parser will give) is analysed."""
    from onnxtext.diagnostics import Diagnostic, Severity

    d = doc()
    d.diagnostics.append(Diagnostic("P001", Severity.ERROR, "a damaged statement elsewhere"))
    assert not d.ok and d.model is not None
    assert d.types and d.resolutions
    assert {x.code for x in check_document(d)} >= {"E203"}
