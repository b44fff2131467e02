"""String fields that are not text: protobuf keeps a string field's bytes as they were read
when they are not UTF-8 (a damaged or hostile binary), and hands them out as ``bytes``.

Every consumer that treats names as text (the checker's rules, inference) gets a model whose
string fields are all ``str``: :func:`decode_text_fields` finds the others, says where they
are, and replaces each bad byte by U+FFFD in place.
"""

from __future__ import annotations

from typing import Any

__all__ = ["decode_text_fields", "undecodable_text_fields"]


_OTHER, _MESSAGE, _MESSAGES, _STRING, _STRINGS = range(5)
_KINDS: dict[Any, int] = {}
"""Field descriptor → what the walk does with its value (descriptors live as long as their messages' classes)."""


def _kind(fd: Any) -> int:
    from google.protobuf.descriptor import FieldDescriptor

    kind = _KINDS.get(fd)
    if kind is None:
        if fd.type == FieldDescriptor.TYPE_MESSAGE:
            kind = _MESSAGES if fd.is_repeated else _MESSAGE
        elif fd.type == FieldDescriptor.TYPE_STRING:
            kind = _STRINGS if fd.is_repeated else _STRING
        else:
            kind = _OTHER
        _KINDS[fd] = kind
    return kind


def _walk(msg: Any, repair: bool) -> list[str]:
    found: list[str] = []
    # (message, parent entry, field name, index or -1): the chain names the path, built only for a finding
    stack: list[tuple[Any, Any, str, int]] = [(msg, None, "", -1)]
    while stack:
        entry = stack.pop()
        m = entry[0]
        for fd, value in m.ListFields():
            kind = _KINDS.get(fd)
            if kind is None:
                kind = _kind(fd)
            if kind == _MESSAGES:
                name = fd.name
                stack.extend([(v, entry, name, i) for i, v in enumerate(value)])
            elif kind == _MESSAGE:
                stack.append((value, entry, fd.name, -1))
            elif kind == _STRINGS:
                try:
                    "".join(value)  # in C: a TypeError says some item is bytes
                    continue
                except TypeError:
                    pass
                for i, v in enumerate(value):
                    if type(v) is bytes:
                        found.append(f"{_path(entry)}{fd.name}[{i}]")
                        if repair:
                            value[i] = v.decode("utf-8", "replace")
            elif kind == _STRING and type(value) is bytes:
                found.append(f"{_path(entry)}{fd.name}")
                if repair:
                    setattr(m, fd.name, value.decode("utf-8", "replace"))
    return found


def _path(entry: Any) -> str:
    """``graph/node[2]/`` for the message of ``entry`` (empty for the root)."""
    parts = []
    while entry is not None and entry[2]:
        parts.append(entry[2] if entry[3] < 0 else f"{entry[2]}[{entry[3]}]")
        entry = entry[1]
    return "".join(f"{p}/" for p in reversed(parts))


def undecodable_text_fields(msg: Any) -> list[str]:
    """Proto paths (``graph/node[2]/output[0]``) of the string fields of ``msg`` that are not UTF-8."""
    return _walk(msg, repair=False)


def decode_text_fields(msg: Any) -> list[str]:
    """:func:`undecodable_text_fields`, each of them replaced in place by its text with U+FFFD."""
    return _walk(msg, repair=True)
