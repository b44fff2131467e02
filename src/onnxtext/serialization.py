"""onnxtext as a format of ``onnx.serialization.registry``: ``onnx.save``/``onnx.load`` in text.

    >>> import onnx, onnxtext
    >>> onnxtext.register_onnx_serializer()
    >>> onnx.save(model, "m.onnxtxt", format="onnxtext")
    >>> onnx.load("m.onnxtxt", format="onnxtext")       # the same model, byte for byte

onnx's own ``onnxtxt`` format is its printer, which loses what its syntax cannot say
(doc strings, metadata, field presence...); this one is onnxtext's lossless text. onnx
has no plugin discovery for serializers, so registering is an explicit call. By default
the format is chosen by name only: the ``.onnxtxt`` extension keeps meaning onnx's own
format unless ``claim_extensions=True``.
"""

from __future__ import annotations

from typing import Any

from onnxtext.diagnostics import ParseError
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto
from onnxtext.proto.convert import as_own

__all__ = ["FORMAT", "EXTENSIONS", "OnnxTextSerializer", "register_onnx_serializer"]

FORMAT = "onnxtext"
EXTENSIONS = frozenset({".onnxtxt", ".onnxtext"})

_KINDS: dict[str, tuple[type[Any], str]] = {
    "ModelProto": (ModelProto, "model"),
    "GraphProto": (GraphProto, "graph"),
    "FunctionProto": (FunctionProto, "function"),
    "NodeProto": (NodeProto, "node"),
}


def _kind(proto: Any) -> tuple[type[Any], str]:
    name = type(proto).__name__
    if name not in _KINDS:
        raise TypeError(f"the onnxtext format holds models, graphs, functions and nodes, not a {name}")
    return _KINDS[name]


class OnnxTextSerializer:
    """A ``ProtoSerializer`` of onnx's registry: onnxtext text (UTF-8 bytes) ⇄ protobuf."""

    supported_format = FORMAT

    def __init__(self, file_extensions: frozenset[str] = frozenset()) -> None:
        self.file_extensions = file_extensions

    def serialize_proto(self, proto: Any) -> bytes:
        """The text of ``proto`` (an onnx or onnxtext message), as UTF-8 bytes."""
        from onnxtext.printing.text import to_text

        cls, _ = _kind(proto)
        return to_text(as_own(proto, cls)).encode("utf-8")

    def deserialize_proto(self, serialized: bytes | str, proto: Any) -> Any:
        """Parse ``serialized`` into ``proto`` (filled in place and returned); raises
        :class:`~onnxtext.ParseError` listing every problem (``ValueError`` for bytes not UTF-8)."""
        from onnxtext.document import parse_document

        _, kind = _kind(proto)
        if isinstance(serialized, bytes):
            try:
                serialized = serialized.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise ValueError(f"not UTF-8 text (byte 0x{serialized[exc.start]:02x} at offset {exc.start})") from None
        doc = parse_document(serialized, kind)
        if not doc.ok:
            raise ParseError(doc.diagnostics)
        proto.ParseFromString(doc.proto.SerializeToString())
        return proto


def register_onnx_serializer(*, claim_extensions: bool = False) -> OnnxTextSerializer:
    """Register the ``onnxtext`` format with ``onnx.serialization.registry`` (needs ``onnx``).

    ``claim_extensions`` also makes ``.onnxtxt``/``.onnxtext`` files load and save in this
    format when no ``format`` is given (instead of onnx's lossy ``onnxtxt`` printer)."""
    import onnx.serialization

    serializer = OnnxTextSerializer(EXTENSIONS if claim_extensions else frozenset())
    onnx.serialization.registry.register(serializer)  # type: ignore[arg-type]  # a Protocol with a Collection attribute
    return serializer
