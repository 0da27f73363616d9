"""Compiling a :class:`~solver.kinds.model.Model` into python-constraint problems.

* A requirement over a few pieces becomes a
  :class:`~solver.search.csp.constraints.TableConstraint`: its test is evaluated once
  over every combination of its pieces' files, and the solver then checks
  partial placements against the table, rejecting a piece as soon as no
  placement of the others can complete the requirement. The tables also trim
  each piece's files before the search (domain trimming).
* A requirement over many pieces (``pawns-protected``, ``exclude``...) stays a
  :class:`~solver.search.csp.constraints.RequirementConstraint`: its test runs once
  all its pieces stand.
* Identical pieces are kept in file order, so each rank is found once.

When every constraint is mirror-invariant (:mod:`solver.search.csp.symmetry`), the
search places the king on the left half only and each rank found also
stands for its mirror image.

When every square takes a piece, some pieces are not searched at all
(:class:`Fill`): pieces that no constraint ties to the others (a lone queen,
bishops split by colour, knights kept in order) are placed afterwards on the
files the searched pieces leave, in every way their own tables allow there.
The solver finds far fewer, shorter solutions (bench-12: a tenth), and each
stands for the ranks its leftover files can be filled in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise, product
from operator import itemgetter

from constraint import AllDifferentConstraint, Constraint, OptimizedBacktrackingSolver, Problem

from solver.kinds.model import Model, Requirement
from solver.search.csp import symmetry
from solver.search.csp.constraints import (
    IncreasingConstraint,
    RequirementConstraint,
    TableConstraint,
)

#: Requirements whose pieces have at most this many combinations of files are
#: tabulated (:class:`TableConstraint`); larger ones are tested as they come.
TABLE_LIMIT = 20_000

#: The most ways (rows of the joint table) the pieces left out of the search
#: may have between them (see :class:`Fill`).
FILL_LIMIT = 20_000


@dataclass(frozen=True)
class Part:
    """One part of a search: some pieces held to some files."""

    fixed: tuple[tuple[str, tuple[int, ...]], ...]
    #: Whether each solution of this part also stands for its mirror image.
    mirrored: bool


@dataclass(frozen=True)
class Fill:
    """Pieces left out of the search, placed on the files the searched ones leave.

    No constraint ties them to a searched piece, so a solution of the search
    completes in exactly the ways their own tables allow on its leftover
    files. ``ways`` maps the bit mask of the leftover files to those ways,
    each the letters of the leftover files from left to right (Chess960's
    king and rooks on b, e, f leave a, c, d, g, h: ``"BNQNB"`` is one way).
    """

    pieces: tuple[str, ...]
    ways: dict[int, tuple[str, ...]]
    #: The bit mask of every file.
    full: int

    def leftover(self, assignment: dict[str, int]) -> int:
        """The bit mask of the files ``assignment`` leaves free."""
        mask = self.full
        for file in assignment.values():
            mask ^= 1 << file
        return mask


@dataclass
class Batch:
    """The solutions of one part, as python-constraint gives them."""

    assignments: list[dict[str, int]]
    mirrored: bool
    #: The pieces left out of the search, filled in each solution's leftover files.
    fill: Fill | None = None

    @property
    def size(self) -> int:
        """How many ranks the batch stands for (fills and mirror images included)."""
        fill = self.fill
        if fill is None:
            size = len(self.assignments)
        else:
            ways, leftover = fill.ways, fill.leftover
            size = sum(len(ways.get(leftover(a), ())) for a in self.assignments)
        return size * (2 if self.mirrored else 1)


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
    #: The pieces left out of the search (see :class:`Fill`), if any.
    fill: Fill | None = None
    forwardcheck: bool = True

    @property
    def empty(self) -> bool:
        return any(not d for d in self.domains.values())

    def parts(self, split: bool) -> list[Part]:
        """The parts to search: by the pivot's file, and finer when ``split``."""
        if self.empty:
            return []
        files = self.model.region_size
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
        return Batch(csp.getSolutions() if csp is not None else [], part.mirrored, self.fill)

    def ranks(self, batch: Batch) -> list[str]:
        """The ranks a batch stands for: each solution (in each way its leftover
        files can be filled), then its mirror image.

        A solution's ranks are one template (its pieces, ``%s`` on each
        leftover file) filled by ``%`` with each way (kept as a tuple of
        letters, made once per set of leftover files).
        """
        letter_of = self.model.letter_of
        size = self.model.region_size
        fill = self.fill
        found: list[str] = []
        if fill is None:
            for assignment in batch.assignments:
                row = [""] * size
                for name, file in assignment.items():
                    row[file] = letter_of[name]
                found.append("".join(row))
        else:
            split = self._split_ways
            ways, full = fill.ways, fill.full
            escaped = {name: letter.replace("%", "%%") for name, letter in letter_of.items()}
            for assignment in batch.assignments:
                row = ["%s"] * size
                mask = full
                for name, file in assignment.items():
                    row[file] = escaped[name]
                    mask ^= 1 << file
                letters = split.get(mask)
                if letters is None:
                    letters = split[mask] = [tuple(way) for way in ways.get(mask, ())]
                found += map("".join(row).__mod__, letters)
        if not batch.mirrored:
            return found
        out = found + found  # each rank, then its mirror image
        out[0::2] = found
        out[1::2] = [rank[::-1] for rank in found]
        return out

    @property
    def _split_ways(self) -> dict[int, list[tuple[str, ...]]]:
        """:attr:`Fill.ways` as tuples of letters, made as each set of files is met."""
        made: dict[int, list[tuple[str, ...]]] | None = self.__dict__.get("_ways")
        if made is None:
            made = self.__dict__["_ways"] = {}
        return made


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

    fill = _fill(model, domains, tables, pivot, loose, opaque)
    left_out = set(fill.pieces) if fill is not None else set()
    searched = {n: d for n, d in domains.items() if n not in left_out}

    constraints: list[tuple[Constraint, tuple[str, ...]]] = [
        (AllDifferentConstraint(), tuple(searched))
    ]
    for pieces, rows in tables:
        # A single piece's table is folded into its domain; a filled one is not searched.
        if len(pieces) > 1 and not left_out.intersection(pieces):
            constraints.append((TableConstraint(rows, len(pieces)), pieces))
    for pieces in loose:
        constraints.append((IncreasingConstraint(model.region_size), pieces))
    for requirement in opaque:
        constraints.append((RequirementConstraint(requirement.test), requirement.pieces))
    return Plan(model, searched, constraints, frozen, opaque, mirror, pivot, fill)


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


def _fill(
    model: Model,
    domains: dict[str, list[int]],
    tables: Sequence[tuple[tuple[str, ...], Sequence[tuple[int, ...]]]],
    pivot: str | None,
    loose: Sequence[tuple[str, ...]],
    opaque: Sequence[Requirement],
) -> Fill | None:
    """The pieces to leave out of the search (see :class:`Fill`), or None.

    Candidates are the pieces of a table that shares no piece with another
    table, and each piece in no table (its ways: its files). Never the pivot,
    nor a piece that an untabulated constraint reads. The largest are taken
    first while their ways together stay within :data:`FILL_LIMIT` and some
    piece is left to search.
    """
    if len(model.pieces) != model.region_size:
        return None  # empty squares: the files left do not say where the rest stand
    tied = {n for pieces in loose for n in pieces} | {n for r in opaque for n in r.pieces}
    if pivot is not None:
        tied.add(pivot)
    uses = Counter(n for pieces, _ in tables for n in pieces)
    candidates = [(pieces, rows) for pieces, rows in tables
                  if all(uses[n] == 1 for n in pieces) and not tied.intersection(pieces)]
    candidates.extend(((name,), [(f,) for f in domain]) for name, domain in domains.items()
                      if not uses[name] and name not in tied)
    candidates.sort(key=lambda c: (-len(c[0]), len(c[1])))
    chosen: list[tuple[tuple[str, ...], Sequence[tuple[int, ...]]]] = []
    bound = 1
    left = len(domains)
    for pieces, rows in candidates:
        if bound * len(rows) <= FILL_LIMIT and left > len(pieces):
            chosen.append((pieces, rows))
            bound *= len(rows)
            left -= len(pieces)
    if not chosen:
        return None
    names = tuple(n for pieces, _ in chosen for n in pieces)
    # Join the chosen tables one at a time, keyed by the files taken so far,
    # dropping a combination as soon as two pieces share a file.
    joined: dict[int, list[tuple[tuple[int, str], ...]]] = {0: [()]}
    for pieces, rows in chosen:
        letters = [model.letter_of[n] for n in pieces]
        placed: list[tuple[int, tuple[tuple[int, str], ...]]] = []
        for row in rows:
            mask = 0
            for file in row:
                mask |= 1 << file
            if mask.bit_count() == len(row):
                placed.append((mask, tuple(zip(row, letters, strict=True))))
        grown: dict[int, list[tuple[tuple[int, str], ...]]] = {}
        for mask, partial in joined.items():
            for more, pairs in placed:
                if not mask & more:
                    grown.setdefault(mask | more, []).extend(p + pairs for p in partial)
        joined = grown
    letter = itemgetter(1)
    ways = {mask: tuple(["".join(map(letter, sorted(p))) for p in partial])
            for mask, partial in joined.items()}
    return Fill(names, ways, (1 << model.region_size) - 1)
