"""``evaluate.live.value_stats``: a live value's one-line summary and full statistics from one reading,
the summary as ``evaluate.summary.stats`` says it."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from onnxtext.evaluate.live import value_stats
from onnxtext.evaluate.summary import stats
from onnxtext.weights.statistics import statistics


@pytest.mark.parametrize(
    "value",
    [
        np.random.default_rng(0).standard_normal((3, 7)).astype(np.float32),
        np.arange(-5, 20, dtype=np.int64).reshape(5, 5),
        np.array([True, False, True]),
        np.random.default_rng(1).standard_normal(100).astype(ml_dtypes.bfloat16),
        np.arange(-8, 8).astype(ml_dtypes.int4),
        np.float32(2.5),
    ],
    ids=["float32", "int64", "bool", "bfloat16", "int4", "scalar"],
)
def test_numbers_have_the_summary_and_the_statistics(value: np.ndarray) -> None:
    line, full = value_stats(value)
    expected = stats(value)
    assert (line.dtype, line.shape) == (expected.dtype, expected.shape)
    assert (line.min, line.max) == (expected.min, expected.max)
    assert line.mean == pytest.approx(expected.mean, rel=1e-12)
    assert line.text() == expected.text()
    assert full == statistics(np.asarray(value))
    assert full is not None and full.histogram is not None


def test_non_finite_values_keep_their_summary() -> None:
    value = np.array([1.0, np.nan, np.inf], dtype=np.float32)
    line, full = value_stats(value)
    assert line.text() == stats(value).text() == "float32[3] min=nan max=nan mean=nan"
    assert full is not None and (full.nonfinite, full.min, full.max) == (2, 1.0, 1.0)


@pytest.mark.parametrize("value", [None, [np.zeros(2)], {"a": np.zeros(2)}, np.array(["a", "b"]), np.zeros((0, 3))])
def test_other_values_have_their_summary(value: object) -> None:
    line, full = value_stats(value)
    assert line == stats(value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        assert full is not None and full.count == 0
    else:
        assert full is None
