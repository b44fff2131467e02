"""W101: The IR version should be at least the one released with the imported ONNX opsets.

Its helpers are shared with ``model_domain_naming``, ``model_opset_import``,
``node_domain_imported``, ``node_operator``.
"""

from __future__ import annotations

import re

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.schemas import normalize_domain
from onnxtext.proto import ModelProto

# (onnx release, IR version, ai.onnx, ai.onnx.ml, ai.onnx.training), from the "Released
# Versions" table of docs/Versioning.md (1.0 to 1.12) continued with onnx.helper.VERSION_TABLE.
RELEASES: tuple[tuple[str, int, int, int, int], ...] = (
    ("1.0", 3, 1, 1, 0),
    ("1.1", 3, 5, 1, 0),
    ("1.1.2", 3, 6, 1, 0),
    ("1.2", 3, 7, 1, 0),
    ("1.3", 3, 8, 1, 0),
    ("1.4.1", 4, 9, 1, 0),
    ("1.5.0", 5, 10, 1, 0),
    ("1.6.0", 6, 11, 2, 0),
    ("1.7.0", 7, 12, 2, 1),
    ("1.8.0", 7, 13, 2, 1),
    ("1.9.0", 7, 14, 2, 1),
    ("1.10.0", 8, 15, 2, 1),
    ("1.11.0", 8, 16, 3, 1),
    ("1.12.0", 8, 17, 3, 1),
    ("1.13.0", 8, 18, 3, 1),
    ("1.14.0", 9, 19, 3, 1),
    ("1.15.0", 9, 20, 4, 1),
    ("1.16.0", 10, 21, 5, 1),
    ("1.17.0", 10, 22, 5, 1),
    ("1.18.0", 11, 23, 5, 1),
    ("1.19.0", 12, 24, 5, 1),
    ("1.20.0", 13, 25, 5, 1),
    ("1.21.0", 13, 26, 5, 1),
    ("1.22.0", 13, 27, 5, 1),
    ("1.23.0", 14, 28, 5, 1),
)
_COLUMN = {"": 2, "ai.onnx.ml": 3, "ai.onnx.training": 4}


def required_ir_version(domain: str, version: int) -> tuple[int, str] | None:
    """The IR version of the first onnx release with opset ``version`` of ``domain``, and that release."""
    column = _COLUMN.get(normalize_domain(domain))
    if column is None:
        return None
    for name, ir, *opsets in RELEASES:
        if opsets[column - 2] >= version:
            return ir, name
    return None


def latest_opset_for_ir(domain: str, ir_version: int) -> int | None:
    """The latest opset of an ONNX ``domain`` released with IR ``ir_version`` or earlier (any IR when 0)."""
    column = _COLUMN.get(normalize_domain(domain))
    if column is None:
        return None
    fitting = [opsets[column - 2] for _, ir, *opsets in RELEASES if not ir_version or ir <= ir_version]
    return max(fitting) if fitting and max(fitting) > 0 else None


class IrOpsetCompatible(Rule):
    code = "W101"
    name = "ir-opset-compatible"
    description = "The IR version should be at least the one released with the imported ONNX opsets."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        if not model.ir_version:
            return
        for i, entry in enumerate(model.opset_import):
            needed = required_ir_version(entry.domain, entry.version)
            if needed is None or model.ir_version >= needed[0]:
                continue
            shown = entry.domain or "''"
            ctx.report(
                self.code,
                f"opset {entry.version} of domain {shown} came with IR version {needed[0]} "
                f"(onnx {needed[1]}) but the model says ir_version {model.ir_version}; "
                "some runtimes reject such models",
                "header",
                token=("key", "opset_import", i),
                fix=ctx.replacing(f"set 'ir_version: {needed[0]}'", "header", ("value", "ir_version"), str(needed[0])),
            )


REVERSE_DNS = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+")
