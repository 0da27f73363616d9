"""Worker processes, whatever they do: how many cores this process may use,
whether forking is safe, a worker dying with its parent, and every worker
killed at once (Ctrl-C, a closed pipe).

This module imports nothing but the standard library: the games commands ask
it for their workers without importing the solver (python-constraint).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Any

#: The worker processes running (solver searches, family checks, games read),
#: killed by :func:`stop_workers`.
WORKERS: list[Any] = []

#: The bytes a worker's pipe holds before the worker waits for them to be read
#: (Linux; at most /proc/sys/fs/pipe-max-size, 1 MiB by default).
PIPE_SIZE = 1 << 20

#: prctl(2) option: the signal a process gets when its parent dies.
PR_SET_PDEATHSIG = 1


def stop_workers() -> None:
    """Kill and reap every worker process still searching (for an immediate exit)."""
    for process in list(WORKERS):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # already gone
            process.kill()
    for process in list(WORKERS):
        with contextlib.suppress(OSError, ValueError, AssertionError, AttributeError):
            process.join(timeout=1)


def cores() -> int:
    """How many cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether worker processes can be forked safely: a fork start method,
    and no other thread whose locks a child could inherit held (none was
    started if :mod:`threading` was never imported)."""
    return hasattr(os, "fork") and not other_threads()


def other_threads() -> bool:
    """Whether a thread other than this one runs (asked without importing
    :mod:`threading`: none was started if it was never imported)."""
    threading = sys.modules.get("threading")
    return threading is not None and threading.active_count() > 1


class Forked:
    """A worker process forked from this one (:func:`os.fork`, lighter than
    :mod:`multiprocessing`, which the games commands then need not import):
    ``target(*args, send)`` runs in it, ``send`` pickles one message to this
    process, which :meth:`receive` reads. It is in :data:`WORKERS` while it
    runs; the child ends with :func:`os._exit` (no exit handlers of this one).

    >>> worker = Forked(lambda a, send: send(a * 2), (21,))
    >>> worker.start(); worker.receive(), worker.join(), worker.exitcode
    (42, None, 0)
    >>> worker.close()
    """

    def __init__(self, target: Any, args: tuple[Any, ...]) -> None:
        self.target, self.args = target, args
        self.pid = 0
        self.exitcode: int | None = None
        self._read = -1

    def start(self) -> None:
        """Fork the worker."""
        read, write = os.pipe()
        with contextlib.suppress(AttributeError, OSError):  # room for a whole message, so
            import fcntl  # that the worker need not wait for this process to read it

            fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child (its coverage is not saved)
            os.close(read)
            code = 1
            try:
                with os.fdopen(write, "wb") as pipe:
                    self.target(*self.args, lambda message: _dump(message, pipe))
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        self.pid, self._read = pid, read
        WORKERS.append(self)

    def receive(self) -> Any:
        """The worker's message; raises :class:`EOFError` when it sent none
        (it died, or ended without one)."""
        import pickle

        with os.fdopen(self._read, "rb") as pipe:
            self._read = -1
            data = pipe.read()
        try:
            return pickle.loads(data)
        except Exception:  # (cut short: the worker died while sending)
            raise EOFError("the worker sent no whole message") from None

    def is_alive(self) -> bool:
        """Whether the worker still runs (reaped if it has ended)."""
        return self.exitcode is None and self.pid != 0 and not self._reap(os.WNOHANG)

    def kill(self) -> None:
        """Kill the worker (SIGKILL) if it still runs."""
        if self.is_alive():
            os.kill(self.pid, signal.SIGKILL)

    terminate = kill

    def join(self, timeout: float | None = None) -> None:
        """Wait for the worker to end (at most ``timeout`` seconds), and reap it."""
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        pause = 0.0002  # (a worker that has sent its message ends within a millisecond)
        while self.exitcode is None and self.pid:
            if deadline is None:
                self._reap(0)
            elif self._reap(os.WNOHANG) or time.monotonic() >= deadline:
                break
            else:
                time.sleep(pause)
                pause = min(2 * pause, 0.005)

    def close(self) -> None:
        """Close the pipe (its message unread), and forget the worker."""
        if self._read >= 0:
            os.close(self._read)
            self._read = -1
        with contextlib.suppress(ValueError):
            WORKERS.remove(self)

    def _reap(self, flags: int) -> bool:
        """Whether the worker has ended (reaped now or before)."""
        try:
            pid, status = os.waitpid(self.pid, flags)
        except ChildProcessError:  # reaped elsewhere
            self.exitcode = self.exitcode if self.exitcode is not None else -1
            return True
        if pid == 0:
            return False
        self.exitcode = os.waitstatus_to_exitcode(status)
        return True


def _dump(message: Any, pipe: Any) -> None:
    import pickle

    pickle.dump(message, pipe, protocol=pickle.HIGHEST_PROTOCOL)


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this worker when its parent dies (Linux), and
    exit now if the parent is already gone."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)
