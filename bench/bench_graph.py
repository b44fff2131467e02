"""``onnxtext graph`` on a model with its weights inside the file, against the same model with
its weights in an external-data file (the anchor, measured in the same run).

Usage: python bench/bench_graph.py [--repeat 3] [--formats html,svg,dot] [--keep DIR] [--src SRC]
       python bench/bench_graph.py --view 30000 [--repeat 5] [--src SRC]

Builds (in a temporary folder, with torch: its legacy exporter, ``dynamo=False``) a
ResNet-18-shaped network of plain ``torch.nn`` layers (45 MB of float32 weights, 1,000
classes), once with every weight inside ``inside/resnet18.onnx`` as ``raw_data`` and once
with the tensors above 1 KiB moved to ``external/resnet18.onnx.data``. Then, for each output
format, ``python -m onnxtext graph MODEL -o OUT`` runs in a fresh interpreter on each layout,
best of ``--repeat`` wall times, with the peak RSS of that child (``wait4``'s ``ru_maxrss``).

Reported per format: seconds and peak RSS of each layout, the ratios inside / external, and
the peak RSS over the size of the model file with its weights inside. Goal: within 2x the
time of the external-data layout, peak memory under 2x the file size (#29: 15-18 s and
780 MB when the weights were printed as text). The graphs of both layouts are checked equal.
``--src`` runs the onnxtext of another checkout (its ``src`` folder), to measure before a
change on the same models.

``--view N`` measures instead the language server's part of the editor's Show Graph on a text of
``N`` operators in 30 torch scopes (the real-editor test's 30,000-node text): after the text's
analysis, the graph's build (``graph_model``), the first answer (the folded top level,
``folded_json``, written by orjson as the server writes it) and the whole graph the view asks
for next (``graph_json``), best of ``--repeat``, with their sizes; then the same answers again
from the server's cache of that analysis (``GraphCache``); as in the server, the heap is settled
(``gc.freeze``) and onnxtext may hold the collector where it builds. Goal (#31): Show Graph to the folded
picture in 1 s, of which the server's part is the build and the first answer.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
MB = 1 << 20
EXTERNAL_ABOVE = 1024  # bytes: the tensors moved to the external-data file


def export_resnet18(path: Path) -> None:
    """A ResNet-18-shaped network (torchvision's layout, plain torch.nn) exported to ``path``."""
    try:
        import torch
        from torch import nn
    except ImportError:
        raise SystemExit("bench_graph needs torch (pip install torch) to export its ResNet-18") from None

    class Block(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.downsample = (
                nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                if stride != 1 or cin != cout
                else None
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x)))))
            return self.relu(y + (x if self.downsample is None else self.downsample(x)))

    class ResNet18(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
            self.bn1 = nn.BatchNorm2d(64)
            self.relu = nn.ReLU()
            self.maxpool = nn.MaxPool2d(3, 2, 1)
            layers, cin = [], 64
            for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
                layers.append(nn.Sequential(Block(cin, cout, stride), Block(cout, cout, 1)))
                cin = cout
            self.layer1, self.layer2, self.layer3, self.layer4 = layers
            self.avgpool = nn.AdaptiveAvgPool2d(1)
            self.fc = nn.Linear(512, 1000)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return self.fc(torch.flatten(self.avgpool(x), 1))

    torch.manual_seed(0)
    module = ResNet18().eval()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the legacy exporter's deprecation notice
        torch.onnx.export(module, (torch.randn(1, 3, 224, 224),), str(path), dynamo=False, opset_version=17)


def with_external_data(inside: Path, out: Path) -> None:
    """``out`` (+ ``out.data``): the model at ``inside`` with its tensors above 1 KiB in ``out.data``."""
    from onnxtext.io import load_bytes, model_bytes
    from onnxtext.proto import TensorProto

    model = load_bytes(inside.read_bytes())
    data = out.with_name(out.name + ".data")
    offset = 0
    with open(data, "wb") as f:
        for t in model.graph.initializer:
            if len(t.raw_data) <= EXTERNAL_ABOVE:
                continue
            f.write(t.raw_data)
            length = len(t.raw_data)
            t.ClearField("raw_data")
            t.data_location = TensorProto.EXTERNAL
            for key, value in (("location", data.name), ("offset", str(offset)), ("length", str(length))):
                e = t.external_data.add()
                e.key, e.value = key, value
            offset += length
    out.write_bytes(model_bytes(model))


def build(folder: Path) -> None:
    """The two layouts in ``folder``, made in a child: the peak RSS of a child counts its
    parent's at the fork (torch's hundreds of MB), so this process stays small."""
    script = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); import bench_graph as b; "
        "f = Path(sys.argv[2]); b.export_resnet18(f / 'inside/resnet18.onnx'); "
        "b.with_external_data(f / 'inside/resnet18.onnx', f / 'external/resnet18.onnx')"
    )
    subprocess.run([sys.executable, "-c", script, str(ROOT / "bench"), str(folder)], env=_env(), check=True)


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PYTHONPATH=path)


def graph_command(model: Path, out: Path) -> tuple[float, int]:
    """``python -m onnxtext graph model -o out`` in a fresh interpreter: (seconds, peak RSS in bytes)."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "onnxtext", "graph", str(model), "-o", str(out)], env=_env())
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):  # 1: the model has errors, its graph is still written
        raise SystemExit(f"onnxtext graph {model}: exit status {child.returncode}")
    return seconds, usage.ru_maxrss * 1024  # kilobytes on Linux


def structure(out: Path) -> object:
    """The graph of an HTML page without its text ranges (the two layouts' texts differ)."""
    found = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', out.read_text(), re.S)
    assert found is not None
    graph = json.loads(found.group(1))
    drop = ("range", "place", "storage")  # where a weight's data is differs too

    def bare(value: object) -> object:
        if isinstance(value, dict):
            return {k: bare(v) for k, v in value.items() if k not in drop}
        if isinstance(value, list):
            return [bare(v) for v in value]
        return value

    # the panels of the page are keyed by their statement's place in the text: compared as a set
    panels = sorted(json.dumps(bare(p), sort_keys=True) for p in graph.pop("properties", {}).values())
    return {**{key: bare(graph[key]) for key in graph}, "properties": panels}


def scoped_text(nodes: int, layers: int = 30) -> str:
    """``nodes`` unary operators in a chain, in ``layers`` torch scopes ``/encoder/layer.K`` (as the
    real-editor test's ``bigText(nodes, layers, false)``)."""
    lines = ['<ir_version: 10, opset_import: ["": 21]>', "big (float[1, 16] x0) => (float[1, 16] y) {"]
    ops = ("Relu", "Neg", "Abs", "Sigmoid")
    for i in range(nodes):
        op = ops[i % 4]
        lines.append(f'   ["/encoder/layer.{i * layers // nodes}/{op}_{i}"] x{i + 1} = {op} (x{i})')
    return "\n".join([*lines, f"   y = Identity (x{nodes})", "}", ""])


def view_answers(nodes: int, repeat: int) -> None:
    """The server's part of Show Graph on a text of ``nodes`` operators (see the module's doc)."""
    import gc

    sys.path.insert(0, str(SRC))
    import orjson

    from onnxtext._gc import pausing_allowed
    from onnxtext.analysis.diagnose import diagnose
    from onnxtext.document import parse_document
    from onnxtext.ide.graph import GraphCache, GraphModel, folded_json, graph_json, graph_model

    doc = parse_document(scoped_text(nodes), "model", "big.onnxtxt")
    diagnostics = diagnose(doc)
    graph_model(doc, diagnostics=diagnostics)  # the first use's imports
    gc.collect()
    gc.freeze()  # as the server settles its heap after a whole parse
    best: dict[str, float] = {}
    cpu: dict[str, float] = {}  # the machine is shared: the CPU time of the same runs, steadier than their wall time

    def timed(name: str, work: Callable[[], Any]) -> Any:
        start, used = time.perf_counter(), time.thread_time()
        out = work()
        best[name] = min(best.get(name, float("inf")), time.perf_counter() - start)
        cpu[name] = min(cpu.get(name, float("inf")), time.thread_time() - used)
        return out

    def build() -> GraphModel:
        return graph_model(doc, diagnostics=diagnostics)

    with pausing_allowed():  # as the server runs: the collector held where onnxtext builds
        for _ in range(repeat):
            graph = timed("build", build)
            folded = timed("folded", partial(lambda g: orjson.dumps(folded_json(g, doc.source)), graph))
            whole = timed("whole", partial(lambda g: orjson.dumps(graph_json(g, doc.source)), graph))
            cache = GraphCache()
            shown = partial(lambda c: orjson.dumps(c.answer("uri", doc, 0, build, doc.source, folded=True)), cache)
            timed("first", shown)
            timed("again", shown)
    sizes = {"folded": len(folded), "whole": len(whole)}
    edges = len(graph.edges)
    print(f"{nodes:,} operators in 30 scopes ({len(graph.nodes):,} nodes, {edges:,} edges), best of {repeat}:")
    print(f"  {'':26}{'wall':>9}{'CPU':>9}{'size':>11}")

    def row(name: str, what: str, size: str = "") -> None:
        print(f"  {what:26}{best[name] * 1000:6.1f} ms{cpu[name] * 1000:6.1f} ms{size:>11}")

    row("build", "graph build")
    row("folded", "first answer (folded)", f"{sizes['folded'] / 1024:.1f} kB")
    row("whole", "whole graph (asked next)", f"{sizes['whole'] / MB:.1f} MB")
    row("first", "Show Graph's server part")
    row("again", "shown again (cached)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--view", type=int, metavar="N", help="the server's part of Show Graph on N operators")
    parser.add_argument("--formats", default="html,svg,dot")
    parser.add_argument("--keep", type=Path, help="build and keep the models in this folder")
    parser.add_argument("--src", type=Path, help="the src folder of the onnxtext to run (this checkout's)")
    args = parser.parse_args()
    global SRC
    SRC = (args.src or SRC).resolve()
    if args.view is not None:
        view_answers(args.view, args.repeat)
        return 0
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench_graph_"))
    try:
        (work / "inside").mkdir(parents=True, exist_ok=True)
        (work / "external").mkdir(exist_ok=True)
        inside, external = work / "inside" / "resnet18.onnx", work / "external" / "resnet18.onnx"
        if not inside.exists():
            build(work)
        size = inside.stat().st_size
        print(
            f"resnet18: {size / MB:.1f} MB with its weights inside; {external.stat().st_size / 1024:.0f} KB + "
            f"{external.with_name(external.name + '.data').stat().st_size / MB:.1f} MB with external data"
        )
        graph_command(external, work / "warm.html")  # the parser's table cache, the page cache
        print(f"{'format':7} {'layout':9} {'seconds':>8} {'peak RSS':>9}   inside/external: time, RSS; RSS/file")
        for fmt in args.formats.split(","):
            rows = {}
            for layout, model in (("external", external), ("inside", inside)):
                out = work / f"{layout}.{fmt}"
                runs = [graph_command(model, out) for _ in range(args.repeat)]
                rows[layout] = min(runs)
                dt, rss = rows[layout]
                print(f"{fmt:7} {layout:9} {dt:8.2f} {rss / MB:6.0f} MB", end="", flush=True)
                if layout == "inside":
                    (adt, arss), file = rows["external"], rss / size
                    print(f"   {dt / adt:5.2f}x, {rss / arss:5.2f}x; {file:4.2f}x", end="")
                print()
            if fmt == "html":
                same = structure(work / "external.html") == structure(work / "inside.html")
                print(f"{'':7} the graphs of both layouts are equal: {same}")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
