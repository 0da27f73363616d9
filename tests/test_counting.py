"""Counting completions file by file (solver/numbering/counting/) against brute force.

Golden data: a brute force over every distinct arrangement written here,
judged by the rule kinds' own explanations (``Family.violations``); the
canonical order is sorting by ``Numbering.digits``, last step first (the
definition in rules/README.md); closed-form counts worked out by hand.
"""

from __future__ import annotations

import inspect
import math
import random
import unittest.mock
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kind_examples import EXAMPLES, Board
from profiles import examples, sample

from solver import Family, NumberingError
from solver.check import check
from solver.kinds.base import Rule
from solver.kinds.vocabulary import KINDS
from solver.numbering.counting import Counting, arrangements, strangers
from solver.numbering.encoder import decode_all
from solver.ruleset.reader import bundled_names, load, parse


def test_every_rule_kind_has_a_counting_state() -> None:
    """Each kind counts itself: its class defines its tracker (so it is not abstract)."""
    missing = [name for name, kind in KINDS.items()
               if inspect.isabstract(kind) or kind.tracker is Rule.tracker]
    assert not missing, f"rule kinds without a counting state: {missing}"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_rule_kind_counts_as_it_explains(kind: str) -> None:
    """The kind's tracker keeps exactly the ranks its explanations allow."""
    example = EXAMPLES[kind]
    text = (f'name = "one-{kind}"\ntitle = "t"\nsource = "s"\nfiles = 8\n'
            f'pieces = "KQRRBBNN"\ncount = 0\n\n[[rule]]\nkind = "{kind}"\n{example.table}\n')
    ruleset = parse(text)
    counting = Counting(ruleset)
    assert example.good in counting
    assert example.bad not in counting
    every = brute("KQRRBBNN")
    family = Family(ruleset)
    assert strangers(counting, every) == [r for r in every if family.violations(r)]


def brute(pieces: str) -> list[str]:
    """Every distinct arrangement, from itertools (not from solver.numbering.counting)."""
    return sorted({"".join(p) for p in permutations(pieces)})


def test_arrangements_are_distinct_and_all_there() -> None:
    for pieces in ("KRR", "KQRRBBNN", "KRRRRRR", "KQABN"):
        assert list(arrangements(pieces)) == brute(pieces)
    assert sum(1 for _ in arrangements("KRRRRRRRRRRR")) == 12


def test_check_walks_distinct_arrangements_only(tmp_path: object) -> None:
    """Issue 14.4: 12 ranks of one king and eleven rooks (479 million orderings)."""
    text = ('name = "rooks"\ntitle = "t"\nsource = "s"\nfiles = 12\n'
            'pieces = "KRRRRRRRRRRR"\ncount = 12\n')
    report = check(Family(parse(text, "rooks.toml")))
    assert report.ok, [c for c in report.claims if not c.ok]
    assert any("every other arrangement" in c.text for c in report.claims)


# -- random families against brute force ------------------------------------------------


@st.composite
def families(draw: st.DrawFn) -> str:
    """A rule file on 5..7 files with random rules of every registered kind
    (:data:`~kind_examples.EXAMPLES`)."""
    files = draw(st.integers(5, 7))
    extra = draw(st.lists(st.sampled_from("QRBNAC"), min_size=files - 1,
                          max_size=files - 1))
    pieces = "K" + "".join(extra)
    counts = Counter(pieces)
    board = Board(files, pieces)
    rules: list[str] = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(sorted(KINDS)))
        made = EXAMPLES[kind].draw(draw, board)
        if made is not None:
            rules.append(made[0])
    body = "".join(f"\n[[rule]]\n{r}\n" for r in rules)
    steps = ""
    if counts["B"] == 2 and draw(st.booleans()):
        rest = [x * counts[x] for x in counts if x != "B"]
        steps = ('\n[numbering]\nsteps = ["B:light", "B:dark", '
                 + ", ".join(f'"{s}"' for s in draw(st.permutations(rest))) + "]\n")
    elif counts["Q"] == 1 and counts["A"] == 1 and draw(st.booleans()):
        rest = [x * counts[x] for x in counts if x not in "QA"]
        same = draw(st.sampled_from(["opposite", "same"]))
        steps = (f'\n[numbering]\nsteps = ["Q", "A:{same}-Q", '
                 + ", ".join(f'"{s}"' for s in rest) + "]\n")
    return (f'name = "random"\ntitle = "t"\nsource = "s"\nfiles = {files}\n'
            f'pieces = "{pieces}"\ncount = 0\n{body}{steps}')


@settings(max_examples=examples(10, most=500), deadline=None)
@given(families(), st.integers(0, 2**32 - 1))
def test_counting_agrees_with_brute_force(text: str, seed: int) -> None:
    ruleset = parse(text, "random.toml")
    family = Family(ruleset)
    every = brute(ruleset.pieces)
    broken = {r for r in every if family.violations(r)}
    expected = [r for r in every if r not in broken]
    counting = Counting(ruleset)
    assert counting.count == len(expected)
    assert list(counting) == expected  # the counter's own order is alphabetical
    assert [counting.nth(i) for i in range(len(expected))] == expected
    assert strangers(counting, every) == [r for r in every if r in broken]
    if expected:
        assert counting.draw(random.Random(seed)) in set(expected)
    # the canonical order: by the steps' choices, last step first
    numbering = ruleset.step_numbering()
    try:
        keyed = sorted(expected, key=lambda r: numbering.digits(r)[::-1])
    except NumberingError:
        with pytest.raises(NumberingError):
            for rank in expected:
                counting.rank_id(rank)
        return
    for number in sorted(set(range(0, len(keyed), max(1, len(keyed) // 8)))):
        assert counting.rank_id(keyed[number]) == number
    for number in {0, len(keyed) // 2, len(keyed) - 1} if keyed else ():
        assert counting.rank_of(number) == keyed[number]


@settings(max_examples=examples(10, most=500), deadline=None)
@given(families(), st.data())
def test_halving_a_steps_choices_walks_the_same_order(text: str, data: st.DataObject) -> None:
    """rank_of finding every step's choice by halving (issue 25 item 3) gives the
    canonical order: the ranks sorted by their steps' choices, last step first."""
    ruleset = parse(text, "random.toml")
    family = Family(ruleset)
    expected = [r for r in brute(ruleset.pieces) if not family.violations(r)]
    numbering = ruleset.step_numbering()
    try:
        keyed = sorted(expected, key=lambda r: numbering.digits(r)[::-1])
    except NumberingError:
        return
    if not keyed:
        return
    numbers = data.draw(st.lists(st.integers(0, len(keyed) - 1), min_size=1, max_size=4))
    whole = Counting(ruleset)  # every step's choice in one pass (none has > 64 here)
    wanted = {number: whole.rank_of(number) for number in {0, len(keyed) - 1, *numbers}}
    for split in (0, 4):  # every step searched; steps among few placements in one pass
        with unittest.mock.patch("solver.numbering.counting.engine.SPLIT_CHOICES", split):
            halving = Counting(ruleset)
            for number, found in wanted.items():
                rank = halving.rank_of(number)
                assert rank == keyed[number] == found
                assert halving.rank_id(rank) == number


def test_an_enumerated_family_numbers_without_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chess960 less the classical start: the order is Scharnagl's with 518 left out."""
    text = ('name = "minus"\ntitle = "t"\nsource = "s"\nfiles = 8\npieces = "KQRRBBNN"\n'
        'count = 959\n[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n'
        '[[rule]]\nkind = "between"\npiece = "K"\npair = "RR"\n'
        '[[rule]]\nkind = "exclude"\nranks = ["RNBQKBNR"]\n'
        '[numbering]\nsteps = ["B:light", "B:dark", "Q", "NN", "RKR"]\n')
    family = Family(parse(text, "minus.toml"))
    assert family.ruleset.numbering == "enumerated"

    def no_solver(*args: object, **kwargs: object) -> list[str]:
        raise AssertionError("the solver was asked")

    monkeypatch.setattr("solver.numbering.listing.solver_ranks", no_solver)
    monkeypatch.setattr("solver.numbering.listing.side_ranks", no_solver)
    monkeypatch.setattr("solver.numbering.listing.side_blocks", no_solver)
    monkeypatch.setattr("solver.numbering.listing._sorted_ranks", no_solver)
    monkeypatch.setattr("solver.search.solve.solve", no_solver)
    assert family.count == 959
    # Published Scharnagl numbers (Wikipedia): 105 QNRBBNKR, 959 RKRNNQBB.
    assert family.identify("QNRBBNKR").id == 105
    assert family.identify("RKRNNQBB").id == 958
    assert family.position(958).white == "RKRNNQBB"
    assert family.position(0).white == "BBQNNRKR"


# -- a family far too large to list ------------------------------------------------------

#: The family (tests/data/big-16.toml, also timed by bench/run.py).
BIG = (Path(__file__).parent / "data" / "big-16.toml").read_text(encoding="utf-8")


def test_a_family_of_a_billion_ranks_counts_and_draws() -> None:
    # By hand: the king on one of 8 files; one bishop on the 8 squares of one
    # colour and the other on the 8 of the other, less the king's square: 7 x 8;
    # the other 13 pieces (Q, 4 R, 4 N, 2 A, 2 C) on the 13 squares left.
    rest = math.factorial(13) // (math.factorial(4) ** 2 * 2 * 2)
    expected = 8 * 7 * 8 * rest
    assert expected == 1_210_809_600
    family = Family(parse(BIG, "big.toml"))
    assert family.count == expected
    counting = Counting(family.ruleset)
    assert counting.count == expected
    first = counting.draw(random.Random(7))
    assert first == counting.draw(random.Random(7))
    family.validate(first)
    draws = {counting.draw(random.Random(seed)) for seed in range(50)}
    assert len(draws) == 50
    for rank in draws:
        family.validate(rank)
    # the king's file is uniform over e..l in many draws (8 files, 800 draws)
    rng = random.Random(1)
    kings = Counter(counting.draw(rng).index("K") for _ in range(800))
    assert set(kings) == set(range(4, 12))
    assert max(kings.values()) < 160


# -- the bundled families ----------------------------------------------------------------


@pytest.mark.parametrize("name", sample([
    # The 10-file families take seconds each (walking 10-file orderings): CI's slow run.
    # (myshogi's 5,183 ranks are listed and sorted here: a second.) By default, a third.
    pytest.param(n, marks=pytest.mark.slow) if load(n).files >= 10 or n == "myshogi" else n
    for n in bundled_names() if not load(n).benchmark
    and load(n).army is None  # an army that varies: tests/test_armies.py
    and n not in ("sittuyin", "jieqi")  # too large to list: tests/test_sittuyin.py, test_jieqi.py
    and not load(n).armies  # armies of the sides' own: tests/test_cwda.py
], 8))
def test_bundled_counts_and_order(name: str) -> None:
    ruleset = load(name)
    counting = Counting(ruleset)
    assert counting.count == ruleset.side_count
    numbering = ruleset.step_numbering()
    # enumerated (or steps over far more arrangements than the family has, as
    # janggi's 17 squares): the solver's ranks sorted by the steps
    if numbering.uneven is not None or numbering.count > 10 * ruleset.side_count + 10_000:
        decoded = sorted(Family(ruleset).solver_ranks(),
                         key=lambda rank: numbering.digits(rank)[::-1])
    else:
        decoded = decode_all(numbering)
        assert decoded == [numbering.decode(i) for i in range(numbering.count)]
    if ruleset.numbering == "enumerated":  # the steps' order, less the ranks breaking a rule
        family = Family(ruleset)
        decoded = [rank for rank in decoded if not family.violations(rank)]
        assert len(decoded) == ruleset.side_count
    assert strangers(counting, decoded) == []
    for number in (0, len(decoded) // 3, len(decoded) - 1):
        assert counting.rank_of(number) == decoded[number]
        assert counting.rank_id(decoded[number]) == number
