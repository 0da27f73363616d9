"""A family's canonical catalogue: every position, in order, with its ID.

:class:`Family` joins a :class:`~solver.rules.RuleSet` with its numbering.
Arithmetic families number a rank by placement steps alone, so looking up
one ID or rank needs neither the solver nor a table (after many lookups, a
table of the family is built once, when it is small enough, to make further
ones cheap). Enumerated families (and listing any family) ask the solver,
imported only then. Listing streams: each rank is handed on as soon as every
rank before it in canonical order has been found, and counting keeps none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.board import piece_name, square_name
from solver.errors import (
    EmptyFamilyError,
    IdRangeError,
    NumberingError,
    PairError,
    PieceCountError,
    RuleViolationError,
    SidesError,
    Violation,
)
from solver.fen import identify_fen, is_fen
from solver.model import MAX_ARRANGEMENTS
from solver.notation import parse_id, parse_rank
from solver.numbering import Numbering
from solver.rules import RuleSet, load
from solver.vocabulary import Placement

if TYPE_CHECKING:
    from solver import csp


@dataclass(frozen=True)
class Position:
    """A start position: its ID and both sides' ranks (equal when mirrored)."""

    id: int
    white: str
    black: str


#: Arithmetic families with at most this many ranks per side get a lookup
#: table once they have been asked about often enough (see :meth:`Family.rank_id`).
TABLE_MAX = 1 << 17

#: Build the table after ``side count / TABLE_PAYBACK`` lookups, so that
#: building it never costs more than that many times the lookups made so far.
TABLE_PAYBACK = 8

Progress = Callable[[int], object]


class Family:
    """A start-position family with its numbering.

    >>> fam = Family(load("chess960"))
    >>> fam.identify("QNRBBNKR").id, fam.position(518).white
    (105, 'RNBQKBNR')
    """

    def __init__(self, ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS) -> None:
        self.ruleset = ruleset
        self.max_arrangements = max_arrangements
        self.numbering: Numbering = ruleset.step_numbering()
        self._ranks: list[str] | None = None
        self._index: dict[str, int] | None = None
        self._lookups = 0  # arithmetic lookups made without a table
        self._ids: dict[str, int] | None = None  # rank -> ID, once built
        self._by_id: list[str] | None = None  # ID -> rank, once built

    @classmethod
    def load(
        cls, name_or_path: str = "chess960", max_arrangements: int = MAX_ARRANGEMENTS
    ) -> Family:
        """The family of a bundled name or a rule file's path."""
        return cls(load(name_or_path), max_arrangements)

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def independent(self) -> bool:
        return self.ruleset.sides == "independent"

    @property
    def side_count(self) -> int:
        """How many ranks one side may have (from the numbering or the solver)."""
        if self.ruleset.numbering == "arithmetic":
            return self.numbering.count
        return len(self._catalogue())

    @property
    def count(self) -> int:
        """How many positions the family has."""
        n = self.side_count
        return n * n if self.independent else n

    # -- one side -------------------------------------------------------------

    def violations(self, rank: str) -> list[Violation]:
        """Every rule of the family that ``rank`` (upper-case letters) breaks."""
        placement = Placement(rank)
        return [v for rule in self.ruleset.rules for v in rule.violations(placement)]

    def validate(self, text: str) -> str:
        """Read one rank and check it belongs to the family; return its letters.

        Raises a :class:`~solver.errors.RankError` subclass naming what is
        wrong: length, unknown piece, piece counts, or every rule it breaks.
        """
        rank = parse_rank(text, self.ruleset.files)
        self._check_counts(text, rank)
        broken = self.violations(rank)
        if broken:
            raise RuleViolationError(text, self.name, broken)
        return rank

    def _check_counts(self, text: str, rank: str) -> None:
        want = self.ruleset.piece_counts
        have = Counter(rank)
        for letter in [*want, *(p for p in have if p not in want)]:
            if have[letter] != want[letter]:
                squares = [square_name(f) for f, p in enumerate(rank) if p == letter]
                what = piece_name(letter, have[letter])
                raise PieceCountError(text, letter, have[letter], want[letter], squares, what)

    def rank_id(self, rank: str) -> int:
        """The ID of one side's valid rank (upper-case letters)."""
        table = self._ids
        if table is not None:
            found = table.get(rank)
            if found is not None:
                return found
        if self.ruleset.numbering == "arithmetic":
            self._count_lookup()
            return self.numbering.encode(rank)
        index = self._lookup().get(rank)
        if index is None:
            raise NumberingError(self.name, f"{rank!r} obeys every rule but the solver "
                                            "did not find it")
        return index

    def rank_of(self, number: int) -> str:
        """One side's rank with ID ``number`` (``0 <= number < side_count``)."""
        table = self._by_id
        if table is not None and 0 <= number < len(table):
            return table[number]
        if self.ruleset.numbering == "arithmetic":
            self._count_lookup()
            return self.numbering.decode(number)
        return self._catalogue()[number]

    def _count_lookup(self) -> None:
        """Count an arithmetic lookup; build the table once they add up.

        A single lookup (``chess960 id QNRBBNKR``) never builds it.
        """
        self._lookups += 1
        count = self.numbering.count
        if (self._ids is None and count <= TABLE_MAX
                and self._lookups * TABLE_PAYBACK >= max(count, 2 * TABLE_PAYBACK)):
            by_id = [self.numbering.decode(i) for i in range(count)]
            self._ids = {rank: i for i, rank in enumerate(by_id)}
            self._by_id = by_id

    # -- positions --------------------------------------------------------------

    def identify(self, text: str) -> Position:
        """The position a rank (or, for independent sides, a pair of ranks) is.

        A pair is written White's rank first, then Black's, with any spaces
        or a ``/`` between: ``RNBQKBNR rnbqkbnr``. A full start FEN, in
        either castling notation, is read by :func:`solver.fen.identify_fen`.
        """
        if is_fen(text):
            return identify_fen(self, text)
        if not self.independent:
            rank = self.validate(text)
            return Position(self.rank_id(rank), rank, rank)
        files = self.ruleset.files
        letters = parse_rank(text.replace("/", " ").replace(":", " "))
        if len(letters) != 2 * files:
            raise PairError(text, self.name, len(letters), files)
        white = self.validate(letters[:files])
        black = self.validate(letters[files:])
        n = self.side_count
        return Position(self.rank_id(black) * n + self.rank_id(white), white, black)

    def read(self, text: str) -> Position:
        """The position named by an ID, a rank (a pair of ranks) or a start FEN.

        >>> Family.load("chess960").read("518") == Family.load("chess960").read("RNBQKBNR")
        True
        """
        stripped = text.strip()
        if stripped.isascii() and stripped.lstrip("+-").isdigit():
            return self.position(self.parse_id(stripped))
        return self.identify(text)

    def parse_id(self, text: str) -> int:
        """Read a position ID of this family (raises :class:`~solver.errors.IdError`)."""
        return parse_id(text, self.count, self.name)

    def position(self, number: int) -> Position:
        """The position with ID ``number``: for independent sides
        ``number = black_id * side_count + white_id``."""
        if not 0 <= number < self.count:
            raise IdRangeError(str(number), number, self.count, self.name)
        if not self.independent:
            rank = self.rank_of(number)
            return Position(number, rank, rank)
        black, white = divmod(number, self.side_count)
        return Position(number, self.rank_of(white), self.rank_of(black))

    def pair(self, white: int | str, black: int | str) -> Position:
        """The position of an independent-sides family from each side's ID.

        >>> Family.load("dfrc").pair(518, "105").id
        101318

        IDs may be given as text; raises :class:`~solver.errors.SidesError`
        for a mirrored family and :class:`~solver.errors.IdError` for a bad ID.
        """
        if not self.independent:
            raise SidesError(self.name)
        n = self.side_count
        ids = [
            parse_id(str(number), n, f"{self.name} {side}")
            for side, number in (("white", white), ("black", black))
        ]
        return self.position(ids[1] * n + ids[0])

    def ranks(self, progress: Progress | None = None) -> list[str]:
        """One side's ranks as the solver finds them, in canonical (ID) order."""
        if self._ranks is not None:
            return list(self._ranks)
        return list(self.side_ranks(progress))

    def positions(self, progress: Progress | None = None) -> Iterator[Position]:
        """Every position in ID order, from the solver's ranks.

        Mirrored families stream: a position comes as soon as the solver has
        found it and every position before it. ``progress`` is told how many
        ranks the solver has found so far, batch by batch.
        """
        for number, white, black in self.numbered(progress):
            yield Position(number, white, black)

    def numbered(self, progress: Progress | None = None) -> Iterator[tuple[int, str, str]]:
        """``(id, white, black)`` for every position in ID order (see :meth:`positions`)."""
        if not self.independent:
            for number, rank in enumerate(self.side_ranks(progress)):
                yield number, rank, rank
            return
        ranks = self.ranks(progress)
        n = len(ranks)
        for black in range(n):
            for white in range(n):
                yield black * n + white, ranks[white], ranks[black]

    def side_ranks(self, progress: Progress | None = None) -> Iterator[str]:
        """One side's ranks in canonical order, each as soon as the order allows.

        Arithmetic families place each rank the solver finds at its ID, and
        hand on the ranks up to the first ID not yet found; enumerated ones
        must see every rank before sorting.
        """
        if self._ranks is not None:
            yield from self._ranks
            return
        if self.ruleset.numbering != "arithmetic":
            ranks = self.canonical(self.solver_ranks(progress))
            if not ranks:
                raise self._empty()
            yield from ranks
            return
        from solver import csp
        from solver.ordering import FastEncoder

        count = self.numbering.count
        encoder = FastEncoder(self.numbering)
        compiled = self._plan()

        files = self.ruleset.files

        def numbered(batch: csp.Batch) -> tuple[list[int], bytes]:
            ranks = compiled.ranks(batch)
            return encoder.ids(ranks), "".join(ranks).encode()

        # Ranks wait here, by ID, a few bytes each, until all before them came.
        store = bytearray(count * files)
        seen = bytearray(count)
        found = 0
        upto = 0  # every ID below this has been handed on
        for ids, packed in csp.batches(compiled, numbered):
            at = 0
            for number in ids:
                rank = packed[at:at + files]
                if not 0 <= number < count or seen[number]:
                    raise self._clash(number, rank.decode(), store, seen)
                seen[number] = 1
                store[number * files:number * files + files] = rank
                at += files
            found += len(ids)
            if progress is not None:
                progress(found)
            end = seen.find(0, upto)
            end = count if end < 0 else end
            if end > upto:
                text = store[upto * files:end * files].decode()
                for begin in range(0, len(text), files):
                    yield text[begin:begin + files]
                upto = end
        for number in range(upto, count):  # ranks after an ID no rank has
            if seen[number]:
                yield store[number * files:number * files + files].decode()
        if not found:
            raise self._empty()

    def _empty(self) -> EmptyFamilyError:
        """The error for a family whose rules admit no rank, naming a conflict."""
        from solver.conflicts import conflicting_rules

        conflict = conflicting_rules(self.ruleset, self.max_arrangements)
        return EmptyFamilyError(self.name, [rule.label for rule in conflict])

    def _clash(self, number: int, rank: str, store: bytearray, seen: bytearray) -> NumberingError:
        count, files = len(seen), self.ruleset.files
        if not 0 <= number < count:
            return NumberingError(self.name, f"{rank!r} gets id {number}, outside 0..{count - 1}")
        other = store[number * files:number * files + files].decode()
        return NumberingError(self.name, f"{rank!r} and {other!r} both get id {number}")

    def solved_count(self, progress: Progress | None = None) -> int:
        """How many positions the solver finds, counted without keeping any rank.

        Raises :class:`~solver.errors.EmptyFamilyError`, naming rules that
        cannot all hold, when the family has no position at all.
        """
        if self._ranks is not None:
            n = len(self._ranks)
        else:
            from solver.solve import count

            n = count(self.ruleset, self.max_arrangements, progress=progress)
        if not n:
            raise self._empty()
        return n * n if self.independent else n

    # -- the catalogue ------------------------------------------------------------

    def _plan(self) -> csp.Plan:
        from solver.solve import plan

        return plan(self.ruleset, self.max_arrangements)

    def solver_ranks(self, progress: Progress | None = None) -> list[str]:
        """One side's ranks in the order the constraint solver finds them."""
        from solver.solve import solve  # the solver is imported only to solve

        ranks = []
        for rank in solve(self.ruleset, self.max_arrangements):
            ranks.append(rank)
        if progress is not None:
            progress(len(ranks))
        return ranks

    def canonical(self, ranks: list[str]) -> list[str]:
        """``ranks`` in the family's canonical order.

        Arithmetic families place each rank at its computed ID; enumerated
        ones sort by the placement steps' choices, most significant first.
        """
        if self.ruleset.numbering == "arithmetic":
            from solver.ordering import FastEncoder

            ordered: list[str | None] = [None] * self.numbering.count
            for number, rank in zip(FastEncoder(self.numbering).ids(ranks), ranks, strict=True):
                if ordered[number] is not None:
                    raise NumberingError(self.name, f"{rank!r} and {ordered[number]!r} "
                                                    f"both get id {number}")
                ordered[number] = rank
            return [r for r in ordered if r is not None]
        keyed = sorted(ranks, key=lambda r: self.numbering.digits(r)[::-1])
        return keyed

    def _catalogue(self) -> list[str]:
        if self._ranks is None:
            self._ranks = list(self.side_ranks())
        return self._ranks

    def _lookup(self) -> dict[str, int]:
        if self._index is None:
            self._index = {rank: i for i, rank in enumerate(self._catalogue())}
        return self._index
