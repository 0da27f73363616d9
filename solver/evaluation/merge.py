"""Tables of one engine set-up joined into one (``chess960 eval merge``), and
tables given together counted as one source when their set-ups agree.

A table's set-up is the engines and search limits its rows name (an engine's
name carries its version: ``Stockfish 17.1``); the family and its numbering
are checked for each table against the family given. Two tables join when
their set-ups are the same, and an ID in both must have the same eval (or
mate) in both: anything else is refused, naming the field or the ID and both
values. The rows are joined in ID order, each table read as it goes (a stored
table is never read whole).

>>> from solver.evaluation.table import EvalTable, Evaluation
>>> a = EvalTable("a", "a.csv", {1: Evaluation(1, engine="E", pawns=0.1)})
>>> b = EvalTable("b", "b.csv", {1: Evaluation(1, engine="E", pawns=0.1),
...                              2: Evaluation(2, engine="E", pawns=0.3)})
>>> [(t.name, sorted(t.rows)) for t in combine([a, b])]
[('a+b', [1, 2])]
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING

from solver.errors import EvalTableError, quote
from solver.evaluation.store import StoreWriter, open_table, verify_store, wants_store
from solver.evaluation.table import EvalTable, Evaluation, csv_lines, verify

if TYPE_CHECKING:
    from solver.family import Family


def check(table: EvalTable, family: Family) -> None:
    """Check ``table`` against ``family`` (a stored table by its recorded set-up,
    a CSV table row by row: :func:`~solver.evaluation.table.verify`)."""
    if table.setup:
        verify_store(table, family)
    else:
        verify(table, family)


def setup_of(table: EvalTable) -> dict[str, str]:
    """A table's set-up: its engines and its limits, in words.

    >>> from solver.evaluation.table import EvalTable, Evaluation
    >>> setup_of(EvalTable("a", "a.csv", {1: Evaluation(1, engine="E 1", limit="nodes 9",
    ...                                                 pawns=0.0)}))
    {'engine': 'E 1', 'limit': 'nodes 9'}
    """
    return {"engine": ", ".join(sorted(table.engines())),
            "limit": ", ".join(sorted(table.limits()))}


def _value(row: Evaluation) -> str:
    return f"mate {row.mate}" if row.mate is not None else f"eval {row.pawns!r}"


def merged(tables: Sequence[EvalTable]) -> Iterator[Evaluation]:
    """The rows of ``tables`` in ID order, an ID once (its first table's row).

    Raises :class:`~solver.errors.EvalTableError` at an ID with two values.
    """
    def stream(at: int) -> Iterator[tuple[int, int, Evaluation]]:
        return ((row.id, at, row) for row in tables[at].ordered())

    streams = [stream(at) for at in range(len(tables))]
    ordered = heapq.merge(*streams, key=lambda item: item[:2])
    for number, group in groupby(ordered, key=lambda item: item[0]):
        found = list(group)
        _, first, row = found[0]
        for _, at, other in found[1:]:
            if (other.pawns, other.mate) != (row.pawns, row.mate):
                raise EvalTableError(tables[at].path, 0, f"id {number} has {_value(other)}, "
                                     f"but {_value(row)} in {quote(tables[first].path)} "
                                     "(tables joined must agree)")
        yield row


class UnionRows(Mapping[int, Evaluation]):
    """The rows of tables of one set-up, as one table's."""

    def __init__(self, tables: Sequence[EvalTable]) -> None:
        self.tables = list(tables)
        self._count: int | None = None

    def __getitem__(self, number: object) -> Evaluation:
        if not isinstance(number, int):
            raise KeyError(number)
        found = [(t, t.rows[number]) for t in self.tables if number in t.rows]
        if not found:
            raise KeyError(number)
        return next(merged([EvalTable(t.name, t.path, {row.id: row}) for t, row in found]))

    def __iter__(self) -> Iterator[int]:
        return (row.id for row in merged(self.tables))

    def __len__(self) -> int:
        if self._count is None:
            self._count = sum(1 for _ in merged(self.tables))
        return self._count

    def ordered(self) -> Iterator[Evaluation]:
        """Every row, in ID order."""
        return merged(self.tables)

    def inside(self, low: float, high: float) -> set[int]:
        """The IDs whose eval lies from ``low`` to ``high`` pawns."""
        return {row.id for row in merged(self.tables)
                if row.pawns is not None and low <= row.pawns <= high}

    def values_of(self, column: str) -> list[str]:
        """The values of a text column, over the tables."""
        found: dict[str, None] = {}
        for table in self.tables:
            found.update(dict.fromkeys(table.engines() if column == "engine"
                                       else table.limits()))
        return list(found)


def agree(tables: Sequence[EvalTable]) -> None:
    """Check that ``tables`` have one set-up.

    Raises :class:`~solver.errors.EvalTableError` naming the first field that
    differs and both values.
    """
    first = tables[0]
    wanted = setup_of(first)
    for table in tables[1:]:
        for key, value in setup_of(table).items():
            if value != wanted[key]:
                raise EvalTableError(table.path, 0, f"{key} {quote(value or 'not named')} "
                                     f"differs from {quote(wanted[key] or 'not named')} in "
                                     f"{quote(first.path)} (tables joined must have one "
                                     "engine set-up)")


def combine(tables: Sequence[EvalTable]) -> list[EvalTable]:
    """``tables`` with those of one set-up joined, each group as one table named
    by its tables' names with ``+`` (in the order first given)."""
    groups: dict[tuple[str, ...], list[EvalTable]] = {}
    for table in tables:
        groups.setdefault(tuple(setup_of(table).values()), []).append(table)
    joined = []
    for group in groups.values():
        if len(group) == 1:
            joined.append(group[0])
            continue
        joined.append(EvalTable("+".join(t.name for t in group),
                                ", ".join(t.path for t in group), UnionRows(group)))
    return joined


@dataclass(frozen=True)
class Merged:
    """What a merge did: the tables read, the rows written, the set-up."""

    tables: int
    rows: int
    setup: dict[str, str]


def merge_tables(family: Family, paths: Sequence[str], out: str) -> Merged:
    """Join the tables at ``paths`` (CSV or stored, each of ``family``, one
    set-up) into ``out``: a stored table if it ends in ``.sqlite``, ``.sqlite3`` or
    ``.db``, else a CSV table in ID order; written beside it and moved into
    place whole, so that a merge stopped leaves ``out`` as it was."""
    tables = [open_table(p, count=family.count) for p in paths]
    for table in tables:
        check(table, family)
    agree(tables)
    named = {"engine": tables[0].engines(), "limit": tables[0].limits()}
    setup = {k: v[0] for k, v in named.items() if len(v) == 1 and v[0]}  # recorded if one
    from solver.files import replacing

    partial = os.path.join(os.path.dirname(out), f".{os.path.basename(out)}.merge")
    with replacing(out, partial):
        count = (_write_store(partial, family, tables, setup) if wants_store(out)
                 else _write_csv(partial, tables))
    return Merged(len(tables), count, setup)


def _write_store(path: str, family: Family, tables: Sequence[EvalTable],
                 setup: dict[str, str]) -> int:
    with StoreWriter(path, family, setup) as writer:
        return writer.add_many(merged(tables))


def _write_csv(path: str, tables: Sequence[EvalTable]) -> int:
    count = 0
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o644)
    with open(fd, "w", encoding="utf-8", newline="") as handle:
        handle.write(csv_lines([], header=True))
        batch: list[Evaluation] = []
        for row in merged(tables):
            batch.append(row)
            count += 1
            if len(batch) >= 4096:
                handle.write(csv_lines(batch, header=False))
                batch.clear()
        handle.write(csv_lines(batch, header=False))
        handle.flush()
        os.fsync(handle.fileno())
    return count
