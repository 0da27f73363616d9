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
lists of positions (:mod:`solver.idlists`: IDs, ranges, ranks, FENs, ``@FILE``)
and preset names, comma-separated or one an item, into
:class:`Exclusions` (every ID left out, and which presets were named), so a
draw's output and its certificate can say which presets it used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from solver.errors import Chess960Error, ExclusionError, IdSyntaxError

if TYPE_CHECKING:
    from solver.family import Family
    from solver.idlists import Item
    from solver.numbering.schemes import Scheme

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


def excluded_ids(family: str, exclude: Sequence[str], parse: Callable[[str], int],
                 identify: Callable[[str], int], note: Callable[[str], object]) -> list[int]:
    """The IDs ``--exclude`` leaves out of the family named ``family``: IDs
    (read by ``parse``) and, where a part is not a plain number, anything
    :func:`read_exclusions` reads; a preset named is given to ``note`` with
    its IDs (one line).

    >>> from solver.numbering.scharnagl import scharnagl_id
    >>> excluded_ids("chess960", ["7,3"], int, scharnagl_id, print)
    [7, 3]
    >>> excluded_ids("chess960", ["chess959"], int, scharnagl_id, print)
    excluded: chess959 (518)
    <BLANKLINE>
    [518]
    """
    parts = [part.strip() for item in exclude for part in item.split(",") if part.strip()]
    if all(part.isascii() and part.isdigit() for part in parts):
        return [parse(part) for part in parts]
    found = read_exclusions(family, parts, parse, identify)
    if found.presets:
        note(f"excluded: {found.describe()}\n")
    return list(found.ids)


def read_exclusions(
    family: str,
    items: Iterable[str | int],
    parse_id: Callable[[str], int],
    identify: Callable[[str], int],
) -> Exclusions:
    """``items`` as :class:`Exclusions` of the family named ``family``: each a
    list as :mod:`solver.idlists` reads it (IDs, ranges ``0-949``, ranks,
    pairs, FENs and ``@FILE``, comma-separated) that may also name presets;
    ``parse_id`` reads an ID's text, ``identify`` gives a rank's (pair's, FEN's) ID.

    >>> from solver.numbering.scharnagl import scharnagl_id
    >>> read_exclusions("chess960", ["chess958", "7", "3-4"], int, scharnagl_id)
    Exclusions(ids=(3, 4, 7, 518, 534), presets=(('chess958', (518, 534)),))

    Raises :class:`~solver.errors.ExclusionError` for a word that is neither
    a position nor a preset of the family (an ID out of range raises what
    ``parse_id`` raises, a reversed range :class:`~solver.errors.IdError`).
    """
    from solver.idlists import list_items

    own = PRESETS.get(family, {})
    ids: set[int] = set()
    named: list[tuple[str, tuple[int, ...]]] = []
    texts: list[str] = []
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            ids.add(item)
        else:
            texts.append(str(item))
    for listed in list_items(texts):
        preset = own.get(listed.text.lower())
        if preset is None:
            found = _read(listed, family, parse_id, identify)
            ids.update(found if isinstance(found, range) else (found,))
            continue
        name = listed.text.lower()
        if any(known == name for known, _ in named):
            continue
        # an edited rule file under the family's name may lack a rank: its error says so
        numbers = tuple(sorted({identify(rank) for rank in preset}))
        named.append((name, numbers))
        ids.update(numbers)
    return Exclusions(tuple(sorted(ids)), tuple(named))


def _read(listed: Item, family: str, parse_id: Callable[[str], int],
          identify: Callable[[str], int]) -> range | int:
    """The IDs of one item that names no preset; a word that reads as neither
    an ID nor a position (nor a rank-like word, a pair or a FEN, whose own
    error says more) is an :class:`~solver.errors.ExclusionError`."""
    from solver.idlists import read_item

    if listed.text.replace("-", "").replace(" ", "").isdigit():  # an ID, a range
        return read_item(listed, parse_id, identify)
    try:
        return read_item(listed, parse_id, identify)
    except IdSyntaxError:
        raise listed.fail(ExclusionError(listed.text, family, preset_names(family))) from None
    except Chess960Error:
        text = listed.text
        if "/" in text or " " in text or (text.isalpha() and len(text) >= 6):
            raise
        raise listed.fail(ExclusionError(text, family, preset_names(family))) from None


def exclusions(family: Family, items: Iterable[str | int]) -> Exclusions:
    """:func:`read_exclusions` for a loaded family.

    >>> from solver.family import Family
    >>> exclusions(Family.load("dfrc"), ["chess959"]).ids
    (497798,)
    """
    return read_exclusions(family.name, items, family.parse_id,
                           lambda text: family.identify(text).id)


#: The largest family ``--from`` draws from (the IDs off the list are excluded).
SHORTLIST_FAMILY: Final = 1 << 22


def off_list(family: Family, shortlist: str | None, scheme: Scheme | None,
             exclude: Sequence[str], needed: int) -> list[int]:
    """The IDs off the list ``shortlist`` (``--from FILE``: a list as
    :mod:`solver.idlists` reads it, in ``scheme``), which a draw excludes;
    none without one. A list that ``exclude`` leaves empty, or with fewer
    than ``needed`` positions, is refused."""
    if shortlist is None:
        return []
    from solver.errors import IdListError
    from solver.idlists import family_readers, read_id_set

    if family.count > SHORTLIST_FAMILY:
        raise IdListError(f"@{shortlist}", None, f"--from draws from families of at most "
                                                 f"{SHORTLIST_FAMILY:,} positions, not "
                                                 f"{family.name}'s {family.count:,}")
    listed = read_id_set(family, [f"@{shortlist}"], scheme)
    excluded: set[int] = set()
    if exclude:
        number, position = family_readers(family, scheme)
        excluded = set(read_exclusions(family.name, exclude, number, position).ids)
        if all(n in excluded for n in listed):
            raise IdListError(f"@{shortlist}", None, f"--exclude leaves none of the "
                                                     f"{len(listed):,} positions {shortlist!r} "
                                                     "lists")
    if (left := len(set(listed) - excluded)) < needed:
        after = " after --exclude" if excluded else ""
        raise IdListError(f"@{shortlist}", None, f"{needed:,} distinct positions are asked "
                                                 f"for, but {shortlist!r} lists {left:,}{after}")
    kept = set(listed)
    return [n for n in range(family.count) if n not in kept]
