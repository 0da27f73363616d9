"""Listing one side's ranks in canonical order, the fast ways (issue 26 item 2).

Arithmetic families are listed by decoding every ID from the placement steps
(:func:`~solver.numbering.encoder.decode_blocks`, no search); enumerated ones
by the solver, each batch keyed where it is found
(:class:`~solver.numbering.encoder.SortKeys`); the text format writes a
mirrored family's lines a block at a time (:func:`~solver.output.formats.id_lines`).
The truth is a brute force over every arrangement (:mod:`oracles`) put in
order by a canonical key written here from the steps' published meaning,
and, where the paths must agree, the solver's own listing as it was made
before (placed at each rank's ID, or sorted by :meth:`Numbering.ordered`).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import EIGHT_FILE_RULES, brute_force, chess960_rank, is_dark

from solver.errors import SearchTooLargeError
from solver.family import Family
from solver.numbering.encoder import SortKeys, decode_all, decode_blocks
from solver.numbering.listing import (
    _streamed,
    blocks_of,
    side_blocks,
    side_ranks,
    solver_ranks,
)
from solver.output.formats import id_lines
from solver.position import Mirrored
from solver.ruleset.reader import load, rules_dir
from solver.syntax.steps import Numbering

# -- the canonical order, written from the steps' meaning (steps.py's docstring) ----------


def canonical_key(steps: list[str], rank: str) -> tuple[int, ...]:
    """The choice of each step, most significant (last) first: a step's choices
    are the free squares of its colour, left to right (groups: their
    combinations in lexicographic order); a step mixing pieces fills the rest.
    """
    free = list(range(len(rank)))
    digits = []
    for text in steps:
        letters, _, colour = text.partition(":")
        if len(set(letters)) > 1:
            assert "".join(rank[f] for f in free) == letters
            digits.append(0)
            break
        if colour.startswith(("opposite-", "same-")):
            there = is_dark(rank.index(colour.split("-")[1]))
            want_dark = there != colour.startswith("opposite-")
            candidates = [f for f in free if is_dark(f) == want_dark]
        elif colour:
            candidates = [f for f in free if is_dark(f) == (colour == "dark")]
        else:
            candidates = free
        chosen = tuple(i for i, f in enumerate(candidates) if rank[f] == letters[0])
        chosen = chosen[:len(letters)]
        digits.append(list(combinations(range(len(candidates)), len(letters))).index(chosen))
        taken = {candidates[i] for i in chosen}
        free = [f for f in free if f not in taken]
    return tuple(reversed(digits))


def brute_listing(pieces: str, tests: tuple, steps: list[str]) -> list[str]:
    return sorted(brute_force(pieces, tests), key=lambda rank: canonical_key(steps, rank))


@pytest.mark.parametrize("name", sorted(set(EIGHT_FILE_RULES) - {"chess324"}))
def test_arithmetic_listing_is_the_brute_force_in_canonical_order(name: str) -> None:
    family = Family.load(name)
    assert family.ruleset.numbering == "arithmetic"
    want = brute_listing("KQRRBBNN", EIGHT_FILE_RULES[name], list(family.ruleset.steps))
    assert list(side_ranks(family.ruleset, family.numbering)) == want
    assert decode_all(family.numbering) == want


def test_chess960_listing_starts_with_scharnagls_zero_and_holds_518() -> None:
    ranks = list(Family.load("chess960").side_ranks())
    assert (ranks[0], ranks[518], ranks[959]) == ("BBQNNRKR", "RNBQKBNR", "RKRNNQBB")


ENUMERATED = """name = "chess960-enumerated"
title = "Chess960 numbered by the default steps"
source = "test"
files = 8
pieces = "KQRRBBNN"
count = 0

[[rule]]
kind = "opposite-colours"
pieces = "BB"

[[rule]]
kind = "between"
piece = "K"
pair = "RR"
"""


def test_enumerated_listing_is_the_brute_force_in_canonical_order(tmp_path: Path) -> None:
    path = tmp_path / "enumerated.toml"
    path.write_text(ENUMERATED)
    family = Family.load(str(path))
    assert family.ruleset.numbering == "enumerated"
    want = brute_listing("KQRRBBNN", (chess960_rank,), ["K", "Q", "RR", "BB", "NN"])
    assert len(want) == 960
    assert list(family.side_ranks()) == want


# -- the new paths against the old ones, for every bundled family small enough ----------


#: Bundled families listed in well under a second each (the rest: ``-m slow``).
QUICK = ["bishops-opposite", "chess256", "chess324", "chess324x16", "chess480", "chess960",
         "chess99-random", "corner", "dfrc", "horde960", "janggi", "king-between-rooks",
         "placement", "racing-kings", "seirawan960", "shogi-shuffle", "shuffle",
         "shuffle-nocastle", "transcendental", "pychess-capablanca",
         "chess18", "makruk-shuffle", "shatranj-shuffle", "metamachy"]
SLOW = ["capablanca-random", "capablanca-shuffle", "capahouse960", "cutechess-caparandom",
        "myshogi", "xboard-caparandom", "myshogi-program"]
BUNDLED = [*QUICK, *(pytest.param(name, marks=pytest.mark.slow) for name in SLOW)]


@pytest.mark.parametrize("name", BUNDLED)
def test_listing_agrees_with_the_solvers_listing(name: str) -> None:
    rules = load(name)
    numbering = rules.step_numbering()
    new = [rank for block in side_blocks(rules, numbering) for rank in block]
    if rules.numbering == "arithmetic":
        old = [rank for block in _streamed(rules, numbering, 6_000_000, None) for rank in block]
    else:
        old = numbering.ordered(solver_ranks(rules))
    assert new == old


def test_every_bundled_family_is_either_checked_here_or_too_large() -> None:
    names = sorted(p.stem for p in rules_dir().glob("*.toml"))
    large = {"bench-12", "capablanca-random-full", "wild3", "wild4", "sittuyin", "jieqi",
             "cwda"}  # (wild3, wild4, cwda: armies, listed by tests/test_armies.py, test_cwda.py)
    assert sorted(set(names) - large) == sorted([*QUICK, *SLOW])


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(["chess960", "capablanca-random", "shogi-shuffle", "shuffle",
                             "king-between-rooks", "chess324"]),
       size=st.integers(1, 50_000))
def test_decoded_blocks_are_decode_of_each_id(name: str, size: int) -> None:
    numbering = load(name).step_numbering()
    blocks = list(decode_blocks(numbering, size))
    flat = [rank for block in blocks for rank in block]
    assert len(flat) == numbering.count
    assert all(len(block) >= min(size, numbering.count) for block in blocks[:-1])
    for number in range(0, numbering.count, max(1, numbering.count // 100)):
        assert flat[number] == numbering.decode(number)


#: Uniform step orders of Chess960's pieces: colour steps late (a short
#: plain tail, or none: the last choosing step takes a colour), groups.
STEP_ORDERS = [
    ["B:light", "B:dark", "Q", "NN", "RKR"],
    ["B:dark", "B:light", "NN", "Q", "RKR"],
    ["B:light", "B:dark", "K", "Q", "RR", "NN"],
    ["BB", "Q", "NN", "RKR"],
    ["K", "Q", "RR", "BB", "NN"],
    ["N:light", "N:dark", "B:light", "B:dark", "Q", "RKR"],
    ["N:light", "N:dark", "Q:light", "B:dark", "B:light", "RKR"],
]


@pytest.mark.parametrize("steps", STEP_ORDERS)
def test_decoding_every_id_of_any_step_order(steps: list[str]) -> None:
    numbering = Numbering(8, "KQRRBBNN", steps)
    assert numbering.uniform
    want = [numbering.decode(i) for i in range(numbering.count)]
    assert decode_all(numbering) == want
    for size in (1, 7, 100):
        assert [rank for block in decode_blocks(numbering, size) for rank in block] == want


def test_decoding_steps_with_files_allowed_and_a_path() -> None:
    numbering = Numbering(8, "KQRRBBNN", ["K", "B:light", "B:dark", "Q", "NN", "RR"],
                          allowed={"K": frozenset({2, 4}), "N": frozenset(range(8))})
    assert numbering.uniform and numbering.radices[0] == 2
    assert decode_all(numbering) == [numbering.decode(i) for i in range(numbering.count)]
    path = Numbering(8, "KQRRBBNN", ["B:light", "B:dark", "Q", "NN", "RKR"],
                     paths=[None, None, [7, 6, 5, 4, 3, 2, 1, 0], None, [7, 6, 5, 4, 3, 2, 1, 0]])
    assert path.uniform
    assert decode_all(path) == [path.decode(i) for i in range(path.count)]


def test_sort_keys_order_as_the_numbering_orders() -> None:
    numbering = load("chess480").step_numbering()
    ranks = sorted(solver_ranks(load("chess480")))
    keys = SortKeys(numbering)
    by_key = [rank for _, rank in sorted(zip(keys(ranks), ranks, strict=True))]
    assert by_key == numbering.ordered(ranks)
    assert keys([]) == []


# -- limits, errors and progress --------------------------------------------------------


def test_a_family_too_large_to_search_is_still_refused() -> None:
    family = Family.load("bench-12", max_arrangements=1000)
    with pytest.raises(SearchTooLargeError):
        next(family.side_blocks())


def test_progress_counts_up_to_every_rank() -> None:
    for name in ("capablanca-random", "chess480"):
        seen: list[int] = []
        family = Family.load(name)
        listed = sum(len(block) for block in family.side_blocks(seen.append))
        assert seen == sorted(seen) and seen[-1] == listed == len(family.ranks())


def test_blocks_of() -> None:
    assert list(blocks_of([], 3)) == []
    assert list(blocks_of("ABCDEFG", 3)) == [["A", "B", "C"], ["D", "E", "F"], ["G"]]


# -- the rows and the lines -------------------------------------------------------------


def test_mirrored_rows_are_the_rows_of_each_rank() -> None:
    family = Family.load("chess960")
    rows = family.numbered()
    assert isinstance(rows, Mirrored)
    turn = family.ruleset.layout.black_rank
    assert list(rows) == [(i, rank, turn(rank)) for i, rank in enumerate(family.side_ranks())]


@settings(max_examples=100, deadline=None)
@given(start=st.one_of(st.integers(0, 10**9), st.sampled_from([0, 9, 990, 998, 9_990, 999_000])),
       ranks=st.one_of(
           st.lists(st.text("KQRBN", min_size=8, max_size=8), max_size=3000),
           st.integers(1, 4000).map(lambda n: ["RNBQKBNR"] * n),
           st.lists(st.text("KQ♔♕", min_size=1, max_size=3), max_size=200)))
def test_id_lines_are_the_lines_written_one_by_one(start: int, ranks: list[str]) -> None:
    numbers = range(start, start + len(ranks))
    want = "".join(f"{n} {r}\n" for n, r in zip(numbers, ranks, strict=True))
    assert id_lines(start, ranks) == want
