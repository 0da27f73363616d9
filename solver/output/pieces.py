"""Piece shapes for the SVG boards: drawn as paths, never as font glyphs.

Every shape here was drawn for this project (it is under the project's own
licence, like the code; no third-party artwork is shipped). Each chess piece
is a few simple paths in a 45 x 45 box: White's filled white with a black
outline, Black's filled black with white detail lines, so a board looks the
same in every viewer whatever fonts it has.

* K Q R B N P: Staunton-like silhouettes.
* A (archbishop: bishop + knight) and C (chancellor: rook + knight): the
  bishop's mitre or the rook's tower beside a knight's head on one base, the
  way fairy-chess diagrams draw compound pieces.
* Shogi (a family written as SFEN): every piece is a koma, the five-sided
  wooden tile, pointing at the opponent, with its letter (K G S N L B R P,
  as SFEN writes them) drawn in strokes from :data:`STROKES`, not typed.
* A game played on the points (Janggi): every piece is a token, the
  octagonal disc such games use, its FEN letter in strokes, White's (Cho's)
  drawn in blue and Black's (Han's) in red, the general largest and the
  soldiers smallest; no chess shape stands for a piece it is not.
* Any other letter a rule file names is drawn as a disc with the letter in
  strokes when :data:`STROKES` has it, else the letter as text (the only
  case that needs a font; no bundled family has one).

:func:`piece_svg` returns one ``<g>`` drawing a piece on a square.
"""

from __future__ import annotations

from typing import Final

#: The box every shape is drawn in.
BOX: Final = 45.0
INK: Final = "#000000"
PAPER: Final = "#ffffff"
#: The koma's wood and the shogi board's.
WOOD: Final = "#f2d49b"

#: Each chess shape: (filled paths, detail lines). Filled paths take the side's
#: colour with a black outline; detail lines are drawn in the other colour.
_BASE = "M10 39.5h25v-3.5h-25zM12.5 36v-3.5h20v3.5"
SHAPES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "P": (("M22.5 8.5a4.5 4.5 0 0 0-3 7.9a6 6 0 0 0-1.5 9.4C14.5 27.5 12.5 31 12.5 36h20"
           "c0-5-2-8.5-5.5-10.2a6 6 0 0 0-1.5-9.4a4.5 4.5 0 0 0-3-7.9z",
           "M10.5 39.5h24v-3.5h-24z"),
          ()),
    "R": ((_BASE,
           "M14.5 32.5l1.5-15h13l1.5 15z",
           "M12 17.5v-8h4.5v3h4v-3h4v3h4v-3h4.5v8z"),
          ("M16 19.5h13", "M15 30.5h15")),
    "B": ((_BASE,
           "M15.5 32.5c-1-2 0-3.5 1.5-4.5c-5-5-3-12 5.5-17c8.5 5 10.5 12 5.5 17"
           "c1.5 1 2.5 2.5 1.5 4.5z",
           "M25 8.5a2.5 2.5 0 1 1-5 0a2.5 2.5 0 1 1 5 0z"),
          ("M25.5 15l-4.5 7", "M17.5 28.5h10")),
    "N": (("M12 36.5c0-6 3-9.5 8-12.5c1-2 1.5-3.5 1-5.5c-1.5 2-4 3-6 4.5"
           "c-2 2-3.5 4.5-6 4c-2-.5-2.5-2.5-1.5-4.5c3-5 6-9.5 9.5-12.5l-.5-3.5"
           "l3 2l2-3.5l1.5 3.5c8 2 13.5 10 12.5 28.5z",
           "M10 39.5h25v-3.5h-25z"),
          ("M15.5 15.5l.01 0", "M24 12c6 2.5 9.5 9 9.5 22")),
    "Q": ((_BASE,
           "M13 32.5l-4-17l6 9l1-12l5 11.5l1.5-13l1.5 13l5-11.5l1 12l6-9l-4 17z",
           "M11.2 15.5a2.2 2.2 0 1 1-4.4 0a2.2 2.2 0 1 1 4.4 0z",
           "M18.2 12a2.2 2.2 0 1 1-4.4 0a2.2 2.2 0 1 1 4.4 0z",
           "M24.7 10a2.2 2.2 0 1 1-4.4 0a2.2 2.2 0 1 1 4.4 0z",
           "M31.2 12a2.2 2.2 0 1 1-4.4 0a2.2 2.2 0 1 1 4.4 0z",
           "M38.2 15.5a2.2 2.2 0 1 1-4.4 0a2.2 2.2 0 1 1 4.4 0z"),
          ("M13.5 29h18",)),
    "K": ((_BASE,
           "M13 32.5c-6-5-5.5-14 1.5-14.5c4-.3 7 2.5 8 6.5c1-4 4-6.8 8-6.5"
           "c7 .5 7.5 9.5 1.5 14.5z",
           "M22.5 24.5c-1.5-3-3-6-3-8c0-2 1.5-3.5 3-4.5c1.5 1 3 2.5 3 4.5c0 2-1.5 5-3 8z",
           "M21.2 4h2.6v3h3v2.6h-3v3h-2.6v-3h-3v-2.6h3z"),
          ("M14 29h17",)),
}

#: Letters drawn in strokes on a 10 x 14 grid (y downwards): the shogi
#: pieces' SFEN letters and the fallback for other letters.
STROKES: Final[dict[str, str]] = {
    "A": "M0 14L5 0L10 14M2 9h6",
    "B": "M0 0v14h6c5 0 5-7 0-7h-6M0 0h5.5c4 0 4 7 0 7",
    "C": "M10 3c-2-4-10-4-10 4s8 8 10 4",
    "D": "M0 0v14h4c8 0 8-14 0-14z",
    "E": "M10 0h-10v14h10M0 7h7",
    "F": "M10 0h-10v14M0 7h7",
    "G": "M10 3c-2-4-10-4-10 4s8 8 10 4v-4h-4",
    "H": "M0 0v14M10 0v14M0 7h10",
    "I": "M2 0h6M5 0v14M2 14h6",
    "J": "M3 0h7M8 0v10c0 5-7 5-8 1",
    "K": "M0 0v14M10 0l-10 9M3.5 6l6.5 8",
    "L": "M0 0v14h10",
    "M": "M0 14v-14l5 9l5-9v14",
    "N": "M0 14v-14l10 14v-14",
    "O": "M5 0c-6.5 0-6.5 14 0 14s6.5-14 0-14z",
    "P": "M0 14v-14h6c5 0 5 7 0 7h-6",
    "Q": "M5 0c-6.5 0-6.5 14 0 14s6.5-14 0-14zM6 9l4 5",
    "R": "M0 14v-14h6c5 0 5 7 0 7h-6M5 7l5 7",
    "S": "M9.5 2.5c-1.5-3.5-9-3-9 1c0 4.5 9.5 3.5 9.5 7.5c0 4-8 4.5-10 .5",
    "T": "M0 0h10M5 0v14",
    "U": "M0 0v9c0 6.5 10 6.5 10 0v-9",
    "V": "M0 0l5 14l5-14",
    "W": "M0 0l2.5 14l2.5-9l2.5 9l2.5-14",
    "X": "M0 0l10 14M10 0l-10 14",
    "Y": "M0 0l5 7l5-7M5 7v7",
    "Z": "M0 0h10l-10 14h10",
}

#: The koma's outline, pointing up (at the opponent of the side it belongs to).
KOMA: Final = "M22.5 3.5l11 4.5l3.5 33h-29l3.5-33z"
#: Koma sizes: the kings largest, pawns smallest (a scale of the box).
KOMA_SCALE: Final[dict[str, float]] = {"K": 1.0, "R": 0.96, "B": 0.96, "G": 0.93, "S": 0.93,
                                       "N": 0.9, "L": 0.88, "P": 0.84}


#: A points game's token: an octagon, and its sizes (a scale of the box).
TOKEN_INK: Final[dict[bool, str]] = {True: "#1d4e89", False: "#b42318"}
TOKEN_SCALE: Final[dict[str, float]] = {"K": 1.0, "A": 0.8, "P": 0.78}


def _fmt(value: float) -> str:
    return f"{value:.4g}"


def _chess(letter: str, white: bool) -> list[str]:
    """The paths of a chess shape in its side's colours."""
    filled, details = SHAPES[letter]
    fill, detail = (PAPER, INK) if white else (INK, PAPER)
    out = [f'<path d="{d}" fill="{fill}" stroke="{INK}" stroke-width="1.5" '
           f'stroke-linejoin="round"/>' for d in filled]
    if letter == "N":  # the eye is a dot in the other colour, the mane line too
        out.extend(f'<path d="{d}" fill="none" stroke="{detail}" stroke-width="2" '
                   f'stroke-linecap="round"/>' for d in details)
    else:
        out.extend(f'<path d="{d}" fill="none" stroke="{detail}" stroke-width="1.5" '
                   f'stroke-linecap="round"/>' for d in details)
    return out


def _compound(main: str, white: bool) -> list[str]:
    """A compound piece: ``main`` (B or R) at the left, a knight's head at the right."""
    fill = PAPER if white else INK
    return ['<g transform="translate(-3 1.5) scale(0.8)">', *_chess(main, white), "</g>",
            '<g transform="translate(11.5 1.5) scale(0.8)">', *_chess("N", white), "</g>",
            f'<path d="M6 40h33v-4h-33z" fill="{fill}" stroke="{INK}" stroke-width="1.5" '
            'stroke-linejoin="round"/>']


def _letter(letter: str, x: float, y: float, height: float, colour: str,
            weight: float) -> str:
    """``letter`` in strokes, its box's top left at (``x``, ``y``), ``height`` tall."""
    scale = height / 14
    return (f'<path d="{STROKES[letter]}" transform="translate({_fmt(x)} {_fmt(y)}) '
            f'scale({_fmt(scale)})" fill="none" stroke="{colour}" '
            f'stroke-width="{_fmt(weight / scale)}" stroke-linecap="round" '
            f'stroke-linejoin="round"/>')


def _koma(letter: str) -> list[str]:
    """A shogi piece pointing up, its letter in strokes."""
    scale = KOMA_SCALE.get(letter, 0.9)
    shift = BOX * (1 - scale) / 2
    out = [f'<g transform="translate({_fmt(shift)} {_fmt(shift * 1.6)}) scale({_fmt(scale)})">',
           f'<path d="{KOMA}" fill="{WOOD}" stroke="{INK}" stroke-width="1.2" '
           f'stroke-linejoin="round"/>']
    if letter in STROKES:
        out.append(_letter(letter, 17.5, 15, 18, INK, 2.6))
    else:
        out.append(_text_letter(letter, 22.5, 31, 18, INK))
    out.append("</g>")
    return out


def _text_letter(letter: str, x: float, base: float, size: float, colour: str) -> str:
    from xml.sax.saxutils import escape

    return (f'<text x="{_fmt(x)}" y="{_fmt(base)}" font-family="sans-serif" '
            f'font-size="{_fmt(size)}" font-weight="bold" text-anchor="middle" '
            f'fill="{colour}">{escape(letter)}</text>')


def _disc(letter: str, white: bool) -> list[str]:
    """A piece with no shape of its own: its letter on a disc in the side's colours."""
    fill, ink = (PAPER, INK) if white else (INK, PAPER)
    out = [f'<circle cx="22.5" cy="22.5" r="15" fill="{fill}" stroke="{INK}" '
           f'stroke-width="1.8"/>']
    if letter in STROKES:
        out.append(_letter(letter, 17.5, 15, 15, ink, 2.4))
    else:
        out.append(_text_letter(letter, 22.5, 28.5, 17, ink))
    return out


def _token(letter: str, white: bool) -> list[str]:
    """A points game's piece: an octagon in the side's ink, its letter inside."""
    from math import cos, pi, sin

    scale = TOKEN_SCALE.get(letter, 0.9)
    ink = TOKEN_INK[white]
    radius = 19 * scale
    corners = " ".join(f"{_fmt(22.5 + radius * cos(pi / 8 + k * pi / 4))},"
                       f"{_fmt(22.5 + radius * sin(pi / 8 + k * pi / 4))}" for k in range(8))
    out = [f'<polygon points="{corners}" fill="{PAPER}" stroke="{ink}" '
           f'stroke-width="2.2" stroke-linejoin="round"/>']
    tall = 16 * scale
    if letter in STROKES:
        out.append(_letter(letter, 22.5 - tall * 5 / 14, 22.5 - tall / 2, tall, ink, 2.6))
    else:
        out.append(_text_letter(letter, 22.5, 22.5 + tall * 0.4, tall, ink))
    return out


#: Letters drawn with a chess piece's figure: Fairy-Stockfish's met (``F``,
#: Sittuyin's and Makruk's queen) as a queen, its elephant (``S``) as a bishop.
STAND_INS: Final[dict[str, str]] = {"F": "Q", "S": "B"}


def shape(letter: str, white: bool, shogi: bool = False, token: bool = False) -> list[str]:
    """The SVG elements of a piece drawn in the 45 x 45 box, pointing up.

    >>> any("<text" in line for line in shape("A", True))
    False
    >>> shape("G", True, shogi=True)[1].startswith('<path d="M22.5 3.5')
    True
    >>> shape("C", False, token=True)[0].startswith("<polygon")
    True
    """
    if shogi:
        return _koma(letter)
    if token:
        return _token(letter, white)
    if letter in SHAPES:
        return _chess(letter, white)
    if letter in STAND_INS:
        return _chess(STAND_INS[letter], white)
    if letter == "A":
        return _compound("B", white)
    if letter == "C":
        return _compound("R", white)
    return _disc(letter, white)


def piece_svg(letter: str, white: bool, x: float, y: float, square: float, *,
              shogi: bool = False, label: str = "", turned: bool = False,
              token: bool = False) -> str:
    """One ``<g>`` drawing the piece ``letter`` (upper case) on the square whose
    top left corner is (``x``, ``y``), ``square`` wide; ``turned`` draws it
    upside down (Gote's shogi pieces face Sente); ``token`` draws a points
    game's token. ``label`` is put in the
    group's attributes (such as its class).

    >>> svg = piece_svg("K", True, 0, 0, 45, label='class="piece white king"')
    >>> svg.startswith('<g class="piece white king"'), svg.count("<path")
    (True, 5)
    """
    scale = square / BOX
    inner = "\n".join(shape(letter, white, shogi, token))
    head = f"<g {label}" if label else "<g"
    if turned:
        cx, cy = x + square / 2, y + square / 2
        head += f' transform="rotate(180 {_fmt(cx)} {_fmt(cy)})"'
    return (f'{head}>\n<g transform="translate({_fmt(x)} {_fmt(y)}) scale({_fmt(scale)})">\n'
            f"{inner}\n</g>\n</g>")
