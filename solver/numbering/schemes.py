"""Numberings other programs use: numbers and labels for a family's positions.

A family has its own numbering (its IDs, :class:`~solver.family.Family`) and
any number of further ones, each a :class:`Scheme`: an *order* of the
positions (the family's own, other placement steps, the other side first, or a
published table) and a *style* of writing a position's place in that order
(counting from ``first``, cyclically within a ``period``, or a label such as
TCEC's ``DFRC 502:532``). A scheme maps the family's IDs to its numbers and
back; ``chess960 check`` proves each one a bijection and equal to its examples.

>>> from solver.family import Family
>>> chess960 = Family.load("chess960")
>>> scidb = chess960.scheme("scidb")
>>> scidb.text(0), scidb.text(518), scidb.read("960")
('960', '518', 0)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from solver.errors import Chess960Error, NumberingLabelError, UnknownNumberingError
from solver.ruleset.numberings import NumberingSpec

if TYPE_CHECKING:
    from solver.numbering.steps import Numbering
    from solver.position import Position
    from solver.ruleset.reader import RuleSet


class Family(Protocol):
    """What a numbering asks of its family (:class:`solver.family.Family`)."""

    ruleset: RuleSet

    @property
    def name(self) -> str: ...
    @property
    def count(self) -> int: ...
    @property
    def side_count(self) -> int: ...
    @property
    def independent(self) -> bool: ...
    @property
    def schemes(self) -> Mapping[str, Scheme]: ...
    def rank_of(self, number: int) -> str: ...
    def rank_id(self, rank: str) -> int: ...
    def position(self, number: int) -> Position: ...
    def read(self, text: str) -> Position: ...

__all__ = ["Scheme", "builtin_specs", "prove", "scheme_named", "schemes_of"]


class Order:
    """A bijection between a family's IDs and places ``0 .. count - 1`` in another order."""

    def place(self, number: int) -> int:
        """The place of the position with the family's ID ``number``."""
        return number

    def id_at(self, place: int) -> int:
        """The family's ID of the position at ``place``."""
        return place

    def sides(self, place: int) -> tuple[int, int]:
        """An independent pair's places of White's and Black's rank (each side's order)."""
        raise NotImplementedError


class SideOrder(Order):
    """One side's ranks in the order of other placement steps (or the family's own)."""

    def __init__(self, family: Family, numbering: Numbering | None) -> None:
        self.family = family
        self.numbering = numbering

    def place(self, number: int) -> int:
        if self.numbering is None:
            return number
        return self.numbering.encode(self.family.rank_of(number))

    def id_at(self, place: int) -> int:
        if self.numbering is None:
            return place
        return self.family.rank_id(self.numbering.decode(place))


class PairOrder(Order):
    """An independent family's pairs: each side in a side order, one side more significant."""

    def __init__(self, family: Family, side: SideOrder, white_major: bool) -> None:
        self.n = family.side_count
        self.side = side
        self.white_major = white_major

    def place(self, number: int) -> int:
        white, black = divmod(number, self.n)
        w, b = self.side.place(white), self.side.place(black)
        return w * self.n + b if self.white_major else b * self.n + w

    def sides(self, place: int) -> tuple[int, int]:
        high, low = divmod(place, self.n)
        return (high, low) if self.white_major else (low, high)

    def id_at(self, place: int) -> int:
        w, b = self.sides(place)
        return self.side.id_at(w) * self.n + self.side.id_at(b)


class TableOrder(Order):
    """The positions of a published list, in its order."""

    def __init__(self, family: Family, rows: Sequence[str]) -> None:
        self.ids = [family.read(row).id for row in rows]
        self.places = {number: place for place, number in enumerate(self.ids)}

    def place(self, number: int) -> int:
        return self.places[number]

    def id_at(self, place: int) -> int:
        return self.ids[place]


class Scheme:
    """One numbering of a family: its numbers, labels, and the way back."""

    def __init__(self, family: Family, spec: NumberingSpec, canonical: bool = False,
                 builtin: bool = False) -> None:
        self.family = family
        self.spec = spec
        self.canonical = canonical
        #: Whether every family (of its kind) has it, by definition, undeclared.
        self.builtin = builtin
        self.cyclic = spec.cyclic
        self.count = family.count

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def first(self) -> int:
        return self.spec.first

    @property
    def period(self) -> int:
        return self.spec.period or self.count or 1

    @cached_property
    def order(self) -> Order:
        spec, family = self.spec, self.family
        if spec.table:
            return TableOrder(family, spec.table)
        numbering = None
        if spec.steps:
            from solver.numbering.steps import Numbering

            rs = family.ruleset
            numbering = Numbering(rs.region_size, rs.pieces, spec.steps, rs.allowed_files(),
                                  rs.name, rs.region.colours)
        side = SideOrder(family, numbering)
        if family.independent:
            return PairOrder(family, side, spec.pairs == "white-major")
        return side

    @property
    def low(self) -> int:
        """The smallest number."""
        return self.first

    @property
    def high(self) -> int:
        """The largest number."""
        return self.first + self.count - 1

    def _styled(self, place: int) -> int:
        if not self.cyclic:
            return place + self.first
        period = self.period
        block, within = divmod(place, period)
        return self.first + (within - self.first) % period + period * block

    def _unstyled(self, number: int) -> int:
        if not self.cyclic:
            return number - self.first
        period = self.period
        return (number - self.first) // period * period + number % period

    def number(self, number: int) -> int:
        """This numbering's number of the position with the family's ID ``number``."""
        return self._styled(self.order.place(number))

    def side_number(self, place: int) -> int:
        """A side's number in this numbering's style, from its place in the side order."""
        return place + self.first if not self.cyclic else \
            self.first + (place - self.first) % self.family.side_count

    def text(self, number: int) -> str:
        """How this numbering writes the position with the family's ID ``number``:
        its number, or its label."""
        label = self.spec.label
        if not label:
            return str(self.number(number))
        if self.family.independent:
            white, black = self.order.sides(self.order.place(number))
            w, b = self.side_number(white), self.side_number(black)
            if w == b and self.spec.same_label:
                return self.spec.same_label.format(number=w, white=w, black=b)
            return label.format(number=self.number(number), white=w, black=b)
        return label.format(number=self.number(number))

    @cached_property
    def _patterns(self) -> list[tuple[re.Pattern[str], Callable[[dict[str, int]], int]]]:
        """Each label template as a pattern, with how its fields give a place."""
        out: list[tuple[re.Pattern[str], Callable[[dict[str, int]], int]]] = []
        n = self.family.side_count

        def side_place(value: int) -> int:
            place = value - self.first if not self.cyclic else value % n
            if not 0 <= place < n:
                raise ValueError(value)
            return place

        def pair(fields: dict[str, int]) -> int:
            w = side_place(fields["white"])
            b = side_place(fields["black"])
            return w * n + b if self.spec.pairs == "white-major" else b * n + w

        def same(fields: dict[str, int]) -> int:
            (value,) = set(fields.values())  # a mirrored pair's one number
            return pair({"white": value, "black": value})

        def whole(fields: dict[str, int]) -> int:
            return self._unstyled(fields["number"])

        for template, mirrored in ((self.spec.same_label, True), (self.spec.label, False)):
            if not template:
                continue
            regex = "".join(
                re.escape(literal) + (f"(?P<{field}>[0-9]{{1,30}})" if field else "")
                for literal, field, _, _ in _parse(template))
            if mirrored:
                out.append((re.compile(regex, re.IGNORECASE), same))
            elif "{white}" in template or "{black}" in template:
                out.append((re.compile(regex, re.IGNORECASE), pair))
            else:
                out.append((re.compile(regex, re.IGNORECASE), whole))
        return out

    def read(self, text: str) -> int:
        """The family's ID of the position this numbering writes as ``text``.

        Raises :class:`~solver.errors.NumberingLabelError` for a text that is
        none of this numbering's numbers or labels.
        """
        stripped = text.strip()
        place = -1
        if self.spec.label:
            for pattern, how in self._patterns:
                found = pattern.fullmatch(stripped)
                if found is not None:
                    try:
                        place = how({k: int(v) for k, v in found.groupdict().items()})
                    except ValueError:
                        place = -1
                    break
        elif stripped.isascii() and stripped.isdigit() and len(stripped) <= 32:
            value = int(stripped)
            if self.low <= value <= self.high:
                place = self._unstyled(value)
        if not 0 <= place < self.count:
            raise NumberingLabelError(text, self.name, self.family.name, self.describe_range())
        return self.order.id_at(place)

    def listing(self, unicode: bool = False) -> Iterator[str]:
        """``<number> <rank(s)>`` lines of every position, in this numbering's
        order: by number, or (labels) by place."""
        from solver.notation.ranks import format_rank

        family, id_at = self.family, self.order.id_at
        places: Iterator[int] = iter(range(self.count)) if self.spec.label else (
            self._unstyled(value) for value in range(self.low, self.high + 1))
        for place in places:
            number = id_at(place)
            found = family.position(number)
            shown = format_rank(found.white, unicode)
            if family.independent:
                shown += " " + format_rank(found.black, unicode, black=True)
            yield f"{self.text(number)} {shown}\n"

    def describe_range(self) -> str:
        """What this numbering's numbers look like, for messages."""
        if self.spec.label:
            shown = self.spec.label.replace("{number}", "N").replace("{white}", "W") \
                .replace("{black}", "B")
            if self.spec.same_label:
                shown += " or " + self.spec.same_label.replace("{number}", "N") \
                    .replace("{white}", "N").replace("{black}", "N")
            return shown
        return f"{self.low}..{self.high}"

    def summary(self) -> str:
        """One line: the name, what the numbers are, the evidence."""
        evidence = "builtin" if self.builtin else self.spec.evidence
        what = {"definition": "proven against its definition",
                "table": "proven against its published table",
                "builtin": "by definition",
                "example": "rests on one published example" if len(self.spec.examples) == 1
                else "rests on published examples only"}[evidence]
        return f"{self.name}: {self.spec.title} ({self.describe_range()}; {what})"


def _parse(template: str) -> list[tuple[str, str | None, str | None, str | None]]:
    import string

    return list(string.Formatter().parse(template))


def builtin_specs(family: Family) -> list[NumberingSpec]:
    """The numberings every family has besides its declared ones: ``one-based``
    (Scharnagl's 1..960 range, 960 standing for 0) and, for independent sides,
    ``black-major`` (Black's rank the more significant digit)."""
    out = [NumberingSpec(
        name="one-based", title="the family's IDs counted from 1, the count standing for 0",
        source="Reinhard Scharnagl's 1..960 range", first=1, cyclic=True)]
    army = family.ruleset.army
    if family.independent and not (army is not None and army.linked):  # (no product: linked)
        out.append(NumberingSpec(
            name="black-major", title="Black's side ID * n + White's side ID",
            source="this project's order of pairs before release 0.6", pairs="black-major"))
    return out


def schemes_of(family: Family) -> dict[str, Scheme]:
    """Every numbering of ``family`` by name, its own first."""
    rs = family.ruleset
    own = NumberingSpec(name=rs.numbering_name,
                        title=rs.numbering_title or "the family's own IDs",
                        source=rs.source, evidence="definition")
    schemes = {own.name: Scheme(family, own, canonical=True)}
    for spec in rs.numberings:
        schemes[spec.name] = Scheme(family, spec)
    for spec in builtin_specs(family):
        schemes.setdefault(spec.name, Scheme(family, spec, builtin=True))
    return schemes


def scheme_named(family: Family, name: str) -> Scheme:
    """The numbering ``name`` of ``family``; raises
    :class:`~solver.errors.UnknownNumberingError` for a name it does not have."""
    schemes = family.schemes
    try:
        return schemes[name]
    except KeyError:
        raise UnknownNumberingError(name, family.name, tuple(schemes)) from None


def prove(scheme: Scheme, limit: int = 1_000_000) -> list[str]:
    """What is wrong with ``scheme``: not a bijection onto its numbers (checked
    for every position of a family up to ``limit``), or an example it does not
    give. Empty when proven."""
    problems: list[str] = []
    family = scheme.family
    count = scheme.count
    if count <= limit:
        try:
            if isinstance(scheme.order, PairOrder):
                side = scheme.order.side
                n = family.side_count
                places = [side.place(i) for i in range(n)]
                if sorted(places) != list(range(n)) or any(side.id_at(p) != i
                                                          for i, p in enumerate(places)):
                    problems.append("a side's order is not a bijection onto 0.."
                                    f"{n - 1}")
            else:
                seen = [scheme.order.place(i) for i in range(count)]
                if sorted(seen) != list(range(count)):
                    problems.append(f"the order is not a bijection onto 0..{count - 1}")
                elif any(scheme.order.id_at(p) != i for i, p in enumerate(seen)):
                    problems.append("the order's way back does not return every position")
            step = max(1, count // 5000)
            for number in range(0, count, step):
                if scheme.read(scheme.text(number)) != number:
                    problems.append(f"{scheme.text(number)!r} does not read back as "
                                    f"id {number}")
                    break
        except Chess960Error as exc:
            problems.append(str(exc))
    for position, expected in scheme.spec.examples:
        try:
            got = scheme.text(family.read(position).id)
        except Chess960Error as exc:
            problems.append(f"example {position!r}: {exc}")
            continue
        if got != expected:
            problems.append(f"example {position!r} is {got!r}, not {expected!r} as published")
    return problems
