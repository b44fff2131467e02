"""Incremental reparse against a whole parse of the same text (issue #24).

On the bench's big document (``bench_lsp.relu_document``: ``X{i+1} = Relu (X{i})`` lines),
three one-statement edits in the middle: the operator replaced (Tanh/Relu, the LSP bench's
edit), a line inserted, a line deleted. Each is timed as ``reparse`` of the previous document
(its symbol tables built, as the server's are; kept up to date by the reparse) and as
``parse_document`` of the new text plus its symbol tables, in the same run.

    python bench/bench_incremental.py [--statements 30000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import relu_document  # noqa: E402

from onnxtext.document import Document, parse_document  # noqa: E402
from onnxtext.incremental import reparse  # noqa: E402


def _edits(text: str, statements: int) -> dict[str, tuple[int, int, str]]:
    middle = 3 + statements // 2
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[:middle])
    at = start + lines[middle].index("Relu")
    return {
        "Tanh/Relu": (at, at + 4, "Tanh"),
        "insert a line": (start, start, "   Y = Relu (X7)\n"),
        "delete a line": (start, start + len(lines[middle]), ""),
    }


def _scratch(text: str) -> Document:
    doc = parse_document(text)
    _ = doc.symbols
    return doc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statements", type=int, default=30000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    text = relu_document(args.statements)
    doc = _scratch(text)
    print(f"document: {args.statements} statements, {len(text) / 1e6:.2f} MB")
    print(f"{'edit':<15} {'reparse best':>13} {'median':>8} {'scratch best':>13} {'median':>8} {'ratio':>7}")
    for name, (start, end, new) in _edits(text, args.statements).items():
        edited = text[:start] + new + text[end:]
        fast: list[float] = []
        whole: list[float] = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            found = reparse(doc, edited, start, end, start + len(new))
            fast.append(time.perf_counter() - t0)
            if found is None or "symbols" not in found.__dict__:
                print(f"{name}: the fast path declined", file=sys.stderr)
                return 1
            # back to the first text, incrementally too (the next round edits it again)
            back = reparse(found, text, start, start + len(new), end)
            doc = back if back is not None else _scratch(text)
            t0 = time.perf_counter()
            _scratch(edited)
            whole.append(time.perf_counter() - t0)
        best, scratch = min(fast), min(whole)
        print(
            f"{name:<15} {best * 1000:11.1f}ms {statistics.median(fast) * 1000:6.1f}ms "
            f"{scratch * 1000:11.1f}ms {statistics.median(whole) * 1000:6.1f}ms {scratch / best:6.0f}x"
        )
    return 0


if __name__ == "__main__":
    from onnxtext._gc import pausing_allowed

    with pausing_allowed():  # timed as the command line and the server run onnxtext (onnxtext/_gc.py)
        raise SystemExit(main())
