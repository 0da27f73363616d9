"""The games of a tree read in bulk: one regular expression per header shape.

``games tree`` wants, of each game, a few tags (its result, start, ratings,
date, and what the filters ask) and its first plies. Most collections write
their games one way (lichess: the same tag names in the same order, clock
comments after each move), so each header shape met (:func:`shape_of`) gets
one pattern (:func:`game_pattern`) that reads a whole plainly written game:
the header line by line, its wanted tags' values as groups, then, in a
lookahead, the first plies as :func:`~solver.games.tree.moves_in` reads
plainly written moves (move numbers, blanks and ``{}`` comments between),
then the moves' lines up to the result and the blank line before the next
game, as :mod:`solver.games.fast` reads them for ``games stats``. The
matches follow each other from where the last one ended, so no byte is
passed over; a game the pattern does not read (another shape, a variation,
a NAG, a ``;`` comment, a CR, a truncated game) is read by the careful
reader (:meth:`~solver.games.tree.Tree.careful`), so both ways give the
same tree (tests compare them on made-up and random inputs).

>>> regex, at = game_pattern((b"Result", b"FEN", b"WhiteElo"), 3)
>>> game = (b'[Result "1-0"]\\n[FEN "x"]\\n[WhiteElo "1500"]\\n\\n'
...         b'1. e4 {[%clk 0:03:00]} e5?! 1-0\\n\\n')
>>> found = regex.match(game).groups()
>>> found[at[b"Result"]], found[at[b"FEN"]], found[at[b"BlackElo"]], found[at[MOVES]:]
(b'1-0', b'x', None, (b'e4', b'e5?!', None))
"""

from __future__ import annotations

import functools
import re
from typing import Final

from solver.games.fast import moves_pattern

#: The tags a tree reads of a game (the first line of each name).
WANTED: Final = (b"Result", b"FEN", b"Variant", b"WhiteElo", b"BlackElo", b"UTCDate", b"Date")
#: The tags the filters read besides (``--speed``, ``--player``).
FILTERED: Final = (b"TimeControl", b"White", b"Black")

#: The key of the first move's group in :func:`game_pattern`'s places.
MOVES: Final = b""

#: The most plies read in bulk (more: game by game).
MOST_PLIES: Final = 64

#: The most header shapes given a pattern (others: game by game).
SHAPES: Final = 16

#: A blank (``\s`` in a bytes pattern), its bytes written out: a class of
#: bytes only is matched quicker than one with a category.
_BLANK: Final = rb" \t\n\r\f\v"
#: Between plainly written moves: blanks and whole ``{}`` comments (taken whole).
_GAP: Final = rb"[" + _BLANK + rb"]*+(?:\{[^}]*\}[" + _BLANK + rb"]*+)*+"
#: One plainly written ply, maybe after its number (``1.``, ``1...``), taken
#: whole: no digit, dot, bracket, ``;``, ``$``, ``%`` or ``*`` (but ``0-0``,
#: ``0-0-0``), then a blank, a ``{`` or the end, as
#: :func:`solver.games.tree._plies` reads it.
_PLY: Final = (rb"(?>" + _GAP + rb"(?:\d+\.+" + _GAP + rb")?+"
               rb"((?:[^" + _BLANK + rb"{}();$.%*0-9]|0-0)[^" + _BLANK + rb"{}();$.]*+)"
               rb"(?![^" + _BLANK + rb"{]))")
#: What ends the moves early: the result, as a word.
_RESULT_NEXT: Final = (rb"(?=" + _GAP + rb"(?:1-0|0-1|1/2-1/2|\*)(?![^" + _BLANK + rb"{]))")


def shape_of(header: bytes) -> tuple[bytes, ...]:
    """The tag names of a header block, in order, when each line is a plain
    tag line (``[Name "value"]``, no ``"`` in the value, no CR) and there are
    at most 64; else none.

    >>> shape_of(b'[Event "a"]\\n[Site "b"]'), shape_of(b'[Event "a"]\\n[Site b]')
    ((b'Event', b'Site'), ())
    """
    names = _TAG_NAMES.findall(header)
    return tuple(names) if len(names) == header.count(b"\n") + 1 <= 64 else ()


_TAG_NAMES: Final = re.compile(rb'^\[([A-Za-z0-9_]+) "[^"\n\r]*"\]$', re.MULTILINE)


@functools.lru_cache(maxsize=64)
def game_pattern(shape: tuple[bytes, ...], plies: int, filtered: bool = False,
                 semicolons: bool = True) -> tuple[re.Pattern[bytes], dict[bytes, int]]:
    """The pattern of a plainly written game whose header has exactly the tag
    names ``shape``, and where its groups are: each of :data:`WANTED` (and of
    :data:`FILTERED` when ``filtered``; the first line of its name; a name not
    in the shape: a group that is always None) and, from :data:`MOVES` on, the
    first ``plies`` moves (None past the game's last move). The result's tag
    must be one of the four results. ``semicolons``: whether the text may
    hold ``;`` (see :func:`~solver.games.fast.moves_pattern`)."""
    wanted = WANTED + FILTERED if filtered else WANTED
    places: dict[bytes, int] = {}
    parts = []
    utc = b"UTCDate" in shape  # (then Date is not read: a game with an empty UTCDate is
    for name in shape:         # read game by game, where Date stands for it)
        if name in wanted and name not in places and not (utc and name == b"Date"):
            places[name] = len(places)
            value = rb"(1-0|0-1|1/2-1/2|\*)" if name == b"Result" else \
                rb'(?=.*"\]\n)([^"]++)' if name == b"UTCDate" else rb'(?=.*"\]\n)([^"]*+)'
            parts.append(rb"\[" + re.escape(name) + rb' "' + value + rb'"\]\n')
        else:  # (the value's end found by .*, quicker than by [^"\n])
            parts.append(rb"\[" + re.escape(name) + rb' "(?=.*"\]\n)[^"]*+"\]\n')
    absent = [name for name in wanted if name not in places]
    for name in absent:  # groups in a branch never taken: None in every match
        places[name] = len(places)
    if absent:
        parts.append(rb"(?:(?!)" + rb"()" * len(absent) + rb")?")
    places[MOVES] = len(places)
    moves = b""
    for _ in range(plies):
        moves = rb"(?:" + _PLY + moves + rb"|" + _RESULT_NEXT + rb")"
    lines = moves_pattern(True, semicolons)
    assert lines.startswith(rb"\n")
    text = b"".join(parts) + rb"\n(?=" + moves + rb")" + lines[2:]
    return re.compile(text), places
