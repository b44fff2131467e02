"""A rule that reads inferred types in a node's hooks says so (``Rule.reads_types``).

The analysis cache checks again in every version only the nodes of rules that declare it
(``analysis/check/reuse.py``); a rule that read ``ctx.inference`` without saying so would
keep a finding a change upstream made wrong. Every rule runs over a corpus (the examples,
the goldens and the texts of the rules' own tests) with the accessor watched: inside a
``node``, ``attribute`` or ``tensor`` hook only a rule whose ``reads_types`` is true for
that node may touch it (the ``attribute`` and ``tensor`` hooks have no such declaration).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from onnxtext.analysis.check import ALL_RULES
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.api import check

ROOT = Path(__file__).resolve().parents[2]


def _corpus() -> list[str]:
    files = sorted((ROOT / "examples").glob("*.onnxtxt")) + sorted((ROOT / "tests" / "golden").glob("*.onnxtxt"))
    texts = [p.read_text(encoding="utf-8") for p in files]
    for path in sorted((ROOT / "tests" / "check").glob("test_*.py")):  # the rules' own texts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                s = node.value
                if "{" in s and "(" in s and "\n" in s:
                    texts.append(s)
    return texts


def test_only_declaring_rules_read_inferred_types(monkeypatch: pytest.MonkeyPatch) -> None:
    current: list[tuple[type[Rule], str, Any]] = []  # the hook running: its rule, name, node proto
    readers: set[tuple[str, str]] = set()
    undeclared: set[tuple[str, str]] = set()
    read = CheckContext.__dict__["inference"].fget  # the property's getter

    def watched(ctx: CheckContext) -> Any:
        if current:
            rule, hook, proto = current[-1]
            readers.add((rule.code, hook))
            if hook != "node" or not rule().reads_types(proto):
                undeclared.add((rule.code, hook))
        return read(ctx)

    monkeypatch.setattr(CheckContext, "inference", property(watched))

    def wrap(rule: type[Rule], hook: str, method: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(method)
        def run(self: Rule, ctx: CheckContext, *args: Any) -> None:
            proto = getattr(args[0], "proto", None)
            current.append((rule, hook, proto))
            try:
                method(self, ctx, *args)
            finally:
                current.pop()

        return run

    for rule in ALL_RULES:
        for hook in ("node", "attribute", "tensor"):
            method = getattr(rule, hook)
            if method is not getattr(Rule, hook):
                monkeypatch.setattr(rule, hook, wrap(rule, hook, method))

    texts = _corpus()
    assert len(texts) > 100
    for text in texts:
        check(text)
    assert ("E705", "node") in readers  # the watch sees the one rule known to read them
    assert not undeclared, f"rules read inferred types without declaring Rule.reads_types: {sorted(undeclared)}"
