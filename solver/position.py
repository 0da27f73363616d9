"""A start position: its ID and both sides' back ranks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from solver.board.geometry import CLASSICAL, Layout
from solver.errors import ArgumentTypeError, need_text


@dataclass(frozen=True, repr=False)
class Position:
    """A start position: its ID and both sides' ranks (equal when mirrored).

    Ranks are upper-case letters, each side's back rank from the a-file on.
    ``layout`` is the board around them, its family's (another size, other
    pawns, Black rotated, a fixed White army, ...); by default the classical
    board, as wide as the ranks (:attr:`board`). With a fixed White army
    ``white`` is Black's rank too.

    >>> Position(518, "RNBQKBNR", "RNBQKBNR").white
    'RNBQKBNR'
    """

    id: int
    white: str
    black: str
    layout: Layout = field(default=CLASSICAL, compare=False, repr=False)

    def __repr__(self) -> str:
        """``Position(id, white, black)``, as it is made.

        >>> Position(105, "QNRBBNKR", "QNRBBNKR")
        Position(105, 'QNRBBNKR', 'QNRBBNKR')
        """
        return f"Position({self.id!r}, {self.white!r}, {self.black!r})"

    @property
    def board(self) -> Layout:
        """The board the position stands on: its layout, the classical one as
        wide as its ranks (:meth:`Layout.fitted <solver.board.geometry.Layout.fitted>`).

        >>> Position(518, "RNBQKBNR", "RNBQKBNR").board.files
        8
        """
        return self.layout.fitted(len(self.white))

    @property
    def castling(self) -> str:
        """The castling rights of the position, as its family's rule gives them
        (X-FEN letters, ``-`` for none): of a family with castling variations
        (``castling = "subsets"``), the variation its id names.

        >>> Position(518, "RNBQKBNR", "RNBQKBNR").castling
        'KQkq'
        """
        from solver.notation.castling import castling_field

        return castling_field(self.white, self.black, layout=self.board, number=self.id)

    def fen(self, dialect: str = "xfen", variant: str | None = None, *,
            counters: bool = True) -> str:
        """The position's start FEN, as the program of ``dialect`` writes it
        (``xfen``, ``shredder``, ``lichess``, ``fsf``, ``pychess``:
        :data:`~solver.notation.dialects.DIALECTS`), for the game ``variant``
        (``crazyhouse``, ``3check``, ...: :data:`~solver.notation.variants.VARIANTS`;
        by default the family's own). ``counters=False`` leaves the move
        counters out. A position on a board of its own (shogi's, Seirawan's
        with its pieces in hand, ...) is written on it, by the dialects that
        write it, and takes no variant.

        >>> p = Position(105, "QNRBBNKR", "QNRBBNKR")
        >>> p.fen()
        'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1'
        >>> p.fen("shredder")
        'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1'
        >>> p.fen("lichess", "3check")
        'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 3+3 0 1'

        Raises :class:`~solver.errors.DialectError` for an unknown dialect or
        variant, or one that cannot write this position.
        """
        from solver.errors import DialectError
        from solver.notation.dialects import check_style, dialect_named, family_fen, start_fen
        from solver.notation.fen import layout_fen

        if variant is not None:
            need_text(variant, "variant")
        writer = dialect_named(need_text(dialect, "dialect"), variant or "-")
        if variant is None and writer.plain:  # the family's own FEN, on any board
            fen = layout_fen(self.board, self.white, self.black, writer.shredder, self.id)
            # SFEN's one counter is its last field (its hand field is kept)
            return fen if counters else fen.rsplit(" ", 1 if self.layout.notation == "sfen"
                                                   else 2)[0]
        if not self.layout.standard:
            if variant is not None:
                raise DialectError(variant, dialect, "the position starts on a board of its "
                                                     "own; name no variant")
            return family_fen(self.layout, self.white, self.black, dialect, counters, self.id)
        if variant is not None:  # White's own rank is no horde's, even where it equals Black's
            own = self.layout.sides.independent or self.white != self.black
            check_style(variant, dialect, len(self.white),
                        f"{self.white} {self.black.lower()}" if own else None)
        return start_fen(self.white, self.black, variant=variant, dialect=dialect,
                         counters=counters)

    def epd(self, dialect: str = "xfen", variant: str | None = None,
            **operations: str | int) -> str:
        """The position's EPD: its FEN's first four fields (:meth:`fen` without
        counters), then ``operations`` as python-chess's ``Board.epd`` writes
        them (text quoted, numbers bare).

        >>> Position(518, "RNBQKBNR", "RNBQKBNR").epd(id="chess960 518")
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "chess960 518";'

        Raises :class:`~solver.errors.DialectError` as :meth:`fen` does, and for a
        position written in SFEN (shogi's boards), which EPD cannot hold.
        """
        if self.layout.notation == "sfen":  # as ``--format epd`` refuses it
            from solver.errors import DialectError

            raise DialectError(variant or "-", dialect, "the position is written in sfen, "
                               "which epd cannot hold; use fen")
        text = self.covered_fields(self.fen(dialect, variant, counters=False), dialect)
        for name, value in operations.items():
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ArgumentTypeError(name, "text or an integer", value)
            shown = str(value) if isinstance(value, int) else \
                '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
            text += f" {name} {shown};"
        return text


    def covered_fields(self, fields: str, dialect: str = "xfen") -> str:
        """An EPD line's ``fields`` (its FEN's first four, as ``dialect`` writes
        them) with the family's covered start for placement and the deal in
        the operations ``wj`` and ``bj`` after them, when ``dialect`` shows
        covered pieces (pychess-variants' Jieqi: :mod:`solver.notation.covered`);
        ``fields`` as they are for any other position or dialect.

        >>> from solver.family import Family
        >>> p = Family.load("jieqi").position(0)
        >>> p.covered_fields(p.fen("pychess", counters=False), "pychess")[-49:]
        'w - - wj "PPPPPCCBBAARRNN"; bj "bbaarrnnccppppp";'
        """
        if not self.layout.covered:
            return fields
        from solver.notation.dialects import dialect_named

        if not dialect_named(dialect, "-").covered:
            return fields
        from solver.notation.covered import deal_operations

        placement, rest = fields.split(" ", 1)
        return (f"{self.layout.covered} {rest}"
                f"{deal_operations(self.layout.covered, placement, self.layout.files)}")


class Mirrored:
    """Every position of a family whose Black rank answers White's, in ID
    order, from blocks of consecutive ranks (read once, as they come).

    Iterated, it gives the rows ``(id, white, turn(white))``; a writer that
    can use the ranks whole (the text format) takes :meth:`blocks` instead.

    >>> list(Mirrored(iter([["AB", "BA"]]), str.lower))
    [(0, 'AB', 'ab'), (1, 'BA', 'ba')]
    >>> list(Mirrored(iter([["AB"], ["BA"]]), str.lower).blocks())
    [(0, ['AB']), (1, ['BA'])]
    """

    def __init__(self, blocks: Iterable[list[str]], turn: Callable[[str], str]) -> None:
        self._blocks = iter(blocks)
        self.turn = turn

    def blocks(self) -> Iterator[tuple[int, list[str]]]:
        """``(first id, ranks)`` of each block of White's ranks."""
        start = 0
        for block in self._blocks:
            yield start, block
            start += len(block)

    def __iter__(self) -> Iterator[tuple[int, str, str]]:
        turn = self.turn
        for start, block in self.blocks():
            for number, rank in enumerate(block, start):
                yield number, rank, turn(rank)


class Pairs:
    """Every position of a family whose sides are independent, in ID order:
    ``(white * n + black, white, black)`` over one side's ``n`` ``ranks``
    (White's rank the more significant digit, as Stockfish's DFRC book and
    TCEC's labels order pairs).

    Iterated, it gives the rows; a writer that can use the ranks whole
    (the text format) takes :attr:`ranks` instead.

    >>> list(Pairs(["AB", "BA"]))
    [(0, 'AB', 'AB'), (1, 'AB', 'BA'), (2, 'BA', 'AB'), (3, 'BA', 'BA')]
    """

    def __init__(self, ranks: list[str]) -> None:
        self.ranks = ranks

    def __len__(self) -> int:
        return len(self.ranks) ** 2

    def __iter__(self) -> Iterator[tuple[int, str, str]]:
        ranks = self.ranks
        n = len(ranks)
        for white, rank in enumerate(ranks):
            start = white * n
            for black, other in enumerate(ranks):
                yield start + black, rank, other
