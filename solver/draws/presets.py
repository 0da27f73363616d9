"""Named exclusion presets: the positions an organiser leaves out, by name.

A preset belongs to a family (:data:`PRESETS`) and names its positions by
their ranks, not their IDs, so that it means the same positions whatever the
family's numbering:

========  ==========  ==========================================================
family    preset      leaves out
========  ==========  ==========================================================
chess960  chess959    the classical start ``RNBQKBNR`` (518)
chess960  chess958    it and its mirror image ``RNBKQBNR`` (518 and 534),
                      as lichess issue 14685 asks
dfrc      chess959    the classical pair (both sides ``RNBQKBNR``)
dfrc      chess958    it and the mirrored classical pair (both ``RNBKQBNR``)
========  ==========  ==========================================================

:func:`exclusions` reads what ``random`` and ``plan`` are given to leave out:
IDs and preset names, comma-separated or one an item, into
:class:`Exclusions` (every ID left out, and which presets were named), so a
draw's output and its certificate can say which presets it used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from solver.errors import ExclusionError, IdError, IdSyntaxError

if TYPE_CHECKING:
    from solver.family import Family

#: Each family's exclusion presets: name -> the positions it leaves out (ranks or pairs).
PRESETS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "chess960": {
        "chess958": ("RNBQKBNR", "RNBKQBNR"),
        "chess959": ("RNBQKBNR",),
    },
    "dfrc": {
        "chess958": ("RNBQKBNR rnbqkbnr", "RNBKQBNR rnbkqbnr"),
        "chess959": ("RNBQKBNR rnbqkbnr",),
    },
}


def preset_names(family: str) -> tuple[str, ...]:
    """The exclusion presets of the family named ``family``, sorted.

    >>> preset_names("chess960"), preset_names("shuffle")
    (('chess958', 'chess959'), ())
    """
    return tuple(sorted(PRESETS.get(family, {})))


@dataclass(frozen=True)
class Exclusions:
    """What a draw leaves out: ``ids``, every ID (sorted, once each), and
    ``presets``, each preset named with the IDs it stands for, in the order given.

    >>> Exclusions((518, 534), (("chess958", (518, 534)),)).describe()
    'chess958 (518, 534)'
    """

    ids: tuple[int, ...] = ()
    presets: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def describe(self) -> str:
        """The presets with their IDs, then any other ID left out, as output notes it.

        >>> Exclusions((5, 518), (("chess959", (518,)),)).describe()
        'chess959 (518), 5'
        """
        covered = {number for _, ids in self.presets for number in ids}
        parts = [f"{name} ({', '.join(map(str, ids))})" for name, ids in self.presets]
        parts += [str(number) for number in self.ids if number not in covered]
        return ", ".join(parts)


_RANGE = re.compile(r"\s*(\d+)\s*-\s*(\d+)\s*")


def id_range(text: str, span: re.Match[str], parse_id: Callable[[str], int]) -> range:
    """The IDs of a range ``A-B`` (both ends included), each end read by ``parse_id``
    (which refuses an end out of the family's range).

    >>> id_range("3-5", _RANGE.fullmatch("3-5"), int)
    range(3, 6)

    Raises :class:`~solver.errors.IdError` for a reversed range.
    """
    low, high = parse_id(span.group(1)), parse_id(span.group(2))
    if low > high:
        raise IdError(text, f"range {text!r} is reversed: {low} > {high}")
    return range(low, high + 1)


def read_exclusions(
    family: str,
    items: Iterable[str | int],
    parse_id: Callable[[str], int],
    identify: Callable[[str], int],
) -> Exclusions:
    """``items`` (IDs, preset names; a text may list several, comma-separated)
    as :class:`Exclusions` of the family named ``family``: ``parse_id`` reads
    an ID's text, ``identify`` gives a rank's (or pair's) ID.

    >>> from solver.numbering.scharnagl import scharnagl_id
    >>> read_exclusions("chess960", ["chess958", "7"], int, scharnagl_id)
    Exclusions(ids=(7, 518, 534), presets=(('chess958', (518, 534)),))

    Raises :class:`~solver.errors.ExclusionError` for a word that is neither
    an ID nor a preset of the family (an ID out of range raises what
    ``parse_id`` raises).
    """
    own = PRESETS.get(family, {})
    ids: set[int] = set()
    named: list[tuple[str, tuple[int, ...]]] = []
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            ids.add(item)
            continue
        for part in str(item).split(","):
            text = part.strip()
            if not text:
                continue
            preset = own.get(text.lower())
            span = _RANGE.fullmatch(text)
            if preset is None and span is not None:
                ids.update(id_range(text, span, parse_id))
                continue
            if preset is None:
                try:
                    ids.add(parse_id(text))
                except IdSyntaxError:
                    raise ExclusionError(text, family, preset_names(family)) from None
                continue
            if any(name == text.lower() for name, _ in named):
                continue
            # an edited rule file under the family's name may lack a rank: its error says so
            found = tuple(sorted({identify(rank) for rank in preset}))
            named.append((text.lower(), found))
            ids.update(found)
    return Exclusions(tuple(sorted(ids)), tuple(named))


def exclusions(family: Family, items: Iterable[str | int]) -> Exclusions:
    """:func:`read_exclusions` for a loaded family.

    >>> from solver.family import Family
    >>> exclusions(Family.load("dfrc"), ["chess959"]).ids
    (497798,)
    """
    return read_exclusions(family.name, items, family.parse_id,
                           lambda text: family.identify(text).id)
