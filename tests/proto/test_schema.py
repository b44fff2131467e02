"""onnxtext.proto must mirror onnx's schema exactly and stay byte-compatible with it."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor, FileDescriptor
from google.protobuf.message import Message
from google.protobuf.unknown_fields import UnknownFieldSet

import onnxtext.proto as P
from onnxtext.proto import convert, onnxtext_ir_pb2

REPO_ROOT = Path(__file__).resolve().parents[2]
GEN_SCRIPT = REPO_ROOT / "scripts" / "gen_proto.py"
OWN_PREFIX = "onnxtext.ir."
ONNX_PREFIX = "onnx."

TypeDescriptor = Descriptor | EnumDescriptor


# --------------------------------------------------------------------------- helpers


@pytest.fixture(scope="module")
def onnx() -> ModuleType:
    return pytest.importorskip("onnx")


def _onnx_files() -> list[FileDescriptor]:
    ml = pytest.importorskip("onnx.onnx_ml_pb2")
    data = pytest.importorskip("onnx.onnx_data_pb2")
    return [ml.DESCRIPTOR, data.DESCRIPTOR]


def _walk(container: Descriptor | FileDescriptor) -> Iterator[TypeDescriptor]:
    """Every message and enum declared in ``container``, nested ones included."""
    if isinstance(container, FileDescriptor):
        messages = list(container.message_types_by_name.values())
        enums = list(container.enum_types_by_name.values())
    else:
        messages = list(container.nested_types)
        enums = list(container.enum_types)
    yield from enums
    for message in messages:
        yield message
        yield from _walk(message)


def _types_by_name(files: list[FileDescriptor], prefix: str) -> dict[str, TypeDescriptor]:
    result: dict[str, TypeDescriptor] = {}
    for file in files:
        for desc in _walk(file):
            assert desc.full_name.startswith(prefix), desc.full_name
            result[desc.full_name[len(prefix) :]] = desc
    return result


def _rel(desc: TypeDescriptor | None, prefix: str) -> str | None:
    if desc is None:
        return None
    assert desc.full_name.startswith(prefix), desc.full_name
    return desc.full_name[len(prefix) :]


def _field_facts(field: FieldDescriptor, prefix: str) -> dict[str, Any]:
    oneof = field.containing_oneof
    return {
        "number": field.number,
        "type": field.type,
        "cpp_type": field.cpp_type,
        "repeated": field.is_repeated,
        "required": field.is_required,
        "has_presence": field.has_presence,
        "packed": field.is_packed,
        "has_default_value": field.has_default_value,
        "default_value": field.default_value,
        "json_name": field.json_name,
        "oneof": None if oneof is None else oneof.name,
        "message_type": _rel(field.message_type, prefix),
        "enum_type": _rel(field.enum_type, prefix),
    }


def _message_facts(desc: Descriptor) -> dict[str, Any]:
    """Message-level facts that runtime descriptors do not expose directly."""
    proto = descriptor_pb2.DescriptorProto()
    desc.CopyToProto(proto)
    return {
        "reserved_range": sorted((r.start, r.end) for r in proto.reserved_range),
        "reserved_name": sorted(proto.reserved_name),
        "extension_range": sorted((r.start, r.end) for r in proto.extension_range),
        "oneofs": {o.name: sorted(f.name for f in o.fields) for o in desc.oneofs},
        "is_extendable": desc.is_extendable,
    }


def _compare(onnx_desc: TypeDescriptor, own_desc: TypeDescriptor) -> list[str]:
    """Differences between two definitions of one type (each relative to its package)."""
    onnx_prefix, own_prefix = onnx_desc.file.package + ".", own_desc.file.package + "."
    name = own_desc.full_name[len(own_prefix) :]
    problems: list[str] = []
    if isinstance(onnx_desc, EnumDescriptor):
        assert isinstance(own_desc, EnumDescriptor)
        theirs = {v.name: v.number for v in onnx_desc.values}
        ours = {v.name: v.number for v in own_desc.values}
        if theirs != ours:
            problems.append(f"enum {name}: values differ: onnx={theirs} ours={ours}")
        return problems
    assert isinstance(own_desc, Descriptor)
    theirs_f, ours_f = onnx_desc.fields_by_name, own_desc.fields_by_name
    for missing in sorted(set(theirs_f) - set(ours_f)):
        problems.append(f"{name}: missing field {missing!r}")
    for extra in sorted(set(ours_f) - set(theirs_f)):
        problems.append(f"{name}: extra field {extra!r}")
    for field_name in sorted(set(theirs_f) & set(ours_f)):
        a = _field_facts(theirs_f[field_name], onnx_prefix)
        b = _field_facts(ours_f[field_name], own_prefix)
        for key in a:
            if a[key] != b[key]:
                problems.append(f"{name}.{field_name}: {key} onnx={a[key]!r} ours={b[key]!r}")
    a_msg, b_msg = _message_facts(onnx_desc), _message_facts(own_desc)
    for key in a_msg:
        if a_msg[key] != b_msg[key]:
            problems.append(f"{name}: {key} onnx={a_msg[key]!r} ours={b_msg[key]!r}")
    return problems


def _unknown_field_paths(msg: Message, path: str = "") -> list[str]:
    """Paths of every (sub)message of ``msg`` that carries unknown fields."""
    found: list[str] = []
    unknown = UnknownFieldSet(msg)
    if len(unknown):
        numbers = sorted({f.field_number for f in unknown})
        found.append(f"{path or msg.DESCRIPTOR.name}: unknown field numbers {numbers}")
    for field, value in msg.ListFields():
        if field.message_type is None:
            continue
        if field.is_repeated:
            for i, item in enumerate(value):
                found.extend(_unknown_field_paths(item, f"{path}.{field.name}[{i}]"))
        else:
            found.extend(_unknown_field_paths(value, f"{path}.{field.name}"))
    return found


def _assert_roundtrip(onnx_msg: Message, own_cls: type[Message]) -> Message:
    """onnx bytes → ours → bytes must be identical, with nothing left unknown."""
    onnx_bytes = onnx_msg.SerializeToString()
    ours = own_cls()
    ours.ParseFromString(onnx_bytes)
    assert _unknown_field_paths(ours) == []
    assert ours.SerializeToString() == onnx_bytes
    assert P.serialize(ours) == onnx_msg.SerializeToString(deterministic=True)
    # and back: our bytes parse on the onnx side to an equal message
    back = type(onnx_msg)()
    back.ParseFromString(ours.SerializeToString())
    assert back == onnx_msg
    assert _unknown_field_paths(back) == []
    return ours


# --------------------------------------------------------------------------- schema


def test_every_onnx_type_exists_with_identical_definition() -> None:
    theirs = _types_by_name(_onnx_files(), ONNX_PREFIX)
    ours = _types_by_name([onnxtext_ir_pb2.DESCRIPTOR], OWN_PREFIX)
    problems: list[str] = []
    for missing in sorted(set(theirs) - set(ours)):
        problems.append(f"missing in ours: {missing}")
    for extra in sorted(set(ours) - set(theirs)):
        problems.append(f"not in onnx: {extra}")
    for name in sorted(set(theirs) & set(ours)):
        if type(theirs[name]) is not type(ours[name]):
            problems.append(f"{name}: kind differs (message vs enum)")
            continue
        problems.extend(_compare(theirs[name], ours[name]))
    assert problems == [], "\n".join(problems)
    # sanity: the walk really covered nested types and enums
    assert {
        "TypeProto.Optional",
        "TensorProto.Segment",
        "TensorProto.DataType",
        "AttributeProto.AttributeType",
        "SequenceProto",
        "OptionalProto.DataType",
        "Version",
        "OperatorStatus",
    } <= set(ours)


def test_checker_detects_differences() -> None:
    """The comparison itself must notice a wrong number, label, packing or oneof."""
    file_proto = descriptor_pb2.FileDescriptorProto()
    onnxtext_ir_pb2.DESCRIPTOR.CopyToProto(file_proto)

    def mutated(edit: Any, message: str) -> Descriptor:
        proto = descriptor_pb2.FileDescriptorProto()
        proto.CopyFrom(file_proto)
        edit(proto)
        fresh = descriptor_pool.DescriptorPool()
        fresh.Add(proto)
        return fresh.FindMessageTypeByName(f"onnxtext.ir.{message}")

    def by_name(proto: descriptor_pb2.FileDescriptorProto, name: str) -> Any:
        return next(m for m in proto.message_type if m.name == name)

    def renumber(proto: descriptor_pb2.FileDescriptorProto) -> None:
        by_name(proto, "TensorShapeProto").nested_type[0].field[2].number = 4

    def unpack(proto: descriptor_pb2.FileDescriptorProto) -> None:
        by_name(proto, "TensorProto").field[3].options.packed = False

    def unoneof(proto: descriptor_pb2.FileDescriptorProto) -> None:
        by_name(proto, "SimpleShardedDimProto").field[1].ClearField("oneof_index")

    def unreserve(proto: descriptor_pb2.FileDescriptorProto) -> None:
        del by_name(proto, "GraphProto").reserved_name[0]

    for edit, message in [
        (renumber, "TensorShapeProto.Dimension"),
        (unpack, "TensorProto"),
        (unoneof, "SimpleShardedDimProto"),
        (unreserve, "GraphProto"),
    ]:
        good = getattr(onnxtext_ir_pb2, message.split(".")[0]).DESCRIPTOR
        for part in message.split(".")[1:]:
            good = good.nested_types_by_name[part]
        assert _compare(good, mutated(lambda proto: None, message)) == [], message
        assert _compare(good, mutated(edit, message)) != [], edit.__name__


def test_package_exports_every_top_level_type() -> None:
    top = set(onnxtext_ir_pb2.DESCRIPTOR.message_types_by_name) | set(onnxtext_ir_pb2.DESCRIPTOR.enum_types_by_name)
    assert top <= set(P.__all__)
    for name in P.__all__:
        assert hasattr(P, name), name
    for name in top:
        assert getattr(P, name) is getattr(onnxtext_ir_pb2, name)
    assert P.IR_VERSION == 14 == P.Version.Value("IR_VERSION")
    assert P.TensorProto.FLOAT6E3M2 == 28


def test_descriptor_is_registered_under_its_own_names() -> None:
    assert onnxtext_ir_pb2.DESCRIPTOR.name == "onnxtext/proto/onnxtext_ir.proto"
    assert onnxtext_ir_pb2.DESCRIPTOR.package == "onnxtext.ir"
    assert list(onnxtext_ir_pb2.DESCRIPTOR.dependencies) == []


# --------------------------------------------------------------------------- round trips


def _full_model(onnx: ModuleType) -> Any:
    """An onnx ModelProto that sets every field of every message type."""
    from onnx import TensorProto, helper

    h = helper

    def ssep(key: str, value: str) -> Any:
        return onnx.StringStringEntryProto(key=key, value=value)

    def dense() -> Any:
        t = onnx.TensorProto(name="all_fields", doc_string="every storage field")
        t.dims.extend([2, 3])
        t.data_type = TensorProto.FLOAT
        t.segment.begin = 1
        t.segment.end = 5
        t.float_data.extend([1.5, -0.0, float("inf"), float("-inf"), 3e-41])
        t.int32_data.extend([-1, 0, 2**31 - 1, -(2**31)])
        t.string_data.extend([b"a", b"\xff\x00", b""])
        t.int64_data.extend([-(2**63), 2**63 - 1, -5])
        t.raw_data = b"\x00\x01\x02\x03"
        t.external_data.extend([ssep("location", "w.bin"), ssep("offset", "0")])
        t.data_location = TensorProto.EXTERNAL
        t.double_data.extend([1.0 / 3.0, float("nan"), -2.5])
        t.uint64_data.extend([0, 2**64 - 1])
        t.metadata_props.append(ssep("k", "v"))
        return t

    def sparse() -> Any:
        values = h.make_tensor("sv", TensorProto.FLOAT, [2], [1.0, 2.0])
        indices = h.make_tensor("si", TensorProto.INT64, [2], [0, 5])
        return h.make_sparse_tensor(values, indices, [2, 3])

    float_t = h.make_tensor_type_proto(TensorProto.FLOAT, [1, "N", None])
    float_t.tensor_type.shape.dim[0].denotation = "DATA_BATCH"
    float_t.denotation = "TENSOR"
    seq_t = h.make_sequence_type_proto(float_t)
    map_t = h.make_map_type_proto(TensorProto.INT64, seq_t)
    opt_t = h.make_optional_type_proto(map_t)
    sparse_t = h.make_sparse_tensor_type_proto(TensorProto.FLOAT, [2, "M"])
    opaque_t = onnx.TypeProto()
    opaque_t.opaque_type.domain = "custom"
    opaque_t.opaque_type.name = "Blob"
    shapeless_t = onnx.TypeProto()
    shapeless_t.tensor_type.elem_type = TensorProto.INT8

    sub = h.make_graph(
        [h.make_node("Identity", ["x"], ["y"])],
        "sub",
        [h.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [h.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
    )

    attrs = [
        h.make_attribute("f", 0.25),
        h.make_attribute("i", -7),
        h.make_attribute("s", b"bytes\x00"),
        h.make_attribute("t", dense()),
        h.make_attribute("g", sub),
        h.make_attribute("sparse_tensor", sparse()),
        h.make_attribute("tp", float_t),
        h.make_attribute("floats", [1.0, -2.0]),
        h.make_attribute("ints", [1, -2, 2**40]),
        h.make_attribute("strings", [b"x", b"yz"]),
        h.make_attribute("tensors", [dense(), h.make_tensor("z", TensorProto.INT32, [1], [3])]),
        h.make_attribute("graphs", [sub, sub]),
        h.make_attribute("sparse_tensors", [sparse()]),
        h.make_attribute("type_protos", [seq_t, opaque_t]),
        h.make_attribute_ref("ref", onnx.AttributeProto.FLOAT, doc_string="outer attribute"),
    ]
    node = h.make_node(
        "Custom", ["a", "", "b"], ["c"], name="n0", domain="custom.domain", doc_string="node doc", overload="ov"
    )
    node.attribute.extend(attrs)
    node.metadata_props.append(ssep("node", "meta"))
    dev = node.device_configurations.add()
    dev.configuration_id = "cfg"
    dev.pipeline_stage = 2
    spec = dev.sharding_spec.add()
    spec.tensor_name = "a"
    spec.device.extend([0, -1])
    entry = spec.index_to_device_group_map.add()
    entry.key = -1
    entry.value.extend([0, 1])
    sdim = spec.sharded_dim.add()
    sdim.axis = 0
    sdim.simple_sharding.add(dim_value=4, num_shards=2)
    sdim.simple_sharding.add(dim_param="N", num_shards=2)

    value_infos = [
        h.make_value_info("a", float_t, doc_string="input a"),
        h.make_value_info("b", sparse_t),
        h.make_value_info("c", opt_t),
        h.make_value_info("d", opaque_t),
        h.make_value_info("e", shapeless_t),
        h.make_value_info("f", map_t),
    ]
    value_infos[0].metadata_props.append(ssep("vi", "meta"))

    graph = h.make_graph(
        [node, h.make_node("Identity", ["c"], ["d"])],
        "main",
        value_infos[:2],
        value_infos[2:3],
        initializer=[dense()],
        doc_string="graph doc",
        value_info=value_infos[3:],
        sparse_initializer=[sparse()],
    )
    annotation = graph.quantization_annotation.add()
    annotation.tensor_name = "a"
    annotation.quant_parameter_tensor_names.append(ssep("SCALE_TENSOR", "s"))
    graph.metadata_props.append(ssep("graph", "meta"))

    function = h.make_function(
        "custom.domain",
        "Fn",
        ["x"],
        ["y"],
        [h.make_node("Identity", ["x"], ["y"])],
        [h.make_opsetid("", 21)],
        attributes=["alpha"],
        attribute_protos=[h.make_attribute("beta", 2)],
        doc_string="fn doc",
        overload="v2",
        value_info=[h.make_tensor_value_info("x", TensorProto.FLOAT, None)],
    )
    function.metadata_props.append(ssep("fn", "meta"))

    model = h.make_model(
        graph,
        opset_imports=[h.make_opsetid("", 21), h.make_opsetid("custom.domain", 1)],
        producer_name="onnxtext-tests",
        producer_version="0",
        domain="ai.onnxtext",
        model_version=3,
        doc_string="model doc",
        functions=[function],
    )
    model.ir_version = onnx.IR_VERSION
    h.set_model_props(model, {"author": "tests", "license": "none"})
    training = model.training_info.add()
    training.initialization.CopyFrom(sub)
    training.algorithm.CopyFrom(sub)
    training.initialization_binding.append(ssep("w", "x"))
    training.update_binding.append(ssep("w", "y"))
    config = model.configuration.add()
    config.name = "cfg"
    config.num_devices = 2
    config.device.extend(["gpu:0", "gpu:1"])
    return model


def _set_message_types(msg: Message, seen: set[str]) -> None:
    seen.add(msg.DESCRIPTOR.full_name)
    for field, value in msg.ListFields():
        if field.message_type is None:
            continue
        for item in value if field.is_repeated else [value]:
            _set_message_types(item, seen)


def test_roundtrip_model_covering_every_message(onnx: ModuleType) -> None:
    model = _full_model(onnx)
    seen: set[str] = set()
    _set_message_types(model, seen)
    onnx_messages = {
        d.full_name for d in _types_by_name(_onnx_files(), ONNX_PREFIX).values() if isinstance(d, Descriptor)
    }
    data_messages = {"onnx.SequenceProto", "onnx.MapProto", "onnx.OptionalProto"}
    assert onnx_messages - data_messages - seen == set()
    ours = _assert_roundtrip(model, P.ModelProto)
    assert isinstance(ours, P.ModelProto)
    assert (
        ours.graph.node[0].device_configurations[0].sharding_spec[0].sharded_dim[0].simple_sharding[1].WhichOneof("dim")
        == "dim_param"
    )
    assert ours.graph.value_info[0].type.WhichOneof("value") == "opaque_type"


def test_roundtrip_data_messages(onnx: ModuleType) -> None:
    from onnx import TensorProto, helper, numpy_helper

    np = pytest.importorskip("numpy")
    t = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "t")
    seq = helper.make_sequence("seq", onnx.SequenceProto.TENSOR, [t, t])
    map_int = helper.make_map(
        "m", TensorProto.INT64, [1, -2], helper.make_sequence("vals", onnx.SequenceProto.TENSOR, [t, t])
    )
    map_str = helper.make_map(
        "ms", TensorProto.STRING, [b"a", b"b"], helper.make_sequence("vals", onnx.SequenceProto.TENSOR, [t, t])
    )
    opt = helper.make_optional("o", onnx.OptionalProto.SEQUENCE, seq)
    nested = onnx.SequenceProto(name="nested", elem_type=onnx.SequenceProto.OPTIONAL)
    nested.optional_values.append(opt)
    nested_opt = onnx.OptionalProto(name="oo", elem_type=onnx.OptionalProto.OPTIONAL)
    nested_opt.optional_value.CopyFrom(opt)
    maps = onnx.SequenceProto(name="maps", elem_type=onnx.SequenceProto.MAP)
    maps.map_values.extend([map_int, map_str])
    sparse_seq = onnx.SequenceProto(name="sp", elem_type=onnx.SequenceProto.SPARSE_TENSOR)
    sparse_seq.sparse_tensor_values.append(
        helper.make_sparse_tensor(
            helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0]),
            helper.make_tensor("i", TensorProto.INT64, [1], [0]),
            [3],
        )
    )
    seq_of_seq = onnx.SequenceProto(name="ss", elem_type=onnx.SequenceProto.SEQUENCE)
    seq_of_seq.sequence_values.append(seq)
    opt_map = helper.make_optional("om", onnx.OptionalProto.MAP, map_int)
    opt_tensor = helper.make_optional("ot", onnx.OptionalProto.TENSOR, t)
    opt_sparse = onnx.OptionalProto(name="os", elem_type=onnx.OptionalProto.SPARSE_TENSOR)
    opt_sparse.sparse_tensor_value.CopyFrom(sparse_seq.sparse_tensor_values[0])
    for msg, cls in [
        (seq, P.SequenceProto),
        (nested, P.SequenceProto),
        (maps, P.SequenceProto),
        (sparse_seq, P.SequenceProto),
        (seq_of_seq, P.SequenceProto),
        (map_int, P.MapProto),
        (map_str, P.MapProto),
        (opt, P.OptionalProto),
        (nested_opt, P.OptionalProto),
        (opt_map, P.OptionalProto),
        (opt_tensor, P.OptionalProto),
        (opt_sparse, P.OptionalProto),
    ]:
        _assert_roundtrip(msg, cls)


def _backend_data_dir() -> Path | None:
    """onnx's shipped backend test data, found without importing onnx."""
    spec = importlib.util.find_spec("onnx")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "backend" / "test" / "data"


def _backend_models() -> list[Path]:
    data = _backend_data_dir()
    if data is None:
        return []
    models: list[Path] = []
    for pattern in (
        "simple/*/model.onnx",
        "pytorch-converted/*/model.onnx",
        "pytorch-operator/*/model.onnx",
        "light/*.onnx",
    ):
        models += sorted(data.glob(pattern))
    return models


_BACKEND_MODELS = _backend_models()
_BACKEND_DATA = _backend_data_dir()


def _data_class(type_proto: Message) -> type[Message]:
    kind = type_proto.WhichOneof("value")
    return {
        "tensor_type": P.TensorProto,
        "sparse_tensor_type": P.SparseTensorProto,
        "sequence_type": P.SequenceProto,
        "map_type": P.MapProto,
        "optional_type": P.OptionalProto,
    }[kind]


@pytest.mark.parametrize(
    "path",
    _BACKEND_MODELS,
    ids=[p.relative_to(_BACKEND_DATA).as_posix() if _BACKEND_DATA else p.name for p in _BACKEND_MODELS],
)
def test_roundtrip_backend_models(onnx: ModuleType, path: Path) -> None:
    raw = path.read_bytes()
    model = onnx.ModelProto()
    model.ParseFromString(raw)
    ours = _assert_roundtrip(model, P.ModelProto)
    assert isinstance(ours, P.ModelProto)
    # ours parses the file itself exactly like onnx does
    direct = P.ModelProto()
    direct.ParseFromString(raw)
    assert direct.SerializeToString() == model.SerializeToString()
    # the test data next to it: inputs/outputs typed by the graph signature
    for data_set in sorted(path.parent.glob("test_data_set_*")):
        for kind, infos in (("input", ours.graph.input), ("output", ours.graph.output)):
            # initializers may also be listed as inputs; data files follow the order
            files = sorted(data_set.glob(f"{kind}_*.pb"), key=lambda p: int(p.stem.split("_")[1]))
            feeds = [vi for vi in infos if vi.name not in {i.name for i in ours.graph.initializer}]
            for file, info in zip(files, feeds, strict=True):
                own_cls = _data_class(info.type)
                onnx_msg = getattr(onnx, own_cls.DESCRIPTOR.name)()
                onnx_msg.ParseFromString(file.read_bytes())
                _assert_roundtrip(onnx_msg, own_cls)


def test_backend_models_found() -> None:
    if importlib.util.find_spec("onnx") is None:
        pytest.skip("onnx is not installed")
    assert len(_BACKEND_MODELS) > 50


def test_unknown_field_walk_detects_unknowns() -> None:
    model = P.ModelProto()
    model.graph.node.add().ParseFromString(b"\xf8\x06\x01")  # field 111, varint 1
    assert _unknown_field_paths(model) == [".graph.node[0]: unknown field numbers [111]"]


# --------------------------------------------------------------------------- conversions


def test_convert_functions(onnx: ModuleType) -> None:
    model = _full_model(onnx)
    ours = P.from_onnx(model, P.ModelProto)
    assert isinstance(ours, P.ModelProto)
    assert P.as_own(ours) is ours
    assert P.as_own(ours, P.ModelProto) is ours
    assert P.as_own(model) == ours
    back = P.to_onnx(ours)
    assert isinstance(back, onnx.ModelProto)
    assert back == model
    nested = P.to_onnx(ours.graph.value_info[0].type.opaque_type)
    assert isinstance(nested, onnx.TypeProto.Opaque)
    optional_type = P.from_onnx(onnx.TypeProto.Optional())
    assert optional_type.DESCRIPTOR.full_name == "onnxtext.ir.TypeProto.Optional"
    seq = P.from_onnx(onnx.SequenceProto(name="s"))
    assert isinstance(seq, P.SequenceProto) and seq.name == "s"
    assert isinstance(P.to_onnx(seq), onnx.SequenceProto)

    with pytest.raises(TypeError):
        P.as_own(model, P.GraphProto)
    with pytest.raises(TypeError):
        P.as_own(ours, P.GraphProto)
    with pytest.raises(TypeError):
        P.from_onnx(ours)
    with pytest.raises(TypeError):
        P.to_onnx(model)
    with pytest.raises(TypeError):
        P.as_own(descriptor_pb2.FileDescriptorProto())
    with pytest.raises(TypeError):
        P.as_own(model, onnx.ModelProto)  # cls must be one of ours


def test_serialize_is_deterministic() -> None:
    model = P.ModelProto(ir_version=P.IR_VERSION, producer_name="p")
    model.metadata_props.add(key="b", value="2")
    model.metadata_props.add(key="a", value="1")
    data = P.serialize(model)
    assert isinstance(data, bytes)
    assert data == model.SerializeToString(deterministic=True) == P.serialize(model)


def test_to_onnx_without_onnx(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(sys.modules):
        if name == "onnx" or name.startswith("onnx."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "onnx", None)  # `import onnx` now fails as if absent
    with pytest.raises(convert.OnnxNotInstalledError) as info:
        P.to_onnx(P.ModelProto())
    assert isinstance(info.value, ImportError)
    assert "pip install onnx" in str(info.value)
    # reading needs no onnx at all
    assert P.as_own(P.NodeProto(name="n")).name == "n"


# --------------------------------------------------------------------------- coexistence


def test_onnx_and_ours_share_a_process(onnx: ModuleType) -> None:
    pool = descriptor_pool.Default()
    assert pool.FindMessageTypeByName("onnx.ModelProto") is onnx.ModelProto.DESCRIPTOR
    assert pool.FindMessageTypeByName("onnxtext.ir.ModelProto") is P.ModelProto.DESCRIPTOR
    assert pool.FindFileByName("onnxtext/proto/onnxtext_ir.proto") is onnxtext_ir_pb2.DESCRIPTOR
    a = onnx.helper.make_model(onnx.helper.make_graph([], "g", [], []))
    b = P.ModelProto(graph=P.GraphProto(name="g"))
    assert a.graph.name == b.graph.name == "g"
    assert type(a) is not type(b)


@pytest.mark.parametrize("first", ["onnx", "onnxtext.proto"])
def test_import_order_does_not_matter(onnx: ModuleType, first: str) -> None:
    second = "onnxtext.proto" if first == "onnx" else "onnx"
    src_dir = Path(P.__file__).resolve().parents[2]
    code = (
        f"import {first}, {second}\n"
        "import onnx, onnxtext.proto as P\n"
        "m = P.ModelProto(ir_version=P.IR_VERSION)\n"
        "o = onnx.ModelProto(); o.ParseFromString(m.SerializeToString())\n"
        "assert P.to_onnx(m) == o and P.as_own(o) == m\n"
        "print('ok')\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(src_dir), *(p for p in sys.path if p)])
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


# --------------------------------------------------------------------------- freshness


def _load_gen_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_onnxtext_gen_proto", GEN_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _gencode_version(text: str) -> str | None:
    match = re.search(r"^# Protobuf Python Version: (\S+)$", text, re.MULTILINE)
    return match.group(1) if match else None


def test_generated_code_is_fresh(tmp_path: Path) -> None:
    if importlib.util.find_spec("grpc_tools") is None:
        pytest.skip("grpcio-tools is not installed")
    gen = _load_gen_script()
    written = gen.generate(tmp_path)
    assert sorted(p.name for p in written) == ["onnxtext_ir_pb2.py", "onnxtext_ir_pb2.pyi"]
    committed_dir = Path(onnxtext_ir_pb2.__file__).resolve().parent
    assert committed_dir == gen.DEFAULT_OUT_DIR
    fresh_py = (tmp_path / "onnxtext_ir_pb2.py").read_text(encoding="utf-8")
    committed_py = (committed_dir / "onnxtext_ir_pb2.py").read_text(encoding="utf-8")
    fresh_version, committed_version = _gencode_version(fresh_py), _gencode_version(committed_py)
    if fresh_version != committed_version:
        pytest.skip(
            f"installed protoc makes gencode {fresh_version}, committed files are {committed_version}; cannot compare"
        )
    for path in written:
        committed = (committed_dir / path.name).read_text(encoding="utf-8")
        assert path.read_text(encoding="utf-8") == committed, f"{path.name} is stale: run `python scripts/gen_proto.py`"
    for path in written:
        assert path.read_text(encoding="utf-8").startswith(gen.HEADER)
