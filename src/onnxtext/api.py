"""The front door: every public entry point, re-exported by :mod:`onnxtext`.

Texts are parsed here (``parse_*``) and formatted here (:func:`format_text`: the parse and
print fast paths for a text already in printed form, the tree otherwise), model files read and
written here (:func:`load`, :func:`save`, :func:`read_model`: the one loader), and texts or models checked here
(:func:`check`, :func:`diagnose`: the one diagnostic policy, which the command line and
the language server call too). The stages below (``syntax/``, ``lowering/``, ``printing/``,
``analysis/``, ``io``) import nothing from this module.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from onnxtext._gc import collector_paused
from onnxtext.diagnostics import Diagnostic
from onnxtext.io import STDIO, is_binary_path, load_bytes, model_bytes, read_bytes, write_atomic
from onnxtext.lowering.direct import direct_model, model_of_tokens, scan
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto, as_own
from onnxtext.syntax.layout import DEFAULT_WIDTH

if TYPE_CHECKING:
    from onnxtext.document import Document

__all__ = [
    "check",
    "diagnose",
    "format_text",
    "load",
    "parse_document",
    "parse_function",
    "parse_graph",
    "parse_model",
    "parse_node",
    "parse_nodes",
    "read_model",
    "read_text_model",
    "save",
]

PathLike = str | os.PathLike[str]


# ---------------------------------------------------------------- texts
# The reference path (Lark, the tree, diagnostics) is imported on first use: a text the fast
# path reads, and a binary model, start without it (``tests/test_startup.py``).


def parse_document(text: str, kind: str = "model", path: str = "<text>") -> Document:
    """Parse and lower ``text`` as a ``kind`` (model, graph, function, node, node_list): the
    tree, the best-effort protobuf, every parse and lowering diagnostic, the source map."""
    from onnxtext.document import parse_document as reference

    return reference(text, kind, path)


def _raise_for_errors(diagnostics: list[Diagnostic], strict: bool) -> None:
    from onnxtext.document import raise_for_errors

    raise_for_errors(diagnostics, strict=strict)


def _typed(kind: str, text: str, path: str, strict: bool) -> Any:
    doc = parse_document(text, kind, path)
    doc.raise_for_errors(strict=strict)
    return doc.proto


def parse_model(text: str, path: str = "<text>", *, strict: bool = False) -> ModelProto:
    """Parse a model text; raises :class:`~onnxtext.ParseError` listing every problem.

    Warnings (tensor literals stored as written, as onnx.parser stores them) do not
    raise unless ``strict``; the same holds for every ``parse_*`` function.

    No tree or source map is kept, so a text of the common subset is read by the fast
    path (:func:`onnxtext.lowering.direct.direct_model`, which takes no text with a
    problem, warnings included); anything else by the reference path.
    """
    model, diagnostics = read_text_model(text, path)
    _raise_for_errors(diagnostics, strict)
    assert model is not None
    return model


def read_text_model(text: str, path: str = "<text>") -> tuple[ModelProto | None, list[Diagnostic]]:
    """The model of a text (None if it has errors) and every diagnostic of it, warnings included:
    the fast path for the common subset (nothing to report), the reference path otherwise."""
    with collector_paused():
        fast = direct_model(text)
    if fast is not None:
        return fast, []
    doc = parse_document(text, "model", path)
    return (doc.model if doc.ok else None), doc.diagnostics


def parse_graph(text: str, path: str = "<text>", *, strict: bool = False) -> GraphProto:
    result: GraphProto = _typed("graph", text, path, strict)
    return result


def parse_function(text: str, path: str = "<text>", *, strict: bool = False) -> FunctionProto:
    result: FunctionProto = _typed("function", text, path, strict)
    return result


def parse_node(text: str, path: str = "<text>", *, strict: bool = False) -> NodeProto:
    result: NodeProto = _typed("node", text, path, strict)
    return result


def parse_nodes(text: str, path: str = "<text>", *, strict: bool = False) -> list[NodeProto]:
    """Parse a node list ``{ ... }``."""
    result: list[NodeProto] = _typed("node_list", text, path, strict)
    return result


# ---------------------------------------------------------------- formatting
# ``fmt``'s entry point: a text already in the printed form (no comments, no blank lines inside
# bodies) is formatted from its protobuf (the parse and print fast paths, two stages neither of
# which may import the other: they meet here); any other text through the tree
# (``syntax.format.format_text``, the definition of ``fmt``).


def format_text(text: str, kind: str = "model", path: str = "<text>", width: int = DEFAULT_WIDTH) -> str:
    """Reformat a text in the canonical style for ``width`` columns, keeping comments (see
    ``syntax.format.format_text``); a model text that prints back to its own tokens takes the
    fast way. Raises :class:`~onnxtext.ParseError` for a text with syntax errors."""
    with collector_paused():
        if kind == "model":
            canonical = printed_alike(text, width)
            if canonical is not None:
                return canonical
        return _tree_format(text, kind, path, width)


def _tree_format(text: str, kind: str, path: str, width: int) -> str:
    from onnxtext.syntax.format import format_text as tree_format  # the parser loads on first use

    return tree_format(text, kind, path, width)


# A blank line, but the one a printed text has after a graph's or function's closing brace.
_BLANK_LINE = re.compile(r"(?<!\n\})(?<!\n\}\r)\n[ \t\r\f\v]*\n")
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|(#)', re.DOTALL)


def _unspaced(numbers: str) -> str:
    """A number list token without the spaces and line breaks it may hold (the lexer's: `` \t\r\n``)."""
    return numbers.replace(" ", "").replace("\n", "").replace("\t", "").replace("\r", "")


def printed_alike(text: str, width: int) -> str | None:
    """``format_text`` of a model text the parse fast path reads, without comments or blank lines, when
    printing its protobuf gives the very tokens of the text (or None: the tree's way then).

    Both texts then make one tree (spans apart: the parser sees the same tokens), whose layout
    without comments and kept blank lines is the formatted text; and a printed text formats to
    itself (``test_golden.test_print_canonical``). So no tree is built for an already formatted
    or merely re-indented text, the commonest input of ``fmt``.
    """
    if text[:1].isspace() or _BLANK_LINE.search(text) or "#" in text and any(_STRING_OR_COMMENT.findall(text)):
        return None
    tokens = scan(text)
    model = model_of_tokens(tokens) if tokens is not None else None
    if tokens is None or model is None:
        return None
    from onnxtext.printing.text import NotRepresentable, to_text

    try:
        printed = to_text(model, width)
    except NotRepresentable:
        return None
    again = scan(printed)
    if again == tokens:
        return printed
    if again is None or len(again) != len(tokens):
        return None
    for a, b in zip(tokens, again, strict=True):
        # A number list is one token, spaces and line breaks included: the formatter lays its
        # numbers out again (each number is read without spaces in it, or the fast path declines).
        if a != b and not (a[:1] == "{" and b[:1] == "{" and _unspaced(a) == _unspaced(b)):
            return None
    return printed


# ---------------------------------------------------------------- files


def read_model(data: bytes, path: PathLike = "<bytes>", *, binary: bool) -> ModelProto:
    """The model of a file's bytes: binary protobuf, or onnxtext text (UTF-8, a BOM dropped).

    The one loader: :func:`load`, :func:`check` and the command line read models through it.
    Raises ``google.protobuf.message.DecodeError`` for invalid binary protobuf,
    :class:`UnicodeDecodeError` for text that is not UTF-8 and :class:`~onnxtext.ParseError`
    for a text with errors.
    """
    if binary:
        return load_bytes(data)
    return parse_model(data.decode("utf-8-sig"), path=_name(path))


def _name(path: PathLike) -> str:
    return "<stdin>" if str(path) == STDIO else str(path)


def load(path: PathLike, *, binary: bool | None = None) -> ModelProto:
    """Read a model from ``path``: binary for ``.onnx``/``.pb``, onnxtext text otherwise.

    ``binary`` overrides the choice by extension (needed for ``-``, standard input,
    which is text unless told otherwise). Raises :class:`OSError` for unreadable files,
    and what :func:`read_model` raises.
    """
    return read_model(read_bytes(path), path, binary=is_binary_path(path) if binary is None else binary)


def save(model: Any, path: PathLike, *, binary: bool | None = None) -> None:
    """Write ``model`` (ours or the ``onnx`` package's) to ``path`` atomically.

    Binary for ``.onnx``/``.pb``, text (:func:`onnxtext.printing.text.to_text`) otherwise, unless
    ``binary`` says which. Raises :class:`~onnxtext.printing.text.NotRepresentable` before
    touching the file if the model cannot be written as text.
    """
    if binary is None:
        binary = is_binary_path(path)
    from onnxtext.printing.text import to_text  # imported on use: printing is not needed to read

    data: bytes | str = model_bytes(model) if binary else to_text(as_own(model, ModelProto))
    write_atomic(path, data)


# ---------------------------------------------------------------- checking


def diagnose(
    document: Document,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    *,
    model_dir: PathLike | None = None,
) -> list[Diagnostic]:
    """Every diagnostic of a text's document: parse, lowering and checker ones in text order,
    checking on past errors, knock-ons of lowering errors left out (the policy of
    :func:`onnxtext.analysis.diagnose.diagnose`, which the command line and the server apply too).
    ``select``/``ignore`` choose checker rules by code prefix (``"E3"``, ``"W"``)."""
    from onnxtext.analysis.diagnose import (
        diagnose as policy,
    )  # the checker loads on first use: parsing needs none of it

    return policy(document, select, ignore, model_dir=model_dir)


def _check_model(
    model: Any, select: Iterable[str] | None, ignore: Iterable[str] | None, model_dir: PathLike | None
) -> list[Diagnostic]:
    from onnxtext.analysis.check import check_proto

    return check_proto(model, select=select, ignore=ignore, model_dir=model_dir)


def _is_path(target: object) -> bool:
    """A ``PathLike``, or a ``str`` with no line break that names an existing file."""
    return isinstance(target, os.PathLike) or (
        isinstance(target, str) and "\n" not in target and len(target) < 4096 and Path(target).is_file()
    )


def check(
    model_or_text_or_path: Any,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    path: str | None = None,
    model_dir: PathLike | None = None,
) -> list[Diagnostic]:
    """Check a model given as onnxtext text, a file path, binary bytes, a ModelProto or a parsed Document.

    A ``str`` with no newline that names an existing file, or an ``os.PathLike``, is read
    (binary for ``.onnx``/``.pb``, text otherwise); any other ``str`` is text. A text's
    diagnostics are :func:`diagnose`'s (parse, lowering and checker ones in text order,
    with spans; checking goes on past errors); a binary model's carry readable proto paths.
    ``model_dir`` (by default the folder of a file path) is where external data is
    looked up; without it only the shape of external data locations is checked.
    """
    target = model_or_text_or_path
    if _is_path(target):
        file = Path(target)
        folder = file.parent if model_dir is None else model_dir
        data = read_bytes(file)
        if is_binary_path(file):
            return _check_model(read_model(data, file, binary=True), select, ignore, folder)
        text = data.decode("utf-8-sig")
        return diagnose(parse_document(text, "model", path or str(file)), select, ignore, model_dir=folder)
    if isinstance(target, str):
        return diagnose(parse_document(target, "model", path or "<text>"), select, ignore, model_dir=model_dir)
    from onnxtext.document import Document  # loaded already by whoever made one

    if isinstance(target, Document):
        return diagnose(target, select, ignore, model_dir=model_dir)
    if isinstance(target, (bytes, bytearray)):
        return _check_model(read_model(bytes(target), binary=True), select, ignore, model_dir)
    return _check_model(target, select, ignore, model_dir)
