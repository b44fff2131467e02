"""E601: training-info bindings name state variables (initializers) and graph outputs."""

from __future__ import annotations

from ...proto import ModelProto
from ..context import CheckContext
from ..rule import Rule


class TrainingBindings(Rule):
    code = "E601"
    name = "training-bindings"
    description = "Binding keys are distinct initializers of the main or algorithm graph; values are outputs of the bound graph."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        state = {t.name for t in model.graph.initializer}
        for i, info in enumerate(model.training_info):
            path = f"training_info[{i}]"
            variables = state | {t.name for t in info.algorithm.initializer}
            if len(info.initialization_binding) and not info.HasField("initialization"):
                ctx.report(self.code, "initialization_binding is given but there is no initialization graph", path)
            bindings = (
                ("initialization_binding", info.initialization_binding, {o.name for o in info.initialization.output}),
                ("update_binding", info.update_binding, {o.name for o in info.algorithm.output}),
            )
            for field, entries, outputs in bindings:
                seen: set[str] = set()
                for k, entry in enumerate(entries):
                    where = f"{path}/{field}[{k}]"
                    if entry.key in seen:
                        ctx.report(self.code, f"{field} binds '{entry.key}' twice", where)
                    seen.add(entry.key)
                    if entry.key not in variables:
                        ctx.report(
                            self.code,
                            f"{field} key '{entry.key}' is not an initializer of the main or algorithm graph",
                            where,
                        )
                    if entry.value not in outputs:
                        graph = "initialization" if field == "initialization_binding" else "algorithm"
                        ctx.report(self.code, f"{field} value '{entry.value}' is not an output of the {graph} graph", where)
