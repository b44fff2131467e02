"""What damaged statements hide from the checker: per scope, the names they appear to define.

A text with syntax errors still lowers to a best-effort protobuf, without its damaged
statements (:class:`ast.ErrorNode`). A value such a statement defines must not be
reported as undefined, nor its graph's outputs as never produced: its name counts as
defined, of unknown type. When the damage hides which names a statement defines, the
whole scope is *incomplete* and the rules about undefined or unproduced names keep quiet
there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from onnxtext.syntax import ast as A

__all__ = ["Damage", "damage_by_scope"]


@dataclass(frozen=True, slots=True)
class Damage:
    """The names damaged statements of one scope define, and whether those are all of them."""

    names: frozenset[str]
    complete: bool = True


def damage_by_scope(entries: Mapping[str, A.AstNode], repairs: Sequence[int] = ()) -> dict[str, Damage]:
    """Damage per proto path of a graph or function body, from a lowering's source map entries.

    ``repairs`` are the offsets of the parser's syntax errors: a node whose outputs were
    repaired (a ',' put in or a token replaced before its ``=``) may define other names
    than were meant, so its scope counts as incomplete too.
    """
    out: dict[str, Damage] = {}
    for path, node in entries.items():
        items: list[A.AstNode] = []
        if isinstance(node, A.Graph):
            items = [*node.nodes, *(node.inputs or []), *node.outputs, *(node.initializers or [])]
        elif isinstance(node, A.Function):
            items = [*node.nodes, *node.inputs, *node.outputs, *(node.value_infos or [])]
        errors = [x for x in items if isinstance(x, A.ErrorNode)]
        repaired = any(
            n.span.start <= at < n.op_type.span.start for n in items if isinstance(n, A.Node) for at in repairs
        )
        if errors or repaired:
            names = frozenset(name.value for e in errors for name in e.defines)
            out[path] = Damage(names, not repaired and all(e.defines_known for e in errors))
    return out
