"""Board geometry and the piece vocabulary: files, square names and colours.

Files are numbered from 0 (the a-file). The a1 square is dark, so on the
first rank an even file index is a dark square and an odd one a light square.
"""

from __future__ import annotations

from typing import Final, Literal

Colour = Literal["dark", "light"]

#: Every piece letter a rank may hold, with its English name.
PIECE_NAMES: Final[dict[str, str]] = {
    "K": "king",
    "Q": "queen",
    "R": "rook",
    "B": "bishop",
    "N": "knight",
    "A": "archbishop",
    "C": "chancellor",
}

#: Plural names, for messages such as "3 knights".
PIECE_PLURALS: Final[dict[str, str]] = {p: f"{n}s" for p, n in PIECE_NAMES.items()}

#: Glyphs of White's pieces. A and C use the Unicode knight-bishop and
#: knight-rook symbols (U+1FA50, U+1FA4F).
WHITE_GLYPHS: Final[dict[str, str]] = {
    "K": "\u2654",
    "Q": "\u2655",
    "R": "\u2656",
    "B": "\u2657",
    "N": "\u2658",
    "A": "\U0001fa50",
    "C": "\U0001fa4f",
}

#: Glyphs of Black's pieces.
BLACK_GLYPHS: Final[dict[str, str]] = {
    "K": "\u265a",
    "Q": "\u265b",
    "R": "\u265c",
    "B": "\u265d",
    "N": "\u265e",
    "A": "\U0001fa53",
    "C": "\U0001fa52",
}

MIN_FILES: Final = 4
MAX_FILES: Final = 12
FILE_LETTERS: Final = "abcdefghijkl"


def colour(file: int) -> Colour:
    """The colour of the first-rank square on ``file``.

    >>> colour(0), colour(1)
    ('dark', 'light')
    """
    return "light" if file % 2 else "dark"


def square_name(file: int, rank: int = 1) -> str:
    """The algebraic name of a square.

    >>> square_name(0), square_name(7, 8)
    ('a1', 'h8')
    """
    return f"{FILE_LETTERS[file]}{rank}"


def piece_name(piece: str, count: int = 1) -> str:
    """The English name of a piece letter, plural when ``count`` is not 1.

    >>> piece_name("N", 2)
    'knights'
    """
    return PIECE_NAMES[piece] if count == 1 else PIECE_PLURALS[piece]
