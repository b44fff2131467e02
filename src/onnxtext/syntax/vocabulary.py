"""The language's vocabulary: the words and spellings that every stage must agree on.

The parser, the lowering, the lifter, the printers and the editor queries all read these;
one definition here keeps them from drifting (a name one printer quotes and another
leaves bare would not read back the same).
"""

from __future__ import annotations

import re

__all__ = [
    "ENCODING_KEY",
    "MODEL_HEADER_ORDER",
    "NODE_DOMAIN_KEY",
    "RESERVED_NAMES",
    "TENSOR_ENCODING_KEY",
    "TENSOR_NAME_KEY",
    "format_string",
    "is_bare_name",
    "is_identifier",
    "name_text",
]

# Header pseudo-keys: file-wide defaults that are not fields of ModelProto.
NODE_DOMAIN_KEY = "node_domain"
TENSOR_ENCODING_KEY = "tensor_encoding"
# `tensor_name: unset`: a tensor literal written without a name leaves TensorProto.name unset (not "").
TENSOR_NAME_KEY = "tensor_name"
# A tensor's own `encoding: raw | typed` in its property block.
ENCODING_KEY = "encoding"

# Words that would read as something else in some name position: names spelled so are quoted.
RESERVED_NAMES = frozenset(
    ["seq", "map", "optional", "sparse_tensor", "opaque", "nan", "inf", "infinity", "unset", "true", "false"]
)
# The order of a model header's keys (other ModelProto fields follow by field number, then the file-wide defaults).
MODEL_HEADER_ORDER = (
    "ir_version",
    "opset_import",
    "producer_name",
    "producer_version",
    "domain",
    "model_version",
    "doc_string",
    "metadata_props",
)

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_PLAIN = re.compile(r'[^"\\\x00-\x1f\x7f]*\Z')
_ESC = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
_HEX_ESCAPED = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # the characters written \xhh
# What a string literal escapes: the characters above, other control characters as \xNN.
_ESCAPES = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F]} | {ord(k): v for k, v in _ESC.items()}


def is_identifier(name: str) -> bool:
    """True if ``name`` has the shape of a bare identifier (reserved words included)."""
    return bool(_IDENTIFIER.match(name))


def is_bare_name(name: str) -> bool:
    """True if a value, graph or function name is written bare: a plain identifier that reads as nothing else."""
    return _IDENTIFIER.match(name) is not None and name.lower() not in RESERVED_NAMES


def name_text(name: str) -> str:
    """A value, graph or function name as the canonical text writes it: bare (:func:`is_bare_name`),
    else a quoted string."""
    if is_bare_name(name):
        return name
    return format_string(name.encode("utf-8", "surrogateescape"))


def format_string(value: bytes) -> str:
    """A string literal for ``value`` with escapes; bytes that are not UTF-8 become ``\\xNN``."""
    try:
        text = value.decode("utf-8")
    except UnicodeDecodeError:
        return _format_bytes(value)
    return string_text(text)


def string_text(text: str) -> str:
    """The string literal of ``text`` (:func:`format_string` of its UTF-8 bytes)."""
    if _PLAIN.match(text):
        return f'"{text}"'
    if _HEX_ESCAPED.search(text) is None:  # only the escapes of _ESC: replaced in C (translate goes char by char)
        escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        return '"' + escaped.replace("\r", "\\r") + '"'
    return '"' + text.translate(_ESCAPES) + '"'


def _format_bytes(value: bytes) -> str:
    out = []
    i = 0
    while i < len(value):
        # Keep valid UTF-8 runs readable, escape the rest byte by byte.
        for size in (4, 3, 2, 1):
            chunk = value[i : i + size]
            try:
                ch = chunk.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                if ch in _ESC:
                    out.append(_ESC[ch])
                elif ord(ch) < 0x20 or ord(ch) == 0x7F:
                    out.append(f"\\x{ord(ch):02x}")
                else:
                    out.append(ch)
                i += size
                break
        else:
            out.append(f"\\x{value[i]:02x}")
            i += 1
    return '"' + "".join(out) + '"'
