"""W103: The model's domain, when set, should be a reverse-DNS name such as 'com.example.models'."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext
from onnxtext.analysis.check.rule import Rule
from onnxtext.analysis.check.rules.model_versions import REVERSE_DNS
from onnxtext.proto import ModelProto


class DomainNaming(Rule):
    code = "W103"
    name = "domain-naming"
    description = "The model's domain, when set, should be a reverse-DNS name such as 'com.example.models'."

    def model(self, ctx: CheckContext, model: ModelProto) -> None:
        if model.domain and not REVERSE_DNS.fullmatch(model.domain):
            ctx.report(
                self.code,
                f"model domain '{model.domain}' is not a reverse-DNS name (like 'org.example.models')",
                "header",
                token=("key", "domain"),
            )
