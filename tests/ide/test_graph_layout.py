"""``ide/graph_layout.py``: the same positions as the editor's ``layout.ts`` (both held to
``editors/vscode/test/fixtures/layout/expected/layout.json``, which ``python
bench/bench_layout.py --fixtures`` rewrites), and edge labels that cover neither each other nor a
box, inside the picture, on small real exports and the examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from onnxtext.ide.graph_layout import layout_view
from onnxtext.ide.graph_view import build_view, label_text

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "editors" / "vscode" / "test" / "fixtures" / "layout"
GRAPHS = sorted(FIXTURES.glob("*.json"))
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "expected" / "layout.json").read_text())


def test_every_fixture_has_its_expected_layout() -> None:
    assert sorted(p.stem for p in GRAPHS) == sorted(EXPECTED)
    assert len(GRAPHS) >= 5


@pytest.mark.parametrize("path", GRAPHS, ids=lambda p: p.stem)
def test_the_layout_is_the_editors(path: Path) -> None:
    graph = json.loads(path.read_text())
    view = build_view(graph, {g["id"] for g in graph["groups"]})
    routes = layout_view(view, label_text)
    expected = EXPECTED[path.stem]
    assert sorted(view.items) == sorted(expected["items"])
    for id_, item in view.items.items():
        assert [item.x, item.y, item.width, item.height] == pytest.approx(expected["items"][id_], abs=1e-6), id_
    assert [r.points for r in routes] == [pytest.approx(p, abs=1e-6) for p in expected["routes"]]
    labels = [None if r.label is None else [r.label.x, r.label.y, r.label.w, r.label.h] for r in routes]
    assert labels == [None if b is None else pytest.approx(b, abs=1e-6) for b in expected["labels"]]


def _meet(a: list[float], b: list[float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("flat", [False, True], ids=["open", "flat"])
@pytest.mark.parametrize("path", GRAPHS, ids=lambda p: p.stem)
def test_labels_cover_no_label_and_no_box(path: Path, flat: bool) -> None:
    graph = json.loads(path.read_text())
    if flat:
        graph = {**graph, "groups": []}
    view = build_view(graph, {g["id"] for g in graph["groups"]})
    routes = layout_view(view, label_text)
    boxes = [[i.x, i.y, i.width, i.height] for i in view.items.values() if i is not view.root and not i.open]
    labels = [[r.label.x, r.label.y, r.label.w, r.label.h] for r in routes if r.label is not None]
    assert labels
    for k, label in enumerate(labels):
        assert not any(_meet(label, other) for other in labels[k + 1 :]), label
        assert not any(_meet(label, box) for box in boxes), label
    for x, y, w, h in labels + boxes:
        assert x >= 0 and y >= 0 and x + w <= view.root.width + 1e-9 and y + h <= view.root.height + 1e-9
