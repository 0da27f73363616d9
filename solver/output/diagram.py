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
#: Games (a family's ``variant``, lower case) played on the points where lines
#: cross rather than on chequered squares: drawn as lines with each piece a
#: lettered token (their pieces are not chess's, whatever letters FEN gives them).
POINTS_GAMES: Final = frozenset({"janggi", "xiangqi"})
#: Conservative widths of a caption's characters, as shares of the font size:
#: wider than DejaVu Sans Bold's capitals and than DejaVu Sans Mono's advance.
SANS_EM: Final = 0.8
MONO_EM: Final = 0.62


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


def board_style(family: Family) -> str:
    """How the family's boards are drawn: ``shogi`` (an SFEN family), ``points``
    (a game of :data:`POINTS_GAMES`, such as Janggi) or ``chess`` (chequered).

    >>> from solver.family import Family
    >>> [board_style(Family.load(n)) for n in ("chess960", "janggi", "myshogi")]
    ['chess', 'points', 'shogi']
    """
    rs = family.ruleset
    if rs.notation == "sfen":
        return "shogi"
    return "points" if (rs.variant or "").lower() in POINTS_GAMES else "chess"


def lettered(piece: str, position: Position) -> bool:
    """Whether ``piece`` is drawn as its letter: A and C (rare glyphs), a
    family's own pieces (a built-in letter it declares anew included), and
    every piece of a shogi (SFEN) family.

    >>> from solver.position import Position
    >>> lettered("A", Position(0, "RNBQKBNR", "RNBQKBNR")), lettered("Q", Position(0, "", ""))
    (True, False)
    """
    upper = piece.upper()
    return (upper in RARE_GLYPHS or upper not in {*WHITE_GLYPHS, "P"}
            or any(upper == letter for letter, _ in position.layout.names)
            or position.layout.notation == "sfen")


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
    points = board_style(family) == "points"  # Janggi: letters on uncoloured points
    text = Text(no_wrap=True, overflow="ignore")
    for part, style in board(squares(position), height(position), shogi, coloured, letters,
                             lambda piece: points or lettered(piece, position),
                             chequered=not points):
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
    return position.layout.notation == "sfen"


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
    style = board_style(family)
    shogi = style == "shogi"
    margin = square // 2
    fen = position_fen(position)
    width = files * square + 2 * margin
    # (a shogi board has no coordinates below it)
    below = ranks * square + margin + (margin // 3 if shogi else margin)
    hand, bottom = _svg_hand(family, position, square, below)
    room = width - 1.5 * margin
    title = caption(family, position)
    line, titles = fit(title, room, square * 0.3, square * 0.24, SANS_EM)
    fen_size, fens = fit(fen, room, square * 0.22, square * 0.18, MONO_EM)
    texts = [f'<g class="caption" font-family="{LABEL_FONTS}" fill="{INK}">']
    y = bottom + line * 0.6
    for i, text in enumerate(titles):
        y += line * 1.2 * (i > 0)
        texts.append(f'<text x="{margin:g}" y="{y:.4g}" font-size="{line:.3g}" '
                     f'font-weight="bold">{escape(text)}</text>')
    y += fen_size * 0.3
    for text in fens:
        y += fen_size * 1.25
        texts.append(f'<text x="{margin:g}" y="{y:.4g}" font-size="{fen_size:.3g}" '
                     f'font-family="{MONO_FONTS}">{escape(text)}</text>')
    texts.append("</g>")
    tall = round(y + fen_size * 0.5 + square * 0.15)
    out = ['<?xml version="1.0" encoding="UTF-8"?>'] if standalone else []
    out += [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" '
        f'height="{tall}" viewBox="0 0 {width} {tall}" role="img">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(fen)}</desc>",
        f'<rect class="frame" x="0" y="0" width="{width}" height="{tall}" fill="{PAPER}"/>',
        *_svg_squares(files, ranks, square, style),
        *_svg_coordinates(files, ranks, square, shogi, ranks * square + 2 * margin),
        *_svg_pieces(family, position, square, style),
        *hand,
        *texts,
        "</svg>",
    ]
    return "\n".join(out) + "\n"


def fit(text: str, room: float, size: float, least: float, em: float) -> tuple[float, list[str]]:
    """The font size and lines that fit ``text`` in ``room`` units, each character
    taken as ``em`` of the size: the size, shrunk down to ``least`` at most,
    then the text wrapped (at spaces where it can, else anywhere).

    >>> fit("a b", 100, 10, 5, 0.5)
    (10, ['a b'])
    >>> fit("abcdefghij", 20, 10, 2, 0.5)
    (4.0, ['abcdefghij'])
    >>> fit("abcdefghij klmnop", 20, 10, 8, 0.5)
    (8, ['abcde', 'fghij', 'klmno', 'p'])
    >>> fit("abcdefgh 0 1", 20, 10, 4, 0.5)
    (4, ['abcdef', 'gh 0 1'])
    """
    from textwrap import wrap

    if len(text) * em * size <= room:
        return size, [text]
    shrunk = room / (len(text) * em)
    if shrunk >= least:
        return shrunk, [text]
    most = max(1, int(room / (em * least)))
    count = len(wrap(text, most, break_long_words=True, break_on_hyphens=False))
    for per in range(-(-len(text) // count), most + 1):  # lines of even length
        lines = wrap(text, per, break_long_words=True, break_on_hyphens=False)
        if len(lines) <= count:
            break
    return least, lines


def _svg_hand(family: Family, position: Position, square: int,
              top: float) -> tuple[list[str], float]:
    """The pieces each side holds in hand, a row a side under the board (none
    without a hand), and where the caption then starts."""
    from xml.sax.saxutils import escape

    from solver.output.pieces import piece_svg
    from solver.report import game_names

    hand = position.board.hand
    if hand is None:
        return [], top
    margin = square // 2
    size = square * 0.6
    font = square * 0.25
    names = game_names(family)
    out = [f'<g class="hand" font-family="{LABEL_FONTS}" font-size="{font:g}" fill="{INK}">']
    for row, (side, white) in enumerate((("White", True), ("Black", False))):
        y = top + row * size * 1.1
        held = ", ".join(names[x] for x in hand) if hand else "empty"
        label = f"{side}'s hand:"
        out.append(f'<text x="{margin:g}" y="{y + size * 0.65:.4g}">{escape(label)}</text>')
        x = margin + (len(label) + 1) * font * SANS_EM * 0.75
        for letter in hand:
            out.append(piece_svg(letter, white, x, y, size,
                                 label=f'class="piece {"white" if white else "black"} '
                                       f'in-hand {names[letter].replace(" ", "-")}"'))
            x += size
        out.append(f'<text x="{x + font * 0.3:.4g}" y="{y + size * 0.65:.4g}" '
                   f'fill="#444444">({escape(held)})</text>')
    out.append("</g>")
    return out, top + 2 * size * 1.1 + square * 0.1


def _svg_squares(files: int, ranks: int, square: int, style: str) -> list[str]:
    """The board's squares (and a shogi board's star points, a points board's lines)."""
    margin = square // 2
    shogi = style == "shogi"
    out = ['<g class="board">']
    if style == "points":  # one wood ground, the squares left unpainted over it
        out.append(f'<rect class="ground" x="{margin}" y="{margin}" width="{files * square}" '
                   f'height="{ranks * square}" fill="{SHOGI_BOARD}"/>')
    for i in range(ranks):
        rank = ranks - i
        for file in range(files):
            tone = "plain" if style != "chess" else square_colour(file, rank)
            fill = {"chess": LIGHT if tone == "light" else DARK, "shogi": SHOGI_BOARD,
                    "points": "none"}[style]
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
    if style == "points":
        out.extend(_svg_points(files, ranks, square))
    out.append("</g>")
    return out


def _svg_points(files: int, ranks: int, square: int) -> list[str]:
    """A points board's lines through the squares' centres, and each side's
    palace (the three middle files of its three nearest ranks) crossed by its
    diagonals, as Janggi and Xiangqi boards are drawn."""
    margin = square // 2
    first, last = margin + square / 2, margin + square / 2

    def at(file: float, row: float) -> tuple[float, float]:
        return first + file * square, last + row * square

    paths = [f"M{at(f, 0)[0]:g} {at(f, 0)[1]:g}V{at(f, ranks - 1)[1]:g}" for f in range(files)]
    paths += [f"M{at(0, r)[0]:g} {at(0, r)[1]:g}H{at(files - 1, r)[0]:g}" for r in range(ranks)]
    if files >= 5 and ranks >= 6:
        mid = files // 2
        for row in (0, ranks - 3):
            (x1, y1), (x2, y2) = at(mid - 1, row), at(mid + 1, row + 2)
            paths += [f"M{x1:g} {y1:g}L{x2:g} {y2:g}", f"M{x2:g} {y1:g}L{x1:g} {y2:g}"]
    return [f'<path class="lines" d="{"".join(paths)}" fill="none" stroke="{INK}" '
            f'stroke-width="{square * 0.025:g}" stroke-linecap="square"/>']


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


def _svg_pieces(family: Family, position: Position, square: int, style: str) -> list[str]:
    """Every piece, drawn as paths (Gote's shogi pieces turned to face Sente, a
    points board's pieces as lettered tokens)."""
    from solver.output.pieces import piece_svg
    from solver.report import game_names

    shogi = style == "shogi"
    margin = square // 2
    out = ['<g class="pieces">']
    names = game_names(family)
    for i, row in enumerate(squares(position)):
        for file, piece in enumerate(row):
            if not piece:
                continue
            white = piece.isupper()
            letter = piece.upper()
            name = names.get(letter) or piece_name(letter, 1)
            label = f'class="piece {"white" if white else "black"} {name.replace(" ", "-")}"'
            out.append(piece_svg(letter, white, margin + file * square, margin + i * square,
                                 square, shogi=shogi, label=label, turned=shogi and not white,
                                 token=style == "points"))
    out.append("</g>")
    return out


def write_svg(path: str | os.PathLike[str], family: Family, position: Position) -> None:
    """Write :func:`board_svg` of ``position`` to ``path`` atomically."""
    from solver.files import write_atomic

    write_atomic(path, board_svg(family, position))
