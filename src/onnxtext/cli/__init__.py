"""The ``onnxtext`` command line."""

from onnxtext.cli.app import build_parser, main

__all__ = ["main", "build_parser"]
