"""The tags of a game that name its start, and the start they name.

Tags are read from a header block's bytes without splitting it into lines:
``Result``, ``FEN``, ``SetUp``, ``Variant``, and the tags that may carry a
position's number (TCEC's ``[Opening "FRC 518"]``, or a tag such as
``[FRCId "518"]``). :class:`Starts` turns them into the family's position:
from the FEN (X-FEN or Shredder-FEN), else from a number tag, else the
classical start when the game is chess (no ``Variant``, or ``Standard``).

>>> header = (b'[Event "x"]\\n[Result "1/2-1/2"]\\n[Variant "fischerandom"]\\n'
...           b'[FEN "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1"]')
>>> tag(header, b"Result"), variant_key(tag(header, b"Variant"))
(b'1/2-1/2', 'chess960')
>>> from solver.family import Family
>>> Starts(Family.load("chess960")).position(header)
105
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from solver.errors import Chess960Error

if TYPE_CHECKING:
    from solver.family import Family

#: A whole tag line (the value may hold ``\\"`` and ``\\\\``).
TAG_LINE: Final = re.compile(
    rb'[ \t]*\[([A-Za-z0-9_][A-Za-z0-9_+#=:.-]*)[ \t]*"((?:[^"\\\r\n]|\\.)*)"[ \t]*\][ \t]*\r?')

#: ``Variant`` values, reduced to letters and digits, that name Chess960.
CHESS960: Final = frozenset(("chess960", "fischerandom", "fischerrandom", "fischerrandomchess",
                             "frc", "960", "chess960fischerrandom", "fischerandomchess"))
#: ``Variant`` values that name chess itself (from the start, or set up).
CHESS: Final = frozenset(("", "chess", "standard", "normal", "fromposition", "classical"))

#: Tags whose value may be a position's number, besides the one asked for.
NUMBER_TAGS: Final = (b"Opening", b"FRC", b"FRCId", b"FRCID", b"Chess960", b"Chess960Id",
                      b"StartPosition", b"SPId", b"SP")

#: Results and what they are: white wins, draw, black wins, unfinished.
RESULTS: Final = {b"1-0": 0, b"1/2-1/2": 1, b"0-1": 2, b"*": 3}

#: Distinct start texts remembered (then forgotten all at once: memory stays bounded).
MEMO: Final = 1 << 16


_NEEDLES: dict[bytes, bytes] = {}


def tag(header: bytes, name: bytes) -> bytes | None:
    """The value of the tag ``name`` in ``header`` (the first one), or None.

    >>> tag(b'[White "A \\\\"B\\\\" C"]\\r\\n[Black "D"]\\r', b"White")
    b'A \\\\"B\\\\" C'
    >>> tag(b'[Black "D"]', b"Blac")
    """
    needle = _NEEDLES.get(name)
    if needle is None:
        needle = _NEEDLES[name] = b"[" + name
    size = len(needle)
    at = header.find(needle)
    while at >= 0:
        if (at == 0 or header[at - 1] == 10) and header[at + size:at + size + 1] in _GAPS:
            break  # at a line's start (not inside a value), the whole name
        at = header.find(needle, at + 1)
    if at < 0:
        return None
    begin = at + size + 2
    close = header.find(b'"', begin)
    if close < 0 or header[begin - 2:begin] != b' "':  # a tab, spaces: the careful way
        found = TAG_LINE.match(header, at)
        return found.group(2) if found is not None else None
    if header[close - 1] != 92:  # no backslash: the common case
        return header[begin:close]
    found = TAG_LINE.match(header, at)
    return found.group(2) if found is not None else None


#: What may come between a tag's name and its value.
_GAPS: Final = (b" ", b"\t")


def tags(header: bytes) -> list[tuple[bytes, bytes]]:
    """Every ``(name, value)`` of a header block, in order.

    >>> tags(b'[Event "a"]\\n[Site "b"]')
    [(b'Event', b'a'), (b'Site', b'b')]
    """
    return [(m.group(1), m.group(2)) for m in TAG_LINE.finditer(header)]


def bad_tag_line(header: bytes) -> str | None:
    """What is wrong with the first header line that is not a tag, or None.

    >>> bad_tag_line(b'[Event "a"]\\n[Site "b'), bad_tag_line(b'[Event "say \\\\"]\\\\""]')
    ('header line 2 is not a tag [Name "value"]: \\'[Site "b\\'', None)
    """
    for number, line in enumerate(header.split(b"\n"), 1):
        if TAG_LINE.fullmatch(line) is None and not line.startswith((b"%", b";")) \
                and line.strip():  # comment lines and a blank line may be in a header
            shown = line.decode("utf-8", "replace").rstrip("\r")
            if len(shown) > 60:
                shown = shown[:60] + "..."
            return f"header line {number} is not a tag [Name \"value\"]: {shown!r}"
    return None


def variant_key(value: bytes | None) -> str:
    """A ``Variant`` value reduced to lower-case letters and digits, aliases of
    Chess960 to ``chess960`` (``chess 960``, ``Fischerandom``, ``Fischer Random``).

    >>> [variant_key(v) for v in (b"Chess 960", b"Fischer Random", b"From Position", None)]
    ['chess960', 'chess960', 'fromposition', '']
    """
    if not value:
        return ""
    key = "".join(c for c in value.decode("utf-8", "replace").lower() if c.isalnum())
    return "chess960" if key in CHESS960 else key


class Starts:
    """The family's position a game's header names, remembered per distinct
    start text (up to :data:`MEMO` of them).

    ``number_tags``: tags whose value may be the position's number or label
    when the game has no FEN (TCEC's ``Opening``, ``FRCId``, ...).
    """

    def __init__(self, family: Family, number_tags: tuple[bytes, ...] = NUMBER_TAGS) -> None:
        from solver.output.pgn import pgn_variant

        self.family = family
        self.identify = family.fen_identifier()
        own = pgn_variant(family.ruleset)
        keys = set(CHESS) | {"chess960"} | {variant_key(n.encode()) for n in
                                              (family.name, family.ruleset.variant or "") if n}
        if own:
            keys.add(variant_key(own.encode()))
        self.variants: frozenset[str] = frozenset(keys)
        self.number_tags = number_tags
        self.fens: dict[bytes, int | None] = {}
        self.labels: dict[bytes, int | None] = {}
        self.classical = self._classical()

    def _classical(self) -> int | None:
        """The id of chess's own start in the family, or None."""
        from solver.notation.fen import start_fen

        try:
            return self.identify(start_fen("RNBQKBNR"))
        except Chess960Error:
            return None

    def fen(self, text: bytes) -> int | None:
        """The id of the start a FEN shows, or None (not one of the family's)."""
        known = self.fens.get(text, -1)
        if known != -1:
            return known
        try:
            found: int | None = self.identify(text.decode("utf-8").strip())
        except (Chess960Error, UnicodeDecodeError):
            found = None
        if len(self.fens) >= MEMO:
            self.fens.clear()
        self.fens[text] = found
        return found

    def label(self, text: bytes) -> int | None:
        """The id a number tag's value names (``FRC 518``, ``518``), or None."""
        known = self.labels.get(text, -1)
        if known != -1:
            return known
        from solver.games.labels import read_label

        try:
            position = read_label(self.family, text.decode("utf-8"))
        except UnicodeDecodeError:
            position = None
        found = None if position is None else position.id
        if len(self.labels) >= MEMO:
            self.labels.clear()
        self.labels[text] = found
        return found

    def numbered(self, header: bytes) -> tuple[int | None, bytes | None]:
        """The id a number tag names, and that tag's name (None, None: none does)."""
        for name in self.number_tags:
            value = tag(header, name)
            if value is not None:
                found = self.label(value)
                if found is not None:
                    return found, name
        return None, None

    def position(self, header: bytes, fen: bytes | None = None,
                 variant: bytes | None = b"?") -> int | None:
        """The id of the game's start in the family, or None when it has none:
        a FEN that is not one of the family's starts (a position after moves,
        another family's), another game (``Variant``), or a Chess960 game
        that says neither its FEN nor its number."""
        if variant == b"?":
            variant = tag(header, b"Variant")
        key = variant_key(variant)
        if key not in self.variants:
            return None
        if fen is None:
            fen = tag(header, b"FEN")
        if fen is not None:
            return self.fen(fen)
        found, _ = self.numbered(header)
        if found is not None:
            return found
        if key in CHESS:  # chess from its own start
            return self.classical
        return None
