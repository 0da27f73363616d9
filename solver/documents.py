"""Documents in the command line's formats, read by ``id -``, ``compare`` and ``lint``.

A list of lines (IDs, ranks, ``<id> <rank>``, FENs, EPD) is read as it is,
a line at a time. A document in a format that knows its own first line
(:meth:`~solver.output.base.Writer.detect`: JSON's ``[``, CSV's header, PGN's
tags) is read whole, and each of its positions becomes one line
(:meth:`~solver.output.base.Writer.lines`), so what ``--format`` writes, these
commands read back; findings then name a position by its place in the
document (line 2: its second position).

>>> import io
>>> stream = position_stream(io.BytesIO(b'[\\n{"id": 518, "fen": "8/8 w - - 0 1"}\\n]\\n'), "-")
>>> stream.read()
b'8/8 w - - 0 1\\n'
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Collection, Iterator
from typing import IO, TYPE_CHECKING, Final, cast

from solver.errors import DocumentError, InputFileError

if TYPE_CHECKING:
    from solver.lines import LineReader

__all__ = ["HEADS", "document_format", "position_stream"]

#: How much of a stream is looked at for its first line.
_HEAD = 1 << 16

#: The most a document read whole (JSON, CSV, PGN) may hold: a longer one is
#: refused (written as lines, ``-f fen`` or ``-f epd``, it is read a line at a time).
MAX_DOCUMENT = 256 << 20


#: Each format's :attr:`~solver.output.base.Writer.head`, in the registry's order
#: (a default-run test keeps the two equal), so that a list of lines is told
#: from a document without importing the writers.
HEADS: Final = {
    "text": "[0-9]+ +[^ 0-9]",
    "json": r"\{|\[\s*(?:$|[{\]])",
    "csv": r"id,|[^,\[{]*,(?:[^,]*,)*fen(?:,|$)",
    "pgn": r'\[\s*[A-Za-z0-9_]+\s+"',
}


def document_format(head: str) -> str | None:
    """The format whose documents begin with the line ``head`` (the first that is
    not blank), or ``None`` for a list of lines read as they are.

    >>> document_format('[Event "?"]'), document_format("id,rank,fen"), document_format("[")
    ('pgn', 'csv', 'json')
    >>> document_format("518 RNBQKBNR"), document_format("RNBQKBNR") is None
    ('text', True)
    """
    head = head.strip()
    return next((name for name, pattern in HEADS.items() if re.match(pattern, head)), None)


class _Replayed:
    """A byte stream whose first chunk was read already, read again first."""

    def __init__(self, first: bytes, stream: IO[bytes]) -> None:
        self.first = first
        self.stream = stream
        self.reader = getattr(stream, "read1", stream.read)

    def __getattr__(self, name: str) -> object:  # close(), name, ...: the stream's
        return getattr(self.stream, name)

    def read1(self, size: int = -1) -> bytes:
        if self.first:
            out, self.first = self.first, b""
            return out
        return _bytes(self.reader(size))

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            out, self.first = self.first + _bytes(self.stream.read()), b""
            return out
        return self.read1(size)


def _bytes(chunk: bytes | str) -> bytes:
    return chunk.encode("utf-8", "surrogateescape") if isinstance(chunk, str) else chunk


def _first_line(chunk: bytes) -> str:
    text = chunk.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
    return next((line for line in text.splitlines() if line.strip()), "")


def _read_at_most(stream: IO[bytes], first: bytes, name: str, fmt: str) -> bytes:
    """``first`` and the rest of ``stream``, refused
    (:class:`~solver.errors.InputFileError`) past :data:`MAX_DOCUMENT` bytes."""
    chunks = [first]
    size = len(first)
    while size <= MAX_DOCUMENT and (chunk := _bytes(stream.read(1 << 20))):
        size += len(chunk)
        chunks.append(chunk)
    if size > MAX_DOCUMENT:
        raise InputFileError(name, f"a {fmt.upper()} document longer than "
                                   f"{MAX_DOCUMENT >> 20} MiB is not read whole: "
                                   "write its positions as lines (-f fen or -f epd)")
    return b"".join(chunks)


def position_stream(stream: IO[bytes], name: str, keep: Collection[str] = ()) -> IO[bytes]:
    """The lines to read of ``stream`` (named ``name`` in errors): the stream
    itself for a list of lines, or a document's positions one a line (a
    format in ``keep`` is left as it is: ``lint`` reads PGN games itself).

    Raises :class:`~solver.errors.InputFileError` for a document that is not
    in the format its first line shows.
    """
    from solver.lines import MAX_LINE

    reader = getattr(stream, "read1", stream.read)
    first = _bytes(reader(_HEAD))
    while first and b"\n" not in first.lstrip() and len(first) <= MAX_LINE and \
            (more := _bytes(reader(_HEAD))):
        first += more  # a first line longer than a chunk, or a pipe's first bytes
    if len(first) > MAX_LINE and b"\n" not in first.lstrip():
        return cast(IO[bytes], _Replayed(first, stream))  # the line reader refuses it
    fmt = document_format(_first_line(first)) if first.strip() else None
    if fmt is None or fmt in keep:
        return cast(IO[bytes], _Replayed(first, stream))
    from solver.output import FORMATS

    whole = _read_at_most(stream, first, name, fmt)
    document = whole.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "surrogateescape")
    try:
        lines = FORMATS[fmt].lines(document)
    except DocumentError as exc:
        raise InputFileError(name, str(exc)) from None
    return io.BytesIO("".join(f"{line}\n" for line in lines).encode("utf-8", "surrogateescape"))


@contextlib.contextmanager
def position_lines(path: str) -> Iterator[LineReader]:
    """The lines of positions of the file ``path`` (``-``: standard input), a
    list or a document (JSON, CSV, PGN: :func:`position_stream`), read in chunks
    by a :class:`~solver.lines.LineReader` while the block runs.

    Raises :class:`~solver.errors.InputFileError` when the file cannot be
    opened or read, or standard input is closed.
    """
    from solver.lines import LineReader, stdin_bytes

    if path == "-":
        stream = stdin_bytes()
        if stream is None:
            raise InputFileError(path, "standard input is closed")
        yield LineReader(position_stream(stream, path))  # type: ignore[arg-type]
        return
    try:
        with open(path, "rb") as handle:
            yield LineReader(position_stream(handle, path))  # type: ignore[arg-type]
    except OSError as exc:
        raise InputFileError(path, (exc.strerror or str(exc)).lower()) from None
