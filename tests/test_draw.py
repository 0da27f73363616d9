"""Fair random draws: reproducible seeds, exclusions, distinct draws, uniformity.

Golden data: Python's documented, version-stable ``Random(seed).random()``
(``Random(0).random() == 0.8444218515250481``) and the draw method the
module documents, re-derived here on its own.
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
import subprocess
import sys
from collections import Counter

import oracles
import pytest
from typer.testing import CliRunner

from solver.cli.app import app
from solver.errors import DrawError, IdRangeError, IdSyntaxError, SeedError
from solver.family import Family
from solver.sampling import draw, draw_ids

runner = CliRunner()


def documented(seed: int, n: int, k: int) -> list[int]:
    """The documented method (:func:`oracles.seed_draws`): an integer seed is the
    phrase of its digits."""
    return oracles.seed_draws(str(seed).encode(), n, k)


def wilson_hilferty(df: int, z: float) -> float:
    """The chi-square quantile with ``df`` degrees of freedom at normal quantile ``z``."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def chi_square(observed: Counter[int], cells: int, total: int) -> float:
    expected = total / cells
    return sum((observed[c] - expected) ** 2 / expected for c in range(cells))


Z_999 = 3.090232  # standard normal quantile at 0.999


def test_seed_zero_first_draw_from_sha256() -> None:
    digest = hashlib.sha256(b"0" + bytes(8)).digest()
    assert draw_ids(960, seed=0) == [int.from_bytes(digest[:8], "big") % 960]


@pytest.mark.parametrize("seed", [0, 1, 2024, 10**30])
def test_seeded_draws_follow_the_documented_method(seed: int) -> None:
    assert draw_ids(960, 50, seed=seed) == documented(seed, 960, 50)
    assert draw_ids(921600, 5, seed=seed) == documented(seed, 921600, 5)


def test_seeded_draws_repeat() -> None:
    assert draw_ids(960, 20, seed=7) == draw_ids(960, 20, seed=7)
    assert draw_ids(960, 20, seed=7) != draw_ids(960, 20, seed=8)
    first = runner.invoke(app, ["random", "--seed", "99", "-n", "4"])
    again = runner.invoke(app, ["random", "--seed", "99", "-n", "4"])
    assert first.exit_code == 0 and first.stdout == again.stdout


def test_seeded_draws_repeat_across_processes() -> None:
    code = "import sys; from solver.cli.app import run; sys.exit(run(sys.argv[1:]))"
    args = [sys.executable, "-c", code, "random", "--seed", "31337", "-n", "6", "--distinct"]
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(args, capture_output=True, text=True, env=env, check=True)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    in_process = runner.invoke(app, ["random", "--seed", "31337", "-n", "6", "--distinct"])
    assert in_process.stdout == outputs[0]
    assert len(outputs[0].splitlines()) == 6


def test_text_output_is_id_and_rank() -> None:
    chess960 = Family.load("chess960")
    result = runner.invoke(app, ["random", "--seed", "2024", "-n", "3"])
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert [int(line.split()[0]) for line in lines] == documented(2024, 960, 3)
    for line in lines:
        number, rank = line.split()
        assert chess960.identify(rank).id == int(number)


def test_without_seed_uses_os_randomness(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def fake(n: int) -> int:
        calls.append(n)
        return n - 1

    monkeypatch.setattr(secrets, "randbelow", fake)
    assert draw_ids(960, 2) == [959, 959]
    assert calls == [960, 960]


def test_unseeded_draws_are_in_range() -> None:
    ids = draw_ids(960, 200)
    assert all(0 <= i < 960 for i in ids)


def test_exclusion_chess959() -> None:
    ids = draw_ids(960, 5000, seed=3, exclude=[518, 534])
    assert 518 not in ids and 534 not in ids
    every = draw_ids(960, 958, seed=3, distinct=True, exclude=[518, 534])
    assert sorted(every) == [i for i in range(960) if i not in (518, 534)]
    result = runner.invoke(app, ["random", "--exclude", "518,534", "-n", "300", "--seed", "5"])
    drawn = {int(line.split()[0]) for line in result.stdout.splitlines()}
    assert result.exit_code == 0 and not drawn & {518, 534}


def test_exclusion_leaves_the_rest_uniform() -> None:
    ids = draw_ids(10, 30000, seed=11, exclude=[0, 3, 9])
    counts = Counter(ids)
    assert set(counts) == {1, 2, 4, 5, 6, 7, 8}
    cells = sorted(counts)
    remapped = Counter({i: counts[c] for i, c in enumerate(cells)})
    assert chi_square(remapped, 7, 30000) < wilson_hilferty(6, Z_999)


def test_distinct() -> None:
    ids = draw_ids(960, 960, seed=4, distinct=True)
    assert sorted(ids) == list(range(960))
    assert draw_ids(960, 10, seed=4, distinct=True) == ids[:10]
    result = runner.invoke(app, ["random", "--distinct", "-n", "960", "--seed", "1"])
    assert len(set(result.stdout.splitlines())) == 960


def test_distinct_too_many() -> None:
    with pytest.raises(DrawError) as info:
        draw_ids(960, 959, distinct=True, exclude=[518, 534])
    assert (info.value.requested, info.value.available, info.value.excluded) == (959, 958, 2)
    message = "cannot draw 959 distinct chess960 positions: only 958 are left after excluding 2"
    assert str(info.value) == message
    result = runner.invoke(app, ["random", "--distinct", "-n", "959", "-x", "518", "-x", "534"])
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"error: {message}\n")


def test_nothing_left() -> None:
    with pytest.raises(DrawError, match="only 0 are left after excluding 3"):
        draw_ids(3, 1, exclude=[0, 1, 2])
    assert draw_ids(3, 2, exclude=[0, 2]) == [1, 1]


def test_bad_exclusions_and_seeds() -> None:
    with pytest.raises(IdRangeError):
        draw_ids(960, exclude=[960])
    with pytest.raises(SeedError):
        draw_ids(960, seed="")
    result = runner.invoke(app, ["random", "--exclude", "518,x"])
    assert (result.exit_code, result.stderr) == (
        1, "error: 'x' is neither a position id nor an exclusion preset of chess960 "
           "(chess958, chess959)\n")
    assert isinstance(IdSyntaxError("x"), ValueError)
    result = runner.invoke(app, ["random", "--exclude", "960"])
    assert result.stderr == "error: chess960 id 960 is out of range 0..959\n"
    assert runner.invoke(app, ["random", "--seed", ""]).exit_code == 2
    assert runner.invoke(app, ["random", "-n", "0"]).exit_code == 2


def test_chi_square_uniform_over_chess960() -> None:
    total = 96_000
    counts = Counter(draw_ids(960, total, seed=20240601))
    statistic = chi_square(counts, 960, total)
    assert wilson_hilferty(959, -Z_999) < statistic < wilson_hilferty(959, Z_999)


def test_chi_square_distinct_pairs() -> None:
    # Every ordered pair of two distinct IDs out of four is equally likely.
    counts = Counter(tuple(draw_ids(4, 2, seed=s, distinct=True)) for s in range(6000))
    assert len(counts) == 12
    cells = {pair: i for i, pair in enumerate(sorted(counts))}
    indexed = Counter({cells[p]: c for p, c in counts.items()})
    assert chi_square(indexed, 12, 6000) < wilson_hilferty(11, Z_999)


def test_any_family_without_the_solver() -> None:
    code = (
        "import sys\nfrom solver.cli.app import run\n"
        "try:\n    sys.exit(run(sys.argv[1:]))\nexcept SystemExit:\n    pass\n"
        "print(any(m.split('.')[0] == 'constraint' for m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "random", "-r", "dfrc", "--seed", "1", "-n", "2"],
        capture_output=True, text=True, check=True,
    )
    *lines, imported = done.stdout.splitlines()
    assert imported == "False"
    dfrc = Family.load("dfrc")
    for line, number in zip(lines, documented(1, 921600, 2), strict=True):
        white, black = divmod(number, 960)
        found = dfrc.position(number)
        assert line == f"{number} {found.white} {found.black.lower()}"
        assert dfrc.pair(white, black).id == number


def test_draw_positions() -> None:
    chess960 = Family.load("chess960")
    positions = draw(chess960, 3, seed=12)
    assert [p.id for p in positions] == documented(12, 960, 3)
    assert all(chess960.identify(p.white).id == p.id for p in positions)
