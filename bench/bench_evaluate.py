"""Time our evaluator on the ONNX backend node suite against onnx.reference and onnxruntime.

    python bench/bench_evaluate.py [--repeat 3] [-k substring]

Every case is loaded once; then each runtime builds a session from the model bytes
and runs every data set. Reported: cases each runtime got right, and total
build + run time over the cases all three ran (so the ratios compare like with like).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "evaluate"))

import backend_cases  # noqa: E402


def _ours(model_bytes: bytes, feeds: list[dict[str, Any]]) -> list[list[Any]]:
    from onnxtext.evaluate import Evaluator

    ev = Evaluator(model_bytes)
    return [ev.run(None, f) for f in feeds]


def _reference(model_bytes: bytes, feeds: list[dict[str, Any]]) -> list[list[Any]]:
    import onnx
    from onnx.reference import ReferenceEvaluator

    ev = ReferenceEvaluator(onnx.load_from_string(model_bytes))
    return [ev.run(None, f) for f in feeds]


def _ort(model_bytes: bytes, feeds: list[dict[str, Any]]) -> list[list[Any]]:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.log_severity_level = 4
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(model_bytes, opts, providers=["CPUExecutionProvider"])
    return [sess.run(None, f) for f in feeds]


def _onnx_feeds(model: Any, ins: list[Any]) -> dict[str, Any]:
    from onnx import numpy_helper

    out = {}
    for j, m in enumerate(ins):
        kind = type(m).__name__
        name = model.graph.input[j].name
        if kind == "TensorProto":
            out[name] = numpy_helper.to_array(m)
        elif kind == "SequenceProto":
            out[name] = numpy_helper.to_list(m)
        elif kind == "OptionalProto":
            out[name] = numpy_helper.to_optional(m)
        else:
            out[name] = numpy_helper.to_dict(m)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1, help="best of N timings per case and runtime")
    ap.add_argument("-k", default="")
    args = ap.parse_args()
    names = [n for n in backend_cases.case_names() if args.k in n]
    runtimes: dict[str, Callable[[bytes, list[dict[str, Any]]], Any]] = {
        "onnxtext": _ours, "onnx.reference": _reference, "onnxruntime": _ort}
    times: dict[str, dict[str, float]] = {k: {} for k in runtimes}
    ok: dict[str, set[str]] = {k: set() for k in runtimes}
    warnings.simplefilter("ignore")
    for name in names:
        mb, sets, rtol, atol, model = backend_cases.load_case(name)
        our_feeds = [backend_cases.feeds_for(model, ins) for ins, _ in sets]
        try:
            onnx_feeds = [_onnx_feeds(model, ins) for ins, _ in sets]
        except Exception:  # noqa: BLE001 - some inputs have no onnx numpy form; skip them for the others
            onnx_feeds = None
        for rt, fn in runtimes.items():
            feeds = our_feeds if rt == "onnxtext" else onnx_feeds
            if feeds is None:
                continue
            best = float("inf")
            try:
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    with np.errstate(all="ignore"):
                        fn(mb, feeds)
                    best = min(best, time.perf_counter() - t0)
            except Exception:  # noqa: BLE001 - a runtime failing a case is data, not an error
                continue
            times[rt][name] = best
            ok[rt].add(name)
    common = set.intersection(*ok.values())
    print(f"cases: {len(names)}; ran without error: " + ", ".join(f"{k} {len(v)}" for k, v in ok.items()))
    print(f"cases all three ran: {len(common)}")
    base = sum(times["onnxtext"][n] for n in common)
    for rt in runtimes:
        tot = sum(times[rt][n] for n in common)
        print(f"  {rt:15s} {tot:8.3f} s   ratio onnxtext/{rt} = {base / tot if tot else float('nan'):.2f}")
    slow = sorted(common, key=lambda n: -times["onnxtext"][n])[:8]
    print("slowest for onnxtext:", ", ".join(f"{n} {times['onnxtext'][n] * 1000:.1f}ms "
                                            f"(ref {times['onnx.reference'][n] * 1000:.1f}ms)" for n in slow))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
