"""``chess960 games tree``: an opening explorer per start position.

For each start position of the family met in the games (found as ``games
stats`` finds it), the tree of the first plies of its games, keyed by
normalised SAN: within one start position a sequence of SAN moves names one
path, so no move generator is needed. Each node counts its games, White's
wins, draws, Black's wins, the players' ratings (for their average) and the
last date it was played; the tree grows with the distinct lines, not with
the games. Plainly written games are read in bulk, a pattern per header shape
(:mod:`solver.games.tree_bulk`), the others one at a time, alike.

>>> from solver.family import Family
>>> pgn = (b'[Result "1-0"]\\n[WhiteElo "1500"]\\n[BlackElo "1700"]\\n\\n'
...        b'1. e4 {[%clk 0:03:00]} e5?! 2. 0-0 $1 (2. d4) 1-0\\n\\n'
...        b'[Result "1/2-1/2"]\\n\\n1. e4 c5 1/2-1/2\\n')
>>> tree = Tree(Family.load("chess960"), plies=3)
>>> tree.add(iter([pgn]), "x")
2
>>> root = tree.roots[518]
>>> root.games, sorted(root.children["e4"].children), root.children["e4"].rating()
(2, ['c5', 'e5'], 1600.0)
>>> list(root.children["e4"].children["e5"].children)
['O-O']
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from solver.errors import TreeError, quote
from solver.games.fast import no_collection
from solver.games.headers import MEMO, RESULTS, Notes, Start, Starts, tag
from solver.games.reading import scan
from solver.games.stats import result_of

if TYPE_CHECKING:
    from solver.family import Family

#: Told of each game skipped: its number and why.
SkipReport = Callable[[int, str], object]

#: The number of plies a tree keeps by default.
PLIES: Final = 12

#: lichess's speeds, by the estimated duration of a game (base + 40 * increment
#: seconds): the ranges of ``chess.Speed`` in scalachess (``Speed.scala``:
#: UltraBullet 0 to 29 s, Bullet 30 to 179, Blitz 180 to 479, Rapid 480 to 1499,
#: Classical 1500 to 21599, Correspondence from 21600), which lichess's
#: opening explorer (lila-openingexplorer) filters by; ``-`` (no clock) is
#: correspondence.
SPEEDS: Final = (("ultrabullet", 30), ("bullet", 180), ("blitz", 480), ("rapid", 1500),
                 ("classical", 21600), ("correspondence", None))

#: lichess's explorer's rating groups: a group covers its rating up to the next one's.
RATING_GROUPS: Final = (0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500)

_TOKEN: Final = re.compile(
    rb"\{[^}]*\}?"                      # a comment (lichess's [%clk ...] among them)
    rb"|;[^\n]*"                        # a comment to the line's end
    rb"|(?m:^%[^\n]*)"                  # an escaped line
    rb"|\$\d+"                          # a NAG
    rb"|[()]"                           # a variation's bounds
    rb"|\d+\.+"                         # a move number
    rb"|(?:1-0|0-1|1/2-1/2|\*)(?![-\w/])"  # the result
    rb"|[^\s{}();$]+")                  # a move
#: Matches one after the other, each where the last ended (not in typeshed).
_SCANNER: Final[Any] = re.Pattern.scanner  # type: ignore[attr-defined]
_COMMENT: Final = re.compile(rb"\{[^}]*\}?")
_RESULTS: Final = frozenset((b"1-0", b"0-1", b"1/2-1/2", b"*"))
_CASTLES: Final = {b"0-0": b"O-O", b"0-0-0": b"O-O-O"}


def moves(text: bytes, plies: int) -> list[str]:
    """The first ``plies`` moves of a game's movetext, as normalised SAN:
    move numbers, comments, NAGs, variations and ``!?`` suffixes dropped,
    ``0-0`` written ``O-O``, ``+``/``#`` kept; up to the result.

    >>> moves(b"1. e4!? {[%clk 0:03:00]} 1... c5 $2 (1... e5 2. Nf3) 2. 0-0-0+ ; x\\n Nc6 1-0", 9)
    ['e4', 'c5', 'O-O-O+', 'Nc6']
    >>> moves(b"1.e4 e5 2.Nf3 *", 2)
    ['e4', 'e5']
    """
    return moves_in(text, 0, len(text), plies)


def moves_in(data: bytes, start: int, end: int, plies: int) -> list[str]:
    """:func:`moves` of the movetext ``data[start:end]``, reading only its start."""
    if plies <= 0:
        return []
    if plies <= 64:
        plain = _plies(plies).match(data, start, end)
        if plain is not None:  # plainly written: one match reads them all
            sans = _SANS
            line = [sans.get(token) or _san_of(token) for token in plain.groups()]
            if len(sans) >= 1 << 16:
                sans.clear()
            return line
    size = 40 * plies + 64  # read a window of the moves, wider until it holds them
    while True:
        found = _moves(data[start:min(end, start + size)], plies, start + size >= end)
        if found is not None:
            return found
        size *= 4


def _moves(text: bytes, plies: int, whole: bool) -> list[str] | None:
    """:func:`moves` of the start ``text`` of a movetext (``whole``: all of it);
    None when the moves may go on past its end."""
    if b";" not in text and b"\n%" not in text and not text.startswith(b"%"):
        plain = _COMMENT.sub(b" ", text) if b"{" in text else text
        if b"(" not in plain:
            return _plain_moves(plain.split(), plies, whole)
    found: list[str] = []
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if not whole and match.end() == len(text):
            return None  # the token may be cut short
        first = token[:1]
        if first in b"{;%$" or token.endswith(b"."):
            continue
        if token == b"(":
            depth += 1
        elif token == b")":
            depth = max(depth - 1, 0)
        elif depth:
            continue
        elif token in _RESULTS:
            return found
        else:
            found.append(_san(token))
            if len(found) >= plies:
                return found
    return found if whole else None


def _plain_moves(words: list[bytes], plies: int, whole: bool) -> list[str] | None:
    """:func:`_moves` of movetext words with no comment, variation or ``;``."""
    if not whole and words:
        words.pop()  # it may be cut short
    found: list[str] = []
    known = _WORDS
    for word in words:
        move = known.get(word, _UNKNOWN)
        if move is _UNKNOWN:
            move = _word(word)
        if move is None:
            continue
        if not move:
            return found
        found.append(move)
        if len(found) >= plies:
            return found
    return found if whole else None


#: Between plainly written moves: blanks and whole ``{}`` comments.
_GAP: Final = rb"(?:\s|\{[^}]*\})*"
#: A plainly written move: no digit, dot, bracket, ``;``, ``$``, ``%`` or ``*``
#: (but ``0-0``, ``0-0-0``), then a blank, a ``{`` or the end.
_PLAIN_MOVE: Final = rb"((?:[^\s{}();$.%*0-9]|0-0)[^\s{}();$.]*)(?![^\s{])"


@functools.lru_cache(maxsize=8)
def _plies(plies: int) -> re.Pattern[bytes]:
    """The first ``plies`` moves of plainly written movetext (each maybe after
    its number, ``1.`` or ``1...``), each a group: as :func:`_moves` reads them
    where the pattern matches (other text, and shorter games, are read by it)."""
    ply = _GAP + rb"(?:\d+\.+)?" + _GAP + _PLAIN_MOVE
    return re.compile(ply * plies)


#: Moves met by the pattern of :func:`_plies`, as the tree keys them.
_SANS: dict[bytes, str] = {}


def _san_of(token: bytes) -> str:
    _SANS[token] = move = _san(token)
    return move


_UNKNOWN: Final = "?"
#: Words of plain movetext read so far: the move they are, "" (a result) or
#: None (a move number, a NAG).
_WORDS: dict[bytes, str | None] = {}


def _word(word: bytes) -> str | None:
    """What a word of plain movetext is (see :data:`_WORDS`), remembered."""
    if word.endswith(b".") or word.startswith(b"$"):
        move: str | None = None
    else:
        token = word.rpartition(b".")[2] if word[:1].isdigit() else word  # 1.e4
        move = "" if token in _RESULTS else _san(token)
    if len(_WORDS) >= 1 << 16:
        _WORDS.clear()
    _WORDS[word] = move
    return move


def _san(token: bytes) -> str:
    """A move as the tree keys it: no ``!?`` suffix, ``0-0`` as ``O-O``."""
    if token.endswith((b"!", b"?")):
        token = token.rstrip(b"!?") or token
    if token.startswith(b"0-0"):
        plain = token.rstrip(b"+#")
        token = _CASTLES.get(plain, plain) + token[len(plain):]
    return token.decode("utf-8", "replace")


class Node:
    """One line's counts: games, White's wins, draws, Black's wins, the sum and
    number of the average ratings of games whose players both have one, the
    last date played (``YYYY.MM.DD``, "" when none is known), and the next moves."""

    __slots__ = ("black", "children", "draws", "games", "last", "rated", "ratings", "white")

    def __init__(self) -> None:
        self.games = self.white = self.draws = self.black = self.rated = 0
        self.ratings = 0.0
        self.last = ""
        self.children: dict[str, Node] = {}

    def count(self, result: int, rating: float | None, date: str) -> None:
        self.games += 1
        if result == 0:
            self.white += 1
        elif result == 1:
            self.draws += 1
        elif result == 2:
            self.black += 1
        if rating is not None:
            self.ratings += rating
            self.rated += 1
        self.last = max(self.last, date)

    def rating(self) -> float | None:
        """The average rating of the node's rated games, or None."""
        return self.ratings / self.rated if self.rated else None

    def top_share(self) -> float | None:
        """The share of the most common next move among the games that go on."""
        total = sum(child.games for child in self.children.values())
        return max(c.games for c in self.children.values()) / total if total else None

    def add_counts(self, other: Node) -> None:
        """Add ``other``'s counts (not its lines) to this node's."""
        self.games += other.games
        self.white += other.white
        self.draws += other.draws
        self.black += other.black
        self.ratings += other.ratings
        self.rated += other.rated
        self.last = max(self.last, other.last)

    def merge(self, other: Node) -> None:
        """Add ``other``'s counts and lines to this node's."""
        self.add_counts(other)
        for move, child in other.children.items():
            mine = self.children.get(move)
            if mine is None:
                self.children[move] = child
            else:
                mine.merge(child)

    def to_json(self, min_games: int = 0) -> dict[str, Any]:
        return _node_json(self, min_games)

    @classmethod
    def from_json(cls, data: Any, where: str) -> Node:
        """A node from :meth:`to_json`'s form; raises :class:`TreeError`."""
        node = cls()
        try:
            node.games, node.white, node.draws, node.black, node.rated = (
                int(data[k]) for k in ("games", "white", "draws", "black", "rated_games"))
            node.ratings = float(data["rating_sum"])
            node.last = str(data.get("last_date") or "")
            children = data["children"]
            if not isinstance(children, dict):
                raise TypeError
        except (KeyError, TypeError, ValueError) as exc:
            raise TreeError(f"{where}: not a tree node made by 'games tree --format json' "
                            f"(reading {exc!s})") from None
        for move, child in children.items():
            node.children[str(move)] = cls.from_json(child, where)
        return node


def _ordered(children: dict[str, Node]) -> list[tuple[str, Node]]:
    return sorted(children.items(), key=_order)


def _order(item: tuple[str, Node]) -> tuple[int, str]:
    return -item[1].games, item[0]


def _node_json(node: Node, min_games: int) -> dict[str, Any]:
    """:meth:`Node.to_json`, in one pass over the children (the tree's output
    costs as much as its reading)."""
    children = node.children
    share: float | None = None
    below: dict[str, Any] = {}
    if children:
        counts = [child.games for child in children.values()]
        total = sum(counts)
        if total:
            share = round(max(counts) / total, 4)
        items = sorted(children.items(), key=_order) if len(children) > 1 else children.items()
        below = {move: _node_json(child, min_games) for move, child in items
                 if child.games >= min_games}
    rated = node.rated
    return {"games": node.games, "white": node.white, "draws": node.draws,
            "black": node.black, "rating_sum": node.ratings, "rated_games": rated,
            "avg_rating": round(node.ratings / rated, 1) if rated else None,
            "last_date": node.last or None, "top_share": share, "children": below}


def _node_text(node: Node, min_games: int, parts: list[str]) -> None:
    """The members of :func:`_node_json`'s object for ``node``, as :func:`dumps`
    writes them, appended to ``parts`` (four times quicker than making the
    objects and encoding them)."""
    children = node.children
    share = "null"
    items: Iterable[tuple[str, Node]] = ()
    if children:
        counts = [child.games for child in children.values()]
        total = sum(counts)
        if total:
            share = repr(round(max(counts) / total, 4))
        items = sorted(children.items(), key=_order) if len(children) > 1 else children.items()
    rated = node.rated
    parts.append(
        f'"games":{node.games},"white":{node.white},"draws":{node.draws},'
        f'"black":{node.black},"rating_sum":{node.ratings!r},"rated_games":{rated},'
        f'"avg_rating":{repr(round(node.ratings / rated, 1)) if rated else "null"},'
        f'"last_date":{_text(node.last) if node.last else "null"},"top_share":{share},'
        '"children":{')
    first = True
    for move, child in items:
        if child.games >= min_games:
            parts.append(("" if first else ",") + _text(move) + ":{")
            first = False
            _node_text(child, min_games, parts)
            parts.append("}")
    parts.append("}")


@functools.lru_cache(maxsize=1 << 16)
def _text(value: str) -> str:
    """A string as :func:`dumps` writes it."""
    return json.dumps(value, ensure_ascii=False)


@dataclass
class Filters:
    """Which games a tree takes, as lichess's explorer filters them."""

    speeds: frozenset[str] | None = None
    low: float | None = None
    high: float | None = None
    since: str = ""
    until: str = ""
    player: str | None = None
    color: str | None = None

    def everything(self) -> bool:
        """Whether every game is taken (no filter is set)."""
        return self == _EVERYTHING

    def takes(self, header: bytes, rating: float | None, date: str) -> bool:
        """Whether the game of ``header`` (its average rating and date read) is taken."""
        return self.takes_tags(lambda name: tag(header, name), rating, date)

    def takes_tags(self, value: Callable[[bytes], bytes | None], rating: float | None,
                   date: str) -> bool:
        """:meth:`takes`, the game's tags given by ``value(name)``."""
        if self.speeds is not None and speed(value(b"TimeControl")) not in self.speeds:
            return False
        if not self._rated(rating):
            return False
        if (self.since or self.until) and (len(date) < 7 or "?" in date[:7]):
            return False
        if self.since and date[:7] < self.since:
            return False
        if self.until and date[:7] > self.until:
            return False
        return self.player is None or self._played(value)

    def _rated(self, rating: float | None) -> bool:
        if self.low is None and self.high is None:
            return True
        return rating is not None and (self.low is None or rating >= self.low) and \
            (self.high is None or rating < self.high)

    def _played(self, value: Callable[[bytes], bytes | None]) -> bool:
        sides = ("white", "black") if self.color is None else (self.color,)
        for side in sides:
            name = value(side.capitalize().encode())
            if name is not None and name.decode("utf-8", "replace").casefold() == self.player:
                return True
        return False


_EVERYTHING: Final = Filters()


def speed(control: bytes | None) -> str | None:
    """lichess's speed of a ``TimeControl`` value (``180+2``, ``-``), or None.

    >>> speed(b"180+2"), speed(b"15+0"), speed(b"600+5"), speed(b"-"), speed(b"?")
    ('blitz', 'ultrabullet', 'rapid', 'correspondence', None)
    """
    if control is None:
        return None
    text = control.strip()
    if text == b"-":
        return "correspondence"
    match = re.fullmatch(rb"(\d+)(?:\+(\d+))?", text)
    if match is None:
        return None
    seconds = int(match[1]) + 40 * int(match[2] or 0)
    for name, limit in SPEEDS:
        if limit is None or seconds < limit:
            return name
    return None  # pragma: no cover


def parse_speeds(texts: Sequence[str]) -> frozenset[str] | None:
    """The speeds named in ``texts`` (comma-separated), or None when none is."""
    names = {name for name, _ in SPEEDS}
    found = set()
    for text in texts:
        for item in text.split(","):
            key = item.strip().lower().replace("-", "").replace("_", "")
            if key not in names:
                raise TreeError(f"speed {item!r} is not one of {', '.join(n for n, _ in SPEEDS)}")
            found.add(key)
    return frozenset(found) if found else None


def parse_rating(text: str | None) -> tuple[float | None, float | None]:
    """``A-B`` (A ≤ average < B; ``A-`` or ``-B`` open) or a lichess group
    (``1600``: 1600 to 1799; ``2500``: 2500 and up) as bounds.

    >>> parse_rating("1600-2200"), parse_rating("2200"), parse_rating("2500")
    ((1600.0, 2200.0), (2200.0, 2500.0), (2500.0, None))
    """
    if text is None:
        return None, None
    match = re.fullmatch(r"\s*(\d*)\s*(-?)\s*(\d*)\s*", text)
    if match is None or not (match[1] or match[3]) or (not match[2] and not match[1]):
        raise TreeError(f"rating {text!r} is not A-B or one of lichess's groups "
                        f"({', '.join(map(str, RATING_GROUPS))})")
    if not match[2]:
        group = int(match[1])
        if group not in RATING_GROUPS:
            raise TreeError(f"rating group {text!r} is not one of lichess's groups "
                            f"({', '.join(map(str, RATING_GROUPS))})")
        index = RATING_GROUPS.index(group)
        upper = RATING_GROUPS[index + 1] if index + 1 < len(RATING_GROUPS) else None
        return float(group), None if upper is None else float(upper)
    low = float(match[1]) if match[1] else None
    high = float(match[3]) if match[3] else None
    if low is not None and high is not None and low >= high:
        raise TreeError(f"rating {text!r} is an empty range "
                        "(its low end is not below its high end)")
    return low, high


def parse_month(text: str | None, option: str) -> str:
    """``YYYY-MM`` as a PGN date's ``YYYY.MM`` ("" for None)."""
    if text is None:
        return ""
    match = re.fullmatch(r"(\d{4})-(\d{2})", text.strip())
    if match is None or not 1 <= int(match[2]) <= 12:
        raise TreeError(f"{option} {text!r} is not a month written YYYY-MM")
    return f"{match[1]}.{match[2]}"


def _rating(header: bytes, tags: dict[bytes, bytes] | None = None) -> float | None:
    if tags is None:
        return _rating_of(tag(header, b"WhiteElo"), tag(header, b"BlackElo"))
    return _rating_of(tags.get(b"WhiteElo"), tags.get(b"BlackElo"))


def _rating_of(white: bytes | None, black: bytes | None) -> float | None:
    """The average of two ``Elo`` tags' values, or None (one missing, or not a number)."""
    if white is None or black is None or not white.strip().isdigit() or \
            not black.strip().isdigit():
        return None
    return (int(white) + int(black)) / 2


_DATE: Final = re.compile(r"\d{4}\.[\d?]{2}\.[\d?]{2}")


def _date(header: bytes, tags: dict[bytes, bytes] | None = None) -> str:
    if tags is None:
        value = tag(header, b"UTCDate") or tag(header, b"Date") or b""
    else:
        value = tags.get(b"UTCDate") or tags.get(b"Date") or b""
    return _date_text(value)


def _date_text(value: bytes) -> str:
    """A date tag's value, when it is a date (``YYYY.MM.DD``, ``?`` for unknown digits); else ""."""
    text = value.decode("ascii", "replace").strip()
    return text if _DATE.fullmatch(text) else ""


#: A plainly written tag line: its name and a value with no quote or backslash.
_PLAIN_TAG: Final = re.compile(rb'^\[([A-Za-z0-9_]+) "([^"\\\n\r]*)"\]$', re.MULTILINE)


def plain_tags(header: bytes) -> dict[bytes, bytes] | None:
    """The tags of a header block whose every line is a plain tag line
    (``[Name "value"]``, no escape, no ``\\r``), the first of each name,
    found in one pass; None for any other header (read by
    :func:`~solver.games.headers.tag`, which gives the same values here).

    >>> plain_tags(b'[FEN "x"]\\n[Result "1-0"]\\n[FEN "y"]')
    {b'FEN': b'x', b'Result': b'1-0'}
    >>> plain_tags(b'[FEN "x"]\\n[Result  "1-0"]') is None
    True
    """
    found = _PLAIN_TAG.findall(header)
    if len(found) != header.count(b"\n") + 1:
        return None
    found.reverse()  # the first of a name wins
    return dict(found)


#: A leaf's counts: games, White's wins, draws, Black's wins, unfinished games,
#: rated games, the sum of their ratings, the last date (see :class:`Node`).
Counts = list[Any]

#: The games of one start, per line: its moves (normalised SAN, or as
#: written, up to a None), and their counts.
Leaves = dict[tuple[Any, ...], Counts]

#: Where each result is counted in :data:`Counts`.
_SLOT: Final = {b"1-0": 1, b"1/2-1/2": 2, b"0-1": 3, b"*": 4}


#: Counts per start and next move (as written; None: the line's end).
Tables = dict[int, dict[Any, Counts]]


@dataclass(frozen=True)
class Summary:
    """What a worker of a summarised tree (:meth:`Tree.summarise`) sends: the
    counts of its games through ``line``, per start and next move, summed;
    and per start, how many first moves of ``line`` its games played at most."""

    line: tuple[str, ...]
    tables: Tables
    deepest: dict[int, int]


def _sum(lines: list[Counts]) -> Counts:
    """The counts of ``lines`` summed, in a new list."""
    if len(lines) == 1:
        return list(lines[0])
    columns = list(zip(*lines, strict=True))
    return [*map(sum, columns[:7]), max(columns[7])]


def _add_counts(mine: Counts, other: Counts) -> None:
    for k in range(7):
        mine[k] += other[k]
    mine[7] = max(mine[7], other[7])


def _count(table: dict[tuple[Any, ...], Counts], key: tuple[Any, ...], slot: int,
           rating: float | None, last: str) -> None:
    """Count one game under ``key``: its result's ``slot`` (see :data:`_SLOT`),
    its average rating (None: not rated) and its date (``""``: not known)."""
    counts = table.get(key)
    if counts is None:
        counts = table[key] = [0, 0, 0, 0, 0, 0, 0.0, ""]
    counts[0] += 1
    counts[slot] += 1
    if rating is not None:
        counts[5] += 1
        counts[6] += rating
    if last > counts[7]:  # noqa: PLR1730 (a call a game costs)
        counts[7] = last


def _add_line(leaves: Leaves, line: tuple[Any, ...], counts: Counts) -> None:
    """Add a line's counts to ``leaves`` (its own counts: changed in place)."""
    have = leaves.get(line)
    if have is None:
        leaves[line] = counts
    else:
        _add_counts(have, counts)


def _into(node: Node, counts: Counts) -> None:
    node.games += counts[0]
    node.white += counts[1]
    node.draws += counts[2]
    node.black += counts[3]
    node.rated += counts[5]
    node.ratings += counts[6]
    node.last = max(node.last, counts[7])


def _summed(lines: list[Counts]) -> Node:
    """A node of the counts of ``lines`` summed (many: column by column, in C)."""
    node = Node()
    for counts in [_sum(lines)] if len(lines) > 4 else lines:  # (a few: quicker one by one)
        _into(node, counts)
    return node


def _move(token: Any) -> str:
    """A line's move as the tree keys it (a token as written: normalised)."""
    if isinstance(token, str):
        return token
    return _SANS.get(token) or _san_of(token)


def _group(found: tuple[bytes | None, ...], at: dict[bytes, int], name: bytes) -> bytes | None:
    """The value of the tag ``name`` in a game read in bulk (its groups ``found``)."""
    return found[at[name]]


def _normalised(leaves: Leaves) -> Leaves:
    """``leaves`` with their moves normalised (see :func:`_move`), lines that
    become one summed (in new counts: ``leaves`` is not changed)."""
    get = _SANS.get
    found: Leaves = {}
    for line, counts in leaves.items():
        moves = tuple(map(get, line))
        if None in moves:  # a move not met yet, a short game, or normalised already
            moves = tuple([_move(token) for token in line if token is not None])
        have = found.get(moves)
        if have is None:
            found[moves] = counts
        else:  # a new list: ``leaves``' own are left as they are
            found[moves] = summed = have.copy()
            _add_counts(summed, counts)
    return found


class Tree:
    """The trees of the first ``plies`` plies, per start position, over any number of inputs.

    The games are summed per start and line (:attr:`leaves`); the tree of
    nodes (:attr:`roots`) is built from them when it is asked for, and the
    explorer's table of one node (:meth:`text`) from the lines through it.
    """

    def __init__(self, family: Family, plies: int = PLIES, filters: Filters | None = None) -> None:
        if plies < 0:
            raise TreeError(f"plies {plies!r} is negative")
        self.family = family
        self.plies = plies
        self.filters = filters or Filters()
        self.starts = Starts(family)
        self.games = 0
        self.skipped = 0
        self.outside = 0
        self.left_out = 0
        self.notes = Notes()  # repaired castling fields, why games are not in the family
        self._at: tuple[str | None, int] = (None, 0)
        self._leaves: dict[int, Leaves] = {}
        #: Games read one by one, not yet in :attr:`leaves`: by ``(id, *moves)``.
        self._bulked: dict[tuple[Any, ...], Counts] = {}
        #: Games read in bulk, alike: by ``(id, moves)``, the moves as written
        #: joined by spaces (one object a game: quicker to make and look up).
        self._joined: dict[tuple[int, bytes], Counts] = {}
        #: Other trees' games (workers' :attr:`rows`), alike, not yet in :attr:`leaves`.
        self._absorbed: list[dict[tuple[Any, ...], Counts]] = []
        #: Each move as written, one object each (see :meth:`_split`).
        self._tokens: dict[bytes, bytes] = {}
        self._built: dict[int, Node] | None = None
        self._shapes: set[tuple[bytes, ...]] = set()  # header shapes read in bulk
        self._starts: dict[tuple[bytes | None, bytes | None], Start] = {}  # (FEN, Variant)
        self._known: dict[tuple[bytes | None, bytes | None], int] = {}  # those with no note
        self._dates: dict[bytes | None, tuple[str, str]] = {}  # date tag: (date, last date)
        #: The line whose table alone is wanted (see :meth:`summarise`), and the
        #: tables through it that workers sent instead of their lines.
        self._line: tuple[str, ...] | None = None
        self._tables: list[tuple[Tables, dict[int, int]]] = []

    def summarise(self, line: Sequence[str]) -> None:
        """Only the explorer's tables after ``line`` are wanted of this tree
        (:meth:`text`, :meth:`after`, :meth:`played`, :attr:`ids`): a worker
        then sends the counts through ``line`` per start and next move, summed,
        instead of every line it read (the JSON, CSV and the page need the
        lines: :attr:`leaves` and :attr:`roots` refuse a tree given such sums)."""
        self._line = tuple(line)

    @property
    def leaves(self) -> dict[int, Leaves]:
        """The games read, per start and line (see :data:`Leaves`)."""
        if self._tables:
            raise RuntimeError("a summarised tree holds the tables after its line only")
        if self._bulked or self._absorbed or self._joined:
            self._settle()
        return self._leaves

    def _flat(self) -> list[dict[tuple[Any, ...], Counts]]:
        """The games not yet in :attr:`leaves`, by ``(id, *moves)``: read one by
        one, absorbed (those read in bulk: :attr:`_joined`, see :meth:`_split`)."""
        return [self._bulked, *self._absorbed]

    def _split(self) -> None:
        """Put the games read in bulk (:attr:`_joined`) with those read one by one,
        by ``(id, *moves)``: each move as written, one object a move."""
        tokens, bulked = self._tokens, self._bulked
        for (number, joined), counts in self._joined.items():
            if len(tokens) >= MEMO:
                tokens.clear()
            moves = [tokens.setdefault(move, move) for move in joined.split(b" ")] if joined \
                else []
            _add_line(bulked, (number, *moves), counts)
        self._joined = {}

    def _settle(self) -> None:
        """Put the games read in bulk and absorbed in :attr:`leaves`."""
        self._split()
        flat, self._bulked, self._absorbed = self._flat(), {}, []
        leaves = self._leaves
        for games in flat:
            for key, counts in games.items():
                mine = leaves.get(key[0])
                if mine is None:
                    mine = leaves[key[0]] = {}
                _add_line(mine, key[1:], counts)
        self._built = None

    @property
    def roots(self) -> dict[int, Node]:
        """The tree of each start read, by id (built from :attr:`leaves`)."""
        if self._built is None:
            with no_collection():
                self._built = {number: self._root(leaves)
                               for number, leaves in self.leaves.items()}
        return self._built

    @staticmethod
    def _root(leaves: Leaves) -> Node:
        root = Node()
        for line, counts in _normalised(leaves).items():
            games, white, draws, black, _, rated, ratings, last = counts
            node = root
            _into(node, counts)
            for move in line:
                children = node.children
                child = children.get(move)
                if child is None:
                    child = children[move] = Node()
                child.games += games
                child.white += white
                child.draws += draws
                child.black += black
                child.rated += rated
                child.ratings += ratings
                if last > child.last:  # noqa: PLR1730 (a call a node costs)
                    child.last = last
                node = child
        return root

    def keep(self, ids: Iterable[int]) -> None:
        """Keep only the starts ``ids``."""
        wanted = set(ids)
        self._joined = {key: counts for key, counts in self._joined.items() if key[0] in wanted}
        self._bulked, self._absorbed = {}, [
            {key: counts for key, counts in games.items() if key[0] in wanted}
            for games in self._flat()]
        self._leaves = {n: leaves for n, leaves in self._leaves.items() if n in wanted}
        self._tables = [({n: nexts for n, nexts in tables.items() if n in wanted},
                         {n: depth for n, depth in deepest.items() if n in wanted})
                        for tables, deepest in self._tables]
        self._built = None

    @property
    def ids(self) -> list[int]:
        """The starts of the games read, in order."""
        held = {key[0] for games in (*self._flat(), self._joined) for key in games}
        held.update(self._leaves)
        for _, deepest in self._tables:
            held.update(deepest)
        return sorted(held)

    def add(self, pieces: Iterator[bytes], path: str, report: SkipReport | None = None) -> int:
        """Add the games in ``pieces`` (one input); returns how many were read.
        Stretches of plainly written games are read in bulk
        (:mod:`solver.games.tree_bulk`), the others game by game, alike."""
        from solver.games.fast import read_pieces

        read: int = read_pieces(self, pieces, path, report)
        return read

    def add_file(self, path: str, size: int | None, report: SkipReport | None = None,
                 pieces: Iterator[bytes] | None = None) -> int:
        """Add a plain file's games, mapped a window at a time: in worker
        processes, one per core and one byte range each, when it is large (as
        ``games stats`` reads it, see :func:`solver.games.fast.in_workers`);
        as :meth:`add` does with its ``pieces`` when its size is not known."""
        from solver.games.fast import PARALLEL_FROM, in_workers
        from solver.processes import can_fork, cores

        workers = min(cores(), 8)
        if size is not None and size >= PARALLEL_FROM and workers > 1 and can_fork():
            read: int = in_workers(self, path, size, report, workers)
            return read
        if size:
            return self.add_range(path, 0, size, report)
        assert pieces is not None
        return self.add(pieces, path, report)

    # -- what solver.games.fast.in_workers and read_range ask of a tally ---------------

    def reset(self) -> None:
        """Forget every game (a worker starts from nothing)."""
        self._leaves = {}
        self._bulked = {}
        self._joined = {}
        self._absorbed = []
        self._tables = []
        self._built = None
        self.games = self.skipped = self.outside = self.left_out = 0
        self.notes = Notes()

    def add_range(self, path: str, start: int, end: int, report: SkipReport | None = None) -> int:
        """Add the games in bytes ``[start, end)`` of a plain file (``start``: 0
        or where a game starts), mapped a window at a time."""
        from solver.games.fast import read_range

        with no_collection():  # (between regions too: each window's lines would be walked)
            read: int = read_range(self, path, start, end, report)
        return read

    def compact(self) -> None:
        """When summarised (:meth:`summarise`), keep of the games read so far only
        their tables through the line (while workers still read theirs)."""
        if self._line is not None and (self._bulked or self._joined or self._absorbed
                                       or self._leaves):
            summary = self._summary()
            self._bulked, self._joined, self._absorbed, self._leaves = {}, {}, [], {}
            self._tables.append((summary.tables, summary.deepest))
            self._built = None

    def _summary(self) -> Summary:
        """The counts through the summarised line, per start and next move, summed."""
        assert self._line is not None
        with no_collection():
            through, deepest = self._through(self._line)
            tables = {number: {token: _sum(lines) for token, lines in nexts.items()}
                      for number, nexts in through.items()}
        return Summary(self._line, tables, deepest)

    @property
    def rows(self) -> tuple[dict[tuple[Any, ...], Counts] | Summary, int]:
        """The games read, by ``(id, *moves)`` (as read in bulk: each move as
        written, one object a move, so that they are sent once each), and
        those filtered out; for a summarised tree (:meth:`summarise`), the
        counts through its line per start and next move instead."""
        if self._line is not None:
            return self._summary(), self.left_out
        self._split()
        rows = self._bulked
        for games in self._absorbed:
            for key, counts in games.items():
                _add_line(rows, key, counts)
        for number, leaves in self._leaves.items():
            for line, counts in leaves.items():
                _add_line(rows, (number, *line), counts)
        self._leaves, self._absorbed = {}, []
        return rows, self.left_out

    def shared(self) -> tuple[Any, ...]:
        """What a worker sends of its tree, as :meth:`absorb` takes it."""
        return self.rows, self.outside, self.games, self.skipped, self.notes

    def absorb(self, rows: tuple[dict[tuple[Any, ...], Counts] | Summary, int], outside: int,
               games: int, skipped: int, notes: Notes | None = None, offset: int = 0) -> None:
        """Add another tree's :attr:`rows` and counts (a worker's, its games
        numbered after ``offset``), after this one's games."""
        theirs, left_out = rows
        if isinstance(theirs, Summary):
            if theirs.line != self._line:
                raise RuntimeError(f"tables after {theirs.line!r} given to a tree "
                                   f"summarised after {self._line!r}")
            self._tables.append((theirs.tables, theirs.deepest))
        else:
            self._absorbed.append(theirs)  # (summed with the others' when needed)
        self._built = None
        self.left_out += left_out
        self.outside += outside
        self.games += games
        self.skipped += skipped
        if notes is not None:
            self.notes.absorb(notes, offset)

    def add_region(self, buf: Any, start: int, end: int, path: str, report: SkipReport | None,
                   read: int) -> int:
        """Add the games in ``buf[start:end]`` (``start``: where the input or a
        game starts; ``end``: where a game starts, or the input's end), numbered
        from ``read + 1``: in bulk, a pattern per header shape, while the games
        are plainly written; a game that is not, with those up to the next game
        start after a blank line, game by game. Returns the number of the last game."""
        with no_collection():
            return self._add_region(buf, start, end, path, report, read)

    def _add_region(self, buf: Any, start: int, end: int, path: str,
                    report: SkipReport | None, read: int) -> int:
        from solver.games.fast import next_start
        from solver.games.tree_bulk import MOST_PLIES, SHAPES, game_pattern, shape_of

        pos = start
        bulk = crlf = self.plies <= MOST_PLIES  # (crlf: CRLF may be read without its CRs)
        semicolons = buf.find(b";", start, end) >= 0
        while pos < end:
            if bulk:
                head = buf.find(b"\n\n", pos, min(end, pos + 8192))
                shape = shape_of(buf[pos:head]) if head > pos else ()
                if shape and b"Result" in shape and (
                        shape in self._shapes or len(self._shapes) < SHAPES):
                    self._shapes.add(shape)
                    before = pos
                    pattern = game_pattern(shape, self.plies, not self.filters.everything(),
                                           semicolons)
                    pos, read = self._bulk(buf, pos, end, *pattern, path, read)
                    if pos > before:
                        continue  # stopped at a game of another shape, or not plain
            stop = next_start(buf, pos + 1, end)
            if crlf and buf.find(b"\r", pos, stop) >= 0:
                crlf = False  # (tried once a region)
                text = bytes(buf[pos:end]).replace(b"\r\n", b"\n")
                if b"\r" not in text:  # the rest in bulk, read as the careful reader reads CRLF
                    return self._add_region(text, 0, len(text), path, report, read)
            read = self.careful(iter([bytes(buf[pos:stop])]), path, report, read)
            pos = stop
        return read

    def _bulk(self, buf: Any, pos: int, end: int, regex: re.Pattern[bytes],
              at: dict[bytes, int], path: str, read: int) -> tuple[int, int]:
        """Add the games read one after the other by ``regex`` (see
        :func:`solver.games.tree_bulk.game_pattern`) from ``buf[pos]``; returns
        where that stopped and the number of the last game."""
        from solver.games.tree_bulk import MOVES

        result, fen, variant, first = at[b"Result"], at[b"FEN"], at[b"Variant"], at[MOVES]
        white, black, utc, day = at[b"WhiteElo"], at[b"BlackElo"], at[b"UTCDate"], at[b"Date"]
        stop = first + self.plies
        known, dates, joined, slot = self._known, self._dates, self._joined, _SLOT
        join = b" ".join
        filters = None if self.filters.everything() else self.filters
        begun = read
        match = None
        for match in iter(_SCANNER(regex, buf, pos, end).match, None):
            found = match.groups()
            read += 1
            number = known.get((found[fen], found[variant]))
            if number is None:  # not met yet, noted, or not in the family
                number = self._noted(buf, match.start(), found[fen], found[variant], path, read)
                if number is None:
                    continue
            elo, other = found[white], found[black]
            rating = (int(elo) + int(other)) / 2 if elo and other and elo.isdigit() and \
                other.isdigit() else _rating_of(elo, other)
            raw = found[utc] or found[day]
            date = dates.get(raw)
            if date is None:
                date = self._date(raw)
            if filters is not None and not filters.takes_tags(
                    functools.partial(_group, found, at), rating, date[0]):
                self.left_out += 1
                continue
            try:
                key = (number, join(found[first:stop]))
            except TypeError:  # a game shorter than the plies read: its moves up to a None
                moves = found[first:stop]
                key = (number, join(moves[:moves.index(None)]))
            _count(joined, key, slot[found[result]], rating, date[1])
        if match is not None:
            pos = match.end()
            self._built = None
        self.games += read - begun
        return pos, read

    def _noted(self, buf: Any, at: int, fen: bytes | None, variant: bytes | None, path: str,
               read: int) -> int | None:
        """The id of the start of a game read in bulk (see :meth:`_start`) whose
        start is not known yet or has a note, which is told (None: not in the family)."""
        number, note = self._start(buf, at, fen, variant)
        if note is not None:
            self.notes.add(note, path, read)
        if number is None:
            self.outside += 1
        return number

    def _start(self, buf: Any, at: int, fen: bytes | None, variant: bytes | None) -> Start:
        """The start of a game read in bulk (its ``FEN`` and ``Variant`` values,
        its header from ``buf[at]``), as the careful reader finds it."""
        if fen is None:  # a number tag may name it
            return self.starts.start(bytes(buf[at:buf.find(b"\n\n", at)]), None, variant)
        found = self._starts.get((fen, variant))
        if found is None:
            found = self.starts.start(b"", fen, variant)
            if len(self._starts) >= MEMO:
                self._starts.clear()
                self._known.clear()
            self._starts[(fen, variant)] = found
            if found[1] is None and found[0] is not None:
                self._known[(fen, variant)] = found[0]
        return found

    def _date(self, raw: bytes | None) -> tuple[str, str]:
        """A date tag's value as the filters read it, and as the last date played."""
        date = _date_text(raw or b"")
        found = date, "" if "?" in date else date
        if len(self._dates) >= MEMO:
            self._dates.clear()
        self._dates[raw] = found
        return found

    def careful(self, pieces: Iterator[bytes], path: str, report: SkipReport | None = None,
                offset: int = 0) -> int:
        """Add the games in ``pieces`` one by one, numbered from ``offset + 1``;
        returns the number of the last one."""
        read = offset
        try:
            for game in scan(pieces, path):
                if not game.number:
                    continue
                read = offset + game.number
                if game.problem is not None:
                    self._skip(report, read, game.problem)
                    continue
                data, head = game.data, game.head
                header = data[game.start:head]
                tags = plain_tags(header)
                value = None if tags is None else tags.get(b"Result")
                if value is None:
                    result = result_of(data, header, head, game.end)
                else:
                    result = RESULTS.get(value.strip())
                if result is None:
                    shown = (tag(header, b"Result") or b"").decode("utf-8", "replace")
                    self._skip(report, read, f"result {shown!r} is not 1-0, 0-1, 1/2-1/2 or *")
                    continue
                self.games += 1
                self._at = (path, read)
                self._add(header, tags, data, result, head, game.end)
        finally:
            self._at = (None, 0)
        return read

    def _skip(self, report: SkipReport | None, number: int, problem: str) -> None:
        self.skipped += 1
        if report is not None:
            report(number, problem)

    def add_game(self, header: bytes, movetext: bytes, result: int, start: int = 0,
                 end: int = -1) -> None:
        """Add one game: its header block, its moves (``movetext[start:end]``,
        default: all of it), its result (0 to 3)."""
        self._add(header, plain_tags(header), movetext, result, start, end)

    def _add(self, header: bytes, tags: dict[bytes, bytes] | None, movetext: bytes,
             result: int, start: int, end: int) -> None:
        """:meth:`add_game`, its tags read (or None)."""
        if tags is None:
            number, note = self.starts.start(header)
        else:
            number, note = self.starts.start(header, tags.get(b"FEN"), tags.get(b"Variant"))
        if note is not None:
            self.notes.add(note, *self._at)
        if number is None:
            self.outside += 1
            return
        rating = _rating(header, tags)
        date = _date(header, tags)
        if not self.filters.takes(header, rating, date):
            self.left_out += 1
            return
        if "?" in date:  # a month or a day not known: no last date
            date = ""
        line = moves_in(movetext, start, len(movetext) if end < 0 else end, self.plies)
        _count(self._bulked, (number, *line), result + 1, rating, date)
        self._built = None

    # -- output -------------------------------------------------------------------

    def to_json(self, min_games: int = 0) -> dict[str, Any]:
        return {**self._head(min_games), "positions": list(self._positions(min_games))}

    def _head(self, min_games: int) -> dict[str, Any]:
        return {"family": self.family.name, "plies": self.plies, "min_games": min_games,
                "games": self.games,
                "skipped": self.skipped, "not_in_family": self.outside,
                "filtered_out": self.left_out}

    def _positions(self, min_games: int) -> Iterator[dict[str, Any]]:
        from solver.games.labels import label

        family = self.family
        for number in sorted(self.roots):
            if self.roots[number].games >= min_games:
                yield {"id": number, "position": label(family, number),
                       "rank": family.position(number).white,
                       **self.roots[number].to_json(min_games)}

    def json(self, min_games: int = 0) -> str:
        """:meth:`to_json` as :func:`dumps` writes it, written as text node by
        node (:func:`_node_text`; the whole document is never held as objects)."""
        from solver.games.labels import label

        head = dumps({**self._head(min_games), "positions": []})
        assert head.endswith("[]}\n")
        parts = [head[:-4], "["]
        family = self.family
        with no_collection():
            for number in sorted(self.roots):
                root = self.roots[number]
                if root.games < min_games:
                    continue
                position = family.position(number)
                start = dumps({"id": number, "position": label(family, position),
                               "rank": position.white})
                parts.append(("," if len(parts) > 2 else "") + start[:-2] + ",")
                _node_text(root, min_games, parts)
                parts.append("}")
        parts.append("]}\n")
        return "".join(parts)

    def csv(self, min_games: int = 0) -> str:
        """One row per node: id, line, games, results, average rating, last date."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["id", "line", "games", "white", "draws", "black", "avg_rating",
                         "last_date", "top_share"])
        for number in sorted(self.roots):
            for line, node in walk(self.roots[number], min_games):
                rating, share = node.rating(), node.top_share()
                writer.writerow([number, " ".join(line), node.games, node.white, node.draws,
                                 node.black, "" if rating is None else f"{rating:.1f}",
                                 node.last, "" if share is None else f"{share:.4f}"])
        return out.getvalue()

    def node(self, number: int, line: Sequence[str]) -> Node:
        """The node after ``line`` from position ``number``; raises :class:`TreeError`."""
        node = self.roots.get(number)
        if node is None:
            raise TreeError(f"id {number!r} is not the start of any game read")
        for depth, move in enumerate(line):
            child = node.children.get(move)
            if child is None:
                shown = " ".join(line[:depth + 1])
                raise TreeError(f"line {shown!r} is not played from id {number} in the games read"
                                if depth < self.plies else
                                f"line {' '.join(line)!r} is longer than the tree's "
                                f"{self.plies} plies")
            node = child
        return node

    def after(self, number: int, line: Sequence[str]) -> Node:
        """The node after ``line`` from position ``number``, with its next moves
        (but not theirs), summed from the lines through it (the tree is not
        built); raises :class:`TreeError` as :meth:`node` does."""
        return self._after(number, line, *self._through(line))

    def _through(self, line: Sequence[str]) -> tuple[dict[int, dict[Any, list[Counts]]],
                                                     dict[int, int]]:
        """The counts of the lines read through ``line``, per start and next move
        as written (None: none), in one pass over the lines read (settled or
        not); and for each start read, the most first moves of ``line`` played."""
        depth = len(line)
        through: dict[int, dict[Any, list[Counts]]] = {}
        deepest: dict[int, int] = {}

        def sort(lines: Iterable[tuple[tuple[Any, ...], Counts]], at: int,
                 start: int | None) -> None:
            """Sort ``lines`` (moves from ``moves[at]`` on; their start: ``start``,
            or None: ``moves[0]``)."""
            step = at + depth
            for moves, counts in lines:
                number = moves[0] if start is None else start
                same = _common(moves, line, at) if depth else 0
                if same > deepest.get(number, -1):
                    deepest[number] = same
                if same < depth:
                    continue
                nexts = through.get(number)
                if nexts is None:
                    nexts = through[number] = {}
                token = moves[step] if step < len(moves) else None
                found = nexts.get(token)
                if found is None:
                    nexts[token] = [counts]
                else:
                    found.append(counts)

        for games in self._flat():
            sort(games.items(), 1, None)
        if depth:
            split = bytes.split  # (the moves up to the next one after the line)
            sort((((number, *(split(joined, b" ", depth + 1) if joined else ())), counts)
                  for (number, joined), counts in self._joined.items()), 1, None)
        else:
            _firsts(self._joined, through, deepest)
        for number, leaves in self._leaves.items():
            sort(leaves.items(), 0, number)
        if self._tables:
            if tuple(line) != self._line:
                raise RuntimeError(f"a tree summarised after {self._line!r} asked for {line!r}")
            _add_tables(through, deepest, self._tables)
        return through, deepest

    def _after(self, number: int, line: Sequence[str],
               through: dict[int, dict[Any, list[Counts]]], deepest: dict[int, int]) -> Node:
        """:meth:`after`, from what :meth:`_through` found."""
        if number not in deepest:
            raise TreeError(f"id {number!r} is not the start of any game read")
        after = through.get(number, {})  # the lines through the node, by their next move
        node = _summed([counts for lines in after.values() for counts in lines])
        for token, lines in after.items():
            if token is not None:
                move = _move(token)
                child = node.children.get(move)
                if child is None:
                    node.children[move] = _summed(lines)
                else:  # the same move written otherwise (0-0, e4!)
                    child.add_counts(_summed(lines))
        if not node.games:
            shown = " ".join(line[:deepest[number] + 1])
            raise TreeError(f"line {shown!r} is not played from id {number} in the games read"
                            if deepest[number] < self.plies else
                            f"line {' '.join(line)!r} is longer than the tree's "
                            f"{self.plies} plies")
        return node

    def played(self, line: Sequence[str], ids: Iterable[int] | None = None) -> list[int]:
        """The positions of ``ids`` (default: every one read, in order) that the
        tree holds and whose games played ``line``; all it holds where none did."""
        return _played(ids, *self._through(line))

    def text(self, ids: Iterable[int] | None = None, line: Sequence[str] = (),
             min_games: int = 0) -> Iterator[str]:
        """The explorer's table of the node after ``line``, for each of ``ids``
        (default: every position read whose games played ``line``; every one
        read where none did)."""
        from solver.games.labels import label

        family = self.family
        with no_collection():  # (the lines read are many: walking them is no use)
            through, deepest = self._through(line)
            if ids is None:
                ids = _played(None, through, deepest)
            for index, number in enumerate(ids):
                node = self._after(number, line, through, deepest)
                if index:
                    yield ""
                yield heading(label(family, number), number, node,
                              f" after {' '.join(line)}" if line else "")
                yield from table(node, min_games)


def _played(ids: Iterable[int] | None, through: dict[int, Any],
            deepest: dict[int, int]) -> list[int]:
    """:meth:`Tree.played`, from what :meth:`Tree._through` found."""
    held = [n for n in (sorted(deepest) if ids is None else ids) if n in deepest]
    return [n for n in held if n in through] or held


def _firsts(joined: dict[tuple[int, bytes], Counts], through: dict[int, dict[Any, list[Counts]]],
            deepest: dict[int, int]) -> None:
    """:meth:`Tree._through` of no line for the games read in bulk: their counts
    per start and first move (as :meth:`Tree._through`'s loop sorts them, quicker)."""
    for (number, moves), counts in joined.items():
        nexts = through.get(number)
        if nexts is None:
            nexts = through[number] = {}
            deepest[number] = 0
        token = moves.partition(b" ")[0] or None
        found = nexts.get(token)
        if found is None:
            nexts[token] = [counts]
        else:
            found.append(counts)


def _add_tables(through: dict[int, dict[Any, list[Counts]]], deepest: dict[int, int],
                tables: list[tuple[Tables, dict[int, int]]]) -> None:
    """Add workers' summed tables (see :class:`Summary`) to what
    :meth:`Tree._through` found."""
    for theirs, depths in tables:
        for number, nexts in theirs.items():
            mine = through.get(number)
            if mine is None:
                mine = through[number] = {}
            for token, counts in nexts.items():
                found = mine.get(token)
                if found is None:
                    mine[token] = [counts]
                else:
                    found.append(counts)
        for number, depth in depths.items():
            if depth > deepest.get(number, -1):
                deepest[number] = depth


def _common(moves: tuple[Any, ...], line: Sequence[str], at: int = 0) -> int:
    """How many first moves of ``moves[at:]`` (a leaf's) are those of ``line``."""
    for depth, move in enumerate(line):
        here = at + depth
        if here >= len(moves) or moves[here] is None or _move(moves[here]) != move:
            return depth
    return len(line)


def walk(node: Node, min_games: int = 0,
         line: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Node]]:
    """``(line, node)`` for a node and each below it with at least ``min_games`` games."""
    yield line, node
    for move, child in _ordered(node.children):
        if child.games >= min_games:
            yield from walk(child, min_games, (*line, move))


def heading(name: str, number: int, node: Node, after: str = "") -> str:
    """The line above a node's table: the start, its id, what ``after`` says
    (the line played), the games, their average rating and last date.

    >>> n = Node(); n.games, n.rated, n.ratings, n.last = 2, 2, 3100.0, "2024.01.02"
    >>> heading("FRC 518", 518, n, " after e4")
    'FRC 518 (id 518) after e4: 2 games, average rating 1550, last played 2024.01.02'
    """
    rating = node.rating()
    return (f"{name} (id {number}){after}: {node.games} game{'' if node.games == 1 else 's'}"
            + ("" if rating is None else f", average rating {rating:.0f}")
            + (f", last played {node.last}" if node.last else ""))


BAR: Final = 24


def bar(node: Node, width: int = BAR) -> str:
    """White's wins, draws and Black's wins as a bar of ``width`` blocks
    (``█`` White, ``▒`` draws, ``░`` Black), shares of the finished games.

    >>> n = Node(); n.white, n.draws, n.black = 2, 1, 1; bar(n, 8)
    '████▒▒░░'
    """
    finished = node.white + node.draws + node.black
    if not finished:
        return ""
    white = round(width * node.white / finished)
    draws = round(width * (node.white + node.draws) / finished) - white
    return "█" * white + "▒" * draws + "░" * (width - white - draws)


def table(node: Node, min_games: int = 0) -> Iterator[str]:
    """The next moves of ``node``: games, share, White/draw/Black percentages and bars."""
    rows = []
    for move, child in _ordered(node.children):
        if child.games < min_games:
            continue
        finished = child.white + child.draws + child.black
        shares = [f"{100 * n / finished:.0f}%" if finished else "-"
                  for n in (child.white, child.draws, child.black)]
        rating = child.rating()
        rows.append([move, str(child.games), f"{100 * child.games / node.games:.1f}%", *shares,
                     "" if rating is None else f"{rating:.0f}", bar(child)])
    if not rows:
        yield "no next move"
        return
    head = ["move", "games", "%", "white", "draws", "black", "rating", ""]
    widths = [max(map(len, column)) for column in zip(head, *rows, strict=True)]
    line = "  ".join([f"{{:<{widths[0]}}}", *(f"{{:>{w}}}" for w in widths[1:-1]), "{}"])
    for cells in (head, *rows):  # the move left, the numbers right, then the bar
        yield line.format(*cells).rstrip()


_COUNTS: Final = ("games", "white_wins", "draws", "black_wins", "unfinished")


def merge_json(documents: Sequence[tuple[str, Any]]) -> str:
    """The sum of trees (``games tree --format json``) or of tables (``games
    stats --format json``), as JSON; raises :class:`TreeError`."""
    stats = [isinstance(d, dict) and "total" in d and "plies" not in d for _, d in documents]
    if any(stats) and not all(stats):
        raise TreeError("trees and games stats tables cannot be merged together")
    if documents and all(stats):
        return json.dumps(merge_stats(documents), indent=1) + "\n"
    return dumps(merge(documents))


def merge_stats(documents: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The sum of tables made by ``games stats --format json``, in their form."""
    family: str | None = None
    rows: dict[int, tuple[str, list[int]]] = {}
    outside = [0] * 5
    games = skipped = 0
    notes = Notes()
    for name, document in documents:
        if family is not None and document.get("family") != family:
            raise TreeError(f"{name}: a table of {document.get('family')!r} cannot be merged "
                            f"with one of {family!r}")
        family = document.get("family")
        try:
            games += int(document["games"])
            skipped += int(document["skipped"])
            for entry in document["positions"]:
                row = rows.setdefault(int(entry["id"]), (str(entry["position"]), [0] * 5))[1]
                for i, key in enumerate(_COUNTS):
                    row[i] += int(entry[key])
            for i, key in enumerate(_COUNTS):
                outside[i] += int(document["not_in_family"][key])
            notes.absorb_records(document)
        except (KeyError, TypeError, ValueError) as exc:
            raise TreeError(f"{name}: not a table made by 'games stats --format json' "
                            f"(reading {exc!s})") from None
    total = [sum(row[i] for _, row in rows.values()) for i in range(5)]
    return {"family": family, "games": games, "skipped": skipped,
            "positions": [_stats_row(n, *rows[n]) for n in sorted(rows)],
            "total": _stats_row(None, str(family), total),
            "not_in_family": _stats_row(None, "not in family", outside), **notes.records()}


def _stats_row(number: int | None, name: str, row: list[int]) -> dict[str, Any]:
    finished = row[1] + row[2] + row[3]
    score = None if not finished else round((row[1] + row[2] / 2) / finished, 4)
    return {"id": number, "position": name, **dict(zip(_COUNTS, row, strict=True)),
            "white_score": score}


def merge(documents: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The sum of trees made by ``games tree --format json``: ``(name, document)``
    pairs, all of one family and one number of plies; raises :class:`TreeError`."""
    family: str | None = None
    plies: int | None = None
    totals = {"games": 0, "skipped": 0, "not_in_family": 0, "filtered_out": 0}
    roots: dict[int, tuple[str, str | None, Node]] = {}
    for name, document in documents:
        if not isinstance(document, dict) or "positions" not in document or \
                not isinstance(document["positions"], list):
            raise TreeError(f"{name}: not a tree made by 'games tree --format json'")
        if document.get("min_games"):
            raise TreeError(f"{name}: a tree pruned by --min-games {document['min_games']} "
                            "has lost lines; merge trees made without it")
        if family is None:
            family, plies = document.get("family"), document.get("plies")
        elif (document.get("family"), document.get("plies")) != (family, plies):
            raise TreeError(f"{name}: a tree of {document.get('family')!r} to "
                            f"{document.get('plies')!r} plies cannot be merged with one of "
                            f"{family!r} to {plies!r} plies")
        for key in totals:
            totals[key] += int(document.get(key) or 0)
        for entry in document["positions"]:
            try:
                number = int(entry["id"])
            except (KeyError, TypeError, ValueError):
                raise TreeError(f"{name}: a position without an id") from None
            node = Node.from_json(entry, name)
            if number in roots:
                roots[number][2].merge(node)
            else:
                roots[number] = (str(entry.get("position", number)), entry.get("rank"), node)
    if family is None:
        raise TreeError("no tree to merge")
    return {"family": family, "plies": plies, "min_games": 0, **totals,
            "positions": [{"id": number, "position": roots[number][0], "rank": roots[number][1],
                           **roots[number][2].to_json()} for number in sorted(roots)]}


def dumps(document: dict[str, Any]) -> str:
    """A tree document as JSON: one line (the fast encoder's), then a line break."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"


def read_json(path: str, data: bytes) -> Any:
    """A tree file's document; raises :class:`TreeError` when it is not JSON."""
    try:
        return json.loads(data.decode("utf-8"))
    except ValueError as exc:
        raise TreeError(f"{quote(path)} is not JSON: {exc}") from None
