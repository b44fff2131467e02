"""The graph's gestures as edits of the text: what can be done to the statement under the cursor.

A plain query over a :class:`~onnxtext.document.Document` (the server offers each answer as a
code action; the graph view will offer the same): each gesture is a few small edits of the text
around the statements it changes, never a re-printing, so Undo reverts it and comments elsewhere
stay where they are. The gestures are those of ``onnxtext edit`` (:mod:`onnxtext.surgery`), on the
main graph:

- on a node: delete it (an Identity, a Dropout at inference or a Cast to its input's own type is
  bypassed: its readers read its input, or its input's producer makes its graph output), delete it
  with what only fed it, make one of its outputs a graph output (with the inferred type), or stop
  exporting one;
- on a graph output: stop exporting it;
- on a graph input: set a dimension (a symbol to 1, a size to a fresh symbol), or make it an
  initializer of zeros (a fixed shape of at most :data:`ZEROS_LIMIT` numbers, to edit after);
- on an initializer: make it a graph input of its type;
- on a selection of node statements: extract them to a new model (``new_model``, a file the server
  creates beside the text) or move them into a local function called in their place.

Each gesture names the ``onnxtext edit`` (or ``extract``) operation it equals; the tests hold the
two equal on every statement of the examples.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from onnxtext.analysis.infer.text import type_text as value_type_text
from onnxtext.analysis.symbols import Definition, Scope, ValueSymbol
from onnxtext.diagnostics import Edit
from onnxtext.document import Document
from onnxtext.ide.insert import fresh, holds
from onnxtext.ide.paste import header_imports, line_start, within
from onnxtext.ir.dtypes import dtype_by_name
from onnxtext.printing.lift import Lifter, NotRepresentable
from onnxtext.printing.text import to_text
from onnxtext.proto import FunctionProto, NodeProto
from onnxtext.span import Span
from onnxtext.surgery import SurgeryError, extract, identity_input
from onnxtext.surgery.names import captured, nested_graphs
from onnxtext.syntax import ast as A
from onnxtext.syntax.printer import Printer
from onnxtext.syntax.vocabulary import format_string, name_text

__all__ = [
    "FEEDERS_LIMIT",
    "Gesture",
    "REWRITE",
    "ZEROS_LIMIT",
    "extract_selection",
    "extracted_uri",
    "function_from_selection",
    "gestures_at",
]

REWRITE = "refactor.rewrite"
"""The kind of every gesture (LSP's ``CodeActionKind.RefactorRewrite``)."""
ZEROS_LIMIT = 4096
"""The most numbers an input made an initializer of zeros is written with."""
FEEDERS_LIMIT = 2000
"""The most statements *Delete node and what only fed it* deletes (beyond, ``onnxtext edit`` does it)."""

_PRINTER = Printer()


@dataclass(frozen=True, slots=True)
class Gesture:
    """One change offered at the cursor: its title and the edits that make it (non-overlapping)."""

    title: str
    edits: tuple[Edit, ...]
    operation: tuple[str, str]
    """The same change as ``onnxtext edit`` says it: the option and its value (``("add-output", "h")``,
    ``("set-input-shape", "x=1,N")``); an input made an initializer of zeros is ``("constant", "x")``."""
    kind: str = REWRITE
    new_model: str | None = None
    """The text of a new model file the gesture makes (``Extract to model``), its ``edits`` empty."""


def gestures_at(doc: Document, start: int, end: int | None = None) -> list[Gesture]:
    """The gestures on the main-graph statement at ``start``; with a selection (``end``) that meets
    node statements, also extracting them to a new model (:func:`extract_selection`)."""
    tree = doc.tree
    if not isinstance(tree, A.Model) or doc.model is None:
        return []
    graph = tree.graph
    scope = next((s for s in doc.symbols.scopes if s.node is graph), None)
    if scope is None:
        return []
    found = _Query(doc, graph, scope).at(start)
    if end is not None and end > start:
        for make in (extract_selection, function_from_selection):
            made = make(doc, start, end)
            if made is not None:
                found.append(made)
    return found


def _selected(doc: Document, start: int, end: int) -> list[tuple[A.Node, int]]:
    """The main graph's node statements the selection meets, with their node indices."""
    tree = doc.tree
    chosen: list[tuple[A.Node, int]] = []
    if not isinstance(tree, A.Model):
        return chosen
    statements = _Statements(tree.graph)
    k = max(0, bisect_right(statements.starts, start) - 1)
    while k < len(statements.nodes) and statements.nodes[k].span.start < end:
        node = statements.nodes[k]
        k += 1
        if node.span.end <= start:
            continue
        path = doc.source_map.path_of(node)
        step = path[-1] if path is not None and len(path) == 2 else None
        if step is not None and len(step) == 2 and step[0] == "node":
            chosen.append((node, step[1]))
    return chosen


def _signature(doc: Document, chosen: list[tuple[A.Node, int]]) -> tuple[list[str], list[str], list[str]] | None:
    """What the chosen nodes read from outside them (first read first), what the rest of the graph
    reads from them or exports, and what they make that nothing reads: ``surgery.function_signature``
    (held equal by the tests), found on the symbol tables at the cost of the selection, not the graph."""
    model, tree = doc.model, doc.tree
    if model is None or not isinstance(tree, A.Model):
        return None
    graph = tree.graph
    scope = next((s for s in doc.symbols.scopes if s.node is graph), None)
    if scope is None:
        return None
    query = _Query(doc, graph, scope)
    gone = {i for i in (query.statements.index(node) for node, _ in chosen) if i is not None}
    if len(gone) != len(chosen):
        return None
    protos = [model.graph.node[k] for _, k in chosen]
    made = [o for node in protos for o in node.output if o]
    # sets beside the lists: a selection of thousands of nodes was quadratic in them (minutes)
    made_set = set(made)
    read_by_them = {n for node in protos for n in node.input} | {
        n for node in protos for sub in nested_graphs(node) for n in captured(sub)
    }
    reads: dict[str, None] = {}  # in the order first read
    for node in protos:
        for name in (*node.input, *(n for sub in nested_graphs(node) for n in sorted(captured(sub)))):
            if name and name not in made_set:
                reads.setdefault(name)
    given, unread = [], []
    for name in made:
        symbol = scope.values.get(name)
        if symbol is None:
            return None
        if query._read_outside(symbol, gone):
            given.append(name)
        elif name not in read_by_them:
            unread.append(name)
    return list(reads), given, unread


def function_from_selection(doc: Document, start: int, end: int, domain: str = "local") -> Gesture | None:
    """The selected node statements moved into a new local function (their text, comments and all, as
    its body) and a call of it in their place; the model imports ``domain`` if it did not. What
    ``onnxtext edit --extract-function`` does (:func:`onnxtext.surgery.extract_function`)."""
    model, tree = doc.model, doc.tree
    chosen = _selected(doc, start, end)
    if model is None or not isinstance(tree, A.Model) or not chosen:
        return None
    indices = [k for _, k in chosen]
    if indices != list(range(indices[0], indices[-1] + 1)):
        return None
    block = [n for n in tree.graph.nodes if chosen[0][0].span.start <= n.span.start <= chosen[-1][0].span.start]
    if len(block) != len(chosen):  # a damaged statement among them: its text would move with them
        return None
    signature = _signature(doc, chosen)
    if signature is None or not signature[1]:
        return None
    inputs, outputs, _ = signature
    name = fresh("Extracted", {f.name for f in model.functions if f.domain == domain})
    text = doc.source.text
    edits: list[Edit] = []
    if not any(o.domain == domain for o in model.opset_import):
        imports = header_imports(tree)
        if imports is None or not imports.items:
            return None
        at = imports.items[-1].span.end
        edits.append(Edit(Span(at, at), f", {format_string(domain.encode())}: 1"))
    function = FunctionProto(name=name, domain=domain, input=inputs, output=outputs)
    function.opset_import.extend(model.opset_import)
    try:
        head = str(_PRINTER.print(Lifter().function(function, "functions", nodes=False)))
    except NotRepresentable:
        return None
    first, last = _statement_extent(text, chosen[0][0].span), _statement_extent(text, chosen[-1][0].span)
    body = text[first.start : last.end]
    body += "" if body.endswith("\n") else "\n"
    indent = text[text.rfind("\n", 0, chosen[0][0].span.start) + 1 : chosen[0][0].span.start]
    indent = indent if indent.strip() == "" else "   "
    call = f"{', '.join(name_text(o) for o in outputs)} = {domain}.{name} ({', '.join(name_text(i) for i in inputs)})"
    edits.append(
        Edit(Span(first.start, last.end), f"{indent}{call}\n" if first.start == line_start(text, first.start) else call)
    )
    closing = head.rindex("}")
    tail = "" if text.endswith("\n") else "\n"
    edits.append(Edit(Span(len(text), len(text)), f"{tail}\n{head[:closing]}{body}}}\n"))
    made = {o for k in indices for o in model.graph.node[k].output if o}
    graph = tree.graph
    scope = next((s for s in doc.symbols.scopes if s.node is graph), None)
    if scope is not None:
        edits.extend(_Query(doc, graph, scope)._drop_entries(made - set(outputs), values=False))
    count = len(indices)
    called = [next((o for o in model.graph.node[k].output if o), model.graph.node[k].name) for k in indices]
    if not all(called):
        return None  # a node with neither an output nor a name: nothing names it to the library
    firsts = ",".join(called)
    title = f"Extract {count} node{'s' if count != 1 else ''} to a local function ({domain}.{name})"
    return Gesture(title, tuple(edits), ("extract-function", f"{firsts}={name}"))


def extract_selection(doc: Document, start: int, end: int) -> Gesture | None:
    """The main-graph nodes whose statements the selection meets (some, not all), as a new model (``new_model``): it
    reads what they read from outside (initializers kept as initializers) and gives what they make
    that the rest of the graph reads, exports, or nothing reads (``onnxtext extract``'s sub-model)."""
    model = doc.model
    if model is None:
        return None
    selected = _selected(doc, start, end)
    graph = model.graph
    if not selected or len(selected) == len(graph.node):  # every node: that is the model itself
        return None
    signature = _signature(doc, selected)
    if signature is None:
        return None
    read, given, unread = signature
    constants = {t.name for t in graph.initializer} | {s.values.name for s in graph.sparse_initializer}
    reads = [n for n in read if n not in constants]  # a model keeps its initializers
    outputs = [o for o in (o for _, k in selected for o in graph.node[k].output if o) if o in given or o in unread]
    try:
        inference = doc.inference  # the document's own, computed once
        sub = extract(model, reads, outputs, inference.graphs.get("graph") if inference is not None else None).model
        text = to_text(sub)
    except (SurgeryError, NotRepresentable):
        return None
    count = len(sub.graph.node)
    title = f"Extract {count} node{'s' if count != 1 else ''} to a new model"
    return Gesture(title, (), ("extract", f"{','.join(reads)} -> {','.join(outputs)}"), new_model=text)


def extracted_uri(uri: str) -> str:
    """Where ``Extract to model`` writes: ``model.onnxtxt`` → ``model.extract.onnxtxt`` (a binary
    model's view too: ``model.onnx`` → ``model.extract.onnxtxt``)."""
    stem, dot, suffix = uri.rpartition(".")
    base = stem if dot and "/" not in suffix else uri
    return base + ".extract.onnxtxt"


class _Query:
    """The gestures of one document's main graph."""

    def __init__(self, doc: Document, graph: A.Graph, scope: Scope) -> None:
        self.doc = doc
        self.text = doc.source.text
        self.graph = graph
        self.scope = scope

    def at(self, start: int) -> list[Gesture]:
        """The gestures on the statement at ``start``."""
        graph = self.graph
        for node in graph.nodes:
            if isinstance(node, A.Node) and holds(node.span, start):
                return self.on_node(node)
        for output in graph.outputs:
            if isinstance(output, A.ValueInfo) and holds(output.span, start):
                return [g for g in (self.stop_exporting(output.name.value),) if g is not None]
        for item in graph.inputs or ():
            if isinstance(item, A.Initializer) and holds(item.span, start):
                return self.on_input(item, start)
        for entry in graph.initializers or ():
            if isinstance(entry, A.Initializer) and entry.body is not None and holds(entry.span, start):
                return [g for g in (self.initializer_to_input(entry),) if g is not None]
        return []

    # ------------------------------------------------------------ nodes
    def on_node(self, node: A.Node) -> list[Gesture]:
        found = [self.delete_node(node)]
        feeders = self.delete_with_feeders(node)
        if feeders is not None:
            found.append(feeders)
        exported = {o.name.value for o in self.graph.outputs if isinstance(o, A.ValueInfo)}
        for out in node.outputs:
            name = out.value
            if not name:
                continue
            gesture = self.stop_exporting(name) if name in exported else self.make_output(name)
            if gesture is not None:
                found.append(gesture)
        return found

    def delete_node(self, node: A.Node) -> Gesture:
        label = node.label.value if node.label is not None else next((o.value for o in node.outputs if o.value), "?")
        statement = _statement_extent(self.text, node.span)
        edits = [Edit(statement, "")]
        proto = self._proto(node)
        passed = identity_input(self.doc.model, proto) if proto is not None and self.doc.model is not None else None
        title = f"Delete node '{label}'"
        rewired = (
            self._bypass(node.outputs[0].value, passed, statement) if passed is not None and node.outputs else None
        )
        if rewired is not None:
            edits.extend(rewired)
            title += f" (its readers read '{passed}')"
        else:  # declarations of what nothing reads go too
            here = self.statements.index(node)
            outs = [(o.value, self.scope.values.get(o.value)) for o in node.outputs if o.value]
            unread = {n for n, v in outs if here is not None and v is not None and not self._read_outside(v, {here})}
            edits.extend(self._drop_entries(unread, values=False))
        first = next((o.value for o in node.outputs if o.value), label)
        return Gesture(title, tuple(edits), ("delete-node", first))

    def _proto(self, node: A.Node) -> NodeProto | None:
        path = self.doc.source_map.path_of(node)
        found = path.resolve(self.doc.model) if path is not None else None
        return found if isinstance(found, NodeProto) else None

    def _bypass(self, out: str, passed: str, statement: Span) -> list[Edit] | None:
        """The edits making the readers of ``out`` read ``passed`` (or ``passed``'s producer make
        ``out``, when it is a graph output); None when neither can be done."""
        out_symbol, in_symbol = self.scope.values.get(out), self.scope.values.get(passed)
        if out_symbol is None or in_symbol is None:
            return None
        if not out_symbol.is_output:
            dropped = self._drop_entries({out}, values=False)
            inside = [d.span for d in dropped] + [statement]
            uses = [s for s in out_symbol.uses if not any(within(s, span) for span in inside)]
            return [*dropped, *(Edit(s, name_text(passed)) for s in uses)]
        if in_symbol.is_output or [d.kind for d in self._defined(in_symbol)] != ["node-output"]:
            return None
        dropped = self._drop_entries({out}, values=False)
        inside = [d.span for d in dropped] + [statement]
        spans = self.doc.symbols.rename_spans(in_symbol)
        return [*dropped, *(Edit(s, name_text(out)) for s in spans if not any(within(s, x) for x in inside))]

    def delete_with_feeders(self, node: A.Node) -> Gesture | None:
        """Delete the node, the nodes that only fed it and the initializers only they read (None: there
        are none, or more than :data:`FEEDERS_LIMIT` statements would go: ``onnxtext edit`` does that).

        Walked on the symbol tables (a value's uses, each in the statement that holds it), so the cost
        is that of the statements that go, not of the graph's (:func:`onnxtext.surgery.only_feeders`
        is the same walk on the protobuf, which the tests hold this one equal to)."""
        model = self.doc.model
        proto = self._proto(node)
        if model is None or proto is None or identity_input(model, proto) is not None:
            return None  # (a bypassed node's input is read on: nothing only fed it)
        statements = self.statements
        start = statements.index(node)
        if start is None:
            return None
        gone = {start}
        todo = [start]
        constants: dict[str, ValueSymbol] = {}
        while todo:
            here = self._proto(statements.nodes[todo.pop()])
            if here is None:
                return None
            for name in (*here.input, *(n for sub in nested_graphs(here) for n in sorted(captured(sub)))):
                symbol = self.scope.values.get(name)
                if symbol is None or symbol.is_output:
                    continue
                defined = self._defined(symbol)
                if [d.kind for d in defined] == ["initializer"]:
                    constants[name] = symbol
                    continue
                made = len(defined) == 1 and defined[0].kind == "node-output"
                maker = statements.owner(defined[0].span) if made else None
                if maker is None or maker in gone:
                    continue
                outs = [self.scope.values.get(o.value) for o in statements.nodes[maker].outputs if o.value]
                if all(o is not None and not o.is_output and not self._read_outside(o, gone) for o in outs):
                    gone.add(maker)
                    todo.append(maker)
                    if len(gone) > FEEDERS_LIMIT:
                        return None
        unread = [n for n, symbol in constants.items() if not self._read_outside(symbol, gone)]
        if len(gone) == 1 and not unread:
            return None
        edits = [Edit(_statement_extent(self.text, statements.nodes[i].span), "") for i in sorted(gone)]
        values = {o.value for i in gone for o in statements.nodes[i].outputs if o.value}
        dropped = {v for v in values if (s := self.scope.values.get(v)) is not None and not self._read_outside(s, gone)}
        edits += self._drop_entries(dropped | set(unread), values=True)
        label = node.label.value if node.label is not None else next((o.value for o in node.outputs if o.value), "?")
        first = next((o.value for o in node.outputs if o.value), label)
        count = len(gone) - 1
        what = [f"{count} node{'s' if count != 1 else ''}"] if count else []
        what += [f"{len(unread)} initializer{'s' if len(unread) != 1 else ''}"] if unread else []
        title = f"Delete node '{label}' and what only fed it ({', '.join(what)})"
        return Gesture(title, tuple(edits), ("delete-node-and-feeders", first))

    @cached_property
    def statements(self) -> _Statements:
        return _Statements(self.graph)

    @cached_property
    def declarations(self) -> set[int]:
        """Where the names of the ``<...>`` list's value_info entries start (uses that read nothing)."""
        return {
            item.info.name.span.start
            for item in self.graph.initializers or ()
            if isinstance(item, A.Initializer) and item.body is None
        }

    def _defined(self, symbol: ValueSymbol) -> list[Definition]:
        """Where ``symbol`` is defined, its value_info declarations left out (the tables count them)."""
        return [d for d in symbol.definitions if d.span.start not in self.declarations]

    def _read_outside(self, symbol: ValueSymbol, gone: set[int]) -> bool:
        """Whether a statement not in ``gone`` reads ``symbol`` (a graph output counts; a declaration not)."""
        if symbol.is_output:
            return True
        for span in symbol.uses:
            if span.start in self.declarations:
                continue
            owner = self.statements.owner(span)
            if owner is None or owner not in gone:
                return True
        return False

    # ------------------------------------------------------------ outputs
    def make_output(self, name: str) -> Gesture | None:
        symbol = self.scope.values.get(name)
        vt = self.doc.type_of(symbol) if isinstance(symbol, ValueSymbol) else None
        type_text = value_type_text(vt)
        if type_text is None:
            return None
        outputs = [o for o in self.graph.outputs if isinstance(o, A.ValueInfo)]
        if not outputs:
            return None
        edit = self._append_item(outputs, f"{type_text} {name_text(name)}")
        return Gesture(f"Make '{name}' a graph output ({type_text})", (edit,), ("add-output", name))

    def stop_exporting(self, name: str) -> Gesture | None:
        items = list(self.graph.outputs)
        for k, item in enumerate(items):
            if isinstance(item, A.ValueInfo) and item.name.value == name:
                if len(items) == 1:
                    return None  # a graph has at least one output
                return Gesture(f"Stop exporting '{name}'", (self._remove_item(items, k),), ("remove-output", name))
        return None

    # ------------------------------------------------------------ inputs and initializers
    def on_input(self, item: A.Initializer, offset: int) -> list[Gesture]:
        name = item.info.name.value
        if item.body is not None:  # an input with a default: drop the default
            default = Span(item.info.span.end, item.span.end)
            edit = Edit(default, "")
            return [
                Gesture(f"Make '{name}' an input without its default value", (edit,), ("input-from-initializer", name))
            ]
        found: list[Gesture] = []
        ty = item.info.type
        if isinstance(ty, A.TensorType) and ty.shape is not None:
            dims = ty.shape
            at = [d for d in dims if holds(d.span, offset)]
            params = self._dim_params()
            for k, dim in enumerate(dims):
                if at and dim not in at:
                    continue
                if dim.param is not None:
                    title = f"Set dimension {k} of '{name}' ({dim.param}) to 1"
                    edit = Edit(_dim_value_span(self.text, dim), "1")
                    shape = _shape_text(dims, k, "1")
                elif dim.value is not None:
                    symbol = fresh("N" if k == 0 else f"{name}_{k}", params)
                    title = f"Make dimension {k} of '{name}' ({dim.value}) symbolic: {symbol}"
                    edit = Edit(_dim_value_span(self.text, dim), name_text(symbol))
                    shape = _shape_text(dims, k, symbol)
                else:
                    continue
                found.append(Gesture(title, (edit,), ("set-input-shape", f"{name}={shape}")))
            zeros = self.input_to_initializer(item)
            if zeros is not None:
                found.append(zeros)
        return found

    def _declaration(self, info: A.ValueInfo) -> str:
        """``float[4] w``: the type and the name as written (a property block is the old statement's)."""
        name = self.text[info.name.span.start : info.name.span.end]
        if info.type is None:
            return name
        return f"{self.text[info.type.span.start : info.type.span.end]} {name}"

    def _dim_params(self) -> set[str]:
        model = self.doc.model
        params: set[str] = set()
        if model is None:
            return params
        for infos in (model.graph.input, model.graph.output, model.graph.value_info):
            for info in infos:
                params.update(d.dim_param for d in info.type.tensor_type.shape.dim if d.dim_param)
        return params

    def input_to_initializer(self, item: A.Initializer) -> Gesture | None:
        ty = item.info.type
        if not isinstance(ty, A.TensorType) or ty.shape is None or ty.sparse:
            return None
        dtype = dtype_by_name(ty.elem.value)
        if dtype is None or dtype.kind in ("string", "complex"):
            return None
        sizes = [d.value for d in ty.shape]
        if any(s is None for s in sizes):
            return None
        count = 1
        for s in sizes:
            count *= s or 0
        if count > ZEROS_LIMIT:
            return None
        inputs = [i for i in self.graph.inputs or () if isinstance(i, (A.Initializer, A.ErrorNode))]
        if len(inputs) == 1:
            return None  # the graph keeps its input list; a model without inputs is rarely meant
        k = inputs.index(item)
        declaration = self._declaration(item.info)
        literal = f"{declaration} = {{{', '.join(['0'] * count)}}}"
        added = self._add_initializer(literal)
        if added is None:
            return None
        edits = [self._remove_item(inputs, k), added]
        name = item.info.name.value
        return Gesture(f"Make '{name}' an initializer (zeros, to edit)", tuple(edits), ("constant", name))

    def initializer_to_input(self, item: A.Initializer) -> Gesture | None:
        name = item.info.name.value
        listed = list(self.graph.initializers or ())
        k = listed.index(item)
        declaration = self._declaration(item.info)
        removal = self._remove_item(listed, k)
        if len(listed) == 1:
            removal = self._remove_list(removal)
        inputs = list(self.graph.inputs or ())
        if inputs:
            added = self._append_item(inputs, declaration)
        else:  # the signature's '(' follows the graph's name (and its blanks)
            opening = self.graph.name.span.end
            while opening < len(self.text) and self.text[opening] in " \t\r\n":
                opening += 1
            if self.text[opening : opening + 1] != "(":
                return None
            added = Edit(Span(opening + 1, opening + 1), declaration)
        return Gesture(
            f"Make '{name}' a graph input (its values dropped)", (removal, added), ("input-from-initializer", name)
        )

    # ------------------------------------------------------------ list edits
    def _drop_entries(self, names: set[str], *, values: bool) -> list[Edit]:
        """Remove the entries of the ``<...>`` list named in ``names``: value_info ones, and initializers
        too when ``values``; the list itself when none is left."""
        listed = list(self.graph.initializers or ())
        gone = [
            k
            for k, item in enumerate(listed)
            if isinstance(item, A.Initializer) and item.info.name.value in names and (values or item.body is None)
        ]
        if not gone:
            return []
        if len(gone) == len(listed):
            whole = Edit(Span(listed[0].span.start, listed[-1].span.end), "")
            return [self._remove_list(whole)]
        edits: list[Edit] = []
        kept = [k for k in range(len(listed)) if k not in gone]
        for run in _runs(gone):
            after = next((k for k in kept if k > run[-1]), None)
            if after is not None:
                edits.append(Edit(Span(listed[run[0]].span.start, listed[after].span.start), ""))
            else:
                before = max(k for k in kept if k < run[0])
                edits.append(Edit(Span(listed[before].span.end, listed[run[-1]].span.end), ""))
        return edits

    def _remove_item(self, items: Sequence[A.AstNode], k: int) -> Edit:
        """Remove ``items[k]`` from its comma-separated list, with one of the commas around it."""
        item = items[k]
        if k + 1 < len(items):
            return Edit(Span(item.span.start, items[k + 1].span.start), "")
        if k > 0:
            return Edit(Span(items[k - 1].span.end, item.span.end), "")
        return Edit(Span(item.span.start, item.span.end), "")

    def _remove_list(self, removal: Edit) -> Edit:
        """The removal of a list's only item widened to its ``<`` and ``>`` when only blanks lie between."""
        text = self.text
        lo = removal.span.start
        while lo > 0 and text[lo - 1] in " \t\r\n":
            lo -= 1
        hi = removal.span.end
        while hi < len(text) and text[hi] in " \t\r\n":
            hi += 1
        if lo > 0 and text[lo - 1] == "<" and hi < len(text) and text[hi] == ">":
            start = lo - 1
            while start > 0 and text[start - 1] in " \t\r\n":
                start -= 1
            return Edit(Span(start, hi + 1), "")
        return removal

    def _append_item(self, items: Sequence[A.AstNode], new: str) -> Edit:
        """Insert ``new`` after the last of ``items``: on a line of its own when they each have one."""
        last = items[-1]
        line_start = self.text.rfind("\n", 0, last.span.start) + 1
        indent = self.text[line_start : last.span.start]
        if indent and indent.strip() == "":
            return Edit(Span(last.span.end, last.span.end), f",\n{indent}{new}")
        return Edit(Span(last.span.end, last.span.end), f", {new}")

    def _add_initializer(self, literal: str) -> Edit | None:
        listed = [i for i in self.graph.initializers or () if isinstance(i, (A.Initializer, A.ErrorNode))]
        if listed:
            return self._append_item(listed, literal)
        outputs = list(self.graph.outputs)
        closing = self.text.find(")", outputs[-1].span.end) if outputs else -1
        if closing < 0:
            return None
        return Edit(Span(closing + 1, closing + 1), f"\n<{literal}>")


class _Statements:
    """The main graph's node statements in text order, and which one holds a span (by bisection)."""

    def __init__(self, graph: A.Graph) -> None:
        self.nodes = [n for n in graph.nodes if isinstance(n, A.Node)]
        self.starts = [n.span.start for n in self.nodes]

    def owner(self, span: Span) -> int | None:
        k = bisect_right(self.starts, span.start) - 1
        return k if k >= 0 and span.end <= self.nodes[k].span.end else None

    def index(self, node: A.Node) -> int | None:
        k = self.owner(node.span)
        return k if k is not None and self.nodes[k] is node else None


def _runs(indices: list[int]) -> list[list[int]]:
    """Sorted indices in runs of consecutive ones."""
    runs: list[list[int]] = []
    for k in indices:
        if runs and runs[-1][-1] == k - 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    return runs


def _dim_value_span(text: str, dim: A.Dim) -> Span:
    """The dimension's size or symbol, without the property block some dimensions carry."""
    if dim.props is None:
        return dim.span
    end = dim.props.span.start
    while end > dim.span.start and text[end - 1] in " \t":
        end -= 1
    return Span(dim.span.start, end)


def _shape_text(dims: Sequence[A.Dim], k: int, new: str) -> str:
    """The dimensions as ``onnxtext edit --set-input-shape`` writes them, dimension ``k`` made ``new``."""
    words = [d.param if d.param is not None else "?" if d.value is None else str(d.value) for d in dims]
    words[k] = new
    return ",".join(words)


def _statement_extent(text: str, span: Span) -> Span:
    """A statement's span with its own lines: the indentation before it and, when nothing but a
    comment follows it on its line, the rest of the line and its line break."""
    start, end = span.start, span.end
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip() == "":
        start = line_start
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    rest = text[end:line_end].strip()
    if (rest == "" or rest.startswith("#")) and start == line_start:
        end = min(len(text), line_end + 1)
    return Span(start, end)
