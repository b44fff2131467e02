"""Formatting speed next to parsing and printing, on the texts of bench_parse_print.py.

Usage: python bench/bench_format.py [--nodes 30000] [--floats 1000000] [--repeat 3]

For each text: parse (text → protobuf), print (protobuf → text), fmt (text → text, comments
kept: ``onnxtext fmt``'s ``api.format_text``, which formats a text already in the
printed form from its protobuf) and fmt* (the tree's way, ``syntax.format.format_text``, the
definition of fmt, which a text with comments or blank lines takes), and all of it for the same
text with a trailing comment on every tenth line. Reported: best-of-repeat seconds and
megabytes of text per second.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_parse_print import best, node_heavy, tensor_heavy  # noqa: E402


def commented(text: str) -> str:
    """``text`` with a trailing comment on every tenth line that holds a statement."""
    lines = text.splitlines()
    return (
        "\n".join(
            line + "  # note" if i % 10 == 5 and line.strip().endswith(")") else line for i, line in enumerate(lines)
        )
        + "\n"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag, default in (("--nodes", 30000), ("--floats", 1_000_000), ("--repeat", 3)):
        ap.add_argument(flag, type=int, default=default)
    args = ap.parse_args()

    import onnxtext
    from onnxtext.api import format_text
    from onnxtext.printing.text import to_text
    from onnxtext.syntax.format import format_text as tree_format

    print(f"{'text':<22}{'size':>10}  {'step':<6}{'seconds':>9}{'MB/s':>8}")
    texts = (
        ("node-heavy", node_heavy(args.nodes)),
        ("node-heavy, comments", commented(node_heavy(args.nodes))),
        ("tensor-heavy", tensor_heavy(args.floats)),
    )
    for label, text in texts:
        model = onnxtext.parse_model(text)
        canonical = format_text(text)
        assert format_text(canonical) == canonical == tree_format(text)
        mb = len(text) / 1e6
        steps = [
            ("parse", partial(onnxtext.parse_model, text)),
            ("print", partial(to_text, model)),
            ("fmt", partial(format_text, text)),
            ("fmt*", partial(tree_format, text)),
        ]
        for step, fn in steps:
            seconds = best(fn, args.repeat)
            print(f"{label:<22}{mb:>7.2f} MB  {step:<6}{seconds:>9.3f}{mb / seconds:>8.2f}")
    return 0


if __name__ == "__main__":
    from onnxtext._gc import pausing_allowed

    with pausing_allowed():  # timed as the command line and the server run onnxtext (onnxtext/_gc.py)
        raise SystemExit(main())
