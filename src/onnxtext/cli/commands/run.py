"""``onnxtext run``: evaluate a model with the numpy evaluator; print or save its outputs."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from typing import Any

from onnxtext.cli.common import (
    EXIT_INPUT,
    _display,
    _load_model,
    _names_are_text,
    _progress,
    _read_text,
    _Reporter,
    _write,
)
from onnxtext.io import STDIO, is_binary_path
from onnxtext.proto import ModelProto


def cmd_run(args: argparse.Namespace, report: _Reporter) -> int:
    """Evaluate a model with the numpy evaluator and print (or save) its outputs."""
    from onnxtext.evaluate import EvaluationError, Evaluator
    from onnxtext.evaluate.inputs import InputError, build_feeds
    from onnxtext.evaluate.summary import summarize
    from onnxtext.evaluate.synth import SynthesisError

    model, doc = _load_runnable(args.model, "run", report)
    if model is None:
        return EXIT_INPUT
    try:
        evaluator = Evaluator(model, seed=args.seed, max_memory=args.max_memory)
        declared = [
            (i.name, i.type if i.HasField("type") else None)
            for i in model.graph.input
            if i.name in evaluator.input_names
        ]
        feeds = build_feeds(args.inputs, declared, partial=args.random_inputs)
        if args.random_inputs:
            feeds = _made_up(model, feeds, evaluator.input_names, args.seed, dict(args.sizes), args.max_memory)
        on_trace = None
        if args.trace:
            print("trace:")
            on_trace = _trace_line
        outputs = evaluator.run(None, feeds, trace_all=on_trace)
    except (InputError, SynthesisError) as exc:
        report.error(_display(args.model), str(exc))
        return EXIT_INPUT
    except EvaluationError as exc:
        _report_run_error(exc, model, doc, args.model, report)
        return EXIT_INPUT
    if args.trace or args.random_inputs:
        print("outputs:")
    for name, value in zip(evaluator.output_names, outputs, strict=True):
        print(summarize(name, value, values=True))
    _check_outputs(model, outputs, doc, args.model, report, evaluator.declared_mismatches)
    if args.output_dir is not None:
        _save_outputs(args.output_dir, evaluator.output_names, outputs, report)
    return report.status


def _made_up(
    model: ModelProto, given: dict[str, Any], names: Sequence[str], seed: int, sizes: dict[str, int], max_bytes: int
) -> dict[str, Any]:
    """The inputs not ``given`` made up from their declared types as the editor's live values
    make them (``evaluate/synth.py``: each symbolic dimension one size, 2 unless in ``sizes``, floats
    in [-1, 1]; none beyond ``max_bytes``), and printed with the sizes chosen."""
    from onnxtext.evaluate.summary import summarize
    from onnxtext.evaluate.synth import synthesize

    made = synthesize(model.graph, sizes=sizes, given=given, seed=seed, max_bytes=max_bytes)
    chosen = "".join(f", {k}={v}" for k, v in sorted(made.sizes.items()))
    print(f"made-up inputs (seed {seed}{chosen}):")
    for name in names:
        if name not in given:
            print(f"  {summarize(name, made.feeds[name], values=True)}")
    return {name: made.feeds[name] for name in names if name in made.feeds}


def _load_runnable(path: str, what: str, report: _Reporter) -> tuple[ModelProto | None, Any]:
    """A model to run and its document: a binary model loaded (its names text, else it cannot be
    ``what``), a text parsed as a document so that its run errors are located in it (else None);
    its external data loaded. None for the model when the reading said why not."""
    from onnxtext.document import parse_document

    doc = None
    if path == STDIO or is_binary_path(path):
        model = _load_model(path, True, report)
        if model is not None and not _names_are_text(model, path, what, report):
            return None, None
    else:
        text = _read_text(path, report)
        if text is None:
            return None, None
        doc = parse_document(text, "model", _display(path))
        report.diagnostics(doc.diagnostics)
        model = doc.proto if doc.ok and isinstance(doc.proto, ModelProto) else None
    if model is None:
        return None, doc
    return _load_weights(model, path, report), doc  # external data, checked like print's


def _load_weights(model: ModelProto, path: str, report: _Reporter) -> ModelProto | None:
    """The model with its external data read in from the input's folder (``run`` needs
    the values); every problem is reported and the result is then None."""
    from onnxtext.weights.external import ExternalDataError, is_external, iter_tensors, load_external

    if not any(is_external(r.tensor) for r in iter_tensors(model)):
        return model
    if path == STDIO:
        report.error(
            "<stdin>", "the model refers to external data, which cannot be found from stdin; give its file name"
        )
        return None
    with _progress("reading weights", model) as progress:
        try:
            return load_external(model, os.path.dirname(os.path.abspath(path)), source=path, progress=progress)
        except ExternalDataError as exc:
            report.diagnostics(exc.diagnostics)
            return None


def _check_outputs(
    model: ModelProto, outputs: Sequence[Any], doc: Any, path: str, report: _Reporter, inside: Mapping[Any, str]
) -> None:
    """An error (R003) for each output whose value contradicts its declared type: runtimes
    refuse such a model, so the text must not pass for right because the evaluator ran it.
    A warning (R003) for each declaration inside a subgraph that a run of the body contradicted
    (``inside``: the evaluator's ``declared_mismatches``): runtimes warn about those."""
    from onnxtext.diagnostics import Diagnostic, Severity
    from onnxtext.evaluate.declared import OUTPUT_MISMATCH, output_mismatches
    from onnxtext.ir.paths import ProtoPath

    outputs_path = ProtoPath.parse("graph")
    found = [
        (outputs_path.child("output", index), Severity.ERROR, message)
        for index, message in output_mismatches(model, outputs)
    ]
    found += [(ProtoPath.parse(str(where)), Severity.WARNING, message) for where, message in inside.items()]
    diags = []
    for where, severity, message in found:
        span = doc.source_map.locate(where) if doc is not None else None
        if span is not None:
            diags.append(Diagnostic.at(OUTPUT_MISMATCH, severity, message, span, doc.source))
        else:
            diags.append(Diagnostic(OUTPUT_MISMATCH, severity, message, path=str(where)))
    report.diagnostics(diags, file=_display(path))


def _trace_line(graph: Any, name: str, index: int, value: Any) -> None:
    """One ``--trace`` line: ``[3] y: float32[2] ...`` in the main graph, the graph's path before it elsewhere."""
    from onnxtext.evaluate.summary import summarize

    where = f"{index}" if str(graph) == "graph" else str(graph.child("node", index))
    print(f"  [{where}] {summarize(name, value, values=False)}")


def _report_run_error(exc: Any, model: ModelProto, doc: Any, path: str, report: _Reporter) -> None:
    """An evaluation error as its R002 diagnostic: at the node in a text, at a readable path in a binary model."""
    if doc is not None:
        diag = exc.diagnostic(model=model, source_map=doc.source_map, source=doc.source)
    else:
        diag = exc.diagnostic(model=model)
    report.diagnostics([diag], file=_display(path))
    from onnxtext.evaluate.errors import OVER_BUDGET

    if exc.record.kind == OVER_BUDGET:
        report.note("  help: give more with --max-memory SIZE (e.g. --max-memory 16G)")


def _save_outputs(directory: str, names: Sequence[str], outputs: Sequence[Any], report: _Reporter) -> None:
    import io
    import re

    import numpy as np

    from onnxtext.evaluate.interop import to_internal

    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        report.error(directory, f"cannot create directory: {exc.strerror or exc}")
        return
    used: set[str] = set()
    for name, value in zip(names, outputs, strict=True):
        if not isinstance(value, np.ndarray):
            report.note(f"note: output {name!r} is not a tensor ({type(value).__name__}); not written")
            continue
        stem = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".") or "output"
        base, k = stem, 1
        while stem.lower() in used:
            stem, k = f"{base}_{k}", k + 1
        used.add(stem.lower())
        arr = value.astype(str) if value.dtype == object else to_internal(value)
        if arr.dtype != value.dtype and value.dtype != object:  # .npy has no bfloat16, float8, int4...
            report.note(
                f"note: output {name!r} ({value.dtype.name}) is written as {arr.dtype.name}, which holds "
                "its values exactly"
            )
        buf = io.BytesIO()
        np.save(buf, arr, allow_pickle=False)
        target = os.path.join(directory, stem + ".npy")
        if _write(target, buf.getvalue(), report):
            print(f"wrote {target}")
