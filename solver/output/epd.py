"""EPD: opening books, one start position a line with an ``id`` operation.

Each line is the FEN's first four fields (placement, side to move,
castling, en passant: no move counters) and ``id "<family> <id>";``, the
form engine testers (fastchess, cutechess-cli, OpenBench) read with
``-openings file=book.epd format=epd``. Castling is X-FEN unless another
dialect is chosen (``--dialect shredder`` for Shredder-FEN).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.errors import RecordIdError
from solver.notation.fen import read_start
from solver.output.base import MARKS, NUMBER, Writer, unmarked

if TYPE_CHECKING:
    from solver.family import Family
    from solver.numbering.schemes import Scheme
    from solver.position import Position


def epd_id(family: Family, number: int | str) -> str:
    """The ``id`` operation naming a position: ``id "chess960 518";``.

    >>> from solver.family import Family
    >>> epd_id(Family.load("dfrc"), 101318)
    'id "dfrc 101318";'
    """
    return f'id "{family.name} {number}";'


class EpdWriter(Writer):
    """One EPD line a position: four FEN fields and an ``id`` operation."""

    name = "epd"
    sfen = False
    bulk = True
    help = 'one EPD line a position (an opening book): four FEN fields, id "<family> <id>"'

    def line(self, position: Position) -> str:
        """The position's line."""
        fields = position.covered_fields(self.fen(position, counters=False), self.dialect)
        return f"{fields}{self._after(position.id)}\n"

    def write(self, position: Position) -> None:
        self.count += 1
        self.out.write(self.line(position))

    def marked_line(self, black: str) -> str | None:
        fen = self.parts(counters=False).marked(black, MARKS[0], MARKS[1])
        if fen is None or not unmarked(self.family.name) or type(self)._after is not _AFTER:
            return None  # an ``id`` of a number's own text (a book's numbering): one by one
        return f"{fen}{self._after(NUMBER)}\n"

    def white_parts(self, white: str) -> tuple[str, ...] | None:
        return self.parts(counters=False).white(white)

    def line_of(self, number: int, white: str, black: str) -> str | None:
        return f"{self.parts(counters=False).fen(white, black)}{self._after(number)}\n"

    def _after(self, number: int | str) -> str:
        """What follows the FEN's fields on a line: the ``id`` operation."""
        return f" {epd_id(self.family, number)}"

    @classmethod
    def read(cls, family: Family, document: str) -> list[Position]:
        """Each line identified; an ``id "<family> <n>"`` of this family must agree."""
        found = []
        for line in document.splitlines():
            if not line.strip():
                continue
            position = family.identify(line)
            start = read_start(line, family.ruleset.layout)
            for name, operands in start.opcodes:
                said = operands.strip('"').split()
                if (name == "id" and len(said) == 2 and said[0] == family.name
                        and said[1] != str(position.id)):
                    raise RecordIdError(line, f"line {line!r} says id {said[1]}, "
                                              f"but the position is {position.id}",
                                        said[1], position.id)
            found.append(position)
        return found


_AFTER = EpdWriter._after


def numbered_epd(scheme: Scheme) -> type[EpdWriter]:
    """An EPD writer whose ``id`` operations hold the numbers of the numbering
    ``scheme`` (``id "chess960 960"`` in Scidb's), or its labels alone
    (``id "FRC 518"``): what ``lint --numbering`` reads.

    >>> import io
    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> out = io.StringIO()
    >>> numbered_epd(chess960.scheme("scidb"))(out, chess960).write(chess960.position(0))
    >>> out.getvalue().split(" id ")[1].strip()
    '"chess960 960";'
    """
    from solver.output.pgn import tag_value

    text, labelled = scheme.text, bool(scheme.spec.label)

    class Numbered(EpdWriter):
        def _after(self, number: int | str) -> str:
            if labelled:
                return f' id "{tag_value(text(int(number)))}";'
            return super()._after(text(int(number)))

    return Numbered
