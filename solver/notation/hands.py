"""Pieces in hand and gating rights: the part of a start FEN a family with a
hand adds to its board (rule-file keys ``hand`` and ``gating``).

A family whose sides start with pieces in hand (Seirawan chess's hawk and
elephant, crazyhouse's empty hand on any board) writes them after the
placement in brackets, White's upper case first (``[HEhe]``, ``[]``); a
family whose pieces gate (Seirawan) writes in its castling field each side's
castling rights, then the files of its other gating squares
(:func:`gating_field`). Reading accepts the hand's letters in any order (so
Fairy-Stockfish's ``[EHeh]`` and pychess-variants' ``[HEhe]`` alike) and the
gating field as X-FEN, Shredder-FEN or pychess-variants write it.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

from solver.board.glyphs import FILE_LETTERS
from solver.notation.castling import castling_field

__all__ = ["gating_field", "gating_fields", "hand_text", "pychess_gating_field", "split_hand"]

_HAND_RE: Final = re.compile(r"^(?P<board>.*?)\[(?P<hand>[A-Za-z]*)\]$")


def hand_text(hand: str, order: str = "white-first") -> str:
    """The bracketed hand of both sides holding ``hand`` (upper case).

    ``order`` ``"sorted"`` writes each side's letters alphabetically, as
    Fairy-Stockfish does.

    >>> hand_text("HE"), hand_text(""), hand_text("HE", "sorted")
    ('[HEhe]', '[]', '[EHeh]')
    """
    letters = "".join(sorted(hand)) if order == "sorted" else hand
    return f"[{letters.upper()}{letters.lower()}]"


def split_hand(placement: str) -> tuple[str, str | None]:
    """A placement field's board and its bracketed hand (``None``: no brackets).

    >>> split_hand("8/8[HEhe]"), split_hand("8/8")
    (('8/8', 'HEhe'), ('8/8', None))
    """
    found = _HAND_RE.match(placement)
    if found is None:
        return placement, None
    return found.group("board"), found.group("hand")


def same_hand(written: str, hand: str) -> bool:
    """Whether a written hand holds each side's ``hand`` (in any order).

    >>> same_hand("EHeh", "HE"), same_hand("HEh", "HE")
    (True, False)
    """
    return Counter(written) == Counter(hand.upper() + hand.lower())


def _gated(rank: str, castles: str) -> list[int]:
    """The files of one side's gating squares that its castling letters leave
    unsaid: with castling rights, every piece's but the king's and the rooks'
    (``K``/``Q`` or a rook's file gate the king and that rook too); without,
    every piece's but the king's. Fairy-Stockfish reads a king's gate
    together with a rook's as a castling right, so a side that may not castle
    never has its king's gate written, and a rook that does not castle (a
    third one) loses its gate when its king has castling rights."""
    king = rank.find("K")
    if castles:
        return [f for f, p in enumerate(rank) if p not in "KR"]
    return [f for f in range(len(rank)) if f != king]


def gates(rank: str, castles: str, shredder: bool) -> str:
    """One side's Seirawan field (upper case): its castling letters ``castles``,
    then its other gating files from a to h, as Fairy-Stockfish writes them
    (Shredder letters name the king's file among the gates, since a rook's
    file alone is a gate, not a castling right; so does X-FEN when a right is
    a rook's file).

    >>> gates("RNBQKBNR", "KQ", False), gates("RNBQKBNR", "HA", True)
    ('KQBCDFG', 'HABCDEFG')
    >>> gates("RRKQBBNN", "", False)
    'ABDEFGH'
    """
    files = _gated(rank, castles)
    if castles and (shredder or any(c not in "KQ" for c in castles)):
        files = sorted([*files, rank.index("K")])
    return castles + "".join(FILE_LETTERS[f].upper() for f in files)


def pychess_gates(rank: str, castles: str) -> str:
    """pychess-variants' Seirawan field for one side (upper case): its X-FEN
    castling letters (``KQ`` for Chess960), then the files of the first and
    last bishop, the queen, the first and last knight, then any other gating
    files from a to h (see :func:`_gated`), each once.

    >>> pychess_gates("RNBQKBNR", "KQ"), pychess_gates("KARRBBNN", "")
    ('KQCFDBG', 'EFGHBCD')
    """
    gated = _gated(rank, castles)
    first = [rank.find("B"), rank.rfind("B"), rank.find("Q"), rank.find("N"), rank.rfind("N")]
    files: list[int] = []
    for f in [*first, *gated]:
        if f in gated and f not in files:
            files.append(f)
    return castles + "".join(FILE_LETTERS[f].upper() for f in files)


def _split(field: str) -> tuple[str, str]:
    return ("".join(c for c in field if c.isupper()),
            "".join(c for c in field if c.islower()).upper())


def gating_field(white: str, black: str, shredder: bool = False, order: str = "h-side") -> str:
    """Seirawan's castling field of these back ranks: each side's castling
    rights (X-FEN or Shredder letters), then its gating squares, White's first.

    >>> gating_field("RNBQKBNR", "RNBQKBNR")
    'KQBCDFGkqbcdfg'
    >>> gating_field("RNBQKBNR", "RNBQKBNR", shredder=True)
    'HABCDEFGhabcdefg'
    """
    field = castling_field(white, black, shredder)
    if order == "a-side" and field != "-":
        field = "".join(sorted(c for c in field if c.isupper())
                        + sorted(c for c in field if c.islower()))
    mine, theirs = _split(field)
    return gates(white, mine, shredder) + gates(black, theirs, shredder).lower()


def pychess_gating_field(white: str, black: str) -> str:
    """pychess-variants' Seirawan castling field of these back ranks.

    >>> pychess_gating_field("RNBQKBNR", "RNBQKBNR")
    'KQCFDBGkqcfdbg'
    """
    mine, theirs = _split(castling_field(white, black, False))
    return pychess_gates(white, mine) + pychess_gates(black, theirs).lower()


def gating_fields(white: str, black: str) -> tuple[str, ...]:
    """Every form of the gating field a program writes for these back ranks
    (X-FEN, Shredder-FEN, Shredder a-side first, pychess-variants').

    >>> gating_fields("RNBQKBNR", "RNBQKBNR")[:2]
    ('KQBCDFGkqbcdfg', 'HABCDEFGhabcdefg')
    """
    forms = (gating_field(white, black), gating_field(white, black, True),
             gating_field(white, black, True, "a-side"), pychess_gating_field(white, black))
    return tuple(dict.fromkeys(forms))
