"""A family's canonical catalogue: every position, in order, with its ID.

:class:`Family` joins a :class:`~solver.rules.RuleSet` with its numbering.
Arithmetic families number a rank by placement steps alone, so looking up
one ID or rank needs neither the solver nor a table. Enumerated families
(and listing any family) ask the solver, imported only then.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from solver.board import piece_name, square_name
from solver.errors import (
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


@dataclass(frozen=True)
class Position:
    """A start position: its ID and both sides' ranks (equal when mirrored)."""

    id: int
    white: str
    black: str


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
        if self.ruleset.numbering == "arithmetic":
            return self.numbering.encode(rank)
        index = self._lookup().get(rank)
        if index is None:
            raise NumberingError(self.name, f"{rank!r} obeys every rule but the solver "
                                            "did not find it")
        return index

    def rank_of(self, number: int) -> str:
        """One side's rank with ID ``number`` (``0 <= number < side_count``)."""
        if self.ruleset.numbering == "arithmetic":
            return self.numbering.decode(number)
        return self._catalogue()[number]

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

    def parse_id(self, text: str) -> int:
        """Read a position ID of this family (raises :class:`~solver.errors.IdError`)."""
        return parse_id(text, self.count, self.name)

    def position(self, number: int) -> Position:
        """The position with ID ``number``: for independent sides
        ``number = black_id * side_count + white_id``."""
        if not 0 <= number < self.count:
            raise ValueError(f"{self.name} position index not 0 <= {number} <= {self.count - 1}")
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

    def ranks(self) -> list[str]:
        """One side's ranks as the solver finds them, in canonical (ID) order."""
        return list(self._catalogue())

    def positions(self) -> Iterator[Position]:
        """Every position in ID order, from the solver's ranks."""
        ranks = self._catalogue()
        if not self.independent:
            for number, rank in enumerate(ranks):
                yield Position(number, rank, rank)
            return
        n = len(ranks)
        for black in range(n):
            for white in range(n):
                yield Position(black * n + white, ranks[white], ranks[black])

    # -- the catalogue ------------------------------------------------------------

    def solver_ranks(self) -> list[str]:
        """One side's ranks in the order the constraint solver finds them."""
        from solver.solve import solve  # the solver is imported only to solve

        return list(solve(self.ruleset, self.max_arrangements))

    def canonical(self, ranks: list[str]) -> list[str]:
        """``ranks`` in the family's canonical order.

        Arithmetic families place each rank at its computed ID; enumerated
        ones sort by the placement steps' choices, most significant first.
        """
        if self.ruleset.numbering == "arithmetic":
            ordered: list[str | None] = [None] * self.numbering.count
            for rank in ranks:
                number = self.numbering.encode(rank)
                if ordered[number] is not None:
                    raise NumberingError(self.name, f"{rank!r} and {ordered[number]!r} "
                                                    f"both get id {number}")
                ordered[number] = rank
            return [r for r in ordered if r is not None]
        keyed = sorted(ranks, key=lambda r: self.numbering.digits(r)[::-1])
        return keyed

    def _catalogue(self) -> list[str]:
        if self._ranks is None:
            self._ranks = self.canonical(self.solver_ranks())
        return self._ranks

    def _lookup(self) -> dict[str, int]:
        if self._index is None:
            self._index = {rank: i for i, rank in enumerate(self._catalogue())}
        return self._index
