"""Compiling a :class:`~solver.model.Model` into python-constraint problems.

* A requirement over a few pieces becomes a
  :class:`~solver.csp.constraints.TableConstraint`: its test is evaluated once
  over every combination of its pieces' files, and the solver then checks
  partial placements against the table, rejecting a piece as soon as no
  placement of the others can complete the requirement. The tables also trim
  each piece's files before the search (domain trimming).
* A requirement over many pieces (``pawns-protected``, ``exclude``...) stays a
  :class:`~solver.csp.constraints.RequirementConstraint`: its test runs once
  all its pieces stand.
* Identical pieces are kept in file order, so each rank is found once.

When every constraint is mirror-invariant (:mod:`solver.csp.symmetry`), the
search places the king on the left half only and each rank found also
stands for its mirror image. A lone piece in no rule and free to stand
anywhere is not searched: it takes the one file the others leave.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise, product

from constraint import AllDifferentConstraint, Constraint, OptimizedBacktrackingSolver, Problem

from solver.csp import symmetry
from solver.csp.constraints import IncreasingConstraint, RequirementConstraint, TableConstraint
from solver.model import Model, Requirement

#: Requirements whose pieces have at most this many combinations of files are
#: tabulated (:class:`TableConstraint`); larger ones are tested as they come.
TABLE_LIMIT = 20_000


@dataclass(frozen=True)
class Part:
    """One part of a search: some pieces held to some files."""

    fixed: tuple[tuple[str, tuple[int, ...]], ...]
    #: Whether each solution of this part also stands for its mirror image.
    mirrored: bool


@dataclass
class Batch:
    """The solutions of one part, as python-constraint gives them."""

    assignments: list[dict[str, int]]
    mirrored: bool

    @property
    def size(self) -> int:
        """How many ranks the batch stands for (mirror images included)."""
        return len(self.assignments) * (2 if self.mirrored else 1)


@dataclass
class Plan:
    """A model compiled for python-constraint: domains, constraints, parts."""

    model: Model
    domains: dict[str, list[int]]
    constraints: list[tuple[Constraint, tuple[str, ...]]]
    tables: list[tuple[tuple[str, ...], frozenset[tuple[int, ...]]]]
    opaque: list[Requirement] = field(default_factory=list)
    mirror: bool = False
    pivot: str | None = None
    #: A piece left out of the search: it is in no requirement and may stand
    #: anywhere, so it takes the one file the others leave (see compile_model).
    derived: str | None = None
    forwardcheck: bool = True

    @property
    def empty(self) -> bool:
        return any(not d for d in self.domains.values())

    def parts(self, split: bool) -> list[Part]:
        """The parts to search: by the pivot's file, and finer when ``split``."""
        if self.empty:
            return []
        files = self.model.files
        pivot = self.pivot
        if pivot is None:
            pivot = max(self.domains, key=lambda n: len(self.domains[n]))
        groups: list[tuple[tuple[int, ...], bool]] = []
        if self.mirror:
            left = tuple(f for f in self.domains[pivot] if 2 * f < files - 1)
            middle = tuple(f for f in self.domains[pivot] if 2 * f == files - 1)
            groups = [(left, True)] if left else []
            if middle:
                groups.append((middle, False))
        else:
            groups = [(tuple(self.domains[pivot]), False)]
        if not split:
            return [Part(((pivot, values),), mirrored) for values, mirrored in groups]
        others = [n for n in self.domains if n != pivot]
        second = max(others, key=lambda n: len(self.domains[n])) if others else None
        parts = []
        for values, mirrored in groups:
            for value in values:
                if second is None:
                    parts.append(Part(((pivot, (value,)),), mirrored))
                    continue
                parts.extend(
                    Part(((pivot, (value,)), (second, (other,))), mirrored)
                    for other in self.domains[second] if other != value
                )
        return parts

    def problem(self, part: Part) -> Problem | None:
        """The python-constraint problem of one part (None if it has no room)."""
        held = dict(part.fixed)
        csp = Problem(OptimizedBacktrackingSolver(forwardcheck=self.forwardcheck))
        for name, domain in self.domains.items():
            values = [f for f in domain if f in held[name]] if name in held else domain
            if not values:
                return None
            csp.addVariable(name, values)
        for constraint, names in self.constraints:
            csp.addConstraint(constraint, list(names))
        return csp

    def search(self, part: Part) -> Batch:
        """Every solution of one part."""
        csp = self.problem(part)
        return Batch(csp.getSolutions() if csp is not None else [], part.mirrored)

    def ranks(self, batch: Batch) -> list[str]:
        """The ranks a batch stands for: each solution, then its mirror image."""
        letter_of = self.model.letter_of
        blank = [""] * self.model.files
        derived = letter_of[self.derived] if self.derived is not None else None
        out = []
        for assignment in batch.assignments:
            row = blank[:]
            for name, file in assignment.items():
                row[file] = letter_of[name]
            if derived is not None:
                row[row.index("")] = derived
            rank = "".join(row)
            out.append(rank)
            if batch.mirrored:
                out.append(rank[::-1])
        return out


def compile_model(model: Model) -> Plan:
    """The python-constraint form of ``model``: tables, trimmed domains, symmetry."""
    domains = {name: list(d) for name, d in model.domains.items()}

    # Requirements over the same pieces are one relation; the order of
    # identical pieces joins a relation over them when there is one.
    relations: dict[tuple[str, ...], list[Callable[..., bool] | tuple[int, int]]] = {}
    opaque: list[Requirement] = []
    for requirement in model.requirements:
        pieces = requirement.pieces
        size = 1
        for name in pieces:
            size *= len(domains[name])
        if size <= TABLE_LIMIT and len(set(pieces)) == len(pieces):
            relations.setdefault(pieces, []).append(requirement.test)
        else:
            opaque.append(requirement)
    loose: list[tuple[str, ...]] = []
    for group in model.ordered_groups():
        home = next((p for p in relations if set(group.pieces) <= set(p)), None)
        if home is None:
            size = 1
            for name in group.pieces:
                size *= len(domains[name])
            if size > TABLE_LIMIT:
                loose.append(group.pieces)
                continue
            home = group.pieces
            relations[home] = []
        positions = [home.index(n) for n in group.pieces]
        relations[home].extend(pairwise(positions))

    # Tabulate, then trim every domain to the files some allowed tuple uses,
    # until nothing changes (arc consistency, with the tables alone).
    tables = [
        (pieces, _tabulate([domains[n] for n in pieces], tests))
        for pieces, tests in relations.items()
    ]
    stale = set(range(len(tables)))
    while stale:
        trimmed: set[str] = set()
        for index in sorted(stale):
            pieces, rows = tables[index]
            live = [set(domains[n]) for n in pieces]
            rows = [r for r in rows if all(v in s for v, s in zip(r, live, strict=True))]
            tables[index] = (pieces, rows)
            for position, name in enumerate(pieces):
                used = {row[position] for row in rows}
                if len(used) < len(domains[name]):
                    domains[name] = [f for f in domains[name] if f in used]
                    trimmed.add(name)
        stale = {i for i, (pieces, _) in enumerate(tables) if trimmed.intersection(pieces)}

    frozen = [(pieces, frozenset(rows)) for pieces, rows in tables]
    pivot = symmetry.pivot(model)
    mirror = pivot is not None and not opaque and symmetry.mirrored(model, frozen)

    # A lone piece in no requirement, free to stand on any file, is left out
    # of the search: every other piece has its own file, so exactly one file
    # is left and it is always this piece's (the all-different constraint
    # would force it). The search is a level shorter, the ranks the same.
    constrained = {n for pieces, _ in tables for n in pieces}
    constrained.update(n for pieces in loose for n in pieces)
    constrained.update(n for r in opaque for n in r.pieces)
    full = list(range(model.files))
    derived = next(
        (names[0] for names in model.instances.values()
         if len(names) == 1 and names[0] != pivot and names[0] not in constrained
         and domains[names[0]] == full and len(model.pieces) == model.files),
        None,
    )
    searched = {n: d for n, d in domains.items() if n != derived}

    constraints: list[tuple[Constraint, tuple[str, ...]]] = [
        (AllDifferentConstraint(), tuple(searched))
    ]
    for pieces, rows in tables:
        if len(pieces) > 1:  # a single piece's table is folded into its domain
            constraints.append((TableConstraint(rows, len(pieces)), pieces))
    for pieces in loose:
        constraints.append((IncreasingConstraint(model.files), pieces))
    for requirement in opaque:
        constraints.append((RequirementConstraint(requirement.test), requirement.pieces))
    return Plan(model, searched, constraints, frozen, opaque, mirror, pivot, derived)


def _tabulate(
    domains: Sequence[Sequence[int]], tests: Sequence[Callable[..., bool] | tuple[int, int]]
) -> list[tuple[int, ...]]:
    """The tuples of files, one from each domain, that pass every test.

    A test is a requirement's test (called with the files) or a pair of
    positions ``(a, b)`` that must stand in file order ``row[a] < row[b]``.
    """
    rows = list(product(*domains))
    for test in sorted(tests, key=lambda t: not isinstance(t, tuple)):
        if isinstance(test, tuple):
            a, b = test
            rows = [r for r in rows if r[a] < r[b]]
        else:
            rows = [r for r in rows if test(*r)]
    return rows
