"""Scharnagl's start-position ID for Chess960, exactly as published.

This is the reference the ``check`` command compares the generic numbering
against, so it is written on its own, straight from the formula
``id = 96*N + 16*Q + 4*D + L`` and the KRN table, sharing no code with
:mod:`solver.syntax.steps`.

Source: Reinhard Scharnagl, https://en.wikipedia.org/wiki/Fischer_random_chess_numbering_scheme
"""

from __future__ import annotations

from solver.errors import IdRangeError, RankError, need_int, need_text, quote

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Final

#: The published KRN table: knights, rooks and king on the five squares left.
KRN: Final[tuple[str, ...]] = (
    "NNRKR", "NRNKR", "NRKNR", "NRKRN", "RNNKR",
    "RNKNR", "RNKRN", "RKNNR", "RKNRN", "RKRNN",
)

_LIGHT: Final = (1, 3, 5, 7)  # b, d, f, h
_DARK: Final = (0, 2, 4, 6)  # a, c, e, g


def scharnagl_rank(n: int) -> str:
    """The Chess960 rank with Scharnagl number ``n`` (0..959).

    >>> scharnagl_rank(518)
    'RNBQKBNR'
    """
    if not 0 <= need_int(n, "id") <= 959:
        raise IdRangeError(str(n), n, 960, "chess960")
    n, light = divmod(n, 4)
    n, dark = divmod(n, 4)
    krn, queen = divmod(n, 6)
    row = [""] * 8
    row[_LIGHT[light]] = "B"
    row[_DARK[dark]] = "B"
    free = [i for i in range(8) if not row[i]]
    row[free.pop(queen)] = "Q"
    for square, piece in zip(free, KRN[krn], strict=True):
        row[square] = piece
    return "".join(row)


def scharnagl_id(rank: str) -> int:
    """Scharnagl's number of a valid Chess960 rank in upper-case letters.

    >>> scharnagl_id("QNRBBNKR")
    105

    Raises :class:`~solver.errors.RankError` for anything else.
    """
    need_text(rank, "rank")
    if (len(rank) != 8 or sorted(rank) != sorted("RNBQKBNR") or rank[::2].count("B") != 1
            or not rank.index("R") < rank.index("K") < rank.rindex("R")):
        raise RankError(rank, f"{quote(rank)} is not a Chess960 rank in upper-case letters")
    bishops = [i for i, p in enumerate(rank) if p == "B"]
    light = next(i for i in bishops if i % 2 == 1)
    dark = next(i for i in bishops if i % 2 == 0)
    without_bishops = [p for p in rank if p != "B"]
    queen = without_bishops.index("Q")
    krn = KRN.index("".join(p for p in without_bishops if p != "Q"))
    return 96 * krn + 16 * queen + 4 * _DARK.index(dark) + _LIGHT.index(light)
