"""A client in an untrusted workspace (VS Code's Restricted Mode) says so at start
(``workspaceTrusted: false`` in the initialization options): the server then runs no model and
reads no inputs file a workspace names; highlighting, diagnostics and the rest keep working."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp.conftest import _env, start_session
from lsprotocol import types as L
from pytest_lsp import ClientServerConfig, LanguageClient

from onnxtext.host.analyse import RUNTIME, RUNTIME_SKIPPED, UNTRUSTED, Settings, diagnose, evaluate
from onnxtext.lsp.requests import UNTRUSTED_COMPARE

# runs into a shape error (MatMul of [N, 3] by [4, 5]) when it runs
FAILING = (
    '<ir_version: 8, opset_import: ["" : 18]>\n'
    "g (float[N, 3] x, float[4, 5] w) => (float[N, 5] y) {\n"
    "   a = Abs (x)\n"
    "   y = MatMul (a, w)\n"
    "}\n"
)
EVALUATE = {"debounceMs": 20, "evaluate": {"enabled": True, "delayMs": 0, "inputs": {"x": "x.npy"}}}


def _model(tmp_path: Path) -> Path:
    """The failing model, with an inputs file next to it that cannot be read (a folder)."""
    path = tmp_path / "m.onnxtxt"
    path.write_text(FAILING)
    (tmp_path / "m.onnxtxt.inputs.json").mkdir()
    return path


def test_untrusted_evaluation_reads_no_inputs_file_and_runs_nothing(tmp_path: Path) -> None:
    path = _model(tmp_path)
    settings = Settings.from_json(EVALUATE)
    outcome = diagnose(FAILING, str(path), settings)
    assert outcome.document.ok
    # trusted, the inputs file is read (and refused): the same call can fail
    _, found = evaluate(outcome, settings, str(path))
    assert [(d.code, "inputs.json" in d.message) for d in found] == [(RUNTIME_SKIPPED, True)]
    assert evaluate(outcome, settings, str(path), trusted=False) == (None, [])
    live, found = evaluate(outcome, settings, str(path), live=True, trusted=False)
    assert live is not None and live.skipped == UNTRUSTED and live.values == [] and found == []


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "onnxtext", "lsp"], server_env=_env()),
)
async def untrusted(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await start_session(lsp_client, {"onnxtext": EVALUATE, "workspaceTrusted": False})
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_untrusted_server_checks_but_live_values_wait(untrusted: LanguageClient, tmp_path: Path) -> None:
    path = _model(tmp_path)
    uri = path.as_uri()
    typo = FAILING.replace("Abs", "Abss")
    untrusted.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, typo)))
    # the checker still speaks: the unknown operator at (line 3, col 8), 1-based
    diags = await asyncio.wait_for(_published(untrusted, uri), timeout=60)
    assert [(d.range.start.line + 1, d.range.start.character + 1) for d in diags if "Abss" in d.message] == [(3, 8)]
    change = L.TextDocumentContentChangeWholeDocument(text=FAILING)
    untrusted.text_document_did_change(
        L.DidChangeTextDocumentParams(L.VersionedTextDocumentIdentifier(uri=uri, version=2), [change])
    )
    # a workspace's own settings cannot claim trust: only the client's initialization options do
    settings = {"onnxtext": {**EVALUATE, "workspaceTrusted": True}, "workspaceTrusted": True}
    untrusted.workspace_did_change_configuration(L.DidChangeConfigurationParams(settings=settings))
    on = await untrusted.workspace_execute_command_async(
        L.ExecuteCommandParams(command="onnxtext.toggleLiveValues", arguments=[uri])
    )
    assert on is True

    async def lens() -> str:
        while True:
            # waiting before asking: the last publish may come between the answer and a later wait
            published = asyncio.ensure_future(untrusted.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))
            found = await untrusted.text_document_code_lens_async(L.CodeLensParams(L.TextDocumentIdentifier(uri)))
            title = found[0].command.title if found and found[0].command is not None else ""
            if "not run" in title:
                published.cancel()
                return title
            await published

    assert await asyncio.wait_for(lens(), timeout=60) == f"■ Live values: not run ({UNTRUSTED})"
    assert not [d for d in untrusted.diagnostics.get(uri, []) if d.code in (RUNTIME, RUNTIME_SKIPPED)]
    # nor does comparing the values of two versions run them
    ask = {"textDocument": {"uri": uri}, "a": {"uri": uri, "text": FAILING.replace("Abs", "Neg")}}
    compared = await untrusted.protocol.send_request_async("onnxtext/compareValues", ask)
    assert compared.values is None and compared.reason == UNTRUSTED_COMPARE


async def _published(client: LanguageClient, uri: str) -> list[L.Diagnostic]:
    while uri not in client.diagnostics:
        await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])
