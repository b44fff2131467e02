"""E601: training-info bindings name state variables (initializers) and graph outputs."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.proto import ModelProto, StringStringEntryProto


class TrainingBindings(Rule):
    code = "E601"
    name = "training-bindings"
    description = (
        "Binding keys are distinct initializers of the main or algorithm graph, each updated by one "
        "training_info; values are outputs of the bound graph."
    )

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        state = {t.name for t in model.graph.initializer}
        main_outputs = {o.name for o in model.graph.output}
        updated: dict[str, tuple[int, str]] = {}  # key → (training_info, binding) that updates it
        for i, info in enumerate(model.training_info):
            path = f"training_info[{i}]"
            variables = state | {t.name for t in info.algorithm.initializer}
            if len(info.initialization_binding) and not info.HasField("initialization"):
                ctx.report(self.code, "initialization_binding is given but there is no initialization graph", path)
            # onnx.proto also lets an update bind a main-graph output (the algorithm runs appended to it).
            bindings = (
                ("initialization_binding", info.initialization_binding, {o.name for o in info.initialization.output}),
                ("update_binding", info.update_binding, {o.name for o in info.algorithm.output} | main_outputs),
            )
            for field, entries, outputs in bindings:
                seen: dict[str, str] = {}
                for k, entry in enumerate(entries):
                    where = f"{path}/{field}[{k}]"
                    self._entry(ctx, field, entry, where, variables, outputs, seen)
                    if field == "update_binding":
                        self._updated_once(ctx, entry, (i, where), updated)

    def _entry(
        self,
        ctx: CheckContext,
        field: str,
        entry: StringStringEntryProto,
        where: str,
        variables: set[str],
        outputs: set[str],
        seen: dict[str, str],
    ) -> None:
        if entry.key in seen:
            ctx.report(
                self.code,
                f"{field} binds '{entry.key}' twice",
                where,
                related=(("first bound here", seen[entry.key], None),),
            )
        seen.setdefault(entry.key, where)
        if entry.key not in variables:
            ctx.report(
                self.code, f"{field} key '{entry.key}' is not an initializer of the main or algorithm graph", where
            )
        if entry.value not in outputs:
            graph = "initialization graph" if field == "initialization_binding" else "algorithm or main graph"
            ctx.report(self.code, f"{field} value '{entry.value}' is not an output of the {graph}", where)

    def _updated_once(
        self,
        ctx: CheckContext,
        entry: StringStringEntryProto,
        here: tuple[int, str],
        updated: dict[str, tuple[int, str]],
    ) -> None:
        """onnx.proto: keys are unique over all update_bindings, so a variable is assigned at most once."""
        first = updated.setdefault(entry.key, here)
        if first[0] != here[0]:
            ctx.report(
                self.code,
                f"state variable '{entry.key}' is already updated by training_info[{first[0]}]; "
                "a variable may be bound in one update_binding only",
                here[1],
                related=(("first bound here", first[1], None),),
            )
