"""run's memory budget: nodes sized from their inputs' values fail, located, before they allocate."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from onnxtext.api import parse_model
from onnxtext.cli.app import main
from onnxtext.evaluate import EvaluationError, Evaluator
from onnxtext.evaluate.budget import format_bytes, parse_size

H = '<ir_version: 8, opset_import: ["" : 18]>\n'
BIG = 10**12

CASES = {
    "ConstantOfShape": f"g () => (float[?] y) {{ s = Constant <value = int64[1] {{{BIG}}}> () "
    "y = ConstantOfShape (s) }",
    "Expand": f"g (float[2] x) => (float[?, 2] y) {{ s = Constant <value = int64[2] {{{BIG}, 2}}> () y = Expand (x, "
    f"s) }}",
    "Tile": f"g (float[2] x) => (float[?] y) {{ r = Constant <value = int64[1] {{{BIG}}}> () y = Tile (x, r) }}",
    "Range": f"g () => (int64[?] y) {{ a = Constant <value = int64 {{0}}> () b = Constant <value = int64 {{{BIG}}}> "
    f"() d = Constant <value = int64 {{1}}> () y = Range (a, b, d) }}",
    "Add": "g (float[1000000, 1] a, float[1, 1000000] b) => (float[?, ?] y) { y = Add (a, b) }",
    "OneHot": f"g (int64[4] i) => (float[?, ?] y) {{ d = Constant <value = int64 {{{BIG}}}> () v = Constant <value = "
    f"float[2] {{0, 1}}> () y = OneHot (i, d, v) }}",
    "Loop": f"""g () => (int64[?, 1000] s) {{
  n = Constant <value = int64 {{{BIG}}}> ()
  c = Constant <value = bool {{1}}> ()
  s = Loop (n, c) <body = body (int64 i, bool cin) => (bool cout, int64[1000] si) {{
     cout = Identity (cin)
     r = Constant <value = int64[1] {{1000}}> ()
     si = Expand (i, r)
  }}>
}}""",
}

FEEDS = {
    "Expand": {"x": np.zeros(2, np.float32)},
    "Tile": {"x": np.zeros(2, np.float32)},
    "Add": {"a": np.zeros((1000000, 1), np.float32), "b": np.zeros((1, 1000000), np.float32)},
    "OneHot": {"i": np.zeros(4, np.int64)},
}


@pytest.mark.parametrize("op", sorted(CASES))
def test_refused_before_allocating(op: str) -> None:
    ev = Evaluator(parse_model(H + CASES[op]), max_memory=1 << 30)
    with pytest.raises(EvaluationError) as caught:
        ev.run(None, FEEDS.get(op, {}))
    record = caught.value.record
    assert record.op_type == op
    assert "beyond the memory budget of 1 GB" in record.message


def test_within_budget_runs() -> None:
    ev = Evaluator(
        parse_model(H + "g () => (float[?] y) { s = Constant <value = int64[1] {1000}> () y = ConstantOfShape (s) }"),
        max_memory=1 << 20,
    )
    (y,) = ev.run(None, {})
    assert y.shape == (1000,)
    small_loop = CASES["Loop"].replace(str(BIG), "3")
    (s,) = Evaluator(parse_model(H + small_loop), max_memory=1 << 20).run(None, {})
    assert s.shape == (3, 1000)


def test_cli_located_and_configurable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "big.onnxtxt"
    model.write_text(
        H
        + "g () => (float[?] y) {\n  s = Constant <value = int64[1] {1000000000000}> ()\n  y = ConstantOfShape (s)\n}\n"
    )
    assert main(["run", str(model), "--max-memory", "2G"]) == 1
    err = capsys.readouterr().err
    assert (
        f"{model}:4:3: error[R002]: ConstantOfShape: its output would take 3.64 TB, beyond the memory budget of 2 GB"
        in err
    )
    assert "help: give more with --max-memory SIZE" in err
    assert main(["run", str(model)]) == 1  # the default budget: half the physical memory
    assert "beyond the memory budget" in capsys.readouterr().err
    assert main(["run", str(model), "--max-memory", "lots"]) == 2
    assert "onnxtext run: error: argument --max-memory" in capsys.readouterr().err


def test_sizes() -> None:
    assert [parse_size(t) for t in ("4G", "512M", "1.5GiB", "100000", "2kb")] == [
        4 << 30,
        512 << 20,
        3 << 29,
        100000,
        2048,
    ]
    assert [format_bytes(n) for n in (10, 2048, 3 << 30)] == ["10 bytes", "2 KB", "3 GB"]
    with pytest.raises(ValueError, match="expected a size"):
        parse_size("12 parsecs")
