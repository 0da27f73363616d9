"""What every output format shares: the writer's interface and a position's fields."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TextIO

from solver.errors import DialectError
from solver.notation.dialects import (
    DIALECTS,
    check_style,
    default_variant,
    plain_dialects,
    start_fen,
    writes_plain,
)
from solver.notation.fen import position_fen
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
    >>> position_text(dfrc, dfrc.position(105 * 960 + 518))
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


def record(family: Family, position: Position, unicode: bool = False) -> dict[str, Any]:
    """One position as the fields of a JSON object or CSV row.

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> record(chess960, chess960.position(518))["shredder_fen"]
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1'
    """
    fields: dict[str, Any] = {"id": position.id, "rank": format_rank(position.white, unicode)}
    if family.sides.independent:
        fields["black_rank"] = format_rank(position.black, unicode, black=True)
    fields["fen"] = position_fen(position)
    fields["shredder_fen"] = position_fen(position, shredder=True)
    fields["family"] = family.name
    return fields


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
        layout = family.layout
        if layout is not None and layout.notation == "sfen" and not self.sfen:
            raise DialectError(variant or "-", dialect, f"{family.name} is written in sfen, "
                               f"which {self.name} cannot hold; use fen, json, csv or text")
        if variant is not None or not writes_plain(dialect):
            if family.layout is not None:
                raise DialectError(variant or "-", dialect, f"{family.name} starts on a board "
                                   f"of its own; only the dialects {plain_dialects()} write it")
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
            fen = position_fen(position, shredder=DIALECTS[self.dialect].shredder)
            return fen if counters else fen.rsplit(" ", 2)[0]
        return start_fen(position.white, position.black, variant=self.variant,
                         dialect=self.dialect, counters=counters)

    def write(self, position: Position) -> None:
        """Write one position."""
        raise NotImplementedError

    def end(self) -> None:
        """Whatever closes the document (nothing, for line formats)."""

    @classmethod
    def read(cls, family: Family, document: str) -> list[Position]:
        """The positions a document of this format holds, in order."""
        raise NotImplementedError
