"""Every diagnostic of one text version, stage by stage, stoppable between stages.

Plain code with plain tests: the host (:mod:`onnxtext.host.documents`) runs it in its worker
thread and drops the result when a newer version of the text arrived meanwhile.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from onnxtext.analysis.check import code_list
from onnxtext.analysis.diagnose import AnalysisCache
from onnxtext.analysis.diagnose import diagnose as diagnose_document
from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.document import Document, parse_document
from onnxtext.evaluate.live import Budget, LiveResult, run_live
from onnxtext.evaluate.rejected import rejected_nodes
from onnxtext.io import read_regular_text
from onnxtext.ir.paths import ROOT
from onnxtext.proto import ModelProto
from onnxtext.span import Span

__all__ = ["Settings", "Cancelled", "Outcome", "diagnose", "evaluate", "RUNTIME", "RUNTIME_SKIPPED", "UNTRUSTED"]

RUNTIME = "R001"
"""A node failed when the model ran on made-up inputs."""
RUNTIME_SKIPPED = "R000"
"""The model was not run (over the budget, an input that cannot be made up)."""
UNTRUSTED = "the folder is not trusted: live values wait until it is (Restricted Mode)"
"""Why a model is not run in an untrusted workspace (the client said so at start)."""


@dataclass
class Settings:
    """What the user chose (``onnxtext.*`` in the editor's settings)."""

    select: list[str] | None = None
    ignore: list[str] | None = None
    debounce_ms: int = 150
    type_hints: bool = True
    """Inlay hints with the inferred type of each value."""
    evaluate_delay_ms: int = 500
    """Quiet time after the fast diagnostics before the model is run."""
    evaluate: bool = True
    """Run the model on made-up inputs and report runtime errors."""
    budget: Budget = field(default_factory=Budget)
    sizes: dict[str, int] = field(default_factory=dict)
    """Sizes of symbolic dimensions for the made-up inputs (``{"N": 4}``)."""
    inputs: dict[str, str] = field(default_factory=dict)
    """Values of some inputs, as ``onnxtext run --input`` takes them (JSON, or a .npy/.pb file)."""

    @classmethod
    def from_json(cls, value: object) -> Settings:
        """Settings from the ``onnxtext`` section of the client's configuration; bad values are ignored."""
        out = cls()
        if not isinstance(value, dict):
            return out
        check = value.get("check")
        if isinstance(check, dict):
            out.select = _codes(check.get("select"))
            out.ignore = _codes(check.get("ignore"))
        debounce = value.get("debounceMs")
        if isinstance(debounce, int) and 0 <= debounce <= 5000:
            out.debounce_ms = debounce
        hints = value.get("inlayHints")
        if isinstance(hints, dict) and isinstance(hints.get("types"), bool):
            out.type_hints = hints["types"]
        live = value.get("evaluate")
        if isinstance(live, dict):
            if isinstance(live.get("enabled"), bool):
                out.evaluate = live["enabled"]
            delay = live.get("delayMs")
            if isinstance(delay, int) and 0 <= delay <= 60_000:
                out.evaluate_delay_ms = delay
            seconds = live.get("seconds")
            memory = live.get("memoryMb")
            out.budget = Budget(
                seconds=float(seconds)
                if isinstance(seconds, (int, float)) and 0 < seconds <= 600
                else out.budget.seconds,
                memory_mb=memory if isinstance(memory, int) and 64 <= memory <= 65536 else out.budget.memory_mb,
                weights_mb=out.budget.weights_mb,
            )
            sizes = live.get("sizes")
            if isinstance(sizes, dict):
                out.sizes = {str(k): v for k, v in sizes.items() if isinstance(v, int) and 0 <= v <= 1_000_000}
            out.inputs = input_specs(live.get("inputs"))
        return out


def input_specs(value: object) -> dict[str, str]:
    """``{name: value}`` from settings or an inputs file: strings are kept (a JSON literal or a
    file name), any other JSON value is written back as JSON."""
    if not isinstance(value, dict):
        return {}
    return {str(k): v if isinstance(v, str) else json.dumps(v) for k, v in value.items()}


INPUTS_SUFFIX = ".inputs.json"
"""``model.onnxtxt.inputs.json`` next to a text gives its live run's inputs (over the settings')."""


def document_inputs(path: str | None, settings: Settings) -> dict[str, str]:
    """The inputs a document runs on: the settings', then its own inputs file's."""
    found = dict(settings.inputs)
    if path is None:
        return found
    try:  # the server's worker reads it: a FIFO there must not block it
        found.update(input_specs(json.loads(read_regular_text(path + INPUTS_SUFFIX))))
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:
        raise InputFileError(f"{os.path.basename(path)}{INPUTS_SUFFIX}: {exc}") from None
    return found


class InputFileError(ValueError):
    """A document's inputs file cannot be read or is not JSON."""


def _codes(value: object) -> list[str] | None:
    """Codes from a setting (a comma-separated string or a list); None (every rule) when there are none."""
    return (code_list(value) or None) if isinstance(value, (str, list)) else None


class Cancelled(Exception):
    """A newer version superseded the one being diagnosed."""


@dataclass(frozen=True)
class Outcome:
    """One version's analysis: the document and its diagnostics (the evaluator's come later, in a
    new outcome: one a snapshot holds never changes)."""

    document: Document
    diagnostics: list[Diagnostic] = field(default_factory=list)
    live: LiveResult | None = None


def diagnose(
    text: str,
    path: str,
    settings: Settings,
    cancel: threading.Event | None = None,
    doc: Document | None = None,
    model_dir: str | None = None,
    cache: AnalysisCache | None = None,
    parsed: Callable[[Document], None] | None = None,
) -> Outcome:
    """Parse, lower, check and infer ``text`` (``doc``: its document, when a request parsed it already;
    ``model_dir``: the folder of its file, where external data is looked up, as ``onnxtext check`` does;
    ``cache``: the document's analysis cache, the previous version's results reused and this one's kept;
    ``parsed`` is given the document before it is checked: what needs no checker answers then);
    raises :class:`Cancelled` between stages once ``cancel`` is set."""
    _stop_if(cancel)  # superseded while it waited for the analysis before it
    if doc is None:
        doc = parse_document(text, "model", path)
    _stop_if(cancel)
    if parsed is not None:
        parsed(doc)
    # the one policy the command line and the API apply (the document's inference, which hover and hints reuse)
    diags = diagnose_document(doc, settings.select, settings.ignore, model_dir=model_dir, cache=cache)
    return Outcome(doc, [editor_severity(d) for d in diags])


def editor_severity(diag: Diagnostic) -> Diagnostic:
    """The checker's information (W201's exporter names) is a hint in the editor: seen in the
    text, kept out of the Problems list a person works through."""
    return replace(diag, severity=Severity.HINT) if diag.severity is Severity.INFO else diag


def _stop_if(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled


def evaluate(
    outcome: Outcome,
    settings: Settings,
    file: str | None,
    cancel: threading.Event | None = None,
    live: bool = False,
    trusted: bool = True,
    runnable: ModelProto | None = None,
) -> tuple[LiveResult | None, list[Diagnostic]]:
    """Run a model without errors on made-up inputs; a failing node becomes a diagnostic on it.

    With ``live`` (the user asked for live values) it runs even when evaluation diagnostics are off.
    Untrusted (the workspace is in Restricted Mode) it never runs and reads no inputs file: live
    values say why, evaluation diagnostics are simply absent. ``runnable`` is the model to run
    instead of the document's (a binary model's view by reference: its large tensors are in the
    file, ``binary.runnable_model``).
    """
    doc = outcome.document
    if not (settings.evaluate or live):
        return None, []
    model = runnable if runnable is not None else doc.proto
    if runnable is None and not doc.ok or not isinstance(model, ModelProto):
        return None, []
    if not trusted:
        return (LiveResult(skipped=UNTRUSTED) if live else None), []
    graph = doc.source_map.span(ROOT / "graph")
    where = Span(graph.start, graph.start) if graph is not None else Span(0, 0)
    try:
        inputs = document_inputs(file, settings)
    except InputFileError as exc:
        return LiveResult(skipped=str(exc)), [
            Diagnostic.at(RUNTIME_SKIPPED, Severity.INFO, f"not run: {exc}", where, doc.source)
        ]
    model_dir = os.path.dirname(file) if file is not None else None
    # a node the checker rejected has its diagnostic: running it would stack a vaguer one on it
    skip = rejected_nodes(doc.proto, outcome.diagnostics, doc.source_map.path_at)
    result = run_live(
        model,
        model_dir=model_dir,
        sizes=settings.sizes,
        budget=settings.budget,
        cancel=cancel,
        inputs=inputs,
        skip=skip,
    )
    if cancel is not None and cancel.is_set():
        return None, []
    if result.skipped is not None:
        return result, [Diagnostic.at(RUNTIME_SKIPPED, Severity.INFO, f"not run: {result.skipped}", where, doc.source)]
    if result.failure is None:
        return result, []
    span = doc.source_map.locate(result.failure.record.path) or where
    sizes = ", ".join(f"{k}={v}" for k, v in sorted(result.sizes.items()))
    made_up = "given and made-up inputs" if inputs else "made-up inputs"
    message = f"{result.failure.message} (running on {made_up}{': ' + sizes if sizes else ''})"
    return result, [Diagnostic.at(RUNTIME, Severity.WARNING, message, span, doc.source)]
