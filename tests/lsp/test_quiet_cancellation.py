"""A superseded analysis ends in ``Cancelled``, which is normal: the server never logs it
(issue #29, item 7: ``Future exception was never retrieved … Cancelled`` tracebacks in the
editor's output channel while typing).

Through a real server whose stderr goes to a file, read once it has exited; and in process,
the wait for a worker's job under a loop exception handler (asyncio's report of an exception
nobody retrieved).
"""

from __future__ import annotations

import asyncio
import gc
import shlex
import sys
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from conftest import _env, start_session
from lsprotocol import types as L
from pytest_lsp import make_test_lsp_client

from onnxtext.host.analyse import Cancelled

STATEMENTS = 1000


def _text(version: int) -> str:
    lines = [f'<ir_version: {8 + version % 2}, opset_import: ["" : 18]>', "g (float[N, 16] X0) => (float[N, 16] Y) {"]
    lines += [f"   X{i + 1} = Relu (X{i})" for i in range(STATEMENTS)]
    lines += [f"   Y = Identity (X{STATEMENTS})", "}"]
    return "\n".join(lines) + "\n"


@pytest.mark.asyncio
async def test_a_burst_of_edits_logs_no_cancelled_analysis(tmp_path: Path) -> None:
    """Header edits sent back to back (each parsed whole by the worker, the next one cancelling it),
    hovers between them: the server's stderr holds no traceback and no ``Cancelled``."""
    log = tmp_path / "stderr.txt"
    client = make_test_lsp_client()
    command = shlex.join([sys.executable, "-m", "onnxtext", "lsp"])
    await client.start_io("/bin/sh", "-c", f"exec {command} 2>{shlex.quote(str(log))}", env=_env())
    await start_session(client, {"onnxtext": {"debounceMs": 0, "evaluate": {"enabled": False}}})
    uri = (tmp_path / "m.onnxtxt").as_uri()
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, _text(1))))
    await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    last = 40
    for version in range(2, last + 1):
        edit = L.TextDocumentContentChangePartial(
            range=L.Range(L.Position(0, 13), L.Position(0, 14)), text=str(8 + version % 2)
        )
        client.text_document_did_change(
            L.DidChangeTextDocumentParams(L.VersionedTextDocumentIdentifier(uri=uri, version=version), [edit])
        )
        if version % 3 == 0:
            await client.text_document_hover_async(L.HoverParams(L.TextDocumentIdentifier(uri), L.Position(3, 4)))

    async def published_last() -> L.PublishDiagnosticsParams:
        while True:
            params = await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and params.version == last:
                return params  # type: ignore[no-any-return]

    assert list((await asyncio.wait_for(published_last(), timeout=120)).diagnostics) == []
    await client.shutdown_session()  # the server exits: its stderr is all in the file
    await client.stop()
    said = log.read_text()
    assert "never retrieved" not in said and "Cancelled" not in said and "Traceback" not in said, said[-3000:]


def _reported(loop: asyncio.AbstractEventLoop) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _, context: found.append(context))
    return found


@pytest.mark.asyncio
async def test_waiting_for_a_cancelled_job_leaves_nothing_unretrieved() -> None:
    from onnxtext.host.documents import ended

    reported = _reported(asyncio.get_running_loop())
    job: Future[None] = Future()
    waiting = asyncio.ensure_future(ended(job))
    await asyncio.sleep(0)  # the wait has begun (a step of the loop, not a delay)
    job.set_running_or_notify_cancel()
    job.set_exception(Cancelled())
    await waiting
    # a wait that was itself cancelled (its run superseded) before the job ended
    job = Future()
    waiting = asyncio.ensure_future(ended(job))
    await asyncio.sleep(0)
    waiting.cancel()
    job.set_running_or_notify_cancel()
    job.set_exception(Cancelled())
    await asyncio.wait({waiting})
    for _ in range(3):  # the futures' ends reach the loop, then they go
        await asyncio.sleep(0)
    del job, waiting
    gc.collect()
    assert reported == []
