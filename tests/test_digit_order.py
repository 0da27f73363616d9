"""Issue 38 item 4: a numbering's digit order as data (``most-significant``),
and Jocly's Chess960 set-up moves ``#n`` declared with it.

The golden reference is Jocly's own generator, ``Model.Game.c960Gen`` in
``src/games/chessbase/chess960-model.js`` (aclap-dev/jocly), transcribed
below line for line; Jocly records the start chosen as the move ``#seed``.
"""

from __future__ import annotations

import re

import pytest
from docs_text import ROOT, page

from solver import Family, RuleFileError
from solver.check import check
from solver.cli.entry import dispatch
from solver.ruleset.reader import parse, rules_dir


def jocly_c960gen(seed: int) -> str:
    """Jocly's ``c960Gen(seed)``: the back rank (files a..h) of set-up move ``#seed``."""
    cols: list[str] = [""] * 8
    empty = [0, 1, 2, 3, 4, 5, 6, 7]
    full_seed = 960
    seed %= 960

    def rand(range_: int) -> int:
        nonlocal full_seed, seed
        full_seed //= range_  # 960/4/4/6/10: exact, as in the JavaScript
        value = seed // full_seed
        seed %= full_seed
        return value

    def assign(piece: str, col: int) -> None:
        cols[col] = piece
        empty.remove(col)

    b1 = rand(4) * 2
    b2 = rand(4) * 2 + 1
    assign("B", b1)
    assign("B", b2)
    assign("Q", empty[rand(6)])
    nn = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2],
          [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]][rand(10)]
    assign("N", empty[nn[1]])
    assign("N", empty[nn[0]])
    assign("R", empty[0])
    assign("K", empty[0])
    assign("R", empty[0])
    return "".join(cols)


def test_jocly_generator_as_transcribed() -> None:
    assert jocly_c960gen(385) == "RNBQKBNR"  # the SP 518 = #385
    assert len({jocly_c960gen(n) for n in range(960)}) == 960


def test_jocly_numbering_is_joclys_for_all_960() -> None:
    family = Family.load("chess960")
    jocly = family.scheme("jocly")
    for move in range(960):
        rank = jocly_c960gen(move)
        number = family.rank_id(rank)
        assert jocly.text(number) == f"#{move}", rank
        assert jocly.read(f"#{move}") == number


def test_check_proves_jocly_with_the_shortcut_on(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["check", "--rules", "chess960"]) == 0
    out = capsys.readouterr().out
    assert "  shortcut: chess960 arithmetic (on: rules/chess960.toml is the shipped file)\n" in out
    assert ("  ok   numbering jocly (#N) is a bijection and reads back what it writes; "
            "gives RNBQKBNR = #385\n") in out
    assert "960 positions, arithmetic numbering, proven" in out


def test_convert_518_to_jocly(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["convert", "518", "--to", "jocly"]) == 0
    assert capsys.readouterr().out == "#385\n"
    assert dispatch(["convert", "#385", "--from", "jocly"]) == 0
    assert capsys.readouterr().out == "518\n"
    assert dispatch(["id", "QNRBBNKR", "--numbering", "jocly"]) == 0
    moves = [n for n in range(960) if jocly_c960gen(n) == "QNRBBNKR"]
    assert capsys.readouterr().out == f"#{moves[0]}\n"


def test_the_readme_shows_the_bundled_jocly_table() -> None:
    readme = page(ROOT / "rules" / "README.md")  # skips in an installed-package run
    shown = re.search(r'```toml\n(\[\[numberings\]\]\nname = "jocly".*?)```', readme, re.DOTALL)
    assert shown is not None
    bundled = (rules_dir() / "chess960.toml").read_text(encoding="utf-8")
    assert shown.group(1) in bundled


_FAMILY = """name = "digits"
title = "digits"
source = "test"
files = 4
pieces = "KQNN"
count = 12

[[numberings]]
name = "king-first"
source = "test"
steps = ["Q", "K", "NN"]
most-significant = {most}
"""


def _brute(steps: list[str], most_first: list[int]) -> dict[str, int]:
    """Each rank's number: the steps' choices (k-subsets of the free squares,
    lexicographic) read as digits, ``most_first`` the most significant first."""
    from itertools import combinations, permutations
    from math import comb

    out = {}
    for rank in set(map("".join, permutations("KQNN"))):
        free, digits = list(range(4)), []
        for step in steps:
            chosen = tuple(f for f in free if rank[f] == step[0])
            digits.append((list(combinations(free, len(step))).index(chosen),
                           comb(len(free), len(step))))
            free = [f for f in free if f not in chosen]
        value = 0
        for index in most_first:
            value = value * digits[index][1] + digits[index][0]
        out[rank] = value
    return out


@pytest.mark.parametrize("most, order", [('"K"', [1, 2, 0]), ('["K", "Q"]', [1, 0, 2]),
                                         ('["NN", "K", "Q"]', [2, 1, 0]),
                                         ('["Q", "K"]', [0, 1, 2])])
def test_most_significant_orders_the_digits(most: str, order: list[int]) -> None:
    family = Family(parse(_FAMILY.format(most=most), "digits.toml"))
    scheme = family.scheme("king-first")
    expected = _brute(["Q", "K", "NN"], order)
    assert sorted(expected.values()) == list(range(12))
    for rank, number in expected.items():
        assert scheme.text(family.rank_id(rank)) == str(number)
        assert scheme.read(str(number)) == family.rank_id(rank)
    assert check(family).ok


@pytest.mark.parametrize("most, message", [
    ('"B"', "numberings[1].most-significant: 'B' is not one of the steps Q, K, NN"),
    ('["K", "K"]', "numberings[1].most-significant: 'K' is named twice"),
    ("3", "numberings[1].most-significant: expected a step or an array of steps"),
])
def test_a_wrong_digit_order_is_named(most: str, message: str) -> None:
    with pytest.raises(RuleFileError) as info:
        parse(_FAMILY.format(most=most), "digits.toml")
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_digit_order_needs_steps() -> None:
    text = _FAMILY.format(most='"K"').replace('steps = ["Q", "K", "NN"]\n', "")
    with pytest.raises(RuleFileError, match="most-significant: a digit order orders placement"):
        parse(text, "digits.toml")
