"""The canonical order of a family's ranks, followed file by file as one more state.

The canonical order sorts ranks by their placement steps' choices, last
step first; :class:`KeyOrder` compares a rank's choices with a target as the
files go by, so counting the ranks that sort before a given one is one more
count (:meth:`Counting.rank_id <solver.numbering.counting.engine.Counting.rank_id>`).
A step's choice is the index of a combination of its candidate squares
(:func:`combination_mask`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import comb
from typing import Final

from solver.kinds.base import State, Tracker
from solver.syntax.steps import Numbering, Step

#: How a rank's choices compare with the targets: the same, before, after.
EQ, LT, GT = 0, 1, 2


@cache
def combination_mask(size: int, k: int, index: int) -> int:
    """The ``index``-th ``k``-subset of ``range(size)`` (lexicographic), as a bit mask."""
    mask = 0
    start = 0
    for left in range(k, 0, -1):
        for first in range(start, size):
            below = comb(size - first - 1, left - 1)
            if index < below:
                mask |= 1 << first
                start = first + 1
                break
            index -= below
    return mask


@cache
def _mask_index(size: int, k: int, mask: int) -> int:
    """The lexicographic index of the ``k``-subset ``mask`` of ``range(size)``."""
    index, start, left = 0, 0, k
    for first in range(size):
        if mask >> first & 1:
            index += sum(comb(size - v - 1, left - 1) for v in range(start, first))
            start, left = first + 1, left - 1
    return index


class KeyOrder(Tracker):
    """Follows a rank's placement-step choices file by file, against targets.

    The free squares before step ``j`` are the squares of steps ``j``, ``j+1``,
    ...; a square belongs to the first step whose piece it holds and whose
    colour and files it fits. Step ``j``'s choice is where its pieces stand
    among its candidates (the free squares of its colour and files), as the
    index of that combination. ``targets[j]`` is, for each step, ``None``
    (not followed), ``-1`` (the choice itself is kept, see :meth:`choice`), or
    a target choice to compare with. How many candidates a step has is known
    only at the end, so a comparison is kept for every number still
    possible. A rank that sorts after the targets is dropped at once; one
    that sorts before keeps no more state. A rank the steps cannot place is
    refused. ``marks`` assumes a colour for each piece a step refers to.
    """

    def __init__(
        self, numbering: Numbering, targets: Sequence[int | None], marks: dict[str, str]
    ) -> None:
        steps = numbering.steps
        self.region_size = files = numbering.region_size
        self.colours = numbering.colours
        self.steps = steps
        self.targets = tuple(targets)
        self.marks = marks
        allowed = numbering.allowed
        # owner[file][letter]: the step that places that letter there (absent: none).
        self.owner: list[dict[str, int]] = []
        for file in range(files):
            mine: dict[str, int] = {}
            for index, step in enumerate(steps):
                for letter in dict.fromkeys(step.pieces):
                    if letter not in mine and (
                            step.fill or self._fits(step, file, allowed.get(letter))):
                        mine[letter] = index
            self.owner.append(mine)
        self.fits = [
            [not step.fill and self._fits(step, f, allowed.get(step.pieces[0]))
             for f in range(files)]
            for step in steps
        ]
        self.sizes = [len(s.pieces) for s in steps]
        self.fill = len(steps) - 1 if steps and steps[-1].fill else -1
        placed_by_steps = "".join(s.pieces for s in steps)
        # steps that place only some of their letter count what they place
        self.shared = [not s.fill and placed_by_steps.count(s.pieces[0]) != len(s.pieces)
                       for s in steps]
        # the numbers of candidates each step may have
        self.sizes_possible: list[tuple[int, ...]] = []
        for j, step in enumerate(steps):
            k = self.sizes[j]
            free = sum(self.sizes[j:])
            fitting = sum(self.fits[j])
            plain = step.colour is None and step.relative is None and step.pieces[0] not in allowed
            self.sizes_possible.append(
                (free,) if plain else tuple(range(k, min(free, fitting) + 1)))
        self.target_masks = [
            tuple(combination_mask(n, self.sizes[j], t) if t is not None and 0 <= t < comb(
                n, self.sizes[j]) else -1 for n in self.sizes_possible[j])
            for j, t in enumerate(self.targets)
        ]

    def _fits(self, step: Step, file: int, allowed: frozenset[int] | None) -> bool:
        want: str | None = step.colour
        if step.relative is not None:
            there = self.marks[step.relative]
            want = ("light" if there == "dark" else "dark") if step.opposite else there
        return ((want is None or self.colours[file] == want)
                and (allowed is None or file in allowed))

    def start(self) -> State:
        entries: list[State] = []
        for j, target in enumerate(self.targets):
            if target is None or j == self.fill:
                entries.append(None)
            elif target < 0:
                entries.append((0, 0))  # candidates seen, mask of the chosen ones
            else:
                entries.append((0, tuple(EQ if m >= 0 else LT for m in self.target_masks[j])))
        return (tuple(0 for _ in self.steps), tuple(entries))

    def place(self, state: State, file: int, letter: str) -> State | None:
        placed, entries = state
        marked = self.marks.get(letter)
        if marked is not None and self.colours[file] != marked:
            return None
        step = self.owner[file].get(letter, -1)
        if step < 0:
            return None  # the steps cannot place this rank
        if step == self.fill or self.shared[step]:
            at = placed[step]
            if at == self.sizes[step] or (step == self.fill
                                          and self.steps[step].pieces[at] != letter):
                return None
            placed = (*placed[:step], at + 1, *placed[step + 1:])
        if entries == _SETTLED:
            return (placed, entries)
        new = list(entries)
        top = min(step, len(entries) - 1)
        for j in range(top + 1):
            entry = entries[j]
            if entry is None or not self.fits[j][file] or entry[0] < 0:
                continue
            seen, kept = entry
            chosen = j == step
            if self.targets[j] == -1:
                new[j] = (seen + 1, kept | (chosen << seen))
                continue
            out = []
            for n, verdict, target in zip(self.sizes_possible[j], kept, self.target_masks[j],
                                          strict=True):
                if verdict == EQ and seen < n and chosen != bool(target >> seen & 1):
                    out.append(LT if chosen else GT)
                else:
                    out.append(verdict)
            new[j] = (seen + 1, tuple(out))
        # A step decided for every number still possible makes the steps below
        # it irrelevant; when no step above it is followed, it decides the rank.
        # (Only entries this file changed can have become decided.)
        for j in range(len(new) - 1, -1, -1):
            entry = new[j]
            if entry is None or self.targets[j] == -1:
                continue
            seen, kept = entry
            if seen < 0:
                break
            if j > top or entry is entries[j]:
                continue
            open_ = {v for n, v in zip(self.sizes_possible[j], kept, strict=True) if n >= seen}
            if len(open_) == 1 and EQ not in open_:
                decided = open_.pop()
                if all(e is None for e in new[j + 1:]):
                    return None if decided == GT else (placed, _SETTLED)
                new[j] = (-1, decided)
                for i in range(j):
                    new[i] = None
                break
        return (placed, tuple(new))

    def why_large(self) -> str:
        """What makes this key's states many, for messages."""
        followed = [f"{j + 1} {s.text!r}" for j, (s, t) in
                    enumerate(zip(self.steps, self.targets, strict=True)) if t is not None]
        return ("numbering by the placement steps follows "
                + (f"step {', '.join(followed[:4])}" if followed else "no step")
                + f" over {self.region_size} squares")

    def finish(self, state: State) -> bool:
        placed, _ = state
        return all(placed[j] == self.sizes[j] for j in range(len(self.steps))
                   if self.shared[j] or j == self.fill)

    def verdict(self, state: State) -> int:
        """``LT``, ``EQ`` or ``GT``: how a full rank's choices compare with the targets."""
        _, entries = state
        if entries == _SETTLED:
            return LT
        for j in range(len(entries) - 1, -1, -1):
            entry = entries[j]
            if entry is None or self.targets[j] == -1:
                continue
            seen, kept = entry
            if seen < 0:
                return int(kept)
            where = self.sizes_possible[j].index(seen) if seen in self.sizes_possible[j] else -1
            if where < 0:
                return GT  # impossible number of candidates: never counted
            if kept[where] != EQ:
                return int(kept[where])
        return EQ

    def choice(self, state: State) -> int | None:
        """The choice of the step kept by ``-1`` (``None`` when settled)."""
        _, entries = state
        if entries == _SETTLED:
            return None
        j = self.targets.index(-1)
        seen, mask = entries[j]
        return _mask_index(seen, self.sizes[j], mask)


_SETTLED: Final = "settled"
