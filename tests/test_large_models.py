"""``print --weights external`` and ``parse`` of models whose weights are large: the
weights go file to file and the protobuf without them stays small, so models above
protobuf's 2 GiB limit work.

The > 2 GiB case is slow and needs ~2.3 GB of disk and several GB of memory: it runs only
with ``ONNXTEXT_LARGE_TESTS=1``. The small variant takes the same path on every run.
"""

from __future__ import annotations

import importlib.util
import os
import resource
import time
from pathlib import Path

import pytest

from onnxtext.cli import main
from onnxtext.proto import ModelProto
from onnxtext.weights.external import load_external

_BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_weights.py"
_spec = importlib.util.spec_from_file_location("bench_weights", _BENCH)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

MB = 1 << 20
PROTOBUF_LIMIT = 2 << 30


def _round_trip(tmp: Path, size_mb: int, tensor_mb: int) -> dict[str, float]:
    model_path, nbytes = bench.build_model(tmp, size_mb, tensor_mb)
    assert nbytes == size_mb * MB
    assert model_path.stat().st_size < 64 * 1024  # the weights are outside the protobuf
    t0 = time.perf_counter()
    assert main(["print", str(model_path), "--weights", "external", "-o", str(tmp / "out.onnxtxt")]) == 0
    t_print = time.perf_counter() - t0
    assert (tmp / "out.onnxtxt.data").stat().st_size >= nbytes
    assert (tmp / "out.onnxtxt").stat().st_size < 64 * 1024
    t0 = time.perf_counter()
    assert main(["parse", str(tmp / "out.onnxtxt"), "-o", str(tmp / "back.onnx")]) == 0
    t_parse = time.perf_counter() - t0
    assert (tmp / "back.onnx").stat().st_size < 64 * 1024
    assert bench.verify_round_trip(model_path, tmp / "back.onnx") == nbytes
    return {"print": t_print, "parse": t_parse, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def test_external_round_trip_small(tmp_path: Path) -> None:
    _round_trip(tmp_path, 8, 3)  # tensors of 3, 3 and 2 MB
    back = ModelProto.FromString((tmp_path / "back.onnx").read_bytes())
    orig = ModelProto.FromString((tmp_path / "model.onnx").read_bytes())
    a, b = load_external(orig, tmp_path), load_external(back, tmp_path)  # the weights inlined: equal models
    assert a.SerializeToString(deterministic=True) == b.SerializeToString(deterministic=True)


@pytest.mark.skipif(
    not os.environ.get("ONNXTEXT_LARGE_TESTS"), reason="slow, ~2.3 GB of disk: set ONNXTEXT_LARGE_TESTS=1"
)
def test_external_round_trip_above_protobuf_limit(tmp_path: Path) -> None:
    size_mb = 2304  # 9 tensors of 256 MB: 2.25 GiB, above protobuf's 2 GiB
    assert size_mb * MB > PROTOBUF_LIMIT
    numbers = _round_trip(tmp_path, size_mb, 256)
    print(
        f"\n{size_mb} MB: print --weights external {numbers['print']:.1f} s, parse {numbers['parse']:.2f} s, "
        f"peak RSS {numbers['rss_mb']:.0f} MB"
    )
