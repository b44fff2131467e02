"""Parse and print throughput as ratios to onnx.parser / onnx.printer (C++), measured in the same run.

Usage: python bench/bench_parse_print.py [--nodes 30000] [--inputs 20000] [--floats 1000000] [--repeat 3]

Three texts: node-heavy (a chain of N small nodes, ~50 bytes each), many-inputs (I weights
that are graph inputs too, as IR < 4 lists them, each used by one node) and tensor-heavy
(one initializer with M float values). Reported: best-of-repeat seconds for each
tool and the ratio ours / onnx (lower is better). ``parse`` is ``onnxtext.parse_model``
(the fast path, lowering/direct.py, for texts it knows); ``parse*`` is the reference
path every text can take (``parse_document``: Lark, tree with spans, lowering with the
source map), which the editor uses. Likewise ``print`` is ``to_text`` (the fast path,
printing/emit.py) and ``print*`` the reference path every message can take (``reference_text``:
the whole AST, then the layout), which ``fmt`` uses.

Timed as the command line and the language server run onnxtext: allowed to hold the cyclic
collector while it builds (``onnxtext/_gc.py``); ``--library``: as a call from another program,
which leaves the collector alone.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def node_heavy(n: int) -> str:
    lines = ['<ir_version: 8, opset_import: ["" : 18]>', "chain (float[N, 16] x0) => (float[N, 16] out)", "{"]
    ops = ["Relu", "Neg", "Abs", "Sigmoid", "Tanh"]
    for i in range(n):
        lines.append(f"   [n{i}] x{i + 1} = {ops[i % len(ops)]} <alpha = 0.5, axes = [0, 1]> (x{i})")
    lines.append(f"   out = Identity (x{n})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def many_inputs(n: int) -> str:
    """A graph of ``n`` weights listed as graph inputs too, as models of IR < 4 give them, each added once."""
    inputs = ", ".join(["float[N, 4] x0", *(f"float[4] w{i}" for i in range(n))])
    weights = ", ".join(f"float[4] w{i} = {{0.5, -1, {i}, 0.25}}" for i in range(n))
    lines = [
        '<ir_version: 3, opset_import: ["" : 9]>',
        f"weights ({inputs}) => (float[N, 4] x{n})",
        f"   <{weights}>",
        "{",
    ]
    lines += [f"   x{i + 1} = Add (x{i}, w{i})" for i in range(n)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def tensor_heavy(m: int) -> str:
    rng = np.random.default_rng(0)
    values = rng.standard_normal(m).astype(np.float32)
    body = ", ".join(values.astype(str))
    return (
        '<ir_version: 8, opset_import: ["" : 18]>\n'
        f"weights (float[{m}] x) => (float[{m}] y)\n"
        f"   <float[{m}] w = {{{body}}}>\n"
        "{\n   y = Add (x, w)\n}\n"
    )


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=30000)
    ap.add_argument("--floats", type=int, default=1_000_000)
    ap.add_argument("--inputs", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--library", action="store_true", help="time library calls: the cyclic collector left alone")
    args = ap.parse_args()
    from onnxtext._gc import pausing_allowed

    if args.library:
        return measure(args)
    with pausing_allowed():
        return measure(args)


def measure(args: argparse.Namespace) -> int:

    import onnx.parser
    import onnx.printer

    import onnxtext
    from onnxtext.document import parse_document
    from onnxtext.printing.text import reference_text, to_text
    from onnxtext.proto import to_onnx

    print(f"{'text':<14}{'size':>10}  {'step':<6}{'onnx (s)':>10}{'onnxtext (s)':>14}{'ratio':>8}")
    texts = (
        ("node-heavy", node_heavy(args.nodes)),
        ("many-inputs", many_inputs(args.inputs)),
        ("tensor-heavy", tensor_heavy(args.floats)),
    )
    for label, text in texts:
        ref_model = onnx.parser.parse_model(text)
        ours_model = onnxtext.parse_model(text)
        assert ours_model.SerializeToString(deterministic=True) == ref_model.SerializeToString(deterministic=True)
        t_ref = best(partial(onnx.parser.parse_model, text), args.repeat)
        t_ours = best(partial(onnxtext.parse_model, text), args.repeat)
        size = f"{len(text) / 1e6:.2f} MB"
        print(f"{label:<14}{size:>10}  {'parse':<6}{t_ref:>10.3f}{t_ours:>14.3f}{t_ours / t_ref:>8.1f}")
        t_doc = best(partial(parse_document, text), args.repeat)
        print(f"{label:<14}{size:>10}  {'parse*':<6}{t_ref:>10.3f}{t_doc:>14.3f}{t_doc / t_ref:>8.1f}")
        as_onnx = to_onnx(ours_model)
        p_ref = best(partial(onnx.printer.to_text, as_onnx), args.repeat)
        p_ours = best(partial(to_text, ours_model), args.repeat)
        print(f"{label:<14}{size:>10}  {'print':<6}{p_ref:>10.3f}{p_ours:>14.3f}{p_ours / p_ref:>8.1f}")
        p_full = best(partial(reference_text, ours_model), args.repeat)
        print(f"{label:<14}{size:>10}  {'print*':<6}{p_ref:>10.3f}{p_full:>14.3f}{p_full / p_ref:>8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
