"""Every name a module of onnxtext lists in ``__all__`` is defined there.

``from m import *`` and the documentation both trust ``__all__``; a name listed but not
defined (a class that moved to a module of its own) fails only when someone imports it.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import onnxtext

MODULES = sorted(m.name for m in pkgutil.walk_packages(onnxtext.__path__, "onnxtext.") if not m.name.endswith("_pb2"))


def test_the_walk_finds_the_package() -> None:
    assert "onnxtext.analysis.check.rules.tensor_external" in MODULES
    assert len(MODULES) > 100


@pytest.mark.parametrize("name", MODULES)
def test_all_names_are_defined(name: str) -> None:
    module = importlib.import_module(name)
    listed = getattr(module, "__all__", [])
    assert [n for n in listed if not hasattr(module, n)] == []
