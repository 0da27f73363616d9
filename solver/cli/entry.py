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
``check``, ``plan``, ``convert``, ``lint``, ``which``, ``compare`` and ``games
stats`` are what scripts call most, one call at a time, so their start-up
matters: Typer parses options through Pydantic, which alone takes longer to
import than answering. So
:func:`main` parses the common forms of these commands itself
(:func:`parse_fast`: known options, values Typer takes as they are) and answers
them through :mod:`solver.cli.commands` and :mod:`solver.cli.lists`, the same
functions the Typer commands call; every other command line (a command's
``--help``, completion, an unknown option, a value Typer would refuse) goes to
:mod:`solver.cli.app` unchanged. ``chess960 --help`` is Typer's, kept between
runs (:func:`top_help`). Shell completion of option values and command names is answered by
:mod:`solver.cli.complete`, also without Typer.
"""

import contextlib
import os
import signal
import sys

from solver.cli.errors import FAILED, error_line, stream_error

#: Exit codes of the signals that stop the command (128 + the signal's number).
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


#: Options of the commands answered without Typer: name -> (key, takes a value, repeats).
_RULES = {"--rules": ("rules", True, False), "-r": ("rules", True, False)}
_FORMAT = {"--format": ("fmt", True, False), "-f": ("fmt", True, False),
           "--dialect": ("dialect", True, False), "--variant": ("variant", True, False)}
_UNICODE = {"--unicode": ("unicode", False, False), "-u": ("unicode", False, False)}
_STATES = {"--max-states": ("max_states", True, False)}
_NUMBERING = {"--numbering": ("numbering", True, False)}
_OPTIONS: dict[str, tuple[bool, dict[str, tuple[str, bool, bool]]]] = {
    "id": (True, {**_RULES, **_FORMAT, **_STATES, **_NUMBERING}),
    "position": (True, {**_RULES, **_FORMAT, **_UNICODE, **_STATES, **_NUMBERING}),
    "convert": (True, {**_RULES, "--from": ("source", True, False),
                       "--to": ("target", True, False)}),
    "random": (False, {**_RULES, **_FORMAT, **_UNICODE, **_STATES, **_NUMBERING,
                       "--count": ("count", True, False), "-n": ("count", True, False),
                       "--distinct": ("distinct", False, False),
                       "--exclude": ("exclude", True, True), "-x": ("exclude", True, True),
                       "--seed": ("seed", True, False)}),
    "show": (True, {**_RULES, "--svg": ("svg", True, False),
                    "--letters": ("letters", False, False), "-l": ("letters", False, False)}),
    "rules": (False, {}),
    "plan": (False, {**_RULES, **_NUMBERING, "--dialect": ("dialect", True, False),
                     "--variant": ("variant", True, False),
                     "--format": ("table", True, False), "-f": ("table", True, False),
                     "--rounds": ("rounds", True, False), "--seed": ("seed", True, False),
                     "--exclude": ("exclude", True, True), "-x": ("exclude", True, True),
                     "--exclude-mirrors": ("mirrors", False, False),
                     "--svg-dir": ("svg_dir", True, False)}),
    "check": (False, {**_RULES, "--all": ("every", False, False),
                      "--max-arrangements": ("max_arrangements", True, False)}),
    "solve": (False, {**_RULES, **_FORMAT, **_UNICODE, **_STATES, **_NUMBERING,
                      "--count": ("count_only", False, False)}),
    "lint": (True, {**_RULES, **_NUMBERING, "--fix": ("fix", True, False),
                    "--dialect": ("dialect", True, False), "--variant": ("variant", True, False),
                    "--quiet": ("quiet", False, False), "-q": ("quiet", False, False),
                    "--verbose": ("verbose", False, False),
                    "--complete": ("complete", False, False)}),
    "which": (True, {"--rules": ("rules", True, True), "-r": ("rules", True, True),
                     "--format": ("fmt", True, False), "-f": ("fmt", True, False)}),
    "compare": (True, {**_RULES, **_NUMBERING, "--format": ("fmt", True, False),
                       "-f": ("fmt", True, False), "--limit": ("limit", True, False)}),
    "games stats": (True, {**_RULES, "--format": ("fmt", True, False),
                           "-f": ("fmt", True, False), "--tag": ("tag", True, False)}),
}

Parsed = tuple[str, list[str], dict[str, object]]


def parse_fast(argv: list[str]) -> Parsed | None:
    """``(command, arguments, options)`` when ``argv`` is a command line answered
    without Typer, else None (Typer then answers it, errors and help included).

    Only forms whose answer cannot differ are taken: known options, each
    once (``--exclude`` may repeat), values that do not start with ``-`` and
    that Typer would accept as they are; never ``--``, ``--help``, attached
    short values (``-rdfrc``) or anything else (a value may be ``-`` alone).

    >>> parse_fast(["position", "518", "-r", "dfrc"])
    ('position', ['518'], {'rules': 'dfrc'})
    >>> parse_fast(["random", "--seed", "1", "-n", "0"]) is None  # Typer words the error
    True
    """
    if argv[:2] == ["games", "stats"]:
        argv = ["games stats", *argv[2:]]
    if not argv or argv[0] not in _OPTIONS:
        return None
    takes_arguments, known = _OPTIONS[argv[0]]
    arguments: list[str] = []
    options: dict[str, object] = {}
    args = iter(argv[1:])
    for arg in args:
        if arg == "-" or not arg.startswith("-"):
            if not takes_arguments:
                return None
            arguments.append(arg)
            continue
        name, equals, attached = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name not in known:
            return None
        key, takes_value, repeats = known[name]
        if not takes_value:
            if equals or key in options:
                return None
            options[key] = True
            continue
        value = attached if equals else next(args, None)
        if value is None or (value.startswith("-") and value != "-"):
            return None
        if repeats:
            options.setdefault(key, [])
            options[key].append(value)  # type: ignore[attr-defined]
        elif key in options:
            return None
        else:
            options[key] = value
    if (takes_arguments and not arguments and argv[0] != "lint") or \
            (argv[0] == "show" and len(arguments) != 1):
        return None
    if argv[0] == "lint":
        return (argv[0], arguments, options) if _lint_accepted(options) else None
    if argv[0] == "games stats":
        return (argv[0], arguments, options) if options.get("fmt", "text") in (
            "text", "csv", "json") else None
    if argv[0] in ("which", "compare"):
        limit = options.get("limit", "20")
        plain = isinstance(limit, str) and limit.isascii() and limit.isdigit() and \
            len(limit) < 19 and (limit == "0" or limit[0] != "0")
        return (argv[0], arguments, options) if plain and options.get("fmt", "text") in (
            "text", "json") and (argv[0] == "which" or len(arguments) == 1) else None
    if argv[0] == "plan" and ("rounds" not in options
                              or options.get("table", "markdown") not in ("markdown", "csv")):
        return None  # Typer words the error
    return (argv[0], arguments, options) if _accepted(options) else None


def _lint_accepted(options: dict[str, object]) -> bool:
    """Whether ``chess960 lint`` takes these option values (else Typer words the error)."""
    from solver.lists.lint import FIX_DIALECTS, NOTATIONS
    from solver.notation.dialects import DIALECTS, VARIANTS

    fix, dialect, variant = (options.get(key) for key in ("fix", "dialect", "variant"))
    allowed = tuple(DIALECTS) if variant is not None else FIX_DIALECTS
    return ((fix is None or fix in NOTATIONS) and (dialect is None or dialect in allowed)
            and (variant is None or variant in VARIANTS)
            and ("rules" in options or not ("numbering" in options or "complete" in options)))


def _accepted(options: dict[str, object]) -> bool:
    """Whether Typer takes these option values as they are (no usage error)."""
    fmt = options.get("fmt", "text")
    if fmt not in ("text", "fen", "shredder", "epd"):  # (those, without importing the writers)
        from solver.output import FORMATS

        if fmt not in FORMATS:
            return False
    count = options.get("count", options.get("rounds", "1"))
    if not (isinstance(count, str) and count.isascii() and count.isdigit()
            and len(count) < 100 and int(count) >= 1):
        return False
    states = options.get("max_states", "1")
    if not (isinstance(states, str) and states.isascii() and states.isdigit()
            and len(states) < 100 and int(states) >= 1):
        return False
    limit = options.get("max_arrangements", "1")
    if not (isinstance(limit, str) and limit.isascii() and limit.isdigit()
            and limit[0] != "0" and len(limit) <= 18):
        return False  # Typer words the error (and reads 010, +5 as it does)
    if "dialect" in options or "variant" in options:
        from solver.notation.dialects import DIALECTS, VARIANTS

        if (options.get("dialect", "xfen") not in DIALECTS
                or options.get("variant", "chess") not in VARIANTS):
            return False
    seed = options.get("seed")
    if seed is not None:
        from solver.errors import SeedError
        from solver.sampling import seed_value

        try:
            seed_value(str(seed))
        except SeedError:
            return False
    return True


def run_fast(command: str, arguments: list[str], options: dict[str, object]) -> int:
    """Answer a command line :func:`parse_fast` took; returns the exit code."""
    from solver.cli import commands
    from solver.lines import stdin_bytes

    out, err = sys.stdout, sys.stderr
    rules = str(options.get("rules", "chess960"))
    fmt = str(options.get("fmt", "text"))
    dialect = str(options.get("dialect", "xfen"))
    variant = options.get("variant")
    variant = None if variant is None else str(variant)
    unicode = bool(options.get("unicode", False))
    numbering = options.get("numbering")
    numbering = None if numbering is None else str(numbering)
    if "max_states" in options:
        from solver.numbering.budget import set_max_states

        set_max_states(int(str(options["max_states"])))
    if command == "id":
        return commands.identify_command(rules, arguments, fmt, dialect, variant,
                                         stdin=stdin_bytes(), out=out, err=err,
                                         numbering=numbering)
    if command == "position":
        return commands.position_command(rules, arguments, fmt, unicode, dialect, variant,
                                         stdin=stdin_bytes(), out=out, err=err,
                                         numbering=numbering)
    if command == "convert":
        source, target = options.get("source"), options.get("target")
        return commands.convert_command(rules, arguments,
                                        None if source is None else str(source),
                                        None if target is None else str(target),
                                        stdin=stdin_bytes(), out=out, err=err)
    if command == "random":
        exclude = options.get("exclude", [])
        seed = options.get("seed")
        return commands.random_command(
            rules, int(str(options.get("count", "1"))), distinct=bool(options.get("distinct")),
            exclude=list(exclude) if isinstance(exclude, list) else [],
            seed=None if seed is None else str(seed), fmt=fmt, unicode=unicode,
            dialect=dialect, variant=variant, out=out, err=err, numbering=numbering)
    if command == "solve":
        return commands.solve_command(rules, bool(options.get("count_only")), fmt, unicode,
                                      dialect, variant, out=out, err=err, numbering=numbering)
    if command == "show":
        svg = options.get("svg")
        return commands.show_command(rules, arguments[0], None if svg is None else str(svg),
                                     bool(options.get("letters", False)), stdin=stdin_bytes(),
                                     out=out, err=err)
    if command == "plan":
        exclude = options.get("exclude", [])
        seed = options.get("seed")
        svg_dir = options.get("svg_dir")
        return commands.plan_command(
            rules, int(str(options["rounds"])), seed=None if seed is None else str(seed),
            exclude=list(exclude) if isinstance(exclude, list) else [],
            mirrors=bool(options.get("mirrors", False)),
            table=str(options.get("table", "markdown")),
            svg_dir=None if svg_dir is None else str(svg_dir), dialect=dialect, variant=variant,
            out=out, err=err, numbering=numbering)
    if command == "lint":
        from solver.cli.lists import lint_command

        fix, rules_, dialect_ = options.get("fix"), options.get("rules"), options.get("dialect")
        return lint_command(arguments or ["-"], None if fix is None else str(fix),
                            None if dialect_ is None else str(dialect_), variant,
                            None if rules_ is None else str(rules_),
                            bool(options.get("quiet")), bool(options.get("verbose")),
                            numbering, bool(options.get("complete")), out=out, err=err)
    if command == "which":
        from solver.cli.lists import which_command

        families = options.get("rules", [])
        return which_command(arguments, families if isinstance(families, list) else [], fmt,
                             stdin=stdin_bytes(), out=out, err=err)
    if command == "games stats":
        from solver.cli.game_runs import stats_command

        tag = options.get("tag")
        return stats_command(arguments, rules, fmt, None if tag is None else str(tag))
    if command == "compare":
        from solver.cli.lists import compare_command

        return compare_command(arguments[0], rules, fmt, int(str(options.get("limit", "20"))),
                               numbering, out=out, err=err)
    if command == "check":
        limit = options.get("max_arrangements")
        return commands.check_command(rules, bool(options.get("every", False)),
                                      None if limit is None else int(str(limit)),
                                      out=out, err=err)
    return commands.rules_command(out=out, err=err)


def _completing() -> bool:
    """Whether the shell asks for completions (:mod:`solver.cli.complete` answers
    the common ones, Typer the rest)."""
    return any(name.endswith("_COMPLETE") for name in os.environ)


def _clean_up() -> None:
    """Kill solver workers and engines and remove temporary files, for an immediate exit.

    Only modules already imported, and only if their import got as far as
    defining the function: this may run at any moment of start-up.
    """
    for module, name in (("solver.search.csp.workers", "stop_workers"),
                         ("solver.evaluation.uci", "stop_engines"),
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
    raise SystemExit(code)


def dispatch(argv: list[str]) -> int:
    """Answer the command line ``argv`` (without the program's name) on the
    standard streams: the common forms here, the rest in Typer; returns the exit code."""
    if _completing():
        from solver.cli.complete import complete

        answered = complete()
        if answered is not None:  # an option's values, a command's name: without Typer
            sys.stdout.write(answered[0])
            return answered[1]
    fast = None if _completing() else parse_fast(argv)
    if fast is not None:
        return run_fast(*fast)
    if argv in (["--help"], ["-h"]) and not _completing():
        return top_help(argv)
    from solver.cli.app import run

    return run(argv)


def top_help(argv: list[str]) -> int:
    """``chess960 --help``: Typer's help, kept in the cache
    (:func:`~solver.cli.cache.keep`) with the modules that made it and a hash of
    their bytes, under this Python, terminal width and the environment variables
    Typer reads, so that later runs write it without importing Typer, and never
    after any of those changed."""
    import io
    import shutil

    from solver.cli import cache

    parts = (cache.python_identity(), b"%d" % shutil.get_terminal_size().columns,
             cache.help_environment())
    kept = cache.find_kept("help", parts)
    if kept is not None:
        sys.stdout.write(kept)
        return 0
    from solver.cli.app import run

    real = sys.stdout
    sys.stdout = captured = io.StringIO()
    try:
        code = run(argv)
    finally:
        sys.stdout = real
    real.write(captured.getvalue())
    if code == 0:
        cache.keep("help", parts, captured.getvalue(), cache.loaded_modules())
    return code
