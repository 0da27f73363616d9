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
from typing import Any

#: The worker processes running (solver searches, family checks, games read),
#: killed by :func:`stop_workers`.
WORKERS: list[Any] = []

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
    and no other thread whose locks a child could inherit held."""
    import multiprocessing
    import threading

    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


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
