"""Numbering families whose army varies (``K + 7 of NBRQ``), by arithmetic.

A rank of such a family is a *frame* (the fixed pieces where the family's
rules and steps put them, numbered by its own numbering) and a *word*: the
pool's letters on the squares the frame leaves, read from the a-file on.
Words are numbered in dictionary order of the pool's letters as written
(``NBRQ``: ``NNNNNNN`` is 0, ``QQQQQQQ`` is 4^7 - 1), and::

    side id = word + pool^size * frame id

With a ``link`` the sides' ranks are tied (FICS wild 4: Black has White's
pieces, and as many bishops on dark squares). Pairs are then numbered in the
order of White's side id, then Black's (White the more significant, as for
independent sides): a pair's id counts the pairs of every White rank before
its own, then the Black ranks before its own that fit its White rank. Each
of those is counted in closed form, class by class (a class: the pool's
letters counted, and the linked piece's dark squares), so nothing is listed:

* ``fit(class, frame)`` words put the class's letters on a frame's pool
  squares: C(dark, d) * C(light, x - d) * (the rest's multinomial);
* ``size(class)`` is that summed over the frames; a White rank has
  ``size(class)`` Black ranks that fit it.

>>> from solver.family import Family
>>> wild3 = Family.load("wild3").army
>>> wild3.count, wild3.id("RNBQKBNR"), wild3.rank(74194)
(131072, 74194, 'RNBQKBNR')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from math import comb, factorial, prod
from typing import TYPE_CHECKING, Final, Protocol

from solver.errors import IdRangeError, NumberingError

if TYPE_CHECKING:
    from solver.ruleset.army_keys import Army
    from solver.ruleset.reader import RuleSet


class Frames(Protocol):
    """What the numbering asks of the family of frames (a :class:`~solver.family.Family`)."""

    @property
    def side_count(self) -> int: ...
    def rank_of(self, number: int) -> str: ...
    def rank_id(self, rank: str) -> int: ...
    def solver_ranks(self) -> list[str]: ...


class Armed(Protocol):
    """What ``check`` asks of a family whose army varies (a :class:`~solver.family.Family`)."""

    ruleset: RuleSet

    @property
    def army(self) -> ArmyIndex: ...
    @property
    def linked(self) -> bool: ...
    def breaks_a_rule(self, rank: str) -> bool: ...

__all__ = ["MAX_LINKED_FRAMES", "ArmyIndex"]

#: Most frames a linked family may have (each is visited to number a pair).
MAX_LINKED_FRAMES: Final = 20_000

#: A class of ranks: how many of each pool letter, and the linked piece's dark squares.
Class = tuple[tuple[int, ...], int]


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` counts, in dictionary order, largest first.

    >>> _compositions(2, 2)
    [(2, 0), (1, 1), (0, 2)]
    """
    if parts == 1:
        return [(total,)]
    return [(first, *rest) for first in range(total, -1, -1)
            for rest in _compositions(total - first, parts - 1)]


class ArmyIndex:
    """One side's ranks (and, linked, the pairs) of a family whose army varies.

    The frame is numbered by the family itself with the army replaced by its
    frame (:attr:`frame`); it has the interface of
    :class:`~solver.numbering.index.RankIndex` that :class:`~solver.family.Family`
    uses (``count``, ``id``, ``rank``, ``listed``, ``ids``, ``by_id``).
    """

    listed: list[str] | None = None
    ids: dict[str, int] | None = None
    by_id: list[str] | None = None

    def __init__(self, ruleset: RuleSet, frame: Callable[[], Frames]) -> None:
        assert ruleset.army is not None
        self.ruleset = ruleset
        self.army: Army = ruleset.army
        self._frame_maker = frame
        self.pool = self.army.pool
        self.size = self.army.size
        self.per_frame = self.army.per_frame
        self._letter = {p: i for i, p in enumerate(self.pool)}
        self.colours = ruleset.region.colours
        self._fits: dict[tuple[tuple[int, ...], int, int, int], int] = {}
        self._weights: dict[tuple[tuple[int, ...], int, int, int], int] = {}

    @cached_property
    def frame(self) -> Frames:
        """The family of frames: this family with the army's frame as its pieces."""
        return self._frame_maker()

    @cached_property
    def frames(self) -> int:
        """How many frames there are."""
        return self.frame.side_count

    @property
    def count(self) -> int:
        """How many ranks one side has."""
        return self.frames * self.per_frame

    # -- one side ---------------------------------------------------------------

    def _mask(self, rank: str) -> tuple[str, str]:
        """The frame of ``rank`` and its word (the pool's letters, a-file first)."""
        fixed = list(self.army.fixed)
        frame, word = [], []
        for letter in rank:
            if letter in fixed:
                fixed.remove(letter)
                frame.append(letter)
            else:
                frame.append(self.army.placeholder)
                word.append(letter)
        return "".join(frame), "".join(word)

    def word_number(self, word: str) -> int:
        """A word's place in dictionary order of the pool's letters."""
        number = 0
        base = len(self.pool)
        for letter in word:
            number = number * base + self._letter[letter]
        return number

    def word_of(self, number: int) -> str:
        """The word with place ``number``."""
        base = len(self.pool)
        letters = []
        for _ in range(self.size):
            number, digit = divmod(number, base)
            letters.append(self.pool[digit])
        return "".join(reversed(letters))

    def _fill(self, frame: str, word: str) -> str:
        letters = iter(word)
        placeholder = self.army.placeholder
        return "".join(next(letters) if p == placeholder else p for p in frame)

    def id(self, rank: str) -> int:
        """The side id of a valid rank (upper-case letters)."""
        frame, word = self._mask(rank)
        return self.word_number(word) + self.per_frame * self.frame.rank_id(frame)

    def rank(self, number: int) -> str:
        """The rank with side id ``number``."""
        if not 0 <= number < self.count:
            raise IdRangeError(str(number), number, self.count, self.ruleset.name)
        frame_id, word = divmod(number, self.per_frame)
        return self._fill(self.frame.rank_of(frame_id), self.word_of(word))

    def __iter__(self) -> Iterator[str]:
        """Every rank in side-id order (words in dictionary order: :func:`itertools.product`)."""
        from itertools import product

        placeholder = self.army.placeholder
        for frame_id in range(self.frames):
            frame = self.frame.rank_of(frame_id)
            pattern = frame.replace("%", "%%").replace(placeholder, "%s")
            for word in product(self.pool, repeat=self.size):
                yield pattern % word

    # -- linked sides -------------------------------------------------------------

    @cached_property
    def _frame_list(self) -> list[tuple[str, tuple[bool, ...]]]:
        """Every frame in order, with the darkness of its pool squares (a-file first)."""
        if self.frames > MAX_LINKED_FRAMES:
            raise NumberingError(self.ruleset.name, (
                f"its fixed pieces stand in {self.frames:,} ways; linked sides are numbered "
                f"frame by frame, at most {MAX_LINKED_FRAMES:,}"))
        placeholder = self.army.placeholder
        out = []
        for frame_id in range(self.frames):
            frame = self.frame.rank_of(frame_id)
            out.append((frame, tuple(self.colours[f] == "dark"
                                     for f, p in enumerate(frame) if p == placeholder)))
        return out

    @cached_property
    def _linked(self) -> int:
        """The index in the pool of the piece whose colours are linked (-1: none)."""
        colour = self.army.colour
        return -1 if colour is None else self.pool.index(colour)

    def _fit(self, counts: Sequence[int], dark: int, light: int, need: int) -> int:
        """How many words put ``counts`` of the pool's letters on ``dark`` dark and
        ``light`` light squares, with ``need`` of the linked piece on dark ones."""
        key = (tuple(counts), dark, light, need)
        found = self._fits.get(key)
        if found is None:
            found = self._fits[key] = self._fit_anew(counts, dark, light, need)
        return found

    def _fit_anew(self, counts: Sequence[int], dark: int, light: int, need: int) -> int:
        x = self._linked
        rest = factorial(dark + light)
        if x < 0:
            return rest // prod(factorial(n) for n in counts)
        mine = counts[x]
        if not 0 <= need <= dark or not 0 <= mine - need <= light:
            return 0
        others = [n for i, n in enumerate(counts) if i != x]
        return (comb(dark, need) * comb(light, mine - need)
                * factorial(dark + light - mine) // prod(factorial(n) for n in others))

    @cached_property
    def classes(self) -> dict[Class, int]:
        """Each class with its size: how many ranks of one side fall in it."""
        sizes: dict[Class, int] = {}
        darks = range(self.size + 1) if self._linked >= 0 else range(1)
        frames_with: dict[int, int] = {}  # frames by their dark placeholder squares
        for _, shades in self._frame_list:
            frames_with[sum(shades)] = frames_with.get(sum(shades), 0) + 1
        for counts in _compositions(self.size, len(self.pool)):
            for need in darks:
                total = sum(frames * self._fit(counts, dark, self.size - dark, need)
                            for dark, frames in frames_with.items())
                if total:
                    sizes[(counts, need)] = total
        return sizes

    @cached_property
    def pair_count(self) -> int:
        """How many pairs of linked ranks there are."""
        return sum(n * n for n in self.classes.values())

    def class_of(self, rank: str) -> Class:
        """A rank's class: its pool letters counted (the fixed ones taken out),
        and the linked piece's dark squares (the linked piece is never fixed)."""
        fixed = self.army.fixed
        counts = tuple(rank.count(p) - fixed.count(p) for p in self.pool)
        if self._linked < 0:
            return counts, 0
        linked = self.pool[self._linked]
        colours = self.colours
        return counts, sum(1 for f, letter in enumerate(rank)
                           if letter == linked and colours[f] == "dark")

    def _weight_after(self, used: tuple[int, ...], dark_used: int, dark: int, light: int) -> int:
        """The pairs of every word that completes a prefix (``used`` letters,
        ``dark_used`` linked ones on dark squares) on ``dark`` + ``light`` more
        squares: each completion weighed by its class's size."""
        key = (used, dark_used, dark, light)
        found = self._weights.get(key)
        if found is None:
            found = self._weights[key] = self._weight_anew(used, dark_used, dark, light)
        return found

    def _weight_anew(self, used: Sequence[int], dark_used: int, dark: int, light: int) -> int:
        total = 0
        sizes = self.classes
        darks = range(dark + 1) if self._linked >= 0 else range(1)
        for rest in _compositions(dark + light, len(self.pool)):
            counts = tuple(u + r for u, r in zip(used, rest, strict=True))
            for need in darks:
                size = sizes.get((counts, dark_used + need if self._linked >= 0 else 0))
                if size:
                    total += self._fit(rest, dark, light, need) * size
        return total

    @cached_property
    def _frame_weights(self) -> list[int]:
        """For each frame, the pairs whose White rank has it."""
        zero = (0,) * len(self.pool)
        return [self._weight_after(zero, 0, sum(s), len(s) - sum(s))
                for _, s in self._frame_list]

    def _words_before(self, word: str, shades: Sequence[bool],
                      weigh: Callable[[tuple[int, ...], int, int, int], int]) -> int:
        """Sum ``weigh`` over the words before ``word`` on these squares, by prefix."""
        used = [0] * len(self.pool)
        dark_used = 0
        total = 0
        linked = self._linked
        for i, letter in enumerate(word):
            left = shades[i + 1:]
            dark, light = sum(left), len(left) - sum(left)
            for smaller in range(self._letter[letter]):
                used[smaller] += 1
                on_dark = int(smaller == linked and shades[i])
                total += weigh(tuple(used), dark_used + on_dark, dark, light)
                used[smaller] -= 1
            here = self._letter[letter]
            used[here] += 1
            dark_used += int(here == linked and shades[i])
        return total

    def _in_class(self, klass: Class) -> Callable[[tuple[int, ...], int, int, int], int]:
        counts, need = klass

        def weigh(used: tuple[int, ...], dark_used: int, dark: int, light: int) -> int:
            rest = [c - u for c, u in zip(counts, used, strict=True)]
            if min(rest) < 0:
                return 0
            return self._fit(rest, dark, light, need - dark_used if self._linked >= 0 else 0)

        return weigh

    def _frame_index(self, rank: str) -> tuple[int, str, tuple[bool, ...]]:
        frame, word = self._mask(rank)
        frame_id = self.frame.rank_id(frame)
        return frame_id, word, self._frame_list[frame_id][1]

    def fits(self, white: str, black: str) -> bool:
        """Whether Black's rank fits White's (the same class)."""
        return self.class_of(white) == self.class_of(black)

    def pair_id(self, white: str, black: str) -> int:
        """The id of a pair of valid ranks that fit each other."""
        klass = self.class_of(white)
        if self.class_of(black) != klass:
            raise NumberingError(self.ruleset.name, f"{black.lower()!r} does not fit "
                                                    f"white's {white!r}")
        frame_id, word, shades = self._frame_index(white)
        before = sum(self._frame_weights[:frame_id])
        before += self._words_before(word, shades, self._weight_after)
        b_frame, b_word, b_shades = self._frame_index(black)
        within = sum(self._fit(klass[0], sum(s), len(s) - sum(s), klass[1])
                     for _, s in self._frame_list[:b_frame])
        within += self._words_before(b_word, b_shades, self._in_class(klass))
        return before + within

    def pairs(self) -> Iterator[tuple[int, str, str]]:
        """Every linked pair ``(id, white, black)`` in id order: each White rank in
        side-id order, with the Black ranks of its class in theirs."""
        ranks = list(self)
        classes: dict[Class, list[str]] = {}
        for rank in ranks:
            classes.setdefault(self.class_of(rank), []).append(rank)
        number = 0
        for white in ranks:
            for black in classes[self.class_of(white)]:
                yield number, white, black
                number += 1

    def pair(self, number: int) -> tuple[str, str]:
        """The pair with id ``number``: White's rank, Black's."""
        if not 0 <= number < self.pair_count:
            raise IdRangeError(str(number), number, self.pair_count, self.ruleset.name)
        white, number = self._unrank(number, self._frame_weights, self._weight_after)
        klass = self.class_of(white)
        sizes = [self._fit(klass[0], sum(s), len(s) - sum(s), klass[1])
                 for _, s in self._frame_list]
        black, _ = self._unrank(number, sizes, self._in_class(klass))
        return white, black

    def _unrank(self, number: int, per_frame: Sequence[int],
                weigh: Callable[[tuple[int, ...], int, int, int], int]) -> tuple[str, int]:
        """The rank whose words before it weigh ``number`` or less (and what is left)."""
        frame_id = 0
        for weight in per_frame:
            if number < weight:
                break
            number -= weight
            frame_id += 1
        else:  # pragma: no cover - the count bounds the number
            raise AssertionError(number)
        frame, shades = self._frame_list[frame_id]
        used = [0] * len(self.pool)
        dark_used = 0
        word = []
        linked = self._linked
        for i in range(self.size):
            left = shades[i + 1:]
            dark, light = sum(left), len(left) - sum(left)
            for index in range(len(self.pool)):
                used[index] += 1
                on_dark = int(index == linked and shades[i])
                weight = weigh(tuple(used), dark_used + on_dark, dark, light)
                if number < weight:
                    dark_used += on_dark
                    word.append(self.pool[index])
                    break
                number -= weight
                used[index] -= 1
            else:  # pragma: no cover
                raise AssertionError(number)
        return self._fill(frame, "".join(word)), number



#: Pairs of a linked family whose numbering ``check`` proves both ways.
PROVED_PAIRS: Final = 200


def prove(family: Armed) -> Iterator[tuple[str, list[str]]]:
    """What ``check`` proves of a family whose army varies: each claim with its failures.

    Every side id is decoded in one walk (distinct ranks of the army, obeying
    every rule, numbered back to their ids); linked sides' count is recounted
    from those ranks grouped by class (not by the closed form), and pairs
    spread over the family are numbered both ways in White-major order.
    """
    army = family.army
    ruleset = family.ruleset
    assert ruleset.army is not None
    text = ruleset.army.text
    solved = len(set(family.army.frame.solver_ranks()))
    yield (f"the solver finds {solved:,} frames (the fixed pieces {ruleset.army.fixed} where "
           "the rules allow them), as the frame's numbering counts",
           [] if solved == army.frames else [f"the numbering counts {army.frames:,}"])
    n = army.count
    pool = f"{len(army.pool)}^{army.size}"
    yield (f"the army {text} gives {army.frames:,} frames x {pool} words = {n:,} ranks per side",
           [] if n == army.frames * army.per_frame else [f"{n:,}"])
    ranks = list(army)
    wrong: list[str] = []
    seen: set[str] = set()
    for number, rank in enumerate(ranks):
        if rank in seen:
            wrong.append(f"{rank} twice")
        seen.add(rank)
        if not ruleset.army.has(rank):
            wrong.append(f"{rank} is not the army")
        elif ruleset.rules and family.breaks_a_rule(rank):
            wrong.append(f"{rank} breaks a rule")
        elif number % 7 == 0 and army.id(rank) != number:
            wrong.append(f"{rank} is {number}, encodes to {army.id(rank)}")
    yield (f"decoding every id 0..{n - 1:,} in one walk gives distinct ranks of the army that "
           "obey every rule, and every 7th encodes back to its id", wrong[:20])
    if not family.linked:
        count = n
        yield (f"the declared count {ruleset.count:,}",
               [] if count == ruleset.count else [f"found {count:,}"])
        return
    from collections import Counter

    grouped = Counter(army.class_of(rank) for rank in ranks)
    pairs = sum(k * k for k in grouped.values())
    yield (f"grouping the {n:,} ranks by the link ({', '.join(ruleset.army.links)}) gives "
           f"{pairs:,} pairs, the declared count {ruleset.count:,}",
           [] if pairs == ruleset.count == army.pair_count else
           [f"the closed form counts {army.pair_count:,}"])
    ids = sorted({(i * (pairs - 1)) // (PROVED_PAIRS - 1) for i in range(PROVED_PAIRS)})
    wrong = []
    previous: tuple[int, int] | None = None
    for number in ids:
        white, black = army.pair(number)
        key = (army.id(white), army.id(black))
        if grouped and army.class_of(white) != army.class_of(black):
            wrong.append(f"{number} decodes to {white} {black.lower()}, which do not fit")
        elif army.pair_id(white, black) != number:
            wrong.append(f"{number} decodes to {white} {black.lower()}, which encodes to "
                         f"{army.pair_id(white, black)}")
        elif previous is not None and key <= previous:
            wrong.append(f"{number} is out of White-major order")
        previous = key
    yield (f"{len(ids)} pair ids spread over 0..{pairs - 1:,} decode to fitting ranks in "
           "White-major order and encode back", wrong)
