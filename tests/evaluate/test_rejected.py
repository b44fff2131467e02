"""Runs leave out what the checker rejected: one diagnostic per mistake, never a Python exception's text."""

from __future__ import annotations

import numpy as np
import pytest

from onnxtext import parse_model
from onnxtext.analysis.diagnose import diagnose
from onnxtext.document import parse_document
from onnxtext.evaluate import EvaluationError, Evaluator
from onnxtext.evaluate.rejected import downstream, rejected_nodes

H = '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
SIG = "g (float[2, 2] x) => (float[2, 2] y, float[2, 2] z)\n"


def _text(body: str, functions: str = "") -> str:
    return H + SIG + "{\n" + body + "}\n" + functions


def _rejected(text: str) -> frozenset[int]:
    doc = parse_document(text)
    diags = diagnose(doc)
    return rejected_nodes(doc.proto, diags, doc.source_map.path_at)


def test_a_node_with_a_checker_error_is_rejected() -> None:
    text = _text("   s = Softmax <axis = 1.5> (x)\n   y = Relu (s)\n   z = MatMull (x, x)\n")
    assert _rejected(text) == {0, 2}


def test_warnings_do_not_reject() -> None:
    text = _text('   "/s" = Relu (x)\n   y = Relu ("/s")\n   z = Neg (x)\n')
    assert _rejected(text) == frozenset()


def test_an_error_in_a_subgraph_rejects_the_node_holding_it() -> None:
    branch = 'then_branch = t () => (float[2, 2] a) { a = Softmax <axis = "last"> (x) }'
    other = "else_branch = e () => (float[2, 2] b) { b = Neg (x) }"
    text = _text(f"   c = Constant <value = bool {{1}}> ()\n   y = If (c) <{branch}, {other}>\n   z = Neg (x)\n")
    assert _rejected(text) == {1}


def test_an_error_in_a_function_body_rejects_its_callers() -> None:
    fn = '<domain: "local", opset_import: ["" : 21]>\nf (a) => (b) { b = Softmax <axis = 1.5> (a) }\n'
    text = _text("   y = local.f (x)\n   z = Neg (x)\n", fn)
    assert _rejected(text) == {0}


def test_downstream_follows_values_and_subgraph_reads() -> None:
    text = _text(
        "   s = Relu (x)\n   t = Neg (s)\n   u = Neg (x)\n"
        "   c = Constant <value = bool {1}> ()\n"
        "   y = If (c) <then_branch = t1 () => (float[2, 2] a) { a = Neg (t) }, else_branch = e1 () => "
        "(float[2, 2] b) { b = Neg (u) }>\n"
        "   z = Neg (u)\n"
    )
    graph = parse_model(text).graph
    assert downstream(graph, {0}) == {0, 1, 4}
    assert downstream(graph, {2}) == {2, 4, 5}
    assert downstream(graph, ()) == frozenset()


def test_the_evaluator_runs_what_does_not_depend_on_a_skipped_node() -> None:
    text = _text("   s = Softmax <axis = 1.5> (x)\n   y = Relu (s)\n   z = Neg (x)\n")
    evaluator = Evaluator(parse_model(text), skip={0})
    assert evaluator.skipped == {0, 1}
    assert evaluator.output_names == ["z"]
    seen: list[str] = []
    evaluator.run(None, {"x": np.ones((2, 2), np.float32)}, trace=lambda name, index, value: seen.append(name))
    assert seen == ["z"]


@pytest.mark.parametrize(
    "attribute, shown",
    [("axis = 1.5", "with axis = 1.5"), ('axis = "last"', 'with axis = "last"')],
)
def test_a_kernel_failure_is_phrased_as_a_diagnostic(attribute: str, shown: str) -> None:
    """Run without the checker's say, a failing kernel reads like every other diagnostic."""
    text = _text(f"   y = Softmax <{attribute}> (x)\n   z = Neg (x)\n")
    with pytest.raises(EvaluationError) as caught:
        Evaluator(parse_model(text)).run(None, {"x": np.ones((2, 2), np.float32)})
    message = caught.value.record.message
    assert message.startswith(f"Softmax cannot be computed on float32[2, 2] {shown}: expected"), message
    assert "Error" not in message and "object" not in message and "instances" not in message
    assert caught.value.record.cause == "TypeError"


@pytest.mark.parametrize(
    "statement", ["s = Softmax <axis = 1.5> (x)", 's = Softmax <axis = "last"> (x)', "s = MatMull (x, x)"]
)
def test_one_diagnostic_on_the_line_of_a_rejected_node(statement: str) -> None:
    """The editor's stages (parse, check, then the live run) give one diagnostic on that line,
    and the run still computes what does not depend on it."""
    from onnxtext.host.analyse import Settings, diagnose, evaluate

    text = _text(f"   {statement}\n   y = Relu (s)\n   z = Neg (x)\n")
    settings = Settings()
    outcome = diagnose(text, "<t>", settings)
    live, runtime = evaluate(outcome, settings, None, live=True)
    found = [(d.code, d.span.start.line) for d in outcome.diagnostics + runtime if d.span is not None]
    assert [line for _, line in found] == [4], found
    assert live is not None and live.failure is None and live.skipped is None
    assert [v.name for v in live.values] == ["z"]
