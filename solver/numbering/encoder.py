"""Numbering many ranks quickly, for listing a family in canonical order.

:meth:`Numbering.encode <solver.syntax.steps.Numbering.encode>` walks every
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
:meth:`~solver.syntax.steps.Numbering.encode` itself (which also checks that the
steps can number it), and the choice that key decides is remembered. So the
answer is always the numbering's own; the tables only spare repeating it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from math import prod

from solver.syntax.steps import Numbering, Step

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
        it fills), every other letter still to place is blanked to ``_`` (never a
        letter of a rank: ``.`` is an empty square, which a step may place).
        """
        letter = step.pieces[0]
        partial = any(0 < placed[x] < totals[x] for x in letters)
        mapping: dict[str, str | None] = {}
        if placed[letter] or partial:
            # Placed pieces are ambiguous here: key on all of them as they stand.
            for x in letters:
                mapping[x] = x if placed[x] or x == letter or x in later else "_"
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
                mapping[x] = "_"
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
        from struct import unpack

        count = len(ranks)
        totals: list[int] = [0] * count
        for (table, delete), _, memo in self.groups:
            keyed = blob.translate(table, delete)
            keys = unpack(f"{len(keyed) // count}s" * count, keyed)  # cut apart at once
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

    The steps must give the same choices on every path (arithmetic
    numbering); raises :class:`~solver.errors.NumberingError` otherwise.
    See :func:`decode_blocks`.

    >>> from solver.ruleset.reader import load
    >>> ranks = decode_all(load("chess960").step_numbering())
    >>> len(ranks), ranks[518], ranks[105]
    (960, 'RNBQKBNR', 'QNRBBNKR')
    """
    blocks = list(decode_blocks(numbering, max(numbering.count, 1)))
    return blocks[0] if blocks else []


def decode_blocks(numbering: Numbering, size: int = 1 << 17) -> Iterator[list[str]]:
    """``decode(i)`` for every ``i`` in ID order, ``size`` IDs a block (fewer
    when few steps' choices are listed per walk: see below).

    Each block is one walk placing the steps in order, trying each choice of
    a step once for all the ranks below it. The last steps that take any
    free square (no colour, files or path: ``"CCC"``, ``"NN"``, ``"RKR"``)
    depend only on how many squares are free, so their letters are listed
    once (``words``), and each rank is one ``%`` of the placed pieces'
    template with a word: a whole side costs about one string per rank. A
    walk reaches every template, so a block holds at least eight ranks a
    template. Raises :class:`~solver.errors.NumberingError` when the steps
    do not give the same choices on every path.

    >>> from solver.ruleset.reader import load
    >>> [len(b) for b in decode_blocks(load("chess960").step_numbering(), 500)]
    [500, 460]
    """
    from solver.errors import NumberingError

    if numbering.uneven is not None:
        raise NumberingError(numbering.family, numbering.uneven)
    walk = _Decoding(numbering)
    # a walk visits every template: at least eight ranks a template per block
    size = max(size, 8 * walk.templates)
    for lo in range(0, numbering.count, size):
        yield walk.block(lo, min(numbering.count, lo + size))


class _Decoding:
    """The walk of :func:`decode_blocks`, one block of IDs at a time."""

    def __init__(self, numbering: Numbering) -> None:
        self.numbering = numbering
        steps = self.steps = numbering.steps
        self.scales = [prod(numbering.radices[:i]) for i in range(len(steps) + 1)]
        self.row = [""] * numbering.region_size
        self.split = _plain_from(numbering)
        self.last = max((i for i, s in enumerate(steps) if not s.fill), default=-1)
        self.fill = steps[-1] if steps and steps[-1].fill else None
        #: Whether the last choosing step (not plain) is followed by a plain fill.
        self.patterned = (self.fill is not None and self.split == self.last + 1
                          and _plain(numbering, self.fill))
        #: How many templates a walk fills.
        self.templates = prod(numbering.radices[:self.last if self.patterned else self.split])
        self.patterns: dict[tuple[int, ...], list[tuple[str, ...]]] = {}
        self.words: dict[int, list[tuple[str, ...]]] = {}
        self.out: list[str] = []
        self.lo = self.hi = 0

    def block(self, lo: int, hi: int) -> list[str]:
        """The ranks with IDs ``lo..hi-1``."""
        self.lo, self.hi, self.out = lo, hi, [""] * (hi - lo)
        self.walk(0, list(range(self.numbering.region_size)), 0)
        return self.out

    def emit(self, number: int, stride: int, listed: list[tuple[str, ...]]) -> None:
        """The placed pieces' template ``%`` each word whose ID (``number + stride * j``)
        falls in this block."""
        first = max(0, -((number - self.lo) // stride))
        end = min(len(listed), -((number - self.hi) // stride))
        if first < end:
            template = "".join(p.replace("%", "%%") if p else "%s" for p in self.row)
            at = number + stride * first - self.lo
            self.out[at:at + stride * (end - first):stride] = list(
                map(template.__mod__, listed[first:end]))

    def walk(self, index: int, free: list[int], number: int) -> None:
        from itertools import combinations

        row, steps = self.row, self.steps
        if index >= self.split:  # what is left depends only on how many squares are free
            listed = self.words.get(index)
            if listed is None:
                listed = self.words[index] = [
                    tuple(w) for w in _plain_words(steps, index, len(free))]
            self.emit(number, self.scales[index], listed)
            return
        step = steps[index]
        if step.fill:  # a filling step along a path of its own
            self.fill_along(step, free, number)
            return
        candidates = self.numbering._candidates(step, free, row)
        if index == self.last and self.patterned and self.last_step(step, free, candidates,
                                                                     number):
            return
        letter, k = step.pieces[0], len(step.pieces)
        scale = self.scales[index]
        for digit, chosen in enumerate(combinations(candidates, k)):
            for f in chosen:
                row[f] = letter
            self.walk(index + 1, [f for f in free if f not in chosen], number + digit * scale)
            for f in chosen:
                row[f] = ""

    def fill_along(self, step: Step, free: list[int], number: int) -> None:
        """Each rank of a filling step that takes the squares along its own path."""
        row = self.row
        for digit, order in enumerate(step.orders or (step.pieces,)):
            at = number + digit * self.scales[self.steps.index(step)]
            if self.lo <= at < self.hi:
                for f, letter in zip(self.numbering._ordered(step, free), order, strict=True):
                    row[f] = letter
                self.out[at - self.lo] = "".join(row)
        for f in free:
            row[f] = ""

    def last_step(self, step: Step, free: list[int], candidates: list[int],
                  number: int) -> bool:
        """The last choosing step's ranks, before a plain fill, one format each
        (words kept by where its candidates are among the free squares);
        ``False`` when its path does not take them in order."""
        places = tuple(i for i, f in enumerate(free) if f in candidates)
        if [free[i] for i in places] != candidates:
            return False
        fill = self.fill
        assert fill is not None
        found = self.patterns.get(places)
        if found is None:
            found = self.patterns[places] = [
                tuple(w) for w in _patterns(len(free), places, step.pieces[0],
                                            len(step.pieces), fill.orders or (fill.pieces,))]
        self.emit(number, self.scales[self.last], found)
        return True


#: The most words :func:`decode_all` lists for the plain steps at the end.
_MOST_WORDS = 1 << 16


def _plain(numbering: Numbering, step: Step) -> bool:
    """Whether ``step`` takes any free square, in order (no colour, files or path)."""
    return (id(step) not in numbering.paths and step.colour is None and step.relative is None
            and (step.fill or step.pieces[0] not in numbering.allowed))


def _plain_from(numbering: Numbering) -> int:
    """The first of the plain steps at the end whose words (the ways to fill
    the squares left) are few enough to list once."""
    steps = numbering.steps
    split = len(steps)
    while split > 0 and _plain(numbering, steps[split - 1]):
        split -= 1
    while split < len(steps) and prod(numbering.radices[split:]) > _MOST_WORDS:
        split += 1
    return split


def _plain_words(steps: tuple[Step, ...], index: int, size: int) -> list[str]:
    """The letters plain steps ``index``.. put on ``size`` free squares, for
    each choice, the first step's choice varying fastest.

    >>> from solver.syntax.steps import parse_steps
    >>> _plain_words(parse_steps(["NN", "RKR"], "RKRNN"), 0, 5)[:3]
    ['NNRKR', 'NRNKR', 'NRKNR']
    """
    from itertools import combinations

    if index == len(steps):
        return [""]
    step = steps[index]
    if step.fill:
        return list(step.orders or (step.pieces,))
    letter, k = step.pieces[0], len(step.pieces)
    templates = []
    for chosen in combinations(range(size), k):
        templates.append("".join(letter if i in chosen else "%s" for i in range(size)))
    return [t % tuple(rest) for rest in _plain_words(steps, index + 1, size - k)
            for t in templates]


def _patterns(
    size: int, at: tuple[int, ...], letter: str, k: int, fills: tuple[str, ...]
) -> list[str]:
    """The letters of the last choosing step and the filling step on ``size`` free
    squares, for each choice of ``k`` of the candidates ``at`` (and each order
    of the fill), the choice varying fastest."""
    from itertools import combinations

    words = []
    for fill in fills:
        for chosen in combinations(at, k):
            rest = iter(fill)
            words.append("".join(letter if i in chosen else next(rest) for i in range(size)))
    return words


class SortKeys:
    """The canonical order's key of many ranks, as one integer each, ordered as
    :meth:`Numbering.ordered <solver.syntax.steps.Numbering.ordered>` orders
    them: read from the same projections, whose memos are kept from call to
    call (so batches of ranks can be keyed where they are found).

    Each group of steps' memo gives its part of the key already weighted by
    the groups below it, so a key is the sum of its parts; and when every step
    has the same number of choices on every path, the parts are renumbered
    by those numbers of choices, so that keys stay small integers (below the
    number of arrangements the steps place), which sort faster. A batch's
    projections are cut apart by one :func:`struct.unpack`.

    >>> from solver.ruleset.reader import load
    >>> numbering = load("chess480").step_numbering()
    >>> keys = SortKeys(numbering)
    >>> ranks = ["RNBQKBNR", "BBQNNRKR"]
    >>> sorted(ranks, key=dict(zip(ranks, keys(ranks))).__getitem__)
    ['BBQNNRKR', 'RNBQKBNR']
    """

    def __init__(self, numbering: Numbering) -> None:
        from math import comb

        self.numbering = numbering
        size = numbering.region_size
        self.parts: list[tuple[bytes, bytes, dict[bytes, int | None]]] = []
        factor = 1
        for first, last in reversed(numbering._groups()):  # least significant first
            sizes = [1 if s.fill else comb(size, len(s.pieces))
                     for s in numbering.steps[first:last + 1]]
            table, delete, memo = numbering._projection(first, last)
            radices = numbering.radices[first:last + 1] if numbering.uniform else None
            self.parts.append((table, delete, _Weighted(memo, sizes, radices, factor)))
            factor *= prod(radices if radices is not None else sizes)

    def __call__(self, ranks: list[str]) -> list[int]:
        from operator import add
        from struct import unpack

        from solver.errors import NumberingError

        keys: list[int] = [0] * len(ranks)
        if not ranks:
            return keys
        blob = "".join(ranks).encode("ascii")
        even = len(set(map(len, ranks))) == 1
        for table, delete, memo in self.parts:
            keyed = blob.translate(table, delete)
            width = len(keyed) // len(ranks)
            seen: Iterable[bytes]
            if not width or not even:  # one at a time
                seen = [r.encode("ascii").translate(table, delete) for r in ranks]
            else:
                seen = unpack(f"{width}s" * len(ranks), keyed)
            column = list(map(memo.__getitem__, seen))
            if None in column:
                rank = ranks[column.index(None)]
                self.numbering.digits(rank)  # raises, naming the rank
                raise NumberingError(self.numbering.family,
                                     f"{rank!r}: the steps cannot place it")
            keys = list(map(add, keys, column))
        return keys


class _Weighted(dict[bytes, "int | None"]):
    """A projection's memo of choices (digits weighted by ``sizes``, the first
    the least significant), the digits weighted by ``radices`` instead when
    given, times ``factor``."""

    def __init__(self, memo: dict[bytes, int | None], sizes: list[int],
                 radices: tuple[int, ...] | None, factor: int) -> None:
        super().__init__()
        self.memo, self.sizes, self.radices, self.factor = memo, sizes, radices, factor

    def __missing__(self, seen: bytes) -> int | None:
        value = self.memo[seen]
        if value is not None:
            if self.radices is not None:
                digits = []
                for size in self.sizes:
                    value, digit = divmod(value, size)
                    digits.append(digit)
                for digit, radix in zip(reversed(digits), reversed(self.radices), strict=True):
                    value = value * radix + digit
            value *= self.factor
        self[seen] = value
        return value
