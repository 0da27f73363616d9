"""The bundled families against their published counts, and numbering that
does not fit placement steps: enumerated, non-uniform, independent sides.

Golden numbers come from the published sources named in each rule file (or
from the brute force of ``tests/oracles.py``), never from the code under test.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import (
    apart,
    arrangements,
    bishops_opposite,
    differs,
    family_ranks,
    king_between_rooks,
    pawns_protected,
)
from profiles import examples, sample

from solver import Family, NumberingError, RuleFileError, bundled_names
from solver.check import check
from solver.errors import RuleViolationError
from solver.ruleset.reader import RuleSet, load, parse, rules_dir

#: Published counts: Wikipedia "Fischer random chess" (960); "Shuffle chess"
#: (8!/(2!2!2!) = 5040; with the bishops on opposite colours 2880, with the king
#: between the rooks 1680); chessprogramming.org "Chess324" (18 x 18);
#: "Double Fischer Random Chess" (960 x 960); Wikipedia "Capablanca random chess"
#: (48,000 with the bishops, queen/archbishop and king/rook rules; 84,000
#: without the queen/archbishop rule); chessvariants.com "Chess480" (Lewis; SMIRF
#: keeps the 480 Chess960 ranks with the king right of the queen); pychess-variants
#: "Horde960" (Chess960's 960 ranks for Black); chess99.net "Random variations" (6 x 6 x 6);
#: lishogi issue 599 "Shuffle (Shogi22680)" (9! / (2! 2! 2! 2!)); Wikipedia "Capablanca
#: random chess" (12,118 under all six rules); pychess-variants "racingkings960" (1440).
PUBLISHED = {
    "chess960": 960,
    "chess480": 480,
    "horde960": 960,
    "chess99-random": 216,
    "shogi-shuffle": 22_680,
    "racing-kings": 1440,
    "shuffle": 5040,
    "bishops-opposite": 2880,
    "king-between-rooks": 1680,
    "chess324": 324,
    "dfrc": 921_600,
    "capablanca-random": 48_000,
    "capablanca-random-full": 12_118,
    "capablanca-shuffle": 84_000,
    "janggi": 16,
    "myshogi": 5_183,
    "chess256": 256,
    "corner": 360,
    "seirawan960": 960,
    "capahouse960": 48_000,
    "transcendental": 8_294_400,
    "placement": 8_294_400,
    "shuffle-nocastle": 5040,
    "chess324x16": 5184,
    "cutechess-caparandom": 21_836,
    "xboard-caparandom": 84_000,
    "wild3": 131_072,  # 8 x 4^7 (tests/test_armies.py brute-forces it)
    "wild4": 149_320_544,
    "pychess-capablanca": 8,
    "myshogi-program": 1088,
    "jieqi": 340_540_200 ** 2,  # tests/test_jieqi.py: the multinomial 15!/(2!^5 5!) a side
    "sittuyin": 93_562_560 ** 2,  # Fairy-Stockfish's sittuyin (tests/test_sittuyin.py)
    "cwda": 15,  # pychess-variants' CWDA_START_FENS (tests/test_cwda.py transcribes it)
    # XBoard's SetUpShuffle, transcribed in tests/test_bundled38.py:
    "chess18": 18,
    "makruk-shuffle": 5040,
    "shatranj-shuffle": 2880,
    "metamachy": 12,  # Jocly's set-up moves #0..#11 (tests/test_bundled38.py)
}

#: Scharnagl numbers published on Wikipedia ("Fischer random chess numbering scheme").
SCHARNAGL = {"BBQNNRKR": 0, "QNRBBNKR": 105, "RNBQKBNR": 518, "RKRNNQBB": 959}

#: The bundled Chess960 rules without its further numberings (which a variant
#: made from them no longer has).
CHESS960 = (rules_dir() / "chess960.toml").read_text().split("\n# Further numberings")[0]


def test_every_bundled_family_is_listed() -> None:
    published = [n for n in bundled_names() if not load(n).benchmark]
    assert published == sorted(PUBLISHED)


def test_the_benchmark_family_counts_by_hand() -> None:
    """bench-12: 12 files, KQACCCRRBBNN, capablanca-random's rules.

    Light and dark bishop 6 x 6, queen on 10 free squares, archbishop on the
    5 free squares of the other colour, three chancellors on 3 of 8, knights
    on 2 of 5, rook-king-rook fills the rest. (The solver's count is proven by
    `chess960 check --all` in CI; it takes half a minute.)
    """
    expected = 6 * 6 * 10 * 5 * math.comb(8, 3) * math.comb(5, 2)
    bench = load("bench-12")
    assert bench.benchmark
    assert bench.count == Family(bench).count == expected == 1_008_000


#: The proofs of the 10-file families take seconds each (a check of every
#: rank); they run in the slow run, which CI runs. A 10-file check stays in
#: the default run: the worked example of rules/README.md (test_rulefiles).
SLOW_PROOFS = {"capablanca-random", "capablanca-shuffle", "capablanca-random-full",
               "racing-kings", "chess324x16", "shogi-shuffle", "chess99-random",
               "capahouse960", "myshogi",
               "cutechess-caparandom", "xboard-caparandom", "transcendental", "placement", "wild3",
               "wild4",  # (wild3 and wild4: tests/test_armies.py in the default run)
               "myshogi-program", "jieqi", "sittuyin"}

#: Bundled families whose rules no placement step captures (left-of QK, between K NN,
#: pawns-protected), and cwda, whose positions are the pairings its file lists.
ENUMERATED = {"chess480", "chess99-random", "capablanca-random-full", "racing-kings",
              "janggi", "myshogi", "chess256", "corner", "cutechess-caparandom",
              "pychess-capablanca", "myshogi-program", "sittuyin", "cwda", "jieqi",
              "metamachy"}


@pytest.mark.parametrize("name", sample([
    pytest.param(n, marks=pytest.mark.slow) if n in SLOW_PROOFS else n
    for n in sorted(PUBLISHED)
], 5))
def test_bundled_family_count_and_proof(name: str) -> None:
    fam = Family.load(name)
    assert fam.ruleset.count == PUBLISHED[name]  # what the file declares
    numbering = "enumerated" if name in ENUMERATED else "arithmetic"
    assert fam.ruleset.numbering == numbering
    assert fam.count == PUBLISHED[name]  # what the placement steps or the listing give
    report = check(fam)
    assert report.found == PUBLISHED[name]  # what the solver finds
    assert report.numbering == numbering
    assert report.ok, [c for c in report.claims if not c.ok]


# -- brute force for 8-file families, from the rules of chess (tests/oracles.py) ----------


CHESS960_RANKS = family_ranks("chess960")


def test_brute_force_agrees_with_the_published_counts() -> None:
    every = arrangements()
    assert len(every) == PUBLISHED["shuffle"]
    assert len(CHESS960_RANKS) == PUBLISHED["chess960"]
    assert sum(map(bishops_opposite, every)) == PUBLISHED["bishops-opposite"]
    assert sum(map(king_between_rooks, every)) == PUBLISHED["king-between-rooks"]
    assert len(family_ranks("chess324")) ** 2 == PUBLISHED["chess324"]
    assert len(family_ranks("dfrc")) ** 2 == PUBLISHED["dfrc"]


@pytest.mark.parametrize("name", ["shuffle", "bishops-opposite", "king-between-rooks"])
def test_eight_file_families_are_the_brute_force_sets(name: str) -> None:
    fam = Family.load(name)
    expected = family_ranks(name)
    assert {fam.rank_of(i) for i in range(fam.count)} == expected


# -- enumerated numbering --------------------------------------------------------------


def chess960_with(extra: str, name: str = "variant") -> str:
    text = CHESS960.replace('name = "chess960"', f'name = "{name}"')
    text = text.replace('reference = "scharnagl"\n', "")
    return text.replace("[numbering]", f"{extra}\n\n[numbering]")


def test_exclude_numbers_the_rest_in_order() -> None:
    text = chess960_with('[[rule]]\nkind = "exclude"\nranks = ["RNBQKBNR"]')
    fam = Family(parse(text.replace("count = 960", "count = 959"), "minus.toml"))
    assert fam.ruleset.numbering == "enumerated"
    assert fam.count == 959
    # The canonical order by Chess960's steps is Scharnagl's, less position 518.
    for rank, number in SCHARNAGL.items():
        if number < 518:
            assert fam.identify(rank).id == number
        elif number > 518:
            assert fam.identify(rank).id == number - 1
    with pytest.raises(RuleViolationError, match="excluded"):
        fam.identify("RNBQKBNR")
    report = check(fam)
    assert report.ok and report.numbering == "enumerated" and report.found == 959


@pytest.mark.parametrize(("extra", "test"), [
    ('[[rule]]\nkind = "pawns-protected"', pawns_protected),
    ('[[rule]]\nkind = "differs-from"\nrank = "RNBQKBNR"\nat-least = 5',
     differs("RNBQKBNR", 5)),
    ('[[rule]]\nkind = "not-adjacent"\npieces = "BB"', apart("BB")),
], ids=["pawns-protected", "differs-from", "not-adjacent"])
def test_enumerated_chess960_variants_match_brute_force(
    extra: str, test: Callable[[str], bool]
) -> None:
    expected = {r for r in CHESS960_RANKS if test(r)}
    assert 0 < len(expected) < 960
    text = chess960_with(extra).replace("count = 960", f"count = {len(expected)}")
    fam = Family(parse(text, "variant.toml"))
    assert fam.ruleset.numbering == "enumerated"  # Chess960's steps do not capture the rule
    assert fam.count == len(expected)
    ranks = [fam.position(i).white for i in range(fam.count)]
    assert set(ranks) == expected
    assert [fam.identify(r).id for r in ranks] == list(range(fam.count))
    report = check(fam)
    assert report.ok, [c for c in report.claims if not c.ok]


# -- placement steps with different numbers of choices -------------------------------------

QUEEN_FIRST = ["Q", "B:light", "B:dark", "NN", "RKR"]  # B:light has 3 or 4 choices


def with_steps(steps: list[str], kind: str | None = None) -> str:
    text = chess960_with("").replace(
        '["B:light", "B:dark", "Q", "NN", "RKR"]', "[" + ", ".join(f'"{s}"' for s in steps) + "]")
    return text.replace("[numbering]", f'[numbering]\nkind = "{kind}"') if kind else text


def test_non_uniform_steps_are_enumerated_not_misnumbered() -> None:
    fam = Family(parse(with_steps(QUEEN_FIRST), "queen-first.toml"))
    assert not fam.numbering.uniform
    assert fam.ruleset.numbering == "enumerated"
    assert fam.count == 960
    assert {fam.position(i).white for i in range(960)} == CHESS960_RANKS
    with pytest.raises(NumberingError, match=r"step 2 'B:light' has 3 or 4 choices"):
        fam.numbering.decode(0)
    with pytest.raises(NumberingError, match="same number of choices"):
        fam.numbering.encode("RNBQKBNR")
    assert check(fam).ok


def test_non_uniform_steps_cannot_be_declared_arithmetic() -> None:
    with pytest.raises(RuleFileError) as info:
        parse(with_steps(QUEEN_FIRST, "arithmetic"), "queen-first.toml")
    assert info.value.path == "queen-first.toml"
    assert info.value.key == "numbering.kind"
    assert "step 2 'B:light' has 3 or 4 choices" in str(info.value)


def test_check_reports_non_uniform_arithmetic_steps() -> None:
    # A rule set built by hand, bypassing the loader, that claims arithmetic
    # numbering for steps that cannot give it: check says so.
    rules = replace(parse(with_steps(QUEEN_FIRST), "queen-first.toml"), numbering="arithmetic")
    report = check(Family(rules))
    assert not report.ok
    failed = [c for c in report.claims if not c.ok]
    assert [c.text for c in failed] == ["the numbering can be computed"]
    assert "step 2 'B:light' has 3 or 4 choices" in failed[0].detail


def test_steps_that_miss_a_rule_are_not_arithmetic() -> None:
    text = chess960_with('[[rule]]\nkind = "not-adjacent"\npieces = "BB"')
    assert load_text(text).numbering == "enumerated"
    with pytest.raises(RuleFileError, match="do not capture rule not-adjacent BB"):
        load_text(text.replace("[numbering]", '[numbering]\nkind = "arithmetic"'))


def load_text(text: str) -> RuleSet:
    return parse(text, "variant.toml")


# -- independent sides ---------------------------------------------------------------------


def test_dfrc_classical_start() -> None:
    dfrc = Family.load("dfrc")
    assert dfrc.independent and dfrc.count == 960 * 960
    assert dfrc.identify("RNBQKBNR rnbqkbnr").id == 497_798  # 518 * 960 + 518
    assert dfrc.identify("RNBQKBNR/rnbqkbnr").id == 497_798
    start = dfrc.position(497_798)
    assert (start.white, start.black) == ("RNBQKBNR", "RNBQKBNR")


@pytest.mark.parametrize(("white", "black"), [
    ("QNRBBNKR", "RNBQKBNR"), ("RNBQKBNR", "QNRBBNKR"), ("BBQNNRKR", "RKRNNQBB"),
])
def test_dfrc_id_is_white_times_960_plus_black(white: str, black: str) -> None:
    dfrc = Family.load("dfrc")
    number = SCHARNAGL[white] * 960 + SCHARNAGL[black]  # as Stockfish's DFRC book orders pairs
    assert dfrc.identify(f"{white} {black.lower()}").id == number
    position = dfrc.position(number)
    assert (position.white, position.black) == (white, black)


@settings(max_examples=examples(20, 1000), deadline=None)
@given(st.sampled_from(["dfrc", "chess324"]), st.data())
def test_independent_pairs_round_trip(name: str, data: st.DataObject) -> None:
    fam = Family.load(name)
    number = data.draw(st.integers(0, fam.count - 1))
    position = fam.position(number)
    assert fam.identify(f"{position.white} {position.black.lower()}").id == number
    side = fam.side_count
    assert fam.rank_of(number // side) == position.white
    assert fam.rank_of(number % side) == position.black


def test_chess324_sides_are_independent() -> None:
    fam = Family.load("chess324")
    assert fam.side_count == 18
    ranks = {fam.rank_of(i) for i in range(18)}
    # King on e1, rooks in the corners, bishops on opposite colours (Kaufman).
    assert ranks == family_ranks("chess324")
    white, black = sorted(ranks)[:2]
    assert fam.identify(f"{white} {black}").id == fam.identify(white + black).id
    assert fam.identify(f"{white} {black}").id != fam.identify(f"{black} {white}").id


def test_a_file_rule_can_make_steps_uneven() -> None:
    # The queen kept off a1 and h1 has 4, 5 or 6 free squares after the
    # bishops, depending on whether they took a1 or h1.
    text = chess960_with('[[rule]]\nkind = "not-on-files"\npiece = "Q"\nfiles = "ah"')
    rules = load_text(text)
    assert rules.numbering == "enumerated"
    with pytest.raises(RuleFileError, match=r"step 3 'Q' has 4, 5 or 6 choices"):
        load_text(text.replace("[numbering]", '[numbering]\nkind = "arithmetic"'))
    expected = {r for r in CHESS960_RANKS if r[0] != "Q" and r[7] != "Q"}
    fam = Family(rules)
    assert fam.count == len(expected)
    assert set(fam.ranks()) == expected


def test_check_refutes_a_rule_whose_explanation_misses_a_case(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An explanation that never finds bishops on one colour: the solver still
    refuses those ranks, so check names the arrangements nothing explains."""
    from solver.check import check
    from solver.kinds.vocabulary import KINDS

    monkeypatch.setattr(KINDS["opposite-colours"], "violations", lambda self, placement: [])
    report = check(Family.load("chess960"))
    failed = [c for c in report.claims if not c.ok]
    assert [c.text for c in failed] == [
        "every other arrangement of the pieces breaks a named rule (4,080)"]
    # bishops alike (12 pairs of squares), then Q (6) and NN (10), R K R in order: 720
    assert "(720 of 4,080)" in failed[0].detail


@pytest.mark.parametrize("name", ["capablanca-random", "chess99-random", "racing-kings"])
def test_checks_explanations_in_bulk_are_each_ranks_own(name: str) -> None:
    """``check`` blanks all ranks at once per rule (one ``translate``); against
    asking every rule about each rank on its own, over good ranks, mirrored,
    rotated and swapped ones, wrong pieces, a short rank and one with a line break."""
    from solver.check import _explained
    from solver.kinds.vocabulary import Placement

    family = Family.load(name)
    ranks = family.ranks()[:2000]
    every = [*ranks, "R" * len(ranks[0]), ranks[0][:-1], ranks[5].replace("K", "X")]
    for r in ranks[:300]:  # good and odd ranks interleaved: each must keep its own view
        every += [r, r[::-1], r, r[1:] + r[0], r, r[1] + r[0] + r[2:]]
    wanted = sorted(family.ruleset.pieces)
    expected = []
    for rank in every:
        suspect = any(not rule.letters for rule in family.ruleset.rules)
        for rule in family.ruleset.rules:
            if rule.letters:
                seen = "".join(c if c in rule.letters else "." for c in rank)
                try:
                    suspect = suspect or bool(rule.violations(Placement(seen)))
                except (ValueError, IndexError):
                    suspect = True
        if not suspect:
            continue
        if sorted(rank) != wanted:
            expected.append(f"{rank}: not the family's pieces")
        elif broken := family.violations(rank):
            expected.append(f"{rank}: {'; '.join(map(str, broken))}")
    assert _explained(family, every) == expected
    # A line break in a rank (never from the solver) is read one rank at a time.
    assert _explained(family, [*every, "K\nQ"]) == [*expected, "K\nQ: not the family's pieces"]
    assert any("not the family's pieces" in line for line in expected)
    assert any("rule" in line for line in expected) or name == "racing-kings"
