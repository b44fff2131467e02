"""Where an evaluation error happened in a binary model: a readable proto path.

A :class:`NodeErrorRecord` carries the :class:`ProtoPath` of what failed
(``graph/node[3]/attribute[0]/g/node[0]``, ``functions[1]/node[2]``): in a text, the
lowering's ``SourceMap.locate`` gives its span (the closest enclosing thing the text
has); :func:`readable_path` describes it in a binary model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onnxtext.ir.paths import describe

if TYPE_CHECKING:
    from onnxtext.evaluate.errors import NodeErrorRecord

__all__ = ["readable_path"]


def readable_path(record: NodeErrorRecord, model: Any) -> str:
    """``graph/node[3]/attribute[0]/g/node[1] (MatMul 'mm1') input 0 'x'`` for a binary model's error."""
    text = describe(model, record.path)
    if record.function is not None and record.path and record.path[0][0] == "functions":
        text += f" in function '{record.function}'"
    return text + record.detail()
