"""Writing positions in the command line's formats, and reading them back.

Every format is one :class:`~solver.output.base.Writer` subclass, listed
once in :data:`FORMATS`: the command line's ``--format`` choices and help,
its completion and the README's table come from there, and parametrised
tests write every format and read it back, and have ``id -``, ``compare``
and ``lint`` read it. To add a format, write its class (``name``, ``help``,
``write``, ``end`` if it closes a document; ``lines`` and ``head`` if its
positions are not its lines, ``read`` if it checks more) and list it here;
tests/test_structure.py names what it still lacks (its README row, its
example in tests/registry_examples.py, its ``head`` in
:data:`solver.documents.HEADS`).

>>> import sys
>>> from solver.family import Family
>>> chess960 = Family.load("chess960")
>>> with PositionWriter(sys.stdout, chess960, "csv") as writer:
...     writer.write(chess960.position(518))
id,rank,fen,shredder_fen,family
518,RNBQKBNR,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1,chess960
"""

from __future__ import annotations

from collections.abc import Iterable
from types import TracebackType
from typing import TYPE_CHECKING, Final, TextIO

from solver.errors import UnknownFormatError
from solver.output.base import TextStyle, Writer, position_text, record
from solver.output.epd import EpdWriter, numbered_epd
from solver.output.formats import CsvWriter, FenWriter, JsonWriter, ShredderWriter, TextWriter
from solver.output.pgn import PgnWriter, pgn_variant

if TYPE_CHECKING:
    from solver.family import Family
    from solver.numbering.schemes import Scheme
    from solver.position import Position

__all__ = [
    "FORMATS",
    "PositionWriter",
    "TextStyle",
    "Writer",
    "pgn_variant",
    "position_text",
    "read_back",
    "record",
]

#: Every output format by name, the default first.
FORMATS: Final[dict[str, type[Writer]]] = {
    kind.name: kind
    for kind in (TextWriter, JsonWriter, CsvWriter, FenWriter, ShredderWriter, EpdWriter,
                 PgnWriter)
}


def format_help() -> str:
    """One line naming every format, for ``--help``."""
    return "; ".join(f"{name}: {kind.help}" for name, kind in FORMATS.items())


class PositionWriter:
    """Writes positions one at a time to ``out`` in format ``fmt``; :meth:`close` ends it.

    Streams: nothing is held back, so long listings start at once. With
    ``numbering`` (a :class:`~solver.numbering.schemes.Scheme`), EPD's ``id``
    operations hold that numbering's numbers; the other formats write the
    family's own ids.
    """

    def __init__(
        self,
        out: TextIO,
        family: Family,
        fmt: str = "text",
        text: TextStyle = "id-rank",
        unicode: bool = False,
        dialect: str = "xfen",
        variant: str | None = None,
        numbering: Scheme | None = None,
    ) -> None:
        kind = FORMATS.get(fmt)
        if kind is None:
            raise UnknownFormatError(fmt, list(FORMATS))
        if kind is EpdWriter and numbering is not None:  # ids in that numbering, as book's
            kind = numbered_epd(numbering)
        self.format = fmt
        self.writer = kind(out, family, text, unicode, dialect, variant)

    @property
    def count(self) -> int:
        """How many positions have been written."""
        return self.writer.count

    def __enter__(self) -> PositionWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None:
            self.close()
        else:  # a failed listing is not ended as if it were complete
            self.writer.out.flush()

    def write(self, position: Position) -> None:
        """Write one position."""
        self.writer.write(position)

    def write_rows(self, rows: Iterable[tuple[int, str, str]]) -> None:
        """Write ``(id, white, black)`` rows (a listing, in bulk where the format can)."""
        self.writer.write_rows(rows)

    def close(self) -> None:
        """End the output (close a JSON array, write a CSV's header if no row came)."""
        self.writer.end()
        self.writer.out.flush()


def read_back(fmt: str, family: Family, document: str) -> list[Position]:
    """The positions a document written in format ``fmt`` holds.

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    >>> [p.id for p in read_back("fen", chess960, fen)]
    [518]
    """
    return FORMATS[fmt].read(family, document)
