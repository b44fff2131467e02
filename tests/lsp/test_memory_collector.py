"""The server's collector (``lsp/memory.py``): off while any analysis runs, on again after the last."""

from __future__ import annotations

import gc

from onnxtext.lsp.memory import Collector


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
