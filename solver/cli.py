"""The ``chess960`` command: a thin layer over the library.

Each command reads its arguments, makes library calls and prints. Library
errors (all :class:`ValueError` subclasses) become one ``error:`` line on
stderr and exit code 1. The solver is imported only by commands that solve.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, NoReturn

import typer

from solver import __version__
from solver.catalogue import Family, Position
from solver.errors import Chess960Error
from solver.model import MAX_ARRANGEMENTS
from solver.notation import format_rank

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Chess start positions as constraints: solve, number and prove Chess960 and its kin.",
)

RulesOption = Annotated[
    str,
    typer.Option("--rules", "-r", help="A bundled family (see `chess960 rules`) or a rule file."),
]
UnicodeOption = Annotated[bool, typer.Option("--unicode", "-u", help="Write glyphs, not letters.")]
MaxOption = Annotated[
    int,
    typer.Option("--max-arrangements", min=1,
                 help="Refuse to search families with more arrangements than this."),
]


def _fail(message: str) -> NoReturn:
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(1)


@contextmanager
def _errors() -> Iterator[None]:
    """Turn library errors into one ``error:`` line, Ctrl-C into exit 130."""
    try:
        yield
    except Chess960Error as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        raise typer.Exit(130) from None
    except BrokenPipeError:
        sys.stderr.close()
        raise typer.Exit(0) from None


def _family(rules: str, max_arrangements: int = MAX_ARRANGEMENTS) -> Family:
    with _errors():
        return Family.load(rules, max_arrangements)
    raise AssertionError("unreachable")  # pragma: no cover


def _position_text(family: Family, position: Position, unicode: bool) -> str:
    white = format_rank(position.white, unicode)
    if not family.independent:
        return white
    return f"{white} {format_rank(position.black, unicode, black=True)}"


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"chess960 {__version__}\n")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Chess start positions as constraints: solve, number and prove them."""


@app.command()
def solve(
    count: Annotated[
        bool, typer.Option("--count", help="Print only the number of positions.")
    ] = False,
    rules: RulesOption = "chess960",
    unicode: UnicodeOption = False,
    max_arrangements: MaxOption = MAX_ARRANGEMENTS,
) -> None:
    """Every start position in canonical order, one `<id> <rank>` line each."""
    from solver.progress import SolveProgress

    family = _family(rules, max_arrangements)
    with _errors(), SolveProgress(family) as progress:
        if count:
            sys.stdout.write(f"{family.solved_count(progress)}\n")
            return
        out = sys.stdout
        for position in family.positions(progress):
            out.write(f"{position.id} {_position_text(family, position, unicode)}\n")


@app.command("id")
def id_(
    ranks: Annotated[list[str], typer.Argument(
        help="Ranks in letters or glyphs (QNRBBNKR, ♕♘♖♗♗♘♔♖); `-` reads one per line from stdin.",
        show_default=False)],
    rules: RulesOption = "chess960",
) -> None:
    """The ID of each rank, one per line."""
    from solver.entry import identify_all

    family = _family(rules)
    with _errors():
        bad = identify_all(family, ranks, sys.stdin, sys.stdout, sys.stderr)
    if bad:
        raise typer.Exit(1)


@app.command()
def position(
    ids: Annotated[list[str], typer.Argument(help="Position IDs.", show_default=False)],
    rules: RulesOption = "chess960",
    unicode: UnicodeOption = False,
) -> None:
    """The rank of each ID, one per line."""
    family = _family(rules)
    bad = False
    with _errors():
        for text in ids:
            try:
                found = family.position(family.parse_id(text))
            except Chess960Error as exc:
                sys.stdout.flush()
                sys.stderr.write(f"error: {exc}\n")
                bad = True
                continue
            sys.stdout.write(f"{_position_text(family, found, unicode)}\n")
    if bad:
        raise typer.Exit(1)


@app.command()
def check(
    rules: RulesOption = "chess960",
    all_: Annotated[bool, typer.Option("--all", help="Check every bundled family.")] = False,
    max_arrangements: MaxOption = MAX_ARRANGEMENTS,
) -> None:
    """Prove that the solver, the numbering and the published formula agree."""
    from solver.check import check as prove
    from solver.rules import bundled_names

    names = bundled_names() if all_ else [rules]
    failed = []
    for name in names:
        family = _family(name, max_arrangements)
        with _errors():
            report = prove(family)
        sys.stdout.write(f"{report.family}: {report.title}\n")
        for claim in report.claims:
            mark = "ok  " if claim.ok else "FAIL"
            detail = f": {claim.detail}" if claim.detail else ""
            sys.stdout.write(f"  {mark} {claim.text}{detail}\n")
        verdict = "proven" if report.ok else "NOT proven"
        sys.stdout.write(
            f"  {report.found:,} positions, {report.numbering} numbering, "
            f"{verdict} in {report.seconds:.2f} s\n"
        )
        if not report.ok:
            failed.append(report.family)
    if failed:
        _fail(f"check failed for {', '.join(failed)}")


@app.command("rules")
def rules_() -> None:
    """List the bundled families: name, title, files, count, numbering."""
    from solver.rules import bundled_names, load

    rows = []
    with _errors():
        for name in bundled_names():
            rs = load(name)
            rows.append((rs.name, rs.title, str(rs.files), f"{rs.count:,}", rs.numbering))
    header = ("name", "title", "files", "count", "numbering")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = [c.ljust(w) if i < 2 or i == 4 else c.rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        sys.stdout.write("  ".join(cells).rstrip() + "\n")


def main() -> None:
    """Console-script entry point."""
    app()
