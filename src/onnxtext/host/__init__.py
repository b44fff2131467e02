"""The editor's host, protocol-free: open documents, one :class:`Change` per edit, immutable snapshots.

``lsp/`` converts the protocol to and from these; nothing here knows it (``tests/test_layers_editor.py``).
"""

from __future__ import annotations

from onnxtext.host.analyse import Outcome, Settings
from onnxtext.host.change import Change
from onnxtext.host.documents import DocumentHost, Host
from onnxtext.host.snapshot import Freshness, Snapshot, SnapshotGone, Unanswerable

__all__ = [
    "Change",
    "DocumentHost",
    "Freshness",
    "Host",
    "Outcome",
    "Settings",
    "Snapshot",
    "SnapshotGone",
    "Unanswerable",
]
