"""Writing positions in the command line's formats.

``text`` is each command's own plain form (an ID, a rank, or ``<id> <rank>``);
``json`` one array of objects; ``csv`` a header line then one row a
position; ``fen`` and ``shredder`` one full FEN a line (X-FEN or
Shredder-FEN castling); ``pgn`` tag pairs that set each position up.

JSON objects and CSV columns: ``id``, ``rank`` (White's), ``black_rank``
(families with independent sides only, in lower case as Black's pieces are
written), ``fen``, ``shredder_fen``, ``family``. :mod:`json` and :mod:`csv`
are imported only when those formats are written.
"""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Literal, TextIO, get_args

from solver.fen import pgn_header, position_fen
from solver.notation import format_rank

if TYPE_CHECKING:
    from solver.catalogue import Family, Position

Format = Literal["text", "json", "csv", "fen", "shredder", "pgn"]
#: Every output format, the default first.
FORMATS: Final[tuple[str, ...]] = get_args(Format)
#: What the ``text`` format prints of a position.
TextStyle = Literal["id", "rank", "id-rank"]


def position_text(family: Family, position: Position, unicode: bool = False) -> str:
    """White's rank, and for independent sides Black's after a space.

    >>> from solver.catalogue import Family
    >>> dfrc = Family.load("dfrc")
    >>> position_text(dfrc, dfrc.position(105 * 960 + 518))
    'RNBQKBNR qnrbbnkr'
    """
    white = format_rank(position.white, unicode)
    if not family.independent:
        return white
    return f"{white} {format_rank(position.black, unicode, black=True)}"


def record(family: Family, position: Position, unicode: bool = False) -> dict[str, Any]:
    """One position as the fields of a JSON object or CSV row.

    >>> from solver.catalogue import Family
    >>> chess960 = Family.load("chess960")
    >>> record(chess960, chess960.position(518))["shredder_fen"]
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1'
    """
    fields: dict[str, Any] = {"id": position.id, "rank": format_rank(position.white, unicode)}
    if family.independent:
        fields["black_rank"] = format_rank(position.black, unicode, black=True)
    fields["fen"] = position_fen(position)
    fields["shredder_fen"] = position_fen(position, shredder=True)
    fields["family"] = family.name
    return fields


class PositionWriter:
    """Writes positions one at a time to ``out``; :meth:`close` ends the output.

    Streams: nothing is held back, so long listings start at once.

    >>> import sys
    >>> from solver.catalogue import Family
    >>> chess960 = Family.load("chess960")
    >>> with PositionWriter(sys.stdout, chess960, "csv") as writer:
    ...     writer.write(chess960.position(518))
    id,rank,fen,shredder_fen,family
    518,RNBQKBNR,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1,chess960
    """

    def __init__(
        self,
        out: TextIO,
        family: Family,
        fmt: Format | str = "text",
        text: TextStyle = "id-rank",
        unicode: bool = False,
    ) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}; formats are {', '.join(FORMATS)}")
        self.out = out
        self.family = family
        self.format = fmt
        self.text = text
        self.unicode = unicode
        self.count = 0
        self._csv: Any = None

    def __enter__(self) -> PositionWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def write(self, position: Position) -> None:
        """Write one position."""
        out, fmt = self.out, self.format
        first = self.count == 0
        self.count += 1
        if fmt == "text":
            out.write(f"{self._text(position)}\n")
        elif fmt == "fen":
            out.write(f"{position_fen(position)}\n")
        elif fmt == "shredder":
            out.write(f"{position_fen(position, shredder=True)}\n")
        elif fmt == "pgn":
            out.write(f"{'' if first else chr(10)}{pgn_header(self.family.ruleset, position)}\n")
        elif fmt == "json":
            import json

            fields = record(self.family, position, self.unicode)
            out.write(f"{'[' if first else ','}\n{json.dumps(fields, ensure_ascii=False)}")
        else:
            fields = record(self.family, position, self.unicode)
            if self._csv is None:
                import csv

                self._csv = csv.writer(out, lineterminator="\n")
                self._csv.writerow(list(fields))
            self._csv.writerow(list(fields.values()))

    def close(self) -> None:
        """End the output: close the JSON array (``[]`` when empty), or a CSV's header."""
        if self.format == "json":
            self.out.write("\n]\n" if self.count else "[]\n")
        elif self.format == "csv" and self._csv is None:
            self.out.write(",".join(self.columns()) + "\n")
        self.out.flush()

    def columns(self) -> list[str]:
        """The CSV columns (the JSON keys) for this family."""
        black = ["black_rank"] if self.family.independent else []
        return ["id", "rank", *black, "fen", "shredder_fen", "family"]

    def _text(self, position: Position) -> str:
        if self.text == "id":
            return str(position.id)
        shown = position_text(self.family, position, self.unicode)
        return shown if self.text == "rank" else f"{position.id} {shown}"
