"""``onnxtext check`` and ``onnxtext rules``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from onnxtext.analysis.check import RULES
from onnxtext.api import parse_model, save
from onnxtext.cli import app as cli

GOOD = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) { y = Relu(x) }\n'
BAD = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) { y = Rleu(x) }\n'
WARN = '<ir_version: 9, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) { y = Relu(x) }\n'


def _write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_clean_file_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", _write(tmp_path, "g.onnxtxt", GOOD)]) == 0
    assert capsys.readouterr().out == ""


def test_error_exits_1_with_caret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "b.onnxtxt", BAD)
    assert cli.main(["check", path]) == 1
    out = capsys.readouterr().out
    assert f"{path}:2:38: error[E301]: unknown operator 'Rleu'" in out
    assert "^~~~" in out


def test_warnings_do_not_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", _write(tmp_path, "w.onnxtxt", WARN)]) == 0
    assert "warning[W101]" in capsys.readouterr().out


def test_select_and_ignore(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "b.onnxtxt", BAD)
    assert cli.main(["check", path, "--ignore", "E301"]) == 0
    assert cli.main(["check", path, "--select", "E2,W"]) == 0
    assert cli.main(["check", path, "--select", "e3"]) == 1
    assert cli.main(["check", path, "--select", "X9"]) == 2


def test_binary_model_gets_readable_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "b.onnx")
    save(parse_model(BAD), path)
    assert cli.main(["check", path]) == 1
    out = capsys.readouterr().out
    assert f"{path}: error[E301]: unknown operator 'Rleu'" in out
    assert "(at graph/node[0] (Rleu) op_type)" in out


def test_parse_errors_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", _write(tmp_path, "p.onnxtxt", "g (float[2] x => (y) {}")]) == 1
    assert "error[P" in capsys.readouterr().out


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(tmp_path / "nope.onnxtxt")]) == 1


def test_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "b.onnxtxt", BAD)
    assert cli.main(["check", path, "--format", "json"]) == 1
    (item,) = json.loads(capsys.readouterr().out)
    assert item["code"] == "E301" and (item["line"], item["column"]) == (2, 38) and item["severity"] == "error"


def test_sarif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "b.onnxtxt", BAD)
    assert cli.main(["check", path, "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [r.code for r in RULES]
    (result,) = run["results"]
    assert result["ruleId"] == "E301" and result["level"] == "error"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "E301"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (2, 38)


def test_text_has_a_help_line_for_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "b.onnxtxt", BAD)
    assert cli.main(["check", path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(
        "b.onnxtxt:2:38: error[E301]: unknown operator 'Rleu' in opset 21 of domain '' (ai.onnx); did you mean 'Relu'?"
    )
    assert out[-1] == "  help: write 'Relu'"


def test_json_gives_the_fix_edits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "b.onnxtxt", BAD)
    assert cli.main(["check", path, "--format", "json"]) == 1
    (item,) = json.loads(capsys.readouterr().out)
    assert item["fix"] == "write 'Relu'"
    assert item["edits"] == [{"line": 2, "column": 38, "end_line": 2, "end_column": 42, "new_text": "Relu"}]


def test_sarif_gives_the_fix_as_replacements(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "b.onnxtxt", BAD)
    assert cli.main(["check", path, "--format", "sarif"]) == 1
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    (fix,) = result["fixes"]
    assert fix["description"] == {"text": "write 'Relu'"}
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 2, "startColumn": 38, "endLine": 2, "endColumn": 42},
            "insertedContent": {"text": "Relu"},
        }
    ]


def test_binary_model_fix_has_no_edits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = parse_model(BAD)
    path = str(tmp_path / "b.onnx")
    save(model, path)
    assert cli.main(["check", path, "--format", "json"]) == 1
    (item,) = json.loads(capsys.readouterr().out)
    assert item["fix"] == "write 'Relu'" and "edits" not in item and item["path"].startswith("graph/node[0]")
    assert cli.main(["check", path, "--format", "sarif"]) == 1
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert "fixes" not in result
    assert cli.main(["check", path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}: error[E301]: unknown operator 'Rleu'") and "(at graph/node[0]" in out[0]
    assert out[1] == "  help: write 'Relu'"


def test_rules_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines if line[0] in "EW"] == [r.code for r in RULES]
    assert [line for line in lines if line.startswith("E101")][0].split()[:3] == ["E101", "error", "ir-version-present"]


def test_external_data_is_looked_up_next_to_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) <float[2] w = ["location": '
        '"w.bin"]> { y = Add(x, w) }\n'
    )
    path = _write(tmp_path, "e.onnxtxt", text)
    assert cli.main(["check", path]) == 1
    assert "error[E505]" in capsys.readouterr().out
    (tmp_path / "w.bin").write_bytes(b"\0" * 8)
    assert cli.main(["check", path]) == 0


def _exporter_names(count: int) -> str:
    """A model whose values are named as exporters name them (not C90 identifiers: one W201 for all)."""
    lines = ['<ir_version: 10, opset_import: ["" : 21]>', f'g (float[2] x) => (float[2] "/l{count - 1}/out") {{']
    lines += ['   "/l0/out" = Relu (x)'] + [f'   "/l{i}/out" = Relu ("/l{i - 1}/out")' for i in range(1, count)]
    return "\n".join(lines) + "\n}\n"


def test_one_note_for_many_names_is_compact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """W201 relates every name of an export (360 lines on a printed BERT): the text names a few on
    one line and counts the places; JSON keeps each one (issue #29, item 13)."""
    path = _write(tmp_path, "m.onnxtxt", _exporter_names(40))
    assert cli.main(["check", path]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{path}:3:4: info[W201]: 40 names are not C90 identifiers, as the IR spec requires (many exporters "
        "write such names and most runtimes accept them): '/l0/out', '/l1/out', '/l2/out' and 37 more",
        '    3 |    "/l0/out" = Relu (x)',
        "           ^~~~~~~~~",
        "  note: 39 other places, listed by --format json and sarif",
    ]
    assert cli.main(["check", "--format", "json", path]) == 0
    (item,) = json.loads(capsys.readouterr().out)
    assert item["code"] == "W201" and len(item["related"]) == 39


def test_a_few_related_places_are_each_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "m.onnxtxt", _exporter_names(4))
    assert cli.main(["check", path]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if ": note: " in line]
    assert notes == [f"{path}:{3 + i}:4: note: value name '/l{i}/out'" for i in (1, 2, 3)]
