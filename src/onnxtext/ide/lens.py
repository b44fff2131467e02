"""The code lens above the main graph: run it with live values, or what the last live run did."""

from __future__ import annotations

from dataclasses import dataclass

from onnxtext.document import Document
from onnxtext.evaluate.live import LiveResult
from onnxtext.span import Span
from onnxtext.syntax import ast as A

__all__ = ["Lens", "live_lens", "live_lens_title"]


@dataclass(frozen=True, slots=True)
class Lens:
    """A lens over ``span`` (the main graph's name) with ``title``."""

    span: Span
    title: str


def live_lens(document: Document, on: bool, result: LiveResult | None) -> Lens | None:
    """The live-values lens of a model's main graph; None for a text without one."""
    graph = getattr(document.tree, "graph", None)
    if not isinstance(graph, A.Graph):
        return None
    return Lens(graph.name.span, live_lens_title(on, result))


def live_lens_title(on: bool, result: LiveResult | None) -> str:
    """The code lens above the graph: run, or what the last live run did."""
    if not on:
        return "▶ Run: show live values"
    if result is None:
        return "■ Live values: running…"
    if result.skipped is not None:
        return f"■ Live values: not run ({result.skipped})"
    sizes = ", ".join(f"{k}={v}" for k, v in sorted(result.sizes.items()))
    made_up = f" on made-up inputs ({sizes})" if sizes else " on made-up inputs"
    if result.failure is not None:
        return f"■ Live values: failed{made_up}: {result.failure.message}"
    return f"■ Live values: {len(result.values)} values{made_up}"
