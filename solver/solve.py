"""Solving a rule set: build its model, let the constraint solver find the ranks.

The solver alone decides which ranks are valid; this module states the
rules on a :class:`~solver.model.Model` and hands it to :mod:`solver.csp`.
"""

from __future__ import annotations

from collections.abc import Iterator

from solver import csp
from solver.errors import SearchTooLargeError
from solver.model import MAX_ARRANGEMENTS, Model
from solver.rules import RuleSet


def build_model(ruleset: RuleSet) -> Model:
    """The model stating every rule of ``ruleset`` on its pieces."""
    model = Model.for_pieces(ruleset.files, ruleset.pieces)
    for rule in ruleset.rules:
        rule.constrain(model)
    return model


def search_size(ruleset: RuleSet) -> int:
    """The number of arrangements of the family's pieces before any rule.

    >>> from solver.rules import load
    >>> search_size(load("chess960"))
    5040
    """
    return Model.for_pieces(ruleset.files, ruleset.pieces).arrangements()


def solve(ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS) -> Iterator[str]:
    """Every rank of one side of the family, in the solver's order.

    Refuses, before any search, a rule set whose pieces have more than
    ``max_arrangements`` arrangements (:class:`~solver.errors.SearchTooLargeError`).

    >>> from solver.rules import load
    >>> sum(1 for _ in solve(load("chess960")))
    960
    """
    size = search_size(ruleset)
    if size > max_arrangements:
        raise SearchTooLargeError(ruleset.name, size, max_arrangements)
    return csp.solutions(build_model(ruleset))
