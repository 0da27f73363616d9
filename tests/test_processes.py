"""The games commands' worker processes (:class:`solver.processes.Forked`):
a message received whole, a worker that dies or fails is one library error,
and every worker is killed and reaped (Ctrl-C, an error, the end)."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from solver.errors import WorkerError
from solver.family import Family
from solver.processes import WORKERS, Forked, can_fork, stop_workers

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this system")


def _send(value: Any, send: Any) -> None:
    send(value)


def _fail(send: Any) -> None:
    raise ValueError("no")


def _sleep(send: Any) -> None:
    time.sleep(60)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_message_is_received_whole_and_the_worker_reaped() -> None:
    value = {"rows": list(range(200_000)), "text": "é" * 100_000}  # more than a pipe holds
    worker = Forked(_send, (value,))
    worker.start()
    assert worker in WORKERS
    assert worker.receive() == value
    worker.join()
    assert worker.exitcode == 0
    assert not worker.is_alive()
    worker.close()
    assert worker not in WORKERS


def test_a_worker_that_raises_sends_nothing_and_exits_1() -> None:
    worker = Forked(_fail, ())
    worker.start()
    with pytest.raises(EOFError):
        worker.receive()
    worker.join(timeout=10)
    assert worker.exitcode == 1
    worker.close()


def test_stop_workers_kills_and_reaps_a_running_worker() -> None:
    worker = Forked(_sleep, ())
    worker.start()
    assert worker.is_alive()
    stop_workers()
    assert worker.exitcode == -signal.SIGKILL
    assert not _alive(worker.pid)  # reaped
    worker.close()


def test_join_with_a_timeout_returns_while_the_worker_runs() -> None:
    worker = Forked(_sleep, ())
    worker.start()
    began = time.monotonic()
    worker.join(timeout=0.05)
    assert worker.exitcode is None
    assert time.monotonic() - began < 5
    worker.kill()
    worker.join()
    assert worker.exitcode == -signal.SIGKILL
    worker.close()


def test_forking_waits_for_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    assert can_fork() == (threading.active_count() == 1)
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not can_fork()
    monkeypatch.delitem(sys.modules, "threading")  # never imported: no thread was started
    assert can_fork()


def _large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from solver.games import fast
    from tests.test_games_tree_fast import _text

    path = tmp_path / "g.pgn"
    path.write_text(_text(5, 200)[0])
    monkeypatch.setattr(fast, "PARALLEL_FROM", 0)
    monkeypatch.setattr("solver.processes.cores", lambda: 2)
    return path


@pytest.mark.parametrize("how", ["killed", "raises"])
def test_a_games_worker_that_dies_or_fails_is_one_library_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    from solver.games.stats import Stats

    path = _large(tmp_path, monkeypatch)
    stats = Stats(Family.load("chess960"))
    parent = os.getpid()
    real = stats.add_range

    def add_range(*args: Any) -> int:
        if os.getpid() != parent:  # in the worker
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            raise MemoryError("out")
        return real(*args)

    monkeypatch.setattr(stats, "add_range", add_range)
    with pytest.raises(WorkerError) as raised:
        stats.add_file(str(path), path.stat().st_size)
    assert str(raised.value) == ("a solver worker process stopped unexpectedly (killed by signal 9)"
                                 if how == "killed" else
                                 "a solver worker process failed: MemoryError: out")
    assert not WORKERS  # reaped


def test_a_games_worker_is_killed_when_the_parent_stops_early(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from solver.games.tree import Tree

    path = _large(tmp_path, monkeypatch)
    tree = Tree(Family.load("chess960"), 4)
    parent = os.getpid()
    pids: list[int] = []

    def add_range(*args: Any) -> int:
        if os.getpid() != parent:
            time.sleep(60)  # a worker still reading
        pids.extend(w.pid for w in WORKERS)
        raise KeyboardInterrupt  # Ctrl-C while this process reads its own range

    monkeypatch.setattr(tree, "add_range", add_range)
    with pytest.raises(KeyboardInterrupt):
        tree.add_file(str(path), path.stat().st_size)
    assert pids
    assert not WORKERS
    assert not any(_alive(pid) for pid in pids)
