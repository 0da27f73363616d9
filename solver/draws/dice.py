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

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Final

from solver.board.geometry import piece_name
from solver.draws.procedure import Draw, Procedure
from solver.errors import DiceError, DrawCountError

if TYPE_CHECKING:
    from solver.family import Family

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
    #: IDs left out: one drawn starts the round again.
    exclude: tuple[int, ...] = ()

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
        left_out = len(self.exclude) * (self.limit // self.count)
        return Fraction(self.span - self.limit + left_out, self.span)

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
        left_out: list[tuple[int, int]] = []
        for number in sorted(set(self.exclude)):
            if left_out and left_out[-1][1] == number - 1:
                left_out[-1] = (left_out[-1][0], number)
            else:
                left_out.append((number, number))
        return Procedure(self._name(), self.count, draws, weights, -low * sum(weights),
                         reject, self.limit > self.count, tuple(left_out))

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
        left = count - len(set(self.exclude))
        head = [f"To draw one of the {count:,} {what} (ids 0 to {count - 1:,}), "
                f"each with probability exactly 1/{left:,},", f"with {self._tool_words()}:"]
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
        if self.exclude:
            from solver.draws.procedure import runs

            out = sorted(set(self.exclude))
            steps.append(f"If the id is one left out ({runs(out)}), start again from step 1.")
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
         family: str | None = None, exclude: Sequence[int] = ()) -> Dice:
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
    if exclude and len(set(exclude)) >= count:
        raise DiceError(sides, count, f"every one of the {count:,} ids is left out: "
                                      f"nothing to draw")
    found = Dice(count, sides, cards, family, tuple(sorted(set(exclude))))
    if found.rolls > MAX_ROLLS:
        raise DiceError(sides, count, f"drawing one of {count:,} with {found.tool} takes "
                                      f"{found.rolls} rolls, more than {MAX_ROLLS}: take a die "
                                      f"with more faces")
    return found


# -- piece by piece ------------------------------------------------------------------------

_ORDINALS: Final = ("1st", "2nd", "3rd")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ...

    >>> ordinal(1), ordinal(4), ordinal(12)
    ('1st', '4th', '12th')
    """
    return _ORDINALS[n - 1] if 1 <= n <= 3 else f"{n}th"


@dataclass(frozen=True)
class PieceStep:
    """One placement step done at the table: ``what`` is placed on one of the
    ``choices`` (``labels``, in the numbering's order) among ``where``; ``rolls``
    are the faces each roll keeps (their product is ``choices``); ``weight``
    is the step's digit's weight in the ID."""

    what: str
    where: str
    labels: tuple[str, ...]
    rolls: tuple[int, ...]
    weight: int
    side: str = ""

    @property
    def choices(self) -> int:
        """How many ways the step has."""
        return len(self.labels)


@dataclass(frozen=True)
class Pieces:
    """A draw of one of ``count`` positions of ``family`` piece by piece with a
    die of ``sides`` faces: each step a roll (or a few) read from a table, a
    face past the table rolled again; ``excluded``: ``(id, rank)`` left out."""

    family: str
    count: int
    sides: int
    steps: tuple[PieceStep, ...]
    last: str
    excluded: tuple[tuple[int, str], ...] = ()

    @property
    def low(self) -> int:
        """The die's first face: 0 for a ten-sided die, else 1."""
        return 0 if self.sides == 10 else 1

    def procedure(self) -> Procedure:
        """The procedure as data (:mod:`solver.draws.procedure`): each roll a draw,
        its faces past the step's table a reject condition (rolling that die again
        gives the same distribution as starting over, the rolls being independent)."""
        draws: list[Draw] = []
        weights: list[int] = []
        reject: list[tuple[tuple[str, int, int], ...]] = []
        low = self.low
        for number, step in enumerate(self.steps, 1):
            for at, faces in enumerate(step.rolls):
                name = _roll_name(step, at, number)
                draws.append(Draw(name, low, low + self.sides - 1))
                later = 1
                for more in step.rolls[at + 1:]:
                    later *= more
                weights.append(step.weight * later)
                if faces < self.sides:
                    reject.append(((name, low + faces, low + self.sides - 1),))
        offset = -low * sum(weights)
        exclude = tuple((number, number) for number, _ in self.excluded)
        return Procedure(f"{self.family} piece by piece with a {self.sides}-sided die",
                         self.count, tuple(draws), tuple(weights), offset, tuple(reject),
                         False, exclude)

    def faces(self, kept: int) -> str:
        """The faces a roll keeping ``kept`` of them reads, in words."""
        low = self.low
        return f"{low}" if kept == 1 else f"{low} to {low + kept - 1}"

    def table(self, step: PieceStep) -> list[tuple[str, str]]:
        """``(faces, choice)`` for each choice of ``step``: the faces read in order."""
        low = self.low
        rows = []
        for choice, label in enumerate(step.labels):
            digits = []
            number = choice
            for kept in reversed(step.rolls):
                number, digit = divmod(number, kept)
                digits.append(str(low + digit))
            rows.append((" then ".join(reversed(digits)), label))
        return rows

    def lines(self) -> list[str]:
        """The procedure in words, for an arbiter to follow."""
        sides = self.sides
        faces = "faces 0 to 9; a face marked 10 counts as 0" if sides == 10 else \
            f"faces 1 to {sides}"
        head = [f"To draw one of the {self.count:,} {self.family} positions piece by piece, "
                f"each with probability exactly 1/{self.count - len(self.excluded):,},",
                f"with {_article(_WORDS.get(sides, str(sides)))}-sided die ({faces}). Count the "
                f"squares from the a-file; a face not in a step's table: roll that die again."]
        shown: list[str] = []
        for step in self.steps:
            side = f"{step.side}: " if step.side else ""
            if not step.rolls:
                shown.append(f"{side}{step.what} on {step.where}: the only way, no roll.")
                continue
            if len(step.rolls) == 1:
                roll = f"roll the die ({self.faces(step.rolls[0])})"
            else:
                roll = "roll the die " + ", then ".join(
                    f"({self.faces(kept)})" for kept in step.rolls)
            table = ", ".join(f"{f} {label}" for f, label in self.table(step))
            shown.append(f"{side}{step.what} on {step.where}: {roll}: {table}.")
        shown.append(self.last)
        if self.excluded:
            left = ", ".join(f"{rank} ({number})" for number, rank in self.excluded)
            shown.append(f"If the position is one left out, {left}, start again from step 1.")
        return [*head, *(f"{i}. {line}" for i, line in enumerate(shown, 1))]


def _article(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou8" or word in ("11", "18") else f"a {word}"


def _roll_name(step: PieceStep, at: int, number: int) -> str:
    side = f"{step.side}'s " if step.side else ""
    return f"{number}. {side}{step.what}" + (f", roll {at + 1}" if len(step.rolls) > 1 else "")


def rolls_for(choices: int, sides: int) -> tuple[int, ...] | None:
    """The faces each roll keeps to pick one of ``choices`` with no arithmetic:
    one roll if the die has enough faces, else a few whose kept faces multiply
    to ``choices`` (read from a table); None when no such rolls exist.

    >>> rolls_for(4, 6), rolls_for(10, 6), rolls_for(7, 6), rolls_for(1, 6)
    ((4,), (5, 2), None, ())
    """
    if choices == 1:
        return ()
    if choices <= sides:
        return (choices,)
    found: list[int] = []
    left = choices
    while left > 1:
        kept = next((d for d in range(min(left, sides), 1, -1) if left % d == 0), None)
        if kept is None:
            return None
        found.append(kept)
        left //= kept
    return tuple(found)


def pieces(family: Family, sides: int = 10,
           excluded: Sequence[int] = ()) -> Pieces:
    """The piece-by-piece draw of ``family`` with a die of ``sides`` faces,
    leaving out the IDs ``excluded`` (at most :data:`MAX_NAMED`, each named).

    >>> from solver.family import Family
    >>> found = pieces(Family.load("chess960"))
    >>> print(found.lines()[2])
    1. the light-squared bishop on b1, d1, f1, h1: roll the die (0 to 3): 0 b1, 1 d1, 2 f1, 3 h1.
    >>> [(step.what, step.choices) for step in found.steps][2:]
    [('the queen', 6), ('the knights', 10)]
    >>> found.table(found.steps[3])[9]
    ('9', '4th+5th')

    Raises :class:`~solver.errors.DiceError` for a family whose steps do not
    number it directly, or a step the die cannot give without arithmetic.
    """
    if isinstance(sides, bool) or not isinstance(sides, int) or not (
            MIN_SIDES <= sides <= MAX_SIDES):
        raise DiceError(sides, family.count, f"a die has from {MIN_SIDES} to {MAX_SIDES:,} "
                                             f"faces, not {sides!r}")
    why = _not_by_pieces(family)
    if why is not None:
        raise DiceError(sides, family.count, f"{family.name} cannot be drawn piece by piece: "
                                             f"{why}; use --method id")
    if len(excluded) > MAX_NAMED:
        raise DiceError(sides, family.count, f"--method pieces names each position left "
                                             f"out, at most {MAX_NAMED}: {len(excluded):,} "
                                             f"given; use --method id")
    numbering = family.numbering
    side_count = numbering.count
    found: list[PieceStep] = []
    sides_named = ("White", "Black") if family.independent else ("",)
    for at, side in enumerate(sides_named):
        above = side_count if family.independent and at == 0 else 1
        weight = above
        for index, (step, radix) in enumerate(zip(numbering.steps, numbering.radices,
                                                   strict=True)):
            if step.fill and radix == 1:
                continue
            rolls = rolls_for(radix, sides)
            if rolls is None:
                raise DiceError(sides, family.count,
                                f"{family.name} cannot be drawn piece by piece with a "
                                f"{sides}-sided die: step {step.text!r} has {radix} "
                                f"choices, which no rolls of that die give without "
                                f"arithmetic; take a die of at least {radix} faces or "
                                f"use --method id")
            what, where, labels = _step_words(family, index, side == "Black")
            found.append(PieceStep(what, where, labels, rolls, weight, side))
            weight *= radix
    last = numbering.steps[-1]
    tail = ("Black mirrors White." if not family.independent else
            "the same for Black's rank, from a8.")
    if last.fill and last.choices == 1:
        names = ", ".join(piece_name(p, 1, family.names) for p in last.pieces)
        finish = (f"Then the {names} on the {len(last.pieces)} free squares, in this order "
                  f"from the a-file; {tail}")
    else:
        finish = f"Then {tail}" if family.independent else tail
    named = tuple((number, _named(family, number)) for number in sorted(set(excluded)))
    return Pieces(family.name, family.count, sides, tuple(found), finish, named)


def _named(family: Family, number: int) -> str:
    """The position ``number`` as its rank, or White's and Black's (lower case)."""
    position = family.position(number)
    if not family.independent:
        return position.white
    return f"{position.white} {position.black.lower()}"


#: The most positions ``--method pieces`` leaves out (each named in its steps).
MAX_NAMED: Final = 12


def _not_by_pieces(family: Family) -> str | None:
    """Why ``family``'s placement steps do not give its positions one by one (None: they do)."""
    ruleset = family.ruleset
    if ruleset.army is not None:
        return "its army varies"
    if ruleset.numbering != "arithmetic":
        return "its placement steps do not give exactly its positions, each as often"
    if ruleset.castling.variations != 1:
        return "its positions include castling variations"
    if family.numbering.paths:
        return "its steps take squares in orders of their own"
    if not ruleset.region.one_rank or ruleset.region.ranks[0] != 1 or ruleset.fixed or \
            family.sides.name not in ("mirror", "independent"):
        return "its positions are not a back rank on the first rank, Black's facing White's"
    return None


def _step_words(family: Family, index: int, black: bool = False
                ) -> tuple[str, str, tuple[str, ...]]:
    """What step ``index`` places, where, and its choices' labels in order
    (``black``: on Black's rank, read from the a-file as White's is)."""
    numbering = family.numbering
    step = numbering.steps[index]
    radix = numbering.radices[index]
    names = family.ruleset.region.names
    if black:  # the same files on Black's rank, whose colours are swapped on an even board
        ranks = family.layout.ranks
        names = tuple(f"{name.rstrip('0123456789')}{ranks}" for name in names)
        if ranks % 2 == 0 and step.colour is not None:
            step = replace(step, colour="dark" if step.colour == "light" else "light")
    if step.fill:
        return ("the last pieces", "the free squares",
                tuple(" ".join(order) for order in step.orders))
    k = len(step.pieces)
    letter = step.pieces[0]
    free = k
    while comb(free, k) != radix:
        free += 1
    shade = f"{step.colour}-squared " if step.colour and k == 1 else ""
    what = f"the {shade}{piece_name(letter, k, family.names)}"
    squares = f"free {step.colour} squares" if step.colour else "free squares"
    if step.relative is not None:
        relation = "opposite" if step.opposite else "same"
        squares = (f"free squares of the colour {relation} to the "
                   f"{piece_name(step.relative, 1, family.names)}'s")
    allowed = numbering.allowed.get(letter)
    earlier = numbering.steps[:index]
    own_colour = numbering.steps[index].colour
    fixed = (step.relative is None and (index == 0 or (own_colour is not None and all(
        s.colour is not None and s.colour != own_colour for s in earlier))))
    if fixed:
        named = [names[f] for f in range(len(names))
                 if (own_colour is None or numbering.colours[f] == own_colour)
                 and (allowed is None or f in allowed)]
        labels = tuple("+".join(named[i] for i in chosen)
                       for chosen in combinations(range(len(named)), k))
        return what, ", ".join(named), labels
    count_words = "" if k == 1 else f"{_NUMBERS.get(k, str(k))} of "
    where = f"{count_words}the {free} {squares}"
    if allowed is not None:
        where += f" on {', '.join(names[f] for f in sorted(allowed))}"
    labels = tuple("+".join(ordinal(i + 1) for i in chosen)
                   for chosen in combinations(range(free), k))
    return what, where, labels


_NUMBERS: Final = {2: "two", 3: "three", 4: "four", 5: "five"}


# -- the printable sheet -------------------------------------------------------------------

_SHEET_STYLE: Final = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 46em;
       color: #111; line-height: 1.35; }
h1 { font-size: 1.35em; margin: 0 0 .3em; }
p.sub { color: #444; margin: 0 0 1em; }
ol { padding-left: 1.4em; }
li { margin: 0 0 .9em; }
table { border-collapse: collapse; margin: .35em 0; font-size: .9em; }
th, td { border: 1px solid #888; padding: .15em .45em; text-align: center; }
th { background: #e8e4da; font-weight: 600; }
.write { display: inline-block; min-width: 9em; border-bottom: 1px solid #111; }
.box { display: inline-block; width: 1.8em; height: 1.6em; border: 1px solid #111;
       margin-right: .25em; vertical-align: middle; }
footer { margin-top: 1.2em; border-top: 1px solid #888; padding-top: .6em; }
@media print { body { margin: 0; max-width: none; font-size: 11pt; } }
"""


def _page(title: str, sub: str, items: Sequence[str], footer: str) -> str:
    from html import escape

    listed = "".join(f"\n<li>{item}</li>" for item in items)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{_SHEET_STYLE}</style>\n</head>\n"
            f"<body>\n<h1>{escape(title)}</h1>\n<p class=\"sub\">{escape(sub)}</p>\n"
            f"<ol>{listed}</ol>\n<footer>{footer}</footer>\n</body>\n</html>\n")


def _boxes(n: int) -> str:
    return '<span class="box"></span>' * n


_SIGNED: Final = ('Position: <span class="write"></span> &nbsp; id: <span class="write">'
                  '</span><br>Arbiter: <span class="write"></span> &nbsp; Date: '
                  '<span class="write"></span>')


def pieces_sheet(found: Pieces) -> str:
    """A printable one-page sheet of ``found``: each step with its table from
    face to square (or pair), and boxes to write the rolls in.

    >>> from solver.family import Family
    >>> page = pieces_sheet(pieces(Family.load("chess960")))
    >>> page.count("<table>"), "<td>h1</td>" in page, "http" in page
    (4, True, False)
    """
    from html import escape

    lines = found.lines()
    items = []
    for step in found.steps:
        side = f"{step.side}: " if step.side else ""
        head = f"<b>{escape(side + step.what)}</b> on {escape(step.where)}"
        if not step.rolls:
            items.append(f"{head}: the only way, no roll.")
            continue
        rows = found.table(step)
        faces = "".join(f"<td>{escape(f)}</td>" for f, _ in rows)
        labels = "".join(f"<td>{escape(label)}</td>" for _, label in rows)
        reroll = ("Any other face: roll again. " if any(k < found.sides for k in step.rolls)
                  else "")
        rolls = " then ".join(f"({found.faces(k)})" for k in step.rolls)
        square = "squares" if "+" in rows[0][1] else "square"
        items.append(f"{head}: roll {escape(rolls)}.<table><tr><th>face</th>{faces}</tr>"
                     f"<tr><th>{square}</th>{labels}</tr></table>{escape(reroll)}Rolls: "
                     f"{_boxes(4)}")
    last = found.last.removeprefix("Then ")
    items.append(escape(last[:1].upper() + last[1:]))
    if found.excluded:
        items.append(escape(lines[-1].split(". ", 1)[1]))
    title = f"Draw a {found.family} position piece by piece"
    return _page(title, " ".join(lines[:2]), items, _SIGNED)


def dice_sheet(stated: Dice, rules: str | None = None) -> str:
    """A printable one-page sheet of the draw by ID ``stated``: its steps, and
    boxes to write each round's rolls in.

    >>> page = dice_sheet(dice(960, family="chess960"))
    >>> page.count('<span class="box">'), "960 or more" in page
    (9, True)
    """
    from html import escape

    lines = stated.lines(rules)
    steps = [line.split(". ", 1)[1] for line in lines if line[:1].isdigit()]
    rounds = "".join(f"<br>Try {n}: {_boxes(stated.rolls)}" for n in range(1, 4))
    items = [escape(step) for step in steps]
    items[0] += rounds
    what = stated.family or f"{stated.count:,} ids"
    note = re.sub(r"`([^`]*)`", r"<code>\1</code>", escape(lines[-1]))
    return _page(f"Draw a {what} id with {stated.tool}", " ".join(lines[:2]), items,
                 f"{note}<br>{_SIGNED}")
