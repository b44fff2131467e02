"""The ``onnxtext`` command line.

``onnxtext --version`` answers before the command line's modules load (argparse, protobuf,
diagnostics): the version is all it needs. Everything else goes to :mod:`onnxtext.cli.app`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from onnxtext.cli.app import build_parser

__all__ = ["main", "build_parser"]


def main(argv: list[str] | None = None) -> int:
    """Run the ``onnxtext`` command with ``argv`` (``sys.argv[1:]`` by default); the exit status."""
    if (sys.argv[1:] if argv is None else argv) == ["--version"]:
        from onnxtext._version import __version__

        print(f"onnxtext {__version__}")  # what argparse's version action prints (cli.app.PROG)
        return 0
    from onnxtext.cli import app

    return app.main(argv)


def __getattr__(name: str) -> Any:
    if name == "build_parser":
        from onnxtext.cli.app import build_parser

        return build_parser
    raise AttributeError(f"module 'onnxtext.cli' has no attribute {name!r}")
