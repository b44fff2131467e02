"""Semantic diff of two models, aligned by names rather than by positions.

What is compared, and how things are matched:

- the header (``ir_version``, producer, ``model_version``, doc string, …), opsets by
  domain, metadata by key;
- graph inputs, outputs and value infos by name (their types), and their order;
- initializers by name: dtype/shape changes, and value changes summarised as the number
  of changed elements and the largest absolute difference (storage, raw or typed, is
  not a change);
- nodes by their first (non-empty) output name: op type, inputs, outputs, attributes per
  name (subgraphs are diffed recursively). The node's name and its position in the list
  are not compared: a renamed or re-ordered node is not a change;
- functions by ``(domain, name, overload)``.

:func:`diff_models` returns text lines: ``~ node 'y' (Relu → LeakyRelu)``,
``+ initializer 'b' float[10]``, ``- input 'mask' bool[N]``; no lines means equal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np

from onnxtext.ir.dtypes import BY_CODE
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.ir.tensor.literals import STORAGE_FIELDS
from onnxtext.printing.lift import Lifter, NotRepresentable
from onnxtext.proto import (
    AttributeProto,
    FunctionProto,
    GraphProto,
    ModelProto,
    NodeProto,
    TensorProto,
    TypeProto,
    ValueInfoProto,
)
from onnxtext.syntax.printer import Printer
from onnxtext.syntax.vocabulary import format_string

__all__ = [
    "diff_models",
    "diff_graphs",
    "diff_header",
    "diff_attribute_lists",
    "diff_function_signature",
    "tensor_change",
    "tensor_sig",
    "type_text",
    "node_text",
    "quote",
    "Values",
    "MAX_LINE",
]

MAX_LINE = 200  # longest rendering of a value before it is shortened with '…'
_PRINTER = Printer()
T = TypeVar("T")


def _short(text: str, limit: int = MAX_LINE) -> str:
    text = " ".join(text.split())  # one line
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quote(name: str) -> str:
    """``'name'`` with its quotes and backslashes escaped, as every diff line names things."""
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


_q = quote


def _bytes(msg: Any) -> bytes:
    data: bytes = msg.SerializeToString(deterministic=True)
    return data


# ---------------------------------------------------------------- renderings


def type_text(tp: TypeProto | None) -> str:
    """A type as the text writes it (``float[N,4]``)."""
    if tp is None:
        return "(no type)"
    try:
        ty, _ = Lifter().type(tp, "type")
        return str(_PRINTER.print(ty))
    except NotRepresentable:
        return "(unprintable type)"


def _vi_type(v: ValueInfoProto) -> str:
    return type_text(v.type if v.HasField("type") else None)


def tensor_sig(t: TensorProto) -> str:
    dt = BY_CODE.get(t.data_type)
    name = dt.name if dt is not None else f"type{t.data_type}"
    return f"{name}[{','.join(str(d) for d in t.dims)}]" if len(t.dims) else name


def attr_text(a: AttributeProto) -> str:
    """``alpha = 0.2``; tensors as their type, graphs as their size."""
    if a.HasField("ref_attr_name"):
        return f"{a.name} = @{a.ref_attr_name}"
    if a.HasField("t") or a.type == AttributeProto.TENSOR:
        return f"{a.name} = tensor {tensor_sig(a.t)}"
    if a.HasField("g") or a.type == AttributeProto.GRAPH:
        return f"{a.name} = graph ({len(a.g.node)} nodes)"
    if len(a.tensors):
        return f"{a.name} = [{', '.join(tensor_sig(t) for t in a.tensors)}]"
    if len(a.graphs):
        return f"{a.name} = [{len(a.graphs)} graphs]"
    try:
        return _short(str(_PRINTER.print(Lifter().attribute(a, "attribute"))))
    except NotRepresentable:
        return f"{a.name} = (unprintable)"


def _attr_value(a: AttributeProto) -> str:
    return attr_text(a).split(" = ", 1)[-1]


def node_text(n: NodeProto) -> str:
    try:
        lifter = Lifter(node_domain_unset=not n.HasField("domain"))  # no @{domain: ...} noise
        return _short(str(_PRINTER.print(lifter.node(n, "node"))))
    except NotRepresentable:
        return _short(f"{', '.join(n.output)} = {n.op_type}({', '.join(n.input)})")


def _op(n: NodeProto) -> str:
    op = (n.domain + "." if n.domain else "") + n.op_type
    return op + (":" + n.overload if n.overload else "")


# ---------------------------------------------------------------- tensors


Values = Callable[[TensorProto], np.ndarray]
"""How the values of a tensor are had: :func:`~onnxtext.ir.tensor.arrays.to_numpy`, or a
reader that maps weights left in their files (``onnxtext diff`` on large models)."""


def tensor_change(a: TensorProto, b: TensorProto, values: Values = to_numpy) -> str | None:
    """How ``b`` differs from ``a``, in words, or None if they hold the same values."""
    if a.data_type != b.data_type or list(a.dims) != list(b.dims):
        return f"{tensor_sig(a)} → {tensor_sig(b)}"
    ext_a, ext_b = a.data_location == TensorProto.EXTERNAL, b.data_location == TensorProto.EXTERNAL
    if ext_a or ext_b:
        if ext_a and ext_b:
            ea = [(e.key, e.value) for e in a.external_data]
            eb = [(e.key, e.value) for e in b.external_data]
            return None if ea == eb else f"{tensor_sig(b)}: external data {_ext(ea)} → {_ext(eb)} (not loaded)"
        return (
            f"{tensor_sig(b)}: data {'external' if ext_a else 'inline'} → {'external' if ext_b else 'inline'} "
            "(not loaded)"
        )
    if a.HasField("raw_data") and b.HasField("raw_data") and a.raw_data == b.raw_data:  # also equal content tokens
        summary = None
    else:
        try:
            va, vb = values(a), values(b)
        except NotRepresentable:
            return None if _data_bytes(a) == _data_bytes(b) else f"{tensor_sig(b)}: data changed"
        summary = _values_change(va, vb)
    if summary is not None:
        return f"{tensor_sig(b)}: {summary}"
    rest = _other_fields(a, b, {"name", "dims", "data_type", *STORAGE_FIELDS, "data_location", "external_data"})
    return f"{tensor_sig(b)}: {rest}" if rest else None


def _ext(entries: list[tuple[str, str]]) -> str:
    return "[" + ", ".join(f"{k}={v}" for k, v in entries) + "]"


def _data_bytes(t: TensorProto) -> bytes:
    c = TensorProto()
    c.CopyFrom(t)
    c.ClearField("name")
    return _bytes(c)


_BLOCK = 1 << 22  # elements compared at a time: the temporaries stay small for large tensors


def _values_change(va: np.ndarray, vb: np.ndarray) -> str | None:
    """``3 of 16 elements differ, max abs diff 0.5`` (NaN equals NaN; vectorised, by blocks)."""
    if va.dtype == object or vb.dtype == object:
        differ = np.asarray(va != vb, dtype=bool)
        n = int(np.count_nonzero(differ))
        return f"{n} of {va.size} elements differ" if n else None
    fa, fb = va.reshape(-1), vb.reshape(-1)
    n, worst, nonfinite = 0, -1.0, 0
    for i in range(0, fa.size, _BLOCK):
        a, b = fa[i : i + _BLOCK], fb[i : i + _BLOCK]
        if va.dtype.kind in "fc":
            differ = ~((a == b) | (np.isnan(a) & np.isnan(b)))
        else:
            differ = a != b
        k = int(np.count_nonzero(differ))
        if not k:
            continue
        n += k
        if va.dtype.kind == "b":
            continue
        wide = np.complex128 if va.dtype.kind == "c" else np.float64
        with np.errstate(invalid="ignore", over="ignore"):  # NaN against a number, inf - inf
            delta = np.abs(a[differ].astype(wide) - b[differ].astype(wide))
        finite = delta[np.isfinite(delta)]
        nonfinite += delta.size - finite.size
        if finite.size:
            worst = max(worst, float(finite.max()))
    if not n:
        return None
    if va.dtype.kind == "b":
        return f"{n} of {va.size} elements differ"
    text = f"{worst:.6g}" if worst >= 0 else "inf"
    if worst >= 0 and nonfinite:
        text += f" ({nonfinite} non-finite)"
    return f"{n} of {va.size} elements differ, max abs diff {text}"


def _other_fields(a: Any, b: Any, ignore: set[str]) -> str | None:
    """``doc_string, metadata_props changed`` for the fields outside ``ignore`` that differ."""
    names = sorted({fd.name for fd, _ in a.ListFields()} | {fd.name for fd, _ in b.ListFields()})
    changed = []
    for name in names:
        if name in ignore:
            continue
        fa, fb = getattr(a, name), getattr(b, name)
        fd = a.DESCRIPTOR.fields_by_name[name]
        if fd.is_repeated:
            same = len(fa) == len(fb) and all(_eq(x, y) for x, y in zip(fa, fb, strict=True))
        else:
            same = a.HasField(name) == b.HasField(name) and _eq(fa, fb) if fd.has_presence else _eq(fa, fb)
        if not same:
            changed.append(name)
    return ", ".join(changed) + " changed" if changed else None


def _eq(x: Any, y: Any) -> bool:
    if hasattr(x, "SerializeToString"):
        return _bytes(x) == _bytes(y)
    return bool(x == y)


# ---------------------------------------------------------------- alignment


def _align(a: Sequence[T], b: Sequence[T], key: Callable[[T], Any]) -> Iterable[tuple[Any, T | None, T | None]]:
    """Pairs by key, in ``a``'s order then ``b``'s additions. A repeated key (an invalid
    model) becomes ``_Dup(key, n)`` for its n-th repetition, matched by repetition."""

    def keyed(items: Sequence[T]) -> dict[Any, T]:
        out: dict[Any, T] = {}
        for item in items:
            k = key(item)
            kk, i = k, 1
            while kk in out:
                kk, i = _Dup(k, i + 1), i + 1
            out[kk] = item
        return out

    ka, kb = keyed(a), keyed(b)
    for k, item in ka.items():
        yield k, item, kb.get(k)
    for k, item in kb.items():
        if k not in ka:
            yield k, None, item


class _Dup(tuple):  # type: ignore[type-arg]
    """The n-th occurrence (n >= 2) of a key that appears more than once."""

    def __new__(cls, key: Any, n: int) -> _Dup:
        return super().__new__(cls, (key, n))


def _name(k: Any) -> str:
    if isinstance(k, _Dup):
        return f"{_name(k[0])} (#{k[1]})"
    return _q(k) if isinstance(k, str) else _q(str(k))


def _node_key(n: NodeProto) -> Any:
    for o in n.output:
        if o:
            return o
    return ("no output", _op(n), tuple(n.input), n.name)


# ---------------------------------------------------------------- graphs


def diff_graphs(ga: GraphProto, gb: GraphProto, prefix: str = "", values: Values = to_numpy) -> list[str]:
    """The changes from ``ga`` to ``gb``; ``prefix`` starts every item (for subgraphs)."""
    out: list[str] = []
    if ga.name != gb.name:
        out.append(f"~ {prefix}graph name {_q(ga.name)} → {_q(gb.name)}")
    for what, la, lb in (("input", ga.input, gb.input), ("output", ga.output, gb.output)):
        _diff_values(what, la, lb, prefix, out, ordered=True)
    _diff_values("value_info", ga.value_info, gb.value_info, prefix, out, ordered=False)
    for k, ta, tb in _align(ga.initializer, gb.initializer, lambda t: t.name):
        name = _name(k)
        if ta is None and tb is not None:
            out.append(f"+ {prefix}initializer {name} {tensor_sig(tb)}")
        elif tb is None and ta is not None:
            out.append(f"- {prefix}initializer {name} {tensor_sig(ta)}")
        elif ta is not None and tb is not None:
            change = tensor_change(ta, tb, values)
            if change:
                out.append(f"~ {prefix}initializer {name} {change}")
    for k, sa, sb in _align(ga.sparse_initializer, gb.sparse_initializer, lambda s: s.values.name):
        name = _name(k)
        if sa is None:
            out.append(f"+ {prefix}sparse initializer {name}")
        elif sb is None:
            out.append(f"- {prefix}sparse initializer {name}")
        elif _bytes(sa) != _bytes(sb):
            out.append(f"~ {prefix}sparse initializer {name} changed")
    _diff_nodes(ga.node, gb.node, prefix, out, values)
    rest = _other_fields(ga, gb, {"name", "input", "output", "value_info", "initializer", "sparse_initializer", "node"})
    if rest:
        out.append(f"~ {prefix}graph {rest}")
    return out


def _diff_values(
    what: str, la: Sequence[ValueInfoProto], lb: Sequence[ValueInfoProto], prefix: str, out: list[str], *, ordered: bool
) -> None:
    for k, va, vb in _align(la, lb, lambda v: v.name):
        name = _name(k)
        if va is None and vb is not None:
            out.append(f"+ {prefix}{what} {name} {_vi_type(vb)}")
        elif vb is None and va is not None:
            out.append(f"- {prefix}{what} {name} {_vi_type(va)}")
        elif va is not None and vb is not None:
            ta, tb = _vi_type(va), _vi_type(vb)
            if ta != tb or _bytes(va.type) != _bytes(vb.type):
                out.append(f"~ {prefix}{what} {name} {ta} → {tb}")
            rest = _other_fields(va, vb, {"name", "type"})
            if rest:
                out.append(f"~ {prefix}{what} {name} {rest}")
    if ordered:
        na, nb = [v.name for v in la], [v.name for v in lb]
        if na != nb and sorted(na) == sorted(nb):
            out.append(f"~ {prefix}{what} order ({', '.join(na)}) → ({', '.join(nb)})")


def _diff_nodes(la: Sequence[NodeProto], lb: Sequence[NodeProto], prefix: str, out: list[str], values: Values) -> None:
    for k, na, nb in _align(la, lb, _node_key):
        if na is None and nb is not None:
            out.append(f"+ {prefix}node {_node_label(k, nb)} {node_text(nb)}")
        elif nb is None and na is not None:
            out.append(f"- {prefix}node {_node_label(k, na)} {node_text(na)}")
        elif na is not None and nb is not None:
            _diff_node(na, nb, _node_label(k, nb), prefix, out, values)


def _node_label(k: Any, n: NodeProto) -> str:
    """The output name a node is known by (or its name or op type when it has no output)."""
    if isinstance(k, str) or (isinstance(k, _Dup) and isinstance(k[0], str)):
        return _name(k)
    return _q(n.name or n.op_type)


def _diff_node(na: NodeProto, nb: NodeProto, label: str, prefix: str, out: list[str], values: Values) -> None:
    op_a, op_b = _op(na), _op(nb)
    if op_a != op_b:
        out.append(f"~ {prefix}node {label} ({op_a} → {op_b})")
    where = f"{prefix}node {label} ({op_b})"
    if list(na.input) != list(nb.input):
        out.append(f"~ {where} inputs ({', '.join(na.input)}) → ({', '.join(nb.input)})")
    if list(na.output) != list(nb.output):
        out.append(f"~ {where} outputs ({', '.join(na.output)}) → ({', '.join(nb.output)})")
    _diff_attributes(na.attribute, nb.attribute, f"{where} ", out, values)
    rest = _other_fields(na, nb, {"name", "input", "output", "op_type", "domain", "overload", "attribute"})
    if rest:
        out.append(f"~ {where} {rest}")


def _diff_attributes(
    la: Sequence[AttributeProto], lb: Sequence[AttributeProto], lead: str, out: list[str], values: Values
) -> None:
    """Attributes (of a node, or a function's defaults) aligned by name; ``lead`` starts
    every item (``"node 'y' (Relu) "``, ``"function 'f': "``)."""
    for _, aa, ab in _align(la, lb, lambda a: a.name):
        if aa is None and ab is not None:
            out.append(f"+ {lead}attribute {attr_text(ab)}")
        elif ab is None and aa is not None:
            out.append(f"- {lead}attribute {attr_text(aa)}")
        elif aa is not None and ab is not None and _bytes(aa) != _bytes(ab):
            _diff_attribute(aa, ab, lead, out, values)


def _diff_attribute(aa: AttributeProto, ab: AttributeProto, lead: str, out: list[str], values: Values) -> None:
    head = f"~ {lead}attribute {ab.name}"
    if aa.HasField("t") and ab.HasField("t") and aa.type == ab.type:
        change = tensor_change(aa.t, ab.t, values)
        out.append(f"{head}: {change}" if change else f"{head} changed")
        return
    if aa.HasField("g") and ab.HasField("g") and aa.type == ab.type:
        sub = diff_graphs(aa.g, ab.g, f"{lead}attribute {ab.name}: ", values)
        out.extend(sub if sub else [f"{head} changed"])
        return
    if len(aa.graphs) and len(aa.graphs) == len(ab.graphs) and aa.type == ab.type:
        for i, (x, y) in enumerate(zip(aa.graphs, ab.graphs, strict=True)):
            out.extend(diff_graphs(x, y, f"{lead}attribute {ab.name}[{i}]: ", values))
        return
    va, vb = _attr_value(aa), _attr_value(ab)
    out.append(f"{head}: {va} → {vb}" if va != vb else f"{head} changed")


# ---------------------------------------------------------------- models


def _fn_key(f: FunctionProto) -> tuple[str, str, str]:
    return (f.domain, f.name, f.overload)


def _fn_label(k: Any) -> str:
    if isinstance(k, _Dup):
        return f"{_fn_label(k[0])} (#{k[1]})"
    if isinstance(k, tuple) and len(k) == 3:
        domain, name, overload = k
        return _q((domain + "." if domain else "") + name + (":" + overload if overload else ""))
    return _q(str(k))


def diff_functions(fa: FunctionProto, fb: FunctionProto, prefix: str, values: Values = to_numpy) -> list[str]:
    out: list[str] = []
    for what in ("input", "output", "attribute"):
        la, lb = list(getattr(fa, what)), list(getattr(fb, what))
        if la != lb:
            out.append(f"~ {prefix}{what}s ({', '.join(la)}) → ({', '.join(lb)})")
    _diff_attributes(fa.attribute_proto, fb.attribute_proto, prefix, out, values)
    _diff_opsets(fa.opset_import, fb.opset_import, prefix, out)
    _diff_values("value_info", fa.value_info, fb.value_info, prefix, out, ordered=False)
    _diff_nodes(fa.node, fb.node, prefix, out, values)
    rest = _other_fields(
        fa,
        fb,
        {
            "name",
            "domain",
            "overload",
            "input",
            "output",
            "attribute",
            "attribute_proto",
            "opset_import",
            "value_info",
            "node",
        },
    )
    if rest:
        out.append(f"~ {prefix.rstrip(': ')} {rest}")
    return out


def _diff_opsets(la: Any, lb: Any, prefix: str, out: list[str]) -> None:
    for k, oa, ob in _align(la, lb, lambda o: o.domain):
        dom = _name(k)
        if oa is None and ob is not None:
            out.append(f"+ {prefix}opset {dom} {ob.version}")
        elif ob is None and oa is not None:
            out.append(f"- {prefix}opset {dom} {oa.version}")
        elif oa is not None and ob is not None and oa.version != ob.version:
            out.append(f"~ {prefix}opset {dom} {oa.version} → {ob.version}")


_HEADER = ("ir_version", "producer_name", "producer_version", "domain", "model_version", "doc_string")


def _scalar(msg: Any, name: str) -> str:
    if not msg.HasField(name):
        return "(unset)"
    v = getattr(msg, name)
    return format_string(v.encode("utf-8")) if isinstance(v, str) else str(v)


def diff_attribute_lists(
    la: Sequence[AttributeProto], lb: Sequence[AttributeProto], lead: str, values: Values = to_numpy
) -> list[str]:
    """Attributes aligned by name, as :func:`diff_models` compares a node's (``lead`` starts each line)."""
    out: list[str] = []
    _diff_attributes(la, lb, lead, out, values)
    return out


def diff_function_signature(fa: FunctionProto, fb: FunctionProto, prefix: str, values: Values = to_numpy) -> list[str]:
    """What of two functions is not their body: attribute parameters and defaults, opsets, other fields."""
    out: list[str] = []
    if list(fa.attribute) != list(fb.attribute):
        out.append(f"~ {prefix}attributes ({', '.join(fa.attribute)}) → ({', '.join(fb.attribute)})")
    _diff_attributes(fa.attribute_proto, fb.attribute_proto, prefix, out, values)
    _diff_opsets(fa.opset_import, fb.opset_import, prefix, out)
    if len(fa.input) != len(fb.input) or len(fa.output) != len(fb.output):
        out.append(
            f"~ {prefix}signature ({', '.join(fa.input)}) => ({', '.join(fa.output)}) → "
            f"({', '.join(fb.input)}) => ({', '.join(fb.output)})"
        )
    return out


def diff_header(a: ModelProto, b: ModelProto) -> list[str]:
    """The header fields, opsets and metadata of two models (what is neither graph nor function)."""
    out: list[str] = []
    for name in _HEADER:
        va, vb = _scalar(a, name), _scalar(b, name)
        if va != vb:
            out.append(f"~ {name} {_short(va, 80)} → {_short(vb, 80)}")
    _diff_opsets(a.opset_import, b.opset_import, "", out)
    for k, ma, mb in _align(a.metadata_props, b.metadata_props, lambda m: m.key):
        key = _name(k)
        if ma is None and mb is not None:
            out.append(f"+ metadata {key} = {_short(format_string(mb.value.encode()), 80)}")
        elif mb is None and ma is not None:
            out.append(f"- metadata {key} = {_short(format_string(ma.value.encode()), 80)}")
        elif ma is not None and mb is not None and ma.value != mb.value:
            out.append(
                f"~ metadata {key} {_short(format_string(ma.value.encode()), 80)} → "
                f"{_short(format_string(mb.value.encode()), 80)}"
            )
    rest = _other_fields(a, b, set(_HEADER) | {"opset_import", "metadata_props", "graph", "functions"})
    if rest:
        out.append(f"~ model {rest}")
    return out


def diff_models(a: ModelProto, b: ModelProto, *, values: Values = to_numpy) -> list[str]:
    """Readable lines describing how ``b`` differs from ``a``; empty when they are the same.

    ``values`` gives a tensor's values (default :func:`~onnxtext.ir.tensor.arrays.to_numpy`)."""
    out = diff_header(a, b)
    out.extend(diff_graphs(a.graph, b.graph, "", values))
    for k, fa, fb in _align(a.functions, b.functions, _fn_key):
        label = _fn_label(k)
        if fa is None and fb is not None:
            out.append(f"+ function {label} ({', '.join(fb.input)}) => ({', '.join(fb.output)}), {len(fb.node)} nodes")
        elif fb is None and fa is not None:
            out.append(f"- function {label} ({', '.join(fa.input)}) => ({', '.join(fa.output)}), {len(fa.node)} nodes")
        elif fa is not None and fb is not None:
            out.extend(diff_functions(fa, fb, f"function {label}: ", values))
    return out
