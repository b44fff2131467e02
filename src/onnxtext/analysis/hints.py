"""Inlay hints: a short label after each value a graph defines (its type, or its live value)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from onnxtext.syntax import ast as A

__all__ = ["Hint", "value_hints"]


@dataclass(frozen=True)
class Hint:
    """``label`` shown at character ``offset`` (right after a value's name)."""

    offset: int
    label: str
    name: str


def value_hints(graph: A.Graph, label_of: Callable[[str], str | None], *, inputs: bool = False) -> Iterator[Hint]:
    """A hint after every node output of ``graph`` (and its inputs with ``inputs``) that ``label_of`` labels.

    Subgraphs are not entered: their values live in other scopes, with their own labels.
    """
    if inputs:
        for item in graph.inputs or []:
            if isinstance(item, A.Initializer):
                yield from _hint(item.info.name, label_of)
    for node in graph.nodes:
        if isinstance(node, A.Node):
            for out in node.outputs:
                if out.value:
                    yield from _hint(out, label_of)


def _hint(ident: A.Ident, label_of: Callable[[str], str | None]) -> Iterator[Hint]:
    label = label_of(ident.value)
    if label:
        yield Hint(ident.span.end, label, ident.value)
