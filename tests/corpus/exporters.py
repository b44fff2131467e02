"""Models made by real exporters (torch, skl2onnx, onnxscript), generated into a cache folder.

The cache is ``$ONNXTEXT_CACHE/exporters`` (default ``<repo>/.cache/exporters``); each
model is ``<name>.onnx`` and is made once, on first use, by its generator. Generators
are deterministic (fixed seeds, fixed data) and import their exporter lazily, so a
missing package only skips that model (the test calls ``pytest.importorskip`` with
:attr:`Generator.requires`). Nothing generated is ever committed.

The packages are the ``exporters`` extra of ``pyproject.toml``.
"""

from __future__ import annotations

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

    def path(self) -> Path:
        return cache_dir() / f"{self.name}.onnx"

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

    return {"mlp": mlp, "cnn_bn": cnn_bn, "transformer": transformer, "lstm": lstm}


TORCH_MODELS = ("mlp", "cnn_bn", "transformer", "lstm")


def _torch_export(model: str, dynamo: bool, variant: str = "") -> Callable[[Path], None]:
    """``variant``: "" plain; "functions" TorchScript with ``export_modules_as_functions``;
    "dynamic" dynamo with a symbolic batch dimension."""

    def make(path: Path) -> None:
        import torch
        from torch import nn

        module, args = _torch_modules()[model]()
        # the TorchScript exporter cannot export the fused fast path of nn.MultiheadAttention
        fastpath = torch.backends.mha.get_fastpath_enabled()
        torch.backends.mha.set_fastpath_enabled(False)
        try:
            with torch.no_grad():
                if dynamo:
                    extra: dict[str, object] = {}
                    if variant == "dynamic":
                        extra["dynamic_shapes"] = ({0: torch.export.Dim("batch", min=1, max=64)},)
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
                        input_names=["input"],
                        output_names=["output"],
                        dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}},
                        # one module type of one instance: with several, torch picks the
                        # function bodies (and their order) in set order, differing per run
                        export_modules_as_functions={nn.GELU} if variant == "functions" else False,
                    )
        finally:
            torch.backends.mha.set_fastpath_enabled(fastpath)

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


MODELS = {
    "gelu": lambda: gelu_tanh.to_model_proto(),
    "local_functions": lambda: with_local_functions.to_model_proto(),
    "control_flow": lambda: control_flow.to_model_proto(),
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
    skl = ("skl2onnx", "sklearn")
    gens += [
        Generator("skl_logistic_regression", skl, _skl_float(_logreg)),
        Generator("skl_random_forest", skl, _skl_float(_forest)),
        Generator("skl_scaler_svc", skl, _skl_float(_scaler_svc)),
        Generator("skl_tfidf_logreg", skl, _skl_tfidf),
        Generator("skl_onehot_tree_regressor", skl, _skl_onehot_tree),
        Generator("onnxscript_gelu", ("onnxscript",), _onnxscript("gelu")),
        Generator("onnxscript_local_functions", ("onnxscript",), _onnxscript("local_functions")),
        Generator("onnxscript_control_flow", ("onnxscript",), _onnxscript("control_flow")),
    ]
    return gens


GENERATORS: dict[str, Generator] = {g.name: g for g in _all()}


def ensure_all(names: list[str] | None = None) -> dict[str, Path]:
    """Generate (or reuse) the named models, all by default; returns name → path."""
    return {n: GENERATORS[n].ensure() for n in (names or list(GENERATORS))}


if __name__ == "__main__":  # python tests/corpus/exporters.py [NAME...] regenerates into the cache
    import sys

    for name, p in ensure_all(sys.argv[1:] or None).items():
        print(f"{name}: {p}")
