"""``onnxtext lsp --tcp`` through the real command: it answers a client, and a taken port
is an error, not a traceback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH", "")) if p)
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _message(payload: dict[str, object]) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class _Reader:
    """Messages of the base protocol (headers, blank line, JSON body) from a socket."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.buffer = b""

    def _fill(self) -> None:
        chunk = self.conn.recv(4096)
        assert chunk, "the server closed the connection"
        self.buffer += chunk

    def message(self) -> dict[str, object]:
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lengths = [
            int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
        ]
        while len(self.buffer) < lengths[0]:
            self._fill()
        body, self.buffer = self.buffer[: lengths[0]], self.buffer[lengths[0] :]
        result: dict[str, object] = json.loads(body)
        return result

    def answer(self, request_id: int) -> dict[str, object]:
        """The response to ``request_id`` (notifications before it are skipped)."""
        while True:
            found = self.message()
            if found.get("id") == request_id:
                return found


def test_tcp_server_answers_initialize() -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "onnxtext", "lsp", "--tcp", f"127.0.0.1:{port}"],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except ConnectionRefusedError:
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        with conn:
            reader = _Reader(conn)
            conn.sendall(_message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
            answer = reader.answer(1)
            capabilities = answer["result"]["capabilities"]  # type: ignore[index]
            assert capabilities["hoverProvider"] and capabilities["completionProvider"]
            conn.sendall(_message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
            assert "error" not in reader.answer(2)
            conn.sendall(_message({"jsonrpc": "2.0", "method": "exit"}))
    finally:
        proc.kill()
        proc.wait(30)


def test_taken_port_is_a_located_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "onnxtext", "lsp", "--tcp", f"127.0.0.1:{port}"],
            env=_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert f"onnxtext: error: cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
