"""``python -m onnxtext``: the same as the ``onnxtext`` command."""

from __future__ import annotations

import sys

from onnxtext.cli import main

if __name__ == "__main__":
    sys.exit(main())
