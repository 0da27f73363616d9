"""Proving a family's numbering against its solver and the published formula.

:func:`check` solves the family and proves, for every rank and every ID:

* the solver finds exactly the declared count, each rank once;
* every rank the solver finds obeys every rule as :meth:`Family.violations`
  reads it, and (for families small enough) every other arrangement breaks
  a named rule, so explanations and the solver agree;
* a second, independent method, counting completions of partial ranks file
  by file (:mod:`solver.numbering.counting`), finds the same count and accepts every
  rank the solver finds (so the same set), and numbers sampled IDs both ways
  as the canonical order does;
* arithmetic numbering: decoding every ID, in one walk of the placement
  steps, gives the canonical listing (so ``encode(decode(i)) == i``);
* enumerated numbering: the canonical order gives each rank its own ID;
* where the family names a published reference (Scharnagl's formula for
  Chess960), the canonical position of every rank equals the formula's value;
* every further numbering (``[[numberings]]``, :mod:`solver.numbering.schemes`)
  is a bijection onto its numbers, reads back what it writes, and gives its
  published examples; one that rests on examples alone says so.
* a numbering whose publisher's rule :mod:`solver.numbering.publishers`
  re-derives (TCEC's labeller) writes what that rule writes, for every
  position (or positions spread over a large family).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.errors import Chess960Error, SearchTooLargeError
from solver.family import Family
from solver.numbering.counting import Counting, arrangements, strangers
from solver.numbering.encoder import decode_all
from solver.numbering.publishers import RULES
from solver.numbering.scharnagl import scharnagl_id
from solver.numbering.schemes import prove as prove_scheme
from solver.numbering.shortcut import prove as prove_shortcut

if TYPE_CHECKING:
    from solver.numbering.shortcut import Choice

#: Families with at most this many arrangements also have every arrangement
#: outside the family checked against the explanations.
EXPLAIN_ALL_LIMIT = 200_000

#: How many IDs, spread over the family, the counting method numbers both ways.
ORDER_SAMPLES = 3

#: How many seeded IDs a family too large to list has round-tripped.
ROUND_TRIPS = 100

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
    #: The family's shortcuts, each on or off and why (``shortcut: ...`` lines).
    shortcuts: list[str] = field(default_factory=list)
    #: How the family was proven: ``"listing"`` (every rank), or, for a family
    #: too large to list, ``"counting and 100 sampled round trips"``.
    method: str = "listing"

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.claims)

    def text(self) -> str:
        """What ``chess960 check`` writes of the family: its title, its shortcuts,
        each claim (``ok`` or ``FAIL``) and the verdict, a line each.

        >>> print(Report("f", "F", "canonical", 2, 2, [Claim("a claim", True)]).text(), end="")
        f: F
          ok   a claim
          2 positions, canonical numbering, proven
        """
        lines = [f"{self.family}: {self.title}", *(f"  {line}" for line in self.shortcuts)]
        for claim in self.claims:
            detail = f": {claim.detail}" if claim.detail else ""
            lines.append(f"  {'ok  ' if claim.ok else 'FAIL'} {claim.text}{detail}")
        verdict = "proven" if self.ok else "NOT proven"
        if self.ok and self.method != "listing":
            verdict += f" by {self.method}"
        lines.append(f"  {self.found:,} positions, {self.numbering} numbering, {verdict}")
        return "".join(f"{line}\n" for line in lines)

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


def check(family: Family, shortcuts: Sequence[Choice] = ()) -> Report:
    """Solve ``family`` and prove its numbering; see the module docstring.
    Each of ``shortcuts`` (:mod:`solver.numbering.shortcut`) is named in the
    report, and each that is on proven to answer as the family does for every
    position.

    >>> check(Family.load("janggi")).ok  # a family proven at once
    True
    """
    rules = family.ruleset
    start = time.perf_counter()
    report = Report(rules.name, rules.title, rules.numbering, rules.count,
                    shortcuts=[str(choice) for choice in shortcuts])
    try:
        _prove(family, report, shortcuts)
    except SearchTooLargeError:
        raise
    except Chess960Error as exc:
        report.claims.append(Claim("the numbering can be computed", False, str(exc)))
    report.seconds = time.perf_counter() - start
    return report


def check_named(name: str, max_arrangements: int | None = None) -> Report:
    """Load the family ``name`` (bundled, or a rule file's path) and prove it
    (:func:`check`), naming the shortcuts that answer for it; every time
    afresh, nothing kept.

    >>> check_named("janggi").ok
    True
    """
    from solver.numbering.shortcut import shortcuts

    family = Family.load(name) if max_arrangements is None else \
        Family.load(name, max_arrangements)
    return check(family, shortcuts(name, family.name))


def check_each(names: Sequence[str], max_arrangements: int | None = None,
               workers: int | None = None) -> Iterator[Report]:
    """:func:`check_named` for each of ``names``, reports in their order, the
    families shared out over one worker process a core (``workers``: how
    many; one proves them here). Each family is proven whole in one process.

    >>> [r.family for r in check_each(["janggi", "chess960"], workers=1)]
    ['janggi', 'chess960']
    """
    from functools import partial

    from solver.processes import cores
    from solver.search.csp.workers import each_in_workers

    prove = partial(check_named, max_arrangements=max_arrangements)
    yield from each_in_workers(prove, list(names), cores() if workers is None else workers)


def _prove_armies(family: Family, report: Report) -> bool:
    """Prove a family whose pieces vary (armies of the sides' own, or an army
    that varies) by its armies' own proof; False for any other family."""
    rules = family.ruleset
    if rules.armies:  # armies of the sides' own (solver/numbering/different_armies.py)
        from solver.numbering.different_armies import prove as prove_own

        claims = prove_own(family)
    elif rules.army is not None:  # an army that varies (solver/numbering/armies.py)
        from solver.numbering.armies import prove

        claims = prove(family)
    else:
        return False
    report.found = family.count
    for claim, failures in claims:
        report.add(claim, failures)
    _prove_schemes(family, report)  # its ranks vary in pieces: no shortcut answers
    return True


def _prove(family: Family, report: Report, shortcuts: Sequence[Choice] = ()) -> None:
    rules = family.ruleset
    if _prove_armies(family, report):
        return
    try:
        solved = family.solver_ranks()
    except SearchTooLargeError:
        if family.count == 0:
            raise
        _prove_unlisted(family, report)
        return
    unique = set(solved)
    n = len(unique)
    report.found = family.sides.pair_count(n) * rules.castling.variations
    dupes = len(solved) - n
    report.add("the solver finds each rank once", [f"{dupes} ranks found twice"] if dupes else [])
    sides = f" ({n:,} per side, squared)" if family.sides.independent else ""
    report.add(
        f"the solver finds the declared count {rules.count:,}{sides}",
        [] if report.found == rules.count else [f"found {report.found:,}"],
    )
    if not unique:
        from solver.search.conflicts import conflicting_rules

        conflict = conflicting_rules(rules, family.max_arrangements)
        why = ("these rules cannot all hold: " + "; ".join(r.label for r in conflict)
               if conflict else "the rules admit no rank at all")
        report.add("the family has positions", [why])
        return

    report.add(
        "every rank the solver finds obeys every rule as explained",
        _explained(family, solved),
        n,
    )
    model_size = _arrangements(rules.pieces)
    if model_size <= EXPLAIN_ALL_LIMIT:
        outside = [p for p in arrangements(rules.pieces) if p not in unique]
        report.add(
            f"every other arrangement of the pieces breaks a named rule ({len(outside):,})",
            [p for p in outside if not family.breaks_a_rule(p)],
            len(outside),
        )

    ordered = family.canonical(solved)
    _prove_counting(family, report, unique, ordered)
    if rules.numbering == "arithmetic":
        numbering = family.numbering
        radices = "x".join(map(str, numbering.radices))
        report.add(f"placement steps give {radices} = {numbering.count:,} ids per side",
                   [] if numbering.count == n else [f"{numbering.count:,} ids for {n:,} ranks"])
        decoded = decode_all(numbering)
        report.add(
            f"decoding every id 0..{numbering.count - 1:,} in one walk gives the canonical "
            "listing, so encode(decode(i)) == i",
            [] if decoded == ordered else  # the mismatches, only when there are some
            [f"{i} decodes to {r}, the listing has {ordered[i] if i < len(ordered) else None}"
             for i, r in enumerate(decoded) if i >= len(ordered) or r != ordered[i]]
            + [f"no id decodes to {r}" for r in ordered[len(decoded):]],
        )
    else:
        keys = [family.numbering.digits(r) for r in ordered]
        report.add(
            f"canonical order by steps {' '.join(rules.steps)} gives each rank its own id",
            [f"{ordered[i]} and {ordered[i + 1]} tie" for i in range(len(keys) - 1)
             if keys[i] == keys[i + 1]],
        )
    _prove_schemes(family, report)
    if not rules.castling.default:
        _prove_castling(family, report, ordered)
    if rules.reference == "scharnagl":
        if sorted(rules.pieces) != sorted("KQRRBBNN") or rules.region_size != 8:
            report.add("Scharnagl's formula applies",
                       ["the family is not on 8 files with KQRRBBNN"])
        else:
            report.add(
                "the canonical order matches Scharnagl's published formula for every rank",
                _mismatches(range(n), lambda i: None if scharnagl_id(ordered[i]) == i
                            else f"{ordered[i]} is {i}, formula says {scharnagl_id(ordered[i])}"),
                n,
            )
    _prove_shortcuts(family, ordered, report, shortcuts)


def _prove_unlisted(family: Family, report: Report, samples: int = ROUND_TRIPS) -> None:
    """A family too large to list: its count by counting completions file by
    file, against the count of the rank index's own path and the declared
    count, and ``samples`` seeded IDs round-tripped (id -> position -> id,
    FEN -> id), each rank obeying every rule with the family's pieces."""
    import random

    from solver.notation.fen import position_fen

    rules = family.ruleset
    counted = Counting(rules, family.numbering).count
    report.found = family.sides.pair_count(counted) * rules.castling.variations
    sides = f" ({counted:,} per side, squared)" if family.sides.independent else ""
    report.add(f"counting completions file by file finds the declared count "
               f"{rules.count:,}{sides}",
               [] if report.found == rules.count else [f"counted {report.found:,}"])
    indexed = family.count
    report.add("the rank index counts the same positions",
               [] if indexed == report.found else [f"the index counts {indexed:,}"])
    rng = random.Random(f"check {rules.name}")
    total = family.count
    numbers = sorted({0, total - 1, *(rng.randrange(total) for _ in range(samples - 2))})
    wanted = sorted(rules.pieces)
    wrong: list[str] = []
    for number in numbers:
        try:
            position = family.position(number)
            for rank in {position.white, position.black}:
                if sorted(rank) != wanted:
                    wrong.append(f"id {number}: {rank} is not the family's pieces")
                elif broken := family.violations(rank):
                    wrong.append(f"id {number}: {rank}: {'; '.join(map(str, broken))}")
            if (back := family.id(position_fen(position))) != number:
                wrong.append(f"id {number} reads back as {back}")
        except Chess960Error as exc:
            wrong.append(f"id {number}: {exc}")
    report.method = f"counting and {len(numbers):,} sampled round trips"
    report.add(f"{len(numbers):,} seeded ids (too many positions to list) go to positions "
               "that obey every rule and read back, as FENs, to their ids", wrong, len(numbers))


def _prove_shortcuts(family: Family, ordered: list[str], report: Report,
                     shortcuts: Sequence[Choice]) -> None:
    """Each shortcut that is on: every ID's rank, every rank's ID, every ID
    as written read back and every numbering's text of it, the same as the
    general path's (``ordered``, the family's numberings)."""
    for choice in shortcuts:
        if choice.shortcut is not None:
            report.add(f"shortcut {choice.label} answers as the family does: each id's rank, "
                       f"each rank's id, each numbering's number, for every one of "
                       f"{len(ordered):,} ids",
                       prove_shortcut(choice.shortcut, ordered, schemes=family.schemes),
                       len(ordered))


def _prove_castling(family: Family, report: Report, ordered: list[str]) -> None:
    """The family's castling rule: each side's rights as the rule gives them,
    written in both notations, read back to the position's id (for ids spread
    over the family, every castling variation of the first ranks included)."""
    from solver.board.castling_rules import SubsetCastling
    from solver.notation.fen import position_fen

    rule = family.ruleset.castling
    wrong: list[str] = []
    if isinstance(rule, SubsetCastling):
        view = family.layout.castling_view  # (the piece the kings castle with, as R)
        wrong = [f"{rank} gives {len(rule.rooks(view(rank)))} rights, not 2: its castling "
                 "variations would not differ" for rank in ordered
                 if len(rule.rooks(view(rank))) != 2]
    count = family.count
    step = max(1, count // 199)
    ids = sorted({*range(0, count, step), *range(min(count, 16)), count - 1})
    for number in ids:
        position = family.position(number)
        for shredder in (False, True):
            fen = position_fen(position, shredder=shredder)
            try:
                back = family.identify(fen).id
            except Chess960Error as exc:
                wrong.append(f"{fen}: {exc}")
                continue
            if back != number:
                wrong.append(f"{fen} reads back as {back}, not {number}")
    report.add(f"castling {_castling_name(rule)}: FENs of {len(ids):,} ids spread over the "
               "family, in both notations, read back to their ids", wrong)


def _castling_name(rule: object) -> str:
    describe = getattr(rule, "describe", None)
    return describe() if callable(describe) else repr(getattr(rule, "name", ""))


def _prove_schemes(family: Family, report: Report) -> None:
    """Each numbering besides the family's own: a bijection, read back, its examples."""
    for scheme in family.schemes.values():
        if scheme.canonical or scheme.builtin:
            continue
        spec = scheme.spec
        shown = ", ".join(f"{p} = {n}" for p, n in spec.examples)
        examples = f"; gives {shown}" if shown else ""
        rests = (" (it rests on one published example)" if spec.evidence == "example"
                 and len(spec.examples) == 1 else
                 " (it rests on published examples only)" if spec.evidence == "example" else "")
        report.add(f"numbering {scheme.name} ({scheme.describe_range()}) is a bijection and "
                   f"reads back what it writes{examples}{rests}", prove_scheme(scheme))
    _prove_publishers(family, report)


def _prove_publishers(family: Family, report: Report, limit: int = 10_000) -> None:
    """Each numbering whose publisher's rule :mod:`solver.numbering.publishers`
    re-derives: the same label for every position (up to ``limit``, else
    positions spread over the family)."""
    for name, (whose, source, rule) in RULES.items():
        scheme = family.schemes.get(name)
        if scheme is None:
            continue
        step = max(1, family.count // limit)
        numbers = range(0, family.count, step)
        which = "every position" if step == 1 else f"{len(numbers):,} positions spread over " \
                                                    "the family"
        failures: list[str] = []
        for number in numbers:
            theirs, ours = rule(family.position(number)), scheme.text(number)
            if theirs != ours:
                failures.append(f"id {number}: {ours!r}, {whose} writes {theirs!r}")
        report.add(f"numbering {name} writes what {whose} writes ({source}), for {which}",
                   failures, len(numbers))


def _prove_counting(family: Family, report: Report, unique: set[str], ordered: list[str]) -> None:
    """The second method: counting completions file by file, without the solver."""
    counting = Counting(family.ruleset, family.numbering)
    n = len(unique)
    counted = counting.count
    report.add(f"counting completions file by file finds the same {n:,} ranks per side",
               [] if counted == n else [f"counted {counted:,}"])
    missed = strangers(counting, list(unique))
    report.add("the counting accepts every rank the solver finds (so, with the count, the "
               "same set)", missed, n)
    if not ordered or counted != n:
        return
    ids = sorted({n * i // ORDER_SAMPLES for i in range(ORDER_SAMPLES)} | {n - 1})
    wrong: list[str] = []
    try:
        for i in ids:
            rank = counting.rank_of(i)
            if rank != ordered[i]:
                wrong.append(f"id {i}: counting says {rank}, the listing {ordered[i]}")
            number = counting.rank_id(ordered[i])
            if number != i:
                wrong.append(f"{ordered[i]}: counting says id {number}, the listing {i}")
    except Chess960Error as exc:
        wrong.append(str(exc))
    report.add(f"counting numbers ids {', '.join(f'{i:,}' for i in ids)} both ways as the "
               "canonical order does", wrong)


def _explained(family: Family, ranks: list[str]) -> list[str]:
    """The ranks some rule explains as broken (:meth:`Family.violations` is the judge),
    each with the explanation.

    A rule about some pieces only reads where those stand, so it is asked
    once per way they stand (the rank with every other piece blanked); rules
    that read the whole rank are asked about every rank.
    """
    from solver.kinds.vocabulary import Placement

    wanted = sorted(family.ruleset.pieces)
    whole = [r for r in family.ruleset.rules if not r.letters]
    suspects = set(ranks) if whole else set()
    joined = "\n".join(ranks)
    for rule in family.ruleset.rules:
        if not rule.letters:
            continue
        table = bytes(c if chr(c) in rule.letters or c == 10 else ord(".") for c in range(256))
        seen = joined.translate(table).split("\n")  # every rank blanked in one call
        if len(seen) != len(ranks):  # a line break in a rank: one at a time
            seen = [rank.translate(table) for rank in ranks]
        broken = set()
        for way in set(seen):
            try:
                if rule.violations(Placement(way)):
                    broken.add(way)
            except (ValueError, IndexError):  # not the family's pieces
                broken.add(way)
        if broken:
            suspects.update(rank for rank, way in zip(ranks, seen, strict=True) if way in broken)
    found = []
    for rank in ranks:
        if rank not in suspects:
            continue
        if sorted(rank) != wanted:
            found.append(f"{rank}: not the family's pieces")
        elif broken_rules := family.violations(rank):
            found.append(f"{rank}: {'; '.join(map(str, broken_rules))}")
    return found


def _arrangements(pieces: str) -> int:
    from solver.kinds.model import Model

    return Model.for_pieces(len(pieces), pieces).arrangements()
