"""The type model of inference: :class:`ValueType`, like a ``TypeProto`` but hashable and small.

A tensor type is an element type (``TensorProto.DataType`` number, 0 when unknown) and a
shape: ``None`` when even the rank is unknown, else a tuple of dims, each an ``int``
(known size), a ``str`` (a symbol, ``N``) or ``None`` (unknown). Sequences and optionals
wrap an element type, maps a key element type and a value type; ``opaque`` stands for
the rest; ``unknown`` is what inference says when it knows nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from onnxtext.ir.dtypes import BY_CODE, BY_NAME
from onnxtext.proto import TypeProto

__all__ = [
    "Dim",
    "Shape",
    "ValueType",
    "UNKNOWN",
    "contradicts",
    "corrected",
    "elem_name",
    "from_type_proto",
    "parse_type_str",
    "to_type_proto",
]

Dim = int | str | None
Shape = tuple[Dim, ...] | None
Kind = Literal["tensor", "sparse_tensor", "sequence", "map", "optional", "opaque", "unknown"]


@dataclass(frozen=True, slots=True)
class ValueType:
    """The type of one value; see the module docstring."""

    kind: Kind
    elem_type: int = 0
    """Tensor / sparse tensor: the element type; map: the key type; 0 when unknown."""
    shape: Shape = None
    inner: ValueType | None = None
    """Sequence / optional: the element type; map: the value type."""

    @staticmethod
    def tensor(elem_type: int = 0, shape: Shape = None) -> ValueType:
        return ValueType("tensor", elem_type, None if shape is None else tuple(shape))

    @staticmethod
    def sequence(inner: ValueType | None) -> ValueType:
        return ValueType("sequence", inner=inner)

    @staticmethod
    def optional(inner: ValueType | None) -> ValueType:
        return ValueType("optional", inner=inner)

    @property
    def is_unknown(self) -> bool:
        return self.kind == "unknown"

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    def with_shape(self, shape: Shape) -> ValueType:
        return ValueType(self.kind, self.elem_type, None if shape is None else tuple(shape), self.inner)

    def type_str(self) -> str | None:
        """The schema spelling (``tensor(float)``, ``seq(tensor(int64))``); ``None`` if not fully known."""
        if self.kind in ("tensor", "sparse_tensor"):
            name = elem_name(self.elem_type)
            return None if name is None else f"{self.kind}({name})"
        if self.kind in ("sequence", "optional"):
            inner = self.inner.type_str() if self.inner is not None else None
            word = "seq" if self.kind == "sequence" else "optional"
            return None if inner is None else f"{word}({inner})"
        if self.kind == "map":
            key = elem_name(self.elem_type)
            if key is None or self.inner is None:
                return None
            value = self.inner.type_str() if self.inner.kind != "tensor" else elem_name(self.inner.elem_type)
            return None if value is None else f"map({key}, {value})"
        return None

    def __str__(self) -> str:
        if self.kind == "tensor":
            name = elem_name(self.elem_type) or "?"
            if self.shape is None:
                return name
            return f"{name}[{', '.join('?' if d is None else str(d) for d in self.shape)}]"
        if self.kind in ("sequence", "optional"):
            word = "seq" if self.kind == "sequence" else "optional"
            return f"{word}({self.inner if self.inner is not None else '?'})"
        return self.type_str() or self.kind


UNKNOWN = ValueType("unknown")


def contradicts(inferred: ValueType, declared: ValueType) -> bool:
    """Whether two types are proved different: different kinds, element types, ranks or
    sizes, each known on both sides (a symbol, ``N``, may be any size)."""
    if inferred.is_unknown or declared.is_unknown or inferred.kind == "opaque" or declared.kind == "opaque":
        return False
    if inferred.kind != declared.kind:
        return True
    if inferred.elem_type and declared.elem_type and inferred.elem_type != declared.elem_type:
        return True
    if inferred.kind in ("tensor", "sparse_tensor"):
        a, b = inferred.shape, declared.shape
        if a is None or b is None:
            return False
        if len(a) != len(b):
            return True
        return any(isinstance(x, int) and isinstance(y, int) and x != y for x, y in zip(a, b, strict=True))
    if inferred.inner is not None and declared.inner is not None:
        return contradicts(inferred.inner, declared.inner)
    return False


def corrected(gives: ValueType, declared: ValueType) -> ValueType:
    """The type to declare for a value whose declaration contradicts what its node gives: what it
    gives, with what the declaration says that inference does not know (a size or symbol where
    inference has none, an element type) and a declared symbol where inference has a symbol or
    nothing; a declaration of another kind or rank gives way whole."""
    if gives.kind != declared.kind or gives.kind not in ("tensor", "sparse_tensor"):
        return gives
    elem = gives.elem_type or declared.elem_type
    a, b = gives.shape, declared.shape
    if a is None or b is None or len(a) != len(b):
        return ValueType(gives.kind, elem, a if a is not None else b)
    shape = tuple(x if isinstance(x, int) else y if y is not None else x for x, y in zip(a, b, strict=True))
    return ValueType(gives.kind, elem, shape)


def elem_name(code: int) -> str | None:
    """``float`` for 1; ``None`` for 0 or an unknown number."""
    dtype = BY_CODE.get(code)
    return dtype.name if dtype is not None else None


def _split_args(text: str) -> list[str]:
    depth = 0
    parts, start = [], 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def parse_type_str(text: str) -> ValueType:
    """A schema type string (``tensor(float)``, ``seq(tensor(int64))``, ``map(int64, float)``)."""
    text = text.strip()
    head, _, rest = text.partition("(")
    args = rest[:-1] if rest.endswith(")") else rest
    if head in ("tensor", "sparse_tensor"):
        dtype = BY_NAME.get(args)
        return ValueType(head, dtype.code if dtype else 0)  # type: ignore[arg-type]
    if head == "seq":
        return ValueType.sequence(parse_type_str(args))
    if head == "optional":
        return ValueType.optional(parse_type_str(args))
    if head == "map":
        parts = _split_args(args)
        key = BY_NAME.get(parts[0])
        value = parts[1] if len(parts) > 1 else ""
        inner = parse_type_str(value) if "(" in value else parse_type_str(f"tensor({value})")
        return ValueType("map", key.code if key else 0, inner=inner)
    dtype = BY_NAME.get(text)
    if dtype is not None:
        return ValueType.tensor(dtype.code)
    return UNKNOWN


def from_type_proto(tp: TypeProto) -> ValueType:
    """A ``TypeProto`` (ours or onnx's) as a :class:`ValueType`."""
    which = tp.WhichOneof("value")
    if which in ("tensor_type", "sparse_tensor_type"):
        tt = getattr(tp, which)
        shape: Shape = None
        if tt.HasField("shape"):
            dims: list[Dim] = []
            for d in tt.shape.dim:
                if d.HasField("dim_value"):
                    # a negative size is no size (the checker says so, E209): unknown here
                    dims.append(int(d.dim_value) if d.dim_value >= 0 else None)
                elif d.HasField("dim_param") and d.dim_param:
                    dims.append(d.dim_param)
                else:
                    dims.append(None)
            shape = tuple(dims)
        kind: Kind = "tensor" if which == "tensor_type" else "sparse_tensor"
        return ValueType(kind, tt.elem_type, shape)
    if which == "sequence_type":
        inner = tp.sequence_type.elem_type
        return ValueType.sequence(from_type_proto(inner) if inner.WhichOneof("value") else None)
    if which == "optional_type":
        inner = tp.optional_type.elem_type
        return ValueType.optional(from_type_proto(inner) if inner.WhichOneof("value") else None)
    if which == "map_type":
        mt = tp.map_type
        value = from_type_proto(mt.value_type) if mt.value_type.WhichOneof("value") else None
        return ValueType("map", mt.key_type, inner=value)
    if which == "opaque_type":
        return ValueType("opaque")
    return UNKNOWN


def _fill(tp: TypeProto, vt: ValueType) -> None:
    if vt.kind in ("tensor", "sparse_tensor"):
        tt = tp.tensor_type if vt.kind == "tensor" else tp.sparse_tensor_type
        tt.elem_type = vt.elem_type
        if vt.shape is not None:
            shape = tt.shape
            shape.SetInParent()
            for d in vt.shape:
                dim = shape.dim.add()
                if isinstance(d, int):
                    dim.dim_value = d
                elif isinstance(d, str):
                    dim.dim_param = d
    elif vt.kind == "sequence":
        tp.sequence_type.SetInParent()
        if vt.inner is not None and not vt.inner.is_unknown:
            _fill(tp.sequence_type.elem_type, vt.inner)
    elif vt.kind == "optional":
        tp.optional_type.SetInParent()
        if vt.inner is not None and not vt.inner.is_unknown:
            _fill(tp.optional_type.elem_type, vt.inner)
    elif vt.kind == "map":
        tp.map_type.key_type = vt.elem_type
        if vt.inner is not None and not vt.inner.is_unknown:
            _fill(tp.map_type.value_type, vt.inner)
    elif vt.kind == "opaque":
        tp.opaque_type.SetInParent()


def to_type_proto(vt: ValueType) -> TypeProto:
    """The ``TypeProto`` (ours) of a :class:`ValueType`; empty for ``unknown``."""
    tp = TypeProto()
    _fill(tp, vt)
    return tp
