"""Counting the games of well-formed stretches of PGN in bulk, without a
Python step per game, and a large file in worker processes.

:func:`game_chunks` re-cuts an input's bytes where games start (a header
block after a blank line). :func:`tally` reads a chunk with one regular
expression that walks each header block, keeps ``Result``, ``FEN`` and
``Variant``, and checks the block's shape, so that :class:`collections.Counter`
counts the games in C. It answers only when every game of the chunk is as
the careful reader (:func:`solver.games.reading.scan`) would read it
(a blank line around each header block, every header line a tag, a result
after each game's moves, one ``Result`` and one ``FEN`` each, no ``Variant``
or ``FEN`` written with escapes); otherwise it answers None and the chunk is
read game by game, so the two ways always give the same table (a test
compares them).

>>> chunk = b'[Result "1-0"]\\n[FEN "x"]\\n\\n1. e4 1-0\\n\\n[FEN "y"]\\n[Result "*"]\\n\\n*\\n'
>>> sorted(tally(chunk).items()) == sorted(tally(b"1/2-1/2\\n\\n" + chunk, 9).items())
True
>>> sorted(tally(chunk).items())
[((b'x', None, 0), 1), ((b'y', None, 3), 1)]
>>> tally(chunk.replace(b"1. e4 1-0", b"1. e4")) is None  # truncated: read game by game
True
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any, Final

#: Bytes gathered before a chunk is cut (at the last game start in them).
CHUNK: Final = 4 << 20

#: Bytes gathered without a place to cut before the rest is read game by game.
GIVE_UP: Final = 64 << 20

_MARK: Final = rb"(?:(?<=(1)-0\n\n\[)|(?<=0-(1)\n\n\[)|(?<=1/(2)-1/2\n\n\[)|(?<=(\*)\n\n\[))?"
#: Header lines skipped: tags other than Result, FEN and Variant, each followed by another.
_SKIP: Final = rb'(?:(?!Result |FEN |Variant )[A-Za-z0-9_].*"\]\n\[)*+'
#: The header lines kept: Result, FEN and Variant (FEN and Variant without escapes).
_KEEP: Final = rb'(?:Result "([^"\n]*)"\]|FEN ("[^"\n\\]*)"\]|Variant ("[^"\n\\]*)"\])'
#: A header block after a blank line: the previous game's result (groups 1-4),
#: Result, FEN and Variant before its last line (5-7) and in its last line (8-10),
#: and the blank line after it (11, empty when the block is not all tags or no
#: blank line follows). Uninteresting lines are skipped by a loop without groups.
BLOCK: Final = re.compile(
    rb"\n\n\[" + _MARK + _SKIP + rb"(?:" + _KEEP + rb"\n\[" + _SKIP + rb")*+"
    + rb'(?:(?:' + _KEEP + rb'|(?!Result |FEN |Variant )[A-Za-z0-9_].*"\])\n(\n)|)')
_RESULTS: Final = {b"1-0": 0, b"1/2-1/2": 1, b"0-1": 2, b"*": 3}
_ENDS: Final = (b"1-0", b"0-1", b"1/2-1/2", b"*")
_START: Final = re.compile(rb"\n\r?\n\[[A-Za-z0-9_]")

Key = tuple[bytes, bytes | None, int]


def tally(chunk: bytes, start: int = 0, end: int | None = None) -> dict[Key, int] | None:
    """``(FEN, Variant or None, result) -> games`` for ``chunk[start:end]``, which
    starts at a game's ``[`` and ends after a game (the bytes before ``start``,
    if any, end the game before: ``*\\n\\n`` at least), or None when a game
    in it is not plainly written."""
    if end is None:
        end = len(chunk)
    if start < 3 or chunk[start - 3:start] not in _BEFORE:
        chunk, start, end = b"*\n\n" + chunk[start:end], 3, end - start + 3
    if chunk.find(b"\r", start, end) >= 0:
        text = chunk[start - 3:end].replace(b"\r\n", b"\n")
        if b"\r" in text:
            return None
        chunk, start, end = b"*\n\n" + text[3:], 3, len(text)
    if not chunk.startswith(b"[", start) or not chunk[end - 64:end].rstrip().endswith(_ENDS):
        return None
    found = Counter(BLOCK.findall(chunk, start - 2, end))
    if sum(found.values()) != chunk.count(b'\n[Result "', start - 2, end):
        return None
    counts: dict[Key, int] = {}
    results = _RESULTS
    for (m1, m2, m3, m4, r1, f1, v1, r2, f2, v2, blank), n in found.items():
        if not (m1 or m2 or m3 or m4) or not blank or (r1 and r2) or (f1 and f2) \
                or (v1 and v2):
            return None
        result = results.get(r1 or r2)
        fen = f1 or f2
        if result is None or len(fen) < 2:  # no FEN: its number tags are read game by game
            return None
        variant = v1 or v2
        key = (fen[1:], variant[1:] if variant else None, result)
        counts[key] = counts.get(key, 0) + n
    return counts


#: What may stand before a chunk's first game for :func:`tally` to read it in place.
_BEFORE: Final = frozenset((b"0\n\n", b"1\n\n", b"2\n\n", b"*\n\n"))


#: Bytes kept before a chunk, so that its first game's lookbehind sees the game before.
CONTEXT: Final = 16


def game_chunks(pieces: Iterator[bytes]) -> Iterator[tuple[bytes, int, int] | Iterator[bytes]]:
    """The bytes of ``pieces`` again, as ``(buffer, start, end)``, cut where a
    header block starts after a blank line: each ``buffer[start:end]`` holds
    whole games (the first also what comes before the first game), and up to
    :data:`CONTEXT` bytes before ``start`` end the game before. When no place
    to cut turns up in :data:`GIVE_UP` bytes, what is left comes as one
    iterator of pieces, to be read game by game."""
    parts: list[bytes] = []
    size = 0
    start = 0
    for piece in pieces:
        parts.append(piece)
        size += len(piece)
        if size < CHUNK:
            continue
        buf = b"".join(parts) if len(parts) > 1 else parts[0]
        parts, size = [buf], len(buf)
        cut = _last_start(buf, start)
        if cut is None:
            if len(buf) > GIVE_UP:
                yield _rest(buf[start:], pieces)
                return
            continue
        yield buf, start, cut
        keep = max(cut - CONTEXT, 0)
        parts = [buf[keep:]]
        size = len(parts[0])
        start = cut - keep
    buf = b"".join(parts)
    if len(buf) > start:
        yield buf, start, len(buf)


def _rest(first: bytes, pieces: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from pieces


def _last_start(buf: bytes, start: int = 0) -> int | None:
    """Where the last header block after a blank line starts in ``buf[start:]`` (its ``[``)."""
    end = len(buf)
    while True:
        at = buf.rfind(b"\n[", start + 1, end)
        if at < start + 1:
            return None
        if (buf[at - 1:at] == b"\n" or buf[at - 2:at] == b"\n\r") and \
                _START.match(buf, at - 1 if buf[at - 1] == 10 else at - 2):
            return at + 1
        end = at


# -- a large file in worker processes ---------------------------------------------------------

#: Plain files at least this large are read in worker processes, one range each.
PARALLEL_FROM: Final = 64 << 20

#: The most problems a worker keeps to report (the others are counted).
KEPT: Final = 1000


def ranges(path: str, size: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` byte ranges of the file, each starting where a game starts
    (a header block after a blank line), or fewer when no such place is found."""
    cuts = [0]
    with open(path, "rb") as handle:
        for k in range(1, parts):
            at = size * k // parts
            handle.seek(at)
            window = handle.read(1 << 20)
            found = _START.search(window)
            if found is None:
                continue
            cut = at + found.end() - 2
            if cut > cuts[-1]:
                cuts.append(cut)
    cuts.append(size)
    return list(itertools.pairwise(cuts))


def _range_pieces(path: str, start: int, end: int) -> Iterator[bytes]:
    with open(path, "rb") as handle:
        handle.seek(start)
        left = end - start
        while left > 0:
            piece = handle.read(min(1 << 20, left))
            if not piece:
                return
            left -= len(piece)
            yield piece


def _child(stats: Any, path: str, start: int, end: int, send: Any, parent: int) -> None:
    """A worker: tally the games in ``[start, end)`` and send what it found."""
    import os
    import signal
    import sys

    from solver.search.csp.workers import _die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    problems: list[tuple[int, str]] = []
    more = 0

    def keep(number: int, problem: str) -> None:
        nonlocal more
        if len(problems) < KEPT:
            problems.append((number, problem))
        else:
            more += 1

    try:
        stats.reset()
        read = stats.add(_range_pieces(path, start, end), path, keep)
        send.send(("done", read, stats.rows, stats.outside, stats.games, stats.skipped,
                   problems, more))
    except BaseException as exc:
        from solver.errors import Chess960Error

        known = isinstance(exc, Chess960Error)
        with contextlib.suppress(OSError):
            send.send(("error", known, str(exc) if known else f"{type(exc).__name__}: {exc}"))
    finally:
        with contextlib.suppress(OSError):
            send.close()


def in_workers(stats: Any, path: str, size: int, report: Any, workers: int) -> int:
    """Tally a plain file's games in ``workers`` processes (this one reads the
    first range); problems are reported in game order. Returns the games read."""
    import multiprocessing
    import os

    from solver.errors import Chess960Error, WorkerError
    from solver.search.csp.workers import _WORKERS

    spans = ranges(path, size, workers)
    context = multiprocessing.get_context("fork")
    parent = os.getpid()
    children = []
    try:
        for start, end in spans[1:]:
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_child,
                                      args=(stats, path, start, end, send, parent), daemon=True)
            process.start()
            _WORKERS.append(process)
            send.close()
            children.append((process, receive))
        start, end = spans[0]
        read: int = stats.add(_range_pieces(path, start, end), path, report)
        for process, receive in children:
            try:
                message = receive.recv()
            except (EOFError, OSError):
                process.join(timeout=1)
                raise WorkerError(process.exitcode) from None
            if message[0] == "error":
                raise Chess960Error(message[2]) if message[1] else WorkerError(None, message[2])
            _, count, rows, outside, games, skipped, problems, more = message
            stats.absorb(rows, outside, games, skipped)
            if report is not None:
                for number, problem in problems:
                    report(read + number, problem)
                if more:
                    report(read + count, f"and {more:,} more games skipped before this one")
            read += count
        return read
    finally:
        for process, receive in children:
            with contextlib.suppress(OSError, ValueError):
                receive.close()
            if process.is_alive():
                process.terminate()
            process.join(timeout=1)
            with contextlib.suppress(ValueError):
                _WORKERS.remove(process)
