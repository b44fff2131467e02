"""The editor's host without a client: changes applied, snapshots read, runs superseded, documents handed over.

A :class:`Host` with recording callbacks stands where the language server does; each test runs
on an event loop (the host schedules its runs there) with the debounce at zero unless it says.
"""

from __future__ import annotations

import asyncio
import gc
import threading
from concurrent.futures import Future

import pytest

from onnxtext.host import Change, DocumentHost, Freshness, Host, Outcome, Settings, Snapshot, SnapshotGone, Unanswerable
from onnxtext.host.analyse import diagnose

STATEMENTS = 400
URI = "file:///m.onnxtxt"


def _text() -> str:
    lines = ['<ir_version: 8, opset_import: ["" : 18]>', f"main (float[N, 16] X0) => (float[N, 16] X{STATEMENTS})", "{"]
    lines += [f"   X{i + 1} = Relu (X{i})" for i in range(STATEMENTS)]
    return "\n".join([*lines, "}"]) + "\n"


class Recorder:
    """The callbacks a server gives: what was published (version and text), failures, refreshes."""

    def __init__(self) -> None:
        self.published: list[tuple[int | None, str]] = []
        self.failed: list[str] = []
        self.refreshed = 0

    def host(self, debounce_ms: int = 0) -> Host:
        host = Host(self.on_published, self.failed.append, self.on_refresh)
        host.settings = Settings(debounce_ms=debounce_ms, evaluate=False)
        return host

    def on_published(self, document: DocumentHost, snapshot: Snapshot) -> None:
        assert snapshot.current and snapshot.checked
        self.published.append((snapshot.version, snapshot.outcome.document.source.text))

    def on_refresh(self) -> None:
        self.refreshed += 1


def _opened(debounce_ms: int = 0) -> tuple[Recorder, Host, str, DocumentHost]:
    """A recording host (its runs waiting ``debounce_ms``) with the document of :func:`_text` open at version 1."""
    recorder = Recorder()
    host = recorder.host(debounce_ms)
    text = _text()
    return recorder, host, text, host.open(URI, text, 1)


def _replace(text: str, old: str, new: str) -> Change:
    at = text.index(old)
    return Change.replacing(at, at + len(old), new)


def _definition(outcome: Outcome, offset: int) -> tuple[None, list[object]]:
    return None, outcome.document.definition_at(offset)


@pytest.mark.asyncio
async def test_changes_give_snapshots_of_each_text_and_only_the_last_version_is_published() -> None:
    recorder, host, text, document = _opened(10_000)  # the changes come inside the debounce
    first = await document.analysed()
    assert first.current and first.version == 1 and recorder.published == [(1, text)]

    expected = text
    for version, (old, new) in enumerate((("X7 = Relu", "X7 = Tanh"), ("X9 = Relu", "X9 = Neg"), ("X3 = ", "X3= ")), 2):
        change = _replace(expected, old, new)
        expected = change.apply(expected)
        snap = document.apply(change, version)
        assert snap.version == version and snap.source.text == expected
        assert not snap.current and snap.outcome is first.outcome  # the last analysis, carried
        assert snap.change is not None and snap.change.apply(text) == expected  # one change since it
    assert document.debouncing

    last = await document.analysed()  # the run starts at once when asked
    assert last.current and last.version == 4 and last.source.text == expected
    assert recorder.published == [(1, text), (4, expected)]  # versions 2 and 3 superseded, never published
    fresh = diagnose(expected, "/m.onnxtxt", host.settings)
    assert [str(d) for d in last.outcome.diagnostics] == [str(d) for d in fresh.diagnostics]
    assert not recorder.failed


@pytest.mark.asyncio
async def test_a_snapshot_of_a_document_handed_over_refuses_to_answer() -> None:
    """The next version is made from the last document in place: a snapshot of that document read
    afterwards raises SnapshotGone (the server takes a new one), never answers from a mutated tree;
    a snapshot whose document was not consumed (the edit was parsed whole) answers as before."""
    _, host, text, document = _opened()
    old = await document.analysed()
    use = text.index("(X120)") + 1
    before = old.answer(use, _definition)

    change = _replace(text, "X7 = Relu", "X7 = Tanh")  # inside the body: re-read from the last document
    document.apply(change, 2)
    new = await document.analysed()
    with pytest.raises(SnapshotGone):
        _ = old.outcome
    with pytest.raises(SnapshotGone):
        old.answer(use, _definition)
    assert new.answer(use, _definition) == before  # the same place: the edit was before neither

    kept = new
    header = _replace(new.source.text, "ir_version: 8", "ir_version: 9")  # the header: parsed whole
    document.apply(header, 3)
    newest = await document.analysed()
    assert newest.outcome.document is not kept.outcome.document
    assert kept.answer(use, _definition) == before  # untouched: it still answers, the same
    assert kept.source.text == change.apply(text) and kept.version == 2


@pytest.mark.asyncio
async def test_an_answer_the_change_touched_asks_a_fresher_snapshot() -> None:
    _, host, text, document = _opened(10_000)
    await document.analysed()
    change = _replace(text, "   X5 = Relu (X4)\n", "   X5 = Relu (X4)\n   Y = Abs (X5)\n")
    current = change.apply(text)
    snap = document.apply(change, 2)
    with pytest.raises(Unanswerable):  # inside the change
        snap.answer(current.index("Abs"), _definition)
    moved = snap.answer(current.index("(X120)") + 1, _definition)[1]
    assert [current[s.start : s.start + 10] for s in moved] == ["X120 = Rel"]  # carried past the change
    fresher = await document.snapshot(Freshness.LAST.fallback)  # what the server asks then: parsed, at once
    assert fresher.current and fresher.source.text == current  # parsed (its check may have landed too)
    assert fresher.answer(current.index("(X5)") + 1, _definition)[1]


@pytest.mark.asyncio
async def test_the_last_analysis_is_handed_over_only_when_no_worker_reads_it() -> None:
    _, host, text, document = _opened(10_000)  # the runs wait: the test hands over itself
    analysed = await document.analysed()
    held = analysed.outcome
    lease = host.leases.of(held.document)
    edited = text.replace("X7 = Relu", "X7 = Tanh")
    document.apply(_replace(text, "X7 = Relu", "X7 = Tanh"), 2)

    with lease.reading():
        assert await document._edited(document.revision) is None  # a worker reads it: left alone
    assert document.outcome is held and not lease.consumed

    doc = await document._edited(document.revision)
    assert doc is not None and doc.source.text == edited
    assert document.outcome is None and document.parsed is doc
    assert lease.consumed
    with lease.reading() as readable:
        assert not readable  # a worker starting late finds it gone
    with pytest.raises(SnapshotGone):
        _ = analysed.document

    document.outcome, document.outcome_revision = diagnose(edited, URI, host.settings, threading.Event(), doc), 1
    document.parsed = None
    declined = document.outcome
    header = _replace(edited, "ir_version: 8", "ir_version: 7")
    document.apply(header, 3)
    assert await document._edited(document.revision) is None
    assert document.outcome is declined and not host.leases.of(declined.document).consumed  # parsed whole, untouched
    document.close()


@pytest.mark.asyncio
async def test_typing_back_to_the_analysed_text_keeps_its_document() -> None:
    _, host, text, document = _opened(10_000)
    held = (await document.analysed()).outcome
    at = text.index("X7 = Relu")
    document.apply(Change.replacing(at, at, "Q"), 2)
    document.apply(Change.replacing(at, at + 1, ""), 3)  # typed and deleted
    assert document.since(0) == Change(at, at, at, "")
    doc = await document._edited(document.revision)
    assert doc is held.document and not host.leases.of(held.document).consumed  # nothing made from it in place
    document.close()


@pytest.mark.asyncio
async def test_a_change_given_with_its_text_takes_that_text_and_refuses_one_it_does_not_make() -> None:
    _, host, text, document = _opened(10_000)
    change = _replace(text, "X7 = Relu", "X7 = Tanh")
    made = change.apply(text)
    snap = document.apply(change, 2, made)
    assert document.text is made and snap.source.text is made  # the caller's text, not built again
    assert document.source.position(len(made)).line == made.count("\n") + 1  # its line table follows the change
    with pytest.raises(ValueError):
        document.apply(Change.replacing(0, 0, "#"), 3, made)  # a text this change does not make
    assert document.text is made and document.version == 2  # refused before anything moved
    document.close()


@pytest.mark.asyncio
async def test_type_requests_wait_for_the_running_check_of_a_handed_over_document() -> None:
    """After the hand-over and before the new document's check lands, a settled snapshot waits for
    that check (the worker infers the types from the last version's) instead of inferring the
    whole model again on the event loop; with the last analysis still there it answers at once."""
    _, host, text, document = _opened(10_000)
    await document.analysed()
    await document.settled()  # analysed: nothing to wait for

    edited = text.replace("X7 = Relu", "X7 = Tanh")
    document.apply(_replace(text, "X7 = Relu", "X7 = Tanh"), 2)
    doc = await document._edited(document.revision)
    assert doc is not None and document.outcome is None
    job: Future[Outcome] = Future()
    document.analysing = job
    waiting = asyncio.ensure_future(document.snapshot(Freshness.SETTLED))
    await asyncio.sleep(0)
    assert not waiting.done()  # the check runs: the types come from it
    job.set_result(diagnose(edited, URI, host.settings, threading.Event(), doc))
    snap = await asyncio.wait_for(waiting, 5)
    assert snap.source.text == edited
    document.close()


@pytest.mark.asyncio
async def test_an_edit_right_after_the_first_publication_is_analysed_from_its_recording() -> None:
    """Typing at once after opening, the change queued behind the worker's job: the first analysis was
    recorded as it ran, so the new version is analysed from it, only its edited node anew. Before, the
    first analysis was published first and recorded after by a job the new version's run cancelled
    (that version analysed every node while recording them: 0.6-1.1 s on 30,000 statements, #30)."""
    recorder = Recorder()
    host = recorder.host()
    text = _text()
    change = _replace(text, "X7 = Relu", "X7 = Tanh")
    busy = threading.Event()
    documents: list[DocumentHost] = []

    def on_published(document: DocumentHost, snapshot: Snapshot) -> None:
        recorder.on_published(document, snapshot)
        if snapshot.version == 1:  # the recording job is queued behind this one once the run goes on
            host.analyser.submit(busy.wait, 10)
            documents.append(document)
            document.apply(change, 2)  # cancels the run publishing version 1

    host.on_published = on_published
    document = host.open(URI, text, 1)
    while not documents:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # the cancelled run has reached its wait for the recording job
    busy.set()
    snap = await document.analysed()
    assert snap.version == 2 and snap.checked and snap.outcome.document.source.text == change.apply(text)
    assert [v for v, _ in recorder.published] == [1, 2]
    assert document.analysis.reused == {"infer": STATEMENTS - 1, "check": STATEMENTS - 1}
    document.close()


@pytest.mark.asyncio
async def test_a_failing_analysis_is_reported_and_the_host_keeps_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    import onnxtext.host.documents as documents

    recorder = Recorder()
    host = recorder.host()
    real = documents.diagnose

    def broken(*args: object, **kwargs: object) -> Outcome:
        raise RuntimeError("a bug")

    monkeypatch.setattr(documents, "diagnose", broken)
    document = host.open(URI, _text(), 1)
    snap = await document.analysed()  # no run will land: the document parsed for the request
    assert recorder.failed and not snap.checked and snap.outcome.document.ok
    monkeypatch.setattr(documents, "diagnose", real)
    document.apply(Change.replacing(0, 0, " "), 2)
    assert (await document.analysed()).checked
    assert recorder.published[-1][0] == 2


@pytest.mark.asyncio
async def test_the_leases_are_the_hosts_and_go_with_their_documents() -> None:
    recorder = Recorder()
    host = recorder.host()
    document = host.open(URI, _text(), 1)
    await document.analysed()
    assert "lease" not in {f for f in type(document.outcome.document).__dataclass_fields__}  # type: ignore[union-attr]
    held = len(host.leases)
    assert held >= 1
    task = document.task
    host.close(URI)
    assert task is not None
    await asyncio.wait({task})
    await asyncio.wrap_future(host.analyser.submit(int))  # the worker's last job on it is done
    del document, task
    gc.collect()
    assert len(host.leases) < held  # a closed document's lease goes with it


@pytest.mark.asyncio
async def test_opening_again_starts_over_and_keeps_the_users_live_values_choice() -> None:
    _, host, text, document = _opened()
    await document.analysed()
    document.live = True
    same = host.open(URI, text, 2)  # the same text: the same document, analysed again
    assert same is document and (await same.analysed()).version == 2
    other = text.replace("X7 = Relu", "X7 = Tanh")
    again = host.open(URI, other, 3)
    assert again is not document and document.closed and again.live
    snap = await again.analysed()
    assert snap.source.text == other and snap.version == 3 and snap.change is None
    host.close(URI)


@pytest.mark.asyncio
async def test_the_heap_is_settled_only_when_the_server_chose_it_and_after_a_whole_parse() -> None:
    """``settle_heap`` (the server's choice for its own process): after a version parsed whole is
    published, one full collection and every object alive frozen (``gc.freeze``), so the full passes
    the next edits bring about skip the document; a version made from the last one in place leaves
    the heap as it is. A host left to its default (a library's caller) never touches the collector."""
    assert gc.get_freeze_count() == 0
    recorder = Recorder()
    host = recorder.host()
    document = host.open(URI, _text(), 1)
    await document.analysed()
    assert document.preparing is not None
    await asyncio.wrap_future(document.preparing)
    assert gc.get_freeze_count() == 0  # not chosen: left alone
    host.close(URI)

    host.settle_heap = True
    try:
        document = host.open(URI, _text(), 1)
        await document.analysed()
        assert document.preparing is not None
        await asyncio.wrap_future(document.preparing)
        frozen = gc.get_freeze_count()
        assert frozen > 0  # parsed whole: settled
        gc.unfreeze()
        text = document.text
        document.apply(_replace(text, "X7 = Relu", "X7 = Tanh"), 2)  # re-read in place: nothing settled
        await document.analysed()
        assert document.preparing is not None
        await asyncio.wrap_future(document.preparing)
        assert document.in_place == document.revision and gc.get_freeze_count() == 0
        host.close(URI)
    finally:
        gc.unfreeze()
