"""Parse and print of real exporter models, as ratios to onnx.parser / onnx.printer (C++) in the same run.

Usage: python bench/bench_exporters.py [--repeat 3] [--declined] [NAME...]

The models are those of ``bench/exporter_corpus.py`` (generated on first use into the
cache folder; a model whose exporter is not installed is left out). For each model:
``print`` is ``onnxtext.to_text`` against ``onnx.printer.to_text`` of the same model, and
``parse`` is ``onnxtext.parse_model`` of our text against ``onnx.parser.parse_model`` of
onnx's text (each tool reads its own printer's text: ours also holds what onnx's printer
leaves out, such as the exporters' node notes). Best of ``--repeat`` for each. ``fast`` says
whether both fast paths took the model (``lowering/direct.py`` reads the text and
``printing/emit.py`` writes it); ``-`` marks the path that declined.

``--declined`` adds ``decl``: the parse of the text with one statement the fast path does not
read (its first quoted input written with a ``\\u`` escape), which the reference path reads alone.

Goals (issue 24): parse and print ≤ 2× onnx over the corpus in total, and no model above
4× where onnx takes more than 5 ms; a miss is marked ``!``.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_parse_print import best  # noqa: E402
from exporter_corpus import GENERATORS, available  # noqa: E402

TOTAL_GOAL = 2.0
MODEL_GOAL = 4.0
MODEL_FLOOR = 0.005  # seconds onnx takes below which the per-model goal does not apply


def one_declined(text: str) -> str | None:
    """``text`` with the first quoted input of a statement written with a ``\\u`` escape (the same
    name: a statement the parse fast path does not read); None if no statement has one."""
    import re

    found = re.search(r'\(\s*"([a-z])', text)
    if found is None:
        return None
    at = found.start(1)
    return f"{text[:at]}\\u{ord(found.group(1)):04x}{text[at + 1 :]}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--declined", action="store_true", help="also parse the text with one statement declined")
    ap.add_argument("names", nargs="*", help="models to run (all available by default)")
    args = ap.parse_args()

    import onnx
    import onnx.parser
    import onnx.printer

    from onnxtext import parse_model, to_text
    from onnxtext.lowering.direct import direct_model
    from onnxtext.printing.emit import fast_text
    from onnxtext.proto import ModelProto

    gens = [GENERATORS[n] for n in args.names] if args.names else available()
    head = (
        f"{'model':<32}{'text':>9}  {'fast':<5}{'parse':>8}{'onnx':>8}{'ratio':>7}  {'print':>8}{'onnx':>8}{'ratio':>7}"
        + (f"{'decl':>8}{'ratio':>7}" if args.declined else "")
    )
    print(head)
    print("-" * len(head))
    totals = [0.0, 0.0, 0.0, 0.0]  # ours parse, onnx parse, ours print, onnx print
    misses = []
    for gen in gens:
        data = gen.ensure().read_bytes()
        ours, theirs = ModelProto.FromString(data), onnx.load_from_string(data)
        text, their_text = to_text(ours), onnx.printer.to_text(theirs)
        back = parse_model(text)
        assert back.SerializeToString(deterministic=True) == ours.SerializeToString(deterministic=True), gen.name
        fast = ("P" if direct_model(text) is not None else "-") + ("W" if fast_text(ours) is not None else "-")
        times = (
            best(functools.partial(parse_model, text), args.repeat),
            best(functools.partial(onnx.parser.parse_model, their_text), args.repeat),
            best(functools.partial(to_text, ours), args.repeat),
            best(functools.partial(onnx.printer.to_text, theirs), args.repeat),
        )
        marks = []
        for ours_t, onnx_t in (times[:2], times[2:]):
            miss = onnx_t > MODEL_FLOOR and ours_t > MODEL_GOAL * onnx_t
            marks.append("!" if miss else " ")
            if miss:
                misses.append(gen.name)
        for k, t in enumerate(times):
            totals[k] += t
        size = f"{len(text) / 1e6:.2f} MB" if len(text) >= 10_000 else f"{len(text) / 1e3:.1f} kB"
        declined = ""
        odd = one_declined(text) if args.declined else None
        if odd is not None:
            assert parse_model(odd).SerializeToString() == back.SerializeToString(), gen.name
            seconds = best(functools.partial(parse_model, odd), args.repeat)
            declined = f"{seconds * 1e3:>8.1f}{seconds / times[1]:>7.1f}"
        print(
            f"{gen.name:<32}{size:>9}  {fast:<5}"
            f"{times[0] * 1e3:>8.1f}{times[1] * 1e3:>8.1f}{times[0] / times[1]:>6.1f}{marks[0]}  "
            f"{times[2] * 1e3:>8.1f}{times[3] * 1e3:>8.1f}{times[2] / times[3]:>6.1f}{marks[1]}{declined}"
        )
    parse_ratio, print_ratio = totals[0] / totals[1], totals[2] / totals[3]
    print("-" * len(head))
    print(
        f"{'total (ms)':<32}{'':>9}  {'':<5}{totals[0] * 1e3:>8.1f}{totals[1] * 1e3:>8.1f}{parse_ratio:>6.1f}"
        f"{'!' if parse_ratio > TOTAL_GOAL else ' '}  {totals[2] * 1e3:>8.1f}{totals[3] * 1e3:>8.1f}{print_ratio:>6.1f}"
        f"{'!' if print_ratio > TOTAL_GOAL else ' '}"
    )
    print(
        f"{len(gens)} models; goals: total ≤ {TOTAL_GOAL:g}×, "
        f"each ≤ {MODEL_GOAL:g}× where onnx takes > {MODEL_FLOOR * 1e3:g} ms"
    )
    if misses:
        print("above the per-model goal:", ", ".join(sorted(set(misses))))
    return 0


if __name__ == "__main__":
    from onnxtext._gc import pausing_allowed

    with pausing_allowed():  # timed as the command line and the server run onnxtext (onnxtext/_gc.py)
        raise SystemExit(main())
