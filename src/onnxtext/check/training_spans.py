"""Source-map entries for ``training_info``: where its graphs and bindings are in the text.

The lowering reads the graphs of a header's ``training_info`` as property values and maps
them all under one shared ``props`` path, so the checker maps them again here, each under
its proto path (``training_info[0]/algorithm/node[2]``), by lowering the graph's AST once
more with that path. Only models with training info pay for it.
"""

from __future__ import annotations

from .. import ast as A
from ..fields import UNSET
from ..lower import Lowering
from ..proto import GraphProto
from ..span import SourceFile

__all__ = ["training_entries"]

_GRAPHS = ("initialization", "algorithm")
_BINDINGS = ("initialization_binding", "update_binding")


def _items(value: A.AstNode) -> list[A.AstNode]:
    """The values a repeated field's property appends (a list, or one value)."""
    return list(value.items) if isinstance(value, A.PropList) else [value]


def training_entries(tree: A.Model, source: SourceFile | None) -> dict[str, A.AstNode]:
    """Proto path → AST node for every ``training_info`` entry, its graphs and its bindings."""
    entries: dict[str, A.AstNode] = {}
    if tree.header is None:
        return entries
    index = 0
    for entry in tree.header.entries:
        if entry.key.value != "training_info":
            continue
        if isinstance(entry.value, A.Word) and entry.value.value == UNSET:
            index = 0  # 'unset' clears the list
            continue
        for item in _items(entry.value):
            path = f"training_info[{index}]"
            index += 1
            entries[path] = item
            if isinstance(item, A.PropDict):
                _fields(item, path, source, entries)
    return entries


def _fields(item: A.PropDict, path: str, source: SourceFile | None, entries: dict[str, A.AstNode]) -> None:
    counts = dict.fromkeys(_BINDINGS, 0)
    for field in item.entries:
        key, value = field.key.value, field.value
        if key in _GRAPHS and isinstance(value, A.GraphValue):
            lowering = Lowering(source)
            lowering.graph(value.graph, GraphProto(), f"{path}/{key}")
            entries.update(lowering.source_map.entries)
        elif key in _BINDINGS:
            if isinstance(value, A.Word) and value.value == UNSET:
                counts[key] = 0
                continue
            for pair in _items(value):
                entries[f"{path}/{key}[{counts[key]}]"] = pair
                counts[key] += 1
