"""``chess960 games stats``: games and results per start position.

For each position of the family met in the games: how many games, White's
wins, draws, Black's wins, unfinished games (``*``) and White's score (wins
and half the draws, over the finished games); the same for the whole family,
and for the games whose start is not one of the family's ("not in family":
a FEN after moves, another family's start, another game's ``Variant``),
with each reason and its first game numbers (:class:`~solver.games.headers.Notes`).
A start FEN whose pieces are a family's start but whose castling field is
impossible (lichess's 2023-11 dump: ``HEhe``, ``-``) is counted under its
position, and told as "castling field repaired".

>>> from solver.family import Family
>>> pgn = (b'[Result "1-0"]\\n\\n1. e4 1-0\\n\\n[Result "1/2-1/2"]\\n[Variant "Chess960"]\\n'
...        b'[FEN "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1"]\\n\\n1/2-1/2\\n')
>>> stats = Stats(Family.load("chess960"))
>>> stats.add(iter([pgn]), "x")
2
>>> for line in stats.text(): print(line)
 id  position  games  white  draws  black  unfinished  white score
105  FRC 105       1      0      1      0           0        50.0%
518  FRC 518       1      1      0      0           0       100.0%
chess960           2      1      1      0           0        75.0%
not in family      0      0      0      0           0            -
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final

from solver.games.fast import Key, header_of
from solver.games.headers import MEMO, NUMBER_TAGS, RESULTS, Notes, Start, Starts, tag
from solver.games.reading import moves_end, scan

if TYPE_CHECKING:
    from solver.family import Family
    from solver.games.fast import Started

#: The columns of a row, after the position: games, results, score.
COLUMNS: Final = ("games", "white", "draws", "black", "unfinished", "white score")
FIELDS: Final = ("id", "position", "games", "white_wins", "draws", "black_wins", "unfinished",
                 "white_score")

#: Told of each game skipped: its number and why.
SkipReport = Callable[[int, str], object]

_MARKER_RESULTS: Final = ((b"1/2-1/2", 1), (b"1-0", 0), (b"0-1", 2), (b"*", 3))


#: How a kept ``Result`` line starts (see :data:`~solver.games.fast.Key`).
_RESULT: Final = b"[Result "
#: The ``Result`` lines the bulk pattern keeps, and their results.
_RESULT_LINES: Final[dict[bytes | None, int]] = {
    _RESULT + b'"' + value + b'"]': index for value, index in RESULTS.items()}
_IS_RESULT: Final = _RESULT_LINES.__contains__


def result_of(data: bytes, header: bytes, head: int, end: int) -> int | None:
    """The game's result (an index of :data:`RESULTS`): its ``Result`` tag, else
    the marker its moves end in; None when the tag is none of the four."""
    value = tag(header, b"Result")
    if value is not None:
        return RESULTS.get(value.strip())
    tail = moves_end(data, head, end)
    for marker, index in _MARKER_RESULTS:
        if tail.endswith(marker):
            return index
    return None


#: The part of a large file this process reads when its workers were forked
#: before the family was loaded (:func:`start_early`), for two processes: it
#: loads the family and reads the workers' keys while they read on.
EARLY_SHARE: Final = 0.42


def start_early(path: str, load: Callable[[], Family],
                number_tags: tuple[bytes, ...] | None = None) -> Started | None:
    """Workers for a large plain file (:data:`~solver.games.fast.PARALLEL_FROM`),
    forked before the family is loaded: each counts its games read in bulk
    by their kept tag lines, and this process reads those keys after its own
    games (see :meth:`Stats.absorb`); a worker that meets a game to read game
    by game calls ``load`` and reads its range again as this process does.
    None when the file is read in this process alone (small, compressed,
    standard input or not a regular file; one that cannot be opened is told
    of when it is read)."""
    import os
    import stat

    from solver.errors import Chess960Error
    from solver.games.fast import PARALLEL_FROM, start_workers
    from solver.games.inputs import Input
    from solver.processes import can_fork, cores

    workers = min(cores(), 8)
    if path == "-" or workers < 2 or not can_fork():
        return None
    try:  # (a named pipe is not opened twice)
        found = os.stat(path)
        if not stat.S_ISREG(found.st_mode) or found.st_size < PARALLEL_FROM:
            return None
        source = Input(path)
    except (OSError, Chess960Error):
        return None
    try:
        if source.compression is not None or source.size is None:
            return None
        share = EARLY_SHARE * 2 / workers
        return start_workers(Stats(load, number_tags, deferred=True), path, source.size,
                             workers, share)
    finally:
        source.close()


#: The most distinct keys a deferred tally keeps (more: the range is read again
#: with the family, each process identifying its own starts, as a file of many
#: distinct starts asks; a Chess960 file has up to 11,520: 960 starts, two or
#: three castling notations, four results).
DEFERRED_KEYS: Final = 1 << 14


class _NeedsFamilyError(Exception):
    """A deferred tally met what it cannot read without its family."""


def score(row: list[int]) -> float | None:
    """White's score over the finished games (None when there is none)."""
    finished = row[0] + row[1] + row[2]
    return None if not finished else (row[0] + row[1] / 2) / finished


class Stats:
    """Results tallied per start position over any number of inputs.

    ``report(number, message)`` is told of each game skipped (its number in
    its input); the caller says which input.

    ``family``: the family, or a function that loads it when it is first
    needed. ``deferred``: see :attr:`deferred` (a worker's tally, forked
    before the family was loaded: :func:`start_early`).
    """

    def __init__(self, family: Family | Callable[[], Family],
                 number_tags: tuple[bytes, ...] | None = None, *, deferred: bool = False) -> None:
        self._family: Family | None = None
        self._load: Callable[[], Family] | None = None
        if callable(family):
            self._load = family
        else:
            self._family = family
        #: Whether the games a range holds (:meth:`add_range`) read in bulk are
        #: kept unread, as their keys, for another tally to read (:meth:`shared`,
        #: :meth:`absorb`), until a game is to be read game by game (then the
        #: range is read again, the family loaded).
        self.deferred = deferred
        self.number_tags = NUMBER_TAGS if number_tags is None else number_tags
        self._starts: Starts | None = None
        self.rows: dict[int, list[int]] = {}
        self.outside = [0, 0, 0, 0]
        self.skipped = 0
        self.games = 0
        self.notes = Notes()
        self._keys: Counter[Key] = Counter()  # bulk-counted games per key (kept tag lines)
        self._good: set[Key] = set()  # keys known to have a result
        self._shapes: tuple[tuple[bytes, ...], ...] = ()  # tag names of headers met often
        self._watch: list[Key] = []  # noted keys whose notes still want game numbers
        self._keys_read: dict[Key, tuple[int | None, Start]] = {}  # see _read
        self._starts_read: dict[Key, Start] = {}  # by the kept lines but Result's
        # deferred: per window, the games and the keys read before it and its
        # pattern's arguments (see _absorb_keys)
        self._patterns: list[tuple[int, int, tuple[Any, ...]]] = []
        self._range = ("", 0, 0)

    @property
    def family(self) -> Family:
        """The family (loaded now if it was not: see :attr:`deferred`)."""
        if self._family is None:
            assert self._load is not None
            self._family = self._load()
        return self._family

    @property
    def starts(self) -> Starts:
        """How a game's header is read as a start of the family."""
        if self._starts is None:
            self._starts = Starts(self.family, self.number_tags)
        return self._starts

    def reset(self) -> None:
        """Forget every count (a worker starts from nothing)."""
        self.rows = {}
        self.outside = [0, 0, 0, 0]
        self.skipped = self.games = 0
        self.notes = Notes()
        self._keys = Counter()
        self._watch = []
        self._patterns = []

    def shared(self) -> tuple[Any, ...]:
        """What a worker sends of its tally, as :meth:`absorb` takes it."""
        deferred = None
        if self.deferred:
            deferred = self._keys, self._patterns, self._range
        return self.rows, self.outside, self.games, self.skipped, self.notes, deferred

    def absorb(self, rows: dict[int, list[int]], outside: list[int], games: int,
               skipped: int, notes: Notes | None = None, deferred: Any = None,
               offset: int = 0) -> None:
        """Add another tally's counts (a worker's, its games numbered after
        ``offset``) to this one's; ``deferred``: the keys of a deferred
        tally's games (see :meth:`shared`), read here."""
        if notes is not None:
            self.notes.absorb(notes, offset)
        for number, row in rows.items():
            for result, n in enumerate(row):
                if n:
                    self._count(number, result, n)
        for result, n in enumerate(outside):
            self.outside[result] += n
        self.games += games
        self.skipped += skipped
        if deferred is not None:
            keys, patterns, span = deferred
            self._absorb_keys(keys, patterns, span, offset)

    def _absorb_keys(self, keys: Counter[Key], patterns: list[tuple[int, int, tuple[Any, ...]]],
                     span: tuple[str, int, int], offset: int) -> None:
        """Read a deferred tally's keys (its games numbered after ``offset``).
        The first numbers of the notes that still want them (a repaired start,
        why a game is not in the family) are found by reading its range again
        in bulk, numbered, from the window where the first of their keys was
        met (the keys come in the order they were met)."""
        import bisect

        from solver.games.fast import numbered_windows, pattern

        notes = self.notes
        wanted: dict[Key, str] = {}
        first = self._count_keys(keys, wanted)
        if wanted:
            path, start, end = span
            left = sum(keys[key] for key in wanted)
            window = bisect.bisect_right([known for _, known, _ in patterns], first) - 1
            compiled = [(read, pattern(self.number_tags, *args)) for read, _, args in patterns]
            for number, key in numbered_windows(path, start, end, compiled, window):
                note = wanted.get(key)
                if note is None:
                    continue
                if notes.wants(note):
                    notes.add(note, path, offset + number, 0)
                left -= 1
                if not left or not any(notes.wants(n) for n in wanted.values()):
                    break

    def add_file(self, path: str, size: int | None, report: SkipReport | None = None,
                 pieces: Iterator[bytes] | None = None, started: Started | None = None) -> int:
        """Tally a plain file, mapped a window at a time: in worker processes,
        one per core, when it is large (:data:`~solver.games.fast.PARALLEL_FROM`;
        ``started``: the workers already forked for it, see :func:`start_early`);
        as :meth:`add` does with its ``pieces`` when its size is not known."""
        from solver.games.fast import PARALLEL_FROM, in_workers
        from solver.processes import can_fork, cores

        if started is not None and started.claim(path, size):
            read = in_workers(self, path, started.size, report, len(started.spans), started)
            self._settle()
            return read
        workers = min(cores(), 8)
        if size is not None and size >= PARALLEL_FROM and workers > 1 and can_fork():
            read = in_workers(self, path, size, report, workers)
            self._settle()
            return read
        if size:
            return self.add_range(path, 0, size, report)
        assert pieces is not None
        return self.add(pieces, path, report)

    def add_range(self, path: str, start: int, end: int, report: SkipReport | None = None) -> int:
        """Tally the games in bytes ``[start, end)`` of a plain file (``start``:
        0 or where a game starts); returns how many were read."""
        from solver.games.fast import read_range

        if self.deferred:
            self._range = (path, start, end)
            try:
                found: int = read_range(self, path, start, end, report)
                return found
            except _NeedsFamilyError:  # read again as a tally that has its family
                self.deferred = False
                self.reset()
                self._good = set()  # (taken as good without their notes read)
        read = read_range(self, path, start, end, report)
        self._settle()
        return read

    def compact(self) -> None:
        """What :func:`~solver.games.fast.in_workers` asks of a tally once this
        process has read its range: nothing more here (its keys are settled)."""

    def add(self, pieces: Iterator[bytes], path: str, report: SkipReport | None = None) -> int:
        """Tally the games in ``pieces`` (one input); returns how many were read
        (skipped ones included). Stretches of plainly written games are counted
        in bulk (:mod:`solver.games.fast`), the others game by game, alike."""
        from solver.games.fast import read_pieces

        self.deferred = False  # (only a range of a file is read deferred)
        read = read_pieces(self, pieces, path, report)
        self._settle()
        return read

    def add_region(self, buf: Any, start: int, end: int, path: str, report: SkipReport | None,
                   read: int) -> int:
        """Tally the games in ``buf[start:end]`` (``start``: where the input or a
        game starts; ``end``: where a game starts, or the input's end), numbered
        from ``read + 1``: in bulk up to a game not plainly written, which is
        read game by game with those up to the next game start after a blank line;
        then in bulk again. CRLF line ends are read without their CRs (a lone CR:
        game by game). Returns the number of the last game."""
        from solver.games.fast import SHAPES, bulk_into, next_start, pattern, shape_of, unread

        if len(self._shapes) < SHAPES:  # learnt from the first game of each region
            head = buf.find(b"\n\n", start, min(end, start + 8192))
            shape = shape_of(buf[start:head].replace(b"\r", b"")) if head > 0 else ()
            if shape and shape not in self._shapes:
                self._shapes += (shape,)
        comments, semicolons = buf.find(b"{", start, end) >= 0, buf.find(b";", start, end) >= 0
        regex = pattern(self.number_tags, self._shapes, comments, semicolons)
        if self.deferred:
            self._patterns.append((read, len(self._keys), (self._shapes, comments, semicolons)))
        keys = self._keys
        pos = start
        while pos < end:
            known = len(keys)
            watch = self._watch
            seen = [keys.get(key, 0) for key in watch]
            games, stop = bulk_into(keys, buf, pos, end, regex)
            changed = len(keys) > known or seen != [keys.get(key, 0) for key in watch]
            wanted = self._wanted() if changed else set()
            if wanted is None:  # all game by game
                unread(keys, buf, pos, end, regex)
                return self.careful(iter([buf[pos:end]]), path, report, read)
            if wanted:  # the numbers of noted games are wanted
                self._place(wanted, buf, (pos, end), regex, path, read)
            self._counted(games)
            read += games
            if stop >= end:
                break
            if self.deferred:  # (a CRLF stretch too: read again, see add_range)
                raise _NeedsFamilyError
            if buf.find(b"\r", stop, end) >= 0:  # CRLF: read without the CRs, or game by game
                text = buf[stop:end].replace(b"\r\n", b"\n")
                if b"\r" not in text:
                    known = len(keys)
                    games, at = bulk_into(keys, text, 0, len(text), regex)
                    if at == len(text) and (len(keys) == known or self._bulk_ok()):
                        self._counted(games)
                        return read + games
                    unread(keys, text, 0, len(text), regex)
                return self.careful(iter([buf[stop:end]]), path, report, read)
            pos = next_start(buf, min(stop + (1 << 16), end), end)
            read = self.careful(iter([buf[stop:pos]]), path, report, read)
        return read

    def _bulk_ok(self) -> bool:
        """Whether the keys counted in bulk may stay so (see :meth:`_wanted`)."""
        return self._wanted() == set()

    def _wanted(self) -> set[Key] | None:
        """The keys new to bulk counting whose note (a repaired start, none) lacks
        first game numbers, so that their games are read one by one; None when
        one has no ``Result`` line (its games are read one by one, the result
        their moves end in). When none is, they are all taken as good."""
        good = self._good
        new = self._keys.keys() - good
        if self.deferred:  # a result each
            if len(self._keys) > DEFERRED_KEYS:
                raise _NeedsFamilyError
            if any(self._result(key) is None for key in new):
                return None
            if len(good) >= MEMO:
                good.clear()
            good.update(new)
            return set()
        wanted: set[Key] = set()
        for key in new:
            result, (_, note) = self._read(key)
            if result is None:
                return None
            if note is not None and self.notes.wants(note):
                wanted.add(key)
        if not wanted:
            if len(good) >= MEMO:
                good.clear()
            good.update(new)
        return wanted

    def _place(self, wanted: set[Key], buf: Any, span: tuple[int, int], regex: Any, path: str,
               read: int) -> None:
        """Note the numbers of the first games of ``wanted`` keys just counted in
        bulk in ``buf[span[0]:span[1]]`` (numbered from ``read + 1``); their counts are
        noted when the keys are settled. The keys are then taken as good, but
        for those whose note still wants numbers (watched as they are counted)."""
        from solver.games.fast import numbered_keys

        notes = self.notes
        noted = {key: self._read(key)[1][1] for key in wanted}
        for number, key in numbered_keys(buf, *span, regex):
            note = noted.get(key)
            if note is not None and notes.wants(note):
                notes.add(note, path, read + number, 0)
                if not any(notes.wants(n) for n in noted.values() if n is not None):
                    break
        self._watch = [key for key, note in noted.items() if note is None or notes.wants(note)]
        good = self._good
        if len(good) >= MEMO:
            good.clear()
        good.update(self._keys.keys() - set(self._watch))

    def _read(self, key: Key) -> tuple[int | None, Start]:
        """The result (None: no ``Result`` line, or none of the four: read game
        by game) and the start of the games of a key counted in bulk (its kept
        tag lines, read as the careful reader reads a header), remembered."""
        found = self._keys_read.get(key)
        if found is None:  # the start read once for the keys of its games' results
            lines = tuple(itertools.filterfalse(_IS_RESULT, filter(None, key)))
            start = self._starts_read.get(lines)
            if start is None:
                header = header_of(lines)
                start = self.starts.start(header, tag(header, b"FEN"), tag(header, b"Variant"))
                if len(self._starts_read) >= MEMO:
                    self._starts_read.clear()
                self._starts_read[lines] = start
            found = self._result(key), start
            if len(self._keys_read) >= MEMO:
                self._keys_read.clear()
            self._keys_read[key] = found
        return found

    @staticmethod
    def _result(key: Key) -> int | None:
        """The result of a key's games: its first ``Result`` line's (a key holds
        those of the four results alone: see :func:`~solver.games.fast.pattern`),
        None when it has none."""
        return _RESULT_LINES.get(next(filter(_IS_RESULT, key), None))

    def _counted(self, games: int) -> None:
        self.games += games
        if len(self._keys) >= MEMO:
            self._settle()

    def careful(self, pieces: Iterator[bytes], path: str, report: SkipReport | None = None,
                offset: int = 0) -> int:
        """Tally the games in ``pieces`` one by one, numbered from ``offset + 1``;
        returns the number of the last one."""
        if self.deferred:  # (see add_range)
            raise _NeedsFamilyError
        starts = self.starts
        notes = self.notes
        read = offset
        for game in scan(pieces, path):
            if not game.number:
                continue
            number = read = offset + game.number
            if game.problem is not None:
                self.skipped += 1
                if report is not None:
                    report(number, game.problem)
                continue
            data, head = game.data, game.head
            header = data[game.start:head]
            result = result_of(data, header, head, game.end)
            if result is None:
                self.skipped += 1
                if report is not None:
                    value = (tag(header, b"Result") or b"").decode("utf-8", "replace")
                    report(number, f"result {value!r} is not 1-0, 0-1, 1/2-1/2 or *")
                continue
            self.games += 1
            found, note = starts.start(header)
            self._count(found, result)
            if note is not None:
                notes.add(note, path, number)
        return read

    def _count(self, found: int | None, result: int, times: int = 1) -> None:
        if found is None:
            self.outside[result] += times
            return
        row = self.rows.get(found)
        if row is None:
            row = self.rows[found] = [0, 0, 0, 0]
        row[result] += times

    def _settle(self) -> None:
        """Look up the keys counted in bulk so far and add their counts to the rows
        (a deferred tally keeps them: at most :data:`DEFERRED_KEYS`, see :meth:`_wanted`)."""
        if self.deferred:
            return
        self._count_keys(self._keys)
        self._keys.clear()

    def _count_keys(self, keys: Counter[Key], wanting: dict[Key, str] | None = None) -> int:
        """Add the games of keys counted in bulk to the rows and notes (each key
        read as the careful reader reads a header). ``wanting``: given the keys
        whose notes still want first game numbers; returns the place of the
        first of them in ``keys`` (``len(keys)``: none)."""
        notes, read, count = self.notes, self._read, self._count
        first = len(keys)
        for index, (key, times) in enumerate(keys.items()):
            result, (found, note) = read(key)
            assert result is not None  # (a key without one is read game by game)
            count(found, result, times)
            if note is not None:
                if wanting is not None and notes.wants(note):
                    wanting[key] = note
                    first = min(first, index)
                notes.add(note, times=times)
        return first

    # -- the report -------------------------------------------------------------

    def table(self) -> Iterator[tuple[str, str, list[int]]]:
        """``(id, position, counts)`` rows: each position, the family, not in family."""
        from solver.games.labels import label

        family = self.family
        total = [0, 0, 0, 0]
        for number in sorted(self.rows):
            row = self.rows[number]
            for i, n in enumerate(row):
                total[i] += n
            yield str(number), label(family, number), row
        yield "", family.name, total
        yield "", "not in family", self.outside

    def text(self) -> Iterator[str]:
        """The table as aligned text lines (the notes: :attr:`notes`)."""
        rows = [(i, name, [str(sum(r)), *map(str, r), _percent(score(r))])
                for i, name, r in self.table()]
        id_width = max([2, *(len(i) for i, _, _ in rows)])
        name_width = max([8, *(len(n) for i, n, _ in rows if i)])
        widths = [max(len(h), *(len(c[k]) for _, _, c in rows)) for k, h in enumerate(COLUMNS)]
        head = f"{'id':>{id_width}}  {'position':<{name_width}}"
        yield "  ".join([head, *(h.rjust(w) for h, w in zip(COLUMNS, widths, strict=True))])
        for number, name, cells in rows:
            first = (f"{number:>{id_width}}  {name:<{name_width}}" if number else
                     f"{name:<{id_width + 2 + name_width}}")
            yield "  ".join([first, *(c.rjust(w) for c, w in zip(cells, widths, strict=True))])

    def records(self) -> Iterator[dict[str, object]]:
        """The rows as JSON/CSV records."""
        for number, name, row in self.table():
            shown = score(row)
            yield {"id": int(number) if number else None, "position": name,
                   "games": sum(row), "white_wins": row[0], "draws": row[1],
                   "black_wins": row[2], "unfinished": row[3],
                   "white_score": None if shown is None else round(shown, 4)}

    def csv(self) -> str:
        import csv
        import io

        rows = [FIELDS, *(["" if v is None else v for v in record.values()]
                          for record in self.records())]
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rows)  # (in one call)
        return out.getvalue()

    def json(self) -> str:
        import json

        records = list(self.records())
        document = {"family": self.family.name, "games": self.games, "skipped": self.skipped,
                    "positions": records[:-2], "total": records[-2],
                    "not_in_family": records[-1], **self.notes.records()}
        return json.dumps(document, indent=1) + "\n"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"
