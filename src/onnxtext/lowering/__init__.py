"""AST ↔ protobuf: lowering (with the source map) and lifting."""
