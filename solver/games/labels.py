"""A position's number as PGN tags carry it: ``FRC 518``, ``DFRC 502:532``.

The one place a game tag's number is made and read back. A family that
declares TCEC's labels (the numbering ``tcec``, :mod:`solver.numbering.schemes`)
is labelled by them; any other family as ``<name> <id>``.

>>> from solver.family import Family
>>> chess960, dfrc = Family.load("chess960"), Family.load("dfrc")
>>> label(chess960, chess960.position(518)), label(dfrc, dfrc.pair(502, 532))
('FRC 518', 'DFRC 502:532')
>>> read_label(dfrc, "DFRC 502:532") == dfrc.pair(502, 532)
True
>>> read_label(chess960, "518").white, read_label(chess960, "Sicilian Defense")
('RNBQKBNR', None)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from solver.errors import Chess960Error

if TYPE_CHECKING:
    from solver.family import Family
    from solver.position import Position

#: The prefix tournaments (TCEC) write before the number, by family name.
PREFIXES: Final = {"chess960": "FRC", "dfrc": "DFRC"}

_LABEL: Final = re.compile(r"\s*(?:([A-Za-z][\w-]*)\s*#?\s*)?(\d{1,9})(?:\s*[:/]\s*(\d{1,9}))?\s*")


def prefix(family: Family) -> str:
    """The word before a position's number: ``FRC``, ``DFRC``, else the family's name."""
    return PREFIXES.get(family.name, family.name)


def number(family: Family, position: Position | int) -> str:
    """The number alone: the ID, or ``<white_id>:<black_id>`` when the sides are
    independent (``position``: a position, or its ID)."""
    found = position if isinstance(position, int) else position.id
    if not family.independent:
        return str(found)
    white, black = divmod(found, family.side_count)
    return f"{white}:{black}"


def label(family: Family, position: Position | int) -> str:
    """The tag value naming ``position`` (a position, or its ID): the family's
    TCEC label where it has one (``FRC 518``, ``DFRC 502:532``), else
    ``<prefix> <number>``.

    >>> from solver.family import Family
    >>> label(Family.load("chess960"), 105), label(Family.load("placement"), 3)
    ('FRC 105', 'placement 0:3')
    """
    scheme = family.schemes.get("tcec")
    if scheme is not None:
        return scheme.text(position if isinstance(position, int) else position.id)
    return f"{prefix(family)} {number(family, position)}"


def read_label(family: Family, text: str) -> Position | None:
    """The position a tag value names (``FRC 518``, ``518``, ``DFRC 502:532``,
    ``502:532``), or ``None`` when it names none of the family's (another
    prefix, no number, a number out of range)."""
    scheme = family.schemes.get("tcec")
    if scheme is not None:
        try:
            return family.position(scheme.read(text))
        except Chess960Error:
            pass  # the other forms below (a bare number, "502:532", "dfrc 7")
    found = _LABEL.fullmatch(text)
    if found is None:
        return None
    word, first, second = found.groups()
    if word is not None and word.lower() not in {prefix(family).lower(), family.name.lower()}:
        return None
    try:
        if second is not None:
            return family.pair(first, second) if family.independent else None
        return family.position(int(first))
    except Chess960Error:
        return None
