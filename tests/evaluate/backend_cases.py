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


def to_ours(value: Any) -> Any:
    """An expected value decoded by onnx, in the representation our evaluator uses."""
    if value is None:
        return None
    if isinstance(value, list):
        return [to_ours(v) for v in value]
    if isinstance(value, dict):
        return {k: to_ours(v) for k, v in value.items()}
    arr = np.asarray(value)
    name = arr.dtype.name
    if name in ("bfloat16",) or name.startswith("float8") or name.startswith("float4"):
        return arr.astype(np.float32)
    if name in ("int4", "int2"):
        return arr.astype(np.int8)
    if name in ("uint4", "uint2"):
        return arr.astype(np.uint8)
    if arr.dtype.kind in "SU" or arr.dtype == object:
        out = np.empty(arr.shape, dtype=object)
        flat = [v.decode() if isinstance(v, bytes) else str(v) for v in arr.reshape(-1)]
        out.reshape(-1)[:] = flat
        return out
    return arr


def _has_bfloat16(value: Any) -> bool:
    if isinstance(value, list):
        return any(_has_bfloat16(v) for v in value)
    return getattr(getattr(value, "dtype", None), "name", "") == "bfloat16"


def load_case(name: str) -> tuple[bytes, list[tuple[list[Any], list[Any]]], float, float, Any]:
    """(model bytes, [(input messages, [(expected value, is bfloat16)])], rtol, atol, onnx model)."""
    import onnx
    from onnx import numpy_helper

    d = suite_dir() / name
    model_bytes = (d / "model.onnx").read_bytes()
    model = onnx.ModelProto()
    model.ParseFromString(model_bytes)
    meta = json.loads((d / "meta.json").read_text())
    sets = []
    g = model.graph
    for ds in sorted(d.glob("test_data_set_*")):
        ins = [
            _read_proto(ds / f"input_{j}.pb", g.input[j].type)
            for j in range(len(list(ds.glob("input_*.pb"))))
        ]
        outs = []
        for j in range(len(list(ds.glob("output_*.pb")))):
            msg = _read_proto(ds / f"output_{j}.pb", g.output[j].type)
            kind = type(msg).__name__
            if kind == "TensorProto":
                v: Any = numpy_helper.to_array(msg)
            elif kind == "SequenceProto":
                v = numpy_helper.to_list(msg)
            elif kind == "OptionalProto":
                v = numpy_helper.to_optional(msg)
            else:
                v = numpy_helper.to_dict(msg)
            outs.append((to_ours(v), _has_bfloat16(v)))
        sets.append((ins, outs))
    return model_bytes, sets, meta["rtol"], meta["atol"], model


def feeds_for(model: Any, inputs: list[Any]) -> dict[str, Any]:
    from onnxtext.evaluate import proto_value
    from onnxtext.proto import as_own

    names = [i.name for i in model.graph.input]
    return {names[j]: proto_value(as_own(m)) for j, m in enumerate(inputs)}


def assert_close(expected: Any, actual: Any, rtol: float, atol: float, where: str = "output") -> None:
    if expected is None:
        assert actual is None, f"{where}: expected an empty optional, got {type(actual).__name__}"
        return
    if isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: expected a sequence, got {type(actual).__name__}"
        assert len(actual) == len(expected), f"{where}: sequence length {len(actual)} != {len(expected)}"
        for k, (e, a) in enumerate(zip(expected, actual)):
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
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)


def run_case(name: str) -> None:
    """Raise AssertionError (or the evaluator's error) unless every output matches."""
    from onnxtext.evaluate import Evaluator

    model_bytes, sets, rtol, atol, model = load_case(name)
    ev = Evaluator(model_bytes)
    for k, (ins, expected) in enumerate(sets):
        feeds = feeds_for(model, ins)
        got = ev.run(None, feeds)
        assert len(got) == len(expected), f"{len(got)} outputs != {len(expected)}"
        for j, ((e, bf16), a) in enumerate(zip(expected, got)):
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
