"""The numeric comparison (:mod:`.numeric`) run as live values run (:mod:`onnxtext.evaluate.live`):
both models, on the same made-up inputs, in a child process within the live-values budget, so
the editor can ask for it without the server running a slow, huge or endless model itself."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

from onnxtext.compare.numeric import NumericComparison
from onnxtext.evaluate.live import Budget, run_budgeted
from onnxtext.proto import ModelProto

__all__ = ["Compared", "compare_budgeted"]


@dataclass
class Compared:
    """The comparison (``numbers``) and what it ran on, or why it did not run (``skipped``)."""

    numbers: NumericComparison | None = None
    inputs: str = ""
    """``made-up inputs x (seed 0, N=1)``, as ``onnxtext compare`` says it."""
    skipped: str | None = None


def compare_budgeted(
    a: ModelProto,
    b: ModelProto,
    *,
    a_dir: str | None = None,
    b_dir: str | None = None,
    sizes: Mapping[str, int] | None = None,
    inputs: Mapping[str, str] | None = None,
    rtol: float = 1e-5,
    atol: float = 1e-8,
    seed: int = 0,
    budget: Budget | None = None,
    cancel: threading.Event | None = None,
) -> Compared:
    """Run A and B on the same inputs in a child process and compare every matched value, as ``onnxtext
    compare`` does: ``inputs`` gives some of A's as live values take them (a JSON literal, or a
    ``.npy``/``.pb`` file relative to ``b_dir``), the rest are made up (``sizes`` of the symbolic
    dimensions); ``a_dir``/``b_dir``: the folders their external data is read from. Over the budget
    (the weights of both, or the time or memory of the run; by default the live values') or
    cancelled, it says so in ``skipped``."""
    from onnxtext.weights.external import iter_tensors, tensor_nbytes

    budget = budget if budget is not None else Budget()

    weights = sum(tensor_nbytes(r.tensor) for model in (a, b) for r in iter_tensors(model))
    if weights > budget.weights_mb * 2**20:
        return Compared(
            skipped=f"the models' weights ({weights / 2**20:.0f} MB) exceed the live-values budget of "
            f"{budget.weights_mb} MB"
        )
    models = (a.SerializeToString(), b.SerializeToString(), a_dir, b_dir)
    args = (*models, dict(sizes or {}), dict(inputs or {}), rtol, atol, seed)
    found, skipped = run_budgeted(_compare, args, budget=budget, cancel=cancel)
    return found if found is not None else Compared(skipped=skipped)


def _compare(
    a_bytes: bytes,
    b_bytes: bytes,
    a_dir: str | None,
    b_dir: str | None,
    sizes: dict[str, int],
    inputs: dict[str, str],
    rtol: float,
    atol: float,
    seed: int,
) -> Compared:
    """In the child: both models read (their external data loaded), the inputs given or made up
    from A's declared types (B's unmatched ones from B's), both run and compared."""
    from onnxtext.compare.match import match_graphs
    from onnxtext.compare.numeric import RunFailed, compare_models, same_inputs
    from onnxtext.evaluate.inputs import InputError
    from onnxtext.evaluate.live import given_inputs
    from onnxtext.evaluate.synth import SynthesisError
    from onnxtext.weights.external import ExternalDataError, is_external, iter_tensors, load_external

    models = []
    for side, data, folder in (("A", a_bytes, a_dir), ("B", b_bytes, b_dir)):
        model = ModelProto.FromString(data)
        if any(is_external(r.tensor) for r in iter_tensors(model)):
            if folder is None:
                return Compared(skipped=f"{side} has external data and no folder to read it from")
            try:
                model = load_external(model, folder)
            except ExternalDataError as exc:
                return Compared(skipped=f"{side}'s external data cannot be read: {exc}")
        models.append(model)
    a, b = models
    m = match_graphs(a.graph, b.graph)
    try:
        given = given_inputs(a, inputs, b_dir)
        feeds_a, feeds_b, _, chosen_sizes = same_inputs(a, b, m, given, sizes=sizes, seed=seed)
    except (SynthesisError, InputError) as exc:
        return Compared(skipped=str(exc))
    chosen = "".join(f", {k}={v}" for k, v in sorted(chosen_sizes.items()))
    made_up = [name for name in feeds_a if name not in given]
    ran_on = f"made-up inputs {', '.join(made_up)} (seed {seed}{chosen})" if made_up else "the inputs given"
    if made_up and given:
        ran_on = f"the inputs given and {ran_on}"
    try:
        numbers = compare_models(a, b, feeds_a, rtol=rtol, atol=atol, seed=seed, feeds_b=feeds_b, match=m)
    except RunFailed as exc:
        from onnxtext.evaluate import EvaluationError

        error = exc.error
        if isinstance(error, EvaluationError) and error.record.cause == "MemoryError":
            raise MemoryError(error.record.message) from exc  # the budget's, not the node's
        return Compared(skipped=f"{exc.side} failed to run: {error}", inputs=ran_on)
    return Compared(numbers, ran_on)
