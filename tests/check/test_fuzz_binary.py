"""The checker never raises on a binary the protobuf library accepts: mutated backend models
(bit flips, inserted and deleted bytes) give diagnostics, never an exception."""

from __future__ import annotations

import random
import traceback

import pytest
from corpus.backend import all_model_paths
from test_fuzz_cli import accepted_mutations

from onnxtext.analysis.check import check_proto
from onnxtext.proto import ModelProto

MUTATIONS = 6000


@pytest.mark.slow
def test_mutated_backend_models_never_crash_the_checker() -> None:
    paths = all_model_paths()
    if not paths:
        pytest.skip("no backend models")
    rng = random.Random(7)
    seeds = [p.read_bytes() for p in paths[::5]]
    accepted, crashes = 0, []
    for model in accepted_mutations(seeds, MUTATIONS, rng):
        accepted += 1
        try:
            check_proto(model)
        except Exception:  # noqa: BLE001  (the test reports whatever escapes)
            crashes.append(traceback.format_exc()[-600:])
    print(f"{accepted} of {MUTATIONS} mutations accepted by protobuf, {len(crashes)} crashed the checker")
    assert accepted > MUTATIONS // 10
    assert crashes == [], crashes[:2]


def test_e106_names_that_are_not_utf8() -> None:
    from onnxtext import parse_model

    text = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) { y = Relu(x) }\n'
    model = ModelProto()
    model.ParseFromString(parse_model(text).SerializeToString().replace(b"Relu", b"R\xffeu"))
    diags = check_proto(model)
    e106 = [d for d in diags if d.code == "E106"]
    assert len(e106) == 1 and "'op_type' holds bytes that are not UTF-8" in e106[0].message
    assert e106[0].path and e106[0].path.startswith("graph/node[0]")
    assert any(d.code == "E301" and "R\ufffdeu" in d.message for d in diags)  # the others still run


def test_undecodable_items_of_repeated_names() -> None:
    from onnxtext import parse_model
    from onnxtext.ir.text_fields import decode_text_fields, undecodable_text_fields

    text = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] qq, float[2] w) => (float[2] y) { y = Add(w, qq) }\n'
    model = ModelProto()
    model.ParseFromString(parse_model(text).SerializeToString().replace(b"qq", b"q\xff"))
    expected = ["graph/input[0]/name", "graph/node[0]/input[1]"]
    assert undecodable_text_fields(model) == expected
    assert decode_text_fields(model) == expected
    assert list(model.graph.node[0].input) == ["w", "q\ufffd"] and undecodable_text_fields(model) == []
