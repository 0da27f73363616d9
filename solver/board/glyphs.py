"""How pieces and files are written on a board: glyphs and file letters.

Kept apart from :mod:`solver.board.geometry` (and importing nothing) so that
drawing a board in the terminal (:mod:`solver.output.terminal`) starts fast.

>>> WHITE_GLYPHS["K"] + BLACK_GLYPHS["K"] + FILE_LETTERS[:3]
'♔♚abc'
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Final

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

#: The files' letters, a-file first (boards have at most 16 files).
FILE_LETTERS: Final = "abcdefghijklmnop"
