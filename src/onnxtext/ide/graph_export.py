"""``onnxtext graph MODEL -o OUT``: the graph of a model as Graphviz DOT, a laid-out SVG, or a
standalone offline HTML page holding the editor's own graph view (``assets/graphview.js``,
built from ``editors/vscode/src/graphview``) with the graph embedded.

Optional fields of the graph are for ``onnxtext diff -o`` and ``onnxtext compare -o``: a node's
``mark`` (``added``, ``removed`` or ``changed``: its colours,
:data:`~onnxtext.ide.graph_view.MARK_COLOURS`, the unmarked nodes dimmed), an edge's ``mark``
(``differs``: drawn in red) and the graph's ``open`` (the groups an SVG draws open, the others
folded)."""

from __future__ import annotations

import base64
import hashlib
import json
from importlib import resources
from typing import Any

from onnxtext.ide.graph_view import (
    MARK_COLOURS,
    category,
    edge_label,
    mark_stylesheet,
    render_svg,
    row_text,
    shown_rows,
)

__all__ = ["FORMATS", "to_dot", "to_html", "to_svg", "export"]

# the fill of each operator category, as media/graph.css paints them
_FILL = {
    "input": "#d8ecd8",
    "output": "#f4dcc4",
    "initializer": "#efefe0",
    "damaged": "#f8d0d0",
    "conv": "#9ec5ee",
    "matmul": "#b7b0ee",
    "activation": "#f3c98b",
    "norm": "#a9dcc0",
    "math": "#dcdcdc",
    "shape": "#c9d7c0",
    "reduce": "#e9b7c8",
    "quant": "#e1d28a",
    "constant": "#f2f2f2",
    "control": "#f0a8a8",
    "function": "#d7c2ef",
    "other": "#e6e6e6",
}
_SEVERITY = {"error": "#d32f2f", "warning": "#f9a825", "info": "#1976d2", "hint": "#1976d2"}


def _q(text: str) -> str:
    """A DOT quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(graph: dict[str, Any], name: str = "model") -> str:
    """Graphviz DOT: every node and edge, groups as nested clusters."""
    children: dict[str | None, list[dict[str, Any]]] = {}
    groups = {g["id"]: g for g in graph["groups"]}
    for g in graph["groups"]:
        children.setdefault(g["parent"] if g["parent"] in groups else None, []).append(g)
    members: dict[str | None, list[dict[str, Any]]] = {}
    for n in graph["nodes"]:
        members.setdefault(n["group"] if n["group"] in groups else None, []).append(n)
    lines = [
        f"digraph {_q(name)} {{",
        "  rankdir=TB;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11];',
        '  edge [fontname="Helvetica", fontsize=9, color="#8a8a8a"];',
    ]

    def body(group: str | None, indent: str) -> None:
        for n in members.get(group, []):
            label = (
                f"{n['op']}\n{n['label']}" if n["kind"] == "op" and n["label"] != n["op"] else (n["op"] or n["label"])
            )
            # the attribute line and the weights drawn inside the node, as the view draws them
            rows, more = shown_rows(n)
            parts = [label, *([n["attrs"]] if n.get("attrs") else []), *map(row_text, rows)]
            label = "\n".join([*parts, *([f"+{more} more"] if more else [])])
            extra = f", color={_q(_SEVERITY[n['severity']])}, penwidth=2" if n["severity"] in _SEVERITY else ""
            fill = _FILL[category(n)]
            if n.get("mark") in MARK_COLOURS:
                fill, stroke = MARK_COLOURS[n["mark"]]
                extra += f", color={_q(stroke)}, penwidth=3"
            shape = ", shape=ellipse" if n["kind"] in ("input", "output") else ""
            line = n["range"]["start"]["line"] + 1
            lines.append(
                f"{indent}{_q(n['id'])} [label={_q(label)}, fillcolor={_q(fill)}, "
                f"tooltip={_q(n.get('place') or f'line {line}')}{shape}{extra}];"
            )
        for g in children.get(group, []):
            lines.append(f"{indent}subgraph {_q('cluster_' + g['id'])} {{")
            lines.append(f"{indent}  label={_q(g['label'])}; style=dashed;")
            body(g["id"], indent + "  ")
            lines.append(f"{indent}}}")

    body(None, "  ")
    for e in graph["edges"]:
        extra = f", color={_q(MARK_COLOURS['removed'][1])}, penwidth=2.5" if e.get("mark") == "differs" else ""
        lines.append(f"  {_q(e['source'])} -> {_q(e['target'])} [label={_q(edge_label([e]))}{extra}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_svg(graph: dict[str, Any]) -> str:
    opened = graph.get("open")
    return render_svg(graph, set(opened) if isinstance(opened, list) else None)


def to_html(graph: dict[str, Any], title: str = "model") -> str:
    """One offline page: the view's script inline (allowed by its hash alone), the graph as JSON data."""
    script = resources.files("onnxtext.ide").joinpath("assets/graphview.js").read_text("utf-8")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    data = json.dumps(graph, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    csp = f"default-src 'none'; script-src 'sha256-{digest}'; img-src data: blob:"
    marks = mark_stylesheet(graph, selector="id")
    style = ""
    if marks:  # allowed by its hash alone, as the script
        style_digest = base64.b64encode(hashlib.sha256(marks.encode("utf-8")).digest()).decode("ascii")
        csp += f"; style-src 'sha256-{style_digest}'"
        style = f"<style>{marks}</style>\n"
    safe_title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1.0">\n'
        f"<title>{safe_title} (onnxtext graph)</title>\n{style}</head>\n<body>\n"
        f'<script id="graph-data" type="application/json">{data}</script>\n'
        f"<script>{script}</script>\n</body>\n</html>\n"
    )


FORMATS = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".html": "html", ".htm": "html"}


def export(graph: dict[str, Any], fmt: str, title: str = "model") -> str:
    """The graph in ``fmt`` (``dot``, ``svg`` or ``html``)."""
    if fmt == "dot":
        return to_dot(graph, title)
    if fmt == "svg":
        return to_svg(graph)
    if fmt == "html":
        return to_html(graph, title)
    raise ValueError(f"unknown graph format {fmt!r}")
