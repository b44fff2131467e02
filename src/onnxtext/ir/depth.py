"""How deep protobuf reads: messages nested more than :data:`PROTOBUF_DEPTH_LIMIT` levels below the
model cannot be read back (upb's decoder refuses them), so no text may lower to one."""

from __future__ import annotations

from typing import Any

from google.protobuf.descriptor import FieldDescriptor

from onnxtext.ir.paths import ProtoPath

__all__ = ["DEEP_GRAPH", "PROTOBUF_DEPTH_LIMIT", "too_deep"]

PROTOBUF_DEPTH_LIMIT = 100
"""The deepest message protobuf parses, the root at depth 0 (upb's default decoding depth)."""

DEEP_GRAPH = PROTOBUF_DEPTH_LIMIT - 30
"""A graph deeper than this may hold a statement past the limit (a value's type, a tensor attribute
reach a few levels below their graph): the lowering then looks at every message (:func:`too_deep`)."""


def too_deep(message: Any, limit: int = PROTOBUF_DEPTH_LIMIT) -> list[ProtoPath]:
    """The paths of the outermost messages of ``message`` (at depth 0) nested deeper than ``limit``."""
    found: list[ProtoPath] = []
    stack: list[tuple[Any, ProtoPath, int]] = [(message, ProtoPath(), 0)]
    while stack:
        msg, path, depth = stack.pop()
        for fd, value in msg.ListFields():
            if fd.type != FieldDescriptor.TYPE_MESSAGE:
                continue
            items = enumerate(value) if fd.is_repeated else ((None, value),)
            for i, child in items:
                where = path.child(fd.name, i)
                if depth + 1 > limit:
                    found.append(where)
                else:
                    stack.append((child, where, depth + 1))
    return found
