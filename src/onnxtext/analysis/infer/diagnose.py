"""Inference issues for the checker's E7xx rules: the context holds the inference, computed once per check."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from onnxtext.analysis.check.context import CheckContext

__all__ = ["report_issues"]


def report_issues(ctx: CheckContext, code: str) -> None:
    """Report every issue of ``code`` that ``ctx.inference`` found, at its node input (or the node's operator)."""
    for issue in ctx.inference.issues:
        if issue.code == code:
            token: object = ("input", issue.input_index) if issue.input_index is not None else "op_type"
            ctx.report(code, issue.message, issue.path, token=token)  # type: ignore[arg-type]
