"""Numbering many ranks quickly, for listing a family in canonical order.

:meth:`Numbering.encode <solver.numbering.steps.Numbering.encode>` walks every
placement step for every rank. Listing a large family that way costs more
than solving it, so :class:`FastEncoder` reads a rank's ID from a few small
tables instead. Each placement step's choice depends on only part of the
rank, and :meth:`bytes.translate` extracts that part:

* a step on any free square (``"Q"``, ``"NN"``) sees only the order of the
  pieces still to place, so its key is the rank with the pieces placed before
  it deleted: ``"NRKRN"`` for every Chess960 rank whose knights and rooks
  stand in that order around the bishops and queen;
* a step with a colour or a file restriction (``"B:light"``,
  ``"A:opposite-Q"``) keys on the squares themselves, with the pieces placed
  before it blanked to ``#``, except the piece whose colour it refers to.

The first time a key is met the rank is numbered by
:meth:`~solver.numbering.steps.Numbering.encode` itself (which also checks that the
steps can number it), and the choice that key decides is remembered. So the
answer is always the numbering's own; the tables only spare repeating it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from solver.numbering.steps import Numbering, Step

Table = tuple[bytes, bytes]


def _table(letters: Iterable[str], mapping: dict[str, str | None]) -> Table:
    """A :meth:`bytes.translate` table (and letters to delete) for ``mapping``."""
    table = bytearray(range(256))
    delete = bytearray()
    for letter in letters:
        to = mapping[letter]
        if to is None:
            delete.append(ord(letter))
        else:
            table[ord(letter)] = ord(to)
    return bytes(table), bytes(delete)


class FastEncoder:
    """Computes :meth:`Numbering.encode` for many ranks, remembering each step's choice.

    >>> from solver.ruleset.reader import load
    >>> numbering = load("chess960").step_numbering()
    >>> encoder = FastEncoder(numbering)
    >>> encoder.ids(["RNBQKBNR", "QNRBBNKR"])
    [518, 105]
    >>> len(encoder.groups)
    3
    """

    def __init__(self, numbering: Numbering) -> None:
        self.numbering = numbering
        steps = numbering.steps
        totals = Counter("".join(s.pieces for s in steps))
        letters = sorted(totals)
        fill = steps[-1] if steps and steps[-1].fill else None
        choosing = [s for s in steps if not s.fill]
        scales = []
        scale = 1
        for radix in numbering.radices:
            scales.append(scale)
            scale *= radix
        self.scales = tuple(scales)
        self.radices = numbering.radices

        # One group per step that chooses; consecutive steps with the same key
        # share a group. A group is (translate table, steps in it, memo).
        groups: list[tuple[Table, list[int], dict[bytes, int]]] = []
        placed: Counter[str] = Counter()
        for index, step in enumerate(steps):
            if step.fill:
                break
            last = step is choosing[-1]
            later = set(fill.pieces) if (fill is not None and last) else set()
            table = _table(letters, self._mapping(step, letters, placed, totals, later))
            if groups and groups[-1][0] == table:
                groups[-1][1].append(index)
            else:
                groups.append((table, [index], {}))
            placed.update(step.pieces)
        if not choosing:  # only a filling step: the whole rank is the key
            groups.append((_table(letters, {x: x for x in letters}), [], {}))
        self.groups = groups

    def _mapping(
        self,
        step: Step,
        letters: list[str],
        placed: Counter[str],
        totals: Counter[str],
        later: set[str],
    ) -> dict[str, str | None]:
        """Where each letter goes in the key of ``step``.

        ``placed`` counts the pieces placed by the steps before it; ``later``
        holds the letters of a final filling step (kept: they decide whether
        it fills), every other letter still to place is blanked to ``.``.
        """
        letter = step.pieces[0]
        partial = any(0 < placed[x] < totals[x] for x in letters)
        mapping: dict[str, str | None] = {}
        if placed[letter] or partial:
            # Placed pieces are ambiguous here: key on all of them as they stand.
            for x in letters:
                mapping[x] = x if placed[x] or x == letter or x in later else "."
            return mapping
        free_anywhere = (
            step.colour is None and step.relative is None and letter not in self.numbering.allowed
        )
        for x in letters:
            if x == letter or x in later:
                mapping[x] = x
            elif placed[x]:
                mapping[x] = None if free_anywhere else (x if x == step.relative else "#")
            else:
                mapping[x] = "."
        return mapping

    def _learn(self, rank: str) -> None:
        """Number ``rank`` the slow way and remember every group's part of its ID."""
        number = self.numbering.encode(rank)
        digits = []
        for radix in self.radices:
            number, digit = divmod(number, radix) if radix else (number, 0)
            digits.append(digit)
        raw = rank.encode()
        for (table, delete), indices, memo in self.groups:
            memo[raw.translate(table, delete)] = sum(digits[i] * self.scales[i] for i in indices)

    def id(self, rank: str) -> int:
        """The ID of one rank."""
        return self.ids([rank])[0]

    def ids(self, ranks: Iterable[str]) -> list[int]:
        """The IDs of many ranks, in the same order.

        Ranks of one length are read a group at a time: each group's key of
        every rank comes from one ``bytes.translate`` of them all.
        """
        ranks = ranks if isinstance(ranks, list) else list(ranks)
        if len(ranks) > 1 and len(set(map(len, ranks))) == 1:
            blob = "".join(ranks).encode()
            if len(blob) == len(ranks) * len(ranks[0]):
                return self._ids_together(ranks, blob)
        return self._ids_apart(ranks)

    def _ids_together(self, ranks: list[str], blob: bytes) -> list[int]:
        from operator import add

        count = len(ranks)
        totals: list[int] = [0] * count
        for (table, delete), _, memo in self.groups:
            keyed = blob.translate(table, delete)
            width = len(keyed) // count
            keys = list(map(keyed.__getitem__, map(
                slice, range(0, len(keyed), width), range(width, len(keyed) + width, width))))
            found = list(map(memo.get, keys))
            if None in found:
                for rank, key, part in zip(ranks, keys, found, strict=True):
                    if part is None and key not in memo:
                        self._learn(rank)
            parts = list(map(memo.__getitem__, keys)) if None in found else found
            totals = list(map(add, totals, parts))
        return totals

    def _ids_apart(self, ranks: Iterable[str]) -> list[int]:
        groups = [(table, delete, memo.get, memo) for (table, delete), _, memo in self.groups]
        out: list[int] = []
        append = out.append
        for rank in ranks:
            raw = rank.encode()
            total = 0
            for table, delete, get, memo in groups:
                key = raw.translate(table, delete)
                part = get(key)
                if part is None:
                    self._learn(rank)
                    part = memo[key]
                total += part
            append(total)
        return out


def decode_all(numbering: Numbering) -> list[str]:
    """Every rank the placement steps number, by ID: ``decode(i)`` for every ``i``, in one walk.

    The walk places the steps in order, trying each choice of a step once
    for all the ranks below it, so a whole side costs about one string per
    rank. The steps must give the same choices on every path (arithmetic
    numbering); raises :class:`~solver.errors.NumberingError` otherwise.

    >>> from solver.ruleset.reader import load
    >>> ranks = decode_all(load("chess960").step_numbering())
    >>> len(ranks), ranks[518], ranks[105]
    (960, 'RNBQKBNR', 'QNRBBNKR')
    """
    from itertools import combinations

    from solver.errors import NumberingError

    if numbering.uneven is not None:
        raise NumberingError(numbering.family, numbering.uneven)
    steps = numbering.steps
    out: list[str] = [""] * numbering.count
    scales = []
    scale = 1
    for radix in numbering.radices:
        scales.append(scale)
        scale *= radix
    row = [""] * numbering.region_size

    last = max((i for i, s in enumerate(steps) if not s.fill), default=-1)
    patterns: dict[tuple[int, ...], list[tuple[str, ...]]] = {}
    fill = steps[-1].pieces if steps and steps[-1].fill else ""

    def walk(index: int, free: list[int], number: int) -> None:
        if index > last:  # only the filling step is left, or nothing
            for f, letter in zip(free, fill, strict=True):
                row[f] = letter
            out[number] = "".join(row)
            for f in free:
                row[f] = ""
            return
        step = steps[index]
        candidates = numbering._candidates(step, free, row)
        letter, k = step.pieces[0], len(step.pieces)
        scale = scales[index]
        if index == last:  # the innermost loop: one format per rank
            at = tuple(i for i, f in enumerate(free) if f in candidates)
            words = patterns.get(at)
            if words is None:
                words = patterns[at] = _patterns(len(free), at, letter, k, fill)
            template = "".join(p.replace("%", "%%") if p else "%s" for p in row)
            end = number + len(words) * scale
            out[number:end:scale] = [template % word for word in words]
            return
        for digit, chosen in enumerate(combinations(candidates, k)):
            for f in chosen:
                row[f] = letter
            walk(index + 1, [f for f in free if f not in chosen], number + digit * scale)
            for f in chosen:
                row[f] = ""

    if numbering.count:
        walk(0, list(range(numbering.region_size)), 0)
    return out


def _patterns(
    size: int, at: tuple[int, ...], letter: str, k: int, fill: str
) -> list[tuple[str, ...]]:
    """The letters of the last choosing step and the filling step on ``size`` free
    squares, for each choice of ``k`` of the candidates ``at``, in choice order."""
    from itertools import combinations

    words = []
    for chosen in combinations(at, k):
        rest = iter(fill)
        words.append(tuple(letter if i in chosen else next(rest) for i in range(size)))
    return words
