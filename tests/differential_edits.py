"""Typing-style edits, the language server's incremental path, and what it must equal (#30).

:class:`Editor` drives one open document the way ``lsp/session.py`` does: a document's first
analysis without the analysis cache, recorded after it (``AnalysisCache.prime``); then each
version made from the last document by ``incremental.reparse`` over the region
``Change.between`` finds (a whole parse when it declines), analysed with the carried cache
when the user paused there (``lsp/diagnose.diagnose``), or only parsed when typing went on
(the next version is made from it, the cache still holding the last analysed one), and its
semantic tokens encoded from the last document's rows (``host/tokens.TokenCache``).

:func:`differences` says where a version so made differs from a fresh analysis of its text:
the document (tree and spans, protobuf, source map, parse diagnostics, comments, symbols), the
diagnostics with their fixes' edit ranges (offsets in the new text), the inferred types, the
semantic tokens and the graph view. :func:`edits` makes the edits people make while typing:
characters inserted and deleted inside names, numbers, strings, attribute lists and brackets,
lines joined and split, comments typed, lines pasted, cut and duplicated.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from incremental_support import diagnostic_data, document_data, symbols_data
from test_incremental import _statements

from onnxtext.analysis.diagnose import AnalysisCache
from onnxtext.document import Document, parse_document
from onnxtext.host.analyse import Outcome, Settings, diagnose
from onnxtext.host.change import Change
from onnxtext.host.tokens import TokenCache, encoded_tokens
from onnxtext.ide.graph import graph_json, graph_model
from onnxtext.incremental import reparse
from onnxtext.span import Span
from onnxtext.syntax.lexer import tokenize

ROOT = Path(__file__).resolve().parents[1]
PATH = "m.onnxtxt"
SETTINGS = Settings(evaluate=False)

H = '<\n   ir_version: 10,\n   opset_import: ["": 21, "local": 1]\n>\n'
LOCAL = '<\n   opset_import: ["": 21],\n   domain: "local"\n>\n'
HAND: dict[str, str] = {
    "functions": H
    + "m (float[N, 4] X) => (float[N, 4] Y, float[N, 4] Z)\n{\n   a = local.F (X)\n   Y = local.G <k = 2> (a)\n"
    + "   Z = Softmax <axis = 1> (Y)  # the last\n}\n"
    + LOCAL
    + "F (X) => (Y)\n{\n   t = Relu (X)\n   Y = Neg (t)\n}\n"
    + LOCAL
    + "G <k: int = 1> (X) => (Y)\n{\n   t = LeakyRelu <alpha = 0.5> (X)\n   Y = Add (t, X)\n}\n",
    "stray_brace": H
    + "m (float[N] X) => (float[N] Y)\n{\n   Y = local.G (X)\n}\n"
    + LOCAL
    + "F (X) => (Y)\n{\n   Y = Relu (X)\n}\n"
    + LOCAL
    + "G (X) => (Y)\n{ t = Relu (X)\n}  Y = Neg (t)\n}\n",
    "subgraphs": H
    + "m (bool c, float[N] X, int64 n) => (float[N] Y, float[N] S)\n{\n"
    + "   # a branch on c\n"
    + "   Y = If (c) <\n      then_branch = t () => (float[N] a) {\n         a = Relu (X)\n      },\n"
    + "      else_branch = e () => (float[N] b) {\n         b = Neg (X)  # negated\n      }\n   >\n"
    + "   S = Loop (n, , X) <body = body (int64 i, bool cond, float[N] acc) => (bool cond_out, float[N] acc_out) {\n"
    + "      cond_out = Identity (cond)\n      acc_out = Add (acc, Y)\n   }>\n}\n",
    "training": '<\n   ir_version: 10,\n   opset_import: ["": 21],\n   training_info: [{\n'
    + "      initialization: init () => (float[3] v) {\n"
    + "         v = Constant <value = float[3] {0, 0, 0}> ()\n      },\n"
    + '      initialization_binding: ["v": "v"],\n'
    + "      algorithm: sgd (float[3] grad) => (float[3] v_next) <float[1] lr = {0.5}, float[3] step> {\n"
    + "         step = Mul (grad, lr)\n         v_next = Sub (v, step)\n      },\n"
    + '      update_binding: ["v": "v_next"]\n   }]\n>\n'
    + "main (float[3] x) => (float[3] y)\n<float[3] v = {1, 2, 3}>\n{\n   # adds\n   y = Add (x, v)\n}\n",
    "typos": '<\n   ir_version: 10,\n   opset_import: ["": 21]\n>\n'
    + "g (float[N, 4] x) => (float[N, 4] y)\n{\n   a = Relu (x)\n   b = Softmax <axs = 1> (a)\n"
    + '   c = Cast <to = 1> (b)  # "quoted" in a comment\n   y = Relu (c)\n}\n',
    "unclosed": '<\n   ir_version: 10,\n   opset_import: ["": 21]\n>\n'
    + "g (float[N] x) => (float[N] y)\n{\n   a = Relu (x)\n   y = Neg (a)\n",
    "comments": "# a model\n"
    + '<\n   ir_version: 10,  # ten\n   opset_import: ["": 21]\n>\n'
    + "# the graph\ng (float[N] x) => (float[N] y)\n{\n   # first\n   a = Relu (x)  # after\n\n"
    + "   # between\n   b = Sigmoid (a)\n   y = Mul (a, b)\n   # last\n}\n# the end\n",
}


def _long() -> str:
    """A body long enough for a damaged window to be widened and re-read (recovery's looks: 40
    tokens behind, 140 ahead), with attributes, a subgraph and a call in it."""
    lines = []
    for i in range(60):
        op = ("Relu (X{i})", "LeakyRelu <alpha = 0.{i}> (X{i})", "Add (X{i}, X0)", "Softmax <axis = 1> (X{i})")[i % 4]
        lines.append(f"   X{i + 1} = " + op.format(i=i))
    lines.insert(
        30,
        "   C = If (B) <then_branch = t () => (float[N, 4] a) {\n      a = Neg (X30)\n   }, "
        "else_branch = e () => (float[N, 4] b) {\n      b = local.F (X30)\n   }>",
    )
    return (
        H
        + "m (bool B, float[N, 4] X0) => (float[N, 4] X60, float[N, 4] C)\n{\n"
        + "\n".join(lines)
        + "\n}\n"
        + LOCAL
        + "F (X) => (Y)\n{\n   t = Relu (X)\n   Y = Neg (t)\n}\n"
    )


def corpus(exports: bool = False) -> list[tuple[str, str]]:
    """The texts the edits start from: the examples, the goldens, hand texts with functions,
    subgraphs, training info, comments and errors; ``exports``: and printed real exports (onnx's
    shipped backend models, and the exporters' models when ``corpus.exporters`` cached them)."""
    paths = sorted((ROOT / "examples").glob("*.onnxtxt")) + sorted((ROOT / "tests" / "golden").glob("*.onnxtxt"))
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in paths]
    texts += sorted(HAND.items())
    texts.append(("long", _long()))
    if exports:
        texts += printed_exports()
    return texts


def printed_exports() -> list[tuple[str, str]]:
    """Real exports printed: onnx's shipped models (when onnx is installed) and the exporters' cache."""
    from corpus.exporters import cache_dir

    from onnxtext import to_text
    from onnxtext.proto import ModelProto

    paths: list[Path] = []
    try:
        import onnx
    except ImportError:
        pass
    else:
        data = Path(onnx.__file__).parent / "backend" / "test" / "data"
        paths += sorted(p for p in data.glob("*/*/model.onnx") if p.parent.parent.name != "node")
    paths += sorted(cache_dir().glob("*.onnx"))  # never generated here: only what is cached
    out = []
    for p in paths:
        if p.stat().st_size > 200_000:
            continue  # a fresh analysis per version: kept to small models
        model = ModelProto.FromString(p.read_bytes())
        out.append((f"{p.parent.name}/{p.name}", to_text(model)))
    return out


# ---------------------------------------------------------------- edits


@dataclass(frozen=True)
class Edit:
    """``text[start:end]`` replaced by ``new`` (what a client's content change says)."""

    start: int
    end: int
    new: str
    kind: str = ""

    def apply(self, text: str) -> str:
        return text[: self.start] + self.new + text[self.end :]


_CHARS = "abxyz_019.-,:=()[]{}<>\"' \n#@"
_WORD = "abcdefghijklmnopqrstuvwxyz_0123456789"
_BRACKETS = "()[]{}<>"


def _line_of(text: str, offset: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return start, len(text) if end < 0 else end + 1


def statements(doc: Document) -> list[Span]:
    """The spans of the statements of ``doc``'s bodies (where most typing happens)."""
    return [n.span for n in _statements(doc)]


WELL_FORMED = ("rename", "number", "comment", "duplicate", "cut")
"""Edits that mostly leave the text well formed (a name, a number, a comment, whole lines)."""


def edit(rng: random.Random, text: str, inside: list[Span] | None = None, kinds: tuple[str, ...] = ()) -> Edit:
    """One typing-style edit of ``text`` (of one of ``kinds``, when given): mostly at a token of a
    statement of ``inside``, else anywhere."""
    toks = [t for t in tokenize(text) if t.end > t.start]
    if not text or not toks:
        return Edit(0, 0, rng.choice(["x", "\n", "}"]), "insert")
    tok = rng.choice(toks)
    if inside and rng.random() < 0.8:
        span = rng.choice(inside)
        tok = next((t for t in toks if t.start >= span.start + rng.randrange(max(1, span.end - span.start))), tok)
    kind = rng.choice(
        kinds
        or (
            "rename",
            "rename",
            "rename",
            "number",
            "char-in-token",
            "char-in-token",
            "delete-in-token",
            "delete-in-token",
            "word",
            "bracket",
            "bracket",
            "delete-token",
            "join",
            "split",
            "comment",
            "paste",
            "cut",
            "duplicate",
            "replace-token",
            "end",
        )
    )
    if kind == "end":  # typing at the text's end (a model written top down)
        n = len(text)
        return Edit(n, n, rng.choice(("\n", " ", "   y", "\n   z = Relu (y)", "}", "\n}\n")), kind)
    if kind == "rename":  # a name's letter typed or deleted (the text stays well formed, mostly)
        names = [t for t in toks if t.type == "IDENT" and t.start >= tok.start] or [tok]
        name = names[min(len(names) - 1, rng.randrange(3))]
        at = rng.randint(name.start, name.end)
        if rng.random() < 0.3 and name.end - name.start > 1:
            at = min(at, name.end - 1)
            return Edit(at, at + 1, "", kind)
        return Edit(at, at, rng.choice(_WORD[:26]), kind)
    if kind == "number":
        numbers = [t for t in toks if t.type == "NUMBER"] or [tok]
        number = rng.choice(numbers)
        at = rng.randrange(number.start, number.end)
        return Edit(at, at + 1, rng.choice("0123456789"), kind)
    if kind == "char-in-token":
        at = rng.randint(tok.start, tok.end)
        return Edit(at, at, rng.choice(_CHARS if rng.random() < 0.4 else _WORD), kind)
    if kind == "delete-in-token":
        at = rng.randrange(tok.start, tok.end)
        return Edit(at, at + 1, "", kind)
    if kind == "word":
        at = rng.choice((tok.start, tok.end))
        word = "".join(rng.choice(_WORD) for _ in range(rng.randint(1, 6)))
        return Edit(at, at, rng.choice((word, word + " ", " " + word, word + ",", ", " + word)), kind)
    if kind == "bracket":
        at = rng.choice((tok.start, tok.end))
        return Edit(at, at, rng.choice(_BRACKETS), kind)
    if kind == "delete-token":
        return Edit(tok.start, tok.end, "", kind)
    if kind == "replace-token":
        return Edit(tok.start, tok.end, rng.choice(("Relu", "x", "1", "2.5", '"s"', "axis", "=", ",", "{", "}")), kind)
    if kind == "join":
        newlines = [i for i in range(len(text)) if text[i] == "\n"]
        if not newlines:
            return Edit(tok.end, tok.end, "\n", kind)
        i = rng.choice(newlines)
        j = i + 1
        while j < len(text) and text[j] in " \t":
            j += 1
        return Edit(i, j, rng.choice(("", " ")), kind)
    if kind == "split":
        at = rng.choice((tok.start, tok.end))
        return Edit(at, at, "\n" + " " * rng.choice((0, 3, 6)), kind)
    if kind == "comment":
        _, end = _line_of(text, tok.start)
        at = end - 1 if text[end - 1 : end] == "\n" else end
        return Edit(at, at, rng.choice(("  # a comment", " #", "  # (x) {", '  # "')), kind)
    start, end = _line_of(text, tok.start)
    last_start, last_end = _line_of(text, rng.choice(toks[toks.index(tok) : toks.index(tok) + 12]).start)
    block = text[start:last_end]
    if kind == "cut":
        return Edit(start, last_end, "", kind)
    if kind == "duplicate":
        return Edit(last_end, last_end, block if block.endswith("\n") else "\n" + block, kind)
    # paste: a block of lines from elsewhere, at a line's start
    where, _ = _line_of(text, rng.choice(toks).start)
    return Edit(where, where, block if block.endswith("\n") else block + "\n", kind)


# ---------------------------------------------------------------- the server's path


@dataclass
class Editor:
    """One open document kept as the language server keeps it (see the module docstring)."""

    text: str
    document: Document = field(init=False)
    """The last document made (analysed, or only parsed while typing went on)."""
    cache: AnalysisCache = field(default_factory=AnalysisCache)
    tokens: TokenCache = field(default_factory=TokenCache)
    reread: int = 0
    """How many versions ``reparse`` made from the last one."""

    def __post_init__(self) -> None:
        outcome = diagnose(self.text, PATH, SETTINGS, threading.Event(), None, None, self.cache)
        self.tokens.data(outcome.document)
        self.document = outcome.document

    def change(self, text: str, analyse: bool) -> Outcome | None:
        """The version ``text``: its document made from the last one; analysed when the user paused."""
        old = self.document
        doc: Document | None = old
        if old.source.text != text:
            shift = Change.between(old.source.text, text)
            doc = reparse(old, text, shift.start, shift.old_end, shift.new_end)
            self.reread += doc is not None
        self.text = text
        if not analyse:  # superseded before its check: the worker parsed it (whole when reparse declined)
            self.document = doc if doc is not None else parse_document(text, "model", PATH)
            return None
        outcome = diagnose(text, PATH, SETTINGS, threading.Event(), doc, None, self.cache)
        self.document = outcome.document
        self.tokens.data(outcome.document)
        return outcome


def _fixes(diagnostics: list[Any], text: str) -> list[Any]:
    """Each fix's edits resolved against ``text``: the replaced text and the result."""
    out = []
    for d in diagnostics:
        if d.fix is None:
            continue
        edits = [(e.span.start, e.span.end, text[e.span.start : e.span.end], e.new_text) for e in d.fix.edits]
        out.append((d.code, d.fix.message, edits, d.fix.apply(text) if d.fix.edits else None))
    return out


def _types(doc: Document) -> Any:
    inference = doc.inference
    types = {(s.name, tuple((d.start, d.end) for d in s.definition_spans())): str(t) for s, t in doc.types.items()}
    return (inference.graphs, inference.issues, types) if inference is not None else types


def analysis_data(outcome: Outcome, tokens: list[int]) -> dict[str, Any]:
    """Every part of one version's analysis the editor shows, as plain data."""
    doc = outcome.document
    data = document_data(doc, with_symbols=False)
    data["symbols"] = symbols_data(doc.symbols)
    data["published"] = [diagnostic_data(d) for d in outcome.diagnostics]
    data["fixes"] = _fixes(outcome.diagnostics, doc.source.text)
    data["types"] = _types(doc)
    data["tokens"] = tokens
    data["graph"] = graph_json(graph_model(doc, diagnostics=outcome.diagnostics), doc.source)
    return data


def fresh_data(text: str) -> dict[str, Any]:
    outcome = diagnose(text, PATH, SETTINGS, threading.Event())
    return analysis_data(outcome, encoded_tokens(outcome.document))


def differences(editor: Editor, outcome: Outcome | None) -> list[str]:
    """What of the editor's last version differs from a fresh analysis of its text (its
    document alone when it was not analysed)."""
    if outcome is None:
        got = document_data(editor.document, with_symbols=False)
        want = document_data(parse_document(editor.text, "model", PATH), with_symbols=False)
    else:
        got = analysis_data(outcome, editor.tokens.data(outcome.document)[1])
        want = fresh_data(editor.text)
    return [key for key in want if got[key] != want[key]]


@dataclass
class Found:
    """A version that differs from a fresh analysis, and how to make it again."""

    name: str
    seed: str
    steps: list[tuple[Edit, bool]]
    """The edits from the start text, each with whether the version after it was analysed."""
    aspects: list[str]
    before: str
    after: str

    def __str__(self) -> str:
        last, analysed = self.steps[-1]
        return (
            f"{self.name} (seed {self.seed!r}, step {len(self.steps)}, {'analysed' if analysed else 'parsed'}):"
            f" {', '.join(self.aspects)} differ after {last}\n--- before\n{self.before}\n--- after\n{self.after}"
        )


def session(name: str, text: str, seed: str, steps: int) -> tuple[Found | None, int, int]:
    """``steps`` edits of ``text`` (an edit sometimes undone, each version analysed or only parsed
    at random, and the original text back at the end), each version compared with a fresh one.
    Returns the first difference, the versions compared and those ``reparse`` made."""
    rng = random.Random(seed)
    editor = Editor(text)
    done: list[tuple[Edit, bool]] = []
    compared = 0
    for step in range(steps + 1):
        before = editor.text
        if step == steps:
            change = Edit(0, len(before), text, "undo-all")  # back to the original (as a whole-text change)
        elif done and rng.random() < 0.2:
            change = Edit(0, len(before), _undo_target(rng, text, done), "undo")
        else:
            kinds = WELL_FORMED if rng.random() < 0.3 else ()  # the edits the re-read takes, mostly
            change = edit(rng, before, statements(editor.document), kinds)
            for _ in range(rng.choice((0, 0, 0, 0, 1))):  # keystrokes inside the debounce: one change
                more = edit(rng, change.apply(before), statements(editor.document))
                change = _joined(before, change, more)
        after = change.apply(before)
        analyse = step == steps or rng.random() < 0.6
        done.append((change, analyse))
        outcome = editor.change(after, analyse)
        compared += 1
        aspects = differences(editor, outcome)
        if aspects:
            return Found(name, seed, done, aspects, before, after), compared, editor.reread
    return None, compared, editor.reread


def _joined(text: str, first: Edit, then: Edit) -> Edit:
    """One change doing ``first`` then ``then`` (the region ``Change.between`` finds, as the server makes it
    of a whole text)."""
    after = then.apply(first.apply(text))
    shift = Change.between(text, after)
    return Edit(shift.start, shift.old_end, after[shift.start : shift.new_end], f"{first.kind}+{then.kind}")


def _undo_target(rng: random.Random, text: str, done: list[tuple[Edit, bool]]) -> str:
    """The text a few edits back (an undo, or several)."""
    back = rng.randint(1, min(4, len(done)))
    for change, _ in done[: len(done) - back]:
        text = change.apply(text)
    return text


def run(texts: list[tuple[str, str]], sessions: int, steps: int, tag: str = "") -> tuple[list[Found], int, int]:
    """``sessions`` seeded sessions of ``steps`` edits over each text: what differed, the versions
    compared and how many ``reparse`` made."""
    found: list[Found] = []
    compared = reread = 0
    for name, text in texts:
        for i in range(sessions):
            hit, n, r = session(name, text, f"{tag}{name}:{i}", steps)
            compared += n
            reread += r
            if hit is not None:
                found.append(hit)
    return found, compared, reread
