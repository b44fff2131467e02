from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
_SRC = Path(__file__).resolve().parents[2] / "src"
if str(_SRC) not in sys.path:
    sys.path.insert(0, str(_SRC))

import backend_cases  # noqa: E402


@pytest.fixture(scope="session")
def backend_suite() -> Path:
    """Folder of the generated backend node suite (generated on first use)."""
    return backend_cases.ensure_suite()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend_case" in metafunc.fixturenames:
        _best, known = backend_cases.read_known_failures()
        params = []
        for name in backend_cases.case_names():
            marks = []
            if name in known:
                marks.append(pytest.mark.xfail(reason=known[name], strict=True))
            params.append(pytest.param(name, marks=marks, id=name))
        metafunc.parametrize("backend_case", params)
