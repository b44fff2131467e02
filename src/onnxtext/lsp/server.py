"""``onnxtext lsp``: the language server, built from one table of handlers (``lsp/requests.py``).

Diagnostics are recomputed after each change, debounced per document; a newer version
cancels the pending run (and the running one between stages), and a result for a
version that is no longer current is dropped, never published (``lsp/session.py``).
"""

from __future__ import annotations

from onnxtext._gc import pausing_allowed
from onnxtext.lsp.requests import COMMANDS, FEATURES
from onnxtext.lsp.session import OnnxTextServer

__all__ = ["OnnxTextServer", "build_server", "serve"]


def build_server() -> OnnxTextServer:
    """A server with every feature of the table registered (one per process)."""
    server = OnnxTextServer()
    for feature in FEATURES:
        server.feature(feature.name, feature.options)(feature.handler)
    for name, handler in COMMANDS:
        server.command(name)(handler)
    return server


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Run the server on stdio, or on a TCP port (for debugging). The process is the server's: onnxtext
    may hold the cyclic collector while it builds a document (``onnxtext._gc``)."""
    server = build_server()
    with pausing_allowed():
        if tcp is not None:
            server.start_tcp(*tcp)
        else:
            server.start_io()
