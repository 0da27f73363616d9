"""Numbering families whose sides have different armies (``[[army]]`` and ``pairings``).

Each army stands as written (its rank, from the a-file on), so a side's id is
its army's place among the ``[[army]]`` tables, and a position is a pairing:
its id is the pairing's place in ``pairings`` (White's army first; by default
every army against every army, White's in the order written, then Black's)::

    id = place of (white's army, black's army) in pairings

Chess with Different Armies as pychess-variants offers it (``rules/cwda.toml``)
lists its 15 pairings in the order of pychess's ``CWDA_START_FENS``.

>>> from solver.family import Family
>>> cwda = Family.load("cwda").armies
>>> cwda.count, cwda.pair_count, cwda.pair(0)
(4, 15, ('RNBQKBNR', 'DWACKAWD'))
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from solver.errors import Chess960Error, IdRangeError

if TYPE_CHECKING:
    from solver.position import Position
    from solver.ruleset.army_keys import SideArmy
    from solver.ruleset.reader import RuleSet

__all__ = ["ArmiesIndex", "prove"]


class Armed(Protocol):
    """What ``check`` asks of a family with armies (a :class:`~solver.family.Family`)."""

    ruleset: RuleSet

    @property
    def armies(self) -> ArmiesIndex: ...
    @property
    def count(self) -> int: ...
    def position(self, number: int) -> Position: ...
    def id(self, text: str) -> int: ...
    def validate(self, text: str) -> str: ...


class ArmiesIndex:
    """One side's ranks (an army each) and the pairings of a family with armies.

    It has the interface of :class:`~solver.numbering.armies.ArmyIndex` that
    :class:`~solver.family.Family` uses for one side (``count``, ``id``,
    ``rank``, iteration) and for pairs (``pair_count``, ``pair``, ``pair_id``,
    ``fits``, ``pairs``).
    """

    listed: list[str] | None = None
    ids: dict[str, int] | None = None
    by_id: list[str] | None = None

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self.armies: tuple[SideArmy, ...] = ruleset.armies
        self.ranks = [army.pieces for army in self.armies]
        self._place = {rank: i for i, rank in enumerate(self.ranks)}
        self.pairings = ruleset.pairings
        self._pairing = {pair: i for i, pair in enumerate(self.pairings)}

    @property
    def count(self) -> int:
        """How many ranks one side may have: one per army."""
        return len(self.ranks)

    def army_of(self, rank: str) -> SideArmy | None:
        """The army whose rank ``rank`` (upper case) is, if any."""
        place = self._place.get(rank)
        return None if place is None else self.armies[place]

    def id(self, rank: str) -> int:
        """A side's id: its army's place among the armies."""
        return self._place[rank]

    def rank(self, number: int) -> str:
        """The rank of the army with side id ``number``."""
        if not 0 <= number < self.count:
            raise IdRangeError(str(number), number, self.count, self.ruleset.name)
        return self.ranks[number]

    def __iter__(self) -> Iterator[str]:
        return iter(self.ranks)

    @property
    def pair_count(self) -> int:
        """How many positions: one per pairing."""
        return len(self.pairings)

    def fits(self, white: str, black: str) -> bool:
        """Whether White's army meets Black's in this family."""
        return (self._place.get(white), self._place.get(black)) in self._pairing

    def pair_id(self, white: str, black: str) -> int:
        """The id of the pairing of these two ranks (which :meth:`fits`)."""
        return self._pairing[(self._place[white], self._place[black])]

    def pair(self, number: int) -> tuple[str, str]:
        """The pairing with id ``number``: White's rank, Black's."""
        if not 0 <= number < self.pair_count:
            raise IdRangeError(str(number), number, self.pair_count, self.ruleset.name)
        white, black = self.pairings[number]
        return self.ranks[white], self.ranks[black]

    def pairs(self) -> Iterator[tuple[int, str, str]]:
        """Every position ``(id, white, black)`` in id order."""
        for number, (white, black) in enumerate(self.pairings):
            yield number, self.ranks[white], self.ranks[black]

    def misfit(self, white: str, black: str) -> str:
        """Why these two armies do not meet, in words."""
        names = [army.name for army in self.armies]
        met = ", ".join(f"{names[w]}-{names[b]}" for w, b in self.pairings)
        return (f"the {self.army_text(white)} army does not meet the {self.army_text(black)} "
                f"army in this family (White's army first, the pairings are {met})")

    def army_text(self, rank: str) -> str:
        """An army's name by its rank."""
        army = self.army_of(rank)
        return army.name if army is not None else rank

    @property
    def text(self) -> str:
        """The armies, for messages: ``one of fide RNBQKBNR, ...``."""
        return "one of " + ", ".join(army.shown for army in self.armies)


def prove(family: Armed) -> Iterator[tuple[str, list[str]]]:
    """What ``check`` proves of a family with armies, each claim with its
    failures: each army's rank reads back as its side id; the pairings give
    the declared count; every position's FEN (both castling notations) and its
    pair of ranks read back to its id, each army's king castling with its own
    piece where it stands between two (for the default castling rule)."""
    index = family.armies
    ruleset = family.ruleset
    wrong = []
    for number, army in enumerate(index.armies):
        try:
            if index.id(family.validate(army.pieces)) != number:
                wrong.append(f"{army.shown} reads as {index.id(army.pieces)}")
        except Chess960Error as exc:
            wrong.append(f"{army.shown}: {exc}")
    yield f"each of the {index.count} armies' ranks reads back as its side id", wrong
    count = sum(1 for _ in index.pairs())
    yield (f"the {count} pairings ({len(set(index.pairings))} distinct) give the declared "
           f"count {ruleset.count:,}",
           [] if count == ruleset.count == family.count else [f"found {count:,}"])
    wrong = []
    rooks = ruleset.castling.default  # (another castling rule: proven by the round trips)
    for number, white, black in index.pairs():
        position = family.position(number)
        texts = (position.fen(), position.fen("shredder"), f"{white} {black.lower()}")
        wrong.extend(f"{text} reads as {family.id(text)}, not {number}"
                     for text in texts if family.id(text) != number)
        field = position.fen().split()[2]
        for rank, side in ((white, "white"), (black, "black")) if rooks else ():
            found = index.army_of(rank)
            castles = found is not None and _castles(rank, found.castles_with)
            mine = "".join(c for c in field if c.isupper() == (side == "white") and c != "-")
            if castles != bool(mine):
                wrong.append(f"{number}: {side}'s castling field {mine!r} for {rank}")
    said = ", each side castling with its army's own piece" if rooks else ""
    yield ("every position's FEN (X-FEN and Shredder-FEN) and pair of ranks read back to its "
           f"id{said}", wrong[:20])


def _castles(rank: str, piece: str) -> bool:
    """Whether the king of ``rank`` stands between two of ``piece``."""
    king = rank.find("K")
    return piece in rank[:king] and piece in rank[king + 1:]
