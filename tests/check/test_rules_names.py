"""W201: C90 names (information by default: exporters routinely break it; a warning when selected by its code)."""

from __future__ import annotations

from checkutil import diagnostics, located

from onnxtext.diagnostics import Severity

H = '<ir_version: 10, opset_import: ["" : 21]>\n'


def test_c90_names_ok() -> None:
    assert located(H + "g (float[N] x) => (float[N] y) { y = Relu(x) }\n", "W201") == []


def test_w201_non_c90_value_name_is_information() -> None:
    text = (
        H
        + 'g (float[N] x) => (float[N] y) {\n  "/layer/Relu_output_0" = Relu(x)\n  y = Neg("/layer/Relu_output_0")\n}\n'
    )
    from onnxtext.api import check

    diags = [d for d in check(text) if d.code == "W201"]
    assert located(text, "W201") == [("W201", 3, 3)]
    assert diags[0].severity is Severity.INFO
    assert "exporters" in diags[0].message


NAMED = H + 'g (float[N] x) => (float[N] y) {\n  "/a" = Relu(x)\n  y = Neg("/a")\n}\n'


def test_w201_selected_by_its_code_is_a_warning() -> None:
    """The usual settings make it a warning again: naming W201 in ``select`` (a prefix does not)."""
    from onnxtext.api import check

    assert [d.severity for d in check(NAMED, select=["W201"])] == [Severity.WARNING]
    assert [d.severity for d in check(NAMED, select=["W"]) if d.code == "W201"] == [Severity.INFO]
    assert [d.severity for d in check(NAMED) if d.code == "W201"] == [Severity.INFO]
    assert [d for d in check(NAMED, ignore=["W201"]) if d.code == "W201"] == []


def test_rule_registry_holds_a_default_severity_per_code() -> None:
    from onnxtext.analysis.check import rule_by_code

    assert rule_by_code("W201").severity() is Severity.INFO
    assert rule_by_code("W201").severity(["w201"]) is Severity.WARNING
    assert rule_by_code("E301").severity() is Severity.ERROR
    assert rule_by_code("E301").severity(["E301"]) is Severity.ERROR


def test_w201_is_a_hint_in_the_editor() -> None:
    """A printed torch export opens with no warning: W201 reaches the editor as a hint."""
    from onnxtext.host.analyse import Settings, diagnose

    found = [d for d in diagnose(NAMED, "<t>", Settings()).diagnostics if d.code == "W201"]
    assert [d.severity for d in found] == [Severity.HINT]
    selected = diagnose(NAMED, "<t>", Settings(select=["W201"])).diagnostics
    assert [d.severity for d in selected] == [Severity.WARNING]


def test_w201_dimension_variable() -> None:
    text = H + 'g (float["batch size"] x) => (float[2] y) { y = Relu(x) }\n'
    assert located(text, "W201") == [("W201", 2, 4)]


def test_w201_is_one_summary_per_model_with_related_locations() -> None:
    sources = ["x"] + [f'"/l{i}/Relu"' for i in range(89)]
    body = "".join(f'  "/l{i}/Relu" = Relu({src})\n' for i, src in enumerate(sources))
    text = H + f'g (float[N] x) => (float[N] y) {{\n{body}  y = Neg("/l89/Relu")\n}}\n'
    diags = diagnostics(text, "W201")
    assert len(diags) == 1
    assert diags[0].message.startswith("90 names are not C90 identifiers")
    assert "'/l0/Relu', '/l1/Relu', '/l2/Relu' and 87 more" in diags[0].message
    assert (diags[0].span.start.line, diags[0].span.start.column) == (3, 3)  # type: ignore[union-attr]
    assert [r.span.start.line for r in diags[0].related] == list(range(4, 93))  # type: ignore[union-attr]


def test_w201_summary_on_a_binary_names_the_first_ones() -> None:
    from onnxtext import parse_model
    from onnxtext.analysis.check import check_proto

    text = H + 'g (float[N] x) => (float[N] y) {\n  "/a" = Relu(x)\n  "/b" = Relu("/a")\n  y = Neg("/b")\n}\n'
    diags = [d for d in check_proto(parse_model(text)) if d.code == "W201"]
    assert len(diags) == 1 and "'/a', '/b'" in diags[0].message and diags[0].path
