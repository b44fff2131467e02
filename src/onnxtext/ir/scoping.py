"""Scoping, once: what a graph sees of the names around it, and how a call binds a function's attributes.

**Values.** Three tables keep scopes, for different things: the symbol tables of the text
(``analysis/symbols.Scope``: AST definitions and uses, for the editor), the checker's
definitions (``analysis/check/context.Scope``: proto paths to report at) and inference's
types and constants (``analysis/infer/engine._Env``). They share the chain
(:class:`ScopeChain`: a scope and the scope it is nested in, searched innermost first) and
the policy of which scope that is (:func:`outer_scope`, after the IR spec): a subgraph sees
the scope of the node holding it; a function body sees nothing outside it (its inputs, its
own nodes, and the call's attributes below); the main graph sees nothing; a training
algorithm graph runs after the main graph and sees it; an initialization graph sees the
state variables (the initializers it may bind).

**Attributes.** A node inside a function body may take an attribute's value from the call
(``alpha = @scale``: ``ref_attr_name``). A reference the call does not bind leaves the
attribute unset (the operator's default applies); a call binds the function's declared
attributes from its own attributes, over the defaults the function declares
(``attribute_proto``). Inference and the evaluator both bind through these functions, so
what a body computes with and what it is inferred with cannot differ.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar

from onnxtext.proto import AttributeProto, FunctionProto, NodeProto

__all__ = [
    "GraphKind",
    "ScopeChain",
    "outer_scope",
    "AttributeScope",
    "bound_attributes",
    "attribute_values",
    "call_scope",
]

GraphKind = Literal["main", "subgraph", "function", "initialization", "algorithm"]
"""Where a graph stands in a model: what it sees follows from it (:func:`outer_scope`)."""

S = TypeVar("S")
C = TypeVar("C", bound="ScopeChain")


def outer_scope(
    kind: GraphKind, *, enclosing: S | None = None, main: S | None = None, state: S | None = None
) -> S | None:
    """The scope whose names a graph of ``kind`` sees (``None``: only its own).

    ``enclosing`` is the scope of the node holding a subgraph, ``main`` the main graph's,
    ``state`` the state variables' (for an initialization graph).
    """
    if kind == "subgraph":
        return enclosing
    if kind == "algorithm":
        return main
    if kind == "initialization":
        return state
    return None  # the main graph; a function body


class ScopeChain:
    """A scope nested in :attr:`parent` (chosen by :func:`outer_scope`); lookups go innermost first.

    A subclass is a dataclass with a ``parent`` field, set once: the enclosing scopes are
    listed when it is made (lookups run per node input; a list, not a walk up the parents).
    """

    __slots__ = ("_outer",)
    parent: Any

    def __post_init__(self) -> None:
        parent = self.parent
        self._outer: tuple[Any, ...] = (parent, *parent._outer) if parent is not None else ()

    def chain(self: C) -> tuple[C, ...]:
        """This scope, then each enclosing one out to the outermost."""
        return (self, *self._outer)


AttributeScope = Mapping[str, AttributeProto]
"""The attributes a function body's references resolve to (by the function's attribute name)."""


def bound_attributes(node: NodeProto, scope: AttributeScope | None) -> list[tuple[int, str, AttributeProto]]:
    """``(index in node.attribute, name, the attribute holding the value)`` of each attribute ``node`` sets.

    An attribute referring to ``@ref`` takes the value ``scope`` binds to ``ref``, and is
    left out when ``scope`` (``None`` outside a function body) does not bind it.
    """
    return [(i, a.name, v) for i, a in enumerate(node.attribute) if (v := _value(a, scope)) is not None]


def attribute_values(node: NodeProto, scope: AttributeScope | None) -> dict[str, AttributeProto]:
    """The attributes ``node`` sets, by name, references resolved through ``scope`` (see :func:`bound_attributes`)."""
    # inference binds every node's attributes: no list of tuples on the way
    return {a.name: v for a in node.attribute if (v := _value(a, scope)) is not None}


def _value(a: AttributeProto, scope: AttributeScope | None) -> AttributeProto | None:
    """The attribute holding ``a``'s value: ``a``, or what ``scope`` binds its reference to (``None`` if nothing)."""
    ref = a.ref_attr_name
    if not ref:
        return a
    return scope.get(ref) if scope is not None else None


def call_scope(function: FunctionProto, call: Mapping[str, AttributeProto]) -> dict[str, AttributeProto]:
    """The attribute scope of a call of ``function`` whose node sets ``call`` (:func:`attribute_values`):
    the function's declared defaults, then the call's own attributes over them."""
    scope = {a.name: a for a in function.attribute_proto}
    scope.update(call)
    return scope
