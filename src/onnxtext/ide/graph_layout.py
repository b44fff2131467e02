"""The layered layout of the graph view, for ``onnxtext graph -o x.svg``.

The same algorithm as the editor's view (``editors/vscode/src/graphview/layout.ts``):
longest-path layers with sources pulled down next to their first consumer, barycentre
ordering sweeps, each layer placed at its parents' barycentres without overlaps, and an
open group laid out as a graph of its own and placed as one box in its container.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from onnxtext.ide.graph_view import Item, View

__all__ = ["GAP_X", "GAP_Y", "layered", "layout_view"]

PAD, HEADER, GAP_X, GAP_Y, SWEEPS = 14, 22, 24, 48, 4


def layout_view(view: View) -> None:
    """Positions every item (absolute x, y) and sizes the open groups and the root."""
    parent: dict[str, Item] = {}

    def visit(item: Item) -> None:
        for child in item.children:
            parent[child.id] = item
            if child.open:
                visit(child)

    visit(view.root)

    def chain(id_: str) -> list[str]:
        out = [id_]
        while id_ in parent:
            id_ = parent[id_].id
            out.append(id_)
        return out

    local: dict[str, list[tuple[str, str]]] = {}
    for source, target, _ in view.edges:
        a, b = chain(source), chain(target)
        in_b = set(b)
        i = next((k for k, x in enumerate(a) if x in in_b), len(a))
        if i == 0 or i >= len(a):
            continue
        j = b.index(a[i])
        if j == 0:
            continue
        local.setdefault(a[i], []).append((a[i - 1], b[j - 1]))

    def place(item: Item) -> None:
        for child in item.children:
            if child.open:
                place(child)
        width, height = layered(item.children, local.get(item.id, []))
        if item is view.root:
            item.width, item.height = width, height
            return
        for child in item.children:
            child.x += PAD
            child.y += PAD + HEADER
        item.width = max(item.width, width + 2 * PAD)
        item.height = height + 2 * PAD + HEADER

    def absolute(item: Item) -> None:
        for child in item.children:
            child.x += item.x
            child.y += item.y
            if child.open:
                absolute(child)

    place(view.root)
    absolute(view.root)


def layered(items: list[Item], edges: list[tuple[str, str]]) -> tuple[float, float]:
    """Lays out ``items`` (their x, y, relative) for ``edges`` between them; returns the size taken."""
    n = len(items)
    if n == 0:
        return 0.0, 0.0
    index = {item.id: i for i, item in enumerate(items)}
    succ: list[list[int]] = [[] for _ in items]
    pred: list[list[int]] = [[] for _ in items]
    seen: set[tuple[int, int]] = set()
    for s, t in edges:
        a, b = index.get(s), index.get(t)
        if a is None or b is None or a == b or (a, b) in seen:
            continue
        seen.add((a, b))
        succ[a].append(b)
        pred[b].append(a)
    indeg = [len(p) for p in pred]
    queue = [i for i in range(n) if indeg[i] == 0]
    done = [False] * n
    order: list[int] = []
    head = 0
    while len(order) < n:
        if head == len(queue):
            queue.append(next(k for k in range(n) if not done[k]))  # a cycle: break it in text order
        v = queue[head]
        head += 1
        if done[v]:
            continue
        done[v] = True
        order.append(v)
        for w in succ[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                queue.append(w)
    position = [0] * n
    for i, v in enumerate(order):
        position[v] = i
    rank = [0] * n
    for v in order:
        for p in pred[v]:
            if position[p] < position[v]:
                rank[v] = max(rank[v], rank[p] + 1)
    for v in reversed(order):
        if not pred[v] and succ[v]:
            rank[v] = max(0, min(rank[w] for w in succ[v]) - 1)
    depth = max(rank) + 1
    layers: list[list[int]] = [[] for _ in range(depth)]
    for i in range(n):
        layers[rank[i]].append(i)
    slot = [0.0] * n

    def renumber(layer: list[int]) -> None:
        for i, v in enumerate(layer):
            slot[v] = i

    for layer in layers:
        renumber(layer)

    def sweep(layer: list[int], near: list[list[int]]) -> None:
        keys = [sum(slot[u] for u in near[v]) / len(near[v]) if near[v] else slot[v] for v in layer]
        ranked = sorted(range(len(layer)), key=lambda i: (keys[i], i))
        layer[:] = [layer[i] for i in ranked]
        renumber(layer)

    for _ in range(SWEEPS):
        for layer in layers[1:]:
            sweep(layer, pred)
        for layer in reversed(layers[:-1]):
            sweep(layer, succ)
    cx = [0.0] * n
    placed = [False] * n

    def place_layer(layer: list[int], near: Any) -> None:
        wanted: list[float | None] = []
        for v in layer:
            around = near(v)
            wanted.append(sum(cx[u] for u in around) / len(around) if around else None)
        right: float | None = None
        shift, counted = 0.0, 0
        for v, want in zip(layer, wanted, strict=True):
            w = items[v].width
            desired = want if want is not None else (0.0 if right is None else right + GAP_X) + w / 2
            x = desired if right is None else max(desired, right + GAP_X + w / 2)
            cx[v] = x
            right = x + w / 2
            if want is not None:
                shift += x - want
                counted += 1
        if counted:
            by = shift / counted
            for v in layer:
                cx[v] -= by

    for depth_index, layer in enumerate(layers):
        if depth_index == 0:
            x = 0.0
            for v in layer:
                cx[v] = x + items[v].width / 2
                x += items[v].width + GAP_X
        else:
            place_layer(layer, lambda v: [u for u in pred[v] if placed[u]])
        for v in layer:
            placed[v] = True
    for layer in reversed(layers[:-1]):
        if any(not pred[v] and succ[v] for v in layer):
            place_layer(layer, lambda v: succ[v] if not pred[v] else pred[v])
    min_x = min(cx[i] - items[i].width / 2 for i in range(n))
    max_x = max(cx[i] + items[i].width / 2 for i in range(n))
    y = 0.0
    for layer in layers:
        tall = max(items[v].height for v in layer)
        for v in layer:
            items[v].x = cx[v] - items[v].width / 2 - min_x
            items[v].y = y + (tall - items[v].height) / 2
        y += tall + GAP_Y
    return max_x - min_x, y - GAP_Y
