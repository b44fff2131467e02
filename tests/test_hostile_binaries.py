"""Hostile binary models found by the hostile-input campaign (#31): the surgery commands read a
binary's names as every other command does, and refuse names that are no UTF-8 text by where
they are (they raised a TypeError looking the name up)."""

from __future__ import annotations

from pathlib import Path

import pytest

import onnxtext
from onnxtext.cli.app import main

H = '<ir_version: 8, opset_import: ["" : 18]>\n'


@pytest.mark.parametrize(
    "argv",
    [
        ["edit", "M", "--rename", "x=z", "-o", "OUT.onnx"],
        ["edit", "M", "--delete-node", "y", "-o", "OUT.onnxtxt"],
        ["extract", "M", "--outputs", "y", "-o", "OUT.onnx"],
        ["merge", "M", "M", "-o", "OUT.onnx"],
    ],
)
def test_surgery_on_names_that_are_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    model = onnxtext.parse_model(H + "g (float[2] x) => (float[2] y) { t = Relu (x)\n y = Neg (t) }\n")
    path = tmp_path / "m.onnx"
    path.write_bytes(
        model.SerializeToString().replace(b"\x0a\x01t", b"\x0a\x01\xff").replace(b"\x12\x01t", b"\x12\x01\xff")
    )
    args = [str(path) if a == "M" else a.replace("OUT", str(tmp_path / "out")) for a in argv]
    status = main(args)
    said = capsys.readouterr()
    assert "Traceback" not in said.out + said.err
    assert status == 1
    verb = {"edit": "edited", "extract": "extracted from", "merge": "merged"}[argv[0]]
    assert (
        said.err.strip() == f"{path}: error: cannot be {verb}: graph/node[1]/input holds bytes that are not UTF-8 text"
    )
    assert not list(tmp_path.glob("out*"))
