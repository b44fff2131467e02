"""Inputs made up from declared types run real models without false failures."""

from __future__ import annotations

import numpy as np
import pytest

import onnxtext
from onnxtext.evaluate import Evaluator
from onnxtext.evaluate.synth import SynthesisError, synthesize


def _graph(text: str):  # type: ignore[no-untyped-def]
    return onnxtext.parse_model(text).graph


def test_symbols_share_one_size_and_types_follow_the_declaration() -> None:
    g = _graph(
        '<ir_version: 8, opset_import: ["" : 18]>\n'
        "g (float[N, 3] x, int64[N] idx, bool c, string[2] s, float16[?] h, bfloat16[N] b) => (float[N, 3] "
        "y) { y = Identity (x) }"
    )
    out = synthesize(g, seed=1)
    f = out.feeds
    assert out.sizes == {"N": 2}
    assert f["x"].shape == (2, 3) and f["x"].dtype == np.float32 and np.all(np.abs(f["x"]) <= 1)
    assert f["idx"].dtype == np.int64 and not f["idx"].any()
    assert f["c"].dtype == np.bool_ and f["c"].shape == ()
    assert list(f["s"]) == ["a", "a"]
    assert f["h"].shape == (1,) and f["h"].dtype == np.float16
    assert f["b"].shape == (2,)


def test_given_sizes_and_values_win() -> None:
    g = _graph(
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[N, M] x, float[M] w) => (float[N, M] y) { y = Add (x, w) }'
    )
    w = np.ones(5, np.float32)
    out = synthesize(g, sizes={"M": 5}, given={"w": w})
    assert out.feeds["x"].shape == (2, 5) and out.feeds["w"] is w


def test_composite_types() -> None:
    g = _graph(
        '<ir_version: 8, opset_import: ["" : 18]>\n'
        "g (seq(float[3]) s, map(string, float[1]) m, optional(int64[2]) o) => (seq(float[3]) t) { t = Identity (s) }"
    )
    f = synthesize(g).feeds
    assert len(f["s"]) == 1 and f["s"][0].shape == (3,)
    assert list(f["m"]) == ["a"] and f["m"]["a"].shape == (1,)
    assert f["o"].shape == (2,)


def test_untyped_or_opaque_inputs_are_refused_with_their_name() -> None:
    with pytest.raises(SynthesisError, match="'x'"):
        synthesize(_graph("g (x) => (y) { y = Identity (x) }"))


def test_initializer_defaults_are_not_overridden() -> None:
    g = _graph(
        '<ir_version: 3, opset_import: ["" : 8]>\ng (float[2] x, float[2] w) => (float[2] y) <float[2] w = '
        "{5, 6}> { y = Add (x, w) }"
    )
    assert set(synthesize(g).feeds) == {"x"}


def test_a_real_model_runs_on_made_up_inputs() -> None:
    model = onnxtext.load("examples/attention.onnxtxt")
    feeds = synthesize(model.graph).feeds
    outputs = Evaluator(model).run(None, feeds)
    assert all(np.all(np.isfinite(o)) for o in outputs if isinstance(o, np.ndarray) and o.dtype.kind == "f")


LOOP = (
    '<ir_version: 8, opset_import: ["" : 18]>\n'
    "g (int64 n, bool go, float[2] v) => (float[2] out) {\n"
    "   out = Loop (n, go, v) <body = b (int64 i, bool c, float[2] x) => (bool c_out, float[2] x_out) {\n"
    "      c_out = Identity (c)\n"
    "      x_out = Neg (x)\n"
    "   }>\n"
    "}\n"
)


def test_a_loop_runs_its_body_on_made_up_inputs() -> None:
    """A trip count of 0 or a false condition skips the body: made up, they are 1 and true."""
    out = synthesize(_graph(LOOP), seed=0)
    assert int(out.feeds["n"]) == 1 and out.feeds["n"].dtype == np.int64
    assert bool(out.feeds["go"]) is True
    model = onnxtext.parse_model(LOOP)
    seen: list[str] = []
    Evaluator(model).run(None, out.feeds, trace_all=lambda graph, name, index, value: seen.append(name))
    assert "x_out" in seen  # the body ran
