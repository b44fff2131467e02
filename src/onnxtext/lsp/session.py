"""The language server's state: open documents, their latest analysis, scheduling, binary views.

The handlers (``lsp/requests.py``) are thin; the logic lives in ``ide/`` and the other plain modules.

Diagnostics are recomputed after each change, debounced per document; a newer version
cancels the pending run (and the running one between stages), and a result for a
version that is no longer current is dropped, never published.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types as L
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from onnxtext._gc import collector_paused
from onnxtext._version import __version__
from onnxtext.analysis.diagnose import AnalysisCache
from onnxtext.api import format_text
from onnxtext.binary import BinaryView, SaveResult, runnable_model, shown_diagnostics
from onnxtext.diagnostics import Diagnostic, OnnxTextError
from onnxtext.document import Document, parse_document
from onnxtext.evaluate.live import LiveResult
from onnxtext.ide.complete import complete, context_at
from onnxtext.ide.formatting import document_range_edit
from onnxtext.incremental import reparse
from onnxtext.ir.schemas import latest_opset_version
from onnxtext.lsp.convert import completion_items
from onnxtext.lsp.convert import lsp_diagnostic as to_lsp_diagnostic
from onnxtext.lsp.convert import lsp_text_edits as text_edits
from onnxtext.lsp.convert import offset_of as offset_at
from onnxtext.lsp.diagnose import Cancelled, Outcome, Settings, diagnose
from onnxtext.lsp.diagnose import evaluate as evaluate_cancellable
from onnxtext.lsp.shift import Shift, shift_between
from onnxtext.lsp.snapshot import Snapshot, answer
from onnxtext.lsp.textdiff import line_edits, region_line_edits
from onnxtext.lsp.tokens import TokenCache
from onnxtext.span import SourceFile, Span

__all__ = ["OnnxTextServer", "State", "request_path", "file_path", "display_path"]

log = logging.getLogger("onnxtext.lsp")
R = TypeVar("R")


@dataclass
class State:
    """What the server knows of one open document."""

    task: asyncio.Task[None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    outcome: Outcome | None = None
    outcome_version: int | None = None
    parsed: Document | None = None
    """The current version's document, parsed for a request before its diagnostics were ready."""
    parsed_version: int | None = None
    live: bool = False
    """Live values are on: the model runs after each change and every value is shown."""
    answered_stale: bool = False
    """Inlay hints were answered from an older analysis: ask for them again once the new one is ready."""
    tokens: TokenCache = field(default_factory=TokenCache)
    """The semantic tokens of the latest analysed document (and those last sent, for deltas)."""
    landed: asyncio.Event | None = None
    """Set when the scheduled run's analysis lands (what :meth:`OnnxTextServer.analysed` waits for)."""
    parsed_ready: asyncio.Event | None = None
    """Set when the scheduled run's document is parsed, before it is checked (what
    :meth:`OnnxTextServer.analysed` waits for, ``parsed``)."""
    debouncing: bool = False
    """The scheduled run still waits out the debounce (a request that needs it starts it at once)."""
    analysis: AnalysisCache = field(default_factory=AnalysisCache)
    """The last analysed version's inference and checker results per node, reused by the next run."""
    analysed: bool = False
    """An analysis of the document was published (the next one with an empty ``analysis`` records as it runs)."""
    preparing: Future[None] | None = None
    """The worker's job making tokens and types ahead of the requests, for the last analysis (it holds its document)."""
    analysing: Future[Outcome] | None = None
    """The worker's job analysing the latest version (it reads ``parsed`` when it was given it)."""


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, minus its one growing table: it files the future of every handled
    message under its id in ``_request_futures`` and takes a request's out when it answers, but
    never a notification's (a fresh id per ``didChange``: one future kept per keystroke, #24)."""

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(lambda done: self._forget(msg_id, done))

    def _forget(self, msg_id: Any, future: Any) -> None:
        # a cancelled one is left: pygls cancels them while iterating over the table (shutdown), and
        # a thread's future calls back at once (the table changed size during the iteration)
        if not future.cancelled() and self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]


class OnnxTextServer(LanguageServer):
    """The server: open documents, their latest analysis, the user's settings."""

    def __init__(self) -> None:
        super().__init__(
            "onnxtext", __version__, protocol_cls=_Protocol, text_document_sync_kind=L.TextDocumentSyncKind.Incremental
        )
        self.settings = Settings()
        self.trusted = True
        """The client's workspace is trusted: False (``workspaceTrusted`` in the initialization options,
        never a setting a workspace could write) and no model runs, no workspace inputs file is read."""
        self.states: dict[str, State] = {}
        self.binaries: dict[str, BinaryView] = {}
        """Binary models opened as text, by path (what was shown, to save unchanged texts untouched)."""
        self.analyser = ThreadPoolExecutor(max_workers=1, thread_name_prefix="onnxtext-analysis")
        """One analysis at a time: a superseded run stops at its next stage before the next one starts
        (runs side by side only shared two cores and held a document each)."""

    # ------------------------------------------------------------ scheduling
    def schedule(self, uri: str, *, delay: bool = True) -> None:
        """(Re)diagnose ``uri`` after the debounce delay; a pending or running run is superseded."""
        state = self.state(uri)
        state.cancel.set()
        if state.task is not None and not state.task.done():
            state.task.cancel()
        state.cancel = threading.Event()
        wait = self.settings.debounce_ms / 1000 if delay else 0.0
        state.landed, state.parsed_ready, state.debouncing = asyncio.Event(), asyncio.Event(), bool(wait)
        state.task = asyncio.get_running_loop().create_task(self._run(uri, state.cancel, wait))

    async def _run(self, uri: str, cancel: threading.Event, wait: float) -> None:
        state = self.states.get(uri)
        if wait:
            await asyncio.sleep(wait)
        if state is not None:
            state.debouncing = False
        document = self.workspace.get_text_document(uri)
        version, text = document.version, document.source
        parsed = state.parsed if state is not None and state.parsed_version == version else None
        if parsed is None and state is not None:
            parsed = await self._edited(uri, state, version, text)
        loop = asyncio.get_running_loop()

        def on_parsed(doc: Document) -> None:  # in the analyser's thread
            loop.call_soon_threadsafe(self._parsed, uri, state, version, doc)

        cache = _cache_for(state)
        # a whole analysis (the document's first): the cyclic collector's pass over its new objects
        # comes after publishing, not between the parse and the check (150 ms of 0.9 s on 30,000 statements)
        with collector_paused() if cache is None else nullcontext():
            try:
                job = self.analyser.submit(
                    diagnose,
                    text,
                    display_path(uri),
                    self.settings,
                    cancel,
                    parsed,
                    folder_of(uri),
                    cache,
                    on_parsed,
                )
                if state is not None:
                    state.analysing = job
                outcome = await asyncio.wrap_future(job)
            except Cancelled:
                return
            except Exception:  # a bug must not kill the server: log it, say it once, keep serving
                log.exception("diagnosing %s failed", uri)
                if state is not None:
                    state.analysis = AnalysisCache()  # possibly half updated: the next version is analysed whole
                self.window_log_message(
                    L.LogMessageParams(L.MessageType.Error, f"onnxtext: diagnosing {uri} failed; see the server log")
                )
                return
            if (
                state is None
                or self.states.get(uri) is not state
                or cancel.is_set()
                or self.workspace.get_text_document(uri).version != version
            ):
                return  # superseded while running: a newer run publishes
            state.outcome, state.outcome_version, state.analysed = outcome, version, True
            state.parsed = state.parsed_version = None  # the outcome holds it now (or it was of an older version)
            if state.landed is not None:
                state.landed.set()
            self.publish(uri, version, outcome)
            if state.answered_stale:
                state.answered_stale = False
                self.refresh_views()
        # what the editor asks for next, made while it has not yet asked (and what hovers right after a change read)
        prime = partial(self._prime, state.analysis, folder_of(uri)) if cache is None else None
        state.preparing = self.analyser.submit(_prepare_held, state.tokens, outcome, cancel, prime)
        await asyncio.wrap_future(state.preparing)
        path = file_path(uri)
        runnable = runnable_model(
            self.binaries.get(path) if path else None, outcome.document.diagnostics, outcome.document.proto
        )
        if not (
            (self.settings.evaluate and self.trusted or state.live) and (outcome.document.ok or runnable is not None)
        ):
            return
        await asyncio.sleep(self.settings.evaluate_delay_ms / 1000)  # typing goes on: this task is cancelled
        try:
            live, found = await asyncio.get_running_loop().run_in_executor(
                None, _evaluate, outcome, self.settings, path, cancel, state.live, self.trusted, runnable
            )
        except Exception:  # a bug must not kill the server
            log.exception("evaluating %s failed", uri)
            return
        if cancel.is_set() or self.workspace.get_text_document(uri).version != version:
            return
        outcome.live = live
        outcome.diagnostics = sorted(outcome.diagnostics + found, key=lambda d: d.offset)
        self.publish(uri, version, outcome)
        if state.live:
            self.refresh_views()

    async def _edited(self, uri: str, state: State, version: int | None, text: str) -> Document | None:
        """The document of ``text`` made from the last analysed one by re-reading only the statements
        the edit touched (``onnxtext.incremental``), on the event loop (tens of milliseconds on a
        30,000-statement text); None when it cannot be (the worker then parses the whole text).

        The last analysed document is consumed: it is handed over (``onnxtext/lease.py``) only once
        the worker's job reading it is done and no live run holds it, and from then on the
        requests read the new document (``parsed``), never the old one (``outcome`` is cleared).
        While typing goes on, the last one made this way (``parsed``, its analysis superseded) is
        consumed in turn, once the worker's job analysing it stopped.
        """
        jobs: list[Future[Any] | None] = [state.preparing, state.analysing]
        for job in jobs:
            if job is not None and not job.done():
                await _ended(job)  # it stops soon: its run was superseded
        if self.states.get(uri) is not state:
            return None
        if state.parsed is not None and state.parsed_version == version:
            return state.parsed  # a request parsed this version meanwhile
        # the last analysed document, or the last one made (read by no worker now: its analysing job is done)
        old = state.outcome.document if state.outcome is not None else state.parsed
        if old is not None and old.source.text == text:
            # typing came back to the analysed text (a letter typed and deleted, an undo): its document
            state.parsed, state.parsed_version = old, version
            return old
        if old is None or not old.lease.consume():
            return None
        shift = shift_between(old.source.text, text)
        try:
            doc = reparse(old, text, shift.start, shift.old_end, shift.new_end)
        except Exception:  # a bug must not kill the server: the worker parses the text whole
            log.exception("re-reading the edit of %s failed", uri)
            state.outcome = state.parsed = None  # possibly half changed: nobody reads it again
            return None
        if doc is None:
            old.lease.restore()  # declined before touching it
            return None
        state.outcome = state.outcome_version = None
        state.parsed, state.parsed_version = doc, version
        return doc

    async def settled(self, uri: str) -> None:
        """Wait for the running analysis of a document made from the last one in place (``_edited``)
        before asking it for types: the worker infers them from the last version's in tens of
        milliseconds, and a request asking meanwhile (a hover, the inlay hints the editor asks
        for after a change) would infer the whole model again on the event loop, beside it."""
        state = self.states.get(uri)
        if state is None or state.outcome is not None or state.parsed is None:
            return  # the last analysis answers (carried through the edit), or there is none
        job = state.analysing
        if job is not None and not job.done():
            await _ended(job)

    def _prime(self, cache: AnalysisCache, model_dir: str | None, doc: Document) -> None:
        """Record ``doc``'s analysis in ``cache`` (its diagnostics were made and published without it)."""
        try:
            cache.prime(doc, self.settings.select, self.settings.ignore, model_dir=model_dir)
        except Exception:  # a bug must not kill the server: the next version is analysed whole
            log.exception("recording the analysis of %s failed", doc.source.path)
            cache.infer = cache.check = None

    def _parsed(self, uri: str, state: State | None, version: int | None, doc: Document) -> None:
        """The running analysis's document is parsed: what needs no checker may answer from it
        (kept only while it is the current version's)."""
        if state is None or state.parsed_ready is None or self.workspace.get_text_document(uri).version != version:
            return
        if state.parsed is None or state.parsed_version != version:
            state.parsed, state.parsed_version = doc, version
        state.parsed_ready.set()

    def refresh_views(self) -> None:
        """Ask the client to fetch inlay hints and code lenses again (when it supports it)."""
        workspace = self.client_capabilities.workspace
        if workspace is not None and workspace.inlay_hint is not None and workspace.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)
        if workspace is not None and workspace.code_lens is not None and workspace.code_lens.refresh_support:
            self.workspace_code_lens_refresh(None)

    def publish(self, uri: str, version: int | None, outcome: Outcome) -> None:
        source = outcome.document.source
        shown = self.shown(uri, outcome.document, outcome.diagnostics)
        self.text_document_publish_diagnostics(
            L.PublishDiagnosticsParams(
                uri=uri, version=version, diagnostics=[to_lsp_diagnostic(d, source, uri) for d in shown]
            )
        )

    def shown(self, uri: str, document: Document, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        """``diagnostics`` of ``document`` at ``uri`` as published (:func:`shown_diagnostics`: a
        binary model's view by reference without those of its references, an edited reference
        flagged as it is typed): what the graph marks too."""
        path = file_path(uri)
        return shown_diagnostics(self.binaries.get(path) if path is not None else None, document, diagnostics)

    def current(self, uri: str) -> Outcome | None:
        """The analysis of the document's current version, or None if it is not ready."""
        state = self.states.get(uri)
        if state is None or state.outcome is None:
            return None
        if state.outcome_version != self.workspace.get_text_document(uri).version:
            return None
        return state.outcome

    def latest(self, uri: str) -> tuple[Outcome, Shift | None, SourceFile] | None:
        """The last analysis, even of an older version, with the edit from its text to the current
        one (None when it is current) and the current text: answers keep coming while a new
        analysis runs, their positions carried through the edit."""
        state = self.states.get(uri)
        newest = _newest(state) if state is not None else None
        if newest is None:
            return None
        document = self.workspace.get_text_document(uri)
        outcome, version = newest
        if version == document.version:
            return outcome, None, outcome.document.source
        return outcome, shift_between(outcome.document.source.text, document.source), SourceFile(document.source)

    def state(self, uri: str) -> State:
        """What the server knows of ``uri`` (made empty on first use)."""
        return self.states.setdefault(uri, State())

    def last(self, uri: str) -> Outcome | None:
        """The last analysis of ``uri``, even of an older version; None before the first."""
        state = self.states.get(uri)
        newest = _newest(state) if state is not None else None
        return self.current(uri) or (newest[0] if newest is not None else None)

    def snapshot(self, uri: str) -> Snapshot | None:
        """The last complete analysis seen from the current text (:mod:`onnxtext.lsp.snapshot`)."""
        latest = self.latest(uri)
        return Snapshot(*latest) if latest is not None else None

    def answer(
        self, uri: str, position: L.Position, query: Callable[[Outcome, int], tuple[R, list[Span]]]
    ) -> tuple[SourceFile, R, list[Span]]:
        """``query`` at ``position``: while a newer text is analysed, over the last analysis (its spans
        carried into the current text; hover and go-to answer at once, not after the re-analysis),
        else (or where the edit leaves the last analysis no say) over the current text's."""
        snap = self.snapshot(uri)
        if snap is not None and snap.shift is not None:
            found = answer(snap, offset_at(snap.source, position), query)
            if found is not None:
                return snap.source, found[0], found[1]
        outcome = self.analysis(uri)
        result, spans = query(outcome, offset_at(outcome.document.source, position))
        return outcome.document.source, result, spans

    async def analysed(self, uri: str, *, parsed: bool = False) -> Outcome:
        """The analysis of the current version, awaited (what the editor asks for after each change:
        tokens, outline, folding), not parsed again on the event loop, which kept hovers waiting;
        a run still in its debounce starts at once. Parsed here only when no run will land.
        ``parsed``: awaited only until the run has parsed the document (semantic tokens and range
        formatting need no checker), then the document alone."""
        while (found := self.current(uri)) is None:
            state = self.states.get(uri)
            if state is None or state.task is None or state.task.done():
                return self.analysis(uri)
            if parsed and state.parsed is not None:
                if state.parsed_version == self.workspace.get_text_document(uri).version:
                    return Outcome(state.parsed)
            event = state.parsed_ready if parsed else state.landed
            if event is None:
                return self.analysis(uri)
            if state.debouncing:
                self.schedule(uri, delay=False)
                continue
            landed = asyncio.ensure_future(event.wait())
            await asyncio.wait({landed, state.task}, return_when=asyncio.FIRST_COMPLETED)
            landed.cancel()
        return found

    def analysis(self, uri: str) -> Outcome:
        """The analysis of the current version; before its diagnostics are ready, its document alone."""
        found = self.current(uri)
        if found is not None:
            return found
        document = self.workspace.get_text_document(uri)
        state = self.state(uri)
        if state.parsed is None or state.parsed_version != document.version:
            # Only the parse: the queries need no checker, and the debounced run checks this document.
            state.parsed = parse_document(document.source, "model", display_path(uri))
            state.parsed_version = document.version
        return Outcome(state.parsed)

    def warm_up(self) -> None:
        """Pay the one-time costs of the first hover and completion before anyone asks: the
        operator table and the protocol converter's code for the answers (generated on first use)."""
        version = latest_opset_version("") or 1
        items = complete(context_at("g () => () {\n y = ", 17), {"": version})
        converter = getattr(self.protocol, "_converter", None)  # pygls has no public accessor
        if converter is not None:
            source = SourceFile("")
            converter.unstructure(
                L.CompletionList(is_incomplete=False, items=completion_items(items[:2], source, Span(0, 0)))
            )
            converter.unstructure(
                L.Hover(L.MarkupContent(L.MarkupKind.Markdown, ""), L.Range(L.Position(0, 0), L.Position(0, 0)))
            )

    def format_edits(self, uri: str) -> list[L.TextEdit] | None:
        """The formatter's changes as line edits; None if the text has errors."""
        text = self.workspace.get_text_document(uri).source
        source = SourceFile(text)
        try:
            formatted = format_text(text, "model", display_path(uri))
        except OnnxTextError as exc:
            self.window_show_message(
                L.ShowMessageParams(L.MessageType.Warning, f"onnxtext: not formatted: {_first_error(exc.diagnostics)}")
            )
            return None
        return text_edits(source, line_edits(text, formatted))

    @staticmethod
    def range_format_edits(doc: Document, within: L.Range) -> list[L.TextEdit] | None:
        """The formatter's changes to the statements ``within`` meets, as line edits inside their
        lines (from the document's tree: the text is not parsed again); None where it cannot."""
        source = doc.source
        edit = document_range_edit(doc, offset_at(source, within.start), offset_at(source, within.end))
        return text_edits(source, region_line_edits(source.text, edit)) if edit is not None else None

    def saved(self, path: str, result: SaveResult) -> None:
        """Keep what a save of ``path`` leaves to know for the next one."""
        if result.view is not None:
            self.binaries[path] = result.view  # what the file is now (a view by reference: its tensors moved)
        elif result.written:
            self.binaries.pop(path, None)  # the file is new: an unchanged save must not restore old bytes

    def forget(self, uri: str) -> None:
        state = self.states.pop(uri, None)
        if state is not None:
            state.cancel.set()
            if state.task is not None:
                state.task.cancel()
        self.text_document_publish_diagnostics(L.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def _newest(state: State) -> tuple[Outcome, int | None] | None:
    """The last analysis and its version; while the one an edit's document was made from is gone
    (handed over, see :meth:`OnnxTextServer._edited`), that document, not yet checked."""
    if state.outcome is not None:
        return state.outcome, state.outcome_version
    if state.parsed is not None:
        return Outcome(state.parsed), state.parsed_version
    return None


def request_path(params: Any) -> str:
    """The file a custom request names by ``uri`` (a ``file:`` URI)."""
    uri = getattr(params, "uri", None)
    if not isinstance(uri, str) or urlparse(uri).scheme != "file":
        raise JsonRpcInvalidParams("expected a 'uri' of a file")
    return unquote(urlparse(uri).path)


MODEL_SCHEME = "onnx-model"
"""The scheme of a binary model's text in the editor (``onnx-model:/path/m.onnx``): it names a file too."""


def file_path(uri: str) -> str | None:
    """The path of a ``file:`` document or of a binary model's text (its folder holds its
    external data and inputs file)."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme in ("file", MODEL_SCHEME) else None


def folder_of(uri: str) -> str | None:
    """The folder of a document's file (where its external data is), None for an unsaved one."""
    file = file_path(uri)
    return os.path.dirname(file) if file is not None else None


def display_path(uri: str) -> str:
    return file_path(uri) or uri


async def _ended(job: Future[Any]) -> None:
    """Wait for a worker's job to end, however it ends. Its outcome is its run's (the task awaiting
    its result reports a failure); a superseded analysis ends in :class:`Cancelled`, which is normal:
    the wait's own future takes it (else asyncio logs "Future exception was never retrieved" with a
    traceback when that future goes, even after this wait was itself cancelled)."""
    waiting = asyncio.wrap_future(job)
    waiting.add_done_callback(_retrieved)
    await asyncio.wait({waiting})


def _retrieved(waiting: asyncio.Future[Any]) -> None:
    if not waiting.cancelled():
        waiting.exception()


def _prepare(tokens: TokenCache, doc: Document, cancel: threading.Event) -> None:
    """Compute ahead of the requests what a just-published document is asked for (the value types
    of hovers and inlay hints, the semantic tokens), unless a newer version superseded it."""
    for step in (lambda: doc.types, lambda: tokens.data(doc)):
        if cancel.is_set():
            return
        step()


def _cache_for(state: State | None) -> AnalysisCache | None:
    """The analysis cache a run passes to :func:`diagnose`; None for a document's first analysis,
    which is published first and recorded after it (``AnalysisCache.prime``: the recording costs
    about a quarter more). A later version whose cache is still empty (that recording was skipped:
    an edit came before it was done, as typing right after opening does) records as it is
    analysed: published first, each next edit skipped its recording again and analysed whole (#30)."""
    if state is None or (state.analysis.empty and not state.analysed):
        return None
    return state.analysis


def _prepare_held(
    tokens: TokenCache,
    outcome: Outcome,
    cancel: threading.Event,
    prime: Callable[[Document], None] | None = None,
) -> None:
    """:func:`_prepare`, holding the document (a newer version is not made from it meanwhile);
    then ``prime`` records its analysis for the next version, unless a newer one came meanwhile."""
    with outcome.document.lease.reading() as held:
        if held:
            _prepare(tokens, outcome.document, cancel)
            if prime is not None and not cancel.is_set():
                prime(outcome.document)


def _evaluate(outcome: Outcome, *args: Any) -> tuple[LiveResult | None, list[Diagnostic]]:
    """:func:`onnxtext.lsp.diagnose.evaluate`, holding the document (a newer version is not made from it meanwhile)."""
    with outcome.document.lease.reading() as held:
        return evaluate_cancellable(outcome, *args) if held else (None, [])


def _first_error(diags: list[Diagnostic]) -> str:
    errors = [d for d in diags if d.is_error] or diags
    return str(errors[0]) if errors else "the text has errors"
