"""The gestures through a real client: code actions on the statement, their workspace edit applied."""

from __future__ import annotations

import ast
import asyncio
from typing import Any

import pytest
from lsprotocol import types as L
from pytest_lsp import LanguageClient

from onnxtext import parse_model, surgery
from onnxtext.proto import ModelProto

TEXT = """<ir_version: 10, opset_import: ["" : 21]>
g (float[N, 4] x) => (float[N, 4] y)
<float[4] w = {1, 2, 3, 4}>
{
   a = Add (x, w)
   b = Identity (a)
   y = Relu (b)
}
"""


async def _analysed(client: LanguageClient, uri: str, text: str, version: int) -> None:
    """Open (version 1) or replace the text, and wait until its diagnostics are published."""
    client.diagnostics.pop(uri, None)
    if version == 1:
        item = L.TextDocumentItem(uri, "onnxtext", version, text)
        client.text_document_did_open(L.DidOpenTextDocumentParams(item))
    else:
        change = L.TextDocumentContentChangeWholeDocument(text=text)
        ident = L.VersionedTextDocumentIdentifier(uri=uri, version=version)
        client.text_document_did_change(L.DidChangeTextDocumentParams(ident, [change]))

    async def wait() -> None:
        while uri not in client.diagnostics:
            await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    await asyncio.wait_for(wait(), timeout=60)


def _position(text: str, offset: int) -> L.Position:
    line = text.count("\n", 0, offset)
    return L.Position(line, offset - (text.rfind("\n", 0, offset) + 1))


def _apply(text: str, edits: list[L.TextEdit]) -> str:
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(p: L.Position) -> int:
        return starts[p.line] + p.character

    for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


async def _actions(client: LanguageClient, uri: str, text: str, needle: str) -> dict[str, list[L.TextEdit]]:
    at = _position(text, text.index(needle))
    found = await client.text_document_code_action_async(
        L.CodeActionParams(L.TextDocumentIdentifier(uri), L.Range(at, at), L.CodeActionContext(diagnostics=[]))
    )
    actions: dict[str, list[L.TextEdit]] = {}
    for action in found or []:
        if _commanded(action) is not None:
            continue  # Insert a node, Rename value, Copy node: the client's commands (tested below)
        assert isinstance(action, L.CodeAction) and action.edit is not None and action.edit.document_changes
        (change,) = action.edit.document_changes
        assert isinstance(change, L.TextDocumentEdit) and change.text_document.uri == uri
        if action.kind == L.CodeActionKind.RefactorRewrite:
            actions[action.title] = list(change.edits)
    return actions


def _commanded(action: L.Command | L.CodeAction, name: str | None = None) -> dict[str, Any] | None:
    """A code action running one of the extension's commands (*Insert a node*, *Rename value*; ``name``
    if given) as sent: lsprotocol's client reads any code action that has a ``command`` as a Command
    (its hook looks for the key), the action's command then a dict's text."""
    if isinstance(action, L.Command) and action.command.startswith("{"):
        sent = ast.literal_eval(action.command)
        wanted = {name} if name else {"onnxtext.insertNode", "onnxtext.renameValue", "onnxtext.copyNodesAt"}
        if isinstance(sent, dict) and sent.get("command") in wanted:
            return {"title": action.title, "command": sent}
    return None


def _edited(model: ModelProto, *steps: tuple[str, str]) -> bytes:
    out = ModelProto()
    out.CopyFrom(model)
    for op, name in steps:
        {"delete": surgery.delete_node, "output": surgery.add_output, "input": surgery.initializer_to_input}[op](
            out, name
        )
    return out.SerializeToString(deterministic=True)


@pytest.mark.asyncio
async def test_gestures_applied_by_the_client_give_the_edited_model(client: LanguageClient, uri: str) -> None:
    original = parse_model(TEXT)
    await _analysed(client, uri, TEXT, 1)
    actions = await _actions(client, uri, TEXT, "b = Identity")
    assert list(actions) == ["Delete node 'b' (its readers read 'a')", "Make 'b' a graph output (float[N, 4])"]
    deleted = _apply(TEXT, actions["Delete node 'b' (its readers read 'a')"])
    assert "   y = Relu (a)\n" in deleted and "Identity" not in deleted
    assert parse_model(deleted).SerializeToString(deterministic=True) == _edited(original, ("delete", "b"))

    await _analysed(client, uri, deleted, 2)  # the next gesture on the edited text, as after an apply
    actions = await _actions(client, uri, deleted, "a = Add")
    exported = _apply(deleted, actions["Make 'a' a graph output (float[N, 4])"])
    expected = _edited(original, ("delete", "b"), ("output", "a"))
    assert parse_model(exported).SerializeToString(deterministic=True) == expected

    await _analysed(client, uri, exported, 3)
    actions = await _actions(client, uri, exported, "float[4] w")
    assert list(actions) == ["Make 'w' a graph input (its values dropped)"]
    inputs = _apply(exported, actions["Make 'w' a graph input (its values dropped)"])
    assert inputs.startswith(
        TEXT.split("\n")[0] + "\ng (float[N, 4] x, float[4] w) => (float[N, 4] y, float[N, 4] a)\n{"
    )
    expected = _edited(original, ("delete", "b"), ("output", "a"), ("input", "w"))
    assert parse_model(inputs).SerializeToString(deterministic=True) == expected

    await _analysed(client, uri, inputs, 4)
    actions = await _actions(client, uri, inputs, "float[N, 4] x")
    shape = _apply(inputs, actions["Set dimension 0 of 'x' (N) to 1"])
    assert "g (float[1, 4] x, float[4] w)" in shape


@pytest.mark.asyncio
async def test_extract_to_model_creates_the_file_beside(client: LanguageClient, uri: str) -> None:
    await _analysed(client, uri, TEXT, 1)
    start, end = _position(TEXT, TEXT.index("b = Identity")), _position(TEXT, TEXT.index("y = Relu") + 4)
    found = await client.text_document_code_action_async(
        L.CodeActionParams(L.TextDocumentIdentifier(uri), L.Range(start, end), L.CodeActionContext(diagnostics=[]))
    )
    (action,) = [a for a in found or [] if isinstance(a, L.CodeAction) and "new model" in a.title]
    assert action.title == "Extract 2 nodes to a new model" and action.edit is not None
    create, fill = action.edit.document_changes or []
    target = uri.removesuffix(".onnxtxt") + ".extract.onnxtxt"
    assert isinstance(create, L.CreateFile) and create.uri == target
    assert isinstance(fill, L.TextDocumentEdit) and fill.text_document.uri == target
    sub = parse_model(fill.edits[0].new_text)
    expected = surgery.extract(parse_model(TEXT), ["a"], ["y"]).model
    assert sub.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)


@pytest.mark.asyncio
async def test_a_selection_is_extracted_only_when_the_actions_are_asked_for(client: LanguageClient, uri: str) -> None:
    """The editor asks for code actions on its own as the selection moves (the light bulb): the
    extractions, which build and print a sub-model, are offered when the user asks (the menu, Ctrl+.)."""
    await _analysed(client, uri, TEXT, 1)
    start, end = _position(TEXT, TEXT.index("b = Identity")), _position(TEXT, TEXT.index("y = Relu") + 4)
    titles = {}
    for kind in (L.CodeActionTriggerKind.Automatic, L.CodeActionTriggerKind.Invoked):
        context = L.CodeActionContext(diagnostics=[], trigger_kind=kind)
        found = await client.text_document_code_action_async(
            L.CodeActionParams(L.TextDocumentIdentifier(uri), L.Range(start, end), context)
        )
        titles[kind] = [a.title for a in found or [] if isinstance(a, L.CodeAction)]
    assert not any("Extract" in t for t in titles[L.CodeActionTriggerKind.Automatic])
    assert "Delete node 'b' (its readers read 'a')" in titles[L.CodeActionTriggerKind.Automatic]
    assert "Extract 2 nodes to a new model" in titles[L.CodeActionTriggerKind.Invoked]


@pytest.mark.asyncio
async def test_moving_statements_into_a_function_through_the_client(client: LanguageClient, uri: str) -> None:
    await _analysed(client, uri, TEXT, 1)
    start, end = _position(TEXT, TEXT.index("a = Add")), _position(TEXT, TEXT.index("b = Identity") + 3)
    found = await client.text_document_code_action_async(
        L.CodeActionParams(L.TextDocumentIdentifier(uri), L.Range(start, end), L.CodeActionContext(diagnostics=[]))
    )
    (action,) = [a for a in found or [] if isinstance(a, L.CodeAction) and "local function" in a.title]
    assert action.title == "Extract 2 nodes to a local function (local.Extracted)" and action.edit is not None
    (change,) = action.edit.document_changes or []
    assert isinstance(change, L.TextDocumentEdit)
    moved = _apply(TEXT, list(change.edits))
    assert "   b = local.Extracted (x, w)\n   y = Relu (b)\n" in moved
    expected = parse_model(TEXT)
    surgery.extract_function(expected, ["a", "b"], "Extracted")
    assert parse_model(moved).SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)


@pytest.mark.asyncio
async def test_insert_a_node_through_the_client(client: LanguageClient, uri: str) -> None:
    await _analysed(client, uri, TEXT, 1)
    at = _position(TEXT, TEXT.index("(a)") + 1)  # the cursor on Identity's input 'a'
    found = await client.text_document_code_action_async(
        L.CodeActionParams(L.TextDocumentIdentifier(uri), L.Range(at, at), L.CodeActionContext(diagnostics=[]))
    )
    (action,) = [sent for sent in (_commanded(a, "onnxtext.insertNode") for a in found or []) if sent is not None]
    assert action["title"] == "Insert a node on 'a'…" and action["command"]["arguments"] == [uri, 1, "a"]

    listed = await client.protocol.send_request_async(
        "onnxtext/insertNode", {"textDocument": {"uri": uri}, "value": "a"}
    )
    names = {(o.domain, o.name): o for o in listed.operators}
    assert listed.value == "a" and listed.version == 1 and ("", "Relu") in names and ("", "Constant") not in names
    assert names[("", "Concat")].required == ["axis"]

    made = await client.protocol.send_request_async(
        "onnxtext/insertNode", {"textDocument": {"uri": uri}, "value": "a", "op": {"domain": "", "name": "Concat"}}
    )
    assert made.title == "Insert Concat on 'a'" and made.name == "a_concat"
    assert made.snippet.text == "   a_concat = Concat <axis = ${1:0}> (a)\n"

    def position(p: Any) -> L.Position:
        return L.Position(p.line, p.character)

    edits = [L.TextEdit(L.Range(position(e.range.start), position(e.range.end)), e.newText) for e in made.edits]
    start = position(made.snippet.range.start)
    plain = "   a_concat = Concat <axis = 0> (a)\n"
    inserted = _apply(TEXT, [*edits, L.TextEdit(L.Range(start, start), plain)])
    assert "   a = Add (x, w)\n   a_concat = Concat <axis = 0> (a)\n   b = Identity (a_concat)\n" in inserted
    model = parse_model(inserted)
    assert [n.op_type for n in model.graph.node] == ["Add", "Concat", "Identity", "Relu"]

    refused = await client.protocol.send_request_async(
        "onnxtext/insertNode", {"textDocument": {"uri": uri}, "value": "nowhere"}
    )
    assert "nowhere" in refused.refused


@pytest.mark.asyncio
async def test_paste_nodes_from_another_model_through_the_client(client: LanguageClient, uri: str) -> None:
    await _analysed(client, uri, TEXT, 1)
    source = '<ir_version: 10, opset_import: ["" : 21]>\nh (float[N, 4] x) => (float[N, 4] a)\n'
    source += "<float[4] w = {5, 5, 5, 5}>\n{\n   a = Mul (x, w)\n}\n"
    copied = {"start": {"line": 4, "character": 3}, "end": {"line": 4, "character": 17}}
    at = _position(TEXT, TEXT.index("   y = Relu"))
    params = {
        "textDocument": {"uri": uri},
        "position": {"line": at.line, "character": at.character},
        "source": {"uri": "file:///other.onnxtxt", "text": source, "range": copied},
    }
    pasted = await client.protocol.send_request_async("onnxtext/pasteNodes", params)
    assert pasted.title == "Pasted 1 node, 1 initializer; renamed a → a_2, w → w_2" and pasted.version == 1
    assert pasted.notes == []  # both models import ai.onnx 21

    def position(p: Any) -> L.Position:
        return L.Position(p.line, p.character)

    edits = [L.TextEdit(L.Range(position(e.range.start), position(e.range.end)), e.newText) for e in pasted.edits]
    out = _apply(TEXT, edits)
    assert "<float[4] w = {1, 2, 3, 4}, float[4] w_2 = {5, 5, 5, 5}>" in out
    assert "   b = Identity (a)\n   a_2 = Mul (x, w_2)\n   y = Relu (b)\n" in out
    assert [n.op_type for n in parse_model(out).graph.node] == ["Add", "Identity", "Mul", "Relu"]
    params["position"] = {"line": 0, "character": 0}
    refused = await client.protocol.send_request_async("onnxtext/pasteNodes", params)
    assert "not in the main graph's body" in refused.refused


async def _commands_at(client: LanguageClient, uri: str, offset: int, name: str) -> list[dict[str, Any]]:
    """The code actions at ``offset`` of :data:`TEXT` that run the extension's command ``name``."""
    at = _position(TEXT, offset)
    found = await client.text_document_code_action_async(
        L.CodeActionParams(L.TextDocumentIdentifier(uri), L.Range(at, at), L.CodeActionContext(diagnostics=[]))
    )
    return [sent for sent in (_commanded(a, name) for a in found or []) if sent is not None]


@pytest.mark.asyncio
async def test_rename_a_value_from_the_graph_menu_through_the_client(client: LanguageClient, uri: str) -> None:
    """*Rename value 'b'…* (the graph's menu on a node): the extension's command with the value and
    where it is named; the client then asks textDocument/rename there, the same edit as F2's."""
    await _analysed(client, uri, TEXT, 1)
    at = _position(TEXT, TEXT.index("b = Identity"))
    (action,) = await _commands_at(client, uri, TEXT.index("b = Identity"), "onnxtext.renameValue")
    assert action["title"] == "Rename value 'b'…"
    u, version, value, where = action["command"]["arguments"]
    assert (u, version, value) == (uri, 1, "b") and (where["line"], where["character"]) == (at.line, at.character)
    renamed = await client.text_document_rename_async(
        L.RenameParams(L.TextDocumentIdentifier(uri), L.Position(where["line"], where["character"]), "hidden")
    )
    assert renamed is not None and renamed.document_changes
    (change,) = renamed.document_changes
    assert isinstance(change, L.TextDocumentEdit) and change.text_document.version == 1
    out = _apply(TEXT, list(change.edits))
    assert "   hidden = Identity (a)\n   y = Relu (hidden)\n" in out
    assert [n.output for n in parse_model(out).graph.node][1] == ["hidden"]
    with pytest.raises(Exception, match="the same graph would define it twice"):
        await client.text_document_rename_async(
            L.RenameParams(L.TextDocumentIdentifier(uri), L.Position(where["line"], where["character"]), "a")
        )
    # a graph input's declaration offers its name
    found = await _commands_at(client, uri, TEXT.index("float[N, 4] x") + 3, "onnxtext.renameValue")
    assert [sent["title"] for sent in found] == ["Rename value 'x'…"]


@pytest.mark.asyncio
async def test_copy_a_node_from_the_graph_menu_through_the_client(client: LanguageClient, uri: str) -> None:
    """*Copy node 'b'…* (the graph's menu): the extension's Copy Nodes of the statement's lines."""
    await _analysed(client, uri, TEXT, 1)
    (action,) = await _commands_at(client, uri, TEXT.index("b = Identity"), "onnxtext.copyNodesAt")
    assert action["title"] == "Copy node 'b' (to paste into another model with what it needs)"
    u, lines = action["command"]["arguments"]
    assert u == uri and (lines["start"], lines["end"]) == ({"line": 5, "character": 0}, {"line": 6, "character": 0})
    assert await _commands_at(client, uri, TEXT.index("<float[4] w"), "onnxtext.copyNodesAt") == []  # no node there
