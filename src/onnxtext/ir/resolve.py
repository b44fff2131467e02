"""What a node calls: one node → schema / model-local function resolution for every stage.

The checker, inference and the evaluator all ask a :class:`Resolver` which operator a
node names, so they agree on it. The rules, from the IR spec:

* the domains ``""`` and ``"ai.onnx"`` are the same (:func:`normalize_domain`);
* the version of a domain is the one imported by the scope the node is in: the model's
  ``opset_import`` for its graphs (before IR 3, a model without imports has the default
  opset 1), a function's own ``opset_import`` inside its body (:meth:`Resolver.opsets_of`);
* a model-local function with the node's (domain, op_type, overload) wins over a schema
  (the first of two functions with the same key; the checker reports the second);
* else the schema in effect for the domain's version (:func:`get_schema`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from onnxtext.ir.paths import ROOT
from onnxtext.ir.schemas import OpSchema, get_schema, normalize_domain
from onnxtext.proto import FunctionProto, ModelProto, NodeProto

__all__ = ["FunctionKey", "Resolution", "Resolver", "function_key", "import_table"]

FunctionKey = tuple[str, str, str]
"""(normalised domain, name, overload): what identifies a model-local function."""


def import_table(imports: Iterable[Any]) -> dict[str, int]:
    """Domain (``""`` for ``ai.onnx``) → version of ``opset_import`` entries; the last import of a
    domain wins, as in onnx.checker and onnxruntime (W106 warns of such a conflict)."""
    return {normalize_domain(entry.domain): int(entry.version) for entry in imports}


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a node's (domain, op_type, overload) names."""

    domain: str
    """Normalised: ``""`` for ``ai.onnx``."""
    version: int | None
    """The imported opset version of the domain; ``None`` when the domain is not imported."""
    schema: OpSchema | None = None
    function: FunctionProto | None = None
    function_index: int | None = None
    """Index of :attr:`function` in ``model.functions``."""

    @property
    def function_path(self) -> str | None:
        """``functions[i]``: the proto path of the called function, if any."""
        return str(ROOT.child("functions", self.function_index)) if self.function_index is not None else None

    @property
    def resolved(self) -> bool:
        return self.schema is not None or self.function is not None


class Resolver:
    """Resolves the nodes of one model (its imports and its model-local functions)."""

    __slots__ = ("model", "opsets", "functions", "_resolved")

    def __init__(self, model: ModelProto) -> None:
        self.model = model
        self.opsets = import_table(model.opset_import)
        """The model's imports: the opsets of its graphs (main, nested, training)."""
        if not model.opset_import and 0 < model.ir_version < 3:
            self.opsets[""] = 1  # before IR 3 the default opset 1 was implied
        self.functions: dict[FunctionKey, tuple[FunctionProto, int]] = {}
        """Model-local functions by key, with their index in ``model.functions`` (the first of a key wins)."""
        for i, fn in enumerate(model.functions):
            self.functions.setdefault(function_key(fn), (fn, i))
        self._resolved: dict[tuple[str, str, str, int | None], Resolution] = {}
        """(domain as written, op_type, overload, imported version) → its resolution: nodes repeat few operators."""

    def opsets_of(self, function: FunctionProto | None = None) -> dict[str, int]:
        """The opsets a function body sees (its own imports), or the model's for ``None``."""
        if function is None:
            return self.opsets
        return import_table(function.opset_import)

    def function(self, domain: str, name: str, overload: str = "") -> tuple[FunctionProto, int] | None:
        """The model-local function with this key and its index, if any."""
        return self.functions.get((normalize_domain(domain), name, overload))

    def overloads(self, domain: str, name: str) -> list[str]:
        """The overloads of the model-local functions called ``name`` in ``domain``."""
        dom = normalize_domain(domain)
        return [key[2] for key in self.functions if key[0] == dom and key[1] == name]

    def resolve(self, node: NodeProto, opsets: dict[str, int]) -> Resolution:
        """A model-local function if one has the node's (domain, op_type, overload), else the schema.

        ``opsets`` are those of the scope the node is in (:meth:`opsets_of`).
        """
        written = node.domain
        domain = normalize_domain(written)
        version = opsets.get(domain)
        key = (written, node.op_type, node.overload, version)
        found = self._resolved.get(key)
        if found is None:
            found = self._resolved[key] = self._resolution(domain, version, key[1], key[2])
        return found

    def _resolution(self, domain: str, version: int | None, op_type: str, overload: str) -> Resolution:
        local = self.functions.get((domain, op_type, overload))
        if local is not None:
            return Resolution(domain, version, function=local[0], function_index=local[1])
        schema = get_schema(op_type, domain, version) if version is not None else None
        return Resolution(domain, version, schema=schema)


def function_key(fn: FunctionProto) -> FunctionKey:
    """The (normalised domain, name, overload) that identifies ``fn``."""
    return (normalize_domain(fn.domain), fn.name, fn.overload)
