"""The one diagnostic policy: every problem of a text's :class:`~onnxtext.document.Document` (an :class:`Analysed`).

The command line (``onnxtext check``), the Python API (:func:`onnxtext.check`,
:func:`onnxtext.diagnose`) and the language server all call :func:`diagnose`, so they
report the same thing for the same text. It goes on past syntax and lowering errors: the
checker runs on the best-effort protobuf of every text. What a damaged statement hides is
told to the checker (:mod:`onnxtext.analysis.check.damage`); what a statement the lowering
rejected defines (an unknown element type, a bad tensor literal, a bad attribute) is read
off the tree, and the checker's findings about it are knock-ons of the lowering error,
left out: one mistake, one diagnostic.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from onnxtext._gc import collector_paused
from onnxtext.analysis.check import code_list, run_rules
from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.damage import Damage, damage_by_scope
from onnxtext.analysis.check.reuse import CheckMemo, Plan
from onnxtext.analysis.infer.engine import Inference, infer_model
from onnxtext.analysis.infer.memo import InferMemo, NodeOutcome
from onnxtext.analysis.lineup import Keys, Lineup, Splice
from onnxtext.analysis.symbols import Symbol, Symbols, ValueSymbol
from onnxtext.diagnostics import Diagnostic
from onnxtext.lowering.lower import BAD_TENSOR, DIGEST_RECORD
from onnxtext.lowering.source_map import SourceMap
from onnxtext.proto import ModelProto
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.messages import SYNTAX

__all__ = ["AnalysisCache", "Analysed", "KnockOns", "check_document", "diagnose", "knock_on_spans"]

_MAIN = "graph"
"""The main graph's proto path (damage is given by path)."""

_HOLDERS = (A.ValueInfo, A.Initializer, A.Attribute, A.TensorValue, A.PropEntry)
"""The statements a lowering error damages: the innermost one holding it is left out of the
protobuf (or lowered without what was wrong), and so is what it defines."""


class Analysed(Protocol):
    """What the policy reads of one text version: :class:`onnxtext.document.Document` is one.

    Declared here, below the document: a ``Document`` computes its analyses with this package
    (symbols, inference, types, resolutions), so nothing of it imports ``onnxtext.document``
    (``tests/test_layers.py``)."""

    source: SourceFile
    tree: Any
    diagnostics: list[Diagnostic]
    """Its parse and lowering diagnostics."""
    source_map: SourceMap

    @property
    def ok(self) -> bool: ...
    @property
    def model(self) -> ModelProto | None: ...
    @property
    def symbols(self) -> Symbols: ...
    @property
    def inference(self) -> Inference | None: ...
    def made_inference(self) -> Inference | None: ...
    def keep_inference(self, inference: Inference) -> None: ...
    def nodes_at(self, offset: int) -> list[A.AstNode]: ...
    def symbol_at(self, offset: int) -> Symbol | None: ...


@dataclass
class AnalysisCache:
    """What a caller analysing version after version of one text keeps between them (the language
    server: one per open document; the command line never needs one).

    It holds the latest analysed version's per-node results of inference and of the checker
    (:mod:`onnxtext.analysis.infer.memo`, :mod:`onnxtext.analysis.check.reuse`), so the next
    version analyses again only the nodes that changed and those that read what they changed,
    as rust-analyzer's queries over unchanged inputs; the results equal an analysis from
    scratch. One version only: the cache does not grow with the number of edits.
    """

    infer: InferMemo | None = None
    older: InferMemo | None = None
    """The inference memo of the version before :attr:`infer`'s, kept for an edit undone: a typo that
    broke a chain of types and its mending re-infer every later node, and the mended text is the one
    before the typo, whose memo lines up with it whole (an undo, a letter typed and deleted likewise).
    Two versions at most: the cache does not grow with the number of edits."""
    check: CheckMemo | None = None
    reused: dict[str, int] = field(default_factory=dict)
    """How many main-graph nodes the last analysis took from the previous version (``infer``, ``check``)."""
    _keys: tuple[weakref.ref[Analysed], Keys] | None = field(default=None, init=False, repr=False)
    _node_keys: tuple[weakref.ref[Analysed], list[bytes]] | None = field(default=None, init=False, repr=False)
    """The last analysed document's main-graph node keys, for the next version made from it (:meth:`spliced`)."""

    def keys(self, document: Analysed) -> Keys:
        """``document``'s node and context keys, computed once for inference and the checker (its node keys
        carried from the version it was made from, when :meth:`spliced` was told)."""
        model = document.model
        assert model is not None, "only a model has keys"
        if self._keys is not None and self._keys[0]() is document and self._keys[1].model is model:
            return self._keys[1]
        known = self._node_keys
        keys = Keys(model, known[1] if known is not None and known[0]() is document else None)
        self._keys = (weakref.ref(document), keys)
        return keys

    def spliced(self, previous: Analysed, document: Analysed, splice: Splice) -> None:
        """``document`` was made from ``previous`` by re-reading (``incremental.reread``): its main-graph
        node keys are ``previous``'s, by position, but for the nodes ``splice`` replaced, the only ones
        serialized again (what lies before and after the change is not compared byte by byte anew)."""
        known, self._node_keys = self._node_keys, None
        model = document.model
        if known is None or known[0]() is not previous or model is None:
            return
        nodes = splice.carried(model, known[1])
        if len(nodes) == len(model.graph.node):
            self._node_keys = (weakref.ref(document), nodes)

    def release(self) -> None:
        """Forget the analysed model (its keys), keeping its node keys for the next version made from it
        (:meth:`spliced`): the memos are all the next version needs."""
        if self._keys is not None:
            ref, keys = self._keys
            if keys.known_nodes is not None:
                self._node_keys = (ref, keys.known_nodes)
        self._keys = None

    @property
    def empty(self) -> bool:
        """No version recorded yet (the next analysis is a whole one)."""
        return self.infer is None and self.check is None

    def forget(self) -> None:
        """Record nothing of the versions analysed so far (the next analysis is a whole one)."""
        self.infer = self.older = self.check = None
        self._keys = self._node_keys = None

    def _inferred(self, memo: InferMemo) -> None:
        """``memo`` is the latest version's; the one it replaces is kept as the older."""
        if memo is not self.infer:
            self.older, self.infer = self.infer, memo

    def previous(self, keys: Keys) -> InferMemo | None:
        """The recorded inference to make ``keys``' model's from: the latest, or the older one when it
        lines up with fewer nodes between the common prefix and suffix (the edit since it was undone)."""
        latest, older = self.infer, self.older
        if older is None or older.context != keys.context:
            return latest
        if latest is None or latest.context != keys.context:
            return older
        return older if _apart(keys.line_up(older.keys)) < _apart(keys.line_up(latest.keys)) else latest

    def inference(self, document: Analysed) -> Inference | None:
        """``document``'s inference, made from the previous version's where it can (and kept as the document's)."""
        model = document.model
        if model is None:
            return None
        known = document.made_inference()  # a request asked first
        if known is not None:
            if known.memo is not None:
                self._inferred(known.memo)
            return known
        keys = self.keys(document)
        with collector_paused():
            found = infer_model(model, keys=keys, previous=self.previous(keys))
        assert found.memo is not None, "inference with keys keeps its memo"
        self._inferred(found.memo)
        self.reused["infer"] = found.reused
        document.keep_inference(found)
        return found

    def plan(
        self,
        document: Analysed,
        select: list[str] | None,
        ignore: list[str] | None,
        model_dir: Path | None,
        damage: dict[str, Damage],
    ) -> Plan | None:
        """How the checker takes the main graph's nodes from the previous version."""
        model = document.model
        if model is None:
            return None
        keys = self.keys(document)
        main = damage.get(_MAIN)  # its names are told to the plan: the nodes that read them are checked anew
        context = (
            keys.context,
            None if select is None else tuple(select),
            None if ignore is None else tuple(ignore),
            model_dir,
            main is None or main.complete,
            tuple(sorted((path, found) for path, found in damage.items() if path != _MAIN)),
        )
        damaged = main.names if main is not None else frozenset()

        def shared() -> list[NodeOutcome] | None:  # inference runs first when a type rule is chosen
            return self.infer.outcomes if self.infer is not None and self.infer.keys is keys.nodes else None

        return Plan(context, keys, self.check, document.source, document.source_map, damaged, shared)


def _apart(lineup: Lineup) -> int:
    """How many nodes of either version lie between the common prefix and suffix."""
    return lineup.old_count + lineup.new_count - 2 * (lineup.prefix + lineup.suffix)


def diagnose(
    document: Analysed,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    *,
    model_dir: str | os.PathLike[str] | None = None,
    cache: AnalysisCache | None = None,
) -> list[Diagnostic]:
    """Parse, lowering and checker diagnostics of ``document``, in text order, knock-ons left out.

    ``select``/``ignore`` choose checker rules by code prefix (parse and lowering
    diagnostics are always reported); ``model_dir`` is where external data is looked up.
    A document that is not a model (a graph, a node) has only its parse and lowering ones.
    ``cache``: the previous version's analysis (see :class:`AnalysisCache`), updated to this one's.
    """
    found = list(document.diagnostics)
    with collector_paused():
        checked = check_document(document, select, ignore, model_dir=model_dir, cache=cache)
    if cache is not None:
        cache.release()
    if checked:
        hidden = knock_on_spans(document)
        found.extend(d for d in checked if not hidden.covers(d))
    found.sort(key=lambda d: d.offset)
    return found


def check_document(
    document: Analysed,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    *,
    model_dir: str | os.PathLike[str] | None = None,
    cache: AnalysisCache | None = None,
) -> list[Diagnostic]:
    """The checker's diagnostics of ``document``'s model, located in its text (knock-ons included);
    ``[]`` for a document that is not a model. ``cache``: as :func:`diagnose`'s."""
    model = document.model
    if model is None:
        return []
    repairs = [d.offset for d in document.diagnostics if d.code == SYNTAX]
    damage = damage_by_scope(document.symbols, document.source_map, repairs) if not document.ok else {}
    folder = Path(model_dir) if model_dir is not None else None
    ctx = CheckContext(
        model,
        source=document.source,
        source_map=document.source_map,
        tree=document.tree,
        model_dir=folder,
        # only if a type rule asks; shared with hover and inlay hints
        inference=(lambda: _inference(document)) if cache is None else (lambda: _cached(cache, document)),
        damage=damage,
    )
    if cache is None:
        return run_rules(ctx, select, ignore)
    chosen = None if select is None else code_list(list(select))
    ignored = None if ignore is None else code_list(list(ignore))
    plan = cache.plan(document, chosen, ignored, folder, damage)
    found = run_rules(ctx, chosen, ignored, plan=plan)
    if plan is not None:
        cache.check = plan.memo()
        cache.reused["check"] = len(plan.nodes) - len(plan.checked)
    return found


def _cached(cache: AnalysisCache, document: Analysed) -> Inference:
    found = cache.inference(document)
    assert found is not None, "a document with a model has its inference"
    return found


def _inference(document: Analysed) -> Inference:
    found = document.inference
    assert found is not None, "a document with a model has its inference"
    return found


@dataclass(frozen=True, slots=True)
class KnockOns:
    """Where a checker finding is a knock-on of a lowering error: inside one of ``spans`` (any
    code), or inside one of ``scopes`` with a code that starts with one of its prefixes."""

    spans: tuple[Span, ...] = ()
    scopes: tuple[tuple[Span, tuple[str, ...]], ...] = ()

    def covers(self, diag: Diagnostic) -> bool:
        if diag.span is None:
            return False
        at = diag.span.offsets
        return any(_within(at, s) for s in self.spans) or any(
            _within(at, s) and diag.code.startswith(codes) for s, codes in self.scopes
        )


def _within(inner: Span, outer: Span) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end


_OPSET_DEPENDENT = ("E3", "E4", "E7", "W3")
"""The findings that depend on which operator sets a scope imports (schemas, function bodies, types)."""
_TYPE_DEPENDENT = ("E7",)
"""The findings about a value that depend on its type (inference's)."""
_ATTRIBUTE_DEPENDENT = ("E306", "E307", "E310", "E7")
"""The findings about a node that depend on its attributes' values (their types, presence; shapes and types)."""
_STOPS = (A.Node, A.Graph, A.Function, A.Model)
"""A lowering error damages the outermost holder inside the innermost of these."""


def _is_digest_record(diag: Diagnostic) -> bool:
    """A tensor written as its digest (a view by reference, ``print --weights digest``): its type
    and shape are lowered, only its data is elsewhere, so what reads it is typed."""
    return diag.code == BAD_TENSOR and diag.message.startswith(DIGEST_RECORD)


def knock_on_spans(document: Analysed) -> KnockOns:
    """What the statements holding lowering errors defined, as places in the text (see :class:`KnockOns`).

    The statement holding an error (a value declaration, an initializer, a node's attribute,
    a header entry) is left out or lowered without what was wrong; the values it defines,
    and the outputs of every node computed from them, have no (right) type: the type
    findings at their definitions, uses and type annotations are knock-ons. A node's attribute makes
    the node's attribute and type findings knock-ons (its subgraphs included); a header's
    ``opset_import`` entry the operator findings of its whole model or function.
    """
    spans: list[Span] = []
    scopes: list[tuple[Span, tuple[str, ...]]] = []
    tainted: list[ValueSymbol] = []
    for diag in document.diagnostics:
        if not diag.is_error or diag.code.startswith("P") or diag.span is None:
            continue
        around = document.nodes_at(diag.offset)
        holder: A.AstNode | None = None
        owner: A.AstNode | None = None
        for node in reversed(around):
            if isinstance(node, _STOPS):
                owner = node
                break
            if isinstance(node, _HOLDERS):
                holder = node
        if holder is None:
            continue
        spans.append(holder.span)
        if (
            isinstance(holder, A.PropEntry)
            and holder.key.value == "opset_import"
            and isinstance(owner, (A.Model, A.Function))
        ):
            scopes.append((owner.span, _OPSET_DEPENDENT))
        elif isinstance(holder, A.Attribute) and isinstance(owner, A.Node):
            scopes.append((owner.span, _ATTRIBUTE_DEPENDENT))
            tainted.extend(_symbols(document, owner.outputs))
        elif isinstance(holder, (A.ValueInfo, A.Initializer)) and not _is_digest_record(diag):
            tainted.extend(_symbols(document, [holder.info.name if isinstance(holder, A.Initializer) else holder.name]))
    scopes.extend((span, _TYPE_DEPENDENT) for span in _flow(document, tainted))
    return KnockOns(tuple(spans), tuple(scopes))


def _symbols(document: Analysed, names: list[A.Ident]) -> list[ValueSymbol]:
    found = (document.symbol_at(name.span.start) for name in names)
    return [s for s in found if isinstance(s, ValueSymbol)]


def _flow(document: Analysed, start: list[ValueSymbol]) -> list[Span]:
    """The definitions, uses and type annotations of ``start`` and of every value computed from them."""
    spans: list[Span] = []
    seen: set[int] = set()
    work = list(start)
    while work:
        symbol = work.pop()
        if id(symbol) in seen:
            continue
        seen.add(id(symbol))
        spans.extend(symbol.definition_spans())
        for use in symbol.uses:
            spans.append(use)
            around = document.nodes_at(use.start)
            info = next((n for n in reversed(around) if isinstance(n, A.ValueInfo)), None)
            if info is not None:
                spans.append(info.span)  # its declared type is where a type finding points
            node = next((n for n in reversed(around) if isinstance(n, A.Node)), None)
            if node is not None and any(i.span == use for i in node.inputs):
                work.extend(_symbols(document, node.outputs))
    return spans
