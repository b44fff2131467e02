"""Start-up wall times of short commands (target: each ≤ 0.3 s).

Usage: python bench/bench_startup.py [--repeat 5]

Each command runs in a fresh interpreter (``python -m onnxtext ...``), best of
``--repeat`` wall times; the bare interpreter (``python -c pass``) is shown for scale.
The parser's LALR table comes from the per-user cache (see
``onnxtext.syntax.tables.table_cache_path``): one warm-up run fills it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODEL = """<ir_version: 8, opset_import: ["" : 18]>
mlp (float[N, 4] x) => (float[N, 2] y)
   <float[4, 2] w = {0.5, -1, 2, 0.25, 1, 1, -0.5, 3}, float[2] b = {0.1, -0.1}>
{
   h = MatMul (x, w)
   z = Add (h, b)
   y = Relu (z)
}
"""


def wall(args: list[str], env: dict[str, str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    py = [sys.executable]
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp) / "small.onnxtxt"
        text.write_text(MODEL, encoding="utf-8")
        binary = Path(tmp) / "small.onnx"
        subprocess.run([*py, "-m", "onnxtext", "parse", str(text), "-o", str(binary)], env=env, check=True)
        commands = {
            "python -c pass": [*py, "-c", "pass"],
            "onnxtext --version": [*py, "-m", "onnxtext", "--version"],
            "onnxtext print small.onnx": [*py, "-m", "onnxtext", "print", str(binary)],
            "onnxtext print small.onnxtxt": [*py, "-m", "onnxtext", "print", str(text)],
            "onnxtext parse small.onnxtxt": [*py, "-m", "onnxtext", "parse", str(text), "-o", str(binary)],
        }
        print(f"{'command':<32}{'wall (s)':>10}")
        for label, command in commands.items():
            print(f"{label:<32}{wall(command, env, args.repeat):>10.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
