"""Every model of the ONNX backend suite: the generated node cases and the model folders onnx ships."""

from __future__ import annotations

import sys
from pathlib import Path

_EVAL = Path(__file__).resolve().parents[1] / "evaluate"
if str(_EVAL) not in sys.path:
    sys.path.insert(0, str(_EVAL))

import backend_cases  # noqa: E402


def node_model_paths() -> list[Path]:
    root = backend_cases.ensure_suite()
    return sorted(root.glob("*/model.onnx"))


def shipped_model_paths() -> list[Path]:
    import onnx

    data = Path(onnx.__file__).parent / "backend" / "test" / "data"
    return sorted(p for p in data.glob("*/*/model.onnx") if p.parent.parent.name != "node")


def all_model_paths() -> list[Path]:
    return node_model_paths() + shipped_model_paths()


def case_id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.parent.name}"


def onnx_checker_rejection(model: object) -> str | None:
    """Why ``onnx.checker.check_model(full_check=True)`` rejects an onnx model, or None if it accepts it."""
    import onnx

    try:
        onnx.checker.check_model(model, full_check=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as exc:
        return str(exc).splitlines()[0][:200]
    return None
