"""Structural matching of two models: nodes paired by what they compute, not by their names.

A *body* is a graph or a function's node list with its sources (inputs, initializers, the
outer names a subgraph reads). Two bodies are matched in passes, each linear in the nodes:

1. **Sources.** Inputs by name, then the rest in order when their types agree (or when as
   many are left on each side); initializers by the digest of their bytes (equal bytes under
   another name are the same weight), names breaking ties, then by name (a weight whose values
   changed); a subgraph's outer names through the match of the body around it.
2. **Forward** (B's nodes by topological level, Merkle-style): a node whose operator,
   attributes and matched inputs equal an A node's is that node (renamed values and
   reordered nodes are not differences); then, among those left, a node whose inputs are all
   matched and an A node reading the same values (its operator or attributes changed); then
   one sharing some matched input at the same place with an A node of the same operator.
3. **Backward** from matched nodes and the outputs: the producers of the same input slot of
   two matched nodes, both unmatched and of one operator (or reading the same values, or whose
   values have one name), are the same node changed (a node after an inserted one); two
   unmatched initializers there are one weight whose bytes changed.

Passes repeat while they find pairs (at most :data:`ROUNDS`). Names only break ties. Each
matched pair's subgraphs are matched the same way, the outer names through this match.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from onnxtext.ir.versioned import normalize_domain
from onnxtext.proto import AttributeProto, FunctionProto, GraphProto, NodeProto, TensorProto, TypeProto

__all__ = [
    "Body",
    "BodyMatch",
    "ROUNDS",
    "SCAN",
    "match_bodies",
    "match_graphs",
    "match_functions",
    "matched_order",
    "graph_body",
    "body_of",
    "graphs_of",
    "tensor_content",
]

ROUNDS = 4
"""Forward and backward passes at most (each finds pairs the other's pairs made reachable)."""


def _bytes(msg: object) -> bytes:
    data: bytes = msg.SerializeToString(deterministic=True)  # type: ignore[attr-defined]
    return data


def tensor_content(t: TensorProto) -> bytes:
    """A tensor's bytes without its name: equal for the same weight under another name."""
    if not t.name:
        return _bytes(t)
    c = TensorProto()
    c.CopyFrom(t)
    c.ClearField("name")
    return _bytes(c)


@dataclass
class Body:
    """One graph or function body, indexed: who produces and who reads each value."""

    nodes: Sequence[NodeProto]
    inputs: list[str]
    """The inputs fed from outside, in order (a graph's inputs that are not initializers; a function's)."""
    outputs: list[str]
    initializers: dict[str, TensorProto]
    types: dict[str, TypeProto]
    """Declared types: inputs, outputs and value infos."""
    graph: GraphProto | None = None
    producer: dict[str, tuple[int, int]] = field(default_factory=dict)
    consumers: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    outer: list[str] = field(default_factory=list)
    """Names read but defined nowhere in the body: the enclosing scope's (or undefined)."""
    order: list[int] = field(default_factory=list)
    """The nodes in a topological order (the list's order where it is one; a cycle's nodes last)."""
    level: list[int] = field(default_factory=list)
    ins: list[tuple[str, ...]] = field(default_factory=list)
    """Each node's inputs and outputs and operator, read once from the protobuf."""
    outs: list[tuple[str, ...]] = field(default_factory=list)
    ops: list[tuple[str, str, str]] = field(default_factory=list)
    reads: list[Sequence[str]] = field(default_factory=list)
    input_set: set[str] = field(default_factory=set)
    hints: list[tuple[str, str]] = field(default_factory=list)
    """Each node's name and first output: what breaks ties between equal candidates."""
    contents: dict[str, bytes] = field(default_factory=dict)
    """Each initializer's digest of its :func:`tensor_content` (SHA-256), made once."""

    def __post_init__(self) -> None:
        defined = set(self.inputs) | set(self.initializers)
        self.ins = [tuple(n.input) for n in self.nodes]
        self.outs = [tuple(n.output) for n in self.nodes]
        self.ops = [_op_key(n) for n in self.nodes]
        # what a node reads: its inputs, and for a node with subgraphs what they read from outside
        self.reads = [
            _reads(n) if len(n.attribute) and _has_graphs(n) else ins
            for n, ins in zip(self.nodes, self.ins, strict=True)
        ]
        self.input_set = set(self.inputs)
        self.contents = {name: hashlib.sha256(tensor_content(t)).digest() for name, t in self.initializers.items()}
        self.hints = [(n.name, next((o for o in outs if o), "")) for n, outs in zip(self.nodes, self.outs, strict=True)]
        for i, outs in enumerate(self.outs):
            for k, o in enumerate(outs):
                if o and o not in self.producer:
                    self.producer[o] = (i, k)
        for i, ins in enumerate(self.ins):
            for k, name in enumerate(ins):
                if name:
                    self.consumers.setdefault(name, []).append((i, k))
        seen: set[str] = set()
        for name in self.consumers:
            if name not in defined and name not in self.producer and name not in seen:
                seen.add(name)
                self.outer.append(name)
        for reads, ins in zip(self.reads, self.ins, strict=True):  # names a subgraph reads from further out
            if reads is ins:
                continue
            for name in reads:
                if name not in defined and name not in self.producer and name not in seen:
                    seen.add(name)
                    self.outer.append(name)
        self._topological()

    def _topological(self) -> None:
        n = len(self.nodes)
        waiting = [0] * n
        level = [0] * n
        readers: dict[int, list[int]] = {}
        producer = self.producer
        for i, reads in enumerate(self.reads):
            if len(reads) == 1:  # most nodes: one producer at most, no set needed
                found = producer.get(reads[0])
                if found is not None and found[0] != i:
                    waiting[i] = 1
                    readers.setdefault(found[0], []).append(i)
                continue
            producers = {producer[x][0] for x in reads if x and x in producer}
            producers.discard(i)
            waiting[i] = len(producers)
            for p in producers:
                readers.setdefault(p, []).append(i)
        ready = [i for i in range(n) if waiting[i] == 0]
        order: list[int] = []
        head = 0
        while head < len(ready):
            i = ready[head]
            head += 1
            order.append(i)
            for r in readers.get(i, ()):
                level[r] = max(level[r], level[i] + 1)
                waiting[r] -= 1
                if waiting[r] == 0:
                    ready.append(r)
        if len(order) < n:  # a cycle (an invalid model): its nodes after the rest, one level each
            placed = set(order)
            top = max(level, default=0)
            for i in range(n):
                if i not in placed:
                    top += 1
                    level[i] = top
                    order.append(i)
        self.order, self.level = order, level


def graphs_of(a: AttributeProto) -> list[GraphProto]:
    """The graphs an attribute holds (``g`` or ``graphs``)."""
    if a.HasField("g"):
        return [a.g]
    return list(a.graphs)


def _has_graphs(node: NodeProto) -> bool:
    return any(a.HasField("g") or len(a.graphs) for a in node.attribute)


def _reads(node: NodeProto) -> list[str]:
    """The names a node reads: its inputs and what its subgraphs read from outside them."""
    names = [x for x in node.input if x]
    for a in node.attribute:
        for g in graphs_of(a):
            names.extend(_free_names(g))
    return names


def _free_names(g: GraphProto) -> list[str]:
    """Names a graph reads that it does not define (its outer scope's), nested graphs included."""
    defined = {i.name for i in g.input} | {t.name for t in g.initializer}
    defined |= {s.values.name for s in g.sparse_initializer}
    for n in g.node:
        defined.update(n.output)
    out: list[str] = []
    for n in g.node:
        for name in _reads(n):
            if name not in defined:
                out.append(name)
    return out


def graph_body(g: GraphProto) -> Body:
    inits = {t.name: t for t in g.initializer}
    for s in g.sparse_initializer:
        inits.setdefault(s.values.name, s.values)
    types = {v.name: v.type for v in (*g.input, *g.output, *g.value_info) if v.HasField("type")}
    inputs = [i.name for i in g.input if i.name not in inits]
    return Body(g.node, inputs, [o.name for o in g.output], inits, types, graph=g)


def body_of(f: FunctionProto) -> Body:
    types = {v.name: v.type for v in f.value_info if v.HasField("type")}
    return Body(f.node, list(f.input), list(f.output), {}, types)


@dataclass
class BodyMatch:
    """Which A node is which B node, and which A value is which B value."""

    a: Body
    b: Body
    nodes: dict[int, int] = field(default_factory=dict)
    """A node index → B node index."""
    b_nodes: dict[int, int] = field(default_factory=dict)
    """B node index → A node index."""
    a2b: dict[str, str] = field(default_factory=dict)
    b2a: dict[str, str] = field(default_factory=dict)
    exact: set[int] = field(default_factory=set)
    """The A nodes matched with their operator, attributes and inputs' classes equal (nothing to
    report of them but subgraphs and their number of outputs)."""
    classes: dict[str, str] = field(default_factory=dict)
    """An A value → the A value it equals by construction (a duplicate constant, the same weight
    stored twice, a node computing what an earlier one computes from the same values): such
    values are interchangeable, in the keys of the match and in the diff's wiring."""
    subgraphs: dict[tuple[int, str, int], BodyMatch] = field(default_factory=dict)
    """(A node index, attribute name, graph index) → the match of that subgraph and its B counterpart."""

    def of(self, va: str) -> str:
        """The class of an A value (:attr:`classes`; itself when it has no earlier equal)."""
        return self.classes.get(va, va)

    def same_value(self, va: str, vb: str) -> bool:
        """Whether B's ``vb`` is A's ``va``, or a value equal to it by construction."""
        partner = self.b2a.get(vb)
        return partner is not None and self.of(partner) == self.of(va)

    def pair_values(self, va: str, vb: str) -> bool:
        if not va or not vb or va in self.a2b or vb in self.b2a:
            return False
        self.a2b[va] = vb
        self.b2a[vb] = va
        return True

    def pair_nodes(self, i: int, j: int) -> None:
        self.nodes[i] = j
        self.b_nodes[j] = i
        for va, vb in zip(self.a.outs[i], self.b.outs[j], strict=False):
            self.pair_values(va, vb)


def _op_key(n: NodeProto) -> tuple[str, str, str]:
    return (normalize_domain(n.domain), n.op_type, n.overload)


def _fingerprint(g: GraphProto) -> bytes:
    """What a subgraph computes, without its names: its operators in order and its arity
    (a pair found so is compared body to body, so a coarse print only breaks ties)."""
    ops = ",".join(f"{n.domain}.{n.op_type}/{len(n.input)}/{len(n.output)}" for n in g.node)
    return f"{len(g.input)}:{len(g.output)}:{ops}".encode()


def _attr_bytes(n: NodeProto) -> bytes:
    """The node's attributes without names that do not matter (a constant tensor's name)."""
    if not len(n.attribute):
        return b""
    parts = []
    for a in sorted(n.attribute, key=lambda a: a.name):
        if a.HasField("g") or len(a.graphs):
            parts.append(a.name.encode() + b"\x00g" + b"|".join(_fingerprint(g) for g in graphs_of(a)))
        elif a.HasField("t") and a.t.name:
            c = AttributeProto()
            c.CopyFrom(a)
            c.t.ClearField("name")
            parts.append(_bytes(c))
        else:
            parts.append(_bytes(a))
    return b"\x01".join(parts)


SCAN = 32
"""Candidates looked at past the taken ones, for a name hint or a partial match: many equal
nodes (a model's identical constants) keep each look-up bounded, so the passes stay linear."""


def _drop_taken(candidates: list[int], taken: dict[int, int]) -> None:
    """Drop the taken candidates at the front of the list (each is passed over once)."""
    head = 0
    while head < len(candidates) and candidates[head] in taken:
        head += 1
    if head:
        del candidates[:head]


def _pick(
    candidates: list[int], hints: list[tuple[str, str]], hint: tuple[str, str], taken: dict[int, int]
) -> int | None:
    """The first candidate not taken, one with the name or first output ``hint`` says preferred."""
    _drop_taken(candidates, taken)
    if not candidates:
        return None
    looked = 0
    for c in candidates:
        if c in taken:
            continue
        h = hints[c]
        if (h[0] and h[0] == hint[0]) or (h[1] and h[1] == hint[1]):
            return c
        looked += 1
        if looked >= SCAN:
            break
    return candidates[0]


def match_graphs(ga: GraphProto, gb: GraphProto, outer: BodyMatch | None = None) -> BodyMatch:
    return match_bodies(graph_body(ga), graph_body(gb), outer)


def match_functions(fa: FunctionProto, fb: FunctionProto) -> BodyMatch:
    return match_bodies(body_of(fa), body_of(fb))


def match_bodies(a: Body, b: Body, outer: BodyMatch | None = None) -> BodyMatch:
    """The match of two bodies (``outer``: the match of the bodies around them, for subgraphs)."""
    m = BodyMatch(a, b)
    m.a2b[""] = ""
    m.b2a[""] = ""
    _match_sources(m, outer)
    attrs_a = [_attr_bytes(n) for n in a.nodes]
    attrs_b = [_attr_bytes(n) for n in b.nodes]
    every = (len(a.nodes), len(b.nodes))
    for last in (False, True):  # another operator between matched values: only once nothing else matches
        for _ in range(ROUNDS):
            before = len(m.nodes) + len(m.a2b)
            _forward(m, attrs_a, attrs_b, other_op=last)
            _backward(m)
            if len(m.nodes) + len(m.a2b) == before or len(m.nodes) in every:
                break
        if len(m.nodes) in every:
            break
    for i, j in m.nodes.items():
        na, nb = a.nodes[i], b.nodes[j]
        by_name = {x.name: x for x in nb.attribute}
        for attr in na.attribute:
            other = by_name.get(attr.name)
            if other is None:
                continue
            for k, (ga, gb) in enumerate(zip(graphs_of(attr), graphs_of(other), strict=False)):
                m.subgraphs[(i, attr.name, k)] = match_bodies(graph_body(ga), graph_body(gb), m)
    return m


def _match_sources(m: BodyMatch, outer: BodyMatch | None) -> None:
    a, b = m.a, m.b
    if outer is not None:
        for name in a.outer:
            vb = outer.a2b.get(name)
            if vb is not None and vb in b.outer:
                m.pair_values(name, vb)
    for name in a.outer:  # names defined nowhere (an invalid model): by name
        if name not in m.a2b and name in b.outer:
            m.pair_values(name, name)
    # inputs: by name, then in order when types agree (or as many are left on each side)
    in_b = set(b.inputs)
    for name in a.inputs:
        if name in in_b:
            m.pair_values(name, name)
    rest_a = [x for x in a.inputs if x not in m.a2b]
    rest_b = [x for x in b.inputs if x not in m.b2a]
    if len(rest_a) == len(rest_b):
        for xa, xb in zip(rest_a, rest_b, strict=True):
            m.pair_values(xa, xb)
    else:
        j = 0
        for xa in rest_a:
            ta = a.types.get(xa)
            while j < len(rest_b):
                tb = b.types.get(rest_b[j])
                j += 1
                if ta is not None and tb is not None and _bytes(ta) == _bytes(tb):
                    m.pair_values(xa, rest_b[j - 1])
                    break
    # initializers: equal bytes, names breaking ties; then the same name (changed values)
    first: dict[bytes, str] = {}
    for name, content in a.contents.items():
        rep = first.setdefault(content, name)
        if rep != name:
            m.classes[name] = rep
    by_content: dict[bytes, list[str]] = {}
    for name, content in b.contents.items():
        by_content.setdefault(content, []).append(name)
    later: list[tuple[str, list[str]]] = []
    for name, content in a.contents.items():
        same = by_content.get(content)
        if not same:
            continue
        if name in same:
            same.remove(name)
            m.pair_values(name, name)
        else:
            later.append((name, same))
    for name, same in later:
        while same and not m.pair_values(name, same[0]):
            same.pop(0)
        if same:
            same.pop(0)
    for name in a.initializers:
        if name not in m.a2b and name in b.initializers and name not in m.b2a:
            m.pair_values(name, name)


def _forward(m: BodyMatch, attrs_a: list[bytes], attrs_b: list[bytes], *, other_op: bool = False) -> None:
    a, b = m.a, m.b
    taken = m.nodes
    # A nodes indexed by what they read, once all their inputs are matched (exact and loose keys)
    exact: dict[tuple[object, ...], list[int]] = {}
    loose: dict[tuple[str, ...], list[int]] = {}
    by_slot: dict[tuple[tuple[str, str, str], int, str], list[int]] = {}
    for i in a.order:
        if i in taken:
            continue
        if all(x in m.a2b for x in a.ins[i]):
            _index_exact(m, i, exact, loose, attrs_a)
        for k, x in enumerate(a.ins[i]):
            if x and x in m.a2b:
                by_slot.setdefault((a.ops[i], k, m.of(x)), []).append(i)
    # B nodes by level: exact pairs of a level before the looser ones, so a changed node
    # cannot take the A node that an unchanged one beside it is
    levels: dict[int, list[int]] = {}
    for j in b.order:
        if j not in m.b_nodes:
            levels.setdefault(b.level[j], []).append(j)
    for lv in sorted(levels):
        row = levels[lv]
        left: list[int] = []
        for j in row:
            n = b.nodes[j]
            ins = _classes_of(m, b.ins[j])
            found = None
            if None not in ins:
                cands = exact.get((b.ops[j], attrs_b[j], ins))  # type: ignore[arg-type]
                if cands:
                    found = _pick(cands, a.hints, b.hints[j], taken)
            if found is None:
                left.append(j)
            else:
                m.pair_nodes(found, j)
                m.exact.add(found)
                _index_new(m, found, exact, loose, by_slot, attrs_a)
        for j in left:
            n = b.nodes[j]
            ins = _classes_of(m, b.ins[j])
            found = None
            if None not in ins and ins:
                cands = loose.get(ins)  # type: ignore[arg-type]
                if cands:
                    _drop_taken(cands, taken)
                    same_op = [c for c in cands[: 4 * SCAN] if a.ops[c] == b.ops[j]]
                    found = _pick(same_op, a.hints, b.hints[j], taken) if same_op else None
                    if found is None and other_op:
                        found = _pick(cands, a.hints, b.hints[j], taken)
            if found is None:
                found = _partial(m, n, ins, by_slot)
            if found is not None:
                m.pair_nodes(found, j)
                _index_new(m, found, exact, loose, by_slot, attrs_a)


def _classes_of(m: BodyMatch, n: tuple[str, ...]) -> tuple[str | None, ...]:
    """The classes of the A values a B node's inputs are matched to (None: not matched)."""
    out: list[str | None] = []
    for y in n:
        x = m.b2a.get(y)
        out.append(None if x is None else m.of(x))
    return tuple(out)


def _index_exact(
    m: BodyMatch,
    i: int,
    exact: dict[tuple[object, ...], list[int]],
    loose: dict[tuple[str, ...], list[int]],
    attrs_a: list[bytes],
) -> None:
    """A node ``i`` (all its inputs matched) under its exact and loose keys; a node computing what
    an earlier one computes gives its outputs that one's classes."""
    a = m.a
    ins = tuple(m.of(x) for x in a.ins[i])
    same = exact.setdefault((a.ops[i], attrs_a[i], ins), [])
    if same:
        for o, p in zip(a.outs[i], a.outs[same[0]], strict=False):
            if o and p and o not in m.classes and o != m.of(p):
                m.classes[o] = m.of(p)
    same.append(i)
    if ins:
        loose.setdefault(ins, []).append(i)


def _index_new(
    m: BodyMatch,
    i: int,
    exact: dict[tuple[object, ...], list[int]],
    loose: dict[tuple[str, ...], list[int]],
    by_slot: dict[tuple[tuple[str, str, str], int, str], list[int]],
    attrs_a: list[bytes],
) -> None:
    """The A readers of node ``i``'s outputs, now matched, enter the indexes they qualify for."""
    a = m.a
    for o in a.outs[i]:
        if not o or o not in m.a2b:
            continue
        for r, k in a.consumers.get(o, ()):
            if r in m.nodes:
                continue
            by_slot.setdefault((a.ops[r], k, m.of(o)), []).append(r)
            ins = a.ins[r]
            if all(x in m.a2b for x in ins) and ins.index(o) == k:  # once, at its first matched slot
                _index_exact(m, r, exact, loose, attrs_a)


def _partial(
    m: BodyMatch,
    n: NodeProto,
    ins: Sequence[str | None],
    by_slot: dict[tuple[tuple[str, str, str], int, str], list[int]],
) -> int | None:
    """An A node of ``n``'s operator reading the same matched value at the same place, whose
    other matched inputs agree too."""
    a = m.a
    key = _op_key(n)
    width = len(n.input)
    for k, x in enumerate(ins):
        if not x:
            continue
        found = by_slot.get((key, k, x))
        if not found:
            continue
        _drop_taken(found, m.nodes)
        for c in found[:SCAN]:
            if c in m.nodes:
                continue
            cn = a.ins[c]
            if len(cn) != width:
                continue
            if all(y is None or y == m.of(cn[q]) for q, y in enumerate(ins)):
                return c
    return None


def _backward(m: BodyMatch) -> None:
    """From the outputs and matched nodes back to their producers (see the module's notes)."""
    a, b = m.a, m.b
    pairs: list[tuple[str, str]] = []
    if len(a.outputs) == len(b.outputs):
        pairs.extend(zip(a.outputs, b.outputs, strict=True))
    else:
        names_b = set(b.outputs)
        pairs.extend((x, x) for x in a.outputs if x in names_b)
    for va, vb in pairs:
        _slot(m, va, vb)
    for j in reversed(b.order):  # a producer matched here is visited later in this order
        i = m.b_nodes.get(j)
        if i is None:
            continue
        for va, vb in zip(a.ins[i], b.ins[j], strict=False):
            _slot(m, va, vb)


def _slot(m: BodyMatch, va: str, vb: str) -> None:
    if not va or not vb or va in m.a2b or vb in m.b2a:
        return
    a, b = m.a, m.b
    pa, pb = a.producer.get(va), b.producer.get(vb)
    if pa is not None and pb is not None:
        (i, ka), (j, kb) = pa, pb
        if i in m.nodes or j in m.b_nodes or ka != kb:
            return
        xa, xb = a.ins[i], b.ins[j]
        if (
            a.ops[i] == b.ops[j]
            # another operator in the same place: reading the same values, or named alike (a hint)
            or (len(xa) == len(xb) and all(m.same_value(x, y) for x, y in zip(xa, xb, strict=True)))
            or va == vb
        ):
            m.pair_nodes(i, j)
        return
    if va in a.initializers and vb in b.initializers:
        m.pair_values(va, vb)
    elif va in a.input_set and vb in b.input_set:
        m.pair_values(va, vb)


def matched_order(m: BodyMatch) -> Iterable[tuple[int, int]]:
    """The matched node pairs (A index, B index) in B's topological order."""
    for j in m.b.order:
        i = m.b_nodes.get(j)
        if i is not None:
            yield i, j
