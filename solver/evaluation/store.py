"""Evaluation tables of any family's size: a SQLite file (the standard
library's :mod:`sqlite3`) holding the same rows as the CSV format
(:mod:`solver.evaluation.table`), keyed by ID, with the table's set-up.

A CSV table is read whole (as a stream, bounded); a stored table is looked up
one ID at a time, so that showing a position of a 921,600-row DFRC table, or
resuming one with a single ID left, costs milliseconds and little memory.
``chess960 eval --engine ... -o T.sqlite`` writes one (any ``-o`` ending in
``.sqlite``, ``.sqlite3`` or ``.db``); ``chess960 eval merge T.csv -o T.sqlite``
makes one from a CSV table, and ``chess960 eval merge T.sqlite -o T.csv``
exports one. A file is told a stored table by its first bytes, whatever its name.

Two tables of SQL:

* ``rows``: one row a position, the CSV columns (``limit`` as ``search``),
  ``id`` the primary key;
* ``setup``: ``key``, ``value`` pairs: ``family``, ``count`` and ``fens`` (the
  first, middle and last positions' FENs, so that a table of another family
  or numbering is refused without reading its rows), ``engine`` and ``limit``
  when one run or one merge made it, ``shard`` (``K/N``) when it holds one shard.

Rows are written in transactions (:class:`StoreWriter`): a run stopped at any
point leaves the rows committed before it, never half a row.

>>> import os, tempfile
>>> from solver.family import Family
>>> from solver.evaluation.table import Evaluation
>>> path = os.path.join(tempfile.mkdtemp(), "t.sqlite")
>>> with StoreWriter(path, Family.load("chess960")) as writer:
...     writer.add(Evaluation(80, engine="E 1", limit="nodes 9", pawns=0.4))
>>> table = read_store(path)
>>> table.rows[80].pawns, len(table.rows), 81 in table.rows
(0.4, 1, False)
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
from typing import TYPE_CHECKING, Any, Final

from solver.errors import EvalTableError, OutputFileError, quote
from solver.evaluation.table import COLUMNS, EvalTable, Evaluation, read_table, regular_file

if TYPE_CHECKING:
    from solver.family import Family

#: The first bytes of every SQLite 3 file.
MAGIC: Final = b"SQLite format 3\x00"

#: The endings of an output file that is written as a stored table.
ENDINGS: Final = (".sqlite", ".sqlite3", ".db")

#: The SQL names of the columns (``limit`` is an SQL word).
_SQL: Final = tuple("search" if c == "limit" else c for c in COLUMNS)

#: Adds a row (a row for an ID already there is left as it was).
_INSERT: Final = f"INSERT OR IGNORE INTO rows VALUES ({', '.join('?' * len(COLUMNS))})"

#: The IDs below which a stretch with a gap is read ID by ID, not halved.
GAP_BLOCK: Final = 4096

#: The longest a writer keeps rows before committing them (seconds).
COMMIT_EVERY: Final = 1.0


def wants_store(path: str) -> bool:
    """Whether an output file named ``path`` is written as a stored table.

    >>> wants_store("dfrc.sqlite"), wants_store("sf.csv")
    (True, False)
    """
    return path.lower().endswith(ENDINGS)


def is_store(path: str) -> bool:
    """Whether the file at ``path`` is a SQLite file (by its first bytes)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def open_table(path: str, name: str | None = None, count: int | None = None) -> EvalTable:
    """The table in the file ``path``: a stored table (looked up by ID) or a CSV
    table (read whole, :func:`~solver.evaluation.table.read_table`)."""
    if regular_file(path) and is_store(path):
        return read_store(path, name, count)
    return read_table(path, name, count)


class StoredRows(Mapping[int, Evaluation]):
    """A stored table's rows, looked up in the file as they are asked for."""

    def __init__(self, connection: sqlite3.Connection, path: str,
                 setup: dict[str, str] | None = None) -> None:
        self._db = connection
        self._path = path
        self._count: int | None = None
        #: What the table records of how it was made.
        self.setup = setup or {}

    def _row(self, values: tuple[Any, ...]) -> Evaluation:
        return _evaluation(values, self._path)

    def __getitem__(self, number: object) -> Evaluation:
        if not isinstance(number, int):
            raise KeyError(number)
        found = self._db.execute(f"SELECT {', '.join(_SQL)} FROM rows WHERE id = ?",
                                 (number,)).fetchone()
        if found is None:
            raise KeyError(number)
        return self._row(found)

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and self._db.execute(
            "SELECT 1 FROM rows WHERE id = ?", (number,)).fetchone() is not None

    def __len__(self) -> int:
        if self._count is None:
            self._count = int(self._db.execute("SELECT count(*) FROM rows").fetchone()[0])
        return self._count

    def __iter__(self) -> Iterator[int]:
        return (number for (number,) in self._db.execute("SELECT id FROM rows ORDER BY id"))

    def ordered(self) -> Iterator[Evaluation]:
        """Every row, in ID order, read as it goes."""
        cursor = self._db.execute(f"SELECT {', '.join(_SQL)} FROM rows ORDER BY id")
        return (self._row(values) for values in cursor)

    def inside(self, low: float, high: float) -> set[int]:
        """The IDs whose eval lies from ``low`` to ``high`` pawns."""
        return {number for (number,) in self._db.execute(
            "SELECT id FROM rows WHERE eval BETWEEN ? AND ?", (low, high))}

    def values_of(self, column: str) -> list[str]:
        """The distinct values of the text ``column`` (``engine``, ``limit``), most
        rows first: the one the table's set-up records (a writer adds no row with
        another), else read from the rows."""
        recorded = self.setup.get(column)
        if recorded is not None:
            return [recorded]
        sql = "search" if column == "limit" else column
        assert sql in ("engine", "search")
        return [value for (value, _) in self._db.execute(
            f"SELECT {sql}, count(*) AS n FROM rows GROUP BY {sql} ORDER BY n DESC")]


#: The :class:`~solver.evaluation.table.Evaluation` attribute of each column
#: (a column added to the format is stored and read with no change here).
_ATTRIBUTES: Final = tuple({"eval": "pawns"}.get(c, c) for c in COLUMNS)

#: The text columns; the others hold a number or nothing.
_TEXTS: Final = frozenset({"fen", "engine", "limit"})

#: The columns holding a real number; the other numbers are integers.
_REALS: Final = frozenset({"time", "pawns"})


def _evaluation(values: tuple[Any, ...], path: str) -> Evaluation:
    """A row as SQLite gives it, checked (a file edited by hand may hold anything)."""
    given = dict(zip(_ATTRIBUTES, values, strict=True))
    for name, value in given.items():
        if name in _TEXTS:
            wrong = type(value) is not str
        else:
            wrong = value is not None and (type(value) not in (int, float) if name in _REALS
                                           else type(value) is not int)
        if wrong or (name == "id" and value is None):
            raise EvalTableError(path, 0, f"the row of id {given['id']!r} is not a table row "
                                          f"({'eval' if name == 'pawns' else name} "
                                          f"{value!r})")
        if name in _REALS and value is not None:
            given[name] = float(value)
    if given["pawns"] is None and given["mate"] is None:
        raise EvalTableError(path, 0, f"the row of id {given['id']!r} has neither eval nor "
                                      "mate")
    return Evaluation(**given)


def _connect(path: str, write: bool = False) -> sqlite3.Connection:
    from urllib.parse import quote as url_quote

    # read-write when the file allows it, even to read: the first reader after a
    # writer was killed rolls its last transaction back (read-only, SQLite cannot)
    mode = "rw" if write or os.access(path, os.W_OK) else "ro"
    try:
        db = sqlite3.connect(f"file:{url_quote(os.path.abspath(path))}?mode={mode}",
                             uri=True, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA query_only = " + ("0" if write else "1"))
    except sqlite3.Error as exc:
        raise EvalTableError(path, 0, f"cannot be opened as SQLite ({exc})") from None
    return db


def _setup(db: sqlite3.Connection, path: str) -> dict[str, str]:
    try:
        pairs = db.execute("SELECT key, value FROM setup").fetchall()
        db.execute(f"SELECT {', '.join(_SQL)} FROM rows LIMIT 0").fetchall()
    except sqlite3.Error:
        raise EvalTableError(path, 0, "is a SQLite file but not an evaluation table "
                                      "(`chess960 eval` writes them with tables rows "
                                      "and setup)") from None
    return {str(k): str(v) for k, v in pairs}


def read_store(path: str, name: str | None = None, count: int | None = None) -> EvalTable:
    """The stored table at ``path``, its rows read as asked for; ``count``: the
    family's size, checked against the one recorded."""
    from solver.evaluation.table import _stem

    db = _connect(path)
    setup = _setup(db, path)
    if count is not None and setup.get("count") not in (None, str(count)):
        raise EvalTableError(path, 0, f"is a table of {setup.get('family', '?')} "
                                      f"({setup['count']} positions), not of one of "
                                      f"{count:,} positions")
    return EvalTable(name if name is not None else _stem(path), path,
                     StoredRows(db, path, setup), setup)


def fens(family: Family) -> str:
    """The FENs of ``family``'s first, middle and last positions, which tell a
    family and its numbering apart."""
    from solver.notation.fen import position_fen

    count = family.count
    return " | ".join(position_fen(family.position(n)) for n in (0, count // 2, count - 1))


def verify_store(table: EvalTable, family: Family) -> None:
    """Check that a stored table is ``family``'s in its numbering (from its set-up).

    Raises :class:`~solver.errors.EvalTableError` when it is not.
    """
    setup = table.setup
    if setup.get("family") == family.name and setup.get("fens") == fens(family):
        return
    raise EvalTableError(table.path, 0, f"is a table of {quote(setup.get('family', '?'))}, "
                                        f"not of {family.name} in its numbering (is the "
                                        "table another family's, or another numbering's?)")


def create(path: str, family: Family, setup: Mapping[str, str]) -> None:
    """Make the empty file ``path`` (or an empty one there) a stored table of ``family``."""
    db = _connect(path, write=True)
    try:
        columns = ", ".join(f"{c} {'INTEGER PRIMARY KEY' if c == 'id' else ''}".strip()
                            for c in _SQL)
        db.execute("BEGIN")
        db.execute(f"CREATE TABLE rows ({columns})")
        db.execute("CREATE TABLE setup (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.executemany("INSERT INTO setup VALUES (?, ?)",
                       [("family", family.name), ("count", str(family.count)),
                        ("fens", fens(family)), *setup.items()])
        db.execute("COMMIT")
    finally:
        db.close()


class StoreWriter:
    """Rows added to a stored table (made if the file is empty), committed at least
    every :data:`COMMIT_EVERY` seconds and when closed: a row is in the table
    whole or not at all. ``setup`` entries are recorded when the table is made,
    and must agree with those recorded when it exists."""

    def __init__(self, path: str, family: Family, setup: Mapping[str, str] | None = None
                 ) -> None:
        self.path = path
        wanted = dict(setup or {})
        try:
            empty = os.path.getsize(path) == 0 if os.path.exists(path) else True
            if empty:
                with open(path, "ab"):
                    pass
                create(path, family, wanted)
        except (OSError, sqlite3.Error) as exc:
            raise OutputFileError(path, str(getattr(exc, "strerror", None) or exc).lower()
                                  ) from None
        if not is_store(path):
            raise EvalTableError(path, 0, "is not a stored table (give another -o FILE)")
        table = read_store(path)
        verify_store(table, family)
        for key, value in wanted.items():
            had = table.setup.get(key)
            if had is not None and had != value:
                raise EvalTableError(path, 0, f"was made with {key} {quote(had)}, not "
                                              f"{quote(value)}: give another -o FILE")
        self.rows = table.rows
        self._setup = table.setup
        self._db = _connect(path, write=True)
        self._pending = 0
        self._since = time.monotonic()
        self._db.execute("BEGIN")

    def gaps(self, count: int) -> list[range]:
        """The IDs below ``count`` not in the table, as sorted disjoint ranges
        (found by SQLite: a table of any size with few gaps costs little).

        >>> import os, tempfile
        >>> from solver.family import Family
        >>> path = os.path.join(tempfile.mkdtemp(), "t.sqlite")
        >>> with StoreWriter(path, Family.load("chess960")) as writer:
        ...     for n in (2, 3, 7):
        ...         writer.add(Evaluation(n, pawns=0.0))
        ...     writer.gaps(960)
        [range(0, 2), range(4, 7), range(8, 960)]
        """
        db = self._db
        found: list[range] = []

        def ids(low: int, high: int) -> list[int]:
            return [n for (n,) in db.execute(
                "SELECT id FROM rows WHERE id >= ? AND id < ? ORDER BY id", (low, high))]

        def walk(low: int, high: int, have: int) -> None:  # ``have`` IDs in low..high-1
            if have == high - low:
                return
            if have == 0 or high - low <= GAP_BLOCK:
                at = low
                for number in [*(ids(low, high) if have else []), high]:
                    if number > at:
                        found.append(range(at, number))
                    at = number + 1
                return
            middle = (low + high) // 2
            left = db.execute("SELECT count(*) FROM rows WHERE id >= ? AND id < ?",
                              (low, middle)).fetchone()[0]
            walk(low, middle, left)
            walk(middle, high, have - left)

        total = db.execute("SELECT count(*) FROM rows").fetchone()[0]
        beyond = db.execute("SELECT count(*) FROM rows WHERE id >= ?", (count,)).fetchone()[0]
        walk(0, count, total - beyond)
        joined: list[range] = []
        for gap in found:  # two halves' gaps that meet are one
            if joined and joined[-1].stop == gap.start:
                joined[-1] = range(joined[-1].start, gap.stop)
            else:
                joined.append(gap)
        return joined

    def _values(self, row: Evaluation) -> tuple[Any, ...]:
        """``row``'s values in the columns' order, checked against the set-up."""
        for key, value in (("engine", row.engine), ("limit", row.limit)):
            had = self._setup.get(key)
            if had is not None and had != value:
                raise EvalTableError(self.path, 0, f"records {key} {quote(had)}: a row of id "
                                                   f"{row.id} with {quote(value)} is not added")
        return tuple(getattr(row, name) for name in _ATTRIBUTES)

    def add(self, row: Evaluation) -> None:
        """Add ``row`` (a row for an ID already there is left as it was).

        Raises :class:`~solver.errors.EvalTableError` for a row naming another
        engine or limit than the table records.
        """
        self._db.execute(_INSERT, self._values(row))
        self._pending += 1
        if time.monotonic() - self._since >= COMMIT_EVERY:
            self.commit()

    def add_many(self, rows: Iterable[Evaluation]) -> int:
        """Add ``rows`` (as :meth:`add`, in batches); returns how many were given."""
        count = 0
        given = iter(rows)
        while batch := [self._values(row) for row in islice(given, 8192)]:
            self._db.executemany(_INSERT, batch)
            count += len(batch)
            self.commit()
        return count

    def commit(self) -> None:
        """Commit the rows added so far."""
        self._db.execute("COMMIT")
        self._db.execute("BEGIN")
        self._pending = 0
        self._since = time.monotonic()

    def close(self) -> None:
        """Commit and close."""
        try:
            if self._db.in_transaction:
                self._db.execute("COMMIT")
        finally:
            self._db.close()

    def __enter__(self) -> StoreWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
