"""The model checker: the ONNX IR spec's rules as located diagnostics.

The checker, not the front door: :func:`onnxtext.api.check` reads a model in any form and
:func:`onnxtext.analysis.diagnose.diagnose` checks a text's :class:`~onnxtext.document.Document`
(its spans, and what its damaged statements hide) through :func:`run_rules`.

>>> from onnxtext.api import parse_model
>>> text = '<ir_version: 8, opset_import: ["": 18]> g (float[2] x) => (float[2] y) { y = Rleu(x) }'
>>> [d.code for d in check_proto(parse_model(text))]
['E301']
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.reuse import Plan
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules import ALL_RULES, rule_by_code
from onnxtext.analysis.check.walk import walk
from onnxtext.analysis.infer.engine import Inference
from onnxtext.diagnostics import Diagnostic
from onnxtext.diagnostics.codes import STAGE_CODES, Code
from onnxtext.ir.text_fields import decode_text_fields, undecodable_text_fields
from onnxtext.proto import ModelProto, as_own

__all__ = [
    "ALL_RULES",
    "CODES",
    "RULES",
    "Rule",
    "check_proto",
    "code_list",
    "rule_by_code",
    "run_rules",
    "select_rules",
]

RULES = ALL_RULES
"""Every rule class, errors first then warnings, by code."""

_PIPELINE = "PLEWXRS"
"""Code letters in pipeline order: parsing, lowering, the checker's errors and warnings, external data, runs,
model surgery."""

CODES: dict[str, Code] = {
    c.code: c
    for c in sorted(
        (*STAGE_CODES, *(Code(r.code, r.severity(), r.name, r.description) for r in ALL_RULES)),
        key=lambda c: (_PIPELINE.index(c.code[0]), c.code),
    )
}
"""Every diagnostic code onnxtext emits, in pipeline order: the one registry (``onnxtext rules``)."""


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


def run_rules(
    ctx: CheckContext,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    *,
    plan: Plan | None = None,
) -> list[Diagnostic]:
    """Walk the model of ``ctx`` with the rules ``select``/``ignore`` choose; their diagnostics in walk order
    (``plan``: the main graph's nodes an earlier version checked alike are taken from it, see ``reuse.py``)."""
    rules = select_rules(select, ignore)
    ctx.severities = {rule.code: rule.severity(select) for rule in rules}
    walk(ctx, [rule() for rule in rules], plan)
    return ctx.diagnostics


def check_proto(
    model: Any,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    model_dir: str | os.PathLike[str] | None = None,
    inference: Inference | None = None,
) -> list[Diagnostic]:
    """Check a ModelProto (ours or onnx's); diagnostics carry readable proto paths.

    ``model_dir`` is the folder of the model's file: external data locations are relative
    to it, and with it the checker also looks the files up (their sizes, never their bytes).
    ``inference`` is the result of :func:`~onnxtext.analysis.infer.engine.infer_model` on
    this model if the caller has it; otherwise the type rules (E7xx) compute it, once.
    """
    own = as_own(model, ModelProto)
    undecodable = undecodable_text_fields(own)  # a binary's names may be any bytes
    if undecodable:  # the rules read names as text: check a copy, each bad byte a U+FFFD
        own = _copy(own)
        decode_text_fields(own)
    folder = Path(model_dir) if model_dir is not None else None
    ctx = CheckContext(own, model_dir=folder, inference=inference)
    ctx.undecodable = undecodable
    return run_rules(ctx, select, ignore)


def _copy(model: ModelProto) -> ModelProto:
    out = ModelProto()
    out.CopyFrom(model)
    return out
