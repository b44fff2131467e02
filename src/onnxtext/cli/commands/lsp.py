"""``onnxtext lsp``: the language server."""

from __future__ import annotations

import argparse

from onnxtext.cli.common import EXIT_INPUT, EXIT_OK, PROG, _Reporter


def cmd_lsp(args: argparse.Namespace, report: _Reporter) -> int:
    """Serve the Language Server Protocol until the client says exit."""
    try:
        from onnxtext.lsp.server import serve
    except ImportError as exc:  # pygls/lsprotocol missing from a hand-made environment
        report.error(
            PROG,
            f"the language server needs pygls and lsprotocol ({exc.name} is missing): pip install "
            "'pygls>=2,<3' lsprotocol",
        )
        return EXIT_INPUT
    try:
        serve(args.tcp)
    except OSError as exc:  # the port is taken, or the host is not this machine's
        host, port = args.tcp if args.tcp is not None else ("stdio", 0)
        report.error(PROG, f"cannot listen on {host}:{port}: {exc.strerror or exc}")
        return EXIT_INPUT
    return EXIT_OK
