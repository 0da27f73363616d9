"""Listing one side's ranks in canonical (ID) order.

Arithmetic families are listed from their placement steps, every ID decoded
in one walk a block at a time (no search: the reader admits arithmetic
numbering only when the steps place exactly the family's ranks, and
``check`` proves the walk gives the solver's listing); enumerated families
are searched, each batch keyed where the solver found it, and sorted by the
placement steps' choices once every rank is in. The solver is imported only
here, and only when a search starts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Final

from solver.errors import EmptyFamilyError, NumberingError
from solver.kinds.model import MAX_ARRANGEMENTS
from solver.ruleset.reader import RuleSet
from solver.syntax.steps import Numbering

if TYPE_CHECKING:
    from solver.search import csp

Progress = Callable[[int], object]


def empty_family(ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS) -> EmptyFamilyError:
    """The error for a family whose rules admit no rank, naming a conflict."""
    from solver.search.conflicts import conflicting_rules

    conflict = conflicting_rules(ruleset, max_arrangements)
    return EmptyFamilyError(ruleset.name, [rule.label for rule in conflict])


def solver_ranks(
    ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS, progress: Progress | None = None
) -> list[str]:
    """One side's ranks in the order the constraint solver finds them."""
    from solver.search.solve import solve  # the solver is imported only to solve

    ranks = list(solve(ruleset, max_arrangements))
    if progress is not None:
        progress(len(ranks))
    return ranks


def canonical(ruleset: RuleSet, numbering: Numbering, ranks: list[str]) -> list[str]:
    """``ranks`` in the family's canonical order.

    Arithmetic families place each rank at its computed ID; enumerated
    ones sort by the placement steps' choices, most significant first.

    >>> from solver.ruleset.reader import load
    >>> rules = load("chess960")
    >>> canonical(rules, rules.step_numbering(), ["RNBQKBNR", "BBQNNRKR"])
    ['BBQNNRKR', 'RNBQKBNR']
    """
    if ruleset.numbering == "arithmetic":
        from solver.numbering.encoder import FastEncoder

        ordered: list[str | None] = [None] * numbering.count
        for number, rank in zip(FastEncoder(numbering).ids(ranks), ranks, strict=True):
            if ordered[number] is not None:
                raise NumberingError(ruleset.name, f"{rank!r} and {ordered[number]!r} "
                                                   f"both get id {number}")
            ordered[number] = rank
        return [r for r in ordered if r is not None]
    return numbering.ordered(ranks)


def side_ranks(
    ruleset: RuleSet,
    numbering: Numbering,
    max_arrangements: int = MAX_ARRANGEMENTS,
    progress: Progress | None = None,
) -> Iterator[str]:
    """One side's ranks in canonical order, each as soon as the order allows.

    ``progress`` is told how many ranks the solver has found so far, batch
    by batch. Raises :class:`~solver.errors.EmptyFamilyError` when the rules
    admit no rank.
    """
    for block in side_blocks(ruleset, numbering, max_arrangements, progress):
        yield from block


#: Ranks a block of :func:`side_blocks` holds when the whole side is listed at once.
BLOCK: Final = 1 << 15


def side_blocks(
    ruleset: RuleSet,
    numbering: Numbering,
    max_arrangements: int = MAX_ARRANGEMENTS,
    progress: Progress | None = None,
) -> Iterator[list[str]]:
    """:func:`side_ranks` a block at a time (blocks of consecutive IDs).

    An arithmetic family is listed by its placement steps, every ID decoded
    in one walk (:func:`~solver.numbering.encoder.decode_blocks`): the reader
    admits arithmetic numbering only when the steps place exactly the
    family's ranks (:func:`~solver.kinds.vocabulary.inexact`), and ``check``
    proves the walk gives the solver's listing, so no search is needed.
    The same search limit as the solver's still applies. An enumerated
    family is searched and sorted (:func:`_sorted_ranks`). ``progress`` is
    told how many ranks are listed (or found) so far, block by block.

    >>> from solver.ruleset.reader import load
    >>> rules = load("chess960")
    >>> [len(b) for b in side_blocks(rules, rules.step_numbering())]
    [960]
    """
    if ruleset.numbering == "arithmetic" and numbering.uniform:
        yield from _decoded(ruleset, numbering, max_arrangements, progress)
        return
    if ruleset.numbering != "arithmetic":
        ranks = _sorted_ranks(ruleset, numbering, max_arrangements, progress)
        if not ranks:
            raise empty_family(ruleset, max_arrangements)
        for at in range(0, len(ranks), BLOCK):
            yield ranks[at:at + BLOCK]
        return
    yield from _streamed(ruleset, numbering, max_arrangements, progress)


def blocks_of(ranks: Iterable[str], size: int = BLOCK) -> Iterator[list[str]]:
    """``ranks`` in lists of ``size`` (the last one shorter).

    >>> list(blocks_of("ABCDE", 2))
    [['A', 'B'], ['C', 'D'], ['E']]
    """
    from itertools import islice

    it = iter(ranks)
    while block := list(islice(it, size)):
        yield block


def _sorted_ranks(
    ruleset: RuleSet, numbering: Numbering, max_arrangements: int, progress: Progress | None
) -> list[str]:
    """An enumerated family's ranks in canonical order: each batch the solver
    finds is keyed where it is found (:class:`~solver.numbering.encoder.SortKeys`,
    in the worker processes too), then all are sorted by their keys at once."""
    from solver.numbering.encoder import SortKeys
    from solver.search import csp
    from solver.search.solve import compile_search

    compiled = compile_search(ruleset, max_arrangements)
    keyer = SortKeys(numbering)

    def keyed(batch: csp.Batch) -> tuple[list[str], list[int]]:
        ranks = compiled.ranks(batch)
        return ranks, keyer(ranks)

    ranks: list[str] = []
    keys: list[int] = []
    for found, numbers in csp.batches(compiled, keyed):
        ranks += found
        keys += numbers
        if progress is not None:
            progress(len(ranks))
    order = sorted(range(len(ranks)), key=keys.__getitem__)
    del keys
    return list(map(ranks.__getitem__, order))


def _decoded(
    ruleset: RuleSet, numbering: Numbering, max_arrangements: int, progress: Progress | None
) -> Iterator[list[str]]:
    """The blocks of an arithmetic family, decoded from its steps (no search)."""
    from solver.errors import SearchTooLargeError
    from solver.numbering.encoder import decode_blocks
    from solver.search.solve import search_size

    size = search_size(ruleset)
    if size > max_arrangements:  # as the solver refuses it
        raise SearchTooLargeError(ruleset.name, size, max_arrangements)
    found = 0
    for block in decode_blocks(numbering):
        found += len(block)
        if progress is not None:
            progress(found)
        yield block
    if not found:
        raise empty_family(ruleset, max_arrangements)


def _streamed(
    ruleset: RuleSet, numbering: Numbering, max_arrangements: int, progress: Progress | None
) -> Iterator[list[str]]:
    """The blocks of an arithmetic family, from the solver: each rank found is
    placed at its ID, and the ranks up to the first ID not yet found go on."""
    from solver.numbering.encoder import FastEncoder
    from solver.search import csp
    from solver.search.solve import compile_search

    count = numbering.count
    encoder = FastEncoder(numbering)
    compiled = compile_search(ruleset, max_arrangements)
    files = ruleset.region_size

    def numbered(batch: csp.Batch) -> tuple[list[int], bytes]:
        ranks = compiled.ranks(batch)
        return encoder.ids(ranks), "".join(ranks).encode()

    # Ranks wait here, by ID, a few bytes each, until all before them came.
    store = bytearray(count * files)
    seen = bytearray(count)
    found = 0
    upto = 0  # every ID below this has been handed on
    for ids, packed in csp.batches(compiled, numbered):
        at = 0
        for number in ids:
            rank = packed[at:at + files]
            if not 0 <= number < count or seen[number]:
                raise _clash(ruleset.name, files, number, rank.decode(), store, seen)
            seen[number] = 1
            store[number * files:number * files + files] = rank
            at += files
        found += len(ids)
        if progress is not None:
            progress(found)
        end = seen.find(0, upto)
        end = count if end < 0 else end
        if end > upto:
            text = store[upto * files:end * files].decode()
            yield [text[begin:begin + files] for begin in range(0, len(text), files)]
            upto = end
    rest = [store[number * files:number * files + files].decode()
            for number in range(upto, count) if seen[number]]  # after an ID no rank has
    if rest:
        yield rest
    if not found:
        raise empty_family(ruleset, max_arrangements)


def _clash(
    family: str, files: int, number: int, rank: str, store: bytearray, seen: bytearray
) -> NumberingError:
    count = len(seen)
    if not 0 <= number < count:
        return NumberingError(family, f"{rank!r} gets id {number}, outside 0..{count - 1}")
    other = store[number * files:number * files + files].decode()
    return NumberingError(family, f"{rank!r} and {other!r} both get id {number}")


def solved_count(
    ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS, progress: Progress | None = None
) -> int:
    """How many ranks one side has, counted as the solver finds them (none kept).

    Raises :class:`~solver.errors.EmptyFamilyError` when there is none.
    """
    from solver.search.solve import count

    n = count(ruleset, max_arrangements, progress=progress)
    if not n:
        raise empty_family(ruleset, max_arrangements)
    return n
