"""The syntax of FENs and EPD lines, read field by field.

A FEN has six fields (:data:`FIELDS`): the placement, the side to move,
castling, the en passant square and two move counters. An EPD line has the
first four, then operations (``id "chess960 518";``); counters may also come
before operations. :func:`split_fields` splits either, :func:`expand_row`
reads one rank of the placement, :func:`read_counter` a move counter, and
:class:`StartFen` is what a start position read from one holds. Whether
what is read is a start position is for :mod:`solver.notation.fen` to say
(with :func:`listed` and :func:`describe` wording its reasons).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from solver.board.geometry import PIECE_NAMES, piece_name
from solver.errors import FenSyntaxError, quote

#: The fields a FEN has, in order.
FIELDS: Final = (
    "placement", "side to move", "castling", "en passant", "halfmove clock", "move number",
)
_SHOWN: Final = 4  # squares named in one reason before "and N more"
_COLOUR: Final = {True: "white", False: "black"}
_OPCODE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,14}")


@dataclass(frozen=True)
class StartFen:
    """A FEN read as a start position: both back ranks (upper case) and castling."""

    white: str
    black: str
    castling: str
    #: EPD operations ``(name, operands)``, in order (operands keep their quotes).
    opcodes: tuple[tuple[str, str], ...] = field(default=(), repr=False)


def is_fen(text: str) -> bool:
    """Whether ``text`` is written as a FEN rather than a rank or a pair of ranks.

    >>> is_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    True
    >>> is_fen("RNBQKBNR/rnbqkbnr")
    False
    """
    fields = text.split()
    if not fields or "/" not in fields[0]:
        return False
    return fields[0].count("/") >= 2 or (len(fields) > 1 and fields[1] in ("w", "b"))


def listed(items: list[str]) -> str:
    """Items named in a reason: the first few, then how many more.

    >>> listed(["a1 is empty", "b1 is empty", "c1 is empty", "d1 is empty", "e1 is empty"])
    'a1 is empty, b1 is empty, c1 is empty, d1 is empty and 1 more'
    """
    shown = ", ".join(items[:_SHOWN])
    more = len(items) - _SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


def describe(piece: str, names: Mapping[str, str] | None = None) -> str:
    """A piece letter as words, its colour from its case.

    >>> describe("P"), describe("n")
    ('white pawn', 'black knight')
    """
    name = "pawn" if piece.upper() == "P" else piece_name(piece.upper(), 1, names)
    return f"{_COLOUR[piece.isupper()]} {name}"


def expand_row(text: str, row: str, rank: int, files: int,
               letters: frozenset[str] | None = None) -> list[str]:
    """One placement row as ``files`` squares (``""`` for empty), or a syntax error."""
    squares: list[str] = []
    digits = ""
    for char in [*row, ""]:
        if char and char in "0123456789":
            digits += char
            continue
        if digits:
            if digits.startswith("0"):
                raise FenSyntaxError(text, "placement", f"rank {rank} has {quote(digits)}, "
                                                        "which is no count of squares")
            if len(digits) > 2 or len(squares) + int(digits) > files:
                raise FenSyntaxError(text, "placement",
                                     f"rank {rank} has more than {files} squares")
            squares.extend([""] * int(digits))
            digits = ""
        if not char:
            break
        known = char.upper() in letters if letters is not None else (
            char.upper() == "P" or char.upper() in PIECE_NAMES)
        if not known:
            raise FenSyntaxError(text, "placement",
                                 f"rank {rank} has {char!r}, which is no piece")
        squares.append(char)
    if len(squares) != files:
        raise FenSyntaxError(text, "placement",
                             f"rank {rank} has {len(squares)} squares, expected {files}")
    return squares


def read_counter(text: str, field: str, value: str) -> int:
    """A move counter of ``text`` (``field`` names it), or a syntax error."""
    if not value.isascii() or not value.isdigit():
        raise FenSyntaxError(text, field, f"the {field} {quote(value)} is not a number")
    if len(value) > 9:
        raise FenSyntaxError(text, field, f"the {field} {quote(value)} is too large")
    return int(value)


def split_opcodes(text: str) -> list[tuple[str, str]]:
    """EPD operations ``name operands;`` as ``(name, operands)`` pairs.

    Semicolons inside double-quoted operands do not end an operation; the
    last ``;`` may be left out. Operands keep their quotes.

    >>> split_opcodes('id "chess960 518"; c0 "a; b";')
    [('id', '"chess960 518"'), ('c0', '"a; b"')]
    """
    found: list[tuple[str, str]] = []
    current = ""
    quoted = False
    for char in [*text, ";"]:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            if current.strip():
                name, _, operands = current.strip().partition(" ")
                found.append((name, operands.strip()))
            current = ""
            continue
        current += char
    return found


def _opcodes(text: str, rest: str) -> tuple[tuple[str, str], ...]:
    """The EPD operations after the fields, checked for names and closed quotes."""
    if rest.count('"') % 2:
        raise FenSyntaxError(text, "opcodes", f"the operations {quote(rest)} leave a quote open")
    found = split_opcodes(rest)
    for name, _ in found:
        if not _OPCODE.fullmatch(name):
            raise FenSyntaxError(
                text, "opcodes",
                f"{quote(name)} is no move counter and no epd opcode (a letter, then up to 14 "
                "letters, digits or '_')")
    return tuple(found)


def split_fields(
    text: str,
) -> tuple[list[str], tuple[str, str] | None, tuple[tuple[str, str], ...]]:
    """The four position fields, the move counters if given, and any EPD operations.

    A FEN has six fields; an EPD line has four, then operations (``id
    "..."; c0 "...";``); counters may also come before operations. XBoard
    writes Shatranj and Makruk with no en-passant field: five fields, the
    last two counters, are read with ``-`` for it.

    >>> split_fields("ssmnnkrr/8/pppppppp/8/8/PPPPPPPP/8/SSMNNKRR w - 0 1")[:2]
    (['ssmnnkrr/8/pppppppp/8/8/PPPPPPPP/8/SSMNNKRR', 'w', '-', '-'], ('0', '1'))
    """
    parts = text.split(None, 4)
    if len(parts) < 4:
        raise FenSyntaxError(
            text, "fields",
            f"it has {len(parts)} field{'s' if len(parts) != 1 else ''}, expected 4 (epd) "
            f"or {len(FIELDS)} (fen): {', '.join(FIELDS)}",
        )
    rest = parts[4] if len(parts) > 4 else ""
    words = rest.split()
    if ";" not in rest and '"' not in rest and len(words) <= 2:
        if len(words) == 1 and all(w.isascii() and w.isdigit() for w in (parts[3], words[0])):
            # XBoard's Shatranj and Makruk FENs have no en-passant field
            # (backend.c PositionToFEN): a start position has none to give
            return [*parts[:3], "-"], (parts[3], words[0]), ()
        if len(words) == 1:
            raise FenSyntaxError(
                text, "fields",
                f"it has 5 fields, expected 4 (epd) or {len(FIELDS)} (fen): {', '.join(FIELDS)}")
        counters = (words[0], words[1]) if words else None
        return parts[:4], counters, ()
    counted = 0
    while counted < 2 and counted < len(words) and words[counted].isdigit():
        counted += 1
    if counted == 1:
        raise FenSyntaxError(text, "move number",
                             f"the halfmove clock {quote(words[0])} has no move number after it")
    counters = (words[0], words[1]) if counted == 2 else None
    after = rest
    for word in words[:counted]:
        after = after.lstrip()[len(word):]
    return parts[:4], counters, _opcodes(text, after)
