"""Finding the rules of an empty family that cannot all hold together.

When a rule set admits no rank at all, :func:`conflicting_rules` narrows its
rules down to a smallest conflicting set by deletion: it drops each rule in
turn and keeps it out whenever the rest still have no solution. The solver
decides every step (it only needs one solution to tell).
"""

from __future__ import annotations

from dataclasses import replace

from solver.model import MAX_ARRANGEMENTS
from solver.rules import RuleSet
from solver.solve import solve
from solver.vocabulary import Rule


def satisfiable(ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS) -> bool:
    """Whether the solver finds at least one rank for ``ruleset``.

    >>> from solver.rules import load
    >>> satisfiable(load("chess960"))
    True
    """
    return next(solve(ruleset, max_arrangements), None) is not None


def conflicting_rules(ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS) -> list[Rule]:
    """A minimal set of ``ruleset``'s rules that admit no rank together.

    Empty when the family has positions (or when its pieces cannot stand at
    all whatever the rules).
    """
    if satisfiable(ruleset, max_arrangements):
        return []
    kept = list(ruleset.rules)
    for rule in list(kept):
        trial = [r for r in kept if r is not rule]
        if not satisfiable(replace(ruleset, rules=tuple(trial)), max_arrangements):
            kept = trial
    return kept
