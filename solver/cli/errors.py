"""How the command says that something failed: the one place an error becomes
an ``error:`` line and an exit code.

A library error (a :class:`~solver.errors.Chess960Error`) is one line,
``error: <its message>``, on stderr, after what stdout had so far is flushed
(so the two streams stay in order), and exit code :data:`FAILED`; a usage
error exits :data:`USAGE`; Ctrl-C a line break and :data:`INTERRUPTED`; an
OS error on a standard stream is ``error: cannot <what>: <reason>``. The fast
path (:mod:`solver.cli.entry`, :mod:`solver.cli.commands`,
:mod:`solver.cli.inputs`) and the Typer commands (:mod:`solver.cli.app`) all
report through here. It imports nothing, so start-up does not grow.

>>> import sys
>>> from solver.errors import SeedError
>>> failed(sys.stdout, sys.stdout, SeedError(""))
error: seed '' is empty: give a phrase or an integer
1
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import ParamSpec, TextIO

    P = ParamSpec("P")

#: Exit code of a command whose input or family failed.
FAILED = 1
#: Exit code of a command line that does not parse (Click's).
USAGE = 2
#: Exit code after Ctrl-C (128 + SIGINT).
INTERRUPTED = 130


def error_line(message: object) -> str:
    """The line that reports ``message`` (an exception or a text), with its line break.

    >>> error_line("check failed for dfrc")
    'error: check failed for dfrc\\n'

    An error with several ``problems`` (a rule file's mistakes) gets one line each.
    """
    problems = getattr(message, "problems", ())
    if isinstance(problems, tuple) and len(problems) > 1:
        return "".join(f"error: {problem}\n" for problem in problems)
    return f"error: {message}\n"


def os_reason(exc: OSError) -> str:
    """What an OS error says, in lower case (``no space left on device``).

    >>> os_reason(OSError(28, "No space left on device"))
    'no space left on device'
    """
    return (exc.strerror or str(exc)).lower()


def stream_error(what: str, exc: OSError) -> str:
    """The line for an OS error while doing ``what``.

    >>> stream_error("write to standard output", OSError(28, "No space left on device"))
    'error: cannot write to standard output: no space left on device\\n'
    """
    return error_line(f"cannot {what}: {os_reason(exc)}")


def report(out: TextIO, err: TextIO, message: object) -> None:
    """Write ``message``'s ``error:`` line to ``err``, after flushing ``out``."""
    out.flush()
    err.write(error_line(message))
    err.flush()


def failed(out: TextIO, err: TextIO, exc: BaseException) -> int:
    """Report a library error (one ``error:`` line) or Ctrl-C (a line break, as
    when the console command's signal handler is not there: called in-process);
    returns the exit code."""
    out.flush()
    if isinstance(exc, KeyboardInterrupt):
        err.write("\n")
        return INTERRUPTED
    err.write(error_line(exc))
    return FAILED


def reported(command: Callable[P, int]) -> Callable[P, int]:
    """``command`` (a command's body, writing to its ``out`` and ``err`` keyword
    arguments and returning the exit code) with a library error or Ctrl-C
    reported by :func:`failed` instead of raised."""
    from functools import wraps

    @wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> int:
        try:
            return command(*args, **kwargs)
        except (KeyboardInterrupt, Exception) as exc:
            from solver.errors import Chess960Error

            if not isinstance(exc, Chess960Error | KeyboardInterrupt):
                raise
            return failed(kwargs["out"], kwargs["err"], exc)  # type: ignore[arg-type]

    return run
