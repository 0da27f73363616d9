"""The ``chess960`` console command's entry point: signals, streams, the ``id`` loop.

:func:`main` first makes the process safe to stop and to pipe:

* Ctrl-C (and SIGTERM) exit at once, 130 (143), from the signal handler
  itself, with solver workers killed and temporary files removed; the
  handler is the first thing :func:`main` installs.
* Standard output is written through :class:`_Stdout`: when the reader has
  gone (a closed pipe, ``| head -1``) the command exits 0 quietly, and when
  the output cannot be written (a full disk, a closed stream) it prints one
  ``error:`` line and exits 1, whichever command, option or library was
  writing (``--help`` and ``--version`` included).
* A closed standard stream is replaced by ``/dev/null`` at its descriptor,
  so that no file the command opens takes its number.

``chess960 id``, ``position``, ``random``, ``show``, ``rules``, ``solve``,
``check``, ``plan``, ``convert``, ``lint``, ``which``, ``compare``, ``book``,
``eval``, ``dice``, ``games stats`` and ``games tree`` are what scripts call most, one call at
a time, so their start-up matters: Typer parses options through Pydantic,
which alone takes longer to import than answering. So :func:`dispatch` parses
the common forms of these commands with the table generated from the Typer app
(:func:`solver.cli.quick.parse`) and calls the function the Typer command
calls (:mod:`solver.cli.bodies`) with the same arguments; every other command
line (``--help``, completion, an unknown option, a value the table cannot
check, options that do not go together) goes to :mod:`solver.cli.app`
unchanged. Shell completion of option values and command names is answered by
:mod:`solver.cli.complete`, also without Typer.
"""

import contextlib
import os
import signal
import sys

from solver.cli.errors import FAILED, error_line, stream_error

#: Exit codes of the signals that stop the command (128 + the signal's number).
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _completing() -> bool:
    """Whether the shell asks for completions (:mod:`solver.cli.complete` answers
    the common ones, Typer the rest)."""
    return any(name.endswith("_COMPLETE") for name in os.environ)


def _clean_up() -> None:
    """Kill solver workers and engines and remove temporary files, for an immediate exit.

    Only modules already imported, and only if their import got as far as
    defining the function: this may run at any moment of start-up.
    """
    for module, name in (("solver.processes", "stop_workers"),
                         ("solver.evaluation.uci", "stop_engines"),
                         ("solver.evaluation.cluster", "stop_cluster"),
                         ("solver.files", "remove_temporary")):
        try:
            function = getattr(sys.modules.get(module), name, None)
            if callable(function):
                function()
        except BaseException:  # exiting anyway
            pass


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C or SIGTERM: stop at once with 128 + the signal's number, no traceback.

    Exiting from the handler itself cannot be lost, whereas a
    KeyboardInterrupt that happens to be raised inside a finaliser is
    swallowed and the work would go on.
    """
    _clean_up()
    try:
        if signum == signal.SIGINT:
            os.write(2, b"\n")
    except BaseException:
        pass
    finally:
        os._exit(128 + signum)


def _exit_now(code: int, line: str = "") -> None:
    """Leave at once, after writing ``line`` (an ``error:`` line) to stderr:
    nothing more can be written (or there is no one to read it)."""
    _clean_up()
    if line:
        with contextlib.suppress(OSError):
            os.write(2, line.encode())
    os._exit(code)


class _Stdout:
    """The raw layer under ``sys.stdout``: writes to descriptor 1, and
    exits at once when that fails (0 quietly if the reader has gone, else 1
    with one ``error:`` line)."""

    def __init__(self, closed: bool) -> None:
        self.closed_at_start = closed

    def write(self, data: bytes) -> int:
        if self.closed_at_start:
            _exit_now(FAILED, error_line("cannot write to standard output: it is closed"))
        try:
            return os.write(1, data)
        except BrokenPipeError:
            _exit_now(0)
        except OSError as exc:
            _exit_now(FAILED, stream_error("write to standard output", exc))
        raise AssertionError("unreachable")  # pragma: no cover


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _guard_streams() -> None:
    """Make the standard streams safe: closed ones taken by ``/dev/null``,
    standard output written through :class:`_Stdout`."""
    import io

    closed = {fd: not _is_open(fd) for fd in (0, 1, 2)}
    for fd, is_closed in closed.items():
        if is_closed:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if closed[0]:
        sys.stdin = None
    if closed[2] or sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    old = sys.stdout
    if old is not None and old is not sys.__stdout__:
        return  # stdout was replaced by the caller (a test capturing it): keep theirs
    _OWN_STDOUT.append(True)
    raw = _Stdout(closed[1])

    class _Raw(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def write(self, data: object) -> int:
            return raw.write(bytes(data))  # type: ignore[call-overload]

        def fileno(self) -> int:
            return 1

        def isatty(self) -> bool:
            return not raw.closed_at_start and os.isatty(1)

    buffered = io.BufferedWriter(_Raw(), buffer_size=1 << 16)
    sys.stdout = io.TextIOWrapper(
        buffered,
        encoding=getattr(old, "encoding", None) or "utf-8",
        errors=getattr(old, "errors", None) or "strict",
        newline="\n",
        line_buffering=bool(getattr(old, "line_buffering", False)),
        write_through=False,
    )


def main() -> None:
    """Console-script entry point: the common forms here, the rest in Typer."""
    for stop in _STOP_SIGNALS:
        signal.signal(stop, _interrupted)
    _guard_streams()
    code = dispatch(sys.argv[1:])
    sys.stdout.flush()  # a failure exits from _Stdout
    _end(code)


#: Whether :func:`_guard_streams` put :class:`_Stdout` under ``sys.stdout`` (the
#: command owns its process; a caller that captures stdout, a test, does not).
_OWN_STDOUT: list[bool] = []


def _end(code: int) -> None:
    """Exit with ``code``: the exit handlers run (coverage saves its data,
    worker processes are reaped, temporary files go) and the streams are
    flushed, but the interpreter is not taken down object by object (10 ms
    for a small run, more after a large file). Unless the command does not
    own its process (its caller captures stdout) or a thread still runs: then
    SystemExit, and the interpreter ends as usual."""
    import atexit

    from solver.processes import other_threads

    if not _OWN_STDOUT or other_threads():
        raise SystemExit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):  # (stdout: a failure exits from _Stdout)
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
    os._exit(code)


def dispatch(argv: list[str]) -> int:
    """Answer the command line ``argv`` (without the program's name) on the
    standard streams: the common forms here, the rest in Typer; returns the exit code."""
    if _completing():
        from solver.cli.complete import complete

        answered = complete()
        if answered is not None:  # an option's values, a command's name: without Typer
            sys.stdout.write(answered[0])
            return answered[1]
    from solver.cli.bodies import Usage
    from solver.cli.quick import parse

    quick = None if _completing() else parse(argv)
    if quick is not None:
        body, arguments = quick
        try:
            return body(**arguments)
        except Usage:  # options that do not go together: Typer words it
            pass
    from solver.cli.app import run

    return run(argv)
