"""Castling rights of start positions: which rooks castle, and how the field names them.

Which rooks give rights is the family's castling rule, carried by its board
(:mod:`solver.board.castling_rules`): by default a side may castle only
when its king stands between two rooks, and then with the outermost rook on
each side of the king (so a shuffle start with both rooks on one side of the
king has no castling rights); a family may instead allow no castling, only
castling from given files, or every subset of the rights as positions of
their own. Two notations name those rights:

* X-FEN writes ``K``/``Q`` for the outermost rook on the king's h-side or
  a-side, and the rook's file letter for any other rook;
* Shredder-FEN always writes the rooks' file letters.

Both list White's rights first (upper case) then Black's, h-side before
a-side, as python-chess writes them. :func:`castling_field` writes the field
and :func:`check_castling` checks one against the rooks, on any board
(:class:`~solver.board.geometry.Layout`; the classical one by default): a
fixed White army never castles, nor do pieces standing in a region other
than the first rank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from solver.board.castling_rules import ROOKS, CastlingRule, SubsetCastling
from solver.board.geometry import CLASSICAL, square_name
from solver.board.glyphs import FILE_LETTERS
from solver.errors import CastlingRightsError, FenSyntaxError, quote

if TYPE_CHECKING:
    from solver.board.geometry import Layout

_COLOUR: Final = {True: "white", False: "black"}


def castling_rooks(rank: str) -> tuple[int, int] | None:
    """Files of the rooks a side castles with, h-side first, or ``None``.

    ``None`` when the king does not stand between two rooks (or there is none).

    >>> castling_rooks("RNBQKBNR")
    (7, 0)
    >>> castling_rooks("RRKQBBNN") is None
    True
    """
    upper = rank.upper()
    king = upper.find("K")
    if king < 0:
        return None
    a_side = upper.find("R", 0, king)  # the outermost rook on each side of the king
    h_side = upper.rfind("R", king + 1)
    if a_side < 0 or h_side < 0:
        return None
    return h_side, a_side


def _xfen_right(rank: str, rook: int) -> str:
    """The X-FEN letter (upper case) for castling with the rook on ``rook``."""
    upper = rank.upper()
    h_side = rook > upper.index("K")
    further = upper.find("R", rook + 1) if h_side else upper.rfind("R", 0, rook)
    if further >= 0:
        return FILE_LETTERS[rook].upper()
    return "K" if h_side else "Q"


def _castlers(layout: Layout, white: str, black: str) -> list[tuple[str, bool]]:
    """The back ranks (upper case) of the sides that may castle on ``layout``,
    with whether each is White's."""
    if not layout.on_back_rank:
        return []  # pieces in a region other than the first rank do not castle
    if layout.squares:  # the region begins with the whole first rank
        white, black = white[:layout.files], black[:layout.files]
    white, black = layout.castling_view(white.upper()), layout.castling_view(black.upper())
    if layout.sides.fixed_white:
        return [(black.upper(), False)]
    return [(white.upper(), True), (black.upper(), False)]


def castling_field(white: str, black: str | None = None, shredder: bool = False,
                   layout: Layout = CLASSICAL, number: int | None = None) -> str:
    """The castling field of a start position (``-`` when no side may castle).

    ``layout`` is the board (the classical one by default): each side whose
    king stands between two rooks on its back rank castles with the
    outermost ones, but a fixed White army never castles.

    >>> castling_field("QNRBBNKR"), castling_field("QNRBBNKR", shredder=True)
    ('KQkq', 'HChc')
    >>> castling_field("RRKQBBNN")
    '-'
    >>> from solver.board.geometry import Layout
    >>> castling_field("RNBQKBNR", layout=Layout(8, sides="white-fixed"))
    'kq'

    The layout's castling rule decides which rooks castle
    (:mod:`solver.board.castling_rules`); with ``"subsets"`` the position's
    id ``number`` names its variation (none: every right).
    """
    rule = layout.castling
    kept = None
    if isinstance(rule, SubsetCastling) and number is not None:
        kept = rule.kept(rule.split(number)[0])
    rights = []
    for rank, upper in _castlers(layout, white, black if black is not None else white):
        mine = side_rights(rank, shredder, rule, None if kept is None else
                           {w for w in kept if w.isupper() == upper})
        rights.append(mine if upper else mine.lower())
    return "".join(rights) or "-"


def side_rights(rank: str, shredder: bool = False, rule: CastlingRule = ROOKS,
                wings: set[str] | None = None) -> str:
    """One side's castling rights in upper case (``""``: none), the part of the
    castling field a back rank (upper case) gives whoever's it is, as ``rule``
    gives them; ``wings`` keeps only the rights on these wings (``K``/``k``
    the h-side, ``Q``/``q`` the a-side: a castling variation's).

    >>> side_rights("QNRBBNKR"), side_rights("QNRBBNKR", shredder=True), side_rights("RRKQBBNN")
    ('KQ', 'HC', '')
    >>> side_rights("RNBQKBNR", wings={"q"})
    'Q'
    """
    king = rank.find("K")
    shown = {w.upper() for w in wings} if wings is not None else {"K", "Q"}
    return "".join(FILE_LETTERS[rook].upper() if shredder else _xfen_right(rank, rook)
                   for rook in rule.rooks(rank) if ("K" if rook > king else "Q") in shown)


def _right(char: str, rank: str, row: int, wanted: list[tuple[bool, int]],
           seen: list[tuple[bool, int]], rule: CastlingRule = ROOKS) -> tuple[int, str | None]:
    """The file of the rook a castling right names on ``rank`` (standing on
    ``row``), and what is wrong with the right (``None``: nothing)."""
    is_white = char.isupper()
    who = _COLOUR[is_white]
    lower = char.lower()
    if lower in ("k", "q"):
        if "K" not in rank:
            return -1, f"{char!r}: {who} has no king"
        king = rank.index("K")
        side = [f for f, p in enumerate(rank)
                if p == "R" and (f > king if lower == "k" else f < king)]
        if not side:
            wing = "h" if lower == "k" else "a"
            return -1, (f"{char!r}: {who} has no rook on the {wing}-side of the king "
                        f"on {square_name(king, row)}")
        rook = side[-1] if lower == "k" else side[0]
    else:
        rook = FILE_LETTERS.index(lower)
        if rank[rook] != "R":
            return -1, f"{char!r}: there is no {who} rook on {square_name(rook, row)}"
    if (is_white, rook) not in wanted:
        if "K" not in rank:
            why = f"{who} has no king"
        elif rule.default:
            if castling_rooks(rank) is None:
                why = (f"the {who} king on {square_name(rank.index('K'), row)} does not stand "
                       f"between two rooks, so {who} cannot castle")
            else:
                why = f"{who} castles only with the outermost rook on each side of the king"
        else:
            why = f"{who} {rule.why_not(rank)}"
        return rook, f"{char!r}: {why}"
    if (is_white, rook) in seen:
        where = square_name(rook, row)
        return rook, f"{char!r} repeats {who}'s right to castle with the {where} rook"
    return rook, None


def check_castling(text: str, castling: str, white: str, black: str,
                   layout: Layout = CLASSICAL) -> int:
    """Check a castling field against the rooks of both back ranks (upper case)
    on ``layout`` (the classical board by default), as the layout's castling
    rule gives rights; return the castling variation the field names (0 but
    for a rule of ``"subsets"``, where any subset of the rights is allowed).

    Either notation, or a mix, is accepted in any order; every right the
    rooks give must be there once, and no other. The error names every wrong
    right, and every missing one.

    >>> check_castling("(fen)", "HAha", "RNBQKBNR", "RNBQKBNR")
    0
    >>> check_castling("(fen)", "KQk", "RNBQKBNR", "RNBQKBNR")
    Traceback (most recent call last):
    ...
    solver.errors.CastlingRightsError: fen '(fen)' has wrong castling rights: \
black's right to castle with the a8 rook is missing ('q' or 'a'); the rooks give 'KQkq' or 'HAha'
    """
    layout = layout.fitted(len(white))
    rule = layout.castling
    expected = (castling_field(white, black, layout=layout),
                castling_field(white, black, shredder=True, layout=layout))
    ranks = {True: layout.castling_view(white.upper()),
             False: layout.castling_view(black.upper())}
    castlers = dict((upper, rank) for rank, upper in _castlers(layout, white, black))
    top = layout.ranks
    chars = "" if castling == "-" else castling
    files = FILE_LETTERS[:layout.files]
    for char in chars:
        if not (char.lower() in ("k", "q") or (char.isalpha() and char.lower() in files)):
            raise FenSyntaxError(text, "castling",
                                 f"the castling field {quote(castling)} has {char!r}, "
                                 "which is no castling right")
    wanted: list[tuple[bool, int]] = []
    for is_white, rank in castlers.items():
        wanted.extend((is_white, rook) for rook in rule.rooks(rank))
    wrong: list[tuple[str | None, str]] = []
    seen: list[tuple[bool, int]] = []
    for char in chars:
        is_white = char.isupper()
        if is_white not in castlers:
            who = _COLOUR[is_white]
            why = (f"{who}'s pieces do not fill the back rank"
                   if not layout.on_back_rank else f"{who}'s army is fixed")
            wrong.append((char, f"{char!r}: {why}, so {who} cannot castle"))
            continue
        row = 1 if is_white else top
        rook, problem = _right(char, ranks[is_white], row, wanted, seen, rule)
        if problem is not None:
            wrong.append((char, problem))
        else:
            seen.append((is_white, rook))
    subsets = isinstance(rule, SubsetCastling)
    for is_white, rook in wanted:
        if (is_white, rook) not in seen and not subsets:
            rank = ranks[is_white]
            xfen, shredder = _xfen_right(rank, rook), FILE_LETTERS[rook].upper()
            if not is_white:
                xfen, shredder = xfen.lower(), shredder.lower()
            where = square_name(rook, 1 if is_white else top)
            wrong.append((None, f"{_COLOUR[is_white]}'s right to castle with the {where} rook "
                                f"is missing ({xfen!r} or {shredder!r})"))
    if wrong:
        raise CastlingRightsError(text, wrong[0][0], "; ".join(why for _, why in wrong),
                                  expected, None if rule.default else rule.allows())
    if not subsets:
        return 0
    assert isinstance(rule, SubsetCastling)
    kept = set()
    for is_white, rook in seen:
        wing = "K" if rook > ranks[is_white].find("K") else "Q"
        kept.add(wing if is_white else wing.lower())
    return rule.variation(kept)
