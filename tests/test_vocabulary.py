"""Each rule kind on its own, on small boards, against the brute force of ``oracles``.

The brute force knows nothing of :mod:`solver`: it runs through every
arrangement of the pieces with :func:`itertools.permutations` and keeps the
ones that obey the rule as coded in ``tests/oracles.py``, from the rules of
chess (a1 is a dark square; a pawn on the second rank is defended by the
pieces that could capture on its square). The solver must find exactly those
ranks, and :meth:`Family.violations` must be empty for exactly those ranks.
Every registered kind is run: its cases and random rules come from
``tests/kind_examples.py``, keyed by the kind's name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from kind_examples import EXAMPLES, Board
from oracles import (
    Test,
    between,
    brute_force,
    off,
    on,
    opposite,
    pawns_protected,
    same,
)
from profiles import examples

from solver import Family, NumberingError
from solver.errors import EmptyFamilyError
from solver.kinds.vocabulary import KINDS, inexact
from solver.ruleset.reader import parse
from solver.syntax.steps import StepSyntaxError, parse_steps

# -- rule files ---------------------------------------------------------------------


def rule_file(files: int, pieces: str, rules: Sequence[str], steps: Sequence[str] = ()) -> str:
    text = (f'name = "small"\ntitle = "A small family"\nsource = "tests"\n'
            f'files = {files}\npieces = "{pieces}"\ncount = 0\n')
    for rule in rules:
        text += f"\n[[rule]]\n{rule}\n"
    if steps:
        text += "\n[numbering]\nsteps = [" + ", ".join(f'"{s}"' for s in steps) + "]\n"
    return text


def family(files: int, pieces: str, rules: Sequence[str], steps: Sequence[str] = ()) -> Family:
    return Family(parse(rule_file(files, pieces, rules, steps), "small.toml"))


#: Every case of every kind (:attr:`kind_examples.Example.cases`), against brute force.
CASES: list[tuple[str, int, str, str, Test]] = [
    (f"{kind}: {name}", files, pieces, rule, test)
    for kind, example in EXAMPLES.items() for name, files, pieces, rule, test in example.cases
]


def test_every_rule_kind_has_its_cases() -> None:
    """Every registered kind has cases, each a rule of that kind."""
    assert set(KINDS) == set(EXAMPLES)
    for kind, example in EXAMPLES.items():
        assert example.cases, kind
        assert all(rule.startswith(f'kind = "{kind}"') for _, _, _, rule, _ in example.cases)


@pytest.mark.parametrize(("files", "pieces", "rule", "test"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_kind_matches_brute_force(files: int, pieces: str, rule: str, test: Test) -> None:
    fam = family(files, pieces, [rule])
    expected = brute_force(pieces, [test])
    everything = brute_force(pieces, [])
    assert 0 < len(expected) < len(everything)  # the rule does something
    found = fam.solver_ranks()
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert fam.count == len(expected)
    for rank in everything:
        broken = fam.violations(rank)
        assert (not broken) == (rank in expected), (rank, broken)
        for violation in broken:
            assert all(re.fullmatch(r"[a-f][12]", sq) for sq in violation.squares), violation


def test_pawns_protected_on_the_standard_board() -> None:
    # The classical start defends every pawn. Knights in the corners defend
    # the c- and f-pawns, so the rook pawns hang.
    fam = family(8, "KQRRBBNN", ['kind = "pawns-protected"'])
    assert fam.violations("RNBQKBNR") == []
    assert [v.squares for v in fam.violations("NRBQKBRN")] == [("a2", "h2")]
    assert pawns_protected("RNBQKBNR") and not pawns_protected("NRBQKBRN")


def test_several_rules_are_all_named_with_their_squares() -> None:
    rules = ['kind = "opposite-colours"\npieces = "BB"',
             'kind = "between"\npiece = "K"\npair = "RR"',
             'kind = "not-adjacent"\npieces = "NN"',
             'kind = "pawns-protected"']
    fam = family(8, "KQRRBBNN", rules)
    broken = fam.violations("KRRNNBQB")
    assert [(v.rule, v.squares) for v in broken] == [
        ("opposite-colours BB", ("f1", "h1")),
        ("between K RR", ("a1", "b1", "c1")),
        ("not-adjacent NN", ("d1", "e1")),
        ("pawns-protected", ("d2",)),
    ]


# -- properties: any small family, any steps ---------------------------------------

@st.composite
def small_families(draw: st.DrawFn) -> tuple[int, str, list[str], list[Test]]:
    """A board of 4..6 files, its pieces and one to three rules of any registered
    kind (:data:`~kind_examples.EXAMPLES`) with their tests."""
    files = draw(st.integers(4, 6))
    pieces = "K" + "".join(draw(st.lists(st.sampled_from("QRBNAC"), min_size=files - 1,
                                         max_size=files - 1)))
    board = Board(files, pieces)
    rules: list[str] = []
    tests: list[Test] = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(sorted(KINDS)))
        made = EXAMPLES[kind].draw(draw, board)
        if made is not None:
            rules.append(made[0])
            tests.append(made[1])
    return files, pieces, rules, tests


@st.composite
def steps_for(draw: st.DrawFn, pieces: str) -> list[str]:
    """Placement steps for ``pieces``: any order, some split by colour, relative
    colours, and sometimes a last step that fills the squares left in some order."""
    counts = Counter(pieces)
    steps: list[str] = []
    placed_once: list[str] = []
    plain: list[str] = []  # trailing steps that place whole groups, for the fill
    for letter in draw(st.permutations(sorted(counts))):
        n = counts[letter]
        forms: list[list[str]] = [[letter * n]]
        if n == 2:
            forms += [[f"{letter}:light", f"{letter}:dark"], [f"{letter}:dark", f"{letter}:light"],
                      [f"{letter}:light", f"{letter}:light"]]
        if n == 1 and placed_once:
            other = draw(st.sampled_from(placed_once))
            forms += [[f"{letter}:opposite-{other}"], [f"{letter}:same-{other}"]]
        form = draw(st.sampled_from(forms))
        steps += form
        plain = [*plain, letter * n] if form == [letter * n] else []
        if n == 1:
            placed_once.append(letter)
    take = draw(st.integers(0, len(plain)))
    if take >= 2:
        tail = "".join(draw(st.permutations("".join(plain[-take:]))))
        steps = [*steps[:-take], tail]
    return steps


def listed(fam: Family, expected: set[str]) -> list[str]:
    """``fam.ranks()``; a family with no rank must say so with EmptyFamilyError."""
    if expected:
        return fam.ranks()
    with pytest.raises(EmptyFamilyError):
        fam.ranks()
    return []


@settings(max_examples=examples(12, 600), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_small_family_matches_brute_force_and_numbers_exactly(data: st.DataObject) -> None:
    files, pieces, rules, tests = data.draw(small_families())
    steps = data.draw(steps_for(pieces))
    try:
        parse_steps(steps, pieces)
    except StepSyntaxError:
        steps = []  # the family's default steps
    fam = family(files, pieces, rules, steps)
    expected = brute_force(pieces, tests)
    assert set(fam.solver_ranks()) == expected
    for rank in brute_force(pieces, []):
        assert (not fam.violations(rank)) == (rank in expected)
    numbering = fam.numbering
    event(fam.ruleset.numbering)
    if fam.ruleset.numbering == "arithmetic":
        # Chosen only when the steps place exactly the family's ranks.
        assert numbering.count == len(expected) == fam.count
        decoded = [numbering.decode(i) for i in range(numbering.count)]
        assert set(decoded) == expected
        assert [numbering.encode(r) for r in decoded] == list(range(numbering.count))
        return
    try:
        ranks = listed(fam, expected)
    except NumberingError:
        # Enumerated, and the steps cannot even place every rank of the family:
        # some step restricts pieces beyond what the rules ask.
        assert inexact(fam.ruleset.rules, numbering.steps) is not None
        return
    assert set(ranks) == expected and len(ranks) == len(expected)
    assert [fam.rank_id(r) for r in ranks] == list(range(len(ranks)))


def test_inexact_names_what_the_steps_miss_or_add() -> None:
    def why(rules: list[str], steps: list[str]) -> str | None:
        rs = family(8, "KQRRBBNN", rules, steps).ruleset
        return inexact(rs.rules, parse_steps(list(rs.steps), rs.pieces))

    bishops = 'kind = "opposite-colours"\npieces = "BB"'
    king = 'kind = "between"\npiece = "K"\npair = "RR"'
    chess960 = ["B:light", "B:dark", "Q", "NN", "RKR"]
    assert why([bishops, king], chess960) is None
    assert why([bishops, king, 'kind = "not-adjacent"\npieces = "BB"'], chess960) == (
        "the steps do not capture rule not-adjacent BB")
    assert why([king], chess960) == ("step 'B:light' puts a bishop on light squares, but no "
                                     "opposite-colours BB rule asks for it")
    assert why([bishops], chess960) == (
        "the last step 'RKR' fixes the order of RKR, but the rules allow other orders of "
        "those pieces")
    assert why([bishops, king], ["B:light", "B:dark", "Q", "NN", "K", "RR"]) == (
        "the steps do not capture rule between K RR")
    assert why([bishops, king, 'kind = "on-files"\npiece = "K"\nfiles = "cdef"'],
               chess960) == "the steps do not capture rule on-files K c,d,e,f"
    assert why([bishops, king, 'kind = "on-files"\npiece = "K"\nfiles = "cdef"'],
               ["B:light", "B:dark", "Q", "NN", "K", "RR"]) == (
        "the steps do not capture rule between K RR")
    shuffle = ["RR", "BB", "NN"]
    assert why(['kind = "opposite-colours"\npieces = "QK"'], ["Q", "K:same-Q", *shuffle]) == (
        "the steps do not capture rule opposite-colours QK")
    assert why(['kind = "same-colour"\npieces = "QK"'], ["Q", "K:opposite-Q", *shuffle]) == (
        "the steps do not capture rule same-colour QK")
    assert why([], ["Q", "K:opposite-Q", "RR", "BB", "NN"]) == (
        "step 'K:opposite-Q' ties the king to the colour of the queen, but no "
        "opposite-colours KQ rule asks for it")


@st.composite
def exact_families(draw: st.DrawFn) -> tuple[int, str, list[str], list[Test], list[str]]:
    """Chess960-like families on 5..7 files whose steps capture every rule."""
    files = draw(st.integers(5, 7))
    others = "".join(draw(st.lists(st.sampled_from("QBNAC"), min_size=files - 3,
                                   max_size=files - 3)))
    pieces = "KRR" + others
    counts = Counter(pieces)
    rules = ['kind = "between"\npiece = "K"\npair = "RR"']
    tests = [between("K", "RR")]
    steps: list[str] = []
    placed_once: list[str] = []
    for letter in draw(st.permutations(sorted(set(others)))):
        n = counts[letter]
        if n == 2 and draw(st.booleans()):
            rules.append(f'kind = "opposite-colours"\npieces = "{letter * 2}"')
            tests.append(opposite(letter * 2))
            steps += draw(st.permutations([f"{letter}:light", f"{letter}:dark"]))
        elif n == 1 and placed_once and draw(st.booleans()):
            other = draw(st.sampled_from(placed_once))
            kind, test, shade = draw(st.sampled_from([("opposite-colours", opposite, "opposite"),
                                                      ("same-colour", same, "same")]))
            rules.append(f'kind = "{kind}"\npieces = "{other}{letter}"')
            tests.append(test(other + letter))
            steps.append(f"{letter}:{shade}-{other}")
        else:
            steps.append(letter * n)
        if n == 1:
            placed_once.append(letter)
        if draw(st.booleans()):
            kind = draw(st.sampled_from(["on-files", "not-on-files"]))
            chosen = "".join(draw(st.sets(st.sampled_from("abcdefg"[:files]), min_size=1)))
            rules.append(f'kind = "{kind}"\npiece = "{letter}"\nfiles = "{chosen}"')
            tests.append((on if kind == "on-files" else off)(letter, chosen))
    steps.append("RKR")
    return files, pieces, rules, tests, steps


@settings(max_examples=examples(20, 1000), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(exact_families())
def test_steps_that_capture_every_rule_number_exactly(
    case: tuple[int, str, list[str], list[Test], list[str]],
) -> None:
    files, pieces, rules, tests, steps = case
    fam = family(files, pieces, rules, steps)
    numbering = fam.numbering
    assert inexact(fam.ruleset.rules, numbering.steps) is None
    expected = brute_force(pieces, tests)
    event(fam.ruleset.numbering)
    if not numbering.uniform:
        assert fam.ruleset.numbering == "enumerated"
        with pytest.raises(NumberingError, match="same number of choices"):
            numbering.decode(0)
        assert set(listed(fam, expected)) == expected
        return
    assert fam.ruleset.numbering == "arithmetic"
    assert numbering.count == len(expected)
    decoded = [numbering.decode(i) for i in range(numbering.count)]
    assert set(decoded) == expected
    assert [numbering.encode(r) for r in decoded] == list(range(numbering.count))
