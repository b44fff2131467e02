"""``onnxtext extract``, ``edit`` and ``merge`` on the command line: files in and out, refusals located."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from surgery_support import onnx_check

from onnxtext import parse_model
from onnxtext.cli.app import main
from onnxtext.proto import ModelProto

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MLP = str(EXAMPLES / "mlp.onnxtxt")


def _binary(path: Path) -> ModelProto:
    return ModelProto.FromString(path.read_bytes())


def test_edit_applies_its_operations_in_order_and_writes_by_extension(tmp_path: Path) -> None:
    out = tmp_path / "out.onnx"
    status = main(
        [
            "edit",
            MLP,
            "-o",
            str(out),
            "--rename",
            "X=features",
            "--set-input-shape",
            "features=1,F",
            "--add-output",
            "hidden",
            "--rename",
            "hidden=h",
        ]
    )
    assert status == 0
    m = _binary(out)
    assert [v.name for v in m.graph.input] == ["features"] and [v.name for v in m.graph.output] == ["probs", "h"]
    dims = m.graph.input[0].type.tensor_type.shape.dim
    assert (dims[0].dim_value, dims[1].dim_param) == (1, "F")
    onnx_check(m)
    text_out = tmp_path / "out.onnxtxt"
    assert main(["edit", str(out), "-o", str(text_out), "--remove-output", "h"]) == 0
    assert "=> (float[1, 3] probs)" in text_out.read_text()  # the output declared as inference gave it follows (S010)


def test_an_unknown_name_is_a_located_error_with_the_nearest_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.onnx"
    assert main(["edit", MLP, "-o", str(out), "--delete-node", "hiden"]) == 1
    err = capsys.readouterr().err
    assert "mlp.onnxtxt (--delete-node): error[S001]: no node (by name or output) 'hiden'" in err
    assert "'hidden'" in err and "(at graph)" in err
    assert not out.exists()


def test_delete_node_warns_of_dangling_readers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.onnxtxt"
    assert main(["edit", MLP, "-o", str(out), "--delete-node", "hidden"]) == 0
    assert "warning[S006]: 'hidden' is no longer produced" in capsys.readouterr().err
    assert "Relu" not in out.read_text()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--set-input-shape", "X=1,-3"], "a dimension is a size (224), a symbol (N) or ? (free)"),
        (["--rename", "X"], "expected NAME=NAME"),
        ([], "no edit given"),
    ],
)
def test_usage_errors(args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edit", MLP, "-o", str(tmp_path / "o.onnx"), *args]) == 2
    assert message in capsys.readouterr().err


def test_constant_from_npy_and_input_from_initializer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    npy = tmp_path / "b2.npy"
    np.save(npy, np.array([1, 2, 3], np.float32))
    out = tmp_path / "o.onnx"
    assert main(["edit", MLP, "-o", str(out), "--input-from-initializer", "B2", "--constant", f"B2={npy}"]) == 0
    m = _binary(out)
    assert m.graph.initializer[-1].name == "B2" and [v.name for v in m.graph.input] == ["X"]
    np.save(npy, np.array([1, 2], np.float32))
    assert main(["edit", MLP, "-o", str(out), "--input-from-initializer", "B2", "--constant", f"B2={npy}"]) == 1
    assert "error[S004]: 'B2' is declared [3], the array's shape is [2]" in capsys.readouterr().err
    (tmp_path / "bad.npy").write_text("nope")
    assert main(["edit", MLP, "-o", str(out), "--constant", f"X={tmp_path / 'bad.npy'}"]) == 1
    assert "not a readable .npy array" in capsys.readouterr().err


def test_extract_and_merge_give_back_the_model(tmp_path: Path) -> None:
    head, tail, whole = tmp_path / "head.onnxtxt", tmp_path / "tail.onnx", tmp_path / "whole.onnx"
    assert main(["extract", MLP, "--outputs", "hidden", "-o", str(head)]) == 0
    assert main(["extract", MLP, "--inputs", "hidden", "--outputs", "probs", "-o", str(tail)]) == 0
    assert main(["merge", str(head), str(tail), "--connect", "hidden=hidden", "-o", str(whole)]) == 0
    original = parse_model(Path(MLP).read_text())
    merged = _binary(whole)
    assert [n.SerializeToString() for n in merged.graph.node] == [n.SerializeToString() for n in original.graph.node]
    assert sorted(t.name for t in merged.graph.initializer) == sorted(t.name for t in original.graph.initializer)
    onnx_check(merged)


def test_merge_refusal_names_both_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["merge", MLP, MLP, "--connect", "probs=Y", "-o", str(tmp_path / "m.onnx")]) == 1
    assert "mlp.onnxtxt + " in (err := capsys.readouterr().err) and "error[S001]: no graph input of B 'Y'" in err


def test_external_data_follows_the_sub_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("external_weights.onnxtxt", "external_weights.bin"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    source = str(tmp_path / "external_weights.onnxtxt")
    (tmp_path / "elsewhere").mkdir()
    target = tmp_path / "elsewhere" / "sub.onnx"
    assert main(["extract", source, "--outputs", "scaled", "-o", str(target)]) == 1
    assert "--copy-external-data" in capsys.readouterr().err and not target.exists()
    assert main(["extract", source, "--outputs", "scaled", "-o", str(target), "--copy-external-data"]) == 0
    assert (tmp_path / "elsewhere" / "external_weights.bin").exists()
    assert [t.name for t in _binary(target).graph.initializer] == ["W"]


def test_help_explains_each_command(capsys: pytest.CaptureFixture[str]) -> None:
    for command, words in (
        ("extract", "onnx.utils.extract_model"),
        ("edit", "--set-input-shape X=DIMS"),
        ("merge", "--connect Y=Z"),
    ):
        assert main([command, "--help"]) == 0
        assert words in capsys.readouterr().out


def test_delete_node_and_feeders(tmp_path: Path) -> None:
    out = tmp_path / "o.onnxtxt"
    assert main(["edit", MLP, "-o", str(out), "--delete-node-and-feeders", "logits", "--remove-output", "probs"]) == 0
    text = out.read_text()
    assert "W2" not in text and "B2" not in text and "hidden =" not in text and "W1" not in text


def test_extract_function(tmp_path: Path) -> None:
    out = tmp_path / "o.onnx"
    assert main(["edit", MLP, "-o", str(out), "--extract-function", "hidden_mm,hidden_pre,hidden=Layer"]) == 0
    m = _binary(out)
    assert [n.op_type for n in m.graph.node] == ["Layer", "MatMul", "Add", "Softmax"]
    assert [f.name for f in m.functions] == ["Layer"]
    onnx_check(m)


@pytest.mark.parametrize("command", ["extract", "edit", "merge"])
def test_hostile_files_are_errors_not_tracebacks(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing model, or an output in a missing folder: one line on stderr, status 1, nothing written."""
    ops = {"extract": ["--outputs", "hidden"], "edit": ["--add-output", "hidden"], "merge": ["--prefix", "b_"]}
    models = {"merge": [MLP]}
    missing = str(tmp_path / "missing.onnx")
    assert main([command, *models.get(command, []), missing, "-o", str(tmp_path / "o.onnx"), *ops[command]]) == 1
    assert "missing.onnx: error: cannot read" in capsys.readouterr().err
    out = tmp_path / "nowhere" / "o.onnx"
    assert main([command, *models.get(command, []), MLP, "-o", str(out), *ops[command]]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err
    assert not out.parent.exists()


def test_constant_from_a_missing_or_wrong_dtype_npy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.onnx"
    missing = tmp_path / "missing.npy"
    assert main(["edit", MLP, "-o", str(out), "--constant", f"X={missing}"]) == 1
    assert "missing.npy: error: not a readable .npy array" in capsys.readouterr().err
    npy = tmp_path / "x.npy"
    np.save(npy, np.zeros((2, 4), np.int64))
    assert main(["edit", MLP, "-o", str(out), "--constant", f"X={npy}"]) == 1
    assert "error[S004]: 'X' is float, the array holds int64 values" in capsys.readouterr().err
    assert not out.exists()


def test_set_input_shape_says_what_followed_and_a_changed_rank(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The notes of --set-input-shape reach stderr located at the model (S010 info, S011 warning),
    and the model is written: neither is an error."""
    out = tmp_path / "o.onnxtxt"
    assert main(["edit", MLP, "-o", str(out), "--set-input-shape", "X=1,4"]) == 0
    err = capsys.readouterr().err
    assert "mlp.onnxtxt: info[S010]: 1 declared shape(s) that followed 'X' follow its new shape: 'probs'" in err
    assert "=> (float[1, 3] probs)" in out.read_text()
    assert main(["edit", MLP, "-o", str(out), "--set-input-shape", "X=1,2,4"]) == 0
    err = capsys.readouterr().err
    assert "mlp.onnxtxt: warning[S011]: 'X' had 2 dimensions and now has 3" in err and "Traceback" not in err
    assert "float[1, 2, 4] X" in out.read_text()
