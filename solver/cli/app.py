"""The ``chess960`` command: a thin layer over the library.

Each command reads its arguments, makes library calls and prints. Library
errors (all :class:`ValueError` subclasses) become one ``error:`` line on
stderr and exit code 1; usage errors (an unknown option, a bad or missing
value) one ``error:`` line and exit code 2 (:func:`run`). Help is plain
text (``-h`` or ``--help``), with examples. The solver is imported only by
commands that solve.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any, NoReturn

import typer

from solver import __version__
from solver.cli.commands import (
    identify_command,
    position_command,
    random_command,
    rules_command,
    show_command,
    solve_command,
)
from solver.cli.inputs import load_family, stdin_bytes
from solver.errors import Chess960Error
from solver.family import Family
from solver.output import FORMATS, PositionWriter, format_help
from solver.search.model import MAX_ARRANGEMENTS

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Chess start positions as constraints: solve, number and prove Chess960 and its kin.",
)

RulesOption = Annotated[
    str,
    typer.Option("--rules", "-r", metavar="NAME|FILE",
                 help="A bundled family (see `chess960 rules`) or a rule file."),
]
UnicodeOption = Annotated[bool, typer.Option("--unicode", "-u", help="Write glyphs, not letters.")]


def _format(value: str) -> str:
    if value not in FORMATS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(FORMATS)}")
    return value


FormatOption = Annotated[
    str,
    typer.Option("--format", "-f", callback=_format, metavar="|".join(FORMATS),
                 help=f"Output format. {format_help()}."),
]
DialectOption = Annotated[
    str,
    typer.Option("--dialect", metavar="xfen|shredder|lichess|fsf|pychess",
                 help="How FENs are written (fen, epd, pgn): xfen (default), shredder, or "
                      "the start FENs of lichess/python-chess, Fairy-Stockfish, pychess-variants."),
]
VariantOption = Annotated[
    str | None,
    typer.Option("--variant", show_default=False,
                 metavar="chess|crazyhouse|bughouse|atomic|kingofthehill|3check|antichess|"
                         "horde|seirawan|capablanca",
                 help="The game played from the positions (fen, epd, pgn); "
                      "default from the family."),
]
MaxOption = Annotated[
    int,
    typer.Option("--max-arrangements", min=1, metavar="N",
                 help="Refuse to search families with more arrangements than this."),
]


def _max_states(value: int | None) -> int | None:
    if value is not None:
        from solver.numbering.budget import set_max_states

        set_max_states(value)
    return value


MaxStatesOption = Annotated[
    int | None,
    typer.Option("--max-states", min=1, metavar="N", callback=_max_states, show_default=False,
                 help="Refuse to count or number by counting families that need more "
                      "counting states than this (default 1,000,000)."),
]


def _examples(*lines: str) -> str:
    """A help epilog listing example command lines (kept as written)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


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


def _family(rules: str, max_arrangements: int = MAX_ARRANGEMENTS) -> Family:
    with _errors():
        return load_family(rules, max_arrangements)
    raise AssertionError("unreachable")  # pragma: no cover


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


@app.command(epilog=_examples("chess960 solve | head -3", "chess960 solve --count --rules dfrc",
                              "chess960 solve --format fen > chess960.fen"))
def solve(
    count: Annotated[
        bool, typer.Option("--count", help="Print only the number of positions.")
    ] = False,
    rules: RulesOption = "chess960",
    unicode: UnicodeOption = False,
    max_arrangements: MaxOption = MAX_ARRANGEMENTS,
    max_states: MaxStatesOption = None,
    fmt: FormatOption = "text",
    dialect: DialectOption = "xfen",
    variant: VariantOption = None,
) -> None:
    """Every start position in canonical order, one `<id> <rank>` line each."""
    code = solve_command(rules, count, fmt, unicode, dialect, variant, max_arrangements,
                         out=sys.stdout, err=sys.stderr)
    if code:
        raise typer.Exit(code)


@app.command("id", epilog=_examples(
    "chess960 id QNRBBNKR", "chess960 id 'RNBQKBNR rnbqkbnr' --rules dfrc",
    "chess960 solve | chess960 id -"))
def id_(
    ranks: Annotated[list[str], typer.Argument(
        metavar="RANK",
        help="Ranks in letters or glyphs (QNRBBNKR, ♕♘♖♗♗♘♔♖), full FENs, or the "
             "`<id> <rank>` lines `solve` writes (the id must match); `-` reads one per "
             "line from stdin and answers each line with one line, in order: a blank or "
             "bad line gets an `error:` line on stderr and an empty line on stdout.",
        show_default=False)],
    rules: RulesOption = "chess960",
    fmt: FormatOption = "text",
    dialect: DialectOption = "xfen",
    variant: VariantOption = None,
    max_states: MaxStatesOption = None,
) -> None:
    """The ID of each rank, start FEN or EPD line, one per line."""
    code = identify_command(rules, ranks, fmt, dialect, variant, stdin=stdin_bytes(),
                            out=sys.stdout, err=sys.stderr)
    if code:
        raise typer.Exit(code)


@app.command(epilog=_examples("chess960 position 518", "chess960 position 105 --format fen",
                              "seq 0 9 | chess960 position -"))
def position(
    ctx: typer.Context,
    ids: Annotated[list[str] | None, typer.Argument(
        metavar="ID", help="Position IDs; `-` reads one per line from stdin.",
        show_default=False)] = None,
    rules: RulesOption = "chess960",
    unicode: UnicodeOption = False,
    fmt: FormatOption = "text",
    white: Annotated[str | None, typer.Option(
        "--white", metavar="ID",
        help="White's ID, for families with independent sides (with --black).",
        show_default=False)] = None,
    black: Annotated[str | None, typer.Option(
        "--black", metavar="ID",
        help="Black's ID, for families with independent sides (with --white).",
        show_default=False)] = None,
    dialect: DialectOption = "xfen",
    variant: VariantOption = None,
    max_states: MaxStatesOption = None,
) -> None:
    """The rank of each ID, one per line (`--format fen` for full FENs)."""
    if (white is None) != (black is None):
        ctx.fail("--white and --black go together")
    if white is not None and ids:
        ctx.fail("give position IDs or --white and --black, not both")
    if white is None and not ids:
        ctx.fail("missing position IDs (or --white and --black)")
    if white is not None and black is not None:
        family = _family(rules)
        with _errors(), PositionWriter(sys.stdout, family, fmt, text="rank", unicode=unicode,
                                       dialect=dialect, variant=variant) as writer:
            writer.write(family.pair(white, black))
        return
    code = position_command(rules, ids or [], fmt, unicode, dialect, variant,
                            stdin=stdin_bytes(), out=sys.stdout, err=sys.stderr)
    if code:
        raise typer.Exit(code)


def _seed(value: str | None) -> str | None:
    from solver.sampling import seed_value

    if value is not None:
        try:
            seed_value(value)
        except Chess960Error as exc:
            raise typer.BadParameter(str(exc)) from None
    return value


SeedOption = Annotated[str | None, typer.Option(
    "--seed", metavar="TEXT", callback=_seed,
    help="Draw reproducibly from this seed: an integer, or any phrase such as "
         "\"Freestyle Open 2026, round 3\" (default: OS randomness).",
    show_default=False)]
ExcludeOption = Annotated[list[str] | None, typer.Option(
    "--exclude", "-x", metavar="IDS",
    help="IDs to leave out, comma-separated (518,534 for Chess959).",
    show_default=False)]


def _left_out(family: Family, exclude: list[str] | None) -> list[int]:
    return [family.parse_id(part) for item in exclude or []
            for part in item.split(",") if part.strip()]


@app.command("random", epilog=_examples("chess960 random", "chess960 random -n 8 --distinct",
                                        "chess960 random --seed 2026 --exclude 518",
                                        "chess960 random --seed 'Freestyle Open 2026, round 3'"))
def random_(
    count: Annotated[int, typer.Option(
        "-n", "--count", min=1, metavar="N", help="How many to draw.")] = 1,
    distinct: Annotated[
        bool, typer.Option("--distinct", help="Never draw the same position twice.")
    ] = False,
    exclude: ExcludeOption = None,
    seed: SeedOption = None,
    rules: RulesOption = "chess960",
    unicode: UnicodeOption = False,
    fmt: FormatOption = "text",
    dialect: DialectOption = "xfen",
    variant: VariantOption = None,
    max_states: MaxStatesOption = None,
) -> None:
    """Uniformly drawn start positions, one `<id> <rank>` line each (streamed)."""
    code = random_command(rules, count, distinct=distinct, exclude=exclude or [], seed=seed,
                          fmt=fmt, unicode=unicode, dialect=dialect, variant=variant,
                          out=sys.stdout, err=sys.stderr)
    if code:
        raise typer.Exit(code)


@app.command("plan")
def plan_(
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="How many rounds.")],
    seed: SeedOption = None,
    exclude: ExcludeOption = None,
    mirrors: Annotated[bool, typer.Option(
        "--exclude-mirrors", help="Never a position and its left-right mirror "
                                  "(nor the mirror of an excluded one).")] = False,
    rules: RulesOption = "chess960",
    table: Annotated[str, typer.Option(
        "--format", "-f", metavar="markdown|csv", help="The table's form.")] = "markdown",
    svg_dir: Annotated[str | None, typer.Option(
        "--svg-dir", metavar="DIR", help="Also write each round's board as DIR/round-N.svg.",
        show_default=False)] = None,
    dialect: DialectOption = "xfen",
    variant: VariantOption = None,
    max_states: MaxStatesOption = None,
) -> None:
    """A tournament plan: one start position a round, none twice, as a table."""
    from solver.output.plan import PLAN_FORMATS, plan_table
    from solver.sampling import plan

    if table not in PLAN_FORMATS:
        raise typer.BadParameter(f"{table!r} is not one of {', '.join(PLAN_FORMATS)}",
                                 param_hint="'--format'")
    family = _family(rules)
    with _errors():
        drawn = plan(family, rounds, seed=seed, exclude=_left_out(family, exclude),
                     mirrors=mirrors)
        pictures = None
        if svg_dir is not None:
            import os

            from solver.output.diagram import write_svg

            pictures = [os.path.join(svg_dir, f"round-{n}.svg") for n in range(1, rounds + 1)]
            for path, found in zip(pictures, drawn, strict=True):
                write_svg(path, family, found)
        sys.stdout.write(plan_table(family, drawn, table, dialect=dialect, variant=variant,
                                    pictures=pictures))


@app.command()
def lint(
    files: Annotated[list[str] | None, typer.Argument(
        metavar="[FILE|-]...", help="FEN, EPD or PGN files; `-` (the default) reads stdin.",
        show_default=False)] = None,
    fix: Annotated[str | None, typer.Option(
        "--fix", metavar="xfen|shredder",
        help="Rewrite each castling field in this notation, nothing else (files are replaced "
             "atomically; stdin is written to stdout).", show_default=False)] = None,
    dialect: Annotated[str | None, typer.Option(
        "--dialect", metavar="lichess|fsf|pychess",
        help="With --fix: the letters in this program's order (pychess: a-side first).",
        show_default=False)] = None,
) -> None:
    """Check every start position's castling field; exit 1 if any is wrong or mixed."""
    from solver.notation.lint import FIX_DIALECTS, NOTATIONS, lint_path

    if fix is not None and fix not in NOTATIONS:
        raise typer.BadParameter(f"{fix!r} is not one of {', '.join(NOTATIONS)}",
                                 param_hint="'--fix'")
    if dialect is not None and dialect not in FIX_DIALECTS:
        raise typer.BadParameter(f"{dialect!r} is not one of {', '.join(FIX_DIALECTS)}",
                                 param_hint="'--dialect'")
    bad = False
    report_to = sys.stderr if fix is not None and "-" in (files or ["-"]) else sys.stdout
    with _errors():
        for path in files or ["-"]:
            text = sys.stdin.read() if path == "-" else None
            try:
                report = lint_path(path, fix, dialect, text)
            except Chess960Error as exc:
                sys.stdout.flush()
                sys.stderr.write(f"error: {exc}\n")
                bad = True
                continue
            if path == "-" and report.fixed is not None:
                sys.stdout.write(report.fixed)
            for line in report.lines():
                report_to.write(f"{line}\n")
            bad |= report.problems > 0 and fix is None
    if bad:
        raise typer.Exit(1)


@app.command(epilog=_examples("chess960 show 518", "chess960 show QNRBBNKR --letters",
                              "chess960 show 105 --svg board.svg",
                              "chess960 show 105 --svg - > b.svg",
                              "chess960 random | chess960 show -"))
def show(
    position_: Annotated[str, typer.Argument(
        metavar="ID|RANK|-", help="A position ID, a rank (pair of ranks) or a start FEN; "
        "`-` reads one per line from stdin.",
        show_default=False)],
    rules: RulesOption = "chess960",
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE", help="Also write the diagram as an SVG file "
        "(`-`: to stdout, instead of the board).",
        show_default=False)] = None,
    letters: Annotated[bool, typer.Option(
        "--letters", "-l", help="Draw piece letters, not glyphs.")] = False,
) -> None:
    """Draw a start position's board in the terminal (and as SVG)."""
    code = show_command(rules, position_, svg, letters, stdin=stdin_bytes(), out=sys.stdout,
                        err=sys.stderr)
    if code:
        raise typer.Exit(code)


@app.command(epilog=_examples("chess960 check", "chess960 check --rules dfrc",
                              "chess960 check --all"))
def check(
    rules: RulesOption = "chess960",
    all_: Annotated[bool, typer.Option("--all", help="Check every bundled family.")] = False,
    max_arrangements: MaxOption = MAX_ARRANGEMENTS,
    max_states: MaxStatesOption = None,
) -> None:
    """Prove that the solver, the numbering and the published formula agree.

    The report goes to stdout; the time each family took, to stderr.
    """
    from solver.check import check as prove
    from solver.ruleset.reader import bundled_names

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


@app.command("rules", epilog=_examples("chess960 rules"))
def rules_() -> None:
    """List the bundled families: name, title, files, count, numbering."""
    code = rules_command(out=sys.stdout, err=sys.stderr)
    if code:
        raise typer.Exit(code)


def _click_class(name: str) -> type[Exception]:
    """Click's exception class ``name`` (Typer has vendored Click since 0.20)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


def usage_error(exc: Exception) -> str:
    """One ``error:`` line for a usage error (a Click exception)."""
    message = " ".join(str(getattr(exc, "format_message", exc.__str__)()).split())
    message = (message[:1].lower() + message[1:]).rstrip(".")
    context = getattr(exc, "ctx", None)
    path = getattr(context, "command_path", None) or "chess960"
    return f"error: {message} (see '{path} --help')"


def _plain_help(command: Any) -> Any:
    """``command`` with its arguments' help naming them by metavar alone, as
    Click does (recent Typer adds types such as ``<list[str]>``)."""
    for sub in [command, *getattr(command, "commands", {}).values()]:
        for param in sub.params:
            if getattr(param, "param_type_name", "") == "argument" and param.metavar:
                param.display_type_rich = lambda ctx: None
    return command


def run(argv: Sequence[str]) -> int:
    """Run the command line ``argv``; returns the exit code.

    Usage errors are one ``error:`` line on stderr and exit code 2.
    """
    command = _plain_help(typer.main.get_command(app))
    click_exception = _click_class("ClickException")
    abort = typer.Abort
    try:
        code = command.main(args=list(argv), prog_name="chess960", standalone_mode=False)
    except click_exception as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # plain `chess960`: the help
            context = getattr(exc, "ctx", None)
            if context is not None:
                sys.stdout.write(context.get_help() + "\n")
                return 0
        sys.stdout.flush()
        sys.stderr.write(usage_error(exc) + "\n")
        return int(getattr(exc, "exit_code", 2))
    except abort:
        sys.stderr.write("error: aborted\n")
        return 1
    return code if isinstance(code, int) else 0


def main() -> None:
    """Console-script entry point (see :mod:`solver.cli.entry` for the installed one)."""
    raise SystemExit(run(sys.argv[1:]))
