"""Big binary models in the editor: large tensors shown by reference, the structure editable,
saved back with every held tensor copied byte for byte from the original file."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import numpy as np
import pytest

import onnxtext
from onnxtext.binary import HELD_EDITED, open_binary, runnable_model, save_binary
from onnxtext.diagnostics import OnnxTextError
from onnxtext.io import model_bytes
from onnxtext.proto import ModelProto, TensorProto
from onnxtext.weights.external import load_external

HEADER = '<ir_version: 8, opset_import: ["" : 18]>\n'
LIMIT = 200_000  # characters: every test model here is above it as a whole text


def _weights(rng: np.random.Generator, n: int) -> bytes:
    return rng.standard_normal(n).astype(np.float32).tobytes()


def _model(path: Path, sizes: list[int], *, seed: int = 0) -> dict[str, bytes]:
    """A chain ``y = x + w0 + w1 + …`` with float32 weights of ``sizes`` elements (all broadcast
    from ``float[n]``), a small bias kept inline; the weights' bytes by name."""
    rng = np.random.default_rng(seed)
    n = max(sizes)
    lines, prev = [], "x"
    for i in range(len(sizes)):
        lines.append(f"   t{i} = Add ({prev}, w{i})")
        prev = f"t{i}"
    lines.append(f"   y = Add ({prev}, b)")
    model = onnxtext.parse_model(
        HEADER + f"g (float[{n}] x) => (float[{n}] y)\n<float[1] b = {{0.5}}>\n{{\n" + "\n".join(lines) + "\n}\n"
    )
    weights = {}
    for i, size in enumerate(sizes):
        t = model.graph.initializer.add()
        t.name, t.data_type = f"w{i}", TensorProto.FLOAT
        t.dims.append(size)
        t.raw_data = weights[t.name] = _weights(rng, size)
    path.write_bytes(model_bytes(model))
    return weights


def _raw(path: Path) -> dict[str, bytes]:
    return {t.name: t.raw_data for t in onnxtext.load(path).graph.initializer}


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_a_model_whose_text_fits_opens_whole(tmp_path: Path) -> None:
    path = tmp_path / "small.onnx"
    _model(path, [1000])
    view = open_binary(str(path))
    assert view.held is None and view.note is None and "digest" not in view.text


def test_large_tensors_are_shown_by_reference_and_the_view_is_editable(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    _model(path, [20_000, 30_000, 200])
    view = open_binary(str(path), text_limit=LIMIT)
    assert view.editable and view.held is not None and len(view.held) == 2
    assert view.note is not None and "2 large tensors are shown by reference" in view.note
    assert view.text.count('"digest": "sha256:') == 2 and len(view.text) < 6_000
    assert (
        "float[1] b = {0.5}" in view.text and "float[200] w2 @{encoding: raw} = {" in view.text
    )  # small ones stay inline
    digest = hashlib.sha256(_raw(path)["w0"]).hexdigest()
    assert f'float[20000] w0 = ["digest": "sha256:{digest}"]' in view.text


def test_structural_edits_keep_every_weight_byte_exact(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    weights = _model(path, [20_000, 30_000])
    view = open_binary(str(path), text_limit=LIMIT)
    edited = view.text.replace("t1 = Add (t0, w1)", "t1 = Add (t0, w1)\n   u = Relu (t1)").replace(
        "y = Add (t1, b)", "y = Add (u, b)"
    )
    result = save_binary(edited, str(path), opened=view)
    assert result.written and not [d for d in result.diagnostics if d.is_error], result.diagnostics
    model = onnxtext.load(path)
    assert [n.op_type for n in model.graph.node] == ["Add", "Add", "Relu", "Add"]
    assert _raw(path) == {**weights, "b": _raw(path)["b"]}
    # the server keeps the view of the new file: a second edit copies from it
    assert result.view is not None and result.view.held is not None
    again = save_binary(
        edited.replace("u = Relu", "u = Sigmoid").replace("(u, b)", "(u, b)"), str(path), opened=result.view
    )
    assert again.written and [n.op_type for n in onnxtext.load(path).graph.node][2] == "Sigmoid"
    assert {k: v for k, v in _raw(path).items() if k != "b"} == weights


def test_renaming_a_tensor_shown_by_reference_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    weights = _model(path, [20_000, 30_000])
    view = open_binary(str(path), text_limit=LIMIT)
    assert save_binary(view.text.replace("w0", "first"), str(path), opened=view).written
    assert _raw(path)["first"] == weights["w0"] and _raw(path)["w1"] == weights["w1"]


def test_unchanged_text_leaves_the_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    _model(path, [20_000, 30_000])
    before = path.read_bytes()
    view = open_binary(str(path), text_limit=LIMIT)
    result = save_binary(view.text, str(path), opened=view)
    assert (result.written, result.unchanged) == (False, True) and path.read_bytes() == before


@pytest.mark.parametrize(
    ("change", "needle", "expected"),
    [
        (lambda t: t.replace('"sha256:', '"sha256:0', 1), '"sha256:0', "digest was edited"),
        (
            lambda t: t.replace("float[20000] w0", "float[2, 10000] w0"),
            "w0 = [",
            "its type must stay float[20000] (the text says float[2,10000])",
        ),
        (lambda t: t.replace("float[20000] w0", "double[20000] w0"), "w0 = [", "its type must stay float[20000]"),
        (
            lambda t: t.replace('w0 = ["digest"', 'w0 = ["location": "x.bin", "digest"'),
            "w0 = [",
            "holds only the digest (remove 'location')",
        ),
    ],
)
def test_an_edited_reference_is_refused_at_its_line(tmp_path: Path, change, needle: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "m.onnx"
    _model(path, [20_000, 30_000])
    before = path.read_bytes()
    view = open_binary(str(path), text_limit=LIMIT)
    edited = change(view.text)
    result = save_binary(edited, str(path), opened=view)
    assert not result.written and path.read_bytes() == before
    (problem,) = [d for d in result.diagnostics if d.is_error]
    assert problem.code == HELD_EDITED and expected in problem.message and "initializer 'w0'" in problem.message
    assert problem.span is not None and problem.span.start.line == _line_of(edited, needle)


def test_an_inline_replacement_of_a_reference_is_an_edit_of_the_data(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    weights = _model(path, [20_000, 30_000])
    view = open_binary(str(path), text_limit=LIMIT)
    start = view.text.index('float[20000] w0 = ["digest"')
    end = view.text.index("]", start + 20) + 1
    edited = view.text[:start] + "float[20000] w0 = {" + ", ".join(["1"] * 20_000) + "}" + view.text[end:]
    assert save_binary(edited, str(path), opened=view).written
    model = onnxtext.load(path)
    w0 = next(t for t in model.graph.initializer if t.name == "w0")
    assert list(w0.float_data)[:3] == [1.0, 1.0, 1.0] and _raw(path)["w1"] == weights["w1"]


def test_a_file_changed_on_disk_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    _model(path, [20_000, 30_000])
    view = open_binary(str(path), text_limit=LIMIT)
    _model(path, [20_000, 30_000], seed=1)
    changed = path.read_bytes()
    with pytest.raises(OnnxTextError, match="weights changed on disk since the model was opened"):
        save_binary(view.text.replace("y = Add", "y = Sub"), str(path), opened=view)
    assert path.read_bytes() == changed


def test_a_text_longer_than_estimated_falls_back_to_references(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import onnxtext.binary as binary

    path = tmp_path / "m.onnx"
    _model(path, [10_000, 20_000])
    monkeypatch.setattr(binary, "TEXT_PER_BYTE", 1.0)  # an estimate that fits: the text printed does not
    assert os.path.getsize(path) * 1.0 <= LIMIT
    view = open_binary(str(path), text_limit=LIMIT)
    assert view.held is not None and len(view.held) == 2 and len(view.text) < LIMIT


def test_typed_storage_is_held_in_memory_and_written_back(tmp_path: Path) -> None:
    strings = [f"s{i % 10}".encode() for i in range(30_000)]
    model = onnxtext.parse_model(HEADER + "g (int64[1] i) => (string[1] y) { y = Gather (s, i) }")
    t = model.graph.initializer.add()
    t.name, t.data_type = "s", TensorProto.STRING
    t.dims.append(len(strings))
    t.string_data.extend(strings)
    path = tmp_path / "strings.onnx"
    path.write_bytes(model_bytes(model))
    view = open_binary(str(path), text_limit=LIMIT)
    assert view.held is not None and len(view.held) == 1 and len(view.text) < 1_000
    assert save_binary(view.text.replace("Gather (s, i)", "Gather <axis = 0> (s, i)"), str(path), opened=view).written
    back = onnxtext.load(path)
    assert list(back.graph.initializer[0].string_data) == strings and back.graph.node[0].attribute[0].name == "axis"


def test_external_data_keeps_its_reference(tmp_path: Path) -> None:
    data = _weights(np.random.default_rng(2), 50_000)
    (tmp_path / "m.bin").write_bytes(data)
    text = (
        HEADER + 'g (float[50000] x) => (float[50000] y)\n<float[50000] w = ["location": "m.bin", "offset": "0", '
        '"length": "200000"]>\n{\n   y = Add (x, w)\n}\n'
    )
    path = tmp_path / "m.onnx"
    path.write_bytes(model_bytes(onnxtext.parse_model(text)))
    view = open_binary(str(path), text_limit=LIMIT)
    assert '"location": "m.bin"' in view.text
    assert save_binary(view.text.replace("Add", "Sub"), str(path), opened=view).written
    model = onnxtext.load(path)
    assert model.graph.node[0].op_type == "Sub" and (tmp_path / "m.bin").read_bytes() == data
    assert load_external(model, str(tmp_path)).graph.initializer[0].raw_data == data


def test_a_run_reads_the_held_tensors_from_the_model_file(tmp_path: Path) -> None:
    from onnxtext.document import parse_document

    path = tmp_path / "m.onnx"
    weights = _model(path, [20_000, 30_000])
    view = open_binary(str(path), text_limit=LIMIT)
    doc = parse_document(view.text, "model", str(path))
    model = runnable_model(view, list(doc.diagnostics), doc.proto)
    assert isinstance(model, ModelProto)
    loaded = load_external(model, str(tmp_path))
    assert {t.name: t.raw_data for t in loaded.graph.initializer if t.name != "b"} == weights
    edited = parse_document(view.text.replace('"sha256:', '"sha256:0', 1), "model", str(path))
    assert runnable_model(view, list(edited.diagnostics), edited.proto) is None
    assert runnable_model(None, list(doc.diagnostics), doc.proto) is None


@pytest.mark.slow
def test_a_few_hundred_mb_model_opens_fast_and_saves_byte_exact(tmp_path: Path) -> None:
    path = tmp_path / "big.onnx"
    sizes = [16_000_000] * 5  # 320 MB of float32
    weights = _model(path, sizes)
    digests = {k: hashlib.sha256(v).digest() for k, v in weights.items()}
    del weights
    start = time.perf_counter()
    view = open_binary(str(path))
    seconds = time.perf_counter() - start
    assert view.held is not None and len(view.held) == 5 and len(view.text) < 5_000
    assert seconds < 10, f"opened in {seconds:.1f} s"
    edited = view.text.replace("y = Add (t4, b)", "z = Relu (t4)\n   y = Add (z, b)")
    assert save_binary(edited, str(path), opened=view).written
    model = onnxtext.load(path)
    assert {t.name: hashlib.sha256(t.raw_data).digest() for t in model.graph.initializer if t.name != "b"} == digests
    assert [n.op_type for n in model.graph.node][-2:] == ["Relu", "Add"]


def test_only_the_digest_records_own_diagnostics_are_expected(tmp_path: Path) -> None:
    from onnxtext.analysis.diagnose import diagnose
    from onnxtext.binary import digest_view_diagnostics
    from onnxtext.document import parse_document

    path = tmp_path / "m.onnx"
    _model(path, [20_000, 20_000])
    view = open_binary(str(path), text_limit=LIMIT)
    assert (
        digest_view_diagnostics(diagnose(parse_document(view.text, "model", str(path)), model_dir=str(tmp_path))) == []
    )
    broken = view.text.replace("float[1] b = {0.5}", "float[1] b = {0.5, oops}")
    result = save_binary(broken, str(path), opened=view)
    assert not result.written and {(d.code, d.span.start.line) for d in result.diagnostics if d.span} == {
        ("L002", _line_of(broken, "oops"))
    }


@pytest.mark.asyncio
async def test_the_server_opens_by_reference_and_saves_twice(client, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    from lsprotocol import types as L

    path = tmp_path / "big.onnx"
    weights = _model(path, [400_000, 400_000])  # 3.2 MB: its whole text would be above 12 MB
    opened = await client.protocol.send_request_async("onnxtext/openBinary", {"uri": path.as_uri()})
    assert opened.editable is True and "by reference" in opened.note and opened.text.count("sha256:") == 2
    uri = "onnx-model:" + str(path)
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, opened.text)))

    async def published() -> list[L.Diagnostic]:
        while True:
            await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if uri in client.diagnostics:
                return client.diagnostics[uri]

    diags = await asyncio.wait_for(published(), timeout=60)
    assert [d for d in diags if d.severity == L.DiagnosticSeverity.Error] == []  # the records are what the view is
    text = opened.text.replace("y = Add (t1, b)", "u = Relu (t1)\n   y = Add (u, b)")
    first = await client.protocol.send_request_async("onnxtext/saveBinary", {"uri": path.as_uri(), "text": text})
    assert first.written is True
    text = text.replace("u = Relu", "u = Sigmoid")
    second = await client.protocol.send_request_async("onnxtext/saveBinary", {"uri": path.as_uri(), "text": text})
    assert second.written is True and [n.op_type for n in onnxtext.load(path).graph.node] == [
        "Add",
        "Add",
        "Sigmoid",
        "Add",
    ]
    assert {k: v for k, v in _raw(path).items() if k != "b"} == weights
    refused = await client.protocol.send_request_async(
        "onnxtext/saveBinary", {"uri": path.as_uri(), "text": text.replace("float[400000] w1", "float[400001] w1")}
    )
    assert refused.written is False and [(d.code, d.range.start.line + 1) for d in refused.diagnostics] == [
        (HELD_EDITED, _line_of(text, "w1 = ["))
    ]


def test_equal_bytes_of_different_shapes_are_each_held(tmp_path: Path) -> None:
    # zeros of the same size and different shapes have one digest: both restore, a third shape is refused
    model = onnxtext.parse_model(
        HEADER + "g (float[2, 4096] x) => (float[2, 4096] y, float[8192] z) { y = Add (x, a)\n z = Identity (b) }"
    )
    for name, dims in (("a", [2, 4096]), ("b", [8192])):
        t = model.graph.initializer.add()
        t.name, t.data_type = name, TensorProto.FLOAT
        t.dims.extend(dims)
        t.raw_data = bytes(4 * 8192)
    path = tmp_path / "zeros.onnx"
    path.write_bytes(model_bytes(model))
    view = open_binary(str(path), text_limit=20_000)
    assert view.held is not None and len(view.held) == 2 and len(view.held.by_digest) == 1
    assert save_binary(view.text.replace("Identity (b)", "Neg (b)"), str(path), opened=view).written
    back = {t.name: (list(t.dims), t.raw_data) for t in onnxtext.load(path).graph.initializer}
    assert back == {"a": ([2, 4096], bytes(4 * 8192)), "b": ([8192], bytes(4 * 8192))}
    again = open_binary(str(path), text_limit=20_000)
    wrong = again.text.replace("float[8192] b", "float[4, 2048] b")
    (problem,) = save_binary(wrong, str(path), opened=again).diagnostics
    assert (
        problem.code == HELD_EDITED
        and "must stay float[2,4096] or float[8192] (the text says float[4,2048])" in problem.message
    )
    assert problem.span is not None and problem.span.start.line == _line_of(wrong, "float[4, 2048] b")


def test_a_quick_look_at_a_typed_version_sees_every_held_tensor(tmp_path: Path) -> None:
    from onnxtext.binary import reference_view_diagnostics
    from onnxtext.document import parse_document

    path = tmp_path / "m.onnx"
    _model(path, [20_000, 30_000])
    view = open_binary(str(path), text_limit=LIMIT)
    assert view.held is not None and view.held.initializers_only  # weights: the quick look reads only those
    edited = view.text.replace('w1 = ["digest"', 'w1 = ["Digest"')
    doc = parse_document(edited, "model", str(path))
    for quick in (True, False):
        found = reference_view_diagnostics(doc, view.held, list(doc.diagnostics), quick=quick)
        assert [(d.code, d.span.start.line) for d in found if d.span] == [(HELD_EDITED, _line_of(edited, "w1 = ["))]
    # a large tensor of a node's attribute: the quick look reads every tensor
    model = onnxtext.parse_model(HEADER + "g () => (float[20000] y) {\n   y = Constant <value = float[1] {0}> ()\n}\n")
    value = model.graph.node[0].attribute[0].t
    value.dims[0] = 20_000
    value.ClearField("float_data")
    value.raw_data = _weights(np.random.default_rng(1), 20_000)
    path.write_bytes(model_bytes(model))
    view = open_binary(str(path), text_limit=20_000)
    assert view.held is not None and len(view.held) == 1 and not view.held.initializers_only
    edited = view.text.replace('["digest"', '["Digest"')
    doc = parse_document(edited, "model", str(path))
    found = reference_view_diagnostics(doc, view.held, list(doc.diagnostics), quick=True)
    assert [(d.code, d.span.start.line) for d in found if d.span] == [(HELD_EDITED, _line_of(edited, '["Digest"'))]


def test_undoing_a_deletion_beyond_what_a_save_keeps_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import onnxtext.weights.byref as byref

    path = tmp_path / "m.onnx"
    _model(path, [20_000, 30_000])
    view = open_binary(str(path), text_limit=LIMIT)
    line = next(x for x in view.text.splitlines(keepends=True) if "] w0 = [" in x)
    monkeypatch.setattr(byref, "UNDO_BUDGET", 4 * 20_000 - 1)  # w0's bytes are not kept
    saved = save_binary(view.text.replace(line, ""), str(path), opened=view)
    assert saved.written and saved.view is not None
    undone = save_binary(view.text, str(path), opened=saved.view)
    assert not undone.written
    (problem,) = undone.diagnostics
    assert problem.code == HELD_EDITED and "digest was edited" not in problem.message
    assert "an earlier save left it out of the model file: its weights are no longer there" in problem.message
    assert problem.span is not None and problem.span.start.line == _line_of(view.text, "] w0 = [")
