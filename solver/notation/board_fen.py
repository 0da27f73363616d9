"""FENs (and SFENs) of whole boards other than the classical one.

A family on another board (:class:`~solver.board.geometry.Layout`: another height,
other pawns, Black turned half round, a fixed White army, pieces in a
region, pieces in front of the rank) is written by :func:`layout_fen` and
read by :func:`read_layout_start`. A family whose notation is ``sfen``
(shogi's FEN, as USI engines and lishogi read it) is written and read as
SFEN: the board, ``b`` (Sente, who starts, to move), the pieces in hand
(``-``) and the move number.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from solver.board.geometry import square_name
from solver.errors import FenSyntaxError, NotStartPositionError
from solver.notation.castling import layout_castling
from solver.notation.fen_syntax import (
    StartFen,
    describe,
    expand_row,
    listed,
    read_counter,
    split_fields,
)

if TYPE_CHECKING:
    from solver.board.geometry import Layout


def rows_placement(rows: list[str]) -> str:
    """The placement field of a board given top rank first (``" "`` empty).

    >>> rows_placement(["rnbqkbnr", "        ", "PPPPPPPP"])
    'rnbqkbnr/8/PPPPPPPP'
    """
    fields = []
    for row in rows:
        out, empty = "", 0
        for piece in row:
            if piece == " ":
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            out += piece
        fields.append(out + (str(empty) if empty else ""))
    return "/".join(fields)


def layout_fen(layout: Layout, white: str, black: str, shredder: bool = False) -> str:
    """The full FEN of the start position on ``layout`` with these back ranks.

    >>> from solver.board.geometry import Layout
    >>> layout_fen(Layout(9, 9, sides="rotate"), "RNBQKABNR", "RNBAKQBNR")
    'rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1'
    """
    rows = layout.rows(white, black)
    if layout.notation == "sfen":
        return f"{rows_placement(rows)} b - 1"
    return f"{rows_placement(rows)} w {layout_castling(layout, white, black, shredder)} - 0 1"


def _sfen_fields(text: str) -> tuple[list[str], None, tuple[tuple[str, str], ...]]:
    """An SFEN's fields as a FEN's: board, side to move, hands (as castling), ``-``.

    SFEN (shogi's FEN, as USI engines and lishogi read it) has the board,
    the side to move (``b``: Sente, who starts), the pieces in hand and the
    move number, which may be left out.
    """
    parts = text.split()
    if len(parts) not in (3, 4):
        raise FenSyntaxError(text, "fields", f"it has {len(parts)} fields, expected 4 (sfen): "
                                             "board, side to move, hands, move number")
    if len(parts) == 4:
        read_counter(text, "move number", parts[3])
    side = {"b": "w", "w": "b"}.get(parts[1], parts[1])  # Sente moves first, as White
    return [parts[0], side, parts[2], "-"], None, ()


def read_layout_start(text: str, layout: Layout) -> StartFen:
    """Read a FEN or EPD line that must be a start position on ``layout``.

    ``white`` is the rank on rank 1 and ``black`` the rank on the top rank
    (both upper case, from the a-file on); with a fixed White army both are
    Black's rank. Every other square must hold what the layout puts there.

    >>> from solver.board.geometry import Layout
    >>> read_layout_start("rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1",
    ...                   Layout(9, 9, sides="rotate"))
    StartFen(white='RNBQKABNR', black='RNBAKQBNR', castling='KQkq')
    """
    sfen = layout.notation == "sfen"
    fields, counters, opcodes = _sfen_fields(text) if sfen else split_fields(text)
    rows = fields[0].split("/")
    top = layout.ranks
    if len(rows) != top:
        raise FenSyntaxError(text, "placement",
                             f"the placement has {len(rows)} ranks, expected {top}")
    names = dict(layout.names)
    board = ["".join(p or " " for p in expand_row(text, row, top - i, layout.files,
                                                   layout.letters))
             for i, row in enumerate(rows)]
    side, _castling, en_passant = fields[1:]
    if sfen and side not in ("w", "b"):
        raise FenSyntaxError(text, "side to move", f"the side to move {side!r} is not 'b' "
                                                   "(Sente) or 'w' (Gote)")
    if sfen and _castling != "-":
        raise NotStartPositionError(text, [f"pieces in hand {_castling!r}"], [])
    if side not in ("w", "b"):
        raise FenSyntaxError(text, "side to move", f"the side to move {side!r} is not 'w' or 'b'")
    if counters is not None:
        read_counter(text, "halfmove clock", counters[0])
        read_counter(text, "move number", counters[1])
    white, black, wrong, squares = _layout_sides(board, layout, names)
    reasons: list[str] = []
    if wrong:
        reasons.append(f"squares unlike the family's start board ({listed(wrong)})")
    if side == "b":
        reasons.append("gote to move" if sfen else "black to move")
    if en_passant != "-":
        reasons.append(f"en passant square {en_passant!r} set")
    if reasons:
        raise NotStartPositionError(text, reasons, squares)
    return StartFen(white, black, "-" if sfen else fields[2], opcodes)


def _layout_sides(
    board: list[str], layout: Layout, names: Mapping[str, str]
) -> tuple[str, str, list[str], list[str]]:
    """Both sides' letters read from a board (top rank first) on ``layout``, and
    the squares that are not as the layout puts them (described, and named)."""
    top = layout.ranks

    def at(square: tuple[int, int]) -> str:
        return board[top - square[1]][square[0]]

    if layout.squares:  # a region: each side's letters in the region's order
        white = "".join(at(sq) for sq in layout.squares).upper()
        black = "".join(at(layout.black_square(sq)) for sq in layout.squares).upper()
        back = [(sq, True) for sq in layout.squares] + [
            (layout.black_square(sq), False) for sq in layout.squares]
    else:
        black = board[0].upper()
        white = black if layout.sides.fixed_white else board[-1].upper()
        back = [((f, top), False) for f in range(layout.files)]
        if not layout.sides.fixed_white:
            back += [((f, 1), True) for f in range(layout.files)]
    wrong: list[str] = []
    squares: list[str] = []
    for square, is_white in back:
        piece = at(square)
        if piece == " " or piece.upper() == "P" or piece.isupper() != is_white:
            where = square_name(*square)
            what = "is empty" if piece == " " else f"has a {describe(piece, names)}"
            wrong.append(f"{where} {what}")
            squares.append(where)
    expected = layout.rows(white, black)
    for i, (have, want) in enumerate(zip(board, expected, strict=True)):
        for file, (a, b) in enumerate(zip(have, want, strict=True)):
            where = square_name(file, top - i)
            if a != b and where not in squares:
                should = "be empty" if b == " " else f"hold a {describe(b, names)}"
                wrong.append(f"{where} should {should}")
                squares.append(where)
    return white, black, wrong, squares
