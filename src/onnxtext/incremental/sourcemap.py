"""The source map after an edit: the window's entries replaced, the paths of the nodes after it re-keyed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from onnxtext.ir.paths import ProtoPath
from onnxtext.syntax import ast as A

__all__ = ["rekeyed"]

_new = tuple.__new__


def rekeyed(
    entries: dict[ProtoPath, A.AstNode],
    body: ProtoPath,
    first: int,
    removed: int,
    added: int,
    window: dict[ProtoPath, A.AstNode],
    old_statements: Sequence[A.AstNode],
) -> dict[ProtoPath, A.AstNode]:
    """``entries`` (changed in place) with the ``removed`` nodes of ``body`` at ``first`` (and what
    is under them) replaced by ``window``'s ``added`` ones, the nodes after them renumbered.

    The order of the entries is not the lowering's then (what is re-keyed comes last): no
    query depends on it (``path_of`` keeps a node's first path, and only graph inputs with
    data are mapped twice, never a node)."""
    if added == removed and all(type(n) is not A.Node or not n.attributes and n.props is None for n in old_statements):
        for j in range(first, first + removed):
            del entries[body.child("node", j)]
        entries.update(window)
        return entries
    (step,) = body
    stop = first + removed
    moved = added - removed
    keys: Any = entries  # paths whose second step is a node's: (field, index)
    later = [p for p in keys if len(p) > 1 and p[1][0] == "node" and p[0] == step and p[1][1] >= first]
    pop = entries.pop
    carried = [(p, pop(p)) for p in later]
    entries.update(window)
    entries.update(
        (_new(ProtoPath, (step, ("node", p[1][1] + moved), *p[2:])), node) for p, node in carried if p[1][1] >= stop
    )
    return entries
