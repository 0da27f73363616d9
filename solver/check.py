"""Proving a family's numbering against its solver and the published formula.

:func:`check` solves the family and proves, for every rank and every ID:

* the solver finds exactly the declared count, each rank once;
* every rank the solver finds obeys every rule as :meth:`Family.violations`
  reads it, and (for families small enough) every other arrangement breaks
  a named rule, so explanations and the solver agree;
* arithmetic numbering: decoding every ID gives exactly the solver's set,
  and ``encode(decode(i)) == i``;
* enumerated numbering: the canonical order gives each rank its own ID and
  ``id(rank(i)) == i``;
* where the family names a published reference (Scharnagl's formula for
  Chess960), the canonical position of every rank equals the formula's value.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import permutations

from solver.catalogue import Family
from solver.errors import Chess960Error, SearchTooLargeError
from solver.scharnagl import scharnagl_id

#: Families with at most this many arrangements also have every arrangement
#: outside the family checked against the explanations.
EXPLAIN_ALL_LIMIT = 200_000

_SHOWN = 3


@dataclass(frozen=True)
class Claim:
    """One proven (or refuted) statement about a family."""

    text: str
    ok: bool
    detail: str = ""


@dataclass
class Report:
    """What :func:`check` proved about one family."""

    family: str
    title: str
    numbering: str
    expected: int
    found: int = 0
    claims: list[Claim] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.claims)

    def add(self, text: str, failures: list[str], total: int | None = None) -> None:
        shown = "; ".join(failures[:_SHOWN])
        more = f" and {len(failures) - _SHOWN} more" if len(failures) > _SHOWN else ""
        of = f" ({len(failures)} of {total:,})" if total is not None and failures else ""
        self.claims.append(Claim(text, not failures, f"{shown}{more}{of}" if failures else ""))


def _mismatches(items: Iterable[int], wrong: Callable[[int], str | None]) -> list[str]:
    found = []
    for item in items:
        message = wrong(item)
        if message is not None:
            found.append(message)
    return found


def check(family: Family) -> Report:
    """Solve ``family`` and prove its numbering; see the module docstring.

    >>> check(Family.load("chess960")).ok
    True
    """
    rules = family.ruleset
    start = time.perf_counter()
    report = Report(rules.name, rules.title, rules.numbering, rules.count)
    try:
        _prove(family, report)
    except SearchTooLargeError:
        raise
    except Chess960Error as exc:
        report.claims.append(Claim("the numbering can be computed", False, str(exc)))
    report.seconds = time.perf_counter() - start
    return report


def _prove(family: Family, report: Report) -> None:
    rules = family.ruleset
    solved = family.solver_ranks()
    unique = set(solved)
    n = len(unique)
    report.found = n * n if family.independent else n
    dupes = len(solved) - n
    report.add("the solver finds each rank once", [f"{dupes} ranks found twice"] if dupes else [])
    sides = f" ({n:,} per side, squared)" if family.independent else ""
    report.add(
        f"the solver finds the declared count {rules.count:,}{sides}",
        [] if report.found == rules.count else [f"found {report.found:,}"],
    )
    if not unique:
        from solver.conflicts import conflicting_rules

        conflict = conflicting_rules(rules, family.max_arrangements)
        why = ("these rules cannot all hold: " + "; ".join(r.label for r in conflict)
               if conflict else "the rules admit no rank at all")
        report.add("the family has positions", [why])
        return

    report.add(
        "every rank the solver finds obeys every rule as explained",
        [f"{r}: {'; '.join(map(str, broken))}" for r in solved
         if (broken := family.violations(r))],
        n,
    )
    model_size = _arrangements(rules.pieces)
    if model_size <= EXPLAIN_ALL_LIMIT:
        outside = [p for p in _all_arrangements(rules.pieces) if p not in unique]
        report.add(
            f"every other arrangement of the pieces breaks a named rule ({len(outside):,})",
            [p for p in outside if not family.violations(p)],
            len(outside),
        )

    ordered = family.canonical(solved)
    if rules.numbering == "arithmetic":
        numbering = family.numbering
        radices = "x".join(map(str, numbering.radices))
        report.add(f"placement steps give {radices} = {numbering.count:,} ids per side",
                   [] if numbering.count == n else [f"{numbering.count:,} ids for {n:,} ranks"])
        ids = range(numbering.count)
        decoded = [numbering.decode(i) for i in ids]
        report.add(
            f"decoding every id 0..{numbering.count - 1:,} gives exactly the solver's ranks",
            [f"{i} decodes to {r}, not a solver rank"
             for i, r in enumerate(decoded) if r not in unique]
            + [f"no id decodes to {r}" for r in sorted(unique - set(decoded))],
        )
        report.add(
            "encode(decode(i)) == i for every id",
            _mismatches(ids, lambda i: None if numbering.encode(decoded[i]) == i
                        else f"{i} -> {decoded[i]} -> {numbering.encode(decoded[i])}"),
        )
    else:
        keys = [family.numbering.digits(r) for r in ordered]
        report.add(
            f"canonical order by steps {' '.join(rules.steps)} gives each rank its own id",
            [f"{ordered[i]} and {ordered[i + 1]} tie" for i in range(len(keys) - 1)
             if keys[i] == keys[i + 1]],
        )
        report.add(
            "id(rank(i)) == i for every id",
            _mismatches(range(n), lambda i: None if family.rank_id(family.rank_of(i)) == i
                        else f"id {i}"),
        )
    if rules.reference == "scharnagl":
        if sorted(rules.pieces) != sorted("KQRRBBNN") or rules.files != 8:
            report.add("Scharnagl's formula applies",
                       ["the family is not on 8 files with KQRRBBNN"])
        else:
            report.add(
                "the canonical order matches Scharnagl's published formula for every rank",
                _mismatches(range(n), lambda i: None if scharnagl_id(ordered[i]) == i
                            else f"{ordered[i]} is {i}, formula says {scharnagl_id(ordered[i])}"),
                n,
            )


def _arrangements(pieces: str) -> int:
    from solver.model import Model

    return Model.for_pieces(len(pieces), pieces).arrangements()


def _all_arrangements(pieces: str) -> set[str]:
    return {"".join(p) for p in permutations(pieces)}
