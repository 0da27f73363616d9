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

A family may also give each side an army of its own, chosen among several
(Chess with Different Armies): ``[[army]]`` tables, each a named rank that
stands as written with the piece its king castles with (``castles-with``),
and ``pairings``, which armies meet, White's first (:func:`read_armies`).

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

__all__ = ["LINKS", "Army", "SideArmy", "army_text", "check_tables", "read_armies", "read_army",
           "read_link"]

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


# -- an army of each side's own, chosen among several ---------------------------------------

#: The keys of an ``[[army]]`` table (the first two required).
ARMY_KEYS: Final = ("name", "pieces", "title", "castles-with")
#: Top-level keys that state one rank for both sides, refused beside ``[[army]]``.
_ONE_ARMY_KEYS: Final = ("pieces", "rule", "link", "region", "front", "numbering")
_ARMY_NAME: Final = re.compile(r"[a-z][a-z0-9-]{0,39}")


@dataclass(frozen=True)
class SideArmy:
    """One of the armies a side may have: its ``pieces`` stand as written, from
    the a-file on (upper case), and its king castles with ``castles_with``.

    >>> SideArmy("clobberers", "DWACKAWD", "Colorbound Clobberers", "D").shown
    'clobberers DWACKAWD'
    """

    name: str
    pieces: str
    title: str = ""
    castles_with: str = "R"

    @property
    def shown(self) -> str:
        """The army's name and rank, as messages give them."""
        return f"{self.name} {self.pieces}"


def _side_army(table: Mapping[str, Any], key: str, files: int, known: str,
               taken: Mapping[str, SideArmy], castles: str, path: str) -> SideArmy:
    """One ``[[army]]`` table's army."""
    name = table["name"]
    if not _ARMY_NAME.fullmatch(name):
        raise _err(path, f"{key}.name", f"{quote(name)} is not an army's name (lower-case "
                                        "letters, digits and '-', such as 'clobberers')")
    if name in taken:
        raise _err(path, f"{key}.name", f"{quote(name)} names two armies")
    pieces = table["pieces"].replace(" ", "").upper()
    for char in pieces:
        if char not in known:
            raise _err(path, f"{key}.pieces", f"unknown piece {char!r} in "
                                              f"{quote(table['pieces'])}; pieces are {known}")
    if len(pieces) != files or pieces.count("K") != 1:
        raise _err(path, f"{key}.pieces", f"{quote(table['pieces'])} is not a rank of {files} "
                                          "pieces with exactly one king")
    same = [army.name for army in taken.values() if army.pieces == pieces]
    if same:
        raise _err(path, f"{key}.pieces", f"{quote(table['pieces'])} is army {same[0]!r}'s "
                                          "rank too, so a rank would be read two ways")
    title = table.get("title", name)
    castles = table.get("castles-with", castles)
    for sub, value in (("title", title), ("castles-with", castles)):
        if not isinstance(value, str):
            raise _err(path, f"{key}.{sub}", f"expected a string, got {type_name(value)} "
                                             f"{shown(value)}")
    castles = castles.upper()
    if len(castles) != 1 or castles == "K" or ("castles-with" in table and castles not in pieces):
        raise _err(path, f"{key}.castles-with", f"{quote(castles)} is not one piece of the "
                                                f"army {pieces} other than the king")
    return SideArmy(name, pieces, title, castles)


def read_armies(doc: Mapping[str, Any], files: int, names: Mapping[str, str], independent: bool,
                path: str, castles: str = "R"
                ) -> tuple[tuple[SideArmy, ...], tuple[tuple[int, int], ...]]:
    """The ``[[army]]`` tables and the ``pairings`` between them (White's army
    first), or ``((), ())`` when the file gives no armies; ``castles`` is the
    piece an army's king castles with when the army does not name its own."""
    from solver.ruleset.board_keys import tables

    if "army" not in doc:
        if "pairings" in doc:
            raise _err(path, "pairings", "pairings name armies: give them as [[army]] tables")
        return (), ()
    if not independent:
        raise _err(path, "army", "each side draws its own army: armies need "
                                 "sides = 'independent'")
    for key in _ONE_ARMY_KEYS:
        if key in doc:
            raise _err(path, key, f"each [[army]] stands as written on its side's rank; "
                                  f"{key!r} states one rank for both sides and is not read "
                                  "with armies")
    known = "".join(dict.fromkeys([*PIECE_NAMES, *names]))
    armies: dict[str, SideArmy] = {}
    for index, table in enumerate(tables(doc, "army", ARMY_KEYS, path), 1):
        army = _side_army(table, f"army[{index}]", files, known, armies, castles, path)
        armies[army.name] = army
    if not armies:
        raise _err(path, "army", "expected at least one [[army]] table")
    found = tuple(armies.values())
    castling = {army.castles_with: army.name for army in found}
    for army in found:
        for letter, other in castling.items():
            if other != army.name and letter != army.castles_with and letter in army.pieces:
                raise _err(path, "army", f"army {army.name!r} has {letter!r}, the piece army "
                           f"{other!r} castles with, so a rank's castling would be read two "
                           "ways; give each army's castling piece a letter of its own")
    return found, _pairings(doc, found, path)


def _pairings(doc: Mapping[str, Any], armies: tuple[SideArmy, ...],
              path: str) -> tuple[tuple[int, int], ...]:
    """``pairings``: which armies meet, each ``"WHITE BLACK"`` (default: every
    army against every army, White's in the order written, then Black's)."""
    order = [army.name for army in armies]
    if "pairings" not in doc:
        return tuple((w, b) for w in range(len(order)) for b in range(len(order)))
    value = doc["pairings"]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise _err(path, "pairings", f"expected a non-empty array of strings such as "
                                     f"'{order[0]} {order[-1]}', got {type_name(value)} "
                                     f"{shown(value)}")
    found: list[tuple[int, int]] = []
    for index, text in enumerate(value, 1):
        key = f"pairings[{index}]"
        words = text.split()
        if len(words) != 2:
            raise _err(path, key, f"{quote(text)} is not two armies' names, White's first, "
                                  f"such as '{order[0]} {order[-1]}'")
        for word in words:
            if word not in order:
                raise _err(path, key, f"{quote(text)}: no army is named {word!r}; armies "
                                      f"are {', '.join(order)}", suggest(word, order))
        pair = (order.index(words[0]), order.index(words[1]))
        if pair in found:
            raise _err(path, key, f"{quote(text)} is given twice")
        found.append(pair)
    return tuple(found)
