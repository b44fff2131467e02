"""The model checker: the ONNX IR spec's rules as located diagnostics.

>>> from onnxtext.analysis.check import check
>>> [d.code for d in check('<ir_version: 8, opset_import: ["": 18]> g (float[2] x) => (float[2] y) { y = Rleu(x) }')]
['E301']
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from onnxtext.diagnostics import Diagnostic
from onnxtext.document import parse_document
from onnxtext.io import is_binary_path, load_bytes, read_bytes
from onnxtext.proto import ModelProto, as_own
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.infer.engine import Inference
from onnxtext.ir.text_fields import decode_text_fields, undecodable_text_fields
from onnxtext.analysis.check.damage import damage_by_scope
from onnxtext.syntax.parser import SYNTAX
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules import ALL_RULES, rule_by_code
from onnxtext.analysis.check.walk import walk

__all__ = ["ALL_RULES", "RULES", "Rule", "check", "check_proto", "code_list", "rule_by_code", "select_rules"]

RULES = ALL_RULES
"""Every rule class, errors first then warnings, by code."""


def _matches(code: str, patterns: Iterable[str]) -> bool:
    return any(code.startswith(p.strip().upper()) for p in patterns if p.strip())


def code_list(value: str | Iterable[object]) -> list[str]:
    """Rule codes or prefixes from ``"E3, w"`` or ``["E3", "W"]``: stripped, upper-cased, empty ones left out."""
    items = value.split(",") if isinstance(value, str) else value
    return [str(v).strip().upper() for v in items if str(v).strip()]


def select_rules(select: Iterable[str] | None = None, ignore: Iterable[str] | None = None) -> list[type[Rule]]:
    """The rules whose code starts with one of ``select`` (all when None) and none of ``ignore``.

    Codes are prefixes, as in ruff: ``E3`` selects every node rule, ``W`` every warning.
    """
    chosen = [r for r in ALL_RULES if select is None or _matches(r.code, list(select))]
    if ignore is not None:
        ignored = list(ignore)
        chosen = [r for r in chosen if not _matches(r.code, ignored)]
    return chosen


def check_proto(
    model: Any,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    model_dir: str | os.PathLike[str] | None = None,
    inference: Inference | None = None,
    _doc: Any = None,
) -> list[Diagnostic]:
    """Check a ModelProto (ours or onnx's); diagnostics carry readable proto paths.

    ``model_dir`` is the folder of the model's file: external data locations are relative
    to it, and with it the checker also looks the files up (their sizes, never their bytes).
    ``inference`` is the result of :func:`~onnxtext.analysis.infer.engine.infer_model` on
    this model if the caller has it; otherwise the type rules (E7xx) compute it, once.
    """
    own = as_own(model, ModelProto)
    undecodable: list[str] = []
    if _doc is None:  # a text's names are always text; a binary's may be any bytes
        undecodable = undecodable_text_fields(own)
        if undecodable:  # the rules read names as text: check a copy, each bad byte a U+FFFD
            own = _copy(own)
            decode_text_fields(own)
    folder = Path(model_dir) if model_dir is not None else None
    if _doc is not None:
        repairs = [d.offset for d in _doc.diagnostics if d.code == SYNTAX]
        damage = damage_by_scope(_doc.symbols, _doc.source_map, repairs) if not _doc.ok else {}
        ctx = CheckContext(own, source=_doc.source, source_map=_doc.source_map, tree=_doc.tree, model_dir=folder,
                           inference=inference, damage=damage)
    else:
        ctx = CheckContext(own, model_dir=folder, inference=inference)
    ctx.undecodable = undecodable
    rules = select_rules(select, ignore)
    ctx.severities = {rule.code: rule.severity(select) for rule in rules}
    walk(ctx, [rule() for rule in rules])
    diags = ctx.diagnostics
    if _doc is not None:
        diags.sort(key=lambda d: d.offset)
    return diags


def _copy(model: ModelProto) -> ModelProto:
    out = ModelProto()
    out.CopyFrom(model)
    return out


def check(
    model_or_text_or_path: Any,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    path: str | None = None,
    model_dir: str | os.PathLike[str] | None = None,
) -> list[Diagnostic]:
    """Check a model given as onnxtext text, a file path, binary bytes or a ModelProto.

    A ``str`` with no newline that names an existing file, or an ``os.PathLike``, is read
    (binary for ``.onnx``/``.pb``, text otherwise); any other ``str`` is text. For a text,
    parse diagnostics and the checker's findings come in text order; a text with syntax
    errors is checked too (its intact statements), one with other errors is not.
    Diagnostics of a text carry spans; those of a binary model readable proto paths.
    ``model_dir`` (by default the folder of a file path) is where external data is
    looked up; without it only the shape of external data locations is checked.
    """
    target = model_or_text_or_path
    if isinstance(target, os.PathLike) or (
        isinstance(target, str) and "\n" not in target and len(target) < 4096 and Path(target).is_file()
    ):
        file = Path(target)
        folder = file.parent if model_dir is None else model_dir
        if is_binary_path(file):
            return check_proto(load_bytes(read_bytes(file)), select=select, ignore=ignore, model_dir=folder)
        return _check_text(file.read_bytes().decode("utf-8-sig"), path or str(file), select, ignore, folder)
    if isinstance(target, str):
        return _check_text(target, path or "<text>", select, ignore, model_dir)
    if isinstance(target, (bytes, bytearray)):
        return check_proto(load_bytes(bytes(target)), select=select, ignore=ignore, model_dir=model_dir)
    return check_proto(target, select=select, ignore=ignore, model_dir=model_dir)


def _check_text(
    text: str,
    path: str,
    select: Iterable[str] | None,
    ignore: Iterable[str] | None,
    model_dir: str | os.PathLike[str] | None = None,
) -> list[Diagnostic]:
    doc = parse_document(text, "model", path)
    lowering_errors = any(d.is_error and not d.code.startswith("P") for d in doc.diagnostics)
    if lowering_errors or not isinstance(doc.proto, ModelProto):
        # A value the lowering rejected is missing from the protobuf: checking it would mislead.
        return list(doc.diagnostics)
    # A text with syntax errors is checked too: its best-effort protobuf, with what damaged statements hide.
    found = list(doc.diagnostics) + check_proto(doc.proto, select=select, ignore=ignore, model_dir=model_dir, _doc=doc)
    found.sort(key=lambda d: d.offset)
    return found
