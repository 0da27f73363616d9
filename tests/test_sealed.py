"""Sealed draws: ``plan --commit --sealed``, ``reveal``, ``verify COMMIT --round``.

Golden data, apart from the code under test: each round made again from the
definition in ``docs/how-to/sealed-draws.md`` with :mod:`hashlib` here, and
by the page's by-hand recipe in ``bash`` (``sha256sum``, shell arithmetic,
``seq``/``grep``/``sed``); ranks from the golden KRN table
``tests/data/chess960.txt``; mirrors as the reversed rank.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from inprocess import chess960

from solver.draws import seal
from solver.draws.certificate import read_certificate

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = {int(i): r for i, r in (line.split() for line in
                                 (ROOT / "tests/data/chess960.txt").read_text().splitlines())}
IDS = {rank: number for number, rank in GOLDEN.items()}
SEED = "5f0c2b7e9a41d3866e2f1b0c7d94a3e1"


def by_definition(seed: str, rounds: int, excluded: set[int], count: int = 960,
                  mirrors: bool = False) -> list[int]:
    """The rounds as the how-to page defines them, with hashlib alone."""
    skipped = set(excluded)
    if mirrors:
        skipped |= {IDS[GOLDEN[n][::-1]] for n in excluded}
    drawn = []
    for k in range(1, rounds + 1):
        n = count - len(skipped)
        digest = hashlib.sha256(f"{seed}:{k}".encode()).hexdigest()
        while int(digest[:15], 16) >= (1 << 60) - (1 << 60) % n:
            digest = hashlib.sha256(digest.encode()).hexdigest()
        allowed = [i for i in range(count) if i not in skipped]
        found = allowed[int(digest[:15], 16) % n]
        drawn.append(found)
        skipped.add(found)
        if mirrors:
            skipped.add(IDS[GOLDEN[found][::-1]])
    return drawn


def sealed_plan(folder: Path, *extra: str, rounds: int = 9, seed: str = SEED) -> None:
    result = chess960(["plan", "--rounds", str(rounds), "--seed", seed, "--commit",
                       "commit.json", "--sealed", "sealed.json", *extra], cwd=folder)
    assert result.returncode == 0, result.stderr
    assert "publish commit.json" in result.stdout


def one_error(result: subprocess.CompletedProcess[str], code: int = 1) -> str:
    assert result.returncode == code, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_nine_rounds_revealed_one_at_a_time_verify_against_the_commitment(
        tmp_path: Path) -> None:
    sealed_plan(tmp_path, "--exclude", "chess959")
    commitment = json.loads((tmp_path / "commit.json").read_text())
    assert "seed" not in commitment
    assert commitment["seed_sha256"] == hashlib.sha256(SEED.encode()).hexdigest()
    assert commitment["rules"]["sha256"] == hashlib.sha256(
        (ROOT / "rules/chess960.toml").read_bytes()).hexdigest()
    assert (commitment["rounds"], commitment["exclusions"]["ids"]) == (9, [518])
    assert json.loads((tmp_path / "sealed.json").read_text())["seed"] == SEED
    expected = by_definition(SEED, 9, {518})
    assert len(set(expected)) == 9
    for k, number in enumerate(expected, 1):
        revealed = chess960(["reveal", "sealed.json", "--round", str(k)], cwd=tmp_path)
        assert revealed.returncode == 0, revealed.stderr
        assert revealed.stdout == f"{number} {GOLDEN[number]}\n"
        checked = chess960(["verify", "commit.json", "--round", str(k), "--position",
                            str(number), "--sealed", "sealed.json"], cwd=tmp_path)
        assert checked.returncode == 0, checked.stderr
        assert checked.stdout.startswith(f"commit.json: verified round {k} is {number} ")
        by_rank = chess960(["verify", "commit.json", "--round", str(k), "--position",
                            GOLDEN[number], "--seed", SEED], cwd=tmp_path)
        assert by_rank.returncode == 0, by_rank.stderr


def test_a_changed_seed_round_or_position_is_rejected(tmp_path: Path) -> None:
    sealed_plan(tmp_path)
    first, second = by_definition(SEED, 2, set())
    wrong_seed = one_error(chess960(["verify", "commit.json", "--round", "1", "--position",
                                     str(first), "--seed", SEED + "0"], cwd=tmp_path))
    assert f"the seed {SEED + '0'!r} is not the one committed to" in wrong_seed
    wrong_round = one_error(chess960(["verify", "commit.json", "--round", "2", "--position",
                                      str(first), "--seed", SEED], cwd=tmp_path))
    assert f"round 2 is {second} ({GOLDEN[second]}) by the committed seed, not " \
           f"'{first}'" in wrong_round
    one_error(chess960(["verify", "commit.json", "--round", "10", "--position", "0",
                        "--seed", SEED], cwd=tmp_path))
    data = json.loads((tmp_path / "commit.json").read_text())
    data["seed_sha256"] = hashlib.sha256(b"another").hexdigest()
    (tmp_path / "forged.json").write_text(json.dumps(data))
    one_error(chess960(["verify", "forged.json", "--round", "1", "--position", str(first),
                        "--sealed", "sealed.json"], cwd=tmp_path))


def test_a_changed_rule_file_is_rejected(tmp_path: Path) -> None:
    shutil.copy(ROOT / "rules/chess960.toml", tmp_path / "mine.toml")
    sealed_plan(tmp_path, "--rules", "mine.toml", rounds=3)
    first = by_definition(SEED, 1, set())[0]
    args = ["verify", "commit.json", "--round", "1", "--position", str(first), "--seed", SEED]
    assert chess960(args, cwd=tmp_path).returncode == 0
    with (tmp_path / "mine.toml").open("a") as handle:
        handle.write("# edited after the commitment\n")
    line = one_error(chess960(args, cwd=tmp_path))
    assert "is not the one committed to: its SHA-256 is" in line
    assert one_error(chess960(["reveal", "sealed.json", "--round", "1"], cwd=tmp_path))


def test_the_by_hand_recipe_in_bash_reproduces_every_round(tmp_path: Path) -> None:
    if shutil.which("bash") is None or shutil.which("sha256sum") is None:
        pytest.skip("needs bash and sha256sum")
    script = r"""
seed=$1; skipped="-e 518"
for k in 1 2 3 4 5 6 7 8 9; do
  h=$(printf '%s' "$seed:$k" | sha256sum | cut -c1-64)
  n=$(seq 0 959 | grep -vx $skipped | wc -l)
  while [ $(( 16#${h:0:15} < (1<<60) - (1<<60) % n )) = 0 ]; do
    h=$(printf '%s' "$h" | sha256sum | cut -c1-64)
  done
  id=$(seq 0 959 | grep -vx $skipped | sed -n "$(( 16#${h:0:15} % n + 1 ))p")
  echo "$id"; skipped="$skipped -e $id"
done
"""
    by_hand = subprocess.run(["bash", "-c", script, "recipe", SEED], capture_output=True,
                             text=True, check=True, timeout=60).stdout.split()
    sealed_plan(tmp_path, "--exclude", "chess959")
    revealed = [chess960(["reveal", "sealed.json", "--round", str(k)],
                         cwd=tmp_path).stdout.split()[0] for k in range(1, 10)]
    assert by_hand == revealed == [str(n) for n in by_definition(SEED, 9, {518})]


def test_the_rejection_step_accepts_a_multiple_of_n_values_each_remainder_equally() -> None:
    # at full size: the accepted values are exactly floor(2**60 / n) * n
    for n in (1, 2, 959, 960, 921_600, 2**60):
        assert seal.limit(n) == (2**60 // n) * n
    assert seal.accept(2**60 - 1, 960) is None and seal.accept(seal.limit(960) - 1, 960) == 959
    # scaled down to 8 bits, every n counted: each k has the same number of values
    for n in range(1, 257):
        found = [seal.accept(v, n, bits=8) for v in range(256)]
        accepted = [k for k in found if k is not None]
        assert len(accepted) == (256 // n) * n
        assert all(accepted.count(k) == 256 // n for k in range(n))


@given(st.integers(min_value=1, max_value=2**60), st.integers(min_value=0, max_value=2**60 - 1))
def test_an_accepted_value_is_below_the_limit_a_multiple_of_n(n: int, value: int) -> None:
    bound = seal.limit(n)
    assert bound % n == 0 and 0 <= 2**60 - bound < n
    k = seal.accept(value, n)
    assert (k is not None) == (value < bound)
    assert k is None or k == value % n


def test_round_k_is_the_same_whatever_the_number_of_rounds() -> None:
    # round K depends on rounds 1..K alone: a longer plan only adds rounds
    _, short = seal.seal("chess960", 3, SEED)
    family, long = seal.seal("chess960", 9, SEED)
    assert [seal.position(family, short, k).id for k in (1, 2, 3)] == \
           [seal.position(family, long, k).id for k in (1, 2, 3)]


def test_mirrors_are_left_out(tmp_path: Path) -> None:
    sealed_plan(tmp_path, "--exclude-mirrors", "--exclude", "chess959")
    ids = [int(chess960(["reveal", "sealed.json", "--round", str(k)], cwd=tmp_path)
               .stdout.split()[0]) for k in range(1, 10)]
    assert ids == by_definition(SEED, 9, {518}, mirrors=True)
    assert not {IDS[GOLDEN[n][::-1]] for n in ids} & set(ids) - {n for n in ids
                                                                if GOLDEN[n] == GOLDEN[n][::-1]}


def test_numbering_shows_ids_in_it(tmp_path: Path) -> None:
    sealed_plan(tmp_path, "--numbering", "scidb", rounds=2)
    assert json.loads((tmp_path / "commit.json").read_text())["shown_in"] == "scidb"
    first = by_definition(SEED, 1, set())[0]
    converted = chess960(["convert", str(first), "--to", "scidb"]).stdout.strip()
    revealed = chess960(["reveal", "sealed.json", "--round", "1"], cwd=tmp_path)
    assert revealed.stdout == f"{converted} {GOLDEN[first]}\n"
    assert chess960(["verify", "commit.json", "--round", "1", "--position", converted,
                     "--seed", SEED], cwd=tmp_path).returncode == 0


def test_files_are_never_written_over_and_options_are_checked(tmp_path: Path) -> None:
    (tmp_path / "sealed.json").write_text("kept")
    line = one_error(chess960(["plan", "--rounds", "3", "--commit", "commit.json",
                               "--sealed", "sealed.json"], cwd=tmp_path))
    assert "'sealed.json'" in line and "never writes over a file" in line
    assert (tmp_path / "sealed.json").read_text() == "kept"
    assert not (tmp_path / "commit.json").exists()
    for extra in (["--commit", "c.json"], ["--sealed", "s.json"],
                  ["--commit", "c.json", "--sealed", "c.json"],
                  ["--commit", "c.json", "--sealed", "s.json", "--html", "p.html"],
                  ["--date", "2027-02-30"], ["--event", " "]):
        one_error(chess960(["plan", "--rounds", "3", *extra], cwd=tmp_path), 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sealed.json"]
    one_error(chess960(["plan", "--rounds", "961", "--commit", "c.json", "--sealed",
                        "s.json"], cwd=tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sealed.json"]


def test_verify_and_reveal_refuse_what_they_cannot_check(tmp_path: Path) -> None:
    sealed_plan(tmp_path, rounds=2)
    assert "the seed (--seed S or --sealed SEALED.json)" in one_error(
        chess960(["verify", "commit.json", "--round", "1", "--position", "5"], cwd=tmp_path), 2)
    one_error(chess960(["verify", "commit.json", "--seed", SEED], cwd=tmp_path), 2)
    assert "holds no seed" in one_error(chess960(["reveal", "commit.json", "--round", "1"],
                                                 cwd=tmp_path))
    made = chess960(["plan", "--rounds", "2", "--seed", "x", "--certificate", "cert.json"],
                    cwd=tmp_path)
    assert made.returncode == 0
    one_error(chess960(["verify", "cert.json", "--round", "1"], cwd=tmp_path), 2)
    assert chess960(["verify", "cert.json"], cwd=tmp_path).returncode == 0


def test_event_and_date_on_the_table_page_and_certificate(tmp_path: Path) -> None:
    args = ["plan", "--rounds", "2", "--seed", "x", "--event", "Spring Open 2027", "--date",
            "2027-04-01"]
    table = chess960(args, cwd=tmp_path)
    assert table.stdout.startswith("Spring Open 2027, 2027-04-01\n\n| round |")
    chess960([*args, "--html", "plan.html", "--certificate", "cert.json"], cwd=tmp_path)
    page = (tmp_path / "plan.html").read_text()
    assert "Spring Open 2027" in page and "2027-04-01" in page
    certificate = read_certificate((tmp_path / "cert.json").read_text())
    assert (certificate.event, certificate.date) == ("Spring Open 2027", "2027-04-01")
    assert chess960(["verify", "cert.json"], cwd=tmp_path).returncode == 0
    sealed_plan(tmp_path, "--event", "Spring Open 2027", "--date", "2027-04-01", rounds=2)
    data = json.loads((tmp_path / "commit.json").read_text())
    assert (data["event"], data["date"]) == ("Spring Open 2027", "2027-04-01")
