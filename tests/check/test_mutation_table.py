"""The mistakes people make, applied to every model of the backend suite and the exporter
corpus: a declared output type changed, a value_info that disagrees, a negative dimension, an
axis out of range, If branches of different types. For each class, onnxtext must catch at
least as many as ``onnx.checker.check_model(full_check=True)``; the table is printed (-s)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

onnx = pytest.importorskip("onnx")

from corpus.backend import all_model_paths, case_id, onnx_checker_rejection  # noqa: E402
from corpus.exporters import GENERATORS  # noqa: E402

from onnxtext.analysis.check import check_proto  # noqa: E402
from onnxtext.proto import ModelProto  # noqa: E402


def _other(elem: int) -> int:
    return onnx.TensorProto.INT64 if elem != onnx.TensorProto.INT64 else onnx.TensorProto.FLOAT


def output_type(m: object) -> bool:
    outs = m.graph.output  # type: ignore[attr-defined]
    produced = {o for n in m.graph.node for o in n.output}  # type: ignore[attr-defined]
    for vi in outs:
        t = vi.type.tensor_type
        if vi.type.HasField("tensor_type") and t.elem_type and vi.name in produced:
            t.elem_type = _other(t.elem_type)
            return True
    return False


def value_info_type(m: object) -> bool:
    g = m.graph  # type: ignore[attr-defined]
    declared = {vi.name: vi for vi in list(g.output) + list(g.value_info)}
    for node in g.node:
        for name in node.output:
            vi = declared.get(name)
            if vi is not None and vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type:
                extra = g.value_info.add()
                extra.CopyFrom(vi)
                extra.type.tensor_type.elem_type = _other(vi.type.tensor_type.elem_type)
                if extra in list(g.value_info)[:-1]:
                    return False
                # one declaration per name: the new one replaces any value_info of it
                keep = [v for v in g.value_info if v.name != name] + [extra]
                del g.value_info[:]
                g.value_info.extend(keep)
                return True
    return False


def negative_dim(m: object) -> bool:
    for vi in m.graph.input:  # type: ignore[attr-defined]
        dims = vi.type.tensor_type.shape.dim if vi.type.HasField("tensor_type") else []
        if len(dims):
            dims[0].ClearField("dim_param")
            dims[0].dim_value = -2
            return True
    return False


def axis_out_of_range(m: object) -> bool:
    for node in m.graph.node:  # type: ignore[attr-defined]
        for a in node.attribute:
            if a.name == "axis" and a.type == onnx.AttributeProto.INT:
                a.i = 100
                return True
    return False


def if_branches(m: object) -> bool:
    for node in m.graph.node:  # type: ignore[attr-defined]
        if node.op_type == "If":
            for a in node.attribute:
                if a.name == "else_branch" and len(a.g.output) and a.g.output[0].type.HasField("tensor_type"):
                    t = a.g.output[0].type.tensor_type
                    if t.elem_type:
                        t.elem_type = _other(t.elem_type)
                        return True
    return False


MUTATIONS: dict[str, Callable[[object], bool]] = {
    "output type": output_type,
    "value_info type": value_info_type,
    "negative dim": negative_dim,
    "axis out of range": axis_out_of_range,
    "If branches": if_branches,
}


def _models() -> list[tuple[str, bytes]]:
    out = [(case_id(p), p.read_bytes()) for p in all_model_paths()]
    for name, gen in GENERATORS.items():
        try:
            for module in gen.requires:
                __import__(module)
        except ImportError:
            continue
        out.append((f"exporter/{name}", gen.ensure().read_bytes()))
    return out


def _ours_errors(data: bytes) -> bool:
    return any(d.is_error for d in check_proto(ModelProto.FromString(data)))


@pytest.mark.slow
def test_mutation_table() -> None:
    table = {k: {"applied": 0, "onnx": 0, "ours": 0, "onnx only": []} for k in MUTATIONS}
    for name, data in _models():
        base = onnx.ModelProto.FromString(data)
        if onnx_checker_rejection(base) is not None or _ours_errors(data):
            continue
        for kind, mutate in MUTATIONS.items():
            m = onnx.ModelProto.FromString(data)
            if not mutate(m):
                continue
            row = table[kind]
            row["applied"] += 1
            theirs = onnx_checker_rejection(m) is not None
            ours = _ours_errors(m.SerializeToString())
            row["onnx"] += theirs
            row["ours"] += ours
            if theirs and not ours:
                row["onnx only"].append(name)  # type: ignore[union-attr]
    print(f"\n{'mutation':<20} {'applied':>8} {'onnx.checker':>13} {'onnxtext':>9}  caught by onnx.checker only")
    for kind, row in table.items():
        only = row["onnx only"]
        print(f"{kind:<20} {row['applied']:>8} {row['onnx']:>13} {row['ours']:>9}  {len(only)} {only}")  # type: ignore[arg-type]
    misses = {k: r["onnx only"] for k, r in table.items()}
    for kind, row in table.items():
        assert row["applied"] > 0, kind
    assert all(r["ours"] >= r["onnx"] for r in table.values()), misses
