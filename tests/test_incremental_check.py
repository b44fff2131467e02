"""Incremental check and inference (``AnalysisCache``) equal an analysis from scratch, version after version.

Each sequence of texts is analysed twice: with one cache carried from version to version
(what the language server does per document), and each version from scratch. Diagnostics
(code, severity, span, line and column, message, fix, notes), inference (every graph's
types, the issues) and the document's types and resolutions must be equal after every
version. The long corpora are ``slow``.
"""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from onnxtext.analysis.diagnose import AnalysisCache, diagnose
from onnxtext.analysis.infer.engine import infer_model
from onnxtext.analysis.lineup import MAIN, Keys, Lineup, Splice, line_up, node_keys
from onnxtext.diagnostics import Diagnostic
from onnxtext.document import Document, parse_document
from onnxtext.incremental import reread
from onnxtext.syntax import ast as A

ROOT = Path(__file__).resolve().parents[1]


def _signature(diags: Iterable[Diagnostic]) -> list[tuple[Any, ...]]:
    out = []
    for d in diags:
        where = (d.span.offsets, d.span.start.line, d.span.start.column) if d.span is not None else d.path
        related = tuple((r.message, r.span.offsets if not isinstance(r.span, A.Span) else r.span) for r in d.related)
        out.append((d.code, d.severity, where, d.message, d.fix, related))
    return out


def _types(doc: Document) -> dict[tuple[str, tuple[tuple[int, int], ...]], str]:
    return {(s.name, tuple((d.start, d.end) for d in s.definition_spans())): str(t) for s, t in doc.types.items()}


def _resolutions(doc: Document) -> dict[tuple[int, int], tuple[Any, ...]]:
    return {
        (node.span.start, node.span.end): (r.domain, r.version, r.schema.name if r.schema else None, r.function_index)
        for node, r in doc.resolutions.items()
    }


def assert_versions_agree(
    texts: Sequence[str],
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    *,
    deep: bool = True,
) -> AnalysisCache:
    """Analyse ``texts`` in turn with one cache; each version equals its analysis from scratch."""
    cache = AnalysisCache()
    for i, text in enumerate(texts):
        doc = parse_document(text)
        found = diagnose(doc, select, ignore, cache=cache)
        fresh = parse_document(text)
        expected = diagnose(fresh, select, ignore)
        where = f"version {i}:\n{text}"
        assert _signature(found) == _signature(expected), where
        if fresh.inference is None:
            continue
        if doc.inference is None:  # the checker ran no type rule: the document's inference is still to come
            continue
        assert doc.inference.graphs == fresh.inference.graphs, where
        assert doc.inference.issues == fresh.inference.issues, where
        if deep:
            assert _types(doc) == _types(fresh), where
            assert _resolutions(doc) == _resolutions(fresh), where
    return cache


HEAD = '<ir_version: 8, opset_import: ["" : 18]>\n'


def chain(n: int, op: str = "Relu") -> list[str]:
    return [f"   X{i + 1} = {op} (X{i})" for i in range(n)]


def model(lines: list[str], n: int | None = None, head: str = HEAD, tail: str = "") -> str:
    last = len(lines) if n is None else n
    return head + f"main (float[N, 16] X0) => (float[N, 16] X{last})\n{{\n" + "\n".join(lines) + "\n}\n" + tail


def test_the_cache_reuses_the_unchanged_nodes() -> None:
    lines = chain(200)
    changed = list(lines)
    changed[100] = changed[100].replace("Relu", "Tanh")
    cache = assert_versions_agree([model(lines), model(changed)])
    assert cache.reused == {"infer": 199, "check": 199}


def test_changing_an_operator_back_and_forth() -> None:
    lines = chain(50)
    versions = []
    for op in ("Tanh", "Relu", "Rleu", "Sigmoid", "Cast", "Relu"):
        changed = list(lines)
        changed[20] = changed[20].replace("Relu", op)
        versions.append(model(changed))
    assert_versions_agree([model(lines), *versions])


def test_renaming_an_output_used_downstream() -> None:
    lines = chain(40)
    renamed = list(lines)
    renamed[10] = renamed[10].replace("X11 =", "Y11 =")
    both = list(renamed)
    both[11] = both[11].replace("(X11)", "(Y11)")
    assert_versions_agree([model(lines), model(renamed), model(both), model(renamed), model(lines)])


def test_inserting_and_deleting_statements() -> None:
    lines = chain(40)
    versions = [model(lines)]
    current = list(lines)
    rng = random.Random(7)
    for _ in range(20):
        k = rng.randrange(len(current))
        if rng.random() < 0.5:
            current.insert(
                k, rng.choice(["   Z = Relu (X3)", "   X5 = Relu (X2)", "   W = Add (X1, Q)", "   Z = Rleu (X9)"])
            )
        else:
            del current[k]
        versions.append(model(current, 40))
    assert_versions_agree(versions)


def test_typing_a_statement_character_by_character() -> None:
    lines = chain(30)
    statement = "   Y = Add (X3, X4)"
    versions = [model(lines)]
    for i in range(1, len(statement) + 1):
        typed = list(lines)
        typed.insert(15, statement[:i])
        versions.append(model(typed, 30))
    assert_versions_agree(versions)


def test_comments_and_spaces_move_the_findings() -> None:
    lines = chain(30)
    lines[12] = "   X13 = Rleu (X12)"
    lines[20] = "   X21 = Relu (Q)"
    moved = ["# a comment", *lines]
    spaced = list(moved)
    spaced[14] = "   X13   =   Rleu (X12)"
    assert_versions_agree([model(lines), model(moved, 30), model(spaced, 30), model(lines)])


def test_duplicates_and_uses_before_definitions() -> None:
    lines = chain(30)
    swapped = list(lines)
    swapped[5], swapped[6] = swapped[6], swapped[5]
    twice = list(lines)
    twice.insert(20, "   X8 = Relu (X2)")
    later = list(lines)
    later.insert(3, "   Z = Relu (X25)")
    assert_versions_agree([model(lines), model(swapped), model(twice), model(later), model(lines), model(later)])


_RICH = """<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
main (float[N, 4] x, bool c) => (float[N, 4] y, float[N, 4] z)
<float[4] w = {1, 2, 3, 4}, int64[2] shape = {-1, 4}>
{
   a = Mul (x, w)
   k = Constant <value = int64[2] {2, 2}> ()
   r = Reshape (a, shape)
   b = Relu (r)
   z = local.twice (b)
   y = If (c) <
      then_branch = g1 () => (float[N, 4] t) { t = Relu (b) },
      else_branch = g2 () => (float[N, 4] e) { e = Neg (a) }
   >
}
<domain: "local", opset_import: ["" : 18]>
twice (v) => (u) {
   h = Add (v, v)
   u = Relu (h)
}
"""


def test_subgraphs_constants_and_functions() -> None:
    versions = [
        _RICH,
        _RICH.replace("b = Relu (r)", "b = Tanh (r)"),
        _RICH.replace("a = Mul (x, w)", "a = Mul (x, x)"),
        _RICH.replace("{2, 2}", "{4, 1}"),
        _RICH.replace("shape = {-1, 4}", "shape = {4, -1}"),
        _RICH.replace("u = Relu (h)", "u = Neg (h)"),
        _RICH.replace('"local" : 1', '"local" : 2'),
        _RICH.replace('"" : 18, "local"', '"" : 13, "local"'),
        _RICH.replace("t = Relu (b)", "t = Relu (bb)"),
        _RICH.replace("float[4] w", "int64[4] w"),
        _RICH.replace("   b = Relu (r)\n", "   b = Relu (r)\n   q = Cast <to = 7> (b)\n"),
        _RICH,
    ]
    assert_versions_agree(versions)


def test_the_rules_chosen_change_between_versions() -> None:
    lines = chain(20)
    lines[5] = "   X6 = Rleu (X5)"
    lines[9] = "   x-9 = Relu (X9)"
    text = model(lines)
    cache = AnalysisCache()
    for select, ignore in ((None, None), (["E3"], None), (None, ["E3"]), (["W201"], None), (None, None)):
        doc = parse_document(text)
        assert _signature(diagnose(doc, select, ignore, cache=cache)) == _signature(
            diagnose(parse_document(text), select, ignore)
        )


def test_exporter_names_are_collected_from_reused_nodes() -> None:
    def name(i: int) -> str:
        return f'"/l{i}/Relu_output_0"'

    lines = [f"   {name(i)} = Relu ({'X0' if i == 0 else name(i - 1)})" for i in range(30)]
    text = model(lines).replace("=> (float[N, 16] X30)", f"=> (float[N, 16] {name(29)})")
    assert [d.code for d in diagnose(parse_document(text), ["W201"])] == ["W201"]  # one, with 29 notes
    changed = text.replace(f"{name(12)} = Relu", f"{name(12)} = Tanh")
    inserted = text.replace(f"   {name(12)}", f"   Z = Relu (X0)\n   {name(12)}", 1)
    commented = text.replace(f"   {name(3)}", f"# a note\n   {name(3)}", 1)
    cache = assert_versions_agree([text, changed, inserted, commented, text], select=["W201", "E"])
    assert cache.reused["check"] == 30
    assert cache.reused["infer"] == 30


@pytest.mark.slow
def test_the_cache_keeps_one_version() -> None:
    lines = chain(300)
    cache = AnalysisCache()
    rng = random.Random(3)
    tracemalloc.start()
    try:
        sizes = []
        for edit in range(200):
            changed = list(lines)
            k = rng.randrange(len(changed))
            changed[k] = changed[k].replace("Relu", rng.choice(("Tanh", "Sigmoid", "Relu")))
            diagnose(parse_document(model(changed)), cache=cache)
            if edit in (20, 199):
                sizes.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    assert cache.check is not None and len(cache.check.nodes) == 300
    assert cache.infer is not None and len(cache.infer.outcomes) == 300
    assert sizes[1] < sizes[0] * 1.2 + 200_000, sizes


# ---------------------------------------------------------------- corpora (slow)


def _corpus_texts() -> list[tuple[str, str]]:
    from tests.test_recovery_corpus import _texts

    return _texts()


def _statement_edits(rng: random.Random, text: str, count: int) -> list[str]:
    """``count`` versions of ``text``, each a statement-level edit of the one before."""
    versions = []
    current = text
    for _ in range(count):
        lines = current.split("\n")
        k = rng.randrange(len(lines))
        kind = rng.choice(("delete", "duplicate", "swap", "op", "rename"))
        if kind == "delete":
            del lines[k]
        elif kind == "duplicate":
            lines.insert(k, lines[k])
        elif kind == "swap" and k + 1 < len(lines):
            lines[k], lines[k + 1] = lines[k + 1], lines[k]
        elif kind == "op":
            lines[k] = lines[k].replace("Relu", "Tanh").replace("Add", "Sub").replace("MatMul", "Mul")
        else:
            lines[k] = lines[k].replace(" = ", "_r = ", 1)
        current = "\n".join(lines)
        versions.append(current)
    return versions


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_recovery_corpus_edits_in_sequence(seed: int) -> None:
    """Chains of the recovery corpus's seeded edits (damaged texts, knock-ons) and back to the text."""
    from tests.test_recovery_corpus import _edit

    rng = random.Random(seed)
    for _, text in _corpus_texts():
        versions = [text]
        current = text
        for _ in range(3):
            current = _edit(rng, current).apply(current)
            versions.append(current)
        versions.append(text)
        assert_versions_agree(versions, deep=False)


@pytest.mark.slow
def test_statement_edits_of_goldens_examples_and_backend_models() -> None:
    rng = random.Random(11)
    for _, text in _corpus_texts():
        assert_versions_agree([text, *_statement_edits(rng, text, 6), text])


@pytest.mark.slow
def test_a_long_chain_edited_in_the_middle() -> None:
    lines = chain(3000)
    rng = random.Random(5)
    versions = [model(lines)]
    for _ in range(12):
        changed = list(lines)
        k = rng.randrange(len(changed))
        changed[k] = changed[k].replace("Relu", rng.choice(("Tanh", "Rleu", "Relu")))
        versions.append(model(changed))
    assert_versions_agree(versions)


def test_line_up_finds_the_common_ends() -> None:
    for seed in range(400):
        rng = random.Random(seed)
        old = [bytes([rng.randrange(3)]) for _ in range(rng.randrange(0, 700))]
        new = list(old)
        for _ in range(rng.randrange(0, 3)):
            kind = rng.randrange(3)
            if kind == 0 and new:
                del new[rng.randrange(len(new))]
            elif kind == 1:
                new.insert(rng.randrange(len(new) + 1), b"x")
            elif new:
                new[rng.randrange(len(new))] = b"y"
        most = min(len(old), len(new))
        prefix = next((i for i in range(most) if old[i] != new[i]), most)
        suffix = next((i for i in range(most - prefix) if old[-1 - i] != new[-1 - i]), most - prefix)
        assert line_up(old, new) == Lineup(prefix, suffix, len(old), len(new)), seed


BACKEND_STRIDE = 5
"""Every fifth backend-suite model (about 400): printed, then edited statement by statement."""


@pytest.mark.slow
def test_statement_edits_of_printed_backend_models() -> None:
    onnx = pytest.importorskip("onnx")  # the backend suite comes with onnx
    del onnx
    import onnxtext
    from tests.corpus.backend import all_model_paths, case_id

    paths = sorted(all_model_paths(), key=case_id)[::BACKEND_STRIDE]
    rng = random.Random(13)
    checked = 0
    for path in paths:
        try:
            text = onnxtext.to_text(onnxtext.load(str(path)))
        except onnxtext.OnnxTextError:
            continue
        assert_versions_agree([text, *_statement_edits(rng, text, 4), text])
        checked += 1
    assert checked >= 300


def test_the_server_diagnoses_with_the_cache_and_holds_no_document() -> None:
    """``lsp/diagnose.diagnose`` with a document's cache (what the session passes) over 40 versions:
    the diagnostics of each equal those without it, and the cache keeps no document or model alive."""
    import gc
    import threading

    from onnxtext.host.analyse import Settings
    from onnxtext.host.analyse import diagnose as server_diagnose
    from onnxtext.proto import ModelProto

    settings = Settings()
    settings.evaluate = False
    cache = AnalysisCache()
    lines = chain(60)
    rng = random.Random(9)
    for _ in range(40):
        changed = list(lines)
        k = rng.randrange(len(changed))
        changed[k] = changed[k].replace("Relu", rng.choice(("Tanh", "Rleu", "Relu")))
        text = model(changed)
        found = server_diagnose(text, "m.onnxtxt", settings, threading.Event(), cache=cache)
        expected = server_diagnose(text, "m.onnxtxt", settings, threading.Event())
        assert _signature(found.diagnostics) == _signature(expected.diagnostics)
    seen: set[int] = set()
    work: list[object] = [cache]
    while work:  # everything the cache holds
        held = work.pop()
        if id(held) in seen or isinstance(held, type):
            continue
        seen.add(id(held))
        assert not isinstance(held, (Document, ModelProto)), type(held)
        work.extend(gc.get_referents(held))
    assert len(seen) > 500  # the walk went through the memos (60 nodes)


@pytest.mark.slow
def test_long_chains_of_mixed_edits() -> None:
    """Ten versions a text, character edits and statement edits mixed: the memo carried over many versions."""
    from tests.test_recovery_corpus import _edit

    rng = random.Random(17)
    for _, text in _corpus_texts():
        versions = [text]
        current = text
        for _ in range(10):
            if rng.random() < 0.4:
                current = _edit(rng, current).apply(current)
            else:
                current = _statement_edits(rng, current, 1)[0]
            versions.append(current)
        assert_versions_agree(versions, deep=False)


_STATEMENTS = [
    "   k{i} = Constant <value = int64[2] {{2, 8}}> ()",
    "   r{i} = Reshape (v{j}, k{j})",
    "   v{i} = Relu (v{j})",
    "   v{i} = Add (v{j}, w)",
    "   v{i} = local.twice (v{j})",
    "   v{i} = If (c) <then_branch = t{i} () => (float[N, 4] o{i}) {{ o{i} = Neg (v{j}) }}, "
    "else_branch = e{i} () => (float[N, 4] p{i}) {{ p{i} = Abs (v{j}) }}>",
    "   v{i} = Shape (v{j})",
    "   shape = Constant <value = int64[2] {{4, 4}}> ()",
    "   v{i} = Reshape (v{j}, shape)",
    "   v{i} = Cast <to = 7> (v{j})",
]


def test_random_statements_with_constants_subgraphs_and_calls() -> None:
    """Versions made of random statements (constants read by shapes, subgraphs reading outer values,
    function calls, redefinitions, uses before definitions), one statement changed at a time."""
    head = (
        '<ir_version: 8, opset_import: ["" : 18, "local" : 1]>\n'
        "main (float[N, 4] v0, bool c) => (float[N, 4] v1)\n<float[4] w = {1, 2, 3, 4}, int64[2] shape = {-1, 4}>\n{\n"
    )
    tail = '}\n<domain: "local", opset_import: ["" : 18]>\ntwice (a) => (b) {\n   b = Add (a, a)\n}\n'
    rng = random.Random(23)

    def statement(i: int) -> str:
        return rng.choice(_STATEMENTS).format(i=i, j=rng.randrange(0, i + 3))

    lines = [statement(i) for i in range(1, 40)]
    versions = [head + "\n".join(lines) + "\n" + tail]
    for _ in range(40):
        k = rng.randrange(len(lines))
        kind = rng.random()
        if kind < 0.5:
            lines[k] = statement(k + 1)
        elif kind < 0.75:
            lines.insert(k, statement(k + 1))
        else:
            del lines[k]
        versions.append(head + "\n".join(lines) + "\n" + tail)
    assert_versions_agree(versions)


def test_the_document_keeps_the_incremental_inference_and_a_request_may_come_first() -> None:
    lines = chain(50)
    cache = AnalysisCache()
    first = parse_document(model(lines))
    diagnose(first, cache=cache)
    assert first.inference is not None and first.inference.memo is cache.infer  # hover and hints read this one
    changed = list(lines)
    changed[25] = changed[25].replace("Relu", "Rleu")
    second = parse_document(model(changed))
    asked = second.inference  # a request asked before the diagnostics: made from scratch, no memo
    assert asked is not None and asked.memo is None
    found = diagnose(second, cache=cache)
    assert second.inference is asked and cache.infer is first.inference.memo  # the older memo stays
    assert _signature(found) == _signature(diagnose(parse_document(model(changed))))
    third = parse_document(model(lines))
    assert _signature(diagnose(third, cache=cache)) == _signature(diagnose(parse_document(model(lines))))
    assert third.inference is not None and third.inference.reused == 50


def test_an_axis_checked_against_an_inferred_rank_follows_the_rank() -> None:
    """E705 reads the rank inference gives the node's input: a typo upstream (the rank becomes
    unknown) takes it away, mending it brings it back; the node's own text never changed (#30)."""
    lines = chain(20)
    lines[15] = "   X16 = Softmax <axis = 9> (X15)"
    broken = list(lines)
    broken[3] = "   X4 = Relu (nX3)"
    cache = assert_versions_agree([model(lines), model(broken), model(lines)])
    assert cache.reused["check"] > 10


def test_a_chain_breaking_typo_keeps_one_object_per_node_it_infers_again() -> None:
    """The outcomes kept across versions share one tuple per type (``Inference._typed``): the typo and
    its fix re-infer every later node, and each keeps its outcome alone (a 30,000-node chain made
    60,000 long-lived objects per such edit, and the collector's full pass after them)."""
    lines = chain(400)
    broken = list(lines)
    broken[200] = broken[200].replace("(X200)", "(Q200)")
    cache = assert_versions_agree([model(lines), model(broken), model(lines)])
    assert cache.reused == {"infer": 400, "check": 399}  # the mended text's types: the older memo's
    assert cache.infer is not None
    kept = {id(outcome.types) for outcome in cache.infer.outcomes}
    assert len(kept) == 1  # every node gives float[N, 16] again: one tuple, one type
    doc = parse_document(model(broken))
    diagnose(doc, cache=cache)
    after = {id(outcome.types): outcome.types for outcome in cache.infer.outcomes}
    assert len(after) == 2 and len({t for (t,) in after.values()}) == 2  # known before the typo, unknown after


def test_an_edit_undone_takes_the_types_of_the_version_before_it() -> None:
    """A typo that breaks a chain re-infers every later node; its mending, and the same typo made again,
    line up whole with the version before the last (``AnalysisCache.older``) and infer nothing again.
    An edit that is no undo keeps reusing the latest version."""
    lines = chain(300)
    broken = list(lines)
    broken[100] = broken[100].replace("(X100)", "(Q100)")
    elsewhere = list(lines)
    elsewhere[250] = elsewhere[250].replace("Relu", "Tanh")
    texts = [model(lines), model(broken), model(lines), model(broken), model(lines), model(elsewhere)]
    cache = AnalysisCache()
    reused = []
    for text in texts:
        doc = parse_document(text)
        diagnose(doc, cache=cache)
        assert doc.inference is not None
        reused.append(doc.inference.reused)
    assert reused == [0, 100, 300, 300, 300, 299]
    assert_versions_agree(texts)  # and each equals its analysis from scratch


def test_the_older_memo_is_taken_only_when_it_lines_up_better() -> None:
    lines = chain(100)
    first, second, third = list(lines), list(lines), list(lines)
    second[10] = second[10].replace("Relu", "Tanh")
    third[10] = third[10].replace("Relu", "Neg")  # as far from either: the latest is taken
    cache = AnalysisCache()
    for text in (model(first), model(second)):
        diagnose(parse_document(text), cache=cache)
    latest, older = cache.infer, cache.older
    assert latest is not None and older is not None and latest is not older
    doc = parse_document(model(third))
    assert cache.previous(cache.keys(doc)) is latest
    doc = parse_document(model(first))
    assert cache.previous(cache.keys(doc)) is older
    cache.forget()
    assert cache.empty and cache.older is None


def _edited(doc: Document, old: str, new: str) -> tuple[Document, Splice]:
    """``doc`` with the first ``old`` replaced by ``new``, re-read (consumes ``doc``)."""
    text = doc.source.text
    at = text.index(old)
    found = reread(doc, text[:at] + new + text[at + len(old) :], at, at + len(old), at + len(new))
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("old", "new", "more"),
    [
        ("X41 = Relu", "X41 = Tanh", 0),  # one statement changed
        ("   X41 = Relu (X40)\n", "", -1),  # one removed
        ("   X41 = Relu (X40)\n", "   X41 = Relu (X40)\n   Y = Neg (X40)\n", 1),  # one inserted
        ("q = Add (p, p)", "q = Sub (p, p)", None),  # a function's body: the main graph's nodes untouched
    ],
)
def test_node_keys_are_carried_through_the_change_by_position(old: str, new: str, more: int | None) -> None:
    """After a re-read edit, the main graph's node keys are the previous version's but for the window's
    nodes, the same objects (not serialized and compared anew), and equal the keys made from scratch."""
    tail = '<domain: "local", opset_import: ["" : 18]>\nf (p) => (q) {\n   q = Add (p, p)\n}\n'
    cache = AnalysisCache()
    doc = parse_document(model(chain(80), tail=tail))
    diagnose(doc, cache=cache)
    before = list(cache.keys(doc).nodes)
    cache.release()
    edited, made = _edited(doc, old, new)
    if more is None:
        assert made.body != MAIN
    else:  # the window: the statement changed, and those beside it the edit reached the blanks of
        assert made.body == MAIN and made.added - made.removed == more and made.first <= 40 < made.first + made.removed
    cache.spliced(doc, edited, made)
    assert edited.model is not None
    keys = cache.keys(edited).nodes
    assert keys == node_keys(edited.model.graph)
    first, removed, added = (made.first, made.removed, made.added) if more is not None else (len(before), 0, 0)
    assert all(a is b for a, b in zip(keys[:first], before[:first], strict=True))
    assert all(a is b for a, b in zip(keys[first + added :], before[first + removed :], strict=True))
    assert _signature(diagnose(edited, cache=cache)) == _signature(diagnose(parse_document(edited.source.text)))


def test_node_keys_are_made_anew_when_the_cache_did_not_analyse_the_version_before() -> None:
    cache = AnalysisCache()
    doc = parse_document(model(chain(30)))
    edited, made = _edited(doc, "X11 = Relu", "X11 = Tanh")
    cache.spliced(doc, edited, made)  # nothing recorded of ``doc``: nothing to carry
    assert edited.model is not None
    assert cache.keys(edited).nodes == node_keys(edited.model.graph)


SIGNATURES = """<ir_version: 8, opset_import: ["" : 18]>
main (float[N, 16] X0, int64[2] S) => (float[16, N] Y, float[4, 4] Z)
<int64[2] shape = {4, -1}, int64[1] axes = {0}>
{
   A1 = Relu (X0)
   A2 = Relu (X0)
   R1 = Reshape (A1, shape)
   R2 = Reshape (A2, shape)
   R3 = Reshape (A2, S)
   R4 = Reshape (A1, S)
   T1 = Transpose <perm = [1, 0]> (A1)
   T2 = Transpose <perm = [0, 1]> (A1)
   T3 = Transpose <perm = [1, 0]> (A2)
   C1 = Constant <value_ints = [4, 4]> ()
   C2 = Constant <value_ints = [2, 8]> ()
   Q1 = Reshape (A1, C1)
   Q2 = Reshape (A1, C2)
   U1 = Unsqueeze (A1, axes)
   B1, B2 = Split <num_outputs = 2> (A1)
   D1, D2 = Split <num_outputs = 2> (A2)
   Y = Transpose <perm = [1, 0]> (A2)
   Z = Reshape (A1, C1)
}
"""


def test_nodes_of_one_signature_share_an_inference_and_those_reading_values_do_not() -> None:
    """A keyed inference takes a node's output types from an earlier node of the same operator,
    attributes and input types (``engine._signature``); one reading a value (an initializer, a
    ``Constant``'s output), a declared output or a ``Constant`` is inferred itself: the types equal
    an inference from scratch, node by node."""
    doc = parse_document(SIGNATURES)
    model = doc.model
    assert model is not None and not doc.diagnostics
    keyed = infer_model(model, keys=Keys(model))
    fresh = infer_model(model)
    assert keyed.graphs == fresh.graphs and keyed.issues == fresh.issues
    types = fresh.graphs["graph"]
    assert str(types["R1"]) != str(types["R3"])  # the value read makes the difference
    assert str(types["Q1"]) != str(types["Q2"]) and str(types["T1"]) != str(types["T2"])
