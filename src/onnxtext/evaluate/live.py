"""Live values: run a model on made-up inputs in a separate process, within a budget.

The editor asks for every intermediate value's type, shape and statistics while the
user types; a model may be slow, huge or loop forever, so the evaluation runs in a
child process with a memory limit (``RLIMIT_AS`` where the platform has it) and is
stopped when its time is up. The result says either what every value was, where the
model failed (a :class:`Failure` the caller locates in the text), or why nothing ran.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
import traceback
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from onnxtext.evaluate.summary import Stats
from onnxtext.ir.paths import ProtoPath
from onnxtext.proto import ModelProto
from onnxtext.weights.statistics import Statistics

__all__ = ["Budget", "Failure", "LiveValue", "LiveResult", "run_live", "run_budgeted", "given_inputs", "value_stats"]

T = TypeVar("T")

_POLL = 0.05  # seconds between looks at the cancel flag


@dataclass(frozen=True)
class Budget:
    """How much a live run may take: wall-clock seconds, memory, and weights it may load."""

    seconds: float = 5.0
    memory_mb: int = 2048
    weights_mb: int = 512


@dataclass(frozen=True)
class LiveValue:
    """One value computed by node ``node`` of the graph at ``graph`` (its proto path:
    ``graph``, ``graph/node[3]/attribute[0]/g``, ``functions[1]``); ``runs`` counts the times
    it was computed (a loop body, a function called twice), ``stats`` is of the last one (its
    one-line summary) and so is ``statistics`` (std and histogram too; None for no tensor of
    numbers), both computed in the child from one reading of the value (:func:`value_stats`)."""

    name: str
    node: int
    stats: Stats
    graph: str = "graph"
    runs: int = 1
    statistics: Statistics | None = None


@dataclass(frozen=True)
class Failure:
    """Where the run failed: the evaluator's message and its record's fields, picklable."""

    message: str
    node_index: int | None
    path: ProtoPath
    """Of what failed (see :class:`~onnxtext.evaluate.errors.NodeErrorRecord`)."""
    function: str | None
    record: Any = None


@dataclass
class LiveResult:
    values: list[LiveValue] = field(default_factory=list)
    """Node outputs of every graph (main, subgraphs, function bodies), in the order first computed."""
    inputs: list[LiveValue] = field(default_factory=list)
    """The graph inputs it ran on (made up, or given)."""
    outputs: list[LiveValue] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)
    failure: Failure | None = None
    skipped: str | None = None
    """Why nothing (or not everything) ran: over the budget, an input that cannot be made up."""


def run_live(
    model: ModelProto | bytes,
    *,
    model_dir: str | None = None,
    sizes: Mapping[str, int] | None = None,
    budget: Budget = Budget(),
    seed: int = 0,
    cancel: threading.Event | None = None,
    inputs: Mapping[str, str] | None = None,
    skip: Collection[int] = (),
) -> LiveResult:
    """Evaluate a model (a message, or its serialized bytes) on synthesized inputs in a child process.

    Setting ``cancel`` (from another thread) stops the child early; the result then says so.
    ``inputs`` gives some inputs' values as ``onnxtext run --input`` takes them: a JSON
    literal, or a ``.npy``/``.pb`` file (relative to ``model_dir``); the rest are made up.
    ``skip``: main-graph nodes left out with what depends on them (the checker rejected them).
    """
    if isinstance(model, bytes):
        data, weights = model, _weight_bytes(ModelProto.FromString(model))
    else:
        data, weights = model.SerializeToString(), _weight_bytes(model)
    if weights > budget.weights_mb * 2**20:
        return LiveResult(
            skipped=f"the model's weights ({weights / 2**20:.0f} MB) exceed the live-values budget of "
            f"{budget.weights_mb} MB"
        )
    result, skipped = run_budgeted(
        _evaluate,
        (data, model_dir, dict(sizes or {}), seed, dict(inputs or {}), frozenset(skip)),
        budget=budget,
        cancel=cancel,
        cancelled="cancelled: the text changed",
    )
    return result if result is not None else LiveResult(skipped=skipped)


def run_budgeted(
    target: Callable[..., T],
    args: tuple[Any, ...],
    *,
    budget: Budget,
    cancel: threading.Event | None = None,
    cancelled: str = "cancelled",
) -> tuple[T | None, str | None]:
    """``target(*args)`` in a child process (spawned: never fork a threaded server) whose memory is
    limited to the budget's and which is stopped when its seconds are up or ``cancel`` is set:
    (its result, None), or (None, why it has none). ``target`` and its arguments are pickled."""
    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(send, target, budget.memory_mb, args), daemon=True)
    child.start()
    send.close()
    deadline = time.monotonic() + budget.seconds
    try:
        while not receive.poll(min(_POLL, max(0.0, deadline - time.monotonic()))):
            if cancel is not None and cancel.is_set():
                return None, cancelled
            if time.monotonic() >= deadline:
                return None, f"the evaluation took longer than {budget.seconds:g} s and was stopped"
        try:
            ok, found = receive.recv()
        except EOFError:  # the child died without a word: killed (out of memory), or it crashed
            child.join(1.0)
            if child.exitcode is not None and child.exitcode > 0:  # an exception past _child's: its stderr has it
                return None, f"the evaluation failed (exit status {child.exitcode}); the log has the error"
            return None, f"the evaluation stopped: it needs more than {budget.memory_mb} MB"
        return (found, None) if ok else (None, found)
    finally:
        receive.close()
        if child.is_alive():
            child.terminate()
        child.join(1.0)
        if child.is_alive():
            child.kill()
            child.join()


def _weight_bytes(model: ModelProto) -> int:
    """The bytes of every tensor the run would hold, external data included."""
    from onnxtext.weights.external import iter_tensors, tensor_nbytes

    return sum(tensor_nbytes(r.tensor) for r in iter_tensors(model))


def _child(send: Any, target: Callable[..., Any], memory_mb: int, args: tuple[Any, ...]) -> None:
    _limit_memory(memory_mb)
    try:
        answer: tuple[bool, Any] = (True, target(*args))
    except MemoryError:
        answer = (False, f"the evaluation needs more than {memory_mb} MB")
    except Exception as exc:  # a bug, not the model's fault: said as such (its traceback to stderr, the log)
        traceback.print_exc()
        answer = (False, f"the evaluation failed: {type(exc).__name__}: {exc} (a bug in onnxtext; the log has where)")
    send.send(answer)
    send.close()


def _limit_memory(memory_mb: int) -> None:
    try:
        import resource
    except ImportError:  # not on this platform: the time limit still holds
        return
    limit = memory_mb * 2**20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _evaluate(
    model_bytes: bytes,
    model_dir: str | None,
    sizes: dict[str, int],
    seed: int,
    inputs: dict[str, str],
    skip: frozenset[int],
) -> LiveResult:
    from onnxtext.evaluate import EvaluationError, Evaluator
    from onnxtext.evaluate.inputs import InputError
    from onnxtext.evaluate.synth import SynthesisError, synthesize
    from onnxtext.weights.external import ExternalDataError, is_external, iter_tensors, load_external

    model = ModelProto.FromString(model_bytes)
    if any(is_external(r.tensor) for r in iter_tensors(model)):
        if model_dir is None:
            return LiveResult(skipped="the model has external data and no folder to read it from")
        try:
            model = load_external(model, model_dir)
        except ExternalDataError as exc:
            return LiveResult(skipped=f"the external data cannot be read: {exc}")
    result = LiveResult()
    try:
        given = given_inputs(model, inputs, model_dir)
        made = synthesize(model.graph, sizes=sizes, given=given, seed=seed)
    except (SynthesisError, InputError) as exc:
        result.skipped = str(exc)
        return result
    result.sizes = made.sizes
    result.inputs = [_boundary(name, value) for name, value in made.feeds.items()]
    seen: dict[tuple[str, str], LiveValue] = {}

    def record(graph: ProtoPath, name: str, index: int, value: Any) -> None:
        key = (str(graph), name)
        before = seen.get(key)
        line, full = value_stats(value)
        seen[key] = LiveValue(name, index, line, key[0], before.runs + 1 if before is not None else 1, full)

    try:
        evaluator = Evaluator(model, seed=seed, skip=skip)
        try:
            outputs = evaluator.run(None, made.feeds, trace_all=record)
        finally:
            result.values = list(seen.values())
    except EvaluationError as exc:
        rec = exc.record
        if rec.cause == "MemoryError":  # under this process's memory limit: the budget, not the node
            raise MemoryError(rec.message) from exc
        result.failure = Failure(rec.message, rec.node_index, rec.path, rec.function, rec)
        return result
    result.outputs = [_boundary(name, v) for name, v in zip(evaluator.output_names, outputs, strict=True)]
    return result


def _boundary(name: str, value: Any) -> LiveValue:
    """A graph input's or output's live value."""
    line, full = value_stats(value)
    return LiveValue(name, -1, line, statistics=full)


def value_stats(value: Any) -> tuple[Stats, Statistics | None]:
    """A value's one-line :class:`~onnxtext.evaluate.summary.Stats` and its full
    :class:`~onnxtext.weights.statistics.Statistics`, the values read once: the line's min, max
    and mean are the statistics' own, except for a value with NaN or inf, whose line says so
    (``min=nan``) as :func:`~onnxtext.evaluate.summary.stats` says it."""
    import numpy as np

    from onnxtext.evaluate.summary import stats
    from onnxtext.weights.statistics import statistics

    if value is None or isinstance(value, list | dict):  # an empty optional, a sequence, a map
        return stats(value), None
    arr = np.asarray(value)
    full = statistics(arr)
    if full is None or full.nonfinite or full.mean is None:
        return stats(arr), full
    return Stats(str(arr.dtype), tuple(int(d) for d in arr.shape), full.min, full.max, full.mean), full


def given_inputs(model: Any, inputs: Mapping[str, str], model_dir: str | None) -> dict[str, Any]:
    """The values the user gave for some inputs (files relative to the model's folder); an
    :class:`~onnxtext.evaluate.inputs.InputError` names one the model does not have."""
    from onnxtext.diagnostics import closest, did_you_mean
    from onnxtext.evaluate.inputs import InputError, load_value

    declared = {vi.name: (vi.type if vi.HasField("type") else None) for vi in model.graph.input}
    out: dict[str, Any] = {}
    for name, spec in inputs.items():
        if name not in declared:
            raise InputError(f"the model has no input named {name!r}{did_you_mean(closest(name, declared))}")
        if model_dir is not None and not spec.lstrip().startswith(("[", "{", '"')) and not os.path.isabs(spec.strip()):
            candidate = os.path.join(model_dir, spec.strip())
            if os.path.exists(candidate):
                spec = candidate
        out[name] = load_value(name, spec, declared[name])
    return out
