"""What every output format shares: the writer's interface and a position's fields."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TextIO

from solver.errors import DialectError
from solver.notation.castling import side_rights
from solver.notation.dialects import (
    DIALECTS,
    check_style,
    default_variant,
    family_fen,
    family_refusal,
    start_fen,
    writes_plain,
)
from solver.notation.fen import placement, position_fen
from solver.notation.ranks import format_rank, glyphs_fit

if TYPE_CHECKING:
    from solver.family import Family
    from solver.position import Position

#: What the ``text`` format prints of a position.
TextStyle = Literal["id", "rank", "id-rank"]


def position_text(family: Family, position: Position, unicode: bool = False) -> str:
    """White's rank, and for independent sides Black's after a space.

    >>> from solver.family import Family
    >>> dfrc = Family.load("dfrc")
    >>> position_text(dfrc, dfrc.position(518 * 960 + 105))
    'RNBQKBNR qnrbbnkr'
    """
    white = format_rank(position.white, unicode)
    if not family.sides.independent:
        return white
    return f"{white} {format_rank(position.black, unicode, black=True)}"


def columns(family: Family) -> list[str]:
    """The fields of a JSON object or CSV row for this family, in order."""
    black = ["black_rank"] if family.sides.independent else []
    return ["id", "rank", *black, "fen", "shredder_fen", "family"]


def record(family: Family, position: Position, unicode: bool = False,
           parts: tuple[FenParts, FenParts] | None = None) -> dict[str, Any]:
    """One position as the fields of a JSON object or CSV row.

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> record(chess960, chess960.position(518))["shredder_fen"]
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1'
    """
    fields: dict[str, Any] = {"id": position.id, "rank": format_rank(position.white, unicode)}
    if family.sides.independent:
        fields["black_rank"] = format_rank(position.black, unicode, black=True)
    if parts is not None and position.layout is None:  # the same FENs, from per-rank parts
        fields["fen"] = parts[0].fen(position.white, position.black)
        fields["shredder_fen"] = parts[1].fen(position.white, position.black)
    else:
        fields["fen"] = position_fen(position)
        fields["shredder_fen"] = position_fen(position, shredder=True)
    fields["family"] = family.name
    return fields


#: How many ranks' parts a :class:`FenParts` keeps (bounded memory for any family).
PARTS_MEMO = 1 << 14

#: A mark for a line's ID in a block template's lines (filled by ``%``).
_NUMBER = "\3"

#: Marks in a block template (:meth:`FenParts.block`) for a white rank's parts.
_WHITE, _WHITE_RIGHTS, _WHITE_OR_NONE = "\4", "\5", "\6"


class FenParts:
    """A family's start FENs on the classical board in one dialect and variant,
    joined from parts made once per rank: the placement down to White's rank
    (Black's), White's rank, and each side's castling rights.

    Only the plain dialects without a variant are split so (:attr:`split`);
    the rest are written whole by :func:`~solver.notation.dialects.start_fen`.

    >>> parts = FenParts("xfen", None)
    >>> parts.fen("QNRBBNKR", "RNBQKBNR")
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1'
    >>> parts.fen("QNRBBNKR", "RNBQKBNR") == start_fen("QNRBBNKR", "RNBQKBNR")
    True
    """

    def __init__(self, dialect: str, variant: str | None, counters: bool = True) -> None:
        self.dialect = dialect
        self.variant = variant
        self.counters = counters
        self.split = variant is None and writes_plain(dialect)
        self.shredder = DIALECTS[dialect].shredder
        self.tail = " - 0 1" if counters else " -"
        self._tops: dict[str, str | None] = {}
        self._rights: dict[str, str] = {}
        self._width = 0

    def top(self, black: str) -> str | None:
        """The placement field down to White's rank (``None``: not a rank of
        letters, which is written whole)."""
        found = self._tops.get(black)
        if found is None and black not in self._tops:
            if len(self._tops) >= PARTS_MEMO:
                self._tops.clear()
            whole = placement(black, black) if black.isalpha() and black.isascii() else ""
            upper = black.upper()
            found = whole[:-len(upper)] if whole.endswith(f"/{upper}") else None
            self._tops[black] = found
        return found

    def rights(self, rank: str) -> str:
        """A side's castling rights in upper case (``""``: none)."""
        found = self._rights.get(rank)
        if found is None:
            if len(self._rights) >= PARTS_MEMO:
                self._rights.clear()
            found = self._rights[rank] = side_rights(rank.upper(), self.shredder)
        return found

    def fen(self, white: str, black: str) -> str:
        """The start FEN of these ranks (without counters unless :attr:`counters`)."""
        if self.split:
            top = self.top(black)
            if top is not None and white.isalpha() and white.isascii() and len(white) == len(black):
                castling = self.rights(white) + self.rights(black).lower() or "-"
                return f"{top}{white.upper()} w {castling}{self.tail}"
        return start_fen(white, black, variant=self.variant, dialect=self.dialect,
                         counters=self.counters)

    def block(self, blacks: list[str], after: str) -> str | None:
        """A template of the lines ``<fen><after>`` of one white rank against
        every black rank in turn, which :meth:`fill` completes; ``None`` when
        these ranks are not split."""
        if not self.split or any(m in after for m in (_WHITE, _WHITE_RIGHTS, _WHITE_OR_NONE)):
            return None
        if not all(b.isalpha() and b.isascii() and len(b) == len(blacks[0]) for b in blacks):
            return None
        self._width = len(blacks[0]) if blacks else 0
        lines = []
        for black in blacks:
            top = self.top(black)
            if top is None:
                return None
            rights = self.rights(black).lower()
            castling = f"{_WHITE_RIGHTS}{rights}" if rights else _WHITE_OR_NONE
            lines.append(f"{top}{_WHITE} w {castling}{self.tail}{after}\n")
        return "".join(lines)

    def fill(self, template: str, white: str) -> str | None:
        """:meth:`block`'s template for ``white`` (``None``: not split)."""
        if not (white.isalpha() and white.isascii() and len(white) == self._width):
            return None
        rights = self.rights(white)
        return (template.replace(_WHITE, white.upper()).replace(_WHITE_RIGHTS, rights)
                .replace(_WHITE_OR_NONE, rights or "-"))


class Writer:
    """One output format: writes positions one at a time, and reads them back.

    A format is one subclass with a ``name`` and a one-line ``help``, listed
    in :data:`solver.output.FORMATS`; the command line's ``--format`` choices,
    its help text and the README's list come from there.
    """

    name: ClassVar[str]
    help: ClassVar[str]
    #: Whether the format can hold a shogi family's SFEN (EPD and PGN are chess's).
    sfen: ClassVar[bool] = True

    def __init__(
        self,
        out: TextIO,
        family: Family,
        text: TextStyle = "id-rank",
        unicode: bool = False,
        dialect: str = "xfen",
        variant: str | None = None,
    ) -> None:
        self.out = out
        self.family = family
        self.text = text
        self.unicode = unicode and glyphs_fit(out)  # letters where glyphs cannot be written
        self.dialect = dialect
        self.variant = variant
        self.count = 0
        self._parts: dict[bool, FenParts] = {}
        self._records: tuple[FenParts, FenParts] | None = None
        layout = family.layout
        if layout is not None and layout.notation == "sfen" and not self.sfen:
            raise DialectError(variant or "-", dialect, f"{family.name} is written in sfen, "
                               f"which {self.name} cannot hold; use fen, json, csv or text")
        if variant is not None or not writes_plain(dialect):
            if family.layout is not None:
                refused = (family_refusal(family.layout, dialect) if variant is None else
                           f"{family.name} starts on a board of its own; name no variant")
                if refused is not None:
                    raise DialectError(variant or "-", dialect, refused)
                return
            files = family.ruleset.files
            check_style(variant or default_variant(files), dialect, files,
                        family.name if family.independent else None)

    def write_rows(self, rows: Iterable[tuple[int, str, str]]) -> None:
        """Write ``(id, white, black)`` rows, as :meth:`write` writes positions.

        Formats that can write a listing without a position object a line
        (``text``) do so; the rest make the positions.
        """
        from solver.position import Position

        layout = self.family.layout
        for number, white, black in rows:
            self.write(Position(number, white, black, layout))

    def fen(self, position: Position, counters: bool = True) -> str:
        """The position's start FEN in this writer's variant and dialect."""
        if position.layout is not None:
            if not writes_plain(self.dialect):
                return family_fen(position.layout, position.white, position.black,
                                  self.dialect, counters, position.id)
            fen = position_fen(position, shredder=DIALECTS[self.dialect].shredder)
            return fen if counters else fen.rsplit(" ", 2)[0]
        return self.parts(counters).fen(position.white, position.black)

    def record(self, position: Position) -> dict[str, Any]:
        """:func:`record` of the position, its FENs from parts kept for this writer."""
        if self._records is None:
            self._records = (FenParts("xfen", None), FenParts("shredder", None))
        return record(self.family, position, self.unicode, self._records)

    def parts(self, counters: bool = True) -> FenParts:
        """This writer's FENs on the classical board, from parts made once per rank."""
        kept = self._parts.get(counters)
        if kept is None:
            kept = self._parts[counters] = FenParts(self.dialect, self.variant, counters)
        return kept

    def write(self, position: Position) -> None:
        """Write one position."""
        raise NotImplementedError

    def _write_fens(self, rows: Iterable[tuple[int, str, str]], counters: bool,
                    after: Callable[[int | str], str]) -> None:
        """``<fen><after(id)>`` lines of ``rows``, in bulk: a pair listing
        (:class:`~solver.position.Pairs`) a white rank's block at a time from
        one template of its lines (:meth:`FenParts.block`), other rows a block
        of lines at a time from each rank's parts."""
        from solver.position import Pairs, Position

        parts, out, layout = self.parts(counters), self.out, self.family.layout
        if layout is not None:
            for number, white, black in rows:
                out.write(f"{self.fen(Position(number, white, black, layout), counters)}"
                          f"{after(number)}\n")
                self.count += 1
            return
        if isinstance(rows, Pairs):
            ranks = rows.ranks
            n = len(ranks)
            marked = after(_NUMBER)
            numbered = _NUMBER in marked
            if _NUMBER not in self.family.name:
                template = parts.block(ranks, marked.replace("%", "%%").replace(_NUMBER, "%d")
                                       if numbered else marked)
            else:
                template = None
            for index in getattr(rows, "whites", range(n)):  # a slice of White's ranks
                white = ranks[index]
                start = index * n
                block = None if template is None else parts.fill(template, white)
                if block is None:
                    self._write_fens([(start + b, white, black) for b, black in enumerate(ranks)],
                                     counters, after)
                    continue
                out.write(block % tuple(range(start, start + n)) if numbered else block)
                self.count += n
            return
        fen = parts.fen
        iterator = iter(rows)
        while block_rows := list(islice(iterator, 8192)):
            out.write("".join([f"{fen(w, b)}{after(n)}\n" for n, w, b in block_rows]))
            self.count += len(block_rows)

    def end(self) -> None:
        """Whatever closes the document (nothing, for line formats)."""

    @classmethod
    def read(cls, family: Family, document: str) -> list[Position]:
        """The positions a document of this format holds, in order."""
        raise NotImplementedError
