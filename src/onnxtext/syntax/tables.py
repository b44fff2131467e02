"""The grammar and its LALR table: ``grammar/onnxtext.lark`` compiled by Lark once (lazily, cached on disk),
read by the driver loop as plain tuples."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lark
from lark.parsers.lalr_analysis import Shift

from onnxtext.syntax.build import Builder

__all__ = ["ENTRY_POINTS", "Tables", "grammar_path", "grammar_text", "table_cache_path"]

ENTRY_POINTS = ("model", "graph", "function", "node", "node_list")


def grammar_path() -> Path:
    """Where the grammar is: inside the installed package, or at the top of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "grammar" / "onnxtext.lark", package.parent.parent / "grammar" / "onnxtext.lark"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("grammar/onnxtext.lark is missing from this onnxtext installation")


def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


def table_cache_path() -> Path | None:
    """Where Lark keeps the analysed LALR table between runs, or None to build it every time.

    A per-user cache directory (``$ONNXTEXT_TABLE_CACHE``, else ``$XDG_CACHE_HOME/onnxtext``,
    else ``~/.cache/onnxtext``), so it works from a read-only site-packages and on a fresh
    install (the first parse writes it). Lark stores the grammar's and the options' hash in
    the file and rebuilds when they differ, and falls back to building when the file is
    unreadable or torn (two processes writing at once), so the cache can only save time.
    ``ONNXTEXT_TABLE_CACHE=""`` turns it off.
    """
    configured = os.environ.get("ONNXTEXT_TABLE_CACHE")
    if configured == "":
        return None
    if configured is not None:
        folder = Path(configured)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = Path(base) / "onnxtext"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only or missing home: build the table each time
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return None
    return folder / f"lalr-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.pickle"


class _NoLexer(lark.lexer.Lexer):
    """Placeholder: tokens are fed by ``Tables.run``, never by Lark's lexer."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, lexer_state: Any, parser_state: Any) -> Any:  # pragma: no cover
        raise NotImplementedError


class Tables:
    """Lark's LALR table for the grammar, compiled for the driver loop (``syntax.recovery.Run``);
    built once, on first use."""

    def __init__(self) -> None:
        self.builder = Builder()
        cache = table_cache_path()
        self.lark = lark.Lark(
            grammar_text(),
            cache=str(cache) if cache is not None else False,
            parser="lalr",
            lexer=_NoLexer,
            start=list(ENTRY_POINTS),
            transformer=self.builder,
            maybe_placeholders=True,
            keep_all_tokens=True,
        )
        frontend = self.lark.parser
        table = frontend.parser.parser.parse_table
        self.states: dict[Any, dict[str, tuple[Any, Any]]] = table.states
        self.start_states = table.start_states
        self.end_states = table.end_states
        self.callbacks: dict[Any, Callable[[list[Any]], Any]] = frontend.parser.parser.callbacks
        # The hot loop reads plain tuples: (None, next_state) to shift,
        # (size, callback, goto_symbol) to reduce; Lark's Rule objects are never hashed there.
        self.actions: dict[Any, dict[str, tuple[Any, Any, Any]]] = {}
        for state, row in self.states.items():
            compiled: dict[str, tuple[Any, Any, Any]] = {}
            for term, (kind, arg) in row.items():
                # Lark's symbol names are its Token class, whose __eq__ is Python code: use plain str.
                if kind is Shift:
                    compiled[str(term)] = (None, arg, None)
                else:
                    compiled[str(term)] = (len(arg.expansion), self.callbacks[arg], str(arg.origin.name))
            self.actions[state] = compiled
        # States of a statement list (a body, or the node entry point): an ERROR shifted there
        # stands for a damaged node statement. Recovery never pops past the innermost one.
        self.body_states = frozenset(
            state
            for state, row in self.states.items()
            if (action := row.get("ERROR")) is not None
            and action[0] is Shift
            and any(kind is not Shift and rule.alias == "error_node" for kind, rule in self.states[action[1]].values())
        )
        self.lock = threading.Lock()

    def can_shift(self, stack: list[Any], term: str, height: int | None = None) -> bool:
        """Whether ``term`` can be shifted after the reductions it triggers, on ``stack`` (its first
        ``height`` states when given). ``stack`` is left as it is, and not copied: the reductions
        pop its states below ``kept`` and push onto ``pushed``, so the cost is the reductions', not
        the stack's depth (a keyword 100,000 brackets deep)."""
        states = self.states
        kept = len(stack) if height is None else height
        pushed: list[Any] = []
        while True:
            action = states[pushed[-1] if pushed else stack[kept - 1]].get(term)
            if action is None:
                return False
            kind, arg = action
            if kind is Shift:
                return True
            size = len(arg.expansion)
            popped = min(size, len(pushed))
            if popped:
                del pushed[-popped:]
            kept -= size - popped
            pushed.append(states[pushed[-1] if pushed else stack[kept - 1]][arg.origin.name][1])
            if term == "$END" and pushed[-1] in self.end_states.values():
                return True

    def expected(self, stack: list[Any]) -> list[str]:
        return sorted(t for t in self.states[stack[-1]] if t.isupper() and t != "ERROR" and self.can_shift(stack, t))
