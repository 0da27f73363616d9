"""``chess960 eval --engine ... --scheduler``: a table made on a Dask
``distributed`` cluster (the optional extra ``cluster``).

* The IDs not yet in the table are cut into shards of consecutive IDs
  (:func:`shards`: the same IDs always give the same shards), one Dask task
  each. A worker runs the engine itself (its path resolved there) with the
  set-up of :func:`~solver.evaluation.run.engine_setup`, one engine process
  per worker thread, kept between its tasks.
* Rows go into the same resumable table as ``--jobs`` writes
  (:mod:`solver.evaluation.run`: locked, appended as shards complete, IDs
  already there skipped, rewritten in ID order at the end). A row whose ID is
  already written (a shard Dask ran again after losing its worker) is not
  written twice.
* A worker that cannot run the engine (not installed there, say) fails the
  run with one line naming the worker and the engine; rows already written
  stay for the next run.
* ``local:N`` starts a ``LocalCluster`` of N worker processes of one thread
  each, closed at the end (and killed by Ctrl-C, see :func:`stop_cluster`);
  any other address (``tcp://HOST:8786``) is a running scheduler's.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from solver.errors import (
    Chess960Error,
    ClusterError,
    EngineError,
    EvalTableError,
    OutputFileError,
)
from solver.evaluation.run import (
    Setup,
    Summary,
    count_among,
    engine_setup,
    evaluation,
    lock_table,
    resume,
    shard,
    sort_table,
)
from solver.evaluation.store import wants_store
from solver.evaluation.table import Evaluation, csv_lines, regular_file
from solver.evaluation.uci import Engine

if TYPE_CHECKING:
    from solver.family import Family

#: Shards a run is cut into at least (when it has that many IDs) ...
SHARDS: Final = 64
#: ... and the most IDs in one shard.
SHARD_MOST: Final = 256
#: Seconds to wait for a remote scheduler to answer.
CONNECT_TIMEOUT: Final = 30


def local_workers(scheduler: str) -> int | None:
    """N for ``local:N`` (a ``LocalCluster`` of N processes), None for an address;
    raises ValueError for ``local:`` without a positive N.

    >>> local_workers("local:2"), local_workers("tcp://10.0.0.5:8786")
    (2, None)
    """
    if not scheduler.startswith("local:"):
        return None
    count = scheduler.removeprefix("local:")
    if not count.isdigit() or int(count) < 1:
        raise ValueError(count)
    return int(count)


def shards(ids: Sequence[int], done: set[int] | frozenset[int] = frozenset()
           ) -> Iterator[list[int]]:
    """The IDs of ``ids`` not in ``done``, cut into shards of consecutive IDs:
    at least :data:`SHARDS` of them when there are enough IDs, at most
    :data:`SHARD_MOST` IDs each.

    >>> [len(s) for s in shards(range(130))][:3], len(list(shards(range(130))))
    ([3, 3, 3], 44)
    >>> list(shards(range(5), {1, 2}))
    [[0], [3], [4]]
    """
    left = len(ids) - count_among(set(done), ids)
    size = min(SHARD_MOST, max(1, -(-left // SHARDS)))
    shard: list[int] = []
    for number in ids:
        if number in done:
            continue
        shard.append(number)
        if len(shard) == size:
            yield shard
            shard = []
    if shard:
        yield shard


@dataclass
class Shard:
    """What a worker sends back for one shard: its address, the engine's name and
    set-up, the rows, and the error that stopped it (rows before it are kept)."""

    worker: str
    engine: str = ""
    setup: str = ""
    rows: list[Evaluation] = field(default_factory=list)
    error: str | None = None


@functools.lru_cache(maxsize=4)
def _family(rules: str) -> Family:
    from solver.family import Family
    from solver.kinds.model import MAX_ARRANGEMENTS

    return Family.load(rules, MAX_ARRANGEMENTS)


#: Each worker thread's running engine, kept between tasks: ``(key, engine, setup)``.
_ENGINES = threading.local()


def _engine(family: Family, engine: str, timeout: float, wdl: bool = False
            ) -> tuple[Engine, Setup]:
    """This thread's engine for ``family`` (started and set up the first time)
    and its set-up."""
    key = (family.name, engine, timeout, wdl)
    kept = getattr(_ENGINES, "kept", None)
    if kept is not None and kept[0] == key:
        return kept[1], kept[2]
    _drop_engine()
    running = Engine(engine, timeout)
    try:
        setup = engine_setup(family, running, wdl)
        for option, value in setup.options.items():
            running.set_option(option, value)
        running.ready()
    except BaseException:
        running.close()
        raise
    _ENGINES.kept = (key, running, setup)
    return running, setup


def _drop_engine() -> None:
    kept = getattr(_ENGINES, "kept", None)
    _ENGINES.kept = None
    if kept is not None:
        kept[1].close()


def _worker_address() -> str:
    try:
        return str(_distributed().get_worker().address)
    except (ImportError, ValueError):  # not on a Dask worker (a test calling it)
        return "local"


def evaluate_shard(rules: str, engine: str, ids: Sequence[int], nodes: int | None,
                   depth: int | None, timeout: float, wdl: bool = False) -> Shard:
    """The Dask task: ``ids`` of the family ``rules`` evaluated by ``engine``
    on this worker (a :class:`Shard`; a library error is its ``error``, worded
    to name this worker)."""
    from solver.notation.fen import position_fen

    shard = Shard(_worker_address())
    limit = f"nodes {nodes}" if nodes is not None else f"depth {depth}"
    try:
        family = _family(rules)
        running, setup = _engine(family, engine, timeout, wdl)
        shard.engine, shard.setup = running.name, setup.words
        for number in ids:
            position = family.position(number)
            result = running.analyse(setup.fen(position), nodes=nodes, depth=depth)
            if wdl and result.wdl is None:
                raise EngineError(engine, f"gave no 'wdl' with its last score for id "
                                          f"{number}, though UCI_ShowWDL is on (--wdl)")
            shard.rows.append(evaluation(number, position_fen(position), running.name,
                                         limit, result))
    except EngineError as exc:
        _drop_engine()
        shard.error = str(EngineError(exc.engine, f"on worker {shard.worker}: {exc.reason}"))
    except Chess960Error as exc:
        _drop_engine()
        shard.error = f"on worker {shard.worker}: {exc}"
    return shard


def _distributed() -> Any:
    """Dask's ``distributed`` module (typed loosely: it has no type hints)."""
    import importlib

    return importlib.import_module("distributed")


#: The LocalCluster this process started, for :func:`stop_cluster`.
_CLUSTERS: list[Any] = []


def stop_cluster() -> None:
    """Kill the worker processes of the LocalCluster this process started (the
    console command's Ctrl-C handler calls it before exiting at once; their
    engines end when their input closes)."""
    import signal

    for cluster in list(_CLUSTERS):
        for nanny in list(getattr(cluster, "workers", {}).values()):
            process = getattr(getattr(nanny, "process", None), "process", None)
            pid = getattr(process, "pid", None)
            if pid:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


def _quiet_child() -> None:
    """In a worker process forked from the command: Ctrl-C is the command's to
    handle (its handler kills the workers, :func:`stop_cluster`), not the
    worker's, whose inherited handler would write to stderr too."""
    import signal

    if _FORKING:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


#: Not empty while this process's LocalCluster may fork workers (restarted ones too).
_FORKING: list[bool] = []
_HOOKED: list[bool] = []


@contextlib.contextmanager
def client(scheduler: str) -> Iterator[Any]:
    """A Dask client of the scheduler at ``scheduler``, or of a LocalCluster
    started for ``local:N`` and closed after."""
    import logging

    Client = _distributed().Client  # noqa: N806

    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # no log lines on stderr
    count = local_workers(scheduler)
    if count is None:
        try:
            connected = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, ValueError, TypeError) as exc:
            raise ClusterError.of(scheduler, f"cannot connect: {exc}") from None
        with connected:
            yield connected
        return
    with _local_cluster(count) as cluster:
        _CLUSTERS.append(cluster)
        try:
            with Client(cluster) as started:
                yield started
        finally:
            _CLUSTERS.remove(cluster)


@contextlib.contextmanager
def _local_cluster(count: int) -> Iterator[Any]:
    """A LocalCluster of ``count`` worker processes of one thread, forked from
    this one (a spawned worker imports Dask again: 3.6 s to start and 1 s to
    close two on 2 cores, against 0.4 s and 0.1 s forked)."""
    import importlib
    import logging

    dask: Any = importlib.import_module("dask")
    LocalCluster = _distributed().LocalCluster  # noqa: N806

    if not _HOOKED:  # once: a hook outlives the cluster
        os.register_at_fork(after_in_child=_quiet_child)
        _HOOKED.append(True)
    _FORKING.append(True)
    try:
        with dask.config.set({"distributed.worker.multiprocessing-method": "fork"}):
            cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.CRITICAL)
    except (OSError, RuntimeError) as exc:
        _FORKING.pop()
        raise ClusterError.of(f"local:{count}", f"cannot start: {exc}") from None
    try:
        with cluster:
            yield cluster
    finally:
        _FORKING.pop()


def evaluate_on_cluster(family: Family, rules: str, engine: str, *, scheduler: str,
                        ids: Sequence[int], out: str, nodes: int | None = None,
                        depth: int | None = None, timeout: float = 600.0,
                        progress: Callable[[int, int], None] | None = None,
                        wdl: bool = False, part: tuple[int, int] | None = None) -> Summary:
    """:func:`~solver.evaluation.run.evaluate` on the Dask cluster ``scheduler``
    (``local:N`` or an address; see the module); ``rules`` is how workers load
    the family (a name, or a rule file at the same path there)."""
    if (nodes is None) == (depth is None):
        raise EngineError(engine, "give one limit: nodes or depth")
    if wants_store(out):
        raise OutputFileError(out, "a cluster run writes a CSV table (-o T.csv); make a "
                                   "stored table of it with `chess960 eval merge T.csv -o "
                                   "T.sqlite`")
    if part is not None:
        ids = shard(ids, *part)
    regular_file(out, links=False)
    try:
        fd = lock_table(out)
    except OSError as exc:
        raise OutputFileError(out, (exc.strerror or str(exc)).lower()) from None
    try:
        try:
            done = resume(out, fd, family)
        except OSError as exc:
            raise EvalTableError(out, 0, (exc.strerror or str(exc)).lower()) from None
        skipped = count_among(done, ids)
        work = list(shards(ids, done))
        summary = Summary(len(ids), skipped, 0, engine, "no shard left, no worker asked")
        if work:
            with client(scheduler) as dask:
                task = (rules, engine, nodes, depth, timeout, wdl)
                summary = _gather(dask, scheduler, work, task, out, fd, done, summary, progress)
        sort_table(out, family)
        return summary
    finally:
        os.close(fd)


def _gather(dask: Any, scheduler: str, work: list[list[int]], task: tuple[Any, ...], out: str,
            fd: int, done: set[int], summary: Summary,
            progress: Callable[[int, int], None] | None) -> Summary:
    """Submit the shards, then append each one's new rows to the table as it
    completes; the first error (after its rows) ends the run."""
    as_completed = _distributed().as_completed

    rules, engine, nodes, depth, timeout, wdl = task
    futures = [dask.submit(evaluate_shard, rules, engine, part, nodes, depth, timeout, wdl,
                           pure=False) for part in work]
    count = 0
    name = words = ""
    failure: ClusterError | None = None
    try:
        with open(os.dup(fd), "a", encoding="utf-8", newline="") as table:
            for future in as_completed(futures):
                try:
                    shard: Shard = future.result()
                except Exception as exc:  # Dask gave up on the shard (KilledWorker, ...)
                    failure = ClusterError.of(scheduler, f"a shard of {len(work[0])} ids "
                                                         f"failed: {exc}")
                    break
                fresh = [row for row in shard.rows if row.id not in done]
                if fresh:
                    table.write(csv_lines(fresh, header=False))
                    table.flush()
                    for row in fresh:
                        done.add(row.id)
                        count += 1
                        if progress is not None:
                            progress(summary.skipped + count, summary.asked)
                name, words = name or shard.engine, words or shard.setup
                if shard.error is not None:
                    failure = ClusterError(shard.error)
                    break
            os.fsync(table.fileno())
    except OSError as exc:
        raise OutputFileError(out, (exc.strerror or str(exc)).lower()) from None
    finally:
        for future in futures:
            future.cancel()
    if failure is not None:
        raise failure
    return Summary(summary.asked, summary.skipped, count, name or engine, words)
