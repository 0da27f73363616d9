"""Reading armies that vary: ``pieces = "K + 7 of NBRQ"`` and the ``link`` between sides.

A family's ``pieces`` is a fixed army (``"KQRRBBNN"``) or an army that
varies: fixed letters, then ``+``, then a *pool* ``N of LETTERS``: ``N``
more pieces, each any of ``LETTERS`` (so ``K + 7 of NBRQ`` is FICS wild 3's
king and seven pieces each a knight, bishop, rook or queen). The fixed
letters stand where the family's rules and placement steps put them (the
*frame*); the pool fills the squares left, any letter on any of them.

``link`` ties the two ranks of a family with independent sides:
``"same-army"`` (Black has White's pieces, in an order of its own) and
``"same-colours X"`` (as many of ``X`` on dark squares for each side, each
rank read as it would stand on White's first rank, as every rule reads it).

Errors name the file and the key, as :mod:`solver.ruleset.reader` does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from solver.board.geometry import PIECE_NAMES
from solver.errors import quote
from solver.syntax.args import key_error as _err
from solver.syntax.args import shown, suggest, type_name

__all__ = ["LINKS", "Army", "army_text", "check_tables", "read_army", "read_link"]

_ARMY_RE: Final = re.compile(r"\s*([A-Za-z ]*?)\s*\+\s*(\d{1,2})\s+of\s+([A-Za-z ]+?)\s*")

#: The kinds of ``link`` between the sides' ranks, with what each means.
LINKS: Final = {
    "same-army": "Black has White's pieces, arranged apart",
    "same-colours": "as many of the piece on dark squares for each side",
}

#: Letters tried, in order, for the pool's squares in the frame (one the family does not use).
_SPARE: Final = "ZYXWVUTSJIHGFEDO"


@dataclass(frozen=True)
class Army:
    """An army that varies: fixed letters, and ``size`` squares each any of ``pool``.

    ``placeholder`` stands for a pool square in the frame (a rank of the fixed
    letters and placeholders, numbered by the family's own steps); ``links``
    are the ``link`` kinds between the sides, ``colour`` the piece of a
    ``same-colours`` link.

    >>> army = Army("K", "NBRQ", 7, "Z", "K + 7 of NBRQ")
    >>> army.frame, army.per_frame
    ('KZZZZZZZ', 16384)
    """

    fixed: str
    pool: str
    size: int
    placeholder: str
    text: str
    links: tuple[str, ...] = ()
    colour: str | None = None

    @property
    def frame(self) -> str:
        """The frame's letters: the fixed ones, then a placeholder per pool square."""
        return self.fixed + self.placeholder * self.size

    @property
    def per_frame(self) -> int:
        """How many ways the pool fills the squares a frame leaves."""
        return int(len(self.pool) ** self.size)

    @property
    def linked(self) -> bool:
        """Whether the sides' ranks are tied by a ``link``."""
        return bool(self.links)

    def has(self, rank: str) -> bool:
        """Whether ``rank`` (upper case) holds this army: the fixed letters once
        each as often as written, the rest from the pool.

        >>> army = Army("K", "NBRQ", 7, "Z", "")
        >>> army.has("RNBQKBNR"), army.has("RNBQKBNK")
        (True, False)
        """
        rest = list(rank)
        for letter in self.fixed:
            if letter not in rest:
                return False
            rest.remove(letter)
        return len(rest) == self.size and all(p in self.pool for p in rest)


def army_text(value: str) -> bool:
    """Whether a ``pieces`` value states an army that varies (has ``of``).

    >>> army_text("K + 7 of NBRQ"), army_text("KQRRBBNN")
    (True, False)
    """
    return " of " in f" {value} "


def read_army(value: str, squares: int, names: Mapping[str, str], path: str,
              where: str = "files") -> Army:
    """The army ``value`` states: ``FIXED + N of POOL`` filling ``squares`` squares."""
    found = _ARMY_RE.fullmatch(value)
    if found is None:
        raise _err(path, "pieces", f"{quote(value)} is not FIXED + N of LETTERS, such as "
                                   "'K + 7 of NBRQ'")
    fixed = found.group(1).replace(" ", "").upper()
    size = int(found.group(2))
    pool = found.group(3).replace(" ", "").upper()
    known = "".join(dict.fromkeys([*PIECE_NAMES, *names]))
    for char in fixed + pool:
        if char not in known:
            raise _err(path, "pieces", f"unknown piece {char!r} in {quote(value)}; "
                                       f"pieces are {known}")
    if len(set(pool)) != len(pool):
        raise _err(path, "pieces", f"{quote(value)} names a pool letter twice")
    if len(pool) < 2:
        raise _err(path, "pieces", f"{quote(value)} has a pool of one letter; write the "
                                   "pieces out instead")
    both = sorted(set(fixed) & set(pool))
    if both:
        raise _err(path, "pieces", f"{quote(value)} has {', '.join(both)} both fixed and in "
                                   "the pool, so a rank would be read two ways; write it once")
    if "K" in pool:
        raise _err(path, "pieces", f"{quote(value)} draws the king from the pool; the king "
                                   "is one of the fixed letters")
    if fixed.count("K") != 1:
        raise _err(path, "pieces", f"{quote(value)} must have exactly one king among its "
                                   "fixed letters")
    if size < 1 or len(fixed) + size != squares:
        raise _err(path, "pieces", f"{quote(value)} has {len(fixed) + size} pieces for "
                                   f"{squares} {where}")
    spare = next(c for c in _SPARE if c not in known)
    return Army(fixed, pool, size, spare, f"{fixed} + {size} of {pool}")


def read_link(doc: Mapping[str, Any], army: Army | None, independent: bool,
              path: str) -> tuple[tuple[str, ...], str | None]:
    """The ``link`` kinds between the sides and the piece of ``same-colours``."""
    if "link" not in doc:
        return (), None
    value = doc["link"]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or not value:
        raise _err(path, "link", f"expected a non-empty array of strings, got "
                                 f"{type_name(value)} {shown(value)}")
    if not independent:
        raise _err(path, "link", "a link ties two ranks of their own: it needs "
                                 "sides = 'independent'")
    if army is None:
        raise _err(path, "link", "a link ties the sides of an army that varies "
                                 "('K + 7 of NBRQ'); a fixed army is the same for both sides")
    kinds: list[str] = []
    colour = None
    for index, text in enumerate(value, 1):
        words = text.split()
        kind = words[0] if words else ""
        key = f"link[{index}]"
        if kind not in LINKS:
            raise _err(path, key, f"unknown link {quote(text)}; links are "
                                  f"{', '.join(LINKS)}", suggest(kind, list(LINKS)))
        if kind == "same-army":
            if len(words) != 1:
                raise _err(path, key, f"{quote(text)}: same-army takes no piece")
        else:
            if len(words) != 2 or len(words[1]) != 1 or words[1].upper() not in army.pool:
                # (a pool letter is never fixed: read_army refuses both)
                raise _err(path, key, f"{quote(text)}: same-colours names one piece of the "
                                      f"pool {army.pool}, such as 'same-colours {army.pool[0]}'")
            if colour is not None:
                raise _err(path, key, f"{quote(text)}: a family links the colours of one "
                                      "piece only")
            colour = words[1].upper()
        if kind in kinds and kind == "same-army":
            raise _err(path, key, f"{quote(text)} is given twice")
        kinds.append(kind)
    if "same-army" not in kinds:
        raise _err(path, "link", "a link needs 'same-army' (Black has White's pieces, "
                                 "which the other links compare)")
    return tuple(kinds), colour


#: Rule kinds that read every square of the rank (refused with an army that varies).
_WHOLE_RANK: Final = ("pawns-protected", "differs-from", "exclude")


def check_tables(tables: object, army: Army, path: str) -> None:
    """Refuse, before the rules are read, a ``[[rule]]`` that names a piece the
    army does not always have once as written (a pool letter, or none of its
    letters), or that reads the whole rank."""
    if not isinstance(tables, list):
        return
    for index, table in enumerate(tables, 1):
        if not isinstance(table, dict):
            continue
        kind = table.get("kind")
        if kind in _WHOLE_RANK:
            raise _err(path, f"rule[{index}].kind", f"{kind} reads every square of the rank, "
                       f"whose pieces vary ({army.text}); rules may name only the fixed "
                       f"pieces {army.fixed}")
        for key in ("piece", "pieces", "pair"):
            value = table.get(key)
            if not isinstance(value, str):
                continue
            drawn = sorted({c.upper() for c in value if c.isalpha()} - set(army.fixed))
            if drawn:
                pooled = [c for c in drawn if c in army.pool]
                what = (f"{', '.join(pooled)}, drawn from the pool in varying numbers"
                        if pooled else f"{', '.join(drawn)}, which the army does not have")
                raise _err(path, f"rule[{index}].{key}", f"{quote(value)} names {what} "
                           f"({army.text}); rules may name only the fixed pieces {army.fixed}")
