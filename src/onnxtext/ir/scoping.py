"""What a function body sees: the one binding of a call's attributes (IR spec, "Functions").

A node inside a function body may take an attribute's value from the call
(``alpha = @scale``: ``ref_attr_name``). A reference the call does not bind leaves the
attribute unset (the operator's default applies); a call binds the function's declared
attributes from its own attributes, over the defaults the function declares
(``attribute_proto``). Inference and the evaluator both bind through these functions, so
what a body computes with and what it is inferred with cannot differ.
"""

from __future__ import annotations

from collections.abc import Mapping

from onnxtext.proto import AttributeProto, FunctionProto, NodeProto

__all__ = ["AttributeScope", "bound_attributes", "attribute_values", "call_scope"]

AttributeScope = Mapping[str, AttributeProto]
"""The attributes a function body's references resolve to (by the function's attribute name)."""


def bound_attributes(node: NodeProto, scope: AttributeScope | None) -> list[tuple[int, str, AttributeProto]]:
    """``(index in node.attribute, name, the attribute holding the value)`` of each attribute ``node`` sets.

    An attribute referring to ``@ref`` takes the value ``scope`` binds to ``ref``, and is
    left out when ``scope`` (``None`` outside a function body) does not bind it.
    """
    bound: list[tuple[int, str, AttributeProto]] = []
    for index, a in enumerate(node.attribute):
        ref = a.ref_attr_name
        if not ref:
            bound.append((index, a.name, a))
        elif scope is not None:
            value = scope.get(ref)
            if value is not None:
                bound.append((index, a.name, value))
    return bound


def attribute_values(node: NodeProto, scope: AttributeScope | None) -> dict[str, AttributeProto]:
    """The attributes ``node`` sets, by name, references resolved through ``scope`` (see :func:`bound_attributes`)."""
    return {name: a for _, name, a in bound_attributes(node, scope)}


def call_scope(function: FunctionProto, call: Mapping[str, AttributeProto]) -> dict[str, AttributeProto]:
    """The attribute scope of a call of ``function`` whose node sets ``call`` (:func:`attribute_values`):
    the function's declared defaults, then the call's own attributes over them."""
    scope = {a.name: a for a in function.attribute_proto}
    scope.update(call)
    return scope
