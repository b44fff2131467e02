"""The ``onnxtext`` command line: the argument table, and ``main``, which runs a command.

Each command is a module of :mod:`onnxtext.cli.commands`, imported only when it runs (so
``--help`` and ``--version`` load none of them); what they share is :mod:`onnxtext.cli.common`.

Exit status: 0 success, 1 bad input (any error diagnostic, unreadable file, invalid
binary model, a model no text can express), 2 bad usage. Diagnostics go to stderr as
``path:line:col: error[CODE]: message`` with the source line and a caret. Outputs are
written atomically: an input with errors never creates or touches an output file.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from onnxtext._gc import pausing_allowed
from onnxtext._version import __version__
from onnxtext.cli.common import EXIT_INPUT, EXIT_OK, EXIT_USAGE, PROG, _Reporter
from onnxtext.io import STDIO
from onnxtext.project import check_width
from onnxtext.syntax.layout import DEFAULT_WIDTH

__all__ = ["main", "build_parser"]

DEFAULT_THRESHOLD = 1024  # print/diff --threshold: bytes above which a tensor goes to the sidecar or a digest


def _width_arg(value: str) -> int:
    try:
        return check_width(int(value))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace("line-width", "--line-width")) from None


def _seed_arg(value: str) -> int:
    """A seed numpy takes: an integer >= 0 (``Generator`` refuses a negative one with a traceback)."""
    try:
        seed = int(value)
    except ValueError:
        seed = -1
    if seed < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, not {value!r}")
    return seed


def _add_width(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--line-width",
        metavar="N",
        type=_width_arg,
        default=None,
        help=f"wrap lines longer than N columns (default: [tool.onnxtext] line-width in the nearest "
        f"pyproject.toml, else {DEFAULT_WIDTH})",
    )


def _codes(value: str) -> list[str]:
    from onnxtext.analysis.check import code_list  # imported on use: the checker is heavy for other commands

    return code_list(value)


# ---------------------------------------------------------------- argument parsing

_DESCRIPTION = """\
onnxtext: a lossless text format for ONNX models.

Convert between text (.onnxtxt) and binary (.onnx) models and format texts.
Diagnostics are printed as path:line:col: error[CODE]: message.
Exit status: 0 success, 1 input errors, 2 usage errors."""

_EPILOG = """examples:
  onnxtext parse examples/mlp.onnxtxt -o mlp.onnx
  onnxtext print mlp.onnx
  onnxtext fmt --check examples/*.onnxtxt

'onnxtext COMMAND --help' describes a command."""

_PARSE_HELP = """\
Parse an onnxtext text and write the binary ONNX model (deterministic protobuf).
Nothing is written if the text has any error.

Tensor literals that do not fit their type but that onnx.parser accepts (a value
count other than the shape's, an integer out of range for an int8/uint8/int16/
uint16/bool/uint32/uint64 or a 16/8-bit float's bit pattern) are stored as written,
exactly as onnx.parser stores them, with a warning (L008); 'onnxtext check' reports
such a tensor as an error. --strict (or -W error) refuses them.

External data locations are relative to the model file: an OUT in another folder than
IN is refused when the model refers to external data files, unless
--copy-external-data copies them next to OUT (same relative names).

example:
  onnxtext parse examples/mlp.onnxtxt -o mlp.onnx
  cat model.onnxtxt | onnxtext parse - -o - > model.onnx"""

_PRINT_HELP = """\
Print a binary ONNX model (.onnx, .pb; '-' reads binary from stdin) as onnxtext
text; a text file is parsed and printed in canonical form.

Weights: --weights inline (default) writes every value; --weights external moves
tensors above --threshold bytes to OUT.data next to OUT (the text refers to it and
parses back to the same references); --weights digest shows them as sha256 and
statistics, a text for reading and diffing only (it does not parse back). Both leave
the weights in their files: the sidecar is filled by file-to-file copies and digests
are computed on memory maps, so gigabytes of weights take the time of a file copy.

example:
  onnxtext print mlp.onnx -o mlp.onnxtxt
  onnxtext print big.onnx --weights external -o big.onnxtxt   # + big.onnxtxt.data
  onnxtext print big.onnx --weights digest | less"""

_DIFF_HELP = """\
Compare two models (binary or text) structurally: nodes are matched by what they
compute (operator, attributes, the matched producers of their inputs, weights by the
digest of their bytes), names only breaking ties. Renamed values and nodes, reordered
independent nodes and weights stored again with the same bytes are not changes (a
'# renamed' line counts them; -v lists them). One line per change:
  ~ node 'y' (Relu → LeakyRelu)          ~ node 'h' (Add) input 1: 'b' → 'c'
  + node 'z' z = Relu (y)                - node 'q' q = Sigmoid (y)
  ~ initializer 'W' float[4,4]: 1 of 16 elements differ, max abs diff 0.5
  ~ input 'x' float[N, 4] → float[N, 8]  ~ opset '' 18 → 19
Subgraphs and local functions are compared the same way. --by-name aligns by names
instead (nodes by their output names), as onnxtext diff did before.
-o OUT draws the difference: B's graph with A's removed nodes, added (green), removed
(red) and changed (amber) nodes coloured, unchanged runs folded (.html, .svg, .dot).

Exit status: 0 same, 1 different, 2 trouble (like diff(1)). Large weights are
compared by SHA-256 without loading them; only those that differ are read (mmap).

example:
  onnxtext diff old.onnx new.onnx
  onnxtext diff old.onnx new.onnx -v --json
  onnxtext diff old.onnx new.onnx -o diff.html
  onnxtext diff --by-name old.onnx new.onnxtxt
  onnxtext diff --unified old.onnx new.onnxtxt"""

_COMPARE_HELP = """\
Run two models (binary or text) on the same inputs and compare every value the
structural match of 'onnxtext diff' pairs: a table of the first values whose
difference exceeds the tolerance (|b - a| > atol + rtol * |a| somewhere; integers
and booleans exactly), in B's topological order, with the largest absolute and
relative difference, then whether the outputs agree. The first row is where the
models part: an optimized, quantized or converted model against its original.

Inputs not given by --input are made up from A's declared types as 'run
--random-inputs' makes them (floats in [-1, 1] seeded by --seed, each symbolic
dimension 2 or --size NAME=SIZE); B gets the same values under its matched names.
--runtime onnxruntime runs both with onnxruntime (when installed), the matched values
added as outputs of a copy of each model; the default is the reference evaluator.
-o OUT draws it: the picture of 'onnxtext diff -o', each edge whose value differs in
red with its largest absolute difference (Δ 0.146).

Exit status: 0 the outputs agree within the tolerance, 1 they differ, 2 trouble.

example:
  onnxtext compare model.onnx model.opt.onnx
  onnxtext compare a.onnx b.onnx --input x=x.npy --rtol 1e-3 --atol 1e-5
  onnxtext compare a.onnx b.onnx --runtime onnxruntime --seed 3
  onnxtext compare model.onnx model.opt.onnx -o parting.html"""

_FMT_HELP = """\
Reformat onnxtext texts in the canonical style, in place; comments are kept.
With --check or --diff no file is changed. '-' formats stdin to stdout.

example:
  onnxtext fmt examples/*.onnxtxt
  onnxtext fmt --check --diff model.onnxtxt"""


_RUN_HELP = """\
Evaluate a model (binary .onnx/.pb or text) with the numpy reference evaluator and
print each output's dtype, shape and statistics. Runtime errors point at the node
in the text. An output whose value contradicts its declared type (element type,
rank, a size, a symbol N of two sizes) is an error (R003) at its declaration: runtimes
refuse such a model. A value declared inside a subgraph (a Loop, Scan or If body)
that some run of the body contradicts is a warning (R003) at its declaration.

VALUE of --input is a .npy file, a .pb TensorProto file, or a JSON literal cast to
the input's declared type: 3.5, [[1, 2], [3, 4]], ["a", "b"], {"1": 0.5} for a map,
a list for a sequence, null for an empty optional.

--random-inputs makes up the inputs not given from their declared types, the way
the editor's live values do: floats spread over [-1, 1] (seeded by --seed),
integers 0, booleans false, strings "a", each symbolic dimension one size
everywhere (2, or --size NAME=SIZE), an unknown one 1, a Loop's trip count 1 and
its condition true. They are printed before the outputs.

Memory: nodes whose output size comes from input values (ConstantOfShape, Expand,
Tile, Range, OneHot, Resize, Pad, broadcasting arithmetic, Loop scan outputs) are
sized before they run; one that would exceed --max-memory (default: half the
physical memory) is an error at its node, before anything is allocated.

example:
  onnxtext run examples/mlp.onnxtxt --input 'X=[[1, 2, 3, 4]]'
  onnxtext run model.onnx --input x=x.npy --output-dir out/ --trace
  onnxtext run model.onnx --random-inputs --seed 7 --size N=8"""

_CHECK_HELP = """\
Check models (text or binary .onnx/.pb) against the rules of the ONNX IR spec:
versions and opset imports, single assignment and topological order, operators,
arity and attributes against the operator schemas, functions, tensor data.
Exit status 1 if any error is found (warnings do not fail).

--select and --ignore take comma-separated code prefixes (E3 = every node rule,
W = every warning); 'onnxtext rules' lists the codes.

example:
  onnxtext check examples/*.onnxtxt
  onnxtext check model.onnx --ignore W201 --format sarif > check.sarif"""

_GRAPH_HELP = """\
Write the data-flow graph of a model (text or binary .onnx/.pb) to OUT, the format from
its extension: .dot (Graphviz), .svg (laid out, standalone) or .html (one offline page:
the editor's graph view with folding, zoom and search). Groups fold subgraphs, local
functions and the layers exporters record (torch's /encoder/layer.0/... names, the dynamo
exporter's name scopes); a big model's SVG is drawn folded to its top groups. A damaged
text still gives a graph: its errors are reported (exit status 1) and OUT is written.

example:
  onnxtext graph examples/mlp.onnxtxt -o mlp.svg
  onnxtext graph model.onnx -o model.html"""

_LSP_HELP = """\
Run the onnxtext language server (Language Server Protocol over stdio) for editors:
live diagnostics from the parser and the checker as you type, quick fixes, formatting.
Point any LSP client at the command 'onnxtext lsp'. The VS Code extension (editors/vscode)
starts it itself; it finds 'onnxtext' on PATH, in the workspace's .venv or through the
setting onnxtext.server.path.

example:
  onnxtext lsp                      # stdio, what editors use
  onnxtext lsp --tcp 127.0.0.1:2087 # a TCP port, to attach a client by hand"""

_EXTRACT_HELP = """\
Write the sub-model of MODEL that computes the --outputs values from the --inputs values:
the nodes onnx.utils.extract_model keeps (walking back from each output to the inputs),
the initializers they read and only those, the value_info of the values kept, the local
functions they call, and the model's header, metadata and opset imports unchanged. An input
or output nothing declares gets its inferred type. Without --inputs, the sub-model reads the
graph inputs the outputs need. MODEL and OUT are text or binary by their extension.

example:
  onnxtext extract model.onnx --inputs x --outputs /encoder/layer.0/Add_output_0 -o sub.onnx
  onnxtext extract model.onnxtxt --outputs hidden -o head.onnxtxt"""

_EDIT_HELP = """\
Edit a model and write it to OUT; each operation may be repeated and they are applied in
the order given. Nothing but what an operation changes is touched: every other field of the
model stays byte for byte as it was. MODEL and OUT are text or binary by their extension.

  --delete-node NODE       delete a node (its name, or a value it produces); an Identity,
                           a Dropout at inference or a Cast to its input's own type is
                           bypassed (its readers read its input); otherwise its readers are
                           left without a producer, with a warning (S006)
  --delete-node-and-feeders NODE
                           the same, and the nodes that only fed it (nothing else reads
                           their outputs, up the chain) and the initializers only they read
  --rename OLD=NEW         rename a value everywhere: graph inputs and outputs, nodes,
                           subgraphs that read it, value_info, initializers, annotations
  --add-output VALUE       make a value a graph output, with its declared or inferred type
  --remove-output VALUE    stop exporting a graph output (the value stays)
  --set-input-shape X=DIMS set a graph input's shape: sizes, symbols or ? for a free
                           dimension, comma-separated (X=1,3,224,224 or X=N,3,H,W; X= a scalar);
                           declared shapes downstream that followed it follow (S010)
  --constant X=FILE.npy    make a graph input an initializer holding the array (its type
                           and declared dimensions must agree)
  --input-from-initializer W
                           make an initializer a graph input of its type (its values dropped)
  --extract-function NODES=NAME
                           move consecutive nodes (names or values they make, comma-
                           separated) into a function local.NAME called in their place

example:
  onnxtext edit model.onnx -o fixed.onnx --set-input-shape input=1,3,224,224
  onnxtext edit model.onnxtxt -o out.onnxtxt --delete-node dropout0 --rename logits=scores
  onnxtext edit model.onnx -o out.onnx --add-output /encoder/Relu_output_0 --constant mask=mask.npy"""

_MERGE_HELP = """\
Compose two models: each --connect Y=Z makes A's value Y feed B's graph input Z. Values,
node names and functions of B whose names A uses already get a prefix (--prefix, default
b_); opset imports are joined (two versions of one domain are refused: convert one model
first). The result has A's header and graph name, A's inputs then B's unconnected ones, A's
outputs not connected then B's, A's nodes then B's. Files are text or binary by extension.

example:
  onnxtext merge preprocess.onnx classifier.onnx --connect pixels=input -o pipeline.onnx
  onnxtext merge a.onnxtxt b.onnxtxt --connect y=x --connect h=state --prefix head_ -o ab.onnxtxt"""


def _memory_size(value: str) -> int:
    from onnxtext.evaluate.budget import parse_size

    try:
        size = parse_size(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if size <= 0:
        raise argparse.ArgumentTypeError("the memory budget must be more than 0 bytes")
    return size


def _dimension_size(value: str) -> tuple[str, int]:
    """``N=8``: a symbolic dimension's size for ``run --random-inputs`` (the editor's ``evaluate.sizes``)."""
    name, sep, size = value.partition("=")
    if not sep or not name.strip() or not size.strip().isdigit() or int(size) > 1_000_000:
        raise argparse.ArgumentTypeError(f"expected NAME=SIZE with a size from 0 to 1000000, e.g. N=8, not {value!r}")
    return name.strip(), int(size)


def _names(value: str) -> list[str]:
    """``a,b``: value names (none empty)."""
    names = [n.strip() for n in value.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected comma-separated value names, e.g. x,mask, not {value!r}")
    return names


def _pair(value: str) -> tuple[str, str]:
    """``OLD=NEW``, ``Y=Z``, ``X=FILE``: two non-empty parts."""
    left, sep, right = value.partition("=")
    if not sep or not left.strip() or not right.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=NAME, not {value!r}")
    return left.strip(), right.strip()


def _shape(value: str) -> tuple[str, list[int | str | None]]:
    """``X=1,3,224,224``, ``X=N,3,H,W``, ``X=?,3`` (a free dimension), ``X=`` (a scalar)."""
    name, sep, dims = value.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=DIMS, e.g. x=1,3,224,224 or x=N,3,H,W, not {value!r}")
    shape: list[int | str | None] = []
    for dim in (d.strip() for d in dims.split(",")) if dims.strip() else ():
        if dim.isdigit():
            shape.append(int(dim))
        elif dim == "?":
            shape.append(None)
        elif dim and (dim[0].isalpha() or dim[0] == "_") and all(c.isalnum() or c in "_." for c in dim):
            shape.append(dim)
        else:
            raise argparse.ArgumentTypeError(
                f"in {value!r}: a dimension is a size (224), a symbol (N) or ? (free), not {dim!r}"
            )
    return name.strip(), shape


_EDIT_OPERATIONS: tuple[tuple[str, str, Callable[[str], object], str], ...] = (
    ("delete-node", "NODE", str, "delete a node, by its name or a value it produces"),
    ("delete-node-and-feeders", "NODE", str, "delete a node and the nodes and initializers that only fed it"),
    ("rename", "OLD=NEW", _pair, "rename a value everywhere"),
    ("add-output", "VALUE", str, "make a value a graph output"),
    ("remove-output", "VALUE", str, "stop exporting a graph output"),
    ("set-input-shape", "X=DIMS", _shape, "set a graph input's shape: X=1,3,224,224 or X=N,3,H,W (? for a free one)"),
    ("constant", "X=FILE.npy", _pair, "make a graph input an initializer holding the array of a .npy file"),
    ("input-from-initializer", "W", str, "make an initializer a graph input"),
    ("extract-function", "NODES=NAME", _pair, "move consecutive nodes (comma-separated) into a local function"),
)
"""``onnxtext edit``'s operations: option (also its ``dest``), metavar, type, help."""


class _Operation(argparse.Action):
    """Appends ``(option, value)`` to ``operations``: edits run in the order given on the command line."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option: object = None
    ) -> None:
        found = list(getattr(namespace, "operations", None) or [])
        found.append((self.dest, values))
        namespace.operations = found


def _add_output_options(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("-o", "--output", metavar="OUT", required=True, help=f"{what}: .onnx/.pb binary, else text")
    p.add_argument(
        "--copy-external-data",
        action="store_true",
        help="when OUT is in another folder than the input, copy the external data files its tensors refer "
        "to next to OUT; without it such an OUT is refused",
    )
    _add_width(p)


def _host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, e.g. 127.0.0.1:2087, not {value!r}")
    return host.strip("[]"), int(port)


def _add_inputs(p: argparse.ArgumentParser, what: str) -> None:
    """``--input NAME=VALUE`` (run, compare)."""
    p.add_argument(
        "--input",
        "-i",
        dest="inputs",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help=f"{what}: .npy file, .pb TensorProto file or JSON literal (repeat per input)",
    )


def _add_sizes(p: argparse.ArgumentParser, what: str) -> None:
    """``--size NAME=SIZE``: a symbolic dimension of made-up inputs (run, compare)."""
    p.add_argument(
        "--size",
        dest="sizes",
        metavar="NAME=SIZE",
        type=_dimension_size,
        action="append",
        default=[],
        help=f"{what}the size of a symbolic dimension (default 2; repeat per symbol), as the editor's "
        "evaluate.sizes setting",
    )


def _add_memory(p: argparse.ArgumentParser) -> None:
    """``--max-memory SIZE``: the evaluator's budget (run, compare)."""
    p.add_argument(
        "--max-memory",
        metavar="SIZE",
        type=_memory_size,
        default=None,
        help="memory budget, e.g. 2G or 512M (default: half the physical memory): a node whose output "
        "would exceed it (ConstantOfShape, Expand, Tile, broadcasting, Loop scan outputs...) "
        "is an error before anything is allocated",
    )


def _command(module: str, name: str) -> Callable[[argparse.Namespace, _Reporter], int]:
    """The command ``name`` of :mod:`onnxtext.cli.commands.<module>`, imported when it runs."""

    def run(args: argparse.Namespace, report: _Reporter) -> int:
        command: Callable[[argparse.Namespace, _Reporter], int] = getattr(
            importlib.import_module(f"onnxtext.cli.commands.{module}"), name
        )
        return command(args, report)

    return run


def build_parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(prog=PROG, description=_DESCRIPTION, epilog=_EPILOG, formatter_class=formatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("parse", help="text -> binary .onnx", description=_PARSE_HELP, formatter_class=formatter)
    p.add_argument("input", metavar="IN", help="text model to read ('-' for stdin)")
    p.add_argument("-o", "--output", metavar="OUT", required=True, help="binary model to write ('-' for stdout)")
    p.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings as errors: refuse tensor literals onnx.parser stores as written "
        "(a value count that does not match the shape, an integer out of range for its type)",
    )
    p.add_argument("-W", dest="warnings", choices=("error",), help="-W error: the same as --strict")
    p.add_argument(
        "--copy-external-data",
        action="store_true",
        help="when OUT is in another folder than IN, copy the external data files the model refers "
        "to next to OUT (same relative names); without it such an OUT is refused",
    )
    p.set_defaults(func=_command("parse", "cmd_parse"))

    p = sub.add_parser("print", help="binary .onnx -> text", description=_PRINT_HELP, formatter_class=formatter)
    p.add_argument("input", metavar="IN", help="model to read: binary .onnx/.pb, or text; '-' reads binary from stdin")
    p.add_argument("-o", "--output", metavar="OUT", default=STDIO, help="text file to write (default: stdout)")
    p.add_argument(
        "--weights",
        choices=("inline", "external", "digest"),
        default="inline",
        help="inline: every value in the text (default); external: tensors above --threshold go to "
        "the sidecar OUT.data; digest: tensors above --threshold shown as sha256 + statistics "
        "(for reading and diffing; not parseable)",
    )
    p.add_argument(
        "--threshold",
        metavar="BYTES",
        type=int,
        help="size above which --weights external/digest applies to a tensor (default 1024)",
    )
    p.add_argument(
        "--copy-external-data",
        action="store_true",
        help="(--weights inline) when OUT is in another folder than IN, copy the external data files "
        "the model refers to next to OUT; without it such an OUT is refused",
    )
    _add_width(p)
    p.set_defaults(func=_command("print_", "cmd_print"))

    p = sub.add_parser("diff", help="semantic diff of two models", description=_DIFF_HELP, formatter_class=formatter)
    p.add_argument("a", metavar="A", help="old model: binary .onnx/.pb or text")
    p.add_argument("b", metavar="B", help="new model: binary .onnx/.pb or text")
    p.add_argument(
        "--unified",
        "-u",
        action="store_true",
        help="a unified diff of the printed texts (tensors above --threshold as digests)",
    )
    p.add_argument(
        "--threshold",
        metavar="BYTES",
        type=int,
        help="with --unified: size above which tensors are shown as digests (default 1024)",
    )
    p.add_argument(
        "--by-name", action="store_true", help="align by names (nodes by their output names) instead of structure"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="list every renamed value (structural diff)")
    p.add_argument("--json", action="store_true", help="the structural diff as JSON: changes and renamings")
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="draw the difference to OUT (.html, .svg or .dot): added, removed and changed nodes coloured",
    )
    p.set_defaults(func=_command("diff", "cmd_diff"))

    p = sub.add_parser(
        "compare",
        help="run two models and find where values part",
        description=_COMPARE_HELP,
        formatter_class=formatter,
    )
    p.add_argument("a", metavar="A", help="reference model: binary .onnx/.pb or text")
    p.add_argument("b", metavar="B", help="model compared with it: binary .onnx/.pb or text")
    _add_inputs(p, "an input of A (B gets it under its matched name)")
    p.add_argument("--rtol", type=float, default=1e-5, help="relative tolerance (default 1e-5)")
    p.add_argument("--atol", type=float, default=1e-8, help="absolute tolerance (default 1e-8)")
    p.add_argument(
        "--seed", type=_seed_arg, default=0, help="seed of the made-up inputs and random operators (default 0)"
    )
    _add_sizes(p, "of made-up inputs: ")
    p.add_argument(
        "--runtime",
        choices=("reference", "onnxruntime"),
        default="reference",
        help="reference: onnxtext's evaluator (default); onnxruntime: onnxruntime, if installed",
    )
    p.add_argument("--rows", type=int, default=10, help="divergent values shown (default 10, the first ones)")
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="draw it to OUT (.html, .svg or .dot): the diff picture, each edge whose value differs in red "
        "with its max abs difference",
    )
    _add_memory(p)
    p.set_defaults(func=_command("compare", "cmd_compare"))

    p = sub.add_parser("fmt", help="reformat texts in place", description=_FMT_HELP, formatter_class=formatter)
    p.add_argument("files", metavar="FILE", nargs="+", help="text files to format ('-' for stdin -> stdout)")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if any file would be reformatted")
    p.add_argument("--diff", action="store_true", help="change nothing; print a unified diff of the changes")
    _add_width(p)
    p.set_defaults(func=_command("fmt", "cmd_fmt"))

    p = sub.add_parser("run", help="evaluate a model with numpy", description=_RUN_HELP, formatter_class=formatter)
    p.add_argument("model", metavar="MODEL", help="model to run: binary .onnx/.pb or text ('-' reads binary stdin)")
    _add_inputs(p, "a graph input")
    p.add_argument(
        "--random-inputs",
        action="store_true",
        help="make up the inputs not given by --input from their declared types, as the editor's live values do "
        "(floats in [-1, 1], integers 0, each symbolic dimension 2; --seed chooses the floats)",
    )
    _add_sizes(p, "with --random-inputs: ")
    p.add_argument("--output-dir", metavar="DIR", help="write each tensor output to DIR/NAME.npy")
    p.add_argument(
        "--trace",
        action="store_true",
        help="print every intermediate value: the main graph's, then subgraphs' and function bodies' with their path",
    )
    p.add_argument(
        "--seed", type=_seed_arg, default=0, help="seed of random operators and of --random-inputs' values (default 0)"
    )
    _add_memory(p)
    p.set_defaults(func=_command("run", "cmd_run"))

    p = sub.add_parser(
        "check", help="check models against the ONNX IR rules", description=_CHECK_HELP, formatter_class=formatter
    )
    p.add_argument("files", metavar="FILE", nargs="+", help="models to check: text, or binary .onnx/.pb")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text", help="output format (default: text)")
    p.add_argument("--select", metavar="CODES", type=_codes, help="only these rule codes or prefixes (comma-separated)")
    p.add_argument("--ignore", metavar="CODES", type=_codes, help="skip these rule codes or prefixes (comma-separated)")
    p.set_defaults(func=_command("check", "cmd_check"))

    p = sub.add_parser(
        "graph", help="the model's graph as .dot, .svg or .html", description=_GRAPH_HELP, formatter_class=formatter
    )
    p.add_argument("input", metavar="MODEL", help="text or binary model to read ('-' for a binary on stdin)")
    p.add_argument("-o", "--output", metavar="OUT", required=True, help="file to write: .dot, .svg or .html")
    p.set_defaults(func=_command("graph", "cmd_graph"))

    p = sub.add_parser(
        "extract", help="the sub-model between values", description=_EXTRACT_HELP, formatter_class=formatter
    )
    p.add_argument("model", metavar="MODEL", help="model to read: binary .onnx/.pb or text")
    p.add_argument("--inputs", metavar="A,B", type=_names, help="the values the sub-model reads (comma-separated)")
    p.add_argument(
        "--outputs", metavar="C,D", type=_names, required=True, help="the values it computes (comma-separated)"
    )
    _add_output_options(p, "sub-model to write")
    p.set_defaults(func=_command("surgery", "cmd_extract"))

    p = sub.add_parser(
        "edit", help="edit a model (delete, rename, outputs, shapes)", description=_EDIT_HELP, formatter_class=formatter
    )
    p.add_argument("model", metavar="MODEL", help="model to read: binary .onnx/.pb or text")
    _add_output_options(p, "edited model to write")
    for option, metavar, kind, what in _EDIT_OPERATIONS:
        p.add_argument(f"--{option}", dest=option, metavar=metavar, type=kind, action=_Operation, help=what)
    p.set_defaults(func=_command("surgery", "cmd_edit"), operations=[])

    p = sub.add_parser("merge", help="compose two models", description=_MERGE_HELP, formatter_class=formatter)
    p.add_argument("a", metavar="A", help="first model: binary .onnx/.pb or text")
    p.add_argument("b", metavar="B", help="second model, fed by the first")
    p.add_argument(
        "--connect",
        metavar="Y=Z",
        type=_pair,
        action="append",
        default=[],
        help="A's value Y feeds B's graph input Z (repeat per connection)",
    )
    p.add_argument("--prefix", default="b_", help="prefix of B's names that clash with A's (default: b_)")
    _add_output_options(p, "merged model to write")
    p.set_defaults(func=_command("surgery", "cmd_merge"))

    p = sub.add_parser(
        "lsp", help="run the language server (for editors)", description=_LSP_HELP, formatter_class=formatter
    )
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    p.add_argument("--tcp", metavar="HOST:PORT", type=_host_port, help="listen on a TCP port instead (for debugging)")
    p.set_defaults(func=_command("lsp", "cmd_lsp"))

    p = sub.add_parser(
        "rules",
        help="list every diagnostic code",
        description="List every diagnostic code (parsing P, lowering L, checker E/W, external data X, runs R): code, "
        "severity, name, description.",
    )
    p.set_defaults(func=_command("rules", "cmd_rules"))
    for command_parser in sub.choices.values():  # usage errors found after parsing are said by the command's parser
        command_parser.set_defaults(command_parser=command_parser)
    return parser


def _usage_problem(args: argparse.Namespace) -> str | None:
    """A combination of options that means nothing (argparse checks each option alone)."""
    threshold = getattr(args, "threshold", None)
    if threshold is not None and threshold < 0:
        return "--threshold must be a number of bytes >= 0"
    if args.command == "print" and threshold is not None and args.weights == "inline":
        return "--threshold applies to --weights external or --weights digest; give one of them"
    if args.command == "diff" and threshold is not None and not args.unified:
        return "--threshold applies to --unified (the printed texts); give --unified"
    if args.command in ("diff", "compare") and args.output is not None:
        from onnxtext.ide.graph_export import FORMATS

        if os.path.splitext(args.output)[1].lower() not in FORMATS:
            return f"cannot tell the format of '{args.output}': name it .html, .svg or .dot"
    if args.command == "diff" and (args.unified or args.by_name):
        given = [o for o, on in (("--json", args.json), ("-v", args.verbose), ("-o", args.output)) if on]
        if args.unified and args.by_name:
            return "--unified and --by-name are two ways to diff; give one"
        if given:
            return (
                f"{given[0]} applies to the structural diff; leave out {'--unified' if args.unified else '--by-name'}"
            )
    if args.command == "compare" and (args.rtol < 0 or args.atol < 0 or args.rows < 0):
        return "--rtol, --atol and --rows take numbers >= 0"
    if args.command == "run" and args.sizes and not args.random_inputs:
        return "--size applies to --random-inputs (the sizes of made-up inputs); give --random-inputs"
    if args.command == "edit" and not args.operations:
        return (
            "no edit given: --delete-node(-and-feeders), --rename, --add-output, --remove-output, --set-input-shape, "
            "--constant, --input-from-initializer or --extract-function"
        )
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # said by the command's own parser, with its own usage line
            args.command_parser.error(f"unrecognized arguments: {' '.join(extra)}")
        problem = _usage_problem(args)
        if problem is not None:
            args.command_parser.error(problem)
        if getattr(args, "threshold", 0) is None:
            args.threshold = DEFAULT_THRESHOLD
        if args.command in ("run", "compare") and args.max_memory is None:
            from onnxtext.evaluate.budget import default_budget

            args.max_memory = default_budget()
    except SystemExit as exc:  # --help, --version (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    report = _Reporter()
    try:
        with pausing_allowed(), _terminable(args.command != "lsp"):
            status: int = args.func(args, report)  # the process is the command's: the collector may be held
    except _Terminated:  # SIGTERM (timeout, a cancelled job): the write under way was undone
        return 128 + signal.SIGTERM
    except BrokenPipeError:  # `onnxtext print m.onnx | head`: the reader left, not an error
        _silence_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except RecursionError:  # pathological nesting (deeper than protobuf itself allows)
        report.error(PROG, "input nested too deeply to process")
        return EXIT_INPUT
    except MemoryError:  # what no budget foresaw (run sizes nodes before they allocate: --max-memory)
        report.error(PROG, "out of memory")
        return EXIT_INPUT
    return status


class _Terminated(BaseException):
    """SIGTERM received: raised where the command is, so that what it was writing is undone (an
    atomic write's temporary file removed) as on Ctrl-C, where the default action left it behind."""


def _terminated(signum: int, frame: object) -> None:
    raise _Terminated


@contextmanager
def _terminable(wanted: bool) -> Iterator[None]:
    """SIGTERM raises :class:`_Terminated` in the main thread while the command runs (not in the
    language server, whose client stops it by the protocol)."""
    if not wanted or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
