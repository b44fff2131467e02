"""Attribute values nobody expects never crash a stage: each int/ints/float attribute of every
node of the ONNX backend suite set, one at a time, to 0, -1, 2**40, [] or NaN gives
diagnostics, never an exception, in the checker (with inference), in the editor's path
(text → Document → checker, as the server diagnoses) and in the evaluator (a located
``EvaluationError`` at most).

The checker sees every mutant; the editor path and the evaluator see one mutant per
(operator, attribute, value) — the first case that has it — which keeps the sweep near
two minutes on two cores.
"""

from __future__ import annotations

import math
import traceback
import warnings
import zlib
from collections.abc import Iterator

import numpy as np
import pytest
from evaluate.backend_cases import case_names, feeds_for, load_case

from onnxtext.analysis.check import check_proto
from onnxtext.evaluate import EvaluationError, Evaluator
from onnxtext.host.analyse import Settings, diagnose
from onnxtext.printing.text import NotRepresentable, to_text
from onnxtext.proto import AttributeProto, ModelProto

pytestmark = pytest.mark.slow

SHARDS = 8
VALUES: dict[int, list[object]] = {
    AttributeProto.INT: [0, -1, 2**40],
    AttributeProto.INTS: [[]],
    AttributeProto.FLOAT: [math.nan],
}


def mutants(model: ModelProto) -> Iterator[tuple[tuple[str, str, str], ModelProto]]:
    """(operator, attribute, value) and the model with that one attribute changed."""
    for ni, node in enumerate(model.graph.node):
        for ai, attr in enumerate(node.attribute):
            for value in VALUES.get(attr.type, []):
                m = ModelProto()
                m.CopyFrom(model)
                target = m.graph.node[ni].attribute[ai]
                if isinstance(value, list):
                    del target.ints[:]
                elif isinstance(value, float):
                    target.f = value
                else:
                    target.i = value
                yield (node.op_type, attr.name, repr(value)), m


def _crash(stage: str, case: str, key: tuple[str, str, str]) -> str:
    return f"{stage} {case} {'.'.join(key[:2])}={key[2]}: {traceback.format_exc(limit=-3)}"


@pytest.mark.parametrize("shard", range(SHARDS))
def test_attribute_sweep_never_crashes(shard: int) -> None:
    try:
        names = case_names()
    except ImportError:
        pytest.skip("onnx is not installed")
    seen: set[tuple[str, str, str]] = set()
    count, crashes = 0, []
    for name in names:
        model_bytes, sets, _, _, onnx_model = load_case(name)
        base = ModelProto()
        base.ParseFromString(model_bytes)
        for key, m in mutants(base):
            first = key not in seen
            seen.add(key)
            if zlib.crc32(repr(key).encode()) % SHARDS != shard:
                continue
            count += 1
            try:
                check_proto(m)
            except Exception:  # noqa: BLE001  (the test reports whatever escapes)
                crashes.append(_crash("check", name, key))
            if not first:
                continue
            try:
                diagnose(to_text(m), "sweep.onnxtxt", Settings())
            except NotRepresentable:
                pass
            except Exception:  # noqa: BLE001
                crashes.append(_crash("document", name, key))
            try:
                evaluator = Evaluator(m, max_memory=1 << 30)
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    for inputs, _ in sets[:1]:
                        evaluator.run(None, feeds_for(onnx_model, inputs))
            except EvaluationError:
                pass
            except Exception:  # noqa: BLE001
                crashes.append(_crash("run", name, key))
    print(f"shard {shard}: {count} mutants, {len(crashes)} crashes")
    assert count > 0
    assert crashes == [], "\n".join(crashes[:5])
