"""Proto paths: where a message is inside a model, as one immutable, hashable type.

A :class:`ProtoPath` is a tuple of steps, each a field name with an index for repeated
fields: ``(("graph",), ("node", 3), ("attribute", 0), ("g",))``. Its canonical string
form is ``graph/node[3]/attribute[0]/g`` (the keys of the lowering's source map and the
paths of diagnostics on binary models); :meth:`ProtoPath.parse` reads it back. The empty
path names the model itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto

__all__ = ["ProtoPath", "Step", "ROOT", "describe"]

Step = tuple[str] | tuple[str, int]
"""A field (``("graph",)``) or an element of a repeated field (``("node", 3)``)."""


_new = tuple.__new__


class ProtoPath(tuple[Step, ...]):
    """A path from a model to one of its messages; extending it makes a new path (it is a tuple)."""

    __slots__ = ()

    def __new__(cls, steps: Iterable[Step] = ()) -> ProtoPath:
        return super().__new__(cls, steps)

    @classmethod
    def parse(cls, text: str) -> ProtoPath:
        """The path written ``graph/node[3]/attribute[0]/g``; ``""`` is the model. Raises ``ValueError``."""
        if not text:
            return _ROOT
        steps: list[Step] = []
        for part in text.split("/"):
            # str methods rather than a regex per step: source-map lookups parse a path per node
            name, bracket, rest = part.partition("[")
            if not (name.isidentifier() and name.isascii()):
                raise ValueError(f"not a proto path step: {part!r} in {text!r}")
            if not bracket:
                steps.append((name,))
            elif rest[-1:] == "]" and rest[:-1].isdigit() and rest[:-1].isascii():
                steps.append((name, int(rest[:-1])))
            else:
                raise ValueError(f"not a proto path step: {part!r} in {text!r}")
        return cls(steps)

    def child(self, field: str, index: int | None = None) -> ProtoPath:
        """This path extended by ``field`` (``field[index]`` for an element of a repeated field)."""
        # tuple.__new__ directly: the lowering extends a path per message it maps
        return _new(ProtoPath, (*self, (field,) if index is None else (field, index)))

    def __truediv__(self, step: str | Step) -> ProtoPath:  # type: ignore[override]
        """``path / "g"``, ``path / ("node", 3)``: :meth:`child` as an operator."""
        return _new(ProtoPath, (*self, (step,) if isinstance(step, str) else step))

    @property
    def parent(self) -> ProtoPath | None:
        """The path one step shorter; ``None`` for the model (the empty path)."""
        return _new(ProtoPath, self[:-1]) if self else None

    def ancestors(self) -> Iterator[ProtoPath]:
        """This path, its parent, ... up to (and without) the model."""
        for end in range(len(self), 0, -1):
            yield _new(ProtoPath, self[:end])

    def startswith(self, prefix: tuple[Step, ...]) -> bool:
        return self[: len(prefix)] == prefix

    def resolve(self, model: Any) -> Any:
        """The message this path names in ``model`` (``model`` for the empty path); ``None`` if there is none."""
        msg = model
        for step in self:
            try:
                msg = getattr(msg, step[0])
                if len(step) > 1:
                    msg = msg[step[1]]  # type: ignore[misc]
            except (AttributeError, IndexError, TypeError):
                return None
        return msg

    def __str__(self) -> str:
        return "/".join(s[0] if len(s) == 1 else f"{s[0]}[{s[1]}]" for s in self)  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"ProtoPath({str(self)!r})"


ROOT = _ROOT = ProtoPath()
"""The empty path: the model itself."""


def describe(model: ModelProto, path: ProtoPath) -> str:
    """``graph/node[12] (MatMul 'mm1')``: a path a human can follow in a binary model (``model`` for ``""``)."""
    if not path:
        return "model"
    msg = path.resolve(model)
    text = str(path)
    if isinstance(msg, NodeProto):
        label = f"{msg.domain}.{msg.op_type}" if msg.domain else msg.op_type
        text += f" ({label} '{msg.name}')" if msg.name else f" ({label})"
    elif isinstance(msg, (GraphProto, FunctionProto)) or hasattr(msg, "name") and not isinstance(msg, ModelProto):
        name = getattr(msg, "name", "")
        if isinstance(name, str) and name:
            text += f" '{name}'"
    return text
