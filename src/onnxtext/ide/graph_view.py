"""A drawn graph without a browser: folding and the SVG of ``onnxtext graph -o x.svg``.

The same as the editor's view (``editors/vscode/src/graphview/model.ts``, ``render.ts``;
the layout is ``ide/graph_layout.py``, as ``layout.ts``) with the same stylesheet
(``ide/assets/graph.css``, the extension's ``media/graph.css``), so a standalone SVG looks
as the view did.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape as _escape
from importlib import resources
from typing import Any

from onnxtext.ide.graph import FOLD_ABOVE
from onnxtext.ide.graph_layout import EdgeRoute, layout_view

__all__ = [
    "FOLD_ABOVE",
    "MARK_COLOURS",
    "Item",
    "View",
    "build_view",
    "render_svg",
    "default_open",
    "stylesheet",
    "mark_stylesheet",
    "node_size",
    "row_text",
    "shape_text",
    "shown_rows",
    "MOST_ROWS",
]

MARK_COLOURS = {"added": ("#c8e6c9", "#2e7d32"), "removed": ("#ffcdd2", "#c62828"), "changed": ("#ffe0b2", "#ef8f00")}
"""Fill and stroke of a node whose dict carries ``mark`` (``onnxtext diff -o``: the node was
added, removed or changed); nodes without one are dimmed when any node has one."""


def _css_string(text: str) -> str:
    """``text`` as a CSS string (quotes, backslashes and line breaks escaped)."""
    return '"' + "".join(c if c not in '"\\\n\r' else f"\\{ord(c):x} " for c in text) + '"'


def mark_stylesheet(graph: dict[str, Any], selector: str = "class") -> str:
    """CSS for the ``mark`` of nodes (empty when no node or edge has one): by the ``mark-*``
    classes the SVG's nodes carry, or (``selector="id"``) by each marked node's ``data-id``, which
    the editor's view draws without knowing marks (the offline page); an edge whose ``mark`` is
    ``differs`` (``onnxtext compare -o``: its value differs between the models) is drawn in the
    removed colour, by the value names every drawn edge carries (``data-values``)."""
    marked = [n for n in graph["nodes"] if n.get("mark") in MARK_COLOURS]
    differs = sorted({e["value"] for e in graph["edges"] if e.get("mark") == "differs"})
    rules = [
        f".edge[data-values~={_css_string(v)}] {{ stroke: {MARK_COLOURS['removed'][1]}; stroke-width: 2.5px; }}"
        for v in differs
    ]
    if not marked:
        return "\n".join(rules) + "\n" if rules else ""
    rules.append(".node { opacity: 0.45; } .group.folded { opacity: 0.6; }")
    groups = {g["id"]: g for g in graph["groups"]}
    holding: set[str] = set()  # a folded group holding a marked node is outlined in the changed colour
    for n in marked:
        holding.update(_ancestors(groups, n["group"]))
    stroke = MARK_COLOURS["changed"][1]
    for gid in sorted(holding):
        key = _css_string(gid)
        rules.append(
            f".group.folded[data-group={key}] {{ opacity: 1; }} .group.folded[data-group={key}] > rect "
            f"{{ stroke: {stroke}; stroke-width: 2.5px; }}"
        )
    if selector == "class":
        for mark, (fill, stroke) in MARK_COLOURS.items():
            rules.append(
                f".node.mark-{mark} {{ opacity: 1; }} .node.mark-{mark} > rect "
                f"{{ fill: {fill}; stroke: {stroke}; stroke-width: 2.5px; }}"
            )
    else:
        for n in marked:
            fill, stroke = MARK_COLOURS[n["mark"]]
            key = _css_string(n["id"])
            rules.append(
                f".node[data-id={key}] {{ opacity: 1; }} .node[data-id={key}] > rect "
                f"{{ fill: {fill}; stroke: {stroke}; stroke-width: 2.5px; }}"
            )
    return "\n".join(rules) + "\n"


NODE_HEIGHT, VALUE_HEIGHT, GROUP_HEIGHT, LINE = 36, 26, 40, 14
MOST_ROWS = 8
"""Rows a node draws at most (past them a line says how many more), as ``MOST_ROWS`` in ``model.ts``."""
_CHAR = 7

_CATEGORIES: list[tuple[str, Any]] = []


def _category_table() -> list[tuple[str, Any]]:
    import re

    if not _CATEGORIES:
        words = {
            "control": r"^(If|Loop|Scan|SequenceMap)$",
            "conv": r"^(Conv|ConvTranspose|ConvInteger|QLinearConv|DeformConv|.*Pool|Col2Im|Im2Col)$",
            "matmul": r"^(MatMul|Gemm|MatMulInteger|QLinearMatMul|Einsum|Attention|MultiHeadAttention|FusedMatMul)$",
            "norm": r"Normalization$|^(LRN|LpNormalization|MeanVarianceNormalization|SkipLayerNormalization)$",
            "activation": r"^(Relu|LeakyRelu|PRelu|Sigmoid|HardSigmoid|Tanh|Gelu|FastGelu|Elu|Selu|Celu|"
            r"Softplus|Softsign|Softmax|LogSoftmax|Hardmax|HardSwish|Mish|ThresholdedRelu|Swish|QuickGelu)$",
            "reduce": r"^(Reduce.*|ArgMax|ArgMin|TopK|CumSum|CumProd)$",
            "quant": r"Quantize",
            "constant": r"^(Constant|ConstantOfShape|EyeLike|Range|RandomNormal|RandomUniform|RandomNormalLike|"
            r"RandomUniformLike|Multinomial|Bernoulli)$",
            "shape": r"^(Reshape|Transpose|Shape|Size|Gather|GatherElements|GatherND|Scatter|ScatterElements|ScatterND|"
            r"Concat|Split|SplitToSequence|Slice|Squeeze|Unsqueeze|Flatten|Expand|Tile|Pad|Cast|CastLike|"
            r"Identity|DepthToSpace|SpaceToDepth|Resize|Upsample|Trilu|Compress|NonZero|Where|OneHot)$",
            "math": r"^(Add|Sub|Mul|Div|Pow|Sqrt|Exp|Log|Neg|Abs|Reciprocal|Floor|Ceil|Round|Sign|Min|Max|Mean|Sum|"
            r"Mod|Erf|Sin|Cos|Tan|Asin|Acos|Atan|Sinh|Cosh|Asinh|Acosh|Atanh|Clip|Equal|Less|LessOrEqual|"
            r"Greater|GreaterOrEqual|And|Or|Xor|Not|IsNaN|IsInf|BitShift|Bitwise.*|Det)$",
        }
        _CATEGORIES.extend((name, re.compile(pattern)) for name, pattern in words.items())
    return _CATEGORIES


def category(node: dict[str, Any]) -> str:
    """The operator's category (its colour): as ``category`` in ``model.ts``."""
    if node["kind"] != "op":
        return str(node["kind"])
    for name, pattern in _category_table():
        if pattern.search(node["op"]):
            return name
    return "function" if node.get("calls") else "other"


def text_width(text: str, least: int) -> int:
    return max(least, min(len(text), 48) * _CHAR + 20)


def shape_text(type_: str) -> str:
    """``⟨64×3×7×7⟩`` for ``float[64, 3, 7, 7]`` (as ``shapeText`` in ``model.ts``)."""
    if not type_.endswith("]") or "[" not in type_:
        return ""
    dims = [d.strip() for d in type_[type_.rindex("[") + 1 : -1].split(",") if d.strip()]
    return "⟨" + "×".join(dims) + "⟩"


def row_text(row: dict[str, Any]) -> str:
    """``W ⟨64×3×7×7⟩``, ``axes = [0]``, ``B ⇄ fc.bias ⟨16⟩`` (as ``rowText`` in ``model.ts``)."""
    name = row["param"] or row["value"]
    shared = f" ⇄ {row.get('origin') or row['value']}" if row["shared"] else ""
    what = f" = {row['data']}" if row.get("data") else f" {shape_text(row['type']) or row['type']}"
    return f"{name}{shared}{what}".strip()


def node_size(node: dict[str, Any]) -> tuple[int, int]:
    """A node's box: its operator, name, attribute line and rows (as ``nodeSize`` in ``model.ts``)."""
    is_op = node["kind"] == "op"
    top = node["op"] if is_op else node["label"]
    wide = node["label"] if is_op and node["label"] != node["op"] and len(node["label"]) > len(top) else top
    width = text_width(wide, 70 if is_op else 50)
    height = NODE_HEIGHT if node["kind"] in ("op", "damaged") else VALUE_HEIGHT
    if node.get("attrs"):
        width = max(width, text_width(node["attrs"], 0))
        height += LINE
    rows, more = shown_rows(node)
    for row in rows:
        width = max(width, text_width(row_text(row), 0))
        height += LINE
    height += LINE if more else 0
    return width, height + 4 if rows else height


def shown_rows(node: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """The rows a node draws and how many it leaves to a line "+N more" (as ``shownRows`` in ``model.ts``)."""
    rows = node.get("rows") or []
    if len(rows) <= MOST_ROWS:
        return rows, 0
    return rows[: MOST_ROWS - 1], len(rows) - MOST_ROWS + 1


@dataclass(eq=False)
class Item:
    """A box of the view: a node, a folded group, or an open group holding items of its own."""

    id: str
    node: dict[str, Any] | None = None
    group: dict[str, Any] | None = None
    open: bool = False
    children: list[Item] = field(default_factory=list)
    width: float = 0
    height: float = 0
    x: float = 0
    y: float = 0
    count: int = 0


@dataclass
class View:
    root: Item
    items: dict[str, Item]
    edges: list[tuple[str, str, list[dict[str, Any]]]]
    shown_as: dict[str, str]


def default_open(graph: dict[str, Any]) -> set[str]:
    """Every group of a small graph; none of a big one (it opens folded to its top groups)."""
    return {g["id"] for g in graph["groups"]} if len(graph["nodes"]) <= FOLD_ABOVE else set()


def _ancestors(groups: dict[str, dict[str, Any]], group: str | None) -> list[str]:
    out: list[str] = []
    while group is not None and group not in out and group in groups:
        out.append(group)
        group = groups[group]["parent"]
    return out


def build_view(graph: dict[str, Any], opened: set[str]) -> View:
    """The items drawn when the groups in ``opened`` are open and every other is folded."""
    groups = {g["id"]: g for g in graph["groups"]}
    root = Item("", open=True)
    items: dict[str, Item] = {"": root}

    def shown_group(gid: str) -> str:
        for g in reversed(_ancestors(groups, gid)):  # outermost first
            if g not in opened:
                return g
        return gid

    def ensure(gid: str) -> Item:
        found = items.get(gid)
        if found is None:
            group = groups[gid]
            found = Item(
                gid, group=group, open=gid in opened, width=text_width(f"▸ {group['label']}", 90), height=GROUP_HEIGHT
            )
            items[gid] = found
            parent = ensure(group["parent"]) if group["parent"] in groups else root
            parent.children.append(found)
        return found

    shown_as: dict[str, str] = {}
    for node in graph["nodes"]:
        gid = node["group"] if node["group"] in groups else None
        if gid is not None:
            shown = shown_group(gid)
            if shown != gid or gid not in opened:
                ensure(shown).count += 1
                shown_as[node["id"]] = shown
                continue
            ensure(gid)
        wide, tall = node_size(node)
        item = Item(node["id"], node=node, width=wide, height=tall)
        items[node["id"]] = item
        items[gid or ""].children.append(item)
        shown_as[node["id"]] = node["id"]
    for item in items.values():
        if item.group is not None and item.open and not item.children:
            item.open = False
    merged: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for edge in graph["edges"]:
        s, t = shown_as.get(edge["source"]), shown_as.get(edge["target"])
        if s is None or t is None or s == t:
            continue
        merged.setdefault((s, t), []).append(edge)
    return View(root, items, [(s, t, e) for (s, t), e in merged.items()], shown_as)


# ---------------------------------------------------------------- SVG (as render.ts draws it)


def _e(text: str) -> str:
    return _escape(text, quote=True)


def _clip(text: str, most: int = 48) -> str:
    return text[: most - 1] + "…" if len(text) > most else text


def edge_label(edges: list[dict[str, Any]]) -> str:
    if len(edges) > 1:
        return f"{len(edges)} values"
    e = edges[0]
    typed = f"{e['value']}: {e['type']}" if e["type"] else e["value"]
    return f"{typed} = {e['live']}" if e["live"] else typed


def label_text(edges: list[dict[str, Any]]) -> str:
    """The text of an edge's label, as drawn (the layout places it by its length)."""
    return _clip(edge_label(edges), 60)


def path_of(points: list[float]) -> str:
    """The SVG path of a route: straight down a lane, an S-curve between two layers (the layout
    puts labels beside this curve); as ``pathOf`` in ``render.ts``."""
    d = f"M{points[0]:.1f},{points[1]:.1f}"
    for k in range(2, len(points), 2):
        x0, y0, x1, y1 = points[k - 2 : k + 2]
        if x0 == x1:
            d += f" L{x1:.1f},{y1:.1f}"
        else:
            ym = (y0 + y1) / 2
            d += f" C{x0:.1f},{ym:.1f} {x1:.1f},{ym:.1f} {x1:.1f},{y1:.1f}"
    return d


def _edge_markup(edges: list[dict[str, Any]], route: EdgeRoute) -> tuple[str, str]:
    """An edge's path along its route and its label where the layout placed it (on hover only,
    the path's title, where there was no room)."""
    values = _e(" ".join(e["value"] for e in edges))
    text = _e(label_text(edges))
    box = route.label
    title = f"<title>{text}</title>" if box is None else ""
    path = f'<path class="edge" data-values="{values}" d="{path_of(route.points)}">{title}</path>'
    label = "" if box is None else f'<text class="edge-label" x="{box.x:.1f}" y="{box.y + box.h - 3:.1f}">{text}</text>'
    return path, label


def _node(item: Item) -> str:
    n = item.node
    assert n is not None
    severity = f" sev-{n['severity']}" if n["severity"] else ""
    is_op = n["kind"] == "op"
    top = n["op"] if is_op else n["label"]
    name = (n["label"] if n["label"] != n["op"] else "") if is_op else n["kind"]
    badge = (
        f'<circle class="badge{severity}" cx="{item.width - 2}" cy="2" '
        f'r="6"><title>{_e(n["severity"])}</title></circle>'
        if n["severity"]
        else ""
    )
    if n["kind"] in ("op", "damaged"):
        lines = (
            f'<text class="op" x="{item.width / 2:g}" y="15">{_e(_clip(top))}</text><text class="name" '
            f'x="{item.width / 2:g}" y="29">{_e(_clip(name))}</text>'
        )
    else:
        lines = f'<text class="value" x="{item.width / 2:g}" y="17">{_e(_clip(top))}</text>'
    mark = f" mark-{n['mark']}" if n.get("mark") in MARK_COLOURS else ""
    return (
        f'<g class="node cat-{category(n)} kind-{n["kind"]}{severity}{mark}" data-id="{_e(n["id"])}" '
        f'transform="translate({item.x:.1f},{item.y:.1f})"><rect width="{item.width:g}" '
        f'height="{item.height:g}" rx="5"/>{lines}{_inside(n, item.width)}{badge}</g>'
    )


def _inside(n: dict[str, Any], width: float) -> str:
    """The attribute line and the weights' rows (as ``inside`` in ``render.ts``)."""
    y = NODE_HEIGHT
    out = ""
    if n.get("attrs"):
        out += f'<text class="attrs" x="{width / 2:g}" y="{y + 6}">{_e(n["attrs"])}</text>'
        y += LINE
    rows, more = shown_rows(n)
    if rows:
        out += f'<line class="rows-rule" x1="0" x2="{width:g}" y1="{y - 3}" y2="{y - 3}"/>'
    for i, row in enumerate(rows):
        tip = f"{row.get('origin') or row['value']}" + (f": {row['type']}" if row["type"] else "")
        tip += " (shared)" if row["shared"] else ""
        classes = "row" + (" shared" if row["shared"] else "") + (f" sev-{row['severity']}" if row["severity"] else "")
        text = _e(_clip(row_text(row), 60))
        out += (
            f'<g class="{classes}" data-row="{i}"><rect class="row-hit" x="2" y="{y - 2}" width="{width - 4:g}" '
            f'height="{LINE}"/><text x="8" y="{y + 8}">{text}<title>{_e(tip)}</title></text></g>'
        )
        y += LINE
    if more:
        out += f'<text class="more" x="8" y="{y + 8}">+{more} more</text>'
    return out


def _folded(item: Item) -> str:
    g = item.group
    assert g is not None
    return (
        f'<g class="group folded kind-{g["kind"]}" data-group="{_e(g["id"])}" '
        f'transform="translate({item.x:.1f},{item.y:.1f})">'
        f'<rect width="{item.width:g}" height="{item.height:g}" rx="8"/><text class="op" '
        f'x="{item.width / 2:g}" y="17">▸ {_e(_clip(g["label"]))}</text>'
        f'<text class="name" x="{item.width / 2:g}" y="31">{item.count} nodes</text></g>'
    )


def _frame(item: Item) -> str:
    g = item.group
    assert g is not None
    return (
        f'<g class="frame kind-{g["kind"]}" data-group="{_e(g["id"])}" '
        f'transform="translate({item.x:.1f},{item.y:.1f})">'
        f'<rect width="{item.width:g}" height="{item.height:g}" rx="8"/><text class="frame-label" x="10" '
        f'y="16">▾ {_e(_clip(g["label"], 80))}</text></g>'
    )


def stylesheet() -> str:
    """The view's stylesheet (a copy of the extension's ``media/graph.css``)."""
    return resources.files("onnxtext.ide").joinpath("assets/graph.css").read_text("utf-8")


def render_svg(graph: dict[str, Any], opened: set[str] | None = None) -> str:
    """A standalone SVG of the graph, laid out, folded as ``opened`` says (default: :func:`default_open`)."""
    view = build_view(graph, default_open(graph) if opened is None else opened)
    routes = layout_view(view, label_text)
    frames: list[str] = []
    boxes: list[str] = []

    def walk(item: Item) -> None:
        for child in item.children:
            if child.group is not None and child.open:
                frames.append(_frame(child))
                walk(child)
            elif child.group is not None:
                boxes.append(_folded(child))
            else:
                boxes.append(_node(child))

    walk(view.root)
    paths: list[str] = []
    labels: list[str] = []
    for (_, _, edges), route in zip(view.edges, routes, strict=True):
        path, label = _edge_markup(edges, route)
        paths.append(path)
        labels.append(label)
    w, h = int(view.root.width + 33), int(view.root.height + 33)
    body = (
        f'<g class="frames">{"".join(frames)}</g><g class="edges">{"".join(paths)}</g><g '
        f'class="nodes">{"".join(boxes)}</g><g class="edge-labels">{"".join(labels)}</g>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" viewBox="-16 -16 {w} {h}" width="{w}" '
        f'height="{h}"><style><![CDATA[{stylesheet()}{mark_stylesheet(graph)}]]></style><g>{body}</g></svg>\n'
    )
