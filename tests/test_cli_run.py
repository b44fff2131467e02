"""``onnxtext run``: evaluate models from the command line (in-process ``cli.main``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from onnxtext.cli import app as cli
from onnxtext.document import parse_document
from onnxtext.evaluate import Evaluator
from onnxtext.evaluate.errors import EvaluationError, NodeErrorRecord, readable_path
from onnxtext.evaluate.inputs import InputError, build_feeds, parse_input_arg
from onnxtext.ir.paths import ProtoPath
from onnxtext.proto import ModelProto, TensorProto, TypeProto

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.onnxtxt"))

# inputs the generic builder cannot invent (maps and strings need meaningful values)
SPECIFIC: dict[str, dict[str, Any]] = {
    "sequences_maps_optionals": {"sparse_features": {"1": 0.5, "5": 2.0}},
    "string_ops": {"words": ["Hello", "world", "42"]},
}

BAD_MATMUL = """\
<ir_version: 8, opset_import: ["" : 18]>
bad (float[2, 3] a, float[4, 5] b) => (float[2, 5] y)
{
  t = Relu(a)
  y = MatMul(t, b)
}
"""

NESTED = """\
<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
nested (bool c, float[2, 3] a, float[4, 5] b) => (float[2, 5] y)
{
  y = If(c) <then_branch = tb () => (float[2, 5] r) {
      r = MatMul(a, b)
    }, else_branch = eb () => (float[2, 5] r2) {
      r2 = local.F(a, b)
    }>
}
<domain: "local", opset_import: ["" : 18]>
F (x, w) => (z)
{
  z = MatMul(x, w)
}
"""

A23 = "a=[[1, 2, 3], [4, 5, 6]]"
B45 = "b=" + json.dumps([[1.0] * 5] * 4)


def _value_for(tp: TypeProto, rng: np.random.Generator) -> Any:
    which = tp.WhichOneof("value")
    if which == "tensor_type":
        tt = tp.tensor_type
        shape = [d.dim_value if d.HasField("dim_value") else 2 for d in tt.shape.dim]
        if tt.elem_type in (1, 10, 11):
            return np.round(rng.standard_normal(shape), 3).tolist()
        if tt.elem_type == 9:
            return rng.integers(0, 2, shape).astype(bool).tolist()
        if tt.elem_type == 8:
            return np.full(shape, "word", dtype=object).tolist()
        return rng.integers(1, 4, shape).tolist()
    if which == "sequence_type":
        return [_value_for(tp.sequence_type.elem_type, rng)]
    if which == "map_type":
        key = "a" if tp.map_type.key_type == 8 else "1"
        return {key: _value_for(tp.map_type.value_type, rng)}
    if which == "optional_type":
        return _value_for(tp.optional_type.elem_type, rng)
    raise AssertionError(f"no value for {tp}")


def _example_inputs(path: Path) -> list[str]:
    doc = parse_document(path.read_text(), "model", str(path))
    assert doc.ok and isinstance(doc.proto, ModelProto)
    inits = {i.name for i in doc.proto.graph.initializer}
    rng = np.random.default_rng(0)
    args = []
    for inp in doc.proto.graph.input:
        if inp.name in inits:
            continue
        value = SPECIFIC.get(path.stem, {}).get(inp.name)
        if value is None:
            value = _value_for(inp.type, rng)
        args += ["--input", f"{inp.name}={json.dumps(value)}"]
    return args


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(["run", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_runs(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, str(path), *_example_inputs(path))
    assert status == 0, err
    assert "Traceback" not in err
    model = parse_document(path.read_text(), "model", str(path)).proto
    for output in model.graph.output:
        assert f"{output.name}: " in out


def test_shape_mismatch_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "bad.onnxtxt"
    model.write_text(BAD_MATMUL)
    status, out, err = _run(capsys, str(model), "--input", A23, "--input", B45)
    assert status == 1
    first = err.splitlines()[0]
    assert first.startswith(f"{model}:5:3: error[R002]: MatMul")
    assert "float32[2, 3], float32[4, 5]" in first
    assert "y = MatMul(t, b)" in err and "^" in err
    assert "Traceback" not in err


RECURSIVE = """<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
main (float[2] x) => (float[2] y)
{
   y = local.F (x)
}
<domain: "local", opset_import: ["" : 18, "local" : 1]>
F (a) => (b)
{
   t = Relu (a)
   b = local.G (t)
}
<domain: "local", opset_import: ["" : 18, "local" : 1]>
G (a) => (b)
{
   b = local.F (a)
}
"""


def test_a_recursive_function_is_a_located_error_not_a_too_deep_nesting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The checker's E405 case run anyway: the call that comes back is named (the run recursed
    until Python's limit and said only "input nested too deeply to process")."""
    model = tmp_path / "recursive.onnxtxt"
    model.write_text(RECURSIVE)
    status, _, err = _run(capsys, str(model), "--random-inputs")
    assert status == 1
    assert err.startswith(f"{model}:15:4: error[R002]: F: model-local function 'F' calls itself"), err
    assert "nested too deeply" not in err and "Traceback" not in err


@pytest.mark.parametrize("cond, line, col", [("true", 5, 7), ("false", 13, 3)])
def test_error_in_subgraph_and_function_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cond: str, line: int, col: int
) -> None:
    model = tmp_path / "nested.onnxtxt"
    model.write_text(NESTED)
    status, _, err = _run(capsys, str(model), "-i", f"c={cond}", "-i", A23, "-i", B45)
    assert status == 1
    assert err.startswith(f"{model}:{line}:{col}: error[R002]: MatMul"), err


def test_binary_model_error_gives_readable_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, binary = tmp_path / "bad.onnxtxt", tmp_path / "bad.onnx"
    text.write_text(BAD_MATMUL)
    assert cli.main(["parse", str(text), "-o", str(binary)]) == 0
    status, _, err = _run(capsys, str(binary), "--input", A23, "--input", B45)
    assert status == 1
    assert f"{binary}: error[R002]:" in err
    assert "graph/node[1] (MatMul)" in err


def test_locate_and_readable_path_direct() -> None:
    doc = parse_document(NESTED, "model", "n.onnxtxt")
    rec = NodeErrorRecord(
        message="x", node_index=0, op_type="MatMul", path=ProtoPath.parse("graph/node[0]/attribute[0]/g/node[0]")
    )
    span = doc.source_map.locate(rec.path)
    assert span is not None and NESTED[span.start : span.end].startswith("r = MatMul")
    rec = NodeErrorRecord(
        message="x",
        node_index=0,
        op_type="MatMul",
        path=ProtoPath.parse("functions[0]/node[0]"),
        function="F",
        input_index=1,
        input_name="w",
    )
    span = doc.source_map.locate(rec.path)
    assert span is not None and NESTED[span.start : span.end].startswith("z = MatMul")
    assert readable_path(rec, doc.proto) == "functions[0]/node[0] (MatMul) in function 'F' input 1 'w'"
    # a path the text does not have: the closest enclosing thing it has
    rec = NodeErrorRecord(message="x", path=ProtoPath.parse("graph/node[0]/attribute[1]/g/output[5]"))
    span = doc.source_map.locate(rec.path)
    assert span is not None and NESTED[span.start : span.end].startswith("eb ()")


@pytest.mark.parametrize(
    "cond, path",
    [
        ("true", "graph/node[0]/attribute[0]/g/node[0]"),
        ("false", "functions[0]/node[0]"),
    ],
)
def test_evaluator_records_the_failing_node_path(cond: str, path: str) -> None:
    doc = parse_document(NESTED, "model", "n.onnxtxt")
    a = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    with pytest.raises(EvaluationError) as info:
        Evaluator(doc.proto).run(None, {"c": np.array(cond == "true"), "a": a, "b": np.ones((4, 5), np.float32)})
    assert info.value.record.path == ProtoPath.parse(path)
    assert info.value.record.function == (None if cond == "true" else "F")


def test_output_dir_writes_npy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnxtxt"
    model.write_text(BAD_MATMUL.replace("float[4, 5] b", "float[3, 5] b").replace("(t, b)", "(t, b)"))
    out_dir = tmp_path / "out"
    status, out, err = _run(
        capsys, str(model), "-i", A23, "-i", "b=" + json.dumps([[1.0] * 5] * 3), "--output-dir", str(out_dir)
    )
    assert status == 0, err
    y = np.load(out_dir / "y.npy")
    np.testing.assert_allclose(y, np.maximum(np.array([[1, 2, 3], [4, 5, 6]]), 0) @ np.ones((3, 5)))
    assert y.dtype == np.float32


def test_output_names_are_sanitized(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnxtxt"
    model.write_text(
        '<ir_version: 8, opset_import: ["" : 18]>\n'
        'g (float[2] x) => (float[2] "../evil/y", float[2] "a b") {\n'
        '  "../evil/y" = Relu(x)\n  "a b" = Neg(x)\n}\n'
    )
    out_dir = tmp_path / "out"
    status, _, err = _run(capsys, str(model), "-i", "x=[1, -2]", "--output-dir", str(out_dir))
    assert status == 0, err
    assert sorted(p.name for p in out_dir.iterdir()) == ["_evil_y.npy", "a_b.npy"]
    assert not (tmp_path / "evil").exists()


def test_trace_lists_intermediates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnxtxt"
    model.write_text(BAD_MATMUL.replace("float[4, 5] b", "float[3, 5] b"))
    status, out, _ = _run(capsys, str(model), "-i", A23, "-i", "b=" + json.dumps([[1.0] * 5] * 3), "--trace")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "trace:"
    assert lines[1].startswith("  [0] t: float32[2, 3] min=1 max=6 mean=3.5")
    assert lines[2].startswith("  [1] y: float32[2, 5]")


@pytest.mark.parametrize(
    "arg, needle",
    [
        ("X", "expected NAME=VALUE"),
        ("=[1]", "expected NAME=VALUE"),
        ("X=", "no value"),
        ("X=[[1, 2", "neither a .npy/.pb file nor valid JSON"),
        ("X=[[1, 2], [3]]", "ragged"),
        ("Xx=[[1, 2, 3, 4]]", "did you mean 'X'"),
        ("X=missing.npy", "no such file"),
        ('X=[["a", 1, 2, 3]]', "not a float value"),
    ],
)
def test_bad_input_syntax(arg: str, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, str(EXAMPLES[0].parent / "mlp.onnxtxt"), "--input", arg)
    assert status in (1, 2)
    assert needle in err
    assert "Traceback" not in err


def test_missing_input_names_its_type(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, str(EXAMPLES[0].parent / "control_flow.onnxtxt"), "-i", "X=[1, 2, 3]")
    assert status == 1
    assert "missing inputs max_trips: int64, rows: float[T, 3]" in err


def test_npy_and_pb_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mlp = str(EXAMPLES[0].parent / "mlp.onnxtxt")
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 8
    np.save(tmp_path / "x.npy", x)
    tensor = TensorProto(dims=[2, 4], data_type=1, raw_data=x.astype("<f4").tobytes())
    (tmp_path / "x.pb").write_bytes(tensor.SerializeToString())
    (want,) = Evaluator(parse_document(Path(mlp).read_text(), "model", mlp).proto).run(None, {"X": x})
    for name in ("x.npy", "x.pb"):
        out_dir = tmp_path / name.replace(".", "_")
        status, _, err = _run(capsys, mlp, "-i", f"X={tmp_path / name}", "--output-dir", str(out_dir))
        assert status == 0, err
        np.testing.assert_array_equal(np.load(out_dir / "probs.npy"), want)
    (tmp_path / "junk.pb").write_bytes(b"\xff\xff\xff")
    status, _, err = _run(capsys, mlp, "-i", f"X={tmp_path / 'junk.pb'}")
    assert status == 1 and "not a serialized TensorProto" in err


def test_wrong_npy_dtype_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mlp = str(EXAMPLES[0].parent / "mlp.onnxtxt")
    np.save(tmp_path / "x.npy", np.zeros((2, 4), dtype=np.int64))
    status, _, err = _run(capsys, mlp, "-i", f"X={tmp_path / 'x.npy'}")
    assert status == 1
    assert "error[R002]: input 'X' is declared float but was fed int64" in err


def test_parse_errors_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "broken.onnxtxt"
    model.write_text("g (float[2] x) => (float[2] y) { y = Relu(x, 3) }")
    status, _, err = _run(capsys, str(model))
    assert status == 1 and "error[P001]" in err


def test_build_feeds_casts_to_declared_types() -> None:
    tp = TypeProto()
    tp.tensor_type.elem_type = 6  # int32
    feeds = build_feeds(["n=[1, 2]"], [("n", tp)])
    assert feeds["n"].dtype == np.int32
    with pytest.raises(InputError, match="not an integer"):
        build_feeds(["n=[1.5]"], [("n", tp)])
    with pytest.raises(InputError, match="twice"):
        build_feeds(["n=[1]", "n=[2]"], [("n", tp)])
    assert parse_input_arg("a=b=c") == ("a", "b=c")


def test_evaluation_error_as_diagnostic() -> None:
    doc = parse_document(BAD_MATMUL, "model", "bad.onnxtxt")
    feeds = {"a": np.ones((2, 3), np.float32), "b": np.ones((4, 5), np.float32)}
    with pytest.raises(EvaluationError) as info:
        Evaluator(doc.proto).run(None, feeds)
    located = info.value.diagnostic(model=doc.proto, source_map=doc.source_map, source=doc.source)
    assert located.code == "R002" and located.span is not None and located.path is None
    assert (located.span.start.line, located.span.start.column) == (5, 3)
    assert (
        located.message.startswith("MatMul input 1 'b': ")
        and "(inputs: float32[2, 3], float32[4, 5])" in located.message
    )
    binary = info.value.diagnostic(model=doc.proto)
    assert binary.span is None and binary.path == "graph/node[1] (MatMul) input 1 'b'"
    assert (
        info.value.diagnostics[0].code == "R002"
        and info.value.diagnostics[0].path == "graph/node[1] (MatMul) input 1 'b'"
    )


def test_trace_covers_subgraphs_with_their_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "loop.onnxtxt"
    model.write_text(
        '<ir_version: 8, opset_import: ["" : 18]>\n'
        "g (float[2] x) => (float[2] y) {\n"
        " n = Constant <value_int = 2> ()\n"
        " c = Constant <value = bool {1}> ()\n"
        " y = Loop (n, c, x) <body = body (int64 i, bool ci, float[2] v) => (bool co, float[2] w) {\n"
        "   co = Identity (ci)\n   w = Neg (v)\n }>\n"
        "}\n"
    )
    status, out, _ = _run(capsys, str(model), "-i", "x=[1, 2]", "--trace")
    assert status == 0
    lines = out.splitlines()
    body = [line for line in lines if line.startswith("  [graph/node[2]/attribute[0]/g/node[1]] w:")]
    assert len(body) == 2  # once per iteration
    assert "  [2] y: float32[2] min=1 max=2 mean=1.5" in lines


def test_outputs_that_contradict_their_declared_type_are_r003(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "m.onnxtxt"
    model.write_text('<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (int64[3] y) { y = Relu (x) }\n')
    status, out, err = _run(capsys, str(model), "--input", "x=[1, -2]")
    assert status == 1
    assert "y: float32[2]" in out  # the value is still shown
    assert err.startswith(
        f"{model}:2:20: error[R003]: output 'y' is declared int64[3] but the run gave float[2] (element "
        "type, size differ)"
    )


def test_symbols_take_one_size_per_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnxtxt"
    model.write_text(
        '<ir_version: 10, opset_import: ["" : 21]>\n'
        "g (float[N] x, float[M] z) => (float[N] y, float[N] w) { y = Relu (x)\n w = Relu (z) }\n"
    )
    status, _, err = _run(capsys, str(model), "--input", "x=[1, 2]", "--input", "z=[1, 2]")
    assert status == 0, err
    status, _, err = _run(capsys, str(model), "--input", "x=[1, 2]", "--input", "z=[1, 2, 3]")
    assert (
        status == 1
        and "output 'w' is declared float[N] but the run gave float[3] (size of N (already 2) differ)" in err
    )


def test_r003_on_a_binary_names_the_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from onnxtext import parse_model

    model = tmp_path / "m.onnx"
    text = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float y) { y = Relu (x) }\n'
    model.write_bytes(parse_model(text).SerializeToString())
    status, _, err = _run(capsys, str(model), "--input", "x=[1, 2]")
    assert status == 1 and "error[R003]" in err and "graph/output[0]" in err and "rank differ" in err


GROWING_LOOP = """\
<ir_version: 10, opset_import: ["" : 21]>
g (float[1, 2, 4] x) => (float[1, 5, 4] y) {
  n = Constant <value = int64 {3}> ()
  c = Constant <value = bool {1}> ()
  zero = Constant <value = int64[1] {0}> ()
  one = Constant <value = int64[1] {1}> ()
  y = Loop (n, c, x) <body = b (int64 i, bool cond, float[1, N, 4] h) => (bool co, float[d, 0, 4] h2)
  <float[1, 1, 4] row>
  {
    co = Identity (cond)
    row = Slice (h, zero, one, one)
    h2 = Concat <axis = 1> (h, row)
  }>
}
"""


def test_declarations_inside_a_loop_body_are_r003_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.onnxtxt"
    model.write_text(GROWING_LOOP)
    x = "x=[[[1, 1, 1, 1], [2, 2, 2, 2]]]"
    status, out, err = _run(capsys, str(model), "--input", x)
    assert status == 0 and "y: float32[1, 5, 4]" in out  # a warning: the run goes on, as onnxruntime's does
    assert err.count("R003") == 1
    assert err.startswith(
        f"{model}:7:84: warning[R003]: 'h2' is declared float[d, 0, 4] but the body gave float[1, 3, 4] (size differ)"
    )
    model.write_text(GROWING_LOOP.replace("float[1, 1, 4] row", "float[1, 2, 4] row"))  # declared before h2
    status, _, err = _run(capsys, str(model), "--input", x)
    assert status == 0
    assert [line.split(": warning")[0] for line in err.splitlines() if "warning[R003]" in line] == [
        f"{model}:8:4",
        f"{model}:7:84",
    ]
    model.write_text(GROWING_LOOP.replace("float[d, 0, 4] h2", "float[1, M, 4] h2"))  # a symbol may grow
    status, _, err = _run(capsys, str(model), "--input", x)
    assert status == 0 and "R003" not in err


def test_declared_mismatches_through_the_evaluator_api() -> None:
    from onnxtext import parse_model

    evaluator = Evaluator(parse_model(GROWING_LOOP))
    (y,) = evaluator.run(None, {"x": np.ones((1, 2, 4), np.float32)})
    assert y.shape == (1, 5, 4)
    assert {str(k): v for k, v in evaluator.declared_mismatches.items()} == {
        "graph/node[4]/attribute[0]/g/output[1]": "'h2' is declared float[d, 0, 4] "
        "but the body gave float[1, 3, 4] (size differ)"
    }
    evaluator.run(None, {"x": np.ones((1, 2, 4), np.float32)})
    assert len(evaluator.declared_mismatches) == 1  # each run starts afresh


MLP = str(EXAMPLES[0].parent / "mlp.onnxtxt")


def test_without_inputs_the_error_offers_random_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, MLP)
    assert status == 1 and out == ""
    assert err.strip() == (
        f"{MLP}: error: missing input X: float[N, 4] (give --input NAME=VALUE, or --random-inputs to make them "
        "up from their declared types)"
    )


@pytest.mark.parametrize("seed", [0, 7])
def test_random_inputs_are_the_editors(tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int) -> None:
    """``--random-inputs`` makes up the inputs as the editor's live values do (``synthesize``, its
    symbolic sizes, the one seed for the inputs and the random operators), issue #29 item 13."""
    from onnxtext.evaluate.synth import synthesize

    status, out, err = _run(capsys, MLP, "--random-inputs", "--seed", str(seed), "--output-dir", str(tmp_path))
    assert status == 0 and "Traceback" not in err, err
    lines = out.splitlines()
    assert lines[0] == f"made-up inputs (seed {seed}, N=2):" and lines[1].startswith("  X: float32[2, 4] ")
    assert lines[2] == "outputs:" and lines[3].startswith("probs: float32[2, 3] ")
    model = parse_document(Path(MLP).read_text()).proto
    assert isinstance(model, ModelProto)
    made = synthesize(model.graph, seed=seed)  # what the live run feeds the model
    (expected,) = Evaluator(model, seed=seed).run(None, made.feeds)
    np.testing.assert_array_equal(np.load(tmp_path / "probs.npy"), expected)


def test_random_inputs_make_up_only_those_not_given(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES[0].parent / "control_flow.onnxtxt")
    status, out, err = _run(capsys, path, "-i", "X=[1, 2, 3]", "--random-inputs")
    assert status == 0, err
    made = out.split("outputs:")[0]
    assert "T=2" in made.splitlines()[0] and "  rows: float32[2, 3] " in made and "  max_trips: int64[] " in made
    assert "  X:" not in made


def test_random_inputs_refuse_an_input_without_a_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "m.onnxtxt"
    text.write_text('<ir_version: 8, opset_import: ["" : 18]>\ng (x) => (y) {\n  y = Identity (x)\n}\n')
    status, out, err = _run(capsys, str(text), "--random-inputs")
    assert status == 1 and "Traceback" not in err
    assert f"{text}: error: input 'x' has no declared type: give its value" in err


def test_random_inputs_take_the_sizes_given(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, MLP, "--random-inputs", "--size", "N=3")
    assert status == 0 and out.splitlines()[:2] == [
        "made-up inputs (seed 0, N=3):",
        "  X: float32[3, 4] min=-0.994523 max=0.870145 mean=0.0539495",
    ]
    assert cli.main(["run", MLP, "--size", "N=3"]) == 2
    assert "--size applies to --random-inputs" in capsys.readouterr().err
