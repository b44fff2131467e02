"""``onnxtext diff``: semantic diff aligned by names; exit 0 same, 1 different, 2 trouble."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_external import big_model

import onnxtext
from onnxtext.api import save
from onnxtext.cli import app as cli
from onnxtext.diff import diff_models
from onnxtext.proto import ModelProto, TensorProto
from onnxtext.weights.sidecar import write_external

BASE = """\
<ir_version: 9, opset_import: ["": 18, "local": 1]>
g (float[N, 4] x, float[4] s) => (float[N, 4] y)
<float[4] c = {1.0, 2.0, 3.0, 4.0}, int64[2] shape = {1, 4}>
{
  [first] h = Add(x, c)
  h2 = Mul(h, s)
  h3 = LeakyRelu<alpha = 0.01>(h2)
  y = local.f(h3)
}
<domain: "local", opset_import: ["": 18]>
f (a) => (b) {
  b = Relu(a)
}
"""


def edit(*pairs: tuple[str, str], text: str = BASE) -> ModelProto:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return onnxtext.parse_model(text)


def d(*pairs: tuple[str, str]) -> list[str]:
    return diff_models(onnxtext.parse_model(BASE), edit(*pairs))


def test_identical() -> None:
    assert d() == []


def test_reordered_nodes_are_not_a_change() -> None:
    assert d(("  [first] h = Add(x, c)\n  h2 = Mul(h, s)\n", "  h2 = Mul(h, s)\n  [first] h = Add(x, c)\n")) == []


def test_renamed_node_is_not_a_change() -> None:
    assert d(("[first] h = Add", "[renamed] h = Add")) == []
    assert d(("[first] h = Add", "h = Add")) == []


def test_changed_op_type() -> None:
    assert d(("h3 = LeakyRelu<alpha = 0.01>(h2)", "h3 = Relu(h2)")) == [
        "~ node 'h3' (LeakyRelu → Relu)",
        "- node 'h3' (Relu) attribute alpha = 0.01",
    ]


def test_changed_attribute() -> None:
    assert d(("alpha = 0.01", "alpha = 0.2")) == ["~ node 'h3' (LeakyRelu) attribute alpha: 0.01 → 0.2"]


def test_added_attribute_and_changed_inputs() -> None:
    assert d(("h2 = Mul(h, s)", "h2 = Mul(s, h)")) == ["~ node 'h2' (Mul) inputs (h, s) → (s, h)"]


def test_changed_weight() -> None:
    assert d(("{1.0, 2.0, 3.0, 4.0}", "{1.0, 2.5, 3.0, 3.0}")) == [
        "~ initializer 'c' float[4]: 2 of 4 elements differ, max abs diff 1"
    ]


def test_weight_storage_is_not_a_change() -> None:
    """raw_data vs float_data with the same values: equal."""
    a = onnxtext.parse_model(BASE)
    b = onnxtext.parse_model(BASE)
    t = b.graph.initializer[0]
    t.raw_data = np.array([1, 2, 3, 4], np.float32).tobytes()
    t.ClearField("float_data")
    assert diff_models(a, b) == []


def test_changed_dtype_and_shape() -> None:
    assert d(("int64[2] shape = {1, 4}", "int32[3] shape = {1, 4, 1}")) == ["~ initializer 'shape' int64[2] → int32[3]"]


def test_added_and_removed_initializer() -> None:
    assert d((", int64[2] shape = {1, 4}>", ", float[10] b = {0., 1., 2., 3., 4., 5., 6., 7., 8., 9.}>")) == [
        "- initializer 'shape' int64[2]",
        "+ initializer 'b' float[10]",
    ]


def test_added_and_removed_node() -> None:
    assert d(("  y = local.f(h3)\n", "  h4 = Relu(h3)\n  y = local.f(h4)\n")) == [
        "~ node 'y' (local.f) inputs (h3) → (h4)",
        "+ node 'h4' h4 = Relu (h3)",
    ]
    assert d(("  h3 = LeakyRelu<alpha = 0.01>(h2)\n  y = local.f(h3)", "  y = local.f(h2)")) == [
        "- node 'h3' h3 = LeakyRelu <alpha = 0.01> (h2)",
        "~ node 'y' (local.f) inputs (h3) → (h2)",
    ]


def test_inputs_and_outputs() -> None:
    assert d(("float[N, 4] x, float[4] s)", "float[N, 8] x, float[4] s, bool[N] m)")) == [
        "~ input 'x' float[N, 4] → float[N, 8]",
        "+ input 'm' bool[N]",
    ]
    assert d(("float[N, 4] x, float[4] s)", "float[4] s, float[N, 4] x)")) == ["~ input order (x, s) → (s, x)"]
    assert d(("=> (float[N, 4] y)", "=> (float[N, 4] y, float[N, 4] h)")) == ["+ output 'h' float[N, 4]"]
    assert d((", float[4] s)", ")"), ("Mul(h, s)", "Mul(h, h)")) == [
        "- input 's' float[4]",
        "~ node 'h2' (Mul) inputs (h, s) → (h, h)",
    ]


def test_header_changes() -> None:
    assert d(('"": 18, "local": 1', '"": 19, "com.x": 2'), ("ir_version: 9", 'ir_version: 10, producer_name: "p"')) == [
        "~ ir_version 9 → 10",
        '~ producer_name (unset) → "p"',
        "~ opset '' 18 → 19",
        "- opset 'local' 1",
        "+ opset 'com.x' 2",
    ]


def test_functions() -> None:
    assert d(("b = Relu(a)", "b = Sigmoid(a)")) == ["~ function 'local.f': node 'b' (Relu → Sigmoid)"]
    added = BASE + '<domain: "local", opset_import: ["": 18]>\ng2 (a) => (b) {\n  b = Neg(a)\n}\n'
    assert d((BASE, added)) == ["+ function 'local.g2' (a) => (b), 1 nodes"]
    assert diff_models(onnxtext.parse_model(added), onnxtext.parse_model(BASE)) == [
        "- function 'local.g2' (a) => (b), 1 nodes"
    ]


def test_subgraph_attributes_are_diffed() -> None:
    text = """\
<ir_version: 9, opset_import: ["": 18]>
g (bool c, float[2] x) => (float[2] y)
{
  y = If(c) <then_branch = t () => (float[2] o) { o = Relu(x) }, else_branch = e () => (float[2] o) { o = Neg(x) }>
}
"""
    a = onnxtext.parse_model(text)
    b = onnxtext.parse_model(text.replace("o = Neg(x)", "o = Abs(x)"))
    assert diff_models(a, b) == ["~ node 'y' (If) attribute else_branch: node 'o' (Neg → Abs)"]


def test_big_weight_change_summary() -> None:
    a, b = big_model(), big_model()
    w = next(t for t in b.graph.initializer if t.name == "W")
    arr = np.frombuffer(w.raw_data, np.float32).copy()
    arr[[3, 77]] += np.float32(0.5)
    w.raw_data = arr.tobytes()
    assert diff_models(a, b) == ["~ initializer 'W' float[1024,1024]: 2 of 1048576 elements differ, max abs diff 0.5"]


# ---------------------------------------------------------------- command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_exit_status_and_mixed_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save(onnxtext.parse_model(BASE), tmp_path / "a.onnx")
    (tmp_path / "a.onnxtxt").write_text(BASE)
    (tmp_path / "b.onnxtxt").write_text(BASE.replace("alpha = 0.01", "alpha = 0.2"))
    assert run(capsys, "diff", str(tmp_path / "a.onnx"), str(tmp_path / "a.onnxtxt")) == (0, "", "")
    status, out, _ = run(capsys, "diff", str(tmp_path / "a.onnx"), str(tmp_path / "b.onnxtxt"))
    assert status == 1 and out == "~ node 'h3' (LeakyRelu) attribute alpha: 0.01 → 0.2\n"
    status, out, _ = run(capsys, "diff", "--unified", str(tmp_path / "a.onnx"), str(tmp_path / "b.onnxtxt"))
    assert status == 1
    assert "-   h3 = LeakyRelu <alpha = 0.01> (h2)\n+   h3 = LeakyRelu <alpha = 0.2> (h2)\n" in out
    assert out.startswith(f"--- {tmp_path / 'a.onnx'}\n+++ {tmp_path / 'b.onnxtxt'}\n")
    assert run(capsys, "diff", "-u", str(tmp_path / "a.onnx"), str(tmp_path / "a.onnxtxt"))[:2] == (0, "")


def test_cli_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.onnxtxt").write_text(BASE)
    (tmp_path / "bad.onnxtxt").write_text("g () => () { y = }")
    (tmp_path / "bad.onnx").write_bytes(b"\xff\xff\xff")
    status, _, err = run(capsys, "diff", str(tmp_path / "a.onnxtxt"), str(tmp_path / "missing.onnx"))
    assert status == 2 and "cannot read" in err
    assert run(capsys, "diff", str(tmp_path / "a.onnxtxt"), str(tmp_path / "bad.onnxtxt"))[0] == 2
    assert run(capsys, "diff", str(tmp_path / "bad.onnx"), str(tmp_path / "a.onnxtxt"))[0] == 2
    assert run(capsys, "diff", str(tmp_path / "a.onnxtxt"))[0] == 2


def test_cli_reads_external_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Weights in sidecars are compared by value; unreadable ones by their references."""
    for name, seed in (("a", 0), ("b", 0), ("c", 1)):
        folder = tmp_path / name
        folder.mkdir()
        save(write_external(big_model(seed), folder, "w.bin", 1024), folder / "m.onnx")
    a, b, c = (str(tmp_path / n / "m.onnx") for n in "abc")
    assert run(capsys, "diff", a, b)[:2] == (0, "")
    status, out, _ = run(capsys, "diff", a, c)
    assert status == 1 and "~ initializer 'W' float[1024,1024]: 1048576 of 1048576 elements differ" in out
    save(big_model(0), tmp_path / "inline.onnx")
    assert run(capsys, "diff", a, str(tmp_path / "inline.onnx"))[:2] == (0, "")


def test_nodes_without_outputs_and_duplicates() -> None:
    a = onnxtext.parse_model(BASE)
    b = onnxtext.parse_model(BASE)
    extra = b.graph.node.add(op_type="Print")
    extra.input.append("y")
    assert diff_models(a, b) == ["+ node 'Print' = Print (y)"]
    tensor = TensorProto(name="dup", data_type=TensorProto.FLOAT, dims=[1], float_data=[1.0])
    a.graph.initializer.append(tensor)
    a.graph.initializer.append(tensor)
    b.graph.initializer.append(tensor)
    assert diff_models(a, b) == ["- initializer 'dup' (#2) float[1]", "+ node 'Print' = Print (y)"]


@pytest.mark.parametrize("layout", ["inline", "external"])
def test_cli_large_weights_stay_in_files(tmp_path: Path, layout: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Large tensors are compared as tokens of their content and mapped from the files
    only when they differ; the lines are those of diff_models on the loaded models,
    for every place a tensor can be (attributes, subgraphs, functions, training graphs)."""
    from test_wire import everywhere_model

    def changed() -> ModelProto:
        m = everywhere_model()
        w = next(t for t in m.graph.initializer if t.name == "W")
        data = bytearray(w.raw_data)
        data[4000:4004] = np.float32(7.5).tobytes()
        w.raw_data = bytes(data)
        sub = m.graph.node[-2].attribute[0].g.initializer[0]  # the If's then_branch
        sub.raw_data = sub.raw_data[::-1]
        return m

    paths = []
    for name, model in (("a", everywhere_model()), ("b", changed())):
        folder = tmp_path / name
        folder.mkdir()
        if layout == "external":
            model = write_external(model, folder, "w.bin", 1024)
        save(model, folder / "m.onnx")
        paths.append(str(folder / "m.onnx"))
    status, out, err = run(capsys, "diff", *paths)
    expected = diff_models(everywhere_model(), changed())
    assert (status, err) == (1, "") and out.splitlines() == expected
    assert any("initializer 'W' float[1024,1024]: 1 of 1048576 elements differ" in line for line in expected)
    assert any("then_branch" in line and "sub_w" in line for line in expected)
    assert run(capsys, "diff", paths[0], paths[0])[:2] == (0, "")


def test_function_attribute_defaults_compared_like_node_attributes() -> None:
    """A function's default tensor is compared by value, as a node's attribute tensor is."""
    from onnxtext.proto import AttributeProto

    def model(values: list[float]) -> ModelProto:
        m = onnxtext.parse_model(BASE)
        f = m.functions.add(name="g9", domain="local")
        t = TensorProto(data_type=TensorProto.FLOAT, dims=[len(values)], float_data=values)
        f.attribute_proto.add(name="scale", type=AttributeProto.TENSOR, t=t)
        f.attribute_proto.add(name="alpha", type=AttributeProto.FLOAT, f=values[0])
        return m

    assert diff_models(model([1.0, 2.0]), model([1.0, 2.0])) == []
    assert diff_models(model([1.0, 2.0]), model([1.0, 2.5])) == [
        "~ function 'local.g9': attribute scale: float[2]: 1 of 2 elements differ, max abs diff 0.5"
    ]
    assert diff_models(model([1.0]), model([3.0]))[1] == "~ function 'local.g9': attribute alpha: 1.0 → 3.0"


@pytest.mark.filterwarnings("error")  # the reversed bytes hold signalling NaNs: no RuntimeWarning for users
@pytest.mark.parametrize("layout", ["inline", "external"])
def test_cli_unified_large_weights(tmp_path: Path, layout: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--unified on models whose weights stay in their files: digests of equal bytes are
    equal whatever the layout; a changed tensor changes its digest line."""
    from test_wire import everywhere_model

    def saved(folder: Path, model: ModelProto) -> str:
        folder.mkdir()
        if layout == "external":
            model = write_external(model, folder, "w.bin", 1024)
        save(model, folder / "m.onnx")
        return str(folder / "m.onnx")

    a = saved(tmp_path / "a", everywhere_model())
    inline = tmp_path / "inline.onnx"
    save(everywhere_model(), inline)
    assert run(capsys, "diff", "-u", a, str(inline)) == (0, "", "")
    changed = everywhere_model()
    w = next(t for t in changed.graph.initializer if t.name == "W")
    w.raw_data = w.raw_data[::-1]
    status, out, err = run(capsys, "diff", "-u", a, saved(tmp_path / "b", changed))
    assert (status, err) == (1, "")
    changed_lines = [line for line in out.splitlines() if line[:1] in "+-" and not line.startswith(("---", "+++"))]
    assert len(changed_lines) == 2 and all(' W = ["digest": "sha256:' in line for line in changed_lines)
