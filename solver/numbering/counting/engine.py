"""The :class:`Counting` engine: one side's ranks counted, drawn, walked and numbered.

Completions of partial ranks are counted by the rules' trackers (each rule
kind makes its own, :meth:`~solver.kinds.base.Rule.tracker`) and memoised;
the canonical numbering adds the state of
:class:`~solver.numbering.counting.order.KeyOrder`. :func:`strangers` finds
the ranks a counter does not count, :func:`arrangements` lists every
arrangement of some pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from math import comb, factorial, prod
from typing import TYPE_CHECKING, Final

from solver.errors import CountingTooLargeError, IdRangeError, NumberingError
from solver.kinds.base import State, Tracker
from solver.numbering import budget
from solver.numbering.counting.levels import Levels, plain
from solver.numbering.counting.order import EQ, LT, KeyOrder, combination_mask
from solver.ruleset.reader import RuleSet
from solver.syntax.steps import Numbering

if TYPE_CHECKING:
    import random


class Counting:
    """One side's ranks of a family, counted by completions of partial ranks.

    >>> from solver.ruleset.reader import load
    >>> counting = Counting(load("capablanca-random"))
    >>> counting.count
    48000
    >>> import random
    >>> counting.draw(random.Random(1)) in counting
    True

    Its states are bounded (``max_states``, default
    :func:`solver.numbering.budget.max_states`): a family that would need
    more is refused before counting starts with
    :class:`~solver.errors.CountingTooLargeError`. Piece kinds that no rule
    names are counted as one kind (:attr:`anonymous`), times the ways to
    arrange them, when every rule names its pieces.
    """

    def __init__(
        self, ruleset: RuleSet, numbering: Numbering | Callable[[], Numbering] | None = None,
        max_states: int | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.region_size = ruleset.region_size
        #: The numbering, or what makes it when first needed (default: the rule set).
        self._numbering = numbering
        self.max_states = budget.max_states() if max_states is None else max_states
        self.letters = tuple(sorted(set(ruleset.pieces)))
        self.start = tuple(ruleset.pieces.count(x) for x in self.letters)
        region, pieces = ruleset.region, ruleset.pieces
        self.trackers = tuple(rule.tracker(region, pieces) for rule in ruleset.rules)
        self._memo: dict[tuple[tuple[int, ...], tuple[State, ...]], int] = {}
        #: The piece kinds no rule names, counted together (empty: none merged).
        self.anonymous: tuple[str, ...] = _anonymous(ruleset, self.letters)
        if self.anonymous:
            kept = tuple(x for x in self.letters if x not in self.anonymous)
            self._count_letters = (*kept, ANONYMOUS)
            self._count_start = (*(pieces.count(x) for x in kept),
                                 sum(pieces.count(x) for x in self.anonymous))
            alike = [pieces.count(x) for x in self.anonymous]
            self._factor = factorial(sum(alike)) // prod(factorial(n) for n in alike)
        else:
            self._count_letters, self._count_start, self._factor = self.letters, self.start, 1
        self._count_memo: dict[tuple[tuple[int, ...], tuple[State, ...]], int] = (
            {} if self.anonymous else self._memo)
        self._checked = self._full_checked = False
        self._count: int | None = None
        self._placeable: int | None = None
        self._graph: list[tuple[tuple[str, int], ...]] | None = None
        self._levels: Levels | bool | None = None  # False: the steps are not plain

    @property
    def numbering(self) -> Numbering:
        """The family's placement steps (made only when numbering is asked for)."""
        made = self._numbering
        if not isinstance(made, Numbering):
            made = self._numbering = (made or self.ruleset.step_numbering)()
        return made

    # the completions of a partial rank

    # the budget

    def states(self, letters: Sequence[int] | None = None) -> int:
        """At most how many states counting with these piece counts meets
        (default: every piece kind apart)."""
        counts = self.start if letters is None else letters
        return prod(n + 1 for n in counts) * prod(
            t.states(self.region_size) for t in self.trackers)

    def _refuse(self, states: int, why: str | None = None) -> CountingTooLargeError:
        if why is None:
            counts = self._count_start if self.anonymous else self.start
            kinds = [x for x in self.letters if x not in self.anonymous]
            if self.anonymous:
                kinds.append("(" + "".join(self.anonymous) + " together)")
            rules = [f"{rule.label} x{t.states(self.region_size):,}"
                     for rule, t in zip(self.ruleset.rules, self.trackers, strict=True)
                     if t.states(self.region_size) > 1]
            shown = ", ".join(rules[:3]) + (f" and {len(rules) - 3} more" if len(rules) > 3
                                            else "")
            why = (f"{len(counts)} piece kinds {' '.join(kinds)} "
                   f"(x{prod(n + 1 for n in counts):,})"
                   + (f" and the rules {shown}" if rules else ""))
            if len(why) > 200:
                why = why[:197] + "..."
        return CountingTooLargeError(self.ruleset.name, states, self.max_states, why)

    def _check_budget(self) -> None:
        """Refuse, before counting, a family whose states exceed the bound."""
        if not self._checked:
            states = self.states(self._count_start)
            if states > self.max_states:
                raise self._refuse(states)
            self._checked = True

    def _check_full(self) -> None:
        """Refuse, before walking every piece kind apart, what exceeds the bound."""
        self._check_budget()
        if self.anonymous and not self._full_checked:
            states = self.states()
            if states > self.max_states:
                raise self._refuse(states, (
                    f"numbering tells its {len(self.letters)} piece kinds apart "
                    f"(x{prod(n + 1 for n in self.start):,}), though counting alone "
                    f"takes {self.letters_merged} together"))
            self._full_checked = True

    def _choices(self, j: int) -> int:
        """At most how many ways step ``j`` has to place its pieces."""
        step = self.numbering.steps[j]
        squares = self.region_size - sum(len(s.pieces) for s in self.numbering.steps[:j])
        return comb(squares, len(step.pieces))

    def _check_numbering(self) -> None:
        """Refuse numbering by counting that would walk more than the bound."""
        nodes = len(self._live())
        # a step takes one pass, or a few probes that keep fewer states (_split)
        passes = len(self.numbering.steps) * len(self._mark_choices())
        cost = nodes * passes * NUMBERING_WEIGHT
        if cost > self.max_states:
            raise self._refuse(cost, (
                f"numbering by counting walks its {nodes:,} partial ranks once per "
                f"placement step ({' '.join(s.text for s in self.numbering.steps)[:80]}), "
                f"x{passes * NUMBERING_WEIGHT}"))

    @property
    def letters_merged(self) -> str:
        """The piece kinds counted together, as letters (empty: none)."""
        return "".join(self.anonymous)

    def _completions(
        self,
        trackers: tuple[Tracker, ...],
        memo: dict[tuple[tuple[int, ...], tuple[State, ...]], int],
        counts: tuple[int, ...],
        states: tuple[State, ...],
        letters: tuple[str, ...] | None = None,
    ) -> int:
        key = (counts, states)
        found = memo.get(key)
        if found is not None:
            return found
        letters = letters or self.letters
        file = self.region_size - sum(counts)
        if file == self.region_size:
            total = int(all(t.finish(s) for t, s in zip(trackers, states, strict=True)))
        else:
            total = 0
            for index, left in enumerate(counts):
                if not left:
                    continue
                after = self._place(trackers, states, file, letters[index])
                if after is None:
                    continue
                fewer = (*counts[:index], left - 1, *counts[index + 1:])
                total += self._completions(trackers, memo, fewer, after, letters)
        if len(memo) >= self.max_states:  # a tracker that understated its states
            raise self._refuse(len(memo) + 1)
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
        if extra:
            self._check_full()
            return self._completions(trackers, {}, self.start,
                                     tuple(t.start() for t in trackers))
        self._check_budget()
        return self._factor * self._completions(
            trackers, self._count_memo, self._count_start, tuple(t.start() for t in trackers),
            self._count_letters)

    @property
    def count(self) -> int:
        """How many ranks one side has.

        Raises :class:`~solver.errors.CountingTooLargeError` when counting
        would exceed the bound on states.
        """
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
        self._check_full()
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
            self._check_full()
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
            if self.count:
                self._check_full()
            trackers, letters = self.trackers, self.letters
            first = (self.start, tuple(t.start() for t in trackers))
            ids = {first: 0}
            nodes = [first]
            moves: list[list[tuple[str, int]]] = []
            if self.count:
                place = self._place
                # the rules' states are few: each move of them is made once
                placed: dict[tuple[tuple[State, ...], int, str], tuple[State, ...] | None] = {}
                for counts, states in nodes:  # grows as it goes: breadth first
                    file = self.region_size - sum(counts)
                    mine = []
                    for i, left in enumerate(counts):
                        if not left:
                            continue
                        move = (states, file, letters[i])
                        if move in placed:
                            after = placed[move]
                        else:
                            after = placed[move] = place(trackers, states, file, letters[i])
                        if after is None:
                            continue
                        node = ((*counts[:i], left - 1, *counts[i + 1:]), after)
                        target = ids.get(node)
                        if target is None:
                            target = ids[node] = len(nodes)
                            nodes.append(node)
                        mine.append((letters[i], target))
                    if len(nodes) > self.max_states:  # a tracker understated its states
                        raise self._refuse(len(nodes))
                    moves.append(mine)
            # keep the partial ranks that complete: a full rank that obeys the
            # rules, or one move to such a partial rank (later layers come later)
            alive = [False] * len(moves)
            for at in range(len(moves) - 1, -1, -1):
                left_counts, left_states = nodes[at]
                if not any(left_counts):
                    alive[at] = all(t.finish(s) for t, s in zip(trackers, left_states,
                                                                 strict=True))
                else:
                    alive[at] = any(alive[target] for _, target in moves[at])
            graph: list[tuple[tuple[str, int], ...]] = []
            if alive and alive[0]:
                kept = [at for at in range(len(moves)) if alive[at]]
                renumber = {old: at for at, old in enumerate(kept)}
                graph = [tuple((letter, renumber[target]) for letter, target in moves[old]
                               if alive[target]) for old in kept]
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
        limit = self.max_states
        for file in range(self.region_size):
            following: dict[State, dict[int, int]] = {}
            for mine, nodes in layer.items():
                if len(following) > limit:  # the key's states alone exceed the bound
                    raise self._refuse(len(following), key.why_large())
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
            if sum(map(len, layer.values())) > limit:
                raise self._refuse(sum(map(len, layer.values())), key.why_large())
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

    def levels(self) -> Levels | None:
        """The walk of plain steps (:mod:`solver.numbering.counting.levels`),
        or ``None`` when the steps are not plain or its estimate of states
        exceeds the bound (then the walk by files, with its own bound, numbers).
        """
        if self._levels is None:
            numbering = self.numbering
            if not plain(numbering) or len(self.ruleset.pieces) != self.region_size:
                self._levels = False
            else:
                steps = [s.pieces for s in numbering.steps]
                walk = Levels(self.trackers, self.ruleset.rules, self.ruleset.pieces,
                              steps, self.count, self.max_states, self._refuse,
                              _share(self.ruleset, steps, self.max_states))
                # over the bound, the walk by files decides (and refuses by its own)
                self._levels = walk if walk.states() <= self.max_states else False
        return self._levels if isinstance(self._levels, Levels) else None

    def rank_id(self, rank: str) -> int:
        """The canonical ID of one of the family's ranks (upper-case letters).

        Raises :class:`~solver.errors.NumberingError` when the steps cannot
        place every rank of the family.
        """
        walk = self.levels()
        if walk is not None:
            return walk.rank_id(rank)
        self._check_numbering()
        self._check_placeable()
        targets = self.numbering.digits(rank)
        before = 0
        for marks in self._mark_choices():
            key = KeyOrder(self.numbering, targets, marks)
            before += sum(paths for state, paths in self._ends(key).items()
                          if key.verdict(state) == LT)
        return before

    def _split(self, targets: list[int | None], j: int, number: int,
               known: tuple[int, int] | None = None) -> tuple[int, tuple[int, int]]:
        """Step ``j``'s choice in the rank with ID ``number``, by searching its choices.

        ``targets`` holds the choices of the steps after ``j`` (found) and
        ``None`` before it. How many ranks sort before choice ``t`` grows with
        ``t``; the choice is the ``t`` with at most ``number`` ranks before it
        and more before ``t + 1``. Each probe is one forward pass whose states
        stay few (the choice is compared with ``t``, not kept). The probes
        interpolate (ranks are often spread evenly over the choices, so one or
        two probes find it) and halve the interval when interpolating did not,
        so a step placing many identical pieces costs a few passes, at most
        about twice log2 of its placements.

        ``known`` is how many ranks sort before the later steps' choices and
        how many match them (``None``: one more pass counts them); the choice
        is returned with the same for the steps from ``j`` on.
        """
        if known is None:
            targets[j] = None  # the ranks whose later steps match, over every choice
            known = self._probe(targets)
        low_before, here = known
        low, high, high_before = 0, self._choices(j), low_before + here
        halve = False
        while high - low > 1:
            if halve:
                t = (low + high) // 2
            else:
                t = low + (number - low_before) * (high - low) // (high_before - low_before)
                t = min(max(t, low), high - 1)
            targets[j] = t
            before, here = self._probe(targets)
            width = high - low
            if before + here <= number:
                low, low_before = t + 1, before + here
            elif before <= number:
                return t, (before, here)
            else:
                high, high_before = t, before
            halve = not halve and 2 * (high - low) > width
        return low, (low_before, high_before - low_before)

    def _probe(self, targets: Sequence[int | None]) -> tuple[int, int]:
        """How many ranks sort before ``targets``, and how many equal them."""
        before = equal = 0
        for marks in self._mark_choices():
            key = KeyOrder(self.numbering, targets, marks)
            for state, paths in self._ends(key).items():
                verdict = key.verdict(state)
                if verdict == LT:
                    before += paths
                elif verdict == EQ:
                    equal += paths
        return before, equal

    def rank_of(self, number: int) -> str:
        """The rank with canonical ID ``number``: the choices, last step first.

        A step among few placements (:data:`SPLIT_CHOICES`) has its choice
        found in one forward pass (the first pass also counts the ranks the
        steps can place: every rank there is kept); a step among more has it
        searched by a few passes (:meth:`_split`); the last step takes the
        squares left, so it has one choice and takes no pass.
        """
        if not 0 <= number < self.count:
            raise IdRangeError(str(number), number, self.count, self.ruleset.name)
        walk = self.levels()
        if walk is not None:
            return walk.rank_of(number)
        self._check_numbering()
        steps = self.numbering.steps
        targets: list[int | None] = [None] * len(steps)
        known: tuple[int, int] | None = None  # ranks before / equal to the targets so far
        for j in range(len(steps) - 1, -1, -1):
            if steps[j].fill or j == len(steps) - 1:  # the last step takes what is left
                targets[j] = 0
                continue
            if self._choices(j) > SPLIT_CHOICES:
                self._check_placeable()
                targets[j], known = self._split(targets, j, number, known)
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
                    known = (number - rest, by_choice[made])
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


#: What one partial rank costs per pass of numbering by counting, in states
#: (the canonical order's own state multiplies it; measured, rules/README.md).
NUMBERING_WEIGHT: Final = 8

#: A step choosing among more placements than this has its choice found by
#: halving (:meth:`Counting._split`, a pass per halving, few states) instead
#: of in one pass that keeps every placement it meets as a state.
SPLIT_CHOICES: Final = 64

#: The letter standing for the piece kinds counted together.
ANONYMOUS: Final = "\x00"


def _anonymous(ruleset: RuleSet, letters: tuple[str, ...]) -> tuple[str, ...]:
    """The piece kinds no rule tells apart, when there are two or more of them.

    A rule that names its pieces (:attr:`Rule.letters <solver.kinds.base.Rule.letters>`)
    treats every other piece alike, so pieces no rule names can be counted as
    one kind; a rule reading the whole rank (no letters) tells every piece apart.
    """
    named: set[str] = set()
    for rule in ruleset.rules:
        if not rule.letters:
            return ()
        named |= rule.letters
    alike = tuple(x for x in letters if x not in named)
    return alike if len(alike) > 1 else ()


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


def _share(ruleset: RuleSet, steps: list[str], limit: int | None) -> Hashable | None:
    """What names a walk's kept counts (:class:`Levels` ``share``): the rule
    set, its steps and the bound on states; ``None`` when the rule set holds
    something that cannot name them (then nothing is shared)."""
    share = (ruleset, tuple(steps), limit)
    try:
        hash(share)
    except TypeError:
        return None
    return share
