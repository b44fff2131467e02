"""The ONNX backend node suite, run by our evaluator (see backend_cases.py)."""

from __future__ import annotations

from pathlib import Path

import backend_cases


def test_backend_node(backend_case: str, backend_suite: Path) -> None:
    backend_cases.run_case(backend_case)


def test_pass_count_not_below_best(backend_suite: Path) -> None:
    best, known = backend_cases.read_known_failures()
    names = backend_cases.case_names()
    unknown = sorted(set(known) - set(names))
    assert not unknown, f"known_failures.txt names cases that do not exist: {unknown[:5]}"
    expected_passes = len(names) - len(known)
    assert expected_passes >= best, (
        f"{expected_passes} cases are expected to pass, fewer than the best recorded {best}: "
        "fix the regressions instead of adding them to known_failures.txt"
    )
