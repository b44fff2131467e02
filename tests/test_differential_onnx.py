"""Differential tests against onnx.parser: whatever it accepts, we parse to the same protobuf."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("onnx")
import onnx.defs  # noqa: E402
import onnx.parser  # noqa: E402
import onnx.printer  # noqa: E402
from corpus.backend import all_model_paths, case_id  # noqa: E402

from onnxtext import ParseError, parse_function, parse_graph, parse_model  # noqa: E402

PATHS = all_model_paths()


def _onnx_parse(text: str) -> bytes | None:
    try:
        return onnx.parser.parse_model(text).SerializeToString(deterministic=True)
    except onnx.parser.ParseError:
        return None


@pytest.mark.parametrize("path", PATHS, ids=[case_id(p) for p in PATHS])
def test_onnx_printer_output_parses_the_same(path: Path) -> None:
    """Every text onnx.printer prints parses here; where onnx.parser accepts it, to the same bytes."""
    model = onnx.load(str(path), load_external_data=False)
    text = onnx.printer.to_text(model)
    expected = _onnx_parse(text)
    try:
        ours = parse_model(text).SerializeToString(deterministic=True)
    except ParseError as e:
        if expected is None:
            pytest.skip(f"neither parser accepts onnx.printer's text: {e}")
        raise
    if expected is not None:  # all 2,024 texts with onnx 1.23: identical bytes
        assert ours == expected


# ---------------------------------------------------------------- onnx's own operator function bodies

_RAW_STRING = re.compile(r'R"(ONNX)?\((.*?)\)\1"', re.S)
_ADD_LITERAL = re.compile(r'\.Add\(\s*"((?:[^"\\\n]|\\.)*)"\s*\)')


def _function_body_snippets() -> list[tuple[str, str]]:
    """Every node-list text in the C++ operator definitions the onnx package ships
    (``.FunctionBody(R"ONNX(...)ONNX")``, ``builder.Add(R"(...)")``, ``.Add("...")``)."""
    root = Path(onnx.__file__).parent / "defs"
    snippets: list[tuple[str, str]] = []
    for path in sorted(root.rglob("*.cc")):
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(root).as_posix()
        for m in _RAW_STRING.finditer(source):
            snippets.append((where, m.group(2)))
        for m in _ADD_LITERAL.finditer(source):
            snippets.append((where, m.group(1).encode("ascii").decode("unicode_escape")))
    return snippets


def _as_graph(snippet: str) -> str:
    body = snippet.strip()
    return "g () => () " + (body if body.startswith("{") else "{\n" + body + "\n}")


def _both(
    parse_ref: Callable[[str], Any], parse_ours: Callable[[str], Any], text: str
) -> tuple[bytes | None, bytes | None]:
    try:
        ref = parse_ref(text).SerializeToString(deterministic=True)
    except (onnx.parser.ParseError, RuntimeError, IndexError):  # how onnx.parser's C++ exceptions arrive
        ref = None
    try:
        ours = parse_ours(text).SerializeToString(deterministic=True)
    except ParseError:
        ours = None
    return ref, ours


def test_onnx_function_body_snippets_parse_the_same() -> None:
    """Each snippet of onnx's operator function bodies gives onnx.parser's bytes."""
    snippets = _function_body_snippets()
    if not snippets:
        pytest.skip("this onnx installation ships no operator definition sources")
    differ = []
    same = 0
    for where, snippet in snippets:
        ref, ours = _both(onnx.parser.parse_graph, parse_graph, _as_graph(snippet))
        if ref == ours:
            same += ref is not None
        else:
            differ.append((where, snippet[:200], ref is None, ours is None))
    assert differ == []
    assert same > 600, same  # 634 with onnx 1.23: the extraction found them


def test_onnx_schema_function_bodies_printed_parse_the_same() -> None:
    """Every operator's function body (each opset version), printed by onnx.printer, gives the same bytes."""
    texts = []
    for schema in onnx.defs.get_all_schemas_with_history():
        for version in schema.function_opset_versions:
            body = schema.get_function_with_opset_version(version)
            if isinstance(body, bytes):  # some onnx versions give the serialized proto
                body = onnx.FunctionProto.FromString(body)
            texts.append(onnx.printer.to_text(body))
    assert len(texts) > 40
    for text in texts:
        ref, ours = _both(onnx.parser.parse_function, parse_function, text)
        assert ref is not None and ours == ref, text


def test_onnx_parser_test_seeds_parse_the_same() -> None:
    """The texts onnx keeps from its parser tests (the seeds of its parser fuzzer)."""
    seeds = pytest.importorskip("onnx.fuzz.make_seed_corpus")._PARSER_SEEDS
    assert seeds
    for name, text in seeds.items():
        ref, ours = _both(onnx.parser.parse_model, parse_model, text)
        assert ref is not None and ours == ref, name
