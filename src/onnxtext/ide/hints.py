"""Inlay hints: a short label after each value a graph defines (its type, or its live value)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from onnxtext.analysis.symbols import Scope
from onnxtext.document import Document
from onnxtext.evaluate.live import LiveResult
from onnxtext.syntax import ast as A

__all__ = ["Hint", "ShownHint", "value_hints", "inlay_hints", "hints_between", "live_labels", "fit_label", "HINT_WIDTH"]

HINT_WIDTH = 43
"""VS Code's default ``editor.inlayHints.maximumLength``: it cuts a longer label wherever the
limit falls, mid-number (``max=0.825511…``)."""


@dataclass(frozen=True)
class Hint:
    """``label`` shown at character ``offset`` (right after a value's name)."""

    offset: int
    label: str
    name: str


def value_hints(
    graph: A.Graph | A.Function, label_of: Callable[[str], str | None], *, inputs: bool = False
) -> Iterator[Hint]:
    """A hint after every node output of a graph or function body (and its inputs with
    ``inputs``) that ``label_of`` labels.

    Subgraphs are not entered: their values live in other scopes, with their own labels.
    """
    if inputs:
        for item in graph.inputs or []:
            if isinstance(item, A.Initializer):
                yield from _hint(item.info.name, label_of)
            elif isinstance(item, A.ValueInfo):
                yield from _hint(item.name, label_of)
    for node in graph.nodes:
        if isinstance(node, A.Node):
            for out in node.outputs:
                if out.value:
                    yield from _hint(out, label_of)


def _hint(ident: A.Ident, label_of: Callable[[str], str | None]) -> Iterator[Hint]:
    label = label_of(ident.value)
    if label:
        yield Hint(ident.span.end, label, ident.value)


def fit_label(label: str, width: int = HINT_WIDTH) -> str:
    """``label`` cut to ``width`` characters between words (``min=-1 max=2`` whole or not at all),
    ending in ``…`` when cut; the full label goes to the hint's tooltip."""
    if len(label) <= width:
        return label
    cut = label.rfind(" ", 0, width)  # the last space that leaves room for the ellipsis
    while cut > 0 and label[:cut].endswith(" "):
        cut -= 1
    return (label[:cut] if cut > 0 else label[: width - 1]) + "…"


def live_labels(live: LiveResult) -> dict[str, dict[str, str]]:
    """Per graph path (``graph``, ``graph/node[3]/attribute[0]/g``, ``functions[1]``), each value's live summary."""
    out: dict[str, dict[str, str]] = {}
    for v in [*live.inputs, *live.values]:
        runs = f" (last of {v.runs} runs)" if v.runs > 1 else ""
        out.setdefault(v.graph, {})[v.name] = v.stats.text() + runs
    return out


def inlay_hints(doc: Document, types: bool, live: LiveResult | None) -> list[Hint]:
    """The inferred type after every value of every graph (``types``); with ``live``, in the
    graphs and function bodies that ran, the live value instead (it says the dtype and the
    shape too, and the statistics)."""
    out: list[Hint] = []
    by_graph = live_labels(live) if live is not None else {}
    for scope in doc.symbols.scopes:
        body = scope.node
        values = by_graph.get(str(doc.source_map.path_of(body) or ""))
        if values:
            out.extend(Hint(h.offset, f" = {h.label}", h.name) for h in value_hints(body, values.get, inputs=True))
        elif types and isinstance(body, A.Graph):
            out.extend(value_hints(body, partial(_type_label, doc, scope)))
    return sorted(out, key=lambda h: h.offset)


@dataclass(frozen=True, slots=True)
class ShownHint:
    """A hint as the editor shows it: at ``offset`` of the current text, ``label`` cut to the
    editor's width between numbers, the whole label as ``tooltip`` when it was cut."""

    offset: int
    label: str
    tooltip: str | None


def hints_between(
    doc: Document,
    lo: int,
    hi: int,
    *,
    types: bool,
    live: LiveResult | None,
    moved: Callable[[int], int | None] | None = None,
) -> list[ShownHint]:
    """The hints of ``doc`` whose place falls in ``[lo, hi]`` of the current text: ``moved`` carries
    an offset of the analysed text to the current one (None: the edit since touched it, left out)."""
    out = []
    for hint in inlay_hints(doc, types, live):
        offset = hint.offset if moved is None else moved(hint.offset)
        if offset is not None and lo <= offset <= hi:
            shown = fit_label(hint.label)
            out.append(ShownHint(offset, shown, hint.label.strip() if shown != hint.label else None))
    return out


def _type_label(doc: Document, scope: Scope, name: str) -> str | None:
    symbol = scope.values.get(name)
    found = doc.type_of(symbol) if symbol is not None else None
    return f": {found}" if found is not None else None
