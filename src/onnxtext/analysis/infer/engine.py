"""The inference pass: schema-driven element types, then the operator's shape function, node by node.

Constants (initializers and ``Constant`` outputs, up to :data:`MAX_CONST_ELEMENTS`) are
kept so that shape inputs of ``Reshape``/``Slice``/``Unsqueeze``... give shapes; like onnx's
``infer_shapes`` (without data propagation), nothing else is folded.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter

import numpy as np

from onnxtext.analysis.infer import ops as _ops  # noqa: F401  (registers the shape functions)
from onnxtext.analysis.infer.memo import InferMemo, NodeOutcome, rebased
from onnxtext.analysis.infer.node import Finding, Issue, NodeContext, ShapeMismatch
from onnxtext.analysis.infer.registry import lookup
from onnxtext.analysis.infer.shapes import merge_dim
from onnxtext.analysis.infer.types import (
    UNKNOWN,
    Shape,
    ValueType,
    contradicts,
    corrected,
    from_type_proto,
    parse_type_str,
)
from onnxtext.analysis.lineup import Keys, Lineup
from onnxtext.ir.paths import ROOT, ProtoPath
from onnxtext.ir.resolve import Resolver
from onnxtext.ir.schemas import FormalParameter, OpSchema
from onnxtext.ir.scoping import ScopeChain, attribute_values, call_scope, outer_scope
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.proto import AttributeProto, FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto

__all__ = ["Inference", "MAX_CONST_ELEMENTS", "infer_model"]

_NAMES = attrgetter("names")
_TYPES = attrgetter("types")

MAX_CONST_ELEMENTS = 4096
_TYPED = 4096
"""Distinct types whose tuples a version takes from the one before (past that, it starts anew)."""
_MAX_FUNCTION_DEPTH = 16
_GRAPH = ROOT / "graph"
_FUNCTION_BODY = ROOT / "function"
"""Where a called function's body is inferred (per call, reporting nothing)."""


@dataclass(slots=True)
class _Env(ScopeChain):
    """A graph's value types and constants (``ir/scoping``: what inference knows of each name)."""

    parent: _Env | None = None
    types: dict[str, ValueType] = field(default_factory=dict)
    consts: dict[str, np.ndarray] = field(default_factory=dict)
    pending: dict[str, list[TensorProto]] = field(default_factory=dict)
    """Initializers whose values are read when first asked for (most are weights no shape depends on)."""

    def type_of(self, name: str) -> ValueType:
        found = self.types.get(name)  # most names are the graph's own (a call per node input)
        if found is not None:
            return found
        for env in self.chain():
            found = env.types.get(name)
            if found is not None:
                return found
        return UNKNOWN

    def const_of(self, name: str) -> np.ndarray | None:
        for env in self.chain():
            if name in env.types:
                pending = env.pending.pop(name, None)
                if pending is not None:
                    env.settle(name, pending)
                return env.consts.get(name)
        return None

    def settle(self, name: str, tensors: list[TensorProto]) -> None:
        """The value of initializer ``name``: the last of its tensors that has one, as if each was read in turn."""
        for t in reversed(tensors):
            value = tensor_const(t)
            if value is not None:
                self.consts[name] = value
                return


def tensor_type(t: TensorProto) -> ValueType:
    return ValueType("tensor", t.data_type, tuple(t.dims))  # the dims are ints already


def tensor_const(t: TensorProto) -> np.ndarray | None:
    """The values of a small tensor with inline data; ``None`` otherwise."""
    if t.data_location == TensorProto.EXTERNAL or t.external_data:
        return None
    count = 1
    for d in t.dims:
        count *= int(d)
    if count > MAX_CONST_ELEMENTS:
        return None
    try:
        return to_numpy(t)
    except ValueError:  # malformed data: the tensor rules report it
        return None


def merge_declared(inferred: ValueType, declared: ValueType | None) -> ValueType:
    """What inference found, completed by a declared type (value_info, graph output)."""
    if declared is None or declared.is_unknown:
        return inferred
    if inferred.is_unknown:
        return declared
    if inferred.kind != declared.kind:
        return inferred
    if inferred.kind in ("tensor", "sparse_tensor"):
        elem = inferred.elem_type or declared.elem_type
        shape: Shape = inferred.shape
        if shape is None:
            shape = declared.shape
        elif declared.shape is not None and len(declared.shape) == len(shape):
            shape = tuple(merge_dim(a, b) for a, b in zip(shape, declared.shape, strict=True))
        return ValueType(inferred.kind, elem, shape)
    if inferred.kind in ("sequence", "optional"):
        if inferred.inner is None:
            return declared
        if declared.inner is None:
            return inferred
        return ValueType(inferred.kind, inner=merge_declared(inferred.inner, declared.inner))
    return inferred


class Inference:
    """Types of every value of a model; issues found on the way (see :func:`infer_model`)."""

    def __init__(
        self,
        model: ModelProto,
        *,
        use_declared: bool = True,
        keys: Keys | None = None,
        previous: InferMemo | None = None,
    ) -> None:
        self.model = model
        self.keys = keys
        """With keys, the main graph's node outcomes are kept (:attr:`memo`) and those of ``previous`` reused."""
        self.previous = previous
        self.memo: InferMemo | None = None
        self.reused = 0
        """How many main-graph nodes were taken from ``previous``."""
        self._log: list[tuple[str, dict[str, ValueType]]] = []
        """Every graph inferred, in order (what a main-graph node inferred is in its outcome)."""
        self.use_declared = use_declared
        self.resolver = Resolver(model)
        self.opsets = self.resolver.opsets
        self.graphs: dict[str, dict[str, ValueType]] = {}
        """Proto path of each graph (``graph``, ``graph/node[2]/attribute[0]/g``) → its values' types."""
        self.issues: list[Issue] = []
        self._depth = 0
        self._typed: dict[ValueType, tuple[ValueType]] = {}
        """One tuple per distinct type a main-graph node gave its one output, its type the one value of
        it kept: the outcomes kept across versions hold one tracked object each, not four (a chain
        of 15,000 types changed by one edit would otherwise make 60,000 long-lived objects, and the
        collector's full pass that follows)."""
        self._generic: dict[tuple[object, ...], tuple[list[ValueType], list[tuple[Finding, str, int | None]]]] = {}
        """What :meth:`generic` found, by (id of the schema, output count, input types);
        schemas live as long as the process."""

    def run(self) -> Inference:
        self.graph(self.model.graph, _GRAPH, outer_scope("main"), self.opsets, report=True)
        return self

    # ------------------------------------------------------------ graphs
    def graph(
        self,
        g: GraphProto,
        path: ProtoPath,
        parent: _Env | None,
        opsets: dict[str, int],
        *,
        report: bool,
        input_types: Sequence[ValueType | None] | None = None,
        attr_scope: dict[str, AttributeProto] | None = None,
    ) -> list[ValueType]:
        """Infer ``g``; returns the types of its outputs."""
        env = _Env(parent)
        for i, vi in enumerate(g.input):
            t = from_type_proto(vi.type) if vi.HasField("type") else UNKNOWN
            if input_types is not None and i < len(input_types) and input_types[i] is not None:
                given = input_types[i]
                assert given is not None
                t = merge_declared(given, t) if not given.is_unknown else t
            env.types[vi.name] = t
        types, pending = env.types, env.pending
        for t in g.initializer:
            name = t.name
            if name not in types:
                types[name] = tensor_type(t)
            pending.setdefault(name, []).append(t)
        for st in g.sparse_initializer:
            if st.values.name not in env.types:
                env.types[st.values.name] = ValueType("sparse_tensor", st.values.data_type, tuple(st.dims))
        declared: dict[str, ValueType] = {}
        declared_at: dict[str, ProtoPath] = {}
        if self.use_declared:
            for kind in ("value_info", "output"):
                for i, vi in enumerate(getattr(g, kind)):
                    if vi.HasField("type") and vi.name not in declared:
                        declared[vi.name] = from_type_proto(vi.type)
                        declared_at[vi.name] = path.child(kind, i)
            if report:
                self._initializers_as_declared(g, path, declared, declared_at)
        if path is _GRAPH and self.keys is not None:
            self._main_nodes(g, env, opsets, declared, declared_at)
        else:
            for k, node in enumerate(g.node):
                self.node(
                    node,
                    path.child("node", k),
                    env,
                    opsets,
                    declared,
                    report=report,
                    attr_scope=attr_scope,
                    declared_at=declared_at,
                )
        self.graphs[str(path)] = env.types
        self._log.append((str(path), env.types))
        outputs = []
        for vi in g.output:
            t = env.type_of(vi.name)
            if vi.HasField("type"):
                t = merge_declared(t, from_type_proto(vi.type))
            outputs.append(t)
        return outputs

    def _initializers_as_declared(
        self, g: GraphProto, path: ProtoPath, declared: dict[str, ValueType], declared_at: dict[str, ProtoPath]
    ) -> None:
        """E704 for a declared type (value_info, output) that contradicts the initializer of its value."""
        for i, t in enumerate(g.initializer):
            given = declared.get(t.name)
            if given is None:
                continue
            held = tensor_type(t)
            if contradicts(held, given):
                self.issues.append(
                    Issue(
                        Finding.DECLARED,
                        f"'{t.name}' is declared {_said(given)} but its initializer is {_said(held)}",
                        declared_at[t.name],
                        node_path=path.child("initializer", i),
                        node_token="name",
                        declare=corrected(held, given),
                    )
                )

    # ------------------------------------------------------------ the main graph's nodes, incrementally
    def _main_nodes(
        self,
        g: GraphProto,
        env: _Env,
        opsets: dict[str, int],
        declared: dict[str, ValueType],
        declared_at: dict[str, ProtoPath],
    ) -> None:
        """The main graph's nodes, each outcome kept; those of :attr:`previous` reused where their reads are unchanged.

        Nodes of the common prefix see what they saw before; the middle is inferred anew; a
        node of the suffix is inferred anew only when a value it reads differs from the
        previous version's at that point (``changed``: types, and constants, which a later
        node's redefinition does not reset), or when it inferred a subgraph and anything
        differs. Runs of reused outcomes are replayed in bulk.
        """
        keys = self.keys
        assert keys is not None
        nodes = g.node
        context = keys.context
        new_keys = keys.nodes
        old = self.previous
        if old is not None and (old.context != context or old.use_declared != self.use_declared):
            old = None
        outcomes: list[NodeOutcome] = []
        sparse: list[int] = []
        typed = self._typed
        if old is not None and len(old.typed) < _TYPED:
            typed.update(old.typed)  # the tuples the reused outcomes hold: a type given again is theirs

        same: dict[tuple[object, ...], tuple[ValueType, ...]] = {}
        """What a node of each signature (:func:`_signature`) gave its outputs, inferred once."""

        def infer(k: int) -> NodeOutcome:
            node = nodes[k]
            types = env.types
            issues_before, graphs_before = len(self.issues), len(self._log)
            inputs, outputs = list(node.input), list(node.output)
            signature = _signature(node, inputs, outputs, env, declared)
            like = same.get(signature) if signature is not None else None
            if like is not None:  # a node like one inferred already: its outputs' types, as that one gave them
                const = None
                for name, t in zip(outputs, like, strict=True):
                    types[name] = t
            else:
                inputs, outputs, const = self.node(
                    node, _GRAPH.child("node", k), env, opsets, declared, report=True, declared_at=declared_at
                )
                if (
                    signature is not None
                    and const is None
                    and len(self.issues) == issues_before
                    and len(self._log) == graphs_before
                    and self.resolver.resolve(node, opsets).function is None
                ):
                    same[signature] = tuple(types[n] for n in outputs)
            names = tuple(outputs) if "" not in outputs else tuple(n for n in outputs if n)
            graphs = tuple(self._log[graphs_before:]) if len(self._log) > graphs_before else ()
            given: tuple[ValueType, ...]
            if len(names) == 1:
                one = typed.get(types[names[0]])
                if one is None:
                    one = typed[types[names[0]]] = (types[names[0]],)
                else:
                    types[names[0]] = one[0]  # the type made for this node is freed at once
                given = one
            else:
                given = tuple(types[n] for n in names)
            found = NodeOutcome(
                tuple(inputs),
                names,
                given,
                const,
                tuple(self.issues[issues_before:]) if len(self.issues) > issues_before else (),
                graphs,
                bool(graphs),
            )
            if found.sparse:
                sparse.append(k)
            outcomes.append(found)
            return found

        if old is None:
            for k in range(len(nodes)):
                infer(k)
        else:
            self._reuse(old, keys.line_up(old.keys), nodes, env, infer, outcomes, sparse)
        self.memo = InferMemo(context, self.use_declared, new_keys, outcomes, sparse, typed)

    def _reuse(
        self,
        old: InferMemo,
        lineup: Lineup,
        nodes: Sequence[NodeProto],
        env: _Env,
        infer: Callable[[int], NodeOutcome],
        outcomes: list[NodeOutcome],
        sparse: list[int],
    ) -> None:
        types = env.types
        shift = lineup.shift
        previous = old.outcomes

        def replay(start: int, end: int, moved: int) -> None:
            """The outcomes of old nodes ``[start, end)`` as new nodes ``[start + moved, end + moved)``."""
            if start >= end:
                return
            run = previous[start:end]
            types.update(zip(chain.from_iterable(map(_NAMES, run)), chain.from_iterable(map(_TYPES, run)), strict=True))
            first = len(outcomes)
            outcomes.extend(run)
            for k in old.sparse[bisect_left(old.sparse, start) : bisect_left(old.sparse, end)]:
                found = previous[k]
                if moved:
                    found = rebased(found, _GRAPH.child("node", k), _GRAPH.child("node", k + moved))
                    outcomes[first + k - start] = found
                sparse.append(k + moved)
                if found.const is not None:
                    name = found.names[0]
                    env.pending.pop(name, None)
                    env.consts[name] = found.const
                self.issues.extend(found.issues)
                for path, graph_types in found.graphs:
                    self.graphs[path] = graph_types
                self._log.extend(found.graphs)
            self.reused += end - start

        replay(0, lineup.prefix, 0)
        old_middle = previous[lineup.prefix : lineup.old_count - lineup.suffix]
        touched = {n for found in old_middle for n in found.names}
        for k in range(lineup.prefix, lineup.middle_end):
            touched.update(n for n in nodes[k].output if n)
        before = {n: types.get(n) for n in touched}
        changed_consts = {found.names[0] for found in old_middle if found.const is not None}
        for k in range(lineup.prefix, lineup.middle_end):
            if infer(k).const is not None:
                changed_consts.update(outcomes[k].names)
        then = dict(before)
        for found in old_middle:
            then.update(zip(found.names, found.types, strict=True))
        changed = {n for n in touched if then[n] != types.get(n)}
        start = lineup.middle_end  # the first new index not yet replayed or inferred
        for k in range(lineup.middle_end, lineup.new_count):
            if not changed and not changed_consts:
                break
            found = previous[k - shift]
            if not (found.outer or not changed.isdisjoint(found.inputs) or not changed_consts.isdisjoint(found.inputs)):
                changed.difference_update(found.names)  # set again as before
                continue
            replay(start - shift, k - shift, shift)
            now = infer(k)
            if now.types == found.types and now.names == found.names:
                changed.difference_update(found.names)
            else:
                changed.update(found.names, now.names)
            if now.const is not None or found.const is not None:
                changed_consts.update(found.names, now.names)
            start = k + 1
        replay(start - shift, lineup.old_count, shift)

    # ------------------------------------------------------------ nodes
    def node(
        self,
        node: NodeProto,
        path: ProtoPath,
        env: _Env,
        opsets: dict[str, int],
        declared: dict[str, ValueType],
        *,
        report: bool,
        attr_scope: dict[str, AttributeProto] | None = None,
        declared_at: dict[str, ProtoPath] | None = None,
    ) -> tuple[list[str], list[str], np.ndarray | None]:
        """Infer ``node`` into ``env``; its input and output names and the constant it defines (if any)."""
        input_names = list(node.input)  # read once: each read of a repeated field builds its strings anew
        output_names = list(node.output)
        type_of = env.type_of
        inputs: list[ValueType | None] = [type_of(n) if n else None for n in input_names]
        attrs = attribute_values(node, attr_scope)
        res = self.resolver.resolve(node, opsets)
        domain, version, fn, schema = res.domain, res.version, res.function, res.schema
        op_type = node.op_type
        n_out = len(output_names)
        outputs: list[ValueType] = [UNKNOWN] * n_out

        def sink(finding: Finding, message: str, index: int | None) -> None:
            if report:
                self.issues.append(Issue(finding, message, path, index))

        issues_before = len(self.issues)
        if fn is not None:
            consts = [env.const_of(n) if n else None for n in input_names]
            outputs, inside = self.call(fn, node, inputs, consts, attrs, n_out)
            for issue in inside[:1]:  # the first: later ones often follow from it
                sink(
                    issue.finding,
                    f"in function '{fn.name}' as called here, {_body_op(fn, issue)}: {issue.message}",
                    None,
                )
        elif schema is not None:
            outputs = self.generic(schema, inputs, n_out, sink)
            shape_fn = lookup(domain, op_type, version)
            if shape_fn is not None:
                ctx = NodeContext(node, op_type, version or 0, inputs, env.const_of, attrs, outputs, sink)
                ctx.subgraph = lambda g, name, types: self.graph(  # noqa: E731
                    g,
                    path.child("attribute", _attr_index(node, name)) / "g",
                    outer_scope("subgraph", enclosing=env),
                    opsets,
                    report=report and attr_scope is None,
                    input_types=types,
                    attr_scope=attr_scope,
                )
                try:
                    shape_fn(ctx)
                except ShapeMismatch as exc:
                    sink(Finding.SHAPE, exc.message, exc.input_index)
                outputs = ctx.outputs
        types = env.types
        n_known = len(outputs)
        for j, name in enumerate(output_names):
            if not name:
                continue
            given = declared.get(name)
            if given is None:
                types[name] = outputs[j] if j < n_known else UNKNOWN
                continue
            # a node with a type error of its own gives no trustworthy type: one error, not two
            clean = len(self.issues) == issues_before
            if report and clean and declared_at is not None and j < n_known and contradicts(outputs[j], given):
                self.issues.append(
                    Issue(
                        Finding.DECLARED,
                        f"'{name}' is declared {_said(given)} but {op_type} gives {_said(outputs[j])}",
                        declared_at[name],
                        node_path=path,
                        declare=corrected(outputs[j], given),
                    )
                )
            types[name] = merge_declared(outputs[j], given) if j < n_known else UNKNOWN
        if op_type == "Constant" and domain == "" and n_out == 1 and output_names[0]:
            value = _constant_value(attrs)
            if value is not None:
                env.pending.pop(output_names[0], None)  # this value replaces an initializer's of the name
                env.consts[output_names[0]] = value
                return input_names, output_names, value
        return input_names, output_names, None

    def generic(
        self,
        schema: OpSchema,
        inputs: list[ValueType | None],
        n_out: int,
        report: Callable[[Finding, str, int | None], None],
    ) -> list[ValueType]:
        """:func:`_generic`, once per (schema, input types, output count): nodes repeat few of them."""
        key = (id(schema), n_out, *inputs)
        found = self._generic.get(key)
        if found is None:
            said: list[tuple[Finding, str, int | None]] = []
            outputs = _generic(schema, inputs, n_out, lambda *issue: said.append(issue))
            found = self._generic[key] = (outputs, said)
        for issue in found[1]:
            report(*issue)
        return list(found[0])

    def call(
        self,
        fn: FunctionProto,
        node: NodeProto,
        inputs: list[ValueType | None],
        consts: list[np.ndarray | None],
        attrs: dict[str, AttributeProto],
        n_out: int,
    ) -> tuple[list[ValueType], list[Issue]]:
        """Output types of a call of a model-local function, inferred through its body, and what
        the body's nodes prove wrong with the call's types (onnx's inference refuses those too)."""
        if self._depth >= _MAX_FUNCTION_DEPTH:
            return [UNKNOWN] * n_out, []
        scope = call_scope(fn, attrs)
        env = _Env(outer_scope("function"))
        for i, name in enumerate(fn.input):
            t = inputs[i] if i < len(inputs) else None
            env.types[name] = t if t is not None else UNKNOWN
            c = consts[i] if i < len(consts) else None
            if c is not None:
                env.consts[name] = c
        opsets = self.resolver.opsets_of(fn)
        outer_issues, self.issues = self.issues, []
        self._depth += 1
        try:
            for k, body_node in enumerate(fn.node):
                self.node(body_node, _FUNCTION_BODY.child("node", k), env, opsets, {}, report=True, attr_scope=scope)
        finally:
            self._depth -= 1
            inside, self.issues = self.issues, outer_issues
        outputs = [env.type_of(name) if name else UNKNOWN for name in list(fn.output)[:n_out]]
        return outputs + [UNKNOWN] * max(0, n_out - len(fn.output)), inside


_SUBGRAPHS = (AttributeProto.GRAPH, AttributeProto.GRAPHS)


def _body_op(fn: FunctionProto, issue: Issue) -> str:
    """The operator of the function body's node an issue found in (its path: function/node[k]/...)."""
    step = issue.path[1] if len(issue.path) > 1 else None
    if step is not None and len(step) == 2 and step[0] == "node" and step[1] < len(fn.node):
        return fn.node[step[1]].op_type
    return "a node"


def _signature(
    node: NodeProto, inputs: list[str], outputs: list[str], env: _Env, declared: dict[str, ValueType]
) -> tuple[object, ...] | None:
    """All a main-graph node's inference reads, when that is its operator, attributes and input types
    alone (the nodes of a chain, of repeated layers, share a few): None when it reads more, or writes
    more than its outputs' types (a subgraph, which sees the scope; an input with a value, which a
    shape function may read; an output with a declared type; a ``Constant``; an output unnamed or named
    twice). Inference gives every node of one signature the same output types (``Inference._main_nodes``)."""
    attributes = node.attribute
    if attributes and any(a.type in _SUBGRAPHS for a in attributes):
        return None
    op_type, domain = node.op_type, node.domain
    if op_type == "Constant" and not domain:
        return None
    if "" in outputs or len(outputs) > 1 and len(set(outputs)) < len(outputs):
        return None
    if not declared.keys().isdisjoint(outputs):
        return None
    held = b"".join(a.SerializeToString() for a in attributes) if attributes else b""
    key: list[object] = [domain, op_type, node.overload, len(outputs), held]
    types = env.types
    for name in inputs:
        if not name:
            key.append(None)
            continue
        found = types.get(name)
        if found is not None:
            if name in env.consts or name in env.pending:
                return None
        else:
            for scope in env.chain()[1:]:  # where const_of would look for its value
                found = scope.types.get(name)
                if found is not None:
                    if name in scope.consts or name in scope.pending:
                        return None
                    break
        key.append(found if found is not None else UNKNOWN)
    return tuple(key)


def _said(t: ValueType) -> str:
    """A type in a message, scalars and unknown ranks said in words (``float`` alone would be ambiguous)."""
    if t.kind == "tensor" and t.shape == ():
        return f"{t} (a scalar)".replace("[]", "")
    if t.kind == "tensor" and t.shape is None:
        return f"{t} of unknown rank"
    return str(t)


def _attr_index(node: NodeProto, name: str) -> int:
    for i, a in enumerate(node.attribute):
        if a.name == name:
            return i
    return 0


def _constant_value(attrs: dict[str, AttributeProto]) -> np.ndarray | None:
    a = attrs.get("value")
    if a is not None and a.HasField("t"):
        return tensor_const(a.t)
    if "value_int" in attrs:
        return np.array(attrs["value_int"].i, dtype=np.int64)
    if "value_ints" in attrs:
        return np.array(list(attrs["value_ints"].ints), dtype=np.int64)
    if "value_float" in attrs:
        return np.array(attrs["value_float"].f, dtype=np.float32)
    if "value_floats" in attrs:
        return np.array(list(attrs["value_floats"].floats), dtype=np.float32)
    return None


def _formal(params: Sequence[FormalParameter], i: int) -> FormalParameter | None:
    if i < len(params):
        return params[i]
    if params and params[-1].is_variadic:
        return params[-1]
    return None


def _holds_opaque(t: ValueType) -> bool:
    """Whether ``t`` is an opaque type or a sequence or optional of one (no operator of the tables takes those)."""
    return t.kind == "opaque" or (t.kind in ("sequence", "optional") and t.inner is not None and _holds_opaque(t.inner))


def _opaque_text(t: ValueType) -> str:
    return "an opaque type" if t.kind == "opaque" else str(t)


def _generic(
    schema: OpSchema,
    inputs: Sequence[ValueType | None],
    n_out: int,
    report: Callable[[Finding, str, int | None], None],
) -> list[ValueType]:
    """Check inputs against the type constraints (type-constraint and same-constraint findings);
    output types the schema implies."""
    bound: dict[str, tuple[ValueType, int]] = {}
    for i, t in enumerate(inputs):
        formal = _formal(schema.inputs, i)
        if t is None or formal is None:
            continue
        text = t.type_str()
        opaque = text is None and _holds_opaque(t)
        if text is None and not opaque:
            continue
        allowed = schema.allowed_types(formal)
        if opaque and any("opaque" in a for a in allowed):
            continue
        if opaque or text not in allowed:
            if t.kind in ("map", "sparse_tensor") or any(a.startswith("map(") for a in allowed):
                continue  # map spellings differ between tables; not worth a false error
            shown = ", ".join(allowed[:6]) + (", ..." if len(allowed) > 6 else "")
            what = f"type constraint '{formal.type_str}'" if schema.type_constraint(formal.type_str) else "it"
            report(
                Finding.TYPE_CONSTRAINT,
                f"input {i} ('{formal.name}') of '{schema.name}' is {text or _opaque_text(t)}, "
                f"but {what} allows {shown}",
                i,
            )
            continue
        constraint = schema.type_constraint(formal.type_str)
        if constraint is None or (formal.is_variadic and not formal.is_homogeneous):
            continue
        previous = bound.get(formal.type_str)
        if previous is None:
            bound[formal.type_str] = (t, i)
        elif previous[0].type_str() != text:
            report(
                Finding.SAME_CONSTRAINT,
                f"input {i} of '{schema.name}' is {text}, but input {previous[1]} is {previous[0].type_str()}: "
                f"both are '{formal.type_str}' and must have the same type",
                i,
            )
    outputs: list[ValueType] = []
    for j in range(n_out):
        formal = _formal(schema.outputs, j)
        if formal is None:
            outputs.append(UNKNOWN)
            continue
        type_str = formal.type_str
        constraint = schema.type_constraint(type_str)
        if formal.is_variadic and not formal.is_homogeneous:
            outputs.append(UNKNOWN)  # each output its own type (SequenceMap): the inputs bind none
        elif constraint is None:
            outputs.append(_strip(_parse(type_str)))
        elif type_str in bound:
            outputs.append(_strip(bound[type_str][0]))
        elif len(constraint.allowed_type_strs) == 1:
            outputs.append(_parse(constraint.allowed_type_strs[0]))
        elif all(a.startswith("tensor(") for a in constraint.allowed_type_strs):
            outputs.append(ValueType.tensor(0))
        else:
            outputs.append(UNKNOWN)
    return outputs


def _parse(text: str) -> ValueType:
    return parse_type_str(text)


def _strip(t: ValueType) -> ValueType:
    """The type without shapes: a type constraint binds element types, never sizes."""
    if t.kind in ("tensor", "sparse_tensor"):
        return t.with_shape(None)
    if t.inner is not None:
        return ValueType(t.kind, t.elem_type, t.shape, _strip(t.inner))
    return t


def infer_model(
    model: ModelProto, *, use_declared: bool = True, keys: Keys | None = None, previous: InferMemo | None = None
) -> Inference:
    """Run inference over ``model`` (ours); see :class:`Inference` for the results.

    With ``keys`` (of ``model``) the main graph's node outcomes are kept in the result's
    ``memo``, and those of ``previous`` (an earlier version's memo) reused where nothing
    they read changed: the result equals a run from scratch.
    """
    return Inference(model, use_declared=use_declared, keys=keys, previous=previous).run()
