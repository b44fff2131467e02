"""The ONNX backend node suite, generated once into a cache folder and compared against.

The cache lives in ``$ONNXTEXT_CACHE/backend-node/onnx-<version>`` (default
``<repo>/.cache``); each case is a folder ``<name>/`` with ``model.onnx``,
``meta.json`` (rtol/atol) and ``test_data_set_<i>/{input,output}_<j>.pb`` exactly like
onnx's own backend test data. ``onnx`` is used here as a test oracle only.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))

KNOWN_FAILURES = Path(__file__).with_name("known_failures.txt")


def cache_root() -> Path:
    base = os.environ.get("ONNXTEXT_CACHE")
    return Path(base) if base else REPO / ".cache"


def suite_dir() -> Path:
    import onnx

    return cache_root() / "backend-node" / f"onnx-{onnx.__version__}"


def _write_value(path: Path, value: Any, vtype: Any, name: str) -> None:
    from onnx import TensorProto, numpy_helper

    if isinstance(value, TensorProto):
        data = value.SerializeToString()
    elif vtype.HasField("map_type"):
        data = numpy_helper.from_dict(value, name).SerializeToString()
    elif vtype.HasField("sequence_type"):
        data = numpy_helper.from_list(value, name).SerializeToString()
    elif vtype.HasField("optional_type"):
        data = numpy_helper.from_optional(value, name).SerializeToString()
    else:
        data = numpy_helper.from_array(np.asarray(value), name).SerializeToString()
    path.write_bytes(data)


def ensure_suite() -> Path:
    """Generate the node suite into the cache unless it is there already."""
    target = suite_dir()
    if (target / "cases.json").exists():
        return target
    from onnx.backend.test.case.node import collect_testcases

    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="gen-", dir=target.parent))
    names = []
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        cases = collect_testcases()
    for case in cases:
        if case.kind != "node" or case.model is None:
            continue
        d = tmp / case.name
        d.mkdir()
        (d / "model.onnx").write_bytes(case.model.SerializeToString())
        (d / "meta.json").write_text(json.dumps({"rtol": case.rtol, "atol": case.atol}))
        g = case.model.graph
        for i, (inputs, outputs) in enumerate(case.data_sets or []):
            ds = d / f"test_data_set_{i}"
            ds.mkdir()
            for j, v in enumerate(inputs):
                _write_value(ds / f"input_{j}.pb", v, g.input[j].type, g.input[j].name)
            for j, v in enumerate(outputs):
                _write_value(ds / f"output_{j}.pb", v, g.output[j].type, g.output[j].name)
        names.append(case.name)
    (tmp / "cases.json").write_text(json.dumps(sorted(names)))
    try:
        tmp.rename(target)
    except OSError:  # another process won the race
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def case_names() -> list[str]:
    return list(json.loads((ensure_suite() / "cases.json").read_text()))


def _read_proto(path: Path, vtype: Any) -> Any:
    """Read a .pb file as an onnx message of the kind ``vtype`` says."""
    import onnx

    if vtype.HasField("map_type"):
        msg: Any = onnx.MapProto()
    elif vtype.HasField("sequence_type"):
        msg = onnx.SequenceProto()
    elif vtype.HasField("optional_type"):
        msg = onnx.OptionalProto()
    else:
        msg = onnx.TensorProto()
    msg.ParseFromString(path.read_bytes())
    return msg


def _has_bfloat16(value: Any) -> bool:
    if isinstance(value, list):
        return any(_has_bfloat16(v) for v in value)
    return getattr(getattr(value, "dtype", None), "name", "") == "bfloat16"


def load_case(name: str) -> tuple[bytes, list[tuple[list[Any], list[Any]]], float, float, Any]:
    """(model bytes, [(input messages, [(expected value, is bfloat16)])], rtol, atol, onnx model)."""
    import onnx

    d = suite_dir() / name
    model_bytes = (d / "model.onnx").read_bytes()
    model = onnx.ModelProto()
    model.ParseFromString(model_bytes)
    meta = json.loads((d / "meta.json").read_text())
    sets = []
    g = model.graph
    for ds in sorted(d.glob("test_data_set_*")):
        ins = [_read_proto(ds / f"input_{j}.pb", g.input[j].type) for j in range(len(list(ds.glob("input_*.pb"))))]
        outs = []
        for j in range(len(list(ds.glob("output_*.pb")))):
            v = read_value(_read_proto(ds / f"output_{j}.pb", g.output[j].type))
            outs.append((v, _has_bfloat16(v)))
        sets.append((ins, outs))
    return model_bytes, sets, meta["rtol"], meta["atol"], model


def read_value(msg: Any) -> Any:
    """A .pb value exactly as ``onnx.numpy_helper`` reads it (``ml_dtypes`` arrays for bfloat16, float8, int4...)."""
    from onnx import numpy_helper

    kind = type(msg).__name__
    if kind == "TensorProto":
        return numpy_helper.to_array(msg)
    if kind == "SequenceProto":
        return numpy_helper.to_list(msg)
    if kind == "OptionalProto":
        return numpy_helper.to_optional(msg)
    return numpy_helper.to_dict(msg)


def feeds_for(model: Any, inputs: list[Any]) -> dict[str, Any]:
    """The inputs as ``onnx.numpy_helper`` gives them, fed to the evaluator as they are."""
    names = [i.name for i in model.graph.input]
    return {names[j]: read_value(m) for j, m in enumerate(inputs)}


def assert_close(expected: Any, actual: Any, rtol: float, atol: float, where: str = "output") -> None:
    if expected is None:
        assert actual is None, f"{where}: expected an empty optional, got {type(actual).__name__}"
        return
    if isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: expected a sequence, got {type(actual).__name__}"
        assert len(actual) == len(expected), f"{where}: sequence length {len(actual)} != {len(expected)}"
        for k, (e, a) in enumerate(zip(expected, actual, strict=True)):
            assert_close(e, a, rtol, atol, f"{where}[{k}]")
        return
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected a map"
        assert sorted(expected) == sorted(actual), f"{where}: map keys differ"
        for k in expected:
            assert_close(expected[k], actual[k], rtol, atol, f"{where}[{k!r}]")
        return
    assert isinstance(actual, np.ndarray), f"{where}: expected a tensor, got {type(actual).__name__}"
    assert actual.shape == expected.shape, f"{where}: shape {actual.shape} != expected {expected.shape}"
    if expected.dtype == object:
        assert actual.dtype == object, f"{where}: dtype {actual.dtype} != object (strings)"
        np.testing.assert_array_equal(actual, expected, err_msg=where)
        return
    assert actual.dtype == expected.dtype, f"{where}: dtype {actual.dtype} != expected {expected.dtype}"
    if expected.dtype.type.__module__.startswith("ml_dtypes"):  # same dtype: compare the values exactly widened
        wide = np.float64 if "float" in expected.dtype.name else np.int64
        expected, actual = expected.astype(wide), actual.astype(wide)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)


def run_case(name: str) -> None:
    """Raise AssertionError (or the evaluator's error) unless every output matches."""
    from onnxtext.evaluate import Evaluator
    from onnxtext.io import load_bytes

    model_bytes, sets, rtol, atol, model = load_case(name)
    ev = Evaluator(load_bytes(model_bytes))
    for k, (ins, expected) in enumerate(sets):
        feeds = feeds_for(model, ins)
        got = ev.run(None, feeds)
        assert len(got) == len(expected), f"{len(got)} outputs != {len(expected)}"
        for j, ((e, bf16), a) in enumerate(zip(expected, got, strict=True)):
            # like onnx's runner: two bfloat16 ULPs of relative tolerance for bfloat16 outputs
            rt = max(rtol, 2**-6) if bf16 else rtol
            where = f"data set {k} output {j} ({model.graph.output[j].name})"
            if name.startswith("test_bernoulli"):
                assert isinstance(a, np.ndarray) and a.shape == e.shape and a.dtype == e.dtype, where
                assert np.isin(a, [0, 1]).all(), f"{where}: values not in {{0, 1}}"
                continue
            assert_close(e, a, rt, atol, where)


def read_known_failures() -> tuple[int, dict[str, str]]:
    """(best recorded pass count, {case name: reason})."""
    best = 0
    known: dict[str, str] = {}
    if not KNOWN_FAILURES.exists():
        return best, known
    for line in KNOWN_FAILURES.read_text().splitlines():
        s = line.strip()
        if s.startswith("# best-pass-count:"):
            best = int(s.split(":", 1)[1])
            continue
        if not s or s.startswith("#"):
            continue
        name, _, reason = s.partition(" ")
        known[name] = reason.strip()
    return best, known
