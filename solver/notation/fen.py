"""Full FENs of start positions, written and read.

A classical start position is eight ranks high: Black's pieces, Black's
pawns, four empty ranks, White's pawns, White's pieces; White to move, no en
passant square. FENs are written with move counters ``0 1``; read, they may
have any counters, or none and EPD operations (``id "chess960 518";``), as
lines of opening books do (their syntax is :mod:`solver.notation.fen_syntax`'s).

Reading: :func:`read_start` reads a FEN, checks that it is a start position
and returns both back ranks; :func:`~solver.notation.castling.check_castling` checks
the castling field against the rooks (castling rights are
:mod:`solver.notation.castling`'s). :meth:`Family.identify <solver.family.Family.identify>`
uses both, and checks the family's rules and its sides.

A family on another board (:class:`~solver.board.geometry.Layout`: another height,
other pawns, Black turned half round, a fixed White army) is written by
:func:`~solver.notation.board_fen.layout_fen` and read by
:func:`~solver.notation.board_fen.read_layout_start` (:mod:`solver.notation.board_fen`).
:func:`position_fen` writes either. The names of those modules are
re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from solver.board.geometry import square_name
from solver.errors import FenSyntaxError, NotStartPositionError
from solver.notation.board_fen import layout_fen, read_layout_start, rows_placement
from solver.notation.castling import (
    castling_field,
    castling_rooks,
    check_castling,
    check_layout_castling,
    layout_castling,
)
from solver.notation.fen_syntax import (
    FIELDS,
    StartFen,
    describe,
    expand_row,
    is_fen,
    listed,
    read_counter,
    split_fields,
    split_opcodes,
)

if TYPE_CHECKING:
    from solver.position import Position

__all__ = [
    "FIELDS",
    "RANKS",
    "StartFen",
    "castling_field",
    "castling_rooks",
    "check_castling",
    "check_layout_castling",
    "is_fen",
    "layout_castling",
    "layout_fen",
    "placement",
    "position_fen",
    "read_layout_start",
    "read_start",
    "rows_placement",
    "split_opcodes",
    "start_fen",
]

#: Ranks on the board of every family.
RANKS: Final = 8


def placement(white: str, black: str | None = None) -> str:
    """The piece-placement field: Black's rank (lower case) first, White's last.

    >>> placement("RNBQCKABNR")
    'rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR'
    """
    files = len(white)
    back = (black if black is not None else white).lower()
    empty = [str(files)] * (RANKS - 4)
    return "/".join([back, "p" * files, *empty, "P" * files, white.upper()])


def start_fen(white: str, black: str | None = None, shredder: bool = False) -> str:
    """The full FEN of the start position with these back ranks.

    ``black`` defaults to White's rank (mirrored families); either case works.

    >>> start_fen("RNBQKBNR")
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
    >>> start_fen("RKRNNQBB", shredder=True)
    'rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1'
    """
    castling = castling_field(white.upper(), (black or white).upper(), shredder)
    return f"{placement(white, black)} w {castling} - 0 1"


def position_fen(position: Position, shredder: bool = False) -> str:
    """The full FEN of a :class:`~solver.position.Position`.

    >>> from solver.position import Position
    >>> position_fen(Position(105, "QNRBBNKR", "QNRBBNKR"), shredder=True)
    'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1'
    """
    if position.layout is not None:
        return layout_fen(position.layout, position.white, position.black, shredder)
    return start_fen(position.white, position.black, shredder)


def read_start(text: str, files: int = 8) -> StartFen:
    """Read a FEN or EPD line on a board ``files`` wide that must be a start position.

    >>> read_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    StartFen(white='RNBQKBNR', black='RNBQKBNR', castling='KQkq')
    >>> read_start('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - id "518";').opcodes
    (('id', '"518"'),)

    Move counters may be left out (EPD) or be any numbers (an opening book
    may give its lines any counters); EPD operations are read and kept.
    Raises :class:`~solver.errors.FenSyntaxError` when it cannot be read and
    :class:`~solver.errors.NotStartPositionError`, with every reason, when it
    is not a start position.
    """
    fields, counters, opcodes = split_fields(text)
    rows = fields[0].split("/")
    if len(rows) != RANKS:
        raise FenSyntaxError(text, "placement",
                             f"the placement has {len(rows)} ranks, expected {RANKS}")
    board = [expand_row(text, row, RANKS - i, files) for i, row in enumerate(rows)]
    side, _castling, en_passant = fields[1:]
    if side not in ("w", "b"):
        raise FenSyntaxError(text, "side to move", f"the side to move {side!r} is not 'w' or 'b'")
    if counters is not None:
        read_counter(text, "halfmove clock", counters[0])
        read_counter(text, "move number", counters[1])
    reasons, squares = _board_problems(board)
    if side == "b":
        reasons.append("black to move")
    if en_passant != "-":
        reasons.append(f"en passant square {en_passant!r} set")
    if reasons:
        raise NotStartPositionError(text, reasons, squares)
    return StartFen("".join(board[-1]), "".join(board[0]).upper(), fields[2], opcodes)


def _board_problems(board: list[list[str]]) -> tuple[list[str], list[str]]:
    """Why a board (rank 8 first) is no start board, and the squares involved."""
    reasons: list[str] = []
    squares: list[str] = []
    pawns: list[str] = []
    middle: list[str] = []
    back: list[str] = []
    for i, row in enumerate(board):
        rank = RANKS - i
        for file, piece in enumerate(row):
            square = square_name(file, rank)
            if rank in (2, RANKS - 1):
                want = "P" if rank == 2 else "p"
                if piece != want:
                    pawns.append(f"{square} has no {describe(want)}")
                    squares.append(square)
            elif piece.upper() == "P":
                pawns.append(f"{describe(piece)} on {square}")
                squares.append(square)
            elif rank in (1, RANKS):
                white_rank = rank == 1
                if not piece:
                    back.append(f"{square} is empty")
                    squares.append(square)
                elif piece.isupper() != white_rank:
                    back.append(f"{describe(piece)} on {square}")
                    squares.append(square)
            elif piece:
                middle.append(f"{describe(piece)} on {square}")
                squares.append(square)
    if pawns:
        reasons.append(f"pawns not on their ranks ({listed(pawns)})")
    if middle:
        reasons.append(f"pieces in the middle of the board ({listed(middle)})")
    if back:
        reasons.append(f"back ranks not filled with each side's pieces ({listed(back)})")
    return reasons, squares
