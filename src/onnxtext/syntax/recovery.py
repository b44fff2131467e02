"""The driver loop over the LALR table and its error recovery (see :class:`Run`).

A syntax error becomes a located diagnostic and the parse goes on: a one-token repair
when a short trial parse shows it works, else the damaged statement becomes an error
node the grammar accepts wherever a statement may stand. Work per error is bounded,
so the cost stays linear in the text.
"""

from __future__ import annotations

import bisect
import itertools
import sys
from collections.abc import Sequence
from typing import Any

import lark

from onnxtext.diagnostics import Diagnostic, Edit, Fix, Related, Severity
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.build import end_of, start_of, token_span
from onnxtext.syntax.lexer import KEYWORDS, Comment, LexError, Tok, tokenize, unescape_string
from onnxtext.syntax.messages import BAD_STRING, SYNTAX, TERMINAL_NAMES, describe_syntax_error, found_text, wanted_text
from onnxtext.syntax.tables import Tables

__all__ = ["MAX_ERRORS", "ErrorTok", "Run"]

MAX_ERRORS = 25


# Tokens a repair or a synchronisation point must let the parser through to count.
TRIAL = 8
# A longer look to rank the repairs that pass.
RANK = 32
# How many enclosing lists a damaged statement may be recovered into.
MAX_LEVELS = 8
# How many lines a string read as unclosed may have held that continue the damaged statement.
LOOK_LINES = 16

_OPENERS = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE", "PROPS": "RBRACE", "LT": "GT"}
_CLOSERS = frozenset(_OPENERS.values())
_TEXT = {
    "COMMA": ",",
    "RPAR": ")",
    "RSQB": "]",
    "RBRACE": "}",
    "GT": ">",
    "LBRACE": "{",
    "EQUAL": "=",
    "ARROW": "=>",
    "COLON": ":",
    "LPAR": "(",
    "LSQB": "[",
    "LT": "<",
}
# Single tokens a repair may insert before the error token, in order of preference.
_INSERTABLE = ("RPAR", "RSQB", "RBRACE", "GT", "COMMA", "EQUAL", "LPAR", "LBRACE")
# Tokens a repair may put in place of the error token.
_REPLACEABLE = ("COMMA", "EQUAL", "COLON", "ARROW", "RPAR", "RSQB", "RBRACE", "GT", "LPAR", "LSQB", "LT")
# What each error alternative of the grammar stands for (ast.ErrorNode.kind).
_ERROR_KINDS = {
    "error_node": "node",
    "error_entry": "entry",
    "error_initializer": "initializer",
    "error_value_info": "value_info",
    "error_attribute": "attribute",
    "error_function": "function",
    "error_graph": "graph",
    "error_node_list": "node_list",
}


class Run:
    """One parse of one text: the driver loop and its error recovery.

    Recovery happens inside the loop, on the one token list: a single-token repair
    (insert, delete or replace a token) when a short trial parse shows it works, else
    the damaged statement becomes an ``ERROR`` token (an :class:`ast.ErrorNode`) that the
    grammar accepts wherever a statement may stand. Work per error is bounded, so the
    cost stays linear in the text.
    """

    def __init__(
        self, parser: Tables, text: str, start: str, source: SourceFile, window: tuple[int, int] | None = None
    ) -> None:
        self.p = parser
        self.actions = parser.actions
        self.text = text
        self.source = source
        self.end_state = parser.end_states[start]
        self.states: list[Any] = [parser.start_states[start]]
        self.values: list[Any] = []
        self.comments: list[Comment] = []
        self.lex_errors: list[LexError] = []
        if window is None:
            self.tokens = list(tokenize(text, self.comments, self.lex_errors))
            self.tokens.append(Tok("$END", "", len(text), len(text)))
        else:
            self.tokens = _window_tokens(text, window, self.comments, self.lex_errors)
        self.i = 0
        self.groups: dict[int, int] | None = None
        """Bracket token index → index of its partner (opening ↔ closing), computed on the first
        recovery that needs them."""
        # Virtual tokens (repairs, ERROR) fed before tokens[i]; the last one first.
        self.pending: list[Tok] = []
        self.diags: list[Diagnostic] = []
        self.reported = 0
        # Parser state when a string spanning a line break was shifted: (states, values, token index,
        # diagnostics, the lengths of the lists on the value stack, see ``_lengths``).
        self.snapshot: tuple[list[Any], list[Any], int, int, _Lengths] | None = None
        self.end_diag: Diagnostic | None = None
        self.end_text = ""
        self.end_floor: int | None = None
        # Parser state when the last '}' was shifted, as for ``snapshot``.
        self.brace: tuple[list[Any], list[Any], int, int, _Lengths] | None = None
        # Indices of tokens whose syntax error is not reported: the error is that of an
        # unclosed string just re-read (see ``_reread_string``).
        self.quiet: set[int] = set()
        # Ends of strings the lexer closed at their line's end.
        self.closed = {e.end for e in self.lex_errors if e.kind == "unclosed-string"}

    # ------------------------------------------------------------ the loop
    def parse(self) -> Any:
        actions = self.actions
        keywords = KEYWORDS
        states = self.states
        values = self.values
        pending = self.pending
        end_state = self.end_state
        can_shift = self.p.can_shift
        tokens = self.tokens  # replaced in place by a re-read, never rebound
        i = self.i
        while True:
            tok = pending[-1] if pending else tokens[i]
            ttype = tok.type
            if ttype == "IDENT" and tok.value in keywords:
                kw = keywords[tok.value]
                if can_shift(states, kw):
                    ttype = kw
            action = actions[states[-1]].get(ttype)
            if action is None:
                self.i = i
                self._recover(tok)
                i = self.i
                continue
            size, arg, goto = action
            if size is None:
                tok.type = ttype
                states.append(arg)
                values.append(tok)
                if pending:
                    pending.pop()
                else:
                    if ttype == "RBRACE":
                        # A '}' typed too early closes a body and the error shows only later.
                        self.brace = (states[:-1], values[:-1], i, len(self.diags), _lengths(values))
                    elif ttype == "STRING" and "\n" in tok.value:
                        self.snapshot = (states[:-1], values[:-1], i, len(self.diags), _lengths(values))
                    i += 1
                continue
            if size:
                children = values[-size:]
                del states[-size:]
                del values[-size:]
            else:
                children = []
            value = arg(children)
            states.append(actions[states[-1]][goto][1])
            values.append(value)
            if ttype == "$END" and states[-1] == end_state:
                return value

    def _report(self, diag: Diagnostic) -> None:
        """Record a diagnostic of the recovery; only the first ``MAX_ERRORS`` are kept."""
        if self.reported < MAX_ERRORS:
            self.diags.append(diag)
        self.reported += 1

    def _kind(self, stack: list[Any], tok: Tok) -> str:
        if tok.type == "IDENT" and tok.value in KEYWORDS and self.p.can_shift(stack, KEYWORDS[tok.value]):
            return KEYWORDS[tok.value]
        return tok.type

    def _accepts(self, stack: list[Any], toks: Sequence[Tok]) -> int:
        """How many of ``toks`` the parser takes from ``stack`` (states only; reaching the end accepts all)."""
        actions = self.actions
        stack = list(stack)
        for n, tok in enumerate(toks):
            t = self._kind(stack, tok)
            while True:
                action = actions[stack[-1]].get(t)
                if action is None:
                    return n
                size, arg, goto = action
                if size is None:
                    stack.append(arg)
                    break
                if size:
                    del stack[-size:]
                stack.append(actions[stack[-1]][goto][1])
                if t == "$END" and stack[-1] == self.end_state:
                    return len(toks)
        return len(toks)

    def _after(self, stack: list[Any], tok: Tok) -> list[Any] | None:
        """The state stack once ``tok`` is shifted (with the reductions before it), or None if it cannot be."""
        actions = self.actions
        stack = list(stack)
        t = self._kind(stack, tok)
        while True:
            action = actions[stack[-1]].get(t)
            if action is None:
                return None
            size, arg, goto = action
            if size is None:
                stack.append(arg)
                return stack
            if size:
                del stack[-size:]
            stack.append(actions[stack[-1]][goto][1])

    def _passes(self, stack: list[Any], toks: Sequence[Tok]) -> bool:
        return self._accepts(stack, toks) == len(toks)

    def _window(self, j: int, least: int = 4) -> int:
        """Where the trial parse from token ``j`` stops: the end of its line, ``least`` to ``TRIAL`` tokens on."""
        stop = min(j + TRIAL, len(self.tokens))
        k = j + 1
        while k < stop and not self._line_start(k):
            k += 1
        return min(max(k, j + least), stop)

    def _line_start(self, j: int) -> bool:
        return j == 0 or "\n" in self.text[self.tokens[j - 1].end : self.tokens[j].start]

    # ------------------------------------------------------------ recovery
    def _recover(self, tok: Tok) -> None:
        if self.pending:
            # A virtual token was validated by a trial parse; if it still fails, forget it.
            self.pending.clear()
            return
        if self.snapshot is not None and self._reread_string():
            return
        if self.brace is not None and self._stray_brace():
            return
        if tok.type == "$END":
            self._finish(tok)
            return
        if tok.type == "STRING" and "\n" in tok.value and self._reread_here(tok):
            return
        report = not self._quiet(self.i)
        if report and (self._stray_opener() or self._close_before_statement() or self._repair(tok)):
            return
        self._panic(tok, report=report)

    def _repair(self, tok: Tok) -> bool:
        """Try single-token repairs at ``tok``; apply the one that lets the parse go furthest."""
        i = self.i
        tokens = self.tokens
        states = self.states
        can_shift = self.p.can_shift
        at = tokens[i - 1].end if i else tok.start
        # (how, terminal, stack, virtual tokens, index of the first real token after them)
        options: list[tuple[str, str, list[Any], list[Tok], int]] = []
        # Never close a bracket whose own closer comes later: that one would be left stray.
        kept = self._closed_later(tok)
        for t in _INSERTABLE:
            if t != kept and can_shift(states, t):
                options.append(("insert", t, states, [Tok(t, _TEXT[t], at, at)], i))
        top = self.values[-1] if self.values else None
        if isinstance(top, Tok) and top.type == "COLON" and len(states) > 1 and can_shift(states[:-1], "EQUAL"):
            # `<axis: 1>`: a node attribute written like a header entry.
            options.append(("colon", "EQUAL", states[:-1], [Tok("EQUAL", "=", top.start, top.end)], i))
        if self._line_start(i):
            # A token that starts a line starts a statement: keep it, close what precedes it.
            options = [o for o in options if o[1] in _CLOSERS or o[1] == "LBRACE"]
        else:
            options.append(("delete", "", states, [], i + 1))
            for t in _REPLACEABLE if tok.type in _TEXT else ():  # punctuation only: a name or value is no typo for one
                if t != tok.type and can_shift(states, t):
                    options.append(("replace", t, states, [Tok(t, _TEXT[t], tok.start, tok.end)], i + 1))
        passing = [o for o in options if self._passes(o[2], [*o[3], *tokens[o[4] : self._window(o[4])]])]
        if not passing:
            return False
        best = passing[0]
        if len(passing) > 1:
            # How far into the real tokens each repair lets the parse go; the first of the best wins.
            # the same window for every repair, so that skipping a token is no progress in itself
            reach = [o[4] + self._accepts(o[2], [*o[3], *tokens[o[4] : i + RANK]]) - len(o[3]) for o in passing]
            best = passing[reach.index(max(reach))]
        how, t = best[0], best[1]
        if how == "insert":
            self._report(self._insert_diag(t, tok, at))
            self.pending.append(Tok(t, _TEXT[t], at, at))
        elif how == "colon":
            assert isinstance(top, Tok)
            self.states.pop()
            self.values.pop()
            span = Span(top.start, top.end)
            fix = Fix("write '=' to give an attribute its value", (Edit(span, " ="),))
            self._report(
                Diagnostic.at(
                    SYNTAX, Severity.ERROR, "an attribute is set with '=', not ':'", span, self.source, fix=fix
                )
            )
            self.pending.append(Tok("EQUAL", "=", top.start, top.end))
        elif how == "delete":
            span = Span(tok.start, tok.end)
            fix = Fix(f"delete {found_text(tok)}", (Edit(span, ""),))
            self._report(Diagnostic.at(SYNTAX, Severity.ERROR, self._message(tok), span, self.source, fix=fix))
            self.i += 1
        else:
            span = Span(tok.start, tok.end)
            fix = Fix(f"write '{_TEXT[t]}'", (Edit(span, _TEXT[t]),))
            message = f"expected {TERMINAL_NAMES[t]}, found {found_text(tok)}"
            self._report(Diagnostic.at(SYNTAX, Severity.ERROR, message, span, self.source, fix=fix))
            self.i += 1
            self.pending.append(Tok(t, _TEXT[t], tok.start, tok.end))
        return True

    def _closed_later(self, tok: Tok) -> str | None:
        """The closer of the innermost open bracket when that bracket is closed further on, on a
        line of its own at the indentation of ``tok``'s line or deeper (as in a body whose last
        statements are still to come); None otherwise."""
        opener = self._unclosed()
        k = self._index(opener) if opener is not None else None
        partner = self._pairs().get(k) if k is not None else None
        if opener is None or partner is None or partner < self.i or not self._line_start(partner):
            return None
        return _OPENERS[opener.type] if self._column(self.tokens[partner].start) >= self._indent(tok.start) else None

    def _index(self, tok: Tok) -> int | None:
        """Where ``tok`` is in the token list (None for a virtual token)."""
        tokens = self.tokens
        k = bisect.bisect_left(tokens, tok.start, key=lambda t: t.start)
        return k if k < len(tokens) and tokens[k] is tok else None

    def _pairs(self) -> dict[int, int]:
        """The bracket pairs of the token list (``groups``), matched on first use."""
        if self.groups is None:
            self.groups = self._match_brackets()
        return self.groups

    def _message(self, tok: Tok) -> str:
        return describe_syntax_error(self.p.expected(self.states), tok)

    def _insert_diag(self, t: str, tok: Tok, at: int) -> Diagnostic:
        opener = self._unclosed() if t in _CLOSERS else None
        related: tuple[Related, ...] = ()
        if opener is not None and _OPENERS[opener.type] == t:
            line = self.source.range(Span(opener.start, opener.end)).start.line
            message = (
                f"expected {TERMINAL_NAMES[t]} to close the '{opener.value}' at line {line}, found {found_text(tok)}"
            )
            related = (Related(f"'{opener.value}' opened here", Span(opener.start, opener.end)),)
        elif t == "COMMA":
            message = self._message(tok)
        else:
            message = f"expected {TERMINAL_NAMES[t]}, found {found_text(tok)}"
        fix = Fix(f"insert '{_TEXT[t]}'", (Edit(Span(at, at), _TEXT[t]),))
        # On the token found when it follows on the same line, else where the token is missing.
        span = _tok_span(tok) if "\n" not in self.text[at : tok.start] else Span(at, at)
        return Diagnostic.at(SYNTAX, Severity.ERROR, message, span, self.source, fix=fix, related=related)

    def _unclosed(self) -> Tok | None:
        """The innermost bracket opened on the stack and not closed yet."""
        m = self._unclosed_at()
        return None if m is None else self.values[m]

    def _unclosed_at(self) -> int | None:
        """Where on the value stack the innermost bracket not closed yet is."""
        return _innermost_open(self.values)

    def _levels(self, states: list[Any], below: int | None = None) -> list[int]:
        """Stack heights (innermost first, under ``below``) where an ``ERROR`` statement can stand."""
        levels: list[int] = []
        h = len(states) if below is None else min(len(states), below - 1)
        can_shift = self.p.can_shift
        while h > 0 and len(levels) < MAX_LEVELS:
            if can_shift(states, "ERROR", h):
                levels.append(h)
            h -= 1
        return levels

    def _panic(self, tok: Tok, report: bool, below: int | None = None) -> int:
        """Replace the damaged statement by an ``ERROR`` token and resume at a synchronisation point.

        Inside a body the damage stays in the body: the error statement never takes the list
        that holds it (it ends at the body's ``}`` at the latest), and a statement of the body
        is only looked for where a line starts at the indentation of the body's statements or
        left of it; deeper lines continue the damaged statement (its attributes, inputs, subgraphs).
        """
        states, values, tokens = self.states, self.values, self.tokens
        i = self.i
        levels = self._levels(states, below)
        if not levels:
            # Nothing can stand for the damage here (never the case for this grammar): drop the token.
            if tok.type == "$END":  # pragma: no cover
                raise AssertionError("the grammar takes an ERROR statement at every entry point")
            if report:
                self._report(Diagnostic.at(SYNTAX, Severity.ERROR, self._message(tok), _tok_span(tok), self.source))
            self.i += 1
            return 0
        message = self._message(tok) if report else ""
        body, indent, brace = self._body_level(levels) if below is None else (0, 0, 0)
        if body:
            levels = levels[: levels.index(body) + 1]
        # A group closed on an earlier line is not opened again: the damage is after it.
        levels = [h for h in levels if h == body or not self._reopens(values[h - 1 :], tok.start)] or levels
        j = i
        chosen = -1
        while chosen < 0:
            t = tokens[j]
            if t.type == "STRING" and "\n" in t.value and j not in self.quiet:
                # A string running over a line break inside the damage: a quote typed or
                # deleted there, most likely. Read it as closed at its line's end.
                eol = self.text.find("\n", t.start)
                self._relex(j, Tok("STRING", self.text[t.start : eol] + '"', t.start, eol), resume=False)
                self.quiet.update((j, j + 1))
                t = tokens[j]
            if t.type == "$END":
                chosen = levels[0]
                break
            line_start = self._line_start(j)
            if t.type in _CLOSERS or t.type == "COMMA" or line_start:
                deeper = (
                    body > 0
                    and line_start
                    and self._column(t.start) > indent
                    and not (t.type == "RBRACE" and self._closes(j, brace))
                )
                for h in levels:
                    if j == i and start_of(values[h - 1 :]) is None:
                        continue  # an empty error region would make no progress
                    if h == body and deeper:
                        continue  # a line that continues the damaged statement
                    probe = Tok("ERROR", "", t.start, t.start)
                    # A longer look than a repair's: a statement boundary must really be one.
                    if self._passes(states[:h], [probe, *tokens[j : self._window(j, 6)]]):
                        chosen = h
                        break
                if chosen >= 0:
                    break
            # Tested after the token itself: a group that starts a line (a label `[name]`) may start a statement.
            group_end = self._group_end(j) if t.type in _OPENERS else None
            j = (
                group_end + 1 if group_end is not None else j + 1
            )  # a bracketed group inside the damage is damage as a whole
        if report:
            # An error at the first token of a statement that parses is the previous statement's:
            # it is reported where that one ends, not on the statement that is spared.
            at = tokens[i - 1].end if j == i and i and self._line_start(i) and tok.type != "$END" else None
            diag = Diagnostic.at(
                SYNTAX, Severity.ERROR, message, _tok_span(tok) if at is None else Span(at, at), self.source
            )
            self._report(diag)
            if tokens[j].type == "$END" and self.end_diag is None:
                self.end_diag = diag  # brackets closed at the end belong to this one mistake
        popped = values[chosen - 1 :]
        start = start_of(popped)
        if start is None:
            start = tokens[i].start if j > i else tokens[j].start
        end = tokens[j - 1].end if j > i else (end_of(popped) or start)
        node = A.ErrorNode(Span(start, end), "node", *self._defines(start, j))
        del states[chosen:]
        del values[chosen - 1 :]
        self.i = j
        self.pending.append(ErrorTok(node))
        return chosen

    def _body_level(self, levels: list[int]) -> tuple[int, int, int]:
        """The stack height of the innermost statement list among ``levels`` (0 if none), the
        indentation of its statements and the offset of its ``{``.

        The indentation is that of the last intact statement before the damage; when there is
        none, the damage may be the indentation itself, so every line may start a statement.
        """
        states, values, body_states = self.states, self.values, self.p.body_states
        for h in levels:
            if states[h - 1] in body_states:
                brace = next(
                    (v.start for v in reversed(values[: h - 1]) if isinstance(v, Tok) and v.type == "LBRACE"), -1
                )
                before = values[h - 2] if h >= 2 else None
                if isinstance(before, lark.Tree):  # the statements already read: node*
                    for node in reversed(before.children):
                        if isinstance(node, A.Node):
                            return h, self._indent(node.span.start), brace
                return h, sys.maxsize, brace
        return 0, 0, 0

    def _reopens(self, popped: list[Any], at: int) -> bool:
        """Whether ``popped`` (values an error statement would take) holds a bracket closing one
        opened before them, on a line before offset ``at``."""
        balance = 0
        for v in popped:
            if isinstance(v, Tok):
                if v.type in _OPENERS:
                    balance += 1
                elif v.type in _CLOSERS:
                    balance -= 1
                    if balance < 0 and "\n" in self.text[v.end : at]:
                        return True
        return False

    def _closes(self, j: int, brace: int) -> bool:
        """Whether the '}' at token ``j`` closes the body opened at offset ``brace`` (or one outside it)."""
        opener = self._pairs().get(j)
        return opener is None or self.tokens[opener].start <= brace

    def _column(self, offset: int) -> int:
        return offset - (self.text.rfind("\n", 0, offset) + 1)

    def _indent(self, offset: int) -> int:
        """The column of the first character that is not a blank on the line of ``offset``."""
        line = self.text.rfind("\n", 0, offset) + 1
        head = self.text[line:offset]
        return len(head) - len(head.lstrip())

    def _group_end(self, j: int) -> int | None:
        """The index of the bracket closing the one at ``j``, when skipping the group is safe: a
        ``(...)`` or ``[...]`` on one line, or a ``{ ... }`` block whose braces are each first on
        their line, in the same column, the ``{`` alone on its line (a stray block left by a cut
        line); None otherwise.

        No statement starts inside such a group, so no synchronisation point is looked for
        there. A stray ``{`` or ``(`` typed mid-line has no such partner: it may steal the
        closer of the enclosing body, and skipping to that would swallow the statements after it.
        """
        end = self._pairs().get(j)
        if end is None:
            return None
        text, tokens = self.text, self.tokens
        if tokens[j].type in ("LPAR", "LSQB"):
            return end if "\n" not in text[tokens[j].end : tokens[end].start] else None
        if (
            tokens[j].type != "LBRACE"
            or not self._line_start(j)
            or not self._line_start(j + 1)
            or not self._line_start(end)
        ):
            return None  # a '{' followed on its line by a statement was typed there: it is no block
        return end if self._column(tokens[end].start) == self._column(tokens[j].start) else None

    def _match_brackets(self) -> dict[int, int]:
        """Index of each opening bracket → index of the bracket that closes it, and back (one linear pass)."""
        stacks: dict[str, list[int]] = {closer: [] for closer in _CLOSERS}
        found: dict[int, int] = {}
        for k, tok in enumerate(self.tokens):
            closer = _OPENERS.get(tok.type)
            if closer is not None:
                stacks[closer].append(k)
            elif tok.type in stacks and stacks[tok.type]:
                opener = stacks[tok.type].pop()
                found[opener] = k
                found[k] = opener
        return found

    def _defines(self, start: int, stop: int) -> tuple[list[A.Ident], bool]:
        """The names a damaged statement ``a, b = ...`` appears to define, and whether they are known."""
        tokens = self.tokens
        k = bisect.bisect_left(tokens, start, key=lambda t: t.start)
        if k < stop and tokens[k].type == "LSQB":  # a label `[name]` before the outputs
            while k < stop and tokens[k].type != "RSQB":
                k += 1
            k += 1
        names: list[A.Ident] = []
        for t in tokens[k:stop]:
            if t.type == "EQUAL":
                return names, True
            if t.type == "IDENT":
                names.append(A.Ident(token_span(t), t.value))
            elif t.type == "STRING":
                if len(t.value) != t.end - t.start:
                    break  # a string recovery closed at its line's end: where the name ends is unknown
                raw, _ = unescape_string(t.value)
                names.append(A.Ident(token_span(t), raw.decode("utf-8", "surrogateescape"), True))
            elif t.type != "COMMA":
                break  # the damage is in the outputs: which names they are is unknown
        return [], False

    def _finish(self, tok: Tok) -> None:
        """At the end of the text: close what is open (virtually), or end the unfinished statement as an error."""
        n = len(self.text)
        opener = self._unclosed()
        closer = _OPENERS[opener.type] if opener is not None else None
        if opener is not None and closer is not None and self.p.can_shift(self.states, closer):
            text = ("\n" if closer == "RBRACE" else "") + _TEXT[closer]
            self.end_text += text
            fix = Fix(
                f"close what is still open: insert {self.end_text.strip()!r} at the end",
                (Edit(Span(n, n), self.end_text),),
            )
            if self.end_diag is None:
                line = self.source.range(Span(opener.start, opener.end)).start.line
                self.end_diag = Diagnostic.at(
                    SYNTAX,
                    Severity.ERROR,
                    f"expected {TERMINAL_NAMES[closer]} to close the '{opener.value}' at line {line}, "
                    "found the end of the text",
                    Span(n, n),
                    self.source,
                    fix=fix,
                    related=(Related(f"'{opener.value}' opened here", Span(opener.start, opener.end)),),
                )
                self._report(self.end_diag)
            else:
                self.end_diag.fix = fix
            self.pending.append(Tok(closer, _TEXT[closer], n, n))
            return
        first = self.end_diag is None
        if first:
            self.end_diag = Diagnostic.at(SYNTAX, Severity.ERROR, self._message(tok), _tok_span(tok), self.source)
            self._report(self.end_diag)
        # Each error statement at the end stands in a list outside the previous one, so this ends.
        self.end_floor = self._panic(tok, report=False, below=self.end_floor)

    def _quiet(self, i: int) -> bool:
        """Whether an error at token ``i`` follows from an unclosed string already reported."""
        if i in self.quiet:
            return True
        tokens, closed = self.tokens, self.closed
        if tokens[i].type == "STRING" and tokens[i].end in closed:
            return True  # the string itself, closed by the lexer where it was not
        prev = tokens[i - 1] if i else None
        return prev is not None and prev.type == "STRING" and prev.end in closed

    def _reread_here(self, tok: Tok) -> bool:
        """The error token is a string spanning a line break: read it as unclosed at its line's end."""
        i = self.i
        if i in self.quiet:
            return False
        eol = self.text.find("\n", tok.start)
        fixed = Tok("STRING", self.text[tok.start : eol] + '"', tok.start, eol)
        self._relex(i, fixed)
        self.quiet.update((i, i + 1))
        return True

    def _relex(self, k: int, fixed: Tok, *, resume: bool = True) -> None:
        """Replace token ``k`` by ``fixed`` (an unclosed string ending at its line) and read the rest
        again; with ``resume`` the parse goes on from it."""
        text = self.text
        self.comments[:] = [c for c in self.comments if c.end <= fixed.start]
        self.lex_errors[:] = [e for e in self.lex_errors if e.end <= fixed.start]
        rest = list(tokenize(text, self.comments, self.lex_errors, fixed.end))
        self.tokens[k:] = [fixed, *rest, Tok("$END", "", len(text), len(text))]
        self.groups = None  # bracket pairs change with the tokens
        if resume:
            self.i = k
            self.pending.clear()
        fix = Fix("close the string on its line", (Edit(Span(fixed.end, fixed.end), '"'),))
        message = "string literal is not closed: expected '\"' before the end of the line"
        self._report(
            Diagnostic.at(BAD_STRING, Severity.ERROR, message, Span(fixed.start, fixed.end), self.source, fix=fix)
        )

    def _stray_opener(self) -> bool:
        """Drop the innermost open bracket if it starts or ends its line (so its group runs over a
        line break or continues a statement of an earlier line) and the parse then goes through
        the error point: a bracket typed where nothing closes it, whose group would take the
        statement after it."""
        m = self._unclosed_at()
        if m is None:
            return False
        opener: Tok = self.values[m]
        tokens, i = self.tokens, self.i
        k = self._index(opener)
        if k is None or i - k > 4 * TRIAL:
            return False  # a virtual bracket, or too far back to be the cause
        if not (self._line_start(k) or self._line_start(k + 1)):
            return False  # a bracket inside a line: the repairs at the error point see it
        states = self.states[: m + 1]
        if self.states[m + 1] in self.p.body_states or not self._passes(states, tokens[k + 1 : self._window(i)]):
            return False  # a body's '{' is not typed by mistake, or the parse still fails without it
        del self.states[m + 1 :]
        del self.values[m:]
        self._rewind(k + 1, opener.start)
        span = Span(opener.start, opener.end)
        fix = Fix(f"delete the '{opener.value}'", (Edit(span, ""),))
        message = f"unexpected '{opener.value}': the group it opens runs over the statement after it"
        self._report(Diagnostic.at(SYNTAX, Severity.ERROR, message, span, self.source, fix=fix))
        return True

    def _close_before_statement(self) -> bool:
        """End the damaged statement before a line it ran over when that line starts at the
        indentation of the body's statements (or left of it) and can start a statement: an
        unclosed bracket or an unfinished statement must not take the statements after it."""
        levels = self._levels(self.states)
        body, indent, _ = self._body_level(levels)
        start = start_of(self.values[body - 1 :]) if body else None
        if start is None:
            return False  # not in a body, or the error is at the statement's first token
        if indent == sys.maxsize:
            # The first statement of the body: the indentation of its own first line (a slip
            # that moves it left only makes the cut rarer).
            indent = self._indent(start)
        tokens, i = self.tokens, self.i
        first = bisect.bisect_left(tokens, start, key=lambda t: t.start)
        stack = self.states[:body]
        at = next(
            (
                j
                for j in range(
                    max(first + 1, i - 4 * TRIAL), i
                )  # before the error token: the statement took the start of another
                if self._line_start(j)
                and self._column(tokens[j].start) <= indent
                and self._passes(
                    stack, [Tok("ERROR", "", tokens[j].start, tokens[j].start), *tokens[j : self._window(j, 6)]]
                )
            ),
            None,
        )
        if at is None:
            return False
        end = tokens[at - 1].end
        message, related = self._unfinished(stack, first, at)
        node = A.ErrorNode(Span(start, end), "node", *self._defines(start, at))
        del self.states[body:]
        del self.values[body - 1 :]
        self._rewind(at, tokens[at].start)
        self.pending.append(ErrorTok(node))
        self._report(Diagnostic.at(SYNTAX, Severity.ERROR, message, Span(end, end), self.source, related=related))
        return True

    def _unfinished(self, stack: list[Any], first: int, at: int) -> tuple[str, tuple[Related, ...]]:
        """What the statement of tokens ``first`` to ``at`` (read from ``stack``) lacks at its end:
        the closer of its innermost open bracket, or what its parser state expects."""
        tokens = self.tokens
        k = _innermost_open(tokens[first:at])
        if k is not None:
            t = tokens[first + k]
            line = self.source.range(Span(t.start, t.end)).start.line
            message = (
                f"expected {TERMINAL_NAMES[_OPENERS[t.type]]} to close the '{t.value}' at line {line}, "
                f"found {found_text(tokens[at])}"
            )
            return message, (Related(f"'{t.value}' opened here", Span(t.start, t.end)),)
        state: list[Any] | None = stack
        for k in range(first, at):
            state = self._after(state, tokens[k]) if state is not None else None
        wanted = wanted_text(self.p.expected(state)) if state is not None else "the rest of the statement"
        line = self.source.range(Span(tokens[at].start, tokens[at].end)).start.line
        return f"expected {wanted} before the end of the line, found the statement at line {line}", ()

    def _rewind(self, k: int, offset: int) -> None:
        """Go back to token ``k`` (the stack is already cut back): what was reported from ``offset``
        on is read again, and the snapshots were taken on the path left."""
        kept = [d for d in self.diags if d.offset < offset]
        self.reported -= len(self.diags) - len(kept)
        self.diags[:] = kept
        self.snapshot = self.brace = None
        self.i = k

    def _stray_brace(self) -> bool:
        """Drop the last '}' if the parse then goes through the error point (a body closed too early)."""
        brace = self.brace
        assert brace is not None
        self.brace = None  # at most once per brace
        states, values, k, ndiags, lengths = brace
        if self.i - k > 4 * TRIAL or self.i <= k:
            return False  # too far back to be the cause
        if not self._passes(states, self.tokens[k + 1 : self._window(self.i)]):
            return False
        here = self.tokens[self.i]
        if (
            self.i == k + 1
            and here.type == "RBRACE"
            and self._passes(self.states, self.tokens[k + 2 : self._window(k + 2)])
        ):
            # Two '}' in a row: either gone leaves the same tokens; the extra one is the second.
            span = Span(here.start, here.end)
            message = f"{self._message(here)} (one '}}' too many)"
            self.i = k + 2
        else:
            self.states[:] = states
            self.values[:] = values
            _restore(lengths)
            del self.diags[ndiags:]
            self.i = k + 1
            span = Span(self.tokens[k].start, self.tokens[k].end)
            message = "unexpected '}': it closes the body before its end"
        self.pending.clear()
        fix = Fix("delete the '}'", (Edit(span, ""),))
        self._report(Diagnostic.at(SYNTAX, Severity.ERROR, message, span, self.source, fix=fix))
        return True

    def _reread_string(self) -> bool:
        """Read the last string that spans a line break as unclosed at its line's end, if the parse then goes on."""
        snapshot = self.snapshot
        assert snapshot is not None
        self.snapshot = None  # at most once per string
        states, values, k, ndiags, lengths = snapshot
        if self.i - k > 2 * TRIAL:
            return False  # the parse went on well past the string: it was not the cause
        tok = self.tokens[k]
        text = self.text
        eol = text.find("\n", tok.start)
        fixed = Tok("STRING", text[tok.start : eol] + '"', tok.start, eol)
        ahead = list(itertools.islice(tokenize(text, None, None, eol), LOOK_LINES * TRIAL))
        if len(ahead) < LOOK_LINES * TRIAL:
            ahead.append(Tok("$END", "", len(text), len(text)))
        if not self._passes(states, [fixed, *ahead[:TRIAL]]):
            # Still worth it if the next line, or a later one the string held, can follow as a
            # statement of its own (the lines between continue the damaged statement).
            after = self._after(states, fixed)
            if after is None or not self._statement_follows(after, ahead, eol, tok.end):
                return False
            self.quiet.add(k + 1)
        self.states[:] = states
        self.values[:] = values
        _restore(lengths)
        del self.diags[ndiags:]
        self._relex(k, fixed)
        return True

    def _statement_follows(self, stack: list[Any], ahead: list[Tok], eol: int, stop: int) -> bool:
        """Whether, after an error statement on ``stack``, a statement can start on the line after
        ``eol`` or on a later line that starts before offset ``stop`` (``ahead``: the tokens from ``eol``)."""
        levels = self._levels(stack)
        text = self.text
        last = eol
        lines = 0
        for n, t in enumerate(ahead):
            if "\n" in text[last : t.start]:
                if lines == LOOK_LINES or (lines and t.start >= stop):
                    return False
                lines += 1
                window = [Tok("ERROR", "", t.start, t.start), *ahead[n : n + TRIAL]]
                if any(self._passes(stack[:h], window) for h in levels):
                    return True
            last = t.end
        return False


_Lengths = list[tuple[list[Any], int]]


def _lengths(values: list[Any]) -> _Lengths:
    """The lists of the value stack's repetitions (``node*``, ``function*``) and their lengths now.

    Lark builds a repetition left-recursively and, for speed, extends the list of the one before
    in place: a later reduction grows the list a snapshot of the stack holds. Going back to the
    snapshot cuts each list back to its length then (else a function or statement reduced after
    the snapshot was taken stays in it, and is read a second time)."""
    return [(v.children, len(v.children)) for v in values if type(v) is lark.Tree]


def _restore(lengths: _Lengths) -> None:
    """Cut each list back to its length in :func:`_lengths`' record."""
    for children, n in lengths:
        del children[n:]


def _innermost_open(items: Sequence[Any]) -> int | None:
    """The index of the last bracket among ``items`` (tokens and built values) that none of the
    items after it closes."""
    depth = 0
    for m in range(len(items) - 1, -1, -1):
        v = items[m]
        if isinstance(v, Tok):
            if v.type in _CLOSERS:
                depth += 1
            elif v.type in _OPENERS:
                if not depth:
                    return m
                depth -= 1
    return None


def _window_tokens(text: str, window: tuple[int, int], comments: list[Comment], errors: list[LexError]) -> list[Tok]:
    """The tokens of ``text[begin:stop]`` read as a body ``{ ... }`` (the braces virtual, at its ends):
    the statements of one body re-read alone (``incremental``). A token or comment running past
    ``stop`` is kept, so the caller sees the window does not end where a statement does."""
    begin, stop = window
    tokens = [Tok("LBRACE", "{", begin, begin)]
    for tok in tokenize(text, comments, errors, begin):
        if tok.start >= stop:
            break
        tokens.append(tok)
    comments[:] = [c for c in comments if c.start < stop]
    errors[:] = [e for e in errors if e.start < stop]
    tokens += [Tok("RBRACE", "}", stop, stop), Tok("$END", "", stop, stop)]
    return tokens


class ErrorTok(Tok):
    """The ``ERROR`` terminal the driver injects for a damaged statement; it carries the error node."""

    __slots__ = ("node",)

    def __init__(self, node: A.ErrorNode) -> None:
        super().__init__("ERROR", "", node.span.start, node.span.end)
        self.node = node


def _tok_span(tok: Tok) -> Span:
    return Span(tok.start, max(tok.end, tok.start + 1)) if tok.type != "$END" else Span(tok.start, tok.start)
