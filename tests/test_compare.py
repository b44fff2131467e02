"""Comparing two models: the structural diff (``onnxtext diff``), its picture (``-o``) and the
numeric comparison (``onnxtext compare``), on models made by real exporters in the tests.

The corpus: one small torch module exported twice with a one-line change between (dynamo and
TorchScript exporters), exporters' models with every name randomized and independent nodes
shuffled, a model with one weight perturbed, and onnxruntime's offline-optimized model against
its original. Generated once into the exporters' cache (``corpus.exporters.cache_dir``).
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from corpus.exporters import GENERATORS, TORCH_OPSET, Generator
from test_diff import BASE

import onnxtext
from onnxtext.api import save
from onnxtext.cli import app as cli
from onnxtext.compare.match import match_graphs
from onnxtext.compare.numeric import CompareError, compare_models, difference, run_values
from onnxtext.compare.structural import diff_structural
from onnxtext.diff import diff_models
from onnxtext.evaluate.synth import synthesize
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.proto import GraphProto, ModelProto, NodeProto

# ------------------------------------------------------------------ the corpus


def _one_line_change(changed: bool, dynamo: bool) -> Generator:
    """``Net`` exported before (``changed`` False) and after its one-line change."""

    def make(path: Path) -> None:
        import torch
        from torch import nn

        class Net(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.fc1, self.fc2 = nn.Linear(8, 16), nn.Linear(16, 16)
                self.fc3, self.fc4 = nn.Linear(16, 16), nn.Linear(16, 4)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                h = torch.relu(self.fc1(x))
                if changed:
                    h = torch.sigmoid(h) * h  # the one-line change
                h = torch.relu(self.fc2(h))
                h = torch.relu(self.fc3(h)) * 2.0
                return torch.softmax(self.fc4(h), -1)

        torch.manual_seed(0)
        module = Net().eval()
        args = (torch.randn(2, 8),)
        with torch.no_grad():
            if dynamo:
                program = torch.onnx.export(module, args, dynamo=True, opset_version=TORCH_OPSET, verbose=False)
                assert program is not None
                program.save(str(path), external_data=False)
            else:
                torch.onnx.export(
                    module, args, str(path), dynamo=False, opset_version=TORCH_OPSET, input_names=["input"]
                )

    name = f"compare_{'dynamo' if dynamo else 'script'}_net{'_changed' if changed else ''}"
    return Generator(name, ("torch",), make)


def _exported(gen: Generator) -> ModelProto:
    for module in gen.requires:
        pytest.importorskip(module)
    return ModelProto.FromString(gen.ensure().read_bytes())


def _randomized(model: ModelProto, seed: int) -> ModelProto:
    """``model`` with every value, node and graph name replaced by a random one and the nodes of
    every graph and function in another topological order."""
    rng = random.Random(seed)
    out = ModelProto()
    out.CopyFrom(model)
    names: dict[str, str] = {}

    def new(name: str) -> str:
        if not name:
            return name
        if name not in names:
            names[name] = f"v{rng.randrange(10**9)}_{len(names)}"
        return names[name]

    def graph(g: GraphProto) -> None:
        g.name = new(g.name)
        for v in (*g.input, *g.output, *g.value_info):
            v.name = new(v.name)
        for t in g.initializer:
            t.name = new(t.name)
        nodes(g.node)

    def nodes(container: object) -> None:
        listed = list(container)  # type: ignore[call-overload]
        for n in listed:
            n.name = new(n.name) if n.name else ""
            n.input[:] = [new(x) for x in n.input]
            n.output[:] = [new(x) for x in n.output]
            for a in n.attribute:
                if a.HasField("g"):
                    graph(a.g)
                for g in a.graphs:
                    graph(g)
        shuffled = _shuffle(listed, rng)
        del container[:]  # type: ignore[attr-defined]
        container.extend(shuffled)  # type: ignore[attr-defined]

    graph(out.graph)
    for f in out.functions:
        f.input[:] = [new(x) for x in f.input]
        f.output[:] = [new(x) for x in f.output]
        for v in f.value_info:
            v.name = new(v.name)
        nodes(f.node)
    return out


def _shuffle(listed: list[NodeProto], rng: random.Random) -> list[NodeProto]:
    """A random topological order of ``listed`` (a node after the producers of what it reads here)."""
    made = {o: i for i, n in enumerate(listed) for o in n.output if o}
    needs = [{made[x] for x in _reads(n) if x in made and made[x] != i} for i, n in enumerate(listed)]
    readers: dict[int, list[int]] = {}
    for i, before in enumerate(needs):
        for p in before:
            readers.setdefault(p, []).append(i)
    waiting = [len(b) for b in needs]
    ready = [i for i, w in enumerate(waiting) if w == 0]
    order = []
    while ready:
        i = ready.pop(rng.randrange(len(ready)))
        order.append(i)
        for r in readers.get(i, ()):
            waiting[r] -= 1
            if waiting[r] == 0:
                ready.append(r)
    assert len(order) == len(listed)
    return [listed[i] for i in order]


def _reads(n: NodeProto) -> list[str]:
    names = list(n.input)
    for a in n.attribute:
        for g in [a.g] if a.HasField("g") else list(a.graphs):
            for m in g.node:
                names.extend(_reads(m))
    return names


def _perturbed(model: ModelProto, name: str, by: float = 0.5) -> ModelProto:
    out = ModelProto()
    out.CopyFrom(model)
    t = next(t for t in out.graph.initializer if t.name == name)
    values = to_numpy(t).copy()
    values.reshape(-1)[3] += by
    del t.float_data[:]
    t.raw_data = values.astype("<f4").tobytes()
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ------------------------------------------------------------------ the structural diff


@pytest.mark.parametrize("dynamo", [True, False], ids=["dynamo", "script"])
def test_a_reexport_after_a_one_line_change_reports_exactly_the_change(dynamo: bool) -> None:
    """``h = torch.sigmoid(h) * h`` added: two nodes added and the next Gemm reading their value;
    the exporter's renumbering after them (``mul`` → ``mul_1``) is a renaming, not a change."""
    before = _exported(_one_line_change(False, dynamo))
    after = _exported(_one_line_change(True, dynamo))
    result = diff_structural(before, after)
    if dynamo:
        relu, sig, mul, gemm, renamed = "relu", "sigmoid", "mul", "linear_1", ("mul", "mul_1")
        labels = ("", "")
    else:
        relu, sig, mul = "/Relu_output_0", "/Sigmoid_output_0", "/Mul_output_0"
        gemm, renamed, labels = "/fc2/Gemm_output_0", ("/Mul_output_0", "/Mul_1_output_0"), ("/Sigmoid", "/Mul")
    texts = [c.text for c in result.changes]
    assert len(texts) == 3, texts
    assert texts[0].startswith(f"+ node '{sig}' ") and f"= Sigmoid ({_q(relu)})" in texts[0]
    assert texts[1].startswith(f"+ node '{mul}' ") and f"= Mul ({_q(sig)}, {_q(relu)})" in texts[1]
    assert texts[2] == f"~ node '{gemm}' (Gemm) input 0: '{relu}' → '{mul}'"
    assert all(label in t for label, t in zip(labels, texts, strict=False))
    outputs = (before.graph.output[0].name, after.graph.output[0].name)
    if dynamo:
        assert [(r.a, r.b) for r in result.renamed] == [renamed]
    else:  # the exporter numbers the output it was given no name for: "18" → "20"
        assert outputs[0] != outputs[1] and [(r.a, r.b) for r in result.renamed] == [renamed, outputs]
    assert [c.mark for c in result.changes] == ["added", "added", "changed"]
    # aligned by names, the same pair says more than happened (or, for dynamo, misreads it)
    assert diff_models(before, after) != texts


def _q(name: str) -> str:
    return name if name.isidentifier() else f'"{name}"'


RANDOMIZED = [
    "torch_dynamo_mlp",
    "torch_script_mlp",
    "torch_dynamo_cnn_bn",
    "torch_script_cnn_bn",
    "torch_dynamo_transformer",
    "torch_script_transformer",
    "torch_script_lstm",
    "torch_script_mlp_functions",
    "onnxscript_control_flow",
    "onnxscript_local_functions",
    "skl_random_forest",
]


@pytest.mark.parametrize("name", RANDOMIZED)
def test_every_name_randomized_and_nodes_shuffled_is_no_difference(name: str) -> None:
    model = _exported(GENERATORS[name])
    for seed in (1, 2):
        other = _randomized(model, seed)
        result = diff_structural(model, other)
        assert result.same, result.lines()[:5]
        assert len(result.renamed) > 0
        assert diff_models(model, other)  # by names, everything differs


def test_a_perturbed_weight_is_named_with_its_statistics() -> None:
    model = _exported(GENERATORS["torch_dynamo_mlp"])
    weight = next(t.name for t in model.graph.initializer if len(t.dims) == 2)
    result = diff_structural(model, _randomized(_perturbed(model, weight), 3))
    assert len(result.changes) == 1, result.lines()
    change = result.changes[0]
    assert change.what == "initializer" and change.a == weight
    assert change.text.startswith(f"~ initializer '{change.a}' → '{change.b}' float[")
    assert change.text.endswith(": 1 of " + change.text.split(": 1 of ")[1]) and "max abs diff 0.5" in change.text


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "h3 = LeakyRelu<alpha = 0.01>(h2)",
            "h3 = Relu(h2)",
            ["~ node 'h3' (LeakyRelu → Relu)", "- node 'h3' (Relu) attribute alpha = 0.01"],
        ),
        ("h3 = LeakyRelu<alpha = 0.01>(h2)", "h3 = LeakyRelu<alpha = 0.2>(h2)", ["attribute alpha: 0.01 → 0.2"]),
        ("  h2 = Mul(h, s)\n", "  h2 = Mul(h, s)\n  extra = Relu(h2)\n", ["+ node 'extra' extra = Relu (h2)"]),
        ("h2 = Mul(h, s)", "h2 = Mul(s, h)", ["input 0: 'h' → 's'", "input 1: 's' → 'h'"]),
        ("b = Relu(a)", "b = Sigmoid(a)", ["~ function 'local.f': node 'b' (Relu → Sigmoid)"]),
        ("float[N, 4] x,", "float[N, 8] x,", ["~ input 'x' float[N, 4] → float[N, 8]"]),
        ('"": 18,', '"": 19,', ["~ opset '' 18 → 19"]),
    ],
)
def test_hand_changes(old: str, new: str, expected: list[str]) -> None:
    a = onnxtext.parse_model(BASE)
    changed = BASE.replace(old, new)
    assert changed != BASE
    lines = diff_structural(a, onnxtext.parse_model(changed)).lines()
    for want in expected:
        assert any(want in line for line in lines), lines
    assert len(lines) == len(expected), lines


def test_a_node_inserted_before_a_chain_keeps_the_chain_matched() -> None:
    """An inserted node: its reader is rewired, not removed and added, and all after it matches."""
    a = onnxtext.parse_model(BASE)
    b = onnxtext.parse_model(
        BASE.replace("h3 = LeakyRelu<alpha = 0.01>(h2)", "t = Sigmoid(h2)\n  h3 = LeakyRelu<alpha = 0.01>(t)")
    )
    assert diff_structural(a, b).lines() == [
        "+ node 't' t = Sigmoid (h2)",
        "~ node 'h3' (LeakyRelu) input 0: 'h2' → 't'",
    ]
    removed = diff_structural(b, a).lines()
    assert removed == ["- node 't' t = Sigmoid (h2)", "~ node 'h3' (LeakyRelu) input 0: 't' → 'h2'"]


def test_invalid_models_give_lines_not_tracebacks() -> None:
    """A cycle, a value defined twice, an undefined input, nodes without outputs."""
    text = """\
<ir_version: 9, opset_import: ["": 18]>
g (float[2] x) => (float[2] y) {
  a = Relu(b)
  b = Relu(a)
  a = Sigmoid(x)
  c = Add(nowhere, x)
  y = Relu(c)
}
"""
    model = onnxtext.parse_model(text)
    model.graph.node.add(op_type="Identity", input=["c"])  # no outputs
    assert diff_structural(model, model).same
    other = onnxtext.parse_model(text.replace("Add(nowhere, x)", "Mul(nowhere, x)"))
    other.graph.node.add(op_type="Identity", input=["c"])
    assert diff_structural(model, other).lines() == ["~ node 'c' (Add → Mul)"]


# ------------------------------------------------------------------ the command line


def test_cli_structural_by_default_by_name_json_and_verbose(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _exported(_one_line_change(False, True))
    after = _exported(_one_line_change(True, True))
    a, b = str(tmp_path / "a.onnx"), str(tmp_path / "b.onnx")
    save(before, a)
    save(after, b)
    status, out, err = run(capsys, "diff", a, b)
    assert (status, err) == (1, "")
    assert out.splitlines() == [c.text for c in diff_structural(before, after).changes] + [
        "# renamed: 1 value and 1 node (-v lists them)"
    ]
    status, out, _ = run(capsys, "diff", a, b, "-v")
    assert out.splitlines()[-2:] == ["# renamed: 1 value and 1 node", "#   'mul' → 'mul_1'"]
    status, out, _ = run(capsys, "diff", "--by-name", a, b)
    assert status == 1 and out.splitlines() == diff_models(before, after)
    status, out, _ = run(capsys, "diff", "--json", a, b)
    data = json.loads(out)
    assert status == 1 and not data["same"] and data["renamed"] == [{"a": "mul", "b": "mul_1"}]
    assert [c["mark"] for c in data["changes"]] == ["added", "added", "changed"]
    shuffled = str(tmp_path / "c.onnx")
    save(_randomized(before, 5), shuffled)
    status, out, _ = run(capsys, "diff", a, shuffled)
    assert status == 0 and out.startswith("# renamed: ")
    for bad in (["--by-name", "--json"], ["--unified", "-v"], ["--by-name", "--unified"], ["-o", "x.png"]):
        status, _, err = run(capsys, "diff", a, b, *bad)
        assert status == 2 and "error:" in err, bad


@pytest.mark.parametrize("suffix", [".svg", ".html", ".dot"])
def test_the_picture_colours_added_removed_and_changed_nodes(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.onnxtxt", tmp_path / "b.onnxtxt"
    a.write_text(BASE)
    b.write_text(
        BASE.replace("[first] h = Add(x, c)", "[first] h = Sub(x, c)").replace(
            "h3 = LeakyRelu<alpha = 0.01>(h2)", "t = Sigmoid(h2)\n  h3 = LeakyRelu<alpha = 0.01>(t)"
        )
    )
    out = tmp_path / f"diff{suffix}"
    status, text, _ = run(capsys, "diff", str(a), str(b), "-o", str(out))
    assert status == 1 and "~ node 'h' (Add → Sub)" in text
    drawn = out.read_text()
    if suffix == ".svg":
        assert drawn.count('mark-changed"') == 2  # h (Sub), h3 (rewired)
        assert drawn.count('mark-added"') == 1 and 'data-id="t"' in drawn
        assert '<g class="node cat-math kind-op mark-changed" data-id="h"' in drawn
    elif suffix == ".html":
        assert "style-src 'sha256-" in drawn
        assert '.node[data-id="t"] > rect { fill: #c8e6c9' in drawn
        assert '.node[data-id="h"] > rect { fill: #ffe0b2' in drawn
    else:
        assert '"t" [label="Sigmoid\\nt", fillcolor="#c8e6c9"' in drawn
    status, _, _ = run(capsys, "diff", str(b), str(a), "-o", str(out))
    assert status == 1
    removed = out.read_text()
    if suffix == ".svg":
        assert 'mark-removed"' in removed and 'data-id="removed:t"' in removed


def test_the_picture_folds_unchanged_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = "\n".join(f"  r{i} = Relu(r{i - 1})" for i in range(1, 30))
    text = f'<ir_version: 9, opset_import: ["": 18]>\ng (float[2] r0) => (float[2] r29) {{\n{body}\n}}\n'
    a, b = tmp_path / "a.onnxtxt", tmp_path / "b.onnxtxt"
    a.write_text(text)
    b.write_text(text.replace("r15 = Relu(r14)", "r15 = Tanh(r14)"))
    out = tmp_path / "d.svg"
    assert run(capsys, "diff", str(a), str(b), "-o", str(out))[0] == 1
    drawn = out.read_text()
    assert drawn.count('class="group folded') == 2  # r1..r14 and r16..r29
    assert "14 unchanged" in drawn and 'mark-changed" data-id="r15"' in drawn


# ------------------------------------------------------------------ the numeric comparison


def test_compare_names_the_perturbed_nodes_output_first_and_nothing_before() -> None:
    """The second layer's weight perturbed in a renamed, shuffled copy: the values before its Gemm
    (the first layer's) agree, its Gemm's output is the first to differ, then what it reaches."""
    model = _exported(GENERATORS["torch_script_mlp"])
    target = [n for n in model.graph.node if n.op_type == "Gemm"][1]
    other = _perturbed(_randomized(model, 7), _renamed(model, _randomized(model, 7), target.input[1]))
    feeds = synthesize(model.graph, seed=0).feeds
    result = compare_models(model, other, feeds)
    assert result.divergent and result.divergent[0].a == target.output[0]
    assert result.divergent[0].op == "Gemm" and result.divergent[0].max_abs > 0
    order = [n.output[0] for n in model.graph.node]
    assert result.compared == len(order) and order.index(target.output[0]) > 0  # values before it compared
    assert {d.a for d in result.divergent} <= set(order[order.index(target.output[0]) :])
    assert result.outputs_differ
    m = match_graphs(model.graph, other.graph)
    assert len(m.nodes) == len(order)


def _renamed(model: ModelProto, other: ModelProto, name: str) -> str:
    index = [t.name for t in model.graph.initializer].index(name)
    return other.graph.initializer[index].name


def test_cli_compare_table_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = _exported(GENERATORS["torch_script_mlp"])
    gemm = [n for n in model.graph.node if n.op_type == "Gemm"][0]
    a, b, same = (str(tmp_path / n) for n in ("a.onnx", "b.onnx", "c.onnx"))
    save(model, a)
    save(_perturbed(model, gemm.input[1]), b)
    save(_randomized(model, 1), same)
    status, out, err = run(capsys, "compare", a, b)
    lines = out.splitlines()
    assert (status, err) == (1, "")
    assert lines[0].startswith("compared ") and "made-up inputs input (seed 0, batch=2)" in lines[0]
    assert lines[1].split() == ["value", "(A", "→", "B)", "op", "max", "abs", "max", "rel"]
    assert lines[2].split()[0] == repr(gemm.output[0]) and lines[2].split()[1] == "Gemm"
    assert lines[-1].startswith("outputs differ: ")
    status, out, _ = run(capsys, "compare", a, same, "--seed", "3")
    assert status == 0 and ": 0 differ" in out and out.endswith("outputs agree within the tolerance\n")
    status, out, _ = run(capsys, "compare", a, b, "--atol", "10")
    assert status == 0 and ": 0 differ" in out
    x = tmp_path / "x.npy"
    np.save(x, np.ones((3, 8), dtype=np.float32))
    status, out, _ = run(capsys, "compare", a, b, "--input", f"{model.graph.input[0].name}={x}")
    assert status == 1 and "the inputs given" in out
    assert run(capsys, "compare", a, str(tmp_path / "missing.onnx"))[0] == 2
    assert run(capsys, "compare", a, b, "--rtol", "-1")[0] == 2


def test_compare_with_onnxruntime_and_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("onnxruntime")
    model = _exported(GENERATORS["torch_dynamo_mlp"])
    feeds = synthesize(model.graph, seed=0).feeds
    gemm = [n for n in model.graph.node if n.op_type == "Gemm"][1]
    other = _perturbed(model, gemm.input[1])
    by_ort = compare_models(model, other, feeds, runtime="onnxruntime")
    by_ref = compare_models(model, other, feeds)
    assert [d.a for d in by_ort.divergent] == [d.a for d in by_ref.divergent]
    assert by_ort.divergent[0].a == gemm.output[0]
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # as if not installed
    with pytest.raises(CompareError, match="pip install onnxruntime"):
        run_values(model, feeds, [], runtime="onnxruntime")
    a = str(tmp_path / "a.onnx")
    save(model, a)
    status, _, err = run(capsys, "compare", a, a, "--runtime", "onnxruntime")
    assert status == 2 and "needs the onnxruntime package" in err


@pytest.mark.parametrize("name", ["torch_script_cnn_bn", "torch_dynamo_transformer"])
def test_onnxruntimes_optimized_model_agrees_with_its_original(name: str, tmp_path: Path) -> None:
    ort = pytest.importorskip("onnxruntime")
    model = _exported(GENERATORS[name])
    original = tmp_path / "m.onnx"
    save(model, original)
    changed = 0
    for level, runtime in (
        (ort.GraphOptimizationLevel.ORT_ENABLE_BASIC, "reference"),
        (ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED, "onnxruntime"),
    ):
        options = ort.SessionOptions()
        options.graph_optimization_level = level
        options.optimized_model_filepath = str(tmp_path / "opt.onnx")
        ort.InferenceSession(str(original), options, providers=["CPUExecutionProvider"])
        optimized = ModelProto.FromString((tmp_path / "opt.onnx").read_bytes())
        changed += optimized.graph.SerializeToString() != model.graph.SerializeToString()
        feeds = synthesize(model.graph, seed=0).feeds
        result = compare_models(model, optimized, feeds, rtol=1e-4, atol=1e-5, runtime=runtime)
        assert not result.outputs_differ, (runtime, result.outputs)
        assert result.compared > 0
    assert changed  # the optimizer changed the graph at some level


def test_difference_tolerance_nan_and_shapes() -> None:
    a = np.array([1.0, np.nan, np.inf, 0.0], dtype=np.float32)
    assert difference(a, a.copy(), 0, 0)[0]
    ok, worst, rel, _ = difference(a, np.array([1.1, np.nan, np.inf, 0.0], dtype=np.float32), 0.2, 0)
    assert ok and worst == pytest.approx(0.1, rel=1e-5) and rel == pytest.approx(0.1, rel=1e-5)
    assert not difference(a, np.array([1.1, np.nan, np.inf, 0.0], dtype=np.float32), 0.01, 0)[0]
    assert difference(a, a[:2], 0, 0)[3] == "shape (4,) → (2,)"
    assert not difference(np.array([1, 2]), np.array([1, 3]), 1, 1)[0]  # integers exactly


def test_compare_bad_input_is_a_message_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "a.onnxtxt"
    good.write_text(BASE)
    (tmp_path / "bad.onnx").write_bytes(b"\xff\xff\xff")
    (tmp_path / "bad.onnxtxt").write_text("g () => () { y = }")
    (tmp_path / "empty.onnx").write_bytes(b"")
    for other in ("bad.onnx", "bad.onnxtxt", "empty.onnx"):
        status, out, err = run(capsys, "compare", str(good), str(tmp_path / other))
        assert status == 2 and out == "" and "Traceback" not in err and err, other
    status, _, err = run(capsys, "compare", str(good), str(good), "--input", "nope=[1]")
    assert status == 2 and "nope" in err
    failing = tmp_path / "f.onnxtxt"  # a node the evaluator refuses: located, R002
    failing.write_text(BASE.replace("h2 = Mul(h, s)", "h2 = Reshape(h, s)"))
    status, _, err = run(capsys, "compare", str(good), str(failing))
    assert status == 2 and f"{failing}:6:3: error[R002]: Reshape" in err and "Traceback" not in err


def test_diff_and_compare_bad_files_are_messages_not_tracebacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file, a non-model, a broken text: 2 and a message, from the structural diff, its
    picture and the comparison; B's input of another type than A's: its run error, located."""
    good = tmp_path / "a.onnxtxt"
    good.write_text(BASE)
    (tmp_path / "junk.onnx").write_text("not a model")
    (tmp_path / "broken.onnxtxt").write_text("garbage {{{")
    for other in ("missing.onnxtxt", "missing.onnx", "junk.onnx", "broken.onnxtxt"):
        path = str(tmp_path / other)
        for argv in (("diff", str(good), path), ("diff", str(good), path, "-o", str(tmp_path / "d.svg"))):
            status, out, err = run(capsys, *argv)
            assert status == 2 and out == "" and err and "Traceback" not in err, argv
        status, out, err = run(capsys, "compare", str(good), path)
        assert status == 2 and out == "" and err and "Traceback" not in err, other
    ints = tmp_path / "ints.onnxtxt"
    ints.write_text('<ir_version: 8, opset_import: ["" : 17]>\ng (int64[3] x) => (int64[3] y) {\n  y = Neg(x)\n}\n')
    floats = tmp_path / "floats.onnxtxt"
    floats.write_text('<ir_version: 8, opset_import: ["" : 17]>\ng (float[3] x) => (float[3] y) {\n  y = Neg(x)\n}\n')
    status, out, err = run(capsys, "compare", str(floats), str(ints))
    assert status == 2 and out == "" and f"{ints}:2:4: error[R002]" in err and "Traceback" not in err


SUBGRAPHS = """\
<ir_version: 9, opset_import: ["": 18]>
g (bool c, float[2] x) => (float[2] y) {
  t = Relu(x)
  y = If <then_branch = g1 () => (float[2] a) { a = Neg(t) }, else_branch = g2 () => (float[2] b) {
    b1 = Abs(t)
    b = Sigmoid(b1)
  }> (c)
}
"""


@pytest.mark.parametrize(
    ("old", "new", "expected", "mark"),
    [
        ("Sigmoid(b1)", "Tanh(b1)", "~ node 'y' (If) attribute else_branch: node 'b' (Sigmoid → Tanh)", "changed"),
        (
            "a = Neg(t)",
            "a = Neg(x)",
            "~ node 'y' (If) attribute then_branch: node 'a' (Neg) input 0: 't' → 'x'",
            "changed",
        ),
        ("  t = Relu(x)\n", "  t = Relu(x)\n  u = Relu(t)\n", "+ node 'u' u = Relu (t)", "added"),
    ],
)
def test_subgraphs_are_matched_inside_their_node(old: str, new: str, expected: str, mark: str) -> None:
    """A change in a branch is a line led by its node and attribute, marking the node; a value
    renamed in a branch is a renaming there."""
    a = onnxtext.parse_model(SUBGRAPHS)
    b = onnxtext.parse_model(SUBGRAPHS.replace(old, new).replace("b1", "renamed"))
    result = diff_structural(a, b)
    assert result.lines(verbose=True) == [
        expected,
        "# renamed: 1 value",
        "#   node 'y' (If) attribute else_branch: 'b1' → 'renamed'",
    ]
    assert [c.mark for c in result.changes] == [mark]


def test_the_picture_outlines_the_folded_groups_that_hold_a_change() -> None:
    """Layer groups (torch's legacy ``/layer/Op`` names): the page may show them folded (a big
    model opens so), and the one holding the changed node is outlined; the dimmed rest are not."""
    from onnxtext.compare.picture import diff_graph
    from onnxtext.ide.graph_view import mark_stylesheet

    def text(op: str) -> str:
        layers = "".join(
            f'  [ "/layer{i}/MatMul" ] m{i} = MatMul (h{i - 1}, W)\n'
            f'  [ "/layer{i}/Act" ] h{i} = {op if i == 2 else "Relu"} (m{i})\n'
            for i in range(1, 4)
        )
        return (
            '<ir_version: 8, opset_import: ["" : 17]>\n'
            "g (float[4, 4] h0) => (float[4, 4] h3) <float[4, 4] W = {"
            + ", ".join(["1"] * 16)
            + "}> {\n"
            + layers
            + "}\n"
        )

    before, after = onnxtext.parse_model(text("Relu")), onnxtext.parse_model(text("Tanh"))
    graph = diff_graph(text("Tanh"), diff_structural(before, after))
    assert graph is not None
    changed = next(n for n in graph["nodes"] if n["id"] == "h2")
    assert changed["mark"] == "changed" and changed["group"] is not None
    css = mark_stylesheet(graph, selector="id")
    assert f'.group.folded[data-group="{changed["group"]}"] > rect {{ stroke: #ef8f00' in css
    unmarked = {n["group"] for n in graph["nodes"] if "mark" not in n and n["group"]} - {changed["group"]}
    assert unmarked and not any(f'[data-group="{g}"]' in css for g in unmarked)
    assert changed["group"] in graph["open"]


def test_graph_notes_are_changes_its_name_is_not() -> None:
    a = onnxtext.parse_model(BASE)
    b = onnxtext.parse_model(BASE)
    b.graph.name = "other"
    assert diff_structural(a, b).same
    b.graph.doc_string = "a note"
    b.graph.metadata_props.add(key="k", value="v")
    assert diff_structural(a, b).lines() == ["~ graph doc_string changed", "~ graph metadata_props changed"]


def test_the_picture_of_a_model_on_standard_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """B read from stdin is read once: the picture is drawn from the model as loaded."""
    import io

    a = tmp_path / "a.onnx"
    save(onnxtext.parse_model(BASE), a)
    changed = onnxtext.parse_model(BASE.replace("h2 = Mul(h, s)", "h2 = Sub(h, s)"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(changed.SerializeToString())))
    out = tmp_path / "d.svg"
    status, text, err = run(capsys, "diff", str(a), "-", "-o", str(out))
    assert (status, err) == (1, "") and text == "~ node 'h2' (Mul → Sub)\n"
    assert 'mark-changed" data-id="h2"' in out.read_text()


@pytest.mark.parametrize("suffix", [".svg", ".html", ".dot"])
def test_compare_draws_where_values_part(suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """compare -o: the diff picture (the perturbed weight marked changed) with the edges of the
    values that differ in red, each saying by how much; those before the weight's Gemm are not."""
    model = _exported(GENERATORS["torch_dynamo_mlp"])
    gemms = [n for n in model.graph.node if n.op_type == "Gemm"]
    weight = gemms[1].input[1]
    a, b = tmp_path / "a.onnx", tmp_path / "b.onnx"
    save(model, a)
    save(_perturbed(model, weight), b)
    out = tmp_path / f"parting{suffix}"
    status, text, err = run(capsys, "compare", str(a), str(b), "-o", str(out))
    assert (status, err) == (1, "") and "\noutputs differ: " in text
    drawn = out.read_text()
    parted, before = gemms[1].output[0], gemms[0].output[0]
    if suffix == ".dot":
        assert re.search(rf'label="{re.escape(parted)}: float\[[^"]*\] = Δ [0-9.e-]+", color="#c62828"', drawn)
        assert f'label="{before}: float' in drawn and not re.search(rf'label="{re.escape(before)}:[^"]*Δ', drawn)
    else:
        assert f'.edge[data-values~="{parted}"] {{ stroke: #c62828' in drawn
        assert f'.edge[data-values~="{before}"]' not in drawn
        assert "Δ " in drawn if suffix == ".svg" else f'"value":"{parted}"' in drawn


def test_unchanged_weights_fold_with_the_run_that_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weights = ", ".join(f"float[2] w{i} = {{{i}.0, 1.0}}" for i in range(1, 30))
    body = "\n".join(f"  r{i} = Add(r{i - 1}, w{i})" for i in range(1, 30))
    text = f'<ir_version: 9, opset_import: ["": 18]>\ng (float[2] r0) => (float[2] r29)\n<{weights}>\n{{\n{body}\n}}\n'
    a, b = tmp_path / "a.onnxtxt", tmp_path / "b.onnxtxt"
    a.write_text(text)
    b.write_text(text.replace("r15 = Add(r14, w15)", "r15 = Sub(r14, w15)"))
    out = tmp_path / "d.svg"
    assert run(capsys, "diff", str(a), str(b), "-o", str(out))[0] == 1
    drawn = out.read_text()
    assert drawn.count('class="group folded') == 2 and "14 unchanged" in drawn
    assert drawn.count('kind-initializer" data-id=') == 1 and 'kind-initializer" data-id="w15"' in drawn
