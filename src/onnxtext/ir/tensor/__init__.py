"""Literal values ⇄ ``TensorProto`` storage, exactly as ``onnx.parser`` stores them.

- :mod:`.literals`: what both directions share (:class:`~.literals.LiteralError`,
  :class:`~.literals.NotRepresentable`, :class:`~.literals.TensorLiterals`, the storage
  fields, the literal syntax, element counts);
- :mod:`.encode`: text → proto (:func:`~.encode.encode_values`, and
  :func:`~.encode.encode_number_text` for a body of numbers, without a Python loop per element);
- :mod:`.decode`: proto → text (:func:`~.decode.decode_literals`, :func:`~.decode.number_text`);
- :mod:`.float_text`: decimal text ⇄ binary floats, correctly rounded both ways;
- :mod:`.packing`: sub-byte types packed into bytes;
- :mod:`.arrays`: a tensor's values as a numpy array (:func:`~.arrays.to_numpy`).

The rules where they differ from or go beyond ``onnx.parser`` are in :mod:`.encode`.
"""
