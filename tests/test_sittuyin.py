"""The ``on-squares`` rule kind and the bundled Sittuyin set-ups.

Fairy-Stockfish's ``sittuyin`` (src/variant.cpp, ``sittuyin_variant()``):
each side drops its king, met, two elephants, two horses and two chariots
on its own ranks (``whiteDropRegion = Rank1BB | Rank2BB | Rank3BB``, Black's
ranks 8-6) on the squares its pawns leave (start FEN
``8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1``), the
chariots on the back rank only (``sittuyinRookDrop``, ``position.h``:
``if (type_of(pc) == ROOK && sittuyin_rook_drop()) b &= rank_bb(relative_rank(us, RANK_1))``).
The golden numbers below come from that definition, never from the solver:
a formula, and a brute force over a small board.

Oracle (test-only, GPL, skipped when absent): pyffish.
"""

from __future__ import annotations

import random
from itertools import permutations
from math import comb, factorial
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inprocess import chess960

from solver.family import Family

#: White's drop squares: ranks 1-3 less its pawns' a3-d3.
DROP = [f"{f}{r}" for r in (1, 2, 3) for f in "abcdefgh" if not (r == 3 and f in "abcd")]


def per_side() -> int:
    """Fairy-Stockfish's count for one side, from the definition: the two
    chariots on two of rank 1's eight squares, then the king, met, two
    elephants and two horses on six of the 18 drop squares left."""
    assert len(DROP) == 20
    rest = factorial(18) // (factorial(12) * factorial(2) * factorial(2))
    return comb(8, 2) * rest


def test_the_count_is_fairy_stockfish_s() -> None:
    """93,562,560 per side (issue 38's measure), squared for the two sides."""
    n = per_side()
    assert n == 93_562_560
    family = Family.load("sittuyin")
    assert family.side_count == n
    assert family.count == n * n
    assert chess960(["solve", "--count", "-r", "sittuyin"]).stdout == f"{n * n}\n"


SMALL = """\
name = "rooks-back"
title = "Rooks on the back rank"
source = "tests/test_sittuyin.py"
files = 4
pawns = "none"
sides = "independent-rotate"
region = "a1-d2, c3-d3"
pieces = "RRKN......"
count = 0

[[rule]]
kind = "on-squares"
piece = "R"
squares = "a1-d1"
"""


def _small_by_brute_force() -> list[str]:
    """Every arrangement of ``RRKN`` and six empty squares on a1-d2, c3-d3
    (region order) with both rooks on a1-d1 (the first four squares)."""
    found = {"".join(p) for p in permutations("RRKN......")}
    return sorted(r for r in found if all(i < 4 for i, c in enumerate(r) if c == "R"))


def test_a_small_on_squares_family_is_its_brute_force(tmp_path: Path) -> None:
    """The ranks the family numbers are exactly the brute force's, and each
    id reads back."""
    path = tmp_path / "small.toml"
    expected = _small_by_brute_force()
    assert len(expected) == comb(4, 2) * 8 * 7  # rooks, then king and knight
    path.write_text(SMALL.replace("count = 0", f"count = {len(expected) ** 2}"))
    family = Family.load(str(path))
    table = family.side_table()
    assert sorted(table) == expected
    assert len(set(table)) == len(table)
    for number, rank in enumerate(table):
        assert family.rank_id(rank) == number
        assert family.rank_of(number) == rank
    result = chess960(["check", "--rules", str(path)])
    assert result.returncode == 0, result.stderr
    assert "proven" in result.stdout


@pytest.mark.parametrize(("squares", "error"), [
    ("a1-z9", "rule[1].squares: 'a1-z9' is not a square such as 'e2'"),
    ("a1-d4", "rule[1].squares: a3 in 'a1-d4' is not a square of the region"),
])
def test_bad_squares_are_refused(tmp_path: Path, squares: str, error: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(SMALL.replace('"a1-d1"', f'"{squares}"'))
    result = chess960(["solve", "--count", "--rules", str(path)])
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {path}: {error}")
    assert result.stderr.count("\n") == 1


def test_a_bad_letter_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(SMALL.replace('piece = "R"', 'piece = "Q"'))
    result = chess960(["solve", "--count", "--rules", str(path)])
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"error: {path}: rule[1].piece: piece 'Q' is not among this family's pieces ")
    assert result.stderr.count("\n") == 1


def _obeys_sittuyin(fen: str) -> bool:
    """A FEN's board is a Sittuyin set-up by the definition: the pawns in
    place, each side's eight pieces in its half, the chariots on its back rank."""
    rows = fen.split("[", maxsplit=1)[0].split("/")
    board: dict[str, str] = {}
    for r, row in zip(range(8, 0, -1), rows, strict=True):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                board[f"{'abcdefgh'[f]}{r}"] = c
                f += 1
    white = {sq: c for sq, c in board.items() if c.isupper()}
    black = {sq: c.upper() for sq, c in board.items() if c.islower()}
    turned = {f"{'abcdefgh'[7 - 'abcdefgh'.index(sq[0])]}{9 - int(sq[1])}": c
              for sq, c in black.items()}
    for side in (white, turned):
        pawns = {sq for sq, c in side.items() if c == "P"}
        if pawns != {"a3", "b3", "c3", "d3", "e4", "f4", "g4", "h4"}:
            return False
        pieces = {sq: c for sq, c in side.items() if c != "P"}
        if sorted(pieces.values()) != sorted("KFRRSSNN") or not set(pieces) <= set(DROP):
            return False
        if any(c == "R" and sq[1] != "1" for sq, c in pieces.items()):
            return False
    return True


@settings(max_examples=20)  # each id is found by counting: a few ms with counts kept
@given(st.integers(0, 93_562_560 ** 2 - 1))
def test_ids_round_trip_and_obey_the_definition(number: int) -> None:
    family = Family.load("sittuyin")
    position = family.position(number)
    fen = position.fen("fsf")
    assert _obeys_sittuyin(fen), fen
    assert family.id(fen) == number
    assert family.id(str(number)) == number


def test_the_first_and_last_ids() -> None:
    family = Family.load("sittuyin")
    first = family.position(0).fen("fsf")
    assert first == "4kfrr/8/ssnnpppp/pppp4/4PPPP/PPPPNNSS/8/RRFK4[] w - - 0 1"
    last = family.position(family.count - 1).fen("fsf")
    assert _obeys_sittuyin(last), last
    assert family.id(first) == 0
    assert family.id(last) == family.count - 1


@pytest.mark.parametrize("games", [1, pytest.param(20, marks=pytest.mark.slow)])
def test_fairy_stockfish_s_placements_are_read_and_written_back(games: int) -> None:
    """The oracle: pyffish plays the placement phase (random legal drops, both
    sides); ``id`` reads the FEN it writes after the last drop, and the FEN
    written for that id has the same board and hand, and pyffish validates it
    (Fairy-Stockfish's move counters, ``0 9`` after 16 drops, are not
    written: a start position is written ``0 1``)."""
    sf = pytest.importorskip("pyffish")
    family = Family.load("sittuyin")
    rng = random.Random(38)
    start = sf.start_fen("sittuyin")
    for _ in range(games):
        moves: list[str] = []
        for _ in range(16):
            moves.append(rng.choice(sf.legal_moves("sittuyin", start, moves)))
        theirs = sf.get_fen("sittuyin", start, moves)
        assert _obeys_sittuyin(theirs), theirs
        ours = family.position(family.id(theirs)).fen("fsf")
        assert ours.split()[:4] == theirs.split()[:4]
        assert sf.validate_fen(ours, "sittuyin") == 1, ours
