"""Start FEN lines read by their two back ranks, many at a time (``chess960 id -``).

A start FEN on the classical board written the common way (both back ranks
of the five chess pieces, White to move, no en passant square, counters or
an ``id`` operation) names its position by its two back ranks and its
castling field alone: :func:`ranks_answer` reads such a line with a few
byte comparisons, each rank's answer remembered.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["RANK_MEMO", "Quick", "ranks_answer"]

#: The longest input line (or line end) whose answer is remembered, in bytes.
MEMO_LINE = 256

#: Back ranks (and line ends) whose answers :func:`ranks_answer` remembers.
RANK_MEMO = 1 << 16

#: What stands between Black's back rank and White's in a classical start FEN.
_MIDDLE = b"/pppppppp/8/8/8/8/PPPPPPPP/"
_BLACK_ROW = re.compile(rb"[kqrbn]{8}")
_WHITE_ROW = re.compile(rb"[KQRBN]{8}")
#: What a start FEN written the common way has after White's back rank: its
#: castling field (group 1), then counters or an ``id`` operation.
_FEN_TAIL = re.compile(rb' w ([A-Za-z]{1,4}|-) -(?: [0-9]{1,9} [0-9]{1,9})?(?: id "[^";]*";?)?')

Quick = Callable[[bytes | None], str | None]


def ranks_answer(rank_id: Callable[[str], int | None], count: int | None,
                 rights: Callable[[str], tuple[str, str]] | None = None) -> Quick:
    """``chess960 id``'s answer to a stdin line that is a start FEN on the
    classical board written the common way (both back ranks of the five chess
    pieces, White to move, no en passant square, counters or an ``id``
    operation, castling as the rooks give it in X-FEN or Shredder-FEN), from
    its two back ranks; ``None`` for any other line (the one-at-a-time path
    answers it, or says what is wrong). ``rank_id`` is a back rank's ID
    (``None``: not one of the family's); ``count`` the IDs of one side of a
    family with independent sides (``None``: Black mirrors White); ``rights``
    a rank's castling rights, X-FEN's and Shredder-FEN's (by default
    :func:`~solver.notation.castling.side_rights`'s). Each rank's
    ID and rights, and each line end, are remembered (:data:`RANK_MEMO` of each).

    >>> from solver.numbering.shortcut import arithmetic_id
    >>> answer = ranks_answer(arithmetic_id, None)
    >>> answer(b"qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1")
    '105\\n'
    >>> answer(b"qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQk - 0 1") is None
    True
    """
    whites: dict[bytes, tuple[int, str, str] | None] = {}  # rows in upper case
    blacks: dict[bytes, tuple[int, str, str] | None] = {}  # rows in lower case
    tails: dict[bytes, str | None] = {}

    def side(row: bytes, white: bool) -> tuple[int, str, str] | None:
        """A back rank's ID and rights (X-FEN, Shredder-FEN) as White's (upper
        case) or Black's (lower case) row, or None."""
        known = whites if white else blacks
        if not (_WHITE_ROW if white else _BLACK_ROW).fullmatch(row):
            if len(known) < RANK_MEMO:
                known[row] = None
            return None
        rank = row.decode("ascii").upper()
        number = rank_id(rank)
        upper = lower = None
        if number is not None:
            xfen, shredder = (rights or _rights)(rank)
            upper = (number, xfen, shredder)
            lower = (number, xfen.lower(), shredder.lower())
        if len(whites) < RANK_MEMO and len(blacks) < RANK_MEMO:  # the rank as either side's
            whites[row.upper()], blacks[row.lower()] = upper, lower
        return upper if white else lower

    def tail(end: bytes) -> str | None:
        matched = _FEN_TAIL.fullmatch(end)
        found = matched.group(1).decode("ascii") if matched is not None else None
        if len(tails) < RANK_MEMO and len(end) <= MEMO_LINE:
            tails[end] = found
        return found

    def answer(line: bytes | None) -> str | None:
        if line is None or line[8:35] != _MIDDLE:
            return None
        try:
            black, white, castling = blacks[line[:8]], whites[line[35:43]], tails[line[43:]]
        except KeyError:
            black, white, castling = side(line[:8], False), side(line[35:43], True), \
                tail(line[43:])
        if black is None or white is None or castling is None:
            return None
        if count is None:
            if black[0] != white[0]:  # not mirrored: the family says how
                return None
            number = white[0]
        else:
            number = white[0] * count + black[0]
        if castling != ((white[1] + black[1]) or "-") and \
                castling != ((white[2] + black[2]) or "-"):
            return None
        return f"{number}\n"

    return answer


def _rights(rank: str) -> tuple[str, str]:
    """A back rank's castling rights in X-FEN and in Shredder-FEN."""
    from solver.notation.castling import side_rights

    return side_rights(rank), side_rights(rank, True)
