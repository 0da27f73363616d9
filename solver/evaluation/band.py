"""Balanced draws (``random --balanced``, ``plan --balanced``): a stated band
of evaluations, and the IDs it leaves out.

A band is written ``[SOURCE:]LIMIT`` or ``[SOURCE:]LOW..HIGH``, in pawns from
White's point of view: ``0.5`` keeps the positions whose eval is within
±0.5 pawns in *every* source, ``0.1..0.4`` those between 0.1 and 0.4,
``eval960:0.3`` asks only that one source. A position a source does not
evaluate, or evaluates as a mate, is outside the band: a balanced draw
never picks a position nobody vouched for.

The draw itself is unchanged: it only receives the IDs left out
(:func:`balance`), as ``--exclude`` gives them.

>>> band = parse_band("0.5")
>>> band.low, band.high, band.source, band.words()
(-0.5, 0.5, None, 'within ±0.50 pawns')
>>> parse_band("eval960:0.1..0.4").words()
'between +0.10 and +0.40 pawns'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from solver.errors import BandError

if TYPE_CHECKING:
    from solver.evaluation.table import EvalTable
    from solver.family import Family

#: The band ``--balanced`` takes when given no value: ±0.5 pawns in every source.
DEFAULT_BAND: Final = "0.5"


@dataclass(frozen=True)
class Band:
    """Evals from ``low`` to ``high`` pawns, in every source or in ``source``."""

    low: float
    high: float
    source: str | None
    text: str

    def words(self) -> str:
        """The band in words."""
        if self.low == -self.high:
            return f"within ±{self.high:.2f} pawns"
        return f"between {self.low:+.2f} and {self.high:+.2f} pawns"

    def holds(self, pawns: float | None) -> bool:
        """Whether an eval (``None``: a mate or none) is inside the band.

        >>> parse_band("0.5").holds(0.5), parse_band("0.5").holds(-0.51)
        (True, False)
        """
        return pawns is not None and self.low <= pawns <= self.high


def _pawns(text: str, whole: str) -> float:
    try:
        value = float(text)
    except ValueError:
        what = "is" if text.strip() == whole.strip() else f"has {text.strip()!r}, which is"
        raise BandError(whole, f"{what} not a number of pawns (give LIMIT, LOW..HIGH or "
                               "SOURCE:LIMIT, such as 0.5)") from None
    if not math.isfinite(value):
        raise BandError(whole, "is not a finite number of pawns")
    return value


def parse_band(text: str) -> Band:
    """The band ``text`` states (see the module).

    Raises :class:`~solver.errors.BandError` for anything else, a negative
    limit or a low end above the high one.
    """
    source, colon, rest = text.rpartition(":")
    source = source.strip() if colon else ""
    if colon and not source:
        raise BandError(text, "names no source before ':'")
    low_text, dots, high_text = rest.partition("..")
    if dots:
        low, high = _pawns(low_text, text), _pawns(high_text, text)
        if low > high:
            raise BandError(text, f"goes from {low} down to {high}")
    else:
        high = _pawns(rest, text)
        if high < 0:
            raise BandError(text, "is negative: give the largest eval allowed, such as 0.5")
        low = -high
    return Band(low, high, source or None, text)


@dataclass(frozen=True)
class Balance:
    """What a band leaves: the IDs ``excluded``, how many are ``allowed``, and
    the ``note`` a command prints to say which band and data it used."""

    excluded: list[int]
    allowed: int
    note: str


def describe(table: EvalTable) -> str:
    """A table in words: its name, engine and limit (a shipped source's from its
    provenance, another's from its rows).

    >>> from solver.evaluation.sources import load_source, SOURCES
    >>> describe(load_source(SOURCES[1]))
    'evalanalyzer (Stockfish 18, depth 25)'
    """
    from solver.evaluation.sources import source_named

    source = source_named(table.name)
    if source is not None and table.path.startswith("<shipped"):
        return f"{source.name} ({source.engine}, {source.limit.split(' (')[0]})"
    from solver.evaluation.table import visible

    engines = ", ".join(visible(e) for e in table.engines() if e) or "engine not named"
    limits = ", ".join(visible(limit) for limit in table.limits()) or "limit not named"
    return (f"{visible(table.name)} ({visible(table.path)}: {engines}, {limits}, "
            f"{len(table.rows):,} positions)")


def balance(family: Family, text: str, tables: list[EvalTable]) -> Balance:
    """The IDs of ``family`` outside the band ``text`` over ``tables`` (see the
    module), and a note naming the band and the data.

    >>> from solver.family import Family
    >>> from solver.evaluation.sources import tables_for
    >>> chess960 = Family.load("chess960")
    >>> found = balance(chess960, "0.3", tables_for(chess960, []))
    >>> found.allowed + len(found.excluded), 80 in found.excluded
    (960, True)

    Raises :class:`~solver.errors.BandError` when there is no data for the
    family, the band names a source not among the tables, or leaves no position.
    """
    from solver.evaluation.table import visible

    band = parse_band(text)
    if not tables:
        raise BandError(text, f"has no evaluation data for {family.name}: make a table "
                              "with `chess960 eval --engine ... -o FILE` and give it "
                              "with --eval-table FILE")
    used = tables
    if band.source is not None:
        used = [t for t in tables if t.name == band.source]
        if not used:
            names = ", ".join(visible(t.name) for t in tables)
            raise BandError(text, f"names the source {band.source!r}, not one of {names}")
    count = family.count
    allowed: set[int] | None = None
    for table in used:
        inside = {n for n in table.inside(band.low, band.high) if n < count}
        allowed = inside if allowed is None else allowed & inside
    assert allowed is not None
    if not allowed:
        raise BandError(text, f"leaves no {family.name} position: no position is "
                              f"{band.words()} in "
                              f"{' and '.join(visible(t.name) for t in used)}")
    whose = "every source" if len(used) > 1 else visible(used[0].name)
    data = "; ".join(describe(t) for t in used)
    note = (f"balanced: {whose}'s eval {band.words()}, {len(allowed):,} of {count:,} "
            f"{family.name} positions allowed; data: {data}")
    excluded = [n for n in range(count) if n not in allowed]
    return Balance(excluded, len(allowed), note)


def balance_for(family: Family, text: str, paths: list[str]) -> Balance:
    """:func:`balance` over the tables at ``paths`` (each checked against the
    family), or the shipped ones for the family when none is given."""
    from solver.evaluation.sources import tables_for

    return balance(family, text, tables_for(family, paths))
