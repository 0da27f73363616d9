"""One side's rank <-> ID lookups: by placement steps, or by the listed family.

Arithmetic families number a rank by placement steps alone, so one lookup
needs neither the solver nor a table; after many lookups, a table of the
side is built once (when it is small enough) to make further ones cheap.
Enumerated families are numbered by counting (:mod:`solver.numbering.counting`),
without the solver, until they have been asked about often enough that
listing them once (when the solver may) is cheaper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from solver.errors import NumberingError, SearchTooLargeError
from solver.syntax.steps import Numbering

if TYPE_CHECKING:
    from solver.numbering.counting import Counting

#: Arithmetic families with at most this many ranks per side get a lookup
#: table once they have been asked about often enough (see :class:`RankIndex`).
LOOKUP_TABLE_MAX = 1 << 17

#: Build the table after ``side count / TABLE_PAYBACK`` lookups, so that
#: building it never costs more than that many times the lookups made so far.
TABLE_PAYBACK = 8

#: Enumerated families are listed once (if the solver may) after this many
#: lookups by counting.
LIST_AFTER = 16


class RankIndex:
    """One side's ranks by ID and IDs by rank.

    ``listing`` gives the side's ranks in canonical order; it is called (once)
    only for enumerated numbering, and only after ``counting`` (which makes
    the family's counter) has answered :data:`LIST_AFTER` lookups, when given.

    >>> from solver.ruleset.reader import load
    >>> index = RankIndex(load("chess960").step_numbering(), True, list)
    >>> index.id("RNBQKBNR"), index.rank(105), index.count
    (518, 'QNRBBNKR', 960)
    """

    def __init__(
        self,
        numbering: Numbering,
        arithmetic: bool,
        listing: Callable[[], list[str]],
        counting: Callable[[], Counting] | None = None,
    ) -> None:
        self.numbering = numbering
        self.arithmetic = arithmetic
        self._listing = listing
        self._counting = counting
        self._counter: Counting | None = None
        self._unlistable = False
        self._ranks: list[str] | None = None
        self._index: dict[str, int] | None = None
        self._lookups = 0  # arithmetic lookups made without a table
        #: rank -> ID and ID -> rank, once the lookups have built them (else None).
        self.ids: dict[str, int] | None = None
        self.by_id: list[str] | None = None

    @property
    def count(self) -> int:
        """How many ranks the side has."""
        if self.arithmetic:
            return self.numbering.count
        if self._ranks is None:
            counter = self.counter()
            if counter is not None:
                return counter.count
        return len(self.ranks())

    def counter(self) -> Counting | None:
        """The counter of an enumerated side, while it answers lookups (``None``:
        look up in the listing)."""
        if self._counting is None or self._ranks is not None:
            return None
        if self._lookups >= LIST_AFTER and not self._unlistable:
            try:
                self.ranks()
                return None
            except SearchTooLargeError:
                self._unlistable = True
        if self._counter is None:
            self._counter = self._counting()
        return self._counter

    def ranks(self) -> list[str]:
        """Every rank of the side in canonical order (listed once, then kept)."""
        if self._ranks is None:
            self._ranks = self._listing()
        return self._ranks

    @property
    def listed(self) -> list[str] | None:
        """The listing, if it has been made."""
        return self._ranks

    def id(self, rank: str) -> int:
        """The ID of one side's valid rank (upper-case letters)."""
        table = self.ids
        if table is not None:
            found = table.get(rank)
            if found is not None:
                return found
        if self.arithmetic:
            self._count_lookup()
            return self.numbering.encode(rank)
        counter = self.counter()
        if counter is not None:
            self._lookups += 1
            return counter.rank_id(rank)
        if self._index is None:
            self._index = {rank: i for i, rank in enumerate(self.ranks())}
        index = self._index.get(rank)
        if index is None:
            raise NumberingError(self.numbering.family,
                                 f"{rank!r} obeys every rule but the solver did not find it")
        return index

    def rank(self, number: int) -> str:
        """The rank with ID ``number`` (``0 <= number < count``)."""
        table = self.by_id
        if table is not None and 0 <= number < len(table):
            return table[number]
        if self.arithmetic:
            self._count_lookup()
            return self.numbering.decode(number)
        counter = self.counter()
        if counter is not None:
            self._lookups += 1
            return counter.rank_of(number)
        return self.ranks()[number]

    def _count_lookup(self) -> None:
        """Count an arithmetic lookup; build the table once they add up.

        A single lookup (``chess960 id QNRBBNKR``) never builds it.
        """
        self._lookups += 1
        count = self.numbering.count
        if (self.ids is None and count <= LOOKUP_TABLE_MAX
                and self._lookups * TABLE_PAYBACK >= max(count, 2 * TABLE_PAYBACK)):
            by_id = _decoded(self.numbering)
            self.ids = {rank: i for i, rank in enumerate(by_id)}
            self.by_id = by_id


def _decoded(numbering: Numbering) -> list[str]:
    """``numbering.decode(i)`` for every ID: in one walk where the steps give the
    same choices on every path (:func:`~solver.numbering.encoder.decode_all`),
    else one ID at a time."""
    if numbering.uneven is None:
        from solver.numbering.encoder import decode_all

        return decode_all(numbering)
    return [numbering.decode(i) for i in range(numbering.count)]
