"""The hand-written models in ``examples/`` parse, check, run, and compute what they say.

Every ``examples/*.onnxtxt`` is parsed with :func:`onnxtext.parse_model`, converted with
:func:`onnxtext.proto.to_onnx`, validated by ``onnx.checker`` (``full_check=True``) and run
with onnxruntime on fixed inputs. The expected outputs are computed here, independently, in
numpy or plain Python, from the same inputs and from the weights read back out of the
protobuf with ``onnx.numpy_helper``. Each example has its own expected-output function in
``CASES``; a new example without one fails ``test_every_example_has_a_case``.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import numpy_helper  # noqa: E402

import onnxtext  # noqa: E402
from onnxtext.proto import to_onnx  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.onnxtxt"))
EXAMPLE_IDS = [p.stem for p in EXAMPLE_FILES]


# ---------------------------------------------------------------- helpers


def parse_example(path: Path) -> Any:
    """The example at ``path`` as an ``onnx.ModelProto``, through our parser."""
    text = path.read_text(encoding="utf-8")
    return to_onnx(onnxtext.parse_model(text, path=str(path)))


def initializer(model: Any, name: str) -> np.ndarray:
    """An initializer of the main graph as numpy, external data read from ``examples/``."""
    for t in model.graph.initializer:
        if t.name == name:
            return numpy_helper.to_array(t, base_dir=str(EXAMPLES))
    raise KeyError(name)


def external_locations(model: Any) -> set[str]:
    return {
        entry.value
        for t in model.graph.initializer
        if t.data_location == onnx.TensorProto.EXTERNAL
        for entry in t.external_data
        if entry.key == "location"
    }


def make_session(model: Any, tmp_path: Path, name: str) -> Any:
    """Check ``model`` fully and open an onnxruntime session on it.

    A model with external data is saved into ``tmp_path`` with its data files copied next
    to it, and checked and loaded from that path (the checker and the runtime resolve
    ``location`` relative to the model file).
    """
    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.intra_op_num_threads = 1
    locations = external_locations(model)
    if not locations:
        onnx.checker.check_model(model, full_check=True)
        return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    for loc in locations:
        shutil.copy(EXAMPLES / loc, tmp_path / loc)
    model_path = tmp_path / f"{name}.onnx"
    model_path.write_bytes(model.SerializeToString())
    onnx.checker.check_model(str(model_path), full_check=True)
    return ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])


def assert_same(actual: Any, expected: Any, rtol: float, atol: float, where: str) -> None:
    """Compare a runtime value (tensor, list of maps, ...) with the expected one."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected a map, got {type(actual).__name__}"
        assert sorted(actual) == sorted(expected), f"{where}: keys {sorted(actual)} != {sorted(expected)}"
        for k in expected:
            assert_same(actual[k], expected[k], rtol, atol, f"{where}[{k!r}]")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: expected a sequence, got {type(actual).__name__}"
        assert len(actual) == len(expected), f"{where}: length {len(actual)} != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            assert_same(a, e, rtol, atol, f"{where}[{i}]")
    elif isinstance(expected, np.ndarray) and expected.dtype.kind in "OUSb":
        actual = np.asarray(actual)
        assert actual.shape == expected.shape, f"{where}: shape {actual.shape} != {expected.shape}"
        assert actual.tolist() == expected.tolist(), f"{where}: {actual!r} != {expected!r}"
    elif isinstance(expected, np.ndarray) and expected.dtype.kind in "iu":
        actual = np.asarray(actual)
        assert actual.shape == expected.shape, f"{where}: shape {actual.shape} != {expected.shape}"
        np.testing.assert_array_equal(actual, expected, err_msg=where)
    else:
        expected_arr = np.asarray(expected)
        actual = np.asarray(actual)
        assert actual.shape == expected_arr.shape, f"{where}: shape {actual.shape} != {expected_arr.shape}"
        np.testing.assert_allclose(actual, expected_arr, rtol=rtol, atol=atol, err_msg=where)


@dataclass
class Run:
    """One set of inputs for an example and the outputs expected for them."""

    feeds: dict[str, Any]
    expected: dict[str, Any]
    rtol: float = 1e-5
    atol: float = 1e-5
    atol_per_output: dict[str, float] = field(default_factory=dict)


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0)


def leaky_relu(x: np.ndarray, alpha: float) -> np.ndarray:
    return np.where(x >= 0, x, alpha * x)


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# ---------------------------------------------------------------- expected outputs, one per example


def case_mlp(model: Any) -> list[Run]:
    W1, B1 = initializer(model, "W1"), initializer(model, "B1")
    W2, B2 = initializer(model, "W2"), initializer(model, "B2")
    assert W1.shape == (4, 8) and W2.shape == (8, 3)
    X = rng(0).normal(size=(5, 4)).astype(np.float32)
    probs = softmax(relu(X @ W1 + B1) @ W2 + B2)
    return [Run({"X": X}, {"probs": probs})]


def conv2d(x: np.ndarray, w: np.ndarray, b: np.ndarray, pad: int) -> np.ndarray:
    n, _, h, wd = x.shape
    out_c, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    y = np.zeros((n, out_c, oh, ow), dtype=np.float64)
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i : i + kh, j : j + kw]  # [n, in_c, kh, kw]
            y[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return y + b.reshape(1, -1, 1, 1)


def case_conv_block(model: Any) -> list[Run]:
    W, B = initializer(model, "conv_W"), initializer(model, "conv_B")
    scale, bias = initializer(model, "bn_scale"), initializer(model, "bn_bias")
    mean, var = initializer(model, "bn_mean"), initializer(model, "bn_var")
    X = rng(1).normal(size=(2, 2, 6, 6)).astype(np.float32)
    conv = conv2d(X.astype(np.float64), W, B, pad=1)
    c = (1, -1, 1, 1)
    bn = (conv - mean.reshape(c)) / np.sqrt(var.reshape(c) + 1e-5) * scale.reshape(c) + bias.reshape(c)
    act = relu(bn)
    n, ch, h, w = act.shape
    pooled = act.reshape(n, ch, h // 2, 2, w // 2, 2).max(axis=(3, 5))
    return [Run({"X": X}, {"Y": pooled}, rtol=1e-4, atol=1e-5)]


def case_attention(model: Any) -> list[Run]:
    Wq, Wk, Wv = (initializer(model, n) for n in ("W_q", "W_k", "W_v"))
    X = rng(2).normal(size=(2, 5, 4)).astype(np.float32)
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    weights = softmax(Q @ K.transpose(0, 2, 1) / np.sqrt(4.0))
    return [Run({"X": X}, {"context": weights @ V, "weights": weights})]


def case_control_flow(model: Any) -> list[Run]:
    two = float(initializer(model, "two"))
    limit = float(initializer(model, "limit"))
    row_weights = initializer(model, "row_weights")

    def expected(X: np.ndarray, max_trips: int, rows: np.ndarray) -> dict[str, Any]:
        branch = X * two if X.sum() > 0 else -X
        acc = np.zeros(3, dtype=np.float32)
        iters: list[int] = []
        for i in range(max_trips):  # Loop: run while i < max_trips and the condition holds
            acc = acc + X
            iters.append(i)
            if not acc.sum() < limit:
                break
        running = np.cumsum(rows * row_weights, axis=0)
        return {
            "branch_out": branch,
            "loop_sum": acc,
            "loop_iters": np.array(iters, dtype=np.int64),
            "scan_total": running[-1],
            "running_sum": running,
        }

    runs = []
    # Positive sum: then-branch; the Loop stops on its condition (total reaches the limit).
    # Negative sum: else-branch; the Loop stops after max_trips.
    for X, trips, seed in (([1.0, 2.0, 0.5], 10, 3), ([-1.0, 2.0, -3.5], 4, 4)):
        x = np.array(X, dtype=np.float32)
        rows = rng(seed).normal(size=(6, 3)).astype(np.float32)
        feeds = {"X": x, "max_trips": np.array(trips, dtype=np.int64), "rows": rows}
        runs.append(Run(feeds, expected(x, trips, rows)))
    # Zero trips: the Loop body never runs.
    x = np.array([1.0, 1.0, 1.0], dtype=np.float32)
    rows = np.ones((1, 3), dtype=np.float32)
    runs.append(Run({"X": x, "max_trips": np.array(0, dtype=np.int64), "rows": rows}, expected(x, 0, rows)))
    return runs


def case_local_function(model: Any) -> list[Run]:
    X = rng(5).normal(size=(3, 4)).astype(np.float32)
    return [
        Run(
            {"X": X},
            {
                # defaults of ScaledLeakyRelu: alpha = 0.1, scale = 1.0
                "Y_default": 1.0 * leaky_relu(X, 0.1),
                # the second call overrides both: alpha = 0.3, scale = 2.0
                "Y_custom": 2.0 * leaky_relu(X, 0.3),
            },
        )
    ]


def case_sequences_maps_optionals(model: Any) -> list[Run]:
    short_vec = np.array([1.5, -2.0], dtype=np.float32)
    long_vec = np.array([3.0, 4.25, -5.0], dtype=np.float32)
    sparse = {1: 0.5, 5: 2.0, 7: 9.0}  # key 7 is not in the vocabulary, key 2 is missing
    scores = rng(6).random(size=(3, 3)).astype(np.float32)
    vocabulary = [1, 2, 5]
    labels = [10, 20, 30]
    expected = {
        "num_parts": np.array(2, dtype=np.int64),
        "second_part": long_vec,
        "joined": np.concatenate([short_vec, long_vec]),
        "maybe_vec": short_vec,
        "has_value": np.array(True),
        "unwrapped": short_vec,
        "empty_has_value": np.array(False),
        "dense_features": np.array([[sparse.get(k, 0.0) for k in vocabulary]], dtype=np.float32),
        "scores_by_label": [dict(zip(labels, row.tolist(), strict=True)) for row in scores],
    }
    feeds = {"short_vec": short_vec, "long_vec": long_vec, "sparse_features": sparse, "class_scores": scores}
    return [Run(feeds, expected)]


def case_quantized(model: Any) -> list[Run]:
    x_scale, x_zp = float(initializer(model, "x_scale")), int(initializer(model, "x_zero_point"))
    w_scale, w_zp = float(initializer(model, "w_scale")), int(initializer(model, "w_zero_point"))
    y_scale, y_zp = float(initializer(model, "y_scale")), int(initializer(model, "y_zero_point"))
    W_q = initializer(model, "W_q")
    assert W_q.dtype == np.int8 and initializer(model, "x_zero_point").dtype == np.uint8

    X = rng(7).uniform(-3.0, 3.0, size=(4, 4)).astype(np.float32)
    X_q = np.clip(np.rint(X.astype(np.float64) / x_scale) + x_zp, 0, 255).astype(np.int64)
    acc = (X_q - x_zp) @ (W_q.astype(np.int64) - w_zp)  # exact integer accumulator
    Y_q = np.clip(np.rint(acc * (x_scale * w_scale / y_scale)) + y_zp, 0, 255)
    return [
        Run(
            {"X": X},
            {
                "Y_qlinear": (Y_q - y_zp) * y_scale,
                "Y_integer": acc * (x_scale * w_scale),
            },
            # QLinearMatMul requantizes in float32: allow one step of the output scale.
            atol_per_output={"Y_qlinear": y_scale + 1e-6},
        )
    ]


def case_external_weights(model: Any) -> list[Run]:
    W, B = initializer(model, "W"), initializer(model, "B")
    X = rng(8).normal(size=(3, 4)).astype(np.float32)
    return [Run({"X": X}, {"Y": X * W + B})]


def case_layernorm(model: Any) -> list[Run]:
    gamma, beta = initializer(model, "gamma"), initializer(model, "beta")
    X = (rng(9).normal(size=(4, 6)) * 3 + 1).astype(np.float32)
    x = X.astype(np.float64)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    inv_std = 1.0 / np.sqrt(var + 1e-5)
    y = (x - mean) * inv_std * gamma + beta
    return [Run({"X": X}, {"Y_op": y, "inv_std_dev": inv_std, "Y_manual": y}, rtol=1e-4, atol=1e-5)]


def case_string_ops(model: Any) -> list[Run]:
    words = ["The", "Quick-Brown", "fox", "3.14", "A", "42", "3x14", "x-Y-z"]
    stopwords = {"the", "a"}
    cleaned = [w.lower() for w in words if w.lower() not in stopwords]
    number = re.compile(r"[0-9]+(\.[0-9]+)?")  # "3x14" must not match: the pattern has `\.`
    splits = [w.split("-") for w in cleaned]
    width = max(len(s) for s in splits)
    expected = {
        "cleaned": np.array(cleaned, dtype=object),
        "is_number": np.array([number.fullmatch(w) is not None for w in cleaned]),
        "tagged": np.array([w + "/tok" for w in cleaned], dtype=object),
        "pieces": np.array([s + [""] * (width - len(s)) for s in splits], dtype=object),
        "num_pieces": np.array([len(s) for s in splits], dtype=np.int64),
    }
    return [Run({"words": np.array(words, dtype=object)}, expected)]


def case_annotations(model: Any) -> list[Run]:
    # The fields set by header keys and property blocks are in the protobuf.
    assert model.model_version == 3
    assert model.doc_string == "Adds a learned bias,\nthen applies a leaky ReLU."
    assert {p.key: p.value for p in model.metadata_props} == {"author": "onnxtext examples", "license": "Apache-2.0"}
    g = model.graph
    assert g.doc_string == "The main graph."
    assert g.input[0].doc_string == "input features" and g.output[0].doc_string == "activations"
    assert [t.doc_string for t in g.initializer] == ["learned per-feature bias"]
    assert [vi.name for vi in g.value_info] == ["shifted"]
    assert [n.name for n in g.node] == ["add_bias", "activation"]
    assert g.node[0].doc_string == "X + bias, broadcast over the batch"
    assert g.node[1].attribute[0].doc_string == "slope for negative inputs"
    assert {p.key: p.value for p in g.node[1].metadata_props} == {"origin": "hand-written"}

    bias = initializer(model, "bias")
    X = rng(10).normal(size=(3, 4)).astype(np.float32)
    return [Run({"X": X}, {"Y": leaky_relu(X + bias, 0.1)})]


CASES: dict[str, Callable[[Any], list[Run]]] = {
    "mlp": case_mlp,
    "conv_block": case_conv_block,
    "attention": case_attention,
    "control_flow": case_control_flow,
    "local_function": case_local_function,
    "sequences_maps_optionals": case_sequences_maps_optionals,
    "quantized": case_quantized,
    "external_weights": case_external_weights,
    "layernorm": case_layernorm,
    "string_ops": case_string_ops,
    "annotations": case_annotations,
}


# ---------------------------------------------------------------- tests


def test_examples_exist() -> None:
    assert len(EXAMPLE_FILES) >= 8, EXAMPLE_FILES


def test_every_example_has_a_case() -> None:
    assert sorted(EXAMPLE_IDS) == sorted(CASES), "each examples/*.onnxtxt needs an expected-output function in CASES"


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=EXAMPLE_IDS)
def test_example_header(path: Path) -> None:
    """Each example opens with a comment that explains it."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# "), f"{path.name} should start with a '# ...' header comment"
    model = parse_example(path)
    assert model.ir_version == 10
    assert {o.domain: o.version for o in model.opset_import}.get("") == 21


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=EXAMPLE_IDS)
def test_example_runs(path: Path, tmp_path: Path) -> None:
    """Parse, convert, check fully, run with onnxruntime, compare with numpy."""
    model = parse_example(path)
    runs = CASES[path.stem](model)
    session = make_session(model, tmp_path, path.stem)
    output_names = [o.name for o in session.get_outputs()]
    for k, run in enumerate(runs):
        assert sorted(run.expected) == sorted(output_names), "the case must cover every graph output"
        results = dict(zip(output_names, session.run(output_names, run.feeds), strict=True))
        for name in output_names:
            atol = run.atol_per_output.get(name, run.atol)
            assert_same(results[name], run.expected[name], run.rtol, atol, f"{path.stem} run {k}: {name}")


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=EXAMPLE_IDS)
def test_example_matches_onnx_parser(path: Path) -> None:
    """Where onnx.parser accepts an example, it builds the very same protobuf."""
    text = path.read_text(encoding="utf-8")
    try:
        reference = onnx.parser.parse_model(text)
    except onnx.parser.ParseError:
        pytest.skip("uses onnxtext extensions that onnx.parser does not accept")
    assert parse_example(path).SerializeToString() == reference.SerializeToString()


def test_external_weights_proto() -> None:
    model = parse_example(EXAMPLES / "external_weights.onnxtxt")
    for name, offset in (("W", "0"), ("B", "16")):
        (t,) = [t for t in model.graph.initializer if t.name == name]
        assert t.data_location == onnx.TensorProto.EXTERNAL
        assert not t.HasField("raw_data") and not t.float_data
        assert {e.key: e.value for e in t.external_data} == {
            "location": "external_weights.bin",
            "offset": offset,
            "length": "16",
        }


def test_external_weights_bin_is_reproducible() -> None:
    """The committed .bin is exactly what examples/make_external_weights.py writes."""
    spec = importlib.util.spec_from_file_location("make_external_weights", EXAMPLES / "make_external_weights.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    expected = module.W.astype("<f4").tobytes() + module.B.astype("<f4").tobytes()
    assert (EXAMPLES / "external_weights.bin").read_bytes() == expected


def _format_text() -> Callable[..., str]:
    try:
        from onnxtext.syntax.format import format_text
    except ImportError as exc:  # the formatter is not there yet
        pytest.skip(f"onnxtext.syntax.format is not available: {exc}")
    return format_text


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=EXAMPLE_IDS)
def test_example_format_is_stable(path: Path) -> None:
    """Formatting twice gives the same text as formatting once."""
    format_text = _format_text()
    text = path.read_text(encoding="utf-8")
    once = format_text(text, path=str(path))
    twice = format_text(once, path=str(path))
    assert twice == once


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=EXAMPLE_IDS)
def test_example_format_keeps_meaning(path: Path) -> None:
    """The formatted text denotes the same model and keeps every comment line."""
    format_text = _format_text()
    text = path.read_text(encoding="utf-8")
    formatted = format_text(text, path=str(path))
    original = onnxtext.parse_model(text, path=str(path))
    assert onnxtext.parse_model(formatted, path=str(path)) == original
    assert _comments(formatted) == _comments(text)


def _comments(text: str) -> list[str]:
    """The comments of a text, in order (no example has a '#' inside a string)."""
    return [m.group().rstrip() for m in re.finditer(r"#.*", text)]
