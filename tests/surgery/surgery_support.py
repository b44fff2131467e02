"""What the surgery tests share: models from texts, the parts of a model that differ, the oracles."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from onnxtext import check, parse_model
from onnxtext.proto import ModelProto

_GRAPH_LISTS = ("node", "input", "output", "initializer", "sparse_initializer", "value_info", "quantization_annotation")


def model(text: str) -> ModelProto:
    return parse_model(text)


def _bytes(msg: Any) -> bytes:
    data: bytes = msg.SerializeToString(deterministic=True)
    return data


def changed_parts(before: ModelProto, after: ModelProto) -> dict[str, tuple[list[bytes], list[bytes]]]:
    """What differs between two models: each model field but the graph compared whole, each graph
    list compared as a multiset of serialized entries (``part → (only before, only after)``), the
    graph's other fields whole. An empty dict: the models are equal."""
    found: dict[str, tuple[list[bytes], list[bytes]]] = {}
    for fd in ModelProto.DESCRIPTOR.fields:
        if fd.name == "graph":
            continue
        a, b = getattr(before, fd.name), getattr(after, fd.name)
        if fd.message_type is not None and not fd.is_repeated:
            same = _bytes(a) == _bytes(b)
        elif fd.is_repeated and fd.message_type is not None:
            same = [_bytes(x) for x in a] == [_bytes(x) for x in b]
        else:
            same = a == b
        if not same:
            found[fd.name] = ([], [])
    for fd in before.graph.DESCRIPTOR.fields:
        a, b = getattr(before.graph, fd.name), getattr(after.graph, fd.name)
        if fd.name in _GRAPH_LISTS:
            ca, cb = Counter(_bytes(x) for x in a), Counter(_bytes(x) for x in b)
            if ca != cb:
                found["graph." + fd.name] = (sorted((ca - cb).elements()), sorted((cb - ca).elements()))
        elif (_bytes(a) if fd.message_type is not None and not fd.is_repeated else list(a)) != (
            _bytes(b) if fd.message_type is not None and not fd.is_repeated else list(b)
        ):
            found["graph." + fd.name] = ([], [])
    return found


def error_codes(m: ModelProto) -> set[str]:
    """The error codes our checker gives a model."""
    return {d.code for d in check(m) if d.is_error}


def onnx_check(m: ModelProto) -> None:
    """``onnx.checker.check_model`` (full) on the model's bytes: raises when it refuses it."""
    import onnx

    onnx.checker.check_model(onnx.load_model_from_string(m.SerializeToString()), full_check=True)


def made_up_feeds(m: ModelProto) -> dict[str, np.ndarray]:
    """Inputs for a run: floats from a seeded normal for float tensors, ones for the others (each
    symbolic dimension 2)."""
    from onnxtext.ir.tensor.arrays import to_numpy
    from onnxtext.proto import TensorProto

    rng = np.random.default_rng(0)
    initializers = {t.name for t in m.graph.initializer}
    feeds = {}
    for v in m.graph.input:
        if v.name in initializers:
            continue
        tt = v.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else 2 for d in tt.shape.dim]
        dtype = to_numpy(TensorProto(data_type=tt.elem_type, dims=[0])).dtype
        feeds[v.name] = (rng.standard_normal(dims) if tt.elem_type == 1 else np.ones(dims)).astype(dtype)
    return feeds
