"""Full FENs (and SFENs) of start positions, written and read, on any board.

A start position stands on a board (:class:`~solver.board.geometry.Layout`):
the classical one is eight ranks high, Black's pieces, Black's pawns, four
empty ranks, White's pawns, White's pieces; other boards have another
height, other pawns, Black turned half round, a fixed White army, pieces in
a region or in front of the rank. One writer, :func:`layout_fen`, writes
every board; :func:`start_fen` and :func:`position_fen` are it for a pair of
ranks on the classical board and for a :class:`~solver.position.Position`.

FENs are written White to move, no en passant square, with move counters
``0 1``; read, they may have any counters, or none and EPD operations
(``id "chess960 518";``), as lines of opening books do (their syntax is
:mod:`solver.notation.fen_syntax`'s). A family whose notation is ``sfen``
(shogi's FEN, as USI engines and lishogi read it) is written and read as
SFEN: the board, ``b`` (Sente, who starts, to move), the pieces in hand
(``-``) and the move number.

Reading: :func:`read_start` reads a FEN on any board, checks that it is a
start position and returns both back ranks; :func:`~solver.notation.castling.check_castling`
checks the castling field against the rooks (castling rights are
:mod:`solver.notation.castling`'s). :meth:`Family.identify <solver.family.Family.identify>`
uses both, and checks the family's rules and its sides.
"""

from __future__ import annotations

from functools import cache
from typing import Protocol

from solver.board.covered import MARK
from solver.board.geometry import EMPTY, Layout, square_name
from solver.errors import (
    ArgumentTypeError,
    FenSyntaxError,
    NotStartPositionError,
    need_text,
    quote,
)
from solver.notation.castling import castling_field, castling_rooks, check_castling
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
from solver.notation.hands import gating_field, gating_fields, hand_text, same_hand, split_hand


class PositionLike(Protocol):
    """What :func:`position_fen` reads of a :class:`~solver.position.Position`
    (which stands above notation: it names its castling field with it)."""

    @property
    def id(self) -> int: ...
    @property
    def white(self) -> str: ...
    @property
    def black(self) -> str: ...
    @property
    def board(self) -> Layout: ...


__all__ = [
    "FIELDS",
    "StartFen",
    "castling_field",
    "castling_rooks",
    "check_castling",
    "is_fen",
    "layout_fen",
    "placement",
    "position_fen",
    "read_start",
    "rows_placement",
    "split_opcodes",
    "start_fen",
]

#: Placeholders for the letters of a rank while a board's template is made:
#: White's ``i``-th letter and Black's (Unicode private use, never a piece).
_WHITE_SLOT = 0xE000
_BLACK_SLOT = 0xE400


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


@cache
def _template(layout: Layout) -> str | None:
    """:func:`rows_placement` of ``layout``'s rows as a format string, White's
    letters ``{0}`` on and Black's after them; ``None`` when the board depends
    on the rank in more than where its letters stand (pieces in front)."""
    if layout.front:
        return None
    size = len(layout.region)
    rows = layout.rows("".join(chr(_WHITE_SLOT + i) for i in range(size)),
                       "".join(chr(_BLACK_SLOT + i) for i in range(size)))
    slots = {chr(_WHITE_SLOT + i): f"{{{i}}}" for i in range(size)}
    slots.update({chr(_BLACK_SLOT + i): f"{{{size + i}}}" for i in range(size)})
    return "".join(slots.get(c, c) for c in rows_placement(rows))


def board_placement(layout: Layout, white: str, black: str) -> str:
    """The placement field of the start position on ``layout`` with these ranks
    (``black`` as it stands on the top rank, from the a-file on).

    >>> board_placement(Layout(9, 9, sides="rotate"), "RNBQKABNR", "RNBAKQBNR")
    'rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR'
    """
    template = _template(layout)
    if template is None or EMPTY in white or EMPTY in black:
        return rows_placement(layout.rows(white, black))
    return template.format(*white.upper(), *black.lower())


def layout_fen(layout: Layout, white: str, black: str, shredder: bool = False,
               number: int | None = None) -> str:
    """The full FEN (SFEN) of the start position on ``layout`` with these ranks.

    >>> layout_fen(Layout(9, 9, sides="rotate"), "RNBQKABNR", "RNBAKQBNR")
    'rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1'
    """
    board = board_placement(layout, white, black)
    if layout.notation == "sfen":
        return f"{board} b - 1"
    if layout.hand is not None:
        board += hand_text(layout.hand)
    castling = (gating_field(white.upper(), black.upper(), shredder) if layout.gating
                else castling_field(white, black, shredder, layout, number))
    return f"{board} w {castling} - 0 1"


def placement(white: str, black: str | None = None) -> str:
    """The piece-placement field on the classical board: Black's rank (lower
    case) first, White's last.

    >>> placement("RNBQCKABNR")
    'rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR'
    """
    return board_placement(Layout.classical(len(white)), white,
                           black if black is not None else white)


def start_fen(white: str, black: str | None = None, shredder: bool = False) -> str:
    """The full FEN of the start position with these back ranks on the
    classical board as wide as they are.

    ``black`` defaults to White's rank (mirrored families); either case works.

    >>> start_fen("RNBQKBNR")
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
    >>> start_fen("RKRNNQBB", shredder=True)
    'rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1'
    """
    need_text(white, "white's rank")
    if black is not None:
        need_text(black, "black's rank")
    return layout_fen(Layout.classical(len(white)), white, black or white, shredder)


def position_fen(position: PositionLike, shredder: bool = False) -> str:
    """The full FEN of a :class:`~solver.position.Position`, on its board.

    >>> from solver.position import Position
    >>> position_fen(Position(105, "QNRBBNKR", "QNRBBNKR"), shredder=True)
    'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1'
    """
    if not all(hasattr(position, a) for a in ("board", "white", "black")):
        raise ArgumentTypeError("position", "a Position", position)
    return layout_fen(position.board, position.white, position.black, shredder, position.id)


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


def read_start(text: str, board: int | Layout = 8) -> StartFen:
    """Read a FEN or EPD line (an SFEN for a shogi board) that must be a start
    position on ``board``: a :class:`~solver.board.geometry.Layout`, or the
    width of a classical board.

    ``white`` is the rank on White's squares and ``black`` the rank on the top
    rank (both upper case, from the a-file on; in a region, in the region's
    order); with a fixed White army both are Black's rank. Every other square
    must hold what the board puts there.

    >>> read_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    StartFen(white='RNBQKBNR', black='RNBQKBNR', castling='KQkq')
    >>> read_start('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - id "518";').opcodes
    (('id', '"518"'),)
    >>> read_start("rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1",
    ...            Layout(9, 9, sides="rotate"))
    StartFen(white='RNBQKABNR', black='RNBAKQBNR', castling='KQkq')

    Move counters may be left out (EPD) or be any numbers (an opening book
    may give its lines any counters); EPD operations are read and kept.
    Raises :class:`~solver.errors.FenSyntaxError` when it cannot be read and
    :class:`~solver.errors.NotStartPositionError`, with every reason, when it
    is not a start position.
    """
    layout = Layout.classical(board) if isinstance(board, int) else board
    sfen = layout.notation == "sfen"
    fields, counters, opcodes = _sfen_fields(text) if sfen else split_fields(text)
    if layout.covered and MARK in fields[0]:  # a covered start: its deal in wj and bj
        from solver.notation.covered import uncover

        fields[0] = uncover(text, fields[0], layout.covered, opcodes, layout.files)
    board_field, hand = (split_hand(fields[0]) if layout.hand is not None
                         else (fields[0], None))
    rows = board_field.split("/")
    top = layout.ranks
    if len(rows) != top:
        raise FenSyntaxError(text, "placement",
                             f"the placement has {len(rows)} ranks, expected {top}")
    squares = ["".join(p or " " for p in expand_row(text, row, top - i, layout.files,
                                                     layout.letters))
               for i, row in enumerate(rows)]
    side, castling, en_passant = fields[1:]
    if sfen and side not in ("w", "b"):
        raise FenSyntaxError(text, "side to move", f"the side to move {quote(side)} is not 'b' "
                                                   "(Sente) or 'w' (Gote)")
    if sfen and castling != "-":
        raise NotStartPositionError(text, [f"pieces in hand {quote(castling)}"], [])
    if side not in ("w", "b"):
        raise FenSyntaxError(text, "side to move",
                             f"the side to move {quote(side)} is not 'w' or 'b'")
    if counters is not None:
        read_counter(text, "halfmove clock", counters[0])
        read_counter(text, "move number", counters[1])
    white, black = _sides(squares, layout)
    reasons, wrong = _problems(squares, layout, white, black)
    if side == "b":
        reasons.append("gote to move" if sfen else "black to move")
    if en_passant != "-":
        reasons.append(f"en passant square {quote(en_passant)} set")
    if layout.hand is not None:
        expected = hand_text(layout.hand)
        if hand is None:
            reasons.append(f"no pieces in hand (the family starts with {expected})")
        elif not same_hand(hand, layout.hand):
            reasons.append(f"pieces in hand {quote(hand)}, not {expected}")
    if layout.gating and not reasons:
        forms = gating_fields(white, black)
        if castling not in forms:
            reasons.append(f"castling and gating field {quote(castling)}, not "
                           f"{' or '.join(repr(f) for f in forms)}")
        castling = castling_field(white, black, False, layout)
    if reasons:
        raise NotStartPositionError(text, reasons, wrong)
    return StartFen(white, black, "-" if sfen else castling, opcodes)


def _back(layout: Layout) -> dict[tuple[int, int], bool]:
    """The squares of each side's shuffled pieces, with whether they are White's."""
    back = {} if layout.sides.fixed_white else {sq: True for sq in layout.region}
    back.update({layout.black_square(sq): False for sq in layout.region})
    return back


def _sides(squares: list[str], layout: Layout) -> tuple[str, str]:
    """Both sides' letters (upper case, ``" "`` empty) read from a board (top
    rank first): White's in the region's order, Black's from the top rank's
    a-file on (in a region: in the order of White's squares they answer)."""
    top = layout.ranks

    def at(square: tuple[int, int]) -> str:
        return squares[top - square[1]][square[0]]

    if layout.squares:
        white = "".join(at(sq) for sq in layout.squares).upper().replace(" ", EMPTY)
        return white, "".join(at(layout.black_square(sq))
                              for sq in layout.squares).upper().replace(" ", EMPTY)
    black = squares[0].upper()
    return (black if layout.sides.fixed_white else squares[-1].upper()), black


def _problems(squares: list[str], layout: Layout, white: str,
              black: str) -> tuple[list[str], list[str]]:
    """Why a board (top rank first) is not the start board of ``layout`` with
    these ranks, and the squares involved, square by square from the top."""
    names = dict(layout.names)
    back = _back(layout)
    pawn_ranks = {layout.pawns, layout.black_pawns} - {None}
    expected = layout.rows(white, black)
    pawns: list[str] = []
    middle: list[str] = []
    backs: list[str] = []
    unlike: list[str] = []
    wrong: list[str] = []
    for i, (have_row, want_row) in enumerate(zip(squares, expected, strict=True)):
        rank = layout.ranks - i
        for file, (have, want) in enumerate(zip(have_row, want_row, strict=True)):
            square = square_name(file, rank)
            is_white = back.get((file, rank))
            if is_white is not None:
                if have == " " and layout.empty:
                    continue  # a region may hold empty squares (the rules count them)
                if have == " ":
                    backs.append(f"{square} is empty")
                elif have.upper() == "P" and layout.pawns is None:
                    if have.isupper() == is_white:
                        continue  # pawns placed as the family's pieces
                    backs.append(f"{describe(have, names)} on {square}")
                elif have.upper() == "P":
                    pawns.append(f"{describe(have, names)} on {square}")
                elif have.isupper() != is_white:
                    backs.append(f"{describe(have, names)} on {square}")
                else:
                    continue
            elif have == want:
                continue
            elif rank in pawn_ranks and want.upper() == "P":
                pawns.append(f"{square} has no {describe(want, names)}")
            elif have.upper() == "P":
                pawns.append(f"{describe(have, names)} on {square}")
            elif want == " ":
                middle.append(f"{describe(have, names)} on {square}")
            else:
                unlike.append(f"{square} should hold a {describe(want, names)}")
            wrong.append(square)
    reasons = []
    if pawns:
        reasons.append(f"pawns not on their ranks ({listed(pawns)})")
    if middle:
        reasons.append(f"pieces in the middle of the board ({listed(middle)})")
    if backs:
        reasons.append(f"back ranks not filled with each side's pieces ({listed(backs)})")
    if unlike:
        reasons.append(f"squares unlike the family's start board ({listed(unlike)})")
    return reasons, wrong
