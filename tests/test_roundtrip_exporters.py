"""print → parse gives back byte-identical protobufs for models made by real exporters.

The models (torch's TorchScript and dynamo exporters, skl2onnx, onnxscript) are
generated on first use into ``$ONNXTEXT_CACHE/exporters`` by ``corpus.exporters``; a
model whose exporter is not installed is skipped (``pip install -e '.[exporters]'``).
A case that fails today is listed in ``KNOWN_FAILURES`` with its exact cause and marked
``xfail(strict=True)``, so fixing it makes the suite say so.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus.exporters import GENERATORS, Generator

from onnxtext import NotRepresentable, cli, parse_model, to_text
from onnxtext.proto import ModelProto

# name → the exact cause of the failure (the field that differs, or what NotRepresentable says)
KNOWN_FAILURES: dict[str, str] = {}


def _params() -> list[object]:
    params = []
    for name, gen in GENERATORS.items():
        marks = []
        if name in KNOWN_FAILURES:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[name]))
        params.append(pytest.param(gen, id=name, marks=marks))
    return params


def _model(gen: Generator) -> ModelProto:
    for module in gen.requires:
        pytest.importorskip(module)
    return ModelProto.FromString(gen.ensure().read_bytes())


def _differences(a: ModelProto, b: ModelProto) -> str:
    """A short unified diff of the two models in protobuf text format, for the failure message."""
    import difflib

    from google.protobuf import text_format

    lines = difflib.unified_diff(
        text_format.MessageToString(a).splitlines(),
        text_format.MessageToString(b).splitlines(),
        "exported",
        "parsed back",
        lineterm="",
        n=2,
    )
    return "\n".join(list(lines)[:80])


@pytest.mark.parametrize("gen", _params())
def test_exported_model_round_trips(gen: Generator) -> None:
    original = _model(gen)
    try:
        text = to_text(original)
    except NotRepresentable as e:
        pytest.fail(f"NotRepresentable: {e}")
    back = parse_model(text, path=f"{gen.name}.onnxtxt")
    same = back.SerializeToString(deterministic=True) == original.SerializeToString(deterministic=True)
    assert same, _differences(original, back)
    # stability: printing the parsed model gives the same text
    assert to_text(back) == text


@pytest.mark.parametrize("name", [n for n in GENERATORS if n.startswith("torch_script_")])
def test_legacy_exports_read_without_name_overrides(name: str) -> None:
    """TorchScript exports leave the name of every Constant's tensor unset: the header says so once."""
    original = _model(GENERATORS[name])
    unset = [a.t for n in original.graph.node for a in n.attribute if a.HasField("t") and not a.t.HasField("name")]
    if not unset:
        pytest.skip("this torch version names its constants' tensors")
    text = to_text(original)
    assert "tensor_name: unset" in text
    assert "@{name: unset}" not in text


@pytest.mark.parametrize("gen", _params())
def test_commands_on_exported_model(gen: Generator, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Through the CLI: print, then parse back to the exporter's very bytes; the printed text is
    already formatted (fmt changes nothing, so formatting is idempotent on it); graph writes an
    HTML page and an SVG picture. Nothing on stderr: no warning, no note."""
    _model(gen)
    source = gen.path()
    text, back = tmp_path / "m.onnxtxt", tmp_path / "back.onnx"
    assert cli.main(["print", str(source), "-o", str(text)]) == 0
    assert cli.main(["parse", str(text), "-o", str(back)]) == 0
    assert back.read_bytes() == source.read_bytes()
    assert cli.main(["fmt", "--check", str(text)]) == 0
    for suffix, mark in ((".html", "<html"), (".svg", "<svg")):
        picture = tmp_path / f"m{suffix}"
        assert cli.main(["graph", str(source), "-o", str(picture)]) == 0
        assert mark in picture.read_text(encoding="utf-8")[:4000]
    assert capsys.readouterr().err == ""
