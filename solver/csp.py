"""The one module that talks to python-constraint.

It turns a :class:`~solver.model.Model` into a :class:`constraint.Problem`
and yields the solver's solutions as ranks. Requirements become
:class:`RequirementConstraint` objects that prune the domains of the last
unassigned piece (forward checking); identical pieces are kept apart and in
order by :class:`IncreasingConstraint`; no two pieces share a square
(:class:`constraint.AllDifferentConstraint`). No string constraints are ever
used: nothing from a rule file reaches python-constraint's compiler.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from constraint import AllDifferentConstraint, Constraint, Problem

from solver.model import Model, Test

Domains = dict[Hashable, Any]
Assignments = dict[Hashable, Any]


class RequirementConstraint(Constraint):  # type: ignore[misc]
    """A requirement over some pieces, checked once they all stand.

    When only one of its pieces is left unplaced, the values of that piece
    which would break the requirement are hidden (forward checking).
    """

    def __init__(self, test: Test) -> None:
        self._test = test

    def __call__(
        self,
        variables: Sequence[Hashable],
        domains: Domains,
        assignments: Assignments,
        forwardcheck: Any = False,
    ) -> bool:
        missing = 0
        for variable in variables:
            if variable not in assignments:
                missing += 1
        if not missing:
            return bool(self._test(*(assignments[v] for v in variables)))
        if forwardcheck and missing == 1:
            return bool(self.forwardCheck(variables, domains, assignments))
        return True


class IncreasingConstraint(Constraint):  # type: ignore[misc]
    """Identical pieces stand in file order: ``v[0] < v[1] < ...``.

    Once a piece is placed, values that would break the order are hidden
    from its unplaced neighbours' domains.
    """

    def __call__(
        self,
        variables: Sequence[Hashable],
        domains: Domains,
        assignments: Assignments,
        forwardcheck: Any = False,
    ) -> bool:
        last = -1
        for variable in variables:
            value = assignments.get(variable)
            if value is None:
                continue
            if value <= last:
                return False
            last = value
        if forwardcheck:
            low = -1
            for variable in variables:
                if variable in assignments:
                    low = assignments[variable]
                    continue
                domain = domains[variable]
                for value in domain[:]:
                    if value <= low:
                        domain.hideValue(value)
                if not domain:
                    return False
        return True


def problem(model: Model) -> Problem:
    """The python-constraint problem that states ``model``."""
    csp = Problem()
    for name, domain in model.domains.items():
        csp.addVariable(name, list(domain))
    csp.addConstraint(AllDifferentConstraint(), list(model.domains))
    for group in model.ordered_groups():
        csp.addConstraint(IncreasingConstraint(), list(group.pieces))
    for requirement in model.requirements:
        csp.addConstraint(RequirementConstraint(requirement.test), list(requirement.pieces))
    return csp


def solutions(model: Model) -> Iterator[str]:
    """Every rank the solver finds for ``model``, in the solver's order."""
    if any(not domain for domain in model.domains.values()):
        return
    for assignment in problem(model).getSolutionIter():
        yield model.rank(assignment)
