"""Live runs: values of every node, failures located, budgets enforced in a child process."""

from __future__ import annotations

from corpus.live_models import RUNAWAY_LOOP

import onnxtext
from onnxtext.evaluate.live import Budget, run_live
from onnxtext.io import model_bytes

HEAD = '<ir_version: 8, opset_import: ["" : 18]>\n'


def _bytes(text: str) -> bytes:
    return model_bytes(onnxtext.parse_model(HEAD + text))


def test_values_of_every_node_and_the_outputs() -> None:
    result = run_live(_bytes("g (float[N, 3] x) => (float[N, 3] y) {\n a = Abs (x)\n y = Neg (a)\n}"))
    assert result.failure is None and result.skipped is None
    assert result.sizes == {"N": 2}
    assert [(v.name, v.node, v.stats.dtype, v.stats.shape) for v in result.values] == [
        ("a", 0, "float32", (2, 3)),
        ("y", 1, "float32", (2, 3)),
    ]
    a, y = result.values
    assert a.stats.min is not None and a.stats.min >= 0 and y.stats.max is not None and y.stats.max <= 0
    assert [v.name for v in result.outputs] == ["y"]


def test_a_failing_node_is_reported_with_its_index() -> None:
    text = "g (float[N, 3] x, float[4, 5] w) => (float[N, 5] y) {\n a = Abs (x)\n y = MatMul (a, w)\n}"
    result = run_live(_bytes(text))
    assert result.failure is not None
    assert result.failure.node_index == 1 and str(result.failure.path) == "graph/node[1]"
    assert [v.name for v in result.values] == ["a"]


def test_time_budget_stops_a_runaway_loop() -> None:
    text = RUNAWAY_LOOP
    result = run_live(_bytes(text), budget=Budget(seconds=2.0))
    assert result.skipped is not None and "longer than 2 s" in result.skipped


def test_memory_budget() -> None:
    text = (
        "g (float[1] x) => (float[100000, 100000] y) {\n"
        " s = Constant <value = int64[2] {100000, 100000}> ()\n"
        " y = Expand (x, s)\n"
        "}"
    )
    result = run_live(_bytes(text), budget=Budget(seconds=20.0, memory_mb=512))
    assert result.skipped == "the evaluation needs more than 512 MB"


def test_weights_budget_skips_without_running() -> None:
    big = "float[300000] w = {" + ", ".join(["1"] * 300000) + "}"
    text = f"g (float[300000] x) => (float[300000] y) <{big}> {{\n y = Add (x, w)\n}}"
    result = run_live(_bytes(text), budget=Budget(weights_mb=1))
    assert result.skipped is not None and "exceed" in result.skipped and not result.values


def test_inputs_that_cannot_be_made_up() -> None:
    result = run_live(_bytes("g (x) => (y) {\n y = Identity (x)\n}"))
    assert result.skipped is not None and "'x'" in result.skipped


def test_cancel_stops_the_child_early() -> None:
    import threading
    import time

    text = RUNAWAY_LOOP
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    start = time.monotonic()
    result = run_live(_bytes(text), budget=Budget(seconds=60.0), cancel=cancel)
    assert result.skipped == "cancelled: the text changed"
    assert time.monotonic() - start < 30  # far below the 60 s budget


def test_given_inputs_are_used_and_files_are_relative_to_the_model(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    np.save(tmp_path / "w.npy", np.full((4, 5), 2.0, np.float32))
    text = "g (float[N, 4] x, float[4, 5] w) => (float[N, 5] y) {\n y = MatMul (x, w)\n}"
    result = run_live(_bytes(text), model_dir=str(tmp_path), inputs={"x": "[[1, 1, 1, 1]]", "w": "w.npy"})
    assert result.failure is None and result.skipped is None
    (y,) = result.values
    assert y.stats.shape == (1, 5) and y.stats.min == y.stats.max == 8.0


def test_a_given_input_that_the_model_lacks_is_named() -> None:
    result = run_live(_bytes("g (float[2] x) => (float[2] y) {\n y = Neg (x)\n}"), inputs={"xx": "[1, 2]"})
    assert result.skipped == "the model has no input named 'xx'; did you mean 'x'?"


def test_values_of_subgraphs_and_function_bodies_with_their_paths() -> None:
    text = (
        '<ir_version: 8, opset_import: ["" : 18, "local" : 1]>\n'
        "g (float[2] x) => (float[2] y) {\n"
        " n = Constant <value_int = 3> ()\n"
        " c = Constant <value = bool {1}> ()\n"
        " s = Loop (n, c, x) <body = body (int64 i, bool ci, float[2] v) => (bool co, float[2] w) {\n"
        "   co = Identity (ci)\n   w = Neg (v)\n }>\n"
        " y = local.twice (s)\n"
        "}\n"
        '<domain: "local", opset_import: ["" : 18]>\ntwice (p) => (q) {\n q = Add (p, p)\n}\n'
    )
    result = run_live(model_bytes(onnxtext.parse_model(text)))
    assert result.failure is None and result.skipped is None
    found = {(v.graph, v.name): v.runs for v in result.values}
    assert found[("graph", "s")] == 1
    assert found[("graph/node[2]/attribute[0]/g", "w")] == 3  # the loop body ran three times
    assert found[("functions[0]", "q")] == 1


def test_a_crash_in_the_child_is_said_as_such_not_as_memory() -> None:
    """An exception the evaluator does not expect (a bug) used to kill the child without a word,
    which was read as the memory budget exceeded."""
    import operator

    from onnxtext.evaluate.live import run_budgeted

    found, why = run_budgeted(operator.truediv, (1, 0), budget=Budget(seconds=20.0))
    assert found is None and why is not None
    assert why.startswith("the evaluation failed: ZeroDivisionError: division by zero") and "MB" not in why


def test_live_values_of_a_slice_to_int64_max() -> None:
    """torch's Slice "to the end" (int64's maximum): its statistics divided by zero in the child."""
    text = (
        "g (float[N, 3] x) => (float[N, 2] y) {\n"
        " e = Constant <value = int64[1] {9223372036854775807}> ()\n"
        " b = Constant <value = int64[1] {1}> ()\n"
        " y = Slice (x, b, e, b, b)\n"
        "}"
    )
    result = run_live(_bytes(text))
    assert result.failure is None and result.skipped is None
    assert [(v.name, v.stats.shape) for v in result.values] == [("e", (1,)), ("b", (1,)), ("y", (2, 2))]
    e = result.values[0].statistics
    assert e is not None and e.max == float(2**63 - 1) and e.histogram is not None
