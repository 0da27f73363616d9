"""A board drawn as terminal text: each square three cells wide, coordinates
round it, as ``(text, style)`` pieces (a style in Rich's words, or ``""``).

:func:`~solver.output.diagram.board_text` makes Rich text of them; ``chess960
show`` writes their text alone when its output takes no colour, without
importing Rich or loading a family (:func:`chess960_board`). Nothing here
imports more than the glyphs, so that path starts fast.

>>> print(plain(board([list("rk"), list("RK")], 2, False, True, False,
...                   lambda piece: False)), end="")
   a  b
2  ♜  ♚  2
1  ♖  ♔  1
   a  b
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver.board.glyphs import BLACK_GLYPHS, FILE_LETTERS, WHITE_GLYPHS

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Final

#: Square colours (light, dark), the classic brown board.
LIGHT: Final = "#f0d9b5"
DARK: Final = "#b58863"
#: A shogi board's squares, all alike (a shade darker than the pieces' wood).
SHOGI_BOARD: Final = "#e8c47f"
INK: Final = "#000000"
_PAWN: Final = {True: "\u2659", False: "\u265f"}

Piece = tuple[str, str]


def glyph(piece: str) -> str:
    """The chess glyph of a FEN piece letter (upper case: White).

    >>> glyph("K") + glyph("k") + glyph("P") + glyph("p")
    '♔♚♙♟'
    """
    white = piece.isupper()
    if piece.upper() == "P":
        return _PAWN[white]
    return (WHITE_GLYPHS if white else BLACK_GLYPHS)[piece.upper()]


def board(rows: Sequence[Sequence[str]], ranks: int, shogi: bool, coloured: bool,
          letters: bool, lettered: Callable[[str], bool], chequered: bool = True) -> list[Piece]:
    """The board's pieces of text, rank ``ranks`` first; ``rows`` hold FEN letters
    (upper case White) or ``""``. ``letters`` draws FEN letters instead of
    glyphs, and ``lettered(piece)`` says which pieces are always letters.
    Without colour the empty dark squares (every empty square of a shogi
    board, or of a board not ``chequered``, such as Janggi's points) show a
    dot, so the pattern stays visible."""
    files = len(rows[0]) if rows else 0
    pad = len(str(ranks))
    names = [str(files - f) if shogi else FILE_LETTERS[f] for f in range(files)]
    legend = (" " * pad + " " + "".join(f" {n} " for n in names)).rstrip()
    out: list[Piece] = [(legend + "\n", "dim")]
    for i, row in enumerate(rows):
        rank = ranks - i
        out.append((" " * (pad + 1) if shogi else f"{rank:>{pad}} ", "dim"))
        for file, piece in enumerate(row):
            # a1 is dark; a shogi board's squares are all alike
            light = (file + rank) % 2 == 0 and chequered and not shogi
            if piece:
                shown = piece if letters or lettered(piece) else glyph(piece)
            else:
                shown = " " if coloured or light else "\u00b7"
            back = SHOGI_BOARD if shogi or not chequered else LIGHT if light else DARK
            style = f"{'bold ' if piece else ''}{INK} on {back}"
            out.append((f" {shown} ", style if coloured else ""))
        out.append((f" {FILE_LETTERS[i] if shogi else rank}\n", "dim"))
    if not shogi:  # (shogi names files above the board only)
        out.append((legend + "\n", "dim"))
    return out


def plain(pieces: Sequence[Piece]) -> str:
    """The pieces' text, without their styles."""
    return "".join(text for text, _ in pieces)


def chess960_board(number: int, rank: str, letters: bool) -> str:
    """Chess960's position ``number`` (its rank ``rank``) as ``chess960 show`` writes
    it without colour: the board, the caption and the X-FEN, which for a
    Chess960 rank always has ``KQkq`` (its rooks are the outermost).

    >>> print(chess960_board(518, "RNBQKBNR", True).splitlines()[-2])
    chess960 position 518: RNBQKBNR
    """
    black = rank.lower()
    rows = [list(black), ["p"] * 8, *([""] * 8 for _ in range(4)), ["P"] * 8, list(rank)]
    drawn = plain(board(rows, 8, False, False, letters, lambda piece: False))
    return (f"{drawn}chess960 position {number}: {rank}\n"
            f"{black}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1\n")
