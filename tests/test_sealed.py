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


def _chess960_rules() -> Path:
    """The source tree's rules/chess960.toml (skipped where the tests run beside
    an installed package, with no rules/ folder)."""
    path = ROOT / "rules" / "chess960.toml"
    if not path.exists():
        pytest.skip("no rules/ folder here (an installed package)")
    return path
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
        (_chess960_rules()).read_bytes()).hexdigest()
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
    shutil.copy(_chess960_rules(), tmp_path / "mine.toml")
    sealed_plan(tmp_path, "--rules", "mine.toml", rounds=3)
    first = by_definition(SEED, 1, set())[0]
    args = ["verify", "commit.json", "--round", "1", "--position", str(first), "--seed", SEED]
    assert chess960(args, cwd=tmp_path).returncode == 0
    with (tmp_path / "mine.toml").open("a") as handle:
        handle.write("# edited after the commitment\n")
    line = one_error(chess960(args, cwd=tmp_path))
    assert "has changed since the draw: its SHA-256 is" in line
    assert one_error(chess960(["reveal", "sealed.json", "--round", "1"], cwd=tmp_path))


def test_the_by_hand_recipe_in_bash_reproduces_every_round(tmp_path: Path) -> None:
    if shutil.which("bash") is None or shutil.which("sha256sum") is None:
        pytest.skip("needs bash and sha256sum")
    # as a player does it round by round: the published sub-seed's hash is the
    # committed one, and the round follows from the sub-seed and the earlier rounds
    script = r"""
seed=$1; shift; skipped="-e 518"
for k in 1 2 3 4 5 6 7 8 9; do
  h=$(printf '%s' "$seed:$k" | sha256sum | cut -c1-64)
  [ "$(printf '%s' "$h" | sha256sum | cut -c1-64)" = "$1" ] || echo "round $k: not committed"
  shift
  n=$(seq 0 959 | grep -vx $skipped | wc -l)
  while [ $(( 16#${h:0:15} < (1<<60) - (1<<60) % n )) = 0 ]; do
    h=$(printf '%s' "$h" | sha256sum | cut -c1-64)
  done
  id=$(seq 0 959 | grep -vx $skipped | sed -n "$(( 16#${h:0:15} % n + 1 ))p")
  echo "$id"; skipped="$skipped -e $id"
done
"""
    sealed_plan(tmp_path, "--exclude", "chess959")
    committed = json.loads((tmp_path / "commit.json").read_text())["sub_seed_sha256"]
    by_hand = subprocess.run(["bash", "-c", script, "recipe", SEED, *committed],
                             capture_output=True, text=True, check=True, timeout=60).stdout
    revealed = [chess960(["reveal", "sealed.json", "--round", str(k)],
                         cwd=tmp_path).stdout.split()[0] for k in range(1, 10)]
    assert by_hand.split() == revealed == [str(n) for n in by_definition(SEED, 9, {518})]
    # and a sub-seed that is not the committed one is seen to be so
    forged = subprocess.run(["bash", "-c", script, "recipe", SEED + "x", *committed],
                            capture_output=True, text=True, check=True, timeout=60).stdout
    assert "round 1: not committed" in forged


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


def sub_seed_of(seed: str, k: int) -> str:
    """Round ``k``'s sub-seed as the how-to page defines it, with hashlib alone."""
    return hashlib.sha256(f"{seed}:{k}".encode()).hexdigest()


def test_each_round_is_verified_as_it_is_played_with_its_sub_seed_alone(
        tmp_path: Path) -> None:
    sealed_plan(tmp_path, "--exclude", "chess959")
    commitment = json.loads((tmp_path / "commit.json").read_text())
    assert commitment["format"] == "chess960-commitment/2"
    assert commitment["sub_seed_sha256"] == [
        hashlib.sha256(sub_seed_of(SEED, k).encode()).hexdigest() for k in range(1, 10)]
    expected = by_definition(SEED, 9, {518})
    played: list[str] = []
    for k, number in enumerate(expected, 1):
        revealed = chess960(["reveal", "sealed.json", "--round", str(k)], cwd=tmp_path)
        assert revealed.stdout == f"{number} {GOLDEN[number]}\n"
        assert revealed.stderr == (f"round {k}'s sub-seed, to publish with its position: "
                                   f"{sub_seed_of(SEED, k)}\n")
        sub = revealed.stderr.split()[-1]
        earlier = ["--earlier", ",".join(played)] if played else []
        checked = chess960(["verify", "commit.json", "--round", str(k), "--position",
                            str(number), "--sub-seed", sub, *earlier], cwd=tmp_path)
        assert checked.returncode == 0, checked.stderr
        assert checked.stdout.startswith(f"commit.json: verified round {k} is {number} "
                                         f"{GOLDEN[number]}, drawn from its committed sub-seed")
        # with every sub-seed so far, the earlier rounds are drawn from theirs
        subs = [word for j in range(1, k + 1) for word in ("--sub-seed", sub_seed_of(SEED, j))]
        alone = chess960(["verify", "commit.json", "--round", str(k), "--position", str(number),
                          *subs], cwd=tmp_path)
        assert alone.returncode == 0, alone.stderr
        assert k == 1 or f"after {', '.join(played)} (drawn from their sub-seeds)" in alone.stdout
        played.append(str(number))
    # the earlier rounds by rank, and from a file of reveal's lines, do as well
    (tmp_path / "played.txt").write_text("".join(f"{n} {GOLDEN[n]}\n" for n in expected[:8]))
    for earlier in ("@played.txt", ",".join(GOLDEN[n] for n in expected[:8])):
        assert chess960(["verify", "commit.json", "--round", "9", "--position",
                         GOLDEN[expected[8]], "--sub-seed", sub_seed_of(SEED, 9), "--earlier",
                         earlier], cwd=tmp_path).returncode == 0


def test_a_wrong_sub_seed_position_or_earlier_round_is_rejected(tmp_path: Path) -> None:
    sealed_plan(tmp_path, "--exclude", "chess959")
    first, second, third = by_definition(SEED, 3, {518})

    def verify(position: int | str, sub: str, earlier: str) -> str:
        return one_error(chess960(["verify", "commit.json", "--round", "3", "--position",
                                   str(position), "--sub-seed", sub, "--earlier", earlier],
                                  cwd=tmp_path))

    right, played = sub_seed_of(SEED, 3), f"{first},{second}"
    wrong = hashlib.sha256(b"not the seed:3").hexdigest()
    assert f"the sub-seed {wrong!r} is not round 3's committed one: its SHA-256 is " in \
           verify(third, wrong, played)
    assert "it is round 2's" in verify(third, sub_seed_of(SEED, 2), played)
    assert "it is round 4's" in verify(third, sub_seed_of(SEED, 4), played)
    assert "not 64 hex digits" in verify(third, right[:-1], played)
    other = next(n for n in range(960) if n not in (518, first, second, third))
    assert f"round 3 is {third} ({GOLDEN[third]}) by its sub-seed after {first}, {second}, " \
           f"not '{other}'" in verify(other, right, played)
    # a wrong earlier round on the other side of round 3's position moves it by one
    others = [n for n in range(960) if n not in (518, first, second, third)]
    moved = next(n for n in others if (n < third) != (second < third))
    skipped = {518, first, moved}
    digest = sub_seed_of(SEED, 3)
    assert int(digest[:15], 16) < (1 << 60) - (1 << 60) % 957
    drawn = [n for n in range(960) if n not in skipped][int(digest[:15], 16) % 957]
    assert drawn != third
    assert f"round 3 is {drawn} ({GOLDEN[drawn]}) by its sub-seed after {first}, {moved}, " \
           f"not '{third}'" in verify(third, right, f"{first},{moved}")
    assert "round 2's position 518 cannot have been drawn" in verify(third, right,
                                                                    f"{first},518")
    assert "round 3 comes after 2 rounds" in verify(third, right, f"{first},{first}")
    assert "round 3 comes after 2 rounds" in verify(third, right, str(first))
    # with every round's sub-seed, any wrong earlier round is seen, in order
    subs = [word for k in (1, 2, 3) for word in ("--sub-seed", sub_seed_of(SEED, k))]
    assert f"round 2 is {second} ({GOLDEN[second]}) by its sub-seed, not '{moved}'" in one_error(
        chess960(["verify", "commit.json", "--round", "3", "--position", str(third), *subs,
                  "--earlier", f"{first},{moved}"], cwd=tmp_path))
    assert f"round 1 is {first} " in one_error(chess960(
        ["verify", "commit.json", "--round", "3", "--position", str(third), *subs,
         "--earlier", f"{second},{first}"], cwd=tmp_path))
    assert "not 2 sub-seeds" in one_error(chess960(
        ["verify", "commit.json", "--round", "3", "--position", str(third), *subs[2:]],
        cwd=tmp_path))
    # the sub-seed path needs the earlier rounds, and is not mixed with the seed
    one_error(chess960(["verify", "commit.json", "--round", "3", "--position", str(third),
                        "--sub-seed", right], cwd=tmp_path), 2)
    one_error(chess960(["verify", "commit.json", "--round", "3", "--position", str(third),
                        "--sub-seed", right, "--earlier", played, "--seed", SEED],
                       cwd=tmp_path), 2)
    one_error(chess960(["verify", "commit.json", "--round", "3", "--position", str(third),
                        "--earlier", played, "--seed", SEED], cwd=tmp_path), 2)


def test_the_seed_checks_every_committed_sub_seed_hash(tmp_path: Path) -> None:
    sealed_plan(tmp_path, rounds=4)
    first = by_definition(SEED, 1, set())[0]
    data = json.loads((tmp_path / "commit.json").read_text())
    data["sub_seed_sha256"][3] = hashlib.sha256(b"a sub-seed chosen later").hexdigest()
    (tmp_path / "forged.json").write_text(json.dumps(data))
    line = one_error(chess960(["verify", "forged.json", "--round", "1", "--position",
                               str(first), "--seed", SEED], cwd=tmp_path))
    assert "round 4's committed sub-seed hash" in line
    verified = chess960(["verify", "commit.json", "--round", "1", "--position", str(first),
                         "--seed", SEED], cwd=tmp_path)
    assert "its 4 sub-seed hashes are the seed's" in verified.stdout


def test_version_1_files_are_still_read(tmp_path: Path) -> None:
    sealed_plan(tmp_path, rounds=2)
    first = by_definition(SEED, 1, set())[0]
    for name, kind in (("commit.json", "commitment"), ("sealed.json", "sealed")):
        data = json.loads((tmp_path / name).read_text())
        data["format"] = f"chess960-{kind}/1"
        del data["sub_seed_sha256"]
        (tmp_path / f"v1-{name}").write_text(json.dumps(data))
    assert chess960(["reveal", "v1-sealed.json", "--round", "1"],
                    cwd=tmp_path).stdout.split()[0] == str(first)
    checked = chess960(["verify", "v1-commit.json", "--round", "1", "--position", str(first),
                        "--sealed", "v1-sealed.json"], cwd=tmp_path)
    assert checked.returncode == 0 and "sub-seed hashes" not in checked.stdout
    assert "records no sub-seed hashes" in one_error(chess960(
        ["verify", "v1-commit.json", "--round", "1", "--position", str(first), "--sub-seed",
         sub_seed_of(SEED, 1)], cwd=tmp_path))
