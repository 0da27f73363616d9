"""The ``chess960`` command: a thin layer over the library.

Each command reads its arguments, makes library calls and prints. Library
errors (all :class:`ValueError` subclasses) become one ``error:`` line on
stderr and exit code 1. The solver is imported only by commands that solve.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Annotated, NoReturn

import typer

from solver import __version__
from solver.catalogue import Family, Position
from solver.errors import Chess960Error
from solver.model import MAX_ARRANGEMENTS
from solver.output import Format, TextStyle

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
FormatOption = Annotated[
    Format,
    typer.Option("--format", "-f",
                 help="text (the default), json, csv, fen or shredder (full FENs), pgn (tags)."),
]
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


def _write(
    family: Family, positions: Iterable[Position], fmt: str, text: TextStyle, unicode: bool
) -> None:
    from solver.output import PositionWriter

    with PositionWriter(sys.stdout, family, fmt, text=text, unicode=unicode) as writer:
        for found in positions:
            writer.write(found)


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
    fmt: FormatOption = "text",
) -> None:
    """Every start position in canonical order, one `<id> <rank>` line each."""
    from solver.progress import SolveProgress

    family = _family(rules, max_arrangements)
    with _errors(), SolveProgress(family) as progress:
        if count:
            sys.stdout.write(f"{family.solved_count(progress)}\n")
            return
        _write(family, family.positions(progress), fmt, "id-rank", unicode)


@app.command("id")
def id_(
    ranks: Annotated[list[str], typer.Argument(
        help="Ranks in letters or glyphs (QNRBBNKR, ♕♘♖♗♗♘♔♖) or full FENs; "
             "`-` reads one per line from stdin.",
        show_default=False)],
    rules: RulesOption = "chess960",
    fmt: FormatOption = "text",
) -> None:
    """The ID of each rank or start FEN, one per line."""
    from solver.entry import identify_all

    family = _family(rules)
    with _errors():
        if fmt == "text":
            bad = identify_all(family, ranks, sys.stdin, sys.stdout, sys.stderr)
        else:
            bad = _identify_formatted(family, ranks, fmt)
    if bad:
        raise typer.Exit(1)


def _identify_formatted(family: Family, ranks: list[str], fmt: str) -> bool:
    """``id`` with ``--format`` other than text: one record per good input."""
    from solver.output import PositionWriter

    bad = False
    with PositionWriter(sys.stdout, family, fmt, text="id") as writer:
        for text, where in _inputs(ranks):
            try:
                writer.write(family.identify(text))
            except Chess960Error as exc:
                sys.stdout.flush()
                sys.stderr.write(f"error: {where}{exc}\n")
                bad = True
    return bad


def _inputs(ranks: list[str]) -> Iterator[tuple[str, str]]:
    """Each input text with its place for messages (``-`` expands to stdin's lines)."""
    for text in ranks:
        if text != "-":
            yield text, ""
            continue
        for number, line in enumerate(sys.stdin, 1):
            if line.strip():
                yield line.rstrip("\r\n"), f"line {number}: "


@app.command()
def position(
    ctx: typer.Context,
    ids: Annotated[list[str] | None, typer.Argument(help="Position IDs.", show_default=False)]
    = None,
    rules: RulesOption = "chess960",
    unicode: UnicodeOption = False,
    fmt: FormatOption = "text",
    white: Annotated[str | None, typer.Option(
        "--white", help="White's ID, for families with independent sides (with --black).",
        show_default=False)] = None,
    black: Annotated[str | None, typer.Option(
        "--black", help="Black's ID, for families with independent sides (with --white).",
        show_default=False)] = None,
) -> None:
    """The rank of each ID, one per line (`--format fen` for full FENs)."""
    from solver.output import PositionWriter

    if (white is None) != (black is None):
        ctx.fail("--white and --black go together")
    if white is not None and ids:
        ctx.fail("give position IDs or --white and --black, not both")
    if white is None and not ids:
        ctx.fail("missing position IDs (or --white and --black)")
    family = _family(rules)
    bad = False
    with _errors():
        writer = PositionWriter(sys.stdout, family, fmt, text="rank", unicode=unicode)
        if white is not None and black is not None:
            writer.write(family.pair(white, black))
        for text in ids or []:
            try:
                found = family.position(family.parse_id(text))
            except Chess960Error as exc:
                sys.stdout.flush()
                sys.stderr.write(f"error: {exc}\n")
                bad = True
                continue
            writer.write(found)
        writer.close()
    if bad:
        raise typer.Exit(1)


@app.command("random")
def random_(
    count: Annotated[int, typer.Option("-n", "--count", min=1, help="How many to draw.")] = 1,
    distinct: Annotated[
        bool, typer.Option("--distinct", help="Never draw the same position twice.")
    ] = False,
    exclude: Annotated[list[str] | None, typer.Option(
        "--exclude", "-x", help="IDs to leave out, comma-separated (518,534 for Chess959).",
        show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, help="Draw reproducibly from this seed (default: OS randomness).",
        show_default=False)] = None,
    rules: RulesOption = "chess960",
    unicode: UnicodeOption = False,
    fmt: FormatOption = "text",
) -> None:
    """Uniformly drawn start positions, one `<id> <rank>` line each."""
    from solver.draw import draw

    family = _family(rules)
    with _errors():
        left_out = [family.parse_id(part) for item in exclude or []
                    for part in item.split(",") if part.strip()]
        drawn = draw(family, count, seed=seed, distinct=distinct, exclude=left_out)
        _write(family, drawn, fmt, "id-rank", unicode)


@app.command()
def show(
    position_: Annotated[str, typer.Argument(
        metavar="ID|RANK", help="A position ID, a rank (pair of ranks) or a start FEN.",
        show_default=False)],
    rules: RulesOption = "chess960",
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE", help="Also write the diagram as an SVG file.",
        show_default=False)] = None,
    letters: Annotated[bool, typer.Option(
        "--letters", "-l", help="Draw piece letters, not glyphs.")] = False,
) -> None:
    """Draw a start position's board in the terminal (and as SVG)."""
    from rich.console import Console

    from solver.show import board_text, write_svg

    family = _family(rules)
    with _errors():
        found = family.read(position_)
        if svg is not None:
            write_svg(svg, family, found)
        console = Console(highlight=False)
        console.print(board_text(family, found, letters, console.color_system is not None),
                      soft_wrap=True)


@app.command()
def check(
    rules: RulesOption = "chess960",
    all_: Annotated[bool, typer.Option("--all", help="Check every bundled family.")] = False,
    max_arrangements: MaxOption = MAX_ARRANGEMENTS,
) -> None:
    """Prove that the solver, the numbering and the published formula agree.

    The report goes to stdout; the time each family took, to stderr.
    """
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
        sys.stdout.write(f"  {report.found:,} positions, {report.numbering} numbering, {verdict}\n")
        sys.stdout.flush()
        # The time goes to stderr so that stdout is the same bytes on every run.
        sys.stderr.write(f"{report.family}: checked in {report.seconds:.2f} s\n")
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
