"""Solving a rule set: build its model, let the constraint solver find the ranks.

The solver alone decides which ranks are valid; this module states the
rules on a :class:`~solver.kinds.model.Model` and hands it to :mod:`solver.search.csp`,
which searches in parts (in worker processes for large families) and hands
back the solutions batch by batch, so that counting never holds them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from solver.errors import SearchTooLargeError
from solver.kinds.model import MAX_ARRANGEMENTS, Model
from solver.ruleset.reader import RuleSet

if TYPE_CHECKING:
    from solver.search import csp

T = TypeVar("T")


def build_model(ruleset: RuleSet) -> Model:
    """The model stating every rule of ``ruleset`` on its pieces."""
    model = Model.for_pieces(ruleset.region_size, ruleset.pieces, ruleset.region)
    for rule in ruleset.rules:
        rule.constrain(model)
    return model


def search_size(ruleset: RuleSet) -> int:
    """The arrangements a search may visit: the pieces' arrangements within the
    files the rules leave them (see :meth:`~solver.kinds.model.Model.search_size`).

    >>> from solver.ruleset.reader import load
    >>> search_size(load("chess960"))
    2880
    """
    return build_model(ruleset).search_size()


def compile_search(ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS) -> csp.Plan:
    """The compiled search for ``ruleset``.

    Refuses, before any search, a rule set with more than ``max_arrangements``
    arrangements to search (:func:`search_size`;
    :class:`~solver.errors.SearchTooLargeError`).
    """
    model = build_model(ruleset)
    size = model.search_size()
    if size > max_arrangements:
        raise SearchTooLargeError(ruleset.name, size, max_arrangements)
    from solver.search import csp  # python-constraint is imported only to search

    return csp.compile_model(model)


def batches(
    ruleset: RuleSet,
    prepare: Callable[[csp.Batch], T],
    max_arrangements: int = MAX_ARRANGEMENTS,
    workers: int | None = None,
) -> Iterator[T]:
    """``prepare`` applied to each batch of solutions, where it was found.

    See :func:`solver.search.csp.batches`; batches come in no particular order.
    """
    from solver.search import csp

    compiled = compile_search(ruleset, max_arrangements)
    return csp.batches(compiled, prepare, workers)


def solve(
    ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS, workers: int | None = None
) -> Iterator[str]:
    """Every rank of one side of the family, in the solver's order.

    Refuses, before any search, a rule set with more than ``max_arrangements``
    arrangements to search (:class:`~solver.errors.SearchTooLargeError`).

    >>> from solver.ruleset.reader import load
    >>> sum(1 for _ in solve(load("chess960")))
    960
    """
    from solver.search import csp

    compiled = compile_search(ruleset, max_arrangements)
    return _flatten(csp.batches(compiled, compiled.ranks, workers))


def _flatten(groups: Iterator[list[str]]) -> Iterator[str]:
    for ranks in groups:
        yield from ranks


def count(
    ruleset: RuleSet,
    max_arrangements: int = MAX_ARRANGEMENTS,
    workers: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> int:
    """How many ranks one side of the family has, counted as the solver finds them.

    No rank is kept: each batch is counted where it was found. ``progress``
    is told the running total after each batch.

    >>> from solver.ruleset.reader import load
    >>> count(load("capablanca-random"))
    48000
    """
    total = 0
    for size in batches(ruleset, _size, max_arrangements, workers):
        total += size
        if progress is not None:
            progress(total)
    return total


def _size(batch: csp.Batch) -> int:
    return batch.size
