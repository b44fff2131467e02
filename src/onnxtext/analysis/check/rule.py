"""The base class of checker rules: a code, a name, a one-line description, and hooks the walk calls."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from onnxtext.analysis.check.context import CheckContext, GraphInfo, NodeInfo, Resolution, Token
from onnxtext.analysis.infer.node import Finding, Issue
from onnxtext.diagnostics import Fix, Severity
from onnxtext.proto import AttributeProto, FunctionProto, ModelProto, NodeProto, TensorProto

__all__ = ["Rule", "InferenceRule"]


class Rule:
    """One rule. Override the hooks it needs; :mod:`onnxtext.analysis.check.walk` calls only those.

    Hooks, in walk order: ``model`` once; per graph (main graph, subgraphs, function
    bodies) ``graph`` after its inputs and initializers are in scope, ``node`` per node
    before its outputs are defined (subgraphs of the node are walked right after it),
    ``attribute`` per node attribute, ``tensor`` per tensor (initializers, attribute
    tensors), ``graph_end`` after the last node; ``function`` per model-local function
    before its body. The graphs of ``training_info`` are walked after the main graph
    (:attr:`GraphInfo.training` names which one), before the functions. ``finish`` comes
    last, once (for rules that report a summary of what they saw). A rule whose ``node`` is
    about some operators only says which in ``applies_to``.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    description: ClassVar[str]

    default_severity: ClassVar[Severity | None] = None
    """How the rule reports unless asked otherwise; None: what its code says (``W…`` a warning,
    anything else an error). A rule about something a person rarely acts on says ``INFO``."""

    @classmethod
    def severity(cls, select: Iterable[str] | None = None) -> Severity:
        """The rule's severity: its default, or what its code says when ``select`` names the code
        in full (``--select W201`` reports W201 as a warning again)."""
        by_code = Severity.WARNING if cls.code.startswith("W") else Severity.ERROR
        if cls.default_severity is None or any(s.strip().upper() == cls.code for s in select or ()):
            return by_code
        return cls.default_severity

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        pass

    def graph(self, ctx: CheckContext, graph: GraphInfo) -> None:
        pass

    def graph_end(self, ctx: CheckContext, graph: GraphInfo) -> None:
        pass

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        pass

    def reads_types(self, node: NodeProto) -> bool:
        """Whether :meth:`node` may read the inferred types of ``node``'s inputs: its findings then
        depend on more than the node and the names defined where it stands, and the analysis
        cache checks it again in every version (``analysis/check/reuse.py``)."""
        return False

    def applies_to(self, resolution: Resolution) -> bool:
        """Whether :meth:`node` may report on a node that calls ``resolution``: the walk calls it
        for those nodes only (asking once per operator). A rule about some operators says which."""
        return True

    def attribute(self, ctx: CheckContext, node: NodeInfo, index: int, attr: AttributeProto) -> None:
        pass

    def tensor(self, ctx: CheckContext, tensor: TensorProto, path: str, token: object) -> None:
        pass

    def function(self, ctx: CheckContext, fn: FunctionProto, path: str) -> None:
        pass

    def finish(self, ctx: CheckContext) -> None:
        pass

    def collected(self) -> list[tuple[str, str, Token, str]] | None:
        """What the rule collects per main-graph node for :meth:`finish` ((name, path, token, what) entries),
        which an incremental check replays for the nodes it takes from the previous version; None: nothing."""
        return None


class InferenceRule(Rule):
    """A rule whose errors type and shape inference proves: inference decides (its findings,
    located at a node input, the node, or a contradicted declaration), the rule gives the finding
    its code. The check's one inference (``ctx.inference``) is shared by every such rule."""

    finding: ClassVar[Finding]

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        for issue in ctx.inference.issues:
            if issue.finding is self.finding:
                related = tuple((note, str(path), token) for note, path, token in issue.related)
                fix = self.fix(ctx, issue)
                ctx.report(self.code, issue.message, str(issue.path), token=issue.token, related=related, fix=fix)

    def fix(self, ctx: CheckContext, issue: Issue) -> Fix | None:
        """The fix of one finding, if the rule has one."""
        return None
