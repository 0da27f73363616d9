"""Full FENs of start positions, written and read.

Every start position is eight ranks high: Black's pieces, Black's pawns,
four empty ranks, White's pawns, White's pieces; White to move, no en
passant square, move counters ``0 1``.

Castling: a side may castle only when its king stands between two rooks,
and then with the outermost rook on each side of the king. (So a shuffle
start with both rooks on one side of the king has no castling rights.)
Two notations name those rights:

* X-FEN writes ``K``/``Q`` for the outermost rook on the king's h-side or
  a-side, and the rook's file letter for any other rook;
* Shredder-FEN always writes the rooks' file letters.

Both list White's rights first (upper case) then Black's, h-side before
a-side, as python-chess writes them.

Reading: :func:`read_start` reads a FEN, checks that it is a start position
and returns both back ranks; :func:`identify_fen` (used by
:meth:`Family.identify <solver.catalogue.Family.identify>`) also checks the
family's rules, that Black mirrors White where the family says so, and that
the castling rights match the rooks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from solver.board import FILE_LETTERS, PIECE_NAMES, square_name
from solver.errors import (
    CastlingRightsError,
    Chess960Error,
    FenSyntaxError,
    MirrorError,
    NotStartPositionError,
)

if TYPE_CHECKING:
    from solver.catalogue import Family, Position
    from solver.rules import RuleSet

#: Ranks on the board of every family.
RANKS: Final = 8
#: The fields a FEN has, in order.
FIELDS: Final = (
    "placement", "side to move", "castling", "en passant", "halfmove clock", "move number",
)
_SHOWN: Final = 4  # squares named in one reason before "and N more"
_COLOUR: Final = {True: "white", False: "black"}


# -- writing -----------------------------------------------------------------------


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
    """The full FEN of a :class:`~solver.catalogue.Position`.

    >>> from solver.catalogue import Position
    >>> position_fen(Position(105, "QNRBBNKR", "QNRBBNKR"), shredder=True)
    'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1'
    """
    return start_fen(position.white, position.black, shredder)


def pgn_variant(ruleset: RuleSet) -> str:
    """The PGN ``Variant`` tag value for a family.

    The rule set's ``variant`` field; else ``Chess960`` for 8-file families
    with the usual pieces (Chess960 castling covers any such start); else the
    family's title.

    >>> from solver.rules import load
    >>> pgn_variant(load("chess960")), pgn_variant(load("dfrc"))
    ('Chess960', 'Chess960')
    """
    if ruleset.variant:
        return ruleset.variant
    if ruleset.files == 8 and sorted(ruleset.pieces) == sorted("KQRRBBNN"):
        return "Chess960"
    return ruleset.title


def pgn_header(ruleset: RuleSet, position: Position) -> str:
    """PGN tag pairs that set up ``position``, then the unknown result ``*``.

    >>> from solver.rules import load
    >>> from solver.catalogue import Position
    >>> print(pgn_header(load("chess960"), Position(518, "RNBQKBNR", "RNBQKBNR")))
    [Variant "Chess960"]
    [SetUp "1"]
    [FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
    <BLANKLINE>
    *
    """
    variant = pgn_variant(ruleset).replace("\\", "\\\\").replace('"', '\\"')
    return (
        f'[Variant "{variant}"]\n[SetUp "1"]\n[FEN "{position_fen(position)}"]\n\n*'
    )


# -- reading -----------------------------------------------------------------------


@dataclass(frozen=True)
class StartFen:
    """A FEN read as a start position: both back ranks (upper case) and castling."""

    white: str
    black: str
    castling: str


def is_fen(text: str) -> bool:
    """Whether ``text`` is written as a FEN rather than a rank or a pair of ranks.

    >>> is_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    True
    >>> is_fen("RNBQKBNR/rnbqkbnr")
    False
    """
    fields = text.split()
    if not fields or "/" not in fields[0]:
        return False
    return fields[0].count("/") >= 2 or (len(fields) > 1 and fields[1] in ("w", "b"))


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    more = len(items) - _SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


def _describe(piece: str) -> str:
    name = "pawn" if piece.upper() == "P" else PIECE_NAMES[piece.upper()]
    return f"{_COLOUR[piece.isupper()]} {name}"


def _expand(text: str, row: str, rank: int, files: int) -> list[str]:
    """One placement row as ``files`` squares (``""`` for empty), or a syntax error."""
    squares: list[str] = []
    digits = ""
    for char in [*row, ""]:
        if char and char in "0123456789":
            digits += char
            continue
        if digits:
            if digits.startswith("0"):
                raise FenSyntaxError(text, "placement",
                                     f"rank {rank} has {digits!r}, which is no count of squares")
            squares.extend([""] * int(digits))
            digits = ""
        if not char:
            break
        if char.upper() != "P" and char.upper() not in PIECE_NAMES:
            raise FenSyntaxError(text, "placement",
                                 f"rank {rank} has {char!r}, which is no piece")
        squares.append(char)
    if len(squares) != files:
        raise FenSyntaxError(text, "placement",
                             f"rank {rank} has {len(squares)} squares, expected {files}")
    return squares


def _counter(text: str, field: str, value: str) -> int:
    if not value.isascii() or not value.isdigit():
        raise FenSyntaxError(text, field, f"the {field} {value!r} is not a number")
    return int(value)


def read_start(text: str, files: int = 8) -> StartFen:
    """Read a FEN on a board ``files`` wide that must be a start position.

    >>> read_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    StartFen(white='RNBQKBNR', black='RNBQKBNR', castling='KQkq')

    Raises :class:`~solver.errors.FenSyntaxError` when it cannot be read and
    :class:`~solver.errors.NotStartPositionError`, with every reason, when it
    is not a start position.
    """
    fields = text.split()
    if len(fields) != len(FIELDS):
        raise FenSyntaxError(
            text, "fields",
            f"it has {len(fields)} field{'s' if len(fields) != 1 else ''}, expected "
            f"{len(FIELDS)}: {', '.join(FIELDS)}",
        )
    rows = fields[0].split("/")
    if len(rows) != RANKS:
        raise FenSyntaxError(text, "placement",
                             f"the placement has {len(rows)} ranks, expected {RANKS}")
    board = [_expand(text, row, RANKS - i, files) for i, row in enumerate(rows)]
    side, _castling, en_passant, halfmove, fullmove = fields[1:]
    if side not in ("w", "b"):
        raise FenSyntaxError(text, "side to move", f"the side to move {side!r} is not 'w' or 'b'")
    counters = (_counter(text, "halfmove clock", halfmove),
                _counter(text, "move number", fullmove))
    reasons, squares = _board_problems(board)
    if side == "b":
        reasons.append("black to move")
    if en_passant != "-":
        reasons.append(f"en passant square {en_passant!r} set")
    if counters != (0, 1):
        reasons.append(f"move counters {halfmove} {fullmove}, expected 0 1")
    if reasons:
        raise NotStartPositionError(text, reasons, squares)
    return StartFen("".join(board[-1]), "".join(board[0]).upper(), fields[2])


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
                    pawns.append(f"{square} has no {_describe(want)}")
                    squares.append(square)
            elif piece.upper() == "P":
                pawns.append(f"{_describe(piece)} on {square}")
                squares.append(square)
            elif rank in (1, RANKS):
                white_rank = rank == 1
                if not piece:
                    back.append(f"{square} is empty")
                    squares.append(square)
                elif piece.isupper() != white_rank:
                    back.append(f"{_describe(piece)} on {square}")
                    squares.append(square)
            elif piece:
                middle.append(f"{_describe(piece)} on {square}")
                squares.append(square)
    if pawns:
        reasons.append(f"pawns not on their ranks ({_listed(pawns)})")
    if middle:
        reasons.append(f"pieces in the middle of the board ({_listed(middle)})")
    if back:
        reasons.append(f"back ranks not filled with each side's pieces ({_listed(back)})")
    return reasons, squares


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
        row = 1 if is_white else RANKS
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
            where = square_name(rook, 1 if is_white else RANKS)
            raise CastlingRightsError(
                text, None,
                f"{who}'s right to castle with the {where} rook is missing "
                f"({xfen!r} or {shredder!r})", expected)


def _pair_families(family: Family, white: str, black: str) -> list[str]:
    """Bundled families with independent sides that take ``white`` and ``black``."""
    from solver.catalogue import Family
    from solver.rules import bundled_names, load

    names: list[str] = []
    for name in bundled_names():
        try:
            other = Family(load(name))
            if not other.independent or other.ruleset.files != family.ruleset.files:
                continue
            other.validate(white)
            other.validate(black)
        except Chess960Error:
            continue
        names.append(name)
    return names


def identify_fen(family: Family, text: str) -> Position:
    """The position of ``family`` a start FEN (either castling notation) shows.

    >>> from solver.catalogue import Family
    >>> identify_fen(Family.load("chess960"),
    ...              "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1").id
    105

    Besides the errors of :func:`read_start` and :func:`check_castling`,
    raises :class:`~solver.errors.MirrorError` when Black does not mirror
    White in a mirrored family, and the rank errors of
    :meth:`~solver.catalogue.Family.validate`.
    """
    from solver.catalogue import Position

    start = read_start(text, family.ruleset.files)
    if not family.independent and start.black != start.white:
        raise MirrorError(text, family.name, start.white, start.black.lower(),
                          _pair_families(family, start.white, start.black))
    white = family.validate(start.white)
    black = family.validate(start.black.lower()) if family.independent else white
    check_castling(text, start.castling, white, black)
    if not family.independent:
        return Position(family.rank_id(white), white, black)
    number = family.rank_id(black) * family.side_count + family.rank_id(white)
    return Position(number, white, black)
