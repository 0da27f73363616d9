"""PGN games streamed as bytes from files, stdin, and compressed files.

:func:`open_input` opens a path (``-``: standard input) and undoes gzip,
bzip2, xz or zstd compression, told by the first bytes (zstd needs the
optional ``zstandard`` package: ``pip install 'chess960-solver[zstd]'``).
:func:`scan` cuts the bytes into games without parsing a move: a game is a
header block (lines starting with a tag ``[Name "``) and the text after it up
to the next header block. Input is read :data:`CHUNK` bytes at a time and only
the game being read is kept, so memory stays flat however many games come;
a game longer than :data:`MAX_GAME` bytes is reported and skipped.

>>> data = (b'\\xef\\xbb\\xbf[Event "a"]\\r\\n[Result "1-0"]\\r\\n\\r\\n1. e4 1-0\\r\\n\\r\\n'
...         b'[Event "b"]\\n\\n*')
>>> [(g.number, g.header(), g.problem) for g in scan(iter([data]), "x") if g.number]
[(1, b'[Event "a"]\\r\\n[Result "1-0"]\\r', None), (2, b'[Event "b"]', None)]
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import IO, Final

from solver.errors import CompressionError, InputFileError

#: How much is read at a time, in bytes.
CHUNK: Final = 1 << 20

#: The longest game read, in bytes; a longer one is reported and skipped.
MAX_GAME: Final = 64 << 20

#: Magic bytes -> compression.
MAGIC: Final = {b"\x1f\x8b": "gzip", b"BZh": "bzip2", b"\xfd7zXZ\x00": "xz",
                b"\x28\xb5\x2f\xfd": "zstd"}

#: File name endings -> compression (for files written).
SUFFIXES: Final = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd"}

_BOM: Final = b"\xef\xbb\xbf"
#: The start of a tag line after a line break: ``[`` and a tag name's first character.
_NEXT: Final = re.compile(rb"\n\[[A-Za-z0-9_]")
#: The line break after which no tag line follows: where a header block ends.
_HEAD_END: Final = re.compile(rb"\n(?!\[)")
_MARKERS: Final = (b"1-0", b"0-1", b"1/2-1/2", b"*")

#: The problem of a game whose moves end before its result.
TRUNCATED: Final = "truncated: its moves do not end in a result (1-0, 0-1, 1/2-1/2 or *)"
#: The problem of a game too long to keep (formatted with the limit).
LONG: Final = "longer than {:,} bytes: skipped"


class _Chain(io.RawIOBase):
    """``head``, then the rest of ``stream``: bytes peeked at and put back."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self.head = head
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.stream.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        return n


def compression(head: bytes) -> str | None:
    """The compression the first bytes of a file show, or None.

    >>> compression(b"\\x1f\\x8b\\x08"), compression(b"[Event")
    ('gzip', None)
    """
    for magic, name in MAGIC.items():
        if head.startswith(magic):
            return name
    return None


def _zstandard(path: str) -> object:
    try:
        import zstandard  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise CompressionError(path, "zstd", "zstandard") from None
    return zstandard


def decompressed(raw: IO[bytes], path: str) -> IO[bytes]:
    """``raw``'s bytes, decompressed when they start with a known magic number."""
    head = raw.read(8)
    kind = compression(head)
    stream: IO[bytes] = io.BufferedReader(_Chain(head, raw), CHUNK)
    if kind == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[return-value]
    if kind == "bzip2":
        import bz2

        return bz2.BZ2File(stream, "rb")
    if kind == "xz":
        import lzma

        return lzma.LZMAFile(stream, "rb")
    if kind == "zstd":
        zstandard = _zstandard(path)
        reader = zstandard.ZstdDecompressor().stream_reader(  # type: ignore[attr-defined]
            stream, read_across_frames=True)
        return reader  # type: ignore[no-any-return]
    return stream


def compressor(kind: str | None, path: str) -> object | None:
    """An object with ``compress(data)`` and ``flush()`` for ``kind`` (None: no compression)."""
    if kind is None:
        return None
    if kind == "gzip":
        import zlib

        return zlib.compressobj(6, zlib.DEFLATED, 31)
    if kind == "bzip2":
        import bz2

        return bz2.BZ2Compressor()
    if kind == "xz":
        import lzma

        return lzma.LZMACompressor()
    zstandard = _zstandard(path)
    return zstandard.ZstdCompressor().compressobj()  # type: ignore[attr-defined, no-any-return]


def open_input(path: str, stdin: IO[bytes] | None = None) -> tuple[IO[bytes], str | None]:
    """The decompressed bytes of ``path`` (``-``: ``stdin``) and the compression found.

    Raises :class:`~solver.errors.InputFileError` when it cannot be opened.
    """
    if path == "-":
        if stdin is None:
            raise InputFileError(path, "standard input is closed")
        raw: IO[bytes] = stdin
    else:
        try:
            raw = open(path, "rb")  # noqa: SIM115  (closed by the caller)
        except OSError as exc:
            raise InputFileError(path, (exc.strerror or str(exc)).lower()) from None
    try:
        head = raw.read(8)
    except OSError as exc:
        raise InputFileError(path, (exc.strerror or str(exc)).lower()) from None
    kind = compression(head)
    if kind is None and raw.seekable():  # a plain file: read as it is, without a copy more
        try:
            raw.seek(0)
            return raw, None
        except OSError:
            pass
    return decompressed(io.BufferedReader(_Chain(head, raw), CHUNK), path), kind


def chunks(stream: IO[bytes], path: str, size: int = CHUNK) -> Iterator[bytes]:
    """``stream``'s bytes, ``size`` at a time (decompression errors become
    :class:`~solver.errors.InputFileError`)."""
    read = stream.read
    while True:
        try:
            data = read(size)
        except (OSError, EOFError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            raise InputFileError(path, reason.lower()) from None
        except Exception as exc:  # zstandard.ZstdError and other codecs' own errors
            raise InputFileError(path, (str(exc) or type(exc).__name__).lower()) from None
        if not data:
            return
        yield data


class Game:
    """One game of an input: the bytes ``data[start:end]``, its header block
    ``data[start:head]`` (without the last line break), and ``problem`` when
    it is not a whole game (a truncated one, a header line that is no tag)."""

    __slots__ = ("data", "end", "head", "number", "problem", "start")

    def __init__(self, number: int, data: bytes, start: int, head: int, end: int,
                 problem: str | None = None) -> None:
        self.number = number
        self.data = data
        self.start = start
        self.head = head
        self.end = end
        self.problem = problem

    def header(self) -> bytes:
        return self.data[self.start:self.head]

    def raw(self) -> bytes:
        return self.data[self.start:self.end]


def ended(data: bytes, head: int, end: int) -> bool:
    """Whether the moves ``data[head:end]`` end in a game termination marker.

    >>> ended(b"[a]\\n\\n1. e4 1/2-1/2\\n\\n", 3, 19), ended(b"[a]\\n\\n1. e4 e5\\n", 3, 15)
    (True, False)
    """
    tail = data[max(head, end - 32):end].rstrip()
    return tail.endswith(_MARKERS)


def _header_problem(data: bytes, start: int, head: int) -> str | None:
    """What is wrong with a header block's lines, if anything (each must be ``[Name "value"]``)."""
    lines = data.count(b"\n", start, head) + 1
    if data.count(b'"]', start, head) == lines:
        return None
    from solver.games.headers import bad_tag_line

    return bad_tag_line(data[start:head])


def scan(pieces: Iterator[bytes], path: str, max_game: int = MAX_GAME) -> Iterator[Game]:
    """The games in the byte ``pieces`` of one input, in order, numbered from 1.

    Text before the first header block (a byte order mark, comments, or the
    whole input when it holds no game) comes first as games numbered 0 with
    no header, so that every byte is given once. A game with a ``problem`` is
    still given (its bytes untouched), so that callers can report and skip it;
    only a game longer than ``max_game`` bytes is given in part (its first
    bytes, with the problem ``LONG``), and the bytes up to the next game are dropped.
    """
    buf = b""
    number = 0
    seeking = True  # looking for a game's start: at the beginning, after a long game
    prelude = True
    at = 0  # where the current game starts in buf (a tag line's "[")
    done = False
    while not done:
        piece = next(pieces, None)
        if piece is None:
            done = True
        else:
            buf = buf[at:] + piece if at else buf + piece
            at = 0
        if seeking:
            if not done and len(buf) < 4:
                continue
            start = _first_start(buf) if prelude else _next_start(buf)
            if start is None:
                keep = len(buf) if done else max(buf.rfind(b"\n"), 0)
                if keep and prelude:  # no game can start before the last line break
                    yield Game(0, buf, 0, 0, keep)
                buf = buf[keep:]
                continue
            if start and prelude:
                yield Game(0, buf, 0, 0, start)
            seeking = prelude = False
            at = start
        while at < len(buf):
            found = _HEAD_END.search(buf, at)
            head = found.start() if found is not None else len(buf)
            nxt = _NEXT.search(buf, head) if found is not None else None
            if nxt is None and not done:
                if len(buf) - at > max_game:  # too long to keep: report, go on
                    number += 1
                    yield Game(number, buf, at, min(head, at + 256), min(len(buf), at + 256),
                               LONG.format(max_game))
                    seeking = True
                    cut = buf.rfind(b"\n", head)
                    buf, at = buf[cut:] if cut > head else b"", 0
                break
            end = nxt.start() + 1 if nxt is not None else len(buf)
            number += 1
            problem = _header_problem(buf, at, head)
            if problem is None and not ended(buf, head, end):
                problem = TRUNCATED
            yield Game(number, buf, at, head, end, problem)
            at = end


def _next_start(buf: bytes) -> int | None:
    found = _NEXT.search(buf)
    return found.start() + 1 if found is not None else None


def _first_start(buf: bytes) -> int | None:
    """Where the first header block starts (after a byte order mark, comments), or None."""
    begin = len(_BOM) if buf.startswith(_BOM) else 0
    if buf.startswith(b"[", begin) and re.match(rb"\[[A-Za-z0-9_]", buf[begin:begin + 2]):
        return begin
    found = _NEXT.search(buf, begin)
    return found.start() + 1 if found is not None else None
