"""Atomic writes through symlinks (#29, 11): the link's target gets the new content, the link stays."""

from __future__ import annotations

import os
from pathlib import Path

import onnxtext
from onnxtext.cli.app import main
from onnxtext.io import write_atomic

TEXT = '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n   y = Relu (x)\n}\n'


def test_write_atomic_writes_a_links_target(tmp_path: Path) -> None:
    real = tmp_path / "data" / "real.bin"
    real.parent.mkdir()
    real.write_bytes(b"old")
    os.chmod(real, 0o640)
    link, chain = tmp_path / "link.bin", tmp_path / "chain.bin"
    link.symlink_to(real)
    chain.symlink_to(link.name)  # a link to a link
    write_atomic(chain, b"new")
    assert real.read_bytes() == b"new" and os.stat(real).st_mode & 0o777 == 0o640
    assert chain.is_symlink() and os.readlink(chain) == link.name and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chain.bin", "data", "link.bin"]
    assert [p.name for p in real.parent.iterdir()] == ["real.bin"]  # no temporary file left


def test_a_dangling_link_gets_its_target_made(tmp_path: Path) -> None:
    link = tmp_path / "link.bin"
    link.symlink_to("made.bin")
    write_atomic(link, "text")
    assert link.is_symlink() and (tmp_path / "made.bin").read_text() == "text"


def test_parse_to_a_symlinked_model(tmp_path: Path) -> None:
    source, real, link = tmp_path / "m.onnxtxt", tmp_path / "real.onnx", tmp_path / "link.onnx"
    source.write_text(TEXT)
    real.write_bytes(b"")
    link.symlink_to(real.name)
    assert main(["parse", str(source), "-o", str(link)]) == 0
    assert link.is_symlink() and onnxtext.load(real).graph.node[0].op_type == "Relu"
