"""Reading and writing ranks and position IDs.

A rank is written as piece letters (``RNBQKBNR``), in any case, or as chess
glyphs of either colour (``♖♘♗♕♔♗♘♖``), with or without spaces between the
pieces. Internally a rank is always a string of upper-case letters.
"""

from __future__ import annotations

import re
from typing import Final

from solver.board.geometry import MAX_FILES, PIECE_NAMES, square_name
from solver.board.glyphs import BLACK_GLYPHS, WHITE_GLYPHS
from solver.errors import (
    IdRangeError,
    IdSyntaxError,
    RankLengthError,
    UnknownPieceError,
    need_int,
    need_text,
)

_GLYPH_TO_LETTER: Final[dict[str, str]] = {
    **{g: p for p, g in WHITE_GLYPHS.items()},
    **{g: p for p, g in BLACK_GLYPHS.items()},
}
_ID_RE: Final = re.compile(r"[+-]?[0-9]+")
_MAX_ID_DIGITS: Final = 40


def parse_rank(text: str, files: int | None = None, own: str = "") -> str:
    """Read a rank written in letters or glyphs; return upper-case letters.

    >>> parse_rank("qnrbbnkr")
    'QNRBBNKR'
    >>> parse_rank("♛ ♞ ♜ ♝ ♝ ♞ ♚ ♜")
    'QNRBBNKR'

    ``own`` are a family's own piece letters besides the built-in ones.
    Raises :class:`~solver.errors.UnknownPieceError` for a character that is
    no piece and :class:`~solver.errors.RankLengthError` when ``files`` is
    given and the rank has another length.
    """
    need_text(text, "rank")
    if files is not None:
        need_int(files, "files")
    letters: list[str] = []
    for char in text:
        if char.isspace():
            continue
        letter = _GLYPH_TO_LETTER.get(char)
        if letter is None:
            upper = char.upper()
            known = upper in PIECE_NAMES or upper in own
            letter = upper if len(upper) == 1 and known else None
        if letter is None:
            index = len(letters)
            limit = files if files is not None else MAX_FILES
            square = square_name(index) if index < min(limit, MAX_FILES) else None
            raise UnknownPieceError(text, char, square)
        letters.append(letter)
    if files is not None and len(letters) != files:
        raise RankLengthError(text, len(letters), files)
    return "".join(letters)


def piece_sides(text: str) -> str:
    """Each piece character's side as written: ``w`` upper case or a white glyph,
    ``b`` lower case or a black glyph, ``?`` neither (spaces are skipped).

    >>> piece_sides("Qn ♖♜")
    'wbwb'
    """
    sides = []
    for char in text:
        if char.isspace():
            continue
        if char in WHITE_GLYPHS.values() or char.isupper():
            sides.append("w")
        elif char in BLACK_GLYPHS.values() or char.islower():
            sides.append("b")
        else:
            sides.append("?")
    return "".join(sides)


def glyphs_fit(stream: object) -> bool:
    """Whether ``stream``'s encoding can write chess glyphs (not so for ASCII or
    Latin-1 output, where ``--unicode`` and ``show`` fall back to letters).

    >>> import io
    >>> glyphs_fit(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    False
    """
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "".join([*WHITE_GLYPHS.values(), *BLACK_GLYPHS.values()]).encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def format_rank(rank: str, unicode: bool = False, black: bool = False) -> str:
    """Write a rank as letters (the default) or glyphs; a piece with no chess
    glyph (a shogi lance, a family's own piece) keeps its letter.

    >>> format_rank("RNBQKBNR", unicode=True)
    '♖♘♗♕♔♗♘♖'
    >>> format_rank("RNBQKBNR", black=True)
    'rnbqkbnr'
    >>> format_rank("LNSGKGSNL", unicode=True), format_rank("LNSGK", unicode=True, black=True)
    ('L♘SG♔GS♘L', 'l♞sg♚')
    """
    letters = need_text(rank, "rank").lower() if black else need_text(rank, "rank")
    if unicode:
        glyphs = BLACK_GLYPHS if black else WHITE_GLYPHS
        return "".join(glyphs.get(p, letter) for p, letter in zip(rank, letters, strict=True))
    return letters


def parse_id(text: str, count: int, family: str = "chess960") -> int:
    """Read a position ID: a decimal integer with ``0 <= id < count``.

    >>> parse_id("518", 960)
    518

    Raises :class:`~solver.errors.IdSyntaxError` for anything that is not a
    plain ASCII decimal integer (``1e3``, ``0x10`` and full-width digits
    included) and :class:`~solver.errors.IdRangeError` when out of range or
    longer than 40 digits (leading zeros included).
    """
    stripped = need_text(text, "id").strip()
    need_int(count, "count")
    if not _ID_RE.fullmatch(stripped):
        raise IdSyntaxError(text)
    digits = stripped.lstrip("+-")
    if len(digits) > _MAX_ID_DIGITS:  # leading zeros too: int() refuses 4,300 digits
        raise IdRangeError(text, None, count, family)
    value = int(stripped)
    if not 0 <= value < count:
        raise IdRangeError(text, value, count, family)
    return value
