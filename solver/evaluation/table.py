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
order; an ID may not come twice.

>>> t = read_text("id,fen,engine,eval\\n80,x,Stockfish 17.1,0.4\\n", "t.csv")
>>> t.rows[80].pawns, t.rows[80].engine
(0.4, 'Stockfish 17.1')
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from solver.errors import Chess960Error, EvalTableError, quote

if TYPE_CHECKING:
    from solver.family import Family

#: The table's columns, in the order they are written.
COLUMNS: Final = ("id", "fen", "engine", "limit", "depth", "nodes", "time", "eval", "mate",
                  "wins", "draws", "losses")

#: The largest table file read (a whole family of 921,600 rows fits).
MAX_BYTES: Final = 256 << 20


@dataclass(frozen=True)
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
    rows: dict[int, Evaluation] = field(default_factory=dict)

    def engines(self) -> list[str]:
        """The engines named in the table, most rows first.

        >>> EvalTable("t", "t.csv", {1: Evaluation(1, engine="E 1")}).engines()
        ['E 1']
        """
        counts: dict[str, int] = {}
        for row in self.rows.values():
            counts[row.engine] = counts.get(row.engine, 0) + 1
        return sorted(counts, key=lambda e: -counts[e])

    def limits(self) -> list[str]:
        """The search limits named in the table, most rows first."""
        counts: dict[str, int] = {}
        for row in self.rows.values():
            if row.limit:
                counts[row.limit] = counts.get(row.limit, 0) + 1
        return sorted(counts, key=lambda e: -counts[e])


def _number(kind: type[int] | type[float], text: str, column: str, path: str, line: int
            ) -> int | float | None:
    text = text.strip()
    if not text:
        return None
    try:
        value = kind(text)
    except ValueError:
        raise EvalTableError(path, line, f"{column} {quote(text)} is not a number") from None
    if not math.isfinite(value):
        raise EvalTableError(path, line, f"{column} {quote(text)} is not a number")
    return value


def read_text(text: str, path: str, name: str | None = None) -> EvalTable:
    """The table in ``text`` (the contents of the file ``path``).

    Raises :class:`~solver.errors.EvalTableError` naming the line of a row
    that cannot be read (no ``id`` or ``eval`` column, a value that is not a
    number, an ID twice, a row with neither eval nor mate).
    """
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    missing = [c for c in ("id", "eval") if c not in header]
    if missing:
        raise EvalTableError(path, 1, f"no {' or '.join(missing)} column (the header is "
                                      f"{quote(','.join(header))}; see `chess960 eval --help`)")
    table = EvalTable(name if name is not None else _stem(path), path)
    for row in reader:
        line = reader.line_num
        if None in row or any(v is None for v in row.values()):
            raise EvalTableError(path, line, "the row has not as many fields as the header")
        got = {c: (row.get(c) or "") for c in COLUMNS}
        number = _number(int, got["id"], "id", path, line)
        if number is None or int(number) < 0:
            raise EvalTableError(path, line, f"id {quote(got['id'])} is not a position ID")
        number = int(number)
        if number in table.rows:
            raise EvalTableError(path, line, f"id {number} comes twice")
        pawns = _number(float, got["eval"], "eval", path, line)
        mate = _number(int, got["mate"], "mate", path, line)
        if pawns is None and mate is None:
            raise EvalTableError(path, line, f"id {number} has neither eval nor mate")

        def count(column: str, line: int = line, got: dict[str, str] = got) -> int | None:
            value = _number(int, got[column], column, path, line)
            return None if value is None else int(value)

        time = _number(float, got["time"], "time", path, line)
        table.rows[number] = Evaluation(
            number, got["fen"].strip(), got["engine"].strip(), got["limit"].strip(),
            count("depth"), count("nodes"), None if time is None else float(time),
            None if pawns is None else float(pawns), None if mate is None else int(mate),
            count("wins"), count("draws"), count("losses"))
    return table


def read_table(path: str, name: str | None = None) -> EvalTable:
    """The table in the file ``path`` (see :func:`read_text`); a file that cannot
    be read is an :class:`~solver.errors.EvalTableError` too."""
    try:
        regular_file(path)
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise EvalTableError(path, 0, (exc.strerror or str(exc)).lower()) from None
    if len(data) > MAX_BYTES:
        raise EvalTableError(path, 0, f"is over {MAX_BYTES >> 20} MiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise EvalTableError(path, 0, "is not UTF-8 text") from None
    return read_text(text, path, name)


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
