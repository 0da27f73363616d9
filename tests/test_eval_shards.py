"""``eval --shard K/N``, ``eval merge`` and stored (SQLite) tables.

The fast tests use tables written here by hand (no engine); the slow ones run
Debian's stockfish (skipped with a message where absent) and a table of all
921,600 DFRC positions. Golden data: slices from the definition (every N-th,
as ``book --workers`` slices, written out here), unions and gaps by brute force.
"""

from __future__ import annotations

import csv
import shutil
import sqlite3
import time
from itertools import islice, pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.evaluation import store
from solver.evaluation.run import _Gaps, shard
from solver.evaluation.store import StoreWriter, read_store
from solver.evaluation.table import Evaluation
from solver.family import Family
from solver.sampling import IdRanges
from tests.inprocess import chess960

HEADER = "id,fen,engine,limit,depth,nodes,time,eval,mate,wins,draws,losses\n"


def table(path: Path, rows: dict[int, float], engine: str = "Fish 1",
          limit: str = "nodes 9") -> Path:
    """A hand-made CSV table (FENs left empty, which the format allows)."""
    path.write_text(HEADER + "".join(f"{n},,{engine},{limit},5,9,,{v},,,,\n"
                                     for n, v in rows.items()))
    return path


def values(path: Path) -> dict[int, dict[str, str]]:
    """A CSV table's rows by ID, every column but the time a search took."""
    with path.open(newline="") as handle:
        return {int(r["id"]): {k: v for k, v in r.items() if k != "time"}
                for r in csv.DictReader(handle)}


def drawn_ids(text: str) -> set[int]:
    """The IDs of ``random --format csv``'s rows."""
    return {int(row["id"]) for row in csv.DictReader(text.splitlines())}


# -- shards ----------------------------------------------------------------------------


@settings(max_examples=40)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 20)), min_size=1, max_size=4),
       st.integers(1, 7), st.data())
def test_shards_are_every_nth_and_together_the_ids(spans: list[tuple[int, int]], parts: int,
                                                   data: st.DataObject) -> None:
    ids = IdRanges([range(a, a + n) for a, n in spans])
    listed = list(ids)
    slices = [list(shard(ids, k, parts)) for k in range(1, parts + 1)]
    # the definition, as `book --workers N --worker K` states it: every N-th from the K-th
    assert slices == [listed[k - 1::parts] for k in range(1, parts + 1)]
    assert sorted(n for s in slices for n in s) == sorted(listed)
    k = data.draw(st.integers(1, parts))
    one = shard(ids, k, parts)
    assert len(one) == len(slices[k - 1])
    assert [one[i] for i in range(len(one))] == slices[k - 1]
    assert list(shard(range(len(listed)), k, parts)) == list(islice(range(len(listed)), k - 1,
                                                                    None, parts))


@settings(max_examples=10, deadline=None)
@given(done=st.sets(st.integers(0, 299)), block=st.sampled_from([1, 4, 64]))
def test_stored_gaps_are_the_ids_not_there(done: set[int], block: int,
                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("gaps") / "t.sqlite"
    original = store.GAP_BLOCK
    store.GAP_BLOCK = block  # small blocks: the halving is what is checked
    try:
        with StoreWriter(str(path), Family.load("chess960")) as writer:
            for number in done:
                writer.add(Evaluation(number, pawns=0.0))
            gaps = writer.gaps(300)
    finally:
        store.GAP_BLOCK = original
    assert [n for g in gaps for n in g] == [n for n in range(300) if n not in done]
    assert all(a.stop < b.start for a, b in pairwise(gaps))
    found = _Gaps(gaps)
    asked = IdRanges([range(250, 300), range(0, 40)])
    assert list(found.missing(asked)) == [n for n in asked if n not in done]
    assert found.among(asked) == sum(1 for n in asked if n in done)
    assert list(found.missing(shard(range(300), 2, 3))) == [
        n for n in range(1, 300, 3) if n not in done]


def test_a_shard_outside_its_count_is_one_error(tmp_path: Path) -> None:
    for text, words in (("4/3", "shard '4/3' is not one of 1/3 to 3/3"),
                        ("x", "shard 'x' is not K/N"), ("0/2", "is not one of 1/2 to 2/2")):
        got = chess960(["eval", "--engine", "stockfish", "--nodes", "9", "--shard", text,
                        "-o", "t.csv"], cwd=tmp_path)
        assert got.returncode == 1 and got.stderr.count("\n") == 1, got.stderr
        assert got.stderr.startswith("error: ") and words in got.stderr
    got = chess960(["eval", "80", "--shard", "1/2"], cwd=tmp_path)
    assert got.returncode == 2 and "--shard" in got.stderr


# -- merge -----------------------------------------------------------------------------


def test_merge_joins_tables_in_id_order(tmp_path: Path) -> None:
    a = table(tmp_path / "a.csv", {5: 0.5, 1: 0.1, 9: -0.9})
    b = table(tmp_path / "b.csv", {2: 0.2, 5: 0.5, 700: 1.25})  # 5 again, the same eval
    got = chess960(["eval", "merge", "a.csv", "b.csv", "-o", "m.csv"], cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    assert got.stdout == ""
    assert got.stderr == ("eval merge: m.csv: 5 chess960 positions from 2 tables "
                          "(Fish 1, nodes 9)\n")
    expected = HEADER + "".join(f"{n},,Fish 1,nodes 9,5,9,,{v},,,,\n" for n, v in
                                sorted({**{1: 0.1, 5: 0.5, 9: -0.9}, 2: 0.2, 700: 1.25}.items()))
    assert (tmp_path / "m.csv").read_text() == expected
    assert a.exists() and b.exists()


def test_merge_through_a_stored_table_round_trips(tmp_path: Path) -> None:
    table(tmp_path / "a.csv", {n: round(n / 100 - 4, 2) for n in range(0, 960, 2)})
    table(tmp_path / "b.csv", {n: round(n / 100 - 4, 2) for n in range(1, 960, 2)})
    assert chess960(["eval", "merge", "a.csv", "b.csv", "-o", "m.csv"],
                    cwd=tmp_path).returncode == 0
    assert chess960(["eval", "merge", "a.csv", "b.csv", "-o", "m.sqlite"],
                    cwd=tmp_path).returncode == 0
    assert (tmp_path / "m.sqlite").read_bytes().startswith(b"SQLite format 3\x00")
    back = chess960(["eval", "merge", "m.sqlite", "-o", "back.csv"], cwd=tmp_path)
    assert back.returncode == 0, back.stderr
    assert (tmp_path / "back.csv").read_text() == (tmp_path / "m.csv").read_text()
    stored = read_store(str(tmp_path / "m.sqlite"))
    assert len(stored.rows) == 960 and stored.rows[81].pawns == -3.19 and 960 not in stored.rows
    assert stored.setup["engine"] == "Fish 1" and stored.setup["limit"] == "nodes 9"
    csv_shown = chess960(["eval", "81", "--eval-table", "m.csv"], cwd=tmp_path)
    stored_shown = chess960(["eval", "81", "--eval-table", "m.sqlite"], cwd=tmp_path)
    assert csv_shown.returncode == stored_shown.returncode == 0
    assert stored_shown.stdout == csv_shown.stdout.replace("m.csv", "m.sqlite")
    assert "-3.19" in stored_shown.stdout


@pytest.mark.parametrize(("second", "words"), [
    ({3: 0.3, 4: 0.5}, "id 4 has eval 0.5, but eval 0.4 in 'a.csv'"),
    ({4: "", 7: 0.1}, None),  # no eval and no mate: the table is refused as it is read
])
def test_a_conflict_is_one_line_naming_the_id_and_both_values(
        tmp_path: Path, second: dict[int, float], words: str | None) -> None:
    table(tmp_path / "a.csv", {4: 0.4, 5: 0.0})
    table(tmp_path / "b.csv", second)  # type: ignore[arg-type]
    got = chess960(["eval", "merge", "a.csv", "b.csv", "-o", "m.csv"], cwd=tmp_path)
    assert got.returncode == 1 and got.stdout == ""
    assert got.stderr.count("\n") == 1 and got.stderr.startswith("error: evaluation table "
                                                                 "'b.csv'")
    if words is not None:
        assert words in got.stderr
    assert not (tmp_path / "m.csv").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(("engine", "limit", "words"), [
    ("Fish 2", "nodes 9", "engine 'Fish 2' differs from 'Fish 1' in 'a.csv'"),
    ("Fish 1", "depth 20", "limit 'depth 20' differs from 'nodes 9' in 'a.csv'"),
])
def test_tables_of_two_set_ups_are_not_merged(tmp_path: Path, engine: str, limit: str,
                                              words: str) -> None:
    table(tmp_path / "a.csv", {4: 0.4})
    table(tmp_path / "b.csv", {5: 0.4}, engine, limit)
    got = chess960(["eval", "merge", "a.csv", "b.csv", "-o", "m.sqlite"], cwd=tmp_path)
    assert got.returncode == 1 and got.stderr.count("\n") == 1, got.stderr
    assert words in got.stderr
    assert not (tmp_path / "m.sqlite").exists()


def test_merge_checks_the_family(tmp_path: Path) -> None:
    chess = pytest.importorskip("chess", reason="python-chess is the oracle (GPL, test-only): "
                                                "pip install -e '.[oracle]'")
    fen = chess.Board.from_chess960_pos(3).fen()
    (tmp_path / "a.csv").write_text(HEADER + f"3,{fen},E,nodes 9,,,,0.1,,,,\n")
    assert chess960(["eval", "merge", "a.csv", "-o", "m.sqlite"], cwd=tmp_path).returncode == 0
    got = chess960(["eval", "merge", "a.csv", "-r", "dfrc", "-o", "d.csv"], cwd=tmp_path)
    assert got.returncode == 1 and "another family's" in got.stderr
    got = chess960(["eval", "3", "-r", "dfrc", "--eval-table", "m.sqlite"], cwd=tmp_path)
    assert got.returncode == 1 and got.stderr.count("\n") == 1
    assert "is a table of chess960 (960 positions), not of one of 921,600" in got.stderr


def test_merge_help_and_usage(tmp_path: Path) -> None:
    shown = chess960(["eval", "merge", "--help"], cwd=tmp_path)
    # Click 8.1 writes the variadic argument "TABLE", later Clicks "{TABLE}..."
    first = shown.stdout.splitlines()[0] if shown.stdout else ""
    assert shown.returncode == 0 and first.startswith("Usage: chess960 eval merge [OPTIONS] ")
    assert "TABLE" in first
    assert "chess960 eval merge part1.csv part2.csv part3.csv -o sf.csv" in shown.stdout
    for argv in (["eval", "merge", "a.csv"], ["eval", "merge", "-o", "m.csv"],
                 ["eval", "merge", "a.csv", "-o", "m.csv", "--jobs", "2"]):
        got = chess960(argv, cwd=tmp_path)
        assert got.returncode == 2 and got.stderr.count("\n") == 1, (argv, got.stderr)
    assert "--shard K/N" in chess960(["eval", "--help"], cwd=tmp_path).stdout


def test_a_stored_table_that_is_not_a_table_is_one_error(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "x.sqlite")
    db.execute("CREATE TABLE other (a)")
    db.commit()
    db.close()
    got = chess960(["eval", "3", "--eval-table", "x.sqlite"], cwd=tmp_path)
    assert got.returncode == 1 and got.stderr.count("\n") == 1
    assert "is a SQLite file but not an evaluation table" in got.stderr


KILLED = """
import os, sys
from solver.family import Family
from solver.evaluation.table import Evaluation
from solver.evaluation.store import StoreWriter
writer = StoreWriter(sys.argv[1], Family.load("chess960"), {"engine": "E", "limit": "nodes 9"})
writer._db.execute("PRAGMA cache_size = 1")  # the last transaction reaches the file
for number in range(900):
    writer.add(Evaluation(number, "x" * 500, "E", "nodes 9", pawns=0.5))
    if number == 299:
        writer.commit()
os._exit(9)  # as a SIGKILL: no commit, no close
"""


def test_a_stored_table_killed_mid_write_keeps_whole_rows(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "t.sqlite"
    done = subprocess.run([sys.executable, "-c", KILLED, str(path)], check=False)
    assert done.returncode == 9
    assert (tmp_path / "t.sqlite-journal").exists()  # the transaction cut short
    stored = read_store(str(path))
    count = len(stored.rows)
    assert 300 <= count < 900  # what was committed, at least every second
    assert list(stored.rows) == list(range(count))
    assert all(stored.rows[n].fen == "x" * 500 and stored.rows[n].pawns == 0.5
               for n in (0, count - 1))
    with StoreWriter(str(path), Family.load("chess960")) as writer:
        assert writer.gaps(960) == [range(count, 960)]


def test_a_stored_row_edited_by_hand_is_one_error(tmp_path: Path) -> None:
    table(tmp_path / "a.csv", {3: 0.1, 4: 0.2})
    assert chess960(["eval", "merge", "a.csv", "-o", "a.sqlite"], cwd=tmp_path).returncode == 0
    db = sqlite3.connect(tmp_path / "a.sqlite")
    db.execute("UPDATE rows SET eval = 'x' WHERE id = 3")
    db.commit()
    db.close()
    assert "+0.20" in chess960(["eval", "4", "--eval-table", "a.sqlite"], cwd=tmp_path).stdout
    for argv in (["eval", "3", "--eval-table", "a.sqlite"],
                 ["eval", "merge", "a.sqlite", "-o", "b.csv"]):
        got = chess960(argv, cwd=tmp_path)
        assert got.returncode == 1 and got.stderr == (
            "error: evaluation table 'a.sqlite': the row of id 3 is not a table row "
            "(eval 'x')\n")


# -- one source -------------------------------------------------------------------------


def test_tables_of_one_set_up_are_one_source_for_balanced(tmp_path: Path) -> None:
    # in the band: evens in a.csv, odds in b.csv; as two sources no ID is in both
    inside = {0, 2, 4, 1, 3}
    table(tmp_path / "a.csv", {n: (0.1 if n in inside else 2.0) for n in range(0, 960, 2)})
    table(tmp_path / "b.csv", {n: (0.1 if n in inside else 2.0) for n in range(1, 960, 2)})
    got = chess960(["random", "-n", "40", "--seed", "s", "--balanced", "0.3", "--eval-table",
                    "a.csv", "--eval-table", "b.csv", "--format", "csv"], cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    drawn = drawn_ids(got.stdout)
    assert drawn == inside  # 40 draws from 5: every one comes (probability 1 - 1e-3)
    assert "a+b's eval within ±0.30 pawns, 5 of 960" in got.stderr
    # two set-ups stay two sources: the band must hold in both (a.csv's evens only)
    table(tmp_path / "c.csv", {n: 0.0 for n in range(960)}, engine="Fish 2")
    got = chess960(["random", "-n", "20", "--balanced", "0.3", "--eval-table", "a.csv",
                    "--eval-table", "c.csv", "--format", "csv"], cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    assert drawn_ids(got.stdout) <= {0, 2, 4} and "every source's eval" in got.stderr
    assert "3 of 960" in got.stderr


def test_a_conflict_between_sources_is_refused_where_used(tmp_path: Path) -> None:
    table(tmp_path / "a.csv", {80: 0.4})
    table(tmp_path / "b.csv", {80: 0.5})
    got = chess960(["eval", "80", "--eval-table", "a.csv", "--eval-table", "b.csv"],
                   cwd=tmp_path)
    assert got.returncode == 1 and got.stderr.count("\n") == 1
    assert "id 80 has eval 0.5, but eval 0.4 in 'a.csv'" in got.stderr


# -- with an engine (slow) -------------------------------------------------------------


def stockfish_or_skip() -> str:
    found = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if found is None:
        pytest.skip("stockfish is not installed (Debian package stockfish; .ci/run installs "
                    "it)")
    return found


@pytest.mark.slow
def test_three_shards_merged_equal_one_run(tmp_path: Path) -> None:
    engine = stockfish_or_skip()
    limit = ["--engine", engine, "--nodes", "3000", "--ids", "100-129,500-509"]
    outs = ["s1.csv", "s2.sqlite", "s3.csv"]
    for k, out in enumerate(outs, 1):
        got = chess960(["eval", *limit, "--shard", f"{k}/3", "-o", out], cwd=tmp_path)
        assert got.returncode == 0, got.stderr
        assert f"(shard {k}/3)" in got.stderr
    again = chess960(["eval", *limit, "--shard", "2/3", "-o", "s2.sqlite"], cwd=tmp_path)
    assert "13 chess960 positions (shard 2/3), 13 already there, 0 evaluated" in again.stderr
    other = chess960(["eval", *limit, "--shard", "1/3", "-o", "s2.sqlite"], cwd=tmp_path)
    assert other.returncode == 1 and "was made with shard '2/3', not '1/3'" in other.stderr
    merged = chess960(["eval", "merge", *outs, "-o", "m.csv"], cwd=tmp_path)
    assert merged.returncode == 0, merged.stderr
    whole = chess960(["eval", *limit, "--jobs", "2", "-o", "all.csv"], cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    assert list(values(tmp_path / "m.csv")) == [*range(100, 130), *range(500, 510)]
    assert values(tmp_path / "m.csv") == values(tmp_path / "all.csv")
    # the shards given together are one source: --balanced draws from their union
    band = "--balanced", "-1..1"
    inside = {n for n, row in values(tmp_path / "all.csv").items()
              if row["eval"] and -1 <= float(row["eval"]) <= 1}
    got = chess960(["random", "-n", "200", "--seed", "u", *band, "--format", "csv",
                    *(x for out in outs for x in ("--eval-table", out))], cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    drawn = drawn_ids(got.stdout)
    assert drawn <= inside and len(drawn) > len(inside) // 2
    assert {n % 3 for n in drawn} == {0, 1, 2}  # (a shard each: slices of 100-129,500-509)
    # a table edited to disagree is refused, in one line
    bad = (tmp_path / "s1.csv").read_text().splitlines()
    fields = bad[1].split(",")
    fields[7] = str(float(fields[7]) + 1)
    (tmp_path / "bad.csv").write_text("\n".join([bad[0], ",".join(fields), *bad[2:]]) + "\n")
    got = chess960(["eval", "merge", "bad.csv", "m.csv", "-o", "x.csv"], cwd=tmp_path)
    assert got.returncode == 1 and got.stderr.count("\n") == 1
    assert f"id {fields[0]} has eval" in got.stderr


@pytest.mark.slow
def test_a_dfrc_sized_stored_table_is_looked_up_and_resumed_quickly(tmp_path: Path) -> None:
    dfrc = Family.load("dfrc")
    path = tmp_path / "big.sqlite"
    left = 123_456
    with StoreWriter(str(path), dfrc, {"engine": "Fish 1", "limit": "nodes 9"}) as writer:
        writer.add_many(Evaluation(number, "", "Fish 1", "nodes 9", pawns=number % 7 / 10)
                        for number in range(dfrc.count) if number != left)
    assert len(read_store(str(path)).rows) == 921_599
    start = time.perf_counter()
    got = chess960(["eval", "654321", "-r", "dfrc", "--eval-table", "big.sqlite"], cwd=tmp_path)
    spent = time.perf_counter() - start
    assert got.returncode == 0, got.stderr
    assert f"{654321 % 7 / 10:+.2f}" in got.stdout and "921,599 positions" in got.stdout
    assert spent < 2  # (0.02 s measured; generous for a loaded machine)
    start = time.perf_counter()
    with StoreWriter(str(path), dfrc, {"engine": "Fish 1", "limit": "nodes 9"}) as writer:
        gaps = writer.gaps(dfrc.count)
    assert gaps == [range(left, left + 1)]
    assert time.perf_counter() - start < 5  # (0.2 s measured)
