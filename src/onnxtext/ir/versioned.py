"""The one domain normaliser and the one versioned operator registry.

ONNX spells the default operator domain ``""`` or ``"ai.onnx"``; :func:`normalize_domain`
maps both to ``""`` (schemas, resolution, the checker, inference and the evaluator all
use it). A :class:`VersionedRegistry` holds what is registered for an operator from an
opset version on (the evaluator's kernels, inference's shape functions) and answers
"the entry with the highest ``since_version`` <= the imported version", the way ONNX
versions its operators.
"""

from __future__ import annotations

import bisect
from typing import Final, Generic, TypeVar

__all__ = ["DEFAULT_DOMAIN_ALIASES", "normalize_domain", "VersionedRegistry"]

DEFAULT_DOMAIN_ALIASES: Final = frozenset({"", "ai.onnx"})
"""Spellings of the default operator domain; :func:`normalize_domain` maps them to ``""``."""


def normalize_domain(domain: str) -> str:
    """``domain`` with the default domain's spellings (``"ai.onnx"``) mapped to ``""``."""
    return "" if domain in DEFAULT_DOMAIN_ALIASES else domain


T = TypeVar("T")


class VersionedRegistry(Generic[T]):
    """Entries by (domain, op_type), each from a ``since_version`` on; lookups are remembered."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, str], list[tuple[int, T]]] = {}
        self._found: dict[tuple[str, str, int | None], T | None] = {}
        """What :meth:`lookup` answered, by its arguments; emptied by every registration."""

    def add(self, domain: str, op_type: str, since_version: int, value: T) -> None:
        """Register ``value`` for ``domain::op_type`` from ``since_version`` on (replacing one of the same version)."""
        entries = self._entries.setdefault((normalize_domain(domain), op_type), [])
        entries[:] = [e for e in entries if e[0] != since_version]
        entries.append((since_version, value))
        entries.sort(key=lambda e: e[0])
        self._found.clear()

    def lookup(self, domain: str, op_type: str, version: int | None) -> T | None:
        """The entry with the highest ``since_version`` <= ``version`` (the latest when ``None``)."""
        key = (domain, op_type, version)
        if key in self._found:
            return self._found[key]
        found = self._found[key] = self._lookup(domain, op_type, version)
        return found

    def _lookup(self, domain: str, op_type: str, version: int | None) -> T | None:
        entries = self._entries.get((normalize_domain(domain), op_type))
        if not entries:
            return None
        if version is None:
            return entries[-1][1]
        position = bisect.bisect_right([e[0] for e in entries], version)
        return entries[position - 1][1] if position else None

    def registered(self) -> list[tuple[str, str, int]]:
        """Every (domain, op_type, since_version) registered, sorted."""
        return sorted((d, op, v) for (d, op), entries in self._entries.items() for v, _ in entries)
