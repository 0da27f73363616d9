"""The :class:`Counting` engine: one side's ranks counted, drawn, walked and numbered.

Completions of partial ranks are counted by the rules' trackers (each rule
kind makes its own, :meth:`~solver.kinds.base.Rule.tracker`) and memoised;
the canonical numbering adds the state of
:class:`~solver.numbering.counting.order.KeyOrder`. :func:`strangers` finds
the ranks a counter does not count, :func:`arrangements` lists every
arrangement of some pieces.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from solver.errors import IdRangeError, NumberingError
from solver.kinds.base import State, Tracker
from solver.numbering.counting.order import EQ, LT, KeyOrder, combination_mask
from solver.numbering.steps import Numbering
from solver.ruleset.reader import RuleSet


class Counting:
    """One side's ranks of a family, counted by completions of partial ranks.

    >>> from solver.ruleset.reader import load
    >>> counting = Counting(load("capablanca-random"))
    >>> counting.count
    48000
    >>> counting.draw(random.Random(1)) in counting
    True
    """

    def __init__(
        self, ruleset: RuleSet, numbering: Numbering | Callable[[], Numbering] | None = None
    ) -> None:
        self.ruleset = ruleset
        self.region_size = ruleset.region_size
        #: The numbering, or what makes it when first needed (default: the rule set).
        self._numbering = numbering
        self.letters = tuple(sorted(set(ruleset.pieces)))
        self.start = tuple(ruleset.pieces.count(x) for x in self.letters)
        region, pieces = ruleset.region, ruleset.pieces
        self.trackers = tuple(rule.tracker(region, pieces) for rule in ruleset.rules)
        self._memo: dict[tuple[tuple[int, ...], tuple[State, ...]], int] = {}
        self._count: int | None = None
        self._placeable: int | None = None
        self._graph: list[tuple[tuple[str, int], ...]] | None = None

    @property
    def numbering(self) -> Numbering:
        """The family's placement steps (made only when numbering is asked for)."""
        made = self._numbering
        if not isinstance(made, Numbering):
            made = self._numbering = (made or self.ruleset.step_numbering)()
        return made

    # the completions of a partial rank

    def _completions(
        self,
        trackers: tuple[Tracker, ...],
        memo: dict[tuple[tuple[int, ...], tuple[State, ...]], int],
        counts: tuple[int, ...],
        states: tuple[State, ...],
    ) -> int:
        key = (counts, states)
        found = memo.get(key)
        if found is not None:
            return found
        file = self.region_size - sum(counts)
        if file == self.region_size:
            total = int(all(t.finish(s) for t, s in zip(trackers, states, strict=True)))
        else:
            total = 0
            for index, left in enumerate(counts):
                if not left:
                    continue
                after = self._place(trackers, states, file, self.letters[index])
                if after is None:
                    continue
                fewer = (*counts[:index], left - 1, *counts[index + 1:])
                total += self._completions(trackers, memo, fewer, after)
        memo[key] = total
        return total

    @staticmethod
    def _place(
        trackers: tuple[Tracker, ...], states: tuple[State, ...], file: int, letter: str
    ) -> tuple[State, ...] | None:
        out = []
        for t, s in zip(trackers, states, strict=True):
            after = t.place(s, file, letter)
            if after is None:
                return None
            out.append(after)
        return tuple(out)

    def _total(self, extra: tuple[Tracker, ...] = ()) -> int:
        trackers = self.trackers + extra
        memo = self._memo if not extra else {}
        return self._completions(trackers, memo, self.start, tuple(t.start() for t in trackers))

    @property
    def count(self) -> int:
        """How many ranks one side has."""
        if self._count is None:
            self._count = self._total()
        return self._count

    def __contains__(self, rank: object) -> bool:
        """Whether ``rank`` (upper-case letters) is one of the family's ranks."""
        if not isinstance(rank, str) or len(rank) != self.region_size:
            return False
        if sorted(rank) != sorted(self.ruleset.pieces):
            return False
        states: tuple[State, ...] | None = tuple(t.start() for t in self.trackers)
        for file, letter in enumerate(rank):
            assert states is not None
            states = self._place(self.trackers, states, file, letter)
            if states is None:
                return False
        assert states is not None
        return all(t.finish(s) for t, s in zip(self.trackers, states, strict=True))

    # walking the ranks in the counter's own order (letters alphabetically, file by file)

    def nth(self, index: int) -> str:
        """The ``index``-th rank in the counter's own order (alphabetical)."""
        if not 0 <= index < self.count:
            raise IdRangeError(str(index), index, self.count, self.ruleset.name)
        trackers, memo = self.trackers, self._memo
        counts, states = self.start, tuple(t.start() for t in trackers)
        row = []
        for file in range(self.region_size):
            for i, left in enumerate(counts):
                if not left:
                    continue
                after = self._place(trackers, states, file, self.letters[i])
                if after is None:
                    continue
                fewer = (*counts[:i], left - 1, *counts[i + 1:])
                here = self._completions(trackers, memo, fewer, after)
                if index < here:
                    row.append(self.letters[i])
                    counts, states = fewer, after
                    break
                index -= here
        return "".join(row)

    def draw(self, rng: random.Random) -> str:
        """One rank drawn uniformly at random with ``rng``."""
        return self.nth(rng.randrange(self.count))

    def __iter__(self) -> Iterator[str]:
        """Every rank, in the counter's own order (alphabetical)."""
        if self.count:  # fills the memo that prunes dead branches
            yield from self._walk(self.start, tuple(t.start() for t in self.trackers), "")

    def _walk(self, counts: tuple[int, ...], states: tuple[State, ...], row: str) -> Iterator[str]:
        file = len(row)
        if file == self.region_size:
            yield row
            return
        for i, left in enumerate(counts):
            if not left:
                continue
            after = self._place(self.trackers, states, file, self.letters[i])
            if after is None:
                continue
            fewer = (*counts[:i], left - 1, *counts[i + 1:])
            if self._completions(self.trackers, self._memo, fewer, after):
                yield from self._walk(fewer, after, row + self.letters[i])

    # the canonical numbering

    def _mark_choices(self) -> list[dict[str, str]]:
        """Every assumption about the colours of pieces that steps refer to."""
        referenced = sorted({s.relative for s in self.numbering.steps if s.relative})
        return [dict(zip(referenced, shades, strict=True))
                for shades in _products(("dark", "light"), len(referenced))]

    def _live(self) -> list[tuple[tuple[str, int], ...]]:
        """The partial ranks that have completions, numbered, with their moves.

        Node 0 is the empty rank; ``graph[node]`` lists ``(letter, node)``
        for each letter that may stand on the next file and still complete.
        A node's file is its depth, so the graph is walked layer by layer.
        """
        if self._graph is None:
            trackers, memo, letters = self.trackers, self._memo, self.letters
            first = (self.start, tuple(t.start() for t in trackers))
            ids = {first: 0}
            nodes = [first]
            graph: list[tuple[tuple[str, int], ...]] = []
            if self.count:
                for counts, states in nodes:  # grows as it goes: breadth first
                    file = self.region_size - sum(counts)
                    moves = []
                    for i, left in enumerate(counts):
                        if not left:
                            continue
                        after = self._place(trackers, states, file, letters[i])
                        if after is None:
                            continue
                        node = ((*counts[:i], left - 1, *counts[i + 1:]), after)
                        if not self._completions(trackers, memo, *node):
                            continue
                        if node not in ids:
                            ids[node] = len(nodes)
                            nodes.append(node)
                        moves.append((letters[i], ids[node]))
                    graph.append(tuple(moves))
            self._graph = graph
        return self._graph

    def _ends(self, key: KeyOrder) -> dict[State, int]:
        """How many full ranks end in each state of ``key`` (forward, layer by layer).

        A layer maps each state of ``key`` to the partial ranks (nodes of
        :meth:`_live`) in it, with how many ways lead there; ``key`` moves
        once per state and letter, not once per partial rank.
        """
        graph = self._live()
        if not graph:
            return {}
        layer: dict[State, dict[int, int]] = {key.start(): {0: 1}}
        place = key.place
        for file in range(self.region_size):
            following: dict[State, dict[int, int]] = {}
            for mine, nodes in layer.items():
                moved: dict[str, dict[int, int] | None] = {}
                for node, paths in nodes.items():
                    for letter, target in graph[node]:
                        if letter in moved:
                            into = moved[letter]
                        else:
                            after = place(mine, file, letter)
                            into = moved[letter] = (
                                None if after is None else following.setdefault(after, {}))
                        if into is not None:
                            into[target] = into.get(target, 0) + paths
            layer = following
        # every live full rank obeys the rules
        return {mine: sum(nodes.values()) for mine, nodes in layer.items() if key.finish(mine)}

    def placeable(self) -> int:
        """How many of the family's ranks the placement steps can place."""
        steps = self.numbering.steps
        return sum(
            sum(self._ends(KeyOrder(self.numbering, [None] * len(steps), marks)).values())
            for marks in self._mark_choices())

    def _check_placeable(self) -> None:
        if self._placeable is None:
            self._placeable = self.placeable()
        if self._placeable != self.count:
            raise NumberingError(
                self.ruleset.name,
                f"the placement steps {' '.join(self.ruleset.steps)} cannot place "
                f"{self.count - self._placeable:,} of the family's ranks")

    def rank_id(self, rank: str) -> int:
        """The canonical ID of one of the family's ranks (upper-case letters).

        Raises :class:`~solver.errors.NumberingError` when the steps cannot
        place every rank of the family.
        """
        self._check_placeable()
        targets = self.numbering.digits(rank)
        before = 0
        for marks in self._mark_choices():
            key = KeyOrder(self.numbering, targets, marks)
            before += sum(paths for state, paths in self._ends(key).items()
                          if key.verdict(state) == LT)
        return before

    def rank_of(self, number: int) -> str:
        """The rank with canonical ID ``number``: the choices, last step first.

        Each step's choice takes one forward pass; the first pass also counts
        the ranks the steps can place (every rank there is kept); the last
        step takes the squares left, so it has one choice and takes no pass.
        """
        if not 0 <= number < self.count:
            raise IdRangeError(str(number), number, self.count, self.ruleset.name)
        steps = self.numbering.steps
        targets: list[int | None] = [None] * len(steps)
        for j in range(len(steps) - 1, -1, -1):
            if steps[j].fill or j == len(steps) - 1:  # the last step takes what is left
                targets[j] = 0
                continue
            targets[j] = -1
            before = placed = 0
            by_choice: dict[int, int] = {}
            for marks in self._mark_choices():
                key = KeyOrder(self.numbering, targets, marks)
                for state, paths in self._ends(key).items():
                    placed += paths
                    verdict = key.verdict(state)
                    if verdict == LT:
                        before += paths
                    elif verdict == EQ:
                        made = key.choice(state)
                        assert made is not None
                        by_choice[made] = by_choice.get(made, 0) + paths
            if self._placeable is None:  # no step above has a choice: all kept
                self._placeable = placed
            self._check_placeable()
            rest = number - before  # ranks that sort before ``number`` also below
            for made in sorted(by_choice):
                if rest < by_choice[made]:
                    targets[j] = made
                    break
                rest -= by_choice[made]
        self._check_placeable()
        return self._decode([t or 0 for t in targets])

    def _decode(self, digits: Sequence[int]) -> str:
        """The rank the steps place with these choices."""
        numbering = self.numbering
        row = [""] * self.region_size
        free = list(range(self.region_size))
        for step, digit in zip(numbering.steps, digits, strict=True):
            if step.fill:
                for f, letter in zip(free, step.pieces, strict=True):
                    row[f] = letter
                break
            candidates = numbering._candidates(step, free, row)
            k = len(step.pieces)
            chosen = combination_mask(len(candidates), k, digit)
            for i in [i for i in range(len(candidates)) if chosen >> i & 1]:
                row[candidates[i]] = step.pieces[0]
                free.remove(candidates[i])
        return "".join(row)


def _products(values: tuple[str, str], n: int) -> list[tuple[str, ...]]:
    return [tuple(values[(i >> b) & 1] for b in range(n)) for i in range(1 << n)]



def arrangements(pieces: str) -> Iterator[str]:
    """Every distinct arrangement of ``pieces`` once, in alphabetical order.

    >>> list(arrangements("KRR"))
    ['KRR', 'RKR', 'RRK']
    """
    letters = sorted(set(pieces))
    left = [pieces.count(x) for x in letters]
    row: list[str] = []

    def walk() -> Iterator[str]:
        if len(row) == len(pieces):
            yield "".join(row)
            return
        for i, letter in enumerate(letters):
            if left[i]:
                left[i] -= 1
                row.append(letter)
                yield from walk()
                row.pop()
                left[i] += 1

    yield from walk()


def strangers(counting: Counting, ranks: Sequence[str]) -> list[str]:
    """The ranks among ``ranks`` that ``counting`` does not count.

    The ranks are walked file by file together, each partial rank's state
    (pieces left and every rule's state) numbered once, so a file costs two
    lookups per rank.

    >>> from solver.ruleset.reader import load
    >>> strangers(Counting(load("chess960")), ["RNBQKBNR", "BRBNQKNR", "RKRNNQBB", "RNBQ"])
    ['RNBQ', 'BRBNQKNR']
    """
    trackers = counting.trackers
    letters = counting.letters
    first = (counting.start, tuple(t.start() for t in trackers))
    nodes: list[tuple[tuple[int, ...], tuple[State, ...]]] = [first]
    ids: dict[tuple[tuple[int, ...], tuple[State, ...]], int] = {first: 0}
    dead = -1

    class Moves(dict[str, int]):
        """The node each letter leads to from one node on one file."""

        def __init__(self, node: int, file: int) -> None:
            super().__init__()
            self.node, self.file = node, file

        def __missing__(self, letter: str) -> int:
            target = dead
            if self.node >= 0 and letter in letters:
                counts, states = nodes[self.node]
                i = letters.index(letter)
                after = counting._place(trackers, states, self.file, letter) if counts[i] else None
                if after is not None:
                    node = ((*counts[:i], counts[i] - 1, *counts[i + 1:]), after)
                    target = ids.get(node, -1)
                    if target < 0:
                        target = ids[node] = len(nodes)
                        nodes.append(node)
            self[letter] = target
            return target

    out = [rank for rank in ranks if len(rank) != counting.region_size]
    fitting = [rank for rank in ranks if len(rank) == counting.region_size] if out else list(ranks)
    walked = [0] * len(fitting)
    joined = "".join(fitting)
    for file in range(counting.region_size):
        column = joined[file::counting.region_size]
        table = {node: Moves(node, file) for node in set(walked)}
        walked = [table[node][letter] for node, letter in zip(walked, column, strict=True)]
    accepted = {
        node: node >= 0 and all(t.finish(s) for t, s in zip(
            trackers, nodes[node][1], strict=True))
        for node in set(walked)
    }
    out += [rank for node, rank in zip(walked, fitting, strict=True) if not accepted[node]]
    return out
