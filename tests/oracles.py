"""The oracles: which first ranks a family's rules allow, from the rules of chess alone.

Every test that compares the solver with the truth takes the truth from here.
This module imports nothing from :mod:`solver`: it runs through every
arrangement of the pieces (:func:`itertools.permutations`) and keeps the ones
that obey each rule as coded below. The conventions are the rules of chess:
files are counted from 0 (the a-file), a1 is a dark square, and a pawn on the
second rank is defended by the pieces of the first rank that could capture on
its square.

:func:`plain_capablanca_random` is the one oracle that uses a constraint
solver: python-constraint itself, with the rules written as plain lambdas,
the baseline the tuned solver is measured against.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import combinations, permutations

Rank = str
Test = Callable[[Rank], bool]

FILES = "abcdefghijkl"
STANDARD = "KQRRBBNN"  # one side's pieces in every 8-file bundled family


# -- arrangements ---------------------------------------------------------------------


@cache
def arrangements(pieces: str = STANDARD) -> frozenset[Rank]:
    """Every arrangement of ``pieces`` on as many files (5,040 for ``KQRRBBNN``)."""
    return frozenset(map("".join, permutations(pieces)))


def brute_force(pieces: str, tests: Sequence[Test]) -> set[Rank]:
    """The arrangements of ``pieces`` that pass every test."""
    return {r for r in arrangements(pieces) if all(t(r) for t in tests)}


# -- the rules of chess ---------------------------------------------------------------


def files_of(rank: Rank, letter: str) -> list[int]:
    return [f for f, piece in enumerate(rank) if piece == letter]


def two(rank: Rank, pieces: str) -> tuple[int, int]:
    """The files of a pair (``BB``) or of two pieces the family has once (``QA``)."""
    if pieces[0] == pieces[1]:
        first, second = files_of(rank, pieces[0])
        return first, second
    return files_of(rank, pieces[0])[0], files_of(rank, pieces[1])[0]


def is_dark(file: int) -> bool:
    return file % 2 == 0  # a1 is dark, b1 light, ...


ROOK = {(0, 1), (0, -1), (1, 0), (-1, 0)}
BISHOP = {(1, 1), (1, -1), (-1, 1), (-1, -1)}
KNIGHT = {(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)}
#: One-square moves of each piece (enough: a pawn on rank 2 is next to rank 1).
MOVES = {
    "K": ROOK | BISHOP, "Q": ROOK | BISHOP, "R": ROOK, "B": BISHOP, "N": KNIGHT,
    "A": BISHOP | KNIGHT, "C": ROOK | KNIGHT,
}


def pawns_protected(rank: Rank) -> bool:
    """Every pawn on the second rank can be recaptured by a piece of the first."""
    return all(
        any((pawn - file, 1) in MOVES[piece] for file, piece in enumerate(rank))
        for pawn in range(len(rank))
    )


# -- one test per rule kind -------------------------------------------------------------


def opposite(pieces: str) -> Test:
    return lambda r: is_dark(two(r, pieces)[0]) != is_dark(two(r, pieces)[1])


def same(pieces: str) -> Test:
    return lambda r: is_dark(two(r, pieces)[0]) == is_dark(two(r, pieces)[1])


def between(piece: str, pair: str) -> Test:
    def test(r: Rank) -> bool:
        low, high = sorted(two(r, pair))
        return all(low < f < high for f in files_of(r, piece))
    return test


def apart(pieces: str) -> Test:
    return lambda r: abs(two(r, pieces)[0] - two(r, pieces)[1]) > 1


def left_of(pieces: str) -> Test:
    return lambda r: two(r, pieces)[0] < two(r, pieces)[1]


def on(piece: str, files: str) -> Test:
    return lambda r: all(FILES[f] in files for f in files_of(r, piece))


def off(piece: str, files: str) -> Test:
    return lambda r: all(FILES[f] not in files for f in files_of(r, piece))


def differs(target: Rank, at_least: int) -> Test:
    return lambda r: sum(a != b for a, b in zip(r, target, strict=True)) >= at_least


def excluded(ranks: Sequence[Rank]) -> Test:
    return lambda r: r not in ranks


def holds(files: str, pieces: str) -> Test:
    """The squares on ``files`` (rank 1) hold exactly ``pieces``, in any order."""
    return lambda r: sorted(r[FILES.index(f)] for f in files) == sorted(pieces)


bishops_opposite = opposite("BB")
king_between_rooks = between("K", "RR")


def chess960_rank(rank: Rank) -> bool:
    """Fischer's two rules: bishops on opposite colours, the king between the rooks."""
    return bishops_opposite(rank) and king_between_rooks(rank)


# -- the 8-file bundled families ----------------------------------------------------------

#: The rules of each 8-file bundled family for one side's rank, as published
#: (Wikipedia "Fischer random chess", "Shuffle chess"; chessprogramming.org
#: "Chess324": king on e1, rooks in the corners, bishops on opposite colours;
#: Double Fischer Random Chess: a Chess960 rank for each side).
EIGHT_FILE_RULES: dict[str, tuple[Test, ...]] = {
    "shuffle": (),
    "bishops-opposite": (bishops_opposite,),
    "king-between-rooks": (king_between_rooks,),
    "chess960": (chess960_rank,),
    "dfrc": (chess960_rank,),
    "chess324": (on("K", "e"), on("R", "ah"), bishops_opposite),
}


@cache
def family_ranks(name: str) -> frozenset[Rank]:
    """One side's ranks of an 8-file bundled family, by brute force."""
    return frozenset(brute_force(STANDARD, EIGHT_FILE_RULES[name]))


# -- ten files ------------------------------------------------------------------------------


def capablanca_random_protected() -> set[Rank]:
    """Every arrangement of KQACRRBBNN on 10 files with the bishops on opposite
    colours and not on neighbouring files, the queen and archbishop on opposite
    colours, the king between the rooks and every pawn protected.

    Loops over all arrangements (bishops, rooks, knights, then the four single
    pieces); a loop is cut short as soon as the pieces placed break a rule.
    """
    found = set()
    squares = range(10)
    for bishops in combinations(squares, 2):
        b1, b2 = bishops
        if is_dark(b1) == is_dark(b2) or b2 - b1 == 1:
            continue
        rest = [f for f in squares if f not in bishops]
        for rooks in combinations(rest, 2):
            rest2 = [f for f in rest if f not in rooks]
            for knights in combinations(rest2, 2):
                rest3 = [f for f in rest2 if f not in knights]
                for k, q, a, c in permutations(rest3):
                    if not rooks[0] < k < rooks[1] or is_dark(q) == is_dark(a):
                        continue
                    row = [""] * 10
                    for f in bishops:
                        row[f] = "B"
                    for f in rooks:
                        row[f] = "R"
                    for f in knights:
                        row[f] = "N"
                    row[k], row[q], row[a], row[c] = "K", "Q", "A", "C"
                    rank = "".join(row)
                    if pawns_protected(rank):
                        found.add(rank)
    return found


def plain_capablanca_random() -> set[Rank]:
    """Capablanca Random Chess placement as a naive python-constraint model."""
    from constraint import AllDifferentConstraint, Problem

    problem = Problem()
    names = ["K", "Q", "A", "C", "R1", "R2", "B1", "B2", "N1", "N2"]
    problem.addVariables(names, range(10))
    problem.addConstraint(AllDifferentConstraint())
    for a, b in (("R1", "R2"), ("B1", "B2"), ("N1", "N2")):
        problem.addConstraint(lambda x, y: x < y, [a, b])
    problem.addConstraint(lambda x, y: x % 2 != y % 2, ["B1", "B2"])
    problem.addConstraint(lambda x, y: x % 2 != y % 2, ["Q", "A"])
    problem.addConstraint(lambda k, x, y: x < k < y, ["K", "R1", "R2"])
    ranks = set()
    for solution in problem.getSolutions():
        row = [""] * 10
        for name, file in solution.items():
            row[file] = name[0]
        ranks.add("".join(row))
    return ranks


def seed_draws(phrase: bytes, n: int, k: int) -> list[int]:
    """The README's seed recipe, written again from the README (not the code): SHA-256
    blocks of the UTF-8 phrase and an 8-byte big-endian block number, 64-bit
    big-endian words, one a number while ``n <= 2**64``, rejected at the largest
    multiple of ``n``, the remainder."""
    import hashlib

    out: list[int] = []
    block = 0
    limit = 2**64 - 2**64 % n
    while len(out) < k:
        digest = hashlib.sha256(phrase + block.to_bytes(8, "big")).digest()
        for start in range(0, 32, 8):
            word = int.from_bytes(digest[start:start + 8], "big")
            if word < limit and len(out) < k:
                out.append(word % n)
        block += 1
    return out


def seed_words(phrase: str) -> Iterator[int]:
    """The README's seed recipe as a stream: SHA-256 of the NFC UTF-8 phrase and an
    8-byte big-endian block counter, cut into 64-bit big-endian words."""
    import hashlib
    import unicodedata

    data = unicodedata.normalize("NFC", phrase).encode()
    block = 0
    while True:
        digest = hashlib.sha256(data + block.to_bytes(8, "big")).digest()
        yield from (int.from_bytes(digest[i:i + 8], "big") for i in range(0, 32, 8))
        block += 1


def seed_below(stream: Iterator[int], n: int) -> int:
    """The next number below ``n`` the stream gives: words at or above the
    largest multiple of ``n`` under 2**64 are rejected, the rest taken mod ``n``."""
    while (w := next(stream)) >= 2**64 - 2**64 % n:
        pass
    return w % n
