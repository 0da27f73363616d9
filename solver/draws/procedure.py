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
* ``exclude`` (default none): ranges ``[low, high]`` of IDs left out: an
  outcome giving one starts the whole procedure again, and the procedure is
  uniform when every other ID is equally likely.
* A condition (``when``, each item of ``reject``) is an object whose keys
  are draws' names or ``"number"`` and whose values are ranges
  ``[low, high]`` (both included); it holds when every one does.

An outcome that is neither started over nor an ID of ``0 .. count-1`` makes
the procedure wrong, not merely unfair: :func:`distribution` says which.

It is worked out one of two ways. **By counting**, when no draw has
``cases`` and each reject condition names one key (a draw, or the number):
then the draws are independent, a condition on one draw only narrows its
faces, and the number's distribution is the draws' spread one after the
other, kept as runs of consecutive numbers equally likely (a die's rolls
read as digits stay one run, however many: DFRC's 921,600 and Placement's
8,294,400 ids take a few steps). Its work is counted as it is done and
stops past :data:`MAX_WORK` steps or :data:`MAX_STATES` runs. Otherwise
**state by state**: every face followed from every state the draws before
it may leave; its work is bounded before it is done: a procedure whose
steps, estimated from above (:func:`estimated_work`), pass :data:`MAX_WORK`
is refused at once, as one that holds more than :data:`MAX_STATES` states.
"""

from __future__ import annotations

import bisect
import itertools
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
    #: Ranges ``(low, high)`` of IDs left out (an outcome giving one starts again).
    exclude: tuple[tuple[int, int], ...] = ()

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
        if self.exclude:
            found["exclude"] = [[low, high] for low, high in self.exclude]
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
                                     "reject", "id", "exclude"})
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
                     mapping == "remainder", _excluded(read, top.get("exclude", []), count))


def _excluded(read: _Reader, value: object, count: int) -> tuple[tuple[int, int], ...]:
    """``exclude``: ranges of IDs of ``0..count-1``, each ``[low, high]``."""
    if not isinstance(value, list):
        raise ProcedureError(read.name, f"'exclude' should be a list of id ranges [low, high], "
                                        f"not {_shown(value)}")
    found = []
    for at, item in enumerate(value, 1):
        if (not isinstance(item, list) or len(item) != 2 or any(type(b) is not int for b in item)
                or not 0 <= item[0] <= item[1] < count):
            raise ProcedureError(read.name, f"'exclude' range {at} should be [low, high] with "
                                            f"0 <= low <= high <= {count - 1}, not "
                                            f"{_shown(item)}")
        found.append((item[0], item[1]))
    return tuple(found)


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

#: ``(first, stop, mass)``: the numbers (or IDs) ``first .. stop-1``, each with this mass.
Run = tuple[int, int, int]


@dataclass(frozen=True)
class Distribution:
    """A procedure's exact distribution: ``spans``, the IDs ``first .. stop-1``
    of each ``(first, stop, probability)`` with that probability each (given
    that the procedure ends; consecutive, covering ``0 .. count-1``), and
    ``restart``, the chance that one round starts over; ``excluded``, the
    ranges ``(low, high)`` of IDs left out; ``method``, how it was worked out."""

    count: int
    spans: tuple[tuple[int, int, Fraction], ...]
    restart: Fraction
    excluded: tuple[tuple[int, int], ...] = ()
    method: str = ""

    @property
    def probabilities(self) -> tuple[Fraction, ...]:
        """The probability of each ID, in order (one entry an ID: for small counts)."""
        return tuple(p for first, stop, p in self.spans for _ in range(first, stop))

    @property
    def left(self) -> int:
        """How many IDs are not left out."""
        return self.count - sum(high - low + 1 for low, high in _merged(self.excluded))

    @property
    def uniform(self) -> bool:
        """Whether every ID not left out has probability ``1/left``."""
        fair = Fraction(1, self.left) if self.left else None
        return sum(stop - first for first, stop, p in self.spans if p == fair) == self.left

    def _kept_spans(self) -> list[tuple[int, int, Fraction]]:
        """:attr:`spans` without the IDs left out (a span is all left out or none)."""
        merged = _merged(self.excluded)
        highs = [high for _, high in merged]

        def left_out(number: int) -> bool:
            at = bisect.bisect_left(highs, number)
            return at < len(merged) and merged[at][0] <= number

        return [span for span in self.spans if not left_out(span[0])]

    def span_groups(self) -> list[tuple[Fraction, list[tuple[int, int]]]]:
        """``(probability, spans)`` for each probability an ID left in has, most likely first."""
        found: dict[Fraction, list[tuple[int, int]]] = {}
        for first, stop, p in self._kept_spans():
            found.setdefault(p, []).append((first, stop))
        return sorted(found.items(), key=lambda item: (-item[0], item[1][0][0]))

    def groups(self) -> list[tuple[Fraction, list[int]]]:
        """``(probability, ids)`` for each probability an ID left in has, most likely first."""
        return [(p, [n for first, stop in spans for n in range(first, stop)])
                for p, spans in self.span_groups()]

    def lines(self) -> list[str]:
        """What ``chess960 verify`` prints of it: the chance of starting over,
        the IDs left out, then each probability with its IDs, and how it was found."""
        shown = [f"starts over: probability {self.restart}"]
        if self.excluded:
            out = [(low, high + 1) for low, high in _merged(self.excluded)]
            shown.append(f"{_plural(self.count - self.left, 'id')} {span_runs(out)}: left out")
        for p, spans in self.span_groups():
            number = sum(stop - first for first, stop in spans)
            each = " each" if number > 1 else ""
            shown.append(f"{_plural(number, 'id')} {span_runs(spans)}: probability {p}{each}")
        if self.method:
            shown.append(f"worked out {self.method}")
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
    spans: list[tuple[int, int]] = []
    for number in ids:
        if spans and spans[-1][1] == number:
            spans[-1] = (spans[-1][0], number + 1)
        else:
            spans.append((number, number + 1))
    return span_runs(spans, most)


def span_runs(spans: Sequence[tuple[int, int]], most: int = 6) -> str:
    """Sorted spans ``(first, stop)`` of IDs as ranges, at most ``most`` then a count.

    >>> span_runs([(0, 3), (3, 4), (5, 6)])
    '0..3, 5'
    """
    parts: list[str] = []
    joined: list[tuple[int, int]] = []
    for first, stop in spans:
        if joined and joined[-1][1] == first:
            joined[-1] = (joined[-1][0], stop)
        else:
            joined.append((first, stop))
    parts = [str(first) if stop == first + 1 else f"{first}..{stop - 1}"
             for first, stop in joined]
    if len(parts) > most:
        return f"{', '.join(parts[:most])}, ... ({len(parts) - most} more)"
    return ", ".join(parts)


def distribution(procedure: Procedure, name: str | None = None) -> Distribution:
    """The exact distribution of ``procedure``'s IDs (``name``: for errors).

    By counting when the draws are independent (no ``cases``, each reject
    condition on one key), else state by state (see the module).

    >>> from solver.draws.dice import dice
    >>> d = distribution(dice(960, 10).procedure())
    >>> d.uniform, d.restart, d.probabilities[0]
    (True, Fraction(1, 25), Fraction(1, 960))
    >>> d.method
    'by counting (at most 1 run of equally likely numbers)'
    >>> distribution(dice(8_294_400, 10).procedure()).uniform  # Placement's count
    True

    Raises :class:`~solver.errors.ProcedureError` when an outcome gives no ID
    and is not started over, when every outcome starts over, or when the
    procedure takes more than :data:`MAX_WORK` steps or :data:`MAX_STATES`
    states (state by state: counted before they are made).
    """
    shown = name or procedure.name
    if not any(draw.cases for draw in procedure.draws) and all(
            len(condition) == 1 for condition in procedure.reject):
        return _by_counting(procedure, shown)
    return _state_by_state(procedure, shown)


def _by_counting(procedure: Procedure, shown: str) -> Distribution:
    """:func:`distribution` of independent draws: the number's runs, spread draw by draw."""
    narrowed: dict[str, list[tuple[int, int]]] = {}
    for condition in procedure.reject:
        key, low, high = condition[0]
        if key != "number":
            narrowed.setdefault(key, []).append((low, high))
    runs_now: list[Run] = [(0, 1, 1)]
    denominator = 1
    spread = _Spread(shown)
    # independent draws may be added in any order: the lightest first keeps a die's
    # rolls read as digits one run
    for draw, weight in sorted(zip(procedure.draws, procedure.weights, strict=True),
                               key=lambda pair: abs(pair[1])):
        denominator *= draw.high - draw.low + 1
        faces = [(low, high - 1) for low, high, _ in _cut(
            [(draw.low, draw.high + 1, 1)], narrowed.get(draw.name, []))[0]]
        runs_now = spread.add(runs_now, faces, weight)
    runs_now = [(first + procedure.offset, stop + procedure.offset, mass)
                for first, stop, mass in runs_now]
    kept, _ = _cut(runs_now, [(low, high) for c in procedure.reject
                                     for key, low, high in c if key == "number"])
    accepted = sum((stop - first) * mass for first, stop, mass in kept)
    if procedure.remainder:
        by_id = spread.folded(kept, procedure.count)
    else:
        by_id, stray = _cut(kept, [(0, procedure.count - 1)], inside=False)
        if stray:
            numbers = sum(stop - first for first, stop, _ in stray)
            mass = sum((stop - first) * m for first, stop, m in stray)
            raise _stray_error(procedure, shown, stray[0][0], numbers,
                               Fraction(mass, denominator))
    restarted = denominator - accepted
    most = f"{spread.most:,} run{'s' if spread.most != 1 else ''}"
    return _finish(procedure, shown, by_id, denominator, restarted,
                   f"by counting (at most {most} of equally likely numbers)")


class _Spread:
    """Spreads runs of numbers over a draw's faces, counting the work as it goes."""

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.work = 0
        self.most = 1

    def _spent(self, steps: int) -> None:
        self.work += steps
        if self.work > MAX_WORK:
            raise ProcedureError(self.shown, f"more than {MAX_WORK:,} steps of work counting "
                                             f"(every face of each draw from every run of "
                                             f"equally likely numbers): too large to work "
                                             f"out exactly here")

    def add(self, runs_now: list[Run], faces: list[tuple[int, int]], weight: int) -> list[Run]:
        """``runs_now`` with a draw of weight ``weight`` added, its faces the ranges ``faces``."""
        changes: dict[int, int] = {}

        def put(first: int, stop: int, mass: int) -> None:
            changes[first] = changes.get(first, 0) + mass
            changes[stop] = changes.get(stop, 0) - mass

        for first, stop, mass in runs_now:
            for low, high in faces:
                if weight == 0:
                    put(first, stop, mass * (high - low + 1))
                elif abs(weight) == stop - first:  # the copies abut: one run
                    least = first + min(weight * low, weight * high)
                    put(least, least + (stop - first) * (high - low + 1), mass)
                else:
                    self._spent(high - low + 1)
                    for face in range(low, high + 1):
                        put(first + weight * face, stop + weight * face, mass)
            self._spent(len(faces))
        return self._swept(changes)

    def _swept(self, changes: dict[int, int]) -> list[Run]:
        """The runs that the changes of mass at each number make."""
        found: list[Run] = []
        mass = 0
        points = sorted(changes)
        self._spent(len(points))
        for at, following in itertools.pairwise(points):
            mass += changes[at]
            if not mass:
                continue
            if found and found[-1][1] == at and found[-1][2] == mass:
                found[-1] = (found[-1][0], following, mass)
            else:
                found.append((at, following, mass))
        if len(found) > MAX_STATES:
            raise ProcedureError(self.shown, f"more than {MAX_STATES:,} runs of equally "
                                             f"likely numbers: too large to work out "
                                             f"exactly here")
        self.most = max(self.most, len(found))
        return found

    def folded(self, kept: list[Run], count: int) -> list[Run]:
        """The runs of IDs that numbers' remainders divided by ``count`` make."""
        changes: dict[int, int] = {0: 0, count: 0}
        for first, stop, mass in kept:
            laps, extra = divmod(stop - first, count)
            if laps:
                changes[0] += mass * laps
                changes[count] -= mass * laps
            start = first % count
            for low, high in ((start, min(start + extra, count)),
                              (0, max(start + extra - count, 0))):
                if high > low:
                    changes[low] = changes.get(low, 0) + mass
                    changes[high] = changes.get(high, 0) - mass
        return self._swept(changes)


def _cut(found: Sequence[Run], ranges: Sequence[tuple[int, int]], *, inside: bool = True
         ) -> tuple[list[Run], list[Run]]:
    """``found`` split by ``ranges`` (``(low, high)``, both included): the pieces
    outside them and the pieces inside (``inside=False``: the other way round).

    >>> _cut([(0, 10, 1)], [(2, 3), (8, 20)])
    ([(0, 2, 1), (4, 8, 1)], [(2, 4, 1), (8, 10, 1)])
    """
    merged = _merged(ranges)
    highs = [high for _, high in merged]
    outside: list[Run] = []
    within: list[Run] = []
    for first, stop, mass in found:
        at = first
        for low, high in itertools.islice(merged, bisect.bisect_left(highs, first), None):
            if low >= stop:
                break
            if low > at:
                outside.append((at, low, mass))
            within.append((max(at, low), min(stop, high + 1), mass))
            at = min(stop, high + 1)
        if at < stop:
            outside.append((at, stop, mass))
    return (outside, within) if inside else (within, outside)


def _merged(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` (both ends included) sorted, those that touch or overlap joined."""
    merged: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def _stray_error(procedure: Procedure, shown: str, first: int, numbers: int,
                 chance: Fraction) -> ProcedureError:
    others = f" (and {numbers - 1:,} other numbers)" if numbers > 1 else ""
    return ProcedureError(shown, f"the number {first}{others} is no id of "
                                 f"0..{procedure.count - 1} and does not start over "
                                 f"(probability {chance})")


def _finish(procedure: Procedure, shown: str, by_id: list[Run], denominator: int,
            restarted: int, method: str) -> Distribution:
    """The distribution from the mass of each ID (runs), the IDs left out starting over."""
    count = procedure.count
    by_id, left_out = _cut(by_id, procedure.exclude)
    restarted += sum((stop - first) * mass for first, stop, mass in left_out)
    ended = denominator - restarted
    if ended == 0:
        raise ProcedureError(shown, "every outcome starts over: it never ends")
    # every ID in a span; the IDs left out apart from the others
    bounds = sorted({0, count, *(b for first, stop, _ in by_id for b in (first, stop)),
                     *(b for low, high in procedure.exclude for b in (low, high + 1))})
    mass_at = {first: mass for first, stop, mass in by_id}
    ends = {first: stop for first, stop, mass in by_id}
    chances: dict[int, Fraction] = {}  # one Fraction per distinct mass
    spans: list[tuple[int, int, Fraction]] = []
    edges = {b for low, high in procedure.exclude for b in (low, high + 1)}
    at, mass = 0, 0
    for point, following in itertools.pairwise(bounds):
        if point in mass_at:
            at, mass = ends[point], mass_at[point]
        elif point >= at:
            mass = 0
        p = chances.get(mass)
        if p is None:
            p = chances[mass] = Fraction(mass, ended)
        if spans and spans[-1][2] is p and point not in edges:
            spans[-1] = (spans[-1][0], following, p)
        else:
            spans.append((point, following, p))
    return Distribution(count, tuple(spans), Fraction(restarted, denominator),
                        tuple(procedure.exclude), method)


def _state_by_state(procedure: Procedure, shown: str) -> Distribution:
    """:func:`distribution` following every face from every state.

    Draws are followed in order, keeping only what later steps look at (the
    draws a case or a reject condition names, and the sum so far), with
    integer weights over one common denominator, so equal states merge.
    """
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
    most = 1
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
        most = max(most, len(states))
    return _ending(procedure, shown, names, states, denominator,
                   f"state by state (at most {_plural(most, 'state')})")



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
            states: Mapping[tuple[tuple[int, ...], int], int], denominator: int,
            method: str) -> Distribution:
    """The distribution once every draw is made (see :func:`_state_by_state`)."""
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
        raise _stray_error(procedure, shown, min(stray), len(stray),
                           Fraction(sum(stray.values()), denominator))
    by_id: list[Run] = []
    for number, mass in enumerate(masses):
        if by_id and by_id[-1][2] == mass:
            by_id[-1] = (by_id[-1][0], number + 1, mass)
        else:
            by_id.append((number, number + 1, mass))
    return _finish(procedure, shown, [r for r in by_id if r[2]], denominator, restarted,
                   method)


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
                                     f"(uniform: 1/{found.left})", groups, found.count)
    return None

