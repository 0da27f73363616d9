"""Jieqi (covered xiangqi, rules/jieqi.toml) against its definition.

pychess-variants' Jieqi (https://www.pychess.org/variants/jieqi): xiangqi
whose pieces, all but the king, start covered and shuffled over the xiangqi
start squares. Each side's 15 covered pieces (2 R, 2 N, 2 B, 2 A, 2 C,
5 P) on the 15 squares: the multinomial 15! / (2!^5 * 5!), computed here from
the definition, not from the solver.
"""

from __future__ import annotations

import random
from math import factorial

import pytest

from solver.check import check
from solver.family import Family
from solver.notation.fen import position_fen

COVERED = {"R": 2, "N": 2, "B": 2, "A": 2, "C": 2, "P": 5}


def _per_side() -> int:
    n = factorial(sum(COVERED.values()))
    for k in COVERED.values():
        n //= factorial(k)
    return n


def test_count_is_the_multinomial() -> None:
    family = Family.load("jieqi")
    assert _per_side() == 340_540_200  # the figure issue 38 quotes
    assert family.side_count == _per_side()
    assert family.count == _per_side() ** 2


def test_ids_round_trip() -> None:
    family = Family.load("jieqi")
    for number in (0, 1, 123_456_789, family.count - 1):
        position = family.position(number)
        assert position.white[4] == "K"
        assert family.rank_id(position.white) == number // family.side_count
        assert family.rank_id(position.black) == number % family.side_count
        assert family.id(position_fen(position)) == number
        assert family.pair(*divmod(number, family.side_count)).id == number


@pytest.mark.slow  # about 4 s: 100 round trips through the counting
def test_check_proves_by_counting() -> None:
    report = check(Family.load("jieqi"))
    assert report.ok, report.claims
    assert report.found == _per_side() ** 2
    assert report.method.startswith("counting and ")


def test_a_listed_family_is_still_proven_by_listing() -> None:
    report = check(Family.load("janggi"))
    assert report.ok
    assert report.method == "listing"


# pychess-variants server/fairy/jieqi.py (gbtami/pychess-variants, AGPL-3.0;
# these lists are quoted to test against, no code is shipped): the covered
# pieces' squares and the pieces shuffled over them, one side at a time.
BLACK_SQUARES = ["a10", "b10", "c10", "d10", "f10", "g10", "h10", "i10", "b8", "h8",
                 "a7", "c7", "e7", "g7", "i7"]
BLACK_PIECES = ["r", "r", "n", "n", "b", "b", "a", "a", "c", "c", "p", "p", "p", "p", "p"]
RED_SQUARES = ["a4", "c4", "e4", "g4", "i4", "b3", "h3", "a1", "b1", "c1", "d1", "f1", "g1",
               "h1", "i1"]
RED_PIECES = ["R", "R", "N", "N", "B", "B", "A", "A", "C", "C", "P", "P", "P", "P", "P"]


def _make_initial_mapping(rng: random.Random) -> dict[str, str]:
    """pychess-variants' make_initial_mapping(), with a seeded shuffle."""
    black, red = BLACK_PIECES[:], RED_PIECES[:]
    rng.shuffle(black)
    rng.shuffle(red)
    mapping = {}
    for i in range(15):
        mapping[RED_SQUARES[i]] = red[i]
        mapping[BLACK_SQUARES[i]] = black[i]
    return mapping


def _placement(mapping: dict[str, str]) -> str:
    """The FEN placement of the uncovered start: the kings on e1 and e10."""
    board = dict(mapping, e1="K", e10="k")
    rows = []
    for rank in range(10, 0, -1):
        row, empty = "", 0
        for file in "abcdefghi":
            piece = board.get(f"{file}{rank}")
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def test_pychess_shuffles_are_the_family() -> None:
    """Every start pychess-variants' shuffle deals is one of the family's,
    and the family's id of it gives the same placement back."""
    family = Family.load("jieqi")
    rng = random.Random(38)
    seen = set()
    for _ in range(200):
        placement = _placement(_make_initial_mapping(rng))
        number = family.id(f"{placement} w - - 0 1")
        assert position_fen(family.position(number)).split()[0] == placement
        seen.add(number)
    assert len(seen) == 200  # 340,540,200² starts: 200 deals, 200 ids
