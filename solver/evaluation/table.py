"""The evaluation table format, shared by the shipped tables and those
``chess960 eval --engine`` writes: a CSV file, one row a position, with the header

``id,fen,engine,limit,depth,nodes,time,eval,mate,wins,draws,losses``

* ``id``: the position's ID in the family's numbering (Chess960: Scharnagl's SP-ID);
* ``fen``: its start FEN as the family writes it (X-FEN castling), so that a
  table made for another family or numbering is refused (:func:`verify`);
* ``engine``: the engine's name and version as it gives them (``id name``);
* ``limit``: the search limit asked for (``nodes 2000``, ``depth 25``), empty
  when the source does not say per row;
* ``depth``, ``nodes``, ``time``: what the search reached (seconds), where given;
* ``eval``: pawns from White's point of view (centipawns / 100), empty for a mate;
* ``mate``: moves to mate, positive when White mates, else empty;
* ``wins``, ``draws``, ``losses``: per mille from White's point of view, where given.

Only ``id`` and ``eval`` (or ``mate``) must be filled; rows may come in any
order; an ID may come twice only with the same eval (or mate), as two runs
into one table may leave it. Lines may end in LF, CRLF or CR. A table is read
as a stream, and bounded: at most 256 MiB (:data:`MAX_BYTES`), 1,048,576 rows
(:data:`MAX_ROWS`), 256 KiB a line and 128 KiB a field.

>>> t = read_text("id,fen,engine,eval\\n80,x,Stockfish 17.1,0.4\\n", "t.csv")
>>> t.rows[80].pawns, t.rows[80].engine
(0.4, 'Stockfish 17.1')
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TextIO

from solver.errors import Chess960Error, EvalTableError, quote

if TYPE_CHECKING:
    from solver.family import Family

#: The table's columns, in the order they are written.
COLUMNS: Final = ("id", "fen", "engine", "limit", "depth", "nodes", "time", "eval", "mate",
                  "wins", "draws", "losses")

#: The largest table file read (a whole family of 921,600 rows fits).
MAX_BYTES: Final = 256 << 20

#: The most rows a table may have (a whole family of 921,600 positions fits).
MAX_ROWS: Final = 1 << 20

#: The longest line of a table read (characters); a field may have 128 KiB at
#: most (the csv module's limit).
MAX_LINE: Final = 256 << 10

#: The most digits an integer in a table may have (an int64 has 19).
MAX_DIGITS: Final = 18


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One position's figures in one table (``None``: not given)."""

    id: int
    fen: str = ""
    engine: str = ""
    limit: str = ""
    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    pawns: float | None = None
    mate: int | None = None
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None

    def row(self) -> dict[str, str]:
        """The row as the table writes it.

        >>> Evaluation(5, pawns=0.25, mate=None).row()["eval"]
        '0.25'
        """
        def text(value: object) -> str:
            return "" if value is None else str(value)

        return {"id": str(self.id), "fen": self.fen, "engine": self.engine,
                "limit": self.limit, "depth": text(self.depth), "nodes": text(self.nodes),
                "time": text(self.time), "eval": text(self.pawns), "mate": text(self.mate),
                "wins": text(self.wins), "draws": text(self.draws), "losses": text(self.losses)}

    def score(self) -> str:
        """The evaluation as shown: pawns with a sign, or ``#N`` / ``#-N`` for a mate.

        >>> Evaluation(0, pawns=0.4).score(), Evaluation(0, mate=-3).score()
        ('+0.40', '#-3')
        """
        if self.mate is not None:
            return f"#{self.mate}"
        return "" if self.pawns is None else f"{self.pawns:+.2f}"


@dataclass
class EvalTable:
    """One table: its ``name`` (a shipped source's, or the file's stem), where it
    was read from, and its rows by ID."""

    name: str
    path: str
    rows: Mapping[int, Evaluation] = field(default_factory=dict)
    #: What a stored table records of how it was made (:mod:`solver.evaluation.store`).
    setup: dict[str, str] = field(default_factory=dict)

    def _named(self, column: str) -> list[str]:
        """The values of the text ``column`` in the rows, most rows first."""
        stored = getattr(self.rows, "values_of", None)
        if stored is not None:
            return list(stored(column))
        counts: dict[str, int] = {}
        for row in self.rows.values():
            value = row.engine if column == "engine" else row.limit
            counts[value] = counts.get(value, 0) + 1
        return sorted(counts, key=lambda e: -counts[e])

    def engines(self) -> list[str]:
        """The engines named in the table, most rows first.

        >>> EvalTable("t", "t.csv", {1: Evaluation(1, engine="E 1")}).engines()
        ['E 1']
        """
        return self._named("engine")

    def limits(self) -> list[str]:
        """The search limits named in the table, most rows first."""
        return [limit for limit in self._named("limit") if limit]

    def inside(self, low: float, high: float) -> set[int]:
        """The IDs whose eval lies from ``low`` to ``high`` pawns (a mate never does).

        >>> EvalTable("t", "t.csv", {1: Evaluation(1, pawns=0.2)}).inside(-0.3, 0.3)
        {1}
        """
        stored = getattr(self.rows, "inside", None)
        if stored is not None:
            return set(stored(low, high))
        return {n for n, row in self.rows.items()
                if row.pawns is not None and low <= row.pawns <= high}

    def ordered(self) -> Iterator[Evaluation]:
        """The rows in ID order (a stored table's read as they go)."""
        stored = getattr(self.rows, "ordered", None)
        if stored is not None:
            return iter(stored())
        rows = self.rows
        return (rows[n] for n in sorted(rows))


def _number(kind: type[int] | type[float], text: str, column: str, path: str, line: int
            ) -> int | float | None:
    text = text.strip()
    if not text:
        return None
    if kind is int and len(text.lstrip("+-")) > MAX_DIGITS:
        raise EvalTableError(path, line, f"{column} {quote(text)} has over {MAX_DIGITS} digits")
    try:
        value = kind(text)
    except ValueError:
        raise EvalTableError(path, line, f"{column} {quote(text)} is not a number") from None
    if not math.isfinite(value):
        raise EvalTableError(path, line, f"{column} {quote(text)} is not a number")
    return value


def read_text(text: str, path: str, name: str | None = None) -> EvalTable:
    """The table in ``text`` (the contents of the file ``path``); see :func:`read_lines`."""
    return read_lines(io.StringIO(text, newline=""), path, name)


def _values(row: Evaluation) -> str:
    """A row's eval in words, for an ID given twice.

    >>> _values(Evaluation(3, pawns=0.4)), _values(Evaluation(3, mate=-2))
    ('eval 0.4', 'mate -2')
    """
    return f"mate {row.mate}" if row.mate is not None else f"eval {row.pawns!r}"


def _bounded(lines: Iterable[str], path: str) -> Iterator[str]:
    """``lines``, refusing one of over :data:`MAX_LINE` characters (before the csv
    module makes a row of it) and a file that is not UTF-8."""
    number = 0  # physical lines: a quoted field may span several
    try:
        for line in lines:
            number += 1
            if len(line) > MAX_LINE:
                raise EvalTableError(path, number, f"the line is over {MAX_LINE >> 10} KiB")
            yield line
    except UnicodeDecodeError:  # met a block ahead: the line is not known
        raise EvalTableError(path, 0, "is not UTF-8 text") from None


def _lines(handle: TextIO) -> Iterator[str]:
    """The lines of ``handle`` (any of LF, CRLF, CR ends them), none read whole
    past :data:`MAX_LINE` characters."""
    while line := handle.readline(MAX_LINE + 1):
        yield line


def read_lines(lines: Iterable[str], path: str, name: str | None = None,
               count: int | None = None) -> EvalTable:
    """The table in ``lines`` (of the file ``path``, read as they come), with at most
    :data:`MAX_ROWS` rows, and with IDs below ``count`` when given.

    Raises :class:`~solver.errors.EvalTableError` naming the line of a row
    that cannot be read (no ``id`` or ``eval`` column, a value that is not a
    number, a line or field too long, an ID twice with different evals, a row
    with neither eval nor mate). An ID twice with the same eval (or mate) is
    read once, its first row kept.
    """
    reader = csv.DictReader(_bounded(lines, path))
    try:
        header = reader.fieldnames or []
    except csv.Error as exc:
        raise EvalTableError(path, 1, _csv_reason(exc)) from None
    missing = [c for c in ("id", "eval") if c not in header]
    if missing:
        raise EvalTableError(path, 1, f"no {' or '.join(missing)} column (the header is "
                                      f"{quote(','.join(header))}; see `chess960 eval --help`)")
    found: dict[int, Evaluation] = {}
    table = EvalTable(name if name is not None else _stem(path), path, found)
    first: dict[int, int] = {}
    words: dict[str, str] = {}  # one string for the same engine, limit in every row
    rows = 0
    while True:
        try:
            row = next(reader, None)
        except csv.Error as exc:
            raise EvalTableError(path, reader.reader.line_num, _csv_reason(exc)) from None
        if row is None:
            return table
        line = reader.line_num
        rows += 1
        if rows > MAX_ROWS:
            raise EvalTableError(path, line, f"the table has over {MAX_ROWS:,} rows")
        evaluation = _evaluation(row, path, line, words)
        number = evaluation.id
        if count is not None and number >= count:
            raise EvalTableError(path, line, f"id {number} is out of range 0..{count - 1}")
        seen = found.get(number)
        if seen is None:
            found[number] = evaluation
            first[number] = line
        elif (seen.pawns, seen.mate) != (evaluation.pawns, evaluation.mate):
            raise EvalTableError(path, line, f"id {number} comes twice with different "
                                             f"values: {_values(seen)} (line {first[number]}) "
                                             f"and {_values(evaluation)}")


def _csv_reason(exc: csv.Error) -> str:
    """What the csv module found, in the table's words.

    >>> _csv_reason(csv.Error("field larger than field limit (131072)"))
    'a field is over 128 KiB'
    """
    text = str(exc)
    if "field limit" in text:
        return f"a field is over {csv.field_size_limit() >> 10} KiB"
    return f"cannot be read as CSV ({text})"


def _evaluation(row: dict[str | Any, str | Any], path: str, line: int,
                words: dict[str, str]) -> Evaluation:
    """One row of a table (``words``: the strings met so far, shared)."""
    if None in row or None in row.values():
        raise EvalTableError(path, line, "the row has not as many fields as the header")
    get = row.get
    got = [get(c) or "" for c in COLUMNS]
    number = _number(int, got[0], "id", path, line)
    if number is None or int(number) < 0:
        raise EvalTableError(path, line, f"id {quote(got[0])} is not a position ID")
    pawns = _number(float, got[7], "eval", path, line)
    mate = _number(int, got[8], "mate", path, line)
    if pawns is None and mate is None:
        raise EvalTableError(path, line, f"id {int(number)} has neither eval nor mate")
    # the counts (depth, nodes, wins, draws, losses) and the time, mostly empty
    counts = [None if not got[i] else _number(int, got[i], COLUMNS[i], path, line)
              for i in (4, 5, 9, 10, 11)]
    time = _number(float, got[6], "time", path, line) if got[6] else None
    engine, limit = got[2].strip(), got[3].strip()
    return Evaluation(
        int(number), got[1].strip(), words.setdefault(engine, engine),
        words.setdefault(limit, limit), _int(counts[0]), _int(counts[1]),
        None if time is None else float(time), None if pawns is None else float(pawns),
        None if mate is None else int(mate), _int(counts[2]), _int(counts[3]),
        _int(counts[4]))


def _int(value: int | float | None) -> int | None:
    return None if value is None else int(value)


def read_table(path: str, name: str | None = None, count: int | None = None) -> EvalTable:
    """The table in the file ``path`` (see :func:`read_lines`), read as a stream:
    a file over :data:`MAX_BYTES` is refused before it is read, and a file that
    cannot be read is an :class:`~solver.errors.EvalTableError` too."""
    try:
        regular_file(path)
        with open(path, encoding="utf-8-sig", newline="") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_BYTES:
                raise EvalTableError(path, 0, f"is over {MAX_BYTES >> 20} MiB")
            return read_lines(_lines(handle), path, name, count)
    except OSError as exc:
        raise EvalTableError(path, 0, (exc.strerror or str(exc)).lower()) from None


def regular_file(path: str, links: bool = True) -> bool:
    """Whether ``path`` exists, refusing anything but a regular file (a FIFO or a
    device would block or never end; with ``links`` false, a symbolic link too).

    Raises :class:`~solver.errors.EvalTableError` for such a path.
    """
    import stat

    try:
        mode = (os.stat if links else os.lstat)(path).st_mode
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(mode):
        what = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
        raise EvalTableError(path, 0, f"is {what}")
    return True


def visible(text: str) -> str:
    r"""``text`` with its control characters (an escape sequence, a line break)
    shown as Python writes them, so that a name from a table cannot drive the
    terminal.

    >>> print(visible("Fish\x1b[2J 1\tÉ"))
    Fish\x1b[2J 1\tÉ
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


def _stem(path: str) -> str:
    """A table's name from its file name.

    >>> _stem("/tmp/sf15-2000.csv")
    'sf15-2000'
    """
    base = os.path.basename(path)
    return base.rsplit(".", 1)[0] if "." in base.strip(".") else base


def verify(table: EvalTable, family: Family) -> None:
    """Check that every row of ``table`` is a position of ``family`` under its ID:
    the ID in range and, where the row gives a FEN, that FEN the position's (in
    either castling notation).

    Raises :class:`~solver.errors.EvalTableError` naming the first row that is not.
    """
    from solver.notation.fen import position_fen

    count = family.count
    for number, row in sorted(table.rows.items()):
        if number >= count:
            raise EvalTableError(table.path, 0, f"id {number} is out of range 0..{count - 1} "
                                                f"of {family.name}")
        if not row.fen:
            continue
        position = family.position(number)
        if row.fen == position_fen(position) or row.fen == position_fen(position, True):
            continue
        try:
            found = family.identify(row.fen).id
        except Chess960Error:
            found = None
        if found != number:
            what = "not a position" if found is None else f"position {found}"
            raise EvalTableError(table.path, 0, f"id {number}'s fen {quote(row.fen)} is {what} "
                                                f"of {family.name} (is the table another "
                                                f"family's, or another numbering's?)")


def csv_lines(rows: Iterable[Evaluation], header: bool) -> str:
    """Rows (and the header) as the table writes them.

    >>> print(csv_lines([Evaluation(3, "f", "E", "nodes 9", 2, 9, 0.1, 0.25)], True), end="")
    id,fen,engine,limit,depth,nodes,time,eval,mate,wins,draws,losses
    3,f,E,nodes 9,2,9,0.1,0.25,,,,
    """
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    if header:
        writer.writeheader()
    for row in rows:
        writer.writerow(row.row())
    return out.getvalue()
