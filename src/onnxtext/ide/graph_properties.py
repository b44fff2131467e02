"""What the graph view's properties panel says of the statement at an offset, and a weight saved as ``.npy``.

For an operator node: its operator and domain with the schema's one-line description, every
attribute, its inputs and outputs with their inferred types (and live values after a run), its
doc string and metadata, and for each input that is a weight or a constant, the weight's facts.
For a weight (an initializer, a ``Constant``, an ``Identity`` passing one on): its dtype, shape,
where its data is (in the text, an external file, a digest of a model shown by reference) and,
from the model's own values, min, max, mean, std and a histogram. The values of a view by
reference are read from the model file when asked for (a memory map), never before.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from onnxtext.ide.graph import formal_name
from onnxtext.ide.graph_attributes import attribute_values, value_text
from onnxtext.ir.versioned import normalize_domain
from onnxtext.syntax import ast as A
from onnxtext.weights.statistics import BINS, Statistics

if TYPE_CHECKING:
    from onnxtext.document import Document
    from onnxtext.evaluate.live import LiveResult, LiveValue
    from onnxtext.proto import TensorProto
    from onnxtext.weights.byref import HeldTensors
    from onnxtext.weights.external import FileRange

__all__ = [
    "Sources",
    "properties_at",
    "page_properties",
    "weight_array",
    "weight_tensor",
    "storage_text",
    "weight_statistics",
    "statistics_json",
    "body_live",
    "BodyLive",
    "save_npy",
    "BINS",
    "PAGE_MOST",
    "PAGE_VALUES",
    "HOVER_VALUES",
]

PAGE_MOST = 5000
"""Nodes of a page up to which it carries every node's panel (a 30,000-node page: 13 MB more, 1.3 s)."""
PAGE_VALUES = 1 << 28
"""Values of a weight up to which a page (:func:`page_properties`) gives its statistics (1 GB of
float32, read in blocks: 2 s of CPU and a few MB; a 10-billion-value weight would take over a minute)."""
HOVER_VALUES = 1 << 24
"""Values of a weight up to which a hover gives its statistics (64 MB of float32: 0.13–0.21 s of CPU the
first time; data in a file is then remembered)."""
_TEXT = 200
"""Characters of an attribute's text in the panel before it is clipped."""


@dataclass(frozen=True)
class Sources:
    """Where a document's tensors live outside its text: the model's ``folder`` (external data)
    and, for a ``.onnx`` shown by reference, the ``held`` tensors' data; ``values``: False when
    no value is to be read at all (a page made of a big model: no statistics)."""

    folder: str | None = None
    held: HeldTensors | None = None
    values: bool = True
    most: int | None = None
    """Values of a weight past which its statistics are not read (a page holds every weight's:
    a 10-billion-value weight in an external file took 53 s and ran out of memory)."""


def _statement(doc: Document, offset: int) -> A.Node | A.Initializer | A.ValueInfo | None:
    around = doc.nodes_at(offset)
    for i in range(len(around) - 1, -1, -1):
        node = around[i]
        if isinstance(node, A.Node | A.Initializer):
            return node
        if isinstance(node, A.ValueInfo):
            parent = around[i - 1] if i > 0 else None
            return parent if isinstance(parent, A.Initializer) else node
    return None


def _body_of(doc: Document, stmt: A.AstNode) -> A.Graph | A.Function | None:
    for node in reversed(doc.nodes_at(stmt.span.start)):
        if isinstance(node, A.Graph | A.Function) and node is not stmt:
            return node
    return None


def _type(doc: Document, body: A.Graph | A.Function | None, name: str) -> str:
    scope = next((s for s in doc.symbols.scopes if s.node is body), None)
    symbol = scope.lookup(name) if scope is not None else None
    found = doc.type_of(symbol) if symbol is not None else None
    return "" if found is None or found.is_unknown else str(found)


def _defining(doc: Document, body: A.Graph | A.Function | None, name: str) -> A.Node | A.Initializer | None:
    """The statement that defines ``name`` as seen from ``body`` (an initializer or a node)."""
    scope = next((s for s in doc.symbols.scopes if s.node is body), None)
    symbol = scope.lookup(name) if scope is not None else None
    if symbol is None or not symbol.definitions:
        return None
    found = _statement(doc, symbol.definitions[0].span.start)
    return found if isinstance(found, A.Node | A.Initializer) else None


def _weight_statement(doc: Document, body: A.Graph | A.Function | None, name: str) -> A.Node | A.Initializer | None:
    """The initializer or ``Constant`` whose values ``name`` has (through ``Identity`` nodes)."""
    for _ in range(16):
        stmt = _defining(doc, body, name)
        if isinstance(stmt, A.Initializer):
            return stmt if stmt.body is not None else None
        if not isinstance(stmt, A.Node) or normalize_domain(".".join(p.value for p in stmt.domain)):
            return None
        if stmt.op_type.value == "Constant":
            return stmt
        if stmt.op_type.value != "Identity" or len(stmt.inputs) != 1:
            return None
        name = stmt.inputs[0].value
    return None


def weight_tensor(doc: Document, body: A.Graph | A.Function | None, name: str) -> TensorProto | None:
    """The stored tensor whose values ``name`` has in ``body``: an initializer's, a ``Constant``'s
    (through ``Identity`` nodes); None for any other value."""
    stmt = _weight_statement(doc, body, name)
    return _tensor(doc, stmt) if stmt is not None else None


def _tensor(doc: Document, stmt: A.Node | A.Initializer) -> TensorProto | None:
    """The stored tensor of an initializer or of a ``Constant``'s ``value``."""
    from onnxtext.proto import NodeProto, TensorProto

    path = doc.source_map.path_of(stmt)
    model = doc.model
    found = path.resolve(model) if path is not None and model is not None else None
    if isinstance(found, TensorProto):
        return found
    if isinstance(found, NodeProto):
        for attr in found.attribute:
            if attr.name == "value" and attr.HasField("t"):
                return attr.t
    return None


def weight_array(t: TensorProto, sources: Sources, *, stored: bool = False) -> np.ndarray | str:
    """The values of ``t`` (a memory map for data in a file), or why they cannot be read. With
    ``stored``, data in a file of a type numpy lacks whose values are whole bytes (bfloat16, the
    float8 types) is mapped too, as ``ml_dtypes`` values (for statistics read in blocks; a
    ``.npy`` keeps numpy's own float32)."""
    from onnxtext.diagnostics import OnnxTextError
    from onnxtext.ir.tensor.arrays import to_numpy
    from onnxtext.proto import ModelProto
    from onnxtext.proto import TensorProto as Tensor
    from onnxtext.weights.digest import DIGEST_KEY, mapped_array
    from onnxtext.weights.external import is_external, locate

    entries = {e.key: e.value for e in t.external_data}
    if DIGEST_KEY in entries:
        if sources.held is None:
            return "its values are not in the text (shown by digest)"
        from onnxtext.weights.byref import restore_held

        model = ModelProto()
        copy = model.graph.initializer.add()
        copy.CopyFrom(t)
        if restore_held(model, sources.held, as_reference=True):
            return "the reference was edited: its values are unknown until the model is saved"
        t = copy
        folder: str | None = os.path.dirname(str(sources.held.lazy.path))
    else:
        folder = sources.folder
    if is_external(t):
        if folder is None:
            return "its data is in an external file, and the text has no folder"
        try:
            r = locate(t, folder)
            mapped = mapped_array(t, r) if not stored else _stored_array(t, r)
            if mapped is not None:
                return mapped
            loaded = Tensor()
            loaded.CopyFrom(t)
            r.inline_into(loaded)
            return to_numpy(loaded)
        except (OnnxTextError, OSError, ValueError) as error:
            said = "; ".join(d.message for d in getattr(error, "diagnostics", ())) or str(error)
            return f"its external data cannot be read: {said}"
    try:
        return to_numpy(t)
    except (OnnxTextError, ValueError) as error:
        return f"its values cannot be decoded: {error}"


def _stored_array(t: TensorProto, r: FileRange) -> np.ndarray | None:
    """:func:`~onnxtext.weights.digest.mapped_array`, and for bfloat16 and the float8 types a
    memory map of ``ml_dtypes`` values (4-bit and 2-bit values are packed: read in, as before)."""
    from onnxtext.evaluate._types import EXOTIC_FLOATS, FLOAT4E2M1
    from onnxtext.evaluate.interop import ml_dtype
    from onnxtext.weights.digest import mapped_array

    mapped = mapped_array(t, r)
    if mapped is not None or t.data_type not in EXOTIC_FLOATS or t.data_type == FLOAT4E2M1:
        return mapped
    dtype = ml_dtype(t.data_type)
    dims = tuple(int(d) for d in t.dims)
    n = int(np.prod(dims, dtype=np.int64))
    if n == 0 or n * dtype.itemsize != r.length:
        return None
    return np.memmap(r.path, dtype=dtype, mode="r", offset=r.offset, shape=(n,)).reshape(dims)


def _number(x: float) -> float | str:
    return float(f"{x:.6g}") if np.isfinite(x) else str(x)


def statistics_json(found: Statistics) -> dict[str, Any]:
    """The panel's form of :class:`~onnxtext.weights.statistics.Statistics` (a weight's and,
    with live values, a value's): numbers to 6 digits, ``inf`` as a string."""
    out: dict[str, Any] = {"count": found.count, "nonfinite": found.nonfinite}
    if found.min is None or found.max is None or found.mean is None or found.std is None:
        return out
    out.update(min=_number(found.min), max=_number(found.max), mean=_number(found.mean), std=_number(found.std))
    out["zeros"] = found.zeros
    h = found.histogram
    if h is not None:
        out["histogram"] = {"lo": _number(h.lo), "hi": _number(h.hi), "counts": list(h.counts)}
    return out


def _identity(t: TensorProto, sources: Sources) -> tuple[object, ...] | None:
    """What names the values of ``t`` across edits of the text, for the cache of statistics: the
    SHA-256 of a tensor shown by reference; the file, range and modification time of external
    data; None for values in the text (read again, within :data:`HOVER_VALUES`)."""
    from onnxtext.diagnostics import OnnxTextError
    from onnxtext.weights.digest import DIGEST_KEY
    from onnxtext.weights.external import is_external, locate

    entries = {e.key: e.value for e in t.external_data}
    kind = (t.data_type, tuple(t.dims))
    if DIGEST_KEY in entries:
        return (*kind, entries[DIGEST_KEY]) if sources.held is not None else None
    if not is_external(t) or sources.folder is None:
        return None
    try:
        path = locate(t, sources.folder).path
        stat = path.stat()
    except (OnnxTextError, OSError):
        return None
    return (*kind, str(path), entries.get("offset", "0"), entries.get("length", ""), stat.st_mtime_ns, stat.st_size)


_CACHE: OrderedDict[tuple[object, ...], Statistics | None] = OrderedDict()
_CACHED = 64
"""Tensors whose statistics are kept (a few numbers each)."""
_lock = threading.Lock()


def weight_statistics(t: TensorProto, sources: Sources, most: int | None = None) -> Statistics | None | str:
    """The statistics of ``t``'s values (None: they are no numbers), read in blocks
    (:func:`onnxtext.weights.statistics.statistics`), or why there are none: more than ``most``
    values (the hover's limit), values that cannot be read. Those of data in a file are kept
    for the next ask, by :func:`_identity`: a hover or a click again costs nothing."""
    from onnxtext.weights.statistics import statistics

    count = int(np.prod([int(d) for d in t.dims], dtype=np.int64))
    if most is not None and count > most:
        return f"statistics not computed: {count:,} values"
    key = _identity(t, sources)
    if key is not None:
        with _lock:
            if key in _CACHE:
                _CACHE.move_to_end(key)
                return _CACHE[key]
    arr = weight_array(t, sources, stored=True)
    if isinstance(arr, str):
        return arr
    found = statistics(arr)
    if key is not None:
        with _lock:
            _CACHE[key] = found
            while len(_CACHE) > _CACHED:
                _CACHE.popitem(last=False)
    return found


def storage_text(t: TensorProto) -> str:
    """Where the values of ``t`` are: ``in the text``, ``external: w.bin (offset 0, length 16)``,
    ``by reference (sha256:…)``."""
    from onnxtext.weights.digest import DIGEST_KEY

    entries = {e.key: e.value for e in t.external_data}
    if DIGEST_KEY in entries:
        return f"by reference ({entries[DIGEST_KEY]})"
    if entries:
        where = entries.get("location", "?")
        extra = ", ".join(f"{k} {v}" for k, v in entries.items() if k != "location")
        return f"external: {where}" + (f" ({extra})" if extra else "")
    return "in the text"


def _weight(doc: Document, stmt: A.Node | A.Initializer, sources: Sources, name: str) -> dict[str, Any]:
    """A weight's facts and statistics."""
    from onnxtext.ir.dtypes import BY_CODE

    out: dict[str, Any] = {"name": name, "range": doc.source.lsp_range_json(stmt.span)}
    t = _tensor(doc, stmt)
    if t is None:
        out["problem"] = "no tensor (the statement was not lowered)"
        return out
    dtype = BY_CODE.get(t.data_type)
    out.update(dtype=dtype.name if dtype is not None else str(t.data_type), shape=[int(d) for d in t.dims])
    out["storage"] = storage_text(t)
    if not sources.values:
        return out
    found = weight_statistics(t, sources, sources.most)
    if isinstance(found, str):
        out["problem"] = found
    elif found is not None:
        out["stats"] = statistics_json(found)
    return out


def _props(stmt: A.Node) -> tuple[str, list[list[str]]]:
    """The doc string and metadata written in the node's ``@{...}``."""
    doc_string = ""
    metadata: list[list[str]] = []
    if stmt.props is None:
        return doc_string, metadata
    for entry in stmt.props.entries:
        if not isinstance(entry, A.PropEntry):
            continue
        if entry.key.value == "doc_string" and isinstance(entry.value, A.Str):
            doc_string = entry.value.text
        elif entry.key.value == "metadata_props" and isinstance(entry.value, A.PropList):
            for item in entry.value.items:
                if isinstance(item, A.PropPair) and isinstance(item.key, A.Str) and isinstance(item.value, A.Str):
                    metadata.append([item.key.text, item.value.text])
    return doc_string, metadata


@dataclass(frozen=True)
class BodyLive:
    """The live values of one graph or function body: each one's summary (as the inlay hints
    say it) and statistics, by name (the graph's inputs included)."""

    labels: dict[str, str]
    values: dict[str, LiveValue]


def body_live(doc: Document, body: A.Graph | A.Function | None, live: LiveResult | None) -> BodyLive:
    """The live values of ``body``, summaries and statistics (the properties panel's ports, a hover)."""
    if live is None or body is None:
        return BodyLive({}, {})
    from onnxtext.ide.hints import live_labels

    path = doc.source_map.path_of(body)
    where = str(path) if path is not None else ""
    values = {v.name: v for v in [*live.inputs, *live.values] if v.graph == where}
    return BodyLive(live_labels(live).get(where, {}), values)


def _port(doc: Document, body: A.Graph | A.Function | None, name: str, live: BodyLive) -> dict[str, Any]:
    """A value's type and, after a live run, its summary and statistics (the panel shows them as a weight's)."""
    out: dict[str, Any] = {"name": name, "type": _type(doc, body, name) if name else "", "live": ""}
    if name:
        out["live"] = live.labels.get(name, "")
        value = live.values.get(name)
        if value is not None and value.statistics is not None:
            out["stats"] = statistics_json(value.statistics)
    return out


def properties_at(
    doc: Document, offset: int, sources: Sources | None = None, live: LiveResult | None = None
) -> dict[str, Any] | None:
    """The panel's content for the statement at ``offset`` (None where there is none), as the
    protocol sends it (a weight's ``range``: LSP positions, as :func:`~onnxtext.ide.graph.graph_json`)."""
    from onnxtext.ide.schema_docs import operator_summary

    sources = sources or Sources()
    stmt = _statement(doc, offset)
    if stmt is None:
        return None
    body = _body_of(doc, stmt)
    values = body_live(doc, body, live)
    if isinstance(stmt, A.ValueInfo):
        return {"kind": "value", **_port(doc, body, stmt.name.value, values)}
    if isinstance(stmt, A.Initializer):
        name = stmt.info.name.value
        if stmt.body is None:
            return {"kind": "value", **_port(doc, body, name, values)}
        return {"kind": "weight", "type": _type(doc, body, name), **_weight(doc, stmt, sources, name)}
    resolution = doc.resolutions.get(stmt)
    schema = resolution.schema if resolution is not None else None
    source = doc.source.text
    attributes = [[name, value_text(value, _TEXT)] for name, value in attribute_values(stmt, source).items()]
    attributes += [
        [attr.name.value, "(graph)"]
        for attr in stmt.attributes
        if isinstance(attr, A.Attribute) and isinstance(attr.value, A.GraphValue)
    ]

    inputs = []
    for i, ident in enumerate(stmt.inputs):
        entry = {"param": formal_name(schema.inputs if schema else (), i), **_port(doc, body, ident.value, values)}
        weight = _weight_statement(doc, body, ident.value) if ident.value else None
        if weight is not None:
            entry["weight"] = _weight(doc, weight, sources, ident.value)
        inputs.append(entry)
    outputs = [
        {"param": formal_name(schema.outputs if schema else (), i), **_port(doc, body, o.value, values)}
        for i, o in enumerate(stmt.outputs)
    ]
    doc_string, metadata = _props(stmt)
    domain = ".".join(p.value for p in stmt.domain)
    return {
        "kind": "node",
        "name": stmt.label.value if stmt.label is not None else "",
        "op": stmt.op_type.value,
        "domain": domain or "ai.onnx",
        "version": schema.since_version if schema is not None else None,
        "description": operator_summary(schema) if schema is not None else None,
        "function": resolution.function is not None if resolution is not None else False,
        "attributes": attributes,
        "inputs": inputs,
        "outputs": outputs,
        "doc": doc_string,
        "metadata": metadata,
    }


def page_properties(doc: Document, graph: dict[str, Any], sources: Sources | None = None) -> dict[str, Any]:
    """The panel of every node and weight row of ``graph`` (:func:`~onnxtext.ide.graph.graph_json`'s
    form), for a page without a server (``onnxtext graph -o x.html``): keyed ``line:character``,
    the start of the statement, as the view asks for it. Empty above :data:`PAGE_MOST` nodes (the
    page's panel then says what the graph says)."""
    out: dict[str, Any] = {}
    if len(graph["nodes"]) > PAGE_MOST:
        return out
    source = doc.source
    for node in graph["nodes"]:
        for where in [node["range"], *(r["range"] for r in node.get("rows") or [])]:
            key = f"{where['start']['line']}:{where['start']['character']}"
            if key not in out:
                offset = source.offset_of_lsp(where["start"]["line"], where["start"]["character"])
                found = properties_at(doc, offset, sources)
                if found is not None:
                    out[key] = found
    return out


def save_npy(doc: Document, offset: int, target: str, sources: Sources | None = None) -> str:
    """Write the values of the weight at ``offset`` (its statement, or a row's) to ``target`` as
    ``.npy``, atomically (:func:`onnxtext.io.atomic_file`); returns what was
    written (``float32[64, 3, 7, 7] to /m/conv1.weight.npy``). Raises ``ValueError`` saying why not."""
    stmt = _statement(doc, offset)
    if isinstance(stmt, A.Node) and stmt.op_type.value == "Identity" and len(stmt.inputs) == 1:
        stmt = _weight_statement(doc, _body_of(doc, stmt), stmt.inputs[0].value)
    if not isinstance(stmt, A.Node | A.Initializer) or (isinstance(stmt, A.Node) and stmt.op_type.value != "Constant"):
        raise ValueError("no weight or constant here")
    t = _tensor(doc, stmt)
    if t is None:
        raise ValueError("the weight's statement was not lowered (the text has an error there)")
    arr = weight_array(t, sources or Sources())
    if isinstance(arr, str):
        raise ValueError(arr)
    from onnxtext.io import atomic_file

    with atomic_file(target) as fd, os.fdopen(os.dup(fd), "wb") as f:
        np.save(f, np.asarray(arr), allow_pickle=False)
    shape = ", ".join(str(d) for d in arr.shape)
    return f"{arr.dtype}[{shape}] to {target}"
