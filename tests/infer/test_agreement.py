"""Agreement of our inference with ``onnx.shape_inference`` over the whole backend suite (see bench/bench_infer.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("onnx")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_infer import measure, report  # noqa: E402
from corpus.backend import all_model_paths  # noqa: E402

BEST = Path(__file__).with_name("agreement_best.txt")


def test_agreement_with_onnx_does_not_regress() -> None:
    agreement = measure(all_model_paths())
    print(report(agreement))
    best = float(BEST.read_text().split()[0])
    assert agreement.share >= best, report(agreement)
    # where onnx gives up on a rank or size we infer, we are more precise, not wrong; every
    # other difference is listed by the report (the operator producing the value, an example)
    assert agreement.share_or_more_precise >= 0.995, report(agreement)
