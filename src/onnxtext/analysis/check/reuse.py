"""The checker's findings per node of the main graph, kept for the next version of the text.

What the node rules report about a node is a function of the node (its bytes), of the
model's context (:func:`~onnxtext.analysis.lineup.context_key`, the rules chosen, the
damage, the model's folder) and of which names are defined where the node stands. A node
whose inputs were all defined and whose outputs were all new reads nothing else of the
scope: its findings are reused, moved with its statement (:func:`relocated`), while that
stays true. A node that read more (an undefined input, an output defined before, a
subgraph, which sees the whole scope; an attribute tensor whose file the rules read; a
finding outside its statement) is *volatile*: checked again in every version.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import chain
from operator import attrgetter
from typing import Any

from onnxtext.analysis.check.context import Definition, Token
from onnxtext.analysis.lineup import Keys, Lineup
from onnxtext.diagnostics import Diagnostic, Edit, Fix, Related
from onnxtext.ir.paths import ROOT
from onnxtext.lowering.source_map import SourceMap
from onnxtext.proto import GraphProto
from onnxtext.span import SourceFile, Span

__all__ = ["CheckMemo", "NodeFindings", "Plan", "node_path", "relocated"]

C90Entry = tuple[str, str, Token, str]
"""(name, path, token, what): a name :class:`~onnxtext.analysis.check.rules.names_c90.C90Names` collected."""

_MAIN = ROOT / "graph"
_NAMES = attrgetter("names")
_DEFS = attrgetter("defs")


def node_path(k: int) -> str:
    """The proto path of main-graph node ``k``, as the checker writes it."""
    return f"graph/node[{k}]"


@dataclass(slots=True)
class NodeFindings:
    """One main-graph node as the checker saw it: the names it defines and what the rules said."""

    inputs: tuple[str, ...]
    names: tuple[str, ...]
    """Its non-empty output names (each once, first first)."""
    defs: tuple[Definition, ...]
    """The definition of each of :attr:`names` at this node."""
    diagnostics: tuple[Diagnostic, ...] = ()
    anchor: int = 0
    """Where its statement started in the text its :attr:`diagnostics` are located in."""
    text: str = ""
    """Its statement's text (a finding moves with it only while it reads the same)."""
    c90: tuple[C90Entry, ...] = ()
    volatile: bool = False
    """Its findings depend on more than its inputs' and outputs' being defined: checked in every version."""

    @property
    def sparse(self) -> bool:
        return self.volatile or bool(self.diagnostics) or bool(self.c90)


def defining(k: int, outputs: Sequence[str]) -> tuple[tuple[str, ...], tuple[Definition, ...]]:
    """The names node ``k`` with ``outputs`` defines and their definitions (a name given twice: its first)."""
    names: list[str] = []
    defs: list[Definition] = []
    path = node_path(k)
    for j, out in enumerate(outputs):
        if out and out not in names:
            names.append(out)
            defs.append(Definition(out, path, _output(j), "node"))
    return tuple(names), tuple(defs)


_OUTPUTS = [("output", j) for j in range(8)]
"""The tokens most definitions share (a memo holds one per node output)."""


def _output(j: int) -> tuple[str, int]:
    return _OUTPUTS[j] if j < len(_OUTPUTS) else ("output", j)


@dataclass(slots=True)
class CheckMemo:
    """One version's main-graph findings, for the next version."""

    context: tuple[Any, ...]
    keys: list[bytes]
    nodes: list[NodeFindings]
    sparse: list[int]
    """Indices of the :attr:`NodeFindings.sparse` nodes, ascending."""
    damaged: frozenset[str] = frozenset()
    """The names damaged statements of the main graph defined."""


def relocated(diag: Diagnostic, delta: int, source: SourceFile) -> Diagnostic:
    """``diag`` moved by ``delta`` characters, located in ``source``."""

    def move(span: Span) -> Span:
        return Span(span.start + delta, span.end + delta)

    assert diag.span is not None
    related = tuple(Related(r.message, move(_offsets(r.span))) for r in diag.related)
    fix = diag.fix
    if fix is not None and fix.edits:
        fix = Fix(fix.message, tuple(Edit(move(e.span), e.new_text) for e in fix.edits))
    return Diagnostic(diag.code, diag.severity, diag.message, move(diag.span.offsets), source, related, None, fix)  # type: ignore[arg-type]


def _offsets(span: Any) -> Span:
    return span if isinstance(span, Span) else span.offsets


def within(diag: Diagnostic, outer: Span) -> bool:
    """Whether every place ``diag`` names (its span, notes, fix edits) lies in ``outer``."""
    if diag.span is None:
        return False
    spans = [diag.span.offsets, *(_offsets(r.span) for r in diag.related)]
    if diag.fix is not None:
        spans.extend(e.span for e in diag.fix.edits)
    return all(outer.start <= s.start and s.end <= outer.end for s in spans)


class Plan:
    """How the checker walks the main graph of one version: which nodes it checks, which it takes
    from the previous version (:class:`CheckMemo`), and the new memo it fills."""

    def __init__(
        self,
        context: tuple[Any, ...],
        keys: Keys,
        previous: CheckMemo | None,
        source: SourceFile | None,
        source_map: SourceMap | None,
        damaged: frozenset[str] = frozenset(),
        shared: Callable[[], Sequence[Any] | None] = lambda: None,
    ) -> None:
        self.context = context
        self.damaged = damaged
        self.shared = shared
        """This version's inference outcomes, if made (their name tuples are shared, not copied)."""
        self._outcomes: Sequence[Any] | None = None
        """The names damaged statements of the main graph define (defined from its first node on)."""
        self.keys = keys
        self.source = source
        self.source_map = source_map
        self.old = previous if previous is not None and previous.context == context else None
        self.nodes: list[NodeFindings] = []
        self.checked: list[int] = []
        """New indices of the nodes checked anew, ascending."""
        self.done = 0
        """Nodes before this one are in the scope (checked, or caught up)."""
        self.lineup: Lineup | None = None
        self.said: list[int] = []
        """New indices of the nodes taken from the previous version with findings to report, ascending."""

    def later(self, graph: GraphProto) -> Later:
        """The main graph's ``later``: the first definition of a name among the nodes not yet walked."""
        return Later(self.nodes, graph)

    def prepare(self, graph: GraphProto, base: dict[str, Definition]) -> None:
        """Line up the nodes, decide which to check: ``base`` is what the scope holds before the first node."""
        nodes = graph.node
        n = len(nodes)
        old = self.old
        self._outcomes = self.shared()
        if old is None:
            self.nodes = [_BLANK] * n  # each recorded when checked
            self.checked = list(range(n))
            return
        lineup = self.lineup = self.keys.line_up(old.keys)
        shift = lineup.shift
        previous = old.nodes
        mine = self.nodes = list(previous[: lineup.prefix])
        mine.extend([_BLANK] * (lineup.middle_end - lineup.prefix))
        suffix_start = lineup.old_count - lineup.suffix
        if shift:
            mine.extend(map(_moved, previous[suffix_start:], range(suffix_start + shift, lineup.new_count)))
        else:
            mine.extend(previous[suffix_start:])
        self.said = [
            k if k < lineup.prefix else k + shift
            for k in old.sparse
            if not lineup.prefix <= k < suffix_start and (previous[k].diagnostics or previous[k].c90)
        ]
        checked = self._volatile(old, lineup)
        checked.update(range(lineup.prefix, lineup.middle_end))
        middle = {out for k in range(lineup.prefix, lineup.middle_end) for out in nodes[k].output if out}
        checked.update(self._scope_changed(lineup, base, old, middle))
        self.checked = sorted(checked)

    def _defining(self, k: int, path: str, outputs: list[str]) -> tuple[tuple[str, ...], tuple[Definition, ...]]:
        """What node ``k`` at ``path`` defines (the name strings inference's outcome holds, when it has them)."""
        outcomes = self._outcomes
        if outcomes is not None and len(outputs) == 1:  # the common case, shared with inference, made directly
            names = outcomes[k].names
            if len(names) == 1 and names[0] == outputs[0]:
                return names, (Definition(names[0], path, _OUTPUTS[0], "node"),)
        return defining(k, outputs)

    def _volatile(self, old: CheckMemo, lineup: Lineup) -> set[int]:
        """The new indices of the prefix's and suffix's nodes checked anew whatever the scope: volatile
        ones, and those with findings whose statement's text changed."""
        out: set[int] = set()
        suffix_start = lineup.old_count - lineup.suffix
        for k in old.sparse:
            if lineup.prefix <= k < suffix_start:
                continue
            new = k if k < lineup.prefix else k + lineup.shift
            found = old.nodes[k]
            if found.volatile or (found.diagnostics and self._text(new) != found.text):
                out.add(new)
        return out

    def _text(self, k: int) -> str | None:
        span = self.source_map.span(_MAIN.child("node", k)) if self.source_map is not None else None
        return self.source.text[span.start : span.end] if span is not None and self.source is not None else None

    def _scope_changed(
        self, lineup: Lineup, base: dict[str, Definition], old: CheckMemo, new_names: set[str]
    ) -> list[int]:
        """The prefix's and suffix's nodes that read or define a name whose being defined where they stand
        differs from the previous version (names a damaged statement defines count from the first node)."""
        mine = self.nodes
        kept = {n for n, d in base.items() if d.kind != "damaged"}  # inputs, initializers: the context's
        damaged = (old.damaged ^ self.damaged) - kept
        old_middle = old.nodes[lineup.prefix : lineup.old_count - lineup.suffix]
        old_names = set(chain.from_iterable(map(_NAMES, old_middle)))
        if not damaged and old_names == new_names:
            return []
        out: list[int] = []
        changed = set(damaged)
        self._scan(0, lineup.prefix, changed, out)
        before = set(chain.from_iterable(map(_NAMES, mine[: lineup.prefix])))
        candidates = damaged | (old_names ^ new_names)
        changed = {
            n
            for n in candidates
            if (n in old.damaged or n in old_names or n in before or n in kept)
            != (n in self.damaged or n in new_names or n in before or n in kept)
        }
        self._scan(lineup.middle_end, lineup.new_count, changed, out)
        return out

    def _scan(self, start: int, end: int, changed: set[str], out: list[int]) -> None:
        """Nodes ``[start, end)`` reading or defining a name of ``changed`` into ``out``; a name a node
        defines is defined after it in both versions."""
        mine = self.nodes
        for k in range(start, end):
            if not changed:
                return
            found = mine[k]
            if not (changed.isdisjoint(found.inputs) and changed.isdisjoint(found.names)):
                out.append(k)
            changed.difference_update(found.names)

    # ------------------------------------------------------------ the walk
    def catch_up(self, end: int, names: dict[str, Definition]) -> list[tuple[int, NodeFindings]]:
        """Take nodes ``[done, end)`` from the previous version: their names into the scope; returns those
        with findings to report, in order."""
        start = self.done
        self.done = end
        if start >= end:
            return []
        run = self.nodes[start:end]
        deque(
            map(names.setdefault, chain.from_iterable(map(_NAMES, run)), chain.from_iterable(map(_DEFS, run))), maxlen=0
        )
        said = self.said
        return [(k, self.nodes[k]) for k in said[bisect_left(said, start) : bisect_left(said, end)]]

    def reported(self, found: NodeFindings, k: int) -> tuple[Diagnostic, ...]:
        """The findings of node ``k`` taken from the previous version, located in this text."""
        if not found.diagnostics:
            return ()
        span = self.source_map.span(_MAIN.child("node", k)) if self.source_map is not None else None
        assert span is not None and self.source is not None, "a node with findings has its statement"
        delta = span.start - found.anchor
        moved = tuple(relocated(d, delta, self.source) for d in found.diagnostics)
        self.nodes[k] = replace(found, diagnostics=moved, anchor=span.start)
        return moved

    def record(
        self,
        k: int,
        path: str,
        inputs: list[str],
        outputs: list[str],
        diagnostics: list[Diagnostic],
        c90: list[C90Entry],
        volatile: bool,
    ) -> tuple[Definition, ...]:
        """What checking node ``k`` (at ``path``) anew found; returns the definitions of its outputs."""
        found = self.nodes[k]
        names, defs = (found.names, found.defs) if found is not _BLANK else self._defining(k, path, outputs)
        span = None
        text = ""
        if diagnostics:
            span = self.source_map.span(_MAIN.child("node", k)) if self.source_map is not None else None
            if span is None or self.source is None or not all(within(d, span) for d in diagnostics):
                volatile = True
            else:
                text = self.source.text[span.start : span.end]
        self.nodes[k] = NodeFindings(
            self._inputs(k, inputs),
            names,
            defs,
            tuple(diagnostics) if diagnostics else (),
            span.start if span is not None else 0,
            text,
            tuple(c90) if c90 else (),
            volatile,
        )
        self.done = k + 1
        return defs

    def _inputs(self, k: int, inputs: list[str]) -> tuple[str, ...]:
        mine = tuple(inputs)
        outcomes = self._outcomes
        if outcomes is not None and outcomes[k].inputs == mine:
            return outcomes[k].inputs  # type: ignore[no-any-return]  # the strings inference's outcome holds
        return mine

    def memo(self) -> CheckMemo:
        """This version's memo (for the next one)."""
        nodes = self.nodes
        lineup, old = self.lineup, self.old
        if lineup is None or old is None:
            sparse = [k for k, found in enumerate(nodes) if found.sparse]
        else:  # the previous version's, moved, and the nodes checked anew
            suffix_start = lineup.old_count - lineup.suffix
            candidates = set(self.checked)
            candidates.update(
                k if k < lineup.prefix else k + lineup.shift
                for k in old.sparse
                if not lineup.prefix <= k < suffix_start
            )
            sparse = sorted(k for k in candidates if nodes[k].sparse)
        return CheckMemo(self.context, self.keys.nodes, self.nodes, sparse, self.damaged)


_ASKED_ALONE = 4
"""Names :class:`Later` looks for one walk each before it makes the table of every definition."""


class Later(dict[str, Definition]):
    """The main graph's ``later`` (:attr:`GraphInfo.later`) in an incremental check: the first definition of
    each name among the nodes from :attr:`at` on, found when a rule asks (the walk moves :attr:`at`)."""

    def __init__(self, nodes: list[NodeFindings], graph: GraphProto) -> None:
        super().__init__()
        self.nodes = nodes
        self.graph = graph
        self.at = 0
        self._first: dict[str, tuple[int, Definition]] | None = None
        self._asked = 0

    def _defs(self, k: int) -> Sequence[Definition]:
        found = self.nodes[k]
        return found.defs if found is not _BLANK else defining(k, list(self.graph.node[k].output))[1]

    def _find(self, name: str) -> Definition | None:
        if self._first is None and self._asked < _ASKED_ALONE:
            # A few names (a typo's one undefined use) are looked for alone: a table of every
            # definition of 30,000 nodes costs several such walks.
            self._asked += 1
            for k in range(len(self.nodes)):
                for d in self._defs(k):
                    if d.name == name:
                        return d if k >= self.at else None
            return None
        if self._first is None:
            first: dict[str, tuple[int, Definition]] = {}
            for k in range(len(self.nodes)):
                for d in self._defs(k):
                    if d.name not in first:
                        first[d.name] = (k, d)
            self._first = first
        hit = self._first.get(name)
        return hit[1] if hit is not None and hit[0] >= self.at else None

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        found = self._find(name)
        return found if found is not None else default

    def pop(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        """Not used: the walk defines the main graph's node outputs from the plan (:meth:`Plan.record`)."""
        raise NotImplementedError


_BLANK = NodeFindings((), (), ())
"""A node the walk checks anew, not yet recorded."""


def _moved(found: NodeFindings, new: int) -> NodeFindings:
    """``found`` as new node ``new`` (definitions and collected names moved)."""
    path = f"graph/node[{new}]"  # node_path, inlined: called for every node after an inserted statement
    defs = found.defs
    if len(defs) == 1:
        d = defs[0]
        defs = (Definition(d.name, path, d.token, d.kind),)
    else:
        defs = tuple(Definition(d.name, path, d.token, d.kind) for d in defs)
    c90 = tuple((name, path, token, what) for name, _, token, what in found.c90) if found.c90 else ()
    return NodeFindings(
        found.inputs, found.names, defs, found.diagnostics, found.anchor, found.text, c90, found.volatile
    )
