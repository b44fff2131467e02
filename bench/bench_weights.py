"""Large-weight throughput of ``print --weights external|digest`` and ``parse``, as ratios
to a plain file copy measured in the same run.

Usage: python bench/bench_weights.py [--size-mb 1024] [--tensor-mb 256] [--layout external|inline|both] [--keep DIR]

Builds (in a temporary folder) a model whose float32 initializers (numpy random,
``raw_data`` layout) total SIZE MB, in two layouts: ``external`` (the weights in
``weights.bin``, the model refers to them) and ``inline`` (the weights inside
``model.onnx`` as ``raw_data``; SIZE must stay under protobuf's 2 GB). Then, for each
layout, each step in a forked child (so its peak RSS is its own; the child runs
``onnxtext.cli.app`` in-process):

- anchor: ``shutil.copyfile`` of the file holding the weights + fsync of the copy (the
  tool fsyncs its sidecar too); the copy without fsync is shown as well;
- ``onnxtext print model.onnx --weights external -o out.onnxtxt`` (+ ``out.onnxtxt.data``);
- ``onnxtext parse out.onnxtxt -o back.onnx``;
- ``onnxtext print model.onnx --weights digest -o digest.onnxtxt``;
- ``onnxtext diff model.onnx back.onnx`` (equal models: every weight hashed on both sides).

Reported per step: seconds, MB/s (of weight bytes), ratio to the anchor (lower is better)
and peak RSS of the child. Finally the round trip is checked: every tensor of
``back.onnx`` refers to bytes of ``out.onnxtxt.data`` equal to the original ones, and
the models are the same apart from where the bytes are.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from onnxtext.cli import main as cli_main  # noqa: E402
from onnxtext.proto import AttributeProto, ModelProto, TensorProto  # noqa: E402
from onnxtext.weights.wire import encode_varint, load_lazy  # noqa: E402

MB = 1 << 20
COLS = 4096  # float32 columns: 16 KiB a row
CHUNK = 64 * MB


def build_model(directory: Path, size_mb: int, tensor_mb: int = 256, *, seed: int = 0) -> tuple[Path, int]:
    """``directory/model.onnx`` + ``directory/weights.bin``: float32 initializers ``W0``… of
    ``tensor_mb`` MB (the last one smaller) totalling ``size_mb`` MB, each consumed by a
    ReduceSum. The weights are written chunk by chunk and never held in memory together.
    Returns the model's path and the number of weight bytes."""
    rng = np.random.default_rng(seed)
    model = ModelProto(ir_version=10, producer_name="bench_weights")
    model.opset_import.add(domain="", version=18)
    g = model.graph
    g.name = "big"
    total = 0
    with open(directory / "weights.bin", "wb") as f:
        remaining, i = size_mb, 0
        while remaining > 0:
            mb = min(tensor_mb, remaining)
            rows = mb * MB // (4 * COLS)
            offset = f.tell()
            nbytes = rows * COLS * 4
            done = 0
            while done < nbytes:  # random float32 values, CHUNK bytes at a time
                n = min(CHUNK, nbytes - done)
                f.write(rng.standard_normal(n // 4, dtype=np.float32).tobytes())
                done += n
            pad = (-f.tell()) % 4096
            f.write(b"\0" * pad)
            t = g.initializer.add(name=f"W{i}", data_type=TensorProto.FLOAT, dims=[rows, COLS])
            t.data_location = TensorProto.EXTERNAL
            for k, v in (("location", "weights.bin"), ("offset", str(offset)), ("length", str(nbytes))):
                t.external_data.add(key=k, value=v)
            n = g.node.add(op_type="ReduceSum", input=[f"W{i}"], output=[f"s{i}"], name=f"sum{i}")
            n.attribute.add(name="keepdims", type=AttributeProto.INT, i=0)
            out = g.output.add(name=f"s{i}")
            out.type.tensor_type.elem_type = TensorProto.FLOAT
            out.type.tensor_type.shape.SetInParent()
            total += nbytes
            remaining -= mb
            i += 1
    path = directory / "model.onnx"
    path.write_bytes(model.SerializeToString(deterministic=True))
    return path, total


def inline_model(directory: Path) -> Path:
    """``directory/inline/model.onnx``: the model of :func:`build_model` with its weights
    read into ``raw_data``, written without ever holding a protobuf with the weights (the
    serialized graph is assembled field by field; protobuf fields may come in any order)."""
    model = ModelProto.FromString((directory / "model.onnx").read_bytes())
    out_dir = directory / "inline"
    out_dir.mkdir(exist_ok=True)
    path = out_dir / "model.onnx"
    initializers = list(model.graph.initializer)
    del model.graph.initializer[:]
    graph = model.graph.SerializeToString()
    model.ClearField("graph")
    tensors = []
    for t in initializers:
        e = {x.key: x.value for x in t.external_data}
        head = TensorProto()
        head.CopyFrom(t)
        head.ClearField("data_location")
        del head.external_data[:]
        tensors.append((head.SerializeToString(), int(e["offset"]), int(e["length"])))
    graph_size = len(graph) + sum(
        len(_field(5, len(h) + len(_field(9, n)) + n)) + len(h) + len(_field(9, n)) + n for h, _, n in tensors
    )
    with open(path, "wb") as f, open(directory / "weights.bin", "rb") as w:
        f.write(model.SerializeToString())
        f.write(_field(7, graph_size))
        f.write(graph)
        for h, offset, n in tensors:
            f.write(_field(5, len(h) + len(_field(9, n)) + n))
            f.write(h)
            f.write(_field(9, n))
            w.seek(offset)
            left = n
            while left:
                chunk = w.read(min(CHUNK, left))
                f.write(chunk)
                left -= len(chunk)
    return path


def _field(number: int, length: int) -> bytes:
    """Tag and length of a length-delimited field."""
    return encode_varint((number << 3) | 2) + encode_varint(length)


def in_child(fn: Callable[[], Any]) -> tuple[float, int, Any]:
    """Run ``fn`` in a forked child: (seconds, peak RSS in bytes, result). The child's
    ``ru_maxrss`` starts at the parent's RSS at the fork, which is kept small."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        try:
            t0 = time.perf_counter()
            result = fn()
            dt = time.perf_counter() - t0
            payload = (dt, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, result, None)
        except BaseException as exc:  # noqa: BLE001 (reported by the parent)
            payload = (0.0, 0, None, repr(exc))
        with os.fdopen(w, "wb") as out:
            pickle.dump(payload, out)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    dt, rss, result, error = pickle.loads(data)
    if error:
        raise RuntimeError(f"child failed: {error}")
    return dt, rss, result


def copy_fsync(src: Path, dst: Path, *, fsync: bool = True) -> None:
    shutil.copyfile(src, dst)
    if fsync:
        fd = os.open(dst, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _range_sha(path: Path, offset: int, length: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        f.seek(offset)
        left = length
        while left:
            b = f.read(min(CHUNK, left))
            if not b:
                raise AssertionError(f"{path} ends before {offset} + {length}")
            h.update(b)
            left -= len(b)
    return h.hexdigest()


def _refs(model_path: Path) -> dict[str, tuple[Path, int, int]]:
    """Initializer name → (file, offset, length) of its bytes, external or inline."""
    model, lazy = load_lazy(model_path, 0)
    out = {}
    for t in model.graph.initializer:
        extent = lazy.extent(t)
        if extent is not None:
            out[t.name] = (model_path, extent.offset, extent.length)
            continue
        assert t.data_location == TensorProto.EXTERNAL, t.name
        e = {x.key: x.value for x in t.external_data}
        out[t.name] = (model_path.parent / e["location"], int(e.get("offset", "0")), int(e["length"]))
    return out


def verify_round_trip(original: Path, back: Path) -> int:
    """Check that ``back`` is ``original`` with its weights moved: the referenced bytes
    are equal and the models are the same apart from where the bytes are. Returns the
    number of bytes compared."""
    ra, rb = _refs(original), _refs(back)
    assert ra.keys() == rb.keys(), (sorted(ra), sorted(rb))
    compared = 0
    for name, (file_a, off_a, len_a) in ra.items():
        file_b, off_b, len_b = rb[name]
        assert len_a == len_b, (name, len_a, len_b)
        assert _range_sha(file_a, off_a, len_a) == _range_sha(file_b, off_b, len_b), f"{name}: bytes differ"
        compared += len_a
    a, b = (load_lazy(p, 0)[0] for p in (original, back))
    for m in (a, b):  # the rest of the model must be identical
        for t in m.graph.initializer:
            del t.external_data[:]
            t.ClearField("data_location")
            t.ClearField("raw_data")
    assert a.SerializeToString(deterministic=True) == b.SerializeToString(deterministic=True), "models differ"
    return compared


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--tensor-mb", type=int, default=256)
    ap.add_argument(
        "--keep", metavar="DIR", help="work in DIR and keep the files (default: a temporary folder, removed)"
    )
    ap.add_argument(
        "--layout",
        choices=("external", "inline", "both"),
        default="both",
        help="where the input model keeps its weights (default: both, one after the other)",
    )
    ap.add_argument("--skip-digest", action="store_true")
    args = ap.parse_args()

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_weights."))
    work.mkdir(parents=True, exist_ok=True)
    try:
        t0 = time.perf_counter()
        model_path, nbytes = build_model(work, args.size_mb, args.tensor_mb)
        print(
            f"model: {nbytes / MB:.0f} MB of float32 weights in "
            f"{len(ModelProto.FromString(model_path.read_bytes()).graph.initializer)} tensors "
            f"(built in {time.perf_counter() - t0:.1f} s) in {work}"
        )
        _, base_rss, _ = in_child(lambda: None)
        print(f"(RSS of a child doing nothing: {base_rss / MB:.0f} MB)")
        layouts = ["external", "inline"] if args.layout == "both" else [args.layout]
        for layout in layouts:
            if layout == "inline":
                _, _, model_path = in_child(lambda: inline_model(work))
                weights = model_path
            else:
                weights = work / "weights.bin"
            run_layout(layout, model_path, weights, nbytes, skip_digest=args.skip_digest)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def run_layout(layout: str, model_path: Path, weights: Path, nbytes: int, *, skip_digest: bool) -> None:
    folder = model_path.parent
    w = str(folder)
    print(f"\nlayout {layout}: model.onnx {model_path.stat().st_size / MB:.1f} MB, weights in {weights.name}")
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("anchor: copyfile", lambda: copy_fsync(weights, folder / "copy.bin", fsync=False)),
        ("anchor: copyfile+fsync", lambda: copy_fsync(weights, folder / "copy.bin")),
        (
            "print --weights external",
            lambda: cli_main(["print", f"{w}/model.onnx", "--weights", "external", "-o", f"{w}/out.onnxtxt"]),
        ),
        ("parse out.onnxtxt", lambda: cli_main(["parse", f"{w}/out.onnxtxt", "-o", f"{w}/back.onnx"])),
    ]
    if not skip_digest:
        steps.append(
            (
                "print --weights digest",
                lambda: cli_main(["print", f"{w}/model.onnx", "--weights", "digest", "-o", f"{w}/digest.onnxtxt"]),
            )
        )
    steps.append(("diff model.onnx back.onnx", lambda: cli_main(["diff", f"{w}/model.onnx", f"{w}/back.onnx"])))
    print(f"{'step':28} {'seconds':>8} {'MB/s':>8} {'ratio':>6} {'peak RSS':>10}")
    anchor = None
    for name, fn in steps:
        dt, rss, status = in_child(fn)
        if status not in (None, 0):
            raise SystemExit(f"{name}: exit status {status}")
        if name.startswith("anchor"):
            (folder / "copy.bin").unlink()
        if name == "anchor: copyfile+fsync":
            anchor = dt
        ratio = f"{dt / anchor:6.2f}" if anchor else "     -"
        print(f"{name:28} {dt:8.2f} {nbytes / MB / dt:8.0f} {ratio} {rss / MB:7.0f} MB", flush=True)
    sizes = {
        p.name: p.stat().st_size
        for p in folder.iterdir()
        if p.is_file() and p.suffix != ".bin" and p.name != "model.onnx"
    }
    print("files:", ", ".join(f"{k} {v / MB:.1f} MB" if v > MB else f"{k} {v} B" for k, v in sorted(sizes.items())))
    compared = verify_round_trip(model_path, folder / "back.onnx")
    print(f"round trip: OK ({compared / MB:.0f} MB of weight bytes equal, model otherwise identical)")


if __name__ == "__main__":
    from onnxtext._gc import pausing_allowed

    with pausing_allowed():  # timed as the command line and the server run onnxtext (onnxtext/_gc.py)
        raise SystemExit(main())
