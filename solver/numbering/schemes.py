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
from typing import TYPE_CHECKING, ClassVar, Final, Protocol, TypeVar

from solver.board.castling_rules import SubsetCastling
from solver.errors import (
    Chess960Error,
    IdMismatchError,
    NumberingLabelError,
    UnknownNumberingError,
)
from solver.ruleset.numberings import NumberingSpec

if TYPE_CHECKING:
    from solver.position import Position
    from solver.ruleset.reader import RuleSet
    from solver.syntax.steps import Numbering


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
    def linked(self) -> bool: ...
    @property
    def schemes(self) -> Mapping[str, Scheme]: ...
    def rank_of(self, number: int) -> str: ...
    def rank_id(self, rank: str) -> int: ...
    def side_table(self) -> list[str]: ...
    def validate(self, text: str) -> str: ...
    def position(self, number: int) -> Position: ...
    def read(self, text: str) -> Position: ...

#: The castling rights in a label: X-FEN letters, or ``-`` for none.
_PLAIN_RIGHTS: Final = "(?:[KQkq]{1,4}|-)"

__all__ = ["BUILTINS", "Builtin", "Scheme", "builtin_specs", "prove", "scheme_named",
           "schemes_of"]


class Order:
    """A bijection between a family's IDs and places ``0 .. count - 1`` in another order."""

    def place(self, number: int) -> int:
        """The place of the position with the family's ID ``number``."""
        return number

    def id_at(self, place: int) -> int:
        """The family's ID of the position at ``place``."""
        return place

    def all_places(self, count: int) -> list[int]:
        """``place(i)`` for every ID ``i`` below ``count`` (subclasses may do it in bulk)."""
        return [self.place(i) for i in range(count)]

    def all_ids_at(self, count: int) -> list[int]:
        """``id_at(p)`` for every place ``p`` below ``count`` (subclasses may do it in bulk)."""
        return [self.id_at(p) for p in range(count)]

    def sides(self, place: int) -> tuple[int, int]:
        """An independent pair's places of White's and Black's rank (each side's order)."""
        raise NotImplementedError


def reorder_digits(number: int, radices: Sequence[int], order: Sequence[int]) -> int:
    """``number``'s mixed-radix digits (the first the least significant)
    rewritten with ``order``'s digit the most significant, then the next...

    >>> reorder_digits(2 + 4 * (1 + 4 * (2 + 6 * 5)), (4, 4, 6, 10, 1), (1, 0, 2, 3, 4))
    385
    """
    digits = []
    for radix in radices:
        number, digit = divmod(number, radix)
        digits.append(digit)
    value = 0
    for index in order:
        value = value * radices[index] + digits[index]
    return value


def restore_digits(value: int, radices: Sequence[int], order: Sequence[int]) -> int:
    """The inverse of :func:`reorder_digits`.

    >>> restore_digits(385, (4, 4, 6, 10, 1), (1, 0, 2, 3, 4))
    518
    """
    digits = [0] * len(radices)
    for index in reversed(order):
        value, digits[index] = divmod(value, radices[index])
    number = 0
    for index in reversed(range(len(radices))):
        number = number * radices[index] + digits[index]
    return number


class SideOrder(Order):
    """One side's ranks in the order of other placement steps (or the family's
    own), their digits in ``digit_order`` (most significant first) if given."""

    def __init__(self, family: Family, numbering: Numbering | None,
                 digit_order: Sequence[int] = ()) -> None:
        self.family = family
        self.numbering = numbering
        self.digit_order = tuple(digit_order)

    def place(self, number: int) -> int:
        if self.numbering is None:
            return number
        step_number = self.numbering.encode(self.family.rank_of(number))
        if not self.digit_order:
            return step_number
        return reorder_digits(step_number, self.numbering.radices, self.digit_order)

    def id_at(self, place: int) -> int:
        if self.numbering is None:
            return place
        if self.digit_order:
            place = restore_digits(place, self.numbering.radices, self.digit_order)
        return self.family.rank_id(self.numbering.decode(place))

    def all_ids_at(self, count: int) -> list[int]:
        """Every place's side ID at once: the other steps decoded in one walk
        (:func:`~solver.numbering.encoder.decode_all`), each rank looked up in
        the family's listing; the same numbers :meth:`id_at` gives one at a time.

        >>> from solver.family import Family
        >>> family = Family.load("capablanca-shuffle")
        >>> order = family.scheme("xboard").order
        >>> order.all_ids_at(family.side_count)[:3] == [order.id_at(p) for p in range(3)]
        True
        """
        bulk = self._listing(count)
        if bulk is None:
            return super().all_ids_at(count)
        from solver.numbering.encoder import decode_all

        assert self.numbering is not None
        decoded = decode_all(self.numbering)
        ids = {rank: number for number, rank in enumerate(bulk)}
        if len(decoded) != count or any(rank not in ids for rank in decoded):
            return super().all_ids_at(count)  # (the one-at-a-time path words the error)
        if self.digit_order:
            radices, order = self.numbering.radices, self.digit_order
            return [ids[decoded[restore_digits(p, radices, order)]] for p in range(count)]
        return [ids[rank] for rank in decoded]

    def _listing(self, count: int) -> list[str] | None:
        """The family's side ranks in ID order, when the bulk paths apply: other
        steps that give the same choices on every path, over the whole side."""
        if (self.numbering is None or self.numbering.uneven is not None
                or count != self.family.side_count):
            return None
        ranks = self.family.side_table()
        return ranks if len(ranks) == count else None


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


class RightsOrder(Order):
    """A family with castling variations (``castling = "subsets"``): the
    placements in ``inner``'s order within each variation, the variation the
    most significant digit (as the family's own ids)."""

    def __init__(self, inner: Order, rule: SubsetCastling) -> None:
        self.inner = inner
        self.rule = rule

    def place(self, number: int) -> int:
        variation, placement = self.rule.split(number)
        return self.rule.join(variation, self.inner.place(placement))

    def id_at(self, place: int) -> int:
        variation, placement = self.rule.split(place)
        return self.rule.join(variation, self.inner.id_at(placement))

    def sides(self, place: int) -> tuple[int, int]:
        return self.inner.sides(self.rule.split(place)[1])


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

    def __repr__(self) -> str:
        """``<Scheme 'scidb' of 'chess960'>``.

        >>> from solver.family import Family
        >>> Family.load("chess960").scheme("scidb")
        <Scheme 'scidb' of 'chess960'>
        """
        return f"<Scheme {self.name!r} of {self.family.name!r}>"

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
            from solver.syntax.steps import Numbering

            rs = family.ruleset
            numbering = Numbering(rs.region_size, rs.pieces, spec.steps, rs.allowed_files(),
                                  rs.name, rs.region.colours,
                                  spec.step_orders(rs.region.names))
        side = SideOrder(family, numbering, spec.digit_order)
        order: Order = PairOrder(family, side, spec.pairs == "white-major") \
            if family.independent else side
        rule = getattr(getattr(family, "ruleset", None), "castling", None)
        return RightsOrder(order, rule) if isinstance(rule, SubsetCastling) else order

    @cached_property
    def _rule(self) -> SubsetCastling | None:
        """The family's castling variations (``castling = "subsets"``), or ``None``."""
        rule = getattr(getattr(self.family, "ruleset", None), "castling", None)
        return rule if isinstance(rule, SubsetCastling) else None

    def _rights_text(self, number: int) -> str:
        """The castling rights of a position's variation, X-FEN letters or ``-``."""
        rule = self._rule
        if rule is None:
            return self.family.position(number).castling
        return "".join(rule.kept(rule.split(number)[0])) or "-"

    def _rights_variation(self, text: str) -> int:
        """The variation a label's rights name (``ValueError``: none of them;
        0 for a family without variations, whose rights are checked by id)."""
        rule = self._rule
        kept = set() if text == "-" else set(text)
        if text != "-" and len(kept) != len(text):
            raise ValueError(text)
        return 0 if rule is None else rule.variation(kept)

    @cached_property
    def _side_family(self) -> Family | None:
        """The family whose own ids number the sides (``side-family``), or ``None``."""
        if not self.spec.side_family:
            return None
        load: Callable[[str], Family] = getattr(type(self.family), "load")  # noqa: B009
        return load(self.spec.side_family)

    def _side_value(self, place: int) -> int:
        """A side's number in the label, from its place in the side order."""
        other = self._side_family
        if other is None:
            return self.side_number(place)
        order = self.order
        inner = order.inner if isinstance(order, RightsOrder) else order
        assert isinstance(inner, PairOrder)
        return other.rank_id(self.family.rank_of(inner.side.id_at(place)))

    def _side_place(self, value: int) -> int:
        """A side's place in the side order from its number in a side-family label."""
        other = self._side_family
        assert other is not None
        if not 0 <= value < other.count:
            raise ValueError(value)
        try:
            number = self.family.rank_id(self.family.validate(other.rank_of(value)))
        except Chess960Error:
            raise ValueError(value) from None
        order = self.order
        inner = order.inner if isinstance(order, RightsOrder) else order
        assert isinstance(inner, PairOrder)
        return inner.side.place(number)

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
        same = self.spec.same_label or ""
        rights = self._rights_label(self._rights_text(number)) \
            if "rights" in label or "rights" in same else ""  # (castling only when written)
        if self.family.independent:
            white, black = self.order.sides(self.order.place(number))
            w, b = self._side_value(white), self._side_value(black)
            if w == b and self.spec.same_label:
                return self.spec.same_label.format(number=w, white=w, black=b, rights=rights)
            return label.format(number=self.number(number), white=w, black=b, rights=rights)
        return label.format(number=self.number(number), rights=rights)

    def answer(self, text: str, identify: Callable[[str], int]) -> str:
        """How this numbering writes the position ``text`` names (read by
        ``identify``), or the one a line this numbering listed names
        (``<number or label> <position>``, as ``solve`` or ``random
        --numbering`` write), once its number is checked against its position.

        >>> from solver.family import Family
        >>> family = Family.load("dfrc")
        >>> tcec = family.scheme("tcec")
        >>> tcec.answer("FRC 0 BBQNNRKR bbqnnrkr", lambda text: family.identify(text).id)
        'FRC 0'
        """
        try:
            return self.text(identify(text))
        except Chess960Error as error:
            listed = self.listed(text)
            if listed is None:
                raise error from None
            head, rest, number = listed
            try:
                found = identify(rest)
            except Chess960Error:
                raise error from None  # the line as a whole is what is wrong
            if found != number:
                raise IdMismatchError(head, rest, self.text(found)) from None
            return self.text(found)

    def listed(self, text: str) -> tuple[str, str, int] | None:
        """``(label, rest, id)`` of a line ``solve`` or ``random --numbering`` writes
        (``<number or label> <rank>``), else None.

        >>> from solver.family import Family
        >>> Family.load("dfrc").scheme("tcec").listed("FRC 0 BBQNNRKR bbqnnrkr")
        ('FRC 0', 'BBQNNRKR bbqnnrkr', 0)
        """
        words = text.split()
        for size in range(1, min(len(words), 5)):
            try:
                number = self.read(" ".join(words[:size]))
            except Chess960Error:
                continue
            return " ".join(words[:size]), " ".join(words[size:]), number
        return None

    @cached_property
    def _patterns(self) -> list[tuple[re.Pattern[str], Callable[[dict[str, int]], int]]]:
        """Each label template as a pattern, with how its fields give a place."""
        out: list[tuple[re.Pattern[str], Callable[[dict[str, int]], int]]] = []
        n = self.family.side_count

        def side_place(value: int) -> int:
            if self._side_family is not None:
                return self._side_place(value)
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
                re.escape(literal) + (
                    f"(?P<rights>{self._rights_regex})" if field == "rights" else
                    f"(?P<{field}>[0-9]{{1,30}})" if field else "")
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
        place, written = -1, ""
        if self.spec.label:
            place, written = self._read_label(stripped)
        elif stripped.isascii() and stripped.isdigit() and len(stripped) <= 32:
            value = int(stripped)
            if self.low <= value <= self.high:
                place = self._unstyled(value)
        if not 0 <= place < self.count or written:
            expected = self.describe_range()
            if written:
                expected += f"; it writes that position {written!r}"
            raise NumberingLabelError(text, self.name, self.family.name, expected)
        return self.order.id_at(place)

    @cached_property
    def _rights_regex(self) -> str:
        """A pattern of every way a label writes the rights (``rights-labels``)."""
        table = self.spec.rights_labels
        if not table:
            return _PLAIN_RIGHTS
        written = [re.escape(text) for rights, text in table if rights != "*"]
        return "|".join([*written, self._star_regex("")])

    def _star_regex(self, group: str) -> str:
        """The pattern of the rights written by ``rights-labels``' ``*`` (or as
        letters), the letters in the group named ``group`` (if any)."""
        star = dict(self.spec.rights_labels).get("*", "{rights}")
        letters = f"(?P<{group}>{_PLAIN_RIGHTS})" if group else _PLAIN_RIGHTS
        return "".join(re.escape(literal) + (letters if field else "")
                       for literal, field, _, _ in _parse(star))

    def _rights_label(self, rights: str) -> str:
        """How a label writes the castling rights ``rights`` (letters or ``-``)."""
        table = dict(self.spec.rights_labels)
        if not table:
            return rights
        if rights in table:
            return table[rights]
        return table.get("*", "{rights}").format(rights=rights)

    def _rights_of(self, text: str) -> str:
        """The rights (letters or ``-``) a label's rights ``text`` names
        (``ValueError``: none)."""
        for rights, written in self.spec.rights_labels:
            if rights != "*" and written.lower() == text.lower():
                return rights
        found = re.fullmatch(self._star_regex("letters"), text, re.IGNORECASE)
        if found is None:
            raise ValueError(text)
        return found.group("letters")

    def _fields(self, found: re.Match[str]) -> tuple[dict[str, int], str | None]:
        """A label's numbers by field, and the rights it names (``None``: no
        rights field)."""
        fields = found.groupdict()
        rights = fields.pop("rights", None)
        return ({k: int(v) for k, v in fields.items()},
                None if rights is None else self._rights_of(rights))

    def _place(self, numbers: dict[str, int], rights: str | None,
               how: Callable[[dict[str, int]], int]) -> int:
        """The place a label's fields name (``ValueError``: none)."""
        place = how(numbers)
        rule = self._rule
        if rights is None:
            if rule is not None:
                raise ValueError(place)  # a label without the rights
            return place
        variation = self._rights_variation(rights)
        if rule is None:
            if 0 <= place < self.count and \
                    rights != self.family.position(self.order.id_at(place)).castling:
                raise ValueError(rights)  # the position's own rights
            return place
        if "number" not in numbers:
            return rule.join(variation, place)  # a pair's place
        if rule.split(place)[0] != variation:
            raise ValueError(rights)  # a whole number names its rights
        return place

    def _read_label(self, text: str) -> tuple[int, str]:
        """The place of the position a label names (-1: none), and, for a
        label of a position this numbering writes otherwise (``DFRC 518:518``
        for TCEC's ``FRC 518``), how it writes it (else ``""``)."""
        for pattern, how in self._patterns:
            found = pattern.fullmatch(text)
            if found is None:
                continue
            try:
                fields = self._fields(found)
                place = self._place(*fields, how)
            except ValueError:
                return -1, ""
            if not 0 <= place < self.count:
                return -1, ""
            written = self.text(self.order.id_at(place))
            again = pattern.fullmatch(written)
            same = again is not None and self._fields(again) == fields and \
                str(again.groupdict().get("rights")).lower() == \
                str(found.groupdict().get("rights")).lower()  # " KQkq" is not "" (TCEC)
            return place, "" if same else written
        return -1, ""

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
            table = self.spec.rights_labels
            rights = dict(table).get("*", "{rights}").replace("{rights}", "R")
            shown = self.spec.label.replace("{number}", "N").replace("{white}", "W") \
                .replace("{black}", "B").replace("{rights}", rights)
            if self.spec.same_label:
                shown += " or " + self.spec.same_label.replace("{number}", "N") \
                    .replace("{white}", "N").replace("{black}", "N").replace("{rights}", rights)
            if table:
                shown += "; " + ", ".join(f"{text!r} for {kept}" for kept, text in table
                                          if kept != "*")
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


class Builtin:
    """A numbering every family of its kind has by definition, undeclared: one
    class each in :data:`BUILTINS` (:func:`register`), carrying its name, its
    help line and the README section (``doc``) whose table lists it; a family's
    declared numberings are data (``[[numberings]]``, :mod:`solver.ruleset.numberings`)."""

    name: ClassVar[str] = ""
    #: What its numbers are, for ``rules --numberings`` and the README's table.
    help: ClassVar[str] = ""
    #: Where its numbers come from.
    source: ClassVar[str] = ""
    #: The README section (its anchor) whose table lists it.
    doc: ClassVar[str] = "numberings"

    @classmethod
    def applies(cls, family: Family) -> bool:
        """Whether ``family`` has it."""
        return True

    @classmethod
    def spec(cls) -> NumberingSpec:
        """Its numbering, as a rule file would declare it."""
        return NumberingSpec(name=cls.name, title=cls.help, source=cls.source)


#: The numberings every family (of their kind) has, by name.
BUILTINS: Final[dict[str, type[Builtin]]] = {}

_B = TypeVar("_B", bound=type[Builtin])


def register(cls: _B) -> _B:
    """Add a built-in numbering to :data:`BUILTINS` (a class decorator)."""
    if cls.name in BUILTINS:
        raise TypeError(f"numbering {cls.name!r} is defined twice")
    BUILTINS[cls.name] = cls
    return cls


@register
class OneBased(Builtin):
    """Scharnagl's 1..960 range: the family's IDs counted from 1, the count standing for 0."""

    name = "one-based"
    help = "the family's IDs counted from 1, the count standing for 0"
    source = "Reinhard Scharnagl's 1..960 range"

    @classmethod
    def spec(cls) -> NumberingSpec:
        return NumberingSpec(name=cls.name, title=cls.help, source=cls.source, first=1,
                             cyclic=True)


@register
class BlackMajor(Builtin):
    """Black's rank the more significant digit of a pair's number (independent sides)."""

    name = "black-major"
    help = "Black's side ID * n + White's side ID"
    source = "this project's order of pairs before release 0.6"

    @classmethod
    def applies(cls, family: Family) -> bool:
        return family.independent and not family.linked  # linked: no product

    @classmethod
    def spec(cls) -> NumberingSpec:
        return NumberingSpec(name=cls.name, title=cls.help, source=cls.source,
                             pairs="black-major")


def builtin_specs(family: Family) -> list[NumberingSpec]:
    """The numberings every family has besides its declared ones (:data:`BUILTINS`):
    ``one-based`` (Scharnagl's 1..960 range, 960 standing for 0) and, for
    independent sides, ``black-major`` (Black's rank the more significant digit)."""
    return [builtin.spec() for builtin in BUILTINS.values() if builtin.applies(family)]


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


def _not_back(back: Sequence[int], places: Sequence[int]) -> bool:
    """Whether some ID ``i`` at ``places[i]`` does not come back as ``i``."""
    return any(back[p] != i for i, p in enumerate(places))


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
                places = side.all_places(n)
                if sorted(places) != list(range(n)) or _not_back(side.all_ids_at(n), places):
                    problems.append("a side's order is not a bijection onto 0.."
                                    f"{n - 1}")
            else:
                seen = scheme.order.all_places(count)
                if sorted(seen) != list(range(count)):
                    problems.append(f"the order is not a bijection onto 0..{count - 1}")
                elif _not_back(scheme.order.all_ids_at(count), seen):
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
