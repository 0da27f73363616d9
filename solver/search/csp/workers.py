"""Running a compiled search: in parts, in worker processes when it is large.

Large searches are split into parts (the pivot's file, then another
piece's) that run in worker processes, one per core; each part's solutions
reach the caller as a batch, shrunk where they were found (counted, or
numbered), so counting never holds the family.

:func:`~solver.processes.stop_workers` kills and reaps every worker still
running (this module's, and the games commands' and ``check``'s). It is safe
to call at any moment, from a signal handler included: it only walks the list
of running workers, which :mod:`solver.processes` defines before anything else.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from solver.processes import WORKERS as _WORKERS
from solver.processes import can_fork as _can_fork
from solver.processes import cores
from solver.processes import die_with_parent as _die_with_parent

if TYPE_CHECKING:
    from solver.search.csp.compile import Batch, Part, Plan

T = TypeVar("T")

#: Searches over more arrangements than this are split into parts, and run in
#: worker processes when there is more than one core.
SPLIT_ABOVE = 100_000

#: The most worker processes a search uses.
MAX_WORKERS = 8


def batches(
    plan: Plan,
    prepare: Callable[[Batch], T],
    workers: int | None = None,
) -> Iterator[T]:
    """Search every part of ``plan``; yield ``prepare(batch)`` for each.

    ``prepare`` runs where the part was searched: in a worker process when
    the search is large and there is more than one core (``workers`` says how
    many; default: one per core), so it should shrink the batch (count it,
    number its ranks). Batches come in no particular order.
    """
    split = plan.model.arrangements() > SPLIT_ABOVE
    parts = plan.parts(split)
    if workers is None:
        workers = min(cores(), MAX_WORKERS) if split else 1
    workers = max(1, min(workers, len(parts)))
    if workers == 1 or not _can_fork():
        for part in parts:
            yield prepare(plan.search(part))
        return
    yield from _in_workers(plan, parts, prepare, workers)



def _become_worker(parent: int, inherited: Sequence[Any]) -> None:
    """What a worker process does first: leave Ctrl-C to the parent, die with
    it, close the pipe ends it inherited (so that a send whose reader has gone
    fails at once), and never flush the parent's buffered output a second time."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)
    for end in inherited:
        with contextlib.suppress(OSError):
            end.close()
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115


def _send_error(conn: Any, exc: BaseException) -> None:
    """Tell the parent what failed: a :class:`~solver.errors.Chess960Error`'s
    message (it raises one again), else the exception's type and message."""
    from solver.errors import Chess960Error

    with contextlib.suppress(OSError):
        known = isinstance(exc, Chess960Error)
        conn.send(("error", known, f"{exc}" if known
                   else f"{type(exc).__name__}: {exc}".removesuffix(": ")))


def _work(
    plan: Plan,
    parts: Sequence[Part],
    prepare: Callable[[Batch], Any],
    conn: Any,
    parent: int,
    inherited: Sequence[Any],
) -> None:
    """A worker: search its parts, send each prepared batch, then ``done``.

    It dies with its parent, and holds no read end of any result pipe (its
    own included), so that a send whose reader has gone fails at once
    instead of blocking forever.
    """
    _become_worker(parent, inherited)
    try:
        for part in parts:
            batch = prepare(plan.search(part))
            if os.getppid() != parent:
                os._exit(1)
            conn.send(("batch", batch))
        conn.send(("done",))
    except BaseException as exc:  # report everything; the parent raises it
        _send_error(conn, exc)
    finally:
        with contextlib.suppress(OSError):
            conn.close()


def _in_workers(
    plan: Plan, parts: Sequence[Part], prepare: Callable[[Batch], T], workers: int
) -> Iterator[T]:
    import multiprocessing
    from multiprocessing.connection import wait

    from solver.errors import Chess960Error, WorkerError

    context = multiprocessing.get_context("fork")
    processes = []
    live: list[Any] = []
    ends: list[Any] = []  # every worker's result pipe, in the order of processes
    own = list(parts[0::workers])  # this process searches a share too
    parent = os.getpid()
    try:
        for index in range(1, workers):
            receive, send = context.Pipe(duplex=False)
            process = context.Process(
                target=_work,
                args=(plan, parts[index::workers], prepare, send, parent, [*live, receive]),
                daemon=True,
            )
            process.start()
            _WORKERS.append(process)
            send.close()
            processes.append(process)
            live.append(receive)
            ends.append(receive)
        while own or live:
            for ready in wait(live, timeout=0 if own else None) if live else ():
                conn: Any = next(c for c in live if c is ready)
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    process = processes[ends.index(conn)]
                    process.join(timeout=1)
                    raise WorkerError(process.exitcode) from None
                if message[0] == "batch":
                    batch: T = message[1]
                    yield batch
                elif message[0] == "done":
                    live.remove(conn)
                    conn.close()
                elif message[1]:
                    raise Chess960Error(message[2])
                else:
                    raise WorkerError(None, message[2])
            if own:
                yield prepare(plan.search(own.pop(0)))
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join()
            _WORKERS.remove(process)
        for conn in live:
            conn.close()


R = TypeVar("R")


def each_in_workers(function: Callable[[T], R], items: Sequence[T], workers: int
                    ) -> Iterator[R]:
    """``function(item)`` for each of ``items``, in their order, the items handed
    out one at a time to ``workers`` forked worker processes (each takes the
    next item when it is free), each result yielded as soon as those before it
    are. With one worker, or where forking is not safe, it runs here.

    A worker's searches run in the worker itself (one search process per
    worker). A :class:`~solver.errors.Chess960Error` raised by ``function`` is
    raised here with its message; any other failure as a
    :class:`~solver.errors.WorkerError`. Results must pickle.

    >>> list(each_in_workers(abs, [-3, 1, -2], 2))
    [3, 1, 2]
    """
    workers = max(1, min(workers, len(items)))
    if workers == 1 or not _can_fork():
        yield from map(function, items)
        return
    from multiprocessing.connection import wait

    from solver.errors import Chess960Error, WorkerError

    processes: list[Any] = []
    ends: list[Any] = []
    end: Any
    try:
        _serve_from(function, items, workers, processes, ends)
        done: dict[int, R] = {}
        given = 0
        for first in ends:  # one item each to start with
            first.send(given)
            given += 1
        busy = list(ends)
        for wanted in range(len(items)):
            while wanted not in done:
                for ready in wait(busy):
                    end = next(e for e in busy if e is ready)
                    try:
                        message: Any = end.recv()
                    except (EOFError, OSError):
                        process = processes[ends.index(end)]
                        process.join(timeout=1)
                        raise WorkerError(process.exitcode) from None
                    if message[0] == "error":
                        raise Chess960Error(message[2]) if message[1] else \
                            WorkerError(None, message[2])
                    done[message[1]] = message[2]
                    if given < len(items):
                        end.send(given)
                        given += 1
                    else:
                        busy.remove(end)
            yield done.pop(wanted)
    finally:
        for end in ends:
            with contextlib.suppress(OSError):
                end.close()  # a worker waiting for an item ends on EOF
        for process in processes:
            if process.is_alive():
                process.join(timeout=0.1)
            if process.is_alive():
                process.kill()
            process.join()
            _WORKERS.remove(process)


def _serve_from(function: Callable[[Any], Any], items: Sequence[Any], workers: int,
                processes: list[Any], ends: list[Any]) -> None:
    """Fork ``workers`` :func:`_serve` processes, each pinned to a core of its own
    where it can be; their processes and pipe ends appended to the lists given."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    parent = os.getpid()
    try:
        mine_cores = sorted(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        mine_cores = []
    for index in range(workers):
        mine, theirs = context.Pipe()
        core = {mine_cores[index % len(mine_cores)]} if mine_cores else None
        # Not a daemon: its searches may not start processes from a daemon.
        process = context.Process(target=_serve, args=(function, items, theirs, parent,
                                                       [*ends, mine], core))
        process.start()
        _WORKERS.append(process)
        theirs.close()
        processes.append(process)
        ends.append(mine)


def _serve(function: Callable[[Any], Any], items: Sequence[Any], conn: Any, parent: int,
           inherited: Sequence[Any], core: set[int] | None) -> None:
    """A worker of :func:`each_in_workers`: compute each item it is sent, until
    the pipe closes. It dies with its parent; pinned to ``core``, its
    searches run in it alone (:func:`cores` is then one)."""
    _become_worker(parent, inherited)
    if core:
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setaffinity(0, core)  # the other cores are the other workers'
    try:
        while True:
            try:
                index = conn.recv()
            except (EOFError, OSError):
                break
            conn.send(("result", index, function(items[index])))
    except BaseException as exc:  # report everything; the parent raises it
        _send_error(conn, exc)
    finally:
        with contextlib.suppress(OSError):
            conn.close()
        os._exit(0)
