"""If, Loop, Scan: subgraphs are called with their inputs and see outer-scope values."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.registry import kernel


@kernel("", "If", 1)
def if_(cond, *, then_branch, else_branch):
    c = np.asarray(cond)
    if c.size != 1:
        raise KernelError(f"If condition must hold one value, got shape {list(c.shape)}", input_index=0)
    branch = then_branch if bool(c.reshape(-1)[0]) else else_branch
    return tuple(branch())


def _stack(values: list[Any]) -> Any:
    if not values:
        return np.zeros((0,), dtype=np.float32)
    if isinstance(values[0], list):
        return [v for seq in values for v in seq] if False else values
    return np.stack([np.asarray(v) for v in values])


@kernel("", "Loop", 1)
def loop(m=None, cond=None, *carried, body):
    max_trip = int(np.asarray(m).reshape(-1)[0]) if m is not None else None
    keep = bool(np.asarray(cond).reshape(-1)[0]) if cond is not None else True
    n_carried = len(carried)
    state = list(carried)
    scans: list[list[Any]] | None = None
    i = 0
    while keep and (max_trip is None or i < max_trip):
        outs = body(np.array(i, dtype=np.int64), np.array(keep, dtype=np.bool_), *state)
        keep = bool(np.asarray(outs[0]).reshape(-1)[0])
        state = list(outs[1:1 + n_carried])
        scan_vals = outs[1 + n_carried:]
        if scans is None:
            scans = [[] for _ in scan_vals]
        for lst, v in zip(scans, scan_vals):
            lst.append(v)
        i += 1
    n_scan = len(body.output_names) - 1 - n_carried
    if scans is None:
        scans = [[] for _ in range(n_scan)]
    return tuple(state) + tuple(_stack_scan(s) for s in scans)


def _stack_scan(values: list[Any]) -> Any:
    if values and isinstance(values[0], list):
        return [x for v in values for x in v]
    if not values:
        return np.zeros((0,), dtype=np.float32)
    return np.stack([np.asarray(v) for v in values])


@kernel("", "Scan", 9)
def scan(*inputs, body, num_scan_inputs, scan_input_axes=None, scan_input_directions=None,
         scan_output_axes=None, scan_output_directions=None):
    m = num_scan_inputs
    n = len(inputs) - m
    state = list(inputs[:n])
    xs = list(inputs[n:])
    in_axes = list(scan_input_axes) if scan_input_axes else [0] * m
    in_dirs = list(scan_input_directions) if scan_input_directions else [0] * m
    seqs = []
    for x, ax, d in zip(xs, in_axes, in_dirs):
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
        for lst, v in zip(outs_per_step, res[n:]):
            lst.append(v)
    out_axes = list(scan_output_axes) if scan_output_axes else [0] * n_out
    out_dirs = list(scan_output_directions) if scan_output_directions else [0] * n_out
    results = []
    for lst, ax, d in zip(outs_per_step, out_axes, out_dirs):
        if d:
            lst = lst[::-1]
        stacked = np.stack(lst) if lst else np.zeros((0,), dtype=np.float32)
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
        res = scan(*[x[b] for x in inputs[:n]], *xs, body=body, num_scan_inputs=m,
                   scan_input_directions=directions)
        per_batch.append(res)
    return tuple(np.stack([r[i] for r in per_batch]) for i in range(len(per_batch[0])))
