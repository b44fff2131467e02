"""The language server's whole incremental pipeline equals a from-scratch analysis, edit after edit.

``test_incremental.py`` holds the re-read document equal to a fresh parse, and
``test_incremental_check.py`` the cached check and inference of freshly parsed documents equal
to an analysis from scratch. Here the two run together as the server runs them
(``lsp/session.py``): a document's first analysis without the cache, recorded after it
(``AnalysisCache.prime``); then each version made from the last one by ``reparse`` (a whole
parse when it declines) and diagnosed with the carried cache (``lsp/diagnose.diagnose``).
Every version's diagnostics, inference and value types equal those of a fresh parse analysed
from scratch: over the recovery corpus's edits (damaged texts, knock-ons), each followed by
the edit back, and over statement edits of the goldens and examples.
"""

from __future__ import annotations

import random
import threading

import pytest
from test_incremental import _cases as statement_cases
from test_incremental_check import _resolutions, _signature, _types
from test_recovery_corpus import Edit

from onnxtext.analysis.diagnose import AnalysisCache
from onnxtext.host.analyse import Outcome, Settings, diagnose
from onnxtext.incremental import reparse

_SETTINGS = Settings(evaluate=False)


class Server:
    """One open document as the server keeps it: the last analysed document and its analysis cache."""

    def __init__(self, text: str) -> None:
        self.cache = AnalysisCache()
        self.outcome = diagnose(text, "m.onnxtxt", _SETTINGS, threading.Event(), None, None, self.cache)
        self.taken = 0

    def edit(self, edit: Edit) -> Outcome:
        old = self.outcome.document
        text = edit.apply(old.source.text)
        doc = reparse(old, text, edit.start, edit.end, edit.start + len(edit.new))
        self.taken += doc is not None
        self.outcome = diagnose(text, "m.onnxtxt", _SETTINGS, threading.Event(), doc, None, self.cache)
        return self.outcome


def _assert_as_scratch(outcome: Outcome, where: str) -> None:
    text = outcome.document.source.text
    fresh = diagnose(text, "m.onnxtxt", _SETTINGS, threading.Event())
    assert _signature(outcome.diagnostics) == _signature(fresh.diagnostics), where
    doc, scratch = outcome.document, fresh.document
    if scratch.inference is not None and doc.inference is not None:
        assert doc.inference.graphs == scratch.inference.graphs, where
        assert doc.inference.issues == scratch.inference.issues, where
        assert _types(doc) == _types(scratch), where
        assert _resolutions(doc) == _resolutions(scratch), where


def _back(text: str, edit: Edit) -> Edit:
    """The edit that undoes ``edit`` on its result."""
    return Edit(edit.start, edit.start + len(edit.new), text[edit.start : edit.end])


def _run(cases: list[tuple[str, str, Edit]]) -> int:
    taken = 0
    for name, text, edit in cases:
        server = Server(text)
        for step in (edit, _back(text, edit)):
            where = f"{name}: {step}"
            _assert_as_scratch(server.edit(step), where)
        assert server.outcome.document.source.text == text
        taken += server.taken
    return taken


def test_statement_edits_and_back_analyse_as_from_scratch() -> None:
    cases = random.Random(7).sample(statement_cases(1), 120)
    taken = _run(cases)
    assert taken > 60  # measured: 78 of the 240 versions made from the last one (damaged texts are parsed whole)


@pytest.mark.slow
def test_recovery_corpus_edits_and_back_analyse_as_from_scratch() -> None:
    from test_recovery_corpus import _cases as recovery_cases

    taken = _run(recovery_cases())
    assert taken > 900  # measured: 1,131 of the 4,800 versions made from the last one (the others parsed whole)


# ---------------------------------------------------------------- the cases of #30

_LOCAL = '<\n   opset_import: ["": 21],\n   domain: "local"\n>\n'
_HEAD = '<\n   ir_version: 10,\n   opset_import: ["": 21, "local": 1]\n>\n'
_MAIN = '<ir_version: 10, opset_import: ["": 21]>\ng (float[N] x) => (float[N] y)\n{\n'


def _typed(server: Server, at: int, new: str, old: str = "") -> Outcome:
    """``new`` typed at ``at`` (replacing ``old`` there), through the server's pipeline, equal to a fresh analysis."""
    text = server.outcome.document.source.text
    assert text[at : at + len(old)] == old
    outcome = server.edit(Edit(at, at + len(old), new))
    _assert_as_scratch(outcome, f"{new!r} at {at}")
    return outcome


def test_deleting_a_stray_brace_in_a_function_leaves_each_function_once() -> None:
    main = "m (float[N] X) => (float[N] Y)\n{\n   Y = local.G (X)\n}\n"
    f = "F (X) => (Y)\n{\n   Y = Relu (X)\n}\n"
    g = "G (X) => (Y)\n{ t = Relu (X)\n}  Y = Neg (t)\n}\n"
    text = _HEAD + main + _LOCAL + f + _LOCAL + g
    server = Server(text)
    outcome = _typed(server, text.index("}  Y"), "", "}")
    assert [fn.name for fn in outcome.document.proto.functions] == ["F", "G"]
    assert [d.code for d in outcome.diagnostics] == []


def test_a_fix_kept_for_the_next_version_is_located_in_it() -> None:
    """A finding taken from the last version (the analysis cache) has its fix's edit where it
    is now: the edit's span was the tree's, moved in place by the re-read, then moved again."""
    text = _MAIN + "   a = Relu (x)\n   y = Softmax <axs = 1> (a)\n}\n"
    server = Server(text)
    outcome = _typed(server, text.index("(x)") + 3, "  # a comment")
    assert server.taken == 1
    (d,) = outcome.diagnostics
    assert d.fix is not None
    new = outcome.document.source.text
    assert [new[e.span.start : e.span.end] for e in d.fix.edits] == ["axs"]
    assert d.fix.apply(new) == new.replace("axs", "axis")


def test_typing_at_the_end_of_a_body_left_unclosed_keeps_its_diagnostic() -> None:
    text = _MAIN + "   a = Relu (x)\n   y = Neg (a)\n"
    server = Server(text)
    for new in (" ", "\n", "   b = Relu (y)\n"):
        outcome = _typed(server, len(server.outcome.document.source.text), new)
        (d,) = outcome.diagnostics
        assert d.span is not None and (d.code, d.span.start.offset) == ("P001", len(outcome.document.source.text))
    assert server.taken == 3


def test_undoing_an_edit_of_a_statement_whose_error_closed_the_body() -> None:
    """A damaged last statement's diagnostic carries the closing of the unclosed body (its fix
    inserts the '}'): once it is mended, the whole parse says the body is unclosed on its own."""
    text = _MAIN + "   a = 7s,Relu (x)\n"
    server = Server(text)
    _typed(server, text.index("7s,"), "", "7s,")
    _typed(server, len(server.outcome.document.source.text), "   y = Neg (a)\n")


def test_an_edit_in_a_graph_the_parse_could_not_read_is_read_whole() -> None:
    """Statements before a graph's name make the graph one error node: its text is no body's."""
    head = "<ir_version: 3, opset_import: [{version: 6}]>\n"
    node = '   "2" = Add <broadcast = 1, axis = 1> ("0", "1")\n'
    graph = '"g" (double[2, 3] "0", double[3] "1") => (double[2, 3] "2")\n{\n' + node + "}\n"
    text = head + node + node + graph
    server = Server(text)
    _typed(server, text.index("broadcast") + 7, "", "s")
    assert server.taken == 0


def test_cutting_a_damaged_last_statement_of_an_unclosed_body() -> None:
    """The diagnostic at the text's end was the damaged statement's (its fix closed the '<' and
    the body): cut with it, not moved as the unclosed body's."""
    text = _MAIN + "   a = Relu (x)\n   y = Flaten <"
    server = Server(text)
    outcome = _typed(server, text.index("   y ="), "", "   y = Flaten <")
    assert "expected '}' to close the '{' at line 3, found the end of the text" in [
        d.message for d in outcome.diagnostics
    ]


def test_an_edit_in_the_statement_after_an_unclosed_paren() -> None:
    """Recovery reports a statement's missing ')' at the next statement's first token (where it
    inserts it): an edit of that next statement does not re-read the diagnostic away."""
    text = _MAIN + "   y = Relu (\n   z p= Neg <alpha = 1> (x)\n}\n"
    server = Server(text)
    outcome = _typed(server, text.index("alpha") + 2, "", "p")
    assert [d.code for d in outcome.diagnostics][:1] == ["P001"]
