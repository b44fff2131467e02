"""The layered layout of the graph view, for ``onnxtext graph -o x.svg``.

The same algorithm as the editor's view (``editors/vscode/src/graphview/layout.ts``, which
says it step by step), held to the same positions by the layouts in
``editors/vscode/test/fixtures/layout/`` that both test suites check: longest-path layers with
nodes of more edges out than in pulled down, a lane for each layer a long edge crosses, median
and barycentre ordering sweeps keeping the order of fewest crossings then adjacent swaps,
least-squares then median x placement without overlaps, edge ends on the boxes' sides, and
labels where they cover no box or label (and no other value's edge where there is room). An
open group is laid out as a graph of its own and placed as one box in its container.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["GAP_X", "GAP_Y", "EdgeRoute", "LabelBox", "Laid", "layered", "layout_view"]

PAD, HEADER, GAP_X, GAP_Y = 14, 22, 24, 48
GAP_EDGE, LANE_GAP, PORT_MARGIN, PORT_GAP = 12, 10, 12, 24
_IN, _OUT = 1, 2  # the kinds of a group's ports (layered's items: 0, a box)
MAX_SWEEPS, PATIENCE, PLACE_SWEEPS = 24, 4, 8
MIRROR_UP_TO = 6000  # above this many boxes and lanes, one first order only, else four
LABEL_HEIGHT, LABEL_CHAR, LABEL_PAD = 12, 6.2, 4
LABEL_AT = (0.3, 0.5, 0.7, 0.15, 0.85, 0.4, 0.6, 0.2, 0.8)  # where on a curve a label is tried (of its height)
EDGE_STEP = 6  # edges are obstacles to labels (where there is room elsewhere): a square every EDGE_STEP px
_NO_EDGES = -2


@dataclass
class LabelBox:
    """A label's box (its text starts at x, baseline at y + h - 3)."""

    x: float
    y: float
    w: float
    h: float


@dataclass
class EdgeRoute:
    """Where an edge is drawn: ``points`` x0, y0, x1, y1, ... from the source's bottom to the
    target's top; ``label`` where its text goes, None where there is no room (shown on hover)."""

    points: list[float]
    label: LabelBox | None = None


@dataclass
class Laid:
    width: float
    height: float
    routes: list[list[float]]


@dataclass(eq=False)
class _Port:
    """A group's port, where an edge enters it (top) or leaves it (bottom): a point of its layout."""

    id: str
    width: float = 0.0
    height: float = 0.0
    x: float = 0.0
    y: float = 0.0
    open: bool = False


class _Box(Protocol):
    """What the layout reads and sets of a box."""

    id: str
    width: float
    height: float
    x: float
    y: float


class Item(_Box, Protocol):
    """A box of the view (``graph_view.Item``): a node, a folded group or an open one."""

    open: bool

    @property
    def children(self) -> Sequence[Item]: ...


class View(Protocol):
    """The view laid out (``graph_view.View``): its items and the edges between them."""

    @property
    def root(self) -> Item: ...

    @property
    def items(self) -> Mapping[str, Item]: ...

    @property
    def edges(self) -> Sequence[tuple[str, str, list[dict[str, Any]]]]: ...


def layout_view(view: View, label_of: Callable[[list[dict[str, Any]]], str]) -> list[EdgeRoute]:
    """Positions every item (absolute x, y), sizes the open groups and the root (labels
    included); returns the route of each of ``view.edges`` (in order), labelled by ``label_of``."""
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

    # the edges each container lays out: an edge between two containers is laid out in the
    # innermost one holding both (its ends lifted to the items directly inside it), and in every
    # open group it leaves or enters, from its end inside to a port on the group's bottom (out)
    # or top (in) edge: it runs in lanes there too, never over a box inside a group
    local: dict[str, list[tuple[str, str]]] = {}
    ports: dict[str, dict[str, _Port]] = {}
    legs: list[list[tuple[str, int]]] = []

    def leg(container: str, start: str, end: str) -> tuple[str, int]:
        edges = local.setdefault(container, [])
        edges.append((start, end))
        return container, len(edges) - 1

    def port_of(container: str, kind: str, source: str) -> str:
        id_ = f"\0{kind}\0{source}"
        ports.setdefault(container, {}).setdefault(id_, _Port(id_))
        return id_

    for source, target, _ in view.edges:
        a, b = chain(source), chain(target)
        in_b = set(b)
        i = next((k for k, x in enumerate(a) if x in in_b), len(a))
        j = b.index(a[i]) if i < len(a) else -1
        if i == 0 or i >= len(a) or j == 0:
            legs.append([])  # one end holds the other
            continue
        route = [leg(a[k], a[k - 1], port_of(a[k], "out", source)) for k in range(1, i)]
        route.append(leg(a[i], a[i - 1], b[j - 1]))
        route += [leg(b[k], port_of(b[k], "in", source), b[k - 1]) for k in range(j - 1, 0, -1)]
        legs.append(route)
    routes: dict[str, list[list[float]]] = {}

    def place(item: Item) -> None:
        for child in item.children:
            if child.open:
                place(child)
        own = list(ports.get(item.id, {}).values())
        laid = layered([*item.children, *own], local.get(item.id, []), len(own))
        routes[item.id] = laid.routes
        if item is view.root:
            item.width, item.height = laid.width, laid.height
            return
        boxes: list[_Box] = [*item.children, *own]
        for box in boxes:
            box.x += PAD
            box.y += PAD + HEADER
        for points in laid.routes:
            for k in range(0, len(points), 2):
                points[k] += PAD
                points[k + 1] += PAD + HEADER
        item.width = max(item.width, laid.width + 2 * PAD)
        item.height = laid.height + 2 * PAD + HEADER

    def absolute(item: Item) -> None:
        for points in routes.get(item.id, []):
            for k in range(0, len(points), 2):
                points[k] += item.x
                points[k + 1] += item.y
        for port in ports.get(item.id, {}).values():
            port.x += item.x
            port.y += item.y
        for child in item.children:
            child.x += item.x
            child.y += item.y
            if child.open:
                absolute(child)

    place(view.root)
    absolute(view.root)
    out: list[EdgeRoute] = []
    for (source, target, _), its in zip(view.edges, legs, strict=True):
        s, t = view.items[source], view.items[target]
        if not its:
            out.append(EdgeRoute([s.x + s.width / 2, s.y + s.height, t.x + t.width / 2, t.y]))
            continue
        # each leg from where the last one ended: an inner group's own end (its bottom or top
        # centre) is left out, the port inside it stands for it
        points: list[float] = []
        for k, (container, index) in enumerate(its):
            laid = routes[container][index]
            start, end = local[container][index]
            first = 0 if k == 0 or start.startswith("\0") else 2
            last = len(laid) if k == len(its) - 1 or end.startswith("\0") else len(laid) - 2
            points += laid[first:last]
        out.append(EdgeRoute(points))
    _place_labels(view, out, label_of)
    _fit_bounds(view, out)
    return out


def layered(items: Sequence[_Box], edges: list[tuple[str, str]], ports: int = 0) -> Laid:
    """Lays out ``items`` (their x, y, relative) for ``edges`` between them: the size and routes.
    The last ``ports`` items are a group's ports: points where edges enter (top) or leave (bottom)."""
    n = len(items)
    if n == 0:
        return Laid(0.0, 0.0, [[] for _ in edges])
    kind = [0 if i < n - ports else _IN if item.id.startswith("\0in\0") else _OUT for i, item in enumerate(items)]
    index = {item.id: i for i, item in enumerate(items)}
    succ: list[list[int]] = [[] for _ in items]
    pred: list[list[int]] = [[] for _ in items]
    seen: set[tuple[int, int]] = set()
    ends: list[tuple[int, int]] = []
    for s, t in edges:
        a, b = index.get(s, -1), index.get(t, -1)
        ends.append((a, b))
        if a < 0 or b < 0 or a == b or (a, b) in seen:
            continue
        seen.add((a, b))
        succ[a].append(b)
        pred[b].append(a)
    rank = _rank_of(n, succ, pred) if ports == 0 else _with_ports(n, succ, pred, kind)

    def lane(v: int) -> bool:
        return v >= n or kind[v] != 0  # a dummy or a port: a point

    width: list[float] = [item.width for item in items]
    lay: list[int] = list(rank)
    down: list[list[int]] = [[] for _ in items]
    up: list[list[int]] = [[] for _ in items]
    weight: dict[tuple[int, int], int] = {}
    chain_of: dict[tuple[int, int], list[int]] = {}
    for a in range(n):
        for b in succ[a]:
            if rank[b] <= rank[a]:
                continue  # a cycle's edge going up: it goes round (below)
            path = [a]
            for r in range(rank[a] + 1, rank[b]):
                path.append(len(width))
                width.append(0.0)
                lay.append(r)
                down.append([])
                up.append([])
            path.append(b)
            for u, v in zip(path, path[1:], strict=False):
                dummies = lane(u) + lane(v)
                down[u].append(v)
                up[v].append(u)
                weight[(u, v)] = 8 if dummies == 2 else 2 if dummies == 1 else 1
            chain_of[(a, b)] = path
    total = len(width)
    depth = max(lay) + 1
    layers = _order_layers(total, depth, lay, down, up)

    def separation(u: int, v: int) -> float:
        dummies = lane(u) + lane(v)
        return (width[u] + width[v]) / 2 + (GAP_X if dummies == 0 else GAP_EDGE if dummies == 1 else LANE_GAP)

    x = _place_x(total, layers, down, up, lambda u, v: weight[(u, v)], separation)
    min_x = min(x[v] - width[v] / 2 for v in range(total))
    max_x = max(x[v] + width[v] / 2 for v in range(total))
    top: list[float] = []
    tall: list[float] = []

    def ports_only(k: int) -> bool:
        """A layer of ports only (the top's in-ports, the bottom's out-ports): nearer its neighbour."""
        return 0 <= k < depth and all(v < n and kind[v] != 0 for v in layers[k])

    y = 0.0
    for k, layer in enumerate(layers):
        most = max((items[v].height for v in layer if v < n), default=0.0)
        top.append(y)
        tall.append(most)
        for v in layer:
            if v < n:
                items[v].x = x[v] - width[v] / 2 - min_x
                # a port on its layer's top (in) or bottom (out); a box in the middle
                at = y if kind[v] == _IN else y + most if kind[v] == _OUT else y + (most - items[v].height) / 2
                items[v].y = at
        y += most + (PORT_GAP if ports_only(k) or ports_only(k + 1) else GAP_Y)
    bottom = PORT_GAP if depth > 0 and (ports_only(depth - 1) or ports_only(depth)) else GAP_Y
    # an edge against the layers (in a cycle, as between two groups that feed each other) goes
    # round: down out of its source, up a corridor right of everything, down into its target
    loops: dict[tuple[int, int], int] = {}
    for a, b in ends:
        if a >= 0 and b >= 0 and a != b and rank[b] <= rank[a]:
            loops.setdefault((a, b), len(loops))
    right = max_x - min_x
    routes: list[list[float]] = []
    for a, b in ends:
        if a < 0 or b < 0:
            routes.append([])
            continue
        loop = loops.get((a, b))
        if loop is not None:
            src, dst = items[a], items[b]
            cx = right + GAP_EDGE + loop * LANE_GAP
            x0, x1 = _port(src, cx), _port(dst, cx)
            below = top[lay[a]] + tall[lay[a]] + GAP_Y / 2
            above = top[lay[b]] - GAP_Y / 2
            routes.append([x0, src.y + src.height, x0, below, cx, below, cx, above, x1, above, x1, dst.y])
            continue
        lanes: list[float] = []
        for d in chain_of.get((a, b), [])[1:-1]:
            lanes += [x[d] - min_x, top[lay[d]], x[d] - min_x, top[lay[d]] + tall[lay[d]]]
        src, dst = items[a], items[b]
        # the ends: on the boxes' sides where the edge goes (straight down when the boxes overlap)
        x0 = _port(src, lanes[0] if lanes else dst.x + dst.width / 2)
        x1 = _port(dst, lanes[-2] if lanes else src.x + src.width / 2)
        if not lanes:
            lo = max(src.x + _margin(src), dst.x + _margin(dst))
            hi = min(src.x + src.width - _margin(src), dst.x + dst.width - _margin(dst))
            if lo <= hi:
                x0 = x1 = min(hi, max(lo, (src.x + src.width / 2 + dst.x + dst.width / 2) / 2))
        # a box lower than its layer: straight down to the layer's bottom (up from its top) first,
        # so the curve between two layers stays between them
        below = top[lay[a]] + tall[lay[a]]
        start = [x0, src.y + src.height, x0, below] if src.y + src.height < below else [x0, src.y + src.height]
        end = [x1, top[lay[b]], x1, dst.y] if dst.y > top[lay[b]] else [x1, dst.y]
        routes.append([*start, *lanes, *end])
    corridors = 0 if not loops else GAP_EDGE + (len(loops) - 1) * LANE_GAP
    return Laid(right + corridors, y - bottom, routes)


def _with_ports(n: int, succ: list[list[int]], pred: list[list[int]], kind: list[int]) -> list[int]:
    """Layers with ports: the items' as without them (ports left out), then the in-ports on a
    layer of their own above and the out-ports on the last layer (below it when an item that
    leaves through one is on the last layer)."""

    def inner(vs: list[int]) -> list[int]:
        return [v for v in vs if kind[v] == 0]

    rank = _rank_of(
        n,
        [inner(nxt) if kind[v] == 0 else [] for v, nxt in enumerate(succ)],
        [inner(prv) if kind[v] == 0 else [] for v, prv in enumerate(pred)],
    )
    shift = 1 if _IN in kind else 0
    last = 0
    for v in range(n):
        if kind[v] == 0:
            rank[v] += shift
            last = max(last, rank[v])
    for v in range(n):
        if kind[v] == _IN:
            rank[v] = 0
        elif kind[v] == _OUT:
            rank[v] = max([last, *(rank[p] + 1 for p in pred[v])])
    return rank


def _port(item: _Box, x: float) -> float:
    return min(item.x + item.width - _margin(item), max(item.x + _margin(item), x))


def _margin(item: _Box) -> float:
    return min(PORT_MARGIN, item.width / 4)


def _rank_of(n: int, succ: list[list[int]], pred: list[list[int]]) -> list[int]:
    """Each item's layer: longest path, then items with more edges out than in pulled down."""
    indeg = [len(p) for p in pred]
    queue = [i for i in range(n) if indeg[i] == 0]
    done = [False] * n
    order: list[int] = []
    head = nxt = 0
    while len(order) < n:
        if head == len(queue):
            while done[nxt]:
                nxt += 1
            queue.append(nxt)  # a cycle: break it at its first item in text order
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
    # pulled down to just above its first consumer: an input, an initializer, a node with more
    # edges out than in, a node fed by sources (weights, an Identity of a shared weight) that
    # can come down with it
    for v in reversed(order):
        earlier = [p for p in pred[v] if position[p] < position[v]]
        carried = sum(1 for p in earlier if not pred[p])  # sources: they can come down with it
        later = [rank[w] for w in succ[v] if position[w] > position[v]]
        pull = len(later) > len(earlier) or (carried > 0 and len(later) >= len(earlier) - carried)
        if later and pull and min(later) - 1 > rank[v]:
            rank[v] = min(later) - 1
    return rank


def _order_layers(
    total: int, depth: int, lay: list[int], down: list[list[int]], up: list[list[int]]
) -> list[list[int]]:
    """The order of each layer's nodes: from a first order (depth-first from the sources), median
    and barycentre sweeps, the order with fewest crossings kept, then adjacent swaps that remove
    crossings; when the graph is small enough, done again from the mirrored first order (sources
    and children right to left) and with the sweeps starting upwards, the best of the four kept."""
    slot = [0.0] * total
    best, fewest = _order_from(total, depth, lay, down, up, slot, 0)
    for variant in range(1, 1 if total > MIRROR_UP_TO else 4):
        if fewest == 0:
            break
        layers, crossings = _order_from(total, depth, lay, down, up, slot, variant)
        if crossings < fewest:
            best, fewest = layers, crossings
    for layer in best:
        for i, v in enumerate(layer):
            slot[v] = i
    return best


def _order_from(
    total: int,
    depth: int,
    lay: list[int],
    down: list[list[int]],
    up: list[list[int]],
    slot: list[float],
    variant: int,
) -> tuple[list[list[int]], int]:
    mirrored, up_first = variant in (1, 3), variant in (1, 2)
    layers: list[list[int]] = [[] for _ in range(depth)]
    visited = [False] * total
    for s in reversed(range(total)) if mirrored else range(total):
        if visited[s] or up[s]:
            continue
        stack = [s]
        while stack:
            v = stack.pop()
            if visited[v]:
                continue
            visited[v] = True
            layers[lay[v]].append(v)
            stack.extend(w for w in (down[v] if mirrored else reversed(down[v])) if not visited[w])
    for v in range(total):
        if not visited[v]:
            layers[lay[v]].append(v)  # only in a cycle's leftovers

    def renumber(layer: list[int]) -> None:
        for i, v in enumerate(layer):
            slot[v] = i

    for layer in layers:
        renumber(layer)

    def crossings() -> int:
        return sum(_layer_crossings(layers[k], layers[k + 1], down, slot) for k in range(depth - 1))

    def sweep(layer: list[int], near: list[list[int]], median: bool) -> None:
        keys: list[float] = []
        for v in layer:
            around = near[v]
            if not around:
                keys.append(-1.0)
            elif median:
                at = sorted(slot[u] for u in around)
                mid = len(at) >> 1
                keys.append(at[mid] if len(at) % 2 == 1 else (at[mid - 1] + at[mid]) / 2)
            else:
                keys.append(sum(slot[u] for u in around) / len(around))
        if all(k < 0 for k in keys):
            return
        # a node with no neighbour on that side keeps its place; the others are sorted around it
        free = iter(sorted((i for i, k in enumerate(keys) if k >= 0), key=lambda i: (keys[i], i)))
        layer[:] = [layer[i] if keys[i] < 0 else layer[next(free)] for i in range(len(layer))]
        renumber(layer)

    best = crossings()
    best_layers = [layer[:] for layer in layers]
    stale = 0
    for s in range(MAX_SWEEPS):
        if stale >= PATIENCE or best == 0:
            break
        median = s % 4 < 2  # two rounds of medians, two of barycentres, ...
        if (s % 2 == 0) != up_first:
            for layer in layers[1:]:
                sweep(layer, up, median)
        else:
            for layer in reversed(layers[:-1]):
                sweep(layer, down, median)
        now = crossings()
        if now < best:
            best, best_layers, stale = now, [layer[:] for layer in layers], 0
        else:
            stale += 1
    layers = best_layers
    for layer in layers:
        renumber(layer)
    _transpose(layers, down, up, slot)
    return layers, crossings()


def _layer_crossings(upper: list[int], lower: list[int], down: list[list[int]], slot: list[float]) -> int:
    """Crossings between two adjacent layers (Barth, Jünger and Mutzel's accumulator tree)."""
    if len(lower) < 2 or not upper:
        return 0
    size = 1
    while size < len(lower):
        size *= 2
    tree = [0] * (2 * size)
    count = 0
    for u in upper:
        for t in sorted(slot[v] for v in down[u]):
            i = int(t) + size
            tree[i] += 1
            while i > 1:
                if i % 2 == 0:
                    count += tree[i + 1]
                i //= 2
                tree[i] += 1
    return count


def _pair_crossings(a: list[int], b: list[int], slot: list[float]) -> int:
    return sum(1 for u in a for v in b if slot[u] > slot[v])


def _transpose(layers: list[list[int]], down: list[list[int]], up: list[list[int]], slot: list[float]) -> None:
    """Swaps neighbours in a layer while that removes crossings (a few passes at most)."""
    for _ in range(4):
        improved = False
        for layer in layers:
            for i in range(len(layer) - 1):
                a, b = layer[i], layer[i + 1]
                now = _pair_crossings(up[a], up[b], slot) + _pair_crossings(down[a], down[b], slot)
                swapped = _pair_crossings(up[b], up[a], slot) + _pair_crossings(down[b], down[a], slot)
                if swapped < now:
                    layer[i], layer[i + 1] = b, a
                    slot[a], slot[b] = i + 1, i
                    improved = True
        if not improved:
            return


def _place_x(
    total: int,
    layers: list[list[int]],
    down: list[list[int]],
    up: list[list[int]],
    weight_of: Callable[[int, int], int],
    separation: Callable[[int, int], float],
) -> list[float]:
    """x of every node's centre: each layer in turn at its neighbours' weighted mean (then
    median), kept in order and apart (a weighted least-squares fit: pool adjacent violators)."""
    x = [0.0] * total
    for layer in layers:
        at = 0.0
        for i, v in enumerate(layer):
            if i > 0:
                at += separation(layer[i - 1], v)
            x[v] = at

    def fit(layer: list[int], median: bool) -> None:
        m = len(layer)
        want = [0.0] * m
        mass = [0.0] * m
        offset = [0.0] * m
        for i, v in enumerate(layer):
            near: list[float] = []
            for u in up[v]:
                near += [x[u], weight_of(u, v)]
            for u in down[v]:
                near += [x[u], weight_of(v, u)]
            offset[i] = 0.0 if i == 0 else offset[i - 1] + separation(layer[i - 1], v)
            w = 0.0
            total_x = 0.0
            for k in range(0, len(near), 2):
                total_x += near[k] * near[k + 1]
                w += near[k + 1]
            if w == 0:
                want[i], mass[i] = x[v] - offset[i], 1e-3  # nothing pulls it: it stays unless pushed
                continue
            want[i] = (_weighted_median(near, w) if median else total_x / w) - offset[i]
            mass[i] = w
        values: list[float] = []
        masses: list[float] = []
        block_end: list[int] = []
        for i in range(m):
            value, w = want[i], mass[i]
            while values and values[-1] >= value:
                pv, pw = values.pop(), masses.pop()
                block_end.pop()
                value = (value * w + pv * pw) / (w + pw)
                w += pw
            values.append(value)
            masses.append(w)
            block_end.append(i)
        start = 0
        for value, end in zip(values, block_end, strict=True):
            for i in range(start, end + 1):
                x[layer[i]] = value + offset[i]
            start = end + 1

    # least squares first (everything near its neighbours), then medians (as many edges straight
    # as can be: the total length is a sum of distances, not of squares)
    for s in range(PLACE_SWEEPS):
        median = s >= PLACE_SWEEPS / 2
        for layer in layers if s % 2 == 0 else reversed(layers):
            fit(layer, median)
    return x


def _weighted_median(near: list[float], total: float) -> float:
    """The weighted median of ``near`` (x, weight, ...): the middle of the two middle values
    when they split the weight in halves."""
    order = sorted(range(0, len(near), 2), key=lambda k: (near[k], k))
    below = 0.0
    for i, k in enumerate(order):
        below += near[k + 1]
        if below * 2 > total:
            return near[k]
        if below * 2 == total:
            return (near[k] + near[order[i + 1]]) / 2
    return near[order[-1]]


class _Grid:
    """Rectangles hashed in square cells, each with its owner, to ask "does this rectangle meet
    any not owned by ...?" fast."""

    def __init__(self, size: float) -> None:
        self.size = size
        self.cells: dict[tuple[int, int], list[tuple[float, float, float, float, int]]] = {}

    def _keys(self, x: float, y: float, w: float, h: float) -> list[tuple[int, int]]:
        s = self.size
        return [
            (i, j)
            for i in range(math.floor(x / s), math.floor((x + w) / s) + 1)
            for j in range(math.floor(y / s), math.floor((y + h) / s) + 1)
        ]

    def add(self, x: float, y: float, w: float, h: float, owner: int) -> None:
        for key in self._keys(x, y, w, h):
            self.cells.setdefault(key, []).append((x, y, w, h, owner))

    def hits(self, x: float, y: float, w: float, h: float, except_: int) -> bool:
        """Whether the rectangle meets one owned by none (-1) or by another owner than
        ``except_`` (``_NO_EDGES``: by none only)."""
        return any(
            x < rx + rw
            and rx < x + w
            and y < ry + rh
            and ry < y + h
            and (by < 0 or (except_ != _NO_EDGES and by != except_))
            for key in self._keys(x, y, w, h)
            for rx, ry, rw, rh, by in self.cells.get(key, ())
        )


def _place_labels(view: View, routes: list[EdgeRoute], label_of: Callable[[list[dict[str, Any]]], str]) -> None:
    """Each edge's label beside its route where it covers no box, no label placed before and no
    other value's edge; one label per value leaving a box (its other consumers' edges share it)."""
    grid = _Grid(64)

    def boxes(item: Item) -> None:
        for child in item.children:
            if child.open:
                grid.add(child.x, child.y, child.width, HEADER, -1)  # its frame's title
                boxes(child)
            else:
                grid.add(child.x, child.y, child.width, child.height, -1)

    boxes(view.root)
    # every edge, as small squares along its curves and a thin box along its lanes, owned by its
    # source (a value's label may lie over the value's own edges)
    owner: dict[str, int] = {}
    for (source, _, _), route in zip(view.edges, routes, strict=True):
        by = owner.setdefault(source, len(owner))
        p = route.points
        for k in range(2, len(p), 2):
            x0, y0, x1, y1 = p[k - 2], p[k - 1], p[k], p[k + 1]
            if x0 == x1:
                grid.add(x0 - 1, y0, 2, y1 - y0, by)
                continue
            steps = max(2, math.ceil(abs(y1 - y0) / EDGE_STEP))
            for i in range(steps + 1):
                u = i / steps
                x = x0 + (x1 - x0) * u * u * (3 - 2 * u)
                y = y0 + (y1 - y0) * (1.5 * u * (1 - u) + u * u * u)
                grid.add(x - 1, y - 1, 2, 2, by)
    said: set[tuple[str, str]] = set()
    for (source, _, edges), route in zip(view.edges, routes, strict=True):
        text = label_of(edges)
        if not text or (source, text) in said:
            continue
        mine = owner[source]
        w, h = len(text) * LABEL_CHAR + LABEL_PAD, LABEL_HEIGHT
        p = route.points
        # the curve between two layers (not a lane), nearest the source first; right of it, then
        # left; a place over no other edge first, else one over edges (never over a box or a label)
        for clear in (True, False):
            for k in range(2, len(p), 2):
                if route.label is not None:
                    break
                x0, y0, x1, y1 = p[k - 2], p[k - 1], p[k], p[k + 1]
                if x0 == x1 and 2 < k < len(p) - 2:
                    continue
                for t in LABEL_AT:
                    s = t * t * (3 - 2 * t)  # the S-curve's x at height t
                    cx = x0 + (x1 - x0) * s
                    cy = y0 + (y1 - y0) * t - h / 2
                    sides = (cx + 3, cx - 3 - w)
                    found = next(
                        (lx for lx in sides if not grid.hits(lx, cy, w, h, mine if clear else _NO_EDGES)), None
                    )
                    if found is not None:
                        route.label = LabelBox(found, cy, w, h)
                        grid.add(found, cy, w, h, -1)
                        said.add((source, text))
                        break


def _fit_bounds(view: View, routes: list[EdgeRoute]) -> None:
    """Moves everything so the picture starts at (0, 0) and sizes the root to hold every box,
    route and label: nothing is cut at the border."""
    min_x = min_y = 0.0
    max_x, max_y = view.root.width, view.root.height
    for route in routes:
        xs, ys = route.points[0::2], route.points[1::2]
        if xs:
            min_x, max_x = min(min_x, *xs), max(max_x, *xs)
            min_y, max_y = min(min_y, *ys), max(max_y, *ys)
        b = route.label
        if b is not None:
            min_x, min_y = min(min_x, b.x), min(min_y, b.y)
            max_x, max_y = max(max_x, b.x + b.w), max(max_y, b.y + b.h)
    if min_x < 0 or min_y < 0:
        for item in view.items.values():
            if item is not view.root:
                item.x -= min_x
                item.y -= min_y
        for route in routes:
            p = route.points
            for k in range(0, len(p), 2):
                p[k] -= min_x
                p[k + 1] -= min_y
            if route.label is not None:
                route.label.x -= min_x
                route.label.y -= min_y
    view.root.width = max_x - min_x
    view.root.height = max_y - min_y
