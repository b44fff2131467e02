"""Opening a big binary model in the editor: ``onnxtext/openBinary`` and ``saveBinary`` as
the language server runs them (:mod:`onnxtext.binary`), on synthetic models.

Usage: python bench/bench_open_binary.py [--sizes-mb 45,1024] [--full]

Each model is a chain of blocks like a CNN's: a large float32 weight (``raw_data``) used by
a MatMul, and four per-channel tensors (the small ones kept inline) used by a
BatchNormalization, with tensor sizes drawn so that they total SIZE MB. For each size:

- ``open``: seconds to the text (the view by reference: large tensors as digests,
  sha256 of every held byte included), its size in characters and lines, tensors held;
- ``save``: seconds to write the model back after a structural edit (a value renamed and
  a node added), every held tensor copied from the original file;
- ``check``: the weights of the written file hashed and compared with the originals.

``--full`` also times the whole text of the smallest model (every weight printed), the
view an editor cannot colour or fold above 20 MB.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from onnxtext.binary import open_binary, save_binary  # noqa: E402
from onnxtext.io import model_bytes  # noqa: E402
from onnxtext.proto import ModelProto, TensorProto  # noqa: E402
from onnxtext.weights.wire import load_lazy  # noqa: E402

MB = 1 << 20
COLS = 256


def build(path: Path, size_mb: int, seed: int = 0) -> dict[str, bytes]:
    """The model at ``path``; the sha256 of each tensor by name."""
    rng = np.random.default_rng(seed)
    model = ModelProto(ir_version=8, producer_name="bench_open_binary")
    model.opset_import.add(domain="", version=18)
    g = model.graph
    g.name = "net"
    x = g.input.add(name="x")
    x.type.tensor_type.elem_type = TensorProto.FLOAT
    for d in ("N", COLS):
        dim = x.type.tensor_type.shape.dim.add()
        if isinstance(d, str):
            dim.dim_param = d
        else:
            dim.dim_value = d
    left, i, prev, digests = size_mb * MB, 0, "x", {}
    while left > 0:
        k = min(max(1, left // (8 * COLS)), int(rng.integers(8, 4096)))  # columns of this block
        w = rng.standard_normal(COLS * k, dtype=np.float32)
        t = g.initializer.add(name=f"layer{i}.weight", data_type=TensorProto.FLOAT, dims=[COLS, k])
        t.raw_data = w.tobytes()
        digests[t.name] = hashlib.sha256(t.raw_data).digest()
        g.node.add(op_type="MatMul", input=[prev, t.name], output=[f"mm{i}"], name=f"layer{i}/MatMul")
        for part in ("scale", "bias", "mean", "var"):
            s = g.initializer.add(name=f"layer{i}.bn.{part}", data_type=TensorProto.FLOAT, dims=[k])
            s.raw_data = rng.standard_normal(k, dtype=np.float32).tobytes()
            digests[s.name] = hashlib.sha256(s.raw_data).digest()
        g.node.add(
            op_type="BatchNormalization",
            input=[f"mm{i}"] + [f"layer{i}.bn.{p}" for p in ("scale", "bias", "mean", "var")],
            output=[f"bn{i}"],
            name=f"layer{i}/BatchNormalization",
        )
        # back to COLS columns for the next block
        back = g.initializer.add(name=f"layer{i}.proj", data_type=TensorProto.FLOAT, dims=[k, COLS])
        back.raw_data = rng.standard_normal(k * COLS, dtype=np.float32).tobytes()
        digests[back.name] = hashlib.sha256(back.raw_data).digest()
        g.node.add(op_type="MatMul", input=[f"bn{i}", back.name], output=[f"h{i}"], name=f"layer{i}/proj")
        prev = f"h{i}"
        left -= 2 * 4 * COLS * k
        i += 1
    y = g.output.add(name=prev)
    y.type.tensor_type.elem_type = TensorProto.FLOAT
    path.write_bytes(model_bytes(model))
    return digests


def weights_of(path: Path) -> dict[str, bytes]:
    """The sha256 of each tensor of the file at ``path`` (large ones read from their byte ranges)."""
    model, lazy = load_lazy(path, 1024)
    out = {}
    with open(path, "rb") as f:
        for t in model.graph.initializer:
            e = lazy.extent(t)
            if e is None:
                out[t.name] = hashlib.sha256(t.raw_data).digest()
                continue
            f.seek(e.offset)
            out[t.name] = hashlib.sha256(f.read(e.length)).digest()
    return out


def run(size_mb: int, directory: Path, full: bool) -> None:
    path = directory / f"model{size_mb}.onnx"
    digests = build(path, size_mb)
    size = path.stat().st_size
    start = time.perf_counter()
    view = open_binary(str(path))
    opened = time.perf_counter() - start
    lines = view.text.count("\n")
    held = len(view.held) if view.held is not None else 0
    print(
        f"{size / MB:7.0f} MB  open {opened:6.2f} s  text {len(view.text) / MB:5.2f} MB, {lines} lines, "
        f"{held} tensors by reference"
    )
    end = view.text.rindex("}")  # a value renamed, a node added
    edited = (view.text[:end] + "   extra = Identity (mm0)\n" + view.text[end:]).replace("mm0", "renamed0")
    start = time.perf_counter()
    result = save_binary(edited, str(path), opened=view)
    saved = time.perf_counter() - start
    errors = [d for d in result.diagnostics if d.is_error]
    print(
        f"{'':10}  save {saved:6.2f} s  written={result.written} errors={len(errors)} ({errors[0] if errors else ''})"
    )
    start = time.perf_counter()
    same = weights_of(path) == digests
    print(f"{'':10}  check {time.perf_counter() - start:5.2f} s  weights byte-exact: {same}")
    if full:
        from onnxtext.io import load
        from onnxtext.printing.text import to_text

        start = time.perf_counter()
        text = to_text(load(path))
        print(
            f"{'':10}  whole text {time.perf_counter() - start:6.2f} s  {len(text) / MB:.1f} MB "
            f"({len(text) / size:.1f}x the binary)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes-mb", default="45,1024")
    parser.add_argument("--full", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes_mb.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        for i, size_mb in enumerate(sizes):
            run(size_mb, Path(tmp), args.full and i == 0)


if __name__ == "__main__":
    from onnxtext._gc import pausing_allowed

    with pausing_allowed():  # timed as the command line and the server run onnxtext (onnxtext/_gc.py)
        main()
