"""Property-based tests: random onnx models print and parse back byte for byte; random
(broken) texts only ever raise ParseError with located diagnostics.

The whole file is meant to run in well under 60 s on two cores: every ``@given`` has
an explicit, small ``max_examples``.
"""

from __future__ import annotations

import glob
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

onnx = pytest.importorskip("onnx")
np = pytest.importorskip("numpy")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from onnx import AttributeProto, TensorProto, helper, numpy_helper  # noqa: E402

import onnxtext  # noqa: E402
from onnxtext.diagnostics.render import render_diagnostic  # noqa: E402
from onnxtext.printing.text import NotRepresentable, to_text  # noqa: E402
from onnxtext.proto import as_own  # noqa: E402
from onnxtext.syntax.format import format_text  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
ROUNDTRIP = settings(max_examples=120, deadline=None, suppress_health_check=HEALTH)
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=HEALTH)
# A single parse of a text of a few KB takes milliseconds; anything near this is a hang.
SLOW_PARSE_SECONDS = 30.0  # a hang guard for fuzzed inputs, not a speed target (see bench/)
INTERNAL_NAMES = (
    "__anon",
    "$END",
    "RPAR",
    "LPAR",
    "RSQB",
    "LSQB",
    "RBRACE",
    "LBRACE",
    "IDENT",
    "COMMA",
    "NUMLIST",
    "ANON",
    "Tok(",
    "Token(",
)


def ser(msg: Any) -> bytes:
    return msg.SerializeToString(deterministic=True)  # type: ignore[no-any-return]


# ---------------------------------------------------------------- names

plain_names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,7}", fullmatch=True)
# Names that need quotes in text, or that look like keywords/literals.
odd_names = st.sampled_from(
    [
        "my x",
        "seq",
        "map",
        "optional",
        "sparse_tensor",
        "opaque",
        "nan",
        "NaN",
        "inf",
        "Infinity",
        "unset",
        "true",
        "false",
        "1abc",
        "ünï",
        'a"b',
        "back\\slash",
        "new\nline",
        "tab\t",
        "a.b",
        "x-y",
        "😀",
        "float",
        "int64",
        "graph",
    ]
)
names = st.one_of(plain_names, plain_names, odd_names, st.text(min_size=1, max_size=5))
opt_names = st.one_of(names, st.just(""))
texts = st.one_of(st.text(max_size=12), st.sampled_from(["", "doc", "multi\nline", 'quo"te', "\\", "\x00\x01", "é😀"]))
meta = st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=3)
domains = st.sampled_from(["", "com.microsoft", "ai.onnx.ml", "local", "a-b.c", "x.1y", "org.pytorch.aten"])

# ---------------------------------------------------------------- types

ELEM_TYPES = [
    TensorProto.FLOAT,
    TensorProto.UINT8,
    TensorProto.INT8,
    TensorProto.UINT16,
    TensorProto.INT16,
    TensorProto.INT32,
    TensorProto.INT64,
    TensorProto.STRING,
    TensorProto.BOOL,
    TensorProto.FLOAT16,
    TensorProto.DOUBLE,
    TensorProto.UINT32,
    TensorProto.UINT64,
    TensorProto.COMPLEX64,
    TensorProto.COMPLEX128,
    TensorProto.BFLOAT16,
    TensorProto.FLOAT8E4M3FN,
    TensorProto.FLOAT8E4M3FNUZ,
    TensorProto.FLOAT8E5M2,
    TensorProto.FLOAT8E5M2FNUZ,
    TensorProto.UINT4,
    TensorProto.INT4,
    TensorProto.FLOAT4E2M1,
]
elem_types = st.sampled_from(ELEM_TYPES)
dims = st.one_of(
    st.integers(0, 2**40), st.integers(0, 9), plain_names, st.sampled_from(["batch size", "N-1", "", "?x"]), st.none()
)
shapes = st.one_of(st.none(), st.lists(dims, max_size=4))


@st.composite
def tensor_types(draw: Any) -> Any:
    tp = helper.make_tensor_type_proto(draw(elem_types), draw(shapes))
    for d in tp.tensor_type.shape.dim:
        if draw(st.integers(0, 5)) == 0:
            d.denotation = draw(st.sampled_from(["DATA_BATCH", "DATA_CHANNEL", "x y", ""]))
    return tp


def type_protos(depth: int = 2) -> Any:
    leaf = st.one_of(
        tensor_types(),
        st.builds(helper.make_sparse_tensor_type_proto, elem_types, shapes),
    )
    if depth == 0:
        return leaf
    inner = type_protos(depth - 1)
    return st.one_of(
        leaf,
        leaf,
        st.builds(helper.make_sequence_type_proto, inner),
        st.builds(helper.make_optional_type_proto, inner),
        st.builds(
            helper.make_map_type_proto,
            st.sampled_from([TensorProto.INT64, TensorProto.STRING, TensorProto.INT32]),
            inner,
        ),
        # A domain without a name has no syntax (NotRepresentable): see test_opaque_type_with_domain_only_*.
        st.builds(_opaque, st.sampled_from(["a", "a.b", "com.x", "", "a-b", "x.1y"]), st.one_of(plain_names, names)),
        st.builds(_opaque, st.none(), st.one_of(st.none(), plain_names)),
    )


def _opaque(domain: str | None, name: str | None) -> Any:
    tp = onnx.TypeProto()
    tp.opaque_type.SetInParent()
    if domain is not None:
        tp.opaque_type.domain = domain
    if name is not None:
        tp.opaque_type.name = name
    return tp


@st.composite
def value_infos(draw: Any, name: Any = names) -> Any:
    vi = onnx.ValueInfoProto()
    vi.name = draw(name)
    kind = draw(st.integers(0, 5))
    if kind > 0:
        vi.type.CopyFrom(draw(type_protos()))
        if kind == 5:
            vi.type.denotation = draw(st.sampled_from(["IMAGE", "TEXT", "x y"]))
    if draw(st.integers(0, 4)) == 0:
        vi.doc_string = draw(texts)
    if draw(st.integers(0, 5)) == 0:
        helper.set_metadata_props(vi, draw(meta))
    return vi


# ---------------------------------------------------------------- tensors

NUMPY_TYPES = {
    TensorProto.FLOAT: np.float32,
    TensorProto.DOUBLE: np.float64,
    TensorProto.FLOAT16: np.float16,
    TensorProto.INT8: np.int8,
    TensorProto.UINT8: np.uint8,
    TensorProto.INT16: np.int16,
    TensorProto.UINT16: np.uint16,
    TensorProto.INT32: np.int32,
    TensorProto.UINT32: np.uint32,
    TensorProto.INT64: np.int64,
    TensorProto.UINT64: np.uint64,
    TensorProto.BOOL: np.bool_,
    TensorProto.COMPLEX64: np.complex64,
    TensorProto.COMPLEX128: np.complex128,
}
SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.5, 0.1, 1e-45, 1e-8, 3.4e38, 65504.0, float("inf"), float("-inf"), float("nan")]


def _float_values(width: int) -> Any:
    finite = st.floats(allow_nan=False, allow_infinity=False, width=width)
    return st.one_of(finite, st.sampled_from(SPECIAL_FLOATS))


@st.composite
def array_values(draw: Any, code: int, shape: tuple[int, ...]) -> Any:
    n = int(np.prod(shape)) if shape else 1
    npt = NUMPY_TYPES.get(code)
    if code == TensorProto.STRING:
        vals = draw(st.lists(st.binary(max_size=6) | st.text(max_size=4).map(str.encode), min_size=n, max_size=n))
        return np.array(vals, dtype=object).reshape(shape)
    if code == TensorProto.BOOL:
        return np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=np.bool_).reshape(shape)
    if code in (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE):
        width = {TensorProto.FLOAT: 32, TensorProto.FLOAT16: 16, TensorProto.DOUBLE: 64}[code]
        vals = draw(st.lists(_float_values(64 if width == 16 else width), min_size=n, max_size=n))
        with np.errstate(over="ignore"):
            return np.array(vals, dtype=npt).reshape(shape)
    if code in (TensorProto.COMPLEX64, TensorProto.COMPLEX128):
        width = 32 if code == TensorProto.COMPLEX64 else 64
        arr = np.zeros(n, dtype=npt)
        arr.real = draw(st.lists(_float_values(width), min_size=n, max_size=n))
        arr.imag = draw(st.lists(_float_values(width), min_size=n, max_size=n))
        return arr.reshape(shape)
    info = np.iinfo(npt)
    vals = draw(
        st.lists(
            st.one_of(st.integers(int(info.min), int(info.max)), st.sampled_from([int(info.min), int(info.max), 0])),
            min_size=n,
            max_size=n,
        )
    )
    return np.array(vals, dtype=npt).reshape(shape)


@st.composite
def tensors(draw: Any, name: Any = names, allow_extras: bool = True) -> Any:
    """A valid TensorProto: from numpy (raw_data), or helper.make_tensor (typed or raw)."""
    shape = tuple(draw(st.lists(st.integers(0, 3), max_size=3)))
    how = draw(st.sampled_from(["numpy", "typed", "typed", "raw", "small_float"]))
    tname = draw(name)
    if how == "small_float":
        code = draw(
            st.sampled_from(
                [
                    TensorProto.BFLOAT16,
                    TensorProto.FLOAT8E4M3FN,
                    TensorProto.FLOAT8E4M3FNUZ,
                    TensorProto.FLOAT8E5M2,
                    TensorProto.FLOAT8E5M2FNUZ,
                    TensorProto.FLOAT4E2M1,
                    TensorProto.FLOAT16,
                ]
            )
        )
        n = int(np.prod(shape)) if shape else 1
        vals = draw(st.lists(st.sampled_from([0.0, 1.0, -2.0, 0.5, 0.25, 6.0, -0.5, 1.5]), min_size=n, max_size=n))
        t = helper.make_tensor(tname, code, shape, vals)
    elif how in ("typed", "raw") or draw(st.booleans()):
        code = draw(st.sampled_from(sorted(NUMPY_TYPES) + [TensorProto.STRING, TensorProto.INT4, TensorProto.UINT4]))
        if code in (TensorProto.INT4, TensorProto.UINT4):
            n = int(np.prod(shape)) if shape else 1
            lo, hi = (-8, 7) if code == TensorProto.INT4 else (0, 15)
            vals = draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n))
            t = helper.make_tensor(tname, code, shape, vals, raw=False)
        else:
            arr = draw(array_values(code, shape))
            raw = how == "raw" and code != TensorProto.STRING
            if raw:
                t = helper.make_tensor(tname, code, shape, arr.tobytes(), raw=True)
            else:
                t = helper.make_tensor(tname, code, shape, arr.flatten().tolist())
    else:
        code = draw(st.sampled_from(sorted(NUMPY_TYPES) + [TensorProto.STRING]))
        t = numpy_helper.from_array(draw(array_values(code, shape)), tname)
    t.name = tname  # numpy_helper leaves an empty name unset
    if allow_extras:
        if draw(st.integers(0, 8)) == 0:
            t.ClearField("name")
        if draw(st.integers(0, 5)) == 0:
            t.doc_string = draw(texts)
        if draw(st.integers(0, 6)) == 0:
            helper.set_metadata_props(t, draw(meta))
    return t


@st.composite
def sparse_tensors(draw: Any) -> Any:
    """A 1-D or 2-D sparse tensor in COO form (values + int64 indices)."""
    rank = draw(st.integers(1, 2))
    dims = draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    nnz = draw(st.integers(0, 3))
    values = numpy_helper.from_array(
        np.array(draw(st.lists(st.integers(-9, 9), min_size=nnz, max_size=nnz)), dtype=np.float32), draw(names)
    )
    idx = [[draw(st.integers(0, d - 1)) for d in dims] for _ in range(nnz)]
    arr = np.array(idx, dtype=np.int64).reshape(nnz, rank)
    indices = numpy_helper.from_array(arr.reshape(nnz) if rank == 1 else arr, "")
    if draw(st.booleans()):
        indices = helper.make_tensor(
            indices.name, TensorProto.INT64, list(indices.dims), numpy_helper.to_array(indices).flatten().tolist()
        )
    return helper.make_sparse_tensor(values, indices, dims)


# ---------------------------------------------------------------- attributes, nodes, graphs


@st.composite
def attributes(draw: Any, depth: int, in_function: bool = False) -> Any:
    name = draw(st.one_of(plain_names, plain_names, names))
    kinds = [
        "int",
        "float",
        "string",
        "ints",
        "floats",
        "strings",
        "tensor",
        "type",
        "types",
        "empty",
        "tensors",
        "sparse",
        "sparses",
    ]
    if depth > 0:
        kinds += ["graph", "graphs"]
    if in_function:
        kinds += ["ref", "ref"]
    kind = draw(st.sampled_from(kinds))
    if kind == "int":
        a = helper.make_attribute(name, draw(st.integers(-(2**63), 2**63 - 1)))
    elif kind == "float":
        a = helper.make_attribute(name, draw(_float_values(32)))
    elif kind == "string":
        a = helper.make_attribute(name, draw(st.binary(max_size=8) | texts.map(str.encode)))
    elif kind == "ints":
        a = helper.make_attribute(name, draw(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=4)))
    elif kind == "floats":
        a = helper.make_attribute(name, draw(st.lists(_float_values(32), min_size=1, max_size=4)))
    elif kind == "strings":
        a = helper.make_attribute(name, draw(st.lists(texts.map(str.encode), min_size=1, max_size=3)))
    elif kind == "tensor":
        a = helper.make_attribute(name, draw(tensors(name=st.one_of(st.just(""), names))))
    elif kind == "tensors":
        # Raw and typed, strings, unset names, doc strings: tensors in lists carry property blocks (5cd04a1).
        a = helper.make_attribute(
            name, draw(st.lists(tensors(name=st.one_of(st.just(""), names)), min_size=1, max_size=2))
        )
    elif kind == "sparse":
        a = helper.make_attribute(name, draw(sparse_tensors()))
    elif kind == "sparses":
        a = helper.make_attribute(name, draw(st.lists(sparse_tensors(), min_size=1, max_size=2)))
    elif kind == "type":
        a = helper.make_attribute(name, draw(type_protos()))
    elif kind == "types":
        a = helper.make_attribute(name, draw(st.lists(type_protos(1), min_size=1, max_size=2)))
    elif kind == "empty":
        code = draw(
            st.sampled_from(
                [
                    AttributeProto.INTS,
                    AttributeProto.FLOATS,
                    AttributeProto.STRINGS,
                    AttributeProto.TENSORS,
                    AttributeProto.GRAPHS,
                    AttributeProto.TYPE_PROTOS,
                ]
            )
        )
        a = helper.make_attribute(name, [], attr_type=code)
    elif kind == "graph":
        a = helper.make_attribute(name, draw(graphs(depth - 1)))
    elif kind == "graphs":
        a = helper.make_attribute(name, draw(st.lists(graphs(depth - 1), min_size=1, max_size=2)))
    else:  # ref
        a = onnx.AttributeProto()
        a.name = name
        a.ref_attr_name = draw(st.one_of(plain_names, names))
        a.type = draw(
            st.sampled_from(
                [
                    AttributeProto.FLOAT,
                    AttributeProto.INT,
                    AttributeProto.STRING,
                    AttributeProto.TENSOR,
                    AttributeProto.GRAPH,
                    AttributeProto.INTS,
                    AttributeProto.FLOATS,
                    AttributeProto.STRINGS,
                    AttributeProto.TENSORS,
                    AttributeProto.GRAPHS,
                    AttributeProto.TYPE_PROTO,
                    AttributeProto.TYPE_PROTOS,
                ]
            )
        )
    if draw(st.integers(0, 6)) == 0:
        a.doc_string = draw(texts)
    return a


OPS = ["Add", "Mul", "Relu", "Conv", "Identity", "MatMul", "Custom", "my-op", "Op.With.Dots", "If"]


@st.composite
def nodes(draw: Any, depth: int, values: list[str], in_function: bool = False) -> Any:
    n_in = draw(st.integers(0, 3))
    inputs = [draw(st.one_of(st.sampled_from(values), st.just(""))) if values else draw(opt_names) for _ in range(n_in)]
    outputs = draw(st.lists(opt_names, max_size=3))
    op = draw(st.sampled_from(OPS))
    node = helper.make_node(op, inputs, outputs)
    domain = draw(st.one_of(st.none(), domains))
    if domain is not None:
        node.domain = domain
    name = draw(st.one_of(st.none(), opt_names))
    if name is not None:
        node.name = name
    if draw(st.integers(0, 4)) == 0:
        node.overload = draw(st.sampled_from(["v2", "x-y", "", "ov"]))
    if op == "Conv" and draw(st.booleans()):
        node.attribute.extend(
            [
                helper.make_attribute("kernel_shape", draw(st.lists(st.integers(1, 7), min_size=2, max_size=2))),
                helper.make_attribute("pads", draw(st.lists(st.integers(0, 3), min_size=4, max_size=4))),
                helper.make_attribute("group", draw(st.integers(1, 4))),
                helper.make_attribute("auto_pad", b"NOTSET"),
            ]
        )
    for a in draw(st.lists(attributes(depth, in_function), max_size=3)):
        node.attribute.append(a)
    if draw(st.integers(0, 4)) == 0:
        node.doc_string = draw(texts)
    if draw(st.integers(0, 6)) == 0:
        helper.set_metadata_props(node, draw(meta))
    return node


# Subgraph names may be any string: quoted subgraph names print and parse (fixed in 4a7eb8b).
subgraph_names = names


@st.composite
def graphs(draw: Any, depth: int = 1, name: Any = None) -> Any:
    inputs = draw(st.lists(value_infos(), max_size=3))
    outputs = draw(st.lists(value_infos(), max_size=3))
    inits = draw(st.lists(tensors(), max_size=3 if depth else 1))
    vis = draw(st.lists(value_infos(), max_size=2))
    values = [v.name for v in inputs] + [t.name for t in inits]
    body = []
    for _ in range(draw(st.integers(0, 4 if depth else 2))):
        n = draw(nodes(depth, values))
        body.append(n)
        values.extend(o for o in n.output if o)
    g = helper.make_graph(
        body, draw(name if name is not None else subgraph_names), inputs, outputs, inits, value_info=vis
    )
    if draw(st.integers(0, 3)) == 0:
        g.doc_string = draw(texts)
    if draw(st.integers(0, 5)) == 0:
        helper.set_metadata_props(g, draw(meta))
    if draw(st.integers(0, 6)) == 0:
        g.sparse_initializer.extend(draw(st.lists(sparse_tensors(), min_size=1, max_size=2)))
    if draw(st.integers(0, 8)) == 0:
        ann = g.quantization_annotation.add()
        ann.tensor_name = draw(names)
        ann.quant_parameter_tensor_names.add(key="SCALE_TENSOR", value=draw(names))
    return g


@st.composite
def functions(draw: Any) -> Any:
    inputs = draw(st.lists(names, max_size=3, unique=True))
    outputs = draw(st.lists(names, min_size=1, max_size=2, unique=True))
    body = []
    values = list(inputs)
    for _ in range(draw(st.integers(0, 3))):
        n = draw(nodes(1, values, in_function=True))
        body.append(n)
        values.extend(o for o in n.output if o)
    attr_names = draw(st.lists(plain_names, max_size=2, unique=True))
    defaults = [a for a in draw(st.lists(attributes(0), max_size=2)) if a.name not in attr_names]
    seen: set[str] = set()
    defaults = [a for a in defaults if not (a.name in seen or seen.add(a.name))]  # type: ignore[func-returns-value]
    vis = draw(st.lists(value_infos(st.sampled_from(values) if values else names), max_size=2))
    f = helper.make_function(
        draw(st.sampled_from(["local", "com.x", ""])),
        draw(names),
        inputs,
        outputs,
        body,
        [helper.make_opsetid("", draw(st.integers(1, 23)))] if draw(st.booleans()) else [],
        attributes=attr_names,
        attribute_protos=defaults,
        doc_string=draw(st.one_of(st.none(), texts)),
        overload=draw(st.one_of(st.none(), st.sampled_from(["v1", "x y"]))),
        value_info=vis,
    )
    if draw(st.integers(0, 5)) == 0:
        helper.set_metadata_props(f, draw(meta))
    return f


@st.composite
def models(draw: Any) -> Any:
    graph = draw(graphs(depth=2, name=names))
    opsets = [helper.make_opsetid("", draw(st.integers(1, 23)))]
    if draw(st.booleans()):
        opsets.append(
            helper.make_opsetid(draw(st.sampled_from(["local", "com.microsoft", "a-b"])), draw(st.integers(0, 3)))
        )
    kwargs: dict[str, Any] = {"opset_imports": opsets}
    if draw(st.booleans()):
        kwargs["ir_version"] = draw(st.integers(3, 12))
    m = helper.make_model(graph, **kwargs)
    if draw(st.integers(0, 3)) == 0:
        m.ClearField("ir_version")
    for field in ("producer_name", "producer_version", "domain", "doc_string"):
        if draw(st.integers(0, 3)) == 0:
            setattr(m, field, draw(texts))
    if draw(st.integers(0, 3)) == 0:
        m.model_version = draw(st.integers(-(2**63), 2**63 - 1))
    if draw(st.integers(0, 3)) == 0:
        helper.set_model_props(m, draw(meta))
    for f in draw(st.lists(functions(), max_size=2)):
        m.functions.append(f)
    if draw(st.integers(0, 10)) == 0:
        cfg = m.configuration.add()
        cfg.name = draw(plain_names)
        cfg.num_devices = draw(st.integers(1, 8))
        cfg.device.extend(draw(st.lists(plain_names, max_size=2)))
    return m


# ---------------------------------------------------------------- print → parse


def _roundtrip(kind: str, msg: Any) -> None:
    expected = ser(as_own(msg))
    assert expected == ser(msg), "conversion to onnxtext's classes changed the bytes"
    text = to_text(msg)
    parsed = getattr(onnxtext, f"parse_{kind}")(text, path=f"<to_text {kind}>")
    assert ser(parsed) == expected, text
    # Printing is a function of the protobuf: printing again gives the same text,
    # both from the reparsed message and from the onnx message.
    assert to_text(parsed) == text
    assert to_text(msg) == text
    # What the printer writes is already in canonical layout.
    assert format_text(text, kind=kind) == text


@ROUNDTRIP
@given(models())
def test_model_prints_and_parses_back(model: Any) -> None:
    _roundtrip("model", model)


@settings(max_examples=60, deadline=None, suppress_health_check=HEALTH)
@given(graphs(depth=1, name=names))
def test_graph_prints_and_parses_back(graph: Any) -> None:
    _roundtrip("graph", graph)


@settings(max_examples=60, deadline=None, suppress_health_check=HEALTH)
@given(functions())
def test_function_prints_and_parses_back(function: Any) -> None:
    _roundtrip("function", function)


@settings(max_examples=60, deadline=None, suppress_health_check=HEALTH)
@given(st.lists(plain_names, max_size=3).flatmap(lambda vs: nodes(1, vs)))
def test_node_prints_and_parses_back(node: Any) -> None:
    _roundtrip("node", node)


# Found by the properties above: a numeric tensor with no elements printed ``{`` and ``}`` on
# lines of their own (a blank line between) when its line reached the width exactly before the
# ``{``, where ``fmt`` (which reads ``{}``, unbreakable) broke the property block instead.
def _empty_tensor(name: str, pad: int) -> Any:
    t = helper.make_tensor(name, TensorProto.UINT16, [0, 0, 0], [])
    entry = t.metadata_props.add()
    entry.key, entry.value = "k" * pad, "v"
    return t


@pytest.mark.parametrize("pad", range(20, 60))
def test_empty_initializer_keeps_its_braces_together(pad: int) -> None:
    graph = helper.make_graph([], "unset", [], [], initializer=[_empty_tensor("unset", pad), _empty_tensor("b", 0)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 1)])
    _roundtrip("model", model)
    assert "{}" in to_text(model)


@pytest.mark.parametrize("pad", range(20, 60))
def test_empty_attribute_tensor_keeps_its_braces_together(pad: int) -> None:
    node = helper.make_node("Add", ["x"], ["y"], value=_empty_tensor("", pad))
    function = helper.make_function("local", "f", ["x"], ["y"], [node], [helper.make_opsetid("", 1)])
    _roundtrip("function", function)
    assert "{}" in to_text(function)


# ---------------------------------------------------------------- fuzz: broken texts


def _seed_texts() -> list[str]:
    paths = sorted(glob.glob(str(ROOT / "examples" / "*.onnxtxt"))) + sorted(
        glob.glob(str(ROOT / "tests" / "golden" / "*.onnxtxt"))
    )
    out = []
    for p in paths:
        text = Path(p).read_text(encoding="utf-8").split("\n# output\n")[0]
        out.append(text)
    return out


SEEDS = _seed_texts()
_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|=>|@\{|-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|[A-Za-z_][A-Za-z0-9_]*|\s+|.', re.S
)
JUNK = [
    "<",
    ">",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "=",
    ".",
    "?",
    "@",
    "=>",
    "@{",
    '"s"',
    "x",
    "seq",
    "map",
    "optional",
    "sparse_tensor",
    "opaque",
    "1",
    "1.5",
    "-inf",
    "nan",
    "float",
    "int64",
    "float16",
    "unset",
    "\\",
    '"',
    "# c\n",
    "\n",
    "$",
    "\x00",
    "é",
    "ints",
    "[]",
    "{}",
    "<>",
    '@{doc_string: "d"}',
    "@{domain: unset}",
    "-",
    "e5",
    "'",
    ";",
    "\t",
]


def _check_failure(text: str, kind: str) -> None:
    """Parse ``text``; it may succeed, otherwise only ParseError with located, clean diagnostics."""
    start = time.perf_counter()
    try:
        getattr(onnxtext, f"parse_{kind}")(text, path="fuzz.onnxtxt")
    except onnxtext.ParseError as err:
        diags = err.diagnostics
        assert diags, "ParseError without diagnostics"
        assert any(d.is_error for d in diags)
        located = [d for d in diags if d.span is not None and 0 <= d.span.start.offset <= len(text)]
        assert located, [str(d) for d in diags]
        for d in diags:
            assert d.message and not any(name in d.message for name in INTERNAL_NAMES), d.message
            if d.span is not None:
                assert d.span.start.line >= 1 and d.span.start.column >= 1
                assert d.span.start.offset <= d.span.end.offset <= len(text)
            str(d)  # rendering never fails
            render_diagnostic(d)
    elapsed = time.perf_counter() - start
    assert elapsed < SLOW_PARSE_SECONDS, f"parse took {elapsed:.1f}s"


@st.composite
def mutated_texts(draw: Any) -> str:
    tokens = _TOKEN.findall(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "delete_run"]))
        i = draw(st.integers(0, len(tokens) - 1))
        if op == "delete":
            del tokens[i]
        elif op == "delete_run":
            del tokens[i : i + draw(st.integers(2, 12))]
        elif op == "duplicate":
            tokens.insert(i, tokens[i])
        elif op == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        else:
            tokens.insert(i, draw(st.sampled_from(JUNK)))
        if not tokens:
            tokens = [" "]
    return "".join(tokens)


@FUZZ
@given(mutated_texts())
def test_mutated_texts_raise_only_parse_error(text: str) -> None:
    _check_failure(text, "model")


FRAGMENTS = [
    "Y = Relu(X)",
    "Y = Add(X, W)",
    "[n] Y = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (X, W, B)",
    'Y, Z = com.microsoft.Foo:v2 (X, , "")',
    "= Print(X)",
    "Y = Foo <a: ints = [], t = float[2] {1, 2}, g = b () => (float o) { o = Neg(X) }> (X)",
    'Y = Foo (X) <s = "a\\"b">',
    '@{doc_string: "d"}',
    "Y = Bar <tp = seq(float[N]), r = @ref> ()",
    "# comment\n",
    "Y",
    "=",
    "Relu",
    "(",
    ")",
    "<",
    ">",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ".",
    "@",
    '"str',
    '"ok"',
    "1",
    "-2.5e3",
    "nan",
    "float[2]",
    "seq",
    "map(int64, float)",
    "=>",
    "$",
    "\\",
    "\n",
]


@FUZZ
@given(
    st.lists(st.sampled_from(FRAGMENTS), max_size=12),
    st.lists(st.sampled_from([" ", "\n", "", "  "]), min_size=12, max_size=12),
    st.booleans(),
)
def test_node_lists_from_fragments_raise_only_parse_error(parts: list[str], seps: list[str], braces: bool) -> None:
    body = "".join(p + s for p, s in zip(parts, seps, strict=False))
    text = "{\n" + body + "\n}" if braces else body
    _check_failure(text, "nodes")


@settings(max_examples=80, deadline=None, suppress_health_check=HEALTH)
@given(mutated_texts(), st.sampled_from(["graph", "function", "node"]))
def test_other_entry_points_raise_only_parse_error(text: str, kind: str) -> None:
    _check_failure(text, kind)


@settings(max_examples=150, deadline=None, suppress_health_check=HEALTH)
@given(mutated_texts())
def test_formatting_any_valid_text_keeps_its_meaning(text: str) -> None:
    """Whenever a (mutated) text parses, fmt gives a canonical text with the same protobuf."""
    try:
        model = onnxtext.parse_model(text)
    except onnxtext.ParseError:
        assume(False)
        return
    formatted = format_text(text)
    assert ser(onnxtext.parse_model(formatted)) == ser(model), formatted
    assert format_text(formatted) == formatted
    comments = re.findall(r"#[^\n]*", text)
    assert sorted(c.rstrip() for c in re.findall(r"#[^\n]*", formatted)) == sorted(c.rstrip() for c in comments)


# ---------------------------------------------------------------- known bugs: print → parse


def _assert_roundtrip(kind: str, msg: Any) -> None:
    """``msg`` (onnx's or ours) prints to a text that parses back to the same bytes."""
    text = to_text(msg)
    parsed = getattr(onnxtext, f"parse_{kind}")(text)
    assert ser(parsed) == ser(as_own(msg)), text


def test_opaque_type_with_domain_only_never_prints_invalid_text() -> None:
    """There is no syntax for an opaque type with a domain and no name: to_text must say so
    (NotRepresentable) rather than print 'opaque(a, )', which does not parse (fixed in 4a7eb8b)."""
    tp = onnx.TypeProto()
    tp.opaque_type.domain = "a"
    graph = helper.make_graph([], "g", [helper.make_value_info("x", tp)], [])
    try:
        text = to_text(graph)
    except NotRepresentable:
        return
    assert ser(onnxtext.parse_graph(text)) == ser(as_own(graph)), text


def test_opaque_type_with_empty_domain_prints_valid_text() -> None:
    tp = onnx.TypeProto()
    tp.opaque_type.domain = ""
    tp.opaque_type.name = "n"
    graph = helper.make_graph([], "g", [helper.make_value_info("x", tp)], [])
    _assert_roundtrip("graph", graph)


@pytest.mark.parametrize("name", ["then branch", "model/If_0/then", "", "seq", "nan"])
def test_subgraph_with_quoted_name_prints_valid_text(name: str) -> None:
    _assert_roundtrip("node", _if_node(name))


def _if_node(name: str) -> Any:
    out = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    body = helper.make_graph([helper.make_node("Identity", ["x"], ["y"], domain="")], name, [], [out])
    return helper.make_node("If", ["c"], ["y"], then_branch=body, else_branch=body, domain="")


def test_subgraph_with_plain_name_prints() -> None:
    _assert_roundtrip("node", _if_node("then_g"))


def test_tensor_list_with_raw_tensors_prints() -> None:
    text = (
        '<ir_version: 10, opset_import: ["": 21]>\n'
        "g () => () <float[1] w = {1.0}, float[1] v = {2.0}>\n"
        "{\n   y = Foo <ts = [float[1] a {1.0}, int64[2] b {1, 2}] @{encoding: raw}> ()\n}\n"
    )
    model = onnxtext.parse_model(text)
    assert model.graph.node[0].attribute[0].tensors[0].HasField("raw_data")
    _assert_roundtrip("model", model)


def test_tensor_list_from_numpy_helper_prints() -> None:
    ts = [numpy_helper.from_array(np.array([1.0], np.float32)), numpy_helper.from_array(np.array([2.0], np.float32))]
    node = helper.make_node("Foo", [], ["y"], domain="", ts=ts)
    graph = helper.make_graph([node], "g", [], [], [helper.make_tensor("w", TensorProto.FLOAT, [1], [1.0])])
    _assert_roundtrip("model", helper.make_model(graph))


def test_empty_sparse_tensors_list_prints() -> None:
    model = onnxtext.parse_model(
        '<ir_version: 10, opset_import: ["": 21]> g () => () { y = Foo <esp: sparse_tensors = []> () }'
    )
    _assert_roundtrip("model", model)


# ---------------------------------------------------------------- regressions: lexer backtracking


def _parse_in_subprocess(text: str, timeout: float) -> float:
    """Parse ``text`` in a fresh interpreter; the wall time, or raise on timeout."""
    code = textwrap.dedent(
        """
        import sys, time
        sys.path.insert(0, sys.argv[1])
        import onnxtext
        text = sys.stdin.read()
        onnxtext.parse_model("g () => () {}")
        start = time.perf_counter()
        try:
            onnxtext.parse_model(text)
        except onnxtext.ParseError:
            pass
        print(time.perf_counter() - start)
        """
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(ROOT / "src")],
            input=text,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"parsing a {len(text)}-character text did not finish in {timeout} s")
    return float(done.stdout.strip())


def test_lexer_is_not_exponential_on_unclosed_number_lists() -> None:
    values = ", ".join(str(1000 + i) for i in range(24))
    text = f"g () => (int64[24] Y) <int64[24] W = {{{values},}}> {{ Y = Identity(W) }}"
    _parse_in_subprocess(text, timeout=60)  # a hang guard, not a speed test


def test_lexer_is_not_exponential_on_unclosed_string_with_line_continuations() -> None:
    text = 'g (float X) => (float Y) { Y = Foo <s = "' + "\\\n" * 40 + "x> (X) }"
    _parse_in_subprocess(text, timeout=60)  # a hang guard, not a speed test


def test_long_number_lists_parse() -> None:
    """Long lists, well-formed and with a trailing comma (no single-token match), finish (hang guard)."""
    values = ", ".join(str(100000 + i) for i in range(5000))
    text = f"g () => (int64[5000] Y) <int64[5000] W = {{{values}}}> {{ Y = Identity(W) }}"
    _parse_in_subprocess(text, timeout=60)
    _parse_in_subprocess(text.replace("}>", ",}>"), timeout=60)
