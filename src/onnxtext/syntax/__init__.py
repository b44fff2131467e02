"""Text ↔ tree: spans, tokens, the parser (with error recovery), the AST, the printer and formatter."""
