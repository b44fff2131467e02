"""One module per ``onnxtext`` command, each imported only when its command runs
(:mod:`onnxtext.cli.app` holds the argument table)."""
