"""The language server (``onnxtext lsp``): thin protocol handlers over the analysis core."""
