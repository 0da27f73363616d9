"""Lines of a byte stream, read in bounded memory: standard input and files alike.

Input is read as bytes, in chunks of :data:`CHUNK` bytes, and split into
lines here (``\\n``, ``\\r\\n`` or a lone ``\\r``); a line longer than
:data:`MAX_LINE` bytes is given as None. The commands' loop
(:mod:`solver.cli.inputs`), lint and compare read their lines this way.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import BinaryIO

#: How much of stdin is read at a time, in bytes.
CHUNK = 1 << 16

#: The longest input line answered, in bytes (without its line break).
MAX_LINE = 1 << 20

_BOM = b"\xef\xbb\xbf"
_BREAK = re.compile(rb"\r\n?|\n")


def stdin_bytes() -> BinaryIO | None:
    """Standard input as bytes, or None when it is closed."""
    stream = sys.stdin
    if stream is None:
        return None
    return getattr(stream, "buffer", None) or stream  # type: ignore[return-value]


class LineReader:
    """The lines of a byte stream (without line breaks), a batch per chunk read.

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (nothing else: not
    U+2028, not form feed); a UTF-8 byte order mark at the start is dropped.
    A line over ``limit`` bytes is None, given as soon as it is known to be
    too long (the rest of it is read and dropped). Memory stays within a chunk
    and a line. ``bom``, ``ending`` (the first line break met) and ``closed``
    (whether the last line had a line break) say how the text was written.

    >>> import io
    >>> list(LineReader(io.BytesIO(b"ab\\ncdefg\\nh"), limit=3))
    [[b'ab', None], [b'h']]
    >>> list(LineReader(io.BytesIO(b"\\xef\\xbb\\xbfa\\rb\\r\\nc\\r")))
    [[b'a', b'b'], [b'c']]
    """

    def __init__(self, stream: BinaryIO, limit: int = MAX_LINE) -> None:
        self.stream = stream
        self.limit = limit
        self.bom = False
        self.ending = b"\n"
        self.closed = True
        self._reader = getattr(stream, "read1", stream.read)

    def _read(self) -> bytes:
        chunk = self._reader(CHUNK)
        if isinstance(chunk, str):  # a text stream handed in by a caller
            return chunk.encode("utf-8", "surrogateescape")
        return chunk

    def _chunks(self) -> Iterator[bytes]:
        """The stream's bytes, the byte order mark dropped and line breaks made ``\\n``."""
        chunk = self._read()
        while len(chunk) < 3 and chunk and _BOM.startswith(chunk) and (more := self._read()):
            chunk += more
        if chunk.startswith(_BOM):
            chunk, self.bom = chunk[3:] or self._read(), True
        held = False  # a CR ended the chunk before: its LF may begin this one
        seen = False
        while True:
            if held:
                if not chunk:
                    if not seen:
                        self.ending = b"\r"
                    yield b"\n"
                    return
                chunk, held = b"\r" + chunk, False
            if not chunk:
                return
            if b"\r" in chunk:
                if chunk.endswith(b"\r"):
                    chunk, held = chunk[:-1], True
                if not seen and (found := _BREAK.search(chunk)):
                    self.ending, seen = found.group(), True
                chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            elif not seen and b"\n" in chunk:
                seen = True
            if chunk:
                yield chunk
            chunk = self._read()

    def __iter__(self) -> Iterator[list[bytes | None]]:
        limit = self.limit
        parts: list[bytes] = []
        size = 0
        over = False
        last = b""
        for chunk in self._chunks():
            last = chunk
            pieces = chunk.split(b"\n")
            batch: list[bytes | None] = []
            if len(pieces) > 1:
                first = pieces[0]  # ends the line the chunks before began
                if not over:
                    if size + len(first) > limit:
                        batch.append(None)
                    else:
                        batch.append(b"".join([*parts, first]) if parts else first)
                parts, size, over = [], 0, False
                whole = pieces[1:-1]  # lines wholly in this chunk: kept as they are
                if whole and max(map(len, whole)) > limit:
                    batch += [None if len(piece) > limit else piece for piece in whole]
                else:
                    batch += whole
            tail = pieces[-1]
            if not over and tail:
                if size + len(tail) > limit:
                    parts, size, over = [], 0, True
                    batch.append(None)
                else:
                    parts.append(tail)
                    size += len(tail)
            if batch:
                yield batch
        self.closed = not last or last.endswith(b"\n")
        if parts and not over:
            yield [b"".join(parts)]


def read_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[list[bytes | None]]:
    """The lines of ``stream`` as :class:`LineReader` reads them, a batch per chunk.

    >>> import io
    >>> list(read_lines(io.BytesIO(b"ab\\ncdefg\\nh"), limit=3))
    [[b'ab', None], [b'h']]
    """
    return iter(LineReader(stream, limit))


def entries(lines: Iterable[list[bytes | None]], name: str = "-") -> Iterator[tuple[int, str]]:
    """The numbered lines of :class:`LineReader`'s batches that say something,
    decoded and stripped: blank lines and ``#`` comments are passed over.

    Raises :class:`~solver.errors.InputFileError` (naming ``name``) for a line
    too long or not UTF-8.

    >>> import io
    >>> list(entries(LineReader(io.BytesIO(b"518\\n\\n# a note\\n  RNBQKBNR \\n"))))
    [(1, '518'), (4, 'RNBQKBNR')]
    """
    from solver.errors import InputFileError

    number = 0
    for batch in lines:
        for raw in batch:
            number += 1
            if raw is None:
                raise InputFileError(name, f"line {number} is longer than {MAX_LINE:,} bytes")
            try:
                text = raw.decode("utf-8").strip()
            except UnicodeDecodeError as exc:
                raise InputFileError(name, f"line {number} is not UTF-8 (byte "
                                           f"0x{raw[exc.start]:02x} at column "
                                           f"{exc.start + 1})") from None
            if text and not text.startswith("#"):
                yield number, text


def split_listed(text: str) -> tuple[int | None, str]:
    """``(id, rest)`` of a line ``solve`` writes (``<id> <rank>``), else ``(None, text)``.

    >>> split_listed("518 RNBQKBNR"), split_listed("RNBQKBNR")
    ((518, 'RNBQKBNR'), (None, 'RNBQKBNR'))
    """
    head, _, rest = text.strip().partition(" ")
    if rest.strip() and head.isascii() and head.isdigit() and len(head) <= 20:
        return int(head), rest.strip()
    return None, text
