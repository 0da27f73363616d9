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

import functools
import re
from typing import TYPE_CHECKING, Any, Final

from solver.errors import (
    CastlingRightsError,
    Chess960Error,
    FenSyntaxError,
    NotStartPositionError,
    RankLengthError,
    UnknownPieceError,
)

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

#: A start and its note: the id (None: not in the family) and None (a clean
#: start), :data:`REPAIRED`, or why the game is not in the family.
Start = tuple[int | None, str | None]

#: What a start FEN whose castling field was impossible, its pieces a family's start, is noted as.
REPAIRED: Final = "castling field repaired"
#: Why a Chess960 game that gives neither FEN nor number is not in the family.
NO_START: Final = "no FEN and no position number"

#: How many first game numbers a note keeps.
FIRST: Final = 3
#: How many distinct reasons are told apart (the others are one "other" bucket).
REASONS: Final = 32


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


@functools.lru_cache(maxsize=1024)
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


class Notes:
    """Games counted per note (:data:`REPAIRED`, or why a game has no start in the
    family), and each note's first game numbers (``(input, number)``, up to
    :data:`FIRST`, in the order met).

    >>> notes = Notes()
    >>> for number in (4, 9, 12, 20): notes.add("FEN '?' names no position", "a.pgn", number)
    >>> notes.add(REPAIRED, "a.pgn", 2, 5)
    >>> for line in notes.lines(): print(line)
    castling field repaired: 5 games, counted under their positions (first: a.pgn game 2)
    not in family: FEN '?' names no position: 4 games (first: a.pgn games 4, 9, 12)
    """

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.first: dict[str, list[tuple[str, int]]] = {}

    def add(self, note: str, path: str | None = None, number: int = 0, times: int = 1) -> None:
        """Count ``times`` games under ``note``; ``path`` and ``number``: the
        first one's place (None: not known, as for games counted in bulk)."""
        counts = self.counts
        note = self._bucket(note)
        counts[note] = counts.get(note, 0) + times
        if path is not None:
            first = self.first.setdefault(note, [])
            if len(first) < FIRST:
                first.append((path, number))

    def wants(self, note: str) -> bool:
        """Whether ``note`` lacks first game numbers (so games noted so should be
        read one by one)."""
        return len(self.first.get(self._bucket(note), ())) < FIRST

    def _bucket(self, note: str) -> str:
        """``note``, or ``other`` once :data:`REASONS` notes are told apart."""
        if note in self.counts or note == REPAIRED or len(self.counts) < REASONS:
            return note
        return "other"

    def absorb(self, other: Notes, offset: int = 0) -> None:
        """Add another tally's notes (a worker's, its game numbers after ``offset``)."""
        for note, times in other.counts.items():
            self.counts[note] = self.counts.get(note, 0) + times
            first = self.first.setdefault(note, [])
            for path, number in other.first.get(note, ()):
                if len(first) < FIRST:
                    first.append((path, number + offset))

    def absorb_records(self, document: dict[str, Any]) -> None:
        """Add the notes of a JSON document made with :meth:`records` (a
        ``games stats --format json`` table; none there, none added)."""
        repaired = document.get("castling_repaired") or {"games": 0, "first": []}
        for note, record in [(REPAIRED, repaired), *(
                (str(r["reason"]), r) for r in document.get("not_in_family_reasons") or [])]:
            first = record["first"]
            if first:
                self.add(note, str(first[0]["file"]), int(first[0]["game"]), 0)
            for place in first[1:]:
                self.add(note, str(place["file"]), int(place["game"]), 0)
            self.add(note, times=int(record["games"]))

    @property
    def repaired(self) -> int:
        return self.counts.get(REPAIRED, 0)

    def reasons(self) -> list[tuple[str, int, list[tuple[str, int]]]]:
        """``(reason, games, first places)`` for the games not in the family,
        most games first."""
        return sorted(((note, n, self.first.get(note, [])) for note, n in self.counts.items()
                       if note != REPAIRED), key=lambda row: (-row[1], row[0]))

    def records(self) -> dict[str, object]:
        """The notes as JSON fields: ``castling_repaired`` and ``not_in_family_reasons``."""
        def places(first: list[tuple[str, int]]) -> list[dict[str, object]]:
            return [{"file": path, "game": number} for path, number in first]

        return {"castling_repaired": {"games": self.repaired,
                                      "first": places(self.first.get(REPAIRED, []))},
                "not_in_family_reasons": [{"reason": note, "games": n, "first": places(first)}
                                          for note, n, first in self.reasons()]}

    def lines(self, done: str = "counted under their positions") -> list[str]:
        """One line per note, as the commands report them (``done``: what was
        done with the games whose castling field was repaired)."""
        found = []
        if self.repaired:
            found.append(f"{REPAIRED}: {_games(self.repaired)}, {done}"
                         f"{_first(self.first.get(REPAIRED, []))}")
        for note, n, first in self.reasons():
            found.append(f"not in family: {note}: {_games(n)}{_first(first)}")
        return found


def _games(n: int) -> str:
    return f"{n:,} game{'s' * (n != 1)}"


def _first(first: list[tuple[str, int]]) -> str:
    """`` (first: a.pgn games 4, 9, b.pgn game 1)``, or nothing."""
    if not first:
        return ""
    parts: list[str] = []
    for path, numbers in _grouped(first):
        parts.append(f"{path} game{'s' * (len(numbers) > 1)} " + ", ".join(map(str, numbers)))
    return " (first: " + ", ".join(parts) + ")"


def _grouped(first: list[tuple[str, int]]) -> list[tuple[str, list[int]]]:
    groups: list[tuple[str, list[int]]] = []
    for path, number in first:
        if groups and groups[-1][0] == path:
            groups[-1][1].append(number)
        else:
            groups.append((path, [number]))
    return groups


class Starts:
    """The family's position a game's header names, remembered per distinct
    start text (up to :data:`MEMO` of them).

    ``number_tags``: tags whose value may be the position's number or label
    when the game has no FEN (TCEC's ``Opening``, ``FRCId``, ...).
    """

    def __init__(self, family: Family, number_tags: tuple[bytes, ...] = NUMBER_TAGS) -> None:
        from solver.notation.variants import pgn_variant

        self.family = family
        self.identify = family.fen_identifier()
        own = pgn_variant(family.ruleset)
        keys = set(CHESS) | {"chess960"} | {variant_key(n.encode()) for n in
                                              (family.name, family.ruleset.variant or "") if n}
        if own:
            keys.add(variant_key(own.encode()))
        self.variants: frozenset[str] = frozenset(keys)
        self.number_tags = number_tags
        self.fens: dict[bytes, tuple[int | None, str | None]] = {}
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
        return self.fen_start(text)[0]

    def fen_start(self, text: bytes) -> Start:
        """The id of the start a FEN shows and its note (see :data:`Start`): a
        FEN whose pieces are a start of the family but whose castling field is
        impossible is that start, :data:`REPAIRED` (when one castling field
        makes it a start, and only one start).

        >>> from solver.family import Family
        >>> starts = Starts(Family.load("chess960"))
        >>> starts.fen_start(b"qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HEhe - 0 1")
        (105, 'castling field repaired')
        >>> starts.fen_start(b"?")
        (None, "FEN '?' names no position")
        >>> starts.fen_start(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBRN w KQkq - 0 1")
        (None, 'FEN is not a start of chess960')
        """
        known = self.fens.get(text)
        if known is not None:
            return known
        found = self._read_fen(text)
        if len(self.fens) >= MEMO:
            self.fens.clear()
        self.fens[text] = found
        return found

    def _read_fen(self, text: bytes) -> Start:
        try:
            fen = text.decode("utf-8").strip()
        except UnicodeDecodeError:
            return None, "FEN cannot be read (not UTF-8)"
        if fen in ("", "?", "-"):
            return None, f"FEN {fen!r} names no position"
        try:
            return self.identify(fen), None
        except CastlingRightsError:
            return self._repaired(fen)
        except (FenSyntaxError, UnknownPieceError, RankLengthError):
            return None, "FEN cannot be read"
        except NotStartPositionError:
            return None, "FEN is not a start position"
        except Chess960Error:
            return None, f"FEN is not a start of {self.family.name}"

    def _repaired(self, fen: str) -> Start:
        """A FEN's start with its castling field replaced, when one start takes it."""
        import contextlib

        fields = fen.split()
        found: set[int] = set()
        for castling in ("KQkq", "-"):
            with contextlib.suppress(Chess960Error):
                found.add(self.identify(" ".join([*fields[:2], castling, *fields[3:]])))
        if len(found) == 1:
            return found.pop(), REPAIRED
        return None, "FEN's castling field is impossible"

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
        that says neither its FEN nor its number (:meth:`start` says why)."""
        return self.start(header, fen, variant)[0]

    def start(self, header: bytes, fen: bytes | None = None,
              variant: bytes | None = b"?") -> Start:
        """The id of the game's start in the family and its note (see
        :data:`Start`): :data:`REPAIRED`, or why it is not in the family.

        >>> from solver.family import Family
        >>> starts = Starts(Family.load("chess960"))
        >>> starts.start(b'[Variant "Atomic"]'), starts.start(b'[Variant "Chess960"]')
        ((None, "Variant 'Atomic' is not chess960"), (None, 'no FEN and no position number'))
        """
        if variant == b"?":
            variant = tag(header, b"Variant")
        key = variant_key(variant)
        if key not in self.variants:
            shown = (variant or b"").decode("utf-8", "replace")
            return None, f"Variant {shown!r} is not {self.family.name}"
        if fen is None:
            fen = tag(header, b"FEN")
        if fen is not None:
            return self.fen_start(fen)
        found, _ = self.numbered(header)
        if found is not None:
            return found, None
        if key in CHESS:  # chess from its own start
            if self.classical is None:
                return None, f"chess's start is not in {self.family.name}"
            return self.classical, None
        return None, NO_START

