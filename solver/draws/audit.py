"""A sample of drawn positions tested against the family's uniform distribution.

:func:`audit_path` reads a sample (IDs in the family's own numbering, ranks,
pairs, start FENs or EPD lines, or ``<id> <rank>`` lines as ``random`` writes
them; one a line, blank lines and ``#`` comments skipped) and
:func:`audit_ids` tests it:

* **chi-square goodness of fit**: one cell a position when the sample has at
  least :data:`MIN_EXPECTED` draws a position; otherwise the family's IDs are
  cut into ``n // 5`` bins of consecutive IDs of (nearly) equal size, so that
  each cell still expects 5 draws and the chi-square distribution holds (a
  bias spread thinly over scattered positions then goes unseen; one that
  favours a block of IDs, as hand methods do, does not). Its p-value is
  :func:`~solver.draws.stats.chi2_sf`'s. The sample is not uniform when the
  p-value is below the level.
* **the positions drawn most**, each with its binomial p-value (of being drawn
  at least that often) and the same times the family's count (Bonferroni's
  correction for looking at every position);
* **the sample size that would detect a bias**: the smallest sample for which
  this test, at the level, would flag with power :data:`POWER` the last
  sixteenth of the IDs drawn 5/3 as often as the others (Chess960's
  900-959, as the three-boxes method draws them), by the noncentral
  chi-square (:func:`~solver.draws.stats.ncx2_sf`).

>>> from solver.family import Family
>>> chess960 = Family.load("chess960")
>>> found = audit_ids([0, 959] * 5, chess960, "sample")
>>> found.cells, found.uniform, found.excess[0].id, found.excess[0].observed
(2, True, 0, 5)
>>> found = audit_ids([518] * 50 + list(range(900, 960)), chess960, "sample")
>>> found.cells, found.uniform
(22, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from solver.draws.stats import binom_sf, chi2_isf, chi2_sf, ncx2_sf
from solver.errors import Chess960Error, SampleError

if TYPE_CHECKING:
    from solver.family import Family

__all__ = ["Audit", "BadLine", "Excess", "audit_ids", "audit_path",
           "cells_for", "detect_size", "read_sample"]

#: The draws each cell of the chi-square test expects at least.
MIN_EXPECTED: Final = 5
#: The power the stated sample size gives.
POWER: Final = 0.9
#: The bias whose detection the stated sample size is for: this share of the
#: IDs (the last ones) drawn this many times as often as the others.
BIAS_SHARE: Final = 1 / 16
BIAS_RATIO: Final = 5 / 3
#: The positions drawn most that the report lists.
SHOWN: Final = 5
#: The largest sample size :func:`detect_size` looks at.
MAX_SIZE: Final = 10**15


@dataclass(frozen=True)
class BadLine:
    """A line of the sample that is not one of the family's positions, and why."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class Excess:
    """A position drawn more often than expected."""

    id: int
    observed: int
    expected: float
    #: The binomial probability of drawing it at least ``observed`` times.
    p: float
    #: ``p`` times the family's count, at most 1 (Bonferroni's correction).
    corrected: float


@dataclass(frozen=True)
class Bias:
    """The bias the stated sample size detects: the IDs from ``first`` up drawn
    ``ratio`` times as often as the others."""

    first: int
    count: int
    ratio: float = BIAS_RATIO

    def text(self) -> str:
        last = self.first + self.count - 1
        ids = f"position {self.first}" if self.count == 1 else \
            f"the {self.count:,} positions {self.first}-{last}"
        them = "them" if (self.first, self.count) == (900, 60) else "Chess960's 900-959"
        return f"{ids} drawn 5/3 as often as the others (as the three-boxes method draws {them})"


@dataclass
class Audit:
    """A sample's audit: the chi-square test, the positions drawn most, the
    sample size that would detect :class:`Bias`."""

    name: str
    family: Family
    draws: int
    level: float
    cells: int
    statistic: float
    p: float
    excess: list[Excess] = field(default_factory=list)
    needed: int | None = None
    bias: Bias | None = None

    @property
    def per_position(self) -> bool:
        """Whether the test has one cell a position (else bins of consecutive IDs)."""
        return self.cells == self.family.count

    @property
    def uniform(self) -> bool:
        """Whether the sample is consistent with uniform draws at the level."""
        return self.p >= self.level

    def method(self) -> str:
        """Which test was made, and why, in words."""
        count = self.family.count
        expected = self.draws / self.cells
        if self.per_position:
            return (f"chi-square over each of the {count:,} positions "
                    f"({expected:,.2f} draws expected a position)")
        return (f"chi-square over {self.cells:,} bins of consecutive ids ({expected:,.2f} draws "
                f"expected a bin): one cell a position needs {MIN_EXPECTED} draws a position, "
                f"{MIN_EXPECTED * count:,} in all; bins see a bias that favours blocks of ids, "
                f"not one spread thinly over scattered positions")

    def shown(self, number: int) -> str:
        """A position as the report names it: its ID and rank(s)."""
        found = self.family.position(number)
        ranks = found.white if not self.family.independent else \
            f"{found.white} {found.black.lower()}"
        return f"{number} ({ranks})"

    def detection(self) -> str:
        """What sample size would detect :attr:`bias`, in words."""
        if self.bias is None or self.needed is None:
            return "no sample this test can take would detect a bias of 5/3 on 1/16 of the ids"
        return (f"a sample of {self.needed:,} would detect {self.bias.text()} with power "
                f"{POWER} at level {self.level:g}")

    def verdict(self) -> str:
        """The last line of the report."""
        if self.uniform:
            return (f"{self.name}: consistent with uniform draws at level {self.level:g} "
                    f"(p = {self.p:.4g})")
        return (f"{self.name}: not uniform at level {self.level:g} "
                f"(p = {self.p:.4g} < {self.level:g})")

    def report(self) -> Iterator[str]:
        """The report's lines."""
        family = self.family
        yield (f"{self.name}: {self.draws:,} draws of {family.name} "
               f"({family.count:,} positions)")
        yield f"test: {self.method()}"
        yield (f"chi-square = {self.statistic:,.2f}, {self.cells - 1:,} degrees of freedom: "
               f"p = {self.p:.4g}")
        for item in self.excess:
            yield (f"drawn most: {self.shown(item.id)}: {item.observed:,} times, "
                   f"{item.expected:,.2f} expected: p = {item.p:.4g}, "
                   f"{item.corrected:.4g} Bonferroni-corrected")
        yield f"power: {self.detection()}"
        yield self.verdict()

    def as_dict(self) -> dict[str, object]:
        """The audit as JSON data."""
        return {
            "file": self.name, "family": self.family.name, "count": self.family.count,
            "draws": self.draws, "level": self.level,
            "test": "positions" if self.per_position else "bins", "cells": self.cells,
            "method": self.method(), "chi_square": self.statistic,
            "degrees_of_freedom": self.cells - 1, "p": self.p, "uniform": self.uniform,
            "excess": [{"id": e.id, "observed": e.observed, "expected": e.expected, "p": e.p,
                        "corrected": e.corrected} for e in self.excess],
            "needed": self.needed, "power": POWER,
            "bias": None if self.bias is None else {
                "first": self.bias.first, "count": self.bias.count,
                "ratio": "5/3", "text": self.bias.text()},
        }


def cells_for(draws: int, count: int) -> int:
    """The cells of the chi-square test of ``draws`` draws of ``count``
    positions: one a position when each expects :data:`MIN_EXPECTED` draws,
    else as many bins as keep that (0 or 1: too few draws for the test).

    >>> cells_for(4800, 960), cells_for(4799, 960), cells_for(9, 960)
    (960, 959, 1)
    """
    if draws >= MIN_EXPECTED * count:
        return count
    return min(count, draws // MIN_EXPECTED)


def _edge(cell: int, cells: int, count: int) -> int:
    """The first ID of bin ``cell`` of ``cells`` (``id * cells // count`` is an ID's bin)."""
    return -(-cell * count // cells)


def chi_square(counts: Counter[int], draws: int, cells: int, count: int) -> float:
    """The chi-square statistic of ``counts`` (draws of each ID) over ``cells``
    bins of consecutive IDs of ``count`` positions."""
    observed = [0] * cells
    for number, times in counts.items():
        observed[number * cells // count] += times
    total = 0.0
    for cell, seen in enumerate(observed):
        expected = draws * (_edge(cell + 1, cells, count) - _edge(cell, cells, count)) / count
        total += (seen - expected) ** 2 / expected
    return total


def _bias(count: int) -> Bias:
    size = max(1, round(count * BIAS_SHARE))
    return Bias(count - size, size)


def _spread(cells: int, count: int, bias: Bias) -> float:
    """The noncentrality a draw adds under ``bias``: the sum over the cells of
    ``(p1 - p0) ** 2 / p0``."""
    weight = count + bias.count * (bias.ratio - 1)
    lone = count * (1 / weight - 1 / count) ** 2  # a cell's share per ID, no biased ID in it
    first = bias.first * cells // count
    total = lone * _edge(first, cells, count)
    for cell in range(first, cells):
        start, end = _edge(cell, cells, count), _edge(cell + 1, cells, count)
        size = end - start
        biased = end - max(start, bias.first)
        p0 = size / count
        p1 = (size + biased * (bias.ratio - 1)) / weight
        total += (p1 - p0) ** 2 / p0
    return total


def power(draws: int, count: int, level: float, bias: Bias) -> float:
    """The probability that the audit of ``draws`` draws at ``level`` flags ``bias``."""
    cells = cells_for(draws, count)
    if cells < 2:
        return 0.0
    freedom = cells - 1
    return ncx2_sf(chi2_isf(level, freedom), freedom, draws * _spread(cells, count, bias))


@lru_cache(maxsize=64)
def detect_size(count: int, level: float, wanted: float = POWER) -> tuple[int | None, Bias]:
    """The smallest sample (found by doubling, then bisection) whose audit at
    ``level`` flags the last sixteenth of ``count`` IDs drawn 5/3 as often as the
    others with power ``wanted``; None beyond :data:`MAX_SIZE` (remembered for
    each count and level).

    >>> detect_size(960, 0.01)[0] > 4 * 960
    True
    """
    bias = _bias(count)
    low, high = 2 * MIN_EXPECTED - 1, 2 * MIN_EXPECTED
    while power(high, count, level, bias) < wanted:
        if high > MAX_SIZE:
            return None, bias
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        if power(middle, count, level, bias) >= wanted:
            high = middle
        else:
            low = middle
    return high, bias


def audit_ids(ids: Sequence[int], family: Family, name: str = "-",
              level: float = 0.01) -> Audit:
    """The audit of the draws ``ids`` (the family's IDs) at ``level``.

    Raises :class:`~solver.errors.SampleError` for a sample with no draws, or too few for the
    test (fewer than 2 cells of :data:`MIN_EXPECTED` draws: 10), saying what size
    would detect :class:`Bias`.
    """
    count = family.count
    draws = len(ids)
    needed, bias = detect_size(count, level)
    if not draws:
        raise SampleError(name, "no positions to audit")
    cells = cells_for(draws, count)
    if cells < 2:
        size = f"; a sample of {needed:,} would detect {bias.text()}" if needed else ""
        raise SampleError(name, f"a sample of {draws} draw{'s' if draws != 1 else ''} is too "
                               f"small for a chi-square test ({MIN_EXPECTED} draws expected in "
                               f"each of 2 cells at least: {2 * MIN_EXPECTED} draws){size}")
    counts = Counter(ids)
    statistic = chi_square(counts, draws, cells, count)
    expected = draws / count
    excess = []
    for number, times in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:SHOWN]:
        if times > expected:
            p = binom_sf(times, draws, 1 / count)
            excess.append(Excess(number, times, expected, p, min(1.0, p * count)))
    return Audit(name, family, draws, level, cells, statistic, chi2_sf(statistic, cells - 1),
                 excess, needed, bias)


def _reader(family: Family) -> Callable[[str], int]:
    """How a line of a sample becomes an ID: an ID, a ``<id> <rank>`` line, or
    whatever :meth:`Family.identify <solver.family.Family.identify>` reads."""
    from solver.errors import IdMismatchError
    from solver.lists.which import letters, other_reading

    identify = family.fen_identifier()

    def read(text: str) -> int:
        if text.isascii() and text.isdigit():
            return family.parse_id(text)
        head, _, rest = text.partition(" ")
        listed = int(head) if head.isascii() and head.isdigit() and rest.strip() else None
        if listed is not None:
            text = rest.strip()
        try:
            found = identify(text)
        except Chess960Error:
            other = other_reading(family, letters(text))
            if other is None:
                raise
            found = other
        if listed is not None and listed != found:
            raise IdMismatchError(listed, text, found)
        return found

    return read


def read_sample(lines: Iterable[list[bytes | None]], family: Family, name: str = "-"
                ) -> tuple[list[int], list[BadLine]]:
    """The IDs of the byte lines of :class:`~solver.lines.LineReader`, and the
    lines that are not the family's positions.

    Raises :class:`~solver.errors.InputFileError` for a line too long or not UTF-8.
    """
    from solver.lines import entries

    read = _reader(family)
    ids: list[int] = []
    bad: list[BadLine] = []
    for number, text in entries(lines, name):
        try:
            ids.append(read(text))
        except Chess960Error as exc:
            bad.append(BadLine(number, text, str(exc)))
    return ids, bad


def audit_path(path: str, family: Family) -> tuple[list[int], list[BadLine]]:
    """:func:`read_sample` of the file ``path`` (``-``: stdin), read in chunks."""
    from solver.documents import position_lines

    with position_lines(path) as lines:
        return read_sample(lines, family, path)
