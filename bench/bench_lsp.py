"""The language server through a real client (pygls's), on a 3,000-node document.

Usage: python bench/bench_lsp.py [--nodes 3000] [--repeat 5]
       python bench/bench_lsp.py --relu 30000 [--edits 1000]   (the big-document table of #24)

Measured, best and median of ``--repeat``:
- server start: spawning ``onnxtext lsp`` until the answer to ``initialize`` (target 1 s);
- re-diagnosis: from ``didChange`` (one character edited) to ``publishDiagnostics`` for
  that version, debounce set to 0 (target 300 ms; parse, lower, check, infer);
- hover, completion, definition at a node in the middle (target 50 ms each): the first
  request of each kind (``*-first``: it pays one-time costs such as the protocol converter
  being generated and the operator list of the imported opsets) and the next ones.
With ``--relu N``: a text of N ``X{i+1} = Relu (X{i})`` statements, the evaluator off, the
default 150 ms debounce (see :func:`run_big`); ``edit-first`` is an edit sent as soon as the open's
diagnostics are published (#30); ``edit-chain`` is a typo in the middle
statement's input and its fix (every later value's type changes each time, #30), and
``format-error`` formats the text while that typo is in it; ``edit-whole`` and
``edit-chain-whole`` are the same edits sent as some clients send them, the whole text in a
``didChange`` without a range. Resident memory is read after the open, after 200 edits and
after ``--edits`` (1,000 by default): flat means no growth between the last two.
The anchor measured in the same run: ``onnx.parser.parse_model`` (C++) of the same text,
so the numbers can be compared across machines as ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as L
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def document(nodes: int) -> str:
    """A realistic model: MatMul/Add/Relu blocks with initializers, an If with two branches, a local function."""
    lines = [
        '<ir_version: 8, opset_import: ["" : 18, "local" : 1]>',
        "main (float[N, 16] x0, bool c) => (float[N, 16] out)",
    ]
    inits = [f"float[16, 16] w{i} = {{{', '.join(['0.5'] * 256)}}}" for i in range(4)]
    lines.append("<" + ", ".join(inits) + ">")
    lines.append("{")
    for i in range(nodes // 3):
        lines.append(f"   m{i} = MatMul (x{i}, w{i % 4})")
        lines.append(f"   a{i} = local.bias (m{i})" if i % 50 == 0 else f"   a{i} = Add (m{i}, m{i})")
        lines.append(f"   x{i + 1} = Relu (a{i})")
    last = nodes // 3
    lines.append(
        f"   out = If (c) <then_branch = t () => (float[N, 16] o1) {{ o1 = Neg (x{last}) }}, "
        f"else_branch = e () => (float[N, 16] o2) {{ o2 = Abs (x{last}) }}>"
    )
    lines.append("}")
    lines.append('<domain: "local", opset_import: ["" : 18]>')
    lines.append("bias (p) => (q) {\n   q = Add (p, p)\n}")
    return "\n".join(lines) + "\n"


class _Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("bench", "1")
        self.published: dict[tuple[str, int | None], asyncio.Event] = {}

        @self.feature(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _publish(params: L.PublishDiagnosticsParams) -> None:
            self.published.setdefault((params.uri, params.version), asyncio.Event()).set()

    async def wait_published(self, uri: str, version: int) -> None:
        await self.published.setdefault((uri, version), asyncio.Event()).wait()


async def _timed(coro: object) -> float:
    t0 = time.perf_counter()
    await coro  # type: ignore[misc]
    return time.perf_counter() - t0


async def run(nodes: int, repeat: int) -> dict[str, list[float]]:
    text = document(nodes)
    kinds = ("hover", "completion", "definition")
    times: dict[str, list[float]] = {k: [] for k in ("start", "rediagnose", *(f"{k}-first" for k in kinds), *kinds)}
    folder = Path(tempfile.mkdtemp())
    uri = (folder / "big.onnxtxt").as_uri()
    line = text.splitlines()
    middle = len(line) // 2
    column = line[middle].index("= ") + 3
    for r in range(repeat):
        client = _Client()
        t0 = time.perf_counter()
        await client.start_io(sys.executable, "-m", "onnxtext", "lsp")
        await client.initialize_async(
            L.InitializeParams(
                capabilities=L.ClientCapabilities(),
                initialization_options={"onnxtext": {"debounceMs": 0, "evaluate": {"enabled": False}}},
            )
        )
        times["start"].append(time.perf_counter() - t0)
        client.initialized(L.InitializedParams())
        client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, text)))
        await client.wait_published(uri, 1)
        for version in range(2, 6):
            edit = L.TextDocumentContentChangePartial(
                range=L.Range(L.Position(middle, 3), L.Position(middle, 4)), text="m" if version % 2 else "n"
            )
            t0 = time.perf_counter()
            client.text_document_did_change(
                L.DidChangeTextDocumentParams(L.VersionedTextDocumentIdentifier(uri=uri, version=version), [edit])
            )
            await client.wait_published(uri, version)
            times["rediagnose"].append(time.perf_counter() - t0)
        doc = L.TextDocumentIdentifier(uri)
        pos = L.Position(middle, column)
        for call in range(6):
            suffix = "-first" if call == 0 else ""
            times["hover" + suffix].append(await _timed(client.text_document_hover_async(L.HoverParams(doc, pos))))
            times["completion" + suffix].append(
                await _timed(client.text_document_completion_async(L.CompletionParams(doc, pos)))
            )
            times["definition" + suffix].append(
                await _timed(client.text_document_definition_async(L.DefinitionParams(doc, pos)))
            )
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        del r
    return times


def relu_document(statements: int) -> str:
    """The issue's big document: one chain of ``statements`` Relu nodes."""
    lines = ['<ir_version: 8, opset_import: ["" : 18]>', f"main (float[N, 16] X0) => (float[N, 16] X{statements})", "{"]
    lines += [f"   X{i + 1} = Relu (X{i})" for i in range(statements)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _rss_mb(pid: int) -> float:
    """The resident memory of a process (Linux ``/proc``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def run_big(statements: int, edits: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    """The table of #24 on one server: open, one-line edits (150 ms debounce), hover right after an
    edit, semantic tokens (full, delta), formatting (document, one line); the server's resident
    memory idle, with the document open, and after ``edits`` more edits (caches must not grow)."""
    text = relu_document(statements)
    middle = 3 + statements // 2  # a statement line
    at = text.splitlines()[middle].index("Relu")
    use = text.splitlines()[middle].index("(X") + 1  # the statement's input: a typo there breaks the chain
    times: dict[str, list[float]] = {
        k: []
        for k in (
            "open",
            "edit-first",
            "edit",
            "edit-chain",
            "edit-whole",
            "edit-chain-whole",
            "hover-after-edit",
            "tokens-full",
            "tokens-delta",
            "format",
            "format-error",
            "format-range",
        )
    }
    memory: dict[str, float] = {}
    uri = (Path(tempfile.mkdtemp()) / "big.onnxtxt").as_uri()
    client = _Client()
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "src"))
    await client.start_io(sys.executable, "-m", "onnxtext", "lsp", env=env)
    await client.initialize_async(
        L.InitializeParams(
            capabilities=L.ClientCapabilities(),
            initialization_options={"onnxtext": {"evaluate": {"enabled": False}}},
        )
    )
    client.initialized(L.InitializedParams())
    pid = client._server.pid  # type: ignore[union-attr]  # pygls keeps the process there
    small = uri.replace("big.onnxtxt", "small.onnxtxt")  # idle: every module a document needs loaded
    client.text_document_did_open(
        L.DidOpenTextDocumentParams(L.TextDocumentItem(small, "onnxtext", 1, relu_document(3)))
    )
    await client.wait_published(small, 1)
    memory["idle"] = _rss_mb(pid)
    doc = L.TextDocumentIdentifier(uri)
    t0 = time.perf_counter()
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, text)))
    await client.wait_published(uri, 1)
    times["open"].append(time.perf_counter() - t0)
    memory["open"] = _rss_mb(pid)
    version = 1
    result_id: str | None = None
    lines = text.splitlines(keepends=True)  # the text as the client has it

    def send(column: int, old: int, new: str, whole: bool) -> None:
        """Version ``version + 1``: the middle line's ``old`` characters at ``column`` replaced by
        ``new``, sent as that range's edit, or (``whole``) as the whole text without a range."""
        nonlocal version
        version += 1
        line = lines[middle]
        lines[middle] = line[:column] + new + line[column + old :]
        edit: L.TextDocumentContentChangeEvent = (
            L.TextDocumentContentChangeWholeDocument(text="".join(lines))
            if whole
            else L.TextDocumentContentChangePartial(
                range=L.Range(L.Position(middle, column), L.Position(middle, column + old)), text=new
            )
        )
        client.text_document_did_change(
            L.DidChangeTextDocumentParams(L.VersionedTextDocumentIdentifier(uri=uri, version=version), [edit])
        )

    def change(whole: bool = False) -> None:
        """The middle statement's op type changed (Relu, Tanh in turn)."""
        send(at, 4, "Relu" if (version + 1) % 2 else "Tanh", whole)

    def typo(broken: bool, whole: bool = False) -> None:
        """The middle statement's input misspelt (every later value's type unknown) or mended."""
        send(use, 1, "Q" if broken else "X", whole)

    t0 = time.perf_counter()  # typing at once: the open's analysis is still being recorded (#30)
    change()
    await client.wait_published(uri, version)
    times["edit-first"].append(time.perf_counter() - t0)

    async def settled() -> None:
        """The last version's diagnostics, and its tokens (all the work an edit starts, done)."""
        await client.wait_published(uri, version)
        await client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc))

    for _ in range(5):
        options = L.FormattingOptions(tab_size=3, insert_spaces=True)
        for broken in (True, False):  # a typo in a use, and its fix: every later type changes each time
            t0 = time.perf_counter()
            typo(broken)
            await client.wait_published(uri, version)
            times["edit-chain"].append(time.perf_counter() - t0)
            if broken:
                t0 = time.perf_counter()
                await client.text_document_formatting_async(L.DocumentFormattingParams(doc, options))
                times["format-error"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        change()
        await client.wait_published(uri, version)
        times["edit"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        full = await client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc))
        times["tokens-full"].append(time.perf_counter() - t0)
        result_id = full.result_id if full is not None else None
        change()  # the last version analysed (its tokens were answered): a hover right after a keystroke
        t0 = time.perf_counter()
        await client.text_document_hover_async(L.HoverParams(doc, L.Position(middle - 10, 4)))
        times["hover-after-edit"].append(time.perf_counter() - t0)
        await client.wait_published(uri, version)
        change()
        await client.wait_published(uri, version)
        if result_id is not None:
            t0 = time.perf_counter()
            await client.text_document_semantic_tokens_full_delta_async(L.SemanticTokensDeltaParams(doc, result_id))
            times["tokens-delta"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await client.text_document_formatting_async(L.DocumentFormattingParams(doc, options))
        times["format"].append(time.perf_counter() - t0)
        line = L.Range(L.Position(middle, 0), L.Position(middle + 1, 0))
        t0 = time.perf_counter()
        await client.text_document_range_formatting_async(L.DocumentRangeFormattingParams(doc, line, options))
        times["format-range"].append(time.perf_counter() - t0)
        # The same edits from a client that sends the whole text each time.
        for broken in (True, False):
            t0 = time.perf_counter()
            typo(broken, whole=True)
            await client.wait_published(uri, version)
            times["edit-chain-whole"].append(time.perf_counter() - t0)
        await settled()
        t0 = time.perf_counter()
        change(whole=True)
        await client.wait_published(uri, version)
        times["edit-whole"].append(time.perf_counter() - t0)
        await settled()
    for n in range(edits):  # typing: a hover now and then, the diagnostics of every 50th version awaited
        change()
        if n % 10 == 0:
            await client.text_document_hover_async(L.HoverParams(doc, L.Position(middle - 10, 4)))
        if n % 50 == 49:
            await client.wait_published(uri, version)
        if n + 1 == min(200, edits):
            await settled()
            memory[f"after {n + 1} edits"] = _rss_mb(pid)
    await settled()
    memory[f"after {edits} edits"] = _rss_mb(pid)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times, memory


def main_big(statements: int, edits: int) -> int:
    times, memory = asyncio.run(run_big(statements, edits))
    targets = {
        "open": 1.0,
        "edit-first": 0.3,
        "edit": 0.3,
        "edit-chain": 0.3,
        "edit-whole": 0.3,
        "edit-chain-whole": 0.3,
        "hover-after-edit": 0.1,
        "tokens-full": 0.2,
        "tokens-delta": 0.2,
        "format": 0.5,
        "format-error": 0.5,
        "format-range": 0.05,
    }
    print(f"document: {statements} statements, evaluator off, 150 ms debounce")
    print(f"{'step':<17} {'best ms':>9} {'median ms':>10} {'target ms':>10}")
    for key, values in times.items():
        if values:
            print(
                f"{key:<17} {min(values) * 1000:9.1f} {statistics.median(values) * 1000:10.1f} "
                f"{targets[key] * 1000:10.0f}"
            )
    idle = memory["idle"]
    print(
        "server resident memory: "
        + ", ".join(f"{k} {v:.0f} MB" for k, v in memory.items())
        + f" (document open: +{memory['open'] - idle:.0f} MB over idle)"
    )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--relu", type=int, default=0, help="the big-document table: this many Relu statements")
    ap.add_argument("--edits", type=int, default=1000, help="with --relu: edits before memory is measured again")
    args = ap.parse_args()
    if args.relu:
        return main_big(args.relu, args.edits)
    text = document(args.nodes)
    anchor = None
    try:
        import onnx.parser

        t0 = time.perf_counter()
        onnx.parser.parse_model(text)
        anchor = time.perf_counter() - t0
    except ImportError:
        pass
    times = asyncio.run(run(args.nodes, args.repeat))
    targets = {"start": 1.0, "rediagnose": 0.3}
    targets.update({k: 0.05 for k in times if k not in targets})
    print(
        f"document: {args.nodes} nodes, {len(text) / 1024:.0f} KiB"
        + (f"; anchor onnx.parser.parse_model {anchor * 1000:.1f} ms" if anchor else "")
    )
    print(f"{'step':<17} {'best ms':>9} {'median ms':>10} {'target ms':>10}" + ("  median/anchor" if anchor else ""))
    for key, values in times.items():
        med = statistics.median(values)
        ratio = f"  {med / anchor:10.1f}x" if anchor else ""
        print(f"{key:<17} {min(values) * 1000:9.1f} {med * 1000:10.1f} {targets[key] * 1000:10.0f}{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
