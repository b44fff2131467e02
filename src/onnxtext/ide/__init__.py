"""The editor's queries over a ``Document``: completion, hover, hints, rename, outline, tokens, highlights, the graph.

Plain functions of a document snapshot and an offset, returning plain data; ``lsp/`` converts
their answers to the protocol. Below: ``document`` and ``analysis/``; nothing here imports ``lsp/``.
"""
