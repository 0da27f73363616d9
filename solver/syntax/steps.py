"""Numbering ranks by placement steps: a mixed-radix code, both ways.

A family declares its numbering as placement steps, least significant digit
first. Each step places one piece or a group of identical pieces on the
squares still free::

    "B:light"       a bishop on a free light square
    "B:dark"        a bishop on a free dark square
    "Q"             the queen on any free square
    "NN"            both knights on two free squares (pairs in lexicographic order)
    "A:opposite-Q"  the archbishop on a free square of the colour opposite the queen
    "A:same-Q"      ... of the queen's colour
    "RKR"           the last step may mix pieces: it fills the remaining squares in order
    "RKR|RRK|KRR"   ... in one of these orders, numbered as listed (a further
                    numbering's steps only: Scidb's shuffle chess)

A step's choices are the free squares, narrowed by the family's
``on-files``/``not-on-files`` rules and the step's colour, taken
left to right (groups: their combinations in lexicographic order). The ID is
``d0 + r0*(d1 + r1*(d2 + ...))`` where ``d`` are the choices made and ``r``
the numbers of choices. For Chess960 this is Scharnagl's
``4*(4*(6*N + Q) + D) + L``.

Numbering works with no enumeration: :meth:`Numbering.encode` and
:meth:`Numbering.decode` walk the steps only. That needs the same number of
choices at each step on every path; :class:`Numbering` surveys the paths
once (equal sets of free squares are walked once, so this is cheap) and,
when they differ, refuses to encode or decode with
:class:`~solver.errors.NumberingError` rather than number ranks wrongly.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, repeat
from math import comb, factorial, prod
from typing import Final

from solver.board.geometry import PIECE_NAMES, Colour, colour, piece_name
from solver.errors import IdRangeError, NumberingError, StepSyntaxError

_STEP_RE: Final = re.compile(r"([A-Za-z.]+)(?::(light|dark|opposite-([A-Za-z])|same-([A-Za-z])))?")


@dataclass(frozen=True)
class Step:
    """One placement step: which pieces it places and on which colour."""

    text: str
    pieces: str
    colour: Colour | None = None
    relative: str | None = None  # a placed piece whose colour decides this step's
    opposite: bool = False
    #: A last step's orders of the remaining pieces, numbered as listed
    #: (``()``: one order, :attr:`pieces`).
    orders: tuple[str, ...] = ()

    @property
    def choices(self) -> int:
        """How many ways a filling last step has (1 unless it lists orders)."""
        return len(self.orders) or 1

    @property
    def fill(self) -> bool:
        """Whether this step mixes pieces (and so fills the remaining squares)."""
        return len(set(self.pieces)) > 1 or bool(self.orders)


def parse_steps(texts: Sequence[str], pieces: str) -> tuple[Step, ...]:
    """Read placement steps and check they place every piece exactly once.

    >>> [s.pieces for s in parse_steps(["B:light", "B:dark", "Q", "NN", "RKR"], "KQRRBBNN")]
    ['B', 'B', 'Q', 'NN', 'RKR']
    """
    steps: list[Step] = []
    left = Counter(pieces)
    placed: set[str] = set()
    for index, text in enumerate(texts):
        if "|" in text:
            steps.append(_orders(index, text, len(texts), left))
            left = Counter()
            continue
        match = _STEP_RE.fullmatch(text)
        if not match:
            raise StepSyntaxError(
                index, f"step {text!r} is not LETTERS[:light|dark|opposite-X|same-X]")
        letters = match.group(1).upper()
        for letter in letters:
            if letter not in PIECE_NAMES and letter not in pieces:
                raise StepSyntaxError(index, f"step {text!r} has an unknown piece {letter!r}")
        qualifier = match.group(2)
        relative = (match.group(3) or match.group(4) or "").upper() or None
        step = Step(
            text=text,
            pieces=letters,
            colour=qualifier if qualifier in ("light", "dark") else None,  # type: ignore[arg-type]
            relative=relative,
            opposite=bool(match.group(3)),
        )
        if step.fill and qualifier:
            raise StepSyntaxError(index, f"step {text!r} mixes pieces, so it takes no colour")
        if step.fill and index != len(texts) - 1:
            raise StepSyntaxError(index, f"step {text!r} mixes pieces; only the last step may")
        if relative is not None:
            if relative not in placed:
                raise StepSyntaxError(index, f"step {text!r} refers to {relative!r}, "
                                             "which no earlier step places")
            if Counter(pieces)[relative] != 1:
                raise StepSyntaxError(index, f"step {text!r} refers to {relative!r}, "
                                             "which the family has more than once")
        need = Counter(letters)
        for letter, n in need.items():
            if left[letter] < n:
                raise StepSyntaxError(
                    index, f"step {text!r} places more {piece_name(letter, 2)} than are left")
            if not qualifier and not step.fill and left[letter] != n:
                raise StepSyntaxError(
                    index, f"step {text!r} places {n} of {left[letter]} "
                    f"{piece_name(letter, 2)} left; unqualified steps place them all")
        left -= need
        placed.update(letters)
        steps.append(step)
    missing = "".join(sorted(left.elements()))
    if missing:
        raise StepSyntaxError(len(texts) - 1 if texts else 0,
                              f"steps leave pieces unplaced: {missing}")
    return tuple(steps)


def _orders(index: int, text: str, steps: int, left: Counter[str]) -> Step:
    """A last step listing the orders the remaining pieces may stand in."""
    orders = tuple(part.strip().upper() for part in text.split("|"))
    if index != steps - 1:
        raise StepSyntaxError(index, f"step {text!r} lists orders; only the last step may")
    for order in orders:
        if not order.isalpha() or Counter(order) != left:
            have = "".join(sorted(left.elements()))
            raise StepSyntaxError(index, f"step {text!r}: order {order!r} does not place "
                                         f"the pieces left, {have}")
    if len(set(orders)) != len(orders):
        raise StepSyntaxError(index, f"step {text!r} lists an order twice")
    return Step(text=text, pieces=orders[0], orders=orders)


def default_steps(pieces: str) -> tuple[str, ...]:
    """Steps placing each kind of piece in the order the family lists them.

    >>> default_steps("KQRRBBNN")
    ('K', 'Q', 'RR', 'BB', 'NN')
    """
    counts = Counter(pieces)
    return tuple(letter * counts[letter] for letter in dict.fromkeys(pieces))


#: Combinations of at most this many are listed once and looked up; larger ones
#: are ranked and unranked by arithmetic (listing C(31, 16) of them took gigabytes).
_LISTED_CHOICES: Final = 4096


@cache
def _choices(size: int, k: int) -> tuple[tuple[int, ...], ...]:
    return tuple(combinations(range(size), k))


@cache
def _choice_index(size: int, k: int) -> dict[tuple[int, ...], int]:
    return {c: i for i, c in enumerate(_choices(size, k))}


def choice_of(size: int, k: int, index: int) -> tuple[int, ...]:
    """The ``index``-th ``k``-subset of ``range(size)`` in lexicographic order.

    >>> choice_of(5, 2, 0), choice_of(5, 2, 9), choice_of(40, 20, 1)
    ((0, 1), (3, 4), (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20))
    """
    if comb(size, k) <= _LISTED_CHOICES:
        return _choices(size, k)[index]
    out: list[int] = []
    first = 0
    for left in range(k, 0, -1):
        while True:
            below = comb(size - first - 1, left - 1)
            if index < below:
                out.append(first)
                first += 1
                break
            index -= below
            first += 1
    return tuple(out)


def index_of_choice(size: int, k: int, chosen: tuple[int, ...]) -> int:
    """The lexicographic index of the ``k``-subset ``chosen`` of ``range(size)``.

    >>> index_of_choice(5, 2, (3, 4)), index_of_choice(40, 20, choice_of(40, 20, 10**11))
    (9, 100000000000)
    """
    if comb(size, k) <= _LISTED_CHOICES:
        return _choice_index(size, k)[chosen]
    index, start, left = 0, 0, k
    for first in chosen:
        index += comb(size - start, left) - comb(size - first, left)
        start, left = first + 1, left - 1
    return index


class Numbering:
    """A mixed-radix numbering of ranks by placement steps.

    >>> n = Numbering(8, "KQRRBBNN", ["B:light", "B:dark", "Q", "NN", "RKR"])
    >>> n.radices, n.count
    ((4, 4, 6, 10, 1), 960)
    >>> n.encode("RNBQKBNR"), n.decode(518)
    (518, 'RNBQKBNR')
    """

    def __init__(
        self,
        region_size: int,
        pieces: str,
        steps: Sequence[str],
        allowed: Mapping[str, frozenset[int]] | None = None,
        family: str = "family",
        colours: Sequence[Colour] | None = None,
        paths: Sequence[Sequence[int] | None] | None = None,
    ) -> None:
        self.region_size = region_size
        self.family = family
        #: The colour of each square of the region (default: the first rank's).
        self.colours: tuple[Colour, ...] = (
            tuple(colours) if colours is not None else tuple(colour(f) for f in range(region_size)))
        self.steps = parse_steps(steps, pieces)
        #: Each step's order of the squares (region indices), from a numbering's
        #: ``path``: ``None`` where a step takes the free squares in region order.
        self.paths: dict[int, dict[int, int]] = {
            id(step): {square: place for place, square in enumerate(order)}
            for step, order in zip(self.steps, paths or (), strict=False) if order is not None}
        self.allowed = dict(allowed or {})
        #: The choices at each step, least significant first (on the first
        #: path, when they differ between paths).
        self.radices = self._first_path()
        self.count = prod(self.radices)
        #: Why the steps cannot number without enumeration (``None`` when they can).
        self.uneven: str | None = self._survey()

    def __repr__(self) -> str:
        """``<Numbering 'chess960': 5 steps, 960 ranks>``.

        >>> Numbering(8, "KQRRBBNN", ["B:light", "B:dark", "Q", "NN", "RKR"], family="chess960")
        <Numbering 'chess960': 5 steps, 960 ranks>
        """
        return f"<Numbering {self.family!r}: {len(self.steps)} steps, {self.count} ranks>"

    @property
    def uniform(self) -> bool:
        """Whether every step has the same number of choices on every path.

        >>> Numbering(8, "KQRRBBNN", ["Q", "B:light", "B:dark", "NN", "RKR"]).uniform
        False
        """
        return self.uneven is None

    def _candidates(self, step: Step, free: Sequence[int], row: Sequence[str]) -> list[int]:
        """The free squares ``step`` may use, in the order it takes them;
        ``row`` holds the pieces placed so far."""
        found = self._candidates_by(step, free, lambda letter: self.colours[row.index(letter)])
        return self._ordered(step, found)

    def _ordered(self, step: Step, squares: list[int]) -> list[int]:
        """``squares`` in the order ``step`` takes them (its path, if any)."""
        order = self.paths.get(id(step))
        if order is None:
            return squares
        last = len(order)
        return sorted(squares, key=lambda f: (order.get(f, last), f))

    @staticmethod
    def _wanted(step: Step, colour_of: Callable[[str], Colour]) -> Colour | None:
        """The colour ``step`` asks for, given the colours of placed pieces."""
        if step.relative is None:
            return step.colour
        there = colour_of(step.relative)
        return ("light" if there == "dark" else "dark") if step.opposite else there

    def _candidates_by(
        self, step: Step, free: Sequence[int], colour_of: Callable[[str], Colour]
    ) -> list[int]:
        want = self._wanted(step, colour_of)
        allowed = self.allowed.get(step.pieces[0])
        return [
            f for f in free
            if (want is None or self.colours[f] == want) and (allowed is None or f in allowed)
        ]

    def _first_path(self) -> tuple[int, ...]:
        radices: list[int] = []
        row = [""] * self.region_size
        free = list(range(self.region_size))
        for step in self.steps:
            if step.fill:
                radices.append(step.choices)
                continue
            candidates = self._candidates(step, free, row)
            k = len(step.pieces)
            radices.append(comb(len(candidates), k))
            if not radices[-1]:  # a dead end: no rank at all
                return tuple(radices + [0] * (len(self.steps) - len(radices)))
            for f in candidates[:k]:
                row[f] = step.pieces[0]
                free.remove(f)
        return tuple(radices)

    def _survey(self) -> str | None:
        """Walk every path of the steps; say where the numbers of choices differ.

        How many choices a step has depends only on how many free squares of
        each *kind* are left, a kind being the squares alike for every step
        (same colour, inside the same ``on-files`` sets). A state is those
        counts and the colours of placed pieces that later steps refer to, so
        equal states are walked once.
        """
        referenced = {s.relative for s in self.steps if s.relative is not None}
        sets = sorted({self.allowed[s.pieces[0]] for s in self.steps
                       if not s.fill and s.pieces[0] in self.allowed}, key=sorted)
        kinds = sorted({(self.colours[f], tuple(f in a for a in sets))
                        for f in range(self.region_size)})
        slot = {kind: i for i, kind in enumerate(kinds)}
        start = [0] * len(kinds)
        for f in range(self.region_size):
            start[slot[(self.colours[f], tuple(f in a for a in sets))]] += 1
        states: set[tuple[tuple[int, ...], tuple[tuple[str, Colour], ...]]] = {(tuple(start), ())}
        for index, step in enumerate(self.steps):
            if step.fill:
                break
            k = len(step.pieces)
            letter = step.pieces[0]
            inside = sets.index(self.allowed[letter]) if letter in self.allowed else None
            sizes: set[int] = set()
            following: set[tuple[tuple[int, ...], tuple[tuple[str, Colour], ...]]] = set()
            for free, marks in states:
                want = self._wanted(step, dict(marks).__getitem__)
                usable = [i for i, (shade, within) in enumerate(kinds)
                          if (want is None or shade == want)
                          and (inside is None or within[inside])]
                sizes.add(comb(sum(free[i] for i in usable), k))
                for taken in _spreads(k, [free[i] for i in usable]):
                    rest = list(free)
                    for i, n in zip(usable, taken, strict=True):
                        rest[i] -= n
                    if letter not in referenced:
                        following.add((tuple(rest), marks))
                        continue
                    # a piece steps refer to is single (parse_steps): one kind holds it
                    shade = next(kinds[i][0] for i, n in zip(usable, taken, strict=True) if n)
                    following.add((tuple(rest), (*marks, (letter, shade))))
            if len(sizes) > 1:
                *most, last = map(str, sorted(sizes))
                shown = f"{', '.join(most)} or {last}"
                return (f"placement steps do not give the same number of choices on every "
                        f"path: step {index + 1} {step.text!r} has {shown} choices, depending "
                        "on the steps before it")
            states = following
        return None

    def _walk(self, rank: str, upto: int | None = None) -> list[tuple[int, int]]:
        """The (choice, number of choices) of each step on the way to ``rank``
        (of the steps up to ``upto`` only, when given)."""
        free = list(range(self.region_size))
        row = list(rank)
        out: list[tuple[int, int]] = []
        for step in self.steps if upto is None else self.steps[:upto + 1]:
            if step.fill:
                got = "".join(rank[f] for f in self._ordered(step, free))
                if got not in (step.orders or (step.pieces,)):
                    raise NumberingError(self.family, f"{rank!r}: last step {step.text!r} "
                                                      f"does not fill {got!r}")
                out.append(((step.orders or (step.pieces,)).index(got), step.choices))
                continue
            candidates = self._candidates(step, free, row)
            letter, k = step.pieces[0], len(step.pieces)
            chosen = tuple(i for i, f in enumerate(candidates) if rank[f] == letter)
            if len(chosen) != k:
                raise NumberingError(
                    self.family,
                    f"{rank!r}: step {step.text!r} finds {len(chosen)} "
                    f"{piece_name(letter, len(chosen))} where it places {k}")
            out.append((index_of_choice(len(candidates), k, chosen), comb(len(candidates), k)))
            for i in chosen:
                free.remove(candidates[i])
        return out

    def digits(self, rank: str) -> tuple[int, ...]:
        """The choice made at each step to reach ``rank`` (least significant first).

        This orders ranks even where the steps do not give the same number of
        choices on every path (enumerated numbering). Raises
        :class:`~solver.errors.NumberingError` when the steps cannot place ``rank``.
        """
        return tuple(digit for digit, _ in self._walk(rank))

    def sort_keys(self, ranks: Sequence[str]) -> list[tuple[int, ...]]:
        """``digits(rank)[::-1]`` of every rank, the key of the canonical order.

        A step's choice depends only on where the pieces of the steps up to
        it stand, and for a step with no colour or files (after steps that
        place their letters whole) only on the order of the pieces still
        free; so each step reads one projection of the rank
        (``str.translate``), and each projection is worked out once.
        Raises :class:`~solver.errors.NumberingError` as :meth:`digits` does.

        >>> n = Numbering(8, "KQRRBBNN", ["B:light", "B:dark", "Q", "NN", "RKR"])
        >>> n.sort_keys(["RNBQKBNR"]) == [n.digits("RNBQKBNR")[::-1]]
        True
        """
        return list(zip(*reversed(self._columns(ranks)), strict=True))

    def ordered(self, ranks: Sequence[str]) -> list[str]:
        """``ranks`` sorted by :meth:`sort_keys`, each key folded into one integer.

        >>> Numbering(8, "KQRRBBNN", ["B:light", "B:dark", "Q", "NN", "RKR"]).ordered(
        ...     ["RNBQKBNR", "BBQNNRKR"])
        ['BBQNNRKR', 'RNBQKBNR']
        """
        from operator import add, mul

        keys: list[int] = [0] * len(ranks)
        for first, last in self._groups():  # most significant first (Horner)
            weight = prod(1 if s.fill else comb(self.region_size, len(s.pieces))
                          for s in self.steps[first:last + 1])
            column = self._column(ranks, first, last)
            keys = list(map(add, map(mul, keys, repeat(weight)), column))
        order = sorted(range(len(ranks)), key=keys.__getitem__)
        del keys
        return list(map(ranks.__getitem__, order))

    def _groups(self, most: int = 4096) -> list[tuple[int, int]]:
        """Runs of steps read from one projection, most significant first: a
        run grows while its projections (the arrangements of the letters it
        reads) number at most ``most``."""
        runs: list[tuple[int, int]] = []
        last = len(self.steps) - 1
        while last >= 0:
            first = last
            while first > 0 and self._projections(first - 1, last) <= most:
                first -= 1
            runs.append((first, last))
            last = first - 1
        return runs

    def _projections(self, first: int, last: int) -> int:
        """At most how many projections steps ``first``..``last`` read."""
        before, inside, _ = self._letters(first, last)
        deleted = self._deletes(first, last)
        squares = self.region_size - (len(before) if deleted else 0)
        kept = Counter(inside + ("" if deleted else before))
        total = factorial(squares)
        for n in kept.values():
            total //= factorial(n)
        return total // factorial(squares - sum(kept.values()))

    def _letters(self, first: int, last: int) -> tuple[str, str, str]:
        steps = self.steps
        return ("".join(s.pieces for s in steps[:first]),
                "".join(s.pieces for s in steps[first:last + 1]),
                "".join(s.pieces for s in steps[last + 1:]))

    def _deletes(self, first: int, last: int) -> bool:
        """Whether steps ``first``..``last`` read only the order of the squares
        left free: no colour or files, letters placed whole before them."""
        before, inside, after = self._letters(first, last)
        if self.paths:
            return False  # steps with paths of their own read the squares themselves
        return (not set(before) & set(inside + after)
                and not set(inside) & set(after)
                and all(s.fill or (s.colour is None and s.relative is None
                                   and s.pieces[0] not in self.allowed)
                        for s in self.steps[first:last + 1]))

    def _columns(self, ranks: Sequence[str]) -> list[list[int]]:
        """Each step's choice for every rank (least significant step first)."""
        return [self._column(ranks, j, j) for j in range(len(self.steps))]

    def _column(self, ranks: Sequence[str], first: int, last: int) -> list[int]:
        """The choices of steps ``first``..``last`` for every rank, as one
        number (the least significant step's choice in the lowest place)."""
        if not ranks:
            return []
        table, delete, memo = self._projection(first, last)
        blob = "".join(ranks).encode("ascii").translate(table, delete)
        width = len(blob) // len(ranks)
        seen: Iterable[bytes]
        if not width or len(set(map(len, ranks))) != 1:  # one at a time
            seen = (r.encode("ascii").translate(table, delete) for r in ranks)
        else:
            seen = map(blob.__getitem__, map(slice, range(0, len(blob), width),
                                             range(width, len(blob) + width, width)))
        column = list(map(memo.__getitem__, seen))
        if None in column:
            rank = ranks[column.index(None)]
            self.digits(rank)  # raises, naming the rank
            raise NumberingError(self.family, f"{rank!r}: the steps cannot place it")
        return column  # type: ignore[return-value]

    def _projection(self, first: int, last: int
                    ) -> tuple[bytes, bytes, dict[bytes, int | None]]:
        """How steps ``first``..``last`` read a rank: a ``bytes.translate``
        table and the letters it deletes, and a memo from what is left to the
        steps' choices as one number (``None``: the steps cannot place it)."""
        steps = self.steps[first:last + 1]
        before, inside, after = self._letters(first, last)
        deleted = self._deletes(first, last)
        sizes = [1 if s.fill else comb(self.region_size, len(s.pieces)) for s in steps]
        blank = sorted(set(after) - set(inside) - set(before))
        # blanked to "_", never a piece letter nor "." (an empty square a step may place)
        source, target = "".join(blank), "_" * len(blank)

        def number(digits: Sequence[int]) -> int:
            value = 0
            for digit, size in zip(reversed(digits), reversed(sizes), strict=True):
                value = value * size + digit
            return value

        if deleted:
            def choice(seen: bytes) -> int | None:
                text = seen.decode("ascii")
                free = list(range(len(text)))
                digits = []
                for step in steps:
                    if step.fill:
                        if "".join(text[f] for f in free) != step.pieces:
                            return None
                        digits.append(0)
                        continue
                    k = len(step.pieces)
                    chosen = tuple(i for i, f in enumerate(free) if text[f] == step.pieces[0])
                    if len(chosen) != k:
                        return None
                    digits.append(index_of_choice(len(free), k, chosen))
                    free = [f for i, f in enumerate(free) if i not in chosen]
                return number(digits)
        else:
            def choice(seen: bytes) -> int | None:
                try:
                    walked = self._walk(seen.decode("ascii"), last)
                except (NumberingError, ValueError, IndexError):
                    return None
                return number([digit for digit, _ in walked[first:]])

        class Memo(dict[bytes, int | None]):
            def __missing__(self, seen: bytes) -> int | None:
                found = self[seen] = choice(seen)
                return found

        table = bytes.maketrans(source.encode("ascii"), target.encode("ascii"))
        return table, ("".join(sorted(set(before))) if deleted else "").encode("ascii"), Memo()

    def encode(self, rank: str) -> int:
        """The ID of ``rank`` (which must follow the family's rules).

        Raises :class:`~solver.errors.NumberingError` when the steps cannot
        place ``rank`` or do not give the same number of choices on every path.
        """
        if self.uneven is not None:
            raise NumberingError(self.family, self.uneven)
        value, scale = 0, 1
        for digit, size in self._walk(rank):
            value += scale * digit
            scale *= size
        return value

    def decode(self, number: int) -> str:
        """The rank with ID ``number``, ``0 <= number < count``.

        Raises :class:`~solver.errors.IdRangeError` for a number out of range
        and :class:`~solver.errors.NumberingError` when the steps do not give
        the same number of choices on every path.
        """
        if self.uneven is not None:
            raise NumberingError(self.family, self.uneven)
        if not 0 <= number < self.count:
            raise IdRangeError(str(number), number, self.count, self.family)
        row = [""] * self.region_size
        free = list(range(self.region_size))
        for index, step in enumerate(self.steps):
            if step.fill:
                number, digit = divmod(number, step.choices)
                for f, letter in zip(self._ordered(step, free),
                                     (step.orders or (step.pieces,))[digit], strict=True):
                    row[f] = letter
                free = []
                continue
            candidates = self._candidates(step, free, row)
            k = len(step.pieces)
            number, digit = divmod(number, self.radices[index])
            for i in choice_of(len(candidates), k, digit):
                row[candidates[i]] = step.pieces[0]
                free.remove(candidates[i])
        return "".join(row)


def _spreads(k: int, sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``k`` items from groups of these sizes (how many from each).

    >>> list(_spreads(2, [1, 2]))
    [(0, 2), (1, 1)]
    """
    if not sizes:
        if k == 0:
            yield ()
        return
    first, rest = sizes[0], sizes[1:]
    for n in range(min(k, first) + 1):
        if k - n <= sum(rest):
            for tail in _spreads(k - n, rest):
                yield (n, *tail)
