"""The ``chess960`` command: a thin layer over the library.

Each command reads its arguments, makes library calls and prints. Library
errors (all :class:`~solver.errors.Chess960Error` subclasses) become one
``error:`` line on stderr and exit code 1; usage errors (an unknown option, a
bad or missing value) one ``error:`` line and exit code 2 (:func:`run`); both
through :mod:`solver.cli.errors`, as on the fast path. Help is plain
text (``-h`` or ``--help``), with examples. The solver is imported only by
commands that solve.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any, TextIO

import typer

from solver import __version__
from solver.cli.commands import (
    check_command,
    identify_command,
    plan_command,
    position_command,
    random_command,
    rules_command,
    show_command,
    solve_command,
)
from solver.cli.errors import FAILED, USAGE, failed, report
from solver.cli.inputs import load_family, stdin_bytes
from solver.errors import Chess960Error
from solver.family import Family
from solver.notation.dialects import DIALECTS, VARIANTS
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
def _dialect(value: str) -> str:
    if value not in DIALECTS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(DIALECTS)}")
    return value


def _variant(value: str | None) -> str | None:
    if value is not None and value not in VARIANTS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(VARIANTS)}")
    return value


DialectOption = Annotated[
    str,
    typer.Option("--dialect", metavar="|".join(DIALECTS), callback=_dialect,
                 help="How FENs are written (fen, epd, pgn): xfen (default), shredder, or "
                      "the start FENs of lichess/python-chess, Fairy-Stockfish, pychess-variants."),
]
VariantOption = Annotated[
    str | None,
    typer.Option("--variant", show_default=False, callback=_variant,
                 metavar="|".join(VARIANTS),
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


@contextmanager
def _errors() -> Iterator[None]:
    """Turn library errors into one ``error:`` line, Ctrl-C into exit 130
    (:func:`solver.cli.errors.failed`)."""
    try:
        yield
    except (Chess960Error, KeyboardInterrupt) as exc:
        raise typer.Exit(failed(sys.stdout, sys.stderr, exc)) from None


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
    help="Draw reproducibly from this seed phrase, such as \"Freestyle Open 2026, round 3\" "
         "(an integer is its digits; SHA-256, see the README) (default: OS randomness).",
    show_default=False)]
ExcludeOption = Annotated[list[str] | None, typer.Option(
    "--exclude", "-x", metavar="IDS",
    help="IDs to leave out, comma-separated (518,534 for Chess959).",
    show_default=False)]


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


@app.command("plan", epilog=_examples(
    "chess960 plan --rounds 3 --seed 'Freestyle Open 2026' --exclude-mirrors",
    "chess960 plan --rounds 4 --rules dfrc --format csv",
    "chess960 plan --rounds 2 --seed 7 --svg-dir ."))
def plan_(
    rounds: Annotated[int, typer.Option("--rounds", min=1, metavar="N",
                                        help="How many rounds.")],
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
    from solver.output.plan import PLAN_FORMATS

    if table not in PLAN_FORMATS:
        raise typer.BadParameter(f"{table!r} is not one of {', '.join(PLAN_FORMATS)}",
                                 param_hint="'--format'")
    code = plan_command(rules, rounds, seed=seed, exclude=exclude or [], mirrors=mirrors,
                        table=table, svg_dir=svg_dir, dialect=dialect, variant=variant,
                        out=sys.stdout, err=sys.stderr)
    if code:
        raise typer.Exit(code)


@app.command(epilog=_examples(
    "chess960 solve --format epd | chess960 lint",
    "chess960 random -n 4 --format fen --dialect shredder | chess960 lint --fix xfen",
    "chess960 position 105 --format fen --variant crazyhouse | chess960 lint --variant crazyhouse"))
def lint(
    files: Annotated[list[str] | None, typer.Argument(
        metavar="FILE|-", help="FEN, EPD or PGN files; `-` (the default) reads stdin.",
        show_default=False)] = None,
    fix: Annotated[str | None, typer.Option(
        "--fix", metavar="xfen|shredder",
        help="Rewrite each castling field in this notation, nothing else (files are replaced "
             "atomically; stdin is written to stdout).", show_default=False)] = None,
    dialect: Annotated[str | None, typer.Option(
        "--dialect", metavar="|".join(n for n, d in DIALECTS.items() if not d.plain),
        help="With --fix: the letters in this program's order (pychess: a-side first); "
             "with --variant: the program whose FENs are read (any --dialect of position).",
        show_default=False)] = None,
    variant: Annotated[str | None, typer.Option(
        "--variant", metavar="|".join(VARIANTS),
        help="Read each line as this game's start FEN as --dialect writes it (pieces in "
             "hand, 3+3, horde's board, antichess's and Seirawan's castling fields).",
        show_default=False)] = None,
    rules: Annotated[str | None, typer.Option(
        "--rules", "-r", metavar="NAME|FILE",
        help="Also check that each start position is in this family.",
        show_default=False)] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="Skipped lines only counted in the summary line.")] = False,
    verbose: Annotated[bool, typer.Option(
        "--verbose", help="Name every skipped line and why (default: a count per reason "
                          "and the first few line numbers).")] = False,
) -> None:
    """Check every start position's castling field; exit 1 if any is wrong or mixed,
    or if a file holds no position to check."""
    from solver.notation.lint import FIX_DIALECTS, NOTATIONS, Finding, lint_path

    if fix is not None and fix not in NOTATIONS:
        raise typer.BadParameter(f"{fix!r} is not one of {', '.join(NOTATIONS)}",
                                 param_hint="'--fix'")
    allowed = tuple(DIALECTS) if variant is not None else FIX_DIALECTS
    if dialect is not None and dialect not in allowed:
        raise typer.BadParameter(f"{dialect!r} is not one of {', '.join(allowed)}",
                                 param_hint="'--dialect'")
    if variant is not None and variant not in VARIANTS:
        raise typer.BadParameter(f"{variant!r} is not one of {', '.join(VARIANTS)}",
                                 param_hint="'--variant'")
    family = _family(rules) if rules is not None else None
    bad = False
    report_to = sys.stderr if fix is not None and "-" in (files or ["-"]) else sys.stdout
    with _errors():
        for path in files or ["-"]:
            def emit(finding: Finding, path: str = path) -> None:
                where = f":{finding.line}" if finding.line else ""
                _write_line(report_to, f"{path}{where}: {finding.message}")

            try:
                linted = lint_path(path, fix, dialect, None, variant, family, verbose, emit)
            except Chess960Error as exc:
                report(sys.stdout, sys.stderr, exc)
                bad = True
                continue
            for line in linted.lines(quiet):
                _write_line(report_to, line)
            bad |= (linted.problems > 0 and fix is None) or linted.checked == 0
    if bad:
        raise typer.Exit(FAILED)


def _write_line(stream: TextIO, line: str) -> None:
    """``line`` and a line break, with what ``stream``'s encoding cannot show escaped."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    stream.write(f"{line}\n".encode(encoding, "backslashreplace").decode(encoding))


@app.command(epilog=_examples("chess960 show 518", "chess960 show QNRBBNKR --letters",
                              "chess960 show 105 --svg board.svg",
                              "chess960 show 105 --svg - > b.svg",
                              "chess960 random | chess960 show -"))
def show(
    position_: Annotated[str, typer.Argument(
        metavar="ID|RANK|-", help="A position ID, a rank (pair of ranks), a start FEN, or "
        "an `<id> <rank>` line as `random` and `solve` write (the id must match); "
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
    code = check_command(rules, all_, max_arrangements, out=sys.stdout, err=sys.stderr)
    if code:
        raise typer.Exit(code)


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
    """What a usage error (a Click exception) says, for its ``error:`` line."""
    message = " ".join(str(getattr(exc, "format_message", exc.__str__)()).split())
    message = (message[:1].lower() + message[1:]).rstrip(".")
    # the reason after "invalid value for '-n': " starts lower case like the rest
    # (Typer's own reasons, such as pydantic's "Input should be ...", do not)
    head, colon, reason = message.partition("': ")
    if colon and reason[:1].isupper() and reason[1:2].islower():
        message = f"{head}{colon}{reason[:1].lower()}{reason[1:]}"
    context = getattr(exc, "ctx", None)
    path = getattr(context, "command_path", None) or "chess960"
    return f"{message} (see '{path} --help')"


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
        report(sys.stdout, sys.stderr, usage_error(exc))
        return int(getattr(exc, "exit_code", USAGE))
    except abort:
        report(sys.stdout, sys.stderr, "aborted")
        return FAILED
    return code if isinstance(code, int) else 0


from solver.cli.games import games_app  # noqa: E402  (the `games` commands, in their own module)

app.add_typer(games_app, name="games")
