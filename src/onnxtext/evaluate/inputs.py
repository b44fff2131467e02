"""Evaluator inputs: ``--input name=VALUE`` (of ``onnxtext run``, and the editor's inputs file) parsed into feeds.

VALUE is a ``.npy`` file, a ``.pb`` file holding a ``TensorProto``, or a JSON literal
(``[[1, 2], [3, 4]]``, ``3.5``, ``"text"``, ``{"1": 0.5}`` for a map, a list for a
sequence, ``null`` for an empty optional) converted to the input's declared type.
Every problem is an :class:`InputError` with a message naming the input.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from google.protobuf.message import DecodeError

from onnxtext.diagnostics import closest, did_you_mean
from onnxtext.evaluate import _types as T
from onnxtext.evaluate.values import tensor_to_numpy
from onnxtext.proto import TensorProto, TypeProto

__all__ = ["InputError", "parse_input_arg", "load_value", "build_feeds", "describe_type"]

_FILE_SUFFIXES = (".npy", ".pb")


class InputError(ValueError):
    """A bad ``--input``: syntax, unreadable file, value that does not fit the declared type."""


def parse_input_arg(arg: str) -> tuple[str, str]:
    """``name=VALUE`` → ``(name, VALUE)``; the name is everything before the first ``=``."""
    name, sep, value = arg.partition("=")
    name = name.strip()
    if not sep or not name:
        raise InputError(f"--input {arg!r}: expected NAME=VALUE (VALUE: a .npy file, a .pb TensorProto or JSON)")
    if not value.strip():
        raise InputError(f"--input {arg!r}: no value after '='")
    return name, value


# ---------------------------------------------------------------- types


def describe_type(tp: TypeProto | None) -> str:
    """The text syntax of a type: ``float[N, 4]``, ``map(int64, float)``, ``seq(float[2])``."""
    if tp is None:
        return "?"
    which = tp.WhichOneof("value")
    if which == "tensor_type" or which == "sparse_tensor_type":
        tt = getattr(tp, which)
        name = T.TYPE_NAMES.get(int(tt.elem_type), "?")
        if not tt.HasField("shape"):
            return name + "[]" if which == "tensor_type" else f"sparse_tensor({name})"
        dims = [str(d.dim_value) if d.HasField("dim_value") else (d.dim_param or "?") for d in tt.shape.dim]
        text = f"{name}[{', '.join(dims)}]" if dims else name
        return text if which == "tensor_type" else f"sparse_tensor({text})"
    if which == "sequence_type":
        return f"seq({describe_type(tp.sequence_type.elem_type)})"
    if which == "optional_type":
        return f"optional({describe_type(tp.optional_type.elem_type)})"
    if which == "map_type":
        key = T.TYPE_NAMES.get(int(tp.map_type.key_type), "?")
        return f"map({key}, {describe_type(tp.map_type.value_type)})"
    return "?"


# ---------------------------------------------------------------- values


def load_value(name: str, text: str, tp: TypeProto | None) -> Any:
    """The runtime value of ``--input name=text`` for an input declared ``tp``."""
    stripped = text.strip()
    if stripped.lower().endswith(_FILE_SUFFIXES) and not stripped.startswith(("[", "{", '"')):
        if not os.path.isfile(stripped):
            raise InputError(f"input {name!r}: no such file: {stripped}")
        return _load_file(name, stripped)
    try:
        obj = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"input {name!r}: {text!r} is neither a .npy/.pb file nor valid JSON ({exc.msg} at column {exc.colno})"
        ) from None
    return from_json(name, obj, tp)


def _load_file(name: str, path: str) -> Any:
    try:
        if path.lower().endswith(".npy"):
            try:
                return np.load(path, allow_pickle=False)
            except ValueError as exc:
                raise InputError(f"input {name!r}: {path}: not a readable .npy array ({exc})") from None
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise InputError(f"input {name!r}: cannot read {path}: {exc.strerror or exc}") from None
    try:
        tensor = TensorProto.FromString(data)
    except DecodeError:
        raise InputError(f"input {name!r}: {path}: not a serialized TensorProto") from None
    try:
        return tensor_to_numpy(tensor)
    except (ValueError, TypeError) as exc:  # NotRepresentable is a ValueError
        raise InputError(f"input {name!r}: {path}: cannot decode the tensor ({exc})") from None


def from_json(name: str, obj: Any, tp: TypeProto | None) -> Any:
    """Convert a decoded JSON value to the runtime value of type ``tp`` (a tensor if unknown)."""
    which = tp.WhichOneof("value") if tp is not None else None
    if tp is None or which in (None, "tensor_type", "sparse_tensor_type"):
        elem = int(getattr(tp, which).elem_type) if tp is not None and which is not None else 0
        return _tensor(name, obj, elem)
    if which == "sequence_type":
        if not isinstance(obj, list):
            raise InputError(f"input {name!r}: a sequence is written as a JSON list, got {_json_kind(obj)}")
        return [from_json(name, item, tp.sequence_type.elem_type) for item in obj]
    if which == "optional_type":
        return None if obj is None else from_json(name, obj, tp.optional_type.elem_type)
    if which == "map_type":
        if not isinstance(obj, dict):
            raise InputError(f"input {name!r}: a map is written as a JSON object, got {_json_kind(obj)}")
        key_type = int(tp.map_type.key_type)
        out: dict[Any, Any] = {}
        for key, val in obj.items():
            out[_map_key(name, key, key_type)] = from_json(name, val, tp.map_type.value_type)
        return out
    raise InputError(f"input {name!r}: cannot build a value of type {describe_type(tp)} from JSON")


def _json_kind(obj: Any) -> str:
    return {list: "a list", dict: "an object", str: "a string", type(None): "null", bool: "a boolean"}.get(
        type(obj), "a number"
    )


def _map_key(name: str, key: str, key_type: int) -> Any:
    if key_type == T.STRING:
        return key
    try:
        return int(key)
    except ValueError:
        raise InputError(
            f"input {name!r}: map key {key!r} is not an integer ({T.TYPE_NAMES.get(key_type, key_type)} keys)"
        ) from None


def _flat(obj: Any) -> Iterable[Any]:
    if isinstance(obj, list):
        for item in obj:
            yield from _flat(item)
    else:
        yield obj


def _tensor(name: str, obj: Any, elem: int) -> np.ndarray:
    if isinstance(obj, dict):
        raise InputError(f"input {name!r}: a tensor is written as a number, a string or nested lists, got an object")
    values = list(_flat(obj))
    if any(v is None for v in values):
        raise InputError(f"input {name!r}: null is not a tensor element")
    if elem == 0:  # undeclared: guess from the values
        elem = (
            T.STRING
            if any(isinstance(v, str) for v in values)
            else T.BOOL
            if values and all(isinstance(v, bool) for v in values)
            else T.INT64
            if all(isinstance(v, int) for v in values) and values
            else T.FLOAT
        )
    if elem not in T.NP_DTYPE:
        raise InputError(f"input {name!r}: element type {elem} cannot be given as JSON")
    type_name = T.TYPE_NAMES[elem]
    want_str = elem == T.STRING
    for v in values:
        if isinstance(v, str) != want_str or isinstance(v, (list, dict)):
            raise InputError(f"input {name!r}: {json.dumps(v)} is not a {type_name} value")
    try:
        arr = np.array(obj, dtype=object)
    except ValueError:
        arr = None
    if arr is None or (arr.dtype == object and arr.size and any(isinstance(v, list) for v in arr.reshape(-1))):
        raise InputError(f"input {name!r}: the nested lists are ragged (rows of different lengths)")
    if want_str:
        return arr
    dtype = T.NP_DTYPE[elem]
    if elem == T.BOOL:
        if not all(isinstance(v, bool) or v in (0, 1) for v in values):
            raise InputError(f"input {name!r}: bool values are true/false or 0/1")
        return arr.astype(np.bool_)
    if dtype.kind in "iu":
        lo, hi = T.int_range(elem) if elem in T.SUB_BYTE_INTS else (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
        for v in values:
            if isinstance(v, float) and not (math.isfinite(v) and v == int(v)):
                raise InputError(f"input {name!r}: {v!r} is not an integer ({type_name} input)")
            if not lo <= int(v) <= hi:
                raise InputError(f"input {name!r}: {v!r} is out of range for {type_name}")
        return np.array([int(v) for v in values], dtype=dtype).reshape(arr.shape)
    out = arr.astype(np.float64).astype(dtype)
    if elem in T.EXOTIC_FLOATS:
        out = T.round_to(out, elem)
    return out


# ---------------------------------------------------------------- feeds


def build_feeds(
    args: Sequence[str], declared: Sequence[tuple[str, TypeProto | None]], *, partial: bool = False
) -> dict[str, Any]:
    """Feeds from ``--input`` arguments for a graph with inputs ``declared`` (name, type).

    Raises InputError for bad syntax, a name given twice, an unknown name (with a
    did-you-mean) and, unless ``partial`` (the rest are made up), for declared inputs left
    without a value (naming their types).
    """
    types = dict(declared)
    feeds: dict[str, Any] = {}
    for arg in args:
        name, text = parse_input_arg(arg)
        if name not in types:
            hint = did_you_mean(closest(name, types))
            known = ", ".join(types) or "none"
            raise InputError(f"the model has no input named {name!r}{hint} (inputs: {known})")
        if name in feeds:
            raise InputError(f"input {name!r} is given twice")
        feeds[name] = load_value(name, text, types[name])
    missing = [(n, tp) for n, tp in declared if n not in feeds]
    if missing and not partial:
        listed = ", ".join(f"{n}: {describe_type(tp)}" for n, tp in missing)
        raise InputError(
            f"missing input{'s' if len(missing) > 1 else ''} {listed} (give --input NAME=VALUE, "
            "or --random-inputs to make them up from their declared types)"
        )
    return feeds
