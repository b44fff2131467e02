"""Markdown that explains operators, attributes, dtypes and functions (hover, completion docs).

The facts come from onnxtext's own schema table (inputs, outputs, type constraints,
attributes with types and defaults, versions). onnxtext ships no operator prose: when
the ``onnx`` package happens to be installed, its description of the operator is shown
too; otherwise a link to the operator's page in the ONNX documentation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from onnxtext.ir.dtypes import dtype_by_code
from onnxtext.ir.schemas import AttributeSpec, FormalParameter, OpSchema, normalize_domain, schema_versions

__all__ = [
    "operator_markdown",
    "operator_summary",
    "attribute_markdown",
    "attribute_default_text",
    "dtype_markdown",
    "signature_text",
    "operator_url",
    "parameter_text",
    "signature_label",
]

_MAX_ALLOWED = 8  # type lists longer than this are cut in hovers ("… and 12 more")


def operator_url(schema: OpSchema) -> str:
    """The operator's page in the ONNX documentation."""
    domain = normalize_domain(schema.domain)
    page = f"onnx__{schema.name}" if not domain else f"onnx_{domain.replace('.', '')}_{schema.name}"
    return f"https://onnx.ai/onnx/operators/{page}.html"


def _domain_label(domain: str) -> str:
    return normalize_domain(domain) or "ai.onnx"


def _param_line(schema: OpSchema, p: FormalParameter) -> str:
    option = {"optional": " *(optional)*", "variadic": " *(variadic)*"}.get(p.option, "")
    allowed = schema.allowed_types(p)
    if len(allowed) > _MAX_ALLOWED:
        types = ", ".join(allowed[:_MAX_ALLOWED]) + f", … and {len(allowed) - _MAX_ALLOWED} more"
    else:
        types = ", ".join(allowed)
    constraint = f"`{p.type_str}`: " if schema.type_constraint(p.type_str) else ""
    return f"- `{p.name}`{option} — {constraint}{types}"


def attribute_default_text(spec: AttributeSpec) -> str:
    """``default 1.0``, ``required`` or ``optional`` (no default)."""
    if spec.required:
        return "required"
    if spec.default is None:
        return "optional"
    value = spec.default
    if isinstance(value, tuple):
        return "default [" + ", ".join(_literal(v) for v in value) + "]"
    if hasattr(value, "kind"):
        return "has a default"
    return f"default {_literal(value)}"


def _literal(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _attribute_type(spec: AttributeSpec) -> str:
    return spec.type.lower()


def operator_markdown(schema: OpSchema, imported: int | None = None, *, description: bool = True) -> str:
    """Everything about one operator version, for a hover."""
    versions = [s.since_version for s in schema_versions(schema.name, schema.domain)]
    head = f"**{schema.name}** — {_domain_label(schema.domain)}, version {schema.since_version}"
    if imported is not None:
        head += f" (the model imports opset {imported})"
    lines = [head]
    if schema.deprecated:
        lines.append("\n⚠ **deprecated** in this opset")
    later = [v for v in versions if v > schema.since_version]
    if later:
        lines.append(f"\nChanged in later opsets: {', '.join(map(str, later))}")
    text = _onnx_description(schema.domain, schema.name, schema.since_version) if description else None
    if text:
        lines.append("\n" + text.strip())
    if schema.inputs:
        lines.append("\n**Inputs**\n")
        lines.extend(_param_line(schema, p) for p in schema.inputs)
    if schema.outputs:
        lines.append("\n**Outputs**\n")
        lines.extend(_param_line(schema, p) for p in schema.outputs)
    if schema.attributes:
        lines.append("\n**Attributes**\n")
        lines.extend(f"- `{a.name}`: {_attribute_type(a)}, {attribute_default_text(a)}" for a in schema.attributes)
    lines.append(f"\n[{schema.name} in the ONNX documentation]({operator_url(schema)})")
    return "\n".join(lines)


def attribute_markdown(schema: OpSchema, spec: AttributeSpec) -> str:
    """One attribute of an operator, for a hover."""
    head = f"**{spec.name}**: {_attribute_type(spec)}, {attribute_default_text(spec)}"
    text = _onnx_attribute_description(schema.domain, schema.name, schema.since_version, spec.name)
    return (
        head
        + f"\n\nattribute of {schema.name} (version {schema.since_version})"
        + (f"\n\n{text.strip()}" if text else "")
    )


def dtype_markdown(code: int) -> str | None:
    """``to = 1`` on Cast: the element type a TensorProto.DataType number stands for."""
    dtype = dtype_by_code(code)
    if dtype is None:
        return None
    return f"`{code}` is **{dtype.name}** (TensorProto.DataType)"


def signature_text(name: str, inputs: Sequence[str], outputs: Sequence[str], attributes: Sequence[str] = ()) -> str:
    """``f <alpha> (x, y) => (z)``: a function's signature as written in the text."""
    attrs = f" <{', '.join(attributes)}>" if attributes else ""
    return f"{name}{attrs} ({', '.join(inputs)}) => ({', '.join(outputs)})"


@lru_cache(maxsize=256)
def _onnx_schema(domain: str, name: str, version: int) -> object | None:
    """onnx's own schema object when the ``onnx`` package is installed (it is optional)."""
    try:
        import onnx.defs
    except ImportError:
        return None
    try:
        return onnx.defs.get_schema(name, version, domain)
    except onnx.defs.SchemaError:
        return None


def _onnx_description(domain: str, name: str, version: int) -> str | None:
    schema = _onnx_schema(domain, name, version)
    doc = getattr(schema, "doc", None)
    return doc if isinstance(doc, str) and doc.strip() else None


def operator_summary(schema: OpSchema) -> str | None:
    """The first sentence of the operator's description (when ``onnx`` is installed), plain text."""
    text = _onnx_description(schema.domain, schema.name, schema.since_version)
    if text is None:
        return None
    plain = " ".join(re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", text).split())
    end = re.search(r"(?<=[a-z0-9)\]])\.(\s|$)", plain)
    return plain[: end.start() + 1] if end is not None else plain


def _onnx_attribute_description(domain: str, name: str, version: int, attribute: str) -> str | None:
    schema = _onnx_schema(domain, name, version)
    attrs = getattr(schema, "attributes", None)
    if not isinstance(attrs, dict) or attribute not in attrs:
        return None
    text = getattr(attrs[attribute], "description", None)
    return text if isinstance(text, str) and text.strip() else None


def parameter_text(schema: OpSchema, p: FormalParameter) -> str:
    """``X: T`` (``T`` when the type is a constraint, else the type string itself)."""
    suffix = "?" if p.is_optional else ("..." if p.is_variadic else "")
    return f"{p.name}{suffix}: {p.type_str}"


def signature_label(schema: OpSchema) -> str:
    """``MatMul(A: T, B: T) -> (Y: T)``."""
    inputs = ", ".join(parameter_text(schema, p) for p in schema.inputs)
    outputs = ", ".join(parameter_text(schema, p) for p in schema.outputs)
    return f"{schema.name}({inputs}) -> ({outputs})"
