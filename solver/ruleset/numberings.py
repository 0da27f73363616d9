"""A rule file's further numberings: the ``[[numberings]]`` tables, read as data.

Each table declares one numbering that a program uses for the family, with its
source; :mod:`solver.numbering.schemes` turns it into numbers and labels and
``chess960 check`` proves it. Only data is read here: steps are parsed by
:func:`~solver.syntax.steps.parse_steps`, labels are templates with named
fields (no expression is evaluated), tables are lists of positions.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from solver.errors import StepSyntaxError, quote
from solver.syntax.args import MAX_ITEMS, shown, suggest, type_name
from solver.syntax.args import key_error as _err
from solver.syntax.steps import parse_steps

__all__ = ["EVIDENCE", "PAIR_ORDERS", "NumberingSpec", "read_numberings", "refuse_orders"]

PairOrder = Literal["white-major", "black-major"]

#: Which side's rank is the more significant digit of an independent pair's number.
PAIR_ORDERS: Final = ("white-major", "black-major")

#: What a numbering's source gives to prove it by: the rule itself (a formula
#: or a program's code, re-derived in the tests), a whole table of positions,
#: or only published examples.
EVIDENCE: Final = ("definition", "table", "example")

#: The fields a label template may use.
LABEL_FIELDS: Final = ("number", "white", "black", "rights")

_KEYS: Final = ("name", "title", "source", "evidence", "steps", "pairs", "first", "cyclic",
                "period", "label", "same-label", "rights-labels", "table", "examples",
                "side-family", "path", "step-paths", "most-significant")
_NAME_RE: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
_MAX_NUMBERINGS: Final = 32
_MAX_TEXT: Final = 400
_MAX_TABLE: Final = 100_000


@dataclass(frozen=True)
class NumberingSpec:
    """One further numbering as a rule file declares it (see ``rules/README.md``)."""

    name: str
    title: str
    source: str
    evidence: str = "definition"
    #: Placement steps giving the order (``()``: the family's own order).
    steps: tuple[str, ...] = ()
    #: For independent sides: which side's number is more significant.
    pairs: PairOrder = "white-major"
    #: The number of the first position.
    first: int = 0
    #: Whether numbers count round: ``first .. first + period - 1`` within each
    #: block of ``period`` positions, each congruent to its place modulo the
    #: period (Scidb: 1..960, 960 standing for 0).
    cyclic: bool = False
    #: The block length of cyclic numbers (``0``: the whole family).
    period: int = 0
    #: A label template (``"FRC {number}"``, ``"DFRC {white}:{black}"``), or ``""``.
    label: str = ""
    #: The label of a pair whose sides have the same number (TCEC's ``FRC 518``).
    same_label: str = ""
    #: How a label writes ``{rights}``: (rights, text) for the rights named (X-FEN
    #: letters, ``-`` for none, ``*`` for any other, whose text may use
    #: ``{rights}``); ``()``: the letters themselves. TCEC writes nothing for
    #: ``KQkq``, `` no castling`` for ``-`` and `` <letters>`` otherwise.
    rights_labels: tuple[tuple[str, str], ...] = ()
    #: Positions in numbering order, one a line (ranks, pairs or start FENs).
    table: tuple[str, ...] = ()
    #: Published examples: (position, number or label).
    examples: tuple[tuple[str, str], ...] = ()
    #: A bundled family whose own numbering numbers each side (``side-family``:
    #: TCEC numbers Chess324's sides by their Chess960 SP-IDs), or ``""``.
    side_family: str = ""
    #: The region's squares in the order the steps take them (``()``: the region's order).
    path: tuple[str, ...] = ()
    #: Steps that take squares in an order of their own: (step, squares in order).
    step_paths: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: The steps' digits from the most significant to the least, as step
    #: indices (``()``: the first step the least significant, the default).
    digit_order: tuple[int, ...] = ()

    def step_orders(self, names: Sequence[str]) -> tuple[tuple[int, ...] | None, ...]:
        """Each step's order of the region's squares (region indices), for
        :class:`~solver.syntax.steps.Numbering`'s ``paths``: a step's own
        path first, then the numbering's path, then the region's order."""
        index = {name: i for i, name in enumerate(names)}
        common = tuple(index[n] for n in self.path) if self.path else None
        own = dict(self.step_paths)
        out: list[tuple[int, ...] | None] = []
        for step in self.steps:
            mine = own.get(step)
            if mine is None:
                out.append(common)
                continue
            first = [index[n] for n in mine]
            rest = [i for i in (common or range(len(names))) if i not in first]
            out.append((*first, *rest))
        return tuple(out)


def _squares(value: object, key: str, path: str, names: Sequence[str] | None,
             whole: bool) -> tuple[str, ...]:
    """Square names written as an array or a string (``"e2 f2 g2"``)."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value) \
            or len(value) > MAX_ITEMS:
        raise _err(path, key, f"expected square names such as \"e2 f2\", got {shown(value)}")
    squares = tuple(v.lower() for v in value)
    if names is not None:
        for square in squares:
            if square not in names:
                raise _err(path, key, f"{quote(square)} is not a square of the family's region "
                                      f"({' '.join(names)})")
    if len(set(squares)) != len(squares):
        raise _err(path, key, "a square is listed twice")
    if whole and names is not None and len(squares) != len(names):
        raise _err(path, key, f"{len(squares)} squares, but a path lists every square of the "
                              f"region ({len(names)})")
    return squares


StepPaths = tuple[tuple[str, tuple[str, ...]], ...]


def _paths(table: Mapping[str, Any], where: str, path: str, names: Sequence[str] | None,
           steps: tuple[str, ...]) -> tuple[tuple[str, ...], StepPaths]:
    """``path`` and ``step-paths``, which need the numbering's own steps."""
    if ("path" in table or "step-paths" in table) and not steps:
        raise _err(path, f"{where}.path", "a path orders the squares of placement steps: "
                                          "give the numbering's steps")
    whole = _squares(table["path"], f"{where}.path", path, names, True) \
        if "path" in table else ()
    own: list[tuple[str, tuple[str, ...]]] = []
    raw = table.get("step-paths", {})
    if not isinstance(raw, dict):
        raise _err(path, f"{where}.step-paths", "expected a table of step = squares")
    for step, squares in raw.items():
        if step not in steps:
            raise _err(path, f"{where}.step-paths.{step}", f"{quote(step)} is not one of the "
                                                           f"steps {', '.join(steps)}")
        own.append((step, _squares(squares, f"{where}.step-paths.{step}", path, names, False)))
    return whole, tuple(own)


def read_numberings(doc: Mapping[str, Any], pieces: str | None, path: str,
                    independent: bool, names: Sequence[str] | None = None
                    ) -> tuple[NumberingSpec, ...]:
    """The ``[[numberings]]`` tables of a rule file, checked key by key."""
    tables = doc.get("numberings", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise _err(path, "numberings", f"expected an array of tables, got {type_name(tables)}: "
                                       "write [[numberings]]")
    if len(tables) > _MAX_NUMBERINGS:
        raise _err(path, "numberings",
                   f"{len(tables)} numberings, more than the limit of {_MAX_NUMBERINGS}")
    specs: list[NumberingSpec] = []
    for index, table in enumerate(tables, 1):
        spec = _read_one(table, pieces, f"numberings[{index}]", path, independent, names)
        if any(s.name == spec.name for s in specs):
            raise _err(path, f"numberings[{index}].name", f"{quote(spec.name)} is declared twice")
        specs.append(spec)
    return tuple(specs)


def _text(table: Mapping[str, Any], key: str, where: str, path: str, default: str | None = None
          ) -> str:
    value = table.get(key, default)
    if value is None:
        raise _err(path, f"{where}.{key}", "missing")
    if not isinstance(value, str):
        raise _err(path, f"{where}.{key}", f"expected a string, got {type_name(value)} "
                                           f"{shown(value)}")
    if len(value) > _MAX_TEXT or any(ord(c) < 32 or 127 <= ord(c) < 160 for c in value):
        raise _err(path, f"{where}.{key}", f"{quote(value)} is longer than {_MAX_TEXT} "
                                           "characters or has a control character")
    return value


def _int(table: Mapping[str, Any], key: str, where: str, path: str, least: int) -> int:
    value = table.get(key, least)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _err(path, f"{where}.{key}", f"expected an integer, got {type_name(value)} "
                                           f"{shown(value)}")
    if not least <= value <= 10**30:
        raise _err(path, f"{where}.{key}", f"{value} is out of range {least}..10**30")
    return value


def _bool(table: Mapping[str, Any], key: str, where: str, path: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise _err(path, f"{where}.{key}", f"expected true or false, got {type_name(value)} "
                                           f"{shown(value)}")
    return value


def _choice(table: Mapping[str, Any], key: str, where: str, path: str,
            allowed: tuple[str, ...]) -> str:
    value = _text(table, key, where, path, allowed[0])
    if value not in allowed:
        raise _err(path, f"{where}.{key}", f"unknown value {quote(value)}; expected one of "
                                           f"{', '.join(allowed)}", suggest(value, allowed))
    return value


def _label(table: Mapping[str, Any], key: str, where: str, path: str) -> str:
    text = _text(table, key, where, path, "")
    try:
        fields = [f for _, f, spec, conv in string.Formatter().parse(text)
                  if f is not None and not spec and not conv]
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise _err(path, f"{where}.{key}", f"{quote(text)} is not a template: {exc}") from None
    for _, field, spec, conv in parsed:
        if field is not None and (field not in LABEL_FIELDS or spec or conv):
            raise _err(path, f"{where}.{key}",
                       f"{quote(text)} has the field {{{field}{'!' + conv if conv else ''}"
                       f"{':' + spec if spec else ''}}}; fields are "
                       + ", ".join(f"{{{f}}}" for f in LABEL_FIELDS))
    if text and not fields:
        raise _err(path, f"{where}.{key}", f"{quote(text)} has no field; fields are "
                                           + ", ".join(f"{{{f}}}" for f in LABEL_FIELDS))
    return text


def _strings(table: Mapping[str, Any], key: str, where: str, path: str, most: int
             ) -> tuple[str, ...]:
    """An optional non-empty array of at most ``most`` strings (``()`` when absent)."""
    if key not in table:
        return ()
    raw = table[key]
    if not isinstance(raw, list) or not raw or not all(isinstance(s, str) for s in raw) \
            or len(raw) > most:
        raise _err(path, f"{where}.{key}", f"expected a non-empty array of up to {most:,} "
                                           f"strings, got {type_name(raw)} {shown(raw)}")
    return tuple(raw)


def _read_one(table: Mapping[str, Any], pieces: str | None, where: str, path: str,
              independent: bool, names: Sequence[str] | None = None) -> NumberingSpec:
    for key in table:
        if key not in _KEYS:
            raise _err(path, f"{where}.{key}", f"unknown key {quote(key)}", suggest(key, _KEYS))
    name = _text(table, "name", where, path)
    if not _NAME_RE.fullmatch(name):
        raise _err(path, f"{where}.name", f"{quote(name)} is not a numbering name "
                                          "(lower-case letters, digits and '-', up to 40)")
    steps = _strings(table, "steps", where, path, MAX_ITEMS)
    if steps and pieces is not None:
        try:
            parse_steps(steps, pieces)
        except StepSyntaxError as exc:
            raise _err(path, f"{where}.steps[{exc.index + 1}]", str(exc)) from None
    pairs = _choice(table, "pairs", where, path, PAIR_ORDERS)
    if pairs != "white-major" and not independent:
        raise _err(path, f"{where}.pairs", "a pair order needs sides = \"independent\"")
    label = _label(table, "label", where, path)
    same = _label(table, "same-label", where, path)
    if (("{white}" in label or "{black}" in label or same) and not independent):
        raise _err(path, f"{where}.label", "{white}, {black} and same-label need "
                                           "sides = \"independent\"")
    rows = _strings(table, "table", where, path, _MAX_TABLE)
    if rows and steps:
        raise _err(path, f"{where}.table", "a numbering has steps or a table, not both")
    examples: list[tuple[str, str]] = []
    raw_examples = table.get("examples", {})
    if not isinstance(raw_examples, dict) or len(raw_examples) > MAX_ITEMS:
        raise _err(path, f"{where}.examples", "expected a table of position = number or label")
    for position, given in raw_examples.items():
        shown_number = str(given) if isinstance(given, int) and not isinstance(given, bool) \
            else given
        if not isinstance(shown_number, str):
            raise _err(path, f"{where}.examples.{position}",
                       f"expected a number or a label, got {type_name(given)}")
        examples.append((position, shown_number))
    whole, own = _paths(table, where, path, names, steps)
    evidence = _choice(table, "evidence", where, path, EVIDENCE)
    if evidence == "example" and not examples:
        raise _err(path, f"{where}.examples", "evidence = \"example\" needs the examples")
    return NumberingSpec(
        name=name, title=_text(table, "title", where, path, name),
        source=_text(table, "source", where, path), evidence=evidence, steps=steps,
        pairs=pairs,  # type: ignore[arg-type]
        first=_int(table, "first", where, path, 0), cyclic=_bool(table, "cyclic", where, path),
        period=_int(table, "period", where, path, 0), label=label, same_label=same,
        rights_labels=_rights_labels(table, where, path, label, same),
        table=rows, examples=tuple(examples),
        side_family=_side_family(table, where, path, independent, steps),
        path=whole, step_paths=own, digit_order=_digit_order(table, where, path, steps))


def _digit_order(table: Mapping[str, Any], where: str, path: str, steps: tuple[str, ...]
                 ) -> tuple[int, ...]:
    """``most-significant``: the steps named, most significant digit first,
    then the others, the last the most significant (step indices).

    >>> _digit_order({"most-significant": "K"}, "n", "f.toml", ("Q", "K", "RR"))
    (1, 2, 0)
    >>> _digit_order({}, "n", "f.toml", ("Q", "K", "RR"))
    ()
    """
    if "most-significant" not in table:
        return ()
    key = f"{where}.most-significant"
    raw = table["most-significant"]
    named = [raw] if isinstance(raw, str) else raw
    if not isinstance(named, list) or not named or not all(isinstance(n, str) for n in named) \
            or len(named) > MAX_ITEMS:
        raise _err(path, key, f"expected a step or an array of steps, most significant first, "
                              f"got {type_name(raw)} {shown(raw)}")
    if not steps:
        raise _err(path, key, "a digit order orders placement steps: give the numbering's steps")
    order: list[int] = []
    for step in named:
        if step not in steps:
            raise _err(path, key, f"{quote(step)} is not one of the steps {', '.join(steps)}",
                       suggest(step, steps))
        if steps.count(step) > 1:
            raise _err(path, key, f"{quote(step)} stands twice in the steps: the digit order "
                                  "cannot tell them apart")
        if steps.index(step) in order:
            raise _err(path, key, f"{quote(step)} is named twice")
        order.append(steps.index(step))
    return (*order, *(i for i in reversed(range(len(steps))) if i not in order))


_RIGHTS_KEY_RE: Final = re.compile(r"[A-LKQa-lkq]{1,16}|-|\*")


def _rights_labels(table: Mapping[str, Any], where: str, path: str, label: str, same: str
                   ) -> tuple[tuple[str, str], ...]:
    """``rights-labels``: how a label writes the castling rights, by the rights."""
    if "rights-labels" not in table:
        return ()
    key = f"{where}.rights-labels"
    raw = table["rights-labels"]
    if not isinstance(raw, dict) or not raw or len(raw) > MAX_ITEMS:
        raise _err(path, key, "expected a table of rights = text, such as "
                              "{ KQkq = \"\", \"-\" = \" no castling\", \"*\" = \" {rights}\" }")
    if "{rights}" not in label + same:
        raise _err(path, key, "rights-labels needs a label with the field {rights}")
    out: list[tuple[str, str]] = []
    for rights in raw:
        if not _RIGHTS_KEY_RE.fullmatch(rights) or len(set(rights)) != len(rights):
            raise _err(path, f"{key}.{rights}", f"{quote(rights)} is not castling rights: "
                                                "X-FEN letters such as KQkq, '-' for none, "
                                                "or '*' for any other")
        text = _text(raw, rights, key, path)
        try:
            fields = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(text)
                      if f is not None]
        except ValueError as exc:
            raise _err(path, f"{key}.{rights}", f"{quote(text)} is not a template: {exc}"
                       ) from None
        if any(rights != "*" or f != "rights" or spec or conv for f, spec, conv in fields):
            raise _err(path, f"{key}.{rights}", f"{quote(text)} has a field; only '*' may "
                                                "use one, {rights}")
        out.append((rights, text))
    texts = [text for rights, text in out if rights != "*"]
    if len(set(texts)) != len(texts):
        raise _err(path, key, "two rights are written alike: a label could not be read back")
    return tuple(out)


def _side_family(table: Mapping[str, Any], where: str, path: str, independent: bool,
                 steps: tuple[str, ...]) -> str:
    """``side-family``: the bundled family whose ids number the sides."""
    if "side-family" not in table:
        return ""
    name = _text(table, "side-family", where, path)
    if not _NAME_RE.fullmatch(name):
        raise _err(path, f"{where}.side-family", f"{quote(name)} is not a family's name")
    if not independent or steps:
        raise _err(path, f"{where}.side-family", "side-family needs sides = \"independent\" "
                                                 "and no steps of its own")
    return name


def refuse_orders(path: str, steps: object) -> None:
    """``[numbering] steps`` may not list orders (``"RKR|RRK"``): only a further numbering's."""
    if isinstance(steps, list):
        for index, text in enumerate(steps, 1):
            if isinstance(text, str) and "|" in text:
                raise _err(path, f"numbering.steps[{index}]", f"step {text!r} lists orders; "
                                 "only a further numbering's steps may ([[numberings]])")
