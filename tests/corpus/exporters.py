"""Models made by real exporters (torch, skl2onnx, onnxscript), generated into a cache folder.

What people run: torch's TorchScript and dynamo exporters (MLP, CNNs with BatchNorm, ResNet and
MobileNet-like convnets, LSTM/GRU/RNN, transformer blocks, a tiny GPT with a dynamic sequence
length, indexing ops, int64 embeddings), onnxruntime's tools applied to those exports
(quantization: dynamic, static QDQ per channel, static QOperator; the transformers optimizer),
a float16 conversion, skl2onnx pipelines (ZipMap, ColumnTransformer, text, trees, SVM, KMeans)
and onnxscript functions (local functions, control flow, Loop with sequences).

The cache is ``$ONNXTEXT_CACHE/exporters`` (default ``<repo>/.cache/exporters``); each
model is ``<name>.onnx`` and is made once, on first use, by its generator. Generators
are deterministic (fixed seeds, fixed data) and import their exporter lazily, so a
missing package only skips that model (the test calls ``pytest.importorskip`` with
:attr:`Generator.requires`). Nothing generated is ever committed.

The packages are the ``exporters`` extra of ``pyproject.toml`` (onnxruntime, whose quantization
and transformers optimizer some generators use, is in the ``test`` extra).
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def cache_dir() -> Path:
    base = os.environ.get("ONNXTEXT_CACHE")
    return (Path(base) if base else REPO / ".cache") / "exporters"


@dataclass(frozen=True)
class Generator:
    name: str
    requires: tuple[str, ...]
    make: Callable[[Path], None]  # writes the model to the given file
    # input name → exclusive upper bound of the integers a test may feed it (token ids below the
    # vocabulary size, a 0/1 mask); an integer input not named here is fed zeros
    integers: tuple[tuple[str, int], ...] = ()

    def path(self) -> Path:
        return cache_dir() / f"{self.name}.onnx"

    def installed(self) -> bool:
        """Whether every package the generator needs imports."""
        try:
            for module in self.requires:
                importlib.import_module(module)
        except ImportError:
            return False
        return True

    def ensure(self) -> Path:
        """The cached model, generated first if it is not there yet."""
        target = self.path()
        if target.exists():
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.name}-", suffix=".onnx", dir=target.parent)
        os.close(fd)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self.make(Path(tmp))
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return target


# --------------------------------------------------------------------------- torch

TORCH_OPSET = 18


def _torch_modules() -> dict[str, Callable[[], tuple[object, tuple[object, ...]]]]:
    """name → factory of (module in eval mode, example inputs), all seeded."""
    import torch
    from torch import nn

    def _running_statistics(m: nn.Module) -> None:
        """Non-trivial running statistics in every BatchNorm, so none is an identity."""
        with torch.no_grad():
            for bn in m.modules():
                if isinstance(bn, nn.BatchNorm2d):
                    bn.running_mean.uniform_(-0.3, 0.3)
                    bn.running_var.uniform_(0.5, 1.5)

    def mlp() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)
        m = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.GELU(), nn.Linear(16, 4), nn.Softmax(-1))
        return m.eval(), (torch.randn(2, 8),)

    def cnn_bn() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)
        m = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 4, 3, stride=2),
            nn.BatchNorm2d(4),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(4, 3),
        )
        # non-trivial running statistics, so BatchNorm is not an identity
        with torch.no_grad():
            for bn in (m[1], m[5]):
                bn.running_mean.uniform_(-0.5, 0.5)
                bn.running_var.uniform_(0.5, 1.5)
        return m.eval(), (torch.randn(1, 3, 16, 16),)

    def transformer() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)

        class Encoder(nn.Module):
            # a wrapper taking only the tensor: traced directly, the layer's default
            # ``is_causal=False`` reaches scaled_dot_product_attention as a tensor
            def __init__(self) -> None:
                super().__init__()
                self.layer = nn.TransformerEncoderLayer(
                    d_model=16, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True
                )

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.layer(x)

        return Encoder().eval(), (torch.randn(1, 5, 16),)

    def lstm() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)

        class Net(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.lstm = nn.LSTM(input_size=6, hidden_size=8, num_layers=1, batch_first=True)
                self.head = nn.Linear(8, 2)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                out, _ = self.lstm(x)
                return self.head(out[:, -1])

        return Net().eval(), (torch.randn(1, 4, 6),)

    def rnn_bidirectional() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)

        class Net(nn.Module):
            # a bidirectional GRU into a bidirectional tanh RNN: two ONNX recurrent ops with
            # direction "bidirectional" and the layout changes between them
            def __init__(self) -> None:
                super().__init__()
                self.gru = nn.GRU(input_size=6, hidden_size=5, batch_first=True, bidirectional=True)
                self.rnn = nn.RNN(input_size=10, hidden_size=4, batch_first=True, bidirectional=True)
                self.head = nn.Linear(8, 2)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                h, _ = self.gru(x)
                h, _ = self.rnn(h)
                return self.head(h[:, -1])

        return Net().eval(), (torch.randn(1, 5, 6),)

    def resnet() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)

        class Basic(nn.Module):
            def __init__(self, cin: int, cout: int, stride: int) -> None:
                super().__init__()
                self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
                self.bn1 = nn.BatchNorm2d(cout)
                self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
                self.bn2 = nn.BatchNorm2d(cout)
                self.down = (
                    nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                    if stride != 1 or cin != cout
                    else nn.Identity()
                )

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                y = torch.relu(self.bn1(self.conv1(x)))
                return torch.relu(self.bn2(self.conv2(y)) + self.down(x))

        m = nn.Sequential(
            nn.Conv2d(3, 8, 3, 1, 1, bias=False),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            Basic(8, 8, 1),
            Basic(8, 16, 2),
            Basic(16, 16, 1),
            nn.AdaptiveAvgPool2d((1, 1)),
            nn.Flatten(),
            nn.Linear(16, 5),
        )
        _running_statistics(m)
        return m.eval(), (torch.randn(1, 3, 16, 16),)

    def mobilenet() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)

        def separable(cin: int, cout: int, stride: int) -> nn.Module:
            return nn.Sequential(
                nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),  # depthwise
                nn.BatchNorm2d(cin),
                nn.ReLU6(),
                nn.Conv2d(cin, cout, 1, bias=False),  # pointwise
                nn.BatchNorm2d(cout),
                nn.Hardswish(),
            )

        m = nn.Sequential(
            nn.Conv2d(3, 8, 3, 2, 1, bias=False),
            nn.BatchNorm2d(8),
            nn.ReLU6(),
            separable(8, 16, 1),
            separable(16, 24, 2),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(24, 4),
        )
        _running_statistics(m)
        return m.eval(), (torch.randn(1, 3, 16, 16),)

    def gpt() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)

        class Block(nn.Module):
            def __init__(self, d: int, heads: int) -> None:
                super().__init__()
                self.heads = heads
                self.ln1 = nn.LayerNorm(d)
                self.qkv = nn.Linear(d, 3 * d)
                self.proj = nn.Linear(d, d)
                self.ln2 = nn.LayerNorm(d)
                self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                b, t, c = x.shape
                q, k, v = self.qkv(self.ln1(x)).split(c, dim=-1)
                q, k, v = (y.view(b, t, self.heads, c // self.heads).transpose(1, 2) for y in (q, k, v))
                a = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
                x = x + self.proj(a.transpose(1, 2).reshape(b, t, c))
                return x + self.mlp(self.ln2(x))

        class GPT(nn.Module):
            def __init__(self, vocab: int = 50, d: int = 16, heads: int = 2, ctx: int = 32) -> None:
                super().__init__()
                self.tok = nn.Embedding(vocab, d)
                self.pos = nn.Embedding(ctx, d)
                self.blocks = nn.ModuleList([Block(d, heads) for _ in range(2)])
                self.ln = nn.LayerNorm(d)
                self.head = nn.Linear(d, vocab, bias=False)

            def forward(self, ids: torch.Tensor) -> torch.Tensor:
                positions = torch.arange(ids.shape[1], dtype=torch.int64).unsqueeze(0)
                x = self.tok(ids) + self.pos(positions)
                for block in self.blocks:
                    x = block(x)
                return self.head(self.ln(x))

        return GPT().eval(), (torch.randint(0, 50, (1, 6), dtype=torch.int64),)

    def indexing() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)

        class Net(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.w = nn.Parameter(torch.randn(6, 6))

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                mixed = torch.einsum("bi,ij->bj", x, self.w)
                values, idx = torch.topk(mixed, 3, dim=-1)
                picked = torch.gather(x, 1, idx)
                scattered = torch.zeros_like(x).scatter(1, idx, values)
                run = torch.cumsum(scattered, dim=1)
                gate = torch.where(run > 0, run, picked.sum(-1, keepdim=True) * 0.1)
                return gate + torch.einsum("bi,bi->b", x, x).unsqueeze(-1)

        return Net().eval(), (torch.randn(3, 6),)

    def embedding() -> tuple[object, tuple[object, ...]]:
        torch.manual_seed(0)

        class Net(nn.Module):
            # token ids and an attention mask, both int64: a masked mean of the embeddings
            def __init__(self) -> None:
                super().__init__()
                self.emb = nn.Embedding(40, 8, padding_idx=0)
                self.proj = nn.Linear(8, 4)

            def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
                e = self.emb(ids) * mask.unsqueeze(-1).to(torch.float32)
                pooled = e.sum(1) / mask.sum(1, keepdim=True).clamp(min=1).to(torch.float32)
                return nn.functional.normalize(self.proj(pooled), dim=-1)

        ids = torch.randint(1, 40, (2, 7), dtype=torch.int64)
        mask = torch.ones(2, 7, dtype=torch.int64)
        mask[1, 4:] = 0
        return Net().eval(), (ids, mask)

    return {
        "mlp": mlp,
        "cnn_bn": cnn_bn,
        "transformer": transformer,
        "lstm": lstm,
        "rnn_bidirectional": rnn_bidirectional,
        "resnet": resnet,
        "mobilenet": mobilenet,
        "gpt": gpt,
        "indexing": indexing,
        "embedding": embedding,
    }


TORCH_MODELS = ("mlp", "cnn_bn", "transformer", "lstm")
# later additions: architectures people export (each through both exporters where it works)
TORCH_MODELS_WIDE = ("rnn_bidirectional", "resnet", "mobilenet", "gpt", "indexing", "embedding")
# input names and the dimensions each exporter makes symbolic (default: "input" with a batch)
_TORCH_DYNAMIC: dict[str, dict[str, dict[int, str]]] = {
    "gpt": {"ids": {1: "seq"}},
    "embedding": {"ids": {0: "batch", 1: "seq"}, "mask": {0: "batch", 1: "seq"}},
}


def _torch_export(model: str, dynamo: bool, variant: str = "") -> Callable[[Path], None]:
    """``variant``: "" plain; "functions" TorchScript with ``export_modules_as_functions``;
    "dynamic" dynamo with a symbolic batch dimension."""

    def make(path: Path) -> None:
        import torch
        from torch import nn

        module, args = _torch_modules()[model]()
        inputs = _TORCH_DYNAMIC.get(model, {"input": {0: "batch"}})
        outputs = {1: "seq"} if model == "gpt" else {0: "batch"}
        # the TorchScript exporter cannot export the fused fast path of nn.MultiheadAttention
        fastpath = torch.backends.mha.get_fastpath_enabled()
        torch.backends.mha.set_fastpath_enabled(False)
        try:
            with torch.no_grad():
                if dynamo:
                    extra: dict[str, object] = {}
                    if variant == "dynamic":
                        dims = {
                            "batch": torch.export.Dim("batch", min=1, max=64),
                            "seq": torch.export.Dim("seq", max=32),
                        }
                        extra["dynamic_shapes"] = tuple(
                            {axis: dims[d] for axis, d in axes.items()} for name, axes in inputs.items()
                        )
                    program = torch.onnx.export(
                        module, args, dynamo=True, opset_version=TORCH_OPSET, verbose=False, **extra
                    )
                    assert program is not None
                    program.save(str(path), external_data=False)
                else:
                    torch.onnx.export(
                        module,
                        args,
                        str(path),
                        dynamo=False,
                        opset_version=TORCH_OPSET,
                        input_names=list(inputs),
                        output_names=["output"],
                        dynamic_axes={**inputs, "output": outputs},
                        # one module type of one instance: with several, torch picks the
                        # function bodies (and their order) in set order, differing per run
                        export_modules_as_functions={nn.GELU} if variant == "functions" else False,
                    )
        finally:
            torch.backends.mha.set_fastpath_enabled(fastpath)

    return make


# --------------------------------------------------------------------------- onnxruntime.quantization
#
# onnxruntime's quantization tool applied to the TorchScript exports above: dynamic
# (DynamicQuantizeLinear, MatMulInteger, ConvInteger) and static in the QDQ format, per
# channel, calibrated on seeded random batches (QuantizeLinear/DequantizeLinear with uint8
# activations and int8 weights, or int8 everywhere).


def _quantized(model: str, mode: str) -> Callable[[Path], None]:
    """``mode``: "dynamic", "static" (QDQ, per channel) or "qoperator" (static, each operator
    replaced by its quantized one: QLinearConv, and onnxruntime's com.microsoft QGemm,
    QLinearGlobalAveragePool...)."""

    def make(path: Path) -> None:
        import numpy as np
        from onnxruntime.quantization import (
            CalibrationDataReader,
            CalibrationMethod,
            QuantFormat,
            QuantType,
            quantize_dynamic,
            quantize_static,
        )

        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "float.onnx"
            _torch_export(model, dynamo=False)(source)
            module, args = _torch_modules()[model]()
            shapes = [tuple(a.shape) for a in args]  # type: ignore[attr-defined]
            # ConvInteger runs on uint8 weights only; MatMulInteger takes int8 ones
            conv = model in ("cnn_bn", "resnet")
            if mode == "dynamic":
                quantize_dynamic(
                    source, path, weight_type=QuantType.QUInt8 if conv else QuantType.QInt8, per_channel=False
                )
                return

            class Batches(CalibrationDataReader):
                def __init__(self) -> None:
                    rng = np.random.RandomState(0)
                    self.batches = iter([{"input": rng.randn(*shapes[0]).astype(np.float32)} for _ in range(8)])

                def get_next(self) -> dict[str, object] | None:
                    return next(self.batches, None)

            quantize_static(
                source,
                path,
                Batches(),
                quant_format=QuantFormat.QOperator if mode == "qoperator" else QuantFormat.QDQ,
                per_channel=mode == "static",
                activation_type=QuantType.QUInt8 if conv else QuantType.QInt8,
                weight_type=QuantType.QInt8,
                calibrate_method=CalibrationMethod.MinMax,
            )

    return make


def _ort_optimized(model: str, model_type: str) -> Callable[[Path], None]:
    """A TorchScript export through onnxruntime.transformers' optimizer, as deployments of
    transformers run it: layer norms fused with their residual (com.microsoft
    SkipLayerNormalization), GELUs into FastGelu."""

    def make(path: Path) -> None:
        from onnxruntime.transformers.optimizer import optimize_model

        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "float.onnx"
            _torch_export(model, dynamo=False)(source)
            optimized = optimize_model(str(source), model_type=model_type, num_heads=2, hidden_size=16, opt_level=0)
            optimized.save_model_to_file(str(path))  # as users save it: this adds the com.microsoft import

    return make


def _float16(model: str) -> Callable[[Path], None]:
    """A TorchScript export converted to float16 by hand (what onnxconverter_common's
    ``convert_float_to_float16(keep_io_types=True)`` does): every float tensor and value
    becomes float16, with a Cast at each float input and output so the interface stays float."""

    def make(path: Path) -> None:
        import numpy as np
        import onnx
        from onnx import TensorProto, helper, numpy_helper

        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "float.onnx"
            _torch_export(model, dynamo=False)(source)
            m = onnx.load(str(source))

        def half(t: onnx.TensorProto) -> onnx.TensorProto:
            if t.data_type != TensorProto.FLOAT:
                return t
            return numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float16), t.name)

        g = m.graph
        for i, t in enumerate(list(g.initializer)):
            g.initializer[i].CopyFrom(half(t))
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.TENSOR:
                    a.t.CopyFrom(half(a.t))
                if n.op_type == "Cast" and a.name == "to" and a.i == TensorProto.FLOAT:
                    a.i = TensorProto.FLOAT16
        del g.value_info[:]

        def inside(name: str) -> str:
            """Every node's use of ``name`` renamed to the float16 value inside the graph."""
            inner = f"{name}_fp16"
            for n in g.node:
                for names in (n.input, n.output):
                    for k, used in enumerate(names):
                        if used == name:
                            names[k] = inner
            return inner

        floats = [v.name for v in g.input if v.type.tensor_type.elem_type == TensorProto.FLOAT]
        results = [v.name for v in g.output if v.type.tensor_type.elem_type == TensorProto.FLOAT]
        head = [helper.make_node("Cast", [v], [inside(v)], name=f"{v}_to_fp16", to=TensorProto.FLOAT16) for v in floats]
        tail = [helper.make_node("Cast", [inside(v)], [v], name=f"{v}_to_fp32", to=TensorProto.FLOAT) for v in results]
        nodes = head + list(g.node) + tail
        del g.node[:]
        g.node.extend(nodes)
        path.write_bytes(m.SerializeToString())

    return make


# --------------------------------------------------------------------------- skl2onnx


def _skl_data(n_features: int = 4, seed: int = 0) -> tuple[object, object]:
    import numpy as np

    rng = np.random.RandomState(seed)
    x = rng.randn(60, n_features).astype(np.float32)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(np.int64) + (x[:, 2] > 1).astype(np.int64)
    return x, y


def _skl_save(path: Path, onx: object) -> None:
    # skl2onnx lists opset_import in set order, which changes with the hash seed:
    # sort it so the cached model is the same on every run
    imports = sorted(onx.opset_import, key=lambda o: o.domain)  # type: ignore[attr-defined]
    copies = [type(o)() for o in imports]
    for c, o in zip(copies, imports, strict=True):
        c.CopyFrom(o)
    del onx.opset_import[:]  # type: ignore[attr-defined]
    onx.opset_import.extend(copies)  # type: ignore[attr-defined]
    path.write_bytes(onx.SerializeToString())  # type: ignore[attr-defined]


def _skl_float(estimator_factory: Callable[[], object], options: dict | None = None) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        from skl2onnx import to_onnx

        x, y = _skl_data()
        est = estimator_factory()
        est.fit(x, y)  # type: ignore[attr-defined]
        _skl_save(path, to_onnx(est, x[:1], target_opset=18, options=options))

    return make


def _logreg() -> object:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(max_iter=200)


def _forest() -> object:
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(n_estimators=3, max_depth=3, random_state=0)


def _scaler_svc() -> object:
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    return make_pipeline(StandardScaler(), SVC(probability=True, random_state=0))


def _skl_tfidf(path: Path) -> None:
    import numpy as np
    from skl2onnx import to_onnx
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    docs = np.array(
        [
            "the cat sat on the mat",
            "dogs chase the cat",
            "a bird sings in the tree",
            "the dog sleeps on the mat",
            "birds fly over trees",
            "cats and dogs play",
        ]
    )
    labels = np.array([0, 1, 2, 0, 2, 1])
    pipe = make_pipeline(TfidfVectorizer(), LogisticRegression(max_iter=200))
    pipe.fit(docs, labels)
    onx = to_onnx(pipe, docs[:1].reshape(-1, 1), target_opset=18, options={id(pipe.steps[-1][1]): {"zipmap": False}})
    _skl_save(path, onx)


def _skl_onehot_tree(path: Path) -> None:
    """Two string columns (one non-ASCII category): OneHotEncoder into a DecisionTreeRegressor."""
    import numpy as np
    from skl2onnx import to_onnx
    from skl2onnx.common.data_types import StringTensorType
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.tree import DecisionTreeRegressor

    rng = np.random.RandomState(0)
    colors = np.array(["red", "green", "blue", "grün"])[rng.randint(0, 4, 40)]
    sizes = np.array(["S", "M", "L"])[rng.randint(0, 3, 40)]
    x = np.stack([colors, sizes], axis=1).astype(object)
    y = (colors == "red") * 2.0 - (colors == "grün") + (sizes == "L") * 0.5
    pipe = make_pipeline(OneHotEncoder(handle_unknown="ignore"), DecisionTreeRegressor(max_depth=3, random_state=0))
    pipe.fit(x, y)
    _skl_save(path, to_onnx(pipe, initial_types=[("input", StringTensorType([None, 2]))], target_opset=18))


def _skl_column_transformer(path: Path) -> None:
    """Two numeric inputs and a string one into a ColumnTransformer (scaler, one-hot), then a
    logistic regression without ZipMap."""
    import numpy as np
    from skl2onnx import to_onnx
    from skl2onnx.common.data_types import FloatTensorType, StringTensorType
    from sklearn.compose import ColumnTransformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    rng = np.random.RandomState(0)
    num = rng.randn(50, 2)
    cat = np.array(["a", "b", "c"])[rng.randint(0, 3, 50)]
    x = np.concatenate([num.astype(object), cat.reshape(-1, 1).astype(object)], axis=1)
    y = ((num[:, 0] > 0) ^ (cat == "b")).astype(np.int64)
    pre = ColumnTransformer([("num", StandardScaler(), [0, 1]), ("cat", OneHotEncoder(handle_unknown="ignore"), [2])])
    pipe = make_pipeline(pre, LogisticRegression(max_iter=200))
    pipe.fit(x, y)
    onx = to_onnx(
        pipe,
        initial_types=[("num", FloatTensorType([None, 2])), ("cat", StringTensorType([None, 1]))],
        target_opset=18,
        options={id(pipe.steps[-1][1]): {"zipmap": False}},
    )
    _skl_save(path, onx)


def _skl_zipmap(path: Path) -> None:
    """A classifier with skl2onnx's default ZipMap: probabilities as seq(map(int64, float))."""
    from skl2onnx import to_onnx
    from sklearn.tree import DecisionTreeClassifier

    x, y = _skl_data()
    est = DecisionTreeClassifier(max_depth=3, random_state=0).fit(x, y)
    _skl_save(path, to_onnx(est, x[:1], target_opset={"": 18, "ai.onnx.ml": 3}))


def _kmeans() -> object:
    from sklearn.cluster import KMeans

    return KMeans(n_clusters=3, n_init=2, random_state=0)


def _gradient_boosting() -> object:
    from sklearn.ensemble import GradientBoostingClassifier

    return GradientBoostingClassifier(n_estimators=4, max_depth=2, random_state=0)


# --------------------------------------------------------------------------- onnxscript
#
# onnxscript's @script reads a function's source and resolves the names it uses in the
# module's globals, so the scripts live in a source string that is written to the cache
# and imported from there (this module must import without onnxscript installed).

_ONNXSCRIPT_SOURCE = """
from onnxscript import FLOAT, INT64, script, values
from onnxscript import opset18 as op

local = values.Opset("this", 1)


@script()
def gelu_tanh(x: FLOAT[2, "N"], bias: FLOAT["N"]) -> FLOAT[2, "N"]:
    y = op.Add(x, bias)
    cube = op.Pow(y, op.Constant(value_float=3.0))
    inner = op.Mul(op.Constant(value_float=0.7978845608), op.Add(y, op.Mul(op.Constant(value_float=0.044715), cube)))
    return op.Mul(op.Mul(op.Constant(value_float=0.5), y), op.Add(op.Constant(value_float=1.0), op.Tanh(inner)))


@script(local, default_opset=op)
def leaky(x, alpha: float = 0.1):
    return op.Where(op.Greater(x, op.CastLike(0.0, x)), x, op.Mul(x, op.CastLike(alpha, x)))


@script(local, default_opset=op)
def scaled_sum(a, b):
    s = op.Add(a, b)
    return op.ReduceSum(s, keepdims=0)


@script(default_opset=op)
def with_local_functions(x: FLOAT[3, 4], y: FLOAT[3, 4]) -> FLOAT:
    h = leaky(x, alpha=0.2)
    return scaled_sum(h, y)


@script()
def control_flow(x: FLOAT[4], n: INT64) -> FLOAT[4]:
    acc = op.Identity(x)
    for _ in range(n):
        acc = op.Add(acc, x)
    if op.ReduceSum(acc) > op.Constant(value_float=0.0):
        out = op.Relu(acc)
    else:
        out = op.Neg(acc)
    return out


@script()
def loop_sequence(x: FLOAT[3, 4], n: INT64) -> FLOAT["M", 4]:
    # a Loop that collects each step's value in a sequence, read back by SequenceAt,
    # SequenceLength and ConcatFromSequence. One loop-carried value: onnxscript orders
    # several in set order, which changes with the hash seed.
    seq = op.SequenceEmpty(dtype=1)
    for i in range(n):
        step = op.CastLike(i, x)
        seq = op.SequenceInsert(seq, op.Add(op.Mul(x, op.Constant(value_float=0.5)), step))
    parts = op.SplitToSequence(x, op.Constant(value_ints=[1, 2]), axis=0)
    first = op.SequenceAt(parts, op.Constant(value_int=0))
    count = op.CastLike(op.SequenceLength(seq), x)
    return op.Concat(op.ConcatFromSequence(seq, axis=0), op.Mul(first, count), axis=0)


MODELS = {
    "gelu": lambda: gelu_tanh.to_model_proto(),
    "local_functions": lambda: with_local_functions.to_model_proto(),
    "control_flow": lambda: control_flow.to_model_proto(),
    "loop_sequence": lambda: loop_sequence.to_model_proto(),
}
"""


def _onnxscript_module() -> object:
    import importlib.util

    src = cache_dir() / "onnxscript_models.py"
    src.parent.mkdir(parents=True, exist_ok=True)
    if not src.exists() or src.read_text() != _ONNXSCRIPT_SOURCE:
        fd, tmp = tempfile.mkstemp(prefix=".onnxscript_models-", suffix=".py", dir=src.parent)
        with os.fdopen(fd, "w") as f:
            f.write(_ONNXSCRIPT_SOURCE)
        os.replace(tmp, src)  # atomic: pytest-xdist workers may race here
    spec = importlib.util.spec_from_file_location("_onnxtext_onnxscript_models", src)
    assert spec is not None and spec.loader is not None
    module = sys.modules.get(spec.name)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # onnxscript looks the module up there
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[spec.name]
            raise
    return module


def _onnxscript(name: str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        proto = _onnxscript_module().MODELS[name]()  # type: ignore[attr-defined]
        path.write_bytes(proto.SerializeToString())

    return make


# --------------------------------------------------------------------------- registry


def _all() -> list[Generator]:
    gens: list[Generator] = []
    for model in TORCH_MODELS:
        gens.append(Generator(f"torch_script_{model}", ("torch",), _torch_export(model, dynamo=False)))
        gens.append(Generator(f"torch_dynamo_{model}", ("torch", "onnxscript"), _torch_export(model, dynamo=True)))
    gens.append(Generator("torch_script_mlp_functions", ("torch",), _torch_export("mlp", False, "functions")))
    gens.append(Generator("torch_dynamo_mlp_dynamic", ("torch", "onnxscript"), _torch_export("mlp", True, "dynamic")))
    integers = {"gpt": (("ids", 50),), "embedding": (("ids", 40), ("mask", 2))}
    for model in TORCH_MODELS_WIDE:
        ints = integers.get(model, ())
        gens.append(Generator(f"torch_script_{model}", ("torch",), _torch_export(model, dynamo=False), ints))
        gens.append(
            Generator(f"torch_dynamo_{model}", ("torch", "onnxscript"), _torch_export(model, dynamo=True), ints)
        )
    gens.append(
        Generator(
            "torch_dynamo_gpt_dynamic", ("torch", "onnxscript"), _torch_export("gpt", True, "dynamic"), integers["gpt"]
        )
    )
    skl = ("skl2onnx", "sklearn")
    gens += [
        Generator("skl_logistic_regression", skl, _skl_float(_logreg)),
        Generator("skl_random_forest", skl, _skl_float(_forest)),
        Generator("skl_scaler_svc", skl, _skl_float(_scaler_svc)),
        Generator("skl_tfidf_logreg", skl, _skl_tfidf),
        Generator("skl_onehot_tree_regressor", skl, _skl_onehot_tree),
        Generator("skl_column_transformer", skl, _skl_column_transformer),
        Generator("skl_tree_zipmap", skl, _skl_zipmap),
        Generator("skl_kmeans", skl, _skl_float(_kmeans)),
        Generator("skl_gradient_boosting", skl, _skl_float(_gradient_boosting)),
        Generator("onnxscript_gelu", ("onnxscript",), _onnxscript("gelu")),
        Generator("onnxscript_local_functions", ("onnxscript",), _onnxscript("local_functions")),
        Generator("onnxscript_control_flow", ("onnxscript",), _onnxscript("control_flow")),
        Generator("onnxscript_loop_sequence", ("onnxscript",), _onnxscript("loop_sequence")),
    ]
    quant = ("torch", "onnxruntime.quantization")
    for model in ("cnn_bn", "transformer"):
        for mode in ("dynamic", "static"):
            gens.append(Generator(f"ort_quant_{mode}_{model}", quant, _quantized(model, mode)))
    for model in ("resnet", "transformer"):
        gens.append(Generator(f"ort_quant_qoperator_{model}", quant, _quantized(model, "qoperator")))
    gens.append(Generator("float16_mlp", ("torch", "onnx"), _float16("mlp")))
    gens.append(
        Generator(
            "ort_optimized_gpt", ("torch", "onnxruntime.transformers"), _ort_optimized("gpt", "gpt2"), integers["gpt"]
        )
    )
    return gens


GENERATORS: dict[str, Generator] = {g.name: g for g in _all()}


def ensure_all(names: list[str] | None = None) -> dict[str, Path]:
    """Generate (or reuse) the named models, all by default; returns name → path."""
    return {n: GENERATORS[n].ensure() for n in (names or list(GENERATORS))}


if __name__ == "__main__":  # python tests/corpus/exporters.py [NAME...] regenerates into the cache
    import sys

    for name, p in ensure_all(sys.argv[1:] or None).items():
        print(f"{name}: {p}")
