"""Rule sets as data: reading ``rules/*.toml`` into a frozen :class:`RuleSet`.

Loading goes tomllib → validation → frozen dataclass. Nothing in a rule file
is executed: its strings are only compared with the fixed vocabulary in
:mod:`solver.kinds.vocabulary`. Every error names the file and the key, with "did
you mean" for near misses. The format is documented in ``rules/README.md``.

Errors name keys as dotted paths: ``files``, ``numbering.steps[2]``,
``rule[3].pieces`` (``[[rule]]`` tables and steps are counted from 1).

The text is first held to the limits of :mod:`solver.ruleset.limits` (the
limits and :func:`~solver.ruleset.limits.prescan` are re-exported here); the
board's keys are read by :mod:`solver.ruleset.board_keys`, each rule's arguments by
:mod:`solver.ruleset.args`.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from math import isqrt
from pathlib import Path
from typing import Any, Final, Literal

from solver.board.geometry import (
    MAX_FILES,
    MIN_FILES,
    PIECE_NAMES,
    STANDARD_PAWNS,
    STANDARD_RANKS,
    Front,
    Layout,
    Region,
)
from solver.errors import RuleFileError, StepSyntaxError, UnknownRuleSetError, quote
from solver.kinds.vocabulary import OnFiles, Rule, inexact, read_rule
from solver.numbering.steps import Numbering, Step, default_steps, parse_steps
from solver.ruleset.args import MAX_ITEMS, Context, shown, suggest, type_name
from solver.ruleset.args import key_error as _err
from solver.ruleset.args import required as _required
from solver.ruleset.board_keys import (
    NOTATIONS,
    Sides,
    read_board,
    read_declared,
    read_front,
    read_notation,
    read_region,
)
from solver.ruleset.bundled import NAME_RE, bundled_path, rules_folder
from solver.ruleset.limits import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_KEY_PARTS,
    MAX_RULES,
    MAX_STRING,
    MAX_WORD,
    prescan,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_KEY_PARTS",
    "MAX_RULES",
    "MAX_STRING",
    "MAX_WORD",
    "NOTATIONS",
    "REFERENCES",
    "NumberingKind",
    "RuleSet",
    "Sides",
    "bundled_names",
    "load",
    "load_file",
    "parse",
    "prescan",
    "rules_dir",
]

NumberingKind = Literal["arithmetic", "enumerated"]

#: Published formulas a family may name as the reference its numbering must match.
REFERENCES: Final = ("scharnagl",)

_TOP_KEYS: Final = ("name", "title", "source", "files", "ranks", "region", "pieces", "count",
                    "sides", "pawns", "white", "piece", "front", "notation", "variant", "benchmark",
                    "rule", "numbering")
_NUMBERING_KEYS: Final = ("steps", "kind", "reference")
_LINE_RE: Final = re.compile(r"at line (\d+)")


@dataclass(frozen=True)
class RuleSet:
    """A start-position family, as declared in a rule file."""

    name: str
    title: str
    source: str
    #: The board's width (``files`` in the rule file).
    files: int
    #: How many squares the pieces fill (a rank string's length): the width,
    #: or the number of the region's squares.
    region_size: int
    pieces: str
    count: int
    rules: tuple[Rule, ...]
    steps: tuple[str, ...]
    numbering: NumberingKind
    sides: Sides = "mirror"
    reference: str | None = None
    variant: str | None = None
    benchmark: bool = False
    path: str = "<memory>"
    ranks: int = STANDARD_RANKS
    pawns: int | None = STANDARD_PAWNS
    #: White's fixed army (``sides = "white-fixed"``), rank 1 first, ``" "`` empty.
    fixed: tuple[str, ...] = ()
    #: The family's own piece letters with their names.
    names: tuple[tuple[str, str], ...] = ()
    #: Pieces standing one rank in front of the rank's pieces.
    front: tuple[Front, ...] = ()
    notation: str = "fen"
    #: The region's squares when it is not the first rank (see :attr:`region`).
    squares: tuple[tuple[int, int], ...] = ()

    @cached_property
    def region(self) -> Region:
        """The squares the pieces fill, in the order of a rank's letters.

        >>> load("chess960").region.names[-1]
        'h1'
        """
        return Region(self.squares) if self.squares else Region.rank_of(self.region_size)

    @property
    def layout(self) -> Layout:
        """The whole start board around the family's ranks.

        >>> load("chess960").layout.standard
        True
        """
        return Layout(self.files, self.ranks, self.pawns, self.sides, self.fixed,
                      self.front, self.names, self.notation, self.squares)

    @property
    def side_count(self) -> int:
        """How many ranks one side has (``count``, or its square root).

        >>> load("dfrc").side_count
        960
        """
        if self.sides != "independent":
            return self.count
        return isqrt(self.count)

    @property
    def piece_counts(self) -> Counter[str]:
        return Counter(self.pieces)

    def allowed_files(self) -> dict[str, frozenset[int]]:
        """Files each piece may stand on, from the ``on-files`` kinds of rule."""
        allowed: dict[str, frozenset[int]] = {}
        file_of = self.region.file_of
        for rule in self.rules:
            if isinstance(rule, OnFiles):
                mine = frozenset(f for f in range(self.region_size) if rule.allowed(file_of[f]))
                allowed[rule.piece] = allowed.get(rule.piece, mine) & mine
        return allowed

    def step_numbering(self) -> Numbering:
        """The numbering by this family's placement steps (without enumeration)."""
        return Numbering(self.region_size, self.pieces, self.steps, self.allowed_files(), self.name,
                         self.region.colours)


def rules_dir() -> Path:
    """The directory of the bundled rule files.

    Inside an installed wheel they sit in the package (``solver/rules``); in a
    source checkout or an editable install, beside it (``rules/``).
    """
    return Path(rules_folder())


def bundled_names() -> list[str]:
    """The names of the bundled families, sorted.

    >>> "chess960" in bundled_names()
    True
    """
    return sorted(p.stem for p in rules_dir().glob("*.toml"))


def load(name_or_path: str) -> RuleSet:
    """Load a bundled family by name, or a rule file by path.

    >>> load("chess960").count
    960
    """
    bundled = bundled_path(name_or_path)
    if bundled is not None:
        return load_file(Path(bundled), display=f"rules/{name_or_path}.toml")
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.is_file() or "/" in name_or_path:
        return load_file(path)
    known = bundled_names()
    raise UnknownRuleSetError(name_or_path, suggest(name_or_path, known), known)


def load_file(path: Path, display: str | None = None) -> RuleSet:
    """Read and validate one rule file."""
    shown = display or str(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RuleFileError(shown, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise RuleFileError(shown, f"larger than {MAX_FILE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuleFileError(shown, f"not UTF-8 text (byte {exc.start})") from None
    return parse(text, shown)


def parse(text: str, path: str = "<string>") -> RuleSet:
    """Read a rule set from TOML text; ``path`` names it in errors.

    The text is first scanned for the limits tomllib does not keep (see
    :func:`~solver.ruleset.limits.prescan`), so that any text is read or
    refused in bounded time.
    """
    if len(text) > MAX_FILE_BYTES:
        raise RuleFileError(path, f"larger than {MAX_FILE_BYTES:,} bytes")
    prescan(text, path)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _LINE_RE.search(str(exc))
        line = int(found.group(1)) if found else None
        reason = str(exc)
        raise RuleFileError(path, f"invalid TOML: {reason[:1].lower()}{reason[1:]}",
                            line=line) from None
    return _validate(doc, path)


def _validate(doc: Mapping[str, Any], path: str) -> RuleSet:
    for key in doc:
        if key not in _TOP_KEYS:
            raise _err(path, key, f"unknown key {quote(key)}", suggest(key, _TOP_KEYS))
    name = _required(doc, "name", str, path)
    if not NAME_RE.fullmatch(name):
        raise _err(path, "name", f"{quote(name)} is not a short lower-case name like 'chess960'")
    title = _text(_required(doc, "title", str, path), "title", path)
    source = _text(_required(doc, "source", str, path), "source", path)
    files = _required(doc, "files", int, path)
    if not MIN_FILES <= files <= MAX_FILES:
        raise _err(path, "files", f"{files} is not in {MIN_FILES}..{MAX_FILES}")
    names, betza = read_declared(doc, path)
    ranks, pawns, sides, fixed = read_board(doc, files, path)
    region = read_region(doc, files, ranks, pawns, sides, path)
    size = files if region is None else len(region.squares)
    pieces = _pieces(_required(doc, "pieces", str, path), size, path, names,
                     "files" if region is None else "squares of the region")
    count = _count(doc, sides, path)
    front = read_front(doc, pieces, names, pawns, path)
    if front and region is not None:
        raise _err(path, "front", "pieces in front of the rank need the region to be rank 1")
    notation = read_notation(doc, path)
    variant = _variant(doc.get("variant"), path)
    benchmark = doc.get("benchmark", False)
    if not isinstance(benchmark, bool):
        raise _err(path, "benchmark",
                   f"expected a boolean, got {type_name(benchmark)} {shown(benchmark)}")

    tables = doc.get("rule", [])
    if not isinstance(tables, list):
        raise _err(path, "rule", f"expected an array of tables, got {type_name(tables)}: "
                                 "write [[rule]]")
    if len(tables) > MAX_RULES:
        raise _err(path, "rule", f"{len(tables):,} rules, more than the limit of {MAX_RULES}")
    counts = Counter(pieces)
    rules = tuple(dict.fromkeys(  # identical rules are one rule
        read_rule(table, Context(path, i, size, counts, names, files, region, pawns, betza))
        for i, table in enumerate(tables, 1)
    ))

    numbering = doc.get("numbering", {})
    if not isinstance(numbering, dict):
        raise _err(path, "numbering", f"expected a table, got {type_name(numbering)}: "
                                      "write [numbering]")
    for key in numbering:
        if key not in _NUMBERING_KEYS:
            raise _err(path, f"numbering.{key}", f"unknown key {quote(key)}",
                       suggest(key, _NUMBERING_KEYS))
    steps, parsed = _steps(numbering, pieces, path)
    kind = numbering.get("kind")
    if kind is not None and kind not in ("arithmetic", "enumerated"):
        raise _err(path, "numbering.kind",
                   f"expected 'arithmetic' or 'enumerated', got {shown(kind)}",
                   suggest(str(kind), ["arithmetic", "enumerated"]))
    reference = numbering.get("reference")
    if reference is not None and reference not in REFERENCES:
        raise _err(path, "numbering.reference", f"unknown reference {shown(reference)}",
                   suggest(str(reference), REFERENCES))
    ruleset = RuleSet(
        name=name, title=title, source=source, files=files, region_size=size, pieces=pieces,
        count=count, rules=rules, steps=steps, numbering="enumerated", sides=sides,
        reference=reference, variant=variant, benchmark=benchmark, path=path, ranks=ranks,
        pawns=pawns, fixed=fixed, names=tuple(names.items()), front=front, notation=notation,
        squares=() if region is None else region.squares,
    )
    if kind == "enumerated":
        return ruleset
    why = _not_arithmetic(ruleset, parsed, "steps" in numbering)
    if why is None:
        return replace(ruleset, numbering="arithmetic")
    if kind == "arithmetic":
        raise _err(path, "numbering.kind", f"'arithmetic' needs placement steps that place "
                                           f"exactly the family's ranks, but {why}; "
                                           "use 'enumerated'")
    return ruleset


_MAX_STEP: Final = 40
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _text(value: str, key: str, path: str) -> str:
    """``value``, refused if it has a control character (a newline, an escape)."""
    found = _CONTROL.search(value)
    if found is not None:
        raise _err(path, key, f"{quote(value)} has a control character "
                              f"{found.group()!r} at {found.start()}")
    return value


def _variant(value: object, path: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise _err(path, "variant", f"expected a string, got {type_name(value)} {shown(value)}")
    return value if value is None else _text(value, "variant", path)


def _not_arithmetic(ruleset: RuleSet, steps: tuple[Step, ...], declared: bool) -> str | None:
    """Why the family's placement steps cannot number it without enumeration."""
    if not declared:
        return "no numbering.steps are declared"
    why = inexact(ruleset.rules, steps)
    if why is not None:
        return why
    return ruleset.step_numbering().uneven


def _count(doc: Mapping[str, Any], sides: str, path: str) -> int:
    count: int = _required(doc, "count", int, path)
    if count < 0:
        raise _err(path, "count", f"{count} is negative")
    if sides == "independent" and isqrt(count) ** 2 != count:
        raise _err(path, "count", f"{count} is not a square, but with independent sides "
                                  "the count is one side's count squared")
    return count


def _pieces(value: str, files: int, path: str, names: Mapping[str, str],
            where: str = "files") -> str:
    letters = value.replace(" ", "").upper()
    for char in letters:
        if char not in PIECE_NAMES and char not in names:
            raise _err(path, "pieces", f"unknown piece {char!r} in {quote(value)}; "
                                       f"pieces are {''.join([*PIECE_NAMES, *names])}")
    if len(letters) != files:
        raise _err(path, "pieces",
                   f"{quote(value)} has {len(letters)} pieces for {files} {where}")
    if letters.count("K") != 1:
        raise _err(path, "pieces", f"{quote(value)} must have exactly one king")
    return letters


def _steps(
    numbering: Mapping[str, Any], pieces: str, path: str
) -> tuple[tuple[str, ...], tuple[Step, ...]]:
    raw = numbering.get("steps")
    if raw is None:
        texts = default_steps(pieces)
        return texts, parse_steps(texts, pieces)
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw) or not raw:
        raise _err(path, "numbering.steps",
                   f"expected a non-empty array of strings, got {shown(raw)}")
    if len(raw) > MAX_ITEMS:
        raise _err(path, "numbering.steps", f"{len(raw):,} steps, more than {MAX_ITEMS:,}")
    for index, text in enumerate(raw, 1):
        if len(text) > _MAX_STEP:
            raise _err(path, f"numbering.steps[{index}]",
                       f"step {quote(text)} is longer than {_MAX_STEP} characters")
    try:
        parsed = parse_steps(raw, pieces)
    except StepSyntaxError as exc:
        raise _err(path, f"numbering.steps[{exc.index + 1}]", str(exc)) from None
    return tuple(raw), parsed
