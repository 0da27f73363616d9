"""Numbering by plain steps, projection by projection (solver/numbering/counting/levels.py).

Golden data is a brute force written here: every arrangement of the pieces,
kept when it obeys rules checked by hand below, sorted by the canonical key
spelled out from the definition (last step first; a step's choice is where its
letter stands among the squares the earlier steps leave, as a sorted tuple of
positions, whose lexicographic order is the order of combinations).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations, permutations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples, sample

from solver.numbering.counting import Counting
from solver.ruleset.reader import load, parse

BISHOPS = '\n[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n'
KING_BETWEEN = '\n[[rule]]\nkind = "between"\npiece = "K"\npair = "RR"\n'
QUEEN_LEFT = '\n[[rule]]\nkind = "left-of"\npieces = "QK"\n'


def _family(pieces: str, rules: str = "", steps: list[str] | None = None) -> str:
    text = (f'name = "small"\ntitle = "small"\nsource = "test"\nfiles = {len(pieces)}\n'
            f'pieces = "{pieces}"\ncount = 0\n' + rules)
    if steps is not None:
        text += "\n[numbering]\nsteps = [" + ", ".join(f'"{s}"' for s in steps) + "]\n"
    return text


def _opposite_bishops(rank: str) -> bool:
    files = [f for f, x in enumerate(rank) if x == "B"]
    return files[0] % 2 != files[1] % 2


def _king_between(rank: str) -> bool:
    rooks = [f for f, x in enumerate(rank) if x == "R"]
    return rooks[0] < rank.index("K") < rooks[-1]


def _queen_left(rank: str) -> bool:
    return rank.index("Q") < rank.index("K")


def _key(rank: str, letters: list[str]) -> tuple[tuple[int, ...], ...]:
    """The canonical key: each step's chosen positions among the squares left
    by the earlier steps, the last step first."""
    keys = []
    left = rank
    for letter in letters:
        keys.append(tuple(i for i, x in enumerate(left) if x == letter))
        left = left.replace(letter, "")
    return tuple(reversed(keys))


CASES: list[tuple[str, str, list[Callable[[str], bool]], list[str] | None]] = [
    ("KRRNNN", "", [], None),  # no rule: every kind counted together
    ("KRRBBNN", BISHOPS, [_opposite_bishops], None),
    ("NNBBKRR", BISHOPS, [_opposite_bishops], None),  # the named kind in the middle
    ("KRRBBNN", BISHOPS + KING_BETWEEN, [_opposite_bishops, _king_between], None),
    ("KQRRBBN", QUEEN_LEFT, [_queen_left], None),
    ("KRRBBNN", BISHOPS, [_opposite_bishops], ["NN", "RR", "K", "BB"]),
    ("AKBBNNN", BISHOPS, [_opposite_bishops], ["NNN", "BB", "A", "K"]),
]


@pytest.mark.parametrize(("pieces", "rules", "checks", "steps"), sample(CASES, 3))
def test_plain_steps_number_as_the_brute_force_sorts(
        pieces: str, rules: str, checks: list[Callable[[str], bool]],
        steps: list[str] | None) -> None:
    ruleset = parse(_family(pieces, rules, steps))
    counting = Counting(ruleset)
    assert counting.levels() is not None  # the walk by projections answers
    letters = [s.pieces[0] for s in counting.numbering.steps]
    ranks = sorted({"".join(p) for p in permutations(pieces)
                    if all(check("".join(p)) for check in checks)},
                   key=lambda rank: _key(rank, letters))
    assert counting.count == len(ranks)
    for number, rank in enumerate(ranks):
        assert counting.rank_of(number) == rank
        assert counting.rank_id(rank) == number


W19 = ('name = "w19"\ntitle = "w19"\nsource = "test"\nfiles = 16\nranks = 12\n'
       'region = "ranks 1-4"\npawns = 5\npieces = "KQRRBBNNAAAAA' + "D" * 51 + '"\ncount = 0\n'
       '\n[[piece]]\nletter = "D"\nname = "dragon"\n' + BISHOPS)


@pytest.fixture(scope="module")
def huge() -> Counting:
    """Pieces filling 4 ranks of 16 files, bishops on opposite colours: 4.3e19
    ranks, numbered within the default bound on states."""
    return Counting(parse(W19))


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0), st.integers(min_value=0))
def test_a_huge_family_numbers_both_ways_in_order(huge: Counting, a: int, b: int) -> None:
    a, b = sorted((a % huge.count, b % huge.count))
    letters = [s.pieces[0] for s in huge.numbering.steps]
    first, second = huge.rank_of(a), huge.rank_of(b)
    assert first in huge and second in huge
    assert huge.rank_id(first) == a and huge.rank_id(second) == b
    assert (_key(first, letters) < _key(second, letters)) == (a < b)


def test_a_huge_family_ends_as_its_steps_say(huge: Counting) -> None:
    # the first rank takes every step's first choice (the bishops on e1 and
    # f1 differ in colour); the last takes every last choice
    assert huge.count == 43282271465810657280
    assert huge.rank_of(0) == "KQRRBBNNAAAAA" + "D" * 51
    assert huge.rank_of(huge.count - 1) == "D" * 51 + "AAAAANNBBRRQK"


def test_steps_with_colours_keep_the_walk_by_files() -> None:
    counting = Counting(load("chess480"))
    assert counting.levels() is None
    assert counting.rank_id(counting.rank_of(123)) == 123


def test_a_bound_below_the_walk_refuses_it() -> None:
    from solver.errors import CountingTooLargeError

    counting = Counting(parse(W19), max_states=1000)
    assert counting.count == 43282271465810657280
    assert counting.levels() is None  # over the bound: the walk by files, which refuses
    with pytest.raises(CountingTooLargeError, match="over the limit of 1,000"):
        counting.rank_of(0)


RULES: list[tuple[str, Callable[[str], bool], str]] = [
    (BISHOPS, _opposite_bishops, "BB"),
    (KING_BETWEEN, _king_between, "KRR"),
    (QUEEN_LEFT, _queen_left, "QK"),
]


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_random_small_families_number_as_the_brute_force_sorts(data: st.DataObject) -> None:
    chosen = data.draw(st.lists(st.sampled_from(range(len(RULES))), unique=True, max_size=2))
    counts = {"K": 1}
    for i in chosen:
        for letter in RULES[i][2]:
            counts[letter] = RULES[i][2].count(letter)
    room = 7 - sum(counts.values())
    for letter in "NA":  # kinds no rule names, counted together
        counts[letter] = data.draw(st.integers(1 if letter == "N" else 0, max(room, 1)))
        room -= counts[letter]
    counts = {letter: n for letter, n in counts.items() if n}
    pieces = "".join(letter * counts[letter]
                     for letter in data.draw(st.permutations(sorted(counts))))
    if len(pieces) < 4:
        pieces += "N" * (4 - len(pieces))
        counts["N"] = pieces.count("N")
    checks = [RULES[i][1] for i in chosen]
    steps = [letter * counts[letter] for letter in data.draw(st.permutations(sorted(counts)))]
    counting = Counting(parse(_family(pieces, "".join(RULES[i][0] for i in chosen), steps)))
    assert counting.levels() is not None
    ranks = sorted({"".join(p) for p in permutations(pieces)
                    if all(check("".join(p)) for check in checks)},
                   key=lambda rank: _key(rank, [s[0] for s in steps]))
    assert counting.count == len(ranks)
    for number in data.draw(st.lists(st.integers(0, len(ranks) - 1), min_size=1, max_size=6)):
        assert counting.rank_of(number) == ranks[number]
        assert counting.rank_id(ranks[number]) == number


# A Sittuyin-like family small enough to list: two rooks on the back rank
# (``on-squares``), two pawns held on b2 and c3 (``holds``), a king, a knight
# and a silver no rule names, and three empty squares, on a1-d2, c3-d3
# (region order a1 b1 c1 d1 a2 b2 c2 d2 c3 d3). Its steps are Sittuyin's:
# the rooks first, the kinds no rule names, the empty squares, the pawns last.
LIKE_SITTUYIN = (
    'name = "small-sittuyin"\ntitle = "small"\nsource = "test"\nfiles = 4\n'
    'pawns = "none"\nregion = "a1-d2, c3-d3"\npieces = "RRKNS...PP"\ncount = 0\n'
    '\n[[piece]]\nletter = "S"\nname = "silver"\nbetza = "FfW"\n'
    '\n[[rule]]\nkind = "holds"\nsquares = "b2, c3"\npieces = "PP"\neach = "square"\n'
    '\n[[rule]]\nkind = "on-squares"\npiece = "R"\nsquares = "a1-d1"\n'
    '\n[numbering]\nsteps = ["RR", "N", "S", "K", "...", "PP"]\n')
LIKE_SITTUYIN_STEPS = ["R", "N", "S", "K", ".", "P"]


def _like_sittuyin_by_brute_force() -> list[str]:
    """Every placement of the pieces on the ten squares, one kind after
    another on the squares left, kept when the rooks stand on squares 0-3
    and the pawns on squares 5 and 8; sorted by the canonical key."""
    ranks = []
    squares = range(10)
    for rooks in combinations(squares, 2):
        if not all(i < 4 for i in rooks):
            continue
        left = [i for i in squares if i not in rooks]
        for pawns in combinations(left, 2):
            if set(pawns) != {5, 8}:
                continue
            rest = [i for i in left if i not in pawns]
            for k, n, s in permutations(rest, 3):
                rank = ["."] * 10
                for i in rooks:
                    rank[i] = "R"
                for i in pawns:
                    rank[i] = "P"
                rank[k], rank[n], rank[s] = "K", "N", "S"
                ranks.append("".join(rank))
    return sorted(ranks, key=lambda rank: _key(rank, LIKE_SITTUYIN_STEPS))


@pytest.mark.parametrize("kept", [64, 1])
def test_a_sittuyin_like_family_numbers_as_its_brute_force(
        monkeypatch: pytest.MonkeyPatch, kept: int) -> None:
    """One walk answers every lookup, in a shuffled order, so the counts it
    keeps across lookups are met from many projections; ``kept`` 1 keeps the
    counts of one level only (each lookup recounts the others: every 9th id)."""
    from solver.numbering.counting import levels

    monkeypatch.setattr(levels, "MEMOS", kept)
    monkeypatch.setattr(levels, "_shared", {})  # no counts from another test
    ranks = _like_sittuyin_by_brute_force()
    assert len(ranks) == comb(4, 2) * 6 * 5 * 4
    counting = Counting(parse(LIKE_SITTUYIN))
    walk = counting.levels()
    assert walk is not None and walk.top == len(LIKE_SITTUYIN_STEPS)  # every level counts
    assert counting.count == len(ranks)
    order = list(range(len(ranks)))
    random.Random(38).shuffle(order)
    for number in order[::1 if kept > 1 else 9]:
        assert counting.rank_of(number) == ranks[number]
        assert counting.rank_id(ranks[number]) == number
    assert len(walk._memos) <= kept


@pytest.fixture(scope="module")
def sittuyin() -> Counting:
    """Sittuyin's one side (93,562,560 ranks), one walk for every example."""
    return Counting(load("sittuyin"))


def _obeys_sittuyin(rank: str) -> bool:
    """One side's rank in region order (a1-h3 then e4-h4): the pawns on
    a3-d3 and e4-h4, the rooks on rank 1, the other pieces anywhere left."""
    pawns = [i for i, x in enumerate(rank) if x == "P"]
    rooks = [i for i, x in enumerate(rank) if x == "R"]
    return (len(rank) == 28 and pawns == [16, 17, 18, 19, 24, 25, 26, 27]
            and len(rooks) == 2 and all(i < 8 for i in rooks)
            and sorted(x for x in rank if x not in "RP.") == sorted("KFSSNN"))


@settings(max_examples=examples(30, 300), deadline=None)
@given(st.integers(min_value=0), st.integers(min_value=0))
def test_sittuyin_s_ids_round_trip_in_order(sittuyin: Counting, a: int, b: int) -> None:
    a, b = sorted((a % sittuyin.count, b % sittuyin.count))
    first, second = sittuyin.rank_of(a), sittuyin.rank_of(b)
    assert _obeys_sittuyin(first) and _obeys_sittuyin(second)
    assert sittuyin.rank_id(first) == a and sittuyin.rank_id(second) == b
    letters = [s.pieces[0] for s in sittuyin.numbering.steps]
    assert (_key(first, letters) < _key(second, letters)) == (a < b)


def test_walks_of_one_family_share_their_kept_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A family parsed again shares the counts the first walk kept; another
    bound on states, or other steps, does not."""
    from solver.numbering.counting import levels

    monkeypatch.setattr(levels, "_shared", {})
    first = Counting(parse(LIKE_SITTUYIN))
    walk = first.levels()
    assert walk is not None
    rank = first.rank_of(100)
    again = Counting(parse(LIKE_SITTUYIN)).levels()
    assert again is not None and again._memos is walk._memos
    bounded = Counting(parse(LIKE_SITTUYIN), max_states=123_457).levels()
    assert bounded is not None and bounded._memos is not walk._memos
    other = Counting(parse(LIKE_SITTUYIN.replace('"K", "..."', '"...", "K"'))).levels()
    assert other is not None and other._memos is not walk._memos
    assert again.rank_id(rank) == 100 and bounded.rank_id(rank) == 100
