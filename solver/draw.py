"""Fair random draws of start positions.

A draw picks a position ID uniformly from ``0 .. count-1`` minus any
excluded IDs, so no family needs its solver to be drawn from when its
numbering is arithmetic.

Randomness:

* without a seed, from the operating system, by :func:`secrets.randbelow`;
* with a seed ``s`` (an integer ``>= 0``), from ``random.Random(s)`` by a
  method fixed here so that the same seed gives the same IDs on every run,
  machine and Python version. Python promises only that ``Random.random()``
  repeats for the same integer seed, so nothing else of :mod:`random` is
  used: each number below ``n`` takes 53-bit integers
  ``int(random() * 2**53)`` (exact: ``random()`` is a multiple of ``2**-53``),
  enough of them joined high to low for ``n`` (one while ``n <= 2**53``), and
  rejects values at or over the largest multiple of ``n`` before taking the
  remainder, so every number is exactly equally likely. Nothing depends on
  hash seeds or on the order of sets or dicts.

Several draws repeat independently; ``distinct`` draws are a partial
Fisher-Yates shuffle of the IDs left (draw ``i`` swaps position ``i`` with a
uniform one of ``i .. left-1``), so every ordered choice is equally likely.

Excluded IDs are skipped by counting: draw number ``k`` of those left is
the ``k``-th ID, in increasing order, not excluded.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final

from solver.errors import DrawError, IdRangeError, SeedError

if TYPE_CHECKING:
    from solver.catalogue import Family, Position

#: Bits of one ``random()`` float, all used.
CHUNK_BITS: Final = 53
CHUNK: Final = 1 << CHUNK_BITS


def seeded_below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``0 .. n-1`` from ``rng.random()`` alone (see above).

    >>> seeded_below(random.Random(0), 960)
    382
    """
    if n <= 0:
        raise ValueError(f"cannot draw below {n}")
    chunks = 1
    while CHUNK**chunks < n:
        chunks += 1
    span = CHUNK**chunks
    limit = span - span % n
    while True:
        value = 0
        for _ in range(chunks):
            value = value * CHUNK + int(rng.random() * CHUNK)
        if value < limit:
            return value % n


def source(seed: int | None) -> Callable[[int], int]:
    """A function giving uniform integers below its argument.

    ``None``: the operating system's randomness; an integer: the seeded,
    reproducible method described in this module.

    >>> first, again = source(42), source(42)
    >>> [first(960) for _ in range(5)] == [again(960) for _ in range(5)]
    True
    """
    if seed is None:
        return secrets.randbelow
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SeedError(seed)
    rng = random.Random(seed)
    return lambda n: seeded_below(rng, n)


def draw_ids(
    count: int,
    n: int = 1,
    *,
    seed: int | None = None,
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
    if n < 0:
        raise ValueError(f"cannot draw {n} positions")
    excluded = set()
    for number in exclude:
        if not 0 <= number < count:
            raise IdRangeError(str(number), number, count, family)
        excluded.add(number)
    skipped = sorted(excluded)
    left = count - len(skipped)
    if n and (left == 0 or (distinct and n > left)):
        raise DrawError(family, n, left, len(skipped))
    below = source(seed)

    def nth_left(k: int) -> int:
        for number in skipped:
            if number > k:
                break
            k += 1
        return k

    if not distinct:
        return [nth_left(below(left)) for _ in range(n)]
    moved: dict[int, int] = {}
    drawn: list[int] = []
    for i in range(n):
        j = i + below(left - i)
        picked = moved.get(j, j)
        moved[j] = moved.get(i, i)
        drawn.append(nth_left(picked))
    return drawn


def draw(
    family: Family,
    n: int = 1,
    *,
    seed: int | None = None,
    distinct: bool = False,
    exclude: Iterable[int] = (),
) -> list[Position]:
    """Draw ``n`` positions of ``family`` uniformly (see :func:`draw_ids`).

    >>> from solver.catalogue import Family
    >>> chess960 = Family.load("chess960")
    >>> [p.id for p in draw(chess960, 2, seed=5)] == draw_ids(960, 2, seed=5)
    True
    """
    ids = draw_ids(family.count, n, seed=seed, distinct=distinct, exclude=exclude,
                   family=family.name)
    return [family.position(number) for number in ids]
