"""What each rule kind remembers while a rank is placed file by file.

A rank is built file by file, left to right. After some files the rest of
the rank may be completed in a number of ways that depends only on the
pieces still to place and, for each rule, a small *state* summing up what
the placed files mean for it:

* ``opposite-colours`` / ``same-colour``: the colour of the first of the two placed;
* ``between``: how many of the pair and of the piece have appeared;
* ``not-adjacent``: whether the first of the two stands on the previous file;
* ``left-of``: whether the first of the two has been placed;
* ``on-files`` / ``not-on-files``: no state, a filter on the file;
* ``pawns-protected``: which pawns near the current file are defended (a
  piece defends at most two files away, see :data:`~solver.kinds.vocabulary.DEFENCE`);
* ``differs-from``: the squares that differ so far, capped at ``at-least``;
* ``exclude``: the excluded ranks the placed files still match.

A :class:`Tracker` keeps one rule's state; :func:`tracker` makes the one of
a rule, by its kind (:data:`TRACKERS`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from solver.kinds.vocabulary import (
    DEFENCE,
    Between,
    DiffersFrom,
    Exclude,
    LeftOf,
    NotAdjacent,
    NotOnFiles,
    OnFiles,
    OppositeColours,
    PawnsProtected,
    Rule,
    SameColour,
)
from solver.ruleset.reader import RuleSet

#: A rule's state: any hashable value but ``None`` (which means the rule broke).
State = Any

#: A state standing for "this rule is settled, nothing later can break it".
DONE: Final = "done"


class Tracker:
    """What one rule needs to remember while a rank is placed file by file."""

    def start(self) -> State:
        """The state before any file is placed (never ``None``, which means broken)."""
        return 0

    def place(self, state: State, file: int, letter: str) -> State | None:
        """The state after ``letter`` goes on ``file``; ``None`` when the rule breaks."""
        raise NotImplementedError

    def finish(self, state: State) -> bool:
        """Whether a full rank that reached ``state`` obeys the rule."""
        return True


class _Colours(Tracker):
    """Opposite-colours and same-colour: the colour of the first of the two placed."""

    def __init__(self, pieces: str, opposite: bool, colours: Sequence[str]) -> None:
        self.members = frozenset(pieces)
        self.opposite = opposite
        self.colours = colours

    def place(self, state: State, file: int, letter: str) -> State | None:
        if letter not in self.members or state == DONE:
            return state
        here = self.colours[file]
        if state == 0:
            return here
        return DONE if (here != state) == self.opposite else None


class _Between(Tracker):
    """Between: how many of the pair and of the piece have been placed."""

    def __init__(self, piece: str, pair: str, pieces: str) -> None:
        self.piece = piece
        self.pair = frozenset(pair)
        self.total = pieces.count(piece)

    def start(self) -> State:
        return (0, 0)

    def place(self, state: State, file: int, letter: str) -> State | None:
        if state == DONE:
            return state
        pair, inside = state
        if letter == self.piece:
            return (pair, inside + 1) if pair == 1 else None
        if letter in self.pair:
            if pair == 0:
                return (1, inside)
            return DONE if inside == self.total else None
        return state


class _NotAdjacent(Tracker):
    """Not-adjacent: none placed, the first on the previous file, further back, or done."""

    def place(self, state: State, file: int, letter: str) -> State | None:
        if state == DONE:
            return state
        if letter not in self.members:
            return "far" if state == "next" else state
        if state == 0:
            return "next"
        return None if state == "next" else DONE

    def __init__(self, pieces: str) -> None:
        self.members = frozenset(pieces)


class _LeftOf(Tracker):
    """Left-of: settled when the left piece comes first, broken when the right one does."""

    def __init__(self, pieces: str) -> None:
        self.left, self.right = pieces[0], pieces[1]

    def place(self, state: State, file: int, letter: str) -> State | None:
        if state == DONE:
            return state
        if letter == self.left:
            return DONE
        return None if letter == self.right else state


class _Files(Tracker):
    """On-files and not-on-files: a filter on the files a piece may take."""

    def __init__(self, rule: OnFiles, file_of: Sequence[int]) -> None:
        self.piece = rule.piece
        self.allowed = rule.allowed
        self.file_of = file_of

    def place(self, state: State, file: int, letter: str) -> State | None:
        return state if letter != self.piece or self.allowed(self.file_of[file]) else None


class _Pawns(Tracker):
    """Pawns-protected: which of the pawns on files f-1 .. f+2 are defended.

    Bit ``i`` of the state stands for the pawn on file ``f - 1 + i`` after
    file ``f`` is placed; the pawn two files back is checked as it leaves,
    since no later piece reaches it.
    """

    def __init__(self, defence: Mapping[str, frozenset[int]] = DEFENCE) -> None:
        self.reach = {
            letter: sum(1 << (2 + d) for d in {s * d for d in distances for s in (-1, 1)})
            for letter, distances in defence.items()
        }

    def start(self) -> State:
        return 0b0011  # pawns on files -2 and -1 do not exist

    def place(self, state: State, file: int, letter: str) -> State | None:
        mask = state | self.reach[letter]
        if not mask & 1:
            return None
        return mask >> 1

    def finish(self, state: State) -> bool:
        return bool(state & 0b11 == 0b11)


class _Differs(Tracker):
    """Differs-from: the squares that differ so far, capped at ``at-least``."""

    def __init__(self, rule: DiffersFrom, files: int) -> None:
        self.target = rule.rank
        self.need = rule.at_least
        self.files = files

    def start(self) -> State:
        return 0

    def place(self, state: State, file: int, letter: str) -> State | None:
        diff = min(self.need, state + (self.target[file] != letter))
        return diff if diff + self.files - file - 1 >= self.need else None

    def finish(self, state: State) -> bool:
        return bool(state == self.need)


class _Exclude(Tracker):
    """Exclude: the excluded ranks (a bit each) that the placed files still match."""

    def __init__(self, rule: Exclude, files: int) -> None:
        ranks = sorted(rule.ranks)
        self.all = (1 << len(ranks)) - 1
        self.match: list[dict[str, int]] = [{} for _ in range(files)]
        for bit, rank in enumerate(ranks):
            for file, letter in enumerate(rank):
                self.match[file][letter] = self.match[file].get(letter, 0) | (1 << bit)

    def start(self) -> State:
        return self.all

    def place(self, state: State, file: int, letter: str) -> State | None:
        return state & self.match[file].get(letter, 0)

    def finish(self, state: State) -> bool:
        return bool(state == 0)


def _colours(rule: Rule, ruleset: RuleSet) -> Tracker:
    assert isinstance(rule, OppositeColours | SameColour)
    return _Colours(rule.pieces, isinstance(rule, OppositeColours), ruleset.region.colours)


def _between(rule: Rule, ruleset: RuleSet) -> Tracker:
    assert isinstance(rule, Between)
    return _Between(rule.piece, rule.pair, ruleset.pieces)


def _not_adjacent(rule: Rule, ruleset: RuleSet) -> Tracker:
    assert isinstance(rule, NotAdjacent)
    return _NotAdjacent(rule.pieces)


def _left_of(rule: Rule, ruleset: RuleSet) -> Tracker:
    assert isinstance(rule, LeftOf)
    return _LeftOf(rule.pieces)


def _files(rule: Rule, ruleset: RuleSet) -> Tracker:
    assert isinstance(rule, OnFiles)
    return _Files(rule, ruleset.region.file_of)


def _pawns(rule: Rule, ruleset: RuleSet) -> Tracker:
    assert isinstance(rule, PawnsProtected)
    return _Pawns(rule.defence)


def _differs(rule: Rule, ruleset: RuleSet) -> Tracker:
    assert isinstance(rule, DiffersFrom)
    return _Differs(rule, ruleset.region_size)


def _exclude(rule: Rule, ruleset: RuleSet) -> Tracker:
    assert isinstance(rule, Exclude)
    return _Exclude(rule, ruleset.region_size)


#: The state of each rule kind, by its class (exactly; a test checks every
#: kind in :data:`solver.kinds.vocabulary.KINDS` has one).
TRACKERS: Final[dict[type[Rule], Callable[[Rule, RuleSet], Tracker]]] = {
    OppositeColours: _colours,
    SameColour: _colours,
    Between: _between,
    NotAdjacent: _not_adjacent,
    LeftOf: _left_of,
    OnFiles: _files,
    NotOnFiles: _files,
    PawnsProtected: _pawns,
    DiffersFrom: _differs,
    Exclude: _exclude,
}


def tracker(rule: Rule, ruleset: RuleSet) -> Tracker:
    """The tracker of one rule (raises ``TypeError`` for a kind without one)."""
    make = TRACKERS.get(type(rule))
    if make is None:
        raise TypeError(f"rule kind {rule.kind!r} has no counting state")
    return make(rule, ruleset)
