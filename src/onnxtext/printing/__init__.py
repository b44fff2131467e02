"""Protobuf → text: lifting a message to an AST (``lift``), the printability check, ``to_text``
and its fast path (``emit``)."""
