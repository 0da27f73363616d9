"""What every output format shares: the writer's interface and a position's fields."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import chain, islice, repeat
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TextIO

from solver.errors import DialectError
from solver.notation.dialects import (
    FenSides,
    check_style,
    default_variant,
    family_refusal,
    fen_sides,
    start_fen,
    writes_plain,
)
from solver.notation.fen import placement, position_fen
from solver.notation.ranks import format_rank, glyphs_fit

if TYPE_CHECKING:
    from solver.family import Family
    from solver.position import Pairs, Position

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
    if parts is not None and position.layout.standard:  # the same FENs, from per-rank parts
        fields["fen"] = parts[0].fen(position.white, position.black)
        fields["shredder_fen"] = parts[1].fen(position.white, position.black)
    else:
        fields["fen"] = position_fen(position)
        fields["shredder_fen"] = position_fen(position, shredder=True)
    fields["family"] = family.name
    return fields


#: How many ranks' parts a :class:`FenParts` (and a writer, :class:`Kept`) keep:
#: bounded memory for any family.
PARTS_MEMO = 1 << 14

#: How many lines a writer joins before writing them (:meth:`Writer.write_rows`).
LINES = 8192

#: A mark for a line's ID in a line's template (:meth:`Writer.marked_line`).
NUMBER = "\3"

#: Marks for White's parts in a line's template, the ``i``-th for
#: :meth:`Writer.white_parts`' ``i``-th part.
MARKS = tuple(chr(0x10 + i) for i in range(12))

#: Every mark a template may hold.
_MARKED = frozenset([NUMBER, *MARKS])
_MARK = re.compile(f"[{re.escape(''.join(sorted(_MARKED)))}]")


class Kept(dict[str, str]):
    """Each rank's text, made on first use, for at most :data:`PARTS_MEMO` ranks.

    >>> kept = Kept(str.lower)
    >>> kept["RNBQKBNR"]
    'rnbqkbnr'
    """

    def __init__(self, make: Callable[[str], str]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, rank: str) -> str:
        if len(self) >= PARTS_MEMO:
            self.clear()
        made = self[rank] = self.make(rank)
        return made


def letters(white: str, black: str) -> bool:
    """Whether both ranks are ASCII letters, as many (their FENs then split, and are plain)."""
    return white.isalpha() and black.isalpha() and white.isascii() and black.isascii() \
        and len(white) == len(black)


def unmarked(text: str) -> bool:
    """Whether ``text`` holds none of a template's marks (it may be put in one)."""
    return _MARKED.isdisjoint(text)


class FenParts:
    """A family's start FENs on the classical board in one dialect and variant,
    joined from parts made once per rank: the placement down to White's rank
    (Black's), White's rank, and each side's part of the castling field
    (:class:`~solver.notation.dialects.FenSides`).

    Styles that do not split so (:func:`~solver.notation.dialects.fen_sides`),
    and ranks that are not of ASCII letters, are written whole by
    :func:`~solver.notation.dialects.start_fen`.

    >>> parts = FenParts("xfen", None)
    >>> parts.fen("QNRBBNKR", "RNBQKBNR")
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1'
    >>> parts.fen("QNRBBNKR", "RNBQKBNR") == start_fen("QNRBBNKR", "RNBQKBNR")
    True
    >>> FenParts("pychess", "crazyhouse").fen("QNRBBNKR", "RNBQKBNR")
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w CHah - 0 1'
    """

    def __init__(self, dialect: str, variant: str | None, counters: bool = True) -> None:
        self.dialect = dialect
        self.variant = variant
        self.counters = counters
        self._styles: dict[int, FenSides | None] = {}
        self._tops: dict[str, str | None] = {}
        self._rights: dict[str, str] = {}
        self._middles: dict[int, str | None] = {}

    def sides(self, files: int) -> FenSides | None:
        """How the FENs of ranks of ``files`` letters split (``None``: written whole)."""
        if files not in self._styles:
            self._styles[files] = fen_sides(self.variant, self.dialect, files, self.counters)
        return self._styles[files]

    def top(self, black: str) -> str | None:
        """The placement field down to White's rank (``None``: not a rank of
        letters, which is written whole)."""
        found = self._tops.get(black)
        if found is None and black not in self._tops:
            if len(self._tops) >= PARTS_MEMO:
                self._tops.clear()
            found = None
            if black.isalpha() and black.isascii():
                middle = self._middle(len(black))
                if middle is not None:
                    found = f"{black.lower()}{middle}"
                else:
                    whole, upper = placement(black, black), black.upper()
                    found = whole[:-len(upper)] if whole.endswith(f"/{upper}") else None
            self._tops[black] = found
        return found

    def _middle(self, files: int) -> str | None:
        """The placement between Black's rank of letters and White's on the
        classical board of ``files`` files (``None``: not so simple), made once.

        >>> FenParts("xfen", None)._middle(8)
        '/pppppppp/8/8/8/8/PPPPPPPP/'
        """
        if files not in self._middles:
            probes = ["".join(chr(65 + (i * step) % 26) for i in range(files)) for step in (1, 7)]
            middles = set()
            for probe in probes:
                whole = placement(probe, probe)
                inner = whole[len(probe):-len(probe)]
                middles.add(inner if whole == f"{probe.lower()}{inner}{probe}" else None)
            self._middles[files] = middles.pop() if len(middles) == 1 else None
        return self._middles[files]

    def rights(self, rank: str) -> str:
        """A side's part of the castling field in upper case (``""``: none); the
        rank must split (:meth:`sides`)."""
        found = self._rights.get(rank)
        if found is None:
            if len(self._rights) >= PARTS_MEMO:
                self._rights.clear()
            style = self.sides(len(rank))
            assert style is not None
            found = self._rights[rank] = style.side(rank.upper())
        return found

    def _style(self, rank: str) -> FenSides | None:
        return self.sides(len(rank)) if rank.isalpha() and rank.isascii() else None

    def fen(self, white: str, black: str) -> str:
        """The start FEN of these ranks (without counters unless :attr:`counters`)."""
        style = self._style(white)
        if style is not None and len(white) == len(black):
            top = self.top(black)
            if top is not None:
                castling = self.rights(white) + self.rights(black).lower() or style.none
                return style.join(f"{top}{white.upper()}{style.hand} w {castling}{style.tail}")
        return start_fen(white, black, variant=self.variant, dialect=self.dialect,
                         counters=self.counters)

    def white(self, white: str) -> tuple[str, str] | None:
        """White's part of its FENs against a black rank whose own castling part
        is not empty, and against one whose is (``None``: written whole); the
        text from White's rank to the castling field's letters.

        >>> FenParts("shredder", None).white("RRKQBBNN")
        ('RRKQBBNN w ', 'RRKQBBNN w -')
        """
        style = self._style(white)
        if style is None:
            return None
        rights = self.rights(white)
        head = f"{white.upper()}{style.hand} w "
        return f"{head}{rights}", f"{head}{rights or style.none}"

    def marked(self, black: str, mark: str, empty: str) -> str | None:
        """The FEN of any white rank as wide against ``black``, White's part
        (:meth:`white`) as ``mark`` (or as ``empty``, when Black's own castling
        part is empty); ``None``: written whole.

        >>> FenParts("xfen", None, counters=False).marked("RRKQBBNN", "<W>", "<W->")
        'rrkqbbnn/pppppppp/8/8/8/8/PPPPPPPP/<W-> -'
        """
        style = self._style(black)
        top = None if style is None else self.top(black)
        if style is None or top is None:
            return None
        rights = self.rights(black).lower()
        return style.join(f"{top}{f'{mark}{rights}' if rights else empty}{style.tail}")


def _block(lines: list[str]) -> Callable[[int, tuple[str, ...]], str] | None:
    """How to fill in the block of ``lines`` (:meth:`Writer.marked_line`, one a
    black rank) for a white rank: ``fill(start, parts)``, its IDs from ``start``
    on and its parts (:meth:`Writer.white_parts`) at the marks; ``None`` when
    the lines do not hold their marks alike (as many, the ID at the same place).

    With one part of White's, it is put in by :meth:`str.replace` and the IDs
    by ``%``; with more, the block is joined from the texts between the marks
    and what each mark stands for (fewer passes over the block).
    """
    n = len(lines)
    template = "".join(lines)
    if sum(mark in template for mark in MARKS) <= 1:
        numbered = NUMBER in template
        if numbered:
            template = template.replace("%", "%%").replace(NUMBER, "%d")
        marks = [(i, mark) for i, mark in enumerate(MARKS) if mark in template]

        def replacing(start: int, parts: tuple[str, ...]) -> str:
            block = template
            for i, mark in marks:
                block = block.replace(mark, parts[i].replace("%", "%%") if numbered else parts[i])
            return block % tuple(range(start, start + n)) if numbered else block

        return replacing
    found = [_MARK.findall(line) for line in lines]
    k = len(found[0])
    if any(len(marks) != k for marks in found):
        return None
    between = _MARK.split(template)
    head, texts = between[0], [between[1 + j::k] for j in range(k)]
    # What each column of marks holds: the IDs, one of White's parts, or a part a line.
    columns: list[str | int | list[int]] = []
    for j in range(k):
        column = {marks[j] for marks in found}
        if column == {NUMBER}:
            columns.append(NUMBER)
        elif NUMBER in column:
            return None
        elif len(column) == 1:
            columns.append(MARKS.index(column.pop()))
        else:
            columns.append([MARKS.index(marks[j]) for marks in found])

    def joining(start: int, parts: tuple[str, ...]) -> str:
        pieces: list[Iterable[str]] = []
        for column, text in zip(columns, texts, strict=True):
            if isinstance(column, str):
                pieces.append(map(str, range(start, start + n)))
            elif isinstance(column, int):
                pieces.append(repeat(parts[column], n))
            else:
                pieces.append([parts[i] for i in column])
            pieces.append(text)
        return head + "".join(chain.from_iterable(zip(*pieces, strict=True)))

    return joining


class Writer:
    """One output format: writes positions one at a time, and reads them back.

    A format is one subclass with a ``name`` and a one-line ``help``, listed
    in :data:`solver.output.FORMATS`; the command line's ``--format`` choices,
    its help text and the README's list come from there.
    """

    name: ClassVar[str]
    help: ClassVar[str]
    #: The section (its anchor) of docs/reference/formats.md whose table lists it.
    doc: ClassVar[str] = "formats"
    #: Whether its positions are FENs (``lint`` checks those; ``text``'s are ranks).
    fens: ClassVar[bool] = True
    #: A regular expression that a document's first line (not blank) matches when
    #: the document is in this format and read through :meth:`lines`; ``None``:
    #: its lines are read as they are. (:data:`solver.documents.HEADS`
    #: holds them all, so that a list of lines is told without importing the writers.)
    head: ClassVar[str | None] = None
    #: Whether the format can hold a shogi family's SFEN (EPD and PGN are chess's).
    sfen: ClassVar[bool] = True
    #: Whether listings are written in bulk from :meth:`marked_line` and :meth:`white_parts`.
    bulk: ClassVar[bool] = False

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
        self._kept: dict[str, Kept] = {}
        if family.layout.notation == "sfen" and not self.sfen:
            raise DialectError(variant or "-", dialect, f"{family.name} is written in sfen, "
                               f"which {self.name} cannot hold; use fen, json, csv or text")
        if variant is not None or not writes_plain(dialect):
            if not family.layout.standard:
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

        On the classical board a format whose lines are made from parts
        writes them in bulk: a pair listing (:class:`~solver.position.Pairs`)
        a white rank's block at a time from one template of its lines
        (:meth:`marked_line`, :meth:`white_parts`), other rows a block of lines
        at a time, each joined from its ranks' parts (:meth:`line_of`);
        whatever the parts cannot express (another board, ranks not of
        letters, a style written whole) goes through :meth:`write`, position
        by position.
        """
        from solver.position import Pairs, Position

        layout = self.family.layout
        if not layout.standard or not self.bulk:
            for number, white, black in rows:
                self.write(Position(number, white, black, layout))
            return
        if isinstance(rows, Pairs) and self._write_blocks(rows):
            return
        self._write_lines(rows)

    def marked_line(self, black: str) -> str | None:
        """What :meth:`write` writes of a position whose black rank is ``black``,
        as if it were not the document's first (:meth:`opening`), with
        :data:`NUMBER` for its ID and :data:`MARKS` for White's parts
        (:meth:`white_parts`); ``None``: such positions are written one by one."""
        return None

    def white_parts(self, white: str) -> tuple[str, ...] | None:
        """The text of each of :data:`MARKS` in the lines of a white rank (``None``:
        its positions are written one by one)."""
        return None

    def line_of(self, number: int, white: str, black: str) -> str | None:
        """What :meth:`write` writes of this position, as :meth:`marked_line` (not
        the first), from parts kept per rank (``None``: written by :meth:`write`)."""
        return None

    def opening(self) -> tuple[str, int]:
        """What the document's first line written in bulk starts with instead of
        its first ``n`` characters (a JSON array's ``[`` for the ``,``)."""
        return "", 0

    def _emit(self, text: str, count: int) -> None:
        """Write ``count`` lines made in bulk."""
        if not count:
            return
        if self.count == 0:
            head, skip = self.opening()
            text = head + text[skip:]
        self.out.write(text)
        self.count += count

    def _write_blocks(self, rows: Pairs) -> bool:
        """Every pair of a pair listing, a white rank's block of lines at a time,
        filled in (:func:`_block`) from one template of the block's lines made
        once; ``False`` (nothing written) when the ranks do not all split so."""
        ranks = rows.ranks
        n = len(ranks)
        if not ranks or len({len(rank) for rank in ranks}) != 1:
            return False
        lines = [line for line in map(self.marked_line, ranks) if line is not None]
        fill = _block(lines) if len(lines) == n else None
        if fill is None:
            return False
        for index in getattr(rows, "whites", range(n)):  # a slice of White's ranks
            white = ranks[index]
            start = index * n
            parts = self.white_parts(white)
            if parts is None:
                self._write_lines([(start + b, white, black) for b, black in enumerate(ranks)])
                continue
            self._emit(fill(start, parts), n)
        return True

    def _write_lines(self, rows: Iterable[tuple[int, str, str]]) -> None:
        """Rows a block of lines at a time, each from :meth:`line_of`."""
        from solver.position import Position

        line_of = self.line_of
        iterator = iter(rows)
        while block := list(islice(iterator, LINES)):
            lines: list[str] = []
            for number, white, black in block:
                line = line_of(number, white, black)
                if line is None:
                    self._emit("".join(lines), len(lines))
                    lines = []
                    self.write(Position(number, white, black))
                    continue
                lines.append(line)
            self._emit("".join(lines), len(lines))

    def fen(self, position: Position, counters: bool = True) -> str:
        """The position's start FEN in this writer's variant and dialect."""
        if not position.layout.standard:  # a board of its own: the position writes it
            return position.fen(self.dialect, counters=counters)
        return self.parts(counters).fen(position.white, position.black)

    def record(self, position: Position) -> dict[str, Any]:
        """:func:`record` of the position, its FENs from parts kept for this writer."""
        return record(self.family, position, self.unicode, self.record_parts())

    def kept(self, name: str, make: Callable[[str], str]) -> Kept:
        """The texts of ranks this writer keeps under ``name``, each made by ``make``."""
        found = self._kept.get(name)
        if found is None:
            found = self._kept[name] = Kept(make)
        return found

    def record_parts(self) -> tuple[FenParts, FenParts]:
        """The parts of a record's ``fen`` and ``shredder_fen``, kept for this writer."""
        if self._records is None:
            self._records = (FenParts("xfen", None), FenParts("shredder", None))
        return self._records

    def parts(self, counters: bool = True) -> FenParts:
        """This writer's FENs on the classical board, from parts made once per rank."""
        kept = self._parts.get(counters)
        if kept is None:
            kept = self._parts[counters] = FenParts(self.dialect, self.variant, counters)
        return kept

    def write(self, position: Position) -> None:
        """Write one position."""
        raise NotImplementedError

    def end(self) -> None:
        """Whatever closes the document (nothing, for line formats)."""

    @classmethod
    def read(cls, family: Family, document: str) -> list[Position]:
        """The positions a document of this format holds, in order (by default
        each of :meth:`lines` identified)."""
        return [family.identify(line) for line in cls.lines(document)]

    @classmethod
    def detect(cls, head: str) -> bool:
        """Whether a document whose first line that is not blank is ``head`` is in
        this format (:attr:`head` matches it), and is no list of lines to read as
        they are: ``id -``, ``compare`` and ``lint`` then read it through
        :meth:`lines` (:func:`solver.documents.position_stream`)."""
        return cls.head is not None and re.match(cls.head, head) is not None

    @classmethod
    def lines(cls, document: str) -> list[str]:
        """Each position of a document of this format as a line a family reads
        (a FEN, a rank or ``<id> <rank>``), not yet judged: by default its lines
        that are not blank.

        Raises :class:`~solver.errors.DocumentError` for a document that is not
        in the format."""
        return [line for line in document.splitlines() if line.strip()]
