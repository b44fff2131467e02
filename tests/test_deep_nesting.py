"""Graphs nested as deep as protobuf reads back go through every stage without reaching a
recursion limit; one level deeper is a located error (L009) at the first statement past the
limit, and so is a nesting far beyond it (3,000 ``If``s), through the API, the CLI and the server."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from onnxtext import cli
from onnxtext.analysis.check import check_proto
from onnxtext.analysis.infer.engine import infer_model
from onnxtext.api import parse_model
from onnxtext.diagnostics import ParseError
from onnxtext.document import parse_document
from onnxtext.evaluate import Evaluator
from onnxtext.host.analyse import Settings, diagnose
from onnxtext.ir.depth import PROTOBUF_DEPTH_LIMIT, too_deep
from onnxtext.printing.text import reference_text, to_text
from onnxtext.proto import ModelProto
from onnxtext.syntax.format import format_text

H = '<ir_version: 10, opset_import: ["" : 21]>\n'
LIMIT = 31
"""The most ``If``s protobuf reads back in :func:`nested_if`: the innermost branch's graph is
1 + 3 × 31 = 94 deep, its output's dims (output → type → tensor_type → shape → dim) 99; one
more ``If`` puts the shape at 101."""


def nested_if(depth: int) -> str:
    body = "z = Identity(a)"
    for k in range(depth):
        body = (
            f"z = If(c) <then_branch = t{k} () => (float[2] z) {{ {body} }}, "
            f"else_branch = e{k} () => (float[2] z) {{ z = Identity(a) }}>"
        )
    return H + "g (bool c, float[2] a) => (float[2] z) {\n  " + body + "\n}\n"


def _first_past_limit(depth: int) -> int:
    """The column of the output declaration of the branch at nesting LIMIT + 1 (its shape is at depth 101)."""
    line = nested_if(depth).splitlines()[2]
    at = line.index(f"t{depth - LIMIT - 1} () => (")
    return at + len(f"t{depth - LIMIT - 1} () => (") + 1


def _chain(depth: int) -> ModelProto:
    """A model whose deepest message (graph → node → attribute → graph ...) is ``depth`` below it."""
    model = ModelProto()
    steps = [model.graph]
    while len(steps) < depth:
        last = steps[-1]
        if isinstance(last, type(model.graph)):
            steps.append(last.node.add())
        elif hasattr(last, "attribute"):
            steps.append(last.attribute.add())
        else:
            last.name, last.type = "g", 5
            steps.append(last.g)
    steps[-1].SetInParent()
    return model


def test_limit_is_protobufs_own() -> None:
    for depth in (PROTOBUF_DEPTH_LIMIT, PROTOBUF_DEPTH_LIMIT + 1):
        model = _chain(depth)
        assert [len(p) for p in too_deep(model)] == ([] if depth == PROTOBUF_DEPTH_LIMIT else [depth])
        if depth == PROTOBUF_DEPTH_LIMIT:
            assert ModelProto.FromString(model.SerializeToString()) == model
        else:
            with pytest.raises(Exception, match="MaxDepth"):
                ModelProto.FromString(model.SerializeToString())
    ok = parse_model(nested_if(LIMIT))
    assert ModelProto.FromString(ok.SerializeToString()) == ok
    assert too_deep(ok) == [] and too_deep(ok, PROTOBUF_DEPTH_LIMIT - 2) != []  # its dims are 99 deep


def test_at_the_limit_every_stage_works() -> None:
    text = nested_if(LIMIT)
    model = parse_model(text)
    doc = parse_document(text)
    assert doc.diagnostics == [] and doc.proto == model
    assert [d.code for d in check_proto(model)] == []
    assert infer_model(model).issues == []
    printed = to_text(model)
    assert printed == reference_text(model) and parse_model(printed) == model
    assert format_text(text) == printed
    (z,) = Evaluator(model).run(None, {"c": np.array(True), "a": np.array([1, 2], np.float32)})
    assert z.tolist() == [1, 2]
    outcome = diagnose(text, "deep.onnxtxt", Settings())
    assert outcome.diagnostics == []
    assert doc.symbols is not None and doc.types is not None


@pytest.mark.parametrize("depth", [LIMIT + 1, 3000])
def test_past_the_limit_is_located(depth: int) -> None:
    text = nested_if(depth)
    with pytest.raises(ParseError) as info:
        parse_model(text)
    (d,) = info.value.diagnostics
    assert (d.code, d.span.start.line, d.span.start.column) == ("L009", 3, _first_past_limit(depth))
    assert "protobuf reads messages at most 100 levels deep" in d.message
    outcome = diagnose(text, "deep.onnxtxt", Settings())
    assert [x.code for x in outcome.diagnostics if x.code.startswith("L")] == ["L009"]


def test_cli_past_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for depth in (LIMIT, LIMIT + 1, 3000):
        src = tmp_path / f"d{depth}.onnxtxt"
        src.write_text(nested_if(depth), encoding="utf-8")
        out = tmp_path / f"d{depth}.onnx"
        status = cli.main(["parse", str(src), "-o", str(out)])
        err = capsys.readouterr().err
        if depth == LIMIT:
            assert status == 0 and ModelProto.FromString(out.read_bytes()) == parse_model(nested_if(depth))
            assert cli.main(["print", str(out)]) == 0 and capsys.readouterr().out == to_text(
                parse_model(nested_if(depth))
            )
        else:
            assert status == 1 and not out.exists()
            assert f"{src}:3:{_first_past_limit(depth)}: error[L009]" in err
        assert cli.main(["check", str(src)]) == (0 if depth == LIMIT else 1)
        assert "Traceback" not in capsys.readouterr().err
    assert sys.getrecursionlimit() == 1000  # no stage raised it for good


def test_format_far_past_the_limit_is_refused() -> None:
    from onnxtext.syntax.format import format_range
    from onnxtext.syntax.nesting import MAX_GRAPH_NESTING

    text = nested_if(MAX_GRAPH_NESTING - 1)  # the main graph and MAX_GRAPH_NESTING - 1 branches: formats
    formatted = format_text(text)  # past what protobuf reads (L009 when lowered), but a formatter needs no protobuf
    assert format_text(formatted) == formatted
    for depth in (MAX_GRAPH_NESTING, 3000):
        text = nested_if(depth)
        with pytest.raises(ParseError) as info:
            format_text(text)
        (d,) = info.value.diagnostics
        assert d.code == "L009" and d.span is not None and d.span.start.line == 3
        assert format_range(text, 50, 60) is None


@pytest.mark.parametrize("kind", ["graph", "node", "node_list"])
def test_other_entry_points_past_the_limit(kind: str) -> None:
    from onnxtext.api import parse_graph, parse_node, parse_nodes

    statement = nested_if(3000).splitlines()[2].strip()
    parse = {"graph": parse_graph, "node": parse_node, "node_list": parse_nodes}[kind]
    text = {
        "graph": "g (bool c, float[2] a) => (float[2] z) {\n  " + statement + "\n}\n",
        "node": statement,
        "node_list": "{\n  " + statement + "\n}\n",
    }[kind]
    doc = parse_document(text, kind)
    assert [d.code for d in doc.diagnostics] == ["L009"]
    with pytest.raises(ParseError):
        parse(text)
