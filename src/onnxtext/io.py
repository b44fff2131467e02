"""Model files: binary or text by extension, bytes in and out, and atomic writes.

:func:`onnxtext.api.load` and :func:`onnxtext.api.save` read and write models with these.

``.onnx`` and ``.pb`` files are binary protobuf; every other name (``.onnxtxt``,
``.txt``, …) is onnxtext text. The path ``-`` means standard input for :func:`read_bytes`.
Files are written with :func:`write_atomic` (or :func:`atomic_file`): a temporary file in the same directory,
fsynced and renamed over the target, so a reader never sees a partial or empty file (a symlink's
target is the file written: the link stays).
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from onnxtext.proto import ModelProto, as_own

__all__ = [
    "BINARY_SUFFIXES",
    "STDIO",
    "is_binary_path",
    "looks_like_text",
    "control_bytes",
    "read_bytes",
    "read_regular_text",
    "read_text",
    "load_bytes",
    "model_bytes",
    "write_atomic",
    "atomic_file",
    "write_all",
]

BINARY_SUFFIXES = frozenset({".onnx", ".pb"})
STDIO = "-"

PathLike = str | os.PathLike[str]


def is_binary_path(path: PathLike) -> bool:
    """True if ``path`` names a binary protobuf file (``.onnx`` or ``.pb``, any case)."""
    return Path(path).suffix.lower() in BINARY_SUFFIXES


_CONTROL = bytes(range(32)).translate(None, b"\t\n\r\f\v")


def control_bytes(data: bytes) -> int:
    """How many control characters (other than tab, line breaks, form feed) the first 64 KiB hold."""
    head = data[: 1 << 16]
    return sum(head.count(c) for c in _CONTROL)


def looks_like_text(data: bytes) -> bool:
    """True if ``data`` reads as UTF-8 text without control characters (its first 64 KiB):
    what a text model is and a binary protobuf almost never is."""
    head = data[: 1 << 16]
    if control_bytes(head):
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start > len(head) - 4  # a character cut at the 64 KiB mark
    return True


def read_bytes(path: PathLike) -> bytes:
    """The bytes of ``path``; ``-`` reads standard input."""
    if str(path) == STDIO:
        return sys.stdin.buffer.read()
    return Path(path).read_bytes()


def read_regular_text(path: PathLike) -> str:
    """The UTF-8 text of the regular file ``path``, for readers that must never block (the
    language server): a FIFO or a device is refused without reading it (``OSError`` EINVAL),
    where :func:`read_bytes` would wait for a writer. Raises :class:`OSError` and
    :class:`UnicodeDecodeError`."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # opening a FIFO for reading waits without it
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = -1
            return f.read().decode("utf-8-sig")
    finally:
        if fd >= 0:
            os.close(fd)


def read_text(path: PathLike) -> str:
    """The text of ``path`` decoded as UTF-8 (a BOM is dropped); ``-`` reads standard input.

    Raises :class:`UnicodeDecodeError` for bytes that are not UTF-8.
    """
    return read_bytes(path).decode("utf-8-sig")


def load_bytes(data: bytes) -> ModelProto:
    """Parse binary protobuf bytes as a model; raises ``google.protobuf.message.DecodeError``."""
    model = ModelProto()
    model.ParseFromString(data)
    return model


def model_bytes(model: Any) -> bytes:
    """Deterministic binary serialisation of our model or an ``onnx`` one."""
    own = as_own(model, ModelProto)
    data: bytes = own.SerializeToString(deterministic=True)
    return data


def write_atomic(path: PathLike, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` (``str`` is written as UTF-8) all at once, through
    :func:`atomic_file`: on any error an existing ``path`` is left untouched."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if _special(path):  # /dev/null, /dev/stdout, a FIFO: written through, as a shell's redirection does
        with open(path, "wb") as f:
            f.write(payload)
        return
    with atomic_file(path) as fd:
        write_all(fd, payload, 0)


def _special(path: PathLike) -> bool:
    """Whether ``path`` is a device, a FIFO or a socket: nothing a rename may replace (a temporary
    file renamed over ``/dev/full`` took the device's place)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextmanager
def atomic_file(path: PathLike) -> Iterator[int]:
    """A file descriptor on a new temporary file in ``path``'s directory, to write
    ``path``'s new content into. On a clean exit the file is fsynced, given the usual
    permissions (``0o666`` less the umask, or those of the file it replaces) and renamed
    over ``path``, and the directory is fsynced; on any error it is removed, and an
    existing ``path`` is left untouched. A symlink is written through: its target gets the new
    content and the link stays a link, as editors do. Raises :class:`OSError` (``EINVAL`` for a
    device or a FIFO, which :func:`write_atomic` writes through)."""
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    if _special(target):
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        try:
            yield fd
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp_name, _mode_for(target))
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    _fsync_directory(target.parent)


def write_all(fd: int, data: bytes | bytearray | memoryview, offset: int) -> None:
    """Write all of ``data`` at ``offset`` of the open file ``fd`` (``os.pwrite`` may write less)."""
    view = memoryview(data)
    while view:
        n = os.pwrite(fd, view, offset)
        view, offset = view[n:], offset + n


_UMASK: int | None = None


def _mode_for(target: Path) -> int:
    """The permission bits of the file being replaced, or those a new file would get."""
    global _UMASK
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        if _UMASK is None:  # read once: os.umask can only be read by setting it
            _UMASK = os.umask(0o022)
            os.umask(_UMASK)
        return 0o666 & ~_UMASK


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable; not every platform can open a directory."""
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
