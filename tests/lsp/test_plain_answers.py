"""A custom request's plain JSON answer is written by orjson (``_Protocol._send_response``), framed
as pygls frames its own; an answer orjson cannot write goes through pygls's converter."""

from __future__ import annotations

import json
from typing import Any

from lsprotocol import types as L

from onnxtext.lsp.server import build_server


class _Writer:
    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data


def _sent(result: Any) -> dict[str, Any]:
    protocol = build_server().protocol
    writer = _Writer()
    protocol.set_writer(writer, include_headers=True)
    protocol._send_response(7, result=result)
    head, _, body = writer.data.partition(b"\r\n\r\n")
    length = int(head.split(b"\r\n")[0].removeprefix(b"Content-Length: "))
    assert length == len(body)  # bytes, not characters: the answer's names may be any text
    message: dict[str, Any] = json.loads(body)
    return message


def test_a_plain_answer_is_written_whole_with_its_length_in_bytes() -> None:
    graph = {"nodes": [{"id": "ä→b", "label": "Conv", "rows": [1, 2.5, None, True]}], "nan": float("nan")}
    message = _sent(graph)
    assert message == {"id": 7, "jsonrpc": "2.0", "result": {**graph, "nan": None}}  # JSON has no NaN


def test_an_answer_with_a_protocol_value_inside_goes_through_the_converter() -> None:
    message = _sent({"at": L.Position(line=3, character=4)})
    assert message["id"] == 7 and message["result"] == {"at": {"line": 3, "character": 4}}
