"""Inference issues for the checker's E7xx rules: inference runs once per checked model."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from onnxtext.analysis.infer.engine import infer_model
from onnxtext.analysis.infer.node import Issue

if TYPE_CHECKING:
    from onnxtext.analysis.check.context import CheckContext

__all__ = ["issues_for", "provide_issues", "report_issues"]

_CACHE: weakref.WeakKeyDictionary[object, list[Issue]] = weakref.WeakKeyDictionary()


def issues_for(ctx: CheckContext) -> list[Issue]:
    """The issues inference finds in ``ctx.model`` (computed on the first call per context)."""
    found = _CACHE.get(ctx)
    if found is None:
        found = _CACHE[ctx] = infer_model(ctx.model).issues
    return found


def provide_issues(ctx: CheckContext, issues: list[Issue]) -> None:
    """Give ``ctx`` the issues of an inference already run on its model (a document's), not to run it twice."""
    _CACHE[ctx] = issues


def report_issues(ctx: CheckContext, code: str) -> None:
    """Report every issue of ``code`` at its node input (or the node's operator)."""
    for issue in issues_for(ctx):
        if issue.code == code:
            token: object = ("input", issue.input_index) if issue.input_index is not None else "op_type"
            ctx.report(code, issue.message, issue.path, token=token)  # type: ignore[arg-type]
