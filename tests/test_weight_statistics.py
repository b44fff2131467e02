"""``weights.statistics``: the one statistics function (panel, hover, page, live values, digest)
held to numpy on random arrays of every dtype, with NaN and inf, empty, and in blocks."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from onnxtext.weights.statistics import BINS, Statistics, statistics

_PLAIN = [np.float64, np.float32, np.float16, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64]
_ML = [
    ml_dtypes.bfloat16,
    ml_dtypes.float8_e4m3fn,
    ml_dtypes.float8_e4m3fnuz,
    ml_dtypes.float8_e5m2,
    ml_dtypes.float8_e5m2fnuz,
    ml_dtypes.float8_e8m0fnu,
    ml_dtypes.float4_e2m1fn,
    ml_dtypes.int4,
    ml_dtypes.uint4,
    ml_dtypes.int2,
    ml_dtypes.uint2,
]


def _random(dtype: type, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    info = ml_dtypes.finfo(dtype) if "float" in np.dtype(dtype).name else None
    if np.dtype(dtype).kind in "iu" or (info is None and np.dtype(dtype).kind == "V"):
        limits = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else ml_dtypes.iinfo(dtype)
        hi = min(int(limits.max), 1000)
        lo = max(int(limits.min), -1000)
        return rng.integers(lo, hi + 1, size=size).astype(dtype)
    scale = min(float(info.max) / 4, 50.0) if info is not None else 50.0
    return (rng.standard_normal(size) * scale).astype(dtype)


def _expected(values: np.ndarray) -> tuple[np.ndarray, int]:
    wide = values.astype(np.float64).reshape(-1)
    finite = wide[np.isfinite(wide)]
    return finite, int(wide.size - finite.size)


def _check(found: Statistics | None, values: np.ndarray) -> None:
    assert found is not None
    finite, bad = _expected(values)
    assert (found.count, found.nonfinite) == (values.size, bad)
    if finite.size == 0:
        assert found.min is None and found.histogram is None
        return
    assert found.min == finite.min() and found.max == finite.max()
    assert found.mean == pytest.approx(finite.mean(), rel=1e-12, abs=1e-12)
    assert found.std == pytest.approx(finite.std(), rel=1e-9, abs=1e-12)
    assert found.zeros == finite.size - np.count_nonzero(finite)
    counts, edges = np.histogram(finite, bins=BINS, range=(finite.min(), finite.max()))
    assert found.histogram is not None
    assert list(found.histogram.counts) == counts.tolist()
    assert (found.histogram.lo, found.histogram.hi) == (edges[0], edges[-1])


@pytest.mark.parametrize("dtype", _PLAIN + _ML + [np.bool_], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("size", [1, 7, 1000, 10_007])
def test_every_dtype_as_numpy_says(dtype: type, size: int) -> None:
    values = _random(dtype, size, size) if dtype is not np.bool_ else np.random.default_rng(size).random(size) > 0.5
    _check(statistics(values), values)
    _check(statistics(values, chunk=333), values)  # in blocks: the same counts, the same numbers


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, ml_dtypes.bfloat16, ml_dtypes.float8_e5m2])
def test_nan_and_inf_are_counted_not_used(dtype: type) -> None:
    values = _random(dtype, 5000, 1).astype(np.float32)
    values[::7] = np.nan
    values[3::11] = np.inf
    values[5::13] = -np.inf
    values = values.astype(dtype)
    _check(statistics(values), values)
    _check(statistics(values, chunk=100), values)
    found = statistics(values)
    assert found is not None and found.nonfinite > 700


def test_only_nan_empty_and_constant() -> None:
    assert statistics(np.full((3, 4), np.nan, np.float32)) == Statistics(12, 12)
    assert statistics(np.zeros((0, 5), np.float32)) == Statistics(0)
    assert statistics(np.zeros((0,), ml_dtypes.bfloat16)) == Statistics(0)
    constant = statistics(np.full(10, 2.5, np.float32))
    assert constant is not None and (constant.min, constant.max, constant.std) == (2.5, 2.5, 0.0)
    assert constant.histogram is not None and (constant.histogram.lo, constant.histogram.hi) == (2.0, 3.0)
    _check(constant, np.full(10, 2.5, np.float32))
    assert statistics(np.array([1, 2]), bins=0) == Statistics(2, 0, 1.0, 2.0, 1.5, 0.5, 0, None)


@pytest.mark.parametrize("value", [np.iinfo(np.int64).max, np.iinfo(np.int64).min, np.finfo(np.float32).max, 1e300])
def test_one_value_too_large_for_a_span_of_one(value: float) -> None:
    """torch's Slice "to the end" is int64's maximum, which ± 0.5 leaves as it is: its bars are
    spread as wide as needed (numpy refuses), not a division by zero (the editor's live values
    died on every TorchScript transformer); past float64's range there are none."""
    array = np.array([value] * 3)
    found = statistics(array)
    assert found is not None and found.histogram is not None and found.min == found.max == float(value)
    assert found.histogram.lo < float(value) < found.histogram.hi and sum(found.histogram.counts) == 3
    top = statistics(np.array([np.finfo(np.float64).max]))
    assert top is not None and top.histogram is None and top.max == np.finfo(np.float64).max


def test_no_statistics_of_strings_objects_or_complex() -> None:
    assert statistics(np.array(["a", "b"])) is None
    assert statistics(np.array([b"a"], dtype=object)) is None
    assert statistics(np.array([1 + 2j])) is None


def test_an_infinite_span_has_no_histogram() -> None:
    values = np.array([-1e308, 1e308, 0.0])
    found = statistics(values)
    assert found is not None and found.histogram is None and (found.min, found.max) == (-1e308, 1e308)


def test_a_large_mean_loses_no_digits_of_the_std() -> None:
    """The spread of values far from zero: E[x²] - E[x]² would give 0 or garbage; two passes do not."""
    values = (1e8 + np.random.default_rng(0).standard_normal(100_000)).astype(np.float64)
    found = statistics(values, chunk=4096)
    assert found is not None and found.std == pytest.approx(values.std(), rel=1e-9)


def test_a_memory_map_is_read_in_blocks(tmp_path: Path) -> None:
    values = _random(np.float32, 50_000, 3)
    values[17] = np.nan
    path = tmp_path / "w.bin"
    values.tofile(path)
    mapped = np.memmap(path, dtype=np.float32, mode="r", shape=(250, 200))
    _check(statistics(mapped, chunk=4096), values)


def test_edges_exactly_on_grid_values_count_as_numpy() -> None:
    """float8 values sit on a coarse grid, many exactly on a bar's edge: numpy's corrections hold."""
    grid = np.arange(-48, 49).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    _check(statistics(grid), grid)
    _check(statistics(np.linspace(-1, 1, 25)), np.linspace(-1, 1, 25))
