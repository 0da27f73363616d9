"""Counting the games of well-formed stretches of PGN in bulk, without a
Python step per game, and a large file in worker processes.

:func:`pattern` is one regular expression that reads a whole game: each
header line (``[Name "value"]``, exactly one ``"]``, at its end), the blank
line after them, the moves' lines, the result they end in and the blank
line before the next game. It keeps the lines of the tags that name a
game's start and result (``Result``, ``FEN``, ``Variant`` and the number
tags) whole, so that the few distinct keys can be read later by the careful
reader's own functions, and :class:`collections.Counter` counts the games
in C, matched one after the other from where the last one ended
(:meth:`re.Pattern.scanner`), so that no byte is passed over. :func:`bulk`
says where that stops: at a game not plainly written (a truncated one, a
header line that is no tag, more kept tags than :data:`DEPTH`), which is then
read game by game (:func:`solver.games.reading.scan`), so the two ways always
give the same table (tests compare them on made-up and random inputs).
Headers of a shape met often (the same tag names in the same order) are
read by a quicker pattern with the names written out (:func:`shape_of`).

A plain file is mapped :data:`WINDOW` bytes at a time (:func:`read_range`),
a large one in worker processes, one byte range each (:func:`in_workers`);
a stream is cut into chunks at game starts (:func:`game_chunks`).

>>> chunk = b'[Result "1-0"]\\n[FEN "x"]\\n\\n1. e4 1-0\\n\\n[FEN "y"]\\n[Result "*"]\\n\\n*\\n'
>>> found, stop = bulk(chunk, 0, len(chunk), pattern(()))
>>> stop == len(chunk), sorted(k[:2] for k in found)
(True, [(b'[FEN "y"]', b'[Result "*"]'), (b'[Result "1-0"]', b'[FEN "x"]')])
>>> bulk(chunk.replace(b"1. e4 1-0", b"1. e4"), 0, len(chunk) - 4, pattern(()))[1]  # truncated
0
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any, Final

#: Bytes gathered before a chunk is cut (at the last game start in them).
CHUNK: Final = 4 << 20

#: Bytes gathered without a place to cut before the rest is read game by game.
GIVE_UP: Final = 64 << 20

#: The most kept tag lines a game may have to be counted in bulk.
DEPTH: Final = 5

#: A game's key: its kept tag lines, in order (None for the groups not met), and None.
Key = tuple[bytes | None, ...]

_START: Final = re.compile(rb"\n\r?\n\[[A-Za-z0-9_]")
_BLANK_THEN_TAG: Final = re.compile(rb"\n\n\[")
_NAME: Final = rb"(?=\[[A-Za-z0-9_])"
#: A header line other than a kept one: exactly one ``]``, after a ``"``, at its end.
_LINE: Final = rb'(?=.*"\]\n)[^\]]*+\]\n'
#: The blank line after the header, the moves (lines not starting with ``[``
#: or ``%``), the result they end in, and the blank line before the next game
#: (or the end).
_MOVES: Final = (rb"\n(?:[^\[\n%].*\n)*+(?:(?<=1-0\n)|(?<=0-1\n)|(?<=1/2-1/2\n)|(?<=\*\n))"
                 rb"(?:\n" + _NAME + rb"|\n?\Z)")
#: As :data:`_MOVES`, for text with comments: each line closes the comments it
#: opens (its last brace is no ``{``), so that a comment over lines, which may
#: hold blank lines and tag lines, is read game by game.
_COMMENTED: Final = _MOVES.replace(rb"[^\[\n%].*\n", rb"(?=[^\[\n%])(?:.*\})?[^{}\n]*\n")
#: As :data:`_COMMENTED`, for text with a ``;``: no line holds one, so that a
#: result in a ``;`` comment (``1. e4 ; won 1-0``: no result, as the careful
#: reader reads it) is read game by game.
_NO_SEMICOLON: Final = _MOVES.replace(rb"[^\[\n%].*\n", rb"(?=[^\[\n%;])(?:[^;\n]*\})?[^{};\n]*\n")


@contextlib.contextmanager
def no_collection() -> Iterator[None]:
    """No cyclic garbage collection meanwhile: the tallies' keys, lines, counts
    and nodes make no cycle, and collecting while they are made costs more
    than making them (each collection walks every one made so far)."""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():  # (no caller's frozen objects to thaw)
                gc.freeze()  # what was made meanwhile is old now, not to be walked
                gc.unfreeze()  # at once (the youngest generation counts from 0)
            gc.enable()


def moves_pattern(comments: bool, semicolons: bool) -> bytes:
    """The moves' part of a game's pattern (from the blank line after its header
    to the next game's start): quicker when the text holds no ``{`` (``comments``
    false) and no ``;`` (``semicolons`` false)."""
    return _NO_SEMICOLON if semicolons else _COMMENTED if comments else _MOVES


#: The most header shapes learnt (each one a quicker pattern tried in turn).
SHAPES: Final = 4

#: A line of a learnt header shape: its tag's value, exactly one ``"]``, at its end.
_VALUE: Final = rb'"(?=.*"\]\n)[^"]*+"\]\n'


@functools.lru_cache(maxsize=16)
def pattern(number_tags: tuple[bytes, ...],
            shapes: tuple[tuple[bytes, ...], ...] = (),
            comments: bool = True, semicolons: bool = True) -> re.Pattern[bytes]:
    """The pattern of a plainly written game, keeping its ``Result``, ``FEN``,
    ``Variant`` and ``number_tags`` lines (up to :data:`DEPTH` of them).

    ``shapes``: the tag names of headers met often, in order; a header of
    exactly one of them is read by a quicker pattern (the kept tags' names
    written out, and those of the others that start as a kept tag does; any
    other line is a tag line that starts as none does, as in the general
    pattern). ``comments``, ``semicolons``: whether the text may hold ``{``,
    ``;`` (see :func:`moves_pattern`)."""
    kept = tuple(dict.fromkeys((b"Result", b"FEN", b"Variant", *number_tags)))
    needles = b"|".join(re.escape(name) for name in kept)
    firsts = b"".join(re.escape(bytes([c])) for c in sorted({name[0] for name in kept if name}))
    first = rb"[^" + firsts + rb"\n]|" if all(kept) else b""  # most lines: told by their first byte
    skip = rb"(?:\[(?:" + first + rb"(?!(?:" + needles + rb')[ \t]))' + _LINE + rb")*+"
    value = {name: _VALUE[:-2] for name in kept}  # read again by headers.tag(), escapes and all
    value[b"Result"] = rb'"(?:1-0|0-1|1/2-1/2|\*)"\]'
    keep = rb"(\[(?:" + b"|".join(re.escape(n) + b" " + v for n, v in value.items()) + rb"))\n"
    nested = b""
    for _ in range(DEPTH):
        nested = rb"(?:" + keep + skip + nested + rb")?"
    header = skip + nested
    initials = {name[:1] for name in kept}
    quick = [b"".join(rb"(\[" + re.escape(name) + b" " + value[name] + rb")\n" if name in value
                      else rb"\[" + re.escape(name[:1]) + _LINE  # no kept tag starts so
                      if first and name[:1] not in initials
                      else rb"\[" + re.escape(name) + b" " + _VALUE for name in shape)
             for shape in shapes]
    header = rb"(?:" + b"|".join([*quick, header]) + b")"
    moves = moves_pattern(comments, semicolons)
    return re.compile(rb"(?:" + _NAME + header + moves + rb"|\Z())")


def shape_of(header: bytes) -> tuple[bytes, ...]:
    """The tag names of a header block, in order, when each line is a plain tag
    (else none).

    >>> shape_of(b'[Event "a"]\\n[Site "b"]'), shape_of(b'[Event "a"]\\n[Site b]')
    ((b'Event', b'Site'), ())
    """
    names = re.findall(rb'^\[([A-Za-z0-9_]+) "[^"\n]*"\]$', header, re.MULTILINE)
    return tuple(names) if len(names) == header.count(b"\n") + 1 <= 64 else ()


_GROUPS: Final = re.Match.groups
#: Matches one after the other, each where the last ended (not in typeshed).
_SCANNER: Final[Any] = re.Pattern.scanner  # type: ignore[attr-defined]


def bulk(buf: Any, pos: int, end: int, regex: re.Pattern[bytes]) -> tuple[Counter[Key], int]:
    """The keys of the games read one after the other in ``buf[pos:end]``
    (which starts at a game's ``[``), counted, and where that stopped
    (``end`` when every game was read)."""
    found: Counter[Key] = Counter()
    return found, bulk_into(found, buf, pos, end, regex)[1]


def bulk_into(keys: Counter[Key], buf: Any, pos: int, end: int,
              regex: re.Pattern[bytes]) -> tuple[int, int]:
    """As :func:`bulk`, adding the keys to ``keys`` (in C, no Python step per
    key): how many games were added, and where that stopped."""
    before = sum(keys.values())
    keys.update(map(_GROUPS, iter(_SCANNER(regex, buf, pos, end).match, None)))
    done = keys.pop((None,) * (regex.groups - 1) + (b"",), 0)  # the end was reached
    games = sum(keys.values()) - before
    if done or not games:
        return games, end if done else pos
    # the games read in bulk are contiguous, each ends with a blank line, and no
    # other blank line in them is followed by a "[": the n-th such place is the stop
    after = next(itertools.islice(_BLANK_THEN_TAG.finditer(buf, pos, end), games - 1, None), None)
    if after is None:  # not so after all: nothing is taken as read in bulk
        unread(keys, buf, pos, end, regex)
        return 0, pos
    return games, after.end() - 1


def unread(keys: Counter[Key], buf: Any, pos: int, end: int, regex: re.Pattern[bytes]) -> None:
    """Take back from ``keys`` what :func:`bulk_into` added for ``buf[pos:end]``."""
    found = Counter(map(_GROUPS, iter(_SCANNER(regex, buf, pos, end).match, None)))
    found.pop((None,) * (regex.groups - 1) + (b"",), 0)
    for key, n in found.items():
        left = keys[key] - n
        if left > 0:
            keys[key] = left
        else:
            keys.pop(key, None)


def numbered_keys(buf: Any, pos: int, end: int,
                  regex: re.Pattern[bytes]) -> Iterator[tuple[int, Key]]:
    """``(number, key)`` of the games :func:`bulk` reads in ``buf[pos:end]``,
    numbered from 1 (for the few games whose numbers are wanted)."""
    matches = iter(_SCANNER(regex, buf, pos, end).match, None)
    for number, found in enumerate(matches, 1):
        key = found.groups()
        if key[-1] is not None:  # the end
            return
        yield number, key


def header_of(key: Key) -> bytes:
    """The kept tag lines of a key, as a header block."""
    return b"\n".join(line for line in key if line)


def next_start(buf: Any, pos: int, end: int) -> int:
    """Where the first header block after a blank line starts in ``buf[pos:end]``
    (its ``[``), or ``end``."""
    for found in _START.finditer(buf, pos, end):
        if _cut(buf, found.start()):
            return found.end() - 2
    return end


def _cut(buf: Any, blank: int) -> bool:
    """Whether the tag line after the blank line after ``buf[blank]`` starts a
    game: the line before the blank one is no tag, ``%`` or ``;`` line (else,
    as python-chess reads it, the header goes on over the blank line)."""
    line = buf.rfind(b"\n", 0, blank) + 1
    if buf[line:line + 3] == _BOM:
        line += 3
    return buf[line:line + 1] not in (b"[", b"%", b";")


#: Bytes kept before a chunk (the end of the game before).
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


def read_pieces(tally: Any, pieces: Iterator[bytes], path: str, report: Any) -> int:
    """Read one input's ``pieces`` into ``tally`` (``games stats``' or ``games
    tree``'s): each chunk cut at game starts by its ``add_region`` (in bulk
    where plainly written), what cannot be cut by its ``careful``; returns
    the number of the last game."""
    read = 0
    first = True
    for chunk in game_chunks(pieces):
        if isinstance(chunk, tuple):
            buf, start, end = chunk
            skip = 3 if first and buf.startswith(_BOM, start) else 0
            read = tally.add_region(buf, start + skip, end, path, report, read)
        else:
            read = tally.careful(chunk, path, report, read)
        first = False
    return read


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
                _START.match(buf, at - 1 if buf[at - 1] == 10 else at - 2) and \
                _cut(buf, at - 1 if buf[at - 1] == 10 else at - 2):
            return at + 1
        end = at


# -- a plain file, mapped a window at a time ---------------------------------------------------

#: The bytes of a plain file mapped at a time (cut at the last game start in them).
WINDOW: Final = 16 << 20

_BOM: Final = b"\xef\xbb\xbf"


def read_range(stats: Any, path: str, start: int, end: int, report: Any) -> int:
    """Tally the games in bytes ``[start, end)`` of a plain file (``start``: 0
    or where a game starts), mapped :data:`WINDOW` bytes at a time, so that
    memory stays flat; returns the games read."""
    from solver.errors import InputFileError
    from solver.games.reading import bounded, long_line, too_long

    read = 0
    with open(path, "rb") as handle:
        for view, pos, last, base in windows(handle, start, end):
            if last is None:  # one game longer than a window: the rest game by game
                pieces = bounded(_range_pieces(path, base + pos, end), path, offset=base + pos)
                done: int = stats.careful(pieces, path, report, read)
                return done
            found = long_line(view, pos, last)
            if found is not None:
                raise InputFileError(path, too_long(base + found))
            read = stats.add_region(view, pos, last, path, report, read)
    return read


def windows(handle: Any, start: int, end: int) -> Iterator[tuple[Any, int, int | None, int]]:
    """The windows :func:`read_range` reads bytes ``[start, end)`` of an open
    plain file in: ``(view, pos, last, base)``, ``view`` mapped from the file's
    byte ``base``, ``view[pos:last]`` whole games (``last`` None: no game starts
    in the window after ``pos``, the last one given). Each view is closed
    once the next is asked for."""
    import mmap

    pos = start
    if pos == 0 and handle.read(3) == _BOM:
        pos = 3
    while pos < end:
        base = pos - pos % mmap.ALLOCATIONGRANULARITY
        stop = min(pos + WINDOW, end)
        view = mmap.mmap(handle.fileno(), stop - base, offset=base, access=mmap.ACCESS_READ)
        try:
            last: int | None = stop - base
            if stop < end:
                last = _last_start(view, pos - base)  # type: ignore[arg-type]
            yield view, pos - base, last, base
            if last is None:
                return
            pos = base + last
        finally:
            with contextlib.suppress(BufferError):
                view.close()


def numbered_windows(path: str, start: int, end: int, patterns: list[tuple[int, Any]],
                     first: int = 0) -> Iterator[tuple[int, Key]]:
    """``(number, key)`` of the games of bytes ``[start, end)`` of a plain file
    read in bulk throughout, window by window as :func:`read_range` reads them,
    from window ``first`` on: ``patterns`` holds, per window, the games read
    before it and the pattern they were read with."""
    with open(path, "rb") as handle:
        for index, (view, pos, last, _) in enumerate(windows(handle, start, end)):
            if index >= first and last is not None:
                read, regex = patterns[index]
                for number, key in numbered_keys(view, pos, last, regex):
                    yield read + number, key


# -- a large file in worker processes ---------------------------------------------------------

#: Plain files at least this large are read in worker processes, one range each.
PARALLEL_FROM: Final = 64 << 20

#: The most problems a worker keeps to report (the others are counted).
KEPT: Final = 1000


def ranges(path: str, size: int, parts: int, share: float | None = None) -> list[tuple[int, int]]:
    """``parts`` byte ranges of the file, each starting where a game starts
    (a header block after a blank line), or fewer when no such place is found;
    ``share``: the first range's part of the file (else each an equal part)."""
    cuts = [0]
    first = 1 / parts if share is None else share
    with open(path, "rb") as handle:
        for k in range(1, parts):
            at = int(size * (first + (1 - first) * (k - 1) / (parts - 1)))
            handle.seek(at)
            window = handle.read(1 << 20)
            found = next((m for m in _START.finditer(window)  # whole lines before it
                          if window.rfind(b"\n", 0, m.start()) >= 0 and _cut(window, m.start())),
                         None)
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


def _child(stats: Any, path: str, start: int, end: int, parent: int, send: Any) -> None:
    """A worker: tally the games in ``[start, end)`` and send what it found."""
    import os
    import signal
    import sys

    from solver.processes import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    die_with_parent(parent)
    sys.stdin = sys.stdout = sys.stderr = open(os.devnull, "r+")  # noqa: SIM115
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
        read = stats.add_range(path, start, end, keep)
        send(("done", read, problems, more, stats.shared()))
    except BaseException as exc:
        from solver.errors import Chess960Error

        known = isinstance(exc, Chess960Error)
        with contextlib.suppress(OSError):
            send(("error", known, str(exc) if known else f"{type(exc).__name__}: {exc}"))


class Started:
    """Workers forked for a plain file (:func:`start_workers`): the byte ranges
    (this process reads the first) and the workers reading the others."""

    def __init__(self, path: str, size: int, spans: list[tuple[int, int]],
                 children: list[Any]) -> None:
        self.path, self.size, self.spans, self.children = path, size, spans, children
        self._claimed = False

    def claim(self, path: str, size: int | None) -> bool:
        """Whether these workers read ``path`` of ``size`` bytes, for the first
        time asked (a file named twice is read again by new workers)."""
        if self._claimed or (path, size) != (self.path, self.size):
            return False
        self._claimed = True
        return True

    def close(self) -> None:
        """Kill and reap the workers still running, forget them all."""
        for child in self.children:
            child.kill()
            child.join(timeout=1)
            child.close()
        self.children = []


def start_workers(stats: Any, path: str, size: int, workers: int,
                  share: float | None = None) -> Started:
    """Fork a worker per byte range of a plain file but the first (this
    process's), each tallying with its copy of ``stats``. ``share``: the
    part of the file left to this process (else an equal part)."""
    import os

    from solver.processes import Forked

    spans = ranges(path, size, workers, share)
    parent = os.getpid()
    started = Started(path, size, spans, [])
    try:
        for start, end in spans[1:]:
            child = Forked(_child, (stats, path, start, end, parent))
            child.start()
            started.children.append(child)
    except BaseException:
        started.close()
        raise
    return started


def in_workers(stats: Any, path: str, size: int, report: Any, workers: int,
               started: Started | None = None) -> int:
    """Tally a plain file's games in ``workers`` processes (this one reads the
    first range; ``started``: the workers already forked for the others);
    problems are reported in game order. Returns the games read."""
    from solver.errors import Chess960Error, WorkerError

    if started is None:
        started = start_workers(stats, path, size, workers)
    try:
        start, end = started.spans[0]
        read: int = stats.add_range(path, start, end, report)
        stats.compact()  # (while the workers still read)
        for child in started.children:
            try:
                message = child.receive()
            except (EOFError, OSError):
                child.join(timeout=1)
                raise WorkerError(child.exitcode) from None
            if message[0] == "error":
                raise Chess960Error(message[2]) if message[1] else WorkerError(None, message[2])
            _, count, problems, more, shared = message
            stats.absorb(*shared, offset=read)
            if report is not None:
                for number, problem in problems:
                    report(read + number, problem)
                if more:
                    report(read + count, f"and {more:,} more games skipped before this one")
            read += count
        return read
    finally:
        started.close()
