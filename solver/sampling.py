"""Fair random draws of start positions.

A draw picks a position ID uniformly from ``0 .. count-1`` minus any
excluded IDs, so no family needs its solver to be drawn from when its
numbering is arithmetic.

Randomness:

* without a seed, from the operating system, by :func:`secrets.randbelow`;
* with a seed, from SHA-256 alone. Every seed is a phrase: an integer seed
  is its decimal digits (``42`` is the phrase ``"42"``; ``"042"`` and
  ``" 42"`` are other phrases). The phrase is put in Unicode NFC form and
  encoded as UTF-8, bytes ``P``; block ``k = 0, 1, 2, ...`` is
  ``SHA-256(P + k as 8 bytes big-endian)``, and each block gives four
  64-bit words (8 bytes each, big-endian, in order). A number below ``n``
  takes as few words as make ``2**(64*w) >= n`` (one for any family we
  ship), joined high to low, and rejects values at or over the largest
  multiple of ``n`` before taking the remainder. This uses nothing of
  Python's :mod:`random`, so it is the same on every machine and version,
  and :func:`phrase_below` is all of it (the README shows it in a few
  lines, with test vectors). A seed that is not valid Unicode text (a lone
  surrogate, as invalid UTF-8 on a command line becomes) is refused.

Several draws repeat independently; ``distinct`` draws are a partial
Fisher-Yates shuffle of the IDs left (draw ``i`` swaps position ``i`` with a
uniform one of ``i .. left-1``), so every ordered choice is equally likely.

Excluded IDs are skipped by counting: draw number ``k`` of those left is
the ``k``-th ID, in increasing order, not excluded.
"""

from __future__ import annotations

import unicodedata
from bisect import insort
from collections.abc import Callable, Iterable, Iterator, Sequence

from solver.errors import DrawCountError, DrawError, IdRangeError, SeedError

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Any, Final, Protocol, overload

    from solver.board.sides import Sides
    from solver.position import Position
    from solver.ruleset.reader import RuleSet

    class Family(Protocol):
        """What a draw reads of a :class:`~solver.family.Family`, which stands
        below this module (it draws through it: :meth:`~solver.family.Family.random`)."""

        @property
        def name(self) -> str: ...
        @property
        def count(self) -> int: ...
        @property
        def side_count(self) -> int: ...
        @property
        def independent(self) -> bool: ...
        @property
        def sides(self) -> Sides: ...
        @property
        def ruleset(self) -> RuleSet: ...
        def position(self, number: int) -> Position: ...
        def rank_id(self, rank: str) -> int: ...
        def rank_of(self, number: int) -> str: ...
        def validate(self, text: str) -> str: ...

#: Bits of one word of a seed phrase's SHA-256 stream.
WORD_BITS: Final = 64


def _sha256() -> Callable[[bytes], Any]:
    """SHA-256 from CPython's own C module where there is one: :mod:`hashlib`
    loads OpenSSL first, which costs a draw's start-up several milliseconds.

    >>> _sha256()(b"a").hexdigest()[:16]
    'ca978112ca1bbdca'
    """
    from importlib import import_module

    for name in ("_sha256", "_sha2"):  # CPython 3.11; 3.12 and later
        try:
            function: Callable[[bytes], Any] = import_module(name).sha256
            return function
        except (ImportError, AttributeError):  # pragma: no cover - another Python
            continue
    from hashlib import sha256  # pragma: no cover

    return sha256  # pragma: no cover


def phrase_words(phrase: str) -> Iterator[int]:
    """The 64-bit words a seed phrase gives, endlessly (see above).

    >>> hex(next(phrase_words("Freestyle Open 2026, round 3")))
    '0x8c9d5274c62ebdef'
    """
    sha256 = _sha256()
    data = unicodedata.normalize("NFC", phrase).encode("utf-8")
    block = 0
    while True:
        digest = sha256(data + block.to_bytes(8, "big")).digest()
        for start in range(0, 32, 8):
            yield int.from_bytes(digest[start:start + 8], "big")
        block += 1


def phrase_below(words: Iterator[int], n: int) -> int:
    """A uniform integer in ``0 .. n-1`` from a phrase's words (rejection sampling).

    >>> phrase_below(iter([2**64 - 1, 1000]), 960)
    40
    """
    if n <= 0:
        raise DrawCountError(n, f"cannot draw below {n}")
    count = 1
    while 1 << (WORD_BITS * count) < n:
        count += 1
    span = 1 << (WORD_BITS * count)
    limit = span - span % n
    while True:
        value = 0
        for _ in range(count):
            value = (value << WORD_BITS) | next(words)
        if value < limit:
            return value % n


def seed_value(seed: int | str) -> str:
    """The phrase a seed stands for: text as it is, an integer as its decimal digits.

    >>> seed_value(42), seed_value("042"), seed_value("Freestyle Open 2026")
    ('42', '042', 'Freestyle Open 2026')

    Raises :class:`~solver.errors.SeedError` for empty text, text that is not
    valid Unicode (a lone surrogate) and anything but text or an integer.
    """
    if isinstance(seed, str):
        if not seed:
            raise SeedError(seed)
        try:
            seed.encode("utf-8")
        except UnicodeEncodeError:
            raise SeedError(seed, "is not valid UTF-8 text") from None
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SeedError(seed, "is neither text nor an integer")
    return str(seed)


def source(seed: int | str | None) -> Callable[[int], int]:
    """A function giving uniform integers below its argument.

    ``None``: the operating system's randomness; a phrase (or an integer,
    as its digits): the seeded, reproducible method described in this module.

    >>> first, again = source(42), source("42")
    >>> [first(960) for _ in range(5)] == [again(960) for _ in range(5)]
    True
    >>> source("Freestyle Open 2026, round 3")(960)
    687
    """
    if seed is None:
        import secrets  # only unseeded draws need it

        return secrets.randbelow
    words = phrase_words(seed_value(seed))
    return lambda n: phrase_below(words, n)


def draw_ids(
    count: int,
    n: int = 1,
    *,
    seed: int | str | None = None,
    distinct: bool = False,
    exclude: Iterable[int] = (),
    family: str = "chess960",
) -> list[int]:
    """Draw ``n`` IDs from ``0 .. count-1`` uniformly, leaving out ``exclude``.

    >>> draw_ids(960, 3, seed=7) == draw_ids(960, 3, seed=7)
    True
    >>> sorted(draw_ids(4, 2, seed=1, distinct=True, exclude=[0, 3]))
    [1, 2]

    Raises :class:`~solver.errors.IdRangeError` for an excluded ID out of
    range and :class:`~solver.errors.DrawError` when too few IDs are left
    (any at all, or ``n`` for ``distinct`` draws).
    """
    return list(iter_ids(count, n, seed=seed, distinct=distinct, exclude=exclude, family=family))


def iter_ids(
    count: int,
    n: int | None = 1,
    *,
    seed: int | str | None = None,
    distinct: bool = False,
    exclude: Iterable[int] = (),
    family: str = "chess960",
) -> Iterator[int]:
    """:func:`draw_ids` one ID at a time (``n=None``: without end, unless distinct).

    The checks are made at once, before the first ID; then each ID comes as
    it is drawn, so ``n`` may be as large as you like: repeated draws keep
    nothing, distinct ones at most one swap per ID drawn.

    >>> ids = iter_ids(960, None, seed=1)
    >>> [next(ids) for _ in range(3)] == draw_ids(960, 3, seed=1)
    True
    """
    if n is not None and n < 0:
        raise DrawCountError(n, f"cannot draw {n} positions")
    excluded = set()
    for number in exclude:
        if not 0 <= number < count:
            raise IdRangeError(str(number), number, count, family)
        excluded.add(number)
    skipped = sorted(excluded)
    left = count - len(skipped)
    if distinct and n is None:
        n = left
    if n != 0 and (left == 0 or (distinct and n is not None and n > left)):
        raise DrawError(family, n if n is not None else 1, left, len(skipped))
    below = source(seed)
    return _drawn(below, left, n, distinct, skipped)


def kth_allowed(skipped: list[int], k: int) -> int:
    """The ``k``-th number (from 0) not in ``skipped`` (sorted, distinct), by bisection.

    >>> kth_allowed([0, 3], 0), kth_allowed([0, 3], 2), kth_allowed([], 5)
    (1, 4, 5)
    """
    # skipped[i] - i numbers are allowed below skipped[i]: it never decreases
    low, high = 0, len(skipped)
    while low < high:
        mid = (low + high) // 2
        if skipped[mid] - mid <= k:
            low = mid + 1
        else:
            high = mid
    return k + low


def _drawn(
    below: Callable[[int], int], left: int, n: int | None, distinct: bool, skipped: list[int]
) -> Iterator[int]:
    def nth_left(k: int) -> int:
        return kth_allowed(skipped, k)

    if not distinct:
        drawn = 0
        while n is None or drawn < n:
            yield nth_left(below(left))
            drawn += 1
        return
    assert n is not None
    moved: dict[int, int] = {}
    for i in range(n):
        j = i + below(left - i)
        picked = moved.get(j, j)
        moved[j] = moved.get(i, i)
        moved.pop(i, None)
        yield nth_left(picked)


def draw(
    family: Family,
    n: int = 1,
    *,
    seed: int | str | None = None,
    distinct: bool = False,
    exclude: Iterable[int] = (),
) -> list[Position]:
    """Draw ``n`` positions of ``family`` uniformly (see :func:`draw_ids`).

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> [p.id for p in draw(chess960, 2, seed=5)] == draw_ids(960, 2, seed=5)
    True
    """
    return list(iter_draw(family, n, seed=seed, distinct=distinct, exclude=exclude))


def iter_draw(
    family: Family,
    n: int | None = 1,
    *,
    seed: int | str | None = None,
    distinct: bool = False,
    exclude: Iterable[int] = (),
) -> Iterator[Position]:
    """:func:`draw`, one position at a time (checks made at once; see :func:`iter_ids`)."""
    ids = iter_ids(family.count, n, seed=seed, distinct=distinct, exclude=exclude,
                   family=family.name)
    return (family.position(number) for number in ids)


def plan(
    family: Family,
    rounds: int,
    *,
    seed: int | str | None = None,
    exclude: Iterable[int] = (),
    mirrors: bool = False,
    draws: Callable[[int], int] | None = None,
) -> list[Position]:
    """One position a round for ``rounds`` rounds: never one twice, uniformly.

    Round ``r`` draws ``k`` below the number of IDs still allowed (from one
    stream for the whole plan, see the module) and takes the ``k``-th
    allowed ID in increasing order. Allowed: not excluded, not drawn in an
    earlier round and, with ``mirrors``, not the left-right mirror of an
    excluded or drawn position (so a position and its mirror are never both
    played). For Chess960 with a seed phrase, anyone can redo it with the
    few lines in the README. ``draws``, when given, stands for the seed: it is
    called once a round with the number of IDs allowed, and gives ``k``
    (a sealed draw's rounds, :mod:`solver.draws.seal`).

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> [p.id for p in plan(chess960, 3, seed="Freestyle Open 2026")]
    [18, 64, 781]

    Raises :class:`~solver.errors.DrawError` when fewer than ``rounds``
    positions are allowed, before any is returned.
    """
    if rounds < 0:
        raise DrawCountError(rounds, f"cannot plan {rounds} rounds")
    count = family.count
    skipped: set[int] = set()
    for number in exclude:
        if not 0 <= number < count:
            raise IdRangeError(str(number), number, count, family.name)
        skipped.add(number)
    excluded = len(skipped)
    side_mirror = _MirrorOf(family)

    from solver.board.castling_rules import SubsetCastling

    rule = family.ruleset.castling
    wings = {"K": "Q", "Q": "K", "k": "q", "q": "k"}

    def mirror(number: int) -> int | None:
        variation = 0
        if isinstance(rule, SubsetCastling):  # the rights kept, on the other wings
            variation, number = rule.split(number)
        n = family.side_count
        white, black = divmod(number, n) if family.independent else (number, number)
        m_white, m_black = side_mirror[white], side_mirror[black]
        if m_white is None or m_black is None:
            return None
        found = family.sides.pair_id(m_white, m_black, n)
        if isinstance(rule, SubsetCastling):
            return rule.join(rule.variation({wings[r] for r in rule.kept(variation)}), found)
        return found

    if mirrors:
        skipped |= {m for m in map(mirror, list(skipped)) if m is not None}
    below = source(seed) if draws is None else draws
    drawn: list[int] = []
    ordered = sorted(skipped)  # kept sorted as numbers are skipped
    for _ in range(rounds):
        left = count - len(skipped)
        if left <= 0:
            raise DrawError(family.name, rounds, len(drawn), excluded)
        k = kth_allowed(ordered, below(left))
        drawn.append(k)
        for taken in (k, mirror(k) if mirrors else None):
            if taken is not None and taken not in skipped:
                skipped.add(taken)
                insort(ordered, taken)
    return [family.position(number) for number in drawn]


class _MirrorOf(dict[int, "int | None"]):
    """The mirror's ID of each side rank's ID (``None``: the mirror is not in the
    family), worked out when first asked, for the ranks a plan meets only."""

    def __init__(self, family: Family) -> None:
        super().__init__()
        self.family = family

    def __missing__(self, number: int) -> int | None:
        from solver.errors import Chess960Error

        family = self.family
        try:
            found: int | None = family.rank_id(family.validate(family.rank_of(number)[::-1]))
        except Chess960Error:
            found = None
        self[number] = found
        return found


class IdRanges(Sequence[int]):
    """IDs given as ranges (``0-99,518,50-149``), each once, in the order given,
    never listed: only the ranges are kept, so ``0-149320543`` costs as
    little as ``0-9``.

    >>> ids = IdRanges([range(3, 4), range(0, 5), range(2, 3)])
    >>> list(ids), len(ids), 4 in ids, ids[2], ids.ranges
    ([3, 0, 1, 2, 4], 5, True, 1, [range(3, 4), range(0, 3), range(4, 5)])
    """

    def __init__(self, ranges: Iterable[range]) -> None:
        self.ranges: list[range] = []
        covered: list[range] = []  # the ranges so far, sorted and disjoint
        for given in ranges:
            for part in list(uncovered(covered, given)):
                self.ranges.append(part)
                cover(covered, part)

    def __len__(self) -> int:
        return sum(len(r) for r in self.ranges)

    def __iter__(self) -> Iterator[int]:
        for part in self.ranges:
            yield from part

    def __contains__(self, number: object) -> bool:
        return any(number in part for part in self.ranges)

    if TYPE_CHECKING:
        @overload
        def __getitem__(self, index: int) -> int: ...
        @overload
        def __getitem__(self, index: slice) -> Sequence[int]: ...

    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return list(self)[index]
        place = index + len(self) if index < 0 else index
        if place >= 0:
            for part in self.ranges:
                if place < len(part):
                    return part[place]
                place -= len(part)
        raise IndexError(index)

    def __repr__(self) -> str:
        return f"IdRanges({self.ranges!r})"


def cover(covered: list[range], part: range) -> None:
    """Put ``part`` (outside them all) among ``covered`` (sorted by start, disjoint)."""
    insort(covered, part, key=lambda r: r.start)


def uncovered(covered: list[range], given: range) -> Iterator[range]:
    """The parts of ``given`` (a step-1 range) outside every range of ``covered``
    (sorted by start, disjoint), in increasing order."""
    start = given.start
    for part in covered:
        if part.stop <= start:
            continue
        if part.start >= given.stop:
            break
        if part.start > start:
            yield range(start, part.start)
        start = max(start, part.stop)
    if start < given.stop:
        yield range(start, given.stop)
