"""Balanced draws (``--balanced`` and ``--draw-rate`` of ``random``, ``plan``
and ``book``): a stated band of evaluations or of draw rates, and the IDs it
leaves out.

A band is written ``[SOURCE:]LIMIT`` or ``[SOURCE:]LOW..HIGH``, in pawns from
White's point of view: ``0.5`` keeps the positions whose eval is within
±0.5 pawns in *every* source, ``0.1..0.4`` those between 0.1 and 0.4,
``eval960:0.3`` asks only that one source. A position a source does not
evaluate, or evaluates as a mate, is outside the band: a balanced draw
never picks a position nobody vouched for.

A draw-rate band is written ``[SOURCE:]LOW..HIGH``, as fractions: ``0.48..0.52``
keeps the positions whose draw odds (the engine's win/draw/loss model,
``draws`` per mille / 1000) lie between 48 % and 52 % in every source that
records W/D/L (``chess960 eval --wdl`` makes such a table). A position
without W/D/L in a source is outside the band. Both bands may be given: a
position must then be inside each.

The draw itself is unchanged: it only receives the IDs left out
(:func:`balance`), as ``--exclude`` gives them.

>>> band = parse_band("0.5")
>>> band.low, band.high, band.source, band.words()
(-0.5, 0.5, None, 'within ±0.50 pawns')
>>> parse_band("eval960:0.1..0.4").words()
'between +0.10 and +0.40 pawns'
>>> parse_draw_rate("0.48..0.52").words()
'between 0.48 and 0.52'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from solver.errors import BandError

if TYPE_CHECKING:
    from solver.evaluation.table import EvalTable, Evaluation
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
    #: What is banded: ``"eval"`` (pawns) or ``"draw rate"`` (draws per mille / 1000).
    kind: str = "eval"

    def words(self) -> str:
        """The band in words."""
        if self.kind == "draw rate":
            return f"between {self.low:g} and {self.high:g}"
        if self.low == -self.high:
            return f"within ±{self.high:.2f} pawns"
        return f"between {self.low:+.2f} and {self.high:+.2f} pawns"

    def holds(self, pawns: float | None) -> bool:
        """Whether an eval (``None``: a mate or none) is inside the band.

        >>> parse_band("0.5").holds(0.5), parse_band("0.5").holds(-0.51)
        (True, False)
        """
        return pawns is not None and self.low <= pawns <= self.high

    def admits(self, row: Evaluation) -> bool:
        """Whether a table's row is inside the band (its eval, or its draw rate).

        >>> from solver.evaluation.table import Evaluation
        >>> band = parse_draw_rate("0.48..0.52")
        >>> band.admits(Evaluation(0, pawns=0.1, draws=480)), band.admits(Evaluation(0, pawns=0.1))
        (True, False)
        """
        if self.kind == "eval":
            return self.holds(row.pawns)
        return row.draws is not None and self.low <= row.draws / 1000 <= self.high


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


def _fraction(text: str, whole: str) -> float:
    try:
        value = float(text)
    except ValueError:
        what = "is" if text.strip() == whole.strip() else f"has {text.strip()!r}, which is"
        raise BandError(whole, f"{what} not a draw rate (give LOW..HIGH or SOURCE:LOW..HIGH, "
                               "fractions from 0 to 1, such as 0.48..0.52)") from None
    if not 0 <= value <= 1:
        raise BandError(whole, f"has {value:g}, not a draw rate from 0 to 1")
    return value


def parse_draw_rate(text: str) -> Band:
    """The draw-rate band ``text`` states (see the module): ``[SOURCE:]LOW..HIGH``.

    Raises :class:`~solver.errors.BandError` for anything else, an end outside
    0..1 or a low end above the high one.

    >>> parse_draw_rate("0.5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.BandError: band '0.5' is not LOW..HIGH: give the draw rates allowed, ...
    """
    source, colon, rest = text.rpartition(":")
    source = source.strip() if colon else ""
    if colon and not source:
        raise BandError(text, "names no source before ':'")
    low_text, dots, high_text = rest.partition("..")
    if not dots:
        raise BandError(text, "is not LOW..HIGH: give the draw rates allowed, such as "
                              "0.48..0.52")
    low, high = _fraction(low_text, text), _fraction(high_text, text)
    if low > high:
        raise BandError(text, f"goes from {low:g} down to {high:g}")
    return Band(low, high, source or None, text, "draw rate")


def has_wdl(table: EvalTable) -> bool:
    """Whether ``table`` records W/D/L for any position (``eval --wdl`` tables do)."""
    return any(row.draws is not None for row in table.rows.values())


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


def _used(band: Band, tables: list[EvalTable], family: str) -> list[EvalTable]:
    """The tables ``band`` is checked in: its source (among ``tables``, else
    the shipped source of ``family`` of that name), or every table (for a
    draw rate, every one with W/D/L: of the shipped ones, those that have it).

    Raises :class:`~solver.errors.BandError` for a source not found, or a draw
    rate over a table without W/D/L.
    """
    from solver.evaluation.sources import load_source, source_named
    from solver.evaluation.table import visible

    used = tables
    if band.source is not None:
        used = [t for t in tables if t.name == band.source]
        named = source_named(band.source)
        if not used and named is not None and named.family == family:
            used = [load_source(named)]
        if not used:
            names = ", ".join(visible(t.name) for t in tables)
            raise BandError(band.text, f"names the source {band.source!r}, not one of {names}")
    if band.kind == "eval":
        return used
    if band.source is None and all(t.path.startswith("<shipped") for t in used):
        used = [t for t in used if has_wdl(t)] or used
    for table in used:
        if not has_wdl(table):
            raise BandError(band.text, f"is a draw rate, but {visible(table.name)} "
                                       f"({visible(table.path)}) records no W/D/L: make the "
                                       "table with `chess960 eval --engine ... --wdl -o FILE`")
    return used


def _band_words(band: Band, used: list[EvalTable]) -> str:
    from solver.evaluation.table import visible

    whose = "every source" if len(used) > 1 else visible(used[0].name)
    return f"{whose}'s {band.kind} {band.words()}"


def balance(family: Family, text: str | None, tables: list[EvalTable],
            draw_rate: str | None = None) -> Balance:
    """The IDs of ``family`` outside the band ``text`` (of evals) and the band
    ``draw_rate`` (of draw rates), either may be ``None``, over ``tables``
    (see the module), and a note naming the bands and the data.

    >>> from solver.family import Family
    >>> from solver.evaluation.sources import tables_for
    >>> chess960 = Family.load("chess960")
    >>> found = balance(chess960, "0.3", tables_for(chess960, []))
    >>> found.allowed + len(found.excluded), 80 in found.excluded
    (960, True)
    >>> balance(chess960, None, tables_for(chess960, []), "0.93..1").note.split(";")[0]
    "balanced: eval960's draw rate between 0.93 and 1, 238 of 960 chess960 positions allowed"

    Raises :class:`~solver.errors.BandError` when there is no data for the
    family, a band names a source not among the tables, a draw rate is asked
    of a table without W/D/L, or the bands leave no position.
    """
    from solver.evaluation.table import visible

    bands = [b for b in (None if text is None else parse_band(text),
                         None if draw_rate is None else parse_draw_rate(draw_rate))
             if b is not None]
    if not bands:
        raise BandError("", "is empty: give --balanced BAND or --draw-rate LOW..HIGH")
    if not tables:
        raise BandError(bands[0].text, f"has no evaluation data for {family.name}: make a "
                                       "table with `chess960 eval --engine ... -o FILE` and "
                                       "give it with --eval-table FILE")
    count = family.count
    allowed: set[int] | None = None
    said: list[str] = []
    data: list[EvalTable] = []
    for band in bands:
        used = _used(band, tables, family.name)
        for table in used:
            inside = ({n for n in table.inside(band.low, band.high) if n < count}
                      if band.kind == "eval" else
                      {n for n, row in table.rows.items() if n < count and band.admits(row)})
            allowed = inside if allowed is None else allowed & inside
            data += [] if table in data else [table]
        said.append(_band_words(band, used))
        if not allowed:
            names = " and ".join(visible(t.name) for t in used)
            what = "is" if band.kind == "eval" else "has a draw rate"
            left = "" if len(said) == 1 else " left"
            raise BandError(band.text, f"leaves no {family.name} position: no position{left} "
                                       f"{what} {band.words()} in {names}")
    assert allowed is not None
    note = (f"balanced: {' and '.join(said)}, {len(allowed):,} of {count:,} "
            f"{family.name} positions allowed; data: {'; '.join(describe(t) for t in data)}")
    excluded = [n for n in range(count) if n not in allowed]
    return Balance(excluded, len(allowed), note)


def preset_balance(family: Family, name: str) -> Balance:
    """The IDs of ``family`` outside its named subset ``name`` (``--preset``,
    :func:`~solver.evaluation.sources.subset_ids`), and a note naming it.

    >>> from solver.family import Family
    >>> print(preset_balance(Family.load("dfrc"), "dfrc4852").note)  # doctest: +ELLIPSIS
    preset: dfrc4852, 20,797 of 921,600 dfrc positions allowed (solver/evaluation/...)
    """
    from solver.evaluation.sources import subset_ids

    allowed = subset_ids(family, name)
    kept = bytearray(family.count)
    for number in allowed:
        kept[number] = 1
    note = (f"preset: {name}, {len(allowed):,} of {family.count:,} {family.name} positions "
            "allowed (solver/evaluation/data/README.md says whose)")
    return Balance([n for n in range(family.count) if not kept[n]], len(allowed), note)


def restrict(family: Family, band: str | None, paths: list[str], draw_rate: str | None,
             preset: str | None, note: Callable[[str], object]) -> list[int]:
    """The IDs outside the bands (:func:`balance_for`) and outside the named subset
    ``preset`` (:func:`preset_balance`), none when none is given; each note given
    to ``note``."""
    excluded: list[int] = []
    if band is not None or draw_rate is not None:
        found = balance_for(family, band, paths, draw_rate)
        note(found.note)
        excluded = found.excluded
    if preset is not None:
        kept = preset_balance(family, preset)
        note(kept.note)
        excluded = sorted(set(excluded).union(kept.excluded)) if excluded else kept.excluded
    return excluded


def balance_for(family: Family, text: str | None, paths: list[str],
                draw_rate: str | None = None) -> Balance:
    """:func:`balance` over the tables at ``paths`` (each checked against the
    family), or the shipped ones for the family when none is given."""
    from solver.evaluation.sources import tables_for

    return balance(family, text, tables_for(family, paths), draw_rate)
