"""The constraint classes the search uses, beside python-constraint's own.

Each is a small class in python-constraint's style: called with the
variables, their domains and the partial assignment, it says whether the
assignment can still be completed and, with forward checking, hides values
that cannot. Nothing from a rule file reaches python-constraint's string
compiler: every constraint is one of these objects or
:class:`constraint.AllDifferentConstraint`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from constraint import Constraint

Domains = dict[Hashable, Any]
Assignments = dict[Hashable, Any]


class TableConstraint(Constraint):  # type: ignore[misc]
    """A requirement over a few pieces, as the tuples of files it allows.

    A partial placement is accepted only if some allowed tuple extends it, so
    a piece that leaves the requirement unsatisfiable is rejected at once.
    With forward checking, the files of the unplaced pieces that no allowed
    tuple supports are hidden.
    """

    def __init__(self, allowed: Iterable[tuple[int, ...]], arity: int) -> None:
        self.allowed = frozenset(allowed)
        self.arity = arity
        # For each set of placed pieces (a bit mask over positions) and their
        # files: the files each unplaced piece may still take. Built on first use.
        self._partial: dict[int, dict[tuple[int, ...], tuple[frozenset[int], ...]]] = {}

    def _supports(self, mask: int) -> dict[tuple[int, ...], tuple[frozenset[int], ...]]:
        placed = [i for i in range(self.arity) if mask >> i & 1]
        free = [i for i in range(self.arity) if not mask >> i & 1]
        sets: dict[tuple[int, ...], list[set[int]]] = {}
        for row in self.allowed:
            key = tuple([row[i] for i in placed])
            found = sets.get(key)
            if found is None:
                found = sets[key] = [set() for _ in free]
            for slot, i in zip(found, free, strict=True):
                slot.add(row[i])
        table = {k: tuple(map(frozenset, v)) for k, v in sets.items()}
        self._partial[mask] = table
        return table

    def __call__(
        self,
        variables: Sequence[Hashable],
        domains: Domains,
        assignments: Assignments,
        forwardcheck: Any = False,
    ) -> bool:
        key = []
        missing = []
        mask = 0
        bit = 1
        for variable in variables:
            if variable in assignments:
                key.append(assignments[variable])
                mask |= bit
            else:
                missing.append(variable)
            bit <<= 1
        if not mask:
            return True
        table = self._partial.get(mask)
        if table is None:
            table = self._supports(mask)
        supports = table.get(tuple(key))
        if supports is None:
            return False
        if forwardcheck:
            for variable, allowed in zip(missing, supports, strict=True):
                domain = domains[variable]
                for value in domain[:]:
                    if value not in allowed:
                        domain.hideValue(value)
                if not domain:
                    return False
        return True


class RequirementConstraint(Constraint):  # type: ignore[misc]
    """A requirement over many pieces, checked once they all stand.

    When only one of its pieces is left unplaced, the values of that piece
    which would break the requirement are hidden (forward checking).
    """

    def __init__(self, test: Callable[..., bool]) -> None:
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

    Checked on whichever pieces are placed; with forward checking, values
    that would break the order are hidden from the unplaced ones' domains.
    """

    def __init__(self, region_size: int) -> None:
        self.region_size = region_size

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
            high = self.region_size
            for variable in reversed(variables):
                if variable in assignments:
                    high = assignments[variable]
                    continue
                domain = domains[variable]
                for value in domain[:]:
                    if value >= high:
                        domain.hideValue(value)
                if not domain:
                    return False
        return True
