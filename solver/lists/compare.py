"""A list of start positions compared with a family.

:func:`compare_lines` reads a list (ranks, pairs, FENs or EPD lines, one a
line, in any castling notation; blank lines and ``#`` comments skipped) and
says what differs from the family: the positions missing (with their IDs),
the extra lines (each with the rule it breaks: what
:meth:`Family.identify <solver.family.Family.identify>` says), the lines that
repeat an earlier position, and whether the list is in the order of one of the
family's numberings (:attr:`Family.schemes <solver.family.Family.schemes>`).
Memory is a byte a position of the family (which IDs were seen) and a few
bytes a line (the IDs in list order, and where each was first seen), so a
921,600-line DFRC list is compared in a few seconds.

>>> from solver.family import Family
>>> found = compare_text("RNBQKBNR\\nRNBQKBNR\\nBRBNKQNR\\n", Family.load("chess960"))
>>> found.missing_count, [d.first for d in found.duplicates], found.extras[0].line
(959, [1], 3)
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Final

from solver.errors import Chess960Error
from solver.lists.which import letters, other_reading

if TYPE_CHECKING:
    from solver.family import Family
    from solver.numbering.schemes import Scheme

__all__ = ["Comparison", "Duplicate", "Extra", "compare_lines", "compare_text", "in_order"]

#: Extra and duplicate lines kept (each counted beyond).
KEPT: Final = 10_000
#: Families up to this count keep each ID's first line in an array (4 bytes an ID)
#: and which IDs were seen in a byte array; larger ones, what the list holds, in a dict.
ARRAY_MAX: Final = 1 << 24
#: Missing IDs the JSON report lists at most.
JSON_MISSING: Final = 1_000_000


@dataclass(frozen=True)
class Extra:
    """A line that is not one of the family's positions, and why."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class Duplicate:
    """A line repeating the position of line ``first`` (the family's ID ``id``)."""

    line: int
    first: int
    id: int


@dataclass
class Comparison:
    """A list against a family: what is missing, extra, repeated, and its order."""

    name: str
    family: Family
    lines: int = 0
    positions: int = 0
    extras: list[Extra] = field(default_factory=list)
    extra_count: int = 0
    duplicates: list[Duplicate] = field(default_factory=list)
    duplicate_count: int = 0
    seen: bytearray | dict[int, int] = field(default_factory=bytearray)
    total: int = 0
    #: The numberings whose order the list's positions follow (each number higher than the last).
    orders: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        """How many positions the family has."""
        return self.total

    @property
    def present(self) -> int:
        """How many of the family's positions the list holds."""
        return self.positions - self.duplicate_count

    @property
    def missing_count(self) -> int:
        return self.count - self.present

    def missing(self) -> Iterator[int]:
        """The IDs of the family's positions the list lacks, in increasing order."""
        seen = self.seen
        if isinstance(seen, dict):
            yield from (n for n in range(self.count) if n not in seen)
            return
        at = 0
        while (at := seen.find(0, at)) >= 0:
            yield at
            at += 1

    @property
    def same(self) -> bool:
        """Whether the list holds each of the family's positions exactly once."""
        return not (self.extra_count or self.duplicate_count or self.missing_count)

    def order_text(self) -> str:
        """Which numbering's order the list follows, in words."""
        if not self.orders:
            return "in no numbering's order"
        names = ", ".join(self.orders)
        what = f"the numbering {names}" if len(self.orders) == 1 else f"the numberings {names}"
        gaps = ", with gaps" if self.missing_count and self.positions else ""
        return f"in the order of {what}{gaps}"

    def summary(self) -> str:
        """The last line of the report."""
        lines = f"{self.lines:,} line{'s' if self.lines != 1 else ''}"
        name = self.family.name
        if self.same:
            return (f"{self.name}: {lines}: each of the {self.count:,} {name} positions once, "
                    f"{self.order_text()}")
        dup = self.duplicate_count
        return (f"{self.name}: {lines}: {self.present:,} of the {self.count:,} {name} "
                f"positions, {self.missing_count:,} missing, {self.extra_count:,} extra, "
                f"{dup:,} duplicate{'s' if dup != 1 else ''}; {self.order_text()}")

    def shown(self, number: int, scheme: Scheme | None = None) -> str:
        """A position as the report names it: its number and its rank(s)."""
        family = self.family
        found = family.position(number)
        text = scheme.text(number) if scheme is not None else str(number)
        ranks = found.white if not family.independent else f"{found.white} {found.black.lower()}"
        return f"{family.name} {text} ({ranks})"

    def report(self, limit: int | None = 20, scheme: Scheme | None = None) -> Iterator[str]:
        """The report's lines: missing positions, extra and repeated lines (each
        at most ``limit``, then how many more), then :meth:`summary`."""
        def capped(items: Iterable[str], total: int, what: str) -> Iterator[str]:
            shown = 0
            for item in islice(items, limit):
                shown += 1
                yield item
            if total > shown:
                yield f"{self.name}: ... and {total - shown:,} more {what}"

        yield from capped((f"{self.name}: missing {self.shown(n, scheme)}"
                           for n in self.missing()), self.missing_count, "missing")
        yield from capped((f"{self.name}:{e.line}: extra: {_short(e.text)}: {e.reason}"
                           for e in self.extras), self.extra_count, "extra lines")
        yield from capped((f"{self.name}:{d.line}: duplicate of line {d.first}: "
                           f"{self.shown(d.id, scheme)}" for d in self.duplicates),
                          self.duplicate_count, "duplicates")
        yield self.summary()

    def as_dict(self, scheme: Scheme | None = None) -> dict[str, object]:
        """The comparison as JSON data (every missing ID; the extras and
        duplicates kept)."""
        text = scheme.text if scheme is not None else str
        return {
            "file": self.name, "family": self.family.name, "lines": self.lines,
            "count": self.count, "present": self.present, "same": self.same,
            "missing_count": self.missing_count,
            "missing": [{"id": n, "number": text(n)}
                        for n in islice(self.missing(), JSON_MISSING)],
            "extra_count": self.extra_count,
            "extra": [{"line": e.line, "text": e.text, "reason": e.reason}
                      for e in self.extras],
            "duplicate_count": self.duplicate_count,
            "duplicates": [{"line": d.line, "first": d.first, "id": d.id, "number": text(d.id)}
                           for d in self.duplicates],
            "orders": self.orders, "order": self.order_text(),
        }


def _short(text: str) -> str:
    return repr(text) if len(text) <= 60 else f"{text[:60]!r}..."


def _identity(scheme: Scheme) -> bool:
    """Whether ``scheme``'s order is the family's own ID order (so its numbers,
    or labels, rise with the IDs)."""
    from solver.numbering.schemes import PairOrder, SideOrder

    if scheme.cyclic and not scheme.spec.label:
        return False
    order = scheme.order
    if isinstance(order, PairOrder):
        return order.white_major and order.side.numbering is None
    return type(order) is SideOrder and order.numbering is None


def in_order(ids: array[int], scheme: Scheme) -> bool:
    """Whether ``ids`` follow ``scheme``'s order: each one's number (its place,
    for labels) higher than the one before."""
    if _identity(scheme):
        return all(map(operator.lt, ids, islice(ids, 1, None)))
    key = scheme.order.place if scheme.spec.label else scheme.number
    last = -1
    for number in ids:
        value = key(number)
        if value <= last:
            return False
        last = value
    return True


def compare_lines(lines: Iterable[list[bytes | None]], family: Family, name: str = "-"
                  ) -> Comparison:
    """Compare the byte lines of :class:`~solver.lines.LineReader` with ``family``.

    Raises :class:`~solver.errors.InputFileError` for a line too long or not UTF-8.
    """
    from solver.lines import entries

    count = family.count
    small = count <= ARRAY_MAX
    seen: bytearray | dict[int, int]
    first: array[int] | dict[int, int]
    if small:
        seen, first = bytearray(count), array("I", bytes(4 * count))
    else:
        seen = first = {}  # the line each position of the list was first seen on
    found = Comparison(name, family, seen=seen, total=count)
    ids: array[int] = array("q")
    identify = family.fen_identifier()
    for number, text in entries(lines, name):
        found.lines += 1
        try:
            position = identify(text)
        except Chess960Error as exc:
            other = other_reading(family, letters(text))
            if other is not None:
                position = other
            else:
                found.extra_count += 1
                if len(found.extras) < KEPT:
                    found.extras.append(Extra(number, text, str(exc)))
                continue
        found.positions += 1
        ids.append(position)
        if seen[position] if small else position in seen:
            found.duplicate_count += 1
            if len(found.duplicates) < KEPT:
                found.duplicates.append(Duplicate(number, first[position], position))
            continue
        seen[position] = 1
        first[position] = number  # (the same dict as seen, for a large family)
    if ids:
        found.orders = [name_ for name_, scheme in family.schemes.items()
                        if in_order(ids, scheme)]
    return found


def compare_text(text: str, family: Family, name: str = "-") -> Comparison:
    """:func:`compare_lines` of a text (a byte order mark and any line breaks allowed)."""
    import io

    from solver.lines import LineReader

    return compare_lines(LineReader(io.BytesIO(text.encode("utf-8"))), family, name)


def compare_path(path: str, family: Family) -> Comparison:
    """:func:`compare_lines` of the file ``path`` (``-``: stdin), read in chunks."""
    from solver.documents import position_lines

    with position_lines(path) as lines:
        return compare_lines(lines, family, path)
