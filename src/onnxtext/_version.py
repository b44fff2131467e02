from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("onnxtext")
except PackageNotFoundError:  # running from a source checkout without installation
    __version__ = "0.1.0+source"
