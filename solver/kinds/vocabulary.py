"""The rule vocabulary: every kind of placement rule a rule file may declare.

Each kind is one small frozen dataclass (a :class:`~solver.kinds.base.Rule`)
that

* reads its arguments from a ``[[rule]]`` table (:meth:`from_table`),
* states itself on a :class:`~solver.kinds.model.Model` (:meth:`constrain`): it
  either narrows some pieces' files or adds a requirement,
* names the ways a given rank breaks it, with the squares involved
  (:meth:`violations`),
* says whether a family's placement steps already place the pieces as it
  demands (:meth:`captured_by`), which arithmetic numbering needs, and
* makes the :class:`~solver.kinds.base.Tracker` that counts with it file by
  file (:meth:`tracker`), what :mod:`solver.numbering.counting` counts with:

  * ``opposite-colours`` / ``same-colour``: the colour of the first of the two placed;
  * ``between``: how many of the pair and of the piece have appeared;
  * ``not-adjacent``: whether the first of the two stands on the previous file;
  * ``left-of``: whether the first of the two has been placed;
  * ``on-files`` / ``not-on-files``: no state, a filter on the file;
  * ``pawns-protected``: which pawns near the current file are defended (a
    piece defends at most two files away, see :data:`DEFENCE`);
  * ``differs-from``: the squares that differ so far, capped at ``at-least``;
  * ``exclude``: the excluded ranks the placed files still match.

Defining a kind registers it (:data:`KINDS`): adding a kind is adding its
class here, its section in ``rules/README.md`` and its example in the tests.
:meth:`constrain` and :meth:`violations` use the same small predicate per
kind, so the solver and the explanations cannot disagree. Nothing here is
ever compiled or evaluated: rule-file text is only compared with known names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, ClassVar, Final

from solver.board.betza import pawn_distances
from solver.board.geometry import Region, piece_name
from solver.board.glyphs import FILE_LETTERS
from solver.errors import InvalidRuleFileError, Violation, quote
from solver.kinds.base import (
    DONE,
    REGISTRY,
    Placement,
    Rule,
    State,
    Tracker,
    fill_step,
    two_names,
)
from solver.kinds.model import Model
from solver.syntax.args import MAX_ITEMS, Context, shown, suggest, type_name
from solver.syntax.steps import Step

__all__ = ["DEFENCE", "KINDS", "MAX_DEFENCE", "Between", "DiffersFrom", "Exclude", "LeftOf",
           "NotAdjacent", "NotOnFiles", "OnFiles", "OppositeColours", "PawnsProtected",
           "Placement", "Rule", "SameColour", "inexact", "read_rule", "undefended"]


def _opposite(colours: Sequence[str]) -> Callable[[int, int], bool]:
    """Whether the squares ``a`` and ``b`` of a region have opposite colours."""
    return lambda a, b: colours[a] != colours[b]


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


def _relates(step: Step, pieces: str) -> bool:
    """Whether ``step`` ties its piece to the colour of the other of ``pieces``."""
    relative = step.relative
    return relative is not None and pieces in (step.pieces[0] + relative,
                                               relative + step.pieces[0])


def _same(colours: Sequence[str]) -> Callable[[int, int], bool]:
    return lambda a, b: colours[a] == colours[b]


def _two(pieces: str, names: Mapping[str, str] | None) -> str:
    """``the two bishops`` or ``the queen and the archbishop``."""
    if pieces[0] == pieces[1]:
        return f"the two {piece_name(pieces[0], 2, names)}"
    return f"the {piece_name(pieces[0], 1, names)} and the {piece_name(pieces[1], 1, names)}"


class _Colours(Tracker):
    """Opposite-colours and same-colour: the colour of the first of the two placed."""

    def __init__(self, pieces: str, opposite: bool, colours: Sequence[str]) -> None:
        self.members = frozenset(pieces)
        self.opposite = opposite
        self.colours = colours

    def place(self, state: State, file: int, letter: str) -> State | None:
        if letter not in self.members or state == DONE:
            return state
        here = self.colours[file]
        if state == 0:
            return here
        return DONE if (here != state) == self.opposite else None

    def states(self, squares: int) -> int:
        return 2  # the first on light or dark (the counts tell none, one or both)


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

    @property
    def letters(self) -> frozenset[str]:
        return frozenset(self.pieces)


@dataclass(frozen=True)
class OppositeColours(TwoPieceRule):
    """Two pieces stand on opposite-coloured squares.

    ``pieces = "BB"`` names the two of a pair; ``pieces = "QA"`` two pieces
    the family has once each. A pair is folded into the domains: one piece
    takes the dark squares, the other the light ones.
    """

    kind: ClassVar[str] = "opposite-colours"

    def words(self, names: Mapping[str, str] | None = None) -> str:
        return f"{_two(self.pieces, names).capitalize()} stand on squares of opposite colours."

    def constrain(self, model: Model) -> None:
        if self.pieces[0] == self.pieces[1]:
            model.split_by_colour(self.pieces[0])
        else:
            model.require(two_names(model, self.pieces), _opposite(model.colours), self.label)

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """By ``B:light`` and ``B:dark`` for a pair, ``A:opposite-Q`` for two pieces."""
        return _colour_steps(steps, self.pieces, opposite=True)

    def justifies(self, step: Step) -> bool:
        """A pair's ``B:light``/``B:dark``, or ``A:opposite-Q`` for two pieces."""
        letter = step.pieces[0]
        if step.colour is not None:
            return self.pieces == letter * 2
        return step.opposite and _relates(step, self.pieces)

    def violations(self, placement: Placement) -> list[Violation]:
        a, b = placement.two(self.pieces)
        if _opposite(placement.colours)(a, b):
            return []
        message = (f"{placement.two_label(self.pieces)} on {placement.squares[a]} and "
                   f"{placement.squares[b]} "
                   f"are both on {placement.colours[a]} squares")
        return [Violation(self.label, message, placement.at(a, b))]

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Colours(self.pieces, True, region.colours)


@dataclass(frozen=True)
class SameColour(TwoPieceRule):
    """Two pieces stand on squares of the same colour."""

    kind: ClassVar[str] = "same-colour"
    def constrain(self, model: Model) -> None:
        model.require(two_names(model, self.pieces), _same(model.colours), self.label)

    def words(self, names: Mapping[str, str] | None = None) -> str:
        return f"{_two(self.pieces, names).capitalize()} stand on squares of the same colour."

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """By ``A:same-Q`` for two pieces; never for a pair."""
        return _colour_steps(steps, self.pieces, opposite=False)

    def justifies(self, step: Step) -> bool:
        """``A:same-Q`` for two pieces."""
        return step.relative is not None and not step.opposite and _relates(step, self.pieces)

    def violations(self, placement: Placement) -> list[Violation]:
        a, b = placement.two(self.pieces)
        if _same(placement.colours)(a, b):
            return []
        message = (f"{placement.two_label(self.pieces)} on {placement.squares[a]} "
                   f"({placement.colours[a]}) and {placement.squares[b]} "
                   f"({placement.colours[b]}) are on different colours")
        return [Violation(self.label, message, placement.at(a, b))]

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Colours(self.pieces, False, region.colours)


def _between(x: int, a: int, b: int) -> bool:
    return min(a, b) < x < max(a, b)


class _Between(Tracker):
    """Between: how many of the pair and of the piece have been placed."""

    def __init__(self, piece: str, pair: str, pieces: str) -> None:
        self.piece = piece
        self.pair = frozenset(pair)
        self.total = pieces.count(piece)

    def start(self) -> State:
        return (0, 0)

    def place(self, state: State, file: int, letter: str) -> State | None:
        if state == DONE:
            return state
        pair, inside = state
        if letter == self.piece:
            return (pair, inside + 1) if pair == 1 else None
        if letter in self.pair:
            if pair == 0:
                return (1, inside)
            return DONE if inside == self.total else None
        return state

    def states(self, squares: int) -> int:
        return 1  # the counts tell how many of the pair and of the piece are placed


@dataclass(frozen=True)
class Between(Rule):
    """A piece stands strictly between two others (the king between the rooks)."""

    kind: ClassVar[str] = "between"
    keys: ClassVar[tuple[str, ...]] = ("piece", "pair")
    order_only: ClassVar[bool] = True
    piece: str
    pair: str

    def words(self, names: Mapping[str, str] | None = None) -> str:
        return (f"The {piece_name(self.piece, 1, names)} stands between "
                f"{_two(self.pair, names)}.")

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        ctx.one_rank(cls.kind)
        piece = ctx.piece(table, "piece")
        pair = ctx.two_pieces(table, "pair")
        if piece in pair:
            raise ctx.error("pair", f"{pair!r} includes the piece {piece!r} itself")
        return cls(piece, pair)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.piece} {self.pair}"

    @property
    def letters(self) -> frozenset[str]:
        return frozenset({self.piece, *self.pair})

    def constrain(self, model: Model) -> None:
        first, second = two_names(model, self.pair)
        for name in model.instances[self.piece]:
            model.require((name, first, second), _between, self.label)

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """By a last step that places all these pieces, in an order that obeys
        the rule (``RKR``)."""
        fill = fill_step(steps)
        letters = {self.piece, *self.pair}
        if fill is None or any(s is not fill and letters & set(s.pieces) for s in steps):
            return False
        return not self.violations(Placement(fill.pieces))

    def violations(self, placement: Placement) -> list[Violation]:
        a, b = sorted(placement.two(self.pair))
        found = []
        for x in placement.of(self.piece):
            if not _between(x, a, b):
                message = (f"{placement.name(self.piece)} on {placement.squares[x]} is not between "
                           f"the {placement.two_label(self.pair)} on {placement.squares[a]} and "
                           f"{placement.squares[b]}")
                found.append(Violation(self.label, message, placement.at(x, a, b)))
        return found

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Between(self.piece, self.pair, pieces)


def _apart(a: int, b: int) -> bool:
    return abs(a - b) != 1


class _NotAdjacent(Tracker):
    """Not-adjacent: none placed, the first on the previous file, further back, or done."""

    def __init__(self, pieces: str) -> None:
        self.members = frozenset(pieces)

    def place(self, state: State, file: int, letter: str) -> State | None:
        if state == DONE:
            return state
        if letter not in self.members:
            return "far" if state == "next" else state
        if state == 0:
            return "next"
        return None if state == "next" else DONE

    def states(self, squares: int) -> int:
        return 2  # the first placed on the previous file or further back


@dataclass(frozen=True)
class NotAdjacent(TwoPieceRule):
    """Two pieces do not stand on neighbouring files."""

    kind: ClassVar[str] = "not-adjacent"

    def words(self, names: Mapping[str, str] | None = None) -> str:
        return f"{_two(self.pieces, names).capitalize()} do not stand on neighbouring files."

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        ctx.one_rank(cls.kind)
        return cls(ctx.two_pieces(table, "pieces"))

    def constrain(self, model: Model) -> None:
        model.require(two_names(model, self.pieces), _apart, self.label)

    def violations(self, placement: Placement) -> list[Violation]:
        a, b = sorted(placement.two(self.pieces))
        if _apart(a, b):
            return []
        message = (f"{placement.two_label(self.pieces)} on {placement.squares[a]} and "
                   f"{placement.squares[b]} "
                   "are on neighbouring files")
        return [Violation(self.label, message, placement.at(a, b))]

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _NotAdjacent(self.pieces)


def _left(a: int, b: int) -> bool:
    return a < b


class _LeftOf(Tracker):
    """Left-of: settled when the left piece comes first, broken when the right one does."""

    def __init__(self, pieces: str) -> None:
        self.left, self.right = pieces[0], pieces[1]

    def place(self, state: State, file: int, letter: str) -> State | None:
        if state == DONE:
            return state
        if letter == self.left:
            return DONE
        return None if letter == self.right else state

    def states(self, squares: int) -> int:
        return 1  # the counts tell whether the left piece came first


@dataclass(frozen=True)
class LeftOf(TwoPieceRule):
    """The first of two pieces stands on a file left of the second (White's view).

    ``pieces = "QK"``: the queen left of the king. Two pieces the family has
    once each; a pair (``RR``) is always in some order and is refused.
    Chess480 is Chess960 with ``left-of QK``: of each mirror pair of ranks it
    keeps the one with the queen left of the king.
    """

    kind: ClassVar[str] = "left-of"
    order_only: ClassVar[bool] = True

    def words(self, names: Mapping[str, str] | None = None) -> str:
        first, second = (piece_name(p, 1, names) for p in self.pieces)
        return f"The {first} stands left of the {second} (seen from White)."

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        ctx.one_rank(cls.kind)
        pieces = ctx.two_pieces(table, "pieces")
        if pieces[0] == pieces[1]:
            raise ctx.error("pieces", f"{pieces!r} names a pair, whose two pieces are alike; "
                            "name two different pieces the family has once each")
        return cls(pieces)

    def constrain(self, model: Model) -> None:
        model.require(two_names(model, self.pieces), _left, self.label)

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """By a last step that places both pieces, the first left of the second."""
        fill = fill_step(steps)
        if fill is None or any(s is not fill and self.letters & set(s.pieces) for s in steps):
            return False
        return not self.violations(Placement(fill.pieces))

    def violations(self, placement: Placement) -> list[Violation]:
        a, b = placement.two(self.pieces)
        if _left(a, b):
            return []
        message = (f"{placement.name(self.pieces[0])} on {placement.squares[a]} is not left of the "
                   f"{placement.name(self.pieces[1])} on {placement.squares[b]}")
        return [Violation(self.label, message, placement.at(a, b))]

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _LeftOf(self.pieces)


def _file_letters(files: Sequence[int]) -> str:
    return ",".join(FILE_LETTERS[f] for f in files)


class _Files(Tracker):
    """On-files and not-on-files: a filter on the files a piece may take."""

    def __init__(self, piece: str, allowed: Callable[[int], bool],
                 file_of: Sequence[int]) -> None:
        self.piece = piece
        self.allowed = allowed
        self.file_of = file_of

    def place(self, state: State, file: int, letter: str) -> State | None:
        return state if letter != self.piece or self.allowed(self.file_of[file]) else None

    def states(self, squares: int) -> int:
        return 1


@dataclass(frozen=True)
class OnFiles(Rule):
    """Every piece of a kind stands only on the listed files (folded into domains)."""

    kind: ClassVar[str] = "on-files"
    keys: ClassVar[tuple[str, ...]] = ("piece", "files")
    piece: str
    files: tuple[int, ...]

    def words(self, names: Mapping[str, str] | None = None) -> str:
        where = "file" if len(self.files) == 1 else "files"
        verb = "never stands" if self.kind == "not-on-files" else "stands only"
        return (f"Every {piece_name(self.piece, 1, names)} {verb} on {where} "
                f"{', '.join(FILE_LETTERS[f] for f in self.files)}.")

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        return cls(ctx.piece(table, "piece"), ctx.file_set(table, "files"))

    @property
    def label(self) -> str:
        return f"{self.kind} {self.piece} {_file_letters(self.files)}"

    @property
    def letters(self) -> frozenset[str]:
        return frozenset(self.piece)

    def allowed(self, file: int) -> bool:
        return file in self.files

    def constrain(self, model: Model) -> None:
        model.restrict(self.piece, (i for i in range(model.region_size)
                                    if self.allowed(model.file_of[i])))

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Files(self.piece, self.allowed, region.file_of)

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """By any step that places the piece, except a last step that mixes pieces."""
        fill = fill_step(steps)
        return fill is None or self.piece not in fill.pieces

    def violations(self, placement: Placement) -> list[Violation]:
        return [
            Violation(self.label, f"{placement.name(self.piece)} on {placement.squares[x]} is "
                      "not on "
                      f"{'file' if len(self.files) == 1 else 'files'} "
                      f"{_file_letters(self.files)}", placement.at(x))
            for x in placement.of(self.piece) if not self.allowed(placement.file_of[x])
        ]


@dataclass(frozen=True)
class NotOnFiles(OnFiles):
    """No piece of a kind stands on the listed files (folded into domains)."""

    kind: ClassVar[str] = "not-on-files"

    def allowed(self, file: int) -> bool:
        return file not in self.files

    def violations(self, placement: Placement) -> list[Violation]:
        return [
            Violation(self.label, f"{placement.name(self.piece)} on {placement.squares[x]} "
                      "stands on "
                      f"{'file' if len(self.files) == 1 else 'files'} "
                      f"{_file_letters(self.files)}, where it may not", placement.at(x))
            for x in placement.of(self.piece) if not self.allowed(placement.file_of[x])
        ]


#: The farthest a piece may defend a pawn (in files) for ``pawns-protected``.
MAX_DEFENCE: Final = 2

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


def undefended(files: int, letters: Sequence[str], squares: Sequence[int],
               defence: Mapping[str, frozenset[int]] = DEFENCE) -> list[int]:
    """The pawn files no piece defends when ``letters[i]`` stands on ``squares[i]``.

    ``defence`` gives each piece's distances (:data:`DEFENCE` and a family's
    own pieces, from their Betza strings).

    >>> undefended(8, "RNBQKBNR", range(8))
    []
    """
    covered: set[int] = set()
    for letter, file in zip(letters, squares, strict=True):
        for distance in defence[letter]:
            covered.add(file - distance)
            covered.add(file + distance)
    return [g for g in range(files) if g not in covered]


class _Pawns(Tracker):
    """Pawns-protected: which of the pawns on files f-1 .. f+2 are defended.

    Bit ``i`` of the state stands for the pawn on file ``f - 1 + i`` after
    file ``f`` is placed; the pawn two files back is checked as it leaves,
    since no later piece reaches it.
    """

    def __init__(self, defence: Mapping[str, frozenset[int]] = DEFENCE) -> None:
        self.reach = {
            letter: sum(1 << (2 + d) for d in {s * d for d in distances for s in (-1, 1)})
            for letter, distances in defence.items()
        }

    def start(self) -> State:
        return 0b0011  # pawns on files -2 and -1 do not exist

    def place(self, state: State, file: int, letter: str) -> State | None:
        mask = state | self.reach[letter]
        if not mask & 1:
            return None
        return mask >> 1

    def finish(self, state: State) -> bool:
        return bool(state & 0b11 == 0b11)

    def states(self, squares: int) -> int:
        return 1 << max(self.reach.values(), default=1).bit_length()


@dataclass(frozen=True)
class PawnsProtected(Rule):
    """Every pawn in front of the rank is defended by a piece of the rank."""

    kind: ClassVar[str] = "pawns-protected"
    keys: ClassVar[tuple[str, ...]] = ()
    #: The family's own pieces' distances, from their Betza strings.
    own: tuple[tuple[str, frozenset[int]], ...] = ()

    def words(self, names: Mapping[str, str] | None = None) -> str:
        return "Every pawn is defended by a piece of the rank behind it."

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        ctx.one_rank(cls.kind)
        if ctx.pawns != 2 or (ctx.region is not None and ctx.region.ranks != (1,)):
            raise ctx.error("kind", "pawns-protected reads the pawns of rank 2 in front of "
                                    "the pieces of rank 1, which this family does not have")
        own = []
        for letter in ctx.counts:
            if letter in DEFENCE and letter not in ctx.names:  # (a letter declared anew: its own)
                continue
            name = f"{piece_name(letter, 1, ctx.names)} {letter!r}"
            betza = ctx.betza.get(letter)
            if betza is None:
                raise ctx.error("kind", f"pawns-protected needs to know how the {name} "
                                        "captures: give it a betza string in its [[piece]]")
            distances = pawn_distances(betza)
            if max(distances, default=0) > MAX_DEFENCE:
                raise ctx.error("kind", f"the {name} ({betza!r}) defends pawns more than "
                                        f"{MAX_DEFENCE} files away, which pawns-protected "
                                        "does not read")
            own.append((letter, distances))
        return cls(tuple(own))

    @property
    def defence(self) -> Mapping[str, frozenset[int]]:
        """Each piece's distances, the built-in and the family's own."""
        return {**DEFENCE, **dict(self.own)}

    @property
    def label(self) -> str:
        return self.kind

    def constrain(self, model: Model) -> None:
        names = tuple(model.domains)
        letters = [model.letter_of[n] for n in names]
        files = model.region_size
        defence = self.defence

        def protected(*squares: int) -> bool:
            return not undefended(files, letters, squares, defence)

        model.require(names, protected, self.label)

    def violations(self, placement: Placement) -> list[Violation]:
        rank = placement.rank
        bare = undefended(len(rank), rank, range(len(rank)), self.defence)
        if not bare:
            return []
        pawns = [f"{FILE_LETTERS[g]}2" for g in bare]
        noun = "pawn" if len(pawns) == 1 else "pawns"
        verb = "is" if len(pawns) == 1 else "are"
        return [Violation(self.label, f"{noun} on {', '.join(pawns)} {verb} not defended", pawns)]

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Pawns(self.defence)


class _Differs(Tracker):
    """Differs-from: the squares that differ so far, capped at ``at-least``."""

    def __init__(self, target: str, need: int, files: int) -> None:
        self.target = target
        self.need = need
        self.files = files

    def start(self) -> State:
        return 0

    def place(self, state: State, file: int, letter: str) -> State | None:
        diff = min(self.need, state + (self.target[file] != letter))
        return diff if diff + self.files - file - 1 >= self.need else None

    def finish(self, state: State) -> bool:
        return bool(state == self.need)

    def states(self, squares: int) -> int:
        return self.need + 1


@dataclass(frozen=True)
class DiffersFrom(Rule):
    """The rank differs from a given rank in at least ``at-least`` squares."""

    kind: ClassVar[str] = "differs-from"
    keys: ClassVar[tuple[str, ...]] = ("rank", "at-least")
    rank: str
    at_least: int

    def words(self, names: Mapping[str, str] | None = None) -> str:
        return (f"The rank differs from {self.rank} on at least {self.at_least} "
                f"{'square' if self.at_least == 1 else 'squares'}.")

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        if "rank" not in table:
            raise ctx.error("rank", "missing")
        rank = ctx.rank(table["rank"], "rank")
        return cls(rank, ctx.integer(table, "at-least", 1, 1, ctx.region_size))

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
        where = f" ({', '.join(placement.at(*diff))})" if diff else ""
        message = (f"differs from {self.rank} in {len(diff)} "
                   f"{'square' if len(diff) == 1 else 'squares'}{where}, "
                   f"fewer than {self.at_least}")
        return [Violation(self.label, message, placement.at(*diff))]

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Differs(self.rank, self.at_least, len(pieces))


class _Exclude(Tracker):
    """Exclude: the excluded ranks (a bit each) that the placed files still match."""

    def __init__(self, ranks: frozenset[str], files: int) -> None:
        listed = sorted(ranks)
        self.all = (1 << len(listed)) - 1
        self.match: list[dict[str, int]] = [{} for _ in range(files)]
        for bit, rank in enumerate(listed):
            for file, letter in enumerate(rank):
                self.match[file][letter] = self.match[file].get(letter, 0) | (1 << bit)

    def start(self) -> State:
        return self.all

    def place(self, state: State, file: int, letter: str) -> State | None:
        return state & self.match[file].get(letter, 0)

    def finish(self, state: State) -> bool:
        return bool(state == 0)

    def states(self, squares: int) -> int:
        # the ranks still matched are those sharing the placed files: one set a prefix
        return min(1 << self.all.bit_length(), self.all.bit_length() * squares + 1)


@dataclass(frozen=True)
class Exclude(Rule):
    """The listed ranks are left out of the family."""

    kind: ClassVar[str] = "exclude"
    keys: ClassVar[tuple[str, ...]] = ("ranks",)
    ranks: frozenset[str]

    def words(self, names: Mapping[str, str] | None = None) -> str:
        one = len(self.ranks) == 1
        return (f"The {'rank' if one else 'ranks'} {', '.join(sorted(self.ranks))} "
                f"{'is' if one else 'are'} left out.")

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        if "ranks" not in table:
            raise ctx.error("ranks", "missing")
        value = table["ranks"]
        if not isinstance(value, list) or not value:
            raise ctx.error("ranks", f"expected a non-empty array of ranks, got {shown(value)}")
        if len(value) > MAX_ITEMS:
            raise ctx.error("ranks", f"{len(value):,} ranks, more than {MAX_ITEMS:,}")
        return cls(frozenset(ctx.rank(v, "ranks") for v in value))

    @property
    def label(self) -> str:
        return f"{self.kind} {','.join(sorted(self.ranks))}"

    def constrain(self, model: Model) -> None:
        names = tuple(model.domains)
        letters = [model.letter_of[n] for n in names]
        excluded, files = self.ranks, model.region_size

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

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Exclude(self.ranks, len(pieces))


#: Every rule kind, by the name rule files use, in the order defined above:
#: the registry each kind joins by being defined (:class:`~solver.kinds.base.Rule`).
KINDS: Final[dict[str, type[Rule]]] = REGISTRY


def read_rule(table: object, ctx: Context) -> Rule:
    """Read one ``[[rule]]`` table into a rule of a known kind."""
    if not isinstance(table, dict):
        raise InvalidRuleFileError(ctx.path, f"expected a table, got {type_name(table)} "
                                             f"{shown(table)}", f"rule[{ctx.index}]")
    if "kind" not in table:
        raise ctx.error("kind", f"missing; kinds are {', '.join(KINDS)}")
    name = table["kind"]
    if not isinstance(name, str):
        raise ctx.error("kind", f"expected a string, got {type_name(name)} {shown(name)}")
    kind = KINDS.get(name)
    if kind is None:
        raise ctx.error("kind", f"unknown kind {quote(name)}", suggest(name, list(KINDS)))
    for key in table:
        if key != "kind" and key not in kind.keys:
            valid = ", ".join(kind.keys) or "none"
            raise ctx.error(key, f"unknown key {quote(key)} for kind {name!r} (keys: {valid})",
                            suggest(key, list(kind.keys)))
    return kind.from_table(table, ctx)


def inexact(rules: Sequence[Rule], steps: Sequence[Step]) -> str | None:
    """Why placing pieces by ``steps`` does not give exactly the ranks obeying ``rules``.

    ``None`` means every rule is captured by the steps and every restriction
    of the steps (a colour, a fixed order in the last step) comes from a
    rule. Arithmetic numbering needs this, and also the same number of
    choices at each step on every path (:attr:`Numbering.uniform`).

    >>> from solver.syntax.steps import parse_steps
    >>> steps = parse_steps(["B:light", "B:dark", "Q", "NN", "RKR"], "KQRRBBNN")
    >>> print(inexact([], steps))
    step 'B:light' puts a bishop on light squares, but no opposite-colours BB rule asks for it
    """
    for rule in rules:
        if not rule.captured_by(steps):
            return f"the steps do not capture rule {rule.label}"
    for step in steps:
        if step.colour is None and step.relative is None:
            continue
        if any(rule.justifies(step) for rule in rules):
            continue
        letter = step.pieces[0]
        if step.colour is not None:
            return (f"step {quote(step.text)} puts {'a' if len(step.pieces) == 1 else 'the'} "
                    f"{piece_name(letter, len(step.pieces))} on {step.colour} squares, but no "
                    f"{OppositeColours.kind} {letter * 2} rule asks for it")
        kind = OppositeColours.kind if step.opposite else SameColour.kind
        return (f"step {quote(step.text)} ties the {piece_name(letter)} to the colour of the "
                f"{piece_name(step.relative or '')}, but no {kind} "
                f"{letter}{step.relative} rule asks for it")
    fill = fill_step(steps)
    if fill is not None and not _order_forced(fill.pieces, rules):
        return (f"the last step {quote(fill.text)} fixes the order of {fill.pieces}, but the rules "
                "allow other orders of those pieces")
    return None


#: The longest last step whose order :func:`inexact` proves forced by the rules.
MAX_FILL: Final = 8


def _order_forced(order: str, rules: Sequence[Rule]) -> bool:
    """Whether the order-only rules among these pieces allow them only in ``order``."""
    if len(order) > MAX_FILL:
        return False
    letters = set(order)
    ordering = [r for r in rules if r.order_only and r.letters and r.letters <= letters]
    return all(
        any(r.violations(Placement("".join(other))) for r in ordering)
        for other in set(permutations(order)) if "".join(other) != order
    )
