"""A physical draw procedure described as data, and its exact distribution.

An arbiter who draws with dice, slips in boxes or cards follows a
procedure; whether it is fair is a question of arithmetic, answered here
exactly (:class:`fractions.Fraction`, no sampling). A procedure is a JSON
object (``chess960 dice --json`` writes one; README: "Dice and cards"):

.. code-block:: json

    {
      "format": "chess960-procedure/1",
      "name": "ChessBase three boxes",
      "count": 960,
      "draws": [
        {"name": "box 1", "from": 0, "to": 9},
        {"name": "box 2", "from": 0, "to": 9,
         "cases": [{"when": {"box 1": [9, 9]}, "from": 0, "to": 5}]},
        {"name": "box 3", "from": 0, "to": 9}
      ],
      "number": {"box 1": 100, "box 2": 10, "box 3": 1}
    }

* ``count``: the IDs drawn among, ``0 .. count-1``.
* ``draws``: done in order; each gives a whole number from ``from`` to
  ``to``, every one equally likely (a die, a box of slips, a card put back
  and shuffled). ``cases`` change that range: the first case whose
  ``when`` holds for the draws before gives its own ``from`` and ``to``.
* ``number``: the draws' weights; the number is the sum of each draw times
  its weight, plus ``offset`` (default 0).
* ``reject`` (default none): conditions under which the whole procedure
  starts again; ``id`` (default ``"number"``): the number is the ID, or
  ``"remainder"``: the ID is the number's remainder divided by ``count``.
* A condition (``when``, each item of ``reject``) is an object whose keys
  are draws' names or ``"number"`` and whose values are ranges
  ``[low, high]`` (both included); it holds when every one does.

An outcome that is neither started over nor an ID of ``0 .. count-1`` makes
the procedure wrong, not merely unfair: :func:`distribution` says which.
Its work is bounded before it is done: a procedure whose steps, estimated
from above (:func:`estimated_work`), pass :data:`MAX_WORK` is refused at
once, as one that holds more than :data:`MAX_STATES` states.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from solver.errors import NotUniformError, ProcedureError, quote

#: The value of a procedure's ``format`` key.
FORMAT: Final = "chess960-procedure/1"

#: The most states (kept draws and partial sums) :func:`distribution` holds at once.
MAX_STATES: Final = 1_000_000

#: The most work :func:`distribution` does, in steps (each a microsecond or a
#: few): every face of each draw followed from every state the draws before it
#: may leave, every state at the end judged, and every ID weighed. It is
#: estimated from above before any step is made (:func:`estimated_work`), so a
#: procedure past it is refused at once, not after hours. Chess960's procedures
#: take a few thousand steps; DFRC's with a ten-sided die (921,600 ids, six
#: rolls) 3,032,710, some seconds.
MAX_WORK: Final = 4_000_000

#: The most faces one draw may have, and the most draws a procedure may make.
MAX_FACES: Final = 1_000_000
MAX_DRAWS: Final = 64

#: ``key -> (low, high)``: every key's value in its range (keys: draws' names or "number").
Condition = tuple[tuple[str, int, int], ...]


@dataclass(frozen=True)
class Draw:
    """One draw: a whole number from ``low`` to ``high``, each equally likely,
    unless the first of ``cases`` (``(when, low, high)``) that holds says otherwise."""

    name: str
    low: int
    high: int
    cases: tuple[tuple[Condition, int, int], ...] = ()

    def faces(self, values: Mapping[str, int]) -> tuple[int, int]:
        """The range of this draw after the draws ``values``."""
        for when, low, high in self.cases:
            if holds(when, values):
                return low, high
        return self.low, self.high


@dataclass(frozen=True)
class Procedure:
    """A physical draw procedure (see the module)."""

    name: str
    count: int
    draws: tuple[Draw, ...]
    weights: tuple[int, ...]
    offset: int = 0
    reject: tuple[Condition, ...] = ()
    remainder: bool = False

    def data(self) -> dict[str, Any]:
        """The procedure as the JSON object the module describes."""
        draws = []
        for draw in self.draws:
            item: dict[str, Any] = {"name": draw.name, "from": draw.low, "to": draw.high}
            if draw.cases:
                item["cases"] = [{"when": _condition_data(when), "from": low, "to": high}
                                 for when, low, high in draw.cases]
            draws.append(item)
        found: dict[str, Any] = {
            "format": FORMAT, "name": self.name, "count": self.count, "draws": draws,
            "number": {d.name: w for d, w in zip(self.draws, self.weights, strict=True) if w},
        }
        if self.offset:
            found["offset"] = self.offset
        if self.reject:
            found["reject"] = [_condition_data(c) for c in self.reject]
        if self.remainder:
            found["id"] = "remainder"
        return found

    def to_json(self) -> str:
        """The procedure as JSON text, one draw a line (as ``dice --json`` writes it).

        >>> from solver.draws.dice import dice
        >>> print(dice(6, 2).procedure().to_json())
        {
          "format": "chess960-procedure/1",
          "name": "6 ids with a 2-sided die",
          "count": 6,
          "draws": [
            {"name": "roll 1", "from": 1, "to": 2},
            {"name": "roll 2", "from": 1, "to": 2},
            {"name": "roll 3", "from": 1, "to": 2}
          ],
          "number": {"roll 1": 4, "roll 2": 2, "roll 3": 1},
          "offset": -7,
          "reject": [{"number": [6, 7]}]
        }
        """
        data = self.data()
        lines = []
        for key, value in data.items():
            if key == "draws":
                inner = ",\n".join(f"    {json.dumps(d, ensure_ascii=False)}" for d in value)
                lines.append(f'  "draws": [\n{inner}\n  ]')
            else:
                lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
        return "{\n" + ",\n".join(lines) + "\n}\n"


def holds(condition: Condition, values: Mapping[str, int]) -> bool:
    """Whether every key of ``condition`` has its value in range."""
    return all(low <= values[key] <= high for key, low, high in condition)


def _condition_data(condition: Condition) -> dict[str, list[int]]:
    return {key: [low, high] for key, low, high in condition}


# -- reading ------------------------------------------------------------------------------


def read_procedure(text: str, name: str = "<procedure>") -> Procedure:
    """The procedure in the JSON ``text`` (``name``: the file, for errors).

    >>> coin = '{"name": "coin", "from": 0, "to": 1}'
    >>> read_procedure('{"format": "chess960-procedure/1", "count": 2, '
    ...                f'"draws": [{coin}], "number": {{"coin": 1}}}}').count
    2

    Raises :class:`~solver.errors.ProcedureError` naming the first thing wrong.
    """
    from solver.draws.jsontext import read_json

    data = read_json(text, name, ProcedureError)
    return procedure_from(data, name)


def procedure_from(data: object, name: str = "<procedure>") -> Procedure:
    """The procedure in the decoded JSON ``data`` (see :func:`read_procedure`)."""
    read = _Reader(name)
    top = read.mapping(data, "the procedure")
    read.keys(top, "the procedure", {"format", "name", "count", "draws", "number", "offset",
                                     "reject", "id"})
    if top.get("format") != FORMAT:
        raise ProcedureError(name, f"'format' should be {FORMAT!r}, not "
                                   f"{_shown(top.get('format'))}")
    title = top.get("name", name)
    if not isinstance(title, str) or not title.strip():
        raise ProcedureError(name, f"'name' should be text, not {_shown(title)}")
    count = read.integer(top.get("count"), "'count'", low=1)
    raw_draws = top.get("draws")
    if not isinstance(raw_draws, list) or len(raw_draws) > MAX_DRAWS:
        raise ProcedureError(name, f"'draws' should be a list of at most {MAX_DRAWS} draws")
    draws: list[Draw] = []
    for at, raw in enumerate(raw_draws, 1):
        draws.append(read.draw(raw, at, [d.name for d in draws]))
    names = [d.name for d in draws]
    number = read.mapping(top.get("number", {}), "'number'")
    for key in number:
        if key not in names:
            raise ProcedureError(name, f"'number' weighs {quote(key)}, which is no draw")
    weights = tuple(read.integer(number.get(n, 0), f"the weight of {quote(n)}") for n in names)
    offset = read.integer(top.get("offset", 0), "'offset'")
    reject_list = top.get("reject", [])
    if not isinstance(reject_list, list):
        raise ProcedureError(name, f"'reject' should be a list of conditions, not "
                                   f"{_shown(reject_list)}")
    reject = tuple(read.condition(c, f"reject condition {i}", [*names, "number"])
                   for i, c in enumerate(reject_list, 1))
    mapping = top.get("id", "number")
    if mapping not in ("number", "remainder"):
        raise ProcedureError(name, f"'id' should be 'number' or 'remainder', not "
                                   f"{_shown(mapping)}")
    return Procedure(title.strip(), count, tuple(draws), weights, offset, reject,
                     mapping == "remainder")


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if value is not None else "nothing"
    return text if len(text) <= 60 else f"{text[:50]}... ({len(text)} characters)"


class _Reader:
    """Reads the parts of a procedure, naming ``name`` and the part in its errors."""

    def __init__(self, name: str) -> None:
        self.name = name

    def mapping(self, value: object, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ProcedureError(self.name, f"{what} should be a JSON object, not "
                                            f"{_shown(value)}")
        return value

    def keys(self, value: Mapping[str, object], what: str, known: set[str]) -> None:
        for key in value:
            if key not in known:
                raise ProcedureError(self.name, f"{what} has an unknown key {quote(key)} "
                                                f"(known: {', '.join(sorted(known))})")

    def integer(self, value: object, what: str, low: int | None = None) -> int:
        if type(value) is not int or (low is not None and value < low):
            least = f" of at least {low}" if low is not None else ""
            raise ProcedureError(self.name, f"{what} should be a whole number{least}, not "
                                            f"{_shown(value)}")
        return value

    def range(self, value: Mapping[str, object], what: str) -> tuple[int, int]:
        low = self.integer(value.get("from"), f"{what}'s 'from'")
        high = self.integer(value.get("to"), f"{what}'s 'to'")
        if high < low or high - low + 1 > MAX_FACES:
            raise ProcedureError(self.name, f"{what} should give from 1 to {MAX_FACES:,} "
                                            f"numbers, not {low} to {high}")
        return low, high

    def condition(self, value: object, what: str, names: Sequence[str]) -> Condition:
        found = self.mapping(value, what)
        if not found:
            raise ProcedureError(self.name, f"{what} is empty (it would always hold)")
        parts = []
        for key, bounds in found.items():
            if key not in names:
                choices = ", ".join(map(quote, names)) or "none"
                raise ProcedureError(self.name, f"{what} names {quote(key)}: it may name "
                                                f"{choices}")
            if (not isinstance(bounds, list) or len(bounds) != 2
                    or any(type(b) is not int for b in bounds)):
                raise ProcedureError(self.name, f"{what}: {quote(key)} should be a range "
                                                f"[low, high], not {_shown(bounds)}")
            parts.append((key, bounds[0], bounds[1]))
        return tuple(parts)

    def draw(self, value: object, at: int, before: Sequence[str]) -> Draw:
        raw = self.mapping(value, f"draw {at}")
        self.keys(raw, f"draw {at}", {"name", "from", "to", "cases"})
        title = raw.get("name")
        if not isinstance(title, str) or not title or title == "number" or title in before:
            raise ProcedureError(self.name, f"draw {at} needs a name of its own (not "
                                            f"'number' nor an earlier draw's), not "
                                            f"{_shown(title)}")
        what = f"draw {quote(title)}"
        low, high = self.range(raw, what)
        cases = []
        raw_cases = raw.get("cases", [])
        if not isinstance(raw_cases, list):
            raise ProcedureError(self.name, f"{what}'s 'cases' should be a list")
        for number, case in enumerate(raw_cases, 1):
            part = self.mapping(case, f"{what}'s case {number}")
            self.keys(part, f"{what}'s case {number}", {"when", "from", "to"})
            when = self.condition(part.get("when"), f"{what}'s case {number} 'when'", before)
            cases.append((when, *self.range(part, f"{what}'s case {number}")))
        return Draw(title, low, high, tuple(cases))


# -- the distribution ---------------------------------------------------------------------


@dataclass(frozen=True)
class Distribution:
    """A procedure's exact distribution: ``probabilities[i]`` of ID ``i``
    (given that the procedure ends), and ``restart``, the chance that one
    round starts over."""

    count: int
    probabilities: tuple[Fraction, ...]
    restart: Fraction

    @property
    def uniform(self) -> bool:
        """Whether every ID has probability ``1/count``."""
        fair = Fraction(1, self.count)
        return all(p == fair for p in self._distinct())

    def _distinct(self) -> list[Fraction]:
        """The probabilities, each object once (equal ones are mostly one object:
        comparing or hashing a million Fractions takes seconds)."""
        return list({id(p): p for p in self.probabilities}.values())

    def groups(self) -> list[tuple[Fraction, list[int]]]:
        """``(probability, ids)`` for each probability an ID has, most likely first."""
        by_object: dict[int, list[int]] = {}
        for number, p in enumerate(self.probabilities):
            by_object.setdefault(id(p), []).append(number)
        found: dict[Fraction, list[int]] = {}
        for numbers in by_object.values():
            found.setdefault(self.probabilities[numbers[0]], []).extend(numbers)
        for numbers in found.values():
            numbers.sort()
        return sorted(found.items(), key=lambda item: (-item[0], item[1][0]))

    def lines(self) -> list[str]:
        """What ``chess960 verify`` prints of it: the chance of starting over,
        then each probability with its IDs."""
        shown = [f"starts over: probability {self.restart}"]
        for p, ids in self.groups():
            each = " each" if len(ids) > 1 else ""
            shown.append(f"{_plural(len(ids), 'id')} {runs(ids)}: probability {p}{each}")
        return shown


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' if n != 1 else ''}"


def runs(ids: Sequence[int], most: int = 6) -> str:
    """Sorted IDs as ranges (``0..899``), at most ``most`` of them then a count.

    >>> runs([0, 1, 2, 5, 7, 8])
    '0..2, 5, 7..8'
    >>> runs(list(range(0, 40, 2)), 3)
    '0, 2, 4, ... (17 more)'
    """
    parts: list[str] = []
    start = previous = ids[0]
    for number in [*ids[1:], None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        parts.append(str(start) if start == previous else f"{start}..{previous}")
        if number is not None:
            start = previous = number
    if len(parts) > most:
        return f"{', '.join(parts[:most])}, ... ({len(parts) - most} more)"
    return ", ".join(parts)


def distribution(procedure: Procedure, name: str | None = None) -> Distribution:
    """The exact distribution of ``procedure``'s IDs (``name``: for errors).

    Draws are followed in order, keeping only what later steps look at (the
    draws a case or a reject condition names, and the sum so far), with
    integer weights over one common denominator, so equal states merge.

    >>> from solver.draws.dice import dice
    >>> d = distribution(dice(960, 10).procedure())
    >>> d.uniform, d.restart, d.probabilities[0]
    (True, Fraction(1, 25), Fraction(1, 960))

    Raises :class:`~solver.errors.ProcedureError` when an outcome gives no ID
    and is not started over, when every outcome starts over, or when the
    procedure has more than :data:`MAX_STATES` states or takes more than
    :data:`MAX_WORK` steps (counted before they are made).
    """
    shown = name or procedure.name
    kept = {key for draw in procedure.draws for when, _, _ in draw.cases for key, _, _ in when}
    kept |= {key for c in procedure.reject for key, _, _ in c if key != "number"}
    names = [d.name for d in procedure.draws if d.name in kept]
    work = estimated_work(procedure, kept)
    if work > MAX_WORK:
        raise ProcedureError(shown, f"up to {work:,} steps of work (every face of each draw "
                                    f"from every state the draws before it may leave, and "
                                    f"every id), more than {MAX_WORK:,}: too large to work "
                                    f"out exactly here")
    # state: (the kept draws' values, in draw order; the weighted sum so far) -> weight
    states: dict[tuple[tuple[int, ...], int], int] = {((), 0): 1}
    denominator = 1
    for draw, weight in zip(procedure.draws, procedure.weights, strict=True):
        sizes = {high - low + 1 for _, low, high in draw.cases} | {draw.high - draw.low + 1}
        common = math.lcm(*sizes)
        denominator *= common
        keep = draw.name in kept
        following: dict[tuple[tuple[int, ...], int], int] = {}
        for (values, total), mass in states.items():
            low, high = draw.faces(dict(zip(names, values, strict=False)))
            share = mass * (common // (high - low + 1))
            for face in range(low, high + 1):
                key = ((*values, face) if keep else values, total + weight * face)
                following[key] = following.get(key, 0) + share
            if len(following) > MAX_STATES:
                raise ProcedureError(shown, f"more than {MAX_STATES:,} states to follow: "
                                            f"too large to work out exactly here")
        states = following
    return _ending(procedure, shown, names, states, denominator)


def estimated_work(procedure: Procedure, kept: set[str] | None = None) -> int:
    """At most how many steps :func:`distribution` takes for ``procedure`` (whose
    draws named in ``kept`` are kept in its states; None: worked out here), found
    before any is made: every ID weighed, each draw's most faces followed
    from every state the draws before it may leave, and every state left at
    the end judged; the states after some draws are at most as many as their
    outcomes, and at most the kept draws' values times the sums the weights
    reach.

    >>> from solver.draws.dice import dice
    >>> estimated_work(dice(960, 10).procedure())  # 960 ids; (1 + 10 + 100) x 10; 1000
    3070
    """
    if kept is None:
        kept = {key for draw in procedure.draws for when, _, _ in draw.cases
                for key, _, _ in when}
        kept |= {key for c in procedure.reject for key, _, _ in c if key != "number"}
    work = procedure.count
    outcomes = values = 1
    least = most = 0
    for draw, weight in zip(procedure.draws, procedure.weights, strict=True):
        ranges = [(low, high) for _, low, high in draw.cases] + [(draw.low, draw.high)]
        states = min(outcomes, values * (most - least + 1))
        faces = max(high - low + 1 for low, high in ranges)
        work += states * faces
        if work > MAX_WORK:
            return work
        low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
        least += min(weight * low, weight * high)
        most += max(weight * low, weight * high)
        outcomes *= faces
        if draw.name in kept:
            values *= high - low + 1
    return work + min(outcomes, values * (most - least + 1))


def _ending(procedure: Procedure, shown: str, names: list[str],
            states: Mapping[tuple[tuple[int, ...], int], int], denominator: int) -> Distribution:
    """The distribution once every draw is made (see :func:`distribution`)."""
    count = procedure.count
    masses = [0] * count
    restarted = 0
    stray: dict[int, int] = {}
    # each reject condition as (place in (*values, number), low, high): -1 is the number
    spots = {key: at for at, key in enumerate(names)}
    checks = [tuple((spots.get(key, -1), low, high) for key, low, high in condition)
              for condition in procedure.reject]
    for (values, total), mass in states.items():
        number = total + procedure.offset
        if checks:
            row = (*values, number)
            if any(all(low <= row[at] <= high for at, low, high in check) for check in checks):
                restarted += mass
                continue
        number_id = number % count if procedure.remainder else number
        if 0 <= number_id < count:
            masses[number_id] += mass
        else:
            stray[number] = stray.get(number, 0) + mass
    if stray:
        first = min(stray)
        chance = Fraction(sum(stray.values()), denominator)
        others = f" (and {len(stray) - 1:,} other numbers)" if len(stray) > 1 else ""
        raise ProcedureError(shown, f"the number {first}{others} is no id of "
                                    f"0..{count - 1} and does not start over "
                                    f"(probability {chance})")
    ended = denominator - restarted
    if ended == 0:
        raise ProcedureError(shown, "every outcome starts over: it never ends")
    chances: dict[int, Fraction] = {}  # one Fraction per distinct mass, not per ID
    return Distribution(count, tuple(chances[m] if m in chances
                                     else chances.setdefault(m, Fraction(m, ended))
                                     for m in masses),
                        Fraction(restarted, denominator))


def check_uniform(procedure: Procedure, name: str | None = None) -> Distribution:
    """:func:`distribution`, raising :class:`~solver.errors.NotUniformError`
    when the IDs are not equally likely.

    >>> three_boxes = Procedure("three boxes", 960, (
    ...     Draw("a", 0, 9), Draw("b", 0, 9, ((((("a", 9, 9),), 0, 5)),)), Draw("c", 0, 9)),
    ...     (100, 10, 1))
    >>> check_uniform(three_boxes)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.NotUniformError: three boxes: not uniform: 60 ids (900..959) have ...
    """
    shown = name or procedure.name
    found = distribution(procedure, shown)
    problem = unfairness(found, shown)
    if problem is not None:
        raise problem
    return found


def unfairness(found: Distribution, name: str) -> NotUniformError | None:
    """The error that says how ``found`` is not uniform (None when it is)."""
    if not found.uniform:
        groups = found.groups()
        parts = [f"{_plural(len(ids), 'id')} ({runs(ids, 3)}) {'have' if len(ids) > 1 else 'has'}"
                 f" probability {p}{' each' if len(ids) > 1 else ''}" for p, ids in groups[:1]]
        parts += [f"{_plural(len(ids), 'id')} ({runs(ids, 3)}) {p}{' each' if len(ids) > 1 else ''}"
                  for p, ids in groups[1:3]]
        more = f", and {len(groups) - 3} other probabilities" if len(groups) > 3 else ""
        return NotUniformError(name, f"not uniform: {', '.join(parts)}{more} "
                                     f"(uniform: 1/{found.count})", groups, found.count)
    return None

