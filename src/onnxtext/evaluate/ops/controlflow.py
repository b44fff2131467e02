"""If, Loop, Scan: subgraphs are called with their inputs and see outer-scope values."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate._types import np_dtype
from onnxtext.evaluate.budget import over_budget
from onnxtext.evaluate.errors import OVER_BUDGET, KernelError
from onnxtext.evaluate.registry import kernel


@kernel("", "If", 1)
def if_(cond, *, then_branch, else_branch):
    c = np.asarray(cond)
    if c.size != 1:
        raise KernelError(f"If condition must hold one value, got shape {list(c.shape)}", input_index=0)
    branch = then_branch if bool(c.reshape(-1)[0]) else else_branch
    return tuple(branch())


def _empty_scan(body: Any, index: int) -> Any:
    """The scan output ``index`` of the body after no iteration: an empty tensor of the
    declared element type (float32 when undeclared), shaped ``[0, *dims]`` when the
    per-iteration dims are declared numbers, else ``[0]``; an empty sequence for a sequence."""
    types = body.graph.output_types
    tp = types[index] if index < len(types) else None
    kind = tp.WhichOneof("value") if tp is not None else None
    if kind == "sequence_type":
        return []
    if tp is None or kind != "tensor_type" or not tp.tensor_type.elem_type:
        return np.zeros((0,), dtype=np.float32)
    tt = tp.tensor_type
    dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim] if tt.HasField("shape") else None
    shape = (0, *dims) if dims is not None and None not in dims else (0,)
    try:
        return np.zeros(shape, dtype=np_dtype(tt.elem_type))
    except ValueError:  # an element type the evaluator has no array for
        return np.zeros((0,), dtype=np.float32)


@kernel("", "Loop", 1)
def loop(m=None, cond=None, *carried, body):
    max_trip = int(np.asarray(m).reshape(-1)[0]) if m is not None else None
    keep = bool(np.asarray(cond).reshape(-1)[0]) if cond is not None else True
    n_carried = len(carried)
    state = list(carried)
    scans: list[list[Any]] | None = None
    i = 0
    budget = body.evaluator.max_memory
    stacked = 0
    while keep and (max_trip is None or i < max_trip):
        outs = body(np.array(i, dtype=np.int64), np.array(keep, dtype=np.bool_), *state)
        keep = bool(np.asarray(outs[0]).reshape(-1)[0])
        state = list(outs[1 : 1 + n_carried])
        scan_vals = outs[1 + n_carried :]
        if scans is None:
            scans = [[] for _ in scan_vals]
        for lst, v in zip(scans, scan_vals, strict=True):
            lst.append(v)
        i += 1
        if budget is not None and scan_vals:
            step_bytes = sum(int(getattr(v, "nbytes", 0)) for v in scan_vals)
            stacked += step_bytes
            # the first iteration tells what every one adds: refuse before the other iterations run
            planned = step_bytes * max_trip if i == 1 and max_trip is not None and keep else stacked
            problem = over_budget(
                f"the scan outputs of {max_trip if planned != stacked else i} iterations", 2 * planned, budget
            )
            if problem is not None:
                raise KernelError(problem, kind=OVER_BUDGET)
    n_scan = len(body.output_names) - 1 - n_carried
    if scans is None:
        scans = [[] for _ in range(n_scan)]
    return tuple(state) + tuple(
        _stack_scan(s) if s else _empty_scan(body, 1 + n_carried + k) for k, s in enumerate(scans)
    )


def _stack_scan(values: list[Any]) -> Any:
    if isinstance(values[0], list):
        return [x for v in values for x in v]
    return np.stack([np.asarray(v) for v in values])


@kernel("", "Scan", 9)
def scan(
    *inputs,
    body,
    num_scan_inputs,
    scan_input_axes=None,
    scan_input_directions=None,
    scan_output_axes=None,
    scan_output_directions=None,
):
    m = num_scan_inputs
    n = len(inputs) - m
    state = list(inputs[:n])
    xs = list(inputs[n:])
    in_axes = list(scan_input_axes) if scan_input_axes else [0] * m
    in_dirs = list(scan_input_directions) if scan_input_directions else [0] * m
    seqs = []
    for x, ax, d in zip(xs, in_axes, in_dirs, strict=False):
        a = ax + x.ndim if ax < 0 else ax
        moved = np.moveaxis(x, a, 0)
        seqs.append(moved[::-1] if d else moved)
    length = seqs[0].shape[0] if seqs else 0
    for s in seqs:
        if s.shape[0] != length:
            raise KernelError("scan inputs have different lengths along their scan axes")
    n_out = len(body.output_names) - n
    outs_per_step: list[list[Any]] = [[] for _ in range(n_out)]
    for t in range(length):
        res = body(*state, *[s[t] for s in seqs])
        state = list(res[:n])
        for lst, v in zip(outs_per_step, res[n:], strict=True):
            lst.append(v)
    out_axes = list(scan_output_axes) if scan_output_axes else [0] * n_out
    out_dirs = list(scan_output_directions) if scan_output_directions else [0] * n_out
    results = []
    for k, (lst, ax, d) in enumerate(zip(outs_per_step, out_axes, out_dirs, strict=False)):
        if d:
            lst = lst[::-1]
        stacked = np.stack(lst) if lst else _empty_scan(body, n + k)
        a = ax + stacked.ndim if ax < 0 else ax
        results.append(np.moveaxis(stacked, 0, a))
    return tuple(state) + tuple(results)


@kernel("", "Scan", 8)
def scan8(sequence_lens, *inputs, body, num_scan_inputs, directions=None):
    m = num_scan_inputs
    n = len(inputs) - m
    batch = inputs[0].shape[0] if inputs else 0
    per_batch = []
    for b in range(batch):
        lens = None if sequence_lens is None else int(np.asarray(sequence_lens).reshape(-1)[b])
        xs = [x[b][:lens] if lens is not None else x[b] for x in inputs[n:]]
        res = scan(*[x[b] for x in inputs[:n]], *xs, body=body, num_scan_inputs=m, scan_input_directions=directions)
        per_batch.append(res)
    return tuple(np.stack([r[i] for r in per_batch]) for i in range(len(per_batch[0])))
