"""``onnxtext graph MODEL -o OUT``: DOT parses as a digraph, SVG as XML (laid out, nothing
overlapping), HTML is one offline page holding the editor's view and the graph."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

import onnxtext
from onnxtext.api import save
from onnxtext.cli import app as cli
from onnxtext.document import parse_document
from onnxtext.ide.graph import graph_json, graph_model
from onnxtext.ide.graph_export import to_dot
from onnxtext.ide.graph_layout import layout_view
from onnxtext.ide.graph_view import build_view, label_text, render_svg

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*.onnxtxt"))
SVG = "{http://www.w3.org/2000/svg}"


def _graph(text: str) -> dict:
    doc = parse_document(text)
    return graph_json(graph_model(doc), doc.source)


def _write(model: Path, out: Path) -> int:
    return cli.main(["graph", str(model), "-o", str(out)])


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_dot_parses_as_the_same_digraph(path: Path, tmp_path: Path) -> None:
    pydot = pytest.importorskip("pydot")
    out = tmp_path / "g.dot"
    assert _write(path, out) == 0
    graph = _graph(path.read_text())
    (parsed,) = pydot.graph_from_dot_data(out.read_text())
    assert parsed.get_type() == "digraph"

    def nodes(g: object) -> list[str]:
        found = [n.get_name().strip('"') for n in g.get_nodes() if n.get_name() not in ("node", "edge", "graph")]  # type: ignore[attr-defined]
        for sub in g.get_subgraphs():  # type: ignore[attr-defined]
            found += nodes(sub)
        return found

    assert sorted(nodes(parsed)) == sorted(n["id"].replace("\\", "\\\\") for n in graph["nodes"])
    edges = {(e.get_source().strip('"'), e.get_destination().strip('"')) for e in parsed.get_edges()}
    assert edges == {(e["source"], e["target"]) for e in graph["edges"]}
    clusters = re.findall(r'subgraph "cluster_([^"]+)"', out.read_text())
    assert sorted(clusters) == sorted(g["id"] for g in graph["groups"])


def test_dot_quotes_what_it_must() -> None:
    text = to_dot(
        {
            "nodes": [
                {
                    "id": 'a"b\\c',
                    "kind": "input",
                    "label": 'a"b',
                    "op": "",
                    "domain": "",
                    "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
                    "group": None,
                    "calls": None,
                    "severity": None,
                }
            ],
            "edges": [],
            "groups": [],
        }
    )
    assert '"a\\"b\\\\c"' in text


def _boxes(root: ET.Element) -> list[tuple[float, float, float, float, str]]:
    """Every node and folded group: (x, y, width, height, id)."""
    out = []
    for g in root.iter(f"{SVG}g"):
        ident = g.get("data-id") or (g.get("data-group") if "folded" in (g.get("class") or "") else None)
        if ident is None:
            continue
        x, y = map(float, re.match(r"translate\(([-\d.]+),([-\d.]+)\)", g.get("transform", "")).groups())  # type: ignore[union-attr]
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        out.append((x, y, float(rect.get("width", 0)), float(rect.get("height", 0)), ident))
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_svg_is_xml_laid_out_without_overlaps(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "g.svg"
    assert _write(path, out) == 0
    root = ET.fromstring(out.read_text())
    assert root.tag == f"{SVG}svg"
    graph = _graph(path.read_text())
    boxes = _boxes(root)
    assert sorted(b[4] for b in boxes) == sorted(n["id"] for n in graph["nodes"])  # small: every group open
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
            assert apart, (a, b)
    assert len(root.findall(f".//{SVG}path")) == len({(e["source"], e["target"]) for e in graph["edges"]})


def test_producers_sit_above_their_consumers() -> None:
    graph = _graph((REPO / "examples" / "mlp.onnxtxt").read_text())
    view = build_view(graph, set())
    layout_view(view, label_text)
    for source, target, _ in view.edges:
        assert view.items[source].y + view.items[source].height <= view.items[target].y


def _scoped_text(nodes: int) -> str:
    lines = ['<ir_version: 10, opset_import: ["": 21]>', "g (float[2] x0) => (float[2] y) {"]
    for i in range(nodes):
        lines.append(f'   ["/block{i * 4 // nodes}/layer{i % 3}/Relu_{i}"] x{i + 1} = Relu (x{i})')
    lines.append(f"   y = Identity (x{nodes})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def test_a_big_graph_is_drawn_folded_to_its_top_groups() -> None:
    graph = _graph(_scoped_text(600))
    root = ET.fromstring(render_svg(graph))
    folded = [g.get("data-group") for g in root.iter(f"{SVG}g") if "folded" in (g.get("class") or "")]
    assert sorted(folded) == [f"group:scope:/block{i}" for i in range(4)]
    assert len([g for g in root.iter(f"{SVG}g") if g.get("data-id")]) == 3  # x0, the Identity, y


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.csp = ""
        self._in: dict[str, str | None] | None = None
        self.bodies: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.loads += [
            f"{tag}[{k}]={v}" for k, v in attrs if k in ("src", "href", "action", "srcset", "poster", "data")
        ]
        if tag == "meta" and (found.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = found.get("content") or ""
        if tag == "script":
            self.scripts.append(found)
            self._in = found
            self.bodies.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self.bodies[-1] += data


def test_html_is_one_offline_page_with_the_view_and_the_graph(tmp_path: Path) -> None:
    import base64
    import hashlib

    model = tmp_path / "m.onnx"
    save(onnxtext.parse_model((REPO / "examples" / "attention.onnxtxt").read_text()), model)
    out = tmp_path / "g.html"
    assert _write(model, out) == 0  # a binary model: through its text
    page = _Page()
    page.feed(out.read_text())
    assert page.loads == []  # nothing to fetch: no src, href...
    assert "default-src 'none'" in page.csp
    data_script, view_script = page.scripts
    assert data_script.get("type") == "application/json"
    graph = json.loads(page.bodies[0])
    assert {n["op"] for n in graph["nodes"] if n["kind"] == "op"} >= {"MatMul", "Softmax"}
    digest = base64.b64encode(hashlib.sha256(page.bodies[1].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in page.csp  # the view's script runs, nothing else does
    assert (REPO / "src/onnxtext/ide/assets/graphview.js").read_text() == page.bodies[1]


def test_html_data_cannot_close_its_script(tmp_path: Path) -> None:
    text = (
        '<ir_version: 10, opset_import: ["": 21]>\ng (float[2] "</script><b>") => (float[2] y) {\n'
        '   y = Relu ("</script><b>")\n}\n'
    )
    src = tmp_path / "m.onnxtxt"
    src.write_text(text)
    out = tmp_path / "g.html"
    assert _write(src, out) == 0
    html = out.read_text()
    assert html.count("</script>") == 2


def test_a_broken_text_still_gives_a_graph(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "m.onnxtxt"
    src.write_text(
        '<ir_version: 10, opset_import: ["": 21]>\ng (float[2] x) => (float[2] y) {\n   h = Relu (x\n'
        "   y = Neg (h)\n}\n"
    )
    out = tmp_path / "g.dot"
    assert _write(src, out) == 1
    assert re.search(r"m\.onnxtxt:3:\d+: error\[P\d+\]", capsys.readouterr().err)
    assert '"y" [label="Neg' in out.read_text()


def test_an_unknown_format_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        _write(REPO / "examples" / "mlp.onnxtxt", tmp_path / "g.png")
    assert stop.value.code == 2
    assert "name it .dot, .svg or .html" in capsys.readouterr().err


def test_the_packaged_view_is_the_extensions() -> None:
    """The Python package's copies of the view: `node esbuild.mjs --python-assets` in editors/vscode makes them."""
    assets = REPO / "src" / "onnxtext" / "ide" / "assets"
    assert (assets / "graph.css").read_text() == (REPO / "editors" / "vscode" / "media" / "graph.css").read_text()
    built = REPO / "editors" / "vscode" / "dist" / "graphview.js"
    if not built.exists():
        pytest.skip("the extension is not built (npm run build in editors/vscode)")
    assert (assets / "graphview.js").read_bytes() == built.read_bytes()


def _without_ranges(graph: dict) -> dict:
    def bare(item: dict) -> dict:
        out = {k: v for k, v in item.items() if k != "range"}
        if "rows" in out:
            out["rows"] = [bare(r) for r in out["rows"]]
        return out

    return {key: [bare(item) for item in graph[key]] for key in graph if key != "properties"}


def test_a_binary_model_is_graphed_without_its_weight_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``onnxtext graph`` reads a model's weights by reference, as the editor shows a big model:
    the graph of the whole text's structure and diagnostics, from a text without a weight's numbers
    (resnet18's 45 MB printed took 12 s and 800 MB)."""
    import numpy as np

    import onnxtext.document
    from onnxtext.printing.text import to_text
    from onnxtext.proto import TensorProto

    model = onnxtext.parse_model(
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[1000] x, bool c) => (float[1000] y) {\n'
        "   h = Add (x, w0)\n   k = Relu <alpha = 1.0> (h)\n   z = If (c) <then_branch = t () => (float[1000] a) {\n"
        "      a = Add (k, w1)\n   }, else_branch = e () => (float[1000] b) {\n      b = Identity (k)\n   }>\n"
        "   y = Mul (z, b0)\n}\n"
    )
    rng = np.random.default_rng(0)
    for name, size in (("w0", 1000), ("w1", 1000), ("b0", 1)):
        t = model.graph.initializer.add(name=name, data_type=TensorProto.FLOAT, dims=[size])
        t.raw_data = rng.standard_normal(size).astype(np.float32).tobytes()
    model.graph.initializer[1].dims[:] = [2, 500]  # a real problem in a weight: its shape is not its use's
    path = tmp_path / "m.onnx"
    save(model, path)
    whole = parse_document(to_text(onnxtext.load(path)))
    expected = graph_json(graph_model(whole, diagnostics=onnxtext.diagnose(whole), places=True), whole.source)
    parsed: list[str] = []
    parse = onnxtext.document.parse_document

    def spy(text: str, *args: object, **kwargs: object) -> object:
        parsed.append(text)
        return parse(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(onnxtext.document, "parse_document", spy)
    out = tmp_path / "g.html"
    assert _write(path, out) == 0
    (text,) = parsed
    assert text.count('["digest": "sha256:') == 2 and len(text) < len(whole.source.text) / 4  # no numbers
    page = _Page()
    page.feed(out.read_text())
    graph = json.loads(page.bodies[0])
    assert _without_ranges(graph) == _without_ranges(expected)
    # the unknown attribute, and the shape of w1 (what reads a weight by reference is typed): not the references
    marked = {n["id"]: n["severity"] for n in graph["nodes"] if n["severity"]}
    assert marked == {"k": "error", "z/then_branch/a": "error"}
    assert "digest" not in capsys.readouterr().err  # nothing said about the references


def test_the_page_names_each_node_by_its_place_in_the_model(tmp_path: Path) -> None:
    """A node picked in the offline page is named by its place in the model (its status line
    said "line 3764900" of a text its reader never sees): the view shows ``place`` (placeOf in
    graphview/model.ts), the DOT file's tooltips too; the editor's graph has no places."""
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
        "main (float[2] x, bool c) => (float[2] y)\n  <float[2] w = {1, 2}>\n{\n"
        '   ["conv1"] h = Add (x, w)\n   k = local.F (h)\n'
        "   y = If (c) <then_branch = t () => (float[2] a) {\n      a = Neg (k)\n"
        "   }, else_branch = e () => (float[2] b) {\n      b = Abs (k)\n   }>\n}\n"
        '<domain: "local", opset_import: ["" : 21]>\nF (u) => (v) {\n   v = Relu (u)\n}\n'
    )
    model = tmp_path / "m.onnx"
    save(onnxtext.parse_model(text), model)
    out = tmp_path / "g.html"
    assert _write(model, out) == 0
    page = _Page()
    page.feed(out.read_text())
    places = {n["id"]: n["place"] for n in json.loads(page.bodies[0])["nodes"]}
    assert places == {
        "x": "input 'x', graph 'main', input #0",
        "c": "input 'c', graph 'main', input #1",
        "h": "node 'conv1' (Add), graph 'main', node #0",
        "k": "node (local.F), graph 'main', node #1",
        "y": "node (If), graph 'main', node #2",
        "y/then_branch/a": "node (Neg), graph 't' at graph/node[2]/attribute[0]/g, node #0",
        "y/then_branch/output:a": "output 'a', graph 't' at graph/node[2]/attribute[0]/g, output #0",
        "y/else_branch/b": "node (Abs), graph 'e' at graph/node[2]/attribute[1]/g, node #0",
        "y/else_branch/output:b": "output 'b', graph 'e' at graph/node[2]/attribute[1]/g, output #0",
        "output:y": "output 'y', graph 'main', output #0",
        "function:local.F/u": "input 'u', function 'local.F'",
        "function:local.F/v": "node (Relu), function 'local.F', node #0",
        "function:local.F/output:v": "output 'v', function 'local.F'",
    }
    (row,) = next(n for n in json.loads(page.bodies[0])["nodes"] if n["id"] == "h")["rows"]
    assert (row["value"], row["param"], row["data"]) == ("w", "B", "[1.0, 2.0]")  # the weight inside its reader
    assert re.search(r"\.place\b", page.bodies[1])  # the view reads it (placeOf, minified)
    dot = tmp_path / "g.dot"
    assert _write(model, dot) == 0
    assert "tooltip=\"node 'conv1' (Add), graph 'main', node #0\"" in dot.read_text()
    assert all("place" not in n for n in _graph(text)["nodes"])  # the editor reveals the statement instead
