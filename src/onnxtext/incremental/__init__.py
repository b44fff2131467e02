"""Incremental parsing: a document after an edit made from the one before it (see :mod:`.reparse`)."""

from __future__ import annotations

from onnxtext.analysis.lineup import Splice
from onnxtext.incremental.reparse import reparse, reread

__all__ = ["Splice", "reparse", "reread"]
