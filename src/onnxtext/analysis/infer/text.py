"""A :class:`~onnxtext.analysis.infer.types.ValueType` as the text writes a type (``float[N, 8]``):
what a fix or a gesture writes where a type is declared."""

from __future__ import annotations

from onnxtext.analysis.infer.types import ValueType, to_type_proto

__all__ = ["type_text"]


def type_text(vt: ValueType | None) -> str | None:
    """``vt`` as the text writes it, or None when it is not known enough to be written (an element
    type unknown or out of range) or the text cannot hold it."""
    if vt is None or vt.type_str() is None:  # unknown, or an element type no ONNX type has (a hostile 2**40)
        return None
    from onnxtext.printing.lift import Lifter, NotRepresentable
    from onnxtext.syntax.printer import Printer

    try:
        ty, _ = Lifter().type(to_type_proto(vt), "type")
    except (NotRepresentable, ValueError):
        return None
    return str(Printer().print(ty))
