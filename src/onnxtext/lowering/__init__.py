"""AST → protobuf: lowering (with the source map) and the fast path for canonical texts."""
