"""Run the whole backend node suite and rewrite known_failures.txt.

    python tests/evaluate/update_known_failures.py [-j 2] [--show]

The best pass count in the header only ever goes up.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import backend_cases  # noqa: E402

if "--bare" in sys.argv:
    # Development aid: load onnxtext.evaluate without running onnxtext/__init__.py
    # (useful while other parts of the package are mid-change).
    import types

    _pkg = types.ModuleType("onnxtext")
    _pkg.__path__ = [str(backend_cases.REPO / "src" / "onnxtext")]
    sys.modules["onnxtext"] = _pkg


def _one(name: str) -> tuple[str, str | None, float]:
    import warnings

    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            backend_cases.run_case(name)
    except AssertionError as exc:
        msg = str(exc).strip().splitlines()
        return name, "mismatch: " + (msg[0] if msg else "assertion"), time.perf_counter() - t0
    except Exception as exc:  # noqa: BLE001 - this is a report, every failure is a line
        first = str(exc).strip().splitlines()
        return name, f"{type(exc).__name__}: {first[0] if first else ''}", time.perf_counter() - t0
    return name, None, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--show", action="store_true", help="print, do not write")
    ap.add_argument("-k", default="", help="only cases containing this")
    ap.add_argument("--bare", action="store_true", help="do not import onnxtext/__init__.py")
    args = ap.parse_args()
    names = [n for n in backend_cases.case_names() if args.k in n]
    if args.j > 1:
        with ProcessPoolExecutor(args.j) as ex:
            results = list(ex.map(_one, names, chunksize=8))
    else:
        results = [_one(n) for n in names]
    fails = {n: r for n, r, _ in results if r is not None}
    passes = len(names) - len(fails)
    slow = sorted(results, key=lambda r: -r[2])[:5]
    print(f"{passes} passed, {len(fails)} failed of {len(names)}", file=sys.stderr)
    print("slowest:", ", ".join(f"{n} {t:.2f}s" for n, _, t in slow), file=sys.stderr)
    if args.show or args.k:
        for n, r in sorted(fails.items()):
            print(n, r)
        return 0
    best, _ = backend_cases.read_known_failures()
    best = max(best, passes)
    lines = [
        f"# best-pass-count: {best}",
        "# Backend node cases our evaluator is expected to fail (xfail strict), one per line:",
        "# <case name> <reason>. Regenerate with tests/evaluate/update_known_failures.py.",
    ]
    for n in sorted(fails):
        reason = fails[n].replace("\n", " ")[:160]
        lines.append(f"{n} {reason}")
    backend_cases.KNOWN_FAILURES.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
