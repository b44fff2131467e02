"""The cyclic garbage collector is the process's: a library call leaves it as it found it.

Only the programs that own their process (the command line, the language server) let onnxtext
hold it while it builds large structures (``onnxtext._gc.pausing_allowed``).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import onnxtext
from onnxtext import _gc
from onnxtext.analysis.diagnose import AnalysisCache
from onnxtext.analysis.diagnose import diagnose as diagnose_cached
from onnxtext.cli import main
from onnxtext.printing.text import reference_text

TEXT = "\n".join(
    [
        '<ir_version: 8, opset_import: ["" : 18]>',
        "chain (float[N, 4] x0) => (float[N, 4] x300) <float[4] w = {0.5, -1, 2, 0.25}> {",
        *(f"   x{i + 1} = {('Relu', 'Neg', 'Abs')[i % 3]} (x{i})" for i in range(299)),
        "   x300 = Add (x299, w)",
        "}",
        "",
    ]
)
# a text the parse fast path declines (a comment): the reference path, the tree, the lowering
COMMENTED = TEXT.replace("{\n", "{\n   # a comment\n", 1)


@pytest.fixture
def untouchable(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """``gc.disable`` and ``gc.enable`` record their calls (and do nothing)."""
    calls: list[str] = []
    monkeypatch.setattr(gc, "disable", lambda: calls.append("disable"))
    monkeypatch.setattr(gc, "enable", lambda: calls.append("enable"))
    yield calls


def _library_calls() -> None:
    model = onnxtext.parse_model(TEXT)
    assert onnxtext.parse_model(COMMENTED) == model
    onnxtext.to_text(model)
    reference_text(model)
    onnxtext.format_text(onnxtext.to_text(model))
    onnxtext.format_text(COMMENTED)
    document = onnxtext.parse_document(COMMENTED)
    assert document.inference is not None and document.types
    assert onnxtext.diagnose(document) == []
    assert onnxtext.check(TEXT) == []
    cache = AnalysisCache()
    assert diagnose_cached(onnxtext.parse_document(COMMENTED), cache=cache) == []
    assert cache.inference(onnxtext.parse_document(TEXT)) is not None


def test_library_calls_leave_the_collector_alone(untouchable: list[str]) -> None:
    _library_calls()
    assert untouchable == []


def test_a_thread_never_sees_the_collector_off_while_another_calls_the_library() -> None:
    assert gc.isenabled()
    done = threading.Event()
    seen_off = 0

    def watch() -> None:
        nonlocal seen_off
        while not done.is_set():
            seen_off += not gc.isenabled()

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        _library_calls()
    finally:
        done.set()
        watcher.join()
    assert seen_off == 0


def test_the_command_line_holds_it_while_it_builds(untouchable: list[str], tmp_path: Path) -> None:
    source = tmp_path / "m.onnxtxt"
    source.write_text(COMMENTED, encoding="utf-8")
    assert main(["check", str(source)]) == 0
    assert untouchable and untouchable.count("disable") == untouchable.count("enable")
    untouchable.clear()
    _library_calls()  # the command's allowance ended with it
    assert untouchable == []


def test_allowed_the_library_holds_it_and_gives_it_back() -> None:
    with _gc.pausing_allowed():
        with _gc.collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()  # the program's own choice stays
        try:
            with _gc.collector_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
        finally:
            gc.enable()


def test_the_collector_runs_again_when_the_last_thread_holding_it_leaves() -> None:
    """Two threads hold it, the first to enter leaves first: it stays off until the other leaves."""
    entered, release_first, first_left, release_second = (threading.Event() for _ in range(4))
    states: list[bool] = []

    def first() -> None:
        with _gc.collector_paused():
            entered.set()
            release_first.wait(10)
        first_left.set()

    def second() -> None:
        entered.wait(10)
        with _gc.collector_paused():
            release_first.set()
            first_left.wait(10)
            states.append(gc.isenabled())
            release_second.wait(10)

    with _gc.pausing_allowed():
        threads = [threading.Thread(target=first), threading.Thread(target=second)]
        for t in threads:
            t.start()
        first_left.wait(10)
        release_second.set()
        for t in threads:
            t.join()
    assert states == [False]
    assert gc.isenabled()
