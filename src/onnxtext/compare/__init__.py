"""Comparing two models: the structural match of their nodes (:mod:`.match`), the diff it gives
(:mod:`.structural`), its picture (:mod:`.picture`) and the numeric comparison of matched values
(:mod:`.numeric`)."""

from __future__ import annotations

__all__: list[str] = []
