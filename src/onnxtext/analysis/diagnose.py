"""The one diagnostic policy: every problem of a text's :class:`~onnxtext.document.Document`.

The command line (``onnxtext check``), the Python API (:func:`onnxtext.check`,
:func:`onnxtext.diagnose`) and the language server all call :func:`diagnose`, so they
report the same thing for the same text. It goes on past syntax and lowering errors: the
checker runs on the best-effort protobuf of every text. What a damaged statement hides is
told to the checker (:mod:`onnxtext.analysis.check.damage`); what a statement the lowering
rejected defines (an unknown element type, a bad tensor literal, a bad attribute) is read
off the tree, and the checker's findings about it are knock-ons of the lowering error,
left out: one mistake, one diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from onnxtext._gc import collector_paused
from onnxtext.analysis.check import run_rules
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.damage import damage_by_scope
from onnxtext.analysis.infer.engine import Inference
from onnxtext.analysis.symbols import ValueSymbol
from onnxtext.diagnostics import Diagnostic
from onnxtext.document import Document
from onnxtext.syntax import ast as A
from onnxtext.syntax.parser import SYNTAX
from onnxtext.syntax.span import Span

__all__ = ["diagnose", "check_document", "knock_on_spans"]

_HOLDERS = (A.ValueInfo, A.Initializer, A.Attribute, A.TensorValue, A.PropEntry)
"""The statements a lowering error damages: the innermost one holding it is left out of the
protobuf (or lowered without what was wrong), and so is what it defines."""


def diagnose(
    document: Document,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    *,
    model_dir: str | os.PathLike[str] | None = None,
) -> list[Diagnostic]:
    """Parse, lowering and checker diagnostics of ``document``, in text order, knock-ons left out.

    ``select``/``ignore`` choose checker rules by code prefix (parse and lowering
    diagnostics are always reported); ``model_dir`` is where external data is looked up.
    A document that is not a model (a graph, a node) has only its parse and lowering ones.
    """
    found = list(document.diagnostics)
    with collector_paused():
        checked = check_document(document, select, ignore, model_dir=model_dir)
    if checked:
        hidden = knock_on_spans(document)
        found.extend(d for d in checked if not _inside(d, hidden))
    found.sort(key=lambda d: d.offset)
    return found


def check_document(
    document: Document,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    *,
    model_dir: str | os.PathLike[str] | None = None,
) -> list[Diagnostic]:
    """The checker's diagnostics of ``document``'s model, located in its text (knock-ons included);
    ``[]`` for a document that is not a model."""
    model = document.model
    if model is None:
        return []
    repairs = [d.offset for d in document.diagnostics if d.code == SYNTAX]
    damage = damage_by_scope(document.symbols, document.source_map, repairs) if not document.ok else {}
    ctx = CheckContext(
        model,
        source=document.source,
        source_map=document.source_map,
        tree=document.tree,
        model_dir=Path(model_dir) if model_dir is not None else None,
        inference=lambda: _inference(document),  # only if a type rule asks; shared with hover and inlay hints
        damage=damage,
    )
    return run_rules(ctx, select, ignore)


def _inference(document: Document) -> Inference:
    found = document.inference
    assert found is not None, "a document with a model has its inference"
    return found


def knock_on_spans(document: Document) -> list[Span]:
    """Where a checker finding is a knock-on of a lowering error: the statement holding the
    error, and every definition and use of the values that statement defines."""
    spans: list[Span] = []
    for diag in document.diagnostics:
        if not diag.is_error or diag.code.startswith("P") or diag.span is None:
            continue
        holder = next((n for n in reversed(document.nodes_at(diag.offset)) if isinstance(n, _HOLDERS)), None)
        if holder is None:
            continue
        spans.append(holder.span)
        info = holder.info if isinstance(holder, A.Initializer) else holder
        if isinstance(info, A.ValueInfo):
            symbol = document.symbol_at(info.name.span.start)
            if isinstance(symbol, ValueSymbol):
                spans.extend(symbol.definition_spans())
                spans.extend(symbol.use_spans())
    return spans


def _inside(diag: Diagnostic, spans: list[Span]) -> bool:
    if diag.span is None:
        return False
    at = diag.span.offsets
    return any(s.start <= at.start and at.end <= s.end for s in spans)
