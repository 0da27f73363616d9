"""The rule vocabulary: every kind of placement rule a rule file may declare.

Each kind is a small frozen dataclass that

* reads its arguments from a ``[[rule]]`` table (:meth:`from_table`),
* states itself on a :class:`~solver.model.Model` (:meth:`constrain`): it
  either narrows some pieces' files or adds a requirement, and
* names the ways a given rank breaks it, with the squares involved
  (:meth:`violations`), and
* says whether a family's placement steps already place the pieces as it
  demands (:meth:`captured_by`), which arithmetic numbering needs.

Both :meth:`constrain` and :meth:`violations` use the same small predicate
per kind, so the solver and the explanations cannot disagree. Nothing here is
ever compiled or evaluated: rule-file text is only compared with known names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, ClassVar, Final

from solver.board import FILE_LETTERS, PIECE_NAMES, colour, piece_name, square_name
from solver.errors import RuleFileError, Violation
from solver.model import Model
from solver.numbering import Step


def suggest(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate nearest to ``word``, if one is near enough.

    >>> suggest("oposite-colours", ["opposite-colours", "between"])
    'opposite-colours'
    """
    import difflib  # only on the error path: keeps start-up fast

    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def type_name(value: object) -> str:
    """A TOML-ish name for the type of ``value``."""
    names = {bool: "boolean", int: "integer", float: "float", str: "string",
             list: "array", dict: "table"}
    return names.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class Context:
    """Where a rule stands, for reading its arguments and naming errors.

    ``index`` counts the ``[[rule]]`` tables from 1; errors name the key as
    ``rule[2].pieces``.
    """

    path: str
    index: int
    files: int
    counts: Mapping[str, int]

    def error(self, key: str, message: str, suggestion: str | None = None) -> RuleFileError:
        return RuleFileError(self.path, message, f"rule[{self.index}].{key}", suggestion)

    def string(self, table: Mapping[str, Any], key: str) -> str:
        if key not in table:
            raise self.error(key, "missing")
        value = table[key]
        if not isinstance(value, str):
            raise self.error(key, f"expected a string, got {type_name(value)} {value!r}")
        return value

    def piece(self, table: Mapping[str, Any], key: str) -> str:
        """One piece letter that the family has."""
        value = self.string(table, key)
        if len(value) != 1:
            raise self.error(key, f"expected one piece letter, got {value!r}")
        return self._letter(key, value)

    def _letter(self, key: str, char: str) -> str:
        letter = char.upper()
        if letter not in PIECE_NAMES:
            names = list(PIECE_NAMES)
            raise self.error(key, f"unknown piece {char!r}; pieces are {''.join(names)}")
        if not self.counts.get(letter):
            have = "".join(p * n for p, n in self.counts.items())
            raise self.error(key, f"piece {letter!r} is not among this family's pieces {have}")
        return letter

    def two_pieces(self, table: Mapping[str, Any], key: str) -> str:
        """Two pieces: the two of a pair (``BB``) or two single pieces (``QA``)."""
        value = self.string(table, key)
        if len(value) != 2:
            raise self.error(key, f"expected two piece letters, got {value!r}")
        first, second = (self._letter(key, c) for c in value)
        if first == second:
            if self.counts[first] != 2:
                raise self.error(
                    key, f"{value!r} names a pair but the family has "
                    f"{self.counts[first]} {piece_name(first, self.counts[first])}",
                )
        else:
            for letter in (first, second):
                if self.counts[letter] != 1:
                    raise self.error(
                        key, f"{letter!r} stands for {self.counts[letter]} pieces; "
                        f"name a pair ({letter * 2!r}) or pieces the family has once",
                    )
        return first + second

    def file_set(self, table: Mapping[str, Any], key: str) -> tuple[int, ...]:
        """Files written as letters, ``"ah"`` or ``["a", "h"]``."""
        if key not in table:
            raise self.error(key, "missing")
        value = table[key]
        if isinstance(value, str):
            letters: list[Any] = list(value.replace(",", "").replace(" ", ""))
        elif isinstance(value, list):
            letters = value
        else:
            raise self.error(key, f"expected file letters, got {type_name(value)} {value!r}")
        valid = FILE_LETTERS[: self.files]
        files: set[int] = set()
        for letter in letters:
            if not isinstance(letter, str) or len(letter) != 1 or letter.lower() not in valid:
                raise self.error(key, f"{letter!r} is not a file of this {self.files}-file "
                                      f"board ({valid[0]}..{valid[-1]})")
            files.add(valid.index(letter.lower()))
        if not files:
            raise self.error(key, "names no file")
        return tuple(sorted(files))

    def rank(self, value: object, key: str) -> str:
        """A full rank of the family's pieces, in letters."""
        if not isinstance(value, str):
            raise self.error(key, f"expected a rank string, got {type_name(value)} {value!r}")
        letters = value.replace(" ", "").upper()
        if len(letters) != self.files or Counter(letters) != Counter(self.counts):
            pieces = "".join(p * n for p, n in self.counts.items())
            raise self.error(key, f"{value!r} is not an arrangement of the pieces {pieces}")
        return letters

    def integer(self, table: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
        value = table.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(key, f"expected an integer, got {type_name(value)} {value!r}")
        if not low <= value <= high:
            raise self.error(key, f"{value} is not in {low}..{high}")
        return value


class Placement:
    """A full rank, indexed by piece, for testing rules against it."""

    def __init__(self, rank: str) -> None:
        self.rank = rank
        self.files: dict[str, list[int]] = {}
        for file, letter in enumerate(rank):
            self.files.setdefault(letter, []).append(file)

    def of(self, letter: str) -> list[int]:
        return self.files.get(letter, [])

    def two(self, pieces: str) -> tuple[int, int]:
        """The files of a pair (``BB``) or of two single pieces (``QA``)."""
        if pieces[0] == pieces[1]:
            first, second = self.of(pieces[0])
            return first, second
        return self.of(pieces[0])[0], self.of(pieces[1])[0]


def _two_names(model: Model, pieces: str) -> tuple[str, str]:
    if pieces[0] == pieces[1]:
        first, second = model.instances[pieces[0]]
        return first, second
    return model.instances[pieces[0]][0], model.instances[pieces[1]][0]


def _squares(*files: int) -> list[str]:
    return [square_name(f) for f in files]


def _two_label(pieces: str) -> str:
    if pieces[0] == pieces[1]:
        return piece_name(pieces[0], 2)
    return f"{piece_name(pieces[0])} and {piece_name(pieces[1])}"


class Rule:
    """Base of every rule kind: its name in files, arguments and behaviour."""

    kind: ClassVar[str]
    keys: ClassVar[tuple[str, ...]]
    summary: ClassVar[str]

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        raise NotImplementedError

    @property
    def label(self) -> str:
        """How messages name this rule, e.g. ``opposite-colours BB``."""
        raise NotImplementedError

    def constrain(self, model: Model) -> None:
        """State this rule on the model."""
        raise NotImplementedError

    def violations(self, placement: Placement) -> list[Violation]:
        """Every way ``placement`` breaks this rule (empty if it holds)."""
        raise NotImplementedError

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """Whether placing pieces by ``steps`` already obeys this rule.

        Arithmetic numbering needs every rule captured; the default is no.
        """
        return False


def _opposite(a: int, b: int) -> bool:
    return colour(a) != colour(b)


def _colour_steps(steps: Sequence[Step], pieces: str, opposite: bool) -> bool:
    """Whether ``steps`` put ``pieces`` on opposite (or the same) colours, no more."""
    first, second = pieces[0], pieces[1]
    if first == second:
        shades = sorted(s.colour or "" for s in steps if s.pieces == first and s.colour)
        return opposite and shades == ["dark", "light"]
    return any(
        s.pieces == a and s.relative == b and s.opposite == opposite
        for s in steps for a, b in ((first, second), (second, first))
    )


def _same(a: int, b: int) -> bool:
    return colour(a) == colour(b)


@dataclass(frozen=True)
class TwoPieceRule(Rule):
    """A rule about two pieces: the two of a pair (``BB``) or two single ones (``QA``)."""

    keys: ClassVar[tuple[str, ...]] = ("pieces",)
    pieces: str

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        return cls(ctx.two_pieces(table, "pieces"))

    @property
    def label(self) -> str:
        return f"{self.kind} {self.pieces}"


@dataclass(frozen=True)
class OppositeColours(TwoPieceRule):
    """Two pieces stand on opposite-coloured squares.

    ``pieces = "BB"`` names the two of a pair; ``pieces = "QA"`` two pieces
    the family has once each. A pair is folded into the domains: one piece
    takes the dark squares, the other the light ones.
    """

    kind: ClassVar[str] = "opposite-colours"
    summary: ClassVar[str] = "two pieces stand on opposite-coloured squares"
    def constrain(self, model: Model) -> None:
        if self.pieces[0] == self.pieces[1]:
            model.split_by_colour(self.pieces[0])
        else:
            model.require(_two_names(model, self.pieces), _opposite, self.label)

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """By ``B:light`` and ``B:dark`` for a pair, ``A:opposite-Q`` for two pieces."""
        return _colour_steps(steps, self.pieces, opposite=True)

    def violations(self, placement: Placement) -> list[Violation]:
        a, b = placement.two(self.pieces)
        if _opposite(a, b):
            return []
        message = (f"{_two_label(self.pieces)} on {square_name(a)} and {square_name(b)} "
                   f"are both on {colour(a)} squares")
        return [Violation(self.label, message, _squares(a, b))]


@dataclass(frozen=True)
class SameColour(TwoPieceRule):
    """Two pieces stand on squares of the same colour."""

    kind: ClassVar[str] = "same-colour"
    summary: ClassVar[str] = "two pieces stand on squares of the same colour"
    def constrain(self, model: Model) -> None:
        model.require(_two_names(model, self.pieces), _same, self.label)

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """By ``A:same-Q`` for two pieces; never for a pair."""
        return _colour_steps(steps, self.pieces, opposite=False)

    def violations(self, placement: Placement) -> list[Violation]:
        a, b = placement.two(self.pieces)
        if _same(a, b):
            return []
        message = (f"{_two_label(self.pieces)} on {square_name(a)} ({colour(a)}) and "
                   f"{square_name(b)} ({colour(b)}) are on different colours")
        return [Violation(self.label, message, _squares(a, b))]


def _between(x: int, a: int, b: int) -> bool:
    return min(a, b) < x < max(a, b)


def _fill(steps: Sequence[Step]) -> Step | None:
    """The last step when it mixes pieces and so fills the squares left in order."""
    return steps[-1] if steps and steps[-1].fill else None


@dataclass(frozen=True)
class Between(Rule):
    """A piece stands strictly between two others (the king between the rooks)."""

    kind: ClassVar[str] = "between"
    keys: ClassVar[tuple[str, ...]] = ("piece", "pair")
    summary: ClassVar[str] = "a piece stands strictly between the two pieces of a pair"
    piece: str
    pair: str

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        piece = ctx.piece(table, "piece")
        pair = ctx.two_pieces(table, "pair")
        if piece in pair:
            raise ctx.error("pair", f"{pair!r} includes the piece {piece!r} itself")
        return cls(piece, pair)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.piece} {self.pair}"

    def constrain(self, model: Model) -> None:
        first, second = _two_names(model, self.pair)
        for name in model.instances[self.piece]:
            model.require((name, first, second), _between, self.label)

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """By a last step that places all these pieces, in an order that obeys
        the rule (``RKR``)."""
        fill = _fill(steps)
        letters = {self.piece, *self.pair}
        if fill is None or any(s is not fill and letters & set(s.pieces) for s in steps):
            return False
        return not self.violations(Placement(fill.pieces))

    def violations(self, placement: Placement) -> list[Violation]:
        a, b = sorted(placement.two(self.pair))
        found = []
        for x in placement.of(self.piece):
            if not _between(x, a, b):
                message = (f"{piece_name(self.piece)} on {square_name(x)} is not between the "
                           f"{_two_label(self.pair)} on {square_name(a)} and {square_name(b)}")
                found.append(Violation(self.label, message, _squares(x, a, b)))
        return found


def _apart(a: int, b: int) -> bool:
    return abs(a - b) != 1


@dataclass(frozen=True)
class NotAdjacent(TwoPieceRule):
    """Two pieces do not stand on neighbouring files."""

    kind: ClassVar[str] = "not-adjacent"
    summary: ClassVar[str] = "two pieces are not on neighbouring files"
    def constrain(self, model: Model) -> None:
        model.require(_two_names(model, self.pieces), _apart, self.label)

    def violations(self, placement: Placement) -> list[Violation]:
        a, b = sorted(placement.two(self.pieces))
        if _apart(a, b):
            return []
        message = (f"{_two_label(self.pieces)} on {square_name(a)} and {square_name(b)} "
                   "are on neighbouring files")
        return [Violation(self.label, message, _squares(a, b))]


def _file_letters(files: Sequence[int]) -> str:
    return ",".join(FILE_LETTERS[f] for f in files)


@dataclass(frozen=True)
class OnFiles(Rule):
    """Every piece of a kind stands only on the listed files (folded into domains)."""

    kind: ClassVar[str] = "on-files"
    keys: ClassVar[tuple[str, ...]] = ("piece", "files")
    summary: ClassVar[str] = "a piece stands only on the listed files"
    piece: str
    files: tuple[int, ...]

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        return cls(ctx.piece(table, "piece"), ctx.file_set(table, "files"))

    @property
    def label(self) -> str:
        return f"{self.kind} {self.piece} {_file_letters(self.files)}"

    def allowed(self, file: int) -> bool:
        return file in self.files

    def constrain(self, model: Model) -> None:
        model.restrict(self.piece, (f for f in range(model.files) if self.allowed(f)))

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """By any step that places the piece, except a last step that mixes pieces."""
        fill = _fill(steps)
        return fill is None or self.piece not in fill.pieces

    def violations(self, placement: Placement) -> list[Violation]:
        return [
            Violation(self.label, f"{piece_name(self.piece)} on {square_name(x)} is not on "
                      f"{'file' if len(self.files) == 1 else 'files'} "
                      f"{_file_letters(self.files)}", _squares(x))
            for x in placement.of(self.piece) if not self.allowed(x)
        ]


@dataclass(frozen=True)
class NotOnFiles(OnFiles):
    """No piece of a kind stands on the listed files (folded into domains)."""

    kind: ClassVar[str] = "not-on-files"
    summary: ClassVar[str] = "a piece never stands on the listed files"

    def allowed(self, file: int) -> bool:
        return file not in self.files

    def violations(self, placement: Placement) -> list[Violation]:
        return [
            Violation(self.label, f"{piece_name(self.piece)} on {square_name(x)} stands on "
                      f"{'file' if len(self.files) == 1 else 'files'} "
                      f"{_file_letters(self.files)}, where it may not", _squares(x))
            for x in placement.of(self.piece) if not self.allowed(x)
        ]


#: The distances |f - g| at which a piece on file f defends a pawn on file g
#: one rank ahead.
DEFENCE: Final[dict[str, frozenset[int]]] = {
    "R": frozenset({0}),
    "C": frozenset({0, 2}),
    "B": frozenset({1}),
    "A": frozenset({1, 2}),
    "N": frozenset({2}),
    "K": frozenset({0, 1}),
    "Q": frozenset({0, 1}),
}


def undefended(files: int, letters: Sequence[str], squares: Sequence[int]) -> list[int]:
    """The pawn files no piece defends when ``letters[i]`` stands on ``squares[i]``.

    >>> undefended(8, "RNBQKBNR", range(8))
    []
    """
    covered: set[int] = set()
    for letter, file in zip(letters, squares, strict=True):
        for distance in DEFENCE[letter]:
            covered.add(file - distance)
            covered.add(file + distance)
    return [g for g in range(files) if g not in covered]


@dataclass(frozen=True)
class PawnsProtected(Rule):
    """Every pawn in front of the rank is defended by a piece of the rank."""

    kind: ClassVar[str] = "pawns-protected"
    keys: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = "every pawn in front of the rank is defended by a piece"

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        return cls()

    @property
    def label(self) -> str:
        return self.kind

    def constrain(self, model: Model) -> None:
        names = tuple(model.domains)
        letters = [model.letter_of[n] for n in names]
        files = model.files

        def protected(*squares: int) -> bool:
            return not undefended(files, letters, squares)

        model.require(names, protected, self.label)

    def violations(self, placement: Placement) -> list[Violation]:
        rank = placement.rank
        bare = undefended(len(rank), rank, range(len(rank)))
        if not bare:
            return []
        pawns = [square_name(g, 2) for g in bare]
        noun = "pawn" if len(pawns) == 1 else "pawns"
        verb = "is" if len(pawns) == 1 else "are"
        return [Violation(self.label, f"{noun} on {', '.join(pawns)} {verb} not defended", pawns)]


@dataclass(frozen=True)
class DiffersFrom(Rule):
    """The rank differs from a given rank in at least ``at-least`` squares."""

    kind: ClassVar[str] = "differs-from"
    keys: ClassVar[tuple[str, ...]] = ("rank", "at-least")
    summary: ClassVar[str] = "the rank differs from a given rank in at least k squares"
    rank: str
    at_least: int

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        if "rank" not in table:
            raise ctx.error("rank", "missing")
        rank = ctx.rank(table["rank"], "rank")
        return cls(rank, ctx.integer(table, "at-least", 1, 1, ctx.files))

    @property
    def label(self) -> str:
        return f"{self.kind} {self.rank} {self.at_least}"

    def _differing(self, rank: str) -> list[int]:
        return [f for f, (a, b) in enumerate(zip(rank, self.rank, strict=True)) if a != b]

    def constrain(self, model: Model) -> None:
        names = tuple(model.domains)
        letters = [model.letter_of[n] for n in names]
        target, need = self.rank, self.at_least

        def differs(*squares: int) -> bool:
            return sum(target[s] != p for s, p in zip(squares, letters, strict=True)) >= need

        model.require(names, differs, self.label)

    def violations(self, placement: Placement) -> list[Violation]:
        diff = self._differing(placement.rank)
        if len(diff) >= self.at_least:
            return []
        where = f" ({', '.join(_squares(*diff))})" if diff else ""
        message = (f"differs from {self.rank} in {len(diff)} "
                   f"{'square' if len(diff) == 1 else 'squares'}{where}, "
                   f"fewer than {self.at_least}")
        return [Violation(self.label, message, _squares(*diff))]


@dataclass(frozen=True)
class Exclude(Rule):
    """The listed ranks are left out of the family."""

    kind: ClassVar[str] = "exclude"
    keys: ClassVar[tuple[str, ...]] = ("ranks",)
    summary: ClassVar[str] = "the listed ranks are left out"
    ranks: frozenset[str]

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        if "ranks" not in table:
            raise ctx.error("ranks", "missing")
        value = table["ranks"]
        if not isinstance(value, list) or not value:
            raise ctx.error("ranks", f"expected a non-empty array of ranks, got {value!r}")
        return cls(frozenset(ctx.rank(v, "ranks") for v in value))

    @property
    def label(self) -> str:
        return f"{self.kind} {','.join(sorted(self.ranks))}"

    def constrain(self, model: Model) -> None:
        names = tuple(model.domains)
        letters = [model.letter_of[n] for n in names]
        excluded, files = self.ranks, model.files

        def kept(*squares: int) -> bool:
            row = [""] * files
            for s, p in zip(squares, letters, strict=True):
                row[s] = p
            return "".join(row) not in excluded

        model.require(names, kept, self.label)

    def violations(self, placement: Placement) -> list[Violation]:
        if placement.rank not in self.ranks:
            return []
        return [Violation(self.label, f"{placement.rank} is excluded from the family", [])]


#: Every rule kind, by the name rule files use.
KINDS: Final[dict[str, type[Rule]]] = {
    kind.kind: kind
    for kind in (OppositeColours, SameColour, Between, NotAdjacent, OnFiles, NotOnFiles,
                 PawnsProtected, DiffersFrom, Exclude)
}


def read_rule(table: object, ctx: Context) -> Rule:
    """Read one ``[[rule]]`` table into a rule of a known kind."""
    if not isinstance(table, dict):
        raise RuleFileError(ctx.path, f"expected a table, got {type_name(table)} {table!r}",
                            f"rule[{ctx.index}]")
    if "kind" not in table:
        raise ctx.error("kind", f"missing; kinds are {', '.join(KINDS)}")
    name = table["kind"]
    if not isinstance(name, str):
        raise ctx.error("kind", f"expected a string, got {type_name(name)} {name!r}")
    kind = KINDS.get(name)
    if kind is None:
        raise ctx.error("kind", f"unknown kind {name!r}", suggest(name, list(KINDS)))
    for key in table:
        if key != "kind" and key not in kind.keys:
            valid = ", ".join(kind.keys) or "none"
            raise ctx.error(key, f"unknown key {key!r} for kind {name!r} (keys: {valid})",
                            suggest(key, list(kind.keys)))
    return kind.from_table(table, ctx)


def inexact(rules: Sequence[Rule], steps: Sequence[Step]) -> str | None:
    """Why placing pieces by ``steps`` does not give exactly the ranks obeying ``rules``.

    ``None`` means every rule is captured by the steps and every restriction
    of the steps (a colour, a fixed order in the last step) comes from a
    rule. Arithmetic numbering needs this, and also the same number of
    choices at each step on every path (:attr:`Numbering.uniform`).

    >>> from solver.numbering import parse_steps
    >>> steps = parse_steps(["B:light", "B:dark", "Q", "NN", "RKR"], "KQRRBBNN")
    >>> print(inexact([], steps))
    step 'B:light' puts a bishop on light squares, but no opposite-colours BB rule asks for it
    """
    for rule in rules:
        if not rule.captured_by(steps):
            return f"the steps do not capture rule {rule.label}"
    pairs = {r.pieces for r in rules if isinstance(r, OppositeColours)}
    sames = {r.pieces for r in rules if isinstance(r, SameColour)}
    for step in steps:
        letter = step.pieces[0]
        if step.colour is not None and letter * 2 not in pairs:
            return (f"step {step.text!r} puts {'a' if len(step.pieces) == 1 else 'the'} "
                    f"{piece_name(letter, len(step.pieces))} on {step.colour} squares, but no "
                    f"{OppositeColours.kind} {letter * 2} rule asks for it")
        if step.relative is not None:
            wanted = pairs if step.opposite else sames
            if {letter + step.relative, step.relative + letter}.isdisjoint(wanted):
                kind = OppositeColours.kind if step.opposite else SameColour.kind
                return (f"step {step.text!r} ties the {piece_name(letter)} to the colour of the "
                        f"{piece_name(step.relative)}, but no {kind} "
                        f"{letter}{step.relative} rule asks for it")
    fill = _fill(steps)
    if fill is not None and not _order_forced(fill.pieces, rules):
        return (f"the last step {fill.text!r} fixes the order of {fill.pieces}, but the rules "
                "allow other orders of those pieces")
    return None


#: The longest last step whose order :func:`inexact` proves forced by the rules.
MAX_FILL: Final = 8


def _order_forced(order: str, rules: Sequence[Rule]) -> bool:
    """Whether ``between`` rules among these pieces allow them only in ``order``."""
    if len(order) > MAX_FILL:
        return False
    letters = set(order)
    ordering = [r for r in rules if isinstance(r, Between) and {r.piece, *r.pair} <= letters]
    return all(
        any(r.violations(Placement("".join(other))) for r in ordering)
        for other in set(permutations(order)) if "".join(other) != order
    )
