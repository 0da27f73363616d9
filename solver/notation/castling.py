"""Castling rights of start positions: which rooks castle, and how the field names them.

A side may castle only when its king stands between two rooks, and then
with the outermost rook on each side of the king. (So a shuffle start with
both rooks on one side of the king has no castling rights.) Two notations
name those rights:

* X-FEN writes ``K``/``Q`` for the outermost rook on the king's h-side or
  a-side, and the rook's file letter for any other rook;
* Shredder-FEN always writes the rooks' file letters.

Both list White's rights first (upper case) then Black's, h-side before
a-side, as python-chess writes them. :func:`castling_field` writes the field
and :func:`check_castling` checks one against the rooks; on boards other
than the classical one, :func:`layout_castling` and
:func:`check_layout_castling` do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from solver.board.geometry import FILE_LETTERS, STANDARD_RANKS, square_name
from solver.errors import CastlingRightsError, FenSyntaxError

if TYPE_CHECKING:
    from solver.board.geometry import Layout

_COLOUR: Final = {True: "white", False: "black"}


def castling_rooks(rank: str) -> tuple[int, int] | None:
    """Files of the rooks a side castles with, h-side first, or ``None``.

    ``None`` when the king does not stand between two rooks.

    >>> castling_rooks("RNBQKBNR")
    (7, 0)
    >>> castling_rooks("RRKQBBNN") is None
    True
    """
    king = rank.upper().index("K")
    a_side = [f for f in range(king) if rank[f].upper() == "R"]
    h_side = [f for f in range(king + 1, len(rank)) if rank[f].upper() == "R"]
    if not a_side or not h_side:
        return None
    return h_side[-1], a_side[0]


def _xfen_right(rank: str, rook: int) -> str:
    """The X-FEN letter (upper case) for castling with the rook on ``rook``."""
    king = rank.upper().index("K")
    h_side = rook > king
    further = [f for f, p in enumerate(rank.upper())
               if p == "R" and f != rook and (f > rook if h_side else f < rook)]
    if further:
        return FILE_LETTERS[rook].upper()
    return "K" if h_side else "Q"


def castling_field(white: str, black: str | None = None, shredder: bool = False) -> str:
    """The castling field of a start position (``-`` when no side may castle).

    >>> castling_field("QNRBBNKR"), castling_field("QNRBBNKR", shredder=True)
    ('KQkq', 'HChc')
    >>> castling_field("RRKQBBNN")
    '-'
    """
    rights: list[str] = []
    for rank, upper in ((white, True), (black if black is not None else white, False)):
        rooks = castling_rooks(rank)
        if rooks is None:
            continue
        for rook in rooks:
            char = FILE_LETTERS[rook].upper() if shredder else _xfen_right(rank, rook)
            rights.append(char if upper else char.lower())
    return "".join(rights) or "-"


def check_castling(text: str, castling: str, white: str, black: str) -> None:
    """Check a castling field against the rooks of both back ranks (upper case).

    Either notation, or a mix, is accepted in any order; every right the
    rooks give must be there once, and no other.

    >>> check_castling("(fen)", "HAha", "RNBQKBNR", "RNBQKBNR")
    >>> check_castling("(fen)", "KQk", "RNBQKBNR", "RNBQKBNR")
    Traceback (most recent call last):
    ...
    solver.errors.CastlingRightsError: fen '(fen)' has wrong castling rights: \
black's right to castle with the a8 rook is missing ('q' or 'a'); the rooks give 'KQkq' or 'HAha'
    """
    expected = (castling_field(white, black), castling_field(white, black, shredder=True))
    ranks = {True: white, False: black}
    wanted: list[tuple[bool, int]] = []
    for is_white, rank in ranks.items():
        rooks = castling_rooks(rank)
        wanted.extend((is_white, rook) for rook in rooks or ())
    seen: list[tuple[bool, int]] = []
    for char in "" if castling == "-" else castling:
        is_white = char.isupper()
        rank = ranks[is_white]
        who = _COLOUR[is_white]
        row = 1 if is_white else STANDARD_RANKS
        lower = char.lower()
        if lower in ("k", "q"):
            king = rank.index("K")
            side = [f for f, p in enumerate(rank)
                    if p == "R" and (f > king if lower == "k" else f < king)]
            if not side:
                wing = "h" if lower == "k" else "a"
                raise CastlingRightsError(
                    text, char, f"{char!r}: {who} has no rook on the {wing}-side of the king "
                                f"on {square_name(king, row)}", expected)
            rook = side[-1] if lower == "k" else side[0]
        elif lower in FILE_LETTERS[: len(rank)] and char.isalpha():
            rook = FILE_LETTERS.index(lower)
            if rank[rook] != "R":
                raise CastlingRightsError(
                    text, char, f"{char!r}: there is no {who} rook on {square_name(rook, row)}",
                    expected)
        else:
            raise FenSyntaxError(text, "castling",
                                 f"the castling field {castling!r} has {char!r}, "
                                 "which is no castling right")
        where = square_name(rook, row)
        if (is_white, rook) not in wanted:
            king = rank.index("K")
            if castling_rooks(rank) is None:
                why = (f"the {who} king on {square_name(king, row)} does not stand between "
                       f"two rooks, so {who} cannot castle")
            else:
                why = f"{who} castles only with the outermost rook on each side of the king"
            raise CastlingRightsError(text, char, f"{char!r}: {why}", expected)
        if (is_white, rook) in seen:
            raise CastlingRightsError(
                text, char, f"{char!r} repeats {who}'s right to castle with the {where} rook",
                expected)
        seen.append((is_white, rook))
    for is_white, rook in wanted:
        if (is_white, rook) not in seen:
            rank = ranks[is_white]
            who = _COLOUR[is_white]
            xfen, shredder = _xfen_right(rank, rook), FILE_LETTERS[rook].upper()
            if not is_white:
                xfen, shredder = xfen.lower(), shredder.lower()
            where = square_name(rook, 1 if is_white else STANDARD_RANKS)
            raise CastlingRightsError(
                text, None,
                f"{who}'s right to castle with the {where} rook is missing "
                f"({xfen!r} or {shredder!r})", expected)


def layout_castling(layout: Layout, white: str, black: str, shredder: bool = False) -> str:
    """The castling field on any board: each side whose king stands between
    two rooks on its back rank castles with the outermost ones (a fixed White
    army never castles).

    >>> from solver.board.geometry import Layout
    >>> layout_castling(Layout(8, sides="white-fixed"), "RNBQKBNR", "RNBQKBNR")
    'kq'
    """
    rights: list[str] = []
    if layout.squares and layout.squares != tuple((f, 1) for f in range(layout.files)):
        return "-"  # pieces in a region other than the first rank do not castle
    sides = [(black, False)] if layout.sides.fixed_white else [(white, True), (black, False)]
    for rank, upper in sides:
        rooks = castling_rooks(rank.upper()) if "K" in rank.upper() else None
        for rook in rooks or ():
            char = FILE_LETTERS[rook].upper() if shredder else _xfen_right(rank.upper(), rook)
            rights.append(char if upper else char.lower())
    return "".join(rights) or "-"


def check_layout_castling(text: str, castling: str, layout: Layout, white: str,
                          black: str) -> None:
    """Check a castling field on any board: it must be the rights the rooks
    give, in X-FEN or Shredder-FEN, in any order."""
    expected = (layout_castling(layout, white, black),
                layout_castling(layout, white, black, shredder=True))
    if castling == "-" and expected[0] == "-":
        return
    if any(sorted(castling) == sorted(e) for e in expected) and castling not in ("", "-"):
        return
    raise CastlingRightsError(text, None, f"{castling!r} is not the rights the rooks give",
                              expected)
