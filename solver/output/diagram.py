"""Start boards as diagrams: in the terminal (with rich) and as SVG.

Both draw the whole board the position stands on (``files`` wide and
``ranks`` high, whatever squares the family's pieces fill), a1 dark, with
file letters and rank numbers. Pieces are chess glyphs: White's the outline
glyphs, Black's the solid ones, as in printed diagrams.

The archbishop (A) and chancellor (C) glyphs, U+1FA50/U+1FA4F and
U+1FA53/U+1FA52, are missing from many fonts, so the terminal board writes
them as letters (White's upper case, Black's lower case) and the SVG draws
them as a letter on a disc in the side's colours; neither needs a special
font. The terminal board can draw every piece as a letter
(``letters=True``); the SVG names a list of fonts for the other glyphs.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final

from solver.board.geometry import BLACK_GLYPHS, FILE_LETTERS, WHITE_GLYPHS, colour, piece_name
from solver.notation.fen import position_fen

if TYPE_CHECKING:
    from rich.text import Text

    from solver.family import Family
    from solver.position import Position

#: Square colours (light, dark), the classic brown board.
LIGHT: Final = "#f0d9b5"
DARK: Final = "#b58863"
INK: Final = "#000000"
PAPER: Final = "#ffffff"
#: Fonts tried, in order, for the piece glyphs of the SVG.
GLYPH_FONTS: Final = (
    "'DejaVu Sans', 'Noto Sans Symbols 2', 'Noto Sans Symbols', 'Segoe UI Symbol', "
    "'Apple Symbols', 'Arial Unicode MS', 'FreeSerif', sans-serif"
)
LABEL_FONTS: Final = "'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif"
#: Pieces whose glyphs many fonts lack: drawn as letters on a disc in the SVG.
RARE_GLYPHS: Final = frozenset("AC")
_PAWN: Final = {True: "\u2659", False: "\u265f"}


def squares(position: Position) -> list[list[str]]:
    """The board, rank 8 first: FEN letters (upper case White) or ``""``.

    >>> from solver.position import Position
    >>> board = squares(Position(518, "RNBQKBNR", "RNBQKBNR"))
    >>> board[0][4], board[1][0], board[2][0], board[7][0]
    ('k', 'p', '', 'R')
    """
    rows = position.board.rows(position.white, position.black)
    return [["" if p == " " else p for p in row] for row in rows]


def height(position: Position) -> int:
    """The number of ranks of the position's board."""
    return position.board.ranks


def square_colour(file: int, rank: int) -> str:
    """``dark`` or ``light``: a1 is dark and colours alternate.

    >>> square_colour(0, 1), square_colour(7, 1), square_colour(0, 8)
    ('dark', 'light', 'light')
    """
    return colour(file + rank - 1)


def lettered(piece: str, position: Position) -> bool:
    """Whether ``piece`` is drawn as its letter: A and C (rare glyphs), a
    family's own pieces, and every piece of a shogi (SFEN) family.

    >>> from solver.position import Position
    >>> lettered("A", Position(0, "RNBQKBNR", "RNBQKBNR")), lettered("Q", Position(0, "", ""))
    (True, False)
    """
    layout = position.layout
    return (piece.upper() in RARE_GLYPHS or piece.upper() not in {*WHITE_GLYPHS, "P"}
            or (layout is not None and layout.notation == "sfen"))


def glyph(piece: str) -> str:
    """The chess glyph of a FEN piece letter (upper case: White).

    >>> glyph("K") + glyph("k") + glyph("P") + glyph("p")
    '♔♚♙♟'
    """
    white = piece.isupper()
    if piece.upper() == "P":
        return _PAWN[white]
    return (WHITE_GLYPHS if white else BLACK_GLYPHS)[piece.upper()]


def caption(family: Family, position: Position) -> str:
    """The line naming a diagram: family, ID and ranks.

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> caption(chess960, chess960.position(518))
    'chess960 position 518: RNBQKBNR'
    """
    ranks = position.white
    if family.sides.independent:
        ranks += f" / {position.black.lower()}"
    return f"{family.name} position {position.id}: {ranks}"


# -- terminal ------------------------------------------------------------------------


def board_text(
    family: Family, position: Position, letters: bool = False, coloured: bool = True
) -> Text:
    """The board as rich :class:`~rich.text.Text`, ready to print.

    Each square is three cells wide. ``letters`` draws FEN letters instead of
    glyphs; A and C are always letters, their glyphs being rare in terminal
    fonts. Without colour (``coloured=False``, e.g. output to a file) the
    empty dark squares show a dot so the pattern stays visible.

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> print(board_text(chess960, chess960.position(518), letters=True).plain)
       a  b  c  d  e  f  g  h
    8  r  n  b  q  k  b  n  r  8
    7  p  p  p  p  p  p  p  p  7
    6                          6
    5                          5
    4                          4
    3                          3
    2  P  P  P  P  P  P  P  P  2
    1  R  N  B  Q  K  B  N  R  1
       a  b  c  d  e  f  g  h
    chess960 position 518: RNBQKBNR
    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
    """
    from rich.text import Text

    files = position.board.files
    ranks = height(position)
    pad = len(str(ranks))
    legend = (" " * pad + " " + "".join(f" {FILE_LETTERS[f]} " for f in range(files))).rstrip()
    text = Text(no_wrap=True, overflow="ignore")
    text.append(legend + "\n", style="dim")
    for i, row in enumerate(squares(position)):
        rank = ranks - i
        text.append(f"{rank:>{pad}} ", style="dim")
        for file, piece in enumerate(row):
            light = square_colour(file, rank) == "light"
            if piece:
                rare = lettered(piece, position)
                shown = piece if letters or rare else glyph(piece)
            else:
                shown = " " if coloured or light else "\u00b7"
            style = f"{'bold ' if piece else ''}{INK} on {LIGHT if light else DARK}"
            text.append(f" {shown} ", style=style if coloured else "")
        text.append(f" {rank}\n", style="dim")
    text.append(legend + "\n", style="dim")
    text.append(caption(family, position) + "\n", style="bold")
    text.append(position_fen(position))
    return text


# -- SVG -----------------------------------------------------------------------------


def board_svg(family: Family, position: Position, square: int = 64) -> str:
    """The board as a standalone SVG document, ``square`` pixels a square.

    Every board square is one ``<rect class="square light|dark">`` with a
    ``data-square`` name; it scales (``viewBox``) and carries a title and
    the FEN as its description.

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> svg = board_svg(chess960, chess960.position(518))
    >>> svg.count('class="square '), svg.startswith("<?xml")
    (64, True)
    """
    from xml.sax.saxutils import escape, quoteattr  # only when drawing SVG

    files = position.board.files
    ranks = height(position)
    margin = square // 2
    width = files * square + 2 * margin
    tall = ranks * square + 2 * margin
    title = caption(family, position)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" '
        f'height="{tall}" viewBox="0 0 {width} {tall}" role="img">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(position_fen(position))}</desc>",
        f'<rect class="frame" x="0" y="0" width="{width}" height="{tall}" fill="{PAPER}"/>',
        '<g class="board">',
    ]
    for i in range(ranks):
        rank = ranks - i
        for file in range(files):
            tone = square_colour(file, rank)
            x, y = margin + file * square, margin + i * square
            out.append(
                f'<rect class="square {tone}" data-square="{FILE_LETTERS[file]}{rank}" '
                f'x="{x}" y="{y}" width="{square}" height="{square}" '
                f'fill="{LIGHT if tone == "light" else DARK}"/>'
            )
    out.append("</g>")
    out.append(f'<g class="coordinates" font-family="{LABEL_FONTS}" '
               f'font-size="{square * 0.3:g}" fill="#444444" text-anchor="middle">')
    for file in range(files):
        mid = margin + file * square + square / 2
        for top in (margin * 0.7, tall - margin * 0.3):
            out.append(f'<text x="{mid:g}" y="{top:g}">{FILE_LETTERS[file]}</text>')
    for i in range(ranks):
        base = margin + i * square + square / 2 + square * 0.1
        for left in (margin / 2, width - margin / 2):
            out.append(f'<text x="{left:g}" y="{base:g}">{ranks - i}</text>')
    out.append("</g>")
    out.append(f'<g class="pieces" font-family={quoteattr(GLYPH_FONTS)} '
               f'font-size="{square * 0.82:g}" text-anchor="middle">')
    for i, row in enumerate(squares(position)):
        for file, piece in enumerate(row):
            if piece:
                out.extend(_svg_piece(piece, margin + file * square, margin + i * square, square,
                                      position))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_piece(piece: str, x: int, y: int, square: int, position: Position) -> list[str]:
    from xml.sax.saxutils import quoteattr

    white = piece.isupper()
    names = dict(position.layout.names) if position.layout is not None else {}
    name = "pawn" if piece.upper() == "P" else piece_name(piece.upper(), 1, names)
    label = f'class="piece {"white" if white else "black"} {name.replace(" ", "-")}"'
    cx = x + square / 2
    if lettered(piece, position):
        cy = y + square / 2
        fill, ink = (PAPER, INK) if white else (INK, PAPER)
        layout = position.layout
        if not white and layout is not None and layout.notation == "sfen":
            # shogi diagrams show Gote's pieces upside down, facing Sente
            label += f' transform="rotate(180 {cx:g} {cy:g})"'
        return [
            f"<g {label}>",
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{square * 0.34:g}" fill="{fill}" '
            f'stroke="{INK}" stroke-width="{square * 0.04:g}"/>',
            f'<text x="{cx:g}" y="{cy + square * 0.15:g}" font-family={quoteattr(LABEL_FONTS)} '
            f'font-size="{square * 0.42:g}" font-weight="bold" fill="{ink}">'
            f"{piece.upper()}</text>",
            "</g>",
        ]
    base = y + square * 0.8
    solid = glyph(piece.lower())
    if white:
        # White's outline glyph in ink over the solid glyph in white, widened
        # by a white stroke, so the piece reads white on either square.
        return [
            f"<g {label}>",
            f'<text x="{cx:g}" y="{base:g}" fill="{PAPER}" stroke="{PAPER}" '
            f'stroke-width="{square * 0.05:g}" stroke-linejoin="round">{solid}</text>',
            f'<text x="{cx:g}" y="{base:g}" fill="{INK}">{glyph(piece)}</text>',
            "</g>",
        ]
    return [f'<g {label}><text x="{cx:g}" y="{base:g}" fill="{INK}">{solid}</text></g>']


def write_svg(path: str | os.PathLike[str], family: Family, position: Position) -> None:
    """Write :func:`board_svg` of ``position`` to ``path`` atomically."""
    from solver.files import write_atomic

    write_atomic(path, board_svg(family, position))
