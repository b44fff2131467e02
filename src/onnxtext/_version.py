"""The one place the version is written: hatchling reads it for the wheel (``[tool.hatch.version]``),
so ``onnxtext --version`` needs no ``importlib.metadata`` lookup at start-up."""

from __future__ import annotations

__version__ = "0.1.0"
