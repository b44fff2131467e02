"""Every diagnostic code of the stages before and after the checker, with its severity and meaning.

P: parsing (``syntax/``), L: lowering (``lowering/``), X: external data (``weights/``),
R: running a model (``evaluate/``, the editor's live run), S: model surgery (``surgery/``: extract,
edit, merge). The checker's codes (E, W) are its
rules' (:mod:`onnxtext.analysis.check.rules`); :data:`onnxtext.analysis.check.CODES` joins
both into the one registry that ``onnxtext rules`` lists. The modules that emit a code name
it as a constant of their own; ``tests/test_codes.py`` holds the source and this table
equal, both ways.
"""

from __future__ import annotations

from dataclasses import dataclass

from onnxtext.diagnostics import Severity

__all__ = ["Code", "STAGE_CODES"]


@dataclass(frozen=True, slots=True)
class Code:
    """One diagnostic code: its default severity, a short name and a one-line description."""

    code: str
    severity: Severity
    name: str
    description: str


_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO

STAGE_CODES: tuple[Code, ...] = (
    Code(
        "P001",
        _E,
        "syntax",
        "The text does not follow the grammar (a single-token repair is suggested where one fits).",
    ),
    Code(
        "P002",
        _E,
        "lexical",
        "A character that starts no token, a name outside [A-Za-z0-9_] unquoted, or '->' for '=>'.",
    ),
    Code("P003", _E, "bad-string", "A string in single quotes, or not closed before the end of its line."),
    Code("P004", _W, "unknown-escape", "A backslash escape that strings do not know (kept as written)."),
    Code("P005", _E, "second-model", "A file holds one model; a second model header starts another."),
    Code("P006", _W, "no-operator", 'A node without an operator name, read as onnx.parser reads it (op_type "").'),
    Code("P007", _W, "trailing-text", "Text after a graph, function or node, which onnx.parser does not read either."),
    Code("L001", _E, "unknown-type", "An element type name that is not a TensorProto data type."),
    Code(
        "L002",
        _E,
        "bad-tensor",
        "A tensor literal that cannot be stored: non-numeric dimensions with data, values of the wrong kind.",
    ),
    Code(
        "L003",
        _E,
        "attribute-type",
        "An unknown attribute type, or a value (a list, a single value, an empty list) that does not fit it.",
    ),
    Code("L004", _E, "bad-number", "A number that is not valid or out of range where it is written."),
    Code("L005", _E, "bad-header", "A node or tensor property (domain, encoding) with a value it does not take."),
    Code("L006", _E, "bad-name", "A name that is not valid UTF-8 text."),
    Code(
        "L007",
        _E,
        "not-tensor",
        "A value with data (an initializer, a tensor attribute) whose type is not a tensor type.",
    ),
    Code(
        "L008", _W, "stored-as-written", "A tensor literal that does not fit its type, stored as onnx.parser stores it."
    ),
    Code(
        "L009",
        _E,
        "too-deep",
        "Graphs nested deeper than protobuf can read back (at the first statement past the limit).",
    ),
    Code("L010", _E, "unknown-key", "A property block key that the message has no field for."),
    Code("L011", _E, "bad-value", "A property block value of the wrong kind or out of range for its field."),
    Code(
        "L012",
        _W,
        "default-as-written",
        "A function attribute's default whose value is of another type than declared, stored as onnx.parser stores it.",
    ),
    Code(
        "X001",
        _E,
        "unsafe-location",
        "An external data location that is absolute, escapes the model's folder or is empty.",
    ),
    Code("X002", _E, "unreadable", "An external data file that is missing or cannot be read."),
    Code(
        "X003", _E, "bad-range", "An external data offset or length that is bad, or a range past the end of the file."
    ),
    Code("X004", _E, "bad-checksum", "An external data checksum that does not match the bytes."),
    Code("X005", _E, "unwritable", "An external data sidecar that cannot be written."),
    Code(
        "X006",
        _E,
        "edited-reference",
        "A tensor shown by reference in a big model's view was edited (its digest, record, type or shape): "
        "saving cannot copy its bytes.",
    ),
    Code("R000", _I, "not-run", "The editor did not run the model (over the budget, an input that cannot be made up)."),
    Code("R001", _W, "failed-on-made-up-inputs", "A node failed when the editor ran the model on made-up inputs."),
    Code("R002", _E, "run-error", "A node failed when the model ran ('onnxtext run')."),
    Code("R003", _E, "output-mismatch", "An output's value contradicts its declared type ('onnxtext run')."),
    Code(
        "S001",
        _E,
        "unknown-name",
        "A surgery names a value, node or input the model does not have (the nearest named).",
    ),
    Code(
        "S002",
        _E,
        "wrong-kind",
        "A surgery names something of the wrong kind (an initializer for an input, an output twice, an empty name).",
    ),
    Code("S003", _E, "name-taken", "A new name (a rename, a merge's prefix) is already a value of the model."),
    Code(
        "S004",
        _E,
        "incompatible",
        "A value that does not fit where it goes: an array or shape against an input's type, connected types.",
    ),
    Code("S005", _E, "opset-conflict", "Two models to merge import one domain at different versions."),
    Code("S006", _W, "dangling", "A deleted node's outputs are still read: their readers are left without a producer."),
    Code("S007", _E, "not-computable", "Extracted outputs that need a graph input not among the extracted inputs."),
    Code("S008", _E, "type-unknown", "A new input or output whose type is neither declared nor inferred."),
    Code("S009", _W, "training-info-dropped", "A training_info entry an extracted sub-model cannot keep."),
    Code(
        "S010",
        _I,
        "declared-shapes-follow",
        "Declared shapes (value_info, outputs) that followed a graph input follow the shape it was given.",
    ),
    Code("S011", _W, "rank-changed", "A graph input given a shape of another rank than it had."),
)
"""The codes of parsing, lowering, external data, running and surgery, by stage then number."""
