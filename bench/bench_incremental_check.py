"""Incremental check and inference (#24): diagnose after a one-statement edit, with the cache and from scratch.

Usage: python bench/bench_incremental_check.py [--relu 30000] [--repeat 5] [--edits 1000]

The document is the issue's (``bench_lsp.relu_document``: N ``X{i+1} = Relu (X{i})``
statements). Each edit is made in the middle of the text; its document is parsed outside
the timing. Reported per edit, best and median of ``--repeat``: ``analysis.diagnose``
with the cache of the unedited version (an ``AnalysisCache``, what the server keeps per
document) against the same from scratch, in the same run, and their ratio; the nodes
reused. Goal: a one-statement edit diagnosed in ≤ 50 ms on 30,000 statements. Then
the cache's size (objects it alone holds) after the first version and after ``--edits``
more (each a copy of the model with one node's operator changed: the cache keeps one
version, whatever the number of edits).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import relu_document  # noqa: E402

from onnxtext.analysis.diagnose import AnalysisCache, diagnose  # noqa: E402
from onnxtext.document import Document, parse_document  # noqa: E402
from onnxtext.proto import ModelProto  # noqa: E402

GOAL = 0.050
"""Check + infer after a one-statement edit of the 30,000-statement document (#24)."""


def edits(text: str) -> dict[str, str]:
    """One-statement edits in the middle of ``text`` (and two near misses: a comment, a half-typed statement)."""
    lines = text.split("\n")
    mid = len(lines) // 2
    name = lines[mid].split("=")[0].strip()
    user = lines[mid + 1]

    def edited(change: Callable[[list[str]], None]) -> str:
        out = list(lines)
        change(out)
        return "\n".join(out)

    return {
        "Relu->Tanh": edited(lambda ls: ls.__setitem__(mid, ls[mid].replace("Relu", "Tanh"))),
        "rename (definition and use)": edited(
            lambda ls: (
                ls.__setitem__(mid, ls[mid].replace(f"{name} =", "renamed =")),
                ls.__setitem__(mid + 1, user.replace(f"({name})", "(renamed)")),
            )
        ),
        "rename (definition only)": edited(lambda ls: ls.__setitem__(mid, ls[mid].replace(f"{name} =", "renamed ="))),
        "insert a statement": edited(lambda ls: ls.insert(mid, "   extra = Relu (X0)")),
        "delete a statement": edited(lambda ls: ls.__delitem__(mid)),
        "half-typed statement": edited(lambda ls: ls.insert(mid, "   extra = Re")),
        "comment line": edited(lambda ls: ls.insert(mid, "# a note")),
    }


def _timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def measure(text: str, repeat: int) -> None:
    base = parse_document(text)
    cache = AnalysisCache()
    diagnose(base, cache=cache)
    print(f"{'edit':30} {'cached best':>12} {'median':>9} {'scratch best':>13} {'ratio':>7}  reused (infer, check)")
    for name, edited in edits(text).items():
        cached: list[float] = []
        scratch: list[float] = []
        reused: dict[str, int] = {}
        for _ in range(repeat):
            docs = (parse_document(edited), parse_document(edited))
            mine = AnalysisCache(infer=cache.infer, check=cache.check)  # the unedited version's
            gc.collect()
            cached.append(_timed(lambda docs=docs, mine=mine: diagnose(docs[0], cache=mine)))  # type: ignore[misc]
            reused = dict(mine.reused)
            scratch.append(_timed(lambda docs=docs: diagnose(docs[1])))  # type: ignore[misc]
        best, fresh = min(cached), min(scratch)
        print(
            f"{name:30} {best * 1000:9.1f} ms {statistics.median(cached) * 1000:6.1f} ms "
            f"{fresh * 1000:10.1f} ms {best / fresh:7.3f}  ({reused.get('infer', 0)}, {reused.get('check', 0)})"
        )


def deep_size(root: object) -> int:
    """Bytes of the objects reachable from ``root`` (modules, classes and functions not followed)."""
    seen: set[int] = set()
    work = [root]
    total = 0
    skip = (type, type(sys), type(deep_size), type(len))
    while work:
        obj = work.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        work.extend(gc.get_referents(obj))
    return total


def memory(text: str, count: int) -> None:
    doc = parse_document(text)
    cache = AnalysisCache()
    diagnose(doc, cache=cache)
    first = deep_size(cache)
    model = doc.model
    assert model is not None
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(count):
        changed = ModelProto()
        changed.CopyFrom(model)
        node = changed.graph.node[rng.randrange(len(changed.graph.node))]
        node.op_type = "Tanh" if node.op_type == "Relu" else "Relu"
        version: Document = replace(doc, proto=changed)
        diagnose(version, cache=cache)
        model = changed
    spent = time.perf_counter() - start
    last = deep_size(cache)
    print(
        f"cache: {first / 1e6:.1f} MB after the first version, {last / 1e6:.1f} MB after {count} more "
        f"({spent / max(count, 1) * 1000:.1f} ms per edit, a copy of the model included)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--relu", type=int, default=30000, help="statements in the document")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--edits", type=int, default=1000, help="edits before the cache is measured again")
    args = parser.parse_args()
    text = relu_document(args.relu)
    print(f"{args.relu} statements; goal: a one-statement edit in {GOAL * 1000:.0f} ms")
    measure(text, args.repeat)
    memory(text, args.edits)


if __name__ == "__main__":
    from onnxtext._gc import pausing_allowed

    with pausing_allowed():  # timed as the command line and the server run onnxtext (onnxtext/_gc.py)
        main()
