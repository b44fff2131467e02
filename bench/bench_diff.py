"""The structural diff (``onnxtext diff A B``) of a 30,000-node model against a renamed and
slightly changed copy.

Usage: python bench/bench_diff.py [--nodes 30000] [--repeat 3] [--keep DIR] [--src SRC]

Builds (in a temporary folder) a model of residual blocks (MatMul, Add, Relu, Mul, Add, each
block's own 16x16 weight and bias: 10 nodes a block) and a copy as a re-export makes it: every
value, node and weight renamed (``val_N`` numbering), the nodes of each block in another
independent order, and four changes (an attribute-free operator replaced, a node inserted, one
weight element perturbed, one input rewired). Then:

- ``match``: :func:`onnxtext.compare.structural.diff_structural` in this process on the loaded
  models (best of ``--repeat``), and the time of the match alone;
- ``cli``: ``python -m onnxtext diff A B`` in a fresh interpreter (loading, matching, printing),
  best of ``--repeat`` wall times.

Goal (#33): the command within 2 s. The diff is checked to report exactly the four changes and
the renamings. ``--src`` runs the onnxtext of another checkout.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(nodes: int, seed: int = 0) -> tuple[object, object]:
    """(A, B) as described above."""
    import numpy as np

    from onnxtext.proto import ModelProto, TensorProto

    rng = np.random.default_rng(seed)
    a = ModelProto(ir_version=9)
    a.opset_import.add(domain="", version=18)
    g = a.graph
    g.name = "main"
    x = g.input.add(name="x")
    x.type.tensor_type.elem_type = TensorProto.FLOAT
    for d in (2, 16):
        x.type.tensor_type.shape.dim.add(dim_value=d)
    scale = g.initializer.add(name="scale", data_type=TensorProto.FLOAT, dims=[1])
    scale.raw_data = np.array([0.5], dtype="<f4").tobytes()
    prev = "x"
    blocks = nodes // 10
    for k in range(blocks):
        w = g.initializer.add(name=f"w{k}", data_type=TensorProto.FLOAT, dims=[16, 16])
        w.raw_data = (rng.standard_normal((16, 16)) * 0.1).astype("<f4").tobytes()
        b = g.initializer.add(name=f"b{k}", data_type=TensorProto.FLOAT, dims=[16])
        b.raw_data = rng.standard_normal(16).astype("<f4").tobytes()
        p = f"l{k}_"
        steps = [
            ("MatMul", [prev, f"w{k}"], p + "mm"),
            ("Add", [p + "mm", f"b{k}"], p + "lin"),
            ("Relu", [p + "lin"], p + "act"),
            ("Mul", [p + "act", "scale"], p + "half"),
            ("Sigmoid", [p + "lin"], p + "gate"),
            ("Mul", [p + "half", p + "gate"], p + "gated"),
            ("Tanh", [p + "gated"], p + "t"),
            ("Neg", [p + "t"], p + "n"),
            ("Sub", [p + "t", p + "n"], p + "d"),
            ("Add", [prev, p + "d"], p + "out"),
        ]
        for op, ins, out in steps:
            g.node.add(op_type=op, input=ins, output=[out], name=f"/layer{k}/{op}_{out[len(p) :]}")
        prev = p + "out"
    y = g.output.add(name=prev)
    y.type.tensor_type.elem_type = TensorProto.FLOAT
    b_model = ModelProto()
    b_model.CopyFrom(a)
    gb = b_model.graph
    # the changes, before the renaming: an operator, an inserted node, a weight element, a wiring
    mid = blocks // 2
    node = next(n for n in gb.node if n.output[0] == f"l{mid}_act")
    node.op_type = "LeakyRelu"
    at = next(i for i, n in enumerate(gb.node) if n.output[0] == f"l{mid + 1}_t")
    gb.node.insert(at + 1, _node("Abs", [f"l{mid + 1}_t"], f"l{mid + 1}_abs"))
    next(n for n in gb.node if n.output[0] == f"l{mid + 1}_n").input[0] = f"l{mid + 1}_abs"
    w = next(t for t in gb.initializer if t.name == f"w{mid + 2}")
    arr = np.frombuffer(w.raw_data, dtype="<f4").copy()
    arr[5] += 1.0
    w.raw_data = arr.tobytes()
    next(n for n in gb.node if n.output[0] == f"l{mid + 3}_gated").input[1] = f"l{mid + 3}_lin"
    _rename_and_shuffle(b_model, random.Random(seed))
    return a, b_model


def _node(op: str, ins: list[str], out: str) -> object:
    from onnxtext.proto import NodeProto

    return NodeProto(op_type=op, input=ins, output=[out], name=f"/{op}_{out}")


def _rename_and_shuffle(model: object, rng: random.Random) -> None:
    """Every name as a re-export numbers it (``val_N`` in a random order), each block's nodes in
    another order that keeps every producer before its readers."""
    g = model.graph  # type: ignore[attr-defined]
    names: dict[str, str] = {}
    pool = list(range(10 * len(g.node) + len(g.initializer) + 10))
    rng.shuffle(pool)

    def new(name: str) -> str:
        if name not in names:
            names[name] = f"val_{pool[len(names)]}"
        return names[name]

    for v in (*g.input, *g.output):
        v.name = new(v.name)
    for t in g.initializer:
        t.name = new(t.name)
    nodes = list(g.node)
    for n in nodes:
        n.input[:] = [new(x) for x in n.input]
        n.output[:] = [new(x) for x in n.output]
        n.name = "node_" + n.output[0]
    # shuffle within runs of 10: a random topological order of each run
    made = {o: i for i, n in enumerate(nodes) for o in n.output}
    order: list[object] = []
    for start in range(0, len(nodes), 10):
        run = list(range(start, min(start + 10, len(nodes))))
        placed: set[int] = set()
        while run:
            ready = [i for i in run if all(made.get(x, -1) < start or made[x] in placed for x in nodes[i].input)]
            pick = rng.choice(ready)
            run.remove(pick)
            placed.add(pick)
            order.append(nodes[pick])
    del g.node[:]
    g.node.extend(order)  # type: ignore[arg-type]


EXPECTED = (
    "(Relu → LeakyRelu)",
    "+ node",
    "initializer",
    "input 1:",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=30000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="write the models to DIR and keep them")
    parser.add_argument("--src", metavar="SRC", default=str(ROOT / "src"), help="the src folder of the onnxtext to run")
    args = parser.parse_args()
    sys.path.insert(0, args.src)
    from onnxtext._gc import collector_paused, pausing_allowed
    from onnxtext.api import save
    from onnxtext.compare.match import match_graphs
    from onnxtext.compare.structural import diff_structural

    a, b = build(args.nodes)
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_diff-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        pa, pb = folder / "a.onnx", folder / "b.onnx"
        save(a, pa)  # type: ignore[arg-type]
        save(b, pb)  # type: ignore[arg-type]
        print(f"A: {len(a.graph.node)} nodes, B: {len(b.graph.node)} nodes ({pa.stat().st_size >> 10} KiB)")  # type: ignore[attr-defined]
        best_match = best_diff = float("inf")
        result = None
        for _ in range(args.repeat):
            with pausing_allowed():  # as the command line runs it (a library call keeps the collector)
                t0 = time.perf_counter()
                with collector_paused():
                    match_graphs(a.graph, b.graph)  # type: ignore[attr-defined]
                t1 = time.perf_counter()
                result = diff_structural(a, b)  # type: ignore[arg-type]
                t2 = time.perf_counter()
            best_match, best_diff = min(best_match, t1 - t0), min(best_diff, t2 - t1)
        assert result is not None
        lines = [c.text for c in result.changes]
        ok = len(lines) == 5 and all(any(e in line for line in lines) for e in EXPECTED)
        print(f"changes reported: {len(lines)} (renamed: {len(result.renamed)} values)")
        for line in lines:
            print("  " + line[:120])
        print(f"match        {best_match:7.3f} s")
        print(f"diff_structural {best_diff:7.3f} s (match and report)")
        env = {**os.environ, "PYTHONPATH": args.src}
        best_cli = best_cpu = float("inf")
        for _ in range(args.repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "onnxtext", "diff", str(pa), str(pb)], env=env, capture_output=True, text=True
            )
            best_cli = min(best_cli, time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            best_cpu = min(best_cpu, cpu)
            if done.returncode != 1:
                print(done.stderr)
                return 1
        verdict = "met" if best_cli <= 2 else "MISSED"
        print(
            f"onnxtext diff {best_cli:7.3f} s wall, {best_cpu:.3f} s CPU (fresh interpreter)   goal <= 2 s: {verdict}"
        )
        print(f"report as expected: {'yes' if ok else 'NO'}")
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
