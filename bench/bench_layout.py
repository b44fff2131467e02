"""The graph view's layout against dagre (Netron's) and ELK layered, on real exports.

Each model (a ResNet-18 through torch's TorchScript exporter, from ``bench/bench_graph.py``;
torch's dynamo and TorchScript exports of a ResNet and a BERT from ``bench/exporter_corpus.py``;
skl2onnx and onnxscript models; and a synthetic 3,000-node graph) is turned into the view's
graph (``ide.graph.graph_json``, as ``onnxtext/graph`` answers) and laid out by
``editors/vscode/bench/layout.ts`` with our layout (``src/graphview/layout.ts``), dagre and
elkjs: the same boxes and spacing for all three. Printed as a table: edge crossings, total
edge length, area, time (Node, this machine).

``python bench/bench_layout.py [--no-elk] [--repeat N] [--nodes N] [--fixtures]`` (times: the
best of N runs, 3 by default); ``--fixtures`` (re)writes the small graphs that ``npm test``
lays out with ``--check`` (ours at most dagre's crossings and length) and that the layout's
parity test reads: ``editors/vscode/test/fixtures/layout/``. Needs node
(``editors/vscode/test/e2e/setup.sh``) and ``npm ci`` there.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VSCODE = ROOT / "editors" / "vscode"
FIXTURES = VSCODE / "test" / "fixtures" / "layout"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

MODELS = (
    "bench_dynamo_resnet",
    "bench_script_resnet",
    "bench_dynamo_hf_bert",
    "bench_script_hf_bert",
    "skl_scaler_svc",
    "skl_tfidf_logreg",
    "onnxscript_local_functions",
    "onnxscript_control_flow",
)
# small real exports (from tests/corpus/exporters.py) for the CI check and the parity test
SMALL = ("torch_dynamo_cnn_bn", "torch_script_cnn_bn", "torch_script_mlp", "skl_scaler_svc", "onnxscript_gelu")


def graph_of_text(text: str) -> dict[str, Any]:
    from onnxtext.document import parse_document
    from onnxtext.ide.graph import graph_json, graph_model

    doc = parse_document(text, "model")
    return graph_json(graph_model(doc), doc.source)


def graph_of_model(path: Path) -> dict[str, Any]:
    from onnxtext.binary import open_binary

    return graph_of_text(open_binary(str(path), text_limit=0).text)


def synthetic(nodes: int, seed: int = 0) -> str:
    """A deep network of ``nodes`` nodes (seeded): chains of ops with a weight per MatMul,
    residual adds a few nodes back and products with values far back (as masks and shapes are)."""
    rng = random.Random(seed)
    body: list[str] = []
    weights: list[str] = []
    made = ["x0"]
    for i in range(1, nodes - len(weights)):
        last = made[-1]
        kind = rng.random()
        if kind < 0.3:
            weights.append(f"float[64, 64] w{i}")
            body.append(f"   x{i} = MatMul ({last}, w{i})")
        elif kind < 0.55 and len(made) > 4:
            body.append(f"   x{i} = Add ({last}, {made[-rng.randint(2, min(12, len(made) - 1))]})")
        elif kind < 0.65 and len(made) > 6:
            body.append(f"   x{i} = Mul ({last}, {made[-rng.randint(3, min(40, len(made) - 1))]})")
        else:
            body.append(f"   x{i} = {rng.choice(['Relu', 'Tanh', 'Sigmoid', 'Neg'])} ({last})")
        made.append(f"x{i}")
    head = f"g (float[N, 64] x0) => (float[N, 64] y) <{', '.join(weights)}> {{"
    return "\n".join(
        ['<ir_version: 10, opset_import: ["": 21]>', head, *body, f"   y = Identity ({made[-1]})", "}", ""]
    )


def node_bin() -> Path:
    out = subprocess.run(["bash", "test/e2e/setup.sh"], cwd=VSCODE, capture_output=True, text=True, check=True)
    return Path(out.stdout.strip().splitlines()[-1])


def run_bench(files: list[Path], elk: bool, repeat: int) -> list[dict[str, Any]]:
    env = dict(os.environ, PATH=f"{node_bin()}{os.pathsep}{os.environ['PATH']}")
    args = ["node", "bench/run.mjs", "--json", f"--repeat={repeat}", *([] if elk else ["--no-elk"]), *map(str, files)]
    out = subprocess.run(args, cwd=VSCODE, env=env, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def table(rows: list[dict[str, Any]]) -> str:
    """One line per graph: each measure as ours / dagre / ELK."""
    engines = list(dict.fromkeys(r["engine"] for r in rows))
    by_graph: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rows:
        by_graph.setdefault(r["graph"], {})[r["engine"]] = r

    def cells(graph: dict[str, dict[str, Any]], key: str, form: str) -> str:
        return " / ".join(format(graph[e][key], form) if e in graph else "-" for e in engines)

    names = " / ".join("ELK" if e == "elk" else e for e in engines)
    out = [
        f"| model | nodes | crossings ({names}) | edge length, px | area, Mpx² | time, ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, graph in by_graph.items():
        mega = {e: {"area": r["area"] / 1e6} for e, r in graph.items()}
        out.append(
            f"| {name} | {graph[engines[0]]['nodes']} | {cells(graph, 'crossings', 'd')} | "
            f"{cells(graph, 'length', ',')} | {cells(mega, 'area', '.1f')} | {cells(graph, 'ms', '.0f')} |"
        )
    return "\n".join(out)


def _write(folder: Path, name: str, graph: dict[str, Any]) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(graph, separators=(",", ":")) + "\n")
    return path


# two torch scopes that feed each other (a module called again after another): with the groups
# open, an edge between them goes against the layers
INTERLEAVED = """<ir_version: 10, opset_import: ["": 21]>
g (float[2] x) => (float[2] y) {
   ["/a/Relu_0"] t0 = Relu (x)
   ["/a/Tanh_0"] u0 = Tanh (t0)
   ["/b/Relu_1"] t1 = Relu (u0)
   ["/b/Neg_1"] u1 = Neg (t1)
   ["/a/Relu_2"] t2 = Relu (u1)
   ["/a/Add_2"] t3 = Add (t2, t0)
   y = Identity (t3)
}
"""


def laid_out(graph: dict[str, Any]) -> dict[str, Any]:
    """The layout of ``graph`` with every group open, as the parity tests compare it: each item's
    box, each edge's route and label box."""
    from onnxtext.ide.graph_layout import layout_view
    from onnxtext.ide.graph_view import build_view, label_text

    view = build_view(graph, {g["id"] for g in graph["groups"]})
    routes = layout_view(view, label_text)
    return {
        "items": {i.id: [i.x, i.y, i.width, i.height] for i in view.items.values()},
        "routes": [r.points for r in routes],
        "labels": [None if r.label is None else [r.label.x, r.label.y, r.label.w, r.label.h] for r in routes],
    }


def write_fixtures() -> list[Path]:
    """The CI graphs (small real exports, the examples and two scopes feeding each other, in the
    view's JSON) and their layout by ``ide/graph_layout.py`` (``expected.json``), which
    ``layout.ts`` must give too."""
    from corpus.exporters import GENERATORS

    FIXTURES.mkdir(parents=True, exist_ok=True)
    out = [_write(FIXTURES, name, graph_of_model(GENERATORS[name].ensure())) for name in SMALL]
    for name in ("attention", "control_flow", "conv_block", "local_function"):
        out.append(
            _write(FIXTURES, f"example_{name}", graph_of_text((ROOT / "examples" / f"{name}.onnxtxt").read_text()))
        )
    out.append(_write(FIXTURES, "interleaved_scopes", graph_of_text(INTERLEAVED)))
    expected = {path.stem: laid_out(json.loads(path.read_text())) for path in out}
    (FIXTURES / "expected").mkdir(exist_ok=True)
    target = FIXTURES / "expected" / "layout.json"
    target.write_text(json.dumps(expected, indent=0, separators=(",", ":")) + "\n")
    return [*out, target]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-elk", action="store_true", help="leave ELK out (slow on the big graph)")
    parser.add_argument("--fixtures", action="store_true", help="rewrite the CI graphs and stop")
    parser.add_argument("--nodes", type=int, default=3000, help="size of the synthetic graph")
    parser.add_argument("--repeat", type=int, default=3, help="runs per engine and graph (the best time is shown)")
    args = parser.parse_args()
    if args.fixtures:
        for path in write_fixtures():
            print(path.relative_to(ROOT))
        return
    import bench_graph
    import exporter_corpus

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = []
        resnet18 = folder / "resnet18.onnx"  # torchvision's ResNet-18 layout (bench_graph.py), TorchScript
        bench_graph.export_resnet18(resnet18)
        files.append(_write(folder, "script_resnet18", graph_of_model(resnet18)))
        for name in MODELS:
            gen = exporter_corpus.GENERATORS[name]
            files.append(_write(folder, name.removeprefix("bench_"), graph_of_model(gen.ensure())))
        files.append(_write(folder, f"synthetic_{args.nodes}", graph_of_text(synthetic(args.nodes))))
        print(table(run_bench(files, not args.no_elk, args.repeat)))


if __name__ == "__main__":
    main()
