"""The rule file's ``castling`` key: which rooks give castling rights, and
``castles-with``: which piece is the rook.

``castling = "rooks"`` (the default), ``"none"``, ``"subsets"``, or a table
``{ king = "e", rooks = "ah" }`` (see :mod:`solver.board.castling_rules` and
rules/README.md, "Castling"); ``castles-with = "D"``: the kings castle with
that piece, as with a rook (the default ``"R"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from solver.board.castling_rules import (
    NO_CASTLING,
    ROOKS,
    CastlingRule,
    FixedCastling,
    SubsetCastling,
)
from solver.board.glyphs import FILE_LETTERS
from solver.errors import quote
from solver.syntax.args import key_error, shown, suggest, type_name

#: The names ``castling`` may give as a string.
CASTLING_NAMES: Final = ("rooks", "none", "subsets")
_TABLE_KEYS: Final = ("king", "rooks")


def _files(value: object, key: str, files: int, path: str) -> tuple[int, ...]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = "".join(value)
    if not isinstance(value, str) or not value.strip():
        raise key_error(path, key, f"expected file letters such as \"ah\", got {shown(value)}")
    letters = value.replace(",", "").replace(" ", "").lower()
    found: list[int] = []
    for letter in letters:
        if letter not in FILE_LETTERS[:files]:
            raise key_error(path, key, f"{letter!r} is not a file of this {files}-file board "
                                       f"(a..{FILE_LETTERS[files - 1]})")
        if FILE_LETTERS.index(letter) not in found:
            found.append(FILE_LETTERS.index(letter))
    return tuple(sorted(found))


def read_castling(doc: Mapping[str, Any], files: int, count: int | None,
                  path: str) -> CastlingRule:
    """The family's castling rule (``count``: the declared count, for
    ``"subsets"``, whose 16 variations divide it)."""
    value = doc.get("castling", "rooks")
    if isinstance(value, dict):
        for key in value:
            if key not in _TABLE_KEYS:
                raise key_error(path, f"castling.{key}", f"unknown key {quote(key)}",
                                suggest(key, _TABLE_KEYS))
        for key in _TABLE_KEYS:
            if key not in value:
                raise key_error(path, f"castling.{key}", "missing")
        king = _files(value["king"], "castling.king", files, path)
        rooks = _files(value["rooks"], "castling.rooks", files, path)
        if set(king) & set(rooks):
            raise key_error(path, "castling.rooks", "a rook's file is also the king's")
        return FixedCastling(king, rooks)
    if not isinstance(value, str):
        raise key_error(path, "castling", f"expected 'rooks', 'none', 'subsets' or a table "
                                          f"{{ king = ..., rooks = ... }}, got "
                                          f"{type_name(value)} {shown(value)}")
    if value not in CASTLING_NAMES:
        raise key_error(path, "castling", f"expected 'rooks', 'none', 'subsets' or a table "
                                          f"{{ king = ..., rooks = ... }}, got {shown(value)}",
                        suggest(value, CASTLING_NAMES))
    if value == "none":
        return NO_CASTLING
    if value == "rooks":
        return ROOKS
    probe = SubsetCastling()
    if count is not None and count % probe.variations:
        raise key_error(path, "count", f"{count} is not a multiple of {probe.variations}, but "
                                       "with castling = 'subsets' the count is the placements' "
                                       f"count times {probe.variations} castling variations")
    return SubsetCastling(max(1, (count or 0) // probe.variations))


def read_castles_with(doc: Mapping[str, Any], path: str) -> str:
    """``castles-with``: the piece the kings castle with (one letter, upper
    case; ``"R"`` by default). Whether the family has it is checked with its
    pieces (:func:`check_castles_with`)."""
    value = doc.get("castles-with", "R")
    if not isinstance(value, str) or len(value) != 1 or not value.isascii() or \
            not value.isalpha() or value.upper() == "K":
        raise key_error(path, "castles-with", f"expected one piece letter other than the "
                                              f"king, such as 'D', got {shown(value)}")
    return value.upper()


def check_castles_with(letter: str, pieces: str, path: str) -> None:
    """Refuse a ``castles-with`` piece the family's rank never holds."""
    if letter != "R" and letter not in pieces:
        raise key_error(path, "castles-with", f"{letter!r} is not one of the pieces {pieces}")
