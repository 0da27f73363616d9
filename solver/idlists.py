"""Lists of positions as commands take them: ``--ids``, ``--exclude`` and ``--from``.

One reader for every place a list of positions is given. A list is items,
comma-separated, each one of:

* an ID, ``518``: a number of the numbering in use (or a label, ``FRC 518``);
* a range, ``0-959``: both ends included, never listed (so ``0-149320543``
  costs as little as ``0-9``); a reversed range is refused;
* a rank, a pair of ranks or a start FEN: ``QNRBBNKR``, ``QNRBBNKR rnbqkbnr``;
* a line ``random`` or ``solve`` writes, ``<id> <rank>``: the id must be the rank's;
* ``@FILE``: the items of a file, one a line (a line may also list several,
  comma-separated; a path with a comma cannot be given); blank lines are
  skipped, and so is a comment, from a ``#`` at a line's start or after a
  space to the line's end (``#385``, a Jocly label, is no comment: a ``#``
  followed by a digit never is). A file is at most :data:`MAX_BYTES` bytes.

:func:`list_items` splits the texts into :class:`Item` (each knowing the file
and line it came from, for its error); :func:`read_numbers` reads them in a
numbering; :func:`read_id_set` gives the IDs as a sorted tuple. Every bad item
raises one :class:`~solver.errors.IdListError` naming the file and line (or
one of the errors of the family's own reading, for an item given inline).

>>> from solver.family import Family
>>> chess960 = Family.load("chess960")
>>> list(read_numbers(chess960, ["3,0-1,QNRBBNKR"]))
[3, 0, 1, 105]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from solver.errors import Chess960Error, IdError, IdListError, IdMismatchError, quote

if TYPE_CHECKING:
    from solver.family import Family
    from solver.numbering.schemes import Scheme
    from solver.position import Position
    from solver.sampling import IdRanges

#: The largest ``@FILE`` read: every DFRC pair's FEN is about 55 MB.
MAX_BYTES: Final = 64 << 20

_RANGE: Final = re.compile(r"\s*(\d+)\s*-\s*(\d+)\s*")
_COMMENT: Final = re.compile(r"(?:^|\s)#(?!\d)")


@dataclass(frozen=True)
class Item:
    """One item of a list: its ``text`` and ``where`` it came from (``ids.txt
    line 3``; None: given inline)."""

    text: str
    where: str | None = None

    def fail(self, exc: Chess960Error) -> Chess960Error:
        """``exc`` for this item: as it is inline, with its file and line from a file."""
        if self.where is None:
            return exc
        return IdListError(self.where, self.text, str(exc))


def read_list_file(path: str) -> str:
    """The text of the list file ``path``: a regular file of at most
    :data:`MAX_BYTES` bytes of UTF-8 (raises :class:`~solver.errors.IdListError`)."""
    from solver.files import read_text

    def refuse(reason: str) -> IdListError:
        if reason.startswith("larger than"):
            reason += " (a list holds one position a line)"
        return IdListError(f"@{path}", None, f"cannot read {path!r}: {reason}")

    return read_text(path, MAX_BYTES, refuse)


def list_items(texts: Iterable[str], read: Callable[[str], str] = read_list_file
               ) -> Iterator[Item]:
    """The items of ``texts``: each split at commas, ``@FILE`` the items of the
    file's lines (read by ``read``). A file with no item is refused.

    >>> [item.text for item in list_items(["0-9, 518", "RNBQKBNR"])]
    ['0-9', '518', 'RNBQKBNR']
    >>> list(list_items(["@ids.txt"], {"ids.txt": "# mine\\n5\\n\\n7 # ok\\n"}.get))
    [Item(text='5', where='ids.txt line 2'), Item(text='7', where='ids.txt line 4')]
    """
    for text in texts:
        for part in text.split(","):
            if not part.strip():
                raise IdError(text, f"list {quote(text)} has an empty item: give ids, "
                                    "ranges, positions or @FILE, comma-separated")
            if part.strip().startswith("@"):
                yield from _file_items(part.strip()[1:], read)
            else:
                yield Item(part.strip())


def _file_items(path: str, read: Callable[[str], str]) -> Iterator[Item]:
    if not path:
        raise IdError("@", "'@' names no file: give @FILE, a file of positions, one a line")
    found = False
    for number, line in enumerate(read(path).splitlines(), 1):
        comment = _COMMENT.search(line) if "#" in line else None
        kept = line[:comment.start()] if comment else line
        where = f"{path} line {number}"
        for part in kept.split(","):
            text = part.strip()
            if text.startswith("@"):
                raise IdListError(where, text, f"{quote(text)}: a list file names no "
                                               "other file (@ is for the command line)")
            if text:
                found = True
                yield Item(text, where)
    if not found:
        raise IdListError(f"@{path}", None, f"{path!r} lists no position (only blank "
                                            "lines and comments)")


def _listed(text: str) -> tuple[str, str] | None:
    """``(number, rest)`` of a line ``random`` or ``solve`` writes, else None."""
    head, _, rest = text.partition(" ")
    if rest.strip() and head.isascii() and head.isdigit():
        return head, rest.strip()
    return None


def read_item(item: Item, number: Callable[[str], int], position: Callable[[str], int]
              ) -> range | int:
    """What ``item`` stands for: a range of numbers (``number`` reads each end,
    refusing one out of range), or one ID (a label read by ``number``; a rank,
    pair or FEN by ``position``; a ``<id> <rank>`` line the rank's, checked)."""
    text = item.text
    try:
        if text.isdigit() and text.isascii():  # the most common item first
            number(text)
            return range(int(text), int(text) + 1)
        span = _RANGE.fullmatch(text)
        if span is not None:
            number(span.group(1))  # each end in range
            number(span.group(2))
            low, high = int(span.group(1)), int(span.group(2))
            if low > high:
                raise IdError(text, f"range {quote(text)} is reversed: {low} > {high}")
            return range(low, high + 1)
        listed = _listed(text)
        if listed is not None:
            found = position(listed[1])
            if number(listed[0]) != found:
                raise IdMismatchError(int(listed[0]), listed[1], found)
            return found
        try:
            return number(text)  # a label
        except Chess960Error:
            return position(text)
    except Chess960Error as exc:
        raise item.fail(exc) from None


def family_readers(family: Family, scheme: Scheme | None
                   ) -> tuple[Callable[[str], int], Callable[[str], int]]:
    """How ``family``'s lists read a number (in ``scheme``, else the family's
    own IDs) and a rank, pair or FEN."""
    count, parse_id = family.count, family.parse_id

    def own(text: str) -> int:
        if text.isdigit() and text.isascii() and len(text) < 19 and int(text) < count:
            return int(text)  # a plain ID in range: the most common item, made quickly
        return parse_id(text)

    return (own if scheme is None else scheme.read, lambda text: family.identify(text).id)


def read_numbers(family: Family, texts: Iterable[str], scheme: Scheme | None = None
                 ) -> Iterator[int]:
    """The IDs a list names, each once, in the order given; numbers (and their
    ranges) are ``scheme``'s when given (its numbers' order: ``960-961`` of
    Scidb's numbering are two IDs far apart). Every item is checked first; the
    IDs of a range then come as they are asked for (a range is never listed).

    For the family's own IDs this is an :class:`~solver.sampling.IdRanges`
    (a sequence, with ``len``).
    """
    number, position = family_readers(family, scheme)
    parts = [read_item(item, number, position) for item in list_items(texts)]
    for part in parts:
        if isinstance(part, range) and len(part) > family.count:
            raise IdError(str(part), f"range {part.start}-{part.stop - 1} is longer than the "
                                     f"{family.count:,} {family.name} positions")
    if scheme is None:
        return iter(ordered_ranges(parts))
    return _scheme_numbers(parts, scheme)


def id_ranges(family: Family, texts: Iterable[str]) -> IdRanges:
    """:func:`read_numbers` in the family's own IDs, as ranges.

    >>> from solver.family import Family
    >>> id_ranges(Family.load("chess960"), ["5-7,0-9,3"]).ranges
    [range(5, 8), range(0, 5), range(8, 10)]
    """
    number, position = family_readers(family, None)
    return ordered_ranges([read_item(item, number, position) for item in list_items(texts)])


def ordered_ranges(parts: list[range | int]) -> IdRanges:
    """``parts`` (ranges and single IDs) each ID once, in order, as an
    :class:`~solver.sampling.IdRanges`: single IDs (a file of many) are
    deduplicated by a set and joined into runs, so a file of every DFRC pair,
    shuffled, is read in about five seconds (not hours, as range by range).

    >>> ordered_ranges([3, range(0, 5), 3, 4, 9, 10]).ranges
    [range(3, 4), range(0, 3), range(4, 5), range(9, 11)]
    """
    from solver.sampling import IdRanges, cover, uncovered

    covered: list[range] = []  # the ranges given so far, sorted, disjoint
    singles: set[int] = set()  # the single IDs given so far
    kept: list[range] = []

    def keep(piece: range) -> None:
        if kept and kept[-1].stop == piece.start:
            kept[-1] = range(kept[-1].start, piece.stop)
        else:
            kept.append(piece)

    for given in parts:
        part = given.start if isinstance(given, range) and len(given) == 1 else given
        if isinstance(part, int):
            if part not in singles and not any(part in r for r in covered):
                singles.add(part)
                keep(range(part, part + 1))
            continue
        for piece in list(uncovered(covered, part)):
            cover(covered, piece)
            inside = sorted(s for s in singles if s in piece) if len(singles) < len(piece) \
                else [s for s in piece if s in singles]
            start = piece.start
            for single in inside:
                if single > start:
                    keep(range(start, single))
                start = single + 1
            if start < piece.stop:
                keep(range(start, piece.stop))
    found = IdRanges(())
    found.ranges = kept
    return found


def _scheme_numbers(parts: list[range | int], scheme: Scheme) -> Iterator[int]:
    """The IDs of a numbering's ranges of numbers and of labels (their IDs), each
    once: the numbers kept as ranges, the labels' IDs (as many as the text names)
    in a set."""
    from solver.sampling import cover, uncovered

    covered: list[range] = []  # the numbers written, sorted and disjoint
    labels: set[int] = set()  # the labels' IDs written
    for part in parts:
        if isinstance(part, range):
            numbers = part
        else:
            if part in labels:
                continue
            text = scheme.text(part)
            if not text.isdigit():
                labels.add(part)
                yield part
                continue
            numbers = range(int(text), int(text) + 1)  # a label of a numbered scheme
        for piece in list(uncovered(covered, numbers)):
            cover(covered, piece)
            for number in piece:
                found = scheme.read(str(number))
                if found not in labels:
                    yield found


def read_id_set(family: Family, texts: Iterable[str], scheme: Scheme | None = None
                ) -> tuple[int, ...]:
    """The IDs a list names, sorted, each once (a shortlist: ``--from``).

    >>> from solver.family import Family
    >>> read_id_set(Family.load("chess960"), ["518,0-2,RNBQKBNR"])
    (0, 1, 2, 518)
    """
    return tuple(sorted(set(read_numbers(family, texts, scheme))))


def read_listed(family: Family, text: str) -> Position:
    """The position ``text`` names (:meth:`Family.read <solver.family.Family.read>`),
    also as a line ``random`` or ``solve`` writes (``<id> <rank>``): the id must be the rank's.

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> read_listed(chess960, "105 QNRBBNKR").white, read_listed(chess960, "518").white
    ('QNRBBNKR', 'RNBQKBNR')
    >>> read_listed(chess960, "104 QNRBBNKR")
    Traceback (most recent call last):
    ...
    solver.errors.IdMismatchError: id 104 does not match 'QNRBBNKR', whose id is 105
    """
    from solver.lines import split_listed

    listed, rest = split_listed(text)
    found = family.read(rest)
    if listed is not None and listed != found.id:
        raise IdMismatchError(listed, rest, found.id)
    return found
