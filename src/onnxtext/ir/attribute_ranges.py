"""The valid range of integer attributes whose bad values a schema does not state: a
``blocksize`` of 0, a ``num_scan_inputs`` beyond the node's inputs, a ``hidden_size`` of -1.

One table, read by the checker (E311) and by the evaluator before it runs a kernel, so that
neither divides by, allocates for nor loops over a value no operator accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["OutOfRange", "attribute_range_problems", "ranged_operators"]

#: (inputs, outputs, opset version) → (lowest, highest or None); the node's counts of inputs
#: and outputs bound the attributes that count them.
Bounds = Callable[[int, int, int], "tuple[int, int | None]"]


def _at_least(lo: int) -> Bounds:
    return lambda n_in, n_out, version: (lo, None)


def _scan_inputs(n_in: int, n_out: int, version: int) -> tuple[int, int | None]:
    # Scan 8 takes the optional sequence lengths first; the scanned inputs are the last ones
    return 1, n_in - 1 if version < 9 else n_in


def _split_outputs(n_in: int, n_out: int, version: int) -> tuple[int, int | None]:
    return n_out, n_out  # the node has as many outputs as it splits the tensor into


_POSITIVE, _NATURAL = _at_least(1), _at_least(0)

_TABLE: dict[tuple[str, str], dict[str, Bounds]] = {
    ("", "DepthToSpace"): {"blocksize": _POSITIVE},
    ("", "SpaceToDepth"): {"blocksize": _POSITIVE},
    ("", "Scan"): {"num_scan_inputs": _scan_inputs},
    ("", "Split"): {"num_outputs": _split_outputs},
    ("", "RNN"): {"hidden_size": _POSITIVE},
    ("", "GRU"): {"hidden_size": _POSITIVE},
    ("", "LSTM"): {"hidden_size": _POSITIVE},
    ("", "RoiAlign"): {"output_height": _POSITIVE, "output_width": _POSITIVE, "sampling_ratio": _NATURAL},
    ("", "TfIdfVectorizer"): {"min_gram_length": _POSITIVE, "max_gram_length": _POSITIVE, "max_skip_count": _NATURAL},
    ("ai.onnx.ml", "TreeEnsemble"): {"n_targets": _POSITIVE},
}


def ranged_operators() -> frozenset[tuple[str, str]]:
    """The (domain, op_type) pairs with a ranged attribute (``""`` for ``ai.onnx``)."""
    return frozenset(_TABLE)


@dataclass(frozen=True, slots=True)
class OutOfRange:
    """Attribute ``index`` of a node holds ``value`` outside ``[lo, hi]``."""

    index: int
    name: str
    value: int
    lo: int
    hi: int | None

    def message(self, op_type: str) -> str:
        if self.hi is None:
            valid = f"at least {self.lo}"
        elif self.lo == self.hi:
            valid = f"{self.lo}"
        elif self.hi < self.lo:
            valid = f"at least {self.lo}, which this node's inputs cannot give"
        else:
            valid = f"from {self.lo} to {self.hi}"
        return f"attribute '{self.name}' of {op_type} is {self.value}; it must be {valid}"


def attribute_range_problems(
    domain: str, op_type: str, version: int | None, attributes: Any, n_inputs: int, n_outputs: int
) -> Iterator[OutOfRange]:
    """The INT attributes of a node (``domain`` normalised, ``""`` for ``ai.onnx``) out of their range."""
    bounds = _TABLE.get((domain, op_type))
    if bounds is None:
        return
    for index, attr in enumerate(attributes):
        rule = bounds.get(attr.name)
        if rule is None or attr.ref_attr_name or attr.type != attr.INT:
            continue
        lo, hi = rule(n_inputs, n_outputs, version if version is not None else 1 << 30)
        if attr.i < lo or (hi is not None and attr.i > hi):
            yield OutOfRange(index, attr.name, int(attr.i), lo, hi)
