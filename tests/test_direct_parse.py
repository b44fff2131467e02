"""The parse fast path (lowering/direct.py) ≡ the reference path (Lark + lowering), byte for byte.

On every corpus text the fast path either declines (None) or gives exactly the protobuf
the reference path gives, and the reference path reports nothing for that text. Damaged
texts (seeded single-character edits) must never get a protobuf the reference path does
not give. Counts of texts the fast path takes are pinned from below, so these tests
cannot pass by the fast path declining everything.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from onnxtext import parse_model
from onnxtext.document import parse_document
from onnxtext.lowering.direct import direct_model
from onnxtext.proto import ModelProto

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_analysis import document_text  # noqa: E402
from bench_parse_print import node_heavy, tensor_heavy  # noqa: E402
from test_differential_texts import MODELS as DIFFERENTIAL_MODELS  # noqa: E402
from test_golden import split_golden  # noqa: E402


def _reference(text: str) -> bytes | None:
    doc = parse_document(text)
    return doc.proto.SerializeToString() if doc.ok and isinstance(doc.proto, ModelProto) else None


def _same_or_declined(text: str) -> bool:
    """True when the fast path took ``text`` (and agreed); fails the test on any disagreement."""
    fast = direct_model(text)
    if fast is None:
        return False
    doc = parse_document(text)
    assert doc.diagnostics == [], "the fast path took a text the reference path reports on"
    assert fast.SerializeToString() == doc.proto.SerializeToString()
    return True


def _corpus_texts() -> list[tuple[str, str]]:
    texts = []
    for path in sorted((ROOT / "tests" / "golden").glob("*.onnxtxt")) + sorted((ROOT / "examples").glob("*.onnxtxt")):
        source, expected = split_golden(path.read_text(encoding="utf-8"))
        texts.append((path.name, source))
        if expected is not None:
            texts.append((f"{path.name} (output)", expected))
    texts += [(f"differential[{i}]", t) for i, t in enumerate(DIFFERENTIAL_MODELS)]
    texts += [
        ("bench node-heavy", node_heavy(200)),
        ("bench tensor-heavy", tensor_heavy(500)),
        ("bench analysis", document_text(25)),  # functions, typed attributes, @references, an If
    ]
    return texts


CORPUS = _corpus_texts()


def test_corpus_texts() -> None:
    taken = [name for name, text in CORPUS if _same_or_declined(text)]
    assert len(taken) >= 8, taken
    assert {"bench node-heavy", "bench tensor-heavy", "bench analysis"} <= set(taken)


def _lexer_tokens(text: str) -> list[str] | None:
    from onnxtext.syntax.lexer import tokenize

    errors: list[object] = []
    values = [t.value for t in tokenize(text, [], errors)]  # type: ignore[arg-type]
    return None if errors else values


def _unfolded(tokens: list[str]) -> list[str]:
    """The fast scan's tokens with each statement or typed values token split into the lexer's tokens."""
    from onnxtext.lowering.direct_tokens import TOKENS, is_compound, is_statement

    out: list[str] = []
    for tok in tokens:
        if is_compound(tok):
            assert _loose(tok) or "#" not in tok and not (is_statement(tok) and "\n" in tok)
            out += TOKENS.findall(tok)[:-1]
        else:
            out.append(tok)
    return out


@pytest.mark.parametrize("name", [name for name, _ in CORPUS])
def test_tokens_are_the_lexers(name: str) -> None:
    """One findall splits every text as the lexer does (damaged texts too, where it lexes cleanly);
    the fast scan too, once its compound tokens are split, but for a number list holding what is
    not a number, which the fast path refuses."""
    from onnxtext.lowering.direct_tokens import FAST_TOKENS, TOKENS

    text = dict(CORPUS)[name]
    rng = random.Random(name)
    for variant in [text, *_edits(text, rng, 20)]:
        if not variant.isascii():
            continue
        expected = _lexer_tokens(variant)
        if expected is not None:
            for scan in (TOKENS, FAST_TOKENS):
                found = scan.findall(variant)
                tokens = _unfolded(found)
                while tokens and tokens[-1] == "":  # the end (one or two empty matches)
                    tokens.pop()
                if scan is FAST_TOKENS and any(_loose(tok) for tok in found):
                    assert direct_model(variant) is None  # a number list holding more: refused
                else:
                    assert tokens == expected


def _loose(tok: str) -> bool:
    """A number list of the fast scan (alone or in an initializers token) that is not the lexer's
    (a comment, a word... inside)."""
    from onnxtext.lowering.direct_tokens import initializer_values, number_body_ok

    if tok[:1] == "<" and len(tok) > 1:  # an initializers token
        return not all(number_body_ok(body) for *_, body in initializer_values(tok))
    return tok[:1] == "{" and len(tok) > 1 and not number_body_ok(tok[1:-1])


def test_public_parse_model_takes_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    text = node_heavy(20)
    calls: list[str] = []
    import onnxtext.api as api

    real = api.parse_document
    monkeypatch.setattr(api, "parse_document", lambda *a, **k: calls.append("reference") or real(*a, **k))
    model = parse_model(text)
    assert calls == [] and len(model.graph.node) == 21
    with pytest.raises(Exception, match="expected"):  # a damaged text: the reference path's located errors
        parse_model(text.replace("Relu <", "Relu <<"))
    assert calls == ["reference"]


def _edits(text: str, rng: random.Random, count: int) -> list[str]:
    pieces = [
        '"',
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
        "@",
        "-",
        "1",
        "1.5",
        "x",
        "#",
        " ",
        "\\",
        "é",
    ]
    out = []
    for _ in range(count):
        at = rng.randrange(len(text))
        kind = rng.random()
        if kind < 0.4:
            out.append(text[:at] + text[at + 1 :])
        elif kind < 0.8:
            out.append(text[:at] + rng.choice(pieces) + text[at:])
        else:
            out.append(text[:at] + rng.choice(pieces) + text[at + 1 :])
    return out


@pytest.mark.parametrize("name", [name for name, _ in CORPUS if not name.startswith("bench")][:40])
def test_damaged_texts_agree(name: str) -> None:
    text = dict(CORPUS)[name]
    rng = random.Random(name)
    for damaged in _edits(text, rng, 25):
        fast = direct_model(damaged)
        if fast is not None:
            assert fast.SerializeToString() == _reference(damaged), repr(damaged)


def _damaged_agree(text: str, seed: int, count: int) -> int:
    """``count`` seeded edits of ``text``: the fast path never disagrees; how many it took."""
    assert direct_model(text) is not None
    taken = 0
    for damaged in _edits(text, random.Random(seed), count):
        fast = direct_model(damaged)
        if fast is not None:
            taken += 1
            assert fast.SerializeToString() == _reference(damaged), repr(damaged)
    return taken


def test_damaged_bench_text_agrees() -> None:
    text = node_heavy(6).replace("\n{\n", "\n   <float[2] w = {1.5, -2}, int64[2] s = {3, 4}>\n{\n", 1)
    assert _damaged_agree(text, 15, 400) > 20  # many edits (inside names, numbers, comments) leave a valid text


@pytest.mark.slow
def test_printed_backend_suite() -> None:
    onnx = pytest.importorskip("onnx")
    from corpus.backend import all_model_paths

    from onnxtext.printing.text import NotRepresentable, to_text

    taken = total = 0
    for path in all_model_paths():
        model = ModelProto.FromString(path.read_bytes())
        texts = [onnx.printer.to_text(onnx.load(str(path), load_external_data=False))]
        try:
            texts.append(to_text(model))
        except NotRepresentable:
            pass
        for text in texts:
            total += 1
            taken += _same_or_declined(text)
    assert taken > 4000, (taken, total)  # 697 of 4048 when written; 4027 with compound tokens, nested types, `: graph`


@pytest.mark.slow
def test_printed_exporter_models() -> None:
    from corpus.exporters import GENERATORS

    from onnxtext.printing.text import to_text

    checked = 0
    declined = set()
    for gen in GENERATORS.values():
        if any(_missing(m) for m in gen.requires):
            continue
        model = ModelProto.FromString(gen.ensure().read_bytes())
        if not _same_or_declined(to_text(model)):
            declined.add(gen.name)
        checked += 1
    if not checked:
        pytest.skip("no exporter installed")
    if checked == len(GENERATORS):  # every exporter installed: all taken (14 of 18 when written)
        # but those the fast path leaves to the reference path: onnxruntime.quantization's
        # metadata_props in the model header, the float16 initializers of float16_mlp
        assert declined == {n for n in GENERATORS if n.startswith(("ort_quant_", "float16_"))}, declined


def _missing(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is None


def test_cli_parse_takes_the_fast_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import onnxtext.api as api
    from onnxtext.cli import main

    source = tmp_path / "m.onnxtxt"
    source.write_text(node_heavy(10), encoding="utf-8")
    calls: list[str] = []
    real = api.parse_document
    monkeypatch.setattr(api, "parse_document", lambda *a, **k: calls.append("reference") or real(*a, **k))
    assert main(["parse", str(source), "-o", str(tmp_path / "m.onnx")]) == 0
    assert calls == []
    assert (tmp_path / "m.onnx").read_bytes() == _reference(node_heavy(10))
    source.write_text(node_heavy(10).replace("x3 =", "x3 = ="), encoding="utf-8")  # damaged: reported as before
    assert main(["parse", str(source), "-o", str(tmp_path / "m2.onnx")]) == 1
    assert calls == ["reference"] and not (tmp_path / "m2.onnx").exists()


def test_deep_nesting_is_left_to_the_reference_path() -> None:
    text = '<ir_version: 8, opset_import: ["" : 18]>\nm (float c) => (float y) {\n   y = Relu (c)\n}\n'
    assert direct_model(text) is not None
    deep = "leaf () => (float z) { z = Relu (c) }"
    for d in range(3000):
        deep = f"g{d} () => (float y) {{ y = If (c) <then_branch = {deep}> }}"
    nested = text.replace("y = Relu (c)", f"y = If (c) <then_branch = {deep}>")
    assert direct_model(nested) is None  # RecursionError inside: declined, not raised


_NOTES = """<ir_version: 9, opset_import: ["" : 18]>
@{doc_string: "the graph", metadata_props: ["k": "v"]} g (float[2] x @{metadata_props: ["kind": "USER_INPUT"]})
   => (float[2] y)
   <float[2] w @{doc_string: "a weight"} = {1.0, 2.0}, float[2] v @{doc_string: "a value"},
    float[2] r @{encoding: raw} = {3.0, 4.0}, float[2, 2] e = ["location": "w.bin", "offset": "0", "length": "16"]>
{
   y = Add (x, w) @{doc_string: "adds", metadata_props: ["trace": "File \\"a.py\\", line 3\\n  y = x + w", "b": ""]}
}
"""


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t,
        lambda t: t.replace('"adds"', '"\\u00e9t\\xc3\\xa9"'),  # escapes that make UTF-8
        lambda t: t.replace('"adds"', '"\\xff"'),  # not UTF-8: an error
        lambda t: t.replace('"adds"', '"\\q"'),  # an unknown escape: an error
        lambda t: t.replace('doc_string: "adds"', 'doc_string: "a", doc_string: "b"'),
        lambda t: t.replace('doc_string: "adds"', 'domain: "x"'),
        lambda t: t.replace('metadata_props: ["k": "v"]', 'metadata_props: ["k": "v",]'),
        lambda t: t.replace('metadata_props: ["k": "v"]', "metadata_props: []"),
        lambda t: t.replace('metadata_props: ["k": "v"]', 'metadata_props: [k: "v"]'),
        lambda t: t.replace('metadata_props: ["k": "v"]', 'metadata_props: ["k": "v"], name: unset'),
        lambda t: t.replace('@{doc_string: "the graph", ', "@{training: {x: 1}, "),
        lambda t: t.replace('@{doc_string: "a value"}', "@{type: unset}"),
        lambda t: t.replace(") @{", ") <alpha = 1.0> @{"),
        lambda t: t.replace(") @{doc", ") @{} @{doc"),
        lambda t: t.replace("encoding: raw", "encoding: typed"),
        lambda t: t.replace("encoding: raw", "encoding: packed"),
        lambda t: t.replace('@{doc_string: "a value"}', "@{encoding: raw}"),
        lambda t: t.replace('"location": "w.bin"', '"location": "../w.bin"'),
        lambda t: t.replace('"location": "w.bin"', '"digest": "sha256:00"'),
        lambda t: t.replace('"location": "w.bin", ', ""),
        lambda t: t.replace('["location": "w.bin", "offset": "0", "length": "16"]', "[]"),
        lambda t: t.replace('"location": "w.bin"', 'location: "w.bin"'),
        lambda t: t.replace("float[2, 2] e", "float[N, 2] e"),
        lambda t: t.replace("float[2, 2] e", "bfloat16[2, 2] e"),
    ],
)
def test_notes_in_property_blocks(change: object) -> None:
    text = change(_NOTES)  # type: ignore[operator]
    taken = _same_or_declined(text)
    if text == _NOTES:
        assert taken  # the fast path reads the notes exporters write
        model = direct_model(text)
        assert model is not None and model.graph.node[0].metadata_props[0].value == 'File "a.py", line 3\n  y = x + w'


def test_damaged_notes_agree() -> None:
    """Seeded edits of a text full of notes, escapes, an own encoding and external data."""
    assert _damaged_agree(_NOTES, 5, 400) > 20


_ESCAPE_PIECES = ["a", " ", "\\n", "\\t", "\\r", '\\"', "\\\\", "\\'", "\\a", "\\b", "\\f", "\\v", "\\\n",
                  "\\x41", "\\x7f", "\\x80", "\\xc3\\xa9", "\\xff", "\\x4", "\\0", "\\07", "\\u00e9",
                  "\\ud800", "\\U0001F600", "\\U00110000",
                  "\\q", "\\\r", "\\N{DASH}", "\\x0g"]  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_string_escapes_agree(seed: int) -> None:
    """Strings of every escape the lexer knows or rejects, read by the fast path as by the lexer (or declined)."""
    rng = random.Random(seed)
    taken = 0
    for _ in range(60):
        body = "".join(rng.choice(_ESCAPE_PIECES) for _ in range(rng.randint(1, 5)))
        taken += _same_or_declined(_NOTES.replace('"adds"', f'"{body}"'))
    assert taken > 10


def test_common_escapes_are_read_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stack trace's escapes (quotes, line breaks, a tab, a control character) skip the escape-by-escape loop."""
    from onnxtext.lowering import direct

    def slow(tok: str) -> None:
        raise AssertionError(f"unescaped one escape at a time: {tok}")

    monkeypatch.setattr(direct, "unescape_string", slow)
    trace = 'File \\"m.py\\", line 3, in forward\\n\\tx = f(x)  # it\'s \\x01\\\\n\\n'
    model = direct_model(_NOTES.replace('"adds"', f'"{trace}"'))
    assert model is not None
    assert model.graph.node[0].doc_string == 'File "m.py", line 3, in forward\n\tx = f(x)  # it\'s \x01\\n\n'


@pytest.mark.parametrize(
    "tensors",
    [
        "bool[3] m = {0, 1, 1}",
        "bool[2, 2] m = {1, 0, 0, 1}",
        "bool[3] m = {0, 1, 2}",  # out of range: the reference path reports it
        "bool[3] m = {0, 1}",  # a count mismatch
        "bool[2] m = {1.0, 0}",
        "bool[0] m = {}",
    ],
)
def test_bool_tensors(tensors: str) -> None:
    text = f"""<ir_version: 9, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y)
   <{tensors}>
{{
   c = Constant <value = bool[2] {{1, 0}}> ()
   y = Where (c, x, x)
}}
"""
    taken = _same_or_declined(text)
    assert taken == tensors.startswith(("bool[3] m = {0, 1, 1}", "bool[2, 2]"))  # an empty body is the reference path's


# ---------------------------------------------------------------- compound tokens of the fast scan
# Statements, typed signatures and initializer lists taken whole by direct_tokens.FAST_TOKENS:
# random ones (every part each way it may be written, and ways it may not) against the reference path.

_NAMES = ["x", "w", "y_1", '"a/b.c"', '""', '"has space"', '"a,b"', "float", "seq", '"q\\""', "_t"]
_ATTRS = [
    "alpha = 0.5",
    "axes = [0, 1]",
    'mode = "constant"',
    'modes = ["a", "b c"]',
    "to = 1",
    "value = float[2] {1.5, -2}",
    "value = int64 {3}",
    "value = float[2] c = {1, 2}",
    "beta: float = 2",
    "ks: ints = []",
    "ratio = 1e-05",
    "big = 99999999999999999999",
    "f = nan",
    's = "\\x41"',
    "g = @ref",
    "",
]
_SPACES = [" ", "", "\t", "  "]


def _random_statement(rng: random.Random) -> str:
    sp = rng.choice(_SPACES) if rng.random() < 0.3 else " "
    parts = []
    if rng.random() < 0.5:
        label = rng.choice(["n1", "", '"lbl"', "n 2"])
        parts.append(f"[{label}]{sp}")
    parts.append(f",{sp}".join(rng.choice(_NAMES) for _ in range(rng.choice([1, 1, 2, 3]))))
    parts.append(f"{sp}={sp}")
    parts.append(rng.choice(["Relu", "Add", "com.ms.Gelu", "a.b.C", "Identity", "Identity:ov", "Concat"]))
    attrs = ", ".join(rng.choice(_ATTRS) for _ in range(rng.choice([0, 0, 1, 2])))
    where = rng.random()
    if attrs or rng.random() < 0.05:
        if where < 0.5:
            parts.append(f"{sp}<{attrs}>")
    parts.append(f"{sp}({', '.join(rng.choice(_NAMES) for _ in range(rng.choice([0, 1, 2, 3])))})")
    if (attrs or rng.random() < 0.05) and where >= 0.5:
        parts.append(f"{sp}<{attrs}>")
    if rng.random() < 0.2:
        parts.append(rng.choice([' @{doc_string: "d"}', " # note", "\r", "  ", ' @{metadata_props: ["k": "v"]}']))
    return "".join(parts)


def _statements_text(rng: random.Random, count: int) -> str:
    header = rng.choice(
        ['<ir_version: 9, opset_import: ["" : 18]>', '<ir_version: 9, opset_import: ["" : 18], node_domain: unset>']
    )
    body = "\n".join("   " + _random_statement(rng) for _ in range(count))
    return f"{header}\ng (float[2] x, float[2] w) => (float[2] y)\n{{\n{body}\n   y = Identity (x)\n}}\n"


@pytest.mark.parametrize("seed", range(6))
def test_random_statements_agree(seed: int) -> None:
    """One-line statements of every shape, one at a time and in runs, fast scan or not: never a disagreement."""
    from onnxtext.lowering.direct_tokens import FAST_TOKENS, is_statement

    rng = random.Random(seed)
    taken = statements = 0
    for _ in range(40):
        text = _statements_text(rng, rng.choice([1, 3, 6]))
        statements += sum(map(is_statement, FAST_TOKENS.findall(text)))
        taken += _same_or_declined(text)
    assert taken > 5 and statements > 60, (taken, statements)


def _pick(rng: random.Random, good: list[str], bad: list[str]) -> str:
    """Mostly one of ``good`` (so that whole texts are often valid), now and then one of ``bad``."""
    return rng.choice(bad if rng.random() < 0.04 else good)


_NESTED_TYPES = [
    "seq(float)",
    "seq(map(int64, float[]))",
    "map(string, float[2])",
    "optional(int8[N])",
    "seq(seq(float[2, ?]))",
    "optional(seq(bool))",
    "map(foo, float)",
    "map(int64)",
    "seq(float, int8)",
    "seq(sparse_tensor(float[2]))",
    "seq(opaque)",
]


def _random_signature_item(rng: random.Random) -> str:
    elem = _pick(rng, ["float", "int64", "bool", "float16", "string"], ["foo", "sparse_tensor(float[2])", "seq()"])
    if rng.random() < 0.1:  # a nested type (no dims after it)
        name = _pick(rng, ["x", "_t", '"a/b"'], ["1x"])
        return f"{rng.choice(_NESTED_TYPES)} {name}"
    dims = _pick(rng, ["", "[]", "[2]", "[N, 4]", "[?, 3]", "[ 2 ,3 ]"], ["[-1]", "[1,\n2]", "[N"])
    sep = _pick(rng, [" ", " ", "\t", "  ", "\n   "], ["", " # c\n"])
    name = _pick(rng, ["x", "w", "y_1", '"a/b.c"', '""', "float", "seq", "_t", '"has space"'], ['"q\\""', "1x"])
    item = f"{elem}{dims}{sep}{name}"
    if rng.random() < 0.05:
        item += ' @{doc_string: "v"}'
    return item


@pytest.mark.parametrize("seed", range(4))
def test_random_signatures_agree(seed: int) -> None:
    """Typed inputs and outputs of graphs, subgraphs and functions, taken as one token or not."""
    rng = random.Random(seed)
    taken = 0
    for _ in range(40):

        def items() -> str:
            sep = _pick(rng, [", ", ",\n      ", " , "], [",, ", ", # c\n"])
            return sep.join(_random_signature_item(rng) for _ in range(rng.randint(1, 4)))

        ins, outs = items(), items()
        text = (
            '<ir_version: 9, opset_import: ["" : 18, "local" : 1]>\n'
            f"g ({ins}) => ({outs})\n{{\n   y = Relu (x)\n"
            f"   z = If (c) <then_branch = t ({items()}) => (float q) {{ q = Relu (x) }},\n"
            "      else_branch = e () => (float q) { q = Relu (x) }>\n}\n"
            f'<domain: "local", opset_import: ["" : 18]>\nf ({items()}) => ({items()})\n{{\n   y = Relu (x)\n}}\n'
        )
        taken += _same_or_declined(text)
    assert taken > 3, taken


def _random_initializer(rng: random.Random) -> str:
    elem = _pick(rng, ["float", "float", "int64", "double", "bool", "int8"], ["float16", "string", "bfloat16"])
    numbers = _pick(
        rng,
        ["1.5, -2", "0, 1", "3, 4, 5", "1, 2", "2", "0.1, 2.5e-3"],
        ["-0, 1", "nan, 1", "0x7f, 1", "1e39, 1", "7.0, 1e-45"],
    )
    count = numbers.count(",") + 1
    dims = _pick(rng, [f"[{count}]", f"[1, {count}]"] + ([""] if count == 1 else []), ["[2]", "[N]", ""])
    name = _pick(rng, ["w", "_t", "seq", '"a/b"'], _NAMES)
    item = f"{elem}{dims} {name} = {{{numbers}}}"
    kind = rng.random()
    if kind < 0.1:
        item = f"{elem}{dims} {rng.choice(_NAMES)}"  # a value info
    elif kind < 0.15:
        item = item.replace(" = ", ' @{doc_string: "i"} = ')
    elif kind < 0.2:
        item = f'{elem}[2] ext = ["location": "w.bin", "offset": "0", "length": "8"]'
    return item


@pytest.mark.parametrize("seed", range(4))
def test_random_initializer_lists_agree(seed: int) -> None:
    """Initializer lists of every kind of item, read in one token up to the first other item, or not."""
    rng = random.Random(seed)
    taken = 0
    for _ in range(50):
        sep = _pick(rng, [", ", ",\n   ", " ,"], [",,", ", # c\n"])
        inits = sep.join(_random_initializer(rng) for _ in range(rng.randint(1, 5)))
        text = (
            '<ir_version: 9, opset_import: ["" : 18]>\n'
            f"g (float[2] x) => (float[2] y)\n   <{inits}>\n{{\n   y = Identity (x)\n}}\n"
        )
        taken += _same_or_declined(text)
    assert taken > 5, taken


def test_bench_texts_take_compound_tokens() -> None:
    """The bench texts go through the compound tokens (so the tests above test them)."""
    from bench_parse_print import many_inputs

    from onnxtext.lowering.direct_tokens import FAST_TOKENS, is_compound

    for text, least in ((node_heavy(50), 50), (many_inputs(40), 40 + 2), (tensor_heavy(100), 2)):
        tokens = FAST_TOKENS.findall(text)
        assert sum(map(is_compound, tokens)) >= least
        assert _same_or_declined(text)


def test_damaged_compound_texts_agree() -> None:
    """Seeded edits of a text of runs of statements, typed signatures and initializer lists."""
    from bench_parse_print import many_inputs

    text = many_inputs(6).replace(
        "x1 = Add", '[n1] x1 = com.ms.Add <alpha = 0.5, to = "s"> (x0, "") @{doc_string: "d"}\n   x1b = Add'
    )
    assert _damaged_agree(text, 24, 500) > 30


def test_long_lists_scan_in_linear_time() -> None:
    """A word of a long list is not the start of a statement, typed values or initializers token
    scanned to the list's end: 20,000 items scan in milliseconds (quadratically: over a minute)."""
    import time

    from onnxtext.lowering.direct_tokens import FAST_TOKENS

    n = 20000
    infos = ", ".join(f"float[1, 8] v{i}" for i in range(n))  # value infos in <...>: no '(' token
    names = ", ".join(f"v{i}" for i in range(n))  # a node's inputs read token by token (notes on the next line)
    text = f"g (float x) => (float y)\n   <{infos}>\n{{\n   y = Concat <axis = 0> ({names})\n   @{{}}\n}}\n"
    start = time.process_time()  # CPU time: the machine's load does not count
    tokens = FAST_TOKENS.findall(text)
    assert time.process_time() - start < 2.0
    assert len(tokens) > 7 * n  # each item token by token


@pytest.mark.parametrize(
    "body",
    [
        "1.5, -2",
        "1.5, # a comment\n -2",
        '1.5, "}"',
        "1.5, x",
        "nan, 1",
        "0x7fc00000, 1",
        "1, 2 # } in a comment\n",
        "inf, -infinity",
        "-0, 1",
        "1e39, 1",
    ],
)
@pytest.mark.parametrize("where", ["initializer", "second initializer", "noted initializer", "attribute"])
def test_number_lists_holding_more_agree(body: str, where: str) -> None:
    """The fast scan reads a number list to its '}' whatever it holds; what is not the lexer's number
    list is read by the reference path (a comment in a tensor is fine there)."""
    tensor = f"float[2] w = {{{body}}}"
    inits, attrs = {
        "initializer": (tensor, ""),
        "second initializer": (f"float[1] v = {{3}}, {tensor}", ""),
        "noted initializer": (tensor.replace(" = ", ' @{doc_string: "n"} = '), ""),
        "attribute": ("float[1] v = {3}", f" <value = {tensor}>"),
    }[where]
    text = (
        '<ir_version: 9, opset_import: ["" : 18]>\n'
        f"g (float[2] x) => (float[2] y)\n   <{inits}>\n{{\n   c = Constant{attrs} ()\n   y = Identity (x)\n}}\n"
    )
    taken = _same_or_declined(text)
    if body in ("1.5, -2", "nan, 1") and where != "attribute":
        assert taken


@pytest.mark.parametrize("nested", _NESTED_TYPES)
def test_nested_types_agree(nested: str) -> None:
    """Sequence, map and optional types (sklearn's outputs) in graph and function signatures."""
    text = (
        '<ir_version: 9, opset_import: ["" : 18, "ai.onnx.ml" : 1, "local" : 1]>\n'
        f"g (float[2] x, {nested} s) => ({nested} y, float[2] z)\n{{\n   y = Identity (s)\n   z = Identity (x)\n}}\n"
        f'<domain: "local", opset_import: ["" : 18]>\nf ({nested} a) => (b)\n{{\n   b = Identity (a)\n}}\n'
    )
    taken = _same_or_declined(text)
    assert taken == (
        nested.count("(") == nested.count(")")
        and "foo" not in nested
        and "opaque" not in nested
        and "sparse" not in nested
        and nested not in ("map(int64)", "seq(float, int8)")
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace('"the graph"', '"le graphe générique"'),
        lambda t: t.replace('"adds"', '"ajoute ü 漢字 🙂"'),
        lambda t: t.replace('"adds"', '"é\\n\\t\\"q\\" \\x41 \\u00e9"'),
        lambda t: t.replace('["k": "v"]', '["clé": "valeur ü"]'),
        lambda t: t.replace("y = Add (x, w)", 'y = Add <mode = "généré", tags = ["ä", "b"]> (x, w)'),
        lambda t: t.replace("y = Add (x, w)", '"yé" = Add (x, w)\n   y = Identity ("yé")'),
        lambda t: t.replace("y = Add (x, w)", "yé = Add (x, w)\n   y = Identity (yé)"),  # a lexical error
        lambda t: t.replace("y = Add (x, w)", "y = Add (x, w)  # un commentaire: ü"),
        lambda t: t.replace("{1.0, 2.0}", "{1.0, ٢}"),  # a digit of another script
        lambda t: t.replace('"adds"', '"\\ud800 lone"'),
        lambda t: t.replace('"adds"', '"\ud800"'),  # a lone surrogate in the text itself
    ],
)
def test_texts_beyond_ascii_agree(change: object) -> None:
    """Text that is not ASCII in strings and comments: the fast path reads it (as UTF-8, as the lexer);
    anywhere else it declines."""
    text = change(_NOTES)  # type: ignore[operator]
    taken = _same_or_declined(text)
    if "é" in text and "yé =" not in text and "\\u" not in text or "ü" in text:
        assert taken, text


@pytest.mark.parametrize(
    "statement",
    [
        '"", y = Split (x)',  # a statement token from the second output on
        '"a", "", y = Split (x)',
        '[s] "", y = Split (x)',
        '"", y = Split (x) @{doc_string: "d"}',
        "c = If (b) <then_branch = g1 ()\n         => (float t) {\n         t = Identity (x)\n      }, "
        "else_branch = g2 () => (float t) { t = Identity (x) }>",  # a subgraph's signature on the next line
        "c = If (b) <then_branch = g1 ()\n\n         => (float t) { t = Identity (x) }, "
        "else_branch = g2 () => (float t) { t = Identity (x) }>",
    ],
)
def test_statements_the_printer_writes_agree(statement: str) -> None:
    """Statements of printed backend models that the statement tokens first missed: a quoted first
    output, a subgraph attribute whose signature the printer breaks after its inputs."""
    text = (
        '<ir_version: 9, opset_import: ["" : 18]>\n'
        f"g (float[2] x, bool b) => (float[2] y)\n{{\n   {statement}\n   y2 = Identity (x)\n}}\n"
    )
    assert _same_or_declined(text)


@pytest.mark.parametrize(
    "attribute",
    [
        "then_branch: graph = g1 () => (float t) { t = Identity (x) }",  # as onnx's printer writes them
        "then_branch: tensor = float[2] {1, 2}",
        "then_branch: graph = float[2] {1, 2}",
        "then_branch: tensor = g1 () => (float t) { t = Identity (x) }",
        "then_branch: graph = 1",
        "then_branch: tensor = [1, 2]",
        "then_branch: graph = @g",
        "then_branch: sparse_tensor = float[2] {1, 2}",
    ],
)
def test_value_annotations_agree(attribute: str) -> None:
    """``graph`` and ``tensor`` annotations: read when the value is of that kind, else the reference path's."""
    text = (
        '<ir_version: 9, opset_import: ["" : 18]>\n'
        f"g (float[2] x, bool b) => (float[2] y)\n{{\n   c = If (b) <{attribute}, "
        "else_branch = g2 () => (float t) { t = Identity (x) }>\n   y = Identity (x)\n}\n"
    )
    taken = _same_or_declined(text)
    assert taken == attribute.startswith(
        ("then_branch: graph = g1", "then_branch: tensor = float", "then_branch: graph = @")
    )


@pytest.mark.parametrize(
    "lines",
    [
        "[n2] #3 = Abs (x)\n   [n3] y = Relu (x)",  # a comment after a label: the next statement is not its rest
        "[n2] # c\n   y = Relu (x)",
        "[n2]\n   y = Relu (x)",
        '"" # c\n   , y = Relu (x)',
    ],
)
def test_a_label_then_another_line_agrees(lines: str) -> None:
    """A statement token after a label or an output the tokens read finishes that node only when it
    has no label of its own (found by the seeded edits of the bench text)."""
    text = f'<ir_version: 9, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y)\n{{\n   {lines}\n}}\n'
    _same_or_declined(text)


def _line_edit(text: str, rng: random.Random) -> str:
    """One edit of a text's lines or token boundaries (what moves the compound tokens' ends)."""
    import re

    kind = rng.random()
    lines = text.split("\n")
    if kind < 0.2:  # break a line at a space
        spaces = [m.start() for m in re.finditer(" ", text)]
        at = rng.choice(spaces)
        return text[:at] + "\n" + text[at + 1 :]
    if kind < 0.4:  # join two lines
        breaks = [m.start() for m in re.finditer("\n", text)]
        at = rng.choice(breaks)
        return text[:at] + " " + text[at + 1 :]
    if kind < 0.55:  # a line twice
        at = rng.randrange(len(lines))
        return "\n".join([*lines[: at + 1], lines[at], *lines[at + 1 :]])
    if kind < 0.7:  # a line less
        at = rng.randrange(len(lines))
        return "\n".join(lines[:at] + lines[at + 1 :])
    bounds = [m.start() for m in re.finditer("[ ,()<>]", text)]
    at = rng.choice(bounds)
    piece = rng.choice(
        ['""', '"a"', "# c\n", "@{}", "<>", "[x]", ", ", "{1}", "=>", "float[2] z", "seq(float) s", "\t"]
    )
    return text[:at] + piece + text[at:]


@pytest.mark.parametrize("seed", range(2))
def test_line_edits_agree(seed: int) -> None:
    """Seeded edits of lines and token boundaries (a statement broken or joined, a line doubled or
    dropped, a piece put between tokens) of texts of compound tokens: never a disagreement."""
    from bench_parse_print import many_inputs

    rng = random.Random(seed)
    taken = 0
    for text in (many_inputs(5), node_heavy(5), _NOTES, _statements_text(random.Random(seed), 8)):
        for _ in range(60):
            damaged = text
            for _ in range(rng.randint(1, 3)):
                damaged = _line_edit(damaged, rng)
            fast = direct_model(damaged)
            if fast is not None:
                taken += 1
                assert fast.SerializeToString() == _reference(damaged), repr(damaged)
    assert taken > 50, taken


def _chain(n: int, odd: dict[int, str], header: str = "") -> str:
    """``n`` one-line statements (a run of statement tokens), statement ``i`` replaced by ``odd[i]``."""
    lines = [f"   x{i + 1} = Relu (x{i})" for i in range(n)]
    for i, statement in odd.items():
        lines[i] = f"   {statement}"
    body = "\n".join(lines)
    return f'<ir_version: 9, opset_import: ["" : 18]{header}>\ng (float[2] x0) => (float[2] x{n})\n{{\n{body}\n}}\n'


# Statements the reader does not know and the reference path reads without a word: an integer
# attribute in hex (in a run of statement tokens), a name with an escape (read token by token),
# a statement broken over lines with a property block of another key.
ODD = [
    "x{i1} = Relu <alpha = 0x1> (x{i})",
    'x{i1} = Identity ("x\\u0031{rest}")',
    '[n{i}] x{i1} = Identity (\n      x{i}\n   ) @{{domain: ""}}',
]


@pytest.mark.parametrize("header", ["", ", node_domain: unset, tensor_name: unset, tensor_encoding: raw"])
@pytest.mark.parametrize("odd", [*ODD, "x{i1} = Cast <t = float[2] {{1, 2}}, alpha = 0x1> (x{i})"])
def test_a_declined_statement_costs_only_itself(odd: str, header: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A statement the fast path does not read is read alone by the reference path, the rest of the
    text by the fast path, and the protobuf is the reference path's for the whole text."""
    from onnxtext.lowering import direct

    alone: list[str] = []
    read = direct._reference_node
    monkeypatch.setattr(direct, "_reference_node", lambda text, *flags: alone.append(text) or read(text, *flags))
    at = 57
    statement = odd.format(i=at, i1=at + 1, rest=str(at)[1:])
    assert _same_or_declined(_chain(120, {at: statement}, header))  # the file-wide defaults hold for it too
    assert len(alone) == 1


def test_many_declined_statements_are_the_reference_paths() -> None:
    """Past ``_ALONE`` statements read alone, the text is the reference path's whole (and both agree)."""
    from onnxtext.lowering.direct import _ALONE

    few = {i: ODD[0].format(i=i, i1=i + 1) for i in range(0, 2 * _ALONE + 2, 2)}  # one more than _ALONE
    assert not _same_or_declined(_chain(2 * _ALONE + 10, few))
    assert _same_or_declined(_chain(2 * _ALONE + 10, dict(list(few.items())[:_ALONE])))


@pytest.mark.parametrize(
    "odd",
    [
        "x{i1} = Relu <alpha = 0x1> (x{i}",  # unclosed: the statement alone reports it
        "x{i1} = Relu <alpha = 0x1> (x{i}) <beta = 1>",  # attributes twice
        "x{i1} = Relu <alpha = 0x1, t = float[2] {{1}}> (x{i})",  # a count mismatch: a warning
        "x{i1} = Relu <alpha = 0x1> (x{i}) x{i1}b = Relu (x{i})",
        "x{i1} = Relu <alpha = 0x1> (x{i}) @{{doc_string: }}",
        "x{i1} = Relu <alpha = 0x1> (x{i}) }}",
        "x{i1} = Relu <alpha = 0x1> [x{i}]",
        "[n{i} x{i1} = Relu <alpha = 0x1> (x{i})",
        'c = If (b) <then_branch = g1 () => (float t) {{ t = Identity ("x\\u0031") }}, '
        "else_branch = g2 () => (float t) {{ t = Identity (x{i}) }}>",  # in a subgraph: not alone
    ],
)
def test_statements_read_alone_never_disagree(odd: str) -> None:
    """A declined statement that is damaged, or reported on, or not a statement at all: the text is
    the reference path's (or both agree)."""
    _same_or_declined(_chain(30, {10: odd.format(i=10, i1=11)}))


@pytest.mark.parametrize("seed", range(2))
def test_line_edits_around_declined_statements_agree(seed: int) -> None:
    """Seeded edits of a text with statements read alone: never a disagreement."""
    rng = random.Random(seed)
    text = _chain(
        40, {5: ODD[0].format(i=5, i1=6), 20: ODD[1].format(i=20, i1=21, rest="0"), 30: ODD[2].format(i=30, i1=31)}
    )
    for _ in range(150):
        _same_or_declined(_line_edit(text, rng))


def test_the_statement_hugging_face_exports_print_takes_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The legacy exporter writes a parameter equal to an earlier one as an Identity of it, which the
    printer breaks over three lines (long dotted names): read by the fast path itself."""
    from onnxtext.lowering import direct
    from onnxtext.printing.text import to_text

    def no_statement_alone(*args: object) -> None:
        raise AssertionError("a statement went to the reference path")

    monkeypatch.setattr(direct, "_reference_node", no_statement_alone)
    names = [f"m.encoder.layer.{k}.attention.output.LayerNorm.bias" for k in range(3)]
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[4] x) => (float[4] y)\n'
        f'   <float[4] "{names[0]}" = {{0, 0, 0, 0}}>\n{{\n'
        f'   [Identity_102] "{names[1]}" = Identity ("{names[0]}")\n'
        f'   [Identity_103] "{names[2]}" = Identity ("{names[0]}")\n'
        f'   y = Add (x, "{names[2]}")\n}}\n'
    )
    printed = to_text(parse_model(text))
    assert '[Identity_102] "m.encoder.layer.1.attention.output.LayerNorm.bias" = Identity (\n' in printed
    assert _same_or_declined(printed)


@pytest.mark.slow
def test_printed_bench_exporter_models_take_the_fast_path_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text ``onnxtext print`` writes of the bench's real architectures (Hugging Face's names and
    legacy Identity statements among them) is the fast path's, no statement read alone."""
    from exporter_corpus import GENERATORS as BENCH

    from onnxtext.lowering import direct
    from onnxtext.printing.text import to_text

    def no_statement_alone(*args: object) -> None:
        raise AssertionError("a statement went to the reference path")

    monkeypatch.setattr(direct, "_reference_node", no_statement_alone)
    checked = 0
    for name, gen in BENCH.items():
        if not name.startswith("bench_") or any(_missing(m) for m in gen.requires):
            continue
        model = ModelProto.FromString(gen.ensure().read_bytes())
        for width in (100, 60):
            assert _same_or_declined(to_text(model, width)), (name, width)
        checked += 1
    if not checked:
        pytest.skip("no exporter installed")
