"""What no text can say: the check ``print`` runs before it writes anything (see ``check_printable``)."""

from __future__ import annotations

from typing import Any

from onnxtext.ir.tensor.literals import NotRepresentable

__all__ = ["check_printable", "NotRepresentable"]


def check_printable(
    msg: Any, *, unknown_fields: bool = True, skip_nodes: bool = False, skip_head: bool = False
) -> None:
    """Refuse what text would lose: unknown fields (from a newer IR; unless not
    ``unknown_fields``) and non-UTF-8 string fields, naming where (``graph/node[3]/name``).

    Visits every message once; the readable path of a message is built only for an error.
    With ``skip_nodes``, the statements of the message itself (a graph or function) and of
    the graph and functions of a model are left out: the fast printer checks them as it
    writes them (``printing.emit``); with ``skip_head`` too, the values of the main graph
    (the message itself or a model's graph): inputs, outputs, value infos and initializers.
    """
    from google.protobuf.descriptor import FieldDescriptor
    from google.protobuf.unknown_fields import UnknownFieldSet

    message, string = FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_STRING
    # (message, parent entry, field label): the chain of parents names the path on error.
    root = "" if msg.DESCRIPTOR.name == "ModelProto" else msg.DESCRIPTOR.name.removesuffix("Proto").lower()
    stack: list[tuple[Any, Any, str]] = [(msg, None, root)]
    while stack:
        entry = stack.pop()
        m = entry[0]
        unknown = UnknownFieldSet(m) if unknown_fields else ()
        if len(unknown):
            numbers = sorted({f.field_number for f in unknown})
            raise NotRepresentable(
                f"{_path(entry)} has fields this onnxtext does not know (numbers {numbers}); "
                "it was written by a newer ONNX version, and printing it would drop them"
            )
        # The root, or a model's graph or function: its statements are someone else's.
        skip = skip_nodes and (entry[1] is None or entry[1][1] is None)
        head = skip and skip_head and entry[2] == "graph"  # the root graph, or a model's
        for fd, value in m.ListFields():
            kind = fd.type
            if kind == message:
                if fd.is_repeated:
                    name = fd.name
                    if skip and name == "node" or head and name in _HEAD:
                        continue
                    stack.extend((v, entry, f"{name}[{i}]") for i, v in enumerate(value))
                else:
                    stack.append((value, entry, fd.name))
            elif kind == string:
                if fd.is_repeated:
                    if bytes in map(type, value):
                        raise NotRepresentable(f"{_path(entry)}/{fd.name} holds bytes that are not UTF-8 text")
                elif type(value) is bytes:
                    raise NotRepresentable(f"{_path(entry)}/{fd.name} holds bytes that are not UTF-8 text")


_HEAD = frozenset(("input", "output", "value_info", "initializer"))  # a graph's values, in a graph head


def _path(entry: tuple[Any, Any, str]) -> str:
    """The proto path (``ir.paths.ProtoPath``'s form, ``graph/node[0]``) of a visited message;
    ``model`` for the root."""
    parts = []
    node: Any = entry
    while node is not None:
        if node[2]:
            parts.append(node[2])
        node = node[1]
    return "/".join(reversed(parts)) or "the model"
