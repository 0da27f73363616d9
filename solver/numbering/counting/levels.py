"""The canonical numbering of plain placement steps, walked level by level.

Plain steps (:func:`plain`) each place every copy of one letter on any free
squares: no colour, no files, no filling last step. Step ``j``'s choice
then depends only on the rank's *projection* onto the letters of steps
``j``, ``j+1``, ... (the rank with the earlier steps' letters left out): it
is where step ``j``'s letter stands in that projection. The canonical order
(last step first) sorts ranks by their projections, the shortest first, each
compared as a string in which step ``j``'s letter sorts before the others.

So a rank is found (:meth:`Levels.rank_of`) projection by projection: each
is the one before with one more letter inserted, a choice between two
letters per square of the projection, made by counting completions. Those
counts are one more count of the family in which the earlier steps' letters
that no rule names are counted together (times the ways to arrange them, a
multinomial), the letter being inserted is counted apart, and the
projection already fixed is followed in order: the states are those of the
family's count with two more counters, not every piece kind apart.

The top levels, where step ``j``'s letter and every later one are named by
no rule, need no counting at all: what the rules see does not depend on how
the letters they ignore are arranged, so every choice there has the same
number of ranks below it and those steps are plain mixed-radix digits.

A level's counts depend on the later steps' projection only through what the
rules see of it (:meth:`Levels.masked`: the letters no rule names all alike),
and a family's ranks have few such projections (Sittuyin's pawns stand on
fixed squares, its chariots on rank 1: about twenty in all). So the counts,
each state's moves, and the states each reaches by the next projection letter
are kept across lookups (:meth:`Levels.memo`), and shared by the walks of the
same family in a process (``share``): after the first few lookups a walk only
follows kept counts, a few milliseconds a lookup for Sittuyin's 93,562,560.

>>> from solver.ruleset.reader import load
>>> from solver.numbering.counting import Counting
>>> counting = Counting(load("chess960"))
>>> levels = Levels(counting.trackers, counting.ruleset.rules, "KQRRBBNN",
...                 ["K", "Q", "RR", "BB", "NN"], counting.count)
>>> levels.rank_of(0), levels.rank_id(levels.rank_of(700))
('QRKRBBNN', 700)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from math import comb, factorial, prod
from typing import Final

from solver.kinds.base import Rule, State, Tracker
from solver.syntax.steps import Numbering, choice_of, index_of_choice

#: The letter standing for the earlier steps' letters counted together.
ANONYMOUS: Final = "\x00"

#: A level's counting state: the earlier steps' letters left (named ones
#: apart, then the others together), the letter being inserted left, the
#: projection's letters left, and every rule's state.
Key = tuple[tuple[int, ...], int, int, tuple[State, ...]]

#: What a level knows of a state: its completions by the next projection
#: letter (:meth:`_Level._split`), and the states after placing step ``j``'s
#: letter, the next later letter, and each earlier letter (those not refused).
Node = tuple[tuple[int, int, int], Key | None, Key | None, tuple[Key, ...]]

#: A level's counts kept across lookups: its :data:`Node` by state, and the
#: states each state reaches by the next projection letter (``side`` 0 for
#: step ``j``'s letter, 1 for the later one), with their paths.
Memo = tuple[dict[Key, Node], dict[tuple[Key, int], dict[Key, int]]]

#: How many levels' counts of completions :class:`Levels` keeps across lookups.
MEMOS: Final = 64

#: How many families' kept counts are shared between walks (:class:`Levels` ``share``).
SHARED: Final = 8

#: The kept counts of the last :data:`SHARED` families, by the walks' ``share``.
_shared: dict[Hashable, dict[tuple[int, str], Memo]] = {}


def plain(numbering: Numbering) -> bool:
    """Whether every step places all of one letter on any free square.

    >>> from solver.ruleset.reader import load
    >>> plain(load("chess960").step_numbering()), plain(Numbering(4, "KRRN", ["K", "RR", "N"]))
    (False, True)
    """
    if numbering.paths:
        return False
    placed = "".join(s.pieces for s in numbering.steps)
    return all(
        not s.fill and s.colour is None and s.relative is None
        and s.pieces[0] not in numbering.allowed and placed.count(s.pieces[0]) == len(s.pieces)
        for s in numbering.steps)


class Levels:
    """Rank <-> canonical ID of a family numbered by plain steps (:func:`plain`).

    ``count`` is the family's count of one side's ranks; ``steps`` the steps'
    texts (each one letter repeated). A level that keeps more than ``limit``
    states (a tracker that understated its states) raises ``refuse(states)``.
    Walks given the same ``share`` (a value naming the family, its steps and
    ``limit``; ``None``: none) share the counts they keep across lookups, so a
    family loaded again in the same process does not count them again.
    """

    def __init__(self, trackers: Sequence[Tracker], rules: Sequence[Rule], pieces: str,
                 steps: Sequence[str], count: int, limit: int | None = None,
                 refuse: Callable[[int], Exception] | None = None,
                 share: Hashable | None = None) -> None:
        self.trackers = tuple(trackers)
        self.limit = limit
        self.refuse = refuse
        self.size = len(pieces)
        self.count = count
        self.letters = [s[0] for s in steps]
        self.sizes = [len(s) for s in steps]
        n = len(steps)
        #: the letters of the projections, from step ``j`` on (``m[j]`` of them)
        self.m = [sum(self.sizes[j:]) for j in range(n + 1)]
        if all(rule.letters for rule in rules):
            named: set[str] = set().union(*(rule.letters for rule in rules))
        else:
            named = set(self.letters)  # a rule reads the whole rank
        self.named = named
        # the first step from which no letter is named: the top levels
        top = n
        while top > 0 and self.letters[top - 1] not in named:
            top -= 1
        self.top = top
        self.radices = [comb(self.m[j], self.sizes[j]) for j in range(n)]
        #: each level's counts of completions, kept across lookups (:meth:`memo`)
        self._memos: dict[tuple[int, str], Memo] = {} if share is None else _kept(share)
        spread = prod(self.radices[self.top:])
        self.group = count // spread if spread else 0
        assert not count or self.group * spread == count, (count, spread)

    def masked(self, later: str) -> str:
        """``later`` as the rules see it: the letters no rule names all alike."""
        return "".join(x if x in self.named else ANONYMOUS for x in later)

    def memo(self, j: int, later: str) -> Memo:
        """Level ``j``'s counts of completions when the later steps' projection
        is ``later``: they depend only on :meth:`masked` ``later``, so lookups
        whose projections differ only in the letters no rule names share them.
        The last :data:`MEMOS` used are kept."""
        name = (j, self.masked(later))
        found = self._memos.pop(name, None)
        if found is None:
            found = ({}, {})
            while self._memos and len(self._memos) >= MEMOS:
                del self._memos[next(iter(self._memos))]
        self._memos[name] = found  # the most recently used last
        return found

    def states(self) -> int:
        """At most how many states the counts of one lookup meet (the budget):
        each level's earlier letters, its own, the later ones and the rules'."""
        ruled = prod(t.states(self.size) for t in self.trackers)
        total = 0
        for j in range(self.top):
            early = _Early(self.letters[:j], self.sizes[:j], self.named)
            total += (prod(c + 1 for c in early.counts) * (self.sizes[j] + 1)
                      * (self.m[j + 1] + 1) * ruled)
        return total

    # rank -> ID

    def rank_id(self, rank: str) -> int:
        """The canonical ID of one of the family's ranks."""
        projections = self._projections(rank)
        above = 0
        for j in range(len(self.letters) - 1, self.top - 1, -1):
            chosen = tuple(i for i, x in enumerate(projections[j]) if x == self.letters[j])
            above = above * self.radices[j] + index_of_choice(self.m[j], self.sizes[j], chosen)
        before = above * self.group
        for j in range(self.top - 1, -1, -1):
            level = _Level(self, j, projections[j + 1])
            before += level.walk(projections[j], None)[1]
        return before

    def _projections(self, rank: str) -> list[str]:
        out = [rank]
        for letter in self.letters:
            out.append(out[-1].replace(letter, ""))
        return out

    # ID -> rank

    def rank_of(self, number: int) -> str:
        """The rank with canonical ID ``number`` (``0 <= number < count``)."""
        above, rest = divmod(number, self.group)
        digits: dict[int, int] = {}
        for j in range(self.top, len(self.letters)):
            above, digits[j] = divmod(above, self.radices[j])
        projection = ""
        for j in range(len(self.letters) - 1, self.top - 1, -1):
            row = [""] * self.m[j]
            for i in choice_of(self.m[j], self.sizes[j], digits[j]):
                row[i] = self.letters[j]
            later = iter(projection)
            projection = "".join(x or next(later) for x in row)
        for j in range(self.top - 1, -1, -1):
            projection, rest = _Level(self, j, projection).walk(None, rest)
        return projection


def _kept(share: Hashable) -> dict[tuple[int, str], Memo]:
    """The counts kept for ``share``, the most recently used family last."""
    found = _shared.pop(share, None)
    if found is None:
        found = {}
        while _shared and len(_shared) >= SHARED:
            del _shared[next(iter(_shared))]
    _shared[share] = found
    return found


class _Early:
    """The earlier steps' letters of a level: named ones apart, the others together."""

    def __init__(self, letters: Sequence[str], sizes: Sequence[int], named: set[str]) -> None:
        kept = [(x, k) for x, k in zip(letters, sizes, strict=True) if x in named]
        alike = [k for x, k in zip(letters, sizes, strict=True) if x not in named]
        self.letters = tuple(x for x, _ in kept) + ((ANONYMOUS,) if alike else ())
        self.counts = tuple(k for _, k in kept) + ((sum(alike),) if alike else ())
        #: the ways to arrange the letters counted together
        self.factor = factorial(sum(alike)) // prod(factorial(k) for k in alike)


class _Level:
    """Inserting step ``j``'s letter into the projection of the later steps."""

    def __init__(self, levels: Levels, j: int, later: str) -> None:
        self.trackers = levels.trackers
        self.size = levels.size
        self.letter = levels.letters[j]
        self.later = later
        #: what the rules see of ``later``, handed to them as it is placed
        self.seen = levels.masked(later)
        early = _Early(levels.letters[:j], levels.sizes[:j], levels.named)
        self.early_letters = early.letters
        self.factor = early.factor
        self.start: Key = (early.counts, levels.sizes[j], len(later),
                           tuple(t.start() for t in self.trackers))
        self._memo, self._reached = levels.memo(j, later)
        self.limit, self.refuse = levels.limit, levels.refuse

    def _place(self, key: Key, letter: str, early: int = -1) -> Key | None:
        counts, k, s, states = key
        file = self.size - sum(counts) - k - s
        out = []
        for t, state in zip(self.trackers, states, strict=True):
            after = t.place(state, file, letter)
            if after is None:
                return None
            out.append(after)
        if early >= 0:
            counts = (*counts[:early], counts[early] - 1, *counts[early + 1:])
        elif letter == self.letter and early == -1:
            k -= 1
        else:
            s -= 1
        return (counts, k, s, tuple(out))

    def _inserted(self, key: Key) -> Key | None:
        return self._place(key, self.letter, -1) if key[1] else None

    def _kept(self, key: Key) -> Key | None:
        s = key[2]
        if not s:
            return None
        return self._place(key, self.seen[len(self.seen) - s], -2)

    def _split(self, key: Key) -> tuple[int, int, int]:
        """The completions of ``key`` whose next projection letter is step ``j``'s,
        or the later steps', or that place no more projection letters."""
        return self._node(key)[0]

    def _node(self, key: Key) -> Node:
        """``key``'s :meth:`_split` and its moves (:data:`Node`), counted once."""
        found = self._memo.get(key)
        if found is not None:
            return found
        counts, k, s, states = key
        inserted = kept = done = 0
        into = self._inserted(key)
        if into is not None:
            inserted = sum(self._node(into)[0])
        past = self._kept(key)
        if past is not None:
            kept = sum(self._node(past)[0])
        if not k and not s and not any(counts):
            done = int(all(t.finish(x) for t, x in zip(self.trackers, states, strict=True)))
        earlier = []
        for e, left in enumerate(counts):
            if left:
                after = self._place(key, self.early_letters[e], e)
                if after is not None:
                    a, b, c = self._node(after)[0]
                    inserted, kept, done = inserted + a, kept + b, done + c
                    earlier.append(after)
        found = self._memo[key] = ((inserted, kept, done), into, past, tuple(earlier))
        if self.limit is not None and len(self._memo) > self.limit:
            raise (self.refuse(len(self._memo)) if self.refuse is not None
                   else RuntimeError(f"over {self.limit:,} states"))
        return found

    def walk(self, target: str | None, number: int | None) -> tuple[str, int]:
        """This level's projection: ``target``'s, with how many ranks of the
        group sort before it; or the one holding the ``number``-th rank of the
        group, with that rank's number among those sharing the projection."""
        layer: dict[Key, int] = {self.start: 1}
        out: list[str] = []
        before = 0
        factor = self.factor
        k, s = self.start[1], len(self.later)
        while k or s:
            if k and s:
                first = factor * sum(paths * self._split(key)[0] for key, paths in layer.items())
                if target is not None:
                    insert = target[len(out)] == self.letter
                    if not insert:
                        before += first
                else:
                    assert number is not None
                    insert = number < first
                    if not insert:
                        number -= first
            else:
                insert = bool(k)
            out.append(self.letter if insert else self.later[len(self.later) - s])
            layer = self._advance(layer, insert)
            k, s = (k - 1, s) if insert else (k, s - 1)
        return "".join(out), (before if target is not None else number or 0)

    def _advance(self, layer: dict[Key, int], insert: bool) -> dict[Key, int]:
        """The states just after the next projection letter, reached from
        ``layer`` by placing earlier steps' letters first, with their paths."""
        side = 0 if insert else 1
        following: dict[Key, int] = {}
        for key, paths in layer.items():
            for after, more in self._reach(key, side).items():
                following[after] = following.get(after, 0) + paths * more
        return following

    def _reach(self, key: Key, side: int) -> dict[Key, int]:
        """The states ``key`` reaches by placing earlier steps' letters, then
        step ``j``'s letter (``side`` 0) or the next later one (1), with the
        paths to each; only states that complete."""
        found = self._reached.get((key, side))
        if found is not None:
            return found
        node = self._node(key)
        out: dict[Key, int] = {}
        after = node[1] if side == 0 else node[2]
        if after is not None and any(self._node(after)[0]):
            out[after] = 1
        for nxt in node[3]:
            if self._node(nxt)[0][side]:
                for reached, paths in self._reach(nxt, side).items():
                    out[reached] = out.get(reached, 0) + paths
        self._reached[key, side] = out
        return out
