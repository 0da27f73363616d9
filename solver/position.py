"""A start position: its ID and both sides' back ranks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from solver.board.geometry import CLASSICAL, Layout


@dataclass(frozen=True)
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
