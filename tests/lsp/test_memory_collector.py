"""The server's collector (``lsp/memory.py``): off while analyses run, one pass after each that frees
the documents let go of, even those only a reference cycle holds, and the survivors frozen."""

from __future__ import annotations

import gc
import weakref

from onnxtext.document import parse_document
from onnxtext.lsp.memory import Collector, release_memory

TEXT = '<ir_version: 8, opset_import: ["" : 18]>\ng (float x) => (float y)\n{\n   a = Relu (x)\n   y = Neg (a)\n}\n'


def test_held_while_any_analysis_runs() -> None:
    collector = Collector()
    assert gc.isenabled()
    collector.hold()
    collector.hold()  # two documents analysed at once
    try:
        assert not gc.isenabled()
        collector.release()
        assert not gc.isenabled()  # the other still runs
    finally:
        collector.release()
    assert gc.isenabled()
    collector.release()  # one release too many changes nothing
    collector.hold()
    collector.release()
    assert gc.isenabled()


def test_the_settling_pass_frees_a_document_held_by_a_cycle_only() -> None:
    collector = Collector()
    collector.hold()
    try:
        doc = parse_document(TEXT)
        held: list[object] = [doc]
        held.append(held)  # a cycle: only the collector frees it
        dead = weakref.ref(doc)
        del doc, held
        live = parse_document(TEXT)  # allocations: no automatic pass while held
        assert dead() is not None
        collector.settle()
        assert dead() is None
        assert gc.get_freeze_count() > 0 and live.ok  # the survivors frozen: later passes skip them
        again = weakref.ref(live)
        del live
        assert again() is None  # a frozen document without cycles is still freed when let go of
    finally:
        collector.release()
        gc.unfreeze()


def test_release_memory_says_whether_it_could() -> None:
    assert release_memory() in (True, False)  # glibc: True; elsewhere the call is a no-op
