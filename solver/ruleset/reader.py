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
:mod:`solver.syntax.args`.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar

import solver.kinds.holds  # registers the holds kind
import solver.kinds.listed  # noqa: F401  (registers the only and one-of kinds)
from solver.board.castling_rules import ROOKS, CastlingRule
from solver.board.geometry import (
    EMPTY,
    EXTRA_NAMES,
    MAX_FILES,
    MIN_FILES,
    PIECE_NAMES,
    STANDARD_PAWNS,
    STANDARD_RANKS,
    Front,
    Layout,
    Region,
)
from solver.board.sides import MIRROR, Sides
from solver.errors import (
    ArgumentTypeError,
    InvalidRuleFileError,
    RuleFileError,
    StepSyntaxError,
    UnknownRuleSetError,
    quote,
)
from solver.kinds import squares as _on_squares  # noqa: F401  (registers on-squares)
from solver.kinds.vocabulary import OnFiles, Rule, inexact, read_rule
from solver.ruleset.army_keys import (
    Army,
    SideArmy,
    army_text,
    check_tables,
    read_armies,
    read_army,
    read_link,
)
from solver.ruleset.board_keys import (
    BOARD_NOTATIONS,
    read_board,
    read_declared,
    read_front,
    read_notation,
    read_pychess_castling,
    read_region,
)
from solver.ruleset.bundled import NAME_RE, rules_folder
from solver.ruleset.castling_keys import check_castles_with, read_castles_with, read_castling
from solver.ruleset.hand_keys import read_hand
from solver.ruleset.limits import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_KEY_PARTS,
    MAX_RULES,
    MAX_STRING,
    MAX_WORD,
    prescan,
)
from solver.ruleset.numberings import NumberingSpec, read_numberings, refuse_orders
from solver.ruleset.source import RuleSource
from solver.syntax.args import MAX_ITEMS, Context, shown, suggest, type_name
from solver.syntax.args import key_error as _err
from solver.syntax.args import required as _required
from solver.syntax.steps import Numbering, Step, default_steps, parse_steps

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "BOARD_NOTATIONS",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_KEY_PARTS",
    "MAX_RULES",
    "MAX_STRING",
    "MAX_WORD",
    "REFERENCES",
    "NumberingKind",
    "RuleSet",
    "Sides",
    "bundled_names",
    "load",
    "load_file",
    "load_source",
    "parse",
    "prescan",
    "rules_dir",
]

NumberingKind = Literal["arithmetic", "enumerated"]

#: Published formulas a family may name as the reference its numbering must match.
REFERENCES: Final = ("scharnagl",)

_TOP_KEYS: Final = ("name", "title", "source", "files", "ranks", "region", "pieces", "count",
                    "sides", "pawns", "white", "piece", "front", "notation", "variant", "benchmark",
                    "rule", "numbering", "numberings", "hand", "gating", "castling", "link",
                    "army", "pairings", "castles-with", "covered", "pychess-castling")
_NUMBERING_KEYS: Final = ("steps", "kind", "reference", "name", "title")
_LINE_RE: Final = re.compile(r"at line (\d+)")


@dataclass(frozen=True, repr=False)
class RuleSet:
    """A start-position family, as declared in a rule file (:func:`load`).

    >>> load("chess960")
    <RuleSet 'chess960': 8 files, 960 positions, 2 rules>
    """

    def __repr__(self) -> str:
        rules = len(self.rules)
        return (f"<RuleSet {self.name!r}: {self.files} files, {self.count} positions, "
                f"{rules} rule{'s' if rules != 1 else ''}>")

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
    #: How Black's rank relates to White's (a relation's name is taken too).
    sides: Sides = MIRROR
    reference: str | None = None
    variant: str | None = None
    benchmark: bool = False
    path: str = "<memory>"
    #: The name of the family's own numbering (``[numbering] name``).
    numbering_name: str = "canonical"
    #: What the family's own numbering is called in words (``[numbering] title``).
    numbering_title: str = ""
    #: Further numberings other programs use (``[[numberings]]``).
    numberings: tuple[NumberingSpec, ...] = ()
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
    #: Pieces each side holds in hand at the start (``None``: no hand field).
    hand: str | None = None
    #: Whether the hand's pieces gate in (the castling field lists the gating squares).
    gating: bool = False
    #: Which rooks give castling rights (``castling``; :mod:`solver.board.castling_rules`).
    castling: CastlingRule = ROOKS
    #: An army that varies (``pieces = "K + 7 of NBRQ"``; :attr:`pieces` is then
    #: its frame), with the ``link`` between the sides (:mod:`solver.ruleset.army_keys`).
    army: Army | None = None
    #: The armies a side may have (``[[army]]``, each standing as written;
    #: :attr:`pieces` is then the first army's rank), and which meet
    #: (``pairings``: White's army, Black's, by their places in :attr:`armies`).
    armies: tuple[SideArmy, ...] = ()
    pairings: tuple[tuple[int, int], ...] = ()
    #: The piece the kings castle with, as with a rook (``castles-with``; each
    #: army's own with :attr:`armies`).
    castles_with: str = "R"
    #: The covered start as its publisher writes it (``covered``: a FEN
    #: placement, ``~`` after each covered piece); ``""``: no piece is covered.
    covered: str = ""
    #: How pychess-variants writes the castling field (``pychess-castling``:
    #: ``files`` as its shuffles, ``xfen`` as its fixed starts).
    pychess_castling: str = "files"

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
        castles = "".join(sorted({a.castles_with for a in self.armies})) or self.castles_with
        return Layout(self.files, self.ranks, self.pawns, self.sides, self.fixed,
                      self.front, self.names, self.notation, self.squares, self.hand,
                      self.gating, EMPTY in self.pieces, self.castling, castles, self.covered,
                      self.pychess_castling)

    @property
    def side_count(self) -> int:
        """How many ranks one side has (``count``, or its square root).

        >>> load("dfrc").side_count
        960
        """
        if self.armies:
            return len(self.armies)  # each army stands as written: one rank each
        if self.army is not None and self.army.linked:
            return 0  # linked sides: counted by the army's numbering, not a square root
        return self.sides.side_count(self.count // self.castling.variations)

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
    from pathlib import Path

    return Path(rules_folder())


def bundled_names() -> list[str]:
    """The names of the bundled families, sorted.

    >>> "chess960" in bundled_names()
    True
    """
    return sorted(name[:-len(".toml")] for name in os.listdir(rules_folder())
                  if name.endswith(".toml"))


def load(name_or_path: str) -> RuleSet:
    """Load a bundled family by name, or a rule file by path.

    The file is found and read by :class:`~solver.ruleset.source.RuleSource`:
    only a regular file, at most :data:`MAX_FILE_BYTES` bytes, read once.

    >>> load("chess960").count
    960
    """
    if isinstance(name_or_path, os.PathLike):
        name_or_path = os.fspath(name_or_path)
    if not isinstance(name_or_path, str):
        raise ArgumentTypeError("name_or_path", "a family's name or a path (str)", name_or_path)
    try:
        source = RuleSource.read(name_or_path)
    except LookupError:
        known = bundled_names()
        raise UnknownRuleSetError(name_or_path, suggest(name_or_path, known), known) from None
    return load_source(source)


def load_source(source: RuleSource) -> RuleSet:
    """The rule set in a rule file already read (:meth:`RuleSource.read`)."""
    return decode(source.data, source.shown)


def load_file(path: Path, display: str | None = None) -> RuleSet:
    """Read and validate one rule file (which must be a regular file)."""
    shown = display or str(path)
    return decode(RuleSource.open(str(path), shown).data, shown)


def decode(data: bytes, shown: str) -> RuleSet:
    """The rule set in a rule file's bytes; ``shown`` names it in errors."""
    if len(data) > MAX_FILE_BYTES:
        raise InvalidRuleFileError(shown, f"larger than {MAX_FILE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRuleFileError(shown, f"not UTF-8 text (byte {exc.start})") from None
    return parse(text, shown)


def parse(text: str, path: str = "<string>") -> RuleSet:
    """Read a rule set from TOML text; ``path`` names it in errors.

    The text is first scanned for the limits tomllib does not keep (see
    :func:`~solver.ruleset.limits.prescan`), so that any text is read or
    refused in bounded time.
    """
    if len(text) > MAX_FILE_BYTES:
        raise InvalidRuleFileError(path, f"larger than {MAX_FILE_BYTES:,} bytes")
    prescan(text, path)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _LINE_RE.search(str(exc))
        line = int(found.group(1)) if found else None
        reason = str(exc)
        raise InvalidRuleFileError(path, f"invalid TOML: {reason[:1].lower()}{reason[1:]}",
                                   line=line) from None
    return _validate(doc, path)


#: At most this many mistakes of one rule file are reported (then reading stops).
MAX_PROBLEMS: Final = 10

_T = TypeVar("_T")


class _Problems:
    """The mistakes found in a rule file so far: each check runs, and one that
    fails is noted (its result then ``None``) so that the rest still run."""

    def __init__(self) -> None:
        self.found: list[InvalidRuleFileError] = []

    def check(self, call: Callable[..., _T], *args: Any) -> _T | None:
        try:
            return call(*args)
        except InvalidRuleFileError as exc:
            self.found.append(exc)
            if len(self.found) >= MAX_PROBLEMS:
                raise InvalidRuleFileError.several(self.found) from None
            return None

    def raise_any(self) -> None:
        if self.found:
            raise InvalidRuleFileError.several(self.found)


def _refuse(error: RuleFileError) -> None:
    raise error


def _name(doc: Mapping[str, Any], path: str) -> str:
    name: str = _required(doc, "name", str, path)
    if not NAME_RE.fullmatch(name):
        raise _err(path, "name", f"{quote(name)} is not a short lower-case name like 'chess960'")
    return name


def _files(doc: Mapping[str, Any], path: str) -> int:
    files: int = _required(doc, "files", int, path)
    if not MIN_FILES <= files <= MAX_FILES:
        raise _err(path, "files", f"{files} is not in {MIN_FILES}..{MAX_FILES}")
    return files


def _benchmark(doc: Mapping[str, Any], path: str) -> bool:
    benchmark = doc.get("benchmark", False)
    if not isinstance(benchmark, bool):
        raise _err(path, "benchmark",
                   f"expected a boolean, got {type_name(benchmark)} {shown(benchmark)}")
    return benchmark


def _rule_tables(doc: Mapping[str, Any], path: str) -> list[Any]:
    tables = doc.get("rule", [])
    if not isinstance(tables, list):
        raise _err(path, "rule", f"expected an array of tables, got {type_name(tables)}: "
                                 "write [[rule]]")
    if len(tables) > MAX_RULES:
        raise _err(path, "rule", f"{len(tables):,} rules, more than the limit of {MAX_RULES}")
    return tables


def _numbering(doc: Mapping[str, Any], path: str) -> dict[str, Any]:
    numbering = doc.get("numbering", {})
    if not isinstance(numbering, dict):
        raise _err(path, "numbering", f"expected a table, got {type_name(numbering)}: "
                                      "write [numbering]")
    return numbering


def _kind(numbering: Mapping[str, Any], path: str) -> str | None:
    kind = numbering.get("kind")
    if kind is not None and kind not in ("arithmetic", "enumerated"):
        raise _err(path, "numbering.kind",
                   f"expected 'arithmetic' or 'enumerated', got {shown(kind)}",
                   suggest(str(kind), ["arithmetic", "enumerated"]))
    return kind


def _naming(numbering: Mapping[str, Any], path: str) -> tuple[str, str]:
    """``[numbering]``'s name and title (the family's own numbering among the others)."""
    name = numbering.get("name", "canonical")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", name):
        raise _err(path, "numbering.name", f"{shown(name)} is not a numbering name "
                                           "(lower-case letters, digits and '-', up to 40)")
    title = numbering.get("title", "")
    if not isinstance(title, str):
        raise _err(path, "numbering.title", f"expected a string, got {type_name(title)}")
    return name, _text(title, "numbering.title", path)


def _reference(numbering: Mapping[str, Any], path: str) -> str | None:
    reference = numbering.get("reference")
    if reference is not None and reference not in REFERENCES:
        raise _err(path, "numbering.reference", f"unknown reference {shown(reference)}",
                   suggest(str(reference), REFERENCES))
    return reference


def _read_rules(found: _Problems, doc: Mapping[str, Any], context: Context) -> tuple[Rule, ...]:
    """The ``[[rule]]`` tables' rules, each read on its own (identical rules are one)."""
    tables = found.check(_rule_tables, doc, context.path)
    read: list[Rule] = []
    for i, table in enumerate(tables or (), 1):
        rule = found.check(read_rule, table, replace(context, index=i))
        if rule is not None:
            read.append(rule)
    return tuple(dict.fromkeys(read))


def _read_numbering(
    found: _Problems, numbering: Mapping[str, Any], pieces: str | None, path: str
) -> tuple[str | None, str | None, tuple[tuple[str, ...], tuple[Step, ...]]]:
    """``[numbering]``'s kind, reference and steps (``None`` and no steps when not read)."""
    for key in numbering:
        if key not in _NUMBERING_KEYS:
            found.check(_refuse, _err(path, f"numbering.{key}", f"unknown key {quote(key)}",
                                      suggest(key, _NUMBERING_KEYS)))
    steps = found.check(_steps, numbering, pieces, path) if pieces is not None else None
    return (found.check(_kind, numbering, path), found.check(_reference, numbering, path),
            steps or ((), ()))


def _validate(doc: Mapping[str, Any], path: str) -> RuleSet:
    """The rule set ``doc`` states; every mistake it makes (up to :data:`MAX_PROBLEMS`)
    is reported at once, in one :class:`~solver.errors.RuleFileError` whose
    ``problems`` lists them; a check that needs another key's value is made
    only when that key was read."""
    found = _Problems()
    for key in doc:
        if key not in _TOP_KEYS:
            found.check(_refuse, _err(path, key, f"unknown key {quote(key)}",
                                      suggest(key, _TOP_KEYS)))
    name = found.check(_name, doc, path)
    title = found.check(lambda: _text(_required(doc, "title", str, path), "title", path))
    source = found.check(lambda: _text(_required(doc, "source", str, path), "source", path))
    files = found.check(_files, doc, path)
    declared = found.check(read_declared, doc, path)
    names, betza = declared if declared is not None else ({}, {})
    board = found.check(read_board, doc, files, path, names) if files is not None else None
    castles = found.check(read_castles_with, doc, path)
    region, size, pieces, army, armies = _ranks(found, doc, files, board, declared,
                                                castles or "R", path)
    if castles is not None and pieces is not None and not armies[0]:
        found.check(check_castles_with, castles,
                    pieces if army is None else army.fixed + army.pool, path)
    army = _linked(found, doc, army, board, path)
    paired = bool(armies[0]) or (army is not None and army.linked)
    count = (found.check(_count, doc, MIRROR if paired else board[2], path)
             if board is not None else None)
    front = None
    if pieces is not None and board is not None:
        front = found.check(read_front, doc, pieces, names, board[1], path)
        if front and region is not None:
            found.check(_refuse, _err(path, "front", "pieces in front of the rank need the "
                                                     "region to be rank 1"))
    notation = found.check(read_notation, doc, path)
    pychess_castling = found.check(read_pychess_castling, doc, path)
    variant = found.check(_variant, doc.get("variant"), path)
    benchmark = found.check(_benchmark, doc, path)
    hands = found.check(read_hand, doc, notation or "fen", path)
    covered = found.check(_covered, doc, path)

    rules: tuple[Rule, ...] = ()
    if pieces is not None and board is not None and size is not None and files is not None:
        context = Context(path, 0, size, Counter(pieces), names, files, region, board[1], betza)
        rules = _army_rules(found, doc, context, army)
    numbering = _pool_step(found.check(_numbering, doc, path), army)
    kind, reference, (steps, parsed) = _read_numbering(found, numbering or {}, pieces, path)
    naming, further = _names_and_numberings(found, doc, numbering, pieces, board, files,
                                            region, path)
    castling = found.check(read_castling, doc, files or 8, count, path)
    found.raise_any()
    assert (name is not None and title is not None and source is not None and files is not None
            and board is not None and size is not None and pieces is not None
            and count is not None and notation is not None and benchmark is not None
            and numbering is not None)
    ranks, pawns, sides, fixed = board
    ruleset = RuleSet(
        name=name, title=title, source=source, files=files, region_size=size, pieces=pieces,
        count=count, rules=rules, steps=steps, numbering="enumerated", sides=sides,
        reference=reference, variant=variant, benchmark=benchmark, path=path, ranks=ranks,
        pawns=pawns, fixed=fixed, names=tuple(names.items()), front=front or (),
        notation=notation,
        squares=() if region is None else region.squares,
        numbering_name=naming[0] if naming else "canonical",
        numbering_title=naming[1] if naming else "",
        numberings=further or (),
        hand=hands[0] if hands else None,
        gating=hands[1] if hands else False,
        castling=castling or ROOKS,
        army=army,
        armies=armies[0],
        pairings=armies[1],
        castles_with=castles or "R",
        covered=covered or "",
        pychess_castling=pychess_castling or "files",
    )
    if covered:
        _check_covered(ruleset, path)
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


def _covered(doc: Mapping[str, Any], path: str) -> str:
    """The ``covered`` key: a FEN placement (checked against the board once read)."""
    value = doc.get("covered", "")
    if not isinstance(value, str):
        raise _err(path, "covered", f"must be a FEN placement (text), not {type(value).__name__}")
    if value and (len(value) > 1000 or not value.isascii() or not value.isprintable()
                  or " " in value):
        raise _err(path, "covered", f"{quote(value[:60])} is not a FEN placement (one field "
                                    "of ASCII letters, digits, '/' and '~')")
    return value


def _check_covered(ruleset: RuleSet, path: str) -> None:
    """The ``covered`` start fits the family's board (:func:`check_covered`)."""
    from solver.board.covered import check_covered

    problem = check_covered(ruleset.covered, ruleset.layout)
    if problem is not None:
        raise _err(path, "covered", f"{quote(ruleset.covered[:60])} is not this family's "
                                    f"start with its pieces covered: {problem}")


_Board = tuple[int, int | None, Sides, tuple[str, ...]]
_Armies = tuple[tuple[SideArmy, ...], tuple[tuple[int, int], ...]]


def _ranks(found: _Problems, doc: Mapping[str, Any], files: int | None, board: _Board | None,
           declared: tuple[dict[str, str], dict[str, str]] | None, castles: str, path: str
           ) -> tuple[Region | None, int | None, str | None, Army | None, _Armies]:
    """What a side's rank is: the region, its size, the pieces (the first
    army's with ``[[army]]``), an army that varies, and the armies of the
    sides' own with their pairings (``((), ())``: none)."""
    if files is None or board is None:
        return None, None, None, None, ((), ())
    names = declared[0] if declared is not None else {}
    armies: _Armies | None = ((), ())
    if "army" in doc or "pairings" in doc:
        armies = (found.check(read_armies, doc, files, names, board[2].independent, path,
                              castles)
                  if declared is not None else None)
    if armies is None or armies[0]:  # (armies not read: the rank is not read either)
        return None, files, armies[0][0].pieces if armies else None, None, armies or ((), ())
    ranks, pawns, sides, _ = board
    region = found.check(read_region, doc, files, ranks, pawns, sides, path)
    if region is None and "region" in doc:
        return None, None, None, None, armies
    size = files if region is None else len(region.squares)
    if declared is None:
        return region, size, None, None, armies
    pieces, army = _army_or_pieces(found, doc, size, names, path,
                                   "files" if region is None else "squares of the region")
    return region, size, pieces, army, armies


def _names_and_numberings(
    found: _Problems, doc: Mapping[str, Any], numbering: Mapping[str, Any] | None,
    pieces: str | None, board: tuple[int, int | None, Sides, tuple[str, ...]] | None,
    files: int | None, region: Region | None, path: str,
) -> tuple[tuple[str, str] | None, tuple[NumberingSpec, ...] | None]:
    """``[numbering]``'s name and title, and the further numberings (``[[numberings]]``)."""
    naming = found.check(_naming, numbering or {}, path)
    further = found.check(read_numberings, doc, pieces, path,
                          board is not None and board[2].independent,
                          None if files is None or ("region" in doc and region is None)
                          else (Region.rank_of(files) if region is None else region).names)
    return naming, further


def _pool_step(numbering: dict[str, Any] | None, army: Army | None) -> dict[str, Any] | None:
    """``[numbering]`` with, for an army that varies, a step placing the frame's
    pool squares after the steps a file gives for its fixed pieces (before the
    last one when that fills the squares left, ``RKR``)."""
    steps = None if numbering is None else numbering.get("steps")
    if army is None or numbering is None or not isinstance(steps, list) or not steps:
        return numbering
    pool = army.placeholder * army.size
    last = steps[-1]
    if isinstance(last, str) and ("|" in last or len(set(last.split(":")[0].upper())) > 1):
        return {**numbering, "steps": [*steps[:-1], pool, last]}  # before a filling step
    return {**numbering, "steps": [*steps, pool]}


def _army_rules(found: _Problems, doc: Mapping[str, Any], context: Context,
                army: Army | None) -> tuple[Rule, ...]:
    """The rules, each refused first when it names a piece an army that varies
    does not always have once as written (:func:`~solver.ruleset.army_keys.check_tables`)."""
    before = len(found.found)
    if army is not None:
        found.check(check_tables, doc.get("rule", []), army, context.path)
    if len(found.found) > before:  # (a rule refused for the army is not read again)
        return ()
    return _read_rules(found, doc, context)


def _army_or_pieces(found: _Problems, doc: Mapping[str, Any], size: int,
                    names: Mapping[str, str], path: str, where: str
                    ) -> tuple[str | None, Army | None]:
    """``pieces``: the letters of a fixed army, or the frame of an army that
    varies (``"K + 7 of NBRQ"``, :mod:`solver.ruleset.army_keys`) with the army."""
    stated = doc.get("pieces")
    if isinstance(stated, str) and army_text(stated):
        army = found.check(read_army, stated, size, names, path, where)
        return (None if army is None else army.frame), army
    return found.check(lambda: _pieces(_required(doc, "pieces", str, path), size, path,
                                       names, where)), None


def _linked(found: _Problems, doc: Mapping[str, Any], army: Army | None,
            board: tuple[int, int | None, Sides, tuple[str, ...]] | None,
            path: str) -> Army | None:
    """The army with the ``link`` between the sides, when the file gives one."""
    link = found.check(read_link, doc, army, board is not None and board[2].independent, path)
    if army is not None and link:
        return replace(army, links=link[0], colour=link[1])
    return army


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


def _count(doc: Mapping[str, Any], sides: Sides, path: str) -> int:
    count: int = _required(doc, "count", int, path)
    if count < 0:
        raise _err(path, "count", f"{count} is negative")
    variations = 16 if doc.get("castling") == "subsets" and count % 16 == 0 else 1
    problem = sides.count_problem(count // variations)
    if problem is not None:
        raise _err(path, "count", problem)
    return count


def _pieces(value: str, files: int, path: str, names: Mapping[str, str],
            where: str = "files") -> str:
    letters = value.replace(" ", "").upper()
    for char in letters:
        if char not in PIECE_NAMES and char not in names and char not in EXTRA_NAMES:
            known = "".join(dict.fromkeys([*PIECE_NAMES, *names]))
            raise _err(path, "pieces", f"unknown piece {char!r} in {quote(value)}; "
                                       f"pieces are {known}")
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
    refuse_orders(path, raw)
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
