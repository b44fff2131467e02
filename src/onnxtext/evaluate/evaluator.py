"""The graph interpreter: compiles a GraphProto into bound steps, then runs them."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from onnxtext.evaluate import _types as T
from onnxtext.evaluate.budget import over_budget, planned_bytes
from onnxtext.evaluate.declared import value_mismatch
from onnxtext.evaluate.errors import FAILED, OVER_BUDGET, EvaluationError, KernelError, NodeErrorRecord, describe_value
from onnxtext.evaluate.interop import fed_problem, to_external, to_internal
from onnxtext.evaluate.registry import KernelInfo, lookup
from onnxtext.evaluate.rejected import downstream
from onnxtext.evaluate.values import attribute_value, tensor_value
from onnxtext.ir.attribute_ranges import attribute_range_problems
from onnxtext.ir.paths import ProtoPath
from onnxtext.ir.resolve import Resolver
from onnxtext.ir.scoping import attribute_values, bound_attributes, call_scope
from onnxtext.proto import ModelProto, as_own

__all__ = ["Evaluator", "KernelContext", "TraceCallback", "DeepTraceCallback", "TraceEntry", "CompiledGraph"]

TraceCallback = Callable[[str, int, Any], None]
DeepTraceCallback = Callable[[ProtoPath, str, int, Any], None]
"""``(graph path, value name, node index, value)`` for every value any graph computes: the
main graph, subgraphs (each time they run) and function bodies (``functions[i]``, each call)."""

# errors a kernel may raise for bad data; they are wrapped with the node's context (AttributeError:
# a sequence, map or None where the kernel reads a tensor's dtype or shape, as an unchecked model feeds it)
_WRAPPED = (ValueError, IndexError, TypeError, ArithmeticError, KeyError, NotImplementedError, AttributeError)


@dataclass(frozen=True, slots=True)
class TraceEntry:
    name: str
    node_index: int
    value: Any


class Step:
    """One node, bound to its kernel (or to a compiled function body)."""

    __slots__ = (
        "index",
        "op_type",
        "domain",
        "name",
        "inputs",
        "outputs",
        "attrs",
        "info",
        "function",
        "graph_attrs",
        "version",
        "input_types",
    )

    def __init__(self) -> None:
        self.index = 0
        self.op_type = ""
        self.domain = ""
        self.name = ""
        self.inputs: list[str] = []
        self.outputs: list[str] = []
        self.attrs: dict[str, Any] = {}
        self.info: KernelInfo | None = None
        self.function: CompiledGraph | None = None
        self.graph_attrs: dict[str, CompiledGraph] = {}
        self.version: int | None = None
        self.input_types: list[int | None] = []


class CompiledGraph:
    """A graph (or a function body) ready to run: initializers decoded, kernels bound."""

    __slots__ = (
        "name",
        "input_names",
        "output_names",
        "initializers",
        "steps",
        "input_types",
        "output_types",
        "is_function",
        "path",
        "function",
        "value_types",
        "declared",
    )

    def __init__(self, name: str, path: ProtoPath, function: str | None = None) -> None:
        self.name = name
        self.path = path
        """Where the graph is in the model (``graph/node[3]/attribute[0]/g``, ``functions[1]``)."""
        self.function = function
        """The model-local function whose body holds this graph (``None`` outside functions)."""
        self.input_names: list[str] = []
        self.output_names: list[str] = []
        self.initializers: dict[str, Any] = {}
        self.steps: list[Step] = []
        self.input_types: list[Any] = []
        self.output_types: list[Any] = []
        self.value_types: dict[str, int] = {}
        """Element types numpy cannot tell apart (bfloat16, float8, int4, ...), by value name."""
        self.is_function = False
        self.declared: list[tuple[str, ProtoPath, Any, bool]] = []
        """A subgraph's declared tensor values: (name, declaration, ``TypeProto.Tensor``, whether
        its element type can be told from the value), checked each time the body runs."""


class BoundGraph:
    """A subgraph attribute bound to the enclosing scope; call it with its inputs."""

    __slots__ = ("graph", "outer", "evaluator")

    def __init__(self, graph: CompiledGraph, outer: Mapping[str, Any], evaluator: Evaluator) -> None:
        self.graph = graph
        self.outer = outer
        self.evaluator = evaluator

    @property
    def input_names(self) -> list[str]:
        return self.graph.input_names

    @property
    def output_names(self) -> list[str]:
        return self.graph.output_names

    def __call__(self, *inputs: Any) -> list[Any]:
        g = self.graph
        env: dict[str, Any] = dict(self.outer)
        env.update(g.initializers)
        for name, value in zip(g.input_names, inputs, strict=False):
            env[name] = value
        return self.evaluator._run_steps(g, env, None)


class KernelContext:
    """What a kernel may need beyond its inputs and attributes."""

    __slots__ = ("evaluator", "step", "n_outputs", "opset", "path", "input_types")

    def __init__(self, evaluator: Evaluator, step: Step, path: ProtoPath) -> None:
        self.evaluator = evaluator
        self.step = step
        self.n_outputs = len(step.outputs)
        self.opset = step.version
        self.path = path
        """The node's proto path."""
        self.input_types: list[int | None] = step.input_types

    def rng(self, seed: float | None = None) -> np.random.Generator:
        if seed is not None:
            return np.random.default_rng(int(np.float32(seed).view(np.int32)) & 0x7FFFFFFF)
        return self.evaluator._rng

    def output_wanted(self, i: int) -> bool:
        return i < len(self.step.outputs) and self.step.outputs[i] != ""


_AMBIGUOUS = T.EXOTIC_FLOATS | T.SUB_BYTE_INTS


def _infer_types(step: Step, types: dict[str, int]) -> None:
    """Record the element type of outputs whose numpy dtype would not tell it."""
    if not step.outputs or not step.outputs[0]:
        return
    out = step.outputs[0]
    op = step.op_type
    et: int | None = None
    if op == "Cast":
        et = step.attrs.get("to")
    elif op == "CastLike" and len(step.input_types) > 1:
        et = step.input_types[1]
    elif op in ("QuantizeLinear", "DynamicQuantizeLinear"):
        et = step.attrs.get("output_dtype") or (step.input_types[2] if len(step.input_types) > 2 else None)
    elif op in ("DequantizeLinear",):
        et = step.attrs.get("output_dtype")
    elif (
        step.input_types
        and step.input_types[0] in _AMBIGUOUS
        and op
        not in (
            "Shape",
            "Size",
            "Equal",
            "Less",
            "Greater",
            "LessOrEqual",
            "GreaterOrEqual",
            "IsNaN",
            "IsInf",
            "ArgMax",
            "ArgMin",
            "NonZero",
        )
    ):
        et = step.input_types[0]
    if et in _AMBIGUOUS and out not in types:
        types[out] = int(et)


def _type_elem(tp: Any) -> int | None:
    """Tensor element type of a TypeProto, if it is a tensor type."""
    if tp is None:
        return None
    which = tp.WhichOneof("value")
    if which == "tensor_type":
        return int(tp.tensor_type.elem_type)
    return None


def _model(model: Any) -> ModelProto:
    """Our ModelProto of ``model`` (ours, or onnx's converted); a clear ``TypeError`` for anything else."""
    try:
        return as_own(model, ModelProto)
    except TypeError:
        raise TypeError(
            f"Evaluator takes a ModelProto (onnxtext's or onnx's), not a {type(model).__qualname__}: "
            "read a file with onnxtext.load(path) and a text with onnxtext.parse_model(text)"
        ) from None


class Evaluator:
    """Runs a model with numpy kernels.

    ``model`` is an onnxtext ``ModelProto`` or an ``onnx`` one (read a file with
    :func:`onnxtext.load`, a text with :func:`onnxtext.parse_model`); anything else is a
    ``TypeError``.
    ``seed`` seeds the random generator of random ops; each :meth:`run` restarts it.
    ``max_memory`` (bytes) is a budget: a node whose output, sized from its inputs' values
    before it is computed (``ConstantOfShape``, ``Expand``, ``Tile``, broadcasting, ``Loop``
    scan outputs...), would exceed it fails with an :class:`EvaluationError` instead of
    allocating (see :mod:`onnxtext.evaluate.budget`); None: no budget.
    """

    def __init__(
        self, model: Any, *, seed: int | None = 0, max_memory: int | None = None, skip: Collection[int] = ()
    ) -> None:
        self.model = _model(model)
        self.seed = seed
        self.max_memory = max_memory
        self._rng = np.random.default_rng(seed)
        self.resolver = Resolver(self.model)
        self.opsets: dict[str, int] = self.resolver.opsets
        self._fn_cache: dict[Any, CompiledGraph] = {}
        self._fn_depth = 0
        self._expanding: set[int] = set()
        """The functions whose bodies are being compiled (by id): one called again from its own body is recursive."""
        self._trace_all: DeepTraceCallback | None = None
        self.declared_mismatches: dict[ProtoPath, str] = {}
        """After :meth:`run`: each value declared in a subgraph (value_info, outputs) that contradicted
        its declaration in some run of the body, at the declaration, with the first contradiction."""
        self.skipped = downstream(self.model.graph, skip) if skip else frozenset()
        """Nodes of the main graph left out (``skip``: nodes the checker rejected) with those reading their values."""
        self.graph = self._compile_graph(self.model.graph, self.opsets, ProtoPath.parse("graph"), skip=self.skipped)
        self.input_names = [n for n in self.graph.input_names if n not in self.graph.initializers]
        if self.skipped:  # what the left-out nodes would compute is no output of the run
            unmade = {name for i in self.skipped for name in self.model.graph.node[i].output}
            kept = [k for k, name in enumerate(self.graph.output_names) if name not in unmade]
            self.graph.output_names = [self.graph.output_names[k] for k in kept]
            self.graph.output_types = [self.graph.output_types[k] for k in kept]
        self.output_names = list(self.graph.output_names)

    # -- compilation ------------------------------------------------------------------

    def _compile_graph(
        self,
        graph: Any,
        opsets: dict[str, int],
        path: ProtoPath,
        outer_types: dict[str, int] | None = None,
        function: str | None = None,
        skip: Collection[int] = (),
    ) -> CompiledGraph:
        cg = CompiledGraph(graph.name, path, function)
        # element types numpy cannot tell apart (bfloat16, float8, int4, ...), by value name
        types: dict[str, int] = dict(outer_types or {})
        for vi in list(graph.input) + list(graph.value_info) + list(graph.output):
            et = _type_elem(vi.type) if vi.HasField("type") else None
            if et in _AMBIGUOUS:
                types[vi.name] = et
        for init in graph.initializer:
            if init.data_type in _AMBIGUOUS:
                types[init.name] = int(init.data_type)
        for k, init in enumerate(graph.initializer):
            cg.initializers[init.name] = self._decode_or_fail(init, path.child("initializer", k), function)
        for sp in graph.sparse_initializer:
            cg.initializers[sp.values.name] = tensor_value(sp)
        cg.input_names = [i.name for i in graph.input]
        cg.input_types = [i.type if i.HasField("type") else None for i in graph.input]
        cg.output_names = [o.name for o in graph.output]
        cg.output_types = [o.type if o.HasField("type") else None for o in graph.output]
        for index, node in enumerate(graph.node):
            if index in skip:
                continue
            step = self._compile_node(index, node, opsets, cg, None, types=types)
            cg.steps.append(step)
        cg.value_types = types
        if len(path) > 1 and function is None:  # a subgraph of the model (the main graph's outputs: run's R003)
            for kind in ("value_info", "output"):
                for k, vi in enumerate(getattr(graph, kind)):
                    if vi.type.HasField("tensor_type"):
                        tt = vi.type.tensor_type
                        cg.declared.append((vi.name, path.child(kind, k), tt, tt.elem_type not in _AMBIGUOUS))
        return cg

    def _decode_or_fail(self, tensor: Any, path: ProtoPath, function: str | None) -> Any:
        try:
            return tensor_value(tensor)
        except _WRAPPED as exc:
            raise EvaluationError(
                NodeErrorRecord(
                    message=f"cannot decode initializer {tensor.name!r}: {exc}", path=path, function=function
                )
            ) from exc

    def _compile_node(
        self,
        index: int,
        node: Any,
        opsets: dict[str, int],
        graph: CompiledGraph,
        fn_attrs: dict[str, Any] | None,
        types: dict[str, int] | None = None,
    ) -> Step:
        step = Step()
        step.index = index
        step.op_type = node.op_type
        step.domain = node.domain
        step.name = node.name
        step.inputs = list(node.input)
        step.outputs = list(node.output)
        resolution = self.resolver.resolve(node, opsets)
        dom = resolution.domain
        version = resolution.version
        if version is None and dom == "ai.onnx.ml":
            version = 5
        step.version = version
        attrs: dict[str, Any] = {}
        node_path = graph.path.child("node", index)
        for j, name, a2 in bound_attributes(node, fn_attrs):
            if a2.type in (5, 10):  # GRAPH, GRAPHS
                # a graph passed to a function by reference is located at the reference
                sub_path = node_path.child("attribute", j)
                if a2.type == 5:
                    step.graph_attrs[name] = self._compile_graph(a2.g, opsets, sub_path / "g", types, graph.function)
                else:
                    attrs[name] = [
                        self._compile_graph(g, opsets, sub_path.child("graphs", k), types, graph.function)
                        for k, g in enumerate(a2.graphs)
                    ]
                continue
            try:
                attrs[name] = attribute_value(a2)
            except _WRAPPED as exc:
                raise self._error(
                    step, graph, f"attribute {name!r} cannot be read: expected a value of the type it declares", exc
                ) from exc
        step.attrs = attrs
        for problem in attribute_range_problems(
            dom, node.op_type, version, node.attribute, len(step.inputs), len(step.outputs)
        ):
            if resolution.function is not None:
                break
            raise self._error(step, graph, problem.message(node.op_type), None, attribute_index=problem.index)
        if types is not None:
            step.input_types = [types.get(n) for n in step.inputs]
            _infer_types(step, types)
            if node.op_type == "Constant" and node.output:
                for a in node.attribute:
                    if a.name == "value" and a.t.data_type in _AMBIGUOUS:
                        types[node.output[0]] = int(a.t.data_type)
        if resolution.function is not None and resolution.function_index is not None:
            step.function = self._compile_function(
                resolution.function, resolution.function_index, node, fn_attrs, graph, index
            )
            return step
        info = lookup(dom, node.op_type, version)
        if info is None:
            ver = f" (opset {version})" if version is not None else ""
            if lookup(dom, node.op_type, None) is not None:
                msg = f"no kernel for {dom or 'ai.onnx'}::{node.op_type}{ver}: only newer versions are implemented"
            else:
                msg = f"no kernel for operator {dom + '::' if dom else ''}{node.op_type}{ver}"
            raise self._error(step, graph, msg, None)
        if info.attr_names is not None:
            unknown = set(attrs) - info.attr_names
            for u in unknown:
                del attrs[u]
        step.info = info
        return step

    def _compile_function(
        self,
        func: Any,
        func_index: int,
        node: Any,
        outer_fn_attrs: dict[str, Any] | None,
        caller: CompiledGraph,
        index: int,
    ) -> CompiledGraph:
        # attributes of this call: defaults from the function, then the node's own
        call_attrs = call_scope(func, attribute_values(node, outer_fn_attrs))
        # A function body sees its own imports; the model's fill in the domains it forgets to
        # import (the checker reports those, E302), so that such a model still runs.
        opsets = {**self.opsets, **self.resolver.opsets_of(func)}

        def refused(message: str) -> EvaluationError:
            at = caller.path.child("node", index)
            return EvaluationError(
                NodeErrorRecord(message, node_index=index, op_type=node.op_type, path=at, function=caller.function)
            )

        if id(func) in self._expanding:  # the checker's E405: its expansion would never end
            raise refused(f"model-local function {func.name!r} calls itself: a recursive function cannot be expanded")
        key = (id(func), tuple(sorted((k, v.SerializeToString()) for k, v in call_attrs.items())))
        cached = self._fn_cache.get(key)
        if cached is not None:
            return cached
        if len(self._fn_cache) > 10000 or self._fn_depth > 50:
            raise refused(f"function {func.name!r} recursion too deep")
        cg = CompiledGraph(func.name, ProtoPath().child("functions", func_index), func.name)
        cg.is_function = True
        cg.input_names = list(func.input)
        cg.output_names = list(func.output)
        self._fn_cache[key] = cg
        self._fn_depth += 1
        self._expanding.add(id(func))
        try:
            for i, n in enumerate(func.node):
                cg.steps.append(self._compile_node(i, n, opsets, cg, call_attrs))
        finally:
            self._fn_depth -= 1
            self._expanding.discard(id(func))
        return cg

    # -- running ----------------------------------------------------------------------

    def run(
        self,
        output_names: Sequence[str] | None,
        feeds: Mapping[str, Any],
        *,
        trace: TraceCallback | None = None,
        trace_all: DeepTraceCallback | None = None,
    ) -> list[Any]:
        """Run the model; return the values of ``output_names`` (all outputs if None).

        ``trace`` sees every value a node of the main graph computes; ``trace_all`` every
        value of every graph, subgraphs and function bodies included, with the graph's path.
        """
        g = self.graph
        env: dict[str, Any] = dict(g.initializers)
        for i, name in enumerate(g.input_names):
            if name in feeds:
                v = _as_value(feeds[name])
                _check_fed(g.path.child("input", i), i, name, v, g.input_types[i])
                env[name] = v = to_internal(v)
                _check_input(g.path.child("input", i), i, name, v, g.input_types[i])
            elif name not in env:
                raise EvaluationError(
                    NodeErrorRecord(
                        message=f"missing input {name!r}", input_index=i, input_name=name, path=g.path.child("input", i)
                    )
                )
        for name in feeds:
            if name not in env:
                env[name] = to_internal(_as_value(feeds[name]))  # feeding an intermediate value is allowed
        self._rng = np.random.default_rng(self.seed)
        self.declared_mismatches = {}
        wanted = list(output_names) if output_names is not None else g.output_names
        self._trace_all = trace_all
        try:
            with np.errstate(all="ignore"):
                self._run_steps(g, env, trace)
        finally:
            self._trace_all = None
        result = []
        declared = dict(zip(g.output_names, g.output_types, strict=True))
        for name in wanted:
            if name not in env:
                raise EvaluationError(
                    NodeErrorRecord(message=f"no value named {name!r} was computed", output_name=name, path=g.path)
                )
            result.append(to_external(env[name], declared.get(name), g.value_types.get(name)))
        return result

    def trace(self, feeds: Mapping[str, Any]) -> list[TraceEntry]:
        """Run the model and return every value computed by a node of the main graph."""
        entries: list[TraceEntry] = []
        self.run(None, feeds, trace=lambda n, i, v: entries.append(TraceEntry(n, i, v)))
        return entries

    def _run_steps(self, g: CompiledGraph, env: dict[str, Any], trace: TraceCallback | None) -> list[Any]:
        for step in g.steps:
            try:
                args = [env[n] if n else None for n in step.inputs]
            except KeyError:
                for i, n in enumerate(step.inputs):
                    if n and n not in env:
                        raise self._error(
                            step,
                            g,
                            f"input {n!r} has no value (not computed before this node)",
                            None,
                            input_index=i,
                            input_name=n,
                        ) from None
                raise
            results: Sequence[Any]
            if step.function is not None:
                results = self._call_function(step, args)
            else:
                info = step.info
                assert info is not None
                kw = step.attrs
                if step.graph_attrs:
                    kw = dict(kw)
                    for name, sub in step.graph_attrs.items():
                        kw[name] = BoundGraph(sub, env, self)
                if info.wants_ctx:
                    kw = dict(kw)
                    kw["ctx"] = KernelContext(self, step, g.path.child("node", step.index))
                if self.max_memory is not None:
                    size = planned_bytes(step.op_type, step.domain, args, step.attrs)
                    problem = None if size is None else over_budget("its output", size, self.max_memory)
                    if problem is not None:
                        raise self._error(step, g, problem, None, args=args, kind=OVER_BUDGET)
                try:
                    res = info.fn(*args, **kw)
                except EvaluationError:
                    raise
                except KernelError as exc:
                    raise self._error(
                        step,
                        g,
                        str(exc),
                        exc,
                        args=args,
                        input_index=exc.input_index,
                        output_index=exc.output_index,
                        kind=exc.kind,
                    ) from exc
                except _WRAPPED as exc:
                    raise self._error(step, g, _failure_text(step, args), exc, args=args) from exc
                except MemoryError as exc:  # numpy refuses an allocation: the node's sizes, not the run's budget
                    raise self._error(
                        step, g, f"out of memory: {exc or 'an allocation failed'}", exc, args=args
                    ) from exc
                results = res if isinstance(res, tuple) else (res,)
            outs = step.outputs
            for i, name in enumerate(outs):
                if not name:
                    continue
                if i >= len(results):
                    raise self._error(
                        step,
                        g,
                        f"the kernel produced {len(results)} output(s); output {i} is missing",
                        None,
                        args=args,
                        output_index=i,
                        output_name=name,
                    )
                v = results[i]
                if isinstance(v, np.generic):
                    v = np.asarray(v)
                env[name] = v
                if trace is not None or self._trace_all is not None:
                    seen = to_external(v, None, g.value_types.get(name))  # a bfloat16 is seen as one
                    if trace is not None:
                        trace(name, step.index, seen)
                    if self._trace_all is not None:
                        self._trace_all(g.path, name, step.index, seen)
        out = []
        for i, name in enumerate(g.output_names):
            if name not in env:
                raise EvaluationError(
                    NodeErrorRecord(
                        message=f"graph output {name!r} was not computed",
                        output_index=i,
                        output_name=name,
                        path=g.path.child("output", i),
                        function=g.function,
                    )
                )
            out.append(env[name])
        if g.declared:
            self._check_declared(g, env)
        return out

    def _check_declared(self, g: CompiledGraph, env: Mapping[str, Any]) -> None:
        """Record the first value of each of the body's declarations that contradicts it."""
        for name, where, tt, elem in g.declared:
            value = env.get(name)
            if where in self.declared_mismatches or not isinstance(value, np.ndarray):
                continue
            # each run of the body may give a symbol another size: a symbol is checked within one value
            found = value_mismatch(tt, value, {}, elem=elem)
            if found is not None:
                declared, got, what = found
                self.declared_mismatches[where] = (
                    f"'{name}' is declared {declared} but the body gave {got} ({what} differ)"
                )

    def _call_function(self, step: Step, args: list[Any]) -> list[Any]:
        fg = step.function
        assert fg is not None
        env: dict[str, Any] = {}
        for i, name in enumerate(fg.input_names):
            if name:
                env[name] = args[i] if i < len(args) else None
        return self._run_steps(fg, env, None)

    def _error(
        self,
        step: Step,
        graph: CompiledGraph,
        message: str,
        exc: BaseException | None,
        *,
        args: list[Any] | None = None,
        input_index: int | None = None,
        input_name: str | None = None,
        output_index: int | None = None,
        output_name: str | None = None,
        kind: str = FAILED,
        attribute_index: int | None = None,
    ) -> EvaluationError:
        if input_index is not None and input_name is None and input_index < len(step.inputs):
            input_name = step.inputs[input_index]
        if output_index is not None and output_name is None and output_index < len(step.outputs):
            output_name = step.outputs[output_index]
        rec = NodeErrorRecord(
            message=message,
            node_index=step.index,
            op_type=step.op_type,
            domain=step.domain,
            node_name=step.name,
            input_index=input_index,
            input_name=input_name,
            output_index=output_index,
            output_name=output_name,
            input_shapes=[describe_value(a) for a in args] if args is not None else [],
            path=graph.path.child("node", step.index)
            if attribute_index is None
            else graph.path.child("node", step.index).child("attribute", attribute_index),
            function=graph.function,
            cause=type(exc).__name__ if exc is not None else None,
            kind=kind,
        )
        return EvaluationError(rec)


def _failure_text(step: Step, args: list[Any]) -> str:
    """A kernel's failure phrased as a diagnostic (what ran on what, what was expected), never
    the Python exception's text (kept in the record's ``cause``)."""
    inputs = ", ".join(describe_value(a) for a in args) or "no inputs"
    attrs = ", ".join(f"{name} = {_attr_text(value)}" for name, value in step.attrs.items())
    given = f" with {attrs}" if attrs else ""
    return f"{step.op_type} cannot be computed on {inputs}{given}: expected inputs and attributes its schema allows"


def _attr_text(value: Any) -> str:
    """An attribute's value as the text writes it (arrays and long lists by their type)."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)) and len(value) <= 8 and all(isinstance(v, (int, float, str)) for v in value):
        return "[" + ", ".join(_attr_text(v) for v in value) + "]"
    return describe_value(value)


def _check_fed(path: ProtoPath, index: int, name: str, value: Any, tp: Any) -> None:
    """Raise EvaluationError when a fed array is of another small type than declared, or plain
    numpy whose values the declared bfloat16/float8/int4... type cannot hold."""
    if tp is None or tp.WhichOneof("value") != "tensor_type":
        return
    problem = fed_problem(value, int(tp.tensor_type.elem_type))
    if problem is not None:
        raise EvaluationError(
            NodeErrorRecord(
                message=f"input {name!r} {problem}",
                input_index=index,
                input_name=name,
                input_shapes=[describe_value(value)],
                path=path,
            )
        )


def _check_input(path: ProtoPath, index: int, name: str, value: Any, tp: Any) -> None:
    """Raise EvaluationError when a fed tensor's element type or rank contradicts the declaration."""
    if tp is None or not isinstance(value, np.ndarray) or tp.WhichOneof("value") != "tensor_type":
        return
    tt = tp.tensor_type
    et = int(tt.elem_type)
    if et and et in T.NP_DTYPE:
        want = T.NP_DTYPE[et]
        ok = value.dtype == want or (et == T.STRING and value.dtype.kind in "OUS")
        if not ok:
            raise EvaluationError(
                NodeErrorRecord(
                    message=f"input {name!r} is declared {T.TYPE_NAMES.get(et, et)} but was fed {value.dtype}",
                    input_index=index,
                    input_name=name,
                    input_shapes=[describe_value(value)],
                    path=path,
                )
            )
    if tt.HasField("shape"):
        dims = tt.shape.dim
        if len(dims) != value.ndim:
            raise EvaluationError(
                NodeErrorRecord(
                    message=f"input {name!r} is declared with rank {len(dims)} but was fed shape {list(value.shape)}",
                    input_index=index,
                    input_name=name,
                    input_shapes=[describe_value(value)],
                    path=path,
                )
            )
        for k, d in enumerate(dims):
            if d.HasField("dim_value") and d.dim_value != value.shape[k]:
                raise EvaluationError(
                    NodeErrorRecord(
                        message=f"input {name!r} dimension {k} is declared {d.dim_value} but was fed shape "
                        f"{list(value.shape)}",
                        input_index=index,
                        input_name=name,
                        input_shapes=[describe_value(value)],
                        path=path,
                    )
                )


def _as_value(v: Any) -> Any:
    if v is None or isinstance(v, (np.ndarray, list, dict)):
        return v
    if isinstance(v, tuple):
        return list(v)
    return np.asarray(v)
