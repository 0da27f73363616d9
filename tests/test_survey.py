"""The shortcuts that size a family before any search, against brute force.

``Numbering`` decides whether its placement steps give the same number of
choices on every path by counting free squares of each kind; the oracle here
walks every path over the actual squares. ``Model.search_size`` counts the
arrangements within the pieces' files file by file; the oracle lists every
distinct arrangement with itertools.
"""

from __future__ import annotations

import re
from itertools import combinations, permutations
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.board.geometry import colour
from solver.kinds.model import Model
from solver.syntax.steps import Numbering, parse_steps


def first_uneven_step(files: int, pieces: str, steps: list[str],
                      allowed: dict[str, frozenset[int]]) -> int | None:
    """The first step (1-based) whose number of choices differs between paths."""
    parsed = parse_steps(steps, pieces)
    sizes: list[set[int]] = [set() for _ in parsed]

    def walk(i: int, free: tuple[int, ...], shade: dict[str, str]) -> None:
        if i == len(parsed) or parsed[i].fill:
            return
        step = parsed[i]
        want = step.colour
        if step.relative is not None:
            there = shade[step.relative]
            want = ("light" if there == "dark" else "dark") if step.opposite else there
        letter = step.pieces[0]
        candidates = [f for f in free if (want is None or colour(f) == want)
                      and (letter not in allowed or f in allowed[letter])]
        sizes[i].add(comb(len(candidates), len(step.pieces)))
        for chosen in combinations(candidates, len(step.pieces)):
            walk(i + 1, tuple(f for f in free if f not in chosen),
                 {**shade, letter: colour(chosen[0])})

    walk(0, tuple(range(files)), {})
    return next((i + 1 for i, s in enumerate(sizes) if len(s) > 1), None)


@st.composite
def step_plans(draw: st.DrawFn) -> tuple[int, str, list[str], dict[str, frozenset[int]]]:
    files = draw(st.integers(4, 8))
    singles = draw(st.lists(st.sampled_from("KQA"), min_size=1, max_size=3, unique=True))
    rest = files - len(singles)
    pairs = [letter for letter in "BNR"][: rest // 2]
    pieces = "".join(singles) + "".join(p * 2 for p in pairs) + "C" * (rest - 2 * len(pairs))
    steps: list[str] = []
    placed: list[str] = []
    for letter in dict.fromkeys(draw(st.permutations(list(dict.fromkeys(pieces))))):
        n = pieces.count(letter)
        shape = draw(st.sampled_from(["plain", "colours", "relative"]))
        if n == 1 and shape == "relative" and placed:
            steps.append(f"{letter}:{draw(st.sampled_from(['opposite', 'same']))}-"
                         f"{draw(st.sampled_from(placed))}")
        elif n == 2 and shape == "colours":
            steps += [f"{letter}:light", f"{letter}:dark"]
        elif n == 1 and shape == "colours":
            steps.append(f"{letter}:{draw(st.sampled_from(['light', 'dark']))}")
        else:
            steps.append(letter * n)
        if n == 1:
            placed.append(letter)
    allowed = {
        letter: frozenset(draw(st.sets(st.integers(0, files - 1), min_size=1)))
        for letter in draw(st.sets(st.sampled_from(sorted(set(pieces))), max_size=2))
    }
    return files, pieces, steps, allowed


@settings(max_examples=examples(60, 2000))
@given(step_plans())
def test_the_survey_by_kinds_of_square_finds_what_walking_every_path_finds(
        plan: tuple[int, str, list[str], dict[str, frozenset[int]]]) -> None:
    files, pieces, steps, allowed = plan
    numbering = Numbering(files, pieces, steps, allowed)
    expected = first_uneven_step(files, pieces, steps, allowed)
    if expected is None:
        assert numbering.uneven is None, (steps, allowed)
    else:
        assert numbering.uneven is not None, (steps, allowed)
        found = re.search(r"step (\d+) ", numbering.uneven)
        assert found and int(found.group(1)) == expected, (numbering.uneven, steps, allowed)


def test_a_pinned_uneven_plan() -> None:
    # Chess960 with the queen placed before the bishops: 6 or 7 choices (hand count:
    # the queen takes a light or dark square, leaving 3 or 4 of that colour).
    numbering = Numbering(8, "KQRRBBNN", ["Q", "B:light", "B:dark", "NN", "RKR"])
    assert numbering.uneven is not None
    assert "step 2 'B:light' has 3 or 4 choices" in numbering.uneven
    assert first_uneven_step(8, "KQRRBBNN", ["Q", "B:light", "B:dark", "NN", "RKR"], {}) == 2


@settings(max_examples=examples(100, 1000))
@given(st.integers(3, 7).flatmap(lambda files: st.tuples(
    st.just(files),
    st.text("KQRBN", min_size=1, max_size=files),
    st.dictionaries(st.sampled_from("KQRBN"),
                    st.sets(st.integers(0, files - 1), min_size=1), max_size=3),
)))
def test_search_size_counts_the_arrangements_within_the_files_left(
        case: tuple[int, str, dict[str, set[int]]]) -> None:
    files, pieces, allowed = case
    model = Model.for_pieces(files, pieces)
    for letter, where in allowed.items():
        if letter in pieces:
            model.restrict(letter, where)
    padded = pieces + " " * (files - len(pieces))
    expected = sum(
        1 for row in set(permutations(padded))
        if all(row[f] == " " or row[f] not in allowed or f in allowed[row[f]]
               for f in range(files)))
    assert model.search_size() == expected
