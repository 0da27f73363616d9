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
        hand = letters.upper()
    gating = doc.get("gating", False)
    if not isinstance(gating, bool):
        raise _err(path, "gating", f"expected true or false, got {shown(gating)}")
    if gating and not hand:
        raise _err(path, "gating", "gating pieces come from the hand: set hand (such as 'HE')")
    return hand, gating
