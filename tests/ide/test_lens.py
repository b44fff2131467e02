"""The live-values code lens: over the main graph's name, saying what a run did."""

from __future__ import annotations

import numpy as np

from onnxtext.document import parse_document
from onnxtext.evaluate.live import Failure, LiveResult, LiveValue
from onnxtext.evaluate.summary import stats
from onnxtext.ide.lens import live_lens, live_lens_title
from onnxtext.ir.paths import ProtoPath

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
main_graph (float[N] x) => (float[N] y) {
   y = Relu (x)
}
"""


def test_the_lens_sits_on_the_graph_name() -> None:
    doc = parse_document(TEXT)
    lens = live_lens(doc, False, None)
    assert lens is not None and TEXT[lens.span.start : lens.span.end] == "main_graph"
    assert lens.title == "▶ Run: show live values"


def test_no_lens_without_a_main_graph() -> None:
    """A text parsed as a lone graph (not a model) has nothing to run from the lens."""
    assert live_lens(parse_document("g (float[N] x) => (float[N] y) { y = Relu (x) }", "graph"), True, None) is None


def test_titles_say_what_the_run_did() -> None:
    assert live_lens_title(True, None) == "■ Live values: running…"
    assert (
        live_lens_title(True, LiveResult(skipped="over the memory budget"))
        == "■ Live values: not run (over the memory budget)"
    )
    ran = LiveResult(values=[LiveValue("y", 0, stats(np.zeros(3, np.float32)))] * 2, sizes={"N": 3, "B": 1})
    assert live_lens_title(True, ran) == "■ Live values: 2 values on made-up inputs (B=1, N=3)"
    assert live_lens_title(True, LiveResult()) == "■ Live values: 0 values on made-up inputs"
    failed = LiveResult(failure=Failure("Relu: bad input", 0, ProtoPath(), None))
    assert live_lens_title(True, failed) == "■ Live values: failed on made-up inputs: Relu: bad input"


def test_the_lens_title_follows_the_toggle() -> None:
    doc = parse_document(TEXT)
    on, off = live_lens(doc, True, LiveResult()), live_lens(doc, False, LiveResult())
    assert on is not None and off is not None and on.span == off.span
    assert on.title.startswith("■") and off.title.startswith("▶")
