"""*Paste from another model* (#32): node statements copied from one model's text, pasted into
another's main graph with what they need from their model.

:func:`paste_nodes` takes the source document and the copied range (the main-graph node statements
it meets), the target document and where the cursor is in its graph body, and gives the edits of
the target's text:

- the statements, their text as written (comments kept), inserted at the start of the cursor's line;
- the initializers they read, appended to the target's ``<...>`` list (or a new one);
- the local functions they call, appended at the end of the text;
- the opset imports they use that the target lacks, added to its header's ``opset_import``.

What would clash is renamed: a value the pasted nodes make, or an initializer they bring, whose
name the target already has gets a fresh name (``h`` → ``h_2``), in the pasted statements too; so
does a name local to a pasted node's subgraph (an If, Loop or Scan body) that the target has (it
would hide the target's value there); a function whose name the target has for another body gets a
fresh one, its calls with it. The functions the brought functions call come too (callees first),
with their opset imports. A value they read that is neither (a graph input or another node's
output in the source, read by a statement or from within a subgraph) keeps its name: it connects to
the target's value of that name if there is one (``onnxtext check`` says if not).

Where the two models import an opset at different versions, the pasted nodes take the target's (its
header is not changed): :attr:`Pasted.notes` says so, and names each operator whose schema differs
between the two versions, and each brought function whose imports make one of its operators another
schema than the target model's (``onnx.checker`` refuses such a function).
"""

from __future__ import annotations

from dataclasses import dataclass

from onnxtext.analysis.symbols import ValueSymbol
from onnxtext.diagnostics import Edit
from onnxtext.document import Document
from onnxtext.ide.insert import body_opening, fresh
from onnxtext.ir.resolve import import_table
from onnxtext.ir.schemas import get_schema, normalize_domain
from onnxtext.proto import FunctionProto
from onnxtext.span import Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.vocabulary import format_string, name_text

__all__ = ["Pasted", "copied_block", "header_imports", "line_start", "paste_nodes", "within"]


@dataclass(frozen=True, slots=True)
class Pasted:
    """The target's edits (non-overlapping) and what they did."""

    edits: tuple[Edit, ...]
    nodes: int
    renamed: dict[str, str]
    """Values, initializers and functions renamed: old name → new name."""
    initializers: tuple[str, ...]
    functions: tuple[str, ...]
    imports: tuple[str, ...]
    notes: tuple[str, ...] = ()
    """What the target's opset versions change for the pasted nodes and functions (see the module)."""

    @property
    def title(self) -> str:
        parts = [f"{self.nodes} node{'s' if self.nodes != 1 else ''}"]
        if self.initializers:
            parts.append(f"{len(self.initializers)} initializer{'s' if len(self.initializers) != 1 else ''}")
        if self.functions:
            parts.append(f"{len(self.functions)} function{'s' if len(self.functions) != 1 else ''}")
        if self.imports:
            parts.append(f"opset {', '.join(self.imports)}")
        renamed = f"; renamed {', '.join(f'{a} → {b}' for a, b in self.renamed.items())}" if self.renamed else ""
        notes = "".join(f"; {note}" for note in self.notes)
        return f"Pasted {', '.join(parts)}{renamed}{notes}"


def _chosen(tree: A.Model, start: int, end: int) -> list[A.Node]:
    """The main graph's node statements ``[start, end)`` meets; the one holding ``start`` if empty."""
    chosen = [n for n in tree.graph.nodes if isinstance(n, A.Node) and n.span.start < end and start < n.span.end]
    if not chosen and start == end:
        chosen = [n for n in tree.graph.nodes if isinstance(n, A.Node) and n.span.start <= start <= n.span.end]
    return chosen


def copied_block(doc: Document, start: int, end: int | None = None) -> tuple[Span, str] | None:
    """What *Copy Nodes* takes at ``start`` (the graph's menu on a node, a cursor or a selection in
    the text): when ``start`` is in a main-graph node statement, the whole lines of the statements
    ``[start, end)`` meets, and the title of the code action copying them; else None."""
    tree = doc.tree
    if not isinstance(tree, A.Model):
        return None
    chosen = _chosen(tree, start, start if end is None else end)
    if not chosen or not chosen[0].span.start <= start <= chosen[0].span.end:
        return None
    text = doc.source.text
    block = _lines(text, chosen)
    named = next((o.value for o in chosen[0].outputs if o.value), "") if len(chosen) == 1 else ""
    what = f"node '{named}'" if named else f"{len(chosen)} node{'s' if len(chosen) != 1 else ''}"
    need = "it needs" if len(chosen) == 1 else "they need"
    return block, f"Copy {what} (to paste into another model with what {need})"


def paste_nodes(source: Document, start: int, end: int, target: Document, offset: int) -> Pasted | None:
    """The edits pasting the source's main-graph node statements that ``[start, end)`` meets into the
    target's main graph at ``offset`` (see the module's docstring); None when the range meets no
    node statement, either text is no model, or ``offset`` is not in the target's graph body."""
    s_tree, t_tree = source.tree, target.tree
    if not isinstance(s_tree, A.Model) or not isinstance(t_tree, A.Model):
        return None
    if source.model is None or target.model is None:
        return None
    chosen = _chosen(s_tree, start, end)
    body = _body(target.source.text, t_tree.graph)
    if not chosen or body is None or not body[0] < offset <= body[1]:
        return None
    s_scope = next((s for s in source.symbols.scopes if s.node is s_tree.graph), None)
    if s_scope is None:
        return None
    text = source.source.text
    block = _lines(text, chosen)
    targets = {name for s in target.symbols.scopes for name in s.values}
    taken = targets | {name for s in source.symbols.scopes for name in s.values}  # a fresh name is neither's
    made = [o.value for n in chosen for o in n.outputs if o.value]
    symbols = {name: sym for name, sym in s_scope.values.items() if isinstance(sym, ValueSymbol)}
    made_set = set(made)  # a set beside the list: thousands of pasted nodes made this quadratic (minutes)
    read = [name for name, sym in symbols.items() if name not in made_set and any(within(u, block) for u in sym.uses)]
    entries = {
        i.info.name.value: i
        for i in s_tree.graph.initializers or ()
        if isinstance(i, A.Initializer) and i.body is not None
    }
    brought = [name for name in read if name in entries]
    renamed: dict[str, str] = {}
    for name in [*made, *brought]:
        if name in targets and name not in renamed:
            renamed[name] = fresh(name, taken, sep="_")
            taken.add(renamed[name])
    # names local to the pasted nodes' subgraphs: one the target has would hide its value there
    inner: list[ValueSymbol] = []
    for scope in source.symbols.scopes:
        if scope is not s_scope and within(scope.node.span, block):
            inner.extend(sym for sym in scope.values.values() if isinstance(sym, ValueSymbol))
    local_names: dict[str, str] = {}
    for local in inner:
        if (local.name in targets or local.name in renamed.values()) and local.name not in local_names:
            local_names[local.name] = fresh(local.name, taken, sep="_")
            taken.add(local_names[local.name])
    # the block's text, renamed
    swaps: list[tuple[Span, str]] = []
    for old, new in renamed.items():
        sym = symbols.get(old)
        if sym is None:
            continue
        for span in (*(d.span for d in sym.definitions), *sym.uses):
            if within(span, block):
                swaps.append((span, name_text(new)))
    for local in inner:
        renamed_to = local_names.get(local.name)
        if renamed_to is not None:
            swaps.extend((span, name_text(renamed_to)) for span in (*(d.span for d in local.definitions), *local.uses))
    renamed.update(local_names)
    calls = [n for c in chosen for n in A.walk(c) if isinstance(n, A.Node)]
    functions, function_texts, imports, bodies = _functions(source, target, calls, renamed, swaps, taken)
    statements = _replaced(text, block, swaps)
    statements += "" if statements.endswith("\n") else "\n"
    t_text = target.source.text
    at = line_start(t_text, offset)
    if t_text[at:offset].strip():  # text before the cursor on its line: the block on the next line
        at = _line_end(t_text, offset)
        if at > body[1] or not t_text[at - 1 : at] == "\n":  # the body closes on that line
            at, statements = offset, "\n" + statements
    edits = [Edit(Span(at, at), statements)]
    literals = []
    for name in brought:
        entry = entries[name]
        renamed_to = renamed.get(name)
        swap = [(entry.info.name.span, name_text(renamed_to))] if renamed_to is not None else []
        literals.append(_replaced(text, entry.span, swap))
    if literals:
        added = _add_initializers(t_text, t_tree.graph, literals)
        if added is None:
            return None
        edits.append(added)
    # opset imports the pasted nodes (and the functions brought) use that the target lacks
    s_imports = import_table(source.model.opset_import)
    t_imports = import_table(target.model.opset_import)
    used = {normalize_domain(".".join(d.value for d in n.domain)) for n in calls} | imports
    missing = [d for d in sorted(used) if d not in t_imports and d in s_imports]
    after = {**t_imports, **{d: s_imports[d] for d in missing}}
    defined = {(f.domain, f.name) for f in source.model.functions}  # calls of these have no schema
    notes = _version_notes(calls, s_imports, after, defined) + _function_notes(bodies, after)
    if missing:
        header = header_imports(t_tree)
        if header is None or not header.items:
            return None
        last = header.items[-1].span.end
        more = "".join(f", {format_string(d.encode())}: {s_imports[d]}" for d in missing)
        edits.append(Edit(Span(last, last), more))
    if function_texts:
        tail = "" if t_text.endswith("\n") else "\n"
        edits.append(Edit(Span(len(t_text), len(t_text)), tail + "".join(f"\n{f}" for f in function_texts)))
    return Pasted(
        tuple(edits),
        len(chosen),
        renamed,
        tuple(renamed.get(n, n) for n in brought),
        tuple(functions),
        tuple(d or "ai.onnx" for d in missing),
        tuple(notes),
    )


def _key(node: A.Node) -> tuple[str, str]:
    return ".".join(d.value for d in node.domain), node.op_type.value


def _version_notes(
    calls: list[A.Node], s_imports: dict[str, int], t_imports: dict[str, int], functions: set[tuple[str, str]]
) -> list[str]:
    """The opsets the pasted nodes use that the target imports at another version than the source,
    each said with the operators whose schema differs between the two (a call of a local function
    has no schema)."""
    notes: list[str] = []
    by_domain: dict[str, list[str]] = {}
    for node in calls:
        domain, op = _key(node)
        if (domain, op) not in functions:
            by_domain.setdefault(normalize_domain(domain), []).append(op)
    for domain, ops in sorted(by_domain.items()):
        was, now = s_imports.get(domain), t_imports.get(domain)
        if was is None or now is None or was == now:
            continue
        differ = [op for op in dict.fromkeys(ops) if _schema_since(op, domain, was) != _schema_since(op, domain, now)]
        label = domain or "ai.onnx"
        said = ", ".join(f"{op} {_since_text(op, domain, was)} → {_since_text(op, domain, now)}" for op in differ)
        schemas = f": the schema differs for {said}" if differ else ": same schemas"
        notes.append(f"{label} {was} → {now} (this model's){schemas}")
    return notes


def _function_notes(bodies: list[_Body], t_imports: dict[str, int]) -> list[str]:
    """The brought functions whose own opset imports give one of their operators another schema than
    the target model's imports do (``onnx.checker`` refuses them)."""
    notes: list[str] = []
    for (domain, name), tree, proto in bodies:
        imports = import_table(proto.opset_import)
        differ: list[str] = []
        for node in (n for n in A.walk(tree) if isinstance(n, A.Node)):
            d, op = _key(node)
            d = normalize_domain(d)
            mine, model = imports.get(d), t_imports.get(d)
            if mine is not None and model is not None and mine != model:
                if _schema_since(op, d, mine) != _schema_since(op, d, model) and op not in differ:
                    differ.append(op)
        if differ:
            full = f"{domain}.{name}" if domain else name
            notes.append(f"function {full} imports another version of the schema of {', '.join(differ)}")
    return notes


def _schema_since(op: str, domain: str, version: int) -> int | None:
    schema = get_schema(op, domain, version)
    return schema.since_version if schema is not None else None


def _since_text(op: str, domain: str, version: int) -> str:
    since = _schema_since(op, domain, version)
    return f"since {since}" if since is not None else "unknown"


_Body = tuple[tuple[str, str], A.Function, FunctionProto]
"""A function brought: its (domain, name) in the source, its statement, its proto."""


def _functions(
    source: Document,
    target: Document,
    calls: list[A.Node],
    renamed: dict[str, str],
    swaps: list[tuple[Span, str]],
    taken: set[str],
) -> tuple[list[str], list[str], set[str], list[_Body]]:
    """The source's local functions the pasted nodes call (``calls``: their node statements, those of
    their subgraphs included) and the functions those call, that the target lacks: their texts,
    callees first, each renamed when the target has another of its name (its calls renamed in
    ``swaps``); the domains they and their bodies use; and what was brought."""
    s_tree, t_tree = source.tree, target.tree
    assert isinstance(s_tree, A.Model) and isinstance(t_tree, A.Model)
    assert source.model is not None and target.model is not None
    s_functions = [f for f in s_tree.functions if isinstance(f, A.Function)]
    t_functions = [f for f in t_tree.functions if isinstance(f, A.Function)]
    if len(s_functions) != len(source.model.functions) or len(t_functions) != len(target.model.functions):
        return [], [], set(), []
    s_text, t_text = source.source.text, target.source.text
    s_keys = {(f.domain, f.name): (tree, f) for tree, f in zip(s_functions, source.model.functions, strict=True)}
    t_keys = {
        (f.domain, f.name): t_text[tree.span.start : tree.span.end]
        for tree, f in zip(t_functions, target.model.functions, strict=True)
    }
    names = {f.name for f in target.model.functions}
    brought: list[str] = []
    texts: list[str] = []
    domains: set[str] = set()
    bodies: list[_Body] = []
    done: dict[tuple[str, str], str] = {}

    def bring(key: tuple[str, str]) -> str:
        """The function's name in the target, brought (its callees first) if the target lacks it."""
        if key in done:
            return done[key]
        tree, proto = s_keys[key]
        own = s_text[tree.span.start : tree.span.end]
        same = t_keys.get(key)
        if same == own:
            done[key] = key[1]
            return key[1]
        new = key[1] if same is None else fresh(key[1], names | taken, sep="_")
        names.add(new)
        done[key] = new  # before its callees: a cycle (no valid model has one) ends here
        if new != key[1]:
            swaps.append((tree.name.span, name_text(new)))
            renamed[key[1]] = new
        for call in (n for n in A.walk(tree) if isinstance(n, A.Node)):
            _call(call)
        texts.append(_replaced(s_text, tree.span, swaps) + "\n")
        brought.append(f"{key[0]}.{new}" if key[0] else new)
        domains.add(normalize_domain(key[0]))
        domains.update(normalize_domain(o.domain) for o in proto.opset_import)
        bodies.append((key, tree, proto))
        return new

    def _call(node: A.Node) -> None:
        key = _key(node)
        if key in s_keys:
            name = bring(key)
            if name != key[1]:
                swaps.append((node.op_type.span, name_text(name)))

    for node in calls:
        _call(node)
    return brought, texts, domains, bodies


def _body(text: str, graph: A.Graph) -> tuple[int, int] | None:
    """The offsets of the graph body's ``{`` and ``}``."""
    opening = body_opening(text, graph)
    closing = text.rfind("}", 0, graph.span.end)
    return (opening, closing) if 0 <= opening < closing else None


def header_imports(tree: A.Model) -> A.PropList | None:
    """The model header's ``opset_import`` list, as written (the gestures use it too)."""
    for entry in tree.header.entries if tree.header is not None else ():
        if isinstance(entry, A.PropEntry) and entry.key.value == "opset_import" and isinstance(entry.value, A.PropList):
            return entry.value
    return None


def _add_initializers(text: str, graph: A.Graph, literals: list[str]) -> Edit | None:
    listed = [i for i in graph.initializers or () if isinstance(i, (A.Initializer, A.ErrorNode))]
    if listed:
        last = listed[-1]
        return Edit(Span(last.span.end, last.span.end), "".join(f", {literal}" for literal in literals))
    outputs = list(graph.outputs)
    closing = text.find(")", outputs[-1].span.end) if outputs else -1
    if closing < 0:
        return None
    return Edit(Span(closing + 1, closing + 1), f"\n<{', '.join(literals)}>")


def _replaced(text: str, span: Span, swaps: list[tuple[Span, str]]) -> str:
    """``text[span]`` with the spans of ``swaps`` inside it replaced."""
    out, at = [], span.start
    for where, new in sorted((s for s in swaps if within(s[0], span)), key=lambda s: s[0].start):
        if where.start < at:
            continue
        out.append(text[at : where.start])
        out.append(new)
        at = where.end
    out.append(text[at : span.end])
    return "".join(out)


def _lines(text: str, chosen: list[A.Node]) -> Span:
    """The whole lines of the statements ``chosen`` (in order)."""
    return Span(line_start(text, chosen[0].span.start), _line_end(text, chosen[-1].span.end))


def within(inner: Span, outer: Span) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end


def line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _line_end(text: str, offset: int) -> int:
    end = text.find("\n", offset)
    return len(text) if end < 0 else end + 1
