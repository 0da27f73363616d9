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

>>> from solver.ruleset.reader import load
>>> from solver.numbering.counting import Counting
>>> counting = Counting(load("chess960"))
>>> levels = Levels(counting.trackers, counting.ruleset.rules, "KQRRBBNN",
...                 ["K", "Q", "RR", "BB", "NN"], counting.count)
>>> levels.rank_of(0), levels.rank_id(levels.rank_of(700))
('QRKRBBNN', 700)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    """

    def __init__(self, trackers: Sequence[Tracker], rules: Sequence[Rule], pieces: str,
                 steps: Sequence[str], count: int, limit: int | None = None,
                 refuse: Callable[[int], Exception] | None = None) -> None:
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
        spread = prod(self.radices[self.top:])
        self.group = count // spread if spread else 0
        assert not count or self.group * spread == count, (count, spread)

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
        early = _Early(levels.letters[:j], levels.sizes[:j], levels.named)
        self.early_letters = early.letters
        self.factor = early.factor
        self.start: Key = (early.counts, levels.sizes[j], len(later),
                           tuple(t.start() for t in self.trackers))
        self._memo: dict[Key, tuple[int, int, int]] = {}
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
        return self._place(key, self.later[len(self.later) - s], -2)

    def _split(self, key: Key) -> tuple[int, int, int]:
        """The completions of ``key`` whose next projection letter is step ``j``'s,
        or the later steps', or that place no more projection letters."""
        found = self._memo.get(key)
        if found is not None:
            return found
        counts, k, s, states = key
        inserted = kept = done = 0
        if k:
            after = self._inserted(key)
            if after is not None:
                inserted = sum(self._split(after))
        if s:
            after = self._kept(key)
            if after is not None:
                kept = sum(self._split(after))
        if not k and not s and not any(counts):
            done = int(all(t.finish(x) for t, x in zip(self.trackers, states, strict=True)))
        for e, left in enumerate(counts):
            if left:
                after = self._place(key, self.early_letters[e], e)
                if after is not None:
                    a, b, c = self._split(after)
                    inserted, kept, done = inserted + a, kept + b, done + c
        found = self._memo[key] = (inserted, kept, done)
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
        move = self._inserted if insert else self._kept
        following: dict[Key, int] = {}
        # states with more earlier letters left stand on earlier files: go by that
        buckets: dict[int, dict[Key, int]] = {}
        for key, paths in layer.items():
            bucket = buckets.setdefault(sum(key[0]), {})
            bucket[key] = bucket.get(key, 0) + paths
        while buckets:
            most = max(buckets)
            for key, paths in buckets.pop(most).items():
                after = move(key)
                if after is not None and any(self._split(after)):
                    following[after] = following.get(after, 0) + paths
                counts = key[0]
                for e, left in enumerate(counts):
                    if left:
                        nxt = self._place(key, self.early_letters[e], e)
                        if nxt is not None and self._split(nxt)[side]:
                            bucket = buckets.setdefault(most - 1, {})
                            bucket[nxt] = bucket.get(nxt, 0) + paths
        return following
