"""Families given as lists: the ``only`` and ``one-of`` kinds of rule.

* ``only``: the rank is one of a list of ranks, written in the rule
  (``ranks``) or, for a long list, in a data file beside the rule file
  (``file``: one rank a line, ``#`` comments), which the rule file's size
  limit does not bound (the data file has its own, :data:`MAX_LIST_BYTES`);
* ``one-of``: some squares of the region hold one of a list of orders
  (MyShogi's wing shuffle, which reaches 11 of a wing's 24 orders).

Both reach the solver as data: a set of allowed rows over some squares,
tested on the placed files (:meth:`constrain`), counted square by square as
the set of listed rows the placed squares still match (:class:`_Listed`).

Defined apart from :mod:`solver.kinds.vocabulary`; the kinds join the
registry when this module is imported (:mod:`solver.ruleset.reader` does).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from solver.board.geometry import EXTRA_NAMES, PIECE_NAMES, Region, square_name
from solver.errors import Violation, quote
from solver.kinds.base import Placement, Rule, State, Tracker
from solver.kinds.holds import read_squares
from solver.kinds.model import Model
from solver.syntax.args import MAX_ITEMS, Context, shown, type_name

__all__ = ["MAX_LISTED", "MAX_LIST_BYTES", "OneOf", "Only"]

#: The largest data file an ``only`` rule reads (bytes): 100,000 ranks of 16 squares.
MAX_LIST_BYTES: Final = 2_000_000
#: The most ranks (or orders) one listing rule may list.
MAX_LISTED: Final = 100_000


class _Listed(Tracker):
    """The listed rows (a bit each) that the squares placed so far still match."""

    def __init__(self, indices: Sequence[int], rows: Sequence[str]) -> None:
        self.all = (1 << len(rows)) - 1
        self.column = {square: k for k, square in enumerate(indices)}
        self.last = max(indices)
        self.prefixes = _prefix_states(indices, rows)
        self.match: list[dict[str, int]] = [{} for _ in indices]
        for bit, row in enumerate(rows):
            for k, letter in enumerate(row):
                self.match[k][letter] = self.match[k].get(letter, 0) | (1 << bit)

    def start(self) -> State:
        return self.all

    def place(self, state: State, file: int, letter: str) -> State | None:
        k = self.column.get(file)
        if k is None:
            return state
        left = state & self.match[k].get(letter, 0)
        if not left:
            return None
        return self.all if file == self.last else left

    def finish(self, state: State) -> bool:
        return bool(state)

    def states(self, squares: int) -> int:
        return self.prefixes


def _prefix_states(indices: Sequence[int], rows: Sequence[str]) -> int:
    """At most how many states :class:`_Listed` meets once how many of each
    piece are placed is known: one per prefix of the rows over the squares
    placed (one state once they are all placed). While only the rule's own
    squares are placed (they come first in the region), the counts give the
    prefix's letters, so only prefixes with the same letters are apart."""
    order = sorted(range(len(indices)), key=indices.__getitem__)
    leading = 0
    while leading < len(order) and indices[order[leading]] == leading:
        leading += 1
    most = 1
    for d in range(1, len(indices)):
        prefixes = {tuple(row[k] for k in order[:d]) for row in rows}
        if d < leading:
            apart = Counter(tuple(sorted(Counter(p).items())) for p in prefixes)
            most = max(most, *apart.values())
        else:
            most = max(most, len(prefixes))
    return most


@dataclass(frozen=True)
class _Listing(Rule):
    """Some squares (indices into the region) hold one of the listed rows."""

    indices: tuple[int, ...]
    rows: tuple[str, ...]

    @property
    def allowed(self) -> frozenset[str]:
        return frozenset(self.rows)

    def _row(self, rank: str) -> str:
        return "".join(rank[i] for i in self.indices)

    def constrain(self, model: Model) -> None:
        allowed, indices = self.allowed, self.indices
        # each piece stands on the rule's squares only where some row has it
        outside = set(range(model.region_size)) - set(indices)
        for letter in set(model.pieces):
            model.restrict(letter, outside | {indices[k] for row in self.rows
                                              for k, c in enumerate(row) if c == letter})
        names = tuple(model.domains)
        letters = [model.letter_of[n] for n in names]
        where = {square: k for k, square in enumerate(indices)}

        def listed(*squares: int) -> bool:
            row = [""] * len(indices)
            for s, p in zip(squares, letters, strict=True):
                k = where.get(s)
                if k is not None:
                    row[k] = p
            return "".join(row) in allowed

        model.require(names, listed, self.label)

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Listed(self.indices, sorted(self.allowed))


def _entry(ctx: Context, key: str, value: object, width: int, where: str) -> str:
    """One listed row: ``width`` letters of the family's pieces (``.`` empty)."""
    if not isinstance(value, str):
        raise ctx.error(key, f"{where}expected a string, got {type_name(value)} {shown(value)}")
    row = value.replace(" ", "").upper()
    if len(row) != width:
        raise ctx.error(key, f"{where}{quote(value)} has {len(row)} squares, not {width}")
    for char in row:
        known = char in PIECE_NAMES or char in ctx.names or char in EXTRA_NAMES
        if not known or not ctx.counts.get(char):
            have = "".join(p * n for p, n in ctx.counts.items())
            raise ctx.error(key, f"{where}{quote(value)}: {char!r} is not among this family's "
                                 f"pieces {have}")
    return row


def _rows(ctx: Context, key: str, values: Sequence[tuple[str, object]], width: int,
          whole: bool) -> tuple[str, ...]:
    """The listed rows, each checked; ``whole``: each an arrangement of all the pieces."""
    if not values:
        raise ctx.error(key, "lists nothing")
    if len(values) > MAX_LISTED:
        raise ctx.error(key, f"{len(values):,} entries, more than {MAX_LISTED:,}")
    seen: dict[str, str] = {}
    for where, value in values:
        row = _entry(ctx, key, value, width, where)
        if whole and Counter(row) != Counter(ctx.counts):
            pieces = "".join(p * n for p, n in ctx.counts.items())
            raise ctx.error(key, f"{where}{quote(str(value))} is not an arrangement of the pieces "
                                 f"{pieces}")
        if row in seen:
            raise ctx.error(key, f"{where}{quote(str(value))} is listed twice (first {seen[row]})")
        seen[row] = where.rstrip(": ") or "above"
    return tuple(seen)


def read_list_file(ctx: Context, name: object) -> list[tuple[str, object]]:
    """The entries of a data file beside the rule file, each with where it stands
    (``'name.txt' line 3: '``): one a line, blank lines and ``#`` comments skipped."""
    if not isinstance(name, str):
        raise ctx.error("file", f"expected a file name, got {type_name(name)} {shown(name)}")
    if not name or os.path.basename(name) != name or name in (".", ".."):
        raise ctx.error("file", f"{quote(name)} is not a file name beside the rule file "
                                "(no folders)")
    path = os.path.join(os.path.dirname(ctx.path), name)
    try:
        size = os.stat(path).st_size
        if size > MAX_LIST_BYTES:
            raise ctx.error("file", f"{quote(name)} has {size:,} bytes, more than "
                                    f"{MAX_LIST_BYTES:,}")
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_LIST_BYTES + 1)
    except OSError as exc:
        raise ctx.error("file", f"cannot read {quote(name)} beside the rule file: "
                                f"{exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ctx.error("file", f"{quote(name)} is not UTF-8 text") from None
    entries: list[tuple[str, object]] = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.split("#", 1)[0].strip()
        if entry:
            entries.append((f"{quote(name)} line {number}: ", entry))
    return entries


@dataclass(frozen=True)
class Only(_Listing):
    """The rank is one of the listed ranks (``ranks``, or a data file: ``file``)."""

    kind: ClassVar[str] = "only"
    keys: ClassVar[tuple[str, ...]] = ("ranks", "file")
    source: str

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        if ("ranks" in table) == ("file" in table):
            raise ctx.error("ranks", "give either 'ranks' (a list in the rule) or 'file' "
                                     "(a data file beside the rule file)")
        if "ranks" in table:
            value = table["ranks"]
            if not isinstance(value, list):
                raise ctx.error("ranks", f"expected an array of ranks, got {shown(value)}")
            if len(value) > MAX_ITEMS:
                raise ctx.error("ranks", f"{len(value):,} ranks, more than {MAX_ITEMS:,}; "
                                         "list them in a data file ('file')")
            entries: list[tuple[str, object]] = [(f"item {n}: ", v)
                                                 for n, v in enumerate(value, 1)]
            key, source = "ranks", f"{len(value)} ranks"
        else:
            entries = read_list_file(ctx, table["file"])
            key, source = "file", str(table["file"])
        rows = _rows(ctx, key, entries, ctx.region_size, whole=True)
        return cls(tuple(range(ctx.region_size)), rows, source)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.source}"

    def words(self, names: Mapping[str, str] | None = None) -> str:
        return f"The rank is one of {len(self.rows):,} listed ranks ({self.source})."

    def violations(self, placement: Placement) -> list[Violation]:
        if placement.rank in self.allowed:
            return []
        return [Violation(self.label, f"{placement.rank} is not one of the family's "
                                      f"{len(self.rows):,} listed ranks", [])]


@dataclass(frozen=True)
class OneOf(_Listing):
    """Some squares hold one of the listed orders of pieces (``.`` an empty square)."""

    kind: ClassVar[str] = "one-of"
    keys: ClassVar[tuple[str, ...]] = ("squares", "orders")
    squares: str

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        text = ctx.string(table, "squares")
        region = ctx.region or Region.rank_of(ctx.files or ctx.region_size)
        index = {sq: i for i, sq in enumerate(region.squares)}
        indices = []
        for square in read_squares(text, ctx):
            if square not in index:
                raise ctx.error("squares", f"{square_name(*square)} is not a square of the "
                                           f"region ({', '.join(region.names[:4])}...)")
            indices.append(index[square])
        if "orders" not in table:
            raise ctx.error("orders", "missing")
        value = table["orders"]
        if not isinstance(value, list):
            raise ctx.error("orders", f"expected an array of orders, got {shown(value)}")
        if len(value) > MAX_ITEMS:
            raise ctx.error("orders", f"{len(value):,} orders, more than {MAX_ITEMS:,}")
        rows = _rows(ctx, "orders", [(f"item {n}: ", v) for n, v in enumerate(value, 1)],
                     len(indices), whole=False)
        return cls(tuple(indices), rows, text)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.squares}"

    @property
    def letters(self) -> frozenset[str]:
        return frozenset("".join(self.rows))

    def words(self, names: Mapping[str, str] | None = None) -> str:
        return f"The squares {self.squares} hold one of {len(self.rows)} listed orders."

    def violations(self, placement: Placement) -> list[Violation]:
        row = self._row(placement.rank)
        if row in self.allowed:
            return []
        names = placement.at(*self.indices)
        return [Violation(self.label, f"{' '.join(names)} hold {quote(row)}, not one of the "
                                      f"{len(self.rows)} listed orders", names)]
