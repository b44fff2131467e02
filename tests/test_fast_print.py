"""The print fast path (``printing.emit``) writes what the reference path (lift → AST → layout) writes, byte for byte.

On every corpus (goldens, examples, the backend suite, exporter models) at several widths,
and on models changed to reach every way a statement can leave the fast path: property
blocks, quoted and long names, the rarer domain or tensor encoding (which makes the pass
run again), graphs, lines too long, fields from a newer IR and bytes that are not UTF-8.
Where the reference path refuses a message, the fast path declines it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from onnxtext import parse_model
from onnxtext.printing import emit
from onnxtext.printing.emit import fast_text
from onnxtext.printing.printable import NotRepresentable
from onnxtext.printing.text import reference_text, to_text
from onnxtext.proto import AttributeProto, FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto

ROOT = Path(__file__).resolve().parents[1]
TEXTS = sorted((ROOT / "tests" / "golden").glob("*.onnxtxt")) + sorted((ROOT / "examples").glob("*.onnxtxt"))


def same(msg: Any, width: int = 100) -> str | None:
    """Assert both paths agree on ``msg``; the text (None when both refuse it)."""
    try:
        expected: str | None = reference_text(msg, width=width)
    except NotRepresentable:
        expected = None
    got = fast_text(msg, width)
    assert got == expected
    if expected is None:
        with pytest.raises(NotRepresentable):
            to_text(msg, width=width)
    else:
        assert to_text(msg, width=width) == expected
    return expected


class _Slow:
    """Counts the statements that went through the reference path."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = emit._Pass._statement

        def counted(pass_: Any, n: NodeProto, where: str, ind: str, checked: bool = False) -> str:
            self.count += 1
            return original(pass_, n, where, ind, checked)

        monkeypatch.setattr(emit._Pass, "_statement", counted)


def chain(n: int = 6, *, functions: bool = True) -> ModelProto:
    lines = ['<ir_version: 9, opset_import: ["" : 18, "local" : 1]>', "chain (float[N, 4] x0) => (float[N, 4] y)", "{"]
    for i in range(n):
        lines.append(f'   [n{i}] x{i + 1} = Relu <alpha = 0.5, axes = [0, 1], mode = "a"> (x{i})')
    lines.append(f"   y = local.twice (x{n})")
    lines.append("}")
    if functions:
        lines += [
            "",
            '<domain: "local", opset_import: ["" : 18]>',
            "twice (a) => (b)",
            "{",
            "   t = Add (a, a)",
            "   b = Identity (t)",
            "}",
        ]
    return parse_model("\n".join(lines) + "\n")


@pytest.mark.parametrize("path", TEXTS, ids=[p.name for p in TEXTS])
@pytest.mark.parametrize("width", [100, 60, 24])
def test_corpus_texts(path: Path, width: int) -> None:
    from test_golden import load

    model = parse_model(load(path)[0], path=str(path))
    same(model, width)
    same(model.graph, width)
    for f in model.functions:
        same(f, width)


def test_plain_statements_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    text = same(chain(40))
    slow = _Slow(monkeypatch)
    assert fast_text(chain(40)) == text
    assert text is not None and '[n39] x40 = Relu <alpha = 0.5, axes = [0, 1], mode = "a"> (x39)' in text
    assert slow.count == 0


def test_node_notes_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each node's own metadata_props (dynamo's stack traces) leave the analysed tails shared."""
    model = chain(40)
    _notes(model.graph.node)
    tails = []
    analyse = emit._Pass._tail
    monkeypatch.setattr(emit._Pass, "_tail", lambda pass_, rest: tails.append(rest) or analyse(pass_, rest))
    for width in (100, 40):
        text = same(model, width)
        slow = _Slow(monkeypatch)
        tails.clear()
        assert fast_text(model, width) == text
        assert text is not None and '"pkg.torch.onnx.stack_trace": "File \\"/src/model.py\\", line 38,' in text
        assert slow.count == 0
        assert len(tails) == 3  # one for the 40 Relu nodes (notes apart), the call's, the function's nodes'


def test_long_statements_are_laid_out(monkeypatch: pytest.MonkeyPatch) -> None:
    text = same(chain(3), width=40)
    slow = _Slow(monkeypatch)
    assert fast_text(chain(3), 40) == text
    assert text is not None and slow.count == 0  # broken over lines here too
    assert max(len(line) for line in text.splitlines()) <= 40
    narrow = same(chain(3), width=16)
    slow.count = 0
    assert fast_text(chain(3), 16) == narrow
    assert narrow is not None and "axes = [\n" in narrow  # an attribute that breaks inside
    assert slow.count == 0  # laid out from the statement's document here too


def _statement_model(rng: random.Random) -> ModelProto:
    m = chain(0, functions=False)
    g = m.graph
    for i in range(30):
        n = g.node.add(op_type=rng.choice(["Relu", "Concat", "X"]))
        if rng.random() < 0.3:
            n.domain = rng.choice(["com.ms", "d"])
        if rng.random() < 0.5:
            n.name = rng.choice(["n", "node_with_a_long_name", "a/b", ""]) + str(i)

        def word() -> str:
            return rng.choice(["x", "value_" * rng.randint(1, 6), "/layer/Op_output_0", "seq"]) + str(
                rng.randint(0, 99)
            )

        n.output.extend(word() for _ in range(rng.choice([0, 1, 1, 2, 4])))
        n.input.extend(word() for _ in range(rng.choice([0, 1, 2, 3, 6])))
        if rng.random() < 0.3:
            n.doc_string = rng.choice(["why", "a longer explanation of this node " * rng.randint(1, 4)])
        for _ in range(rng.choice([0, 0, 0, 1, 3])):
            n.metadata_props.add(
                key=rng.choice(["namespace", "pkg.torch.onnx.stack_trace"]),
                value="File x.py, line 3\n" * rng.randint(0, 5),
            )
        for k in range(rng.choice([0, 0, 1, 2, 4])):
            a = n.attribute.add(name=f"a{k}")
            kind = rng.choice(["i", "ints", "s"])
            if kind == "i":
                a.type, a.i = AttributeProto.INT, rng.randint(-5, 10**6)
            elif kind == "ints":
                a.type = AttributeProto.INTS
                a.ints.extend(range(rng.randint(1, 30)))
            else:
                a.type, a.s = AttributeProto.STRING, b"text " * rng.randint(0, 12)
    return m


@pytest.mark.parametrize("seed", range(12))
def test_random_statements(seed: int) -> None:
    rng = random.Random(seed)
    model = _statement_model(rng)
    for width in (20, 45, 70, 100, 130):
        same(model, width)


@pytest.mark.parametrize("seed", range(3))
def test_statements_break_as_the_layout_breaks_them_at_every_width(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The fast path's line breaks are the layout's (``statement_doc`` laid out by ``layout.render``):
    every width from one where almost everything breaks to one where nothing does."""
    rng = random.Random(seed)
    model = _statement_model(rng)
    _notes(model.graph.node[::3])
    for n in model.graph.node[::4]:  # an attribute that breaks inside its groups: a tensor
        n.attribute.add(name="value", type=AttributeProto.TENSOR).t.CopyFrom(
            TensorProto(dims=[2, 3], data_type=TensorProto.FLOAT, float_data=[0.5 * k for k in range(6)])
        )
    broken = []
    laid = emit._Pass._broken
    monkeypatch.setattr(emit._Pass, "_broken", lambda pass_, *a: broken.append(a) or laid(pass_, *a))
    for width in range(16, 131, 3):
        same(model, width)
    assert len(broken) > 100  # statements broken here, not by the reference path


def test_the_fast_path_breaks_a_statement_as_the_printer_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """A statement's document is defined once (``printer.statement_doc``): changed there (the property
    block on a line of its own when the statement does not fit), both paths follow."""
    from onnxtext.syntax import printer
    from onnxtext.syntax.layout import LINE, Group, Indent

    model = chain(8, functions=False)
    _notes(model.graph.node)
    before = same(model, 60)
    original = printer.statement_doc

    def own_line(
        label: Any, outputs: Any, op: Any, attrs: Any, inputs: Any, props: Any, inputs_first: bool = False
    ) -> Any:
        doc = original(label, outputs, op, attrs, inputs, None, inputs_first)
        return doc if props is None else [*doc, Group(Indent([LINE, props]))]

    monkeypatch.setattr(printer, "statement_doc", own_line)
    slow = _Slow(monkeypatch)
    after = same(model, 60)
    assert after != before and after is not None and "\n      @{\n" in after  # one unit in from the statement
    assert slow.count == 0


def _first(model: ModelProto) -> NodeProto:
    return model.graph.node[0]


MUTATIONS: dict[str, Any] = {
    "doc_string": lambda m: setattr(_first(m), "doc_string", "why"),
    "metadata": lambda m: _first(m).metadata_props.add(key="k", value="v"),
    "domain_set_empty_once": lambda m: setattr(_first(m), "domain", ""),
    "domain_dotted": lambda m: setattr(_first(m), "domain", "com.example"),
    "domain_not_identifier": lambda m: setattr(_first(m), "domain", "my-domain"),
    "overload": lambda m: setattr(_first(m), "overload", "v2"),
    "overload_quoted": lambda m: setattr(_first(m), "overload", "v 2"),
    "overload_empty": lambda m: setattr(_first(m), "overload", ""),
    "op_quoted": lambda m: setattr(_first(m), "op_type", "My-Op"),
    "op_unset": lambda m: _first(m).ClearField("op_type"),
    "label_empty": lambda m: setattr(_first(m), "name", ""),
    "label_unset": lambda m: _first(m).ClearField("name"),
    "label_quoted": lambda m: setattr(_first(m), "name", "layer/0"),
    "name_reserved": lambda m: _rename(m, "x1", "seq"),
    "name_quoted": lambda m: _rename(m, "x1", "onnx::Relu_1"),
    "name_unicode": lambda m: _rename(m, "x1", "é"),
    "name_escape": lambda m: _rename(m, "x1", 'a"b\n'),
    "name_comma_space": lambda m: _rename(m, "x1", "a, b"),  # reads as two bare names when joined
    "name_reserved_case": lambda m: _rename(m, "x1", "Infinity"),
    "name_long": lambda m: _rename(m, "x1", "v" * 200),
    "name_long_quoted": lambda m: _rename(m, "x1", "v/" * 100),
    "input_empty": lambda m: _first(m).input.insert(0, ""),
    "output_empty": lambda m: _first(m).output.append(""),
    "no_outputs": lambda m: _first(m).ClearField("output"),
    "no_inputs": lambda m: _first(m).ClearField("input"),
    "many_outputs": lambda m: _first(m).output.extend(["o1", "o2", "o3"]),
    "attr_type_unset": lambda m: _first(m).attribute[0].ClearField("type"),
    "attr_doc": lambda m: setattr(_first(m).attribute[0], "doc_string", "d"),
    "attr_ref": lambda m: _first(m).attribute.add(name="r", ref_attr_name="outer", type=AttributeProto.INT),
    "attr_nan": lambda m: setattr(_first(m).attribute[0], "f", float("nan")),
    "attr_inf": lambda m: setattr(_first(m).attribute[0], "f", float("-inf")),
    "attr_empty_list": lambda m: _first(m).attribute.add(name="e", type=AttributeProto.INTS),
    "attr_graph": lambda m: _graph_attribute(m),
    "attr_tensor_raw_majority": lambda m: _constants(m, raw=True),
    "attr_tensor_typed": lambda m: _constants(m, raw=False),
    "domain_unset_minority": lambda m: [setattr(n, "domain", "") for n in m.graph.node[1:]],
    "unknown_field_node": lambda m: _unknown(_first(m)),
    "unknown_field_attribute": lambda m: _unknown(_first(m).attribute[1]),
    "unknown_field_function_node": lambda m: _unknown(m.functions[0].node[1]),
    "notes_every_node": lambda m: _notes(m.graph.node),
    "notes_function_nodes": lambda m: _notes(m.functions[0].node),
    "notes_and_doc": lambda m: (_notes(m.graph.node), setattr(_first(m), "doc_string", "why")),
    "notes_key_only": lambda m: (_notes(m.graph.node), _first(m).metadata_props.add(key="k")),
    "notes_value_only": lambda m: (_notes(m.graph.node), _first(m).metadata_props.add(value="v")),
    "notes_empty_strings": lambda m: _first(m).metadata_props.add(key="", value=""),
    "notes_unknown_field_entry": lambda m: (_notes(m.graph.node), _unknown(_first(m).metadata_props[0])),
    "notes_then_unknown_field": lambda m: (_notes(m.graph.node), _unknown(_first(m))),
    "notes_then_device_configuration": lambda m: (
        _notes(m.graph.node),
        _first(m).device_configurations.add(configuration_id="c"),
    ),
    "notes_graph_attribute": lambda m: (
        _graph_attribute(m),
        _notes(m.graph.node),
        _notes(m.graph.node[0].attribute[-1].g.node),
    ),
}


def _notes(nodes: Any) -> None:
    """Node notes as the dynamo exporter writes them: a few entries, each node's own (escapes, long
    lines, non-ASCII)."""
    for i, n in enumerate(nodes):
        n.metadata_props.add(key="namespace", value=f": __main__.Net/layer.{i}: Linear/linear: aten.linear.default")
        n.metadata_props.add(key="pkg.torch.onnx.name_scopes", value=f"['', 'layer.{i}', \"lin\"]")
        trace = f'File "/src/model.py", line {i}, in forward\n    x = self.layer(x)  # é\t\x01\n' * (i % 3)
        n.metadata_props.add(key="pkg.torch.onnx.stack_trace", value=trace)


def _rename(m: ModelProto, old: str, new: str) -> None:
    for n in m.graph.node:
        for seq in (n.input, n.output):
            for i, v in enumerate(seq):
                if v == old:
                    seq[i] = new


def _graph_attribute(m: ModelProto) -> None:
    n = _first(m)
    sub = n.attribute.add(name="body", type=AttributeProto.GRAPH)
    sub.g.name = "b"
    sub.g.node.add(op_type="Relu", input=["x0"], output=["z"])
    sub.g.output.add(name="z")


def _constants(m: ModelProto, *, raw: bool) -> None:
    for i in range(3):
        t = TensorProto(name=f"c{i}", data_type=TensorProto.FLOAT, dims=[2])
        if raw:
            t.raw_data = b"\x00\x00\x80?\x00\x00\x00@"
        else:
            t.float_data.extend([1.0, 2.0])
        node = m.graph.node.add(op_type="Constant", output=[f"c{i}"])
        node.attribute.add(name="value", type=AttributeProto.TENSOR, t=t)


def _unknown(msg: Any) -> None:
    data = msg.SerializeToString() + b"\xf8\x07\x01"  # field 127, varint 1
    msg.Clear()
    msg.MergeFromString(data)


@pytest.mark.parametrize("name", sorted(MUTATIONS))
@pytest.mark.parametrize("width", [100, 40])
def test_mutations(name: str, width: int) -> None:
    _same_after(chain(), MUTATIONS[name], width)


def _same_after(model: ModelProto, mutation: Any, width: int) -> None:
    mutation(model)
    same(model, width)
    same(model.graph, width)


def test_the_pass_runs_again_when_the_guess_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    model = chain(70)
    _constants(model, raw=True)  # three raw attribute tensors past the 64 statements the guess reads: raw wins
    passes = []
    original = emit._Pass.text

    def counted(self: Any) -> str:
        passes.append(self.lifter.raw_tensors)
        return str(original(self))

    monkeypatch.setattr(emit._Pass, "text", counted)
    text = same(model)
    assert text is not None and "tensor_encoding: raw" in text
    assert passes[-2:] == [False, True]


def test_bytes_that_are_not_utf8() -> None:
    model = chain(2)
    # Field 3 (name) of the first node holding 0xff: what a damaged or hostile file can hold.
    node = _first(model)
    data = node.SerializeToString() + b"\x1a\x01\xff"
    try:
        node.Clear()
        node.MergeFromString(data)
    except Exception:  # the protobuf runtime refuses it: nothing to print
        pytest.skip("this protobuf runtime refuses non-UTF-8 strings")
    assert same(model) is None


@pytest.mark.slow
def test_backend_suite() -> None:
    pytest.importorskip("onnx")
    from corpus.backend import all_model_paths

    rng = random.Random(15)
    for path in all_model_paths():
        model = ModelProto.FromString(path.read_bytes())
        same(model, rng.choice([100, 100, 60, 30]))


@pytest.mark.slow
def test_exporter_models() -> None:
    from corpus.exporters import GENERATORS

    for gen in GENERATORS.values():
        if any(_missing(m) for m in gen.requires):
            continue
        model = ModelProto.FromString(gen.ensure().read_bytes())
        for width in (100, 50):
            same(model, width)


@pytest.mark.slow
def test_bench_exporter_models() -> None:
    """The bench's real architectures (``bench/exporter_corpus.py``: transformers, convnets, RNNs through
    torch's dynamo and TorchScript exporters): megabytes of weights and the dynamo exporter's notes on
    every node and value, all written by the fast path."""
    import sys

    bench = Path(__file__).resolve().parents[1] / "bench"
    sys.path.insert(0, str(bench))
    try:
        from exporter_corpus import GENERATORS as BENCH
    finally:
        sys.path.remove(str(bench))
    for name, gen in BENCH.items():
        if not name.startswith("bench_") or any(_missing(m) for m in gen.requires):
            continue
        model = ModelProto.FromString(gen.ensure().read_bytes())
        for width in (100, 60):
            assert same(model, width) is not None, name  # the fast path wrote it, as the reference path does


def _missing(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is None


def test_graphs_and_functions_alone() -> None:
    model = chain(4)
    g = GraphProto()
    g.CopyFrom(model.graph)
    f = FunctionProto()
    f.CopyFrom(model.functions[0])
    assert same(g) is not None and same(f) is not None


def _nested_model(depth: int, *, statements: int = 3) -> ModelProto:
    """An If whose branches hold a Loop whose body holds an If... ``depth`` levels down."""

    def body(level: int, name: str) -> GraphProto:
        g = GraphProto(name=name)
        g.output.add(name=f"{name}_out")
        for k in range(statements):
            g.node.add(op_type="Relu", input=["x0"], output=[f"{name}_v{k}"], name=f"{name}_n{k}", domain="")
        if level:
            n = g.node.add(op_type="If", input=["cond"], output=[f"{name}_out"], domain="")
            n.attribute.add(name="then_branch", type=AttributeProto.GRAPH, g=body(level - 1, f"{name}t"))
            n.attribute.add(name="else_branch", type=AttributeProto.GRAPH, g=body(level - 1, f"{name}e"))
        else:
            g.node.add(op_type="Identity", input=["x0"], output=[f"{name}_out"], domain="")
        return g

    m = chain(1)
    top = m.graph.node.add(op_type="Loop", input=["", "cond"], output=["looped"], domain="")
    top.attribute.add(name="body", type=AttributeProto.GRAPH, g=body(depth, "b"))
    lists = m.graph.node.add(op_type="Multi", domain="local", output=["many"])
    lists.attribute.add(
        name="branches", type=AttributeProto.GRAPHS, graphs=[body(0, "l0"), GraphProto(name="empty"), body(1, "l1")]
    )
    odd = m.graph.node.add(op_type="Odd", domain="local", output=["odd"])
    odd.attribute.add(name="k", type=AttributeProto.INT, i=1, g=body(0, "hidden"))  # a graph in a property block
    return m


@pytest.mark.parametrize("width", [100, 50, 20])
def test_nested_bodies_are_written_here(monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    model = _nested_model(4)
    text = same(model, width)
    assert text is not None and "b" + "t" * 4 + "_n2" in text
    slow = _Slow(monkeypatch)
    fast_text(model, width)
    if width == 100:
        assert slow.count == 0


@pytest.mark.slow
def test_damaged_binaries() -> None:
    """Random bytes changed in backend models (what still parses as a model): both paths print
    the same text, or both refuse."""
    pytest.importorskip("onnx")
    from corpus.backend import all_model_paths

    rng = random.Random(7)
    datas = [p.read_bytes() for p in rng.sample(sorted(all_model_paths()), 120)]
    tried = 0
    for _ in range(1500):
        data = bytearray(rng.choice(datas))
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            model = ModelProto.FromString(bytes(data))
        except Exception:  # not a model any more
            continue
        tried += 1
        same(model)
    assert tried > 300


def _votes_by_definition(m: ModelProto) -> tuple[int, int, int, int]:
    """The file-wide defaults' votes as the header's meaning defines them: every node of every
    graph (``iter_graphs``), every tensor (``iter_tensors``)."""
    from onnxtext.ir.walk import iter_graphs
    from onnxtext.weights.external import iter_tensors

    nodes = [n for site in iter_graphs(m) for n in site.proto.node]
    tensors = [ref.tensor for ref in iter_tensors(m)]
    return (
        sum(not n.HasField("domain") for n in nodes),
        sum(n.HasField("domain") and n.domain == "" for n in nodes),
        sum(t.HasField("raw_data") for t in tensors),
        len(tensors),
    )


def test_votes_count_what_the_header_means() -> None:
    """``lift.model_votes`` (the statements' votes plus the rest, as the fast path adds them up)
    counts every node and tensor of the model once."""
    from onnxtext.printing.lift import model_votes

    models = [_nested_model(3), chain(4)]
    for name in sorted(MUTATIONS):
        m = chain()
        MUTATIONS[name](m)
        models.append(m)
    with_training = chain(2)
    info = with_training.training_info.add()
    info.algorithm.CopyFrom(_nested_model(1).graph)
    default = with_training.functions[0].attribute_proto.add(name="g", type=AttributeProto.GRAPH)
    default.g.CopyFrom(
        _nested_model(1).graph
    )  # a default's graph: its tensors vote, its nodes do not (no walk enters it)
    models.append(with_training)
    for path in TEXTS:
        from test_golden import load

        models.append(parse_model(load(path)[0], path=str(path)))
    for m in models:
        votes = model_votes(m)
        assert (votes.unset, votes.set_empty, votes.raw, votes.tensors) == _votes_by_definition(m)


def test_through_the_cli(tmp_path: Path) -> None:
    """``onnxtext print`` writes the reference text of a model that takes every fast way (nested
    bodies, notes, broken statements) and ``onnxtext parse`` reads it back; a model from a newer
    IR is refused with the field's path, not a traceback."""
    from test_cli import no_traceback, run

    model = _nested_model(2)
    note = model.graph.node[0]
    note.doc_string = "why"
    note.metadata_props.add(key="pkg.torch.onnx.stack_trace", value='File "x.py", line 3\n  y = f(x)')
    binary = tmp_path / "m.onnx"
    binary.write_bytes(model.SerializeToString())
    printed = run("print", str(binary), "--line-width", "50")
    assert printed.returncode == 0, printed.stderr.decode()
    assert printed.stdout.decode() == reference_text(model, width=50)
    text = tmp_path / "m.onnxtxt"
    text.write_bytes(printed.stdout)
    back = run("parse", str(text), "-o", str(tmp_path / "back.onnx"))
    assert back.returncode == 0, back.stderr.decode()
    assert (tmp_path / "back.onnx").read_bytes() == model.SerializeToString(deterministic=True)

    _unknown(model.graph.node[1])
    binary.write_bytes(model.SerializeToString())
    refused = run("print", str(binary))
    assert refused.returncode != 0
    no_traceback(refused.stderr.decode())
    assert "graph/node[1] has fields this onnxtext does not know" in refused.stderr.decode()


@pytest.mark.parametrize("unset", [0, 1, 2, 3])
def test_unnamed_attribute_tensors_follow_the_file_wide_default(unset: int) -> None:
    """Attribute tensors without a name field outvote those named "" (or not): the header's
    ``tensor_name: unset`` says it once; the minority is written out; the round trip is exact."""
    model = chain(2)
    _constants(model, raw=False)
    for i, n in enumerate(model.graph.node[-3:]):
        n.attribute[0].t.name = ""  # set, to nothing: what onnx.parser and onnx.helper write
        if i < unset:
            n.attribute[0].t.ClearField("name")
    text = same(model)
    assert text is not None
    assert ("tensor_name: unset" in text) == (unset >= 2)
    assert text.count("@{name: unset}") == (unset if unset < 2 else 0)
    assert text.count('float[2] "" {') == (3 - unset if unset >= 2 else 0)
    assert parse_model(text).SerializeToString() == model.SerializeToString()
    for width in (60, 24):
        same(model, width)


def _signature_model() -> ModelProto:
    """A main graph whose head has all its parts: inputs, outputs, value infos and small and large initializers."""
    text = """<ir_version: 9, opset_import: ["" : 18]>
g (float[N, 4] x, float[4] w, float[2, 2] m) => (float[N, 4] y, float[N, 4] z)
   <float[N, 4] h, float[4] w = {0.5, -1, 3, 0.25}, float[2, 2] m = {1, 2, 3, 4}, float s = {1.5},
    int64[2] shape = {1, 4}>
{
   h = Add (x, w)
   y = Relu (h)
   z = Neg (h)
}
"""
    m = parse_model(text)
    big = m.graph.initializer.add(name="big", data_type=TensorProto.FLOAT, dims=[300])
    big.float_data.extend(float(i) / 7 for i in range(300))
    return m


def _head_values(m: ModelProto) -> list[Any]:
    return [*m.graph.input, *m.graph.output, *m.graph.value_info]


SIGNATURE_MUTATIONS: dict[str, Any] = {
    "as_is": lambda m: None,
    "many_inputs": lambda m: m.graph.input.extend(
        [type(m.graph.input[1])(name=f"w{i}", type=m.graph.input[1].type) for i in range(40)]
    ),
    "long_names": lambda m: [setattr(v, "name", v.name + "_a_rather_long_value_name") for v in _head_values(m)],
    "quoted_names": lambda m: [setattr(v, "name", "onnx::" + v.name) for v in _head_values(m)],
    "no_inputs": lambda m: m.graph.ClearField("input"),
    "no_outputs": lambda m: m.graph.ClearField("output"),
    "graph_doc": lambda m: setattr(m.graph, "doc_string", "a graph " * 12),
    "graph_notes": lambda m: m.graph.metadata_props.add(
        key="pkg.torch.export.graph_signature", value="x: USER_INPUT\n" * 6
    ),
    "graph_name_unset": lambda m: m.graph.ClearField("name"),
    "graph_name_quoted": lambda m: setattr(m.graph, "name", "main graph"),
    "dim_denotation": lambda m: setattr(m.graph.input[0].type.tensor_type.shape.dim[0], "denotation", "DATA_BATCH"),
    "type_denotation": lambda m: setattr(m.graph.output[0].type, "denotation", "TENSOR"),
    "value_doc": lambda m: setattr(m.graph.input[1], "doc_string", "a weight"),
    "value_notes": lambda m: [v.metadata_props.add(key="kind", value="PARAMETER") for v in _head_values(m)],
    "value_name_unset": lambda m: m.graph.value_info[0].ClearField("name"),
    "value_type_unset": lambda m: m.graph.input[1].ClearField("type"),
    "value_seq_type": lambda m: m.graph.output[1].type.sequence_type.elem_type.tensor_type.SetInParent(),
    "unknown_field_value": lambda m: _unknown(m.graph.input[0]),
    "unknown_field_type": lambda m: _unknown(m.graph.input[0].type.tensor_type),
    "unknown_field_initializer": lambda m: _unknown(m.graph.initializer[0]),
    "initializer_raw": lambda m: _raw(m.graph.initializer[0]),
    "initializers_all_raw": lambda m: [_raw(t) for t in m.graph.initializer if t.data_type == TensorProto.FLOAT],
    "initializer_nan": lambda m: m.graph.initializer[0].float_data.__setitem__(1, float("nan")),
    "initializer_tiny": lambda m: m.graph.initializer[0].float_data.__setitem__(1, 1e-30),
    "initializer_count": lambda m: m.graph.initializer[0].float_data.append(2.0),
    "initializer_name_unset": lambda m: m.graph.initializer[1].ClearField("name"),
    "initializer_doc": lambda m: setattr(m.graph.initializer[1], "doc_string", "why"),
    "initializer_notes": lambda m: m.graph.initializer[1].metadata_props.add(key="k", value="v"),
    "initializer_external": lambda m: _external(m.graph.initializer[2]),
    "initializer_empty": lambda m: m.graph.initializer.add(name="e", data_type=TensorProto.FLOAT, dims=[0]),
    "initializer_raw_short": lambda m: m.graph.initializer.add(
        name="r", data_type=TensorProto.FLOAT, dims=[2], raw_data=b"\0" * 4
    ),
    # the bytes after a value's name key its type's text: names of every size and script
    "value_names_non_ascii": lambda m: [setattr(v, "name", v.name + "_é") for v in _head_values(m)],
    "value_names_past_127_bytes": lambda m: [setattr(v, "name", v.name + "_" * 130) for v in _head_values(m)],
    "value_name_empty": lambda m: setattr(m.graph.value_info[0], "name", ""),
    "value_name_not_utf8": lambda m: _bad_name(m.graph.input[1], 1),
    "value_type_not_utf8": lambda m: _bad_name(m.graph.input[0].type.tensor_type.shape.dim[0], 2),
    "initializer_name_not_utf8": lambda m: _bad_name(m.graph.initializer[0], 8),
    "value_type_doc_after": lambda m: setattr(m.graph.input[0], "doc_string", ""),
    # a value's notes are cut off the bytes its type is known by, and written here
    "value_notes_long": lambda m: [
        v.metadata_props.add(key=f"pkg.torch.onnx.note{k}", value=f"{v.name} " * (3 + 9 * k))
        for v in _head_values(m)
        for k in range(3)
    ],
    "value_notes_escaped": lambda m: m.graph.value_info[0].metadata_props.add(
        key="trace", value='File "a.py"\n\tx\x01'
    ),
    "value_notes_then_unknown": lambda m: [
        m.graph.input[0].metadata_props.add(key="kind", value="USER_INPUT"),
        _unknown(m.graph.input[0]),
    ],
    "value_notes_and_doc": lambda m: [
        m.graph.input[0].metadata_props.add(key="kind", value="USER_INPUT"),
        setattr(m.graph.input[0], "doc_string", "the image"),
    ],
    "value_note_unknown_inside": lambda m: [
        m.graph.output[0].metadata_props.add(key="kind", value="USER_OUTPUT"),
        _unknown(m.graph.output[0].metadata_props[0]),
    ],
    "value_note_not_utf8": lambda m: _bad_name(m.graph.value_info[0].metadata_props.add(key="k"), 2),
    # a plain float initializer is known by its size: what adds bytes takes it off the fast way
    "initializer_name_empty": lambda m: setattr(m.graph.initializer[0], "name", ""),
    "initializer_name_unset_doc_empty": lambda m: [
        m.graph.initializer[0].ClearField("name"),
        setattr(m.graph.initializer[0], "doc_string", ""),
    ],
    "initializer_names_non_ascii": lambda m: [setattr(t, "name", t.name + "_é") for t in m.graph.initializer],
    "initializer_names_long": lambda m: [setattr(t, "name", t.name + "_" * 130) for t in m.graph.initializer],
    "initializer_big_dims": lambda m: _big(m, [130, 3]),
    "initializer_small_big_dim": lambda m: _big(m, [200]) or m.graph.initializer[-1].dims.__setitem__(0, 200),
    "initializer_data_location": lambda m: setattr(m.graph.initializer[0], "data_location", TensorProto.DEFAULT),
    "unknown_field_big_initializer": lambda m: _unknown(m.graph.initializer[-1]),
    # tensors of one shape in a row are known by the bytes before their numbers: what follows still counts
    "initializers_of_one_shape": lambda m: _same_shapes(m),
    "initializers_of_one_shape_names": lambda m: _same_shape_names(m),
    # the values of known types are made together, the others one by one
    "many_values_of_known_types": lambda m: _many_values(m),
    # big float initializers, written here (``emit._BigFloats``) when their head fits the line
    "big_matrix": lambda m: _big(m, [20, 30]),
    "big_matrix_raw": lambda m: _big(m, [4, 5, 30], raw=True),
    "big_one_row": lambda m: _big(m, [1, 400]),
    "big_columns": lambda m: _big(m, [400, 1]),
    "big_negative_dims": lambda m: _big(m, [-20, -30]),
    "big_long_name": lambda m: _big(m, [20, 30], name="a_weight_whose_name_takes_more_than_the_line_" * 2),
    "big_quoted_name": lambda m: _big(m, [20, 30], name="onnx::MatMul_123"),
    "big_tiny_values": lambda m: _big(m, [20, 30], scale=1e-6),
    "big_huge_values": lambda m: _big(m, [600], scale=1e14),
    "big_nan": lambda m: _big(m, [20, 30], special=float("nan")),
    "big_inf": lambda m: _big(m, [20, 30], raw=True, special=float("-inf")),
    "big_raw_short": lambda m: m.graph.initializer.add(
        name="short", data_type=TensorProto.FLOAT, dims=[300], raw_data=b"\0" * 1196
    ),
}


def _same_shapes(m: ModelProto) -> None:
    """float[4] initializers in a row: plain ones, one holding five values, one with a doc string, one
    raw among typed ones, a scalar between them."""
    for k in range(6):
        t = m.graph.initializer.add(name=f"same{k}", data_type=TensorProto.FLOAT, dims=[4])
        t.float_data.extend([0.5 * k, -1.0, 2.0, 1e-7] + ([3.0] if k == 2 else []))
        if k == 3:
            t.doc_string = "odd"
        if k == 4:
            _raw(t)
    m.graph.initializer.add(name="scalar", data_type=TensorProto.FLOAT, float_data=[1.0])
    m.graph.initializer.add(name="same_last", data_type=TensorProto.FLOAT, dims=[4], float_data=[1, 2, 3, 4])


def _bad_name(msg: Any, field: int) -> None:
    """Field ``field`` (a string) of ``msg`` holding 0xff, when the protobuf runtime takes it."""
    data = msg.SerializeToString() + bytes([field << 3 | 2, 1, 0xFF])
    msg.Clear()
    try:
        msg.MergeFromString(data)
    except Exception:  # the protobuf runtime refuses it: nothing to print
        pytest.skip("this protobuf runtime refuses non-UTF-8 strings")


def _big(
    m: ModelProto, dims: list[int], raw: bool = False, name: str = "b", scale: float = 1.0, special: float = 0.0
) -> None:
    """A float initializer of ``dims`` (random normal values times ``scale``; ``special`` as its 7th, when not 0)."""
    import numpy as np

    count = abs(int(np.prod(dims)))
    values = (np.random.default_rng(len(dims) + count).standard_normal(count) * scale).astype(np.float32)
    if special:
        values[7] = special
    t = m.graph.initializer.add(name=name, data_type=TensorProto.FLOAT, dims=dims)
    if raw:
        t.raw_data = values.astype("<f4").tobytes()
    else:
        t.float_data.extend(values.tolist())


def _raw(t: TensorProto) -> None:
    import numpy as np

    data = np.array(list(t.float_data), dtype="<f4").tobytes()
    t.ClearField("float_data")
    t.raw_data = data


def _external(t: TensorProto) -> None:
    t.ClearField("float_data")
    t.data_location = TensorProto.EXTERNAL
    t.external_data.add(key="location", value="w.bin")


@pytest.mark.parametrize("name", sorted(SIGNATURE_MUTATIONS))
@pytest.mark.parametrize("width", [100, 40, 12])
def test_graph_head_mutations(name: str, width: int) -> None:
    _same_after(_signature_model(), SIGNATURE_MUTATIONS[name], width)


def test_graph_heads_are_written_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A graph's values are written from their one-line texts (the layout lays out their lists from the
    texts, in one step): one document per type (not per value); small float initializers are formatted
    together."""
    model = _signature_model()
    SIGNATURE_MUTATIONS["many_inputs"](model)
    rendered: list[Any] = []
    original = emit.render
    monkeypatch.setattr(emit, "render", lambda doc, width=100: rendered.append(doc) or original(doc, width))
    text = same(model, 100)
    rendered.clear()
    assert fast_text(model, 100) == text
    # the header, the three types (float[N, 4], float[4], float[2, 2]) and the int64 initializer: the big
    # float one is written here; before, the 45 values were lifted and laid out as lists
    assert len(rendered) == 5


class _ReferenceHeads:
    """Counts the graph heads the fast path left to the reference path (``Printer.graph_head``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from onnxtext.syntax.printer import Printer

        self.count = 0
        original = Printer.graph_head

        def counted(printer: Any, n: Any) -> Any:
            self.count += 1
            return original(printer, n)

        monkeypatch.setattr(Printer, "graph_head", counted)


def _wide_head() -> ModelProto:
    """A main graph head with every kind of item: many inputs, value infos with notes, small, other and
    big float initializers, a property block before the name."""
    model = _signature_model()
    SIGNATURE_MUTATIONS["many_inputs"](model)
    SIGNATURE_MUTATIONS["graph_doc"](model)
    model.graph.value_info[0].metadata_props.add(key="kind", value="ACTIVATION")
    _big(model, [20, 30])
    return model


def _head_drift(monkeypatch: pytest.MonkeyPatch, rule: str, changed: Any, widths: tuple[int, ...]) -> list[str]:
    """The texts of :func:`_wide_head` at ``widths`` with ``printer.<rule>`` replaced by ``changed``: each
    differs from the text before, both paths agree on it, and the fast path wrote every head."""
    from onnxtext.syntax import printer

    model = _wide_head()
    before = [same(model, width) for width in widths]
    monkeypatch.setattr(printer, rule, changed)
    heads = _ReferenceHeads(monkeypatch)
    texts = []
    for width, old in zip(widths, before, strict=True):
        text = same(model, width)
        assert text is not None and text != old
        heads.count = 0
        assert fast_text(model, width) == text
        assert heads.count == 0  # the head written here, by the changed rule
        texts.append(text)
    return texts


def test_the_fast_path_lays_out_a_signature_as_the_printer_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """A signature's document is defined once (``printer.signature_doc``): changed there (the outputs
    always on a line of their own, one unit in), both paths follow."""
    from onnxtext.syntax.layout import HARDLINE, Indent

    def outputs_below(inputs: Any, outputs: Any) -> list[Any]:
        return [*([" ", inputs] if inputs is not None else []), Indent([HARDLINE, "=> ", outputs])]

    for text in _head_drift(monkeypatch, "signature_doc", outputs_below, (100, 40, 16)):
        assert "\n   => (" in text and ") => (" not in text


def test_the_fast_path_lays_out_a_graph_head_as_the_printer_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """A graph head's document is defined once (``printer.graph_head_doc``): changed there (the
    initializers' list two units in, so its items three units in: the one-liners, those laid out from
    their documents, the big float tensors written straight), both paths follow. Where an item's text
    fits its line is the layout's to say: at width 43, ``float[4] w = {0.5, -1.0, 3.0, 0.25}`` would fit
    two units in, not three."""
    from onnxtext.syntax import printer
    from onnxtext.syntax.layout import HARDLINE, Indent

    original = printer.graph_head_doc

    def initializers_in(props: Any, name: Any, inputs: Any, outputs: Any, initializers: Any) -> list[Any]:
        head = original(props, name, inputs, outputs, None)
        return head if initializers is None else [head, Indent(Indent([HARDLINE, initializers]))]

    wide, narrow, narrowest = _head_drift(monkeypatch, "graph_head_doc", initializers_in, (100, 43, 16))
    assert "\n      <\n         float[N, 4] h @{" in wide and "\n         float[20, 30] b = {\n            " in wide
    assert "\n         float[4] w = {0.5, -1.0, 3.0, 0.25},\n" in wide
    assert "\n         float[4] w = {\n            0.5, -1.0, 3.0, 0.25\n         },\n" in narrow  # from its document
    assert "\n      <\n         float[\n            N,\n            4\n         ] h @{" in narrowest
    plain = _signature_model()  # initializers all float one-liners (written from their texts alone), still patched
    del plain.graph.initializer[-2:]  # int64[2] shape, float[300] big
    heads = _ReferenceHeads(monkeypatch)
    text = same(plain, 43)
    assert text is not None and "\n         float[4] w = {\n            0.5, -1.0, 3.0, 0.25\n         },\n" in text
    heads.count = 0
    assert fast_text(plain, 43) == text and heads.count == 0


@pytest.mark.parametrize("seed", range(4))
def test_string_literals_escape_as_byte_by_byte(seed: int) -> None:
    """``string_text`` (the notes' strings: stack traces with quotes and line breaks, escaped in C)
    writes what the byte-by-byte escape writes, for strings of every kind of character."""
    import random

    from onnxtext.syntax.vocabulary import _format_bytes, string_text

    rng = random.Random(seed)
    pool = ["a", "é", '"', "\\", "\n", "\t", "\r", " ", "\u2028", "\U0001f600", "\x00", "\x7f", "\x1b", "\x0b"]
    for _ in range(3000):
        kinds = pool[: rng.choice([5, 9, 10, len(pool)])]
        text = "".join(rng.choice(kinds) for _ in range(rng.randrange(0, 40)))
        assert string_text(text) == _format_bytes(text.encode("utf-8")), repr(text)


def test_long_float_list_attributes_format_as_value_by_value() -> None:
    """A ``floats`` attribute of many finite values is formatted at once (numpy, orjson): the same
    texts as value by value, at every magnitude, signed zeros and subnormals included."""
    import numpy as np

    from onnxtext.ir.tensor.float_text import format_float32
    from onnxtext.printing.lift import Lifter

    rng = np.random.default_rng(7)
    bits = np.concatenate(
        [
            rng.integers(0, 0x7F800000, 4000, dtype=np.uint32),
            np.arange(0, 50, dtype=np.uint32),  # zero and subnormals
            np.float32([10.0**k for k in range(-45, 39)]).view(np.uint32),
        ]
    )
    values = np.concatenate([bits, bits | 0x80000000]).view(np.float32).tolist()
    lifted = Lifter()._float_values(values)
    assert [n.text for n in lifted] == [format_float32(v) for v in values]  # type: ignore[attr-defined]
    # a list holding inf or nan goes value by value (as its own kinds of items)
    assert [type(n).__name__ for n in Lifter()._float_values([1.0] * 9 + [float("inf")])][-1] == "TypeValue"


def _adds(n: int) -> ModelProto:
    """``n`` statements of one form (``x{i+1} = Add (x{i}, w)``): more than one batch of statements
    written as if their names were bare (``emit._TRUSTED``)."""
    lines = ['<ir_version: 9, opset_import: ["" : 18]>', "adds (float[4] x0, float[4] w) => (float[4] y)", "{"]
    lines += [f"   x{i + 1} = Add (x{i}, w)" for i in range(n)]
    lines += [f"   y = Identity (x{n})", "}"]
    return parse_model("\n".join(lines) + "\n")


def _rename(k: int, field: str, name: str) -> Any:
    """Node ``k``'s first input or output, or its name, called ``name``."""

    def rename(m: ModelProto) -> None:
        node = m.graph.node[k]
        if field == "name":
            node.name = name
        else:
            getattr(node, field)[0] = name

    return rename


# Names a statement of a known form is written with before they are checked, and where: the first
# batch, a later one, the last (partial) one.
KNOWN_FORM_MUTATIONS: dict[str, Any] = {
    "quoted_input_first_batch": _rename(3, "input", "onnx::x3"),
    "quoted_output_second_batch": _rename(600, "output", "a b"),
    "quoted_last_batch": _rename(1180, "input", "/layer/Add_output_0"),
    "reserved_word": _rename(700, "input", "NaN"),
    "name_holding_comma": _rename(10, "output", "a, b"),
    "name_holding_comma_late": _rename(900, "input", "x, w"),
    "digit_first": _rename(1000, "output", "0x"),
    "non_ascii": _rename(520, "input", "xé"),
    "non_ascii_same_length": _rename(521, "input", "é"),
    "long_name": _rename(530, "input", "w" * 130),
    "empty_input": _rename(540, "input", ""),
    "node_name": _rename(550, "name", "n550"),
    "node_name_quoted": _rename(560, "name", "my node"),
    "node_name_set_empty": _rename(570, "name", ""),
    "node_name_not_utf8": lambda m: _bad_name(m.graph.node[580], 3),
    "input_not_utf8": lambda m: _bad_name(m.graph.node[590], 1),
    "every_output_quoted": lambda m: [_rename(k, "output", f"onnx::x{k}")(m) for k in range(0, 1200, 3)],
    "op_type_of_another_form": lambda m: setattr(m.graph.node[610], "op_type", "Sub"),
    "domain_after": lambda m: setattr(m.graph.node[620], "domain", "com.microsoft"),
    "unknown_field_after": lambda m: _unknown(m.graph.node[630]),
}


@pytest.mark.parametrize("name", sorted(KNOWN_FORM_MUTATIONS))
@pytest.mark.parametrize("width", [100, 24])
def test_known_form_mutations(name: str, width: int) -> None:
    _same_after(_adds(1200), KNOWN_FORM_MUTATIONS[name], width)


def test_known_forms_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Statements of a known form skip the tail's analysis and are checked together; one with a
    quoted name in the first batch has its line written again, and no statement leaves the fast path."""
    model = _adds(1200)
    _rename(3, "input", "onnx::x3")(model)
    text = same(model)
    tails: list[bytes] = []
    analyse = emit._Pass._tail
    monkeypatch.setattr(emit._Pass, "_tail", lambda pass_, rest: tails.append(rest) or analyse(pass_, rest))
    slow = _Slow(monkeypatch)
    assert fast_text(model) == text
    assert text is not None and '   x4 = Add ("onnx::x3", w)' in text and "   x1200 = Add (x1199, w)" in text
    assert slow.count == 0
    assert len(tails) == 1  # the tail of every statement (the domain set to nothing)


def _many_values(m: ModelProto) -> None:
    """Inputs of one type among inputs of others, with notes, a doc string, a long name: the values of
    known types are made together, the others one by one."""
    w = m.graph.input[1]
    for k in range(60):
        v = m.graph.input.add(name=f"v{k}", type=(w.type if k % 7 else m.graph.input[2].type))
        if k == 20:
            v.doc_string = "a weight"
        if k in (30, 31):
            v.metadata_props.add(key="kind", value="PARAMETER")
        if k == 40:
            v.name = "v" * 130
        if k == 50:
            v.type.tensor_type.shape.dim[0].denotation = "DATA_BATCH"


def _same_shape_names(m: ModelProto) -> None:
    """float[4] initializers in a row whose bytes up to their numbers are the one before's: names of every
    length and script, set to nothing, followed by another field."""
    for k, name in enumerate(["q0", "q1", "q" * 130, "q3", "", "qé", "q6", "q7", "nan"]):
        t = m.graph.initializer.add(name=name, data_type=TensorProto.FLOAT, dims=[4])
        t.float_data.extend([0.25 * k, -1.0, 2.0, 1e-7])
        if k == 7:
            t.doc_string = "after the name"


def test_bare_names_are_those_name_text_leaves_as_they_are() -> None:
    """``emit._BARE_NAMES`` (a reserved word looked for only after a first letter of one) reads a name
    as bare exactly when ``name_text`` writes it unquoted, alone and in a list."""
    from onnxtext.syntax.vocabulary import RESERVED_NAMES, name_text

    words = sorted(RESERVED_NAMES)
    names = [*words, *(w.upper() for w in words), *(w.title() for w in words), *(w + "x" for w in words)]
    names += [w[:-1] for w in words] + [w[1:] for w in words] + ["x", "_a", "a1", "1a", "x y", "é", "ſeq", "infinit"]
    for name in names:
        bare = name_text(name) == name
        assert bool(emit._BARE_NAMES.match(name)) == bare, name
        assert bool(emit._BARE_NAMES.match(f"x, {name}, y")) == bare, name
        assert bool(emit._BARE_NAMES.match(f"{name}, y")) == bare, name


def test_names_not_bare_stop_the_trust(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a batch of statements written as if their names were bare fails in more than one statement in
    8, each statement's names are checked first: no more than the first batch is written twice, however many
    names are quoted; a few quoted names leave the trust as it is; none is given when the first statement's
    names are not bare."""
    model = _adds(3000)
    for k in range(1, 3000, 3):
        model.graph.node[k].output[0] = f"onnx::x{k}"
    text = same(model)
    again = []
    original = emit._Pass._statements

    def counted(pass_: Any, nodes: Any, *args: Any, trust: bool = True) -> list[str]:
        again.extend([] if trust else nodes)
        return original(pass_, nodes, *args, trust=trust)

    monkeypatch.setattr(emit._Pass, "_statements", counted)
    assert fast_text(model) == text
    assert 0 < len(again) <= emit._FIRST_TRUSTED
    # a name in 600 quoted: the trust stays, and only their statements are written twice
    model = _adds(3000)
    for k in range(5, 3000, 600):
        model.graph.node[k].input[1] = f"onnx::w{k}"
    monkeypatch.setattr(emit._Pass, "_statements", original)
    text = same(model)
    monkeypatch.setattr(emit._Pass, "_statements", counted)
    again.clear()
    assert fast_text(model) == text
    assert len(again) == 5
    # the first statement's names not bare: no statement is written as if they were
    model = _adds(300)
    model.graph.node[0].output[0] = "onnx::x0"
    for k in range(1, 300):
        model.graph.node[k].input[0] = model.graph.node[k].output[0] = f"onnx::x{k}"
    monkeypatch.setattr(emit._Pass, "_statements", original)
    text = same(model)
    monkeypatch.setattr(emit._Pass, "_statements", counted)
    again.clear()
    assert fast_text(model) == text
    assert not again
