"""One diagnostic policy: the command line, the Python API and the language server agree.

``onnxtext check``, :func:`onnxtext.check`/:func:`onnxtext.diagnose` and the server's
diagnostics all come from :func:`onnxtext.analysis.diagnose.diagnose`: checking goes on past
syntax and lowering errors, and the checker's knock-ons of a lowering error (what the
statement holding it defined) are left out. The agreement test runs every corpus text
(goldens, examples), broken ones included: the recovery corpus's seeded edits and
lowering errors planted in them (unknown types, numbers out of range).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import onnxtext
from onnxtext.analysis.check import CODES
from onnxtext.analysis.diagnose import check_document
from onnxtext.cli.app import main
from onnxtext.host.analyse import Settings
from onnxtext.host.analyse import diagnose as server_diagnose

ROOT = Path(__file__).resolve().parents[1]
H = '<ir_version: 8, opset_import: ["" : 18]>\n'

Located = set[tuple[str, int, int]]


def _cli(path: Path, capsys: pytest.CaptureFixture[str]) -> Located:
    capsys.readouterr()
    main(["check", "--format", "json", str(path)])
    found = json.loads(capsys.readouterr().out)
    return {(d["code"], d["line"], d["column"]) for d in found}


def _located(diags: list[onnxtext.Diagnostic]) -> Located:
    return {(d.code, d.span.start.line, d.span.start.column) for d in diags if d.span is not None}


def _api(path: Path) -> Located:
    found = onnxtext.check(path)
    assert [(d.code, d.severity) for d in found] == [
        (d.code, CODES[d.code].severity) for d in found
    ]  # registered, by default
    return _located(found)


def _server(path: Path) -> Located:
    text = path.read_bytes().decode("utf-8-sig")
    outcome = server_diagnose(text, str(path), Settings(evaluate=False), model_dir=str(path.parent))
    return _located(outcome.diagnostics)


def _all_three(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> Located:
    path = tmp_path / "m.onnxtxt"
    path.write_text(text, encoding="utf-8")
    cli, api, server = _cli(path, capsys), _api(path), _server(path)
    assert cli == api == server, f"cli {sorted(cli)}\napi {sorted(api)}\nserver {sorted(server)}"
    return cli


# ---------------------------------------------------------------- knock-ons of lowering errors


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param(  # the example: no E202 for x, whose type is the L001
            H + "g (flaot[2] x) => (float[2] y) { y = Rleu (x) }",
            {("L001", 2, 4), ("E301", 2, 38)},
            id="unknown-input-type",
        ),
        pytest.param(  # checking goes on past a lowering error: an unrelated double assignment is found
            H + "g (flaot[2] x) => (float[2] y) {\n  t = Neg (x)\n  t = Neg (x)\n  y = Relu (t)\n}",
            {("L001", 2, 4), ("E203", 4, 3)},
            id="goes-on-past-lowering-errors",
        ),
        pytest.param(  # an initializer with a bad dimension: nothing about B, computed from it
            H + "g (float[2] x) => (float[2] y, float[2] b)\n  <float[1e999999] c = {1, 2}>\n{\n"
            "  b = Identity (c)\n  y = Neg (x)\n}",
            {("P001", 3, 10), ("L002", 3, 10)},
            id="initializer-flows-to-output",
        ),
        pytest.param(  # a Constant whose tensor has an unknown type: no E501/E502 about the dropped tensor
            H + "g (float[2] x) => (float[2] y) {\n  c = Constant <value = flaot[2] {1, 2}> ()\n  y = Add (x, c)\n}",
            {("L001", 3, 25)},
            id="attribute-tensor-type",
        ),
        pytest.param(  # a pad out of range: no E703 about the emptied list
            H + "g (float[1, 1, 4, 4] x, float[1, 1, 3, 3] w) => (float[1, 1, 4, 4] y) {\n"
            "  y = Conv <pads = [1e999999, 1, 1, 1]> (x, w)\n}",
            {("L004", 3, 21)},
            id="attribute-value",
        ),
        pytest.param(  # an opset version out of range: no E301 for every operator in "opset 0"
            '<ir_version: 8, opset_import: ["" : 1e999999]>\ng (float[2] x) => (float[2] y) { y = Relu (x) }',
            {("L011", 1, 37)},
            id="opset-import",
        ),
    ],
)
def test_knock_ons_of_lowering_errors_are_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: Located
) -> None:
    assert _all_three(tmp_path, text, capsys) == expected
    doc = onnxtext.parse_document(text)
    everything = {d.code for d in doc.diagnostics} | {d.code for d in check_document(doc)}
    assert everything - {c for c, _, _ in expected}, "the checker alone finds knock-ons here"


def test_what_reads_a_tensor_by_reference_is_typed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A digest record (a view by reference, ``print --weights digest``) lowers the tensor's type
    and shape, only its data is elsewhere: the type findings of what reads it are no knock-ons,
    those about the record's storage are (the L002 says it)."""
    digest = "sha256:" + "0" * 64
    text = H + f'g (float[4] x) => (float[4] y)\n  <float[2, 2] w = ["digest": "{digest}"]>\n{{\n  y = Add (x, w)\n}}'
    assert _all_three(tmp_path, text, capsys) == {("L002", 3, 20), ("E703", 5, 15)}


def test_diagnose_takes_a_document_and_selects_rules() -> None:
    doc = onnxtext.parse_document(H + "g (flaot[2] x) => (float[2] y) { y = Rleu (x) }")
    assert [d.code for d in onnxtext.diagnose(doc)] == ["L001", "E301"]
    assert [d.code for d in onnxtext.diagnose(doc, ignore=["E3"])] == ["L001"]  # lowering errors are always reported
    assert [d.code for d in onnxtext.diagnose(doc, select=["E2"])] == ["L001"]  # E202 stays a knock-on
    assert onnxtext.check(doc) == onnxtext.diagnose(doc)


# ---------------------------------------------------------------- agreement on every corpus text


def _corpus() -> list[tuple[str, str]]:
    files = sorted((ROOT / "tests" / "golden").glob("*.onnxtxt")) + sorted((ROOT / "examples").glob("*.onnxtxt"))
    return [(p.name, p.read_text(encoding="utf-8")) for p in files]


LOWERING_SLIPS = [(r"\bfloat\b", "flaot"), (r"\bint64\b", "int46"), (r"(?<=[\[,{ ])\d+(?=[,}\]])", "1e999999")]


def _broken(count: int, seed: int) -> list[tuple[str, str]]:
    """Seeded damage of corpus texts: the recovery corpus's edits and planted lowering errors."""
    from tests.test_recovery_corpus import _edit

    rng = random.Random(seed)
    texts = _corpus()
    out = []
    for k in range(count):
        name, text = texts[k % len(texts)]
        if k % 2:
            out.append((f"{name}#edit{k}", _edit(rng, text).apply(text)))
            continue
        pattern, slip = LOWERING_SLIPS[rng.randrange(len(LOWERING_SLIPS))]
        found = list(re.finditer(pattern, text))
        if found:
            m = rng.choice(found)
            out.append((f"{name}#slip{k}", text[: m.start()] + slip + text[m.end() :]))
    return out


@pytest.mark.parametrize("name, text", _corpus(), ids=[n for n, _ in _corpus()])
def test_cli_api_and_server_agree_on_corpus_texts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str
) -> None:
    _all_three(tmp_path, text, capsys)


BROKEN_FAST = _broken(120, 21)


@pytest.mark.parametrize("name, text", BROKEN_FAST, ids=[n for n, _ in BROKEN_FAST])
def test_cli_api_and_server_agree_on_broken_texts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str
) -> None:
    _all_three(tmp_path, text, capsys)


@pytest.mark.slow
def test_cli_api_and_server_agree_on_the_recovery_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every case of the recovery corpus (2,400 seeded edits of goldens, examples and backend models)."""
    from tests.test_recovery_corpus import _cases

    for k, (_, text, edit) in enumerate(_cases()):
        case = tmp_path / str(k)
        case.mkdir()
        _all_three(case, edit.apply(text), capsys)
