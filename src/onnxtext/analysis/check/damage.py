"""What damaged statements hide from the checker: per scope, the names they appear to define.

A text with syntax errors still lowers to a best-effort protobuf, without its damaged
statements (:class:`ast.ErrorNode`). A value such a statement defines must not be
reported as undefined, nor its graph's outputs as never produced: its name counts as
defined, of unknown type. When the damage hides which names a statement defines, the
whole scope is *incomplete* and the rules about undefined or unproduced names keep quiet
there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from onnxtext.analysis.symbols import Symbols
from onnxtext.lowering.source_map import SourceMap
from onnxtext.syntax import ast as A

__all__ = ["Damage", "damage_by_scope"]


@dataclass(frozen=True, slots=True)
class Damage:
    """The names damaged statements of one scope define, and whether those are all of them."""

    names: frozenset[str]
    complete: bool = True


def damage_by_scope(symbols: Symbols, source_map: SourceMap, repairs: Sequence[int] = ()) -> dict[str, Damage]:
    """Damage per proto path of a graph or function body, read off the document's symbol tables
    (which count the names of damaged statements as definitions of kind ``unknown``).

    ``repairs`` are the offsets of the parser's syntax errors: a node whose outputs were
    repaired (a ',' put in or a token replaced before its ``=``) may define other names
    than were meant, so its scope counts as incomplete too.
    """
    out: dict[str, Damage] = {}
    for scope in symbols.scopes:
        path = source_map.path_of(scope.node)
        if path is None:
            continue
        names = frozenset(n for n, v in scope.values.items() if any(d.kind == "unknown" for d in v.definitions))
        repaired = any(n.span.start <= at < n.op_type.span.start for n in A.intact(scope.node.nodes) for at in repairs)
        if names or repaired or not scope.names_known:
            out[str(path)] = Damage(names, scope.names_known and not repaired)
    return out
