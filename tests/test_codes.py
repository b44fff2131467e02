"""One registry of every diagnostic code: what the source emits is registered, and nothing else is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from onnxtext.analysis.check import CODES, RULES
from onnxtext.cli.app import main
from onnxtext.diagnostics import Severity
from onnxtext.diagnostics.codes import STAGE_CODES

SRC = Path(__file__).resolve().parents[1] / "src" / "onnxtext"
REGISTRY = SRC / "diagnostics" / "codes.py"
CODE = re.compile(r"""["']([A-Z][0-9]{3})["']""")


def _codes_in_source() -> dict[str, list[str]]:
    """Every code written as a string literal in the source (outside the registry), with where."""
    found: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        if path == REGISTRY:
            continue
        text = path.read_text(encoding="utf-8")
        for m in CODE.finditer(text):
            found.setdefault(m.group(1), []).append(f"{path.relative_to(SRC)}:{text.count(chr(10), 0, m.start()) + 1}")
    return found


def test_every_code_the_source_emits_is_registered() -> None:
    unregistered = {code: where for code, where in _codes_in_source().items() if code not in CODES}
    assert not unregistered, f"codes missing from diagnostics/codes.py or the rules: {unregistered}"


def test_every_registered_code_is_emitted() -> None:
    emitted = _codes_in_source()
    assert [code for code in CODES if code not in emitted] == []


def test_registry_holds_stage_codes_and_rules_once_each() -> None:
    assert len(CODES) == len(STAGE_CODES) + len(RULES)
    assert {c.code[0] for c in STAGE_CODES} == set("PLXRS")
    assert {r.code[0] for r in RULES} == set("EW")
    for code in CODES.values():
        assert re.fullmatch(r"[a-z0-9-]+", code.name), code
        assert code.description.endswith("."), code
    assert CODES["L008"].severity is Severity.WARNING and CODES["R000"].severity is Severity.INFO


def test_rules_lists_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(CODES)
    assert lines[0].split()[:3] == ["P001", "error", "syntax"]
    firsts = [line[0] for line in lines]
    assert firsts == sorted(firsts, key="PLEWXRS".index)  # in pipeline order
    assert {"L001", "L011", "P002", "X003", "R002"} <= {line.split()[0] for line in lines}
