"""Editor queries: plain functions over a :class:`~onnxtext.document.Document` that the
language server and the CLI share (the server only converts positions and protocol types)."""
