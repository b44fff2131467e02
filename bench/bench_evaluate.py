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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "evaluate"))

import backend_cases  # noqa: E402


def _ours(model_bytes: bytes, feeds: list[dict[str, Any]]) -> list[list[Any]]:
    from onnxtext.evaluate import Evaluator
    from onnxtext.io import load_bytes

    ev = Evaluator(load_bytes(model_bytes))
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


# -- two real-size networks ------------------------------------------------------------------


def _cnn() -> tuple[Any, dict[str, np.ndarray]]:
    """A small VGG-style image classifier: 3 conv blocks, global pool, dense, softmax."""
    from onnx import TensorProto, helper, numpy_helper

    r = np.random.default_rng(0)
    inits, nodes = [], []

    def init(name: str, arr: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(arr.astype(np.float32), name))
        return name

    x = "x"
    chans = [3, 32, 64, 128]
    for i in range(3):
        cin, cout = chans[i], chans[i + 1]
        w = init(f"w{i}", r.standard_normal((cout, cin, 3, 3)) * 0.1)
        b = init(f"b{i}", r.standard_normal(cout) * 0.1)
        nodes.append(helper.make_node("Conv", [x, w, b], [f"c{i}"], pads=[1, 1, 1, 1]))
        bn = [
            init(f"bn{i}_{k}", v)
            for k, v in (
                ("s", np.ones(cout)),
                ("b", np.zeros(cout)),
                ("m", r.standard_normal(cout) * 0.1),
                ("v", np.ones(cout)),
            )
        ]
        nodes.append(helper.make_node("BatchNormalization", [f"c{i}"] + bn, [f"n{i}"]))
        nodes.append(helper.make_node("Relu", [f"n{i}"], [f"r{i}"]))
        nodes.append(helper.make_node("MaxPool", [f"r{i}"], [f"p{i}"], kernel_shape=[2, 2], strides=[2, 2]))
        x = f"p{i}"
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["g"]))
    nodes.append(helper.make_node("Flatten", ["g"], ["f"]))
    nodes.append(
        helper.make_node(
            "Gemm",
            ["f", init("wd", r.standard_normal((10, 128)) * 0.1), init("bd", np.zeros(10))],
            ["logits"],
            transB=1,
        )
    )
    nodes.append(helper.make_node("Softmax", ["logits"], ["y"], axis=-1))
    g = helper.make_graph(
        nodes,
        "cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 3, 64, 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, 10])],
        initializer=inits,
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    return model, {"x": r.standard_normal((8, 3, 64, 64)).astype(np.float32)}


def _transformer() -> tuple[Any, dict[str, np.ndarray]]:
    """Two pre-norm transformer encoder layers (d=256, 8 heads, ff=1024) on a [4, 128, 256] batch."""
    from onnx import TensorProto, helper, numpy_helper

    r = np.random.default_rng(1)
    b_, s_, d, h, ff = 4, 128, 256, 8, 1024
    inits, nodes = [], []

    def init(name: str, arr: np.ndarray, dtype: Any = np.float32) -> str:
        inits.append(numpy_helper.from_array(np.asarray(arr).astype(dtype), name))
        return name

    split_shape = init("split_shape", [b_, s_, h, d // h], np.int64)
    merge_shape = init("merge_shape", [b_, s_, d], np.int64)
    x = "x"
    for li in range(2):
        p = f"l{li}_"
        nodes.append(
            helper.make_node(
                "LayerNormalization", [x, init(p + "g1", np.ones(d)), init(p + "b1", np.zeros(d))], [p + "ln1"], axis=-1
            )
        )
        heads = []
        for k in "qkv":
            nodes.append(
                helper.make_node("MatMul", [p + "ln1", init(p + "w" + k, r.standard_normal((d, d)) / 16)], [p + k])
            )
            nodes.append(helper.make_node("Reshape", [p + k, split_shape], [p + k + "4"]))
            perm = [0, 2, 3, 1] if k == "k" else [0, 2, 1, 3]
            nodes.append(helper.make_node("Transpose", [p + k + "4"], [p + k + "h"], perm=perm))
            heads.append(p + k + "h")
        nodes.append(helper.make_node("MatMul", [heads[0], heads[1]], [p + "qk"]))
        nodes.append(helper.make_node("Mul", [p + "qk", init(p + "scale", np.array(1 / np.sqrt(d // h)))], [p + "qks"]))
        nodes.append(helper.make_node("Softmax", [p + "qks"], [p + "att"], axis=-1))
        nodes.append(helper.make_node("MatMul", [p + "att", heads[2]], [p + "ctx"]))
        nodes.append(helper.make_node("Transpose", [p + "ctx"], [p + "ctxt"], perm=[0, 2, 1, 3]))
        nodes.append(helper.make_node("Reshape", [p + "ctxt", merge_shape], [p + "ctx3"]))
        nodes.append(
            helper.make_node("MatMul", [p + "ctx3", init(p + "wo", r.standard_normal((d, d)) / 16)], [p + "o"])
        )
        nodes.append(helper.make_node("Add", [x, p + "o"], [p + "res1"]))
        nodes.append(
            helper.make_node(
                "LayerNormalization",
                [p + "res1", init(p + "g2", np.ones(d)), init(p + "b2", np.zeros(d))],
                [p + "ln2"],
                axis=-1,
            )
        )
        nodes.append(
            helper.make_node("MatMul", [p + "ln2", init(p + "w1", r.standard_normal((d, ff)) / 16)], [p + "f1"])
        )
        nodes.append(helper.make_node("Gelu", [p + "f1"], [p + "gelu"]))
        nodes.append(
            helper.make_node("MatMul", [p + "gelu", init(p + "w2", r.standard_normal((ff, d)) / 32)], [p + "f2"])
        )
        nodes.append(helper.make_node("Add", [p + "res1", p + "f2"], [p + "out"]))
        x = p + "out"
    nodes.append(helper.make_node("Identity", [x], ["y"]))
    g = helper.make_graph(
        nodes,
        "transformer",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [b_, s_, d])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [b_, s_, d])],
        initializer=inits,
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    return model, {"x": r.standard_normal((b_, s_, d)).astype(np.float32)}


def bench_networks(repeat: int) -> None:
    import onnxruntime as ort
    from onnx.reference import ReferenceEvaluator

    from onnxtext.evaluate import Evaluator

    for name, make in (("cnn 8x3x64x64", _cnn), ("transformer 2 layers 4x128x256", _transformer)):
        model, feeds = make()
        mb = model.SerializeToString()
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        sessions = {
            "onnxtext": Evaluator(model),
            "onnx.reference": ReferenceEvaluator(model),
            "onnxruntime": ort.InferenceSession(mb, opts, providers=["CPUExecutionProvider"]),
        }
        outs = {}
        best = {}
        for rt, sess in sessions.items():
            t = float("inf")
            for _ in range(repeat):
                t0 = time.perf_counter()
                outs[rt] = sess.run(None, feeds)[0]
                t = min(t, time.perf_counter() - t0)
            best[rt] = t
        err = float(np.max(np.abs(outs["onnxtext"] - outs["onnxruntime"])))
        print(f"{name}: run time (best of {repeat}, 1 thread for onnxruntime; numpy BLAS threads as configured)")
        for rt in sessions:
            print(f"  {rt:15s} {best[rt] * 1000:9.1f} ms   ratio onnxtext/{rt} = {best['onnxtext'] / best[rt]:.2f}")
        print(f"  max |onnxtext - onnxruntime| = {err:.2e}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1, help="best of N timings per case and runtime")
    ap.add_argument("-k", default="")
    ap.add_argument("--networks-only", action="store_true")
    args = ap.parse_args()
    if args.networks_only:
        bench_networks(max(args.repeat, 3))
        return 0
    names = [n for n in backend_cases.case_names() if args.k in n]
    runtimes: dict[str, Callable[[bytes, list[dict[str, Any]]], Any]] = {
        "onnxtext": _ours,
        "onnx.reference": _reference,
        "onnxruntime": _ort,
    }
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
    print(
        "slowest for onnxtext:",
        ", ".join(
            f"{n} {times['onnxtext'][n] * 1000:.1f}ms (ref {times['onnx.reference'][n] * 1000:.1f}ms)" for n in slow
        ),
    )
    if not args.k:
        bench_networks(max(args.repeat, 3))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
