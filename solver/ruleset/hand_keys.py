"""Reading the hand keys of a rule file: ``hand`` (the pieces each side holds
in hand at the start) and ``gating`` (whether they gate in, so that the
castling field lists the gating squares, as Seirawan chess writes it).
Errors name the file and the key, as :mod:`solver.ruleset.reader` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from solver.syntax.args import key_error as _err
from solver.syntax.args import shown, type_name

#: At most this many pieces in one side's hand.
MAX_HAND: Final = 16


def _one_side(letters: str, value: str, path: str) -> str:
    """The hand each side holds, from ``letters`` as the rule file gives them.

    Upper case letters alone are each side's hand (``"HE"``); with lower
    case letters, the upper case ones are White's and the lower case ones
    Black's, as the FEN writes them (``"HEhe"``), and the two must match:
    a hand that differs between the sides cannot be stated yet.
    """
    white = "".join(c for c in letters if c.isupper())
    black = "".join(c for c in letters if c.islower())
    if not black:
        return white
    if sorted(white) != sorted(black.upper()):
        same = white or black.upper()
        raise _err(path, "hand", f"{shown(value)} gives White {white!r} and Black "
                                 f"{black.upper()!r}: a hand that differs between the sides "
                                 f"cannot be stated yet; give both the same pieces, as "
                                 f"{same + same.lower()!r} (or {same!r}, each side's once)")
    return white


def read_hand(doc: Mapping[str, Any], notation: str, path: str) -> tuple[str | None, bool]:
    """The pieces in each side's hand (``None``: no hand field) and whether they gate."""
    hand: str | None = None
    if "hand" in doc:
        value = doc["hand"]
        if not isinstance(value, str):
            raise _err(path, "hand", f"expected a string of piece letters (\"\" for an empty "
                                     f"hand), got {type_name(value)} {shown(value)}")
        letters = value.replace(" ", "")
        if len(letters) > MAX_HAND or not all(c.isascii() and c.isalpha() for c in letters):
            raise _err(path, "hand", f"{shown(value)} is not up to {MAX_HAND} piece letters")
        if notation == "sfen":
            raise _err(path, "hand", "a shogi family (notation = 'sfen') writes its hands "
                                     "in the SFEN's own field; hand is for FEN families")
        hand = _one_side(letters, value, path)
    gating = doc.get("gating", False)
    if not isinstance(gating, bool):
        raise _err(path, "gating", f"expected true or false, got {shown(gating)}")
    if gating and not hand:
        raise _err(path, "gating", "gating pieces come from the hand: set hand (such as 'HE')")
    return hand, gating
