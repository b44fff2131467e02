"""Write ``external_weights.bin``, the raw tensor data of ``external_weights.onnxtxt``.

The file is two float32 vectors of 4 values each, little-endian, back to back:
``W`` at offset 0 (16 bytes) and ``B`` at offset 16 (16 bytes). The output is
deterministic, so rerunning this script reproduces the committed file byte for byte.

    python examples/make_external_weights.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

W = np.array([0.5, -1.0, 2.0, 0.25], dtype="<f4")
B = np.array([0.1, 0.2, -0.3, 1.5], dtype="<f4")


def main() -> None:
    out = Path(__file__).resolve().with_name("external_weights.bin")
    out.write_bytes(W.tobytes() + B.tobytes())
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
