"""The server under the hostile-input campaign (#31), driven by a raw JSON-RPC client (a typed
client cannot send what these send): a request whose params pygls cannot read, or about a file
that is no text file (a device, a FIFO, a folder, no file at all), is answered at once with
invalid-params saying why, and the server serves on. pygls only logged the first (the client
waited for ever); the second read /dev/zero until memory ran out, or blocked on the FIFO."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
TEXT = """<ir_version: 9, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
   y = Relu (x)
}
"""
INVALID_PARAMS = -32602
WAIT = 30.0
"""Seconds an answer may take (a loaded machine); a request never answered fails the test then."""


class RawClient:
    """JSON-RPC over the server's stdio, one request at a time."""

    def __init__(self, folder: Path) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "onnxtext", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.buffer = b""
        self.last_id = 0
        options = {"onnxtext": {"evaluate": {"enabled": False}}}
        self.request(
            "initialize",
            {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}, "initializationOptions": options},
        )
        self.notify("initialized", {})

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any) -> dict[str, Any]:
        """The server's answer (its ``result`` or ``error``), the notifications before it dropped."""
        self.last_id += 1
        self._send({"jsonrpc": "2.0", "id": self.last_id, "method": method, "params": params})
        deadline = time.monotonic() + WAIT
        while True:
            message = self._receive(deadline)
            if "method" in message and "id" in message:  # the server's own request: answered null
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif message.get("id") == self.last_id:
                return message

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def _receive(self, deadline: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        while True:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if sep:
                length = int(
                    next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1]
                )
                if len(rest) >= length:
                    self.buffer = rest[length:]
                    return json.loads(rest[:length])
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, "the server did not answer"
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            assert chunk, "the server closed its output"
            self.buffer += chunk

    def close(self) -> None:
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[RawClient, str]]:
    client = RawClient(tmp_path)
    uri = (tmp_path / "m.onnxtxt").as_uri()
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "onnxtext", "version": 1, "text": TEXT}}
    )
    yield client, uri
    client.close()


def _refused(client: RawClient, method: str, params: Any) -> str:
    answer = client.request(method, params)
    assert answer.get("error", {}).get("code") == INVALID_PARAMS, (method, params, answer)
    return str(answer["error"]["message"])


def _still_serves(client: RawClient, uri: str) -> None:
    answer = client.request(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 8}}
    )
    assert "Relu" in json.dumps(answer["result"])


def test_params_pygls_cannot_read_are_answered(server: tuple[RawClient, str]) -> None:
    client, uri = server
    cases: list[tuple[str, Any, str]] = [
        ("textDocument/hover", {}, "required field missing @ $.textDocument"),
        ("textDocument/hover", {"textDocument": {"uri": uri}}, "required field missing @ $.position"),
        ("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": "two", "character": 0}}, "line"),
        ("textDocument/completion", {"textDocument": {"uri": uri}, "position": "here"}, "@ $.position"),
        ("textDocument/definition", [], ""),
        ("textDocument/semanticTokens/full", {"textDocument": None}, "textDocument"),
    ]
    for method, params, said in cases:
        message = _refused(client, method, params)
        assert message.startswith(f"{method}: params not understood: ") and said in message, message
        _still_serves(client, uri)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_files_that_are_no_text_files_are_refused_at_once(server: tuple[RawClient, str], tmp_path: Path) -> None:
    client, uri = server
    fifo = tmp_path / "fifo.onnxtxt"
    os.mkfifo(fifo)
    cases = {
        "file:///dev/zero": "not a regular file",
        fifo.as_uri(): "not a regular file",
        tmp_path.as_uri(): "not a regular file",
        "untitled:Untitled-1": "is not open, and is no file to read",
        "https://example.com/m.onnxtxt": "is not open, and is no file to read",
    }
    for other, why in cases.items():
        for method, params in (
            ("textDocument/hover", {"textDocument": {"uri": other}, "position": {"line": 0, "character": 0}}),
            ("onnxtext/graph", {"textDocument": {"uri": other}}),
        ):
            message = _refused(client, method, params)
            assert other in message and why in message, message
        _still_serves(client, uri)


def _reference_lsp_position(text: str, offset: int) -> tuple[int, int]:
    """The protocol's definition: 0-based line, UTF-16 code units from the line's start."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset), len(text[line_start:offset].encode("utf-16-le", "surrogatepass")) // 2


def test_lsp_positions_count_utf16_units_without_reading_the_line() -> None:
    """Every position the server answered encoded its line up to there: a 2 MB line with 130,000
    statements took minutes for the outline. Columns now come from where the wide characters are."""
    import random

    from onnxtext.span import SourceFile

    rng = random.Random(31)
    alphabet = ["a", "\n", "é", "😀", "\U0010ffff", "\r", "\ud800"]  # a lone surrogate is one unit
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        source = SourceFile(text)
        for offset in range(len(text) + 1):
            line, units = _reference_lsp_position(text, offset)
            assert source.lsp_position(offset) == (line, units), (text, offset)
            assert source.offset_of_lsp(line, units) == offset
    line = "x = Relu (y) " * 800_000 + "😀 z"
    source = SourceFile(line)
    for offset in range(0, len(line), len(line) // 20_000):  # 0.1 s; by encoding the line each time, minutes
        assert source.offset_of_lsp(*source.lsp_position(offset)) == offset
    assert source.lsp_position(len(line)) == (0, len(line) + 1)


def test_tokens_of_many_statements_on_one_line_are_bounded() -> None:
    """The semantic tokens keyed each statement's rows by its text from its line's start: 20 GB of
    keys for 130,000 statements on a 2 MB line (the server was killed). Such a line is encoded in one
    pass, the same tokens, in memory linear in the text."""
    import tracemalloc

    from onnxtext.document import parse_document
    from onnxtext.host.tokens import StatementRows, encoded_tokens

    body = " ".join(f"x{i + 1} = Relu (x{i})" for i in range(20_000))
    doc = parse_document(
        '<ir_version: 9, opset_import: ["" : 18]>\ng (float[2] x0) => (float[2] y) { ' + body + " y = Relu (x0) }\n"
    )
    tracemalloc.start()
    try:
        data, rows = StatementRows().encode(doc)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert data == encoded_tokens(doc) and len(data) > 5 * 60_000
    assert peak < 100 * 2**20, peak  # 20,000 statements of a 440 kB line: 4.4 GB of keys before
    assert len(rows) == 0


def test_completion_inside_a_long_name_is_immediate() -> None:
    """The word before the cursor was found by a regular expression searched from the text's start:
    quadratic in a long name (a 2 MB name: minutes for each completion, the server's thread taken)."""
    from onnxtext.ide.complete import WINDOW, context_at

    text = (
        '<ir_version: 9, opset_import: ["" : 18]>\ng (float[2] '
        + "x" * 2_000_000
        + ") => (float[2] y) { y = Relu (x) }\n"
    )
    context = context_at(text, 1_000_000)  # at once; searched from the text's start, minutes
    assert context.prefix == "x" * WINDOW and context.replace.end == 1_000_000
    short = context_at("g (float[2] x) => (float[2] y) { y = Re", 39)
    assert (short.kind, short.prefix) == ("operator", "Re")


H = '<ir_version: 9, opset_import: ["" : 18]>\n'
HOSTILE_TEXTS = [
    "",
    "\ufeff" + TEXT,
    TEXT.replace("\n", "\r\n"),
    TEXT.replace("\n", "\r"),
    TEXT.replace("   ", "\t"),
    TEXT.replace("Relu (x)", 'Relu (x) @{doc_string: "a\\x00b\x00c\\ud800"}'),
    TEXT.replace("(x)", '("\\udfff")'),
    "\x00\x01\x02\xff garbage \ud800 😀" * 100,
    H + "g (" + "seq(" * 10_000 + "float" + ")" * 10_000 + " x) => (float[2] y) { y = Relu (x) }\n",
    H + "g (float[2] x) => (float[2] y) { y = Relu " + "(" * 20_000,
    H + "g (float[2] " + "x" * 200_000 + ") => (float[2] y) { y = Relu (x) }\n",
    H
    + "g (float[2] x0) => (float[2] y) { "
    + " ".join(f"x{i + 1} = Relu (x{i})" for i in range(5_000))
    + " y = Relu (x0) }",
    H + "g (float[4294967296, 4294967296] x) => (float[2] y) <float[1000000000000] w = {1.0}> { y = Add (x, w) }\n",
    H + 'g (float[2] x) => (float[2] y) <float[2] w = ["location": "../../etc/passwd"]> { y = Add (x, w) }\n',
]
PIECES = [
    *"(){}<>[],=",
    "@{",
    '"',
    "\\",
    "#",
    "\n",
    "\r\n",
    "\x00",
    "😀",
    "\ud800",
    "seq(",
    "1e400",
    "-1",
    "y = Relu (x)\n",
]
"""What an edit inserts: brackets, strings cut open, line ends, NUL, characters outside the BMP, a lone surrogate."""


def _position(rng: Any, text: str) -> dict[str, int]:
    """A position in ``text`` (UTF-16 columns), or one past its end, or absurd."""
    from onnxtext.span import SourceFile

    r = rng.random()
    if r < 0.8:
        line, character = SourceFile(text).lsp_position(rng.randrange(len(text) + 1))
        return {"line": line, "character": character}
    if r < 0.9:
        return {"line": text.count("\n") + rng.randint(0, 3), "character": rng.randint(0, 9)}
    return {"line": rng.randint(0, text.count("\n")), "character": 2**31 - 1}


def _requests(rng: Any, uri: str, text: str, folder: Path) -> list[tuple[str, Any]]:
    doc = {"uri": uri}
    at, to = _position(rng, text), _position(rng, text)
    span = {"start": at, "end": to}
    return [
        ("textDocument/hover", {"textDocument": doc, "position": at}),
        ("textDocument/completion", {"textDocument": doc, "position": at}),
        ("textDocument/signatureHelp", {"textDocument": doc, "position": at}),
        ("textDocument/definition", {"textDocument": doc, "position": at}),
        ("textDocument/references", {"textDocument": doc, "position": at, "context": {"includeDeclaration": True}}),
        ("textDocument/documentHighlight", {"textDocument": doc, "position": at}),
        ("textDocument/prepareRename", {"textDocument": doc, "position": at}),
        (
            "textDocument/rename",
            {"textDocument": doc, "position": at, "newName": rng.choice(["z", "", "a b", "\ud800"])},
        ),
        ("textDocument/selectionRange", {"textDocument": doc, "positions": [at, to]}),
        ("textDocument/formatting", {"textDocument": doc, "options": {"tabSize": 3, "insertSpaces": True}}),
        (
            "textDocument/rangeFormatting",
            {"textDocument": doc, "range": span, "options": {"tabSize": 3, "insertSpaces": True}},
        ),
        ("textDocument/documentSymbol", {"textDocument": doc}),
        ("textDocument/foldingRange", {"textDocument": doc}),
        ("textDocument/semanticTokens/full", {"textDocument": doc}),
        ("textDocument/semanticTokens/full/delta", {"textDocument": doc, "previousResultId": rng.choice(["1", "x"])}),
        ("textDocument/codeLens", {"textDocument": doc}),
        ("textDocument/inlayHint", {"textDocument": doc, "range": span}),
        ("textDocument/codeAction", {"textDocument": doc, "range": span, "context": {"diagnostics": []}}),
        ("onnxtext/graph", {"textDocument": doc, "folded": rng.random() < 0.5}),
        ("onnxtext/graphProperties", {"textDocument": doc, "position": at}),
        ("onnxtext/insertNode", {"textDocument": doc, "value": rng.choice(["x", "y", "nope"])}),
        (
            "onnxtext/pasteNodes",
            {"textDocument": doc, "position": at, "source": {"uri": uri, "text": text, "range": span}},
        ),
        ("onnxtext/compare", {"textDocument": doc, "a": {"uri": uri + ".a", "text": TEXT}}),
        ("onnxtext/saveTensor", {"textDocument": doc, "position": at, "path": str(folder / "w.npy")}),
    ]


@pytest.mark.slow
def test_hostile_texts_edited_and_asked_everything(tmp_path: Path) -> None:
    """The server campaign, seeded and bounded: hostile texts opened, edited at random (incremental
    changes), every request at random positions after each edit, on the document closed too. Every
    request is answered (within WAIT seconds) and none with an internal error; the server serves on."""
    import random

    rng = random.Random(31)
    client = RawClient(tmp_path)
    for n, text in enumerate(HOSTILE_TEXTS):
        uri = (tmp_path / f"d{n}.onnxtxt").as_uri()
        client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "onnxtext", "version": 1, "text": text}}
        )
        from onnxtext.span import SourceFile

        for version in range(2, 5):
            start = rng.randrange(len(text) + 1)
            end = min(len(text), start + rng.choice([0, 1, 10]))
            new = rng.choice(PIECES)
            source = SourceFile(text)
            (sl, sc), (el, ec) = source.lsp_position(start), source.lsp_position(end)
            change = {
                "range": {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}},
                "text": new,
            }
            client.notify(
                "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
            )
            text = text[:start] + new + text[end:]
            for method, params in rng.sample(_requests(rng, uri, text, tmp_path), 12):
                answer = client.request(method, params)
                assert answer.get("error", {}).get("code") in (None, INVALID_PARAMS, -32800), (n, method, answer)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        for method, params in _requests(rng, uri, text, tmp_path)[:3]:  # closed: read from its file, which is none
            assert client.request(method, params).get("error", {}).get("code") == INVALID_PARAMS
    client.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": (tmp_path / "m.onnxtxt").as_uri(),
                "languageId": "onnxtext",
                "version": 1,
                "text": TEXT,
            }
        },
    )
    _still_serves(client, (tmp_path / "m.onnxtxt").as_uri())
    client.close()


def test_tokens_of_a_text_holding_a_lone_surrogate() -> None:
    """A client may send "\\ud800" in JSON: the statements' columns were encoded to UTF-16, which
    refused the lone surrogate (an internal error for every semantic-tokens request)."""
    from onnxtext.document import parse_document
    from onnxtext.host.tokens import StatementRows, encoded_tokens

    doc = parse_document(TEXT.replace("Relu (x)", 'Relu (x) @{doc_string: "\ud800"}\n   z = Relu (y)'))
    data, _ = StatementRows().encode(doc)
    assert data == encoded_tokens(doc) and len(data) > 5 * 6


def test_code_actions_on_a_selection_of_thousands_of_nodes() -> None:
    """The extraction gestures' signature looked each made value up in lists of the selection's
    reads and inputs: a selection of 9,000 nodes took 44 s (the server's code actions, asked at every
    selection change), now a set lookup each."""
    from onnxtext.document import parse_document
    from onnxtext.ide.gestures import gestures_at

    lines = [f"  x{i + 1} = Relu (x{i})" for i in range(6_000)]
    text = '<ir_version: 9, opset_import: ["" : 18]>\ng (float[2] x0) => (float[2] y) {\n' + "\n".join(lines)
    doc = parse_document(text + "\n  y = Relu (x6000)\n}\n")
    start, end = text.index("x1 ="), len(text)
    titles = [g.title for g in gestures_at(doc, start, end)]  # 1 s; 20 s before
    assert "Extract 6000 nodes to a new model" in titles


def test_pasting_thousands_of_nodes() -> None:
    """Paste looked each value of the source's graph up in the list of the values the pasted nodes
    make: 27,000 nodes of a 50,000-node graph took 10 s of the server's thread (more under load)."""
    from onnxtext.document import parse_document
    from onnxtext.ide.paste import paste_nodes

    lines = [f"  x{i + 1} = Relu (x{i})" for i in range(16_000)]
    text = '<ir_version: 9, opset_import: ["" : 18]>\ng (float[2] x0) => (float[2] y) {\n' + "\n".join(lines)
    doc = parse_document(text + "\n  y = Relu (x16000)\n}\n")
    pasted = paste_nodes(doc, text.index("x1 ="), len(text), doc, text.index("  x1 ="))  # 0.6 s; 4 s before
    assert pasted is not None and pasted.title.startswith("Pasted 16000 nodes")
