"""Incremental parsing: a document after an edit made from the one before it (see :mod:`.reparse`)."""

from __future__ import annotations

from onnxtext.incremental.reparse import reparse

__all__ = ["reparse"]
