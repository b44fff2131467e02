"""Agreement of onnxtext's type inference with ``onnx.shape_inference`` on the ONNX backend suite.

    python bench/bench_infer.py [--worst N] [--no-declared]

For every value onnx infers in a model's main graph (value_info and outputs, graph inputs
excluded) our type must be identical: same element type, same shape, same symbols.
Symbols onnx makes up for unknown dims (``unk__N``, absent from the model) count as unknown.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))


@dataclass
class Agreement:
    total: int = 0
    same: int = 0
    more_precise: int = 0
    """Values where onnx knows less than we do and nothing it knows contradicts us (it gave up
    on the shape, or on a size, that we inferred)."""
    misses: Counter[str] = field(default_factory=Counter)
    """Operator producing a value we got wrong (or know less of than onnx) → count."""
    examples: dict[str, list[str]] = field(default_factory=dict)
    precise_ops: Counter[str] = field(default_factory=Counter)

    @property
    def share(self) -> float:
        return self.same / self.total if self.total else 1.0

    @property
    def share_or_more_precise(self) -> float:
        return (self.same + self.more_precise) / self.total if self.total else 1.0


def _model_symbols(model: Any) -> set[str]:
    found: set[str] = set()
    for vi in list(model.graph.input) + list(model.graph.output) + list(model.graph.value_info):
        if vi.type.HasField("tensor_type"):
            found.update(d.dim_param for d in vi.type.tensor_type.shape.dim if d.dim_param)
    return found


def canonical(vt: Any, symbols: set[str]) -> Any:
    """A ValueType with made-up ``unk__N`` symbols as unknown dims."""
    from onnxtext.analysis.infer import ValueType

    if vt.kind in ("tensor", "sparse_tensor") and vt.shape is not None:
        dims = tuple(None if isinstance(d, str) and d.startswith("unk__") and d not in symbols else d for d in vt.shape)
        return ValueType(vt.kind, vt.elem_type, dims)
    if vt.kind in ("sequence", "optional") and vt.inner is not None:
        return ValueType(vt.kind, inner=canonical(vt.inner, symbols))
    return vt


def refines(ours: Any, theirs: Any) -> bool:
    """Whether ``ours`` says all ``theirs`` says and more: the same kind and element type, and
    where onnx knows the rank or a size, the same (onnx's unknowns may be known to us)."""
    if ours is None or ours.kind != theirs.kind or (theirs.elem_type and ours.elem_type != theirs.elem_type):
        return False
    if ours.kind in ("tensor", "sparse_tensor"):
        if theirs.shape is None:
            return True
        if ours.shape is None or len(ours.shape) != len(theirs.shape):
            return False
        return all(t is None or o == t for o, t in zip(ours.shape, theirs.shape, strict=True))
    if theirs.inner is None:
        return True
    return ours.inner is not None and refines(ours.inner, theirs.inner)


def compare(path: Path, agreement: Agreement, *, use_declared: bool = True) -> None:
    import onnx

    from onnxtext.analysis.infer import from_type_proto, infer_types

    model = onnx.load(str(path), load_external_data=False)
    reference = onnx.shape_inference.infer_shapes(model, strict_mode=False)
    symbols = _model_symbols(model)
    ours = infer_types(model, use_declared=use_declared)
    producer = {out: node.op_type for node in model.graph.node for out in node.output}
    inputs = {vi.name for vi in model.graph.input}
    for vi in list(reference.graph.value_info) + list(reference.graph.output):
        if vi.name in inputs or not vi.HasField("type"):
            continue
        expected = canonical(from_type_proto(vi.type), symbols)
        got = ours.get(vi.name)
        agreement.total += 1
        if got is not None and canonical(got, symbols) == expected:
            agreement.same += 1
            continue
        op = producer.get(vi.name, "?")
        if refines(canonical(got, symbols) if got is not None else None, expected):
            agreement.more_precise += 1
            agreement.precise_ops[op] += 1
            continue
        agreement.misses[op] += 1
        agreement.examples.setdefault(op, [])
        if len(agreement.examples[op]) < 3:
            agreement.examples[op].append(f"{path.parent.name}:{vi.name}: onnx {expected}, ours {got}")


def measure(paths: list[Path], *, use_declared: bool = True) -> Agreement:
    agreement = Agreement()
    for path in paths:
        compare(path, agreement, use_declared=use_declared)
    return agreement


def report(agreement: Agreement, worst: int = 15) -> str:
    lines = [
        f"agreement: {agreement.same}/{agreement.total} = {agreement.share:.4f}",
        f"onnxtext more precise (onnx gave up on a rank or size we inferred): {agreement.more_precise} "
        f"({', '.join(f'{op} {n}' for op, n in agreement.precise_ops.most_common(8))})",
        f"agree or more precise: {agreement.same + agreement.more_precise}/{agreement.total} = "
        f"{agreement.share_or_more_precise:.4f}",
        f"differ: {sum(agreement.misses.values())}, by the operator producing the value:",
    ]
    for op, count in agreement.misses.most_common(worst):
        lines.append(f"  {op:28s} {count:5d}  e.g. {agreement.examples[op][0]}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worst", type=int, default=15)
    parser.add_argument("--no-declared", action="store_true", help="ignore value_info / declared output types")
    parser.add_argument("-k", default="", help="only model paths containing this")
    args = parser.parse_args()
    from corpus.backend import all_model_paths

    paths = [p for p in all_model_paths() if args.k in str(p)]
    start = time.perf_counter()
    agreement = measure(paths, use_declared=not args.no_declared)
    elapsed = time.perf_counter() - start
    print(report(agreement, args.worst))
    print(f"{len(paths)} models in {elapsed:.1f} s")


if __name__ == "__main__":
    from onnxtext._gc import pausing_allowed

    with pausing_allowed():  # timed as the command line and the server run onnxtext (onnxtext/_gc.py)
        main()
