"""Where an evaluation error happened: a source span (text models) or a readable proto path.

A :class:`NodeErrorRecord` carries the :class:`ProtoPath` of what failed
(``graph/node[3]/attribute[0]/g/node[0]``, ``functions[1]/node[2]``): :func:`locate`
looks it up in the lowering's source map, walking up to the closest enclosing thing the
text has; :func:`readable_path` describes it in a binary model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onnxtext.ir.paths import describe
from onnxtext.span import Span

if TYPE_CHECKING:
    from onnxtext.evaluate.errors import NodeErrorRecord

__all__ = ["locate", "readable_path"]


def locate(record: NodeErrorRecord, source_map: Any) -> Span | None:
    """The span of the node that failed, or of the closest enclosing thing the text has."""
    entries = source_map.entries if hasattr(source_map, "entries") else source_map
    for path in record.path.ancestors():
        node = entries.get(str(path))
        if node is not None and getattr(node, "span", None) is not None:
            span: Span = node.span
            return span
    return None


def readable_path(record: NodeErrorRecord, model: Any) -> str:
    """``graph/node[3]/attribute[0]/g/node[1] (MatMul 'mm1') input 0 'x'`` for a binary model's error."""
    text = describe(model, record.path)
    if record.function is not None and record.path and record.path[0][0] == "functions":
        text += f" in function '{record.function}'"
    return text + record.detail()
