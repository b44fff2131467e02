"""The source map: proto paths → AST nodes, for what property blocks hold as well as for graphs and nodes.

Graphs, tensors and entries written as property values (``training_info``,
``sparse_initializer``, ``initializer`` in a graph's ``@{...}``) are under their proto
paths, named as the lowering names ordinary graphs (``graph/node[3]/attribute[0]/g/node[1]``),
so the checker locates what they hold without lowering them again.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from google.protobuf.message import Message

from onnxtext.document import Document, parse_document
from onnxtext.syntax import ast as A

H = '<ir_version: 10, opset_import: ["" : 21],\n'
MAIN = "main (float[3] x) => (float[3] y) <float[3] v = {1, 2, 3}> {\n  y = Add(x, v)\n}\n"
TRAINING = (
    H
    + " training_info: [{\n"
    + "   initialization: init () => (float[3] v) {\n"
    + "     v = Constant <value = float[3] {0, 0, 0}> ()\n"
    + "   },\n"
    + '   initialization_binding: ["v": "v"],\n'
    + "   algorithm: sgd (float[3] grad) => (float[3] v_next) <float[1] lr = {0.5}, float[3] step> {\n"
    + "     step = Mul(grad, lr)\n"
    + "     v_next = Sub(v, step)\n"
    + "   },\n"
    + '   update_binding: ["v": "v_next"]}]>\n'
    + MAIN
)
SPARSE = (
    '<ir_version: 10, opset_import: ["" : 21]>\n'
    + "@{sparse_initializer: [{values: float[2] a {1, 2}, indices: int64[2] {1, 3}, dims: [5]},\n"
    + "                       {values: float[1] b {7}, indices: int64[1] {4}, dims: [5]}],\n"
    + "  initializer: [float[2] extra {3, 4}]}\n"
    + "g (float[5] x) => (float[5] y) <float[1] k = {1}> {\n"
    + "   c = Constant <sparse_value = {values: float[2] s {1, 2}, indices: int64[2] {0, 1}, dims: [2]}> ()\n"
    + "   y = Identity (x)\n"
    + "}\n"
)
_ALGORITHM = "{{algorithm: a{i} () => (float[1] o) {{ o = Constant <value = float[1] {{{i}}}> () }}}}"
# 'unset' clears the three graphs the first key gave; the next two keys append one each.
REPEATED = (
    H
    + f" training_info: [{', '.join(_ALGORITHM.format(i=i) for i in range(3))}],\n"
    + " training_info: unset,\n"
    + f" training_info: [{_ALGORITHM.format(i=3)}],\n"
    + f" training_info: {_ALGORITHM.format(i=4)}>\n"
    + MAIN
)
# (text, proto path, (line, column, first line of the text the span covers))
SPANS = [
    (TRAINING, "training_info[0]", (2, 18, "{")),
    (TRAINING, "training_info[0]/initialization", (3, 20, "init () => (float[3] v) {")),
    (TRAINING, "training_info[0]/initialization/output[0]", (3, 32, "float[3] v")),
    (TRAINING, "training_info[0]/initialization/node[0]/attribute[0]", (4, 20, "value = float[3] {0, 0, 0}")),
    (TRAINING, "training_info[0]/initialization/node[0]/attribute[0]/t", (4, 28, "float[3] {0, 0, 0}")),
    (TRAINING, "training_info[0]/initialization_binding[0]", (6, 29, '"v": "v"')),
    (TRAINING, "training_info[0]/algorithm/input[0]", (7, 20, "float[3] grad")),
    (TRAINING, "training_info[0]/algorithm/output[0]", (7, 39, "float[3] v_next")),
    (TRAINING, "training_info[0]/algorithm/initializer[0]", (7, 57, "float[1] lr = {0.5}")),
    (TRAINING, "training_info[0]/algorithm/value_info[0]", (7, 78, "float[3] step")),
    (TRAINING, "training_info[0]/algorithm/node[1]", (9, 6, "v_next = Sub(v, step)")),
    (TRAINING, "training_info[0]/update_binding[0]", (11, 21, '"v": "v_next"')),
    (TRAINING, "graph/node[0]", (13, 3, "y = Add(x, v)")),
    (SPARSE, "graph/sparse_initializer[0]/values", (2, 33, "float[2] a {1, 2}")),
    (SPARSE, "graph/sparse_initializer[1]", (3, 24, "{values: float[1] b {7}, indices: int64[1] {4}, dims: [5]}")),
    (SPARSE, "graph/sparse_initializer[1]/values", (3, 33, "float[1] b {7}")),
    (SPARSE, "graph/sparse_initializer[1]/indices", (3, 58, "int64[1] {4}")),
    # after the initializer the text declares
    (SPARSE, "graph/initializer[1]", (4, 17, "float[2] extra {3, 4}")),
    (SPARSE, "graph/node[0]/attribute[0]/sparse_tensor/values", (6, 42, "float[2] s {1, 2}")),
]
_SEGMENT = re.compile(r"^([A-Za-z_]+)(?:\[(\d+)\])?$")


@functools.cache
def _doc(text: str) -> Document:
    doc = parse_document(text)
    assert doc.ok, doc.diagnostics
    return doc


def _at(doc: Document, path: str) -> tuple[int, int, str]:
    """(line, column, first line of the text) of the span the source map gives ``path``."""
    span = doc.source_map[path].span
    start = doc.source.position(span.start)
    return start.line, start.column, doc.source.text[span.start : span.end].split("\n")[0]


def _message_at(proto: Message, path: str) -> Any:
    msg: Any = proto
    for segment in path.split("/"):
        m = _SEGMENT.match(segment)
        assert m is not None, path
        msg = getattr(msg, m.group(1))
        if m.group(2) is not None:
            msg = msg[int(m.group(2))]
    return msg


@pytest.mark.parametrize(("text", "path", "expected"), SPANS, ids=[path for _, path, _ in SPANS])
def test_a_property_value_is_under_its_proto_path(text: str, path: str, expected: tuple[int, int, str]) -> None:
    assert _at(_doc(text), path) == expected


def test_every_path_names_a_message_of_the_model() -> None:
    for text in (TRAINING, SPARSE, REPEATED):
        doc = _doc(text)
        paths = [str(p) for p in doc.source_map.entries if p]  # the header is under the model's empty path
        assert not [p for p in paths if p.startswith("props")]
        for path in paths:
            assert isinstance(_message_at(doc.proto, path), Message), path
    assert isinstance(_doc(TRAINING).source_map["training_info[0]/algorithm"], A.Graph)


def test_repeated_header_keys_append_and_unset_restarts_the_indices() -> None:
    doc = _doc(REPEATED)
    assert [info.algorithm.name for info in doc.proto.training_info] == ["a3", "a4"]
    assert _at(doc, "training_info[0]/algorithm/node[0]")[:2] == (4, 54)
    assert _at(doc, "training_info[1]/algorithm")[:2] == (5, 29)
    assert not [p for p in doc.source_map.entries if str(p).startswith("training_info[2]")]


def test_functions_a_header_gives_come_first() -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "d" : 1], functions: [{name: "H", domain: "d"}]>\n'
        + "g (float[2] x) => (float[2] y) { y = d.F (x) }\n"
        + '<domain: "d", opset_import: ["" : 21]>\nF (a) => (b) { b = Neg (a) }\n'
    )
    doc = _doc(text)
    assert [f.name for f in doc.proto.functions] == ["H", "F"]
    assert isinstance(doc.source_map["functions[0]"], A.PropDict)
    assert _at(doc, "functions[1]/node[0]")[2] == "b = Neg (a)"
