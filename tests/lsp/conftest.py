"""A real client (pytest-lsp) talking to a real ``onnxtext lsp`` process."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as L
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SRC = Path(__file__).resolve().parents[2] / "src"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH", "")) if p)
    return env


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "onnxtext", "lsp"], server_env=_env()),
)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    # the evaluator's diagnostics follow the fast ones: off here, on in their own tests
    await start_session(lsp_client, {"onnxtext": {"debounceMs": 20, "evaluate": {"enabled": False}}})
    yield
    await lsp_client.shutdown_session()


async def start_session(lsp_client: LanguageClient, options: dict[str, object]) -> None:
    """Initialize as VS Code does, with these initialization options."""
    params = L.InitializeParams(capabilities=client_capabilities("visual-studio-code"), initialization_options=options)

    # A real editor answers the server's refresh requests; so does this client.
    @lsp_client.feature(L.WORKSPACE_CODE_LENS_REFRESH)
    def code_lens_refresh(params: None) -> None:
        return None

    @lsp_client.feature(L.WORKSPACE_INLAY_HINT_REFRESH)
    def inlay_hint_refresh(params: None) -> None:
        return None

    await lsp_client.initialize_session(params)


@pytest.fixture
def uri(tmp_path: Path) -> str:
    return (tmp_path / "model.onnxtxt").as_uri()
