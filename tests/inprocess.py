"""``chess960 ARGS`` run in the test's own process, answered as a process's run.

Starting the installed command costs a Python start-up and the package's
imports (a third of a second of CPU); a test where the process itself is not
the point (its exit code on a signal, a closed pipe, start-up, what a fresh
interpreter imports) runs the command line here instead, through the console
script's own :func:`solver.cli.entry.dispatch` (the quick path and Typer as the
command runs them), on standard streams of its own, in ``cwd`` and with
``env``'s variables set for the run. The answer has the fields of
:func:`subprocess.run`'s, so a test written for a process reads it unchanged.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from typer.testing import CliRunner

from solver.cli.entry import dispatch

_RUNNER = CliRunner()


def chess960(args: Sequence[str], *, stdin: str | bytes | None = None,
             cwd: Path | str | None = None,
             env: Mapping[str, str | None] | None = None) -> subprocess.CompletedProcess[str]:
    """What ``chess960 ARGS`` prints and returns, run in this process (an
    exception other than ``SystemExit`` is the test's failure, not an answer)."""
    here = os.getcwd()
    with _RUNNER.isolation(input=stdin, env=env) as streams:
        try:
            if cwd is not None:
                os.chdir(cwd)
            try:
                code = dispatch(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            os.chdir(here)
            sys.stdout.flush()
            sys.stderr.flush()
        out, err = (stream.getvalue().decode("utf-8") for stream in streams[:2])
    return subprocess.CompletedProcess(["chess960", *args], code, out, err)
