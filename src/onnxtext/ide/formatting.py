"""Range formatting of an analysed document: the statements a range meets printed anew from the
document's own tree and comments, so the cost is that of those statements, not of the text."""

from __future__ import annotations

from onnxtext.diagnostics import Edit
from onnxtext.document import Document
from onnxtext.syntax.format import format_range_edit, range_edit
from onnxtext.syntax.layout import DEFAULT_WIDTH
from onnxtext.syntax.nesting import TOO_DEEP
from onnxtext.syntax.parser import ParseResult

__all__ = ["document_range_edit"]


def document_range_edit(doc: Document, start: int, end: int, width: int = DEFAULT_WIDTH) -> Edit | None:
    """``syntax.format.format_range`` of ``doc``'s text as its one edit (None where it gives None).

    The document's tree is the parser's, but where the lowering met a graph nested past what
    protobuf reads (L009): it takes that graph out of the tree, so the text is parsed again then.
    The parse diagnostics (``P``) are those the formatter weighs: a lowering error leaves the
    text formattable, as ``fmt`` does.
    """
    text = doc.source.text
    if doc.kind != "model" or any(d.code == TOO_DEEP for d in doc.diagnostics):
        return format_range_edit(text, start, end, doc.source.path, width) if doc.kind == "model" else None
    parsed = ParseResult(doc.tree, [d for d in doc.diagnostics if d.code.startswith("P")], doc.source, doc.comments)
    return range_edit(parsed, start, end, width)
