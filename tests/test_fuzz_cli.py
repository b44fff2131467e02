"""Mutated texts and mutated binary models through every CLI command, in-process, under a
memory limit: a message, never a traceback; and every binary the protobuf library accepts
prints losslessly or is refused with a message naming the field.

The mutations are seeded (the same cases every run). The CLI cases run in one child
process whose address space is limited (``RLIMIT_AS``), so a runaway allocation fails
there, as ``MemoryError`` the CLI would have to report, not on the machine.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEED_TEXTS = sorted((ROOT / "examples").glob("*.onnxtxt")) + sorted((ROOT / "tests" / "golden").glob("*.onnxtxt"))
HOSTILE = [
    "99999999999999999999",
    "0x8",
    "-0x8",
    "0x",
    "-1",
    "1e400",
    "nan",
    "-",
    ".",
    ":",
    "@",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    "(",
    ")",
    ",",
    "=",
    '"',
    "\\",
    "\x00",
    "é",
    "float[",
    "seq(",
    "int4",
    "9" * 30,
    "-9223372036854775809",
    "@{",
    "unset",
    "raw",
    "\n",
    "#",
    "0.5e",
    "1e-400",
    "int64[1000000000000]",
    "<strides = [0, 0]>",
    "Loop",
    "ConstantOfShape",
]
NUMBERS = ["99999999999999999999", "0x8", "-1", "9223372036854775808", "1e400", "0", "4294967296", "1000000000000"]
MEMORY_LIMIT = 3 << 30


def mutate_text(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(text) + 1)
        op = rng.random()
        if op < 0.45:
            text = text[:pos] + rng.choice(HOSTILE) + text[pos:]
        elif op < 0.7:
            text = text[:pos] + text[pos + rng.randint(1, 5) :]
        else:
            numbers = list(re.finditer(r"\d+", text))
            if numbers:
                m = rng.choice(numbers)
                text = text[: m.start()] + rng.choice(NUMBERS) + text[m.end() :]
    return text


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(out) + 1)
        op = rng.random()
        if op < 0.5 and out:
            out[min(pos, len(out) - 1)] = rng.randrange(256)
        elif op < 0.75:
            out[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 3)))
        else:
            del out[pos : pos + rng.randint(1, 3)]
    return bytes(out)


def accepted_mutations(seeds: list[bytes], count: int, rng: random.Random) -> Iterator[Any]:
    """The models protobuf accepts among ``count`` mutations of ``seeds`` (our ModelProto)."""
    from google.protobuf.message import DecodeError

    from onnxtext.proto import ModelProto

    for _ in range(count):
        model = ModelProto()
        try:
            model.ParseFromString(mutate_bytes(rng.choice(seeds), rng))
        except DecodeError:
            continue
        yield model


def _seed_binaries() -> list[bytes]:
    """The models of the seed texts that are models (some golden files hold other things)."""
    from onnxtext.document import parse_document

    out = []
    for path in SEED_TEXTS:
        doc = parse_document(path.read_text())
        if doc.ok and "external" not in path.name:
            out.append(doc.proto.SerializeToString())
    return out


def _cli_cases(seed: int, n_texts: int, n_binaries: int, folder: Path) -> list[list[str]]:
    """Files of mutated texts and binaries, and the command lines to run on them."""
    rng = random.Random(seed)
    reference = str(ROOT / "examples" / "mlp.onnxtxt")
    cases: list[list[str]] = []
    for i in range(n_texts):
        path = folder / f"t{i}.onnxtxt"
        path.write_text(mutate_text(rng.choice(SEED_TEXTS).read_text(), rng), encoding="utf-8", errors="surrogatepass")
        out = str(folder / f"t{i}.onnx")
        cases += [
            ["parse", str(path), "-o", out],
            ["check", str(path)],
            ["print", str(path)],
            ["fmt", "--check", str(path)],
            ["run", str(path), "--max-memory", "256M"],
            ["diff", str(path), reference],
            ["diff", reference, str(path), "-o", str(folder / f"t{i}.svg")],
            ["compare", reference, str(path), "--max-memory", "256M", "-o", str(folder / f"t{i}.html")],
        ]
    binaries = _seed_binaries()
    for i in range(n_binaries):
        path = folder / f"b{i}.onnx"
        path.write_bytes(mutate_bytes(rng.choice(binaries), rng))
        cases += [
            ["check", str(path)],
            ["check", "--format", "json", str(path)],
            ["print", str(path)],
            ["print", str(path), "--weights", "digest"],
            ["print", str(path), "--weights", "external", "-o", str(folder / f"b{i}.onnxtxt")],
            ["diff", str(path), reference],
            ["diff", "--unified", str(path), reference],
            ["diff", reference, str(path), "-o", str(folder / f"b{i}.html"), "--json"],
            ["compare", reference, str(path), "--max-memory", "256M"],
            ["run", str(path), "--max-memory", "256M"],
            ["graph", str(path), "-o", str(folder / f"b{i}.dot")],
            ["edit", str(path), "--rename", "X=renamed", "-o", str(folder / f"b{i}.edited.onnx")],
            ["extract", str(path), "--outputs", "Y", "-o", str(folder / f"b{i}.sub.onnxtxt")],
            ["merge", str(path), reference, "-o", str(folder / f"b{i}.merged.onnx")],
        ]
    return cases


def _child(cases_file: str) -> None:
    """Run each command line in this process; print the tracebacks, one JSON line each."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    from onnxtext.cli.app import main

    for argv in json.loads(Path(cases_file).read_text()):
        sink = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        try:
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                status = main(argv)
            if status not in (0, 1, 2):
                print(json.dumps({"argv": argv, "error": f"exit status {status}"}))
        except BaseException:  # noqa: BLE001  (the test reports whatever escapes)
            print(json.dumps({"argv": argv, "error": traceback.format_exc()[-1500:]}))


@pytest.mark.slow
def test_mutated_inputs_through_every_command(tmp_path: Path) -> None:
    cases = _cli_cases(seed=13, n_texts=120, n_binaries=120, folder=tmp_path)
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps(cases))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests")])}
    proc = subprocess.run(
        [sys.executable, __file__, str(cases_file)], capture_output=True, text=True, env=env, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    escaped = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert escaped == [], escaped[:3]
    assert len(cases) == 120 * 8 + 120 * 14


NAMES_A_FIELD = re.compile(r"^(the model\b|[a-z_]+(\[\d+\])?(/| |:))")


def test_mutated_binaries_print_losslessly_or_name_the_field() -> None:
    """Every mutated binary the protobuf library accepts: its text parses back to the same
    bytes, or printing is refused naming where (a proto path), never anything else."""
    import onnxtext

    rng = random.Random(2026)
    accepted = lossless = refused = 0
    for model in accepted_mutations(_seed_binaries(), 4000, rng):
        accepted += 1
        try:
            text = onnxtext.to_text(model)
        except onnxtext.NotRepresentable as exc:
            assert NAMES_A_FIELD.match(str(exc)), str(exc)
            refused += 1
            continue
        again = onnxtext.parse_model(text)
        assert again.SerializeToString(deterministic=True) == model.SerializeToString(deterministic=True), text[:2000]
        lossless += 1
    assert accepted > 200 and lossless > 50, (accepted, lossless, refused)


if __name__ == "__main__":
    _child(sys.argv[1])
