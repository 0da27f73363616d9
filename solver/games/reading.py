"""PGN games streamed as bytes from files, stdin, and compressed files.

:func:`open_input` opens a path (``-``: standard input) and undoes gzip,
bzip2, xz or zstd compression, told by the first bytes (zstd needs the
optional ``zstandard`` package: ``pip install 'chess960-solver[zstd]'``).
:func:`scan` cuts the bytes into games without parsing a move: a game is a
header block (lines starting with a tag ``[Name "``, and as python-chess reads
them, ``%`` and ``;`` lines and one blank line between them) and the text
after it up to the next header block (a tag line outside the moves'
``{comments}``). Input is read :data:`CHUNK` bytes at a time and only
the game being read is kept, so memory stays flat however many games come;
a game longer than :data:`MAX_GAME` bytes is reported and skipped, and a line
longer than :data:`MAX_LINE` bytes is an error (:func:`bounded`). A
compressed input cut short is an error (zstd: :class:`ZstdFrames`).

>>> data = (b'\\xef\\xbb\\xbf[Event "a"]\\r\\n[Result "1-0"]\\r\\n\\r\\n1. e4 1-0\\r\\n\\r\\n'
...         b'[Event "b"]\\n\\n*')
>>> [(g.number, g.header(), g.problem) for g in scan(iter([data]), "x") if g.number]
[(1, b'[Event "a"]\\r\\n[Result "1-0"]\\r', None), (2, b'[Event "b"]', None)]
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any, Final

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
#: The start of a tag line after a line break: ``[`` and a tag name's first character
#: (after a byte order mark: files joined together).
_NEXT: Final = re.compile(rb"\n(?:\xef\xbb\xbf)?\[[A-Za-z0-9_]")
#: The line break after which no tag line follows: where a header block may end.
_HEAD_END: Final = re.compile(rb"\n(?!\[)")
_MARKERS: Final = (b"1-0", b"0-1", b"1/2-1/2", b"*")
#: What may follow a game's result: blanks, a byte order mark (files joined), Ctrl-Z (DOS).
_AFTER: Final = b" \t\r\n\x1a"
#: The tokens that open and close comments in moves: ``{...}``, ``;`` and ``%`` to the line's end.
_COMMENTS: Final = re.compile(rb"[{};]|(?:^|\n)%")

#: The longest line read, in bytes: a longer one (a file that is not PGN) is an error.
MAX_LINE: Final = 1 << 20

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
            _Framed(stream), read_across_frames=True)
        return reader  # type: ignore[no-any-return]
    return stream


#: The zstd frame's magic number, and a skippable frame's (its first byte: 0x50 to 0x5F).
_ZSTD: Final = b"\x28\xb5\x2f\xfd"
_SKIPPABLE: Final = b"\x2a\x4d\x18"
#: The cut-short zstd stream's reason.
ZSTD_CUT: Final = "it ends inside a zstd frame: the file is cut short"


class ZstdFrames:
    """Follows the frames of a zstd stream as its compressed bytes pass
    (:meth:`feed`), block headers only: :attr:`complete` says whether the bytes
    so far end where a frame ends. (The library reading them stops quietly at
    a frame cut short, whatever the byte.)

    A stream cut exactly where one of its frames ends (``zstd`` writes one
    frame; ``pzstd`` and lichess's tools may write several) is a valid
    stream of fewer frames: nothing in the format tells it apart.

    >>> data = _ZSTD + b"\\x20\\x05" + b"\\x29\\x00\\x00" + b"hello"  # one raw block, 5 bytes
    >>> walker = ZstdFrames(); walker.feed(data); walker.complete
    True
    >>> walker = ZstdFrames(); walker.feed(data[:-1]); walker.complete
    False
    """

    def __init__(self) -> None:
        self.want = 4  # the bytes of the next field, gathered in ``self.field``
        self.field = b""
        self.step = self._magic
        self.skip = 0  # bytes to pass over before that field (a block's content)
        self.checksum = False

    @property
    def complete(self) -> bool:
        return self.step == self._magic and not self.field and not self.skip

    def feed(self, data: bytes) -> None:
        """Follow ``data``; raises ValueError at bytes no zstd frame begins with."""
        pos, size = 0, len(data)
        while pos < size:
            if self.skip:
                passed = min(self.skip, size - pos)
                self.skip -= passed
                pos += passed
                continue
            take = self.want - len(self.field)
            self.field += data[pos:pos + take]
            pos += take
            if len(self.field) == self.want:
                field, self.field = self.field, b""
                self.step(field)

    def _magic(self, field: bytes) -> None:
        if field == _ZSTD:
            self.want, self.step = 1, self._descriptor
        elif field[1:] == _SKIPPABLE and field[0] & 0xF0 == 0x50:
            self.want, self.step = 4, self._skippable
        else:
            raise ValueError(f"bytes {field!r} start no zstd frame")

    def _skippable(self, field: bytes) -> None:
        self.skip = int.from_bytes(field, "little")
        self.want, self.step = 4, self._magic

    def _descriptor(self, field: bytes) -> None:
        flags = field[0]
        single = flags >> 5 & 1
        self.checksum = bool(flags & 4)
        size = (0 if single else 1) + (0, 1, 2, 4)[flags & 3] + \
            (single, 2, 4, 8)[flags >> 6]
        self.skip = size
        self.want, self.step = 3, self._block

    def _block(self, field: bytes) -> None:
        header = int.from_bytes(field, "little")
        kind = header >> 1 & 3
        self.skip = 1 if kind == 1 else header >> 3
        if not header & 1:  # not the last block
            return
        if self.checksum:
            self.want, self.step = 4, self._checksum
        else:
            self.want, self.step = 4, self._magic

    def _checksum(self, field: bytes) -> None:
        self.want, self.step = 4, self._magic


class _Framed:
    """A zstd stream's compressed bytes, read through :class:`ZstdFrames`:
    its end inside a frame is an error."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.frames = ZstdFrames()

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        if data:
            self.frames.feed(data)
        elif not self.frames.complete:
            raise ValueError(ZSTD_CUT)
        return data


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
    return zstandard.ZstdCompressor(  # type: ignore[attr-defined, no-any-return]
        write_checksum=True).compressobj()


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
    """``stream``'s bytes, ``size`` at a time (decompression errors, and a line
    longer than :data:`MAX_LINE`, become :class:`~solver.errors.InputFileError`)."""
    return bounded(_chunks(stream, path, size), path)


def long_line(buf: Any, start: int, end: int, since: int = 0,
              limit: int = MAX_LINE) -> int | None:
    """Where in ``buf[start:end]`` a line grows longer than ``limit`` bytes
    (``since``: the bytes of the line begun before ``start``), or None.

    Cheap: a line break is looked for in every ``limit // 2`` bytes, and only
    a stretch without one is measured.

    >>> long_line(b"ab\\ncdef\\ng", 0, 9, limit=3), long_line(b"ab\\nc", 0, 4, 2, limit=3)
    (6, 1)
    >>> long_line(b"ab\\ncde\\nfg", 0, 9, limit=3)
    """
    first = buf.find(b"\n", start, end)
    if since + ((end if first < 0 else first) - start) > limit:
        return start + limit - since
    if first < 0:
        return None
    step = max(limit // 2, 1)
    for at in range(first + 1, end, step):
        if buf.find(b"\n", at, min(at + step, end)) >= 0 or at + step > end:
            continue
        begin: int = buf.rfind(b"\n", first, at) + 1
        stop = buf.find(b"\n", at, end)
        if (end if stop < 0 else stop) - begin > limit:
            return begin + limit
    return None


def bounded(pieces: Iterable[bytes], path: str, limit: int = MAX_LINE,
            offset: int = 0) -> Iterator[bytes]:
    """``pieces`` as they are, until a line longer than ``limit`` bytes:
    :class:`~solver.errors.InputFileError` (PGN lines are short; this one is
    not PGN, and would cost time and memory to read); ``offset``: the
    input's bytes before the first piece."""
    since = 0
    read = offset
    for piece in pieces:
        found = long_line(piece, 0, len(piece), since, limit)
        if found is not None:
            raise InputFileError(path, too_long(read + found, limit))
        last = piece.rfind(b"\n")
        since = since + len(piece) if last < 0 else len(piece) - last - 1
        read += len(piece)
        yield piece


def too_long(at: int, limit: int = MAX_LINE) -> str:
    """The reason given for a line longer than ``limit`` (at byte ``at``)."""
    return f"a line is longer than {limit:,} bytes (at byte {at:,}): not PGN"


def _chunks(stream: IO[bytes], path: str, size: int) -> Iterator[bytes]:
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
    return moves_end(data, head, end).endswith(_MARKERS)


def moves_end(data: bytes, head: int, end: int) -> bytes:
    """The last bytes of the moves ``data[head:end]``, without what may follow
    their result: blanks, comments (``{...}``, ``; ...``), a byte order mark, Ctrl-Z.

    >>> moves_end(b"1. e4 1-0 {won} ; end\\n\\n\\xef\\xbb\\xbf", 0, 26)
    b'1. e4 1-0'
    """
    tail = data[max(head, end - 32):end].rstrip(_AFTER)
    if (len(tail) >= 8 or end - head <= 32) and not tail.endswith((_BOM, b"}")) and \
            b";" not in tail and b"%" not in tail:
        return tail
    text = data[head:end]
    while True:  # the comments after the result, the last first
        text = text.rstrip(_AFTER)
        if text.endswith(_BOM):
            text = text[:-len(_BOM)]
            continue
        line = text.rfind(b"\n") + 1
        cut = _line_comment(text, line)
        if cut is not None:
            text = text[:cut]
        elif text.endswith(b"}") and text.rfind(b"{") >= 0:
            text = text[:text.rfind(b"{")]
        else:
            return text


def _line_comment(text: bytes, line: int) -> int | None:
    """Where a ``;`` or ``%`` comment starts on the line at ``line`` (the last), or None."""
    if text.startswith(b"%", line):
        return line
    semi = text.find(b";", line)
    if semi < 0 or text.count(b"{", line, semi) > text.count(b"}", line, semi):
        return None
    return semi


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
            head = header_end(buf, at, done)
            nxt = _next_game(buf, head, done) if head >= 0 else None
            if nxt is None and not done:
                head = max(head, at)
                if len(buf) - at > max_game:  # too long to keep: report, go on
                    number += 1
                    yield Game(number, buf, at, min(head, at + 256), min(len(buf), at + 256),
                               LONG.format(max_game))
                    seeking = True
                    cut = buf.rfind(b"\n", head)
                    buf, at = buf[cut:] if cut > head else b"", 0
                break
            end = nxt if nxt is not None else len(buf)
            number += 1
            problem = _header_problem(buf, at, head)
            if problem is None and not ended(buf, head, end):
                problem = TRUNCATED
            yield Game(number, buf, at, head, end, problem)
            at = end


def header_end(buf: bytes, at: int, done: bool = True) -> int:
    """Where the header block starting at ``buf[at]`` ends (the line break
    after its last tag line), or -1 when ``buf`` ends before that is known
    (``done``: it is the input's end). As python-chess reads headers, ``%``
    and ``;`` lines and one blank line between tag lines are part of it."""
    pos = at
    while True:
        found = _HEAD_END.search(buf, pos)
        if found is None:
            return len(buf) if done else -1
        head = found.start()
        line = head + 1
        blank = False
        while True:  # past comment lines and one blank line
            if line >= len(buf):
                return head if done else -1
            first = buf[line]
            if first in b"%;" or (not blank and first in b" \t\r\n"):
                stop = buf.find(b"\n", line)
                if stop < 0:
                    return head if done else -1
                if first not in b"%;":
                    if buf[line:stop].strip():
                        break
                    blank = True
                line = stop + 1
                continue
            break
        if line == head + 1 or not _TAG_START.match(buf, line):
            return head
        pos = line


_TAG_START: Final = re.compile(rb"\[[A-Za-z0-9_]")


def _next_game(buf: bytes, head: int, done: bool) -> int | None:
    """Where the game after the header ending at ``head`` starts (a tag line's
    ``[`` outside the moves' comments), or None when not in ``buf`` (yet)."""
    pos = head
    while True:
        found = _NEXT.search(buf, pos)
        if found is None:
            return None
        start = found.end() - 2
        if buf.rfind(b"{", head, start) <= buf.rfind(b"}", head, start) or \
                not _in_comment(buf, head, start):
            return start
        close = buf.find(b"}", start)
        if close < 0:
            return None
        pos = close


def _in_comment(buf: bytes, head: int, at: int) -> bool:
    """Whether ``buf[at]`` is inside a ``{...}`` comment of the moves from ``head``."""
    inside = False
    skip = -1  # the end of a ; or % comment's line
    for found in _COMMENTS.finditer(buf, head, at):
        where = found.start()
        if where < skip:
            continue
        token = found.group()
        if inside:
            inside = token != b"}"
        elif token == b"{":
            inside = True
        elif token != b"}":
            skip = buf.find(b"\n", where + 1, at)
            if skip < 0:
                return False
    return inside


def _next_start(buf: bytes) -> int | None:
    found = _NEXT.search(buf)
    return found.end() - 2 if found is not None else None


def _first_start(buf: bytes) -> int | None:
    """Where the first header block starts (after a byte order mark, comments), or None."""
    begin = len(_BOM) if buf.startswith(_BOM) else 0
    if buf.startswith(b"[", begin) and re.match(rb"\[[A-Za-z0-9_]", buf[begin:begin + 2]):
        return begin
    found = _NEXT.search(buf, begin)
    return found.end() - 2 if found is not None else None
