#!/usr/bin/env python3
"""Print how long ``onnxtext.ir.schemas`` takes to import and to load its table.

Usage::

    python bench/bench_schemas.py [--runs N]

Each run is a fresh interpreter (so nothing is cached in memory) and measures:

* ``stdlib``: the standard-library modules the package needs (dataclasses,
  json, typing, ...), which any other onnxtext module importing dataclasses pays too;
* ``onnxtext``: ``import onnxtext``, the parent package (parser, lark, protobuf, ...),
  which Python imports before any subpackage; not this package's cost;
* ``import``: ``import onnxtext.ir.schemas`` on top of that (the table is not loaded yet);
* ``first lookup``: the first ``get_schema`` (imports ``_table.py``, decodes the JSON,
  builds the frozen dataclasses and the index);
* ``lookup``: a warm ``get_schema`` call, averaged.

Whether ``.pyc`` files are used follows the environment (``PYTHONDONTWRITEBYTECODE``);
``--no-pyc`` forces compiling from source every time. Medians are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
SRC = REPO_ROOT / "src"
TABLE = SRC / "onnxtext" / "ir" / "schemas" / "_table.py"

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import bisect, dataclasses, functools, json as _json, typing
t1 = time.perf_counter()
import onnxtext
t1b = time.perf_counter()
import onnxtext.ir.schemas as S
t2 = time.perf_counter()
S.get_schema("Conv", "", 13)
t3 = time.perf_counter()
n = 100_000
for _ in range(n):
    S.get_schema("Conv", "", 13)
t4 = time.perf_counter()
assert "onnx" not in sys.modules
print(json.dumps({
    "stdlib": (t1 - t0) * 1e3,
    "onnxtext": (t1b - t1) * 1e3,
    "import": (t2 - t1b) * 1e3,
    "first lookup": (t3 - t2) * 1e3,
    "lookup": (t4 - t3) / n * 1e6,
    "schemas": len(S.all_schemas()),
}))
"""


def run_once(no_pyc: bool, pycache: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    if no_pyc:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache  # keep the repository free of __pycache__
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(proc.stdout)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-pyc", action="store_true", help="compile from source every run")
    args = parser.parse_args(argv)
    no_pyc = args.no_pyc or bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
    with tempfile.TemporaryDirectory(prefix="onnxtext-bench-pyc-") as pycache:
        if not no_pyc:
            run_once(no_pyc, pycache)  # warm-up run writes the .pyc files
        runs = [run_once(no_pyc, pycache) for _ in range(args.runs)]
    size = TABLE.stat().st_size
    print(
        f"table: {TABLE.relative_to(REPO_ROOT)}, {size:,} bytes ({size / 1024:.0f} KiB), "
        f"{int(runs[0]['schemas'])} schemas"
    )
    print(
        f"bytecode cache: {'off (compiled from source)' if no_pyc else 'on'}; median of {args.runs} fresh interpreters"
    )
    med = {key: statistics.median(r[key] for r in runs) for key in runs[0] if key != "schemas"}
    print(f"  stdlib deps              {med['stdlib']:6.1f} ms")
    print(f"  import onnxtext (parent) {med['onnxtext']:6.1f} ms")
    print(f"  import onnxtext.ir.schemas  {med['import']:6.1f} ms")
    print(f"  first lookup (load)      {med['first lookup']:6.1f} ms")
    print(f"  schemas import + load    {med['import'] + med['first lookup']:6.1f} ms")
    print(f"  warm get_schema          {med['lookup']:6.2f} \u00b5s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
