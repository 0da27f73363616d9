"""The consistency matrix's machinery (:mod:`test_matrix`): the command line in
this process, what each family admits, and reading what a command wrote.

Every list here comes from a registry, so that a new family, format, dialect,
variant or numbering is in the matrix without a change to the tests:

* families: the bundled rule files (:func:`solver.ruleset.reader.bundled_names`);
* formats: :data:`solver.output.FORMATS` (``solve``, ``position``, ``random``),
  :data:`solver.lists.book.BOOK_FORMATS`, :data:`solver.output.plan.PLAN_FORMATS`;
* dialects and variants: :data:`solver.notation.dialects.DIALECTS` and
  :data:`~solver.notation.dialects.VARIANTS` (``None``: the family's own game);
* numberings: :attr:`solver.family.Family.schemes`.

The commands run through Typer's own command (built once: building it is most
of a call's time), in this process; the same calls through the installed
``chess960`` command (its start-up fast path included) are a sample in
:mod:`test_matrix`.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import typer.main
from typer.testing import CliRunner

from solver import Family
from solver.cli.app import app
from solver.lists.book import BOOK_FORMATS
from solver.notation.dialects import DIALECTS, VARIANTS
from solver.output import FORMATS
from solver.output.plan import PLAN_FORMATS

__all__ = ["BOOK_FORMATS", "DIALECTS", "FORMATS", "PLAN_FORMATS", "STYLES", "VARIANTS",
           "Combo", "Known", "cli", "cli_process", "family", "items", "labels", "sample_ids"]

#: Every (variant, dialect) pair; a variant of ``None`` is the family's own game.
STYLES: list[tuple[str | None, str]] = [(variant, dialect)
                                        for variant in [None, *VARIANTS]
                                        for dialect in DIALECTS]

_COMMAND = typer.main.get_command(app)
_RUNNER = CliRunner()


@cache
def cli(*args: str, stdin: str | None = None) -> tuple[str, str, int]:
    """``chess960 ARGS`` in this process: stdout, stderr and the exit code (a
    traceback is on stderr, exit 99: no test takes it for an answer).
    Answers are kept: the matrix's readers ask for the same writing often."""
    with _RUNNER.isolation(input=stdin) as streams:
        code: Any = 0
        try:
            _COMMAND.main(args=list(args), prog_name="chess960")
        except SystemExit as exc:
            code = exc.code or 0
        except Exception as exc:
            import traceback

            sys.stderr.write("".join(traceback.format_exception(exc)))
            code = 99
        sys.stdout.flush()
        sys.stderr.flush()
        return (streams[0].getvalue().decode("utf-8"), streams[1].getvalue().decode("utf-8"),
                int(code))


def cli_process(*args: str, stdin: str | None = None) -> tuple[str, str, int]:
    """``chess960 ARGS`` as a process: the installed command (the one beside this
    Python), or ``python -m solver`` where it is not installed."""
    beside = Path(sys.executable).with_name("chess960")
    found = str(beside) if beside.exists() else shutil.which("chess960")
    command = [found] if found else [sys.executable, "-m", "solver"]
    done = subprocess.run([*command, *args], input=stdin, capture_output=True, text=True,
                          encoding="utf-8", timeout=120, check=False)
    return done.stdout, done.stderr, done.returncode


@cache
def family(name: str) -> Family:
    return Family.load(name)


def sample_ids(name: str) -> list[int]:
    """A few of the family's own ids: both ends, the middle and two inside."""
    count = family(name).count
    picked = [0, count - 1, count // 2, count * 7 // 11, 518 % count]
    return list(dict.fromkeys(picked))


def labels(name: str, ids: list[int], numbering: str | None) -> list[str]:
    """The ids as the numbering ``numbering`` writes them (``None``: the family's own)."""
    scheme = family(name).scheme(numbering)
    return [scheme.text(i) for i in ids]


_FEN_TAG = re.compile(r'^\[FEN "(.*)"\]$', re.MULTILINE)


def items(fmt: str, text: str) -> list[list[str]]:
    """Each position a document of format ``fmt`` holds, as the texts a reader
    takes (a rank line, a FEN, an EPD line; JSON and CSV: the FEN and the
    Shredder-FEN)."""
    if fmt == "pgn":
        return [[fen] for fen in _FEN_TAG.findall(text)]
    if fmt == "json":
        return [[record["fen"], record["shredder_fen"]] for record in json.loads(text)]
    if fmt == "csv":
        return [[row["fen"], row["shredder_fen"]] for row in csv.DictReader(io.StringIO(text))]
    return [[line] for line in text.splitlines() if line]


def record_ids(fmt: str, text: str) -> list[str] | None:
    """The ids a document states for its positions (``None``: the format states none)."""
    if fmt == "json":
        return [str(record["id"]) for record in json.loads(text)]
    if fmt == "csv":
        return [row["id"] for row in csv.DictReader(io.StringIO(text))]
    if fmt == "epd":
        return [re.sub(r'^.* id "(.*)";$', r"\1", line) for line in text.splitlines()]
    return None


@dataclass(frozen=True)
class Combo:
    """One cell of the matrix: a command writing a family's positions."""

    command: str
    family: str
    fmt: str
    dialect: str = "xfen"
    variant: str | None = None
    numbering: str | None = None

    def style_args(self) -> list[str]:
        args = ["--dialect", self.dialect]
        if self.variant is not None:
            args += ["--variant", self.variant]
        return args

    def numbering_args(self) -> list[str]:
        return [] if self.numbering is None else ["--numbering", self.numbering]

    def __str__(self) -> str:
        parts = [self.command, f"-r {self.family}", f"-f {self.fmt}", f"--dialect {self.dialect}"]
        if self.variant is not None:
            parts.append(f"--variant {self.variant}")
        if self.numbering is not None:
            parts.append(f"--numbering {self.numbering}")
        return " ".join(parts)


@dataclass(frozen=True)
class Known:
    """A known failure of another area's code: the cells it covers (every key
    of ``match`` names a :class:`Combo` field and the values it fails for) and the bug."""

    check: str
    family: str
    reason: str
    match: Mapping[str, frozenset[Any]] = field(default_factory=dict)

    def covers(self, combo: Combo) -> bool:
        return all(getattr(combo, key) in values for key, values in self.match.items())


def split(cells: list[Combo], known: list[Known], part: str) -> Iterator[Combo]:
    """The cells of one part of a test: ``"known"`` the cells a known failure
    covers, ``"rest"`` every other."""
    for cell in cells:
        if any(k.covers(cell) for k in known) == (part == "known"):
            yield cell
