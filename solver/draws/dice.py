"""A uniform physical draw for any number of positions: dice or cards, with rejection.

Rolling a die with ``s`` faces ``k`` times gives one of ``s**k`` equally
likely numbers (the rolls as the digits of a base-``s`` number). With ``k``
the fewest rolls that make ``s**k >= count``, numbers at or above the
largest multiple of ``count`` not above ``s**k`` start the draw again, and
the ID is the number's remainder divided by ``count`` (below ``count``: the
number itself). Each ID then comes from the same number of outcomes, so has
probability exactly ``1/count``, and a round starts over with probability
below one half. A ten-sided die's faces are the digits 0 to 9 (so the rolls
are the decimal digits of the number); any other die's faces are 1 to
``s``, each counted as one less. Cards are a die with 52 faces: a standard
deck, one card drawn and put back each time.

:func:`dice` states the procedure (:meth:`Dice.lines`, for an arbiter to
follow) and describes it as data (:meth:`Dice.procedure`, the format of
:mod:`solver.draws.procedure`, whose exact distribution checks it).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from solver.draws.procedure import Draw, Procedure
from solver.errors import DiceError, DrawCountError

#: Faces a die may have (cards: :data:`DECK`).
MIN_SIDES: Final = 2
MAX_SIDES: Final = 1000
#: Cards in a standard deck, and how they are numbered.
DECK: Final = 52
SUITS: Final = ("clubs ♣", "diamonds ♦", "hearts ♥", "spades ♠")
CARD_RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: The most rolls a stated procedure asks for (one letter each).
MAX_ROLLS: Final = 26

_WORDS: Final = {2: "two", 4: "four", 6: "six", 8: "eight", 10: "ten", 12: "twelve",
                 20: "twenty"}


def card_number(card: str) -> int:
    """A card's number in the order the procedure states: suits ♣ ♦ ♥ ♠,
    ranks A, 2, ..., 10, J, Q, K.

    >>> card_number("A♣"), card_number("K♣"), card_number("A♦"), card_number("K♠")
    (0, 12, 13, 51)
    """
    rank, suit = card[:-1], card[-1]
    return 13 * "♣♦♥♠".index(suit) + CARD_RANKS.index(rank)


@dataclass(frozen=True)
class Dice:
    """A uniform draw of an ID below ``count`` with a die of ``sides`` faces
    (``cards``: a 52-card deck); ``family`` names the positions in the text."""

    count: int
    sides: int
    cards: bool = False
    family: str | None = None

    @property
    def rolls(self) -> int:
        """How many rolls (or cards) a round takes: the fewest that cover ``count``."""
        rolls, span = 0, 1
        while span < self.count:
            rolls, span = rolls + 1, span * self.sides
        return rolls

    @property
    def span(self) -> int:
        """How many numbers a round gives: ``sides ** rolls``."""
        return int(self.sides ** self.rolls)

    @property
    def limit(self) -> int:
        """The first number that starts over: the largest multiple of ``count``
        not above :attr:`span`."""
        return self.span - self.span % self.count

    @property
    def restart(self) -> Fraction:
        """The chance that a round starts over."""
        return Fraction(self.span - self.limit, self.span)

    @property
    def from_zero(self) -> bool:
        """Whether the faces are 0 to ``sides-1`` (a ten-sided die, cards), not 1 to ``sides``."""
        return self.cards or self.sides == 10

    @property
    def tool(self) -> str:
        """What is rolled, in a few words."""
        if self.cards:
            return f"a {DECK}-card deck"
        return f"a {self.sides}-sided die"

    def _name(self) -> str:
        what = self.family if self.family is not None else f"{self.count:,} ids"
        return f"{what} with {self.tool}"

    def procedure(self) -> Procedure:
        """The procedure as data (:mod:`solver.draws.procedure`)."""
        word = "card" if self.cards else "roll"
        low = 0 if self.from_zero else 1
        draws = tuple(Draw(f"{word} {i}", low, low + self.sides - 1)
                      for i in range(1, self.rolls + 1))
        weights = tuple(self.sides ** (self.rolls - i) for i in range(1, self.rolls + 1))
        reject = ((("number", self.limit, self.span - 1),),) if self.limit < self.span else ()
        return Procedure(self._name(), self.count, draws, weights, -low * sum(weights),
                         reject, self.limit > self.count)

    def lines(self, rules: str | None = None) -> list[str]:
        """The procedure in words, for an arbiter to follow (``rules``: the
        ``--rules`` value that looks the ID up, if not the default family)."""
        count, rolls, sides = self.count, self.rolls, self.sides
        what = f"{self.family} positions" if self.family is not None else "numbers"
        lookup = ("" if self.family is None else
                  f"`chess960 position ID{f' --rules {rules}' if rules else ''}` gives the "
                  f"position. ")
        if rolls == 0:
            return [f"There is only id 0: nothing to draw. {lookup}".rstrip()]
        head = [f"To draw one of the {count:,} {what} (ids 0 to {count - 1:,}), "
                f"each with probability exactly 1/{count:,},", f"with {self._tool_words()}:"]
        if self.cards:
            suits = ", ".join(f"{suit} {13 * i} to {13 * i + 12}"
                              for i, suit in enumerate(SUITS))
            head.append(f"Number the cards 0 to 51, A, 2, ..., 10, J, Q, K in each suit: "
                        f"{suits}.")
        letters = "abcdefghijklmnopqrstuvwxyz"[:rolls]
        listed = ", ".join(letters)
        times = "once" if rolls == 1 else "twice" if rolls == 2 else f"{rolls} times"
        steps: list[str] = []
        if self.cards:
            steps.append(f"Shuffle the deck well, take a card, write down its number and put "
                         f"it back; do this {times}: {listed}.")
        elif sides == 10:
            digits = "digit" if rolls == 1 else f"{rolls}-digit number"
            steps.append(f"Roll the die {times}; the faces, in order, are a {digits} from "
                         f"{'0' * rolls} to {'9' * rolls}.")
        else:
            steps.append(f"Roll the die {times}; for each roll write down its face minus 1, a "
                         f"digit from 0 to {sides - 1}: {listed}.")
        if sides != 10 or self.cards:
            formula = " + ".join(
                f"{letter}×{sides ** (rolls - i - 1):,}" if i < rolls - 1 else letter
                for i, letter in enumerate(letters))
            steps.append(f"Work out the number {formula}, from 0 to {self.span - 1:,}."
                         if rolls > 1 else f"The number is {letters}.")
        if self.limit < self.span:
            steps.append(f"If the number is {self.limit:,} or more, it does not count: "
                         f"start again from step 1.")
        steps.append(self._mapping())
        shown = [f"{i}. {step}" for i, step in enumerate(steps, 1)]
        odds = (f"A round starts over with probability {self.restart}."
                if self.restart else "No round starts over.")
        return [*head, *shown, f"{lookup}{odds}"]

    def _tool_words(self) -> str:
        if self.cards:
            return f"a standard deck of {DECK} cards"
        name = _WORDS.get(self.sides, f"{self.sides}")
        if self.sides == 10:
            return f"a {name}-sided die (faces 0 to 9; a face marked 10 counts as 0)"
        return f"a {name}-sided die (faces 1 to {self.sides})"

    def _mapping(self) -> str:
        count = self.count
        what = "Otherwise" if self.limit < self.span else "Then"
        if self.limit == count:
            return f"{what} the number is the position's id."
        bands = self.limit // count
        if bands > 4:
            return f"{what} the id is the remainder of the number divided by {count:,}."
        parts = [f"the number itself if it is below {count:,}"]
        parts += [f"the number − {count * b:,} if it is {count * b:,} to "
                  f"{count * (b + 1) - 1:,}" for b in range(1, bands)]
        return f"{what} the id is {', '.join(parts[:-1])} or {parts[-1]}."


def dice(count: int, sides: int = 10, *, cards: bool = False,
         family: str | None = None) -> Dice:
    """A uniform draw of one of ``count`` IDs with a die of ``sides`` faces, or
    with a 52-card deck (``cards``); ``family`` names the positions.

    >>> for line in dice(960, family="chess960").lines()[2:]:
    ...     print(line)
    1. Roll the die 3 times; the faces, in order, are a 3-digit number from 000 to 999.
    2. If the number is 960 or more, it does not count: start again from step 1.
    3. Otherwise the number is the position's id.
    `chess960 position ID` gives the position. A round starts over with probability 1/25.

    Raises :class:`~solver.errors.DrawCountError` for a ``count`` below 1 and
    :class:`~solver.errors.DiceError` for a die of fewer than 2 or more than
    1,000 faces, or a draw that would take more than 26 rolls.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise DrawCountError(count, f"cannot draw one of {count!r} positions")
    if cards:
        sides = DECK
    if isinstance(sides, bool) or not isinstance(sides, int) or not (
            MIN_SIDES <= sides <= MAX_SIDES):
        raise DiceError(sides, count, f"a die has from {MIN_SIDES} to {MAX_SIDES:,} faces, "
                                      f"not {sides!r}")
    found = Dice(count, sides, cards, family)
    if found.rolls > MAX_ROLLS:
        raise DiceError(sides, count, f"drawing one of {count:,} with {found.tool} takes "
                                      f"{found.rolls} rolls, more than {MAX_ROLLS}: take a die "
                                      f"with more faces")
    return found
