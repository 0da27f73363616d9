"""The one module that talks to python-constraint.

It compiles a :class:`~solver.model.Model` into python-constraint problems
and runs them. Nothing from a rule file reaches python-constraint's string
compiler: every constraint is an object of a class defined here or
python-constraint's own :class:`constraint.AllDifferentConstraint`.

* A requirement over a few pieces becomes a :class:`TableConstraint`: its
  test is evaluated once over every combination of its pieces' files, and the
  solver then checks partial placements against the table, rejecting a
  piece as soon as no placement of the others can complete the requirement.
  The tables also trim each piece's files before the search (domain trimming).
* A requirement over many pieces (``pawns-protected``, ``exclude``...) stays a
  :class:`RequirementConstraint`: its test runs once all its pieces stand.
* Identical pieces are kept in file order, so each rank is found once.

When every constraint is mirror-invariant (checked on the tables, never
assumed), the search places the king on the left half only and each rank
found also stands for its mirror image, which the rules then allow too. A
lone piece in no rule and free to stand anywhere is not searched: it takes
the one file the others leave. Large searches are split into parts (the
king's file, then another piece's) that run in worker processes, one per
core; each part's solutions reach the caller as a batch, shrunk where they
were found (counted, or numbered), so counting never holds the family.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise, product
from typing import Any, TypeVar

from constraint import AllDifferentConstraint, Constraint, OptimizedBacktrackingSolver, Problem

from solver.model import Model, Requirement

Domains = dict[Hashable, Any]
Assignments = dict[Hashable, Any]
T = TypeVar("T")

#: Requirements whose pieces have at most this many combinations of files are
#: tabulated (:class:`TableConstraint`); larger ones are tested as they come.
TABLE_LIMIT = 20_000

#: Searches over more arrangements than this are split into parts, and run in
#: worker processes when there is more than one core.
SPLIT_ABOVE = 100_000

#: The most worker processes a search uses.
MAX_WORKERS = 8


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

    def __init__(self, files: int) -> None:
        self.files = files

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
            high = self.files
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
    pivot = _pivot(model)
    mirror = pivot is not None and not opaque and _mirrored(model, frozen)

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


def _pivot(model: Model) -> str | None:
    """The piece whose file decides the half: the king, or another lone piece."""
    singles = [names[0] for names in model.instances.values() if len(names) == 1]
    if "K" in singles:
        return "K"
    return singles[0] if singles else None


def _mirror_names(model: Model) -> dict[str, str]:
    """Which piece each piece becomes when the rank is mirrored.

    Identical pieces in file order come out in reverse order; a pair split
    by colour swaps when mirroring swaps the colours (an even board).
    """
    swap: dict[str, str] = {}
    for letter, names in model.instances.items():
        if letter in model.colour_split and model.files % 2:
            swap.update({n: n for n in names})
        else:
            swap.update(zip(names, reversed(names), strict=True))
    return swap


def _mirrored(
    model: Model, tables: Sequence[tuple[tuple[str, ...], frozenset[tuple[int, ...]]]]
) -> bool:
    """Whether the mirror image of every solution is a solution (proven on tables)."""
    last = model.files - 1
    swap = _mirror_names(model)
    for name, domain in model.domains.items():
        if {last - f for f in domain} != set(model.domains[swap[name]]):
            return False
    for pieces, allowed in tables:
        where = {name: i for i, name in enumerate(pieces)}
        if set(map(swap.get, pieces)) != set(pieces):
            return False
        moves = [where[swap[name]] for name in pieces]
        for row in allowed:
            image = [0] * len(row)
            for value, to in zip(row, moves, strict=True):
                image[to] = last - value
            if tuple(image) not in allowed:
                return False
    return True


# -- running the search ---------------------------------------------------------


def cores() -> int:
    """How many cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def batches(
    plan: Plan,
    prepare: Callable[[Batch], T],
    workers: int | None = None,
) -> Iterator[T]:
    """Search every part of ``plan``; yield ``prepare(batch)`` for each.

    ``prepare`` runs where the part was searched: in a worker process when
    the search is large and there is more than one core (``workers`` says how
    many; default: one per core), so it should shrink the batch (count it,
    number its ranks). Batches come in no particular order.
    """
    split = plan.model.arrangements() > SPLIT_ABOVE
    parts = plan.parts(split)
    if workers is None:
        workers = min(cores(), MAX_WORKERS) if split else 1
    workers = max(1, min(workers, len(parts)))
    if workers == 1 or not _can_fork():
        for part in parts:
            yield prepare(plan.search(part))
        return
    yield from _in_workers(plan, parts, prepare, workers)


def solutions(model: Model, workers: int | None = None) -> Iterator[str]:
    """Every rank the solver finds for ``model``, in the solver's order."""
    plan = compile_model(model)
    for ranks in batches(plan, plan.ranks, workers):
        yield from ranks


#: Worker processes now running, so that Ctrl-C can stop them at once.
_WORKERS: list[Any] = []


def stop_workers() -> None:
    """Kill and reap every worker process still searching (for an immediate exit)."""
    for process in list(_WORKERS):
        process.kill()
    for process in list(_WORKERS):
        process.join(timeout=1)


def _can_fork() -> bool:
    """Whether worker processes can be forked safely: a fork start method,
    and no other thread whose locks a child could inherit held."""
    import multiprocessing
    import threading

    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def _work(plan: Plan, parts: Sequence[Part], prepare: Callable[[Batch], Any], conn: Any) -> None:
    """A worker: search its parts, send each prepared batch, then ``done``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # Never flush the parent's buffered output a second time.
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    try:
        for part in parts:
            conn.send(("batch", prepare(plan.search(part))))
        conn.send(("done",))
    except BaseException as exc:  # report everything; the parent raises it
        from solver.errors import Chess960Error

        conn.send(("error", isinstance(exc, Chess960Error), f"{exc}"))
    finally:
        conn.close()


def _in_workers(
    plan: Plan, parts: Sequence[Part], prepare: Callable[[Batch], T], workers: int
) -> Iterator[T]:
    import multiprocessing
    from multiprocessing.connection import wait

    from solver.errors import Chess960Error

    context = multiprocessing.get_context("fork")
    processes = []
    live = []
    own = list(parts[0::workers])  # this process searches a share too
    try:
        for index in range(1, workers):
            receive, send = context.Pipe(duplex=False)
            process = context.Process(
                target=_work, args=(plan, parts[index::workers], prepare, send), daemon=True
            )
            process.start()
            _WORKERS.append(process)
            send.close()
            processes.append(process)
            live.append(receive)
        while own or live:
            for ready in wait(live, timeout=0 if own else None) if live else ():
                conn = next(c for c in live if c is ready)
                try:
                    message = conn.recv()
                except EOFError:
                    raise RuntimeError("a solver worker process stopped unexpectedly") from None
                if message[0] == "batch":
                    batch: T = message[1]
                    yield batch
                elif message[0] == "done":
                    live.remove(conn)
                    conn.close()
                elif message[1]:
                    raise Chess960Error(message[2])
                else:
                    raise RuntimeError(f"a solver worker failed: {message[2]}")
            if own:
                yield prepare(plan.search(own.pop(0)))
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join()
            _WORKERS.remove(process)
        for conn in live:
            conn.close()
