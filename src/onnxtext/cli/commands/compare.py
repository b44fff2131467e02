"""``onnxtext compare``: run two models on the same inputs and find where their values part."""

from __future__ import annotations

import argparse
from typing import Any

from onnxtext.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    _display,
    _Reporter,
)
from onnxtext.io import STDIO
from onnxtext.proto import ModelProto


def cmd_compare(args: argparse.Namespace, report: _Reporter) -> int:
    """Run A and B on the same inputs (given, else made up from A's declared types) and compare
    every value the structural match pairs; 0 when the outputs agree within the tolerance,
    1 when they differ, 2 trouble."""
    from onnxtext.cli.commands.run import _load_runnable, _report_run_error
    from onnxtext.compare.match import match_graphs
    from onnxtext.compare.numeric import CompareError, RunFailed, compare_models, same_inputs
    from onnxtext.evaluate.inputs import InputError, build_feeds
    from onnxtext.evaluate.synth import SynthesisError

    models, docs = [], []
    for path in (args.a, args.b):
        model, doc = _load_runnable(path, "compared", report)  # as run reads it: a text's run errors located in it
        if model is None:
            return EXIT_USAGE
        models.append(model)
        docs.append(doc)
    a, b = models
    m = match_graphs(a.graph, b.graph)
    try:
        declared = [(i.name, i.type if i.HasField("type") else None) for i in a.graph.input if i.name in m.a.inputs]
        given = build_feeds(args.inputs, declared, partial=True)
        feeds_a, feeds_b, unmatched, chosen_sizes = same_inputs(
            a, b, m, given, sizes=dict(args.sizes), seed=args.seed, max_bytes=args.max_memory
        )
        if unmatched:  # B's own inputs: made up the same way, and said
            report.note(f"note: B's input(s) {', '.join(map(repr, unmatched))} have no counterpart in A; made up")
    except (InputError, SynthesisError) as exc:
        report.error(_display(args.a), str(exc))
        return EXIT_USAGE
    made_up = [name for name in feeds_a if name not in given]
    chosen = "".join(f", {k}={v}" for k, v in sorted(chosen_sizes.items()))
    try:
        result = compare_models(
            a,
            b,
            feeds_a,
            rtol=args.rtol,
            atol=args.atol,
            seed=args.seed,
            runtime=args.runtime,
            max_memory=args.max_memory,
            feeds_b=feeds_b,
            match=m,
        )
    except CompareError as exc:
        report.error(PROG, str(exc))
        return EXIT_USAGE
    except RunFailed as exc:
        k = 0 if exc.side == "A" else 1
        _report_run_error(exc.error, models[k], docs[k], (args.a, args.b)[k], report)
        return EXIT_USAGE
    inputs = f"made-up inputs {', '.join(made_up)} (seed {args.seed}{chosen})" if made_up else "the inputs given"
    print(
        f"compared {result.compared} matched values ({args.runtime}, {inputs}, rtol {args.rtol:g}, "
        f"atol {args.atol:g}): {len(result.divergent)} differ"
    )
    if result.divergent:
        _table(result.divergent[: args.rows])
        if len(result.divergent) > args.rows:
            print(f"... and {len(result.divergent) - args.rows} more (--rows N shows more)")
    if args.output is not None and not _picture(args, a, b, docs[1], result, m, report):
        return EXIT_USAGE
    if result.outputs:
        print(
            "outputs differ: " + ", ".join(_pair(d.a, d.b) + (f" ({d.note})" if d.note else "") for d in result.outputs)
        )
        return 1
    print("outputs agree within the tolerance")
    return EXIT_OK


def _pair(x: str, y: str) -> str:
    return repr(x) if x == y or not y else f"{x!r} → {y!r}"


def _table(rows: list[Any]) -> None:
    """``value (A → B)  op  max abs  max rel``, one row per divergent value."""
    names = [_pair(d.a, d.b) for d in rows]
    width = max(len("value (A → B)"), *(len(n) for n in names))
    opw = max(2, *(len(d.op) for d in rows))
    print(f"  {'value (A → B)':<{width}}  {'op':<{opw}}  {'max abs':>10}  {'max rel':>10}")
    for name, d in zip(names, rows, strict=True):
        extra = f"  {d.note}" if d.note else ""
        print(f"  {name:<{width}}  {d.op:<{opw}}  {d.max_abs:>10.4g}  {d.max_rel:>10.4g}{extra}")


def _picture(
    args: argparse.Namespace, a: ModelProto, b: ModelProto, doc: Any, result: Any, m: Any, report: _Reporter
) -> bool:
    """Write ``-o``: the diff picture with each edge whose value differs in red, saying by how much."""
    import os

    from onnxtext.cli.commands.graph import _graph_text
    from onnxtext.cli.common import _to_text, _write
    from onnxtext.compare.picture import compare_graph
    from onnxtext.compare.structural import diff_structural
    from onnxtext.ide.graph_export import FORMATS, export

    if doc is not None:
        source: Any = doc
    else:
        source = _to_text(b, args.b, report) if args.b == STDIO else _graph_text(args.b, report)[0]
        if source is None:
            return False
    graph = compare_graph(source, diff_structural(a, b, match=m), result)
    if graph is None:
        report.error(_display(args.b), "the model's text does not give the graph compared (a damaged text?)")
        return False
    title = f"{os.path.basename(args.a)} → {os.path.basename(args.b)}"
    return _write(args.output, export(graph, FORMATS[os.path.splitext(args.output)[1].lower()], title), report)
