"""``onnxtext run`` on every exporter model (``corpus.exporters``) agrees with onnxruntime.

The inputs are the ones ``run --random-inputs --seed 0`` makes up (floats in [-1, 1]); the
integer inputs a generator names (token ids, masks) are drawn below their bound and given as
.npy files, the way a user gives them. onnxruntime runs the model with its graph optimizations
off: its fusions of QuantizeLinear/DequantizeLinear pairs into integer kernels round otherwise
than the operators they replace (0.04 on ``ort_quant_static_transformer``), and the model's
meaning is the unfused graph. Every operator of these models has a kernel (onnxruntime's
com.microsoft ones its quantization, optimizer and skl2onnx write included); one without would
be a located R002 naming it (tests/evaluate/test_api.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from corpus.exporters import GENERATORS, Generator  # noqa: E402

from onnxtext import cli  # noqa: E402
from onnxtext.evaluate import Evaluator  # noqa: E402
from onnxtext.evaluate.synth import synthesize  # noqa: E402
from onnxtext.proto import ModelProto  # noqa: E402

ort = pytest.importorskip("onnxruntime")

# float16 models: onnxruntime computes the operators it has no float16 kernel for (Erf, Softmax...)
# in float32 and rounds only at the Casts it inserts; the evaluator rounds every node's result
FLOAT16_TOLERANCE = {"rtol": 2e-3, "atol": 2e-3}
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}  # as tests/test_compare.py and the surgery tests


def _model(gen: Generator) -> ModelProto:
    for module in gen.requires:
        pytest.importorskip(module)
    return ModelProto.FromString(gen.ensure().read_bytes())


def _given(gen: Generator, model: ModelProto, folder: Path) -> tuple[dict[str, np.ndarray], list[str]]:
    """The integer inputs the generator bounds, drawn below their bound (each symbolic dimension
    5), and the ``--input`` arguments that give them as .npy files."""
    rng = np.random.default_rng(0)
    given: dict[str, np.ndarray] = {}
    args: list[str] = []
    for vi in model.graph.input:
        bound = dict(gen.integers).get(vi.name)
        if bound is None:
            continue
        dims = [d.dim_value if d.HasField("dim_value") else 5 for d in vi.type.tensor_type.shape.dim]
        given[vi.name] = rng.integers(0, bound, dims).astype(np.int64)
        np.save(folder / f"{vi.name}.npy", given[vi.name])
        args += ["--input", f"{vi.name}={folder / f'{vi.name}.npy'}"]
    return given, args


def _session(model: ModelProto) -> Any:
    """An onnxruntime session of ``model``, graph optimizations off. onnxruntime's StringNormalizer
    builds the locale en_US.UTF-8, which a machine may lack (then it refuses the model): that one is
    given the C locale, the same case folding of the ASCII texts the tests feed."""
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime's Fail: the message says whether it is the locale
        if "locale" not in str(exc):
            raise
    other = ModelProto()
    other.CopyFrom(model)
    for node in other.graph.node:
        if node.op_type == "StringNormalizer" and not any(a.name == "locale" for a in node.attribute):
            node.attribute.add(name="locale", s=b"C", type=3)  # AttributeProto.STRING
    return ort.InferenceSession(other.SerializeToString(), options, providers=["CPUExecutionProvider"])


def _stem(name: str) -> str:
    """The file name ``run --output-dir`` gives an output (cli/commands/run.py)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".") or "output"


def _max_abs_diff(ours: Any, theirs: Any) -> float:
    """The largest difference of two outputs: tensors, or sequences of maps (ZipMap)."""
    if isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs)
        worst = 0.0
        for a, b in zip(ours, theirs, strict=True):
            assert set(a) == set(b), (sorted(a), sorted(b))
            worst = max([worst, *(abs(float(a[k]) - float(b[k])) for k in b)])
        return worst
    a, b = np.asarray(ours), np.asarray(theirs)
    assert a.shape == b.shape, (a.shape, b.shape)
    if b.dtype == object or b.dtype.kind in "US":
        assert [str(v) for v in a.reshape(-1)] == [str(v) for v in b.reshape(-1)]
        return 0.0
    if b.dtype.kind in "iub":
        assert np.array_equal(a, b), (a, b)
        return 0.0
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)), initial=0.0))


def _close(ours: Any, theirs: Any, rtol: float, atol: float) -> None:
    if isinstance(theirs, list):
        for a, b in zip(ours, theirs, strict=True):
            np.testing.assert_allclose([a[k] for k in sorted(b)], [b[k] for k in sorted(b)], rtol=rtol, atol=atol)
    elif np.asarray(theirs).dtype.kind == "f":
        np.testing.assert_allclose(np.asarray(ours, np.float64), np.asarray(theirs, np.float64), rtol=rtol, atol=atol)


@pytest.mark.parametrize("gen", list(GENERATORS.values()), ids=list(GENERATORS))
def test_run_agrees_with_onnxruntime(gen: Generator, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = _model(gen)
    path = gen.path()
    given, args = _given(gen, model, tmp_path)
    argv = ["run", str(path), "--random-inputs", "--seed", "0", *args, "--output-dir", str(tmp_path / "out")]
    status = cli.main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert status == 0, err
    feeds = synthesize(model.graph, given=given, seed=0).feeds  # what --random-inputs made
    session = _session(model)
    expected = session.run(None, {i.name: feeds[i.name] for i in session.get_inputs()})
    api = None
    tolerance = FLOAT16_TOLERANCE if gen.name.startswith("float16_") else TOLERANCE
    for i, (info, theirs) in enumerate(zip(session.get_outputs(), expected, strict=True)):
        written = tmp_path / "out" / f"{_stem(info.name)}.npy"
        if written.exists():
            ours: Any = np.load(written)
        else:  # not a tensor (ZipMap's sequence of maps): said so, and compared through the API
            assert f"output {info.name!r} is not a tensor" in err
            api = api or Evaluator(model, seed=0).run(None, feeds)
            ours = api[i]
        worst = _max_abs_diff(ours, theirs)
        print(f"{gen.name} {info.name}: max abs diff {worst:.3g}")
        _close(ours, theirs, **tolerance)


@pytest.mark.slow
@pytest.mark.parametrize("gen", list(GENERATORS.values()), ids=list(GENERATORS))
def test_live_values_of_exported_model(gen: Generator) -> None:
    """The editor's live values (a budgeted child process) of every node: none skipped, no failure
    (a value's statistics once killed the child on torch's Slice to int64's maximum)."""
    from onnxtext.evaluate.live import Budget, run_live

    model = _model(gen)
    result = run_live(model, seed=0, budget=Budget(seconds=120.0))  # the editor's 5 s, but on a loaded machine
    assert result.skipped is None, result.skipped
    assert result.failure is None, result.failure.message
    produced = {o for n in model.graph.node for o in n.output if o}
    assert {v.name for v in result.values if v.graph == "graph"} == produced
    assert [v.name for v in result.outputs] == [o.name for o in model.graph.output]
