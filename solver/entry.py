"""The ``chess960`` console command's entry point, and the ``id`` loop.

``chess960 id RANK...`` (and ``chess960 id -`` over a file of ranks) is the
command scripts call most, and the one whose start-up matters: Typer parses
options through Pydantic, which alone takes longer to import than answering.
So :func:`main` answers the plain form of ``id`` (ranks and ``-``, at most a
``--rules``/``-r`` option) itself, through :func:`identify_all`, the same
function the Typer command calls; every other command line, ``--help`` and
any other option included, goes to :mod:`solver.cli` unchanged.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from solver.catalogue import Family, Position

#: Answers remembered per distinct input line of ``id -``.
MEMO_MAX = 1 << 20

#: How much of stdin ``id -`` reads at a time, in bytes (whole lines).
CHUNK = 1 << 16

Render = Callable[["Position"], str]


def _text(position: Position) -> str:
    return f"{position.id}\n"


def identify_all(
    family: Family,
    texts: Iterable[str],
    stdin: TextIO,
    out: TextIO,
    err: TextIO,
    render: Render = _text,
) -> bool:
    """Write the ID of each rank in ``texts`` (``-``: each line of ``stdin``).

    A rank that is not the family's gets an ``error:`` line on ``err`` (after
    the answers before it are flushed) and the others go on. Returns whether
    any failed.
    """
    from solver.errors import Chess960Error

    bad = False
    for text in texts:
        if text == "-":
            bad |= _lines(family, stdin, out, err, render)
            continue
        try:
            answer = render(family.identify(text))
        except Chess960Error as exc:
            out.flush()
            err.write(f"error: {exc}\n")
            bad = True
            continue
        out.write(answer)
    return bad


def _lines(family: Family, stdin: TextIO, out: TextIO, err: TextIO, render: Render) -> bool:
    """Answer stdin line by line; equal lines are identified once."""
    from solver.errors import Chess960Error

    memo: dict[str, str] = {}
    lookup = memo.get
    bad = False
    number = 0
    while lines := stdin.readlines(CHUNK):
        answers = list(map(lookup, lines))
        if None not in answers:
            out.write("".join(answers))  # type: ignore[arg-type]
            number += len(lines)
            continue
        start = 0
        for index, answer in enumerate(answers):
            if answer is not None:
                continue
            line = lines[index]
            text = line.rstrip("\r\n")
            try:
                found = render(family.identify(text)) if text.strip() else ""
            except Chess960Error as exc:
                out.write("".join(answers[start:index]))  # type: ignore[arg-type]
                out.flush()
                err.write(f"error: line {number + index + 1}: {exc}\n")
                answers[index] = ""
                start = index + 1
                bad = True
                continue
            answers[index] = found
            if len(memo) < MEMO_MAX:
                memo[line] = found
        out.write("".join(answers[start:]))  # type: ignore[arg-type]
        number += len(lines)
    return bad


def _plain_id(argv: Sequence[str]) -> tuple[list[str], str] | None:
    """``(ranks, rules)`` when ``argv`` is a plain ``id`` command line, else None."""
    if not argv or argv[0] != "id":
        return None
    ranks: list[str] = []
    rules = None
    args = iter(argv[1:])
    for arg in args:
        if arg in ("--rules", "-r") and rules is None:
            rules = next(args, None)
            if rules is None:
                return None
        elif arg.startswith("--rules=") and rules is None:
            rules = arg.removeprefix("--rules=")
        elif arg.startswith("-") and arg != "-":
            return None
        else:
            ranks.append(arg)
    if not ranks:
        return None
    return ranks, rules or "chess960"


def run_id(ranks: Sequence[str], rules: str) -> int:
    """``chess960 id`` without Typer; returns the exit code."""
    from solver.catalogue import Family
    from solver.errors import Chess960Error

    try:
        try:
            family = Family.load(rules)
            bad = identify_all(family, ranks, sys.stdin, sys.stdout, sys.stderr)
            sys.stdout.flush()
        except Chess960Error as exc:
            sys.stdout.flush()
            sys.stderr.write(f"error: {exc}\n")
            return 1
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130
    except BrokenPipeError:
        # The reader has gone: stop quietly, and keep Python from complaining
        # about the output it can no longer flush at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return 1 if bad else 0


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C: stop at once with exit code 130 and no traceback, workers included.

    Exiting from the handler itself cannot be lost, whereas a
    KeyboardInterrupt that happens to be raised inside a finaliser is
    swallowed and the work would go on.
    """
    csp = sys.modules.get("solver.csp")
    if csp is not None:
        csp.stop_workers()
    try:
        sys.stderr.write("\n")
        sys.stderr.flush()
    finally:
        os._exit(130)


def main() -> None:
    """Console-script entry point: the plain ``id`` form here, the rest in Typer."""
    signal.signal(signal.SIGINT, _interrupted)
    plain = _plain_id(sys.argv[1:])
    if plain is not None:
        raise SystemExit(run_id(*plain))
    from solver.cli import main as typer_main

    typer_main()
