"""End to end: diagnostics as the user types, quick fixes, formatting, survival."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from corpus.live_models import RUNAWAY_LOOP
from lsprotocol import types as L
from pytest_lsp import LanguageClient

from onnxtext import format_text

GOOD = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
   y = Relu (x)
}
"""

TYPO = GOOD.replace("Relu", "Rleu")


async def _diagnostics(client: LanguageClient, uri: str) -> list[L.Diagnostic]:
    """The next diagnostics published for ``uri`` (notifications for other documents are skipped)."""
    client.diagnostics.pop(uri, None)

    async def wait() -> list[L.Diagnostic]:
        while uri not in client.diagnostics:
            await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return list(client.diagnostics[uri])

    return await asyncio.wait_for(wait(), timeout=60)


async def _diagnostics_until(client: LanguageClient, uri: str, code: str) -> list[L.Diagnostic]:
    """Diagnostics published for ``uri`` until one with ``code`` is among them."""
    while True:
        diags = await _diagnostics(client, uri)
        if any(d.code == code for d in diags):
            return diags


def _open(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", version, text)))


async def _ready(client: LanguageClient, uri: str, text: str) -> list[L.Diagnostic]:
    """Open a document and wait for its first diagnostics (the server has analysed it)."""
    _open(client, uri, text)
    return await _diagnostics(client, uri)


def _change(
    client: LanguageClient, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str
) -> None:
    change = L.TextDocumentContentChangePartial(range=L.Range(L.Position(*start), L.Position(*end)), text=text)
    client.text_document_did_change(
        L.DidChangeTextDocumentParams(L.VersionedTextDocumentIdentifier(uri=uri, version=version), [change])
    )


@pytest.mark.asyncio
async def test_clean_model_has_no_diagnostics(client: LanguageClient, uri: str) -> None:
    _open(client, uri, GOOD)
    assert await _diagnostics(client, uri) == []


@pytest.mark.asyncio
async def test_checker_diagnostic_is_located_and_updates_on_change(client: LanguageClient, uri: str) -> None:
    _open(client, uri, TYPO)
    diags = await _diagnostics(client, uri)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diags] == [("E301", 2, 7)]
    assert diags[0].severity == L.DiagnosticSeverity.Error and diags[0].source == "onnxtext"
    # fix the typo by an incremental edit: the diagnostic goes away
    _change(client, uri, 2, (2, 7), (2, 11), "Relu")
    assert await _diagnostics(client, uri) == []


@pytest.mark.asyncio
async def test_syntax_error_is_published(client: LanguageClient, uri: str) -> None:
    _open(client, uri, GOOD.replace("Relu (x)", "Relu (x"))
    diags = await _diagnostics(client, uri)
    assert diags and diags[0].code.startswith("P")
    assert diags[0].range.start.line in (2, 3)


@pytest.mark.asyncio
async def test_positions_count_utf16_units(client: LanguageClient, uri: str) -> None:
    # '😀' is one character but two UTF-16 code units: 'zz' is character 18 of its line, unit 19
    text = GOOD.replace("y = Relu (x)", 'y = Relu ("😀", zz)').replace("(float[2] x)", '(float[2] x, float[2] "😀")')
    _open(client, uri, text)
    diags = await _diagnostics(client, uri)
    undefined = [d for d in diags if "zz" in d.message]
    assert undefined, diags
    assert (undefined[0].range.start.line, undefined[0].range.start.character) == (2, 19)


@pytest.mark.asyncio
async def test_settings_select_and_ignore(client: LanguageClient, uri: str) -> None:
    client.workspace_did_change_configuration(
        L.DidChangeConfigurationParams(settings={"onnxtext": {"check": {"ignore": ["E301"]}, "debounceMs": 20}})
    )
    _open(client, uri, TYPO)
    assert [d.code for d in await _diagnostics(client, uri)] == []


@pytest.mark.asyncio
async def test_formatting_edits_only_the_changed_lines(client: LanguageClient, uri: str) -> None:
    untidy = format_text(GOOD).replace("   y = Relu (x)", "a=Relu(x)\ny=Neg(a)")
    first = untidy[: untidy.index("a=Relu")].count("\n")
    await _ready(client, uri, untidy)
    doc, options = L.TextDocumentIdentifier(uri), L.FormattingOptions(tab_size=3, insert_spaces=True)
    edits = await client.text_document_formatting_async(L.DocumentFormattingParams(doc, options))
    assert edits is not None and len(edits) == 1  # one hunk: the two changed lines
    assert edits[0].range == L.Range(L.Position(first, 0), L.Position(first + 2, 0))
    assert edits[0].new_text == "   a = Relu (x)\n   y = Neg (a)\n"
    outside = L.Range(L.Position(0, 0), L.Position(0, 1))
    assert not await client.text_document_range_formatting_async(L.DocumentRangeFormattingParams(doc, outside, options))
    # A range formats the statements it meets, nothing else.
    inside = L.Range(L.Position(first + 1, 0), L.Position(first + 1, 3))
    ranged = await client.text_document_range_formatting_async(L.DocumentRangeFormattingParams(doc, inside, options))
    assert ranged is not None and list(ranged) == [
        L.TextEdit(L.Range(L.Position(first + 1, 0), L.Position(first + 2, 0)), "   y = Neg (a)\n")
    ]


@pytest.mark.asyncio
async def test_formatting_a_broken_text_changes_nothing(client: LanguageClient, uri: str) -> None:
    _open(client, uri, "g (float x) => (float y) { y = ")
    await _diagnostics(client, uri)
    edits = await client.text_document_formatting_async(
        L.DocumentFormattingParams(L.TextDocumentIdentifier(uri), L.FormattingOptions(tab_size=3, insert_spaces=True))
    )
    assert not edits


@pytest.mark.asyncio
async def test_server_survives_garbage(client: LanguageClient, uri: str) -> None:
    _open(client, uri, "\x00\xff<<<{{{(((" * 200 + '"unclosed')
    await _diagnostics(client, uri)
    for version, junk in enumerate(["}}}", "y = = =", "é" * 50, "<" * 5000, ""], start=2):
        _change(client, uri, version, (0, 0), (0, 0), junk)
    client.text_document_did_close(L.DidCloseTextDocumentParams(L.TextDocumentIdentifier(uri)))
    # still answering, and right: a clean document gets no diagnostics, a typo gets one
    other = uri.replace("model.onnxtxt", "other.onnxtxt")
    _open(client, other, GOOD)
    assert await _diagnostics(client, other) == []
    _change(client, other, 2, (2, 7), (2, 11), "Rleu")
    assert [d.code for d in await _diagnostics(client, other)] == ["E301"]


def test_settings_from_json() -> None:
    from onnxtext.host.analyse import Settings

    s = Settings.from_json({"check": {"select": "e3, W", "ignore": ["E301", ""]}, "debounceMs": 40})
    assert (s.select, s.ignore, s.debounce_ms) == (["E3", "W"], ["E301"], 40)
    bad = Settings.from_json({"check": {"select": 3}, "debounceMs": -1})
    assert (bad.select, bad.ignore, bad.debounce_ms) == (None, None, Settings().debounce_ms)
    assert Settings.from_json("nonsense") == Settings()


NESTED = """<ir_version: 8, opset_import: ["" : 18]>
main (float[2] x, bool c) => (float[2] y) {
   a = Relu (x)
   y = If (c) <
      then_branch = then_g () => (float[2] t) {
         t = Neg (a)
      },
      else_branch = else_g () => (float[2] e) { e = Identity (a) }
   >
}
"""


@pytest.mark.asyncio
async def test_document_symbols_and_folding(client: LanguageClient, uri: str) -> None:
    _open(client, uri, NESTED)
    symbols = await client.text_document_document_symbol_async(L.DocumentSymbolParams(L.TextDocumentIdentifier(uri)))
    assert symbols is not None
    (main,) = symbols
    assert isinstance(main, L.DocumentSymbol) and main.name == "main" and main.children is not None
    assert [c.name for c in main.children] == ["x", "c", "y", "a", "y"]
    if_node = main.children[-1]
    assert if_node.detail == "If" and [g.name for g in if_node.children or []] == ["then_g", "else_g"]
    folds = await client.text_document_folding_range_async(L.FoldingRangeParams(L.TextDocumentIdentifier(uri)))
    assert folds is not None
    assert {(f.start_line, f.end_line) for f in folds} >= {(1, 9), (3, 8), (4, 6)}


@pytest.mark.asyncio
async def test_semantic_tokens(client: LanguageClient, uri: str) -> None:
    text = 'g (float[2] x) => (float[2] y) {\n   y = Relu (x)  # "note"\n}\n'
    _open(client, uri, text)
    result = await client.text_document_semantic_tokens_full_async(
        L.SemanticTokensParams(L.TextDocumentIdentifier(uri))
    )
    assert result is not None
    data = result.data
    quintuples = [data[i : i + 5] for i in range(0, len(data), 5)]
    # absolute positions back from the relative encoding
    line = col = 0
    found = []
    legend = [
        "namespace",
        "type",
        "function",
        "variable",
        "parameter",
        "property",
        "keyword",
        "number",
        "string",
        "comment",
        "label",
        "operator",
    ]
    for dl, dc, length, kind, _ in quintuples:
        line += dl
        col = dc if dl else col + dc
        found.append((line, col, length, legend[kind]))
    assert (1, 3, 1, "variable") in found  # y
    assert (1, 7, 4, "function") in found  # Relu
    assert (1, 17, 8, "comment") in found


@pytest.mark.asyncio
async def test_completion_of_operators_with_documentation(client: LanguageClient, uri: str) -> None:
    text = '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n   y = Rel\n}\n'
    await _ready(client, uri, text)
    result = await client.text_document_completion_async(
        L.CompletionParams(L.TextDocumentIdentifier(uri), L.Position(2, 10))
    )
    assert isinstance(result, L.CompletionList)
    relu = next(i for i in result.items if i.label == "Relu")
    assert relu.text_edit is not None and relu.text_edit.range == L.Range(L.Position(2, 7), L.Position(2, 10))
    resolved = await client.completion_item_resolve_async(relu)
    assert isinstance(resolved.documentation, L.MarkupContent) and "**Relu**" in resolved.documentation.value


def _evaluate(client: LanguageClient, **budget: object) -> None:
    """Turn the evaluator's diagnostics on, with no delay."""
    settings = {"onnxtext": {"debounceMs": 20, "evaluate": {"enabled": True, "delayMs": 0, **budget}}}
    client.workspace_did_change_configuration(L.DidChangeConfigurationParams(settings=settings))


@pytest.mark.asyncio
async def test_runtime_error_on_made_up_inputs_is_located(client: LanguageClient, uri: str) -> None:
    _evaluate(client)
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\n'
        "g (float[N, K] x, float[4, 5] w) => (float[N, 5] y) {\n"
        "   a = Abs (x)\n"
        "   y = MatMul (a, w)\n"
        "}\n"
    )  # the checker cannot know K: the run finds the mismatch (a node the checker rejects is not run)
    _open(client, uri, text)
    diags = await _diagnostics_until(client, uri, "R001")
    (runtime,) = [d for d in diags if d.code == "R001"]
    assert runtime.severity == L.DiagnosticSeverity.Warning
    assert runtime.range.start.line == 3 and "made-up inputs: K=2, N=2" in runtime.message
    assert "Error" not in runtime.message


@pytest.mark.asyncio
async def test_model_over_budget_is_skipped_with_information(client: LanguageClient, uri: str) -> None:
    _evaluate(client, seconds=1)
    text = '<ir_version: 8, opset_import: ["" : 18]>\n' + RUNAWAY_LOOP
    _open(client, uri, text)
    diags = await _diagnostics_until(client, uri, "R000")
    (skipped,) = [d for d in diags if d.code == "R000"]
    assert skipped.severity == L.DiagnosticSeverity.Information and "longer than 1 s" in skipped.message


@pytest.mark.asyncio
async def test_live_values_code_lens_command_and_inlay_hints(client: LanguageClient, uri: str) -> None:
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[N, 3] x) => (float[N, 3] y) {\n   a = Abs (x)\n'
        "   y = Neg (a)\n}\n"
    )
    await _ready(client, uri, text)
    lenses = await client.text_document_code_lens_async(L.CodeLensParams(L.TextDocumentIdentifier(uri)))
    assert lenses is not None and len(lenses) == 1
    lens = lenses[0]
    assert lens.command is not None and lens.command.title == "▶ Run: show live values"
    assert lens.range.start == L.Position(1, 0)
    on = await client.workspace_execute_command_async(
        L.ExecuteCommandParams(command=lens.command.command, arguments=lens.command.arguments)
    )
    assert on is True
    whole = L.Range(L.Position(0, 0), L.Position(5, 0))

    async def hints() -> list[L.InlayHint]:
        while True:  # the run takes a moment: ask until its values are there
            found = await client.text_document_inlay_hint_async(L.InlayHintParams(L.TextDocumentIdentifier(uri), whole))
            if found and any(h.label.startswith(" = ") for h in found):  # type hints come first
                return found
            await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    found = await asyncio.wait_for(hints(), timeout=60)
    labels = {(h.position.line, h.position.character): h.label for h in found}
    assert labels[(2, 4)].startswith(" = float32[2, 3] min=0") and labels[(3, 4)].startswith(" = float32[2, 3]")
    assert labels[(1, 16)].startswith(" = float32[2, 3] min=-")  # the input x
    lenses = await client.text_document_code_lens_async(L.CodeLensParams(L.TextDocumentIdentifier(uri)))
    assert lenses and lenses[0].command is not None
    assert lenses[0].command.title == "■ Live values: 2 values on made-up inputs (N=2)"


@pytest.mark.asyncio
async def test_binary_model_opens_as_text_and_saves_back(client: LanguageClient, tmp_path: Path) -> None:
    import onnxtext
    from onnxtext.io import model_bytes

    path = tmp_path / "m.onnx"
    path.write_bytes(model_bytes(onnxtext.parse_model(GOOD)))
    before = path.read_bytes()
    opened = await client.protocol.send_request_async("onnxtext/openBinary", {"uri": path.as_uri()})
    assert opened.editable is True and "Relu" in opened.text
    same = await client.protocol.send_request_async("onnxtext/saveBinary", {"uri": path.as_uri(), "text": opened.text})
    assert (same.written, same.unchanged) == (False, True) and path.read_bytes() == before
    broken = await client.protocol.send_request_async(
        "onnxtext/saveBinary", {"uri": path.as_uri(), "text": opened.text.replace("Relu (x)", "Relu (x")}
    )
    assert broken.written is False and broken.diagnostics and path.read_bytes() == before
    assert broken.refused.startswith("not saved: line 7: expected ')'") and str(path) not in broken.refused
    edited = await client.protocol.send_request_async(
        "onnxtext/saveBinary", {"uri": path.as_uri(), "text": opened.text.replace("Relu", "Neg")}
    )
    assert edited.written is True and onnxtext.load(path).graph.node[0].op_type == "Neg"
    assert edited.refused is None
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"\xff\xff\xff")
    with pytest.raises(Exception, match="not a valid binary ONNX model") as refused:
        await client.protocol.send_request_async("onnxtext/openBinary", {"uri": junk.as_uri()})
    assert str(junk) not in str(refused.value)  # the editor names the file once, beside the reason


@pytest.mark.asyncio
async def test_signature_help_follows_the_input(client: LanguageClient, uri: str) -> None:
    text = '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n   y = Clip (x, \n}\n'
    await _ready(client, uri, text)
    help_ = await client.text_document_signature_help_async(
        L.SignatureHelpParams(L.TextDocumentIdentifier(uri), L.Position(2, 16))
    )
    assert help_ is not None
    assert help_.signatures[0].label == "Clip(input: T, min?: T, max?: T) -> (output: T)"
    assert help_.active_parameter == 1


NAV = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x, bool c) => (float[N, 4] y) {
   a = Softmax <axis = 1> (x)
   y = If (c) <then_branch = t () => (float[N, 4] u) { u = Neg (a) }, else_branch = e () => (float[N, 4] v) { v = Abs (a) }>
}
"""  # noqa: E501 (the If stays on one line: the tests point at its columns)


def _pos(text: str, word: str, shift: int = 0) -> L.Position:
    offset = text.index(word) + shift
    line = text.count("\n", 0, offset)
    return L.Position(line, offset - (text.rfind("\n", 0, offset) + 1))


@pytest.mark.asyncio
async def test_hover_definition_references_highlight(client: LanguageClient, uri: str) -> None:
    await _ready(client, uri, NAV)
    doc = L.TextDocumentIdentifier(uri)
    hover = await client.text_document_hover_async(L.HoverParams(doc, _pos(NAV, "Softmax", 2)))
    assert hover is not None and isinstance(hover.contents, L.MarkupContent)
    assert hover.contents.value.startswith("**Softmax** — ai.onnx, version 13")
    value = await client.text_document_hover_async(L.HoverParams(doc, _pos(NAV, "Neg (a)", 5)))
    assert value is not None and isinstance(value.contents, L.MarkupContent) and "`float[N, 4]`" in value.contents.value
    defs = await client.text_document_definition_async(L.DefinitionParams(doc, _pos(NAV, "Neg (a)", 5)))
    assert isinstance(defs, list) and [d.range.start for d in defs] == [L.Position(2, 3)]
    refs = await client.text_document_references_async(
        L.ReferenceParams(
            text_document=doc, position=_pos(NAV, "a = Softmax"), context=L.ReferenceContext(include_declaration=True)
        )
    )
    assert refs is not None and [r.range.start for r in refs] == [
        L.Position(2, 3),
        _pos(NAV, "Neg (a)", 5),
        _pos(NAV, "Abs (a)", 5),
    ]
    marks = await client.text_document_document_highlight_async(
        L.DocumentHighlightParams(doc, _pos(NAV, "a = Softmax"))
    )
    assert marks is not None and [m.kind for m in marks] == [
        L.DocumentHighlightKind.Write,
        L.DocumentHighlightKind.Read,
        L.DocumentHighlightKind.Read,
    ]


@pytest.mark.asyncio
async def test_rename_and_its_refusal(client: LanguageClient, uri: str) -> None:
    await _ready(client, uri, NAV)
    doc = L.TextDocumentIdentifier(uri)
    where = _pos(NAV, "a = Softmax")
    prepared = await client.text_document_prepare_rename_async(L.PrepareRenameParams(doc, where))
    assert prepared == L.Range(L.Position(2, 3), L.Position(2, 4))
    edit = await client.text_document_rename_async(L.RenameParams(doc, where, "probs"))
    assert edit is not None and edit.document_changes is not None
    change = edit.document_changes[0]
    assert isinstance(change, L.TextDocumentEdit) and [e.new_text for e in change.edits] == ["probs"] * 3
    with pytest.raises(Exception, match="already a value"):
        await client.text_document_rename_async(L.RenameParams(doc, where, "u"))


@pytest.mark.asyncio
async def test_selection_ranges_grow_outwards(client: LanguageClient, uri: str) -> None:
    await _ready(client, uri, NAV)
    found = await client.text_document_selection_range_async(
        L.SelectionRangeParams(L.TextDocumentIdentifier(uri), [_pos(NAV, "axis", 1)])
    )
    assert found is not None
    chain, spans = found[0], []
    while chain is not None:
        spans.append(chain.range)
        chain = chain.parent
    assert spans[0] == L.Range(L.Position(2, 16), L.Position(2, 20))  # the attribute name
    assert all(_contains(b, a) for a, b in zip(spans, spans[1:], strict=False))


def _contains(outer: L.Range, inner: L.Range) -> bool:
    return (outer.start.line, outer.start.character) <= (inner.start.line, inner.start.character) and (
        outer.end.line,
        outer.end.character,
    ) >= (inner.end.line, inner.end.character)


@pytest.mark.asyncio
async def test_type_inlay_hints_in_every_graph(client: LanguageClient, uri: str) -> None:
    await _ready(client, uri, NAV)
    hints = await client.text_document_inlay_hint_async(
        L.InlayHintParams(L.TextDocumentIdentifier(uri), L.Range(L.Position(0, 0), L.Position(5, 0)))
    )
    assert hints is not None
    labels = {(h.position.line, h.position.character): h.label for h in hints}
    assert labels[(2, 4)] == ": float[N, 4]"  # a
    assert labels[(3, 4)] == ": float[N, 4]"  # y
    assert any(
        label == ": float[N, 4]" and line == 3 and char > 50 for (line, char), label in labels.items()
    )  # u in a branch


async def _slow_analysis(client: LanguageClient, uri: str) -> None:
    """A 5 s debounce (the open document analysed once more, at once): a request sent right
    after a change then surely comes before the change's analysis."""
    settings = {"onnxtext": {"debounceMs": 5000, "evaluate": {"enabled": False}}}
    client.workspace_did_change_configuration(L.DidChangeConfigurationParams(settings=settings))
    await _diagnostics(client, uri)


@pytest.mark.asyncio
async def test_inlay_hints_do_not_drop_right_after_a_change(client: LanguageClient, uri: str) -> None:
    """Right after a keystroke the hints come from the last analysis, moved with the edit (an
    empty answer made every hinted line jump twice per edit)."""
    await _ready(client, uri, NAV)
    await _slow_analysis(client, uri)
    whole = L.Range(L.Position(0, 0), L.Position(20, 0))

    async def hints() -> dict[tuple[int, int], str]:
        found = await client.text_document_inlay_hint_async(L.InlayHintParams(L.TextDocumentIdentifier(uri), whole))
        return {(h.position.line, h.position.character): str(h.label) for h in found or []}

    before = await hints()
    assert before[(2, 4)] == ": float[N, 4]"
    _change(client, uri, 2, (2, 3), (2, 3), "  ")  # two spaces before the `a` of line 2
    after = await hints()  # asked before the new analysis (debounced) is ready
    assert len(after) == len(before)
    assert after[(2, 6)] == ": float[N, 4]"  # moved with its name
    assert after[(3, 4)] == before[(3, 4)]  # another line: unchanged


@pytest.mark.asyncio
async def test_quick_fixes_right_after_a_change(client: LanguageClient, uri: str) -> None:
    """A quick fix asked for right after a keystroke comes from the last analysis, moved with the edit."""
    await _ready(client, uri, TYPO)
    await _slow_analysis(client, uri)
    _change(client, uri, 2, (1, 0), (1, 0), "\n")  # a line inserted above the typo (now on line 3)
    where = L.Range(L.Position(3, 7), L.Position(3, 11))
    actions = await client.text_document_code_action_async(
        L.CodeActionParams(L.TextDocumentIdentifier(uri), where, L.CodeActionContext(diagnostics=[]))
    )
    assert actions and actions[0].title == "write 'Relu'"  # type: ignore[union-attr]
    (edit,) = actions[0].edit.document_changes[0].edits  # type: ignore[union-attr, index]
    assert edit.range == where and edit.new_text == "Relu"


@pytest.mark.asyncio
async def test_inputs_file_next_to_the_text_feeds_the_run(client: LanguageClient, tmp_path: Path) -> None:
    import json

    path = tmp_path / "m.onnxtxt"
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (int64[N] idx, float[3, 2] table) => (float[N, 2] y) {\n'
        "   y = Gather (table, idx)\n}\n"
    )
    path.write_text(text)
    (tmp_path / "m.onnxtxt.inputs.json").write_text(json.dumps({"idx": [7]}))  # out of range: a real error
    _evaluate(client)
    _open(client, path.as_uri(), text)
    diags = await _diagnostics_until(client, path.as_uri(), "R001")
    (runtime,) = [d for d in diags if d.code == "R001"]
    assert runtime.range.start.line == 2 and "given and made-up inputs" in runtime.message


@pytest.mark.asyncio
async def test_related_location_and_quick_fix(client: LanguageClient, uri: str) -> None:
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n   a = Relu (x)\n'
        "   a = Neg (x)\n   y = Rleu (a)\n}\n"
    )
    diags = await _ready(client, uri, text)
    redefined = next(d for d in diags if d.range.start.line == 3)
    assert redefined.related_information and redefined.related_information[0].location.range.start == L.Position(2, 3)
    assert redefined.related_information[0].message == "first defined here"
    typo = next(d for d in diags if d.code == "E301")
    actions = await client.text_document_code_action_async(
        L.CodeActionParams(L.TextDocumentIdentifier(uri), typo.range, L.CodeActionContext(diagnostics=[typo]))
    )
    assert actions is not None
    fix = next(a for a in actions if isinstance(a, L.CodeAction) and a.edit is not None)
    change = fix.edit.document_changes[0]  # type: ignore[index, union-attr]
    assert isinstance(change, L.TextDocumentEdit) and [e.new_text for e in change.edits] == ["Relu"]
    assert fix.is_preferred


@pytest.mark.asyncio
async def test_deprecated_operators_are_marked_through_the_document_resolution(
    client: LanguageClient, uri: str
) -> None:
    text = (
        '<ir_version: 5, opset_import: ["" : 10]>\ng (float[2] x, float[2] s) => (float[4] y) {\n'
        "   y = Upsample (x, s)\n}\n"
    )
    await _ready(client, uri, text)
    result = await client.text_document_semantic_tokens_full_async(
        L.SemanticTokensParams(L.TextDocumentIdentifier(uri))
    )
    assert result is not None
    data = result.data
    line = col = 0
    for i in range(0, len(data), 5):
        dl, dc, length, _, bits = data[i : i + 5]
        line += dl
        col = dc if dl else col + dc
        if (line, col, length) == (2, 7, 8):  # Upsample
            assert bits & 4  # the "deprecated" modifier
            break
    else:
        raise AssertionError("no token for Upsample")


async def _published(client: LanguageClient, uri: str, version: int) -> L.PublishDiagnosticsParams:
    """The diagnostics published for ``uri`` at ``version`` (earlier versions' are skipped)."""

    async def wait() -> L.PublishDiagnosticsParams:
        while True:
            params = await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and params.version == version:
                return params  # type: ignore[no-any-return]

    return await asyncio.wait_for(wait(), timeout=60)


@pytest.mark.asyncio
async def test_a_damaged_attribute_beside_an_intact_one_is_published(client: LanguageClient, uri: str) -> None:
    """The version is published with its diagnostics; the checker's fix for 'axs' once took the damaged
    attribute for it and the analysis died, leaving the last version's squiggles (issue #29, item 12)."""
    _open(client, uri, GOOD)
    assert await _diagnostics(client, uri) == []
    _change(client, uri, 2, (2, 7), (2, 15), 'Softmax <"", axs = 1> (x)')
    published = await _published(client, uri, 2)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in published.diagnostics] == [
        ("P001", 2, 16),
        ("E305", 2, 20),
    ]


@pytest.mark.asyncio
async def test_import_opset_quick_fix_on_a_legacy_header(client: LanguageClient, uri: str) -> None:
    """'[{version: 11}]', as legacy torch exports print the import: the fix is a code action editing it (#29)."""
    text = "<ir_version: 8, opset_import: [{version: 11}]>\ng (float[2] x) => (float[2] y) {\n   y = Gelu (x)\n}\n"
    (diag,) = await _ready(client, uri, text)
    actions = await client.text_document_code_action_async(
        L.CodeActionParams(L.TextDocumentIdentifier(uri), diag.range, L.CodeActionContext(diagnostics=[diag]))
    )
    fixes = [a for a in actions or [] if isinstance(a, L.CodeAction) and a.kind == L.CodeActionKind.QuickFix]
    assert [a.title for a in fixes] == ["import opset 20"]  # (the gestures on the node follow: ide/gestures)
    change = fixes[0].edit.document_changes[0]  # type: ignore[index, union-attr]
    assert isinstance(change, L.TextDocumentEdit)
    assert [(e.range.start.line, e.range.start.character, e.new_text) for e in change.edits] == [(0, 41, "20")]


@pytest.mark.asyncio
async def test_every_fix_of_a_code_at_once(client: LanguageClient, uri: str) -> None:
    """An input's shape set by hand leaves the declarations downstream behind: each E704 has its quick
    fix, and one action applies every E704 fix of the file; the text it makes checks clean."""
    from onnxtext.api import check

    text = (
        '<ir_version: 10, opset_import: ["" : 21]>\n'
        "g (float[2, 4] x) => (float[1, 4] y)\n<float[1, 4] a, float[1, 4] b>\n"
        "{\n   a = Relu (x)\n   b = Relu (a)\n   y = Neg (b)\n}\n"
    )
    diags = await _ready(client, uri, text)
    assert [d.code for d in diags] == ["E704", "E704", "E704"]
    at = next(d for d in diags if d.range.start.line == 2)
    actions = await client.text_document_code_action_async(
        L.CodeActionParams(L.TextDocumentIdentifier(uri), at.range, L.CodeActionContext(diagnostics=[at]))
    )
    fixes = [a for a in actions or [] if isinstance(a, L.CodeAction) and a.kind == L.CodeActionKind.QuickFix]
    assert [a.title for a in fixes] == ["declare it as inferred: float[2, 4]", "Apply every E704 fix in the file (3)"]
    change = fixes[1].edit.document_changes[0]  # type: ignore[index, union-attr]
    assert isinstance(change, L.TextDocumentEdit)
    lines = text.split("\n")
    for e in sorted(change.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        assert e.range.start.line == e.range.end.line
        line = lines[e.range.start.line]
        lines[e.range.start.line] = line[: e.range.start.character] + e.new_text + line[e.range.end.character :]
    fixed = "\n".join(lines)
    assert "=> (float[2, 4] y)\n<float[2, 4] a, float[2, 4] b>" in fixed
    assert [d.code for d in check(fixed)] == []
