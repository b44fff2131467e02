"""The rule registry: unique codes, one file per rule family, every rule tested."""

from __future__ import annotations

import re
from pathlib import Path

from onnxtext.analysis.check import RULES, select_rules
from onnxtext.api import check

TESTS = Path(__file__).parent


def test_codes_and_names_unique_and_well_formed() -> None:
    codes = [r.code for r in RULES]
    assert len(set(codes)) == len(codes)
    assert len({r.name for r in RULES}) == len(RULES)
    for rule in RULES:
        assert re.fullmatch(r"[EW][1-7]\d\d", rule.code), rule.code
        assert re.fullmatch(r"[a-z0-9-]+", rule.name), rule.name
        assert rule.description.endswith(".") and "\n" not in rule.description


def test_every_rule_has_a_test() -> None:
    text = "".join(p.read_text() for p in TESTS.glob("test_*.py"))
    missing = [r.code for r in RULES if f'"{r.code}"' not in text]
    assert missing == []


def test_select_and_ignore_are_prefixes() -> None:
    assert {r.code[:2] for r in select_rules(["E3"])} == {"E3"}
    assert all(not r.code.startswith("W") for r in select_rules(ignore=["W"]))
    assert select_rules(["E101"], ["E1"]) == []


def test_onnx_model_is_accepted() -> None:
    import pytest

    onnx = pytest.importorskip("onnx")
    model = onnx.parser.parse_model(
        '<ir_version: 10, opset_import: ["" : 21]> g (float[2] x) => (float[2] y) { y = Rleu(x) }'
    )
    (diag,) = check(model)
    assert diag.code == "E301" and diag.path == "graph/node[0] (Rleu) op_type"


def test_one_rule_per_file() -> None:
    import onnxtext.analysis.check.rules as package

    modules = {rule.__module__ for rule in RULES}
    assert len(modules) == len(RULES)
    files = {p.stem for p in Path(package.__file__).parent.glob("*.py") if not p.stem.startswith("_")}
    assert files == {m.rsplit(".", 1)[1] for m in modules}
