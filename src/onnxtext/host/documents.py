"""The editor's host: every open document, its changes, its analyses and the one worker that makes them.

Protocol-free (no ``pygls``, no ``lsprotocol``: ``tests/test_layers_editor.py``): the language
server converts the client's notifications into :class:`~onnxtext.host.change.Change` values and
calls :meth:`DocumentHost.apply`, the one place a document's state moves, and reads
:class:`~onnxtext.host.snapshot.Snapshot` values, which never change, as each feature's declared
:class:`~onnxtext.host.snapshot.Freshness` says (rust-analyzer's ``AnalysisHost::apply_change``).

Diagnostics are recomputed after each change, debounced per document; a newer version cancels
the pending run (and the running one between stages), and a result for a version that is no longer
current is dropped, never published. What is published goes through the callbacks the server
gives (:class:`Host`).

Ownership: a version's document is made from the last one in place (``incremental.reread``)
on the event loop after the debounce, once the worker's job reading the last one is done and no
live run holds it (``host/lease.py``: a worker reads a document only holding its lease, and finds
it gone if it was handed over first); a snapshot of the consumed document raises ``SnapshotGone``
when read, never answers from a tree another version owns.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import replace
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse

from onnxtext._gc import collector_paused
from onnxtext.analysis.diagnose import AnalysisCache
from onnxtext.binary import BinaryView, runnable_model, shown_diagnostics
from onnxtext.diagnostics import Diagnostic
from onnxtext.document import Document, parse_document
from onnxtext.evaluate.live import LiveResult
from onnxtext.host.analyse import Cancelled, Outcome, Settings, diagnose
from onnxtext.host.analyse import evaluate as evaluate_cancellable
from onnxtext.host.change import Change
from onnxtext.host.lease import Lease, Leases
from onnxtext.host.snapshot import Freshness, Snapshot, SnapshotGone
from onnxtext.host.tokens import TokenCache
from onnxtext.incremental import reread
from onnxtext.span import SourceFile

__all__ = ["DocumentHost", "Host", "MODEL_SCHEME", "display_path", "file_path", "folder_of"]

log = logging.getLogger("onnxtext.lsp")
T = TypeVar("T")

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


class Host:
    """Every open document (:class:`DocumentHost`), the user's settings, the binary views, and the
    one analysis worker they share.

    ``on_published(document, snapshot)``: a version's diagnostics are ready (``snapshot.outcome``);
    ``on_failed(message)``: an analysis failed (a bug: logged, said once, the server keeps serving);
    ``on_refresh()``: views answered from an older analysis (inlay hints, lenses) should be asked again.
    """

    def __init__(
        self,
        on_published: Callable[[DocumentHost, Snapshot], None],
        on_failed: Callable[[str], None],
        on_refresh: Callable[[], None],
    ) -> None:
        self.on_published = on_published
        self.on_failed = on_failed
        self.on_refresh = on_refresh
        self.settings = Settings()
        self.trusted = True
        """The client's workspace is trusted: False and no model runs, no workspace inputs file is read."""
        self.documents: dict[str, DocumentHost] = {}
        self.binaries: dict[str, BinaryView] = {}
        """Binary models opened as text, by path (what was shown, to save unchanged texts untouched)."""
        self.leases = Leases()
        """Who reads each analysed document in a worker (the documents carry no threading state)."""
        self.settle_heap = False
        """After a version parsed whole is analysed, published and recorded: one full collection, then every
        object alive out of the collector's sight (``gc.freeze``), so that the full passes an edit's new
        objects bring about cost what was made since, not the whole document (a process-wide choice: only
        the server makes it, ``lsp.server.serve``)."""
        self.analyser = ThreadPoolExecutor(max_workers=1, thread_name_prefix="onnxtext-analysis")
        """One analysis at a time: a superseded run stops at its next stage before the next one starts
        (runs side by side only shared two cores and held a document each)."""

    def open(self, uri: str, text: str, version: int | None) -> DocumentHost:
        """Open ``uri`` with ``text`` and analyse it at once (an open document opened again starts over)."""
        known = self.documents.get(uri)
        if known is not None and known.text == text:
            known.version = version
            known.schedule(delay=False)
            return known
        document = self.documents[uri] = DocumentHost(self, uri, text, version)
        if known is not None:
            known.close()
            document.live = known.live  # the user's choice, not the text's
        document.schedule(delay=False)
        return document

    def adopt(self, uri: str, text: str, version: int | None) -> DocumentHost:
        """``uri``'s host; one made for ``text`` (not analysed until it changes) when it is not open:
        a request about a file the client did not open."""
        known = self.documents.get(uri)
        if known is None:
            known = self.documents[uri] = DocumentHost(self, uri, text, version)
        return known

    def close(self, uri: str) -> None:
        document = self.documents.pop(uri, None)
        if document is not None:
            document.close()

    def reanalyse(self) -> None:
        """Analyse every open document again, at once (the settings changed)."""
        for document in list(self.documents.values()):
            document.schedule(delay=False)

    def shown(self, uri: str, document: Document, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        """``diagnostics`` of ``document`` at ``uri`` as published (:func:`~onnxtext.binary.shown_diagnostics`)."""
        path = file_path(uri)
        return shown_diagnostics(self.binaries.get(path) if path is not None else None, document, diagnostics)


class DocumentHost:
    """One open document: its text and version, the changes since its last analysis, the run that
    analyses it, and the snapshots requests read."""

    def __init__(self, host: Host, uri: str, text: str, version: int | None) -> None:
        self.host = host
        self.uri = uri
        self.path = display_path(uri)
        self.folder = folder_of(uri)
        self.source = SourceFile(text, self.path)
        """The current text."""
        self.version = version
        """The client's version of the current text."""
        self.revision = 0
        """The host's count of this document's changes (the client's versions are only published)."""
        self.changes: list[tuple[int, Change]] = []
        """Each change with the revision it made, since the oldest document still held."""
        self.closed = False
        self.live = False
        """Live values are on: the model runs after each change and every value is shown."""
        self.tokens = TokenCache()
        """The semantic tokens of the latest analysed document (and those last sent, for deltas)."""
        self.analysis = AnalysisCache()
        """The last analysed version's inference and checker results per node, reused by the next run."""
        self.outcome: Outcome | None = None
        self.outcome_revision = -1
        self.parsed: Document | None = None
        """The document of a version parsed (or made from the last one) before its diagnostics were ready."""
        self.parsed_revision = -1
        self.answered_stale = False
        """A view was answered from an older analysis: ask for it again once the new one is ready."""
        self.task: asyncio.Task[None] | None = None
        self.cancel = threading.Event()
        self.landed: asyncio.Event | None = None
        """Set when the scheduled run's analysis lands."""
        self.parsed_ready: asyncio.Event | None = None
        """Set when the scheduled run's document is parsed, before it is checked."""
        self.debouncing = False
        """The scheduled run still waits out the debounce (a request that needs it starts it at once)."""
        self.preparing: Future[bool] | None = None
        """The worker's job making tokens and types ahead of the requests, for the last analysis (holding its
        document)."""
        self.in_place = -1
        """The last revision whose document was made from the one before (``_edited``), not parsed whole."""
        self.unsettled = False
        """A version was parsed whole since the heap was last settled (:attr:`Host.settle_heap`)."""
        self.analysing: Future[Outcome] | None = None
        """The worker's job analysing the latest version (it reads ``parsed`` when it was given it)."""

    @property
    def text(self) -> str:
        return self.source.text

    # ------------------------------------------------------------ the one place state moves
    def apply(self, change: Change, version: int | None, text: str | None = None) -> Snapshot:
        """Take ``change`` (of the current text) as version ``version``, schedule its analysis after the
        debounce, and give the snapshot requests read now (the last analysis, carried through it).
        ``text``: the text ``change`` makes, when the caller made it already (the server does, to compare
        it with the client's): a text of megabytes is built once per keystroke, not twice."""
        if text is None:
            text = change.apply(self.text)
        elif len(text) != len(self.text) + change.delta:
            raise ValueError(f"{change!r} does not make a text of {len(text)} characters")
        self.source = self.source.edited(text, change.start, change.old_end, change.new_end)
        self.version = version
        self.revision += 1
        self.changes.append((self.revision, change))
        self.schedule()
        return self.last()

    def schedule(self, *, delay: bool = True) -> None:
        """(Re)analyse after the debounce delay; a pending or running run is superseded."""
        self.cancel.set()
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.cancel = threading.Event()
        wait = self.host.settings.debounce_ms / 1000 if delay else 0.0
        self.landed, self.parsed_ready, self.debouncing = asyncio.Event(), asyncio.Event(), bool(wait)
        self.task = asyncio.get_running_loop().create_task(self._run(self.cancel, wait))

    def close(self) -> None:
        self.closed = True
        self.cancel.set()
        if self.task is not None:
            self.task.cancel()

    def toggle_live(self) -> bool:
        self.live = not self.live
        self.schedule(delay=False)
        return self.live

    # ------------------------------------------------------------ snapshots
    def since(self, revision: int) -> Change | None:
        """The change from revision ``revision``'s text to the current one (None: it is the current one)."""
        return Change.compose([c for r, c in self.changes if r > revision], self.text)

    def _snapshot(self, outcome: Outcome | None, revision: int, checked: bool) -> Snapshot:
        lease = self.host.leases.of(outcome.document) if outcome is not None else None
        change = self.since(revision) if outcome is not None else None
        return Snapshot(self.version, self.source, outcome, lease, change, checked and change is None)

    def last(self) -> Snapshot:
        """The last analysis, even of an older version, or the document last made or parsed (not yet
        checked), its positions carried through the change since; a snapshot without one before the first."""
        if self.outcome is not None:
            return self._snapshot(self.outcome, self.outcome_revision, True)
        if self.parsed is not None:
            return self._snapshot(Outcome(self.parsed), self.parsed_revision, False)
        return self._snapshot(None, self.revision, False)

    def now(self) -> Snapshot | None:
        """The current version's complete analysis, or None if it is not ready."""
        if self.outcome is None or self.outcome_revision != self.revision:
            return None
        return self._snapshot(self.outcome, self.outcome_revision, True)

    async def snapshot(self, freshness: Freshness) -> Snapshot:
        """The snapshot a feature of this freshness reads."""
        if freshness is Freshness.LAST:
            return self.last()
        if freshness is Freshness.SETTLED:
            await self.settled()
            return self.last()
        if freshness is Freshness.TOKENS:
            return await self.analysed(parsed=self.tokens.warm)
        return await self.analysed(parsed=freshness is Freshness.PARSED)

    async def settled(self) -> None:
        """Wait for the running analysis of a document made from the last one in place (``_edited``)
        before asking it for types: the worker infers them from the last version's in tens of
        milliseconds, and a request asking meanwhile (a hover, the inlay hints the editor asks
        for after a change) would infer the whole model again on the event loop, beside it."""
        if self.outcome is not None or self.parsed is None:
            return  # the last analysis answers (carried through the edit), or there is none
        job = self.analysing
        if job is not None and not job.done():
            await ended(job)

    async def analysed(self, *, parsed: bool = False) -> Snapshot:
        """The current version's analysis, awaited, not parsed again on the event loop; a run still in
        its debounce starts at once. Parsed here only when no run will land. ``parsed``: awaited only
        until the run has parsed the document, then the document alone."""
        while (found := self.now()) is None:
            if self.task is None or self.task.done():
                return self._parse_now()
            if parsed and self.parsed is not None and self.parsed_revision == self.revision:
                return self._snapshot(Outcome(self.parsed), self.parsed_revision, False)
            event = self.parsed_ready if parsed else self.landed
            if event is None:
                return self._parse_now()
            if self.debouncing:
                self.schedule(delay=False)
                continue
            landed = asyncio.ensure_future(event.wait())
            await asyncio.wait({landed, self.task}, return_when=asyncio.FIRST_COMPLETED)
            landed.cancel()
        return found

    def _parse_now(self) -> Snapshot:
        """The current version's analysis; when no run will make it, its document parsed here (the
        queries need no checker)."""
        found = self.now()
        if found is not None:
            return found
        if self.parsed is None or self.parsed_revision != self.revision:
            self.parsed, self.parsed_revision = parse_document(self.text, "model", self.path), self.revision
            self._forget_changes()
        return self._snapshot(Outcome(self.parsed), self.parsed_revision, False)

    async def off_loop(self, snapshot: Snapshot, read: Callable[[Document], T]) -> T:
        """``read(snapshot.document)`` in a worker thread, holding the document's lease; raises
        :class:`SnapshotGone` if it was handed over to a newer version first."""
        document = snapshot.document
        lease = self.host.leases.of(document)

        def held() -> tuple[T] | None:
            with lease.reading() as holding:
                return (read(document),) if holding else None

        found = await asyncio.get_running_loop().run_in_executor(None, held)
        if found is None:
            raise SnapshotGone
        return found[0]

    def _forget_changes(self) -> None:
        """Drop the changes older than every document still held."""
        held = [r for r, doc in ((self.outcome_revision, self.outcome), (self.parsed_revision, self.parsed)) if doc]
        oldest = min(held, default=self.revision)
        if self.changes and self.changes[0][0] <= oldest:
            self.changes = [(r, c) for r, c in self.changes if r > oldest]

    # ------------------------------------------------------------ the run
    async def _run(self, cancel: threading.Event, wait: float) -> None:
        host = self.host
        if wait:
            await asyncio.sleep(wait)
        self.debouncing = False
        revision, text = self.revision, self.text
        parsed = self.parsed if self.parsed_revision == revision else None
        if parsed is None:
            parsed = await self._edited(revision)
        loop = asyncio.get_running_loop()

        def on_parsed(doc: Document) -> None:  # in the analyser's thread
            loop.call_soon_threadsafe(self._parsed, revision, doc)

        # a whole analysis (the document's first): the cyclic collector's pass over its new objects
        # comes after publishing, not between the parse and the check (150 ms of 0.9 s on 30,000 statements)
        with collector_paused() if self.analysis.empty else nullcontext():
            try:
                job = host.analyser.submit(
                    diagnose, text, self.path, host.settings, cancel, parsed, self.folder, self.analysis, on_parsed
                )
                self.analysing = job
                outcome = await asyncio.wrap_future(job)
            except Cancelled:
                return
            except Exception:  # a bug must not kill the server: log it, say it once, keep serving
                log.exception("diagnosing %s failed", self.uri)
                self.analysis = AnalysisCache()  # possibly half updated: the next version is analysed whole
                host.on_failed(f"onnxtext: diagnosing {self.uri} failed; see the server log")
                return
            if self.closed or cancel.is_set() or self.revision != revision:
                return  # superseded while running: a newer run publishes
            self.outcome, self.outcome_revision = outcome, revision
            self.parsed, self.parsed_revision = None, -1  # the outcome holds it now (or it was of an older version)
            self._forget_changes()
            if self.landed is not None:
                self.landed.set()
            host.on_published(self, self._snapshot(outcome, revision, True))
            if self.answered_stale:
                self.answered_stale = False
                host.on_refresh()
        # what the editor asks for next, made while it has not yet asked (and what hovers right after a change read)
        lease = host.leases.of(outcome.document)
        self.unsettled |= self.in_place != revision  # parsed whole: the heap holds a new document
        settle = host.settle_heap and self.unsettled
        self.preparing = host.analyser.submit(_prepare_held, self.tokens, outcome, lease, cancel, settle)
        if await asyncio.wrap_future(self.preparing):
            self.unsettled = False
        path = file_path(self.uri)
        runnable = runnable_model(
            host.binaries.get(path) if path else None, outcome.document.diagnostics, outcome.document.proto
        )
        wanted = host.settings.evaluate and host.trusted or self.live
        if not (wanted and (outcome.document.ok or runnable is not None)):
            return
        await asyncio.sleep(host.settings.evaluate_delay_ms / 1000)  # typing goes on: this task is cancelled
        try:
            live, found = await loop.run_in_executor(
                None, _evaluate, outcome, lease, host.settings, path, cancel, self.live, host.trusted, runnable
            )
        except Exception:  # a bug must not kill the server
            log.exception("evaluating %s failed", self.uri)
            return
        if cancel.is_set() or self.revision != revision or self.outcome is not outcome:
            return
        # a new outcome: the one snapshots hold never changes
        diagnostics = sorted(outcome.diagnostics + found, key=lambda d: d.offset)
        self.outcome = replace(outcome, live=live, diagnostics=diagnostics)
        host.on_published(self, self._snapshot(self.outcome, revision, True))
        if self.live:
            host.on_refresh()

    async def _edited(self, revision: int) -> Document | None:
        """The document of the current text made from the last analysed one by re-reading only the
        statements the change touched (``onnxtext.incremental``), on the event loop (tens of
        milliseconds on a 30,000-statement text); None when it cannot be (the worker then parses the
        whole text).

        The last analysed document is consumed: it is handed over only once the worker's job reading
        it is done and no live run holds it, and from then on requests read the new document
        (``parsed``), never the old one (``outcome`` is cleared; a snapshot of it is gone). While typing
        goes on, the last one made this way (``parsed``, its analysis superseded) is consumed in turn,
        once the worker's job analysing it stopped.
        """
        jobs: list[Future[Any] | None] = [self.preparing, self.analysing]
        for job in jobs:
            if job is not None and not job.done():
                await ended(job)  # it stops soon: its run was superseded
        if self.closed or self.revision != revision:
            return None
        if self.parsed is not None and self.parsed_revision == revision:
            return self.parsed  # a request parsed this version meanwhile
        # the last analysed document, or the last one made (read by no worker now: its analysing job is done)
        if self.outcome is not None:
            old, old_revision = self.outcome.document, self.outcome_revision
        elif self.parsed is not None:
            old, old_revision = self.parsed, self.parsed_revision
        else:
            return None
        text = self.text
        if old.source.text == text:
            # typing came back to the analysed text (a letter typed and deleted, an undo): its document
            self.parsed, self.parsed_revision, self.in_place = old, revision, revision
            return old
        change = self.since(old_revision)
        lease = self.host.leases.of(old)
        if change is None or not lease.consume():
            return None
        try:
            found = reread(old, text, change.start, change.old_end, change.new_end)
        except Exception:  # a bug must not kill the server: the worker parses the text whole
            log.exception("re-reading the edit of %s failed", self.uri)
            self.outcome, self.parsed = None, None  # possibly half changed: nobody reads it again
            self._forget_changes()
            return None
        if found is None:
            lease.restore()  # declined before touching it
            return None
        doc, splice = found
        # what its analysis and its tokens hold of what lies outside the window re-read is taken by position
        self.analysis.spliced(old, doc, splice)
        self.tokens.spliced(old, doc, splice.start, splice.end, splice.delta)
        self.outcome, self.outcome_revision = None, -1
        self.parsed, self.parsed_revision, self.in_place = doc, revision, revision
        self._forget_changes()
        return doc

    def _parsed(self, revision: int, doc: Document) -> None:
        """The running analysis's document is parsed: what needs no checker may answer from it
        (kept only while it is the current version's)."""
        if self.parsed_ready is None or self.revision != revision:
            return
        if self.parsed is None or self.parsed_revision != revision:
            self.parsed, self.parsed_revision = doc, revision
            self._forget_changes()
        self.parsed_ready.set()


async def ended(job: Future[Any]) -> None:
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


def prepare(tokens: TokenCache, doc: Document, cancel: threading.Event) -> None:
    """Compute ahead of the requests what a just-published document is asked for (the value types
    of hovers and inlay hints, the semantic tokens), unless a newer version superseded it."""
    for step in (lambda: doc.types, lambda: tokens.data(doc)):
        if cancel.is_set():
            return
        step()


def _prepare_held(
    tokens: TokenCache, outcome: Outcome, lease: Lease, cancel: threading.Event, settle: bool = False
) -> bool:
    """:func:`prepare`, holding the document (a newer version is not made from it meanwhile); then with
    ``settle`` the heap is settled (:attr:`Host.settle_heap`), unless a newer version came meanwhile.
    True when it was settled."""
    with lease.reading() as held:
        if held:
            prepare(tokens, outcome.document, cancel)
            if settle and not cancel.is_set():
                gc.unfreeze()  # what was frozen before (a document parsed whole before this one) may be garbage now
                gc.collect()
                gc.freeze()
                return True
    return False


def _evaluate(outcome: Outcome, lease: Lease, *args: Any) -> tuple[LiveResult | None, list[Diagnostic]]:
    """:func:`onnxtext.host.analyse.evaluate`, holding the document (a newer version is not made from it meanwhile)."""
    with lease.reading() as held:
        return evaluate_cancellable(outcome, *args) if held else (None, [])
