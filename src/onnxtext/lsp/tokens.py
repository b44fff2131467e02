"""Semantic tokens once per analysed document, and ``semanticTokens/full/delta``.

The encoded tokens of a 30,000-statement document take about half a second: they are made
once per document (right after its diagnostics are published, or by the first request,
whichever comes first; the other waits for that one) and kept for the latest document
only, so the cache does not grow with the number of edits. A delta is the one replaced
run of integers between the data a client holds and the new data.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable

from lsprotocol import types as L

from onnxtext.document import Document
from onnxtext.lsp.shift import _common  # the halving common prefix/suffix, on lists as on texts

__all__ = ["TokenCache", "token_delta"]


class TokenCache:
    """The encoded tokens of one document of one text (the latest asked for) and their result id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._document: weakref.ref[Document] | None = None
        """Weak: the cache never keeps a document the server has let go of alive."""
        self._data: list[int] = []
        self._serial = 0
        self.sent: tuple[str, list[int]] | None = None
        """The result id and data last sent to the client (what a delta request starts from)."""

    def data(self, document: Document, encode: Callable[[Document], list[int]]) -> tuple[str, list[int]]:
        """``document``'s tokens and their result id, computed at most once per document."""
        with self._lock:  # a request during the precomputation waits for it rather than doing it twice
            if self._document is None or self._document() is not document:
                self._data = encode(document)
                self._document = weakref.ref(document)
                self._serial += 1
            return str(self._serial), self._data

    def full(self, document: Document, encode: Callable[[Document], list[int]]) -> L.SemanticTokens:
        result_id, data = self.data(document, encode)
        self.sent = (result_id, data)
        return L.SemanticTokens(data=data, result_id=result_id)

    def delta(
        self, document: Document, encode: Callable[[Document], list[int]], previous: str
    ) -> L.SemanticTokens | L.SemanticTokensDelta:
        """The edit from the data sent as ``previous`` to ``document``'s; all of it when the
        client's data is not the one kept."""
        sent = self.sent
        result_id, data = self.data(document, encode)
        self.sent = (result_id, data)
        if sent is None or sent[0] != previous:
            return L.SemanticTokens(data=data, result_id=result_id)
        return L.SemanticTokensDelta(edits=token_delta(sent[1], data), result_id=result_id)


def token_delta(old: list[int], new: list[int]) -> list[L.SemanticTokensEdit]:
    """One edit replacing the integers between the common prefix and suffix (by whole tokens:
    five integers each, as clients apply them); none when equal."""
    if old == new:
        return []
    limit = min(len(old), len(new))
    prefix = _common(old, new, limit, from_end=False)
    prefix -= prefix % 5
    suffix = _common(old, new, limit - prefix, from_end=True)
    suffix -= suffix % 5
    return [
        L.SemanticTokensEdit(
            start=prefix, delete_count=len(old) - prefix - suffix, data=new[prefix : len(new) - suffix]
        )
    ]
