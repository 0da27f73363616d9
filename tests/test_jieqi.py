"""Jieqi (covered xiangqi, rules/jieqi.toml) against its definition.

pychess-variants' Jieqi (https://www.pychess.org/variants/jieqi): xiangqi
whose pieces, all but the king, start covered and shuffled over the xiangqi
start squares. Each side's 15 covered pieces (2 R, 2 N, 2 B, 2 A, 2 C,
5 P) on the 15 squares: the multinomial 15! / (2!^5 * 5!), computed here from
the definition, not from the solver.
"""

from __future__ import annotations

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
