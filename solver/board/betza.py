"""Betza's funny notation for how a piece moves, as far as rules need it.

A declared piece (``[[piece]]`` in a rule file) may give its movement as a
Betza string, the notation Fairy-Stockfish's ``variants.ini`` and the
chess-variant community use. The subset read here:

* atoms: ``W`` (1,0), ``F`` (1,1), ``D`` (2,0), ``N`` (2,1), ``A`` (2,2),
  ``H`` (3,0), ``C`` (3,1), ``Z`` (3,2), ``G`` (3,3), and the shorthands
  ``K`` (``WF``), ``R`` (``WW``), ``B`` (``FF``), ``Q`` (``RB``);
* a doubled atom (``WW``) or a range digit after it (``W0``, ``N2``) makes
  a rider; a rider's first step is the atom's own;
* modifiers before an atom: ``f`` ``b`` ``l`` ``r`` (forward, backward,
  left, right), ``v`` (``fb``) and ``s`` (``lr``), any number of them
  (a move is kept when it goes in one of the directions named; an oblique
  atom, ``N`` ``C`` ``Z``, takes at most one, as Betza's narrow and wide
  moves ``ffN`` ``fsN`` are not read); ``m`` (moves only) and ``c``
  (captures only).

:func:`captures` gives the squares a piece attacks one step away, which
is what ``pawns-protected`` asks of every piece.
"""

from __future__ import annotations

import re
from typing import Final

from solver.errors import BetzaError

#: Each atom's leap, one of its eight symmetric moves.
ATOMS: Final[dict[str, tuple[int, int]]] = {
    "W": (1, 0), "F": (1, 1), "D": (2, 0), "N": (2, 1), "A": (2, 2),
    "H": (3, 0), "C": (3, 1), "Z": (3, 2), "G": (3, 3),
}
#: Shorthands for common pieces.
SHORTHANDS: Final[dict[str, str]] = {"K": "WF", "R": "WW", "B": "FF", "Q": "WWFF"}
_TOKEN: Final = re.compile(r"([fblrvsmc]*)([A-Z])(\2|\d{1,2})?")


def _moves(atom: str) -> set[tuple[int, int]]:
    x, y = ATOMS[atom]
    return {(sx * a, sy * b) for a, b in ((x, y), (y, x)) for sx in (1, -1) for sy in (1, -1)}


def _wanted(move: tuple[int, int], directions: str) -> bool:
    if not directions:
        return True
    dx, dy = move
    checks = {"f": dy > 0, "b": dy < 0, "l": dx < 0, "r": dx > 0}
    expanded = directions.replace("v", "fb").replace("s", "lr")
    return any(checks[d] for d in expanded)


def captures(text: str) -> frozenset[tuple[int, int]]:
    """The squares ``(dx, dy)`` a piece moving as ``text`` attacks one step
    away (a rider's first steps), White's view: ``dy > 0`` is forward.

    >>> sorted(captures("fW"))
    [(0, 1)]
    >>> sorted(d for d in captures("N") if d[1] == 1)
    [(-2, 1), (2, 1)]
    >>> captures("mF") == frozenset()
    True
    """
    found: set[tuple[int, int]] = set()
    at = 0
    while at < len(text):
        token = _TOKEN.match(text, at)
        if token is None:
            raise BetzaError(text, at)
        modifiers, letter, _ = token.groups()
        atoms = SHORTHANDS.get(letter, letter)
        if any(a not in ATOMS for a in atoms):
            raise BetzaError(text, at + len(modifiers))
        directions = "".join(c for c in modifiers if c in "fblrvs")
        oblique = any(ATOMS[a][0] != ATOMS[a][1] and ATOMS[a][1] for a in atoms)
        if oblique and (len(directions) > 1 or directions in ("v", "s")):
            # Betza's narrow and wide moves (ffN, fsN; vN and sN: the vertical
            # and the sideways pairs) are not read
            raise BetzaError(text, at)
        if "m" not in modifiers or "c" in modifiers:
            for atom in dict.fromkeys(atoms):
                found.update(m for m in _moves(atom) if _wanted(m, directions))
        at = token.end()
    if not text:
        raise BetzaError(text, 0)
    return frozenset(found)


def pawn_distances(text: str) -> frozenset[int]:
    """The file distances at which a piece defends a pawn one rank ahead.

    >>> sorted(pawn_distances("BN")), sorted(pawn_distances("fsW"))
    ([1, 2], [0])
    """
    return frozenset(abs(dx) for dx, dy in captures(text) if dy == 1)
