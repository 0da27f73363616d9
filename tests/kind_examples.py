"""Example data for every rule kind, keyed by the kind's name in rule files.

Every test that runs "each rule kind" takes its kinds from the registry
(:data:`solver.kinds.vocabulary.KINDS`) and its data from :data:`EXAMPLES`;
``test_structure`` fails when a registered kind has no entry here, so a new
kind cannot be skipped silently. Each entry gives

* a rule table on the standard pieces ``KQRRBBNN`` on 8 files with a rank
  that obeys it and one that breaks it (checked by hand, not by the code
  under test),
* rules of the kind on small boards, with their tests from :mod:`oracles`,
  which knows nothing of :mod:`solver` (:attr:`Example.cases`), and
* :attr:`Example.draw`: a random rule of the kind for a small board, with its
  test from :mod:`oracles`, or ``None`` when the board's pieces do not allow
  the kind.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from hypothesis import strategies as st
from oracles import (
    Test,
    apart,
    between,
    differs,
    excluded,
    holds,
    left_of,
    off,
    on,
    opposite,
    pawns_protected,
    same,
)


@dataclass(frozen=True)
class Board:
    """A small board: its width and one side's pieces."""

    files: int
    pieces: str

    @cached_property
    def counts(self) -> Counter[str]:
        return Counter(self.pieces)

    @cached_property
    def singles(self) -> list[str]:
        """The pieces the board has once each."""
        return [p for p, n in self.counts.items() if n == 1]

    @cached_property
    def twos(self) -> list[str]:
        """Every *two pieces* argument: a pair (``BB``) or two single pieces in order (``QA``)."""
        pairs = [p * 2 for p, n in self.counts.items() if n == 2]
        return pairs + [a + b for a in self.singles for b in self.singles if a != b]

    @property
    def letters(self) -> str:
        return "abcdefghijkl"[:self.files]


#: A random rule of one kind for a board: its table and its oracle, or None.
Drawn = tuple[str, Test] | None
Draw = Callable[[st.DrawFn, Board], Drawn]
Case = tuple[str, int, str, str, Test]


@dataclass(frozen=True)
class Example:
    """One rule kind's example data."""

    #: The rule's keys on ``KQRRBBNN``, 8 files (without ``kind``).
    table: str
    #: A rank of ``KQRRBBNN`` that obeys the rule, and one that breaks it.
    good: str
    bad: str
    #: A random rule of the kind for a small board.
    draw: Draw
    #: Rules of the kind on small boards, each checked against brute force:
    #: a name, the files, the pieces, the rule's table and its oracle.
    cases: tuple[Case, ...]


def _two_pieces(kind: str, test: Callable[[str], Test]) -> Draw:
    def draw_rule(draw: st.DrawFn, board: Board) -> Drawn:
        if not board.twos:
            return None
        pieces = draw(st.sampled_from(board.twos))
        return f'kind = "{kind}"\npieces = "{pieces}"', test(pieces)
    return draw_rule


def _left_of(draw: st.DrawFn, board: Board) -> Drawn:
    twos = [t for t in board.twos if t[0] != t[1]]  # a pair is refused
    if not twos:
        return None
    pieces = draw(st.sampled_from(twos))
    return f'kind = "left-of"\npieces = "{pieces}"', left_of(pieces)


def _between(draw: st.DrawFn, board: Board) -> Drawn:
    if not board.twos:
        return None
    pair = draw(st.sampled_from(board.twos))
    others = [p for p in board.counts if p not in pair]
    if not others:
        return None
    piece = draw(st.sampled_from(others))
    return f'kind = "between"\npiece = "{piece}"\npair = "{pair}"', between(piece, pair)


def _files(kind: str, test: Callable[[str, str], Test]) -> Draw:
    def draw_rule(draw: st.DrawFn, board: Board) -> Drawn:
        piece = draw(st.sampled_from(sorted(board.counts)))
        chosen = "".join(sorted(draw(st.sets(st.sampled_from(board.letters), min_size=1))))
        return f'kind = "{kind}"\npiece = "{piece}"\nfiles = "{chosen}"', test(piece, chosen)
    return draw_rule


def _on_squares(draw: st.DrawFn, board: Board) -> Drawn:
    piece = draw(st.sampled_from(sorted(board.counts)))
    chosen = "".join(sorted(draw(st.sets(st.sampled_from(board.letters), min_size=1))))
    squares = " ".join(f"{file}1" for file in chosen)
    return f'kind = "on-squares"\npiece = "{piece}"\nsquares = "{squares}"', on(piece, chosen)


def _pawns_protected(draw: st.DrawFn, board: Board) -> Drawn:
    return 'kind = "pawns-protected"', pawns_protected


def _differs_from(draw: st.DrawFn, board: Board) -> Drawn:
    target = "".join(draw(st.permutations(board.pieces)))
    at_least = draw(st.integers(1, board.files))
    return (f'kind = "differs-from"\nrank = "{target}"\nat-least = {at_least}',
            differs(target, at_least))


def _exclude(draw: st.DrawFn, board: Board) -> Drawn:
    ranks = ["".join(r) for r in draw(st.lists(st.permutations(board.pieces),
                                               min_size=1, max_size=3))]
    listed = ", ".join(f'"{r}"' for r in ranks)
    return f'kind = "exclude"\nranks = [{listed}]', excluded(ranks)


def _holds(draw: st.DrawFn, board: Board) -> Drawn:
    size = draw(st.integers(1, board.files - 1))
    start = draw(st.integers(0, board.files - size))
    files = board.letters[start:start + size]
    pieces = "".join(draw(st.permutations(board.pieces))[:size])
    squares = f"{files[0]}1-{files[-1]}1"
    return f'kind = "holds"\nsquares = "{squares}"\npieces = "{pieces}"', holds(files, pieces)


def _only(draw: st.DrawFn, board: Board) -> Drawn:
    ranks = sorted({"".join(r) for r in draw(st.lists(st.permutations(board.pieces),
                                                      min_size=1, max_size=4))})
    listed = ", ".join(f'"{r}"' for r in ranks)
    return f'kind = "only"\nranks = [{listed}]', lambda r: r in ranks


def _one_of(draw: st.DrawFn, board: Board) -> Drawn:
    size = draw(st.integers(1, min(3, board.files - 1)))
    start = draw(st.integers(0, board.files - size))
    files = board.letters[start:start + size]
    orders = sorted({"".join(draw(st.permutations(board.pieces))[:size])
                     for _ in range(draw(st.integers(1, 3)))})
    listed = ", ".join(f'"{o}"' for o in orders)
    return (f'kind = "one-of"\nsquares = "{files[0]}1-{files[-1]}1"\norders = [{listed}]',
            lambda r: r[start:start + size] in orders)


#: Each rule kind's example data, by the kind's name.
EXAMPLES: dict[str, Example] = {
    "opposite-colours": Example(
        'pieces = "BB"', "RNBQKBNR", "BRBNKQNR", _two_pieces("opposite-colours", opposite), (
            ("pair", 6, "KRRBBN", 'kind = "opposite-colours"\npieces = "BB"', opposite("BB")),
            ("two", 5, "KQABN", 'kind = "opposite-colours"\npieces = "QA"', opposite("QA")),
        )),
    "same-colour": Example(
        'pieces = "QK"', "QRKRBBNN", "RNBQKBNR", _two_pieces("same-colour", same), (
            ("two", 5, "KQABN", 'kind = "same-colour"\npieces = "AQ"', same("AQ")),
            ("pair", 6, "KQBBNN", 'kind = "same-colour"\npieces = "NN"', same("NN")),
        )),
    "between": Example(
        'piece = "K"\npair = "RR"', "RNBQKBNR", "KRRQBBNN", _between, (
            ("pair", 5, "KRRNQ", 'kind = "between"\npiece = "K"\npair = "RR"',
             between("K", "RR")),
            ("two", 6, "KQANNB", 'kind = "between"\npiece = "N"\npair = "QA"',
             between("N", "QA")),
        )),
    "not-adjacent": Example(
        'pieces = "BB"', "RNBQKBNR", "RNBBQKNR", _two_pieces("not-adjacent", apart), (
            ("pair", 6, "KRRBBQ", 'kind = "not-adjacent"\npieces = "BB"', apart("BB")),
            ("two", 5, "KQRRN", 'kind = "not-adjacent"\npieces = "KQ"', apart("KQ")),
        )),
    "left-of": Example(
        'pieces = "QK"', "RNBQKBNR", "RNBKQBNR", _left_of, (
            ("QK", 5, "KQRRN", 'kind = "left-of"\npieces = "QK"', left_of("QK")),
            ("AK", 6, "KQANNB", 'kind = "left-of"\npieces = "AK"', left_of("AK")),
        )),
    "on-files": Example(
        'piece = "K"\nfiles = "defg"', "RNBQKBNR", "KRNQBBNR", _files("on-files", on), (
            ("string", 6, "KRRBBN", 'kind = "on-files"\npiece = "R"\nfiles = "af"',
             on("R", "af")),
            ("list", 5, "KRRBN", 'kind = "on-files"\npiece = "b"\nfiles = ["b", "C", "d"]',
             on("B", "bcd")),
        )),
    "not-on-files": Example(
        'piece = "Q"\nfiles = "d"', "RNBKQBNR", "RNBQKBNR", _files("not-on-files", off), (
            ("commas", 5, "KQRRN", 'kind = "not-on-files"\npiece = "K"\nfiles = "a, e"',
             off("K", "ae")),
        )),
    "on-squares": Example(
        'piece = "K"\nsquares = "d1-g1"', "RNBQKBNR", "KRNQBBNR", _on_squares, (
            ("rectangle", 6, "KRRBBN", 'kind = "on-squares"\npiece = "R"\nsquares = "a1-b1, f1"',
             on("R", "abf")),
        )),
    "pawns-protected": Example(
        "", "RNBQKBNR", "BBKNNRQR", _pawns_protected, (  # BBKNNRQR: e2 undefended
            ("6 files", 6, "KACRBN", 'kind = "pawns-protected"', pawns_protected),
            ("5 files", 5, "KQRNN", 'kind = "pawns-protected"', pawns_protected),
            ("4 files", 4, "KRBN", 'kind = "pawns-protected"', pawns_protected),
        )),
    "differs-from": Example(
        'rank = "RNBQKBNR"\nat-least = 2', "QNRBBNKR", "RNBQKBNR", _differs_from, (
            ("3", 5, "KRRBN", 'kind = "differs-from"\nrank = "RBKNR"\nat-least = 3',
             differs("RBKNR", 3)),
            ("default", 5, "KRRBN", 'kind = "differs-from"\nrank = "r b k n r"',
             differs("RBKNR", 1)),
        )),
    "exclude": Example(
        'ranks = ["RNBQKBNR"]', "QNRBBNKR", "RNBQKBNR", _exclude, (
            ("two", 5, "KRRBN", 'kind = "exclude"\nranks = ["RBKNR", "rkrbn"]',
             excluded(["RBKNR", "RKRBN"])),
        )),
    "holds": Example(
        'squares = "a1-b1 | h1"\npieces = "RN | R"', "RNBQKBNR", "NRBQKBRN", _holds, (
            ("wing", 5, "KRRBN", 'kind = "holds"\nsquares = "a1-b1"\npieces = "RB"',
             holds("ab", "RB")),
            ("fixed", 6, "KQRRNN", 'kind = "holds"\nsquares = "a1 f1"\npieces = "RR"\n'
             'each = "square"', lambda r: r[0] == "R" and r[5] == "R"),
        )),
    "only": Example(
        'ranks = ["RNBQKBNR", "QNRBBNKR"]', "QNRBBNKR", "RNBKQBNR", _only, (
            ("two", 5, "KRRBN", 'kind = "only"\nranks = ["RBKNR", "rkrbn"]',
             lambda r: r in ("RBKNR", "RKRBN")),
        )),
    "one-of": Example(
        'squares = "a1-b1"\norders = ["RN", "NR"]', "RNBQKBNR", "BRNQKBNR", _one_of, (
            ("wing", 5, "KRRBN", 'kind = "one-of"\nsquares = "a1-b1"\norders = ["RB", "KR"]',
             lambda r: r[:2] in ("RB", "KR")),
        )),
}
