"""Symbol tables after an edit (stub)."""

from __future__ import annotations

from collections.abc import Sequence

from onnxtext.analysis.symbols import Symbols
from onnxtext.syntax import ast as A

__all__ = ["update_symbols"]


def update_symbols(
    symbols: Symbols,
    owner: A.Graph | A.Function,
    first: int,
    old: Sequence[A.Node | A.ErrorNode],
    new: Sequence[A.Node],
    at: int,
    delta: int,
) -> Symbols | None:
    return None
