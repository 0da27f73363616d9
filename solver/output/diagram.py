"""Start boards as diagrams: in the terminal (with rich) and as SVG.

Both draw the whole board the position stands on (``files`` wide and
``ranks`` high, whatever squares the family's pieces fill), a1 dark, with
file letters and rank numbers. In the terminal pieces are chess glyphs:
White's the outline glyphs, Black's the solid ones, as in printed diagrams.

The archbishop (A) and chancellor (C) glyphs, U+1FA50/U+1FA4F and
U+1FA53/U+1FA52, are missing from many fonts, so the terminal board writes
them as letters (White's upper case, Black's lower case); it can draw every
piece as a letter (``letters=True``). The SVG draws every piece as paths
(:mod:`solver.output.pieces`: no font needed for any piece), shogi on a
shogi board, and puts a caption under the board: the family, the
position's number, its rank and its FEN.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final

from solver.board.drawing import DARK, INK, LIGHT, SHOGI_BOARD, board
from solver.board.geometry import colour, piece_name
from solver.board.glyphs import FILE_LETTERS, WHITE_GLYPHS
from solver.notation.fen import position_fen

if TYPE_CHECKING:
    from rich.text import Text

    from solver.family import Family
    from solver.position import Position

PAPER: Final = "#ffffff"
LABEL_FONTS: Final = "'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif"
MONO_FONTS: Final = "'DejaVu Sans Mono', Menlo, Consolas, monospace"
#: Pieces whose glyphs many fonts lack: letters in the terminal.
RARE_GLYPHS: Final = frozenset("AC")


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
    return f"{family.name} position {number_text(family, position)}: {ranks}"


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

    shogi = shogi_board(position)
    text = Text(no_wrap=True, overflow="ignore")
    for part, style in board(squares(position), height(position), shogi, coloured, letters,
                             lambda piece: lettered(piece, position)):
        text.append(part, style=style)
    text.append(caption(family, position) + "\n", style="bold")
    text.append(position_fen(position))
    return text


# -- SVG -----------------------------------------------------------------------------


def number_text(family: Family, position: Position) -> str:
    """How diagrams and pages write the position's number (one place to re-point
    when a family gets several numberings).

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> number_text(chess960, chess960.position(518))
    '518'
    """
    return str(position.id)


def shogi_board(position: Position) -> bool:
    """Whether ``position`` is drawn as shogi: uncoloured squares, koma, shogi coordinates."""
    layout = position.layout
    return layout is not None and layout.notation == "sfen"


def board_svg(family: Family, position: Position, square: int = 64,
              standalone: bool = True) -> str:
    """The board as an SVG document, ``square`` pixels a square, with a caption
    (family, number, rank and FEN) under it.

    Every board square is one ``<rect class="square light|dark">`` (``square
    plain`` on a shogi board) with a ``data-square`` name; it scales
    (``viewBox``) and carries a title and the FEN as its description. Pieces
    are paths (:mod:`solver.output.pieces`), not font glyphs. A shogi family
    is drawn on a shogi board: one wood colour, lines, the four star points,
    files numbered 9..1 from the left and ranks lettered a..i from the top, as
    SFEN and USI name them. ``standalone=False`` leaves out the XML declaration
    (for a page that holds the SVG).

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> svg = board_svg(chess960, chess960.position(518))
    >>> pieces = svg.split('<g class="pieces">')[1].split('<g class="caption"')[0]
    >>> svg.count('class="square '), svg.startswith("<?xml"), "<text" in pieces
    (64, True, False)
    """
    from xml.sax.saxutils import escape  # only when drawing SVG

    files = position.board.files
    ranks = height(position)
    shogi = shogi_board(position)
    margin = square // 2
    fen = position_fen(position)
    width = files * square + 2 * margin
    # (a shogi board has no coordinates below it)
    bottom = ranks * square + margin + (margin // 3 if shogi else margin)
    line = square * 0.3
    fen_size = min(square * 0.22, 1.75 * (width - square * 0.3) / max(len(fen), 1))
    tall = round(bottom + line * 1.1 + fen_size * 1.6 + square * 0.15)
    title = caption(family, position)
    out = ['<?xml version="1.0" encoding="UTF-8"?>'] if standalone else []
    out += [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" '
        f'height="{tall}" viewBox="0 0 {width} {tall}" role="img">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(fen)}</desc>",
        f'<rect class="frame" x="0" y="0" width="{width}" height="{tall}" fill="{PAPER}"/>',
        *_svg_squares(files, ranks, square, shogi),
        *_svg_coordinates(files, ranks, square, shogi, bottom),
        *_svg_pieces(position, square, shogi),
        f'<g class="caption" font-family="{LABEL_FONTS}" fill="{INK}">',
        f'<text x="{margin:g}" y="{bottom + line * 0.6:g}" '
        f'font-size="{line:g}" font-weight="bold">{escape(title)}</text>',
        f'<text x="{margin:g}" y="{bottom + line * 0.6 + fen_size * 1.5:g}" '
        f'font-size="{fen_size:.3g}" font-family="{MONO_FONTS}">{escape(fen)}</text>',
        "</g>",
        "</svg>",
    ]
    return "\n".join(out) + "\n"


def _svg_squares(files: int, ranks: int, square: int, shogi: bool) -> list[str]:
    """The board's squares (and a shogi board's star points)."""
    margin = square // 2
    out = ['<g class="board">']
    for i in range(ranks):
        rank = ranks - i
        for file in range(files):
            tone = "plain" if shogi else square_colour(file, rank)
            fill = SHOGI_BOARD if shogi else LIGHT if tone == "light" else DARK
            x, y = margin + file * square, margin + i * square
            edge = f' stroke="{INK}" stroke-width="{square * 0.02:g}"' if shogi else ""
            out.append(
                f'<rect class="square {tone}" data-square="{FILE_LETTERS[file]}{rank}" '
                f'x="{x}" y="{y}" width="{square}" height="{square}" fill="{fill}"{edge}/>'
            )
    if shogi and files == 9 and ranks == 9:  # the star points
        out.extend(f'<circle class="star" cx="{margin + fx * square}" '
                   f'cy="{margin + fy * square}" r="{square * 0.06:g}" fill="{INK}"/>'
                   for fx in (3, 6) for fy in (3, 6))
    out.append("</g>")
    return out


def _svg_coordinates(files: int, ranks: int, square: int, shogi: bool,
                     bottom: float) -> list[str]:
    """File and rank names around the board: chess's a.. and 1.., or shogi's
    files 9..1 above and ranks a..i at the right (as SFEN and USI name them)."""
    margin = square // 2
    width = files * square + 2 * margin
    out = [f'<g class="coordinates" font-family="{LABEL_FONTS}" '
           f'font-size="{square * 0.3:g}" fill="#444444" text-anchor="middle">']
    for file in range(files):
        mid = margin + file * square + square / 2
        if shogi:
            out.append(f'<text x="{mid:g}" y="{margin * 0.7:g}">{files - file}</text>')
            continue
        for top in (margin * 0.7, bottom - margin * 0.3):
            out.append(f'<text x="{mid:g}" y="{top:g}">{FILE_LETTERS[file]}</text>')
    for i in range(ranks):
        base = margin + i * square + square / 2 + square * 0.1
        if shogi:
            out.append(f'<text x="{width - margin / 2:g}" y="{base:g}">{FILE_LETTERS[i]}</text>')
            continue
        for left in (margin / 2, width - margin / 2):
            out.append(f'<text x="{left:g}" y="{base:g}">{ranks - i}</text>')
    out.append("</g>")
    return out


def _svg_pieces(position: Position, square: int, shogi: bool) -> list[str]:
    """Every piece, drawn as paths (Gote's shogi pieces turned to face Sente)."""
    from solver.output.pieces import piece_svg

    margin = square // 2
    out = ['<g class="pieces">']
    names = dict(position.layout.names) if position.layout is not None else {}
    for i, row in enumerate(squares(position)):
        for file, piece in enumerate(row):
            if not piece:
                continue
            white = piece.isupper()
            letter = piece.upper()
            name = "pawn" if letter == "P" else piece_name(letter, 1, names)
            label = f'class="piece {"white" if white else "black"} {name.replace(" ", "-")}"'
            out.append(piece_svg(letter, white, margin + file * square, margin + i * square,
                                 square, shogi=shogi, label=label, turned=shogi and not white))
    out.append("</g>")
    return out


def write_svg(path: str | os.PathLike[str], family: Family, position: Position) -> None:
    """Write :func:`board_svg` of ``position`` to ``path`` atomically."""
    from solver.files import write_atomic

    write_atomic(path, board_svg(family, position))
