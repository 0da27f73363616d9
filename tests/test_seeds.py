"""Arbiter draws: seed phrases, tournament plans, streaming ``random -n``.

Golden data: the seed-phrase method as the README publishes it, written out
again here (SHA-256 words, rejection sampling) apart from the code under
test, with ranks from the golden KRN table in ``tests/data/chess960.txt``.
The published test vectors are checked to be in the documentation
(docs/how-to/random-draws.md) and to come out of this reference.
"""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import docs_text
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import seed_below as below
from oracles import seed_words as words
from typer.testing import CliRunner

from solver.cli.app import app
from solver.errors import DrawError, SeedError
from solver.family import Family
from solver.sampling import draw_ids, iter_ids, plan, seed_value

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = {int(i): r for i, r in (line.split() for line in
                                 (ROOT / "tests/data/chess960.txt").read_text().splitlines())}
runner = CliRunner()


#: The README's test vectors: phrase -> the first three Chess960 IDs drawn.
VECTORS = {
    "Freestyle Open 2026, round 3": [687, 682, 782],
    "Freestyle Open 2026": [18, 259, 483],
    "Schach960 in Zürich": [600, 480, 410],
    "42": [443, 761, 185],  # an integer seed is the phrase of its digits
}


def reference_ids(phrase: str, n: int, count: int = 960) -> list[int]:
    stream = words(phrase)
    return [below(stream, count) for _ in range(n)]


def test_vectors_match_the_reference() -> None:
    for phrase, ids in VECTORS.items():
        assert draw_ids(960, 3, seed=phrase) == reference_ids(phrase, 3) == ids


def test_vectors_are_the_readme_s() -> None:
    readme = docs_text.page(docs_text.RANDOM_DRAWS)  # the recipe's page
    for phrase, ids in VECTORS.items():
        row = f"| {phrase} | {', '.join(map(str, ids))} | {GOLDEN[ids[0]]} |"
        assert row in readme


def test_the_announced_draw_on_the_command_line() -> None:
    phrase = "Freestyle Open 2026, round 3"
    first = reference_ids(phrase, 1)[0]
    result = runner.invoke(app, ["random", "--seed", phrase])
    assert (result.exit_code, result.stdout) == (0, f"{first} {GOLDEN[first]}\n")


@given(st.text(min_size=1))
def test_any_phrase_draws_as_published(phrase: str) -> None:
    assert draw_ids(960, 4, seed=phrase) == reference_ids(phrase, 4)
    assert draw_ids(921_600, 2, seed=phrase) == reference_ids(phrase, 2, 921_600)


def test_nfc_makes_typed_forms_agree() -> None:
    composed, decomposed = "Z\u00fcrich", "Zu\u0308rich"
    assert draw_ids(960, 5, seed=composed) == draw_ids(960, 5, seed=decomposed)


def test_integer_seeds_are_phrases_of_their_digits() -> None:
    assert seed_value("42") == seed_value(42) == "42"
    assert draw_ids(960, 10, seed="42") == draw_ids(960, 10, seed=42) == reference_ids("42", 10)
    # "042" and " 42" are other phrases, each drawn by the same published recipe.
    for phrase in ("042", " 42", "-1", "9" * 5000):
        assert draw_ids(960, 3, seed=phrase) == reference_ids(phrase, 3)
    assert draw_ids(960, 3, seed="042") != draw_ids(960, 3, seed="42")
    # The README's example, drawn by the recipe (it was Python's random before):
    # a partial Fisher-Yates shuffle of the IDs left.
    left = [i for i in range(960) if i not in (518, 534)]
    stream = words("42")
    for i in range(3):
        j = i + below(stream, len(left) - i)
        left[i], left[j] = left[j], left[i]
    assert left[:3] == [133, 917, 267]
    assert [GOLDEN[i] for i in left[:3]] == ["NRBBQNKR", "RKBBRQNN", "NRKNBQRB"]
    result = runner.invoke(app, ["random", "--seed", "42", "-n", "3", "--distinct",
                                 "--exclude", "518,534"])
    assert result.stdout == "133 NRBBQNKR\n917 RKBBRQNN\n267 NRKNBQRB\n"


def test_bad_seeds() -> None:
    for bad in ("", "\udcff", "\ud800", 1.5, True, None):
        if bad is None:
            continue
        with pytest.raises(SeedError):
            draw_ids(960, seed=bad)  # type: ignore[arg-type]
    result = runner.invoke(app, ["random", "--seed", ""])
    assert result.exit_code == 2


def test_random_streams_without_end() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "solver", "random", "--seed", "1", "-n", "1000000000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    lines = [process.stdout.readline() for _ in range(3)]
    process.stdout.close()
    code = process.wait(timeout=120)  # a guard only: it ends as soon as the pipe closes
    expected = [f"{i} {GOLDEN[i]}\n" for i in draw_ids(960, 3, seed=1)]
    assert (lines, code, process.stderr.read()) == (expected, 0, "")


def test_distinct_stream_is_a_permutation_and_keeps_few_swaps() -> None:
    ids = list(iter_ids(960, None, seed="perm", distinct=True))
    assert sorted(ids) == list(range(960))
    assert ids[:10] == draw_ids(960, 10, seed="perm", distinct=True)


def mirror(rank: str) -> str:
    return rank[::-1]


RANK_ID = {rank: i for i, rank in GOLDEN.items()}


def reference_plan(phrase: str, rounds: int, exclude: set[int], mirrors: bool) -> list[int]:
    """The plan as documented: round r takes the k-th allowed ID, in increasing order."""
    stream = words(phrase)
    banned = set(exclude)
    if mirrors:
        banned |= {RANK_ID[mirror(GOLDEN[i])] for i in exclude}
    out = []
    for _ in range(rounds):
        allowed = [i for i in range(960) if i not in banned]
        pick = allowed[below(stream, len(allowed))]
        out.append(pick)
        banned.add(pick)
        if mirrors:
            banned.add(RANK_ID[mirror(GOLDEN[pick])])
    return out


@pytest.mark.parametrize("mirrors", [False, True])
def test_plan_follows_the_documented_method(mirrors: bool) -> None:
    chess960 = Family.load("chess960")
    got = [p.id for p in plan(chess960, 40, seed="Freestyle Open 2026",
                              exclude=[518], mirrors=mirrors)]
    assert got == reference_plan("Freestyle Open 2026", 40, {518}, mirrors)
    assert len(set(got)) == 40 and 518 not in got
    if mirrors:
        assert 534 not in got
        assert not {RANK_ID[mirror(GOLDEN[i])] for i in got} & set(got)


def test_plan_every_mirror_class_once() -> None:
    chess960 = Family.load("chess960")
    got = [p.id for p in plan(chess960, 480, seed=7, mirrors=True)]
    classes = {min(i, RANK_ID[mirror(GOLDEN[i])]) for i in got}
    assert len(classes) == 480
    with pytest.raises(DrawError):
        plan(chess960, 481, seed=7, mirrors=True)


def test_plan_for_dfrc_mirrors_both_sides() -> None:
    dfrc = Family.load("dfrc")
    got = plan(dfrc, 30, seed="dfrc", mirrors=True)
    pairs = {(p.white, p.black) for p in got}
    assert not {(mirror(w), mirror(b)) for w, b in pairs} & pairs


def test_plan_command_tables(tmp_path: Path) -> None:
    args = ["plan", "--rounds", "3", "--seed", "Freestyle Open 2026"]
    result = runner.invoke(app, args)
    ids = reference_plan("Freestyle Open 2026", 3, set(), False)
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and lines[0] == "| round | id | rank | FEN |"
    for n, (line, number) in enumerate(zip(lines[2:], ids, strict=True), 1):
        rank = GOLDEN[number]
        assert line.startswith(f"| {n} | {number} | {rank} | {rank.lower()}/pppppppp/")
    result = runner.invoke(app, [*args, "-f", "csv", "--svg-dir", str(tmp_path)])
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [int(r["id"]) for r in rows] == ids
    for row in rows:
        assert Path(row["board"]).read_text().startswith("<?xml")
    result = runner.invoke(app, ["plan", "--rounds", "961"])
    assert result.exit_code == 1 and result.stderr.startswith("error: cannot draw 961")
