"""Finding the rules of an empty family that cannot all hold together.

When a rule set admits no rank at all, :func:`conflicting_rules` narrows its
rules down to a smallest conflicting set with QuickXplain (Junker, 2004):
split the rules in halves, keep a half out whenever the rest still have no
solution, recurse. It needs about ``k log(n/k)`` solves for ``k`` conflicting
rules out of ``n``, not ``n``. The solver decides every step (it only needs
one solution to tell); a subset too large to search counts as satisfiable, so
the answer is still a set of rules that cannot all hold, if not the smallest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from solver.errors import SearchTooLargeError
from solver.kinds.model import MAX_ARRANGEMENTS
from solver.kinds.vocabulary import Rule
from solver.ruleset.reader import RuleSet
from solver.search.solve import solve


def satisfiable(ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS) -> bool:
    """Whether the solver finds at least one rank for ``ruleset``.

    >>> from solver.ruleset.reader import load
    >>> satisfiable(load("chess960"))
    True
    """
    return next(solve(ruleset, max_arrangements), None) is not None


def conflicting_rules(ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS) -> list[Rule]:
    """A minimal set of ``ruleset``'s rules that admit no rank together.

    Empty when the family has positions (or when its pieces cannot stand at
    all whatever the rules).

    >>> from solver.ruleset.reader import parse, rules_dir
    >>> text = (rules_dir() / "chess960.toml").read_text().replace("[numbering]", '''
    ... [[rule]]
    ... kind = "on-files"
    ... piece = "K"
    ... files = "a"
    ... [numbering]''', 1).replace("count = 960", "count = 0")
    >>> [r.label for r in conflicting_rules(parse(text))]
    ['between K RR', 'on-files K a']
    """
    rules = list(dict.fromkeys(ruleset.rules))

    def holds(subset: Sequence[Rule]) -> bool:
        try:
            return satisfiable(replace(ruleset, rules=tuple(subset)), max_arrangements)
        except SearchTooLargeError:
            return True

    if holds(rules) or not holds([]):
        return []
    return _explain([], False, rules, holds)


def _explain(background: list[Rule], added: bool, candidates: list[Rule],
             holds: Callable[[Sequence[Rule]], bool]) -> list[Rule]:
    """QuickXplain: the part of ``candidates`` that conflicts with ``background``."""
    if added and not holds(background):
        return []
    if len(candidates) == 1:
        return candidates
    half = len(candidates) // 2
    first, second = candidates[:half], candidates[half:]
    needed_second = _explain(background + first, bool(first), second, holds)
    needed_first = _explain(background + needed_second, bool(needed_second), first, holds)
    return needed_first + needed_second
