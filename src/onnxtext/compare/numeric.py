"""Numeric comparison of two models (``onnxtext compare``): both run on the same inputs, every
value the structural match pairs compared, so the first values whose difference exceeds the
tolerance say where the outputs start to part.

The runs are the reference evaluator's (each node's value as it computes it, through its
``trace`` hook), or onnxruntime's when asked (``runtime="onnxruntime"``): a copy of each model
(bytes) with the matched values added as outputs. onnxruntime is imported only then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from onnxtext.compare.match import BodyMatch, match_graphs
from onnxtext.proto import ModelProto

__all__ = [
    "RUNTIMES",
    "CompareError",
    "RunFailed",
    "Divergence",
    "NumericComparison",
    "compare_models",
    "feeds_for_b",
    "same_inputs",
    "run_values",
    "difference",
]

RUNTIMES = ("reference", "onnxruntime")


class CompareError(Exception):
    """A run that cannot be made (onnxruntime missing, or refusing a model): said as one message."""


class RunFailed(Exception):
    """The reference evaluator failed on one model: ``side`` is ``"A"`` or ``"B"``, ``error`` the
    :class:`~onnxtext.evaluate.EvaluationError` (located, as ``run`` reports it)."""

    def __init__(self, side: str, error: Exception) -> None:
        super().__init__(f"{side}: {error}")
        self.side = side
        self.error = error


@dataclass(frozen=True)
class Divergence:
    """A matched value whose difference exceeds the tolerance (or whose type or shape differs)."""

    a: str
    b: str
    op: str
    max_abs: float
    max_rel: float
    note: str = ""
    """What is not a number: ``shape (2, 3) → (2, 4)``, ``dtype float32 → int64``, ``missing in B``."""


@dataclass
class NumericComparison:
    compared: int = 0
    """Matched values compared (both runs computed them)."""
    divergent: list[Divergence] = field(default_factory=list)
    """In B's topological order."""
    agreeing: set[str] = field(default_factory=set)
    """B's names of the matched values that agree within the tolerance."""
    outputs: list[Divergence] = field(default_factory=list)
    """The graph outputs that differ (or have no counterpart)."""
    values: list[tuple[Divergence, bool]] = field(default_factory=list)
    """Every matched value compared, in B's topological order, with whether it differs (the
    editor's per-value differences: an agreeing value's are within the tolerance, not zero)."""

    @property
    def outputs_differ(self) -> bool:
        return bool(self.outputs)


def difference(va: Any, vb: Any, rtol: float, atol: float) -> tuple[bool, float, float, str]:
    """(within the tolerance, max abs difference, max relative difference, note) of two values,
    ``|b - a| <= atol + rtol * |a|`` elementwise (NaN equals NaN; integers and booleans exactly)."""
    if not isinstance(va, np.ndarray) or not isinstance(vb, np.ndarray):
        same = type(va) is type(vb) and repr(va) == repr(vb)
        return same, 0.0, 0.0, "" if same else "values differ"
    if va.shape != vb.shape:
        return False, float("inf"), float("inf"), f"shape {va.shape} → {vb.shape}"
    if va.dtype == object or vb.dtype == object:
        same = bool(np.array_equal(va, vb))
        return same, 0.0, 0.0, "" if same else "values differ"
    if va.dtype.kind not in "biufc" or vb.dtype.kind not in "biufc":
        fa, fb = va.astype(np.float64), vb.astype(np.float64)  # ml_dtypes' narrow floats
    else:
        fa, fb = (
            va.astype(np.complex128 if va.dtype.kind == "c" else np.float64),
            vb.astype(np.complex128 if vb.dtype.kind == "c" else np.float64),
        )
    note = f"dtype {va.dtype} → {vb.dtype}" if va.dtype != vb.dtype else ""
    if fa.size == 0:
        return not note, 0.0, 0.0, note
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        both_nan = np.isnan(fa) & np.isnan(fb)
        same_inf = np.isinf(fa) & (fa == fb)
        delta = np.where(both_nan | same_inf, 0.0, np.abs(fb - fa))
        delta = np.where(np.isnan(delta), np.inf, delta)
        scale = np.abs(fa)
        rel = np.where(delta == 0, 0.0, delta / np.where(scale == 0, np.inf, scale))
        rel = np.where((delta > 0) & (scale == 0), np.inf, rel)
        exact = va.dtype.kind in "biu" and vb.dtype.kind in "biu"
        ok = bool(np.all(delta == 0)) if exact else bool(np.all((delta == 0) | (delta <= atol + rtol * scale)))
    return ok and not note, float(np.max(delta)), float(np.max(rel)), note


def feeds_for_b(m: BodyMatch, feeds_a: Mapping[str, Any]) -> dict[str, Any]:
    """A's feeds under B's names (inputs matched by the structural match)."""
    return {m.a2b[name]: value for name, value in feeds_a.items() if name in m.a2b}


def same_inputs(
    a: ModelProto,
    b: ModelProto,
    m: BodyMatch,
    given: Mapping[str, Any],
    *,
    sizes: Mapping[str, int],
    seed: int,
    max_bytes: int | None = None,
) -> tuple[dict[str, Any], dict[str, Any], list[str], dict[str, int]]:
    """The inputs A and B run on: A's ``given``, the rest made up from A's declared types
    (``sizes`` of the symbolic dimensions), the same values under B's matched names
    (:func:`feeds_for_b`), and B's inputs with no counterpart in A made up from B's, with the
    same sizes and ``seed``, none beyond ``max_bytes``. (A's feeds, B's, B's made-up names, the sizes chosen);
    :class:`~onnxtext.evaluate.synth.SynthesisError` when they cannot be made up."""
    from onnxtext.evaluate.synth import synthesize

    made = synthesize(a.graph, sizes=sizes, given=given, seed=seed, max_bytes=max_bytes)
    feeds_a = {name: made.feeds[name] for name in m.a.inputs if name in made.feeds}
    feeds_b = feeds_for_b(m, feeds_a)
    unmatched = [name for name in m.b.inputs if name not in feeds_b]
    if unmatched:
        extra = synthesize(b.graph, sizes={**made.sizes, **sizes}, given=feeds_b, seed=seed, max_bytes=max_bytes)
        feeds_b.update({name: extra.feeds[name] for name in unmatched if name in extra.feeds})
    return feeds_a, feeds_b, unmatched, made.sizes


def run_values(
    model: ModelProto,
    feeds: Mapping[str, Any],
    names: Sequence[str],
    *,
    runtime: str = "reference",
    seed: int = 0,
    max_memory: int | None = None,
) -> dict[str, Any]:
    """The values of ``names`` (main-graph values) and of the outputs in one run of ``model``.

    The reference evaluator raises :class:`~onnxtext.evaluate.EvaluationError` for a node that
    fails; onnxruntime's refusals are a :class:`CompareError`."""
    if runtime == "onnxruntime":
        return _onnxruntime(model, feeds, names)
    from onnxtext.evaluate import Evaluator

    wanted = set(names)
    seen: dict[str, Any] = {}

    def keep(name: str, index: int, value: Any) -> None:
        if name in wanted:
            seen[name] = value

    evaluator = Evaluator(model, seed=seed, max_memory=max_memory)
    outputs = evaluator.run(None, feeds, trace=keep)
    seen.update(zip(evaluator.output_names, outputs, strict=True))
    return seen


def _onnxruntime(model: ModelProto, feeds: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    try:
        import onnxruntime as ort  # optional: only this runtime needs it
    except ImportError:
        raise CompareError(
            "--runtime onnxruntime needs the onnxruntime package, which is not installed "
            "(pip install onnxruntime); the default runtime, the reference evaluator, needs nothing"
        ) from None
    copy = ModelProto()
    copy.CopyFrom(model)
    present = [o.name for o in copy.graph.output]
    for name in names:
        if name not in present:
            copy.graph.output.add().name = name
            present.append(name)
    options = ort.SessionOptions()
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(copy.SerializeToString(), options, providers=["CPUExecutionProvider"])
        given = {i.name for i in session.get_inputs()}
        values = session.run(present, {k: np.asarray(v) for k, v in feeds.items() if k in given})
    except (RuntimeError, ValueError) as exc:  # onnxruntime's own errors derive from RuntimeError
        raise CompareError(f"onnxruntime: {str(exc).strip().splitlines()[0] if str(exc).strip() else exc}") from None
    return dict(zip(present, values, strict=True))


def compare_models(
    a: ModelProto,
    b: ModelProto,
    feeds_a: Mapping[str, Any],
    *,
    rtol: float = 1e-5,
    atol: float = 1e-8,
    seed: int = 0,
    runtime: str = "reference",
    max_memory: int | None = None,
    feeds_b: Mapping[str, Any] | None = None,
    match: BodyMatch | None = None,
) -> NumericComparison:
    """Run ``a`` on ``feeds_a`` and ``b`` on the same values (``feeds_b``: by default A's under
    the matched names) and compare every matched value of their main graphs (:class:`RunFailed`
    when the evaluator fails on one, :class:`CompareError` when onnxruntime is missing or refuses)."""
    m = match if match is not None else match_graphs(a.graph, b.graph)
    pairs: list[tuple[str, str, str]] = []  # (A name, B name, B's operator) in B's order
    for j in m.b.order:
        i = m.b_nodes.get(j)
        if i is None:
            continue
        nb = m.b.nodes[j]
        for x, y in zip(m.a.nodes[i].output, nb.output, strict=False):
            if x and y and m.a2b.get(x) == y:
                pairs.append((x, y, nb.op_type))
    fb = dict(feeds_b) if feeds_b is not None else feeds_for_b(m, feeds_a)
    from onnxtext.evaluate import EvaluationError

    got = []
    for side, model, feeds, names in (("A", a, feeds_a, [p[0] for p in pairs]), ("B", b, fb, [p[1] for p in pairs])):
        try:
            got.append(run_values(model, feeds, names, runtime=runtime, seed=seed, max_memory=max_memory))
        except EvaluationError as exc:
            raise RunFailed(side, exc) from exc
    got_a, got_b = got
    result = NumericComparison()
    for x, y, op in pairs:
        if x not in got_a or y not in got_b:
            continue
        result.compared += 1
        ok, worst, rel, note = difference(got_a[x], got_b[y], rtol, atol)
        found = Divergence(x, y, op, worst, rel, note)
        result.values.append((found, not ok))
        if not ok:
            result.divergent.append(found)
        else:
            result.agreeing.add(y)
    outputs_b = list(m.b.outputs)
    for k, x in enumerate(m.a.outputs):
        y = (
            m.a2b.get(x)
            if m.a2b.get(x) in outputs_b
            else (outputs_b[k] if len(outputs_b) == len(m.a.outputs) else None)
        )
        if y is None or x not in got_a or y not in got_b:
            result.outputs.append(Divergence(x, y or "", "", float("inf"), float("inf"), "missing in B"))
            continue
        ok, worst, rel, note = difference(got_a[x], got_b[y], rtol, atol)
        if not ok:
            result.outputs.append(Divergence(x, y, "", worst, rel, note))
    return result
