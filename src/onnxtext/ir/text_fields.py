"""String fields that are not text: protobuf keeps a string field's bytes as they were read
when they are not UTF-8 (a damaged or hostile binary), and hands them out as ``bytes``.

Every consumer that treats names as text (the checker's rules, inference) gets a model whose
string fields are all ``str``: :func:`decode_text_fields` finds the others, says where they
are, and replaces each bad byte by U+FFFD in place.
"""

from __future__ import annotations

from typing import Any

__all__ = ["decode_text_fields", "undecodable_text_fields"]


def _walk(msg: Any, repair: bool) -> list[str]:
    from google.protobuf.descriptor import FieldDescriptor

    message, string = FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_STRING
    found: list[str] = []
    # (message, parent entry, label): the chain names the path, built only for a finding
    stack: list[tuple[Any, Any, str]] = [(msg, None, "")]
    while stack:
        entry = stack.pop()
        m = entry[0]
        for fd, value in m.ListFields():
            if fd.type == message:
                if fd.is_repeated:
                    stack.extend((v, entry, f"{fd.name}[{i}]") for i, v in enumerate(value))
                else:
                    stack.append((value, entry, fd.name))
            elif fd.type == string:
                if fd.is_repeated:
                    for i, v in enumerate(value):
                        if type(v) is bytes:
                            found.append(f"{_path(entry)}{fd.name}[{i}]")
                            if repair:
                                value[i] = v.decode("utf-8", "replace")
                elif type(value) is bytes:
                    found.append(f"{_path(entry)}{fd.name}")
                    if repair:
                        setattr(m, fd.name, value.decode("utf-8", "replace"))
    return found


def _path(entry: Any) -> str:
    """``graph/node[2]/`` for the message of ``entry`` (empty for the root)."""
    parts = []
    while entry is not None and entry[2]:
        parts.append(entry[2])
        entry = entry[1]
    return "".join(f"{p}/" for p in reversed(parts))


def undecodable_text_fields(msg: Any) -> list[str]:
    """Proto paths (``graph/node[2]/output[0]``) of the string fields of ``msg`` that are not UTF-8."""
    return _walk(msg, repair=False)


def decode_text_fields(msg: Any) -> list[str]:
    """:func:`undecodable_text_fields`, each of them replaced in place by its text with U+FFFD."""
    return _walk(msg, repair=True)
