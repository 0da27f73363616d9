"""``chess960 eval --engine ... --scheduler``: tables made on a Dask
``distributed`` cluster (the extra ``cluster``) with Debian's stockfish.

The default run checks the options and the shards; the slow tests start
LocalClusters and engines (skipped with a message without ``distributed`` or
stockfish): the same table as ``--jobs 2``, a worker killed mid-run, a
worker without the engine, and a running scheduler given by address.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.evaluation.cluster import SHARD_MOST, SHARDS, shards
from solver.family import Family

COMMAND = Path(sys.executable).with_name("chess960")


def run(*argv: str, cwd: Path, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(COMMAND), *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=False, env=env)


def stockfish_or_skip() -> str:
    found = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if found is None:
        pytest.skip("stockfish is not installed (Debian package stockfish; .ci/run installs it)")
    return found


def distributed_or_skip() -> None:
    pytest.importorskip("distributed", reason="the cluster extra is not installed "
                                              "(pip install '.[cluster]')")


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def without_time(table: list[dict[str, str]]) -> list[dict[str, str]]:
    """The rows but their search times (which differ from run to run)."""
    return [{k: v for k, v in row.items() if k != "time"} for row in table]


# -- the options (no cluster, no engine) ----------------------------------------------


def test_without_the_extra_scheduler_names_the_extra(tmp_path: Path) -> None:
    blocked = ("import sys; sys.modules['distributed'] = None; "
               "from solver.cli.entry import main; "
               "sys.argv = ['chess960', 'eval', '--engine', 'stockfish', '--nodes', '20', "
               "'--scheduler', 'local:2', '-o', 't.csv']; main()")
    done = subprocess.run([sys.executable, "-c", blocked], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == ("error: --scheduler 'local:2' needs Dask's distributed: install "
                           "the cluster extra (pip install 'chess960[cluster]') "
                           "(see 'chess960 eval --help')\n")
    assert not (tmp_path / "t.csv").exists()


@pytest.mark.parametrize(("value", "words"), [
    ("local:0", "'local:0' is not local:N (N worker processes, 1 or more)"),
    ("local:x", "'local:x' is not local:N"),
    ("8786", "'8786' is not local:N nor a scheduler's address"),
])
def test_a_bad_scheduler_is_a_usage_error(value: str, words: str) -> None:
    from solver.cli.bodies import Usage, eval_

    with pytest.raises(Usage) as raised:
        eval_(engine="stockfish", nodes=20, output="t.csv", scheduler=value)
    assert raised.value.message.startswith(words) and raised.value.hint == "'--scheduler'"


def test_scheduler_and_jobs_do_not_go_together() -> None:
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    from solver.cli.bodies import Usage, eval_

    with pytest.raises(Usage, match=r"^give --jobs or --scheduler, not both"):
        eval_(engine="stockfish", nodes=20, output="t.csv", jobs=2, scheduler="local:2")


def test_scheduler_goes_with_engine() -> None:
    from solver.cli.bodies import Usage, eval_

    with pytest.raises(Usage, match=r"^--nodes, --depth, --ids, --shard, --wdl, --scheduler "
                                    r"and -o go with --engine$"):
        eval_(positions=["80"], scheduler="local:2")


@given(st.lists(st.integers(0, 3000), unique=True, max_size=400),
       st.sets(st.integers(0, 3000), max_size=200))
def test_shards_cut_what_is_left_in_order(ids: list[int], done: set[int]) -> None:
    cut = list(shards(ids, done))
    left = [n for n in ids if n not in done]
    assert [n for shard in cut for n in shard] == left
    assert all(0 < len(shard) <= SHARD_MOST for shard in cut)
    assert len(cut) >= min(SHARDS, len(left)) or len(cut[0]) == SHARD_MOST
    assert all(len(shard) == len(cut[0]) for shard in cut[:-1])  # one size, but the last
    assert cut == list(shards(ids, done))


def test_shards_of_a_range_are_not_listed_first() -> None:
    from solver.sampling import IdRanges

    cut = shards(IdRanges([range(0, 921_600)]))
    assert next(cut) == list(range(SHARD_MOST))


# -- LocalClusters and stockfish (slow) --------------------------------------------------


@pytest.mark.slow
def test_local_cluster_gives_the_table_of_jobs(tmp_path: Path) -> None:
    distributed_or_skip()
    stockfish_or_skip()
    common = ("eval", "--engine", "stockfish", "--nodes", "20000", "--ids", "0-39")
    jobs = run(*common, "--jobs", "2", "-o", "jobs.csv", cwd=tmp_path)
    assert jobs.returncode == 0, jobs.stderr
    cluster = run(*common, "--scheduler", "local:2", "-o", "cluster.csv", cwd=tmp_path)
    assert cluster.returncode == 0, cluster.stderr
    assert cluster.stdout == ""
    assert cluster.stderr.endswith("eval: 40/40 positions\neval: cluster.csv: 40 chess960 "
                                   "positions, 0 already there, 40 evaluated by "
                                   f"{cluster.stderr.split('evaluated by ')[1]}")
    assert "Traceback" not in cluster.stderr and "Warning" not in cluster.stderr
    made = rows(tmp_path / "cluster.csv")
    assert [int(r["id"]) for r in made] == list(range(40))
    assert without_time(made) == without_time(rows(tmp_path / "jobs.csv"))
    again = run(*common, "--scheduler", "local:2", "-o", "cluster.csv", cwd=tmp_path)
    assert again.returncode == 0
    assert again.stderr == ("eval: cluster.csv: 40 chess960 positions, 40 already there, 0 "
                            "evaluated by stockfish (nodes 20000; no shard left, no worker "
                            "asked)\n")


@pytest.fixture
def killing(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[int]]]:
    """Checks each table the cluster run sorts, as written (no ID twice); yields the
    IDs of each check."""
    from solver.evaluation import cluster

    checked: list[list[int]] = []
    sort = cluster.sort_table

    def checking(path: str, family: object) -> None:
        with open(path, newline="") as handle:
            written = [int(row["id"]) for row in csv.DictReader(handle)]
        checked.append(written)
        sort(path, family)  # type: ignore[arg-type]

    monkeypatch.setattr(cluster, "sort_table", checking)
    yield checked


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_and_repeats_nothing(
        tmp_path: Path, killing: list[list[int]]) -> None:
    distributed_or_skip()
    engine = stockfish_or_skip()
    from solver.evaluation import cluster
    killed: list[int] = []

    def progress(done: int, total: int) -> None:
        if done >= 10 and not killed:  # a LocalCluster worker process, mid-run
            nanny = next(iter(cluster._CLUSTERS[0].workers.values()))
            killed.append(nanny.process.process.pid)
            os.kill(killed[0], signal.SIGKILL)

    out = tmp_path / "t.csv"
    summary = cluster.evaluate_on_cluster(
        Family.load("chess960"), "chess960", engine, scheduler="local:2", ids=range(120),
        out=str(out), nodes=20000, progress=progress)
    assert killed
    assert summary.done == 120 and summary.skipped == 0
    assert sorted(killing[0]) == list(range(120))  # as written: each ID once
    assert [int(r["id"]) for r in rows(out)] == list(range(120))


@pytest.mark.slow
def test_a_worker_without_the_engine_names_itself_and_the_engine(tmp_path: Path) -> None:
    distributed_or_skip()
    done = run("eval", "--engine", "/nowhere/stockfish", "--nodes", "20", "--ids", "0-9",
               "--scheduler", "local:1", "-o", "t.csv", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("error: engine '/nowhere/stockfish': on worker tcp://")
    assert done.stderr.count("\n") == 1


@pytest.mark.slow
def test_a_running_scheduler_from_the_environment(tmp_path: Path) -> None:
    distributed_or_skip()
    stockfish_or_skip()
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=None) as running:
        env = {**os.environ, "DASK_SCHEDULER_ADDRESS": running.scheduler_address}
        done = run("eval", "--engine", "stockfish", "--nodes", "2000", "--ids", "5-9",
                   "-o", "t.csv", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert [int(r["id"]) for r in rows(tmp_path / "t.csv")] == [5, 6, 7, 8, 9]
    assert "5 evaluated by Stockfish" in done.stderr


@pytest.mark.slow
def test_a_shard_in_process_keeps_its_engine_and_names_a_missing_one() -> None:
    engine = stockfish_or_skip()
    from solver.evaluation import cluster
    from solver.evaluation.run import evaluate
    from solver.evaluation.table import read_table

    first = cluster.evaluate_shard("chess960", engine, [3, 7], 2000, None, 60)
    kept = cluster._ENGINES.kept[1]
    second = cluster.evaluate_shard("chess960", engine, [9], 2000, None, 60)
    assert cluster._ENGINES.kept[1] is kept  # the same engine process, set up once
    assert (first.worker, first.error, second.error) == ("local", None, None)
    assert first.engine.startswith("Stockfish") and first.setup == "UCI_Chess960, Shredder-FEN"
    assert [row.id for row in first.rows + second.rows] == [3, 7, 9]
    with tempfile.TemporaryDirectory() as tmp:  # the same figures as --jobs
        evaluate(Family.load("chess960"), engine, ids=[3, 7, 9], out=f"{tmp}/t.csv",
                 nodes=2000)
        table = read_table(f"{tmp}/t.csv", count=960)
    for row in first.rows + second.rows:
        assert (row.pawns, row.mate, row.nodes) == (table.rows[row.id].pawns,
                                                   table.rows[row.id].mate,
                                                   table.rows[row.id].nodes)
    missing = cluster.evaluate_shard("chess960", "nosuchfish", [1], 2000, None, 60)
    assert missing.rows == []
    assert missing.error == ("engine 'nosuchfish': on worker local: not found on PATH nor "
                             "in /usr/games: install it or give its path")
    assert cluster._ENGINES.kept is None
    cluster._drop_engine()


@pytest.mark.slow
def test_ctrl_c_ends_the_cluster_quietly(tmp_path: Path) -> None:
    distributed_or_skip()
    stockfish_or_skip()
    import time

    import psutil

    table = tmp_path / "t.csv"
    running = subprocess.Popen(
        [str(COMMAND), "eval", "--engine", "stockfish", "--nodes", "20000", "--ids", "0-959",
         "--scheduler", "local:2", "-o", str(table)], cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        began = time.monotonic()
        while (not table.exists() or table.read_text().count("\n") < 4) \
                and time.monotonic() - began < 120 and running.poll() is None:
            time.sleep(0.2)
        family = psutil.Process(running.pid).children(recursive=True)
        assert family  # the workers and their engines
        os.killpg(running.pid, signal.SIGINT)  # as a terminal's Ctrl-C does
        out, err = running.communicate(timeout=60)
    finally:
        if running.poll() is None:
            running.kill()
    assert running.returncode == 130
    assert out == "" and "Traceback" not in err and "Warning" not in err
    assert err.endswith("\n") and "error" not in err
    _, alive = psutil.wait_procs(family, timeout=10)
    assert alive == []
    again = run("eval", "--engine", "stockfish", "--nodes", "20000", "--ids", "0-9",
                "--scheduler", "local:1", "-o", "t.csv", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert [int(r["id"]) for r in rows(table)][:10] == list(range(10))


def test_a_cluster_run_writes_a_csv_table(tmp_path: Path) -> None:
    """A stored table (-o T.sqlite) is refused before any worker is asked."""
    from solver.errors import OutputFileError
    from solver.evaluation.cluster import evaluate_on_cluster
    from solver.family import Family

    out = tmp_path / "t.sqlite"
    with pytest.raises(OutputFileError, match="a cluster run writes a CSV table"):
        evaluate_on_cluster(Family.load("chess960"), "chess960", "stockfish",
                            scheduler="local:2", ids=range(3), out=str(out), nodes=10)
    assert not out.exists()
