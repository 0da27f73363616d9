"""Issue 38 item 7: the two silent errors.

* A placement step of empty squares (``..``) may stand anywhere in the steps,
  for arithmetic and enumerated numberings alike: ids are checked against a
  brute force written here from the steps' definition (rules/README.md,
  *Placement steps*), never from the code under test.
* ``hand`` letters in lower case are Black's: ``"HEhe"`` is each side's
  hawk and elephant, as the FEN writes it; a hand that differs between the
  sides is refused with one line saying how to write it.
"""

from __future__ import annotations

from itertools import combinations, permutations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Family, RuleFileError
from solver.check import check
from solver.cli.entry import dispatch
from solver.errors import PositionError
from solver.ruleset.reader import parse


def _rule_file(files: int, pieces: str, steps: list[str], count: int, kind: str = "",
               holds: tuple[str, str] | None = None) -> str:
    lines = ['name = "dots"', 'title = "empty squares placed by a step"', 'source = "test"',
             f"files = {files}", f'pieces = "{pieces}"', f"count = {count}", ""]
    if holds is not None:
        lines += ["[[rule]]", 'kind = "holds"', f'squares = "{holds[0]}"',
                  f'pieces = "{holds[1]}"', ""]
    lines += ["[numbering]", "steps = [" + ", ".join(f'"{s}"' for s in steps) + "]"]
    if kind:
        lines.append(f'kind = "{kind}"')
    return "\n".join(lines) + "\n"


def brute_digits(rank: str, steps: list[str]) -> list[tuple[int, int]]:
    """Each step's (choice, number of choices), first step first, from the
    definition: a step placing ``k`` pieces of one letter chooses among the
    ``k``-subsets of the free squares in lexicographic order; a last step
    that mixes letters has one choice."""
    free = list(range(len(rank)))
    out = []
    for step in steps:
        if len(set(step)) > 1:  # a last step mixing letters: the pieces left, in order
            assert "".join(rank[f] for f in free) == step
            out.append((0, 1))
            continue
        chosen = tuple(f for f in free if rank[f] == step[0])
        subsets = list(combinations(free, len(step)))
        out.append((subsets.index(chosen), comb(len(free), len(step))))
        free = [f for f in free if f not in chosen]
    return out


def brute_ids(ranks: list[str], steps: list[str]) -> dict[str, int]:
    """The ids of ``ranks`` by the definition: the ranks sorted by their
    steps' choices, the last step the most significant, numbered 0, 1, ..."""
    key = {r: [d for d, _ in brute_digits(r, steps)][::-1] for r in ranks}
    return {rank: i for i, rank in enumerate(sorted(ranks, key=key.__getitem__))}


def _arrangements(pieces: str) -> list[str]:
    return sorted(set(map("".join, permutations(pieces))))


def _assert_numbered_as_brute_force(family: Family, ranks: list[str], steps: list[str]) -> None:
    expected = brute_ids(ranks, steps)
    assert family.count == len(ranks)
    assert sorted(family.rank_id(r) for r in ranks) == list(range(len(ranks)))  # a bijection
    for rank, number in expected.items():
        assert family.rank_id(rank) == number, rank
        assert family.rank_of(number) == rank, number
    for number in range(family.count):
        assert family.rank_id(family.rank_of(number)) == number


def test_empty_squares_first_numbers_each_rank_once() -> None:
    """The reproduction: ``KQ..`` with steps ``.., K, Q`` (check said two ranks got id 1)."""
    steps = ["..", "K", "Q"]
    family = Family(parse(_rule_file(4, "KQ..", steps, 12), "dots.toml"))
    report = check(family)
    assert report.ok, [(c.text, c.detail) for c in report.claims if not c.ok]
    assert report.numbering == "arithmetic"
    _assert_numbered_as_brute_force(family, _arrangements("KQ.."), steps)


def test_empty_squares_first_with_holds_are_placed() -> None:
    """The reproduction with a ``holds`` rule (enumerated): solve refused a valid
    rank ("the steps cannot place it") once the steps are read in parts."""
    steps = ["..", "K", "Q", "R", "B", "NN"]
    ranks = [r for r in _arrangements("KQRNNB..") if r[0] == "R"]
    family = Family(parse(_rule_file(8, "KQRNNB..", steps, len(ranks), holds=("a1", "R")),
                          "mid.toml"))
    report = check(family)
    assert report.ok, [(c.text, c.detail) for c in report.claims if not c.ok]
    assert report.numbering == "enumerated"
    _assert_numbered_as_brute_force(family, ranks, steps)
    assert family.ranks() == sorted(ranks, key=brute_ids(ranks, steps).__getitem__)


def test_the_commands_number_empty_squares_first(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "dots.toml"
    path.write_text(_rule_file(4, "KQ..", ["..", "K", "Q"], 12), encoding="utf-8")
    ids = brute_ids(_arrangements("KQ.."), ["..", "K", "Q"])
    assert dispatch(["check", "--rules", str(path)]) == 0
    capsys.readouterr()
    assert dispatch(["solve", "--rules", str(path)]) == 0
    listed = capsys.readouterr().out.split()
    assert listed[0::2] == [str(i) for i in range(12)]
    assert [ids[r] for r in listed[1::2]] == list(range(12))


@st.composite
def _families(draw: st.DrawFn) -> tuple[str, list[str], str, tuple[str, str] | None]:
    """A small family: a king, a few other pieces and empty squares; one step
    per letter (all of its pieces) in random order; maybe a ``holds`` rule."""
    others = draw(st.lists(st.sampled_from("QRN"), max_size=3))
    dots = draw(st.integers(max(1, 3 - len(others)), 3))  # files >= 4
    pieces = "K" + "".join(sorted(others)) + "." * dots
    letters = draw(st.permutations(sorted(set(pieces))))
    steps = [letter * pieces.count(letter) for letter in letters]
    kind = draw(st.sampled_from(["", "enumerated"]))
    holds = None
    if draw(st.booleans()):
        holds = ("a1", draw(st.sampled_from(sorted(set(pieces)))))
        kind = ""
    return pieces, steps, kind, holds


def _allowed(rank: str, holds: tuple[str, str] | None) -> bool:
    return holds is None or rank[0] == holds[1]


@settings(max_examples=40, deadline=None)
@given(_families())
def test_empty_square_steps_anywhere_number_as_the_definition(
        spec: tuple[str, list[str], str, tuple[str, str] | None]) -> None:
    pieces, steps, kind, holds = spec
    ranks = [r for r in _arrangements(pieces) if _allowed(r, holds)]
    text = _rule_file(len(pieces), pieces, steps, len(ranks), kind, holds)
    family = Family(parse(text, "dots.toml"))
    _assert_numbered_as_brute_force(family, ranks, steps)
    report = check(family)
    assert report.ok, [(c.text, c.detail) for c in report.claims if not c.ok]


# --- hands ---------------------------------------------------------------

_SEIRAWAN = """name = "hands"
title = "hands"
source = "test"
files = 8
pieces = "KQRRBBNN"
count = 960
hand = "{hand}"

[[rule]]
kind = "opposite-colours"
pieces = "BB"

[[rule]]
kind = "between"
piece = "K"
pair = "RR"
"""
_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[{hand}] w KQkq - 0 1"


@pytest.mark.parametrize("hand", ["HE", "HEhe", "heHE", "HheE"])
def test_a_hand_as_the_fen_shows_it_is_each_sides(hand: str) -> None:
    family = Family(parse(_SEIRAWAN.format(hand=hand), "hands.toml"))
    assert family.ruleset.hand == "HE" or sorted(family.ruleset.hand or "") == ["E", "H"]
    assert family.id(_START.format(hand="HEhe")) == family.rank_id("RNBQKBNR")
    assert "[HEhe]" in family.position(family.rank_id("RNBQKBNR")).fen()
    with pytest.raises(PositionError, match=r"pieces in hand .HEHEhehe., not \[HEhe\]"):
        family.id(_START.format(hand="HEHEhehe"))


def test_upper_case_alone_is_still_each_sides_hand() -> None:
    family = Family(parse(_SEIRAWAN.format(hand="HEHE"), "hands.toml"))
    assert family.id(_START.format(hand="HEHEhehe")) == family.rank_id("RNBQKBNR")


@pytest.mark.parametrize("hand, white, black", [("HEh", "HE", "H"), ("he", "", "HE"),
                                                 ("Hhe", "H", "HE"), ("HEhh", "HE", "HH")])
def test_a_hand_differing_between_the_sides_is_refused(hand: str, white: str,
                                                       black: str) -> None:
    with pytest.raises(RuleFileError) as info:
        parse(_SEIRAWAN.format(hand=hand), "hands.toml")
    message = str(info.value)
    assert "\n" not in message
    assert f"hands.toml: hand: {hand!r} gives White {white!r} and Black {black!r}" in message
    assert "differs between the sides" in message
    same = white or black
    assert f"as {same + same.lower()!r} (or {same!r}" in message


def test_the_cli_refuses_an_uneven_hand_in_one_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "hands.toml"
    path.write_text(_SEIRAWAN.format(hand="HEh"), encoding="utf-8")
    assert dispatch(["check", "--rules", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "'HEh'" in err
