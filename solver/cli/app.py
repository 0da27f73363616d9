"""The ``chess960`` command: a thin layer over the library.

Each command is declared here once, and only here: its body is a call of the
function of the same name in :mod:`solver.cli.bodies` with the command's
parameters (the common ones; the quick path of :mod:`solver.cli.quick` calls
the same function, parsing with a table made from this module's declarations
by ``python tests/make_quick_table.py``). Each command reads its arguments, makes library calls
and prints. Library
errors (all :class:`~solver.errors.Chess960Error` subclasses) become one
``error:`` line on stderr and exit code 1; usage errors (an unknown option, a
bad or missing value) one ``error:`` line and exit code 2 (:func:`run`); both
through :mod:`solver.cli.errors`, as on the quick path. Help is plain
text (``-h`` or ``--help``), with examples. The solver is imported only by
commands that solve.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from solver import __version__
from solver.cli import bodies
from solver.cli.bodies import MAX_ARRANGEMENTS
from solver.cli.errors import FAILED, USAGE, report
from solver.notation.dialects import DIALECTS, VARIANTS
from solver.output import FORMATS, format_help

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


FormatOption = Annotated[
    str,
    typer.Option("--format", "-f", callback=bodies.check_format, metavar="|".join(FORMATS),
                 help=f"Output format. {format_help()}."),
]
DialectOption = Annotated[
    str,
    typer.Option("--dialect", metavar="|".join(DIALECTS), callback=bodies.check_dialect,
                 help="How FENs are written (fen, epd, pgn): xfen (default), shredder, or "
                      "the start FENs of lichess/python-chess, Fairy-Stockfish, pychess-variants."),
]
VariantOption = Annotated[
    str | None,
    typer.Option("--variant", show_default=False, callback=bodies.check_variant,
                 metavar="|".join(VARIANTS),
                 help="The game played from the positions (fen, epd, pgn); "
                      "default from the family."),
]
MaxOption = Annotated[
    int,
    typer.Option("--max-arrangements", min=1, metavar="N",
                 help="Refuse to search families with more arrangements than this."),
]


MaxStatesOption = Annotated[
    int | None,
    typer.Option("--max-states", min=1, metavar="N", callback=bodies.set_max_states,
                 show_default=False,
                 help="Refuse to count or number by counting families that need more "
                      "counting states than this (default 1,000,000)."),
]


def _examples(*lines: str) -> str:
    """A help epilog listing example command lines (kept as written)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


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


NumberingOption = Annotated[str | None, typer.Option(
    "--numbering", metavar="NAME",
    help="Write and read position numbers in this numbering of the family (scidb, xboard, "
         "tcec, black-major, ...: `chess960 rules --numberings`) (default: the family's own).",
    show_default=False)]


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
    numbering: NumberingOption = None,
) -> None:
    """Every start position in canonical order, one `<id> <rank>` line each."""
    bodies.typer_call(bodies.solve, locals())


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
    numbering: NumberingOption = None,
) -> None:
    """The ID of each rank, start FEN or EPD line, one per line."""
    bodies.typer_call(bodies.id_, locals())


@app.command(epilog=_examples("chess960 position 518", "chess960 position 105 --format fen",
                              "seq 0 9 | chess960 position -"))
def position(
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
    numbering: NumberingOption = None,
) -> None:
    """The rank of each ID, one per line (`--format fen` for full FENs)."""
    bodies.typer_call(bodies.position, locals())


SeedOption = Annotated[str | None, typer.Option(
    "--seed", metavar="TEXT", callback=bodies.check_seed,
    help="Draw reproducibly from this seed phrase, such as \"Freestyle Open 2026, round 3\" "
         "(an integer is its digits; SHA-256, as the documentation says) (default: OS randomness).",
    show_default=False)]
ExcludeOption = Annotated[list[str] | None, typer.Option(
    "--exclude", "-x", metavar="IDS",
    help="IDs to leave out, comma-separated, ranges (0-949), ranks and FENs included, "
         "@FILE (one a line), or a named preset of the family: chess959 (518), chess958 "
         "(518 and 534) for chess960 and dfrc.",
    show_default=False)]
FromOption = Annotated[str | None, typer.Option(
    "--from", metavar="FILE",
    help="Draw only among the positions FILE lists (a shortlist: one id, range, rank or "
         "FEN a line, # comments; ids in the --numbering), uniformly; --exclude removes "
         "some of them.", show_default=False)]
BalancedOption = Annotated[str | None, typer.Option(
    "--balanced", metavar="[SOURCE:]BAND",
    help="Only positions whose engine eval is inside this band in every source (or in "
         "SOURCE): 0.5 is within ±0.5 pawns, 0.1..0.4 between; alone, 0.5. The band and "
         "the data used are said on stderr (below a Markdown plan).",
    show_default=False)]
DrawRateOption = Annotated[str | None, typer.Option(
    "--draw-rate", metavar="[SOURCE:]LOW..HIGH",
    help="Only positions whose engine draw rate (W/D/L's draws / 1000) is in this band "
         "in every source with W/D/L (or in SOURCE): 0.48..0.52 is 48 to 52 %; a table "
         "made with `chess960 eval --engine ... --wdl`.",
    show_default=False)]
PresetOption = Annotated[str | None, typer.Option(
    "--preset", metavar="NAME",
    help="Only the positions of this named subset of the family: dfrc4852 for dfrc "
         "(the 20,797 start positions of Stockfish's DFRC_4852_v1 book, CC0).",
    show_default=False)]
EvalTableOption = Annotated[list[str] | None, typer.Option(
    "--eval-table", metavar="FILE",
    help="With --balanced or --draw-rate: this table (as `chess960 eval --engine` writes "
         "it) instead of the shipped data; may repeat.", show_default=False)]
CertificateOption = Annotated[str | None, typer.Option(
    "--certificate", metavar="FILE",
    help="Also write the draw's certificate (family, rule file hash, seed, algorithm, "
         "exclusions, results) to FILE, for `chess960 verify FILE` (a seed is made if none "
         "is given).", show_default=False)]


@app.command("random", epilog=_examples("chess960 random", "chess960 random -n 8 --distinct",
                                        "chess960 random --seed 2026 --exclude 518",
                                        "chess960 random --seed 'Freestyle Open 2026, round 3'",
                                        "chess960 random --seed 'round 1' --exclude chess958 "
                                        "--certificate draw.json",
                                        "chess960 random -n 3 --draw-rate 0.9..0.92",
                                        "chess960 random --rules dfrc --preset dfrc4852",
                                        "chess960 random --from shortlist.txt --seed 'round 1'"))
def random_(
    count: Annotated[int, typer.Option(
        "-n", "--count", min=1, metavar="N", help="How many to draw.")] = 1,
    distinct: Annotated[
        bool, typer.Option("--distinct", help="Never draw the same position twice.")
    ] = False,
    exclude: ExcludeOption = None,
    shortlist: FromOption = None,
    seed: SeedOption = None,
    rules: RulesOption = "chess960",
    unicode: UnicodeOption = False,
    fmt: FormatOption = "text",
    dialect: DialectOption = "xfen",
    variant: VariantOption = None,
    max_states: MaxStatesOption = None,
    numbering: NumberingOption = None,
    balanced: BalancedOption = None,
    draw_rate: DrawRateOption = None,
    eval_table: EvalTableOption = None,
    certificate: CertificateOption = None,
    preset: PresetOption = None,
) -> None:
    """Uniformly drawn start positions, one `<id> <rank>` line each (streamed)."""
    bodies.typer_call(bodies.random_, locals())


@app.command("convert", epilog=_examples(
    "chess960 convert 0 --to scidb", "chess960 convert 'DFRC 105:518' -r dfrc --from tcec",
    "seq 0 959 | chess960 convert - --to xboard"))
def convert(
    values: Annotated[list[str], typer.Argument(
        metavar="NUMBER",
        help="Position numbers (or labels such as 'DFRC 502:532') in the --from numbering; "
             "`-` reads one per line from stdin.",
        show_default=False)],
    source: Annotated[str | None, typer.Option(
        "--from", metavar="NAME", help="The numbering the numbers are in "
                                       "(default: the family's own).",
        show_default=False)] = None,
    target: Annotated[str | None, typer.Option(
        "--to", metavar="NAME", help="The numbering to write them in "
                                     "(default: the family's own).",
        show_default=False)] = None,
    rules: RulesOption = "chess960",
) -> None:
    """Each position number of one numbering of the family in another, one per line."""
    bodies.typer_call(bodies.convert, locals())


@app.command("plan", epilog=_examples(
    "chess960 plan --rounds 3 --seed 'Freestyle Open 2026' --exclude-mirrors",
    "chess960 plan --rounds 4 --rules dfrc --format csv",
    "chess960 plan --rounds 2 --seed 7 --svg-dir .",
    "chess960 plan --rounds 5 --seed 'Open 2026' --exclude chess959 --certificate plan.json",
    "chess960 plan --rounds 9 --seed 'Club 2026' --html plan.html",
    "chess960 plan --rounds 9 --commit commit.json --sealed sealed.json "
    "--event 'Club 2026' --date 2026-05-01",
    "chess960 plan --rounds 3 --draw-rate 0.9..0.95 --balanced 0.3",
    "chess960 plan --rounds 5 --seed 'Open 2026' --from shortlist.txt --exclude 518"))
def plan_(
    rounds: Annotated[int, typer.Option("--rounds", min=1, metavar="N",
                                        help="How many rounds.")],
    seed: SeedOption = None,
    exclude: ExcludeOption = None,
    shortlist: FromOption = None,
    mirrors: Annotated[bool, typer.Option(
        "--exclude-mirrors", help="Never a position and its left-right mirror "
                                  "(nor the mirror of an excluded one).")] = False,
    rules: RulesOption = "chess960",
    table: Annotated[str, typer.Option(
        "--format", "-f", metavar="markdown|csv", help="The table's form.")] = "markdown",
    svg_dir: Annotated[str | None, typer.Option(
        "--svg-dir", metavar="DIR", help="Also write each round's board as DIR/round-N.svg "
        "(DIR made when missing).",
        show_default=False)] = None,
    dialect: DialectOption = "xfen",
    variant: VariantOption = None,
    max_states: MaxStatesOption = None,
    numbering: NumberingOption = None,
    balanced: BalancedOption = None,
    draw_rate: DrawRateOption = None,
    eval_table: EvalTableOption = None,
    certificate: CertificateOption = None,
    preset: PresetOption = None,
    html: Annotated[str | None, typer.Option(
        "--html", metavar="FILE", help="Also write a printable page, one board a round "
        "(`-`: to stdout, instead of the table).", show_default=False)] = None,
    commit: Annotated[str | None, typer.Option(
        "--commit", metavar="FILE", help="Seal the draw instead of showing it: write its "
        "commitment (the seed's SHA-256, rule file hash, exclusions, rounds) to FILE, to "
        "publish before the event (goes with --sealed).", show_default=False)] = None,
    sealed: Annotated[str | None, typer.Option(
        "--sealed", metavar="FILE", help="With --commit: write the sealed file (the seed; a "
        "seed is made if none is given) to FILE, kept secret, for `chess960 reveal`.",
        show_default=False)] = None,
    event: Annotated[str | None, typer.Option(
        "--event", metavar="NAME", callback=bodies.check_event,
        help="The event's name, on the table, page, certificate or commitment.",
        show_default=False)] = None,
    date: Annotated[str | None, typer.Option(
        "--date", metavar="YYYY-MM-DD", callback=bodies.check_date,
        help="The event's date, on the table, page, certificate or commitment.",
        show_default=False)] = None,
) -> None:
    """A tournament plan: one start position a round, none twice, as a table."""
    bodies.typer_call(bodies.plan_, locals())


@app.command(epilog=_examples(
    "chess960 solve --format epd | chess960 lint",
    "chess960 random -n 4 --format fen --dialect shredder | chess960 lint --fix xfen",
    "chess960 position 105 --format fen --variant crazyhouse | chess960 lint --variant crazyhouse"))
def lint(
    files: Annotated[list[str] | None, typer.Argument(
        metavar="FILE|-", help="FEN, EPD or PGN files; `-` (the default) reads stdin.",
        show_default=False)] = None,
    fix: Annotated[str | None, typer.Option(
        "--fix", metavar="|".join(n for n, d in DIALECTS.items() if d.plain),
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
    numbering: Annotated[str | None, typer.Option(
        "--numbering", metavar="NAME",
        help="With --rules: the numbering the EPD `id` numbers are in (black-major for a "
             "DFRC book written before white-major, scidb, ...).",
        show_default=False)] = None,
    complete: Annotated[bool, typer.Option(
        "--complete", help="With --rules: the book claims to be the whole family; name the "
                           "positions it lacks (a count and the first few ids).")] = False,
) -> None:
    """Check every start position's castling field; exit 1 if any is wrong or mixed,
    or if a file holds no position to check. With --rules, also that each is in
    the family and none repeats (a position after moves is checked as one)."""
    bodies.typer_call(bodies.lint, locals())


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
    bodies.typer_call(bodies.show, locals())


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
    bodies.typer_call(bodies.check, locals())


@app.command("rules", epilog=_examples("chess960 rules"))
def rules_(
    numberings: Annotated[bool, typer.Option(
        "--numberings", help="List each family's numberings instead: names, numbers, and "
                             "what proves them.")] = False,
    rules: Annotated[str | None, typer.Option(
        "--rules", "-r", metavar="NAME|FILE",
        help="With --numberings: only this family's.", show_default=False)] = None,
) -> None:
    """List the bundled families: name, title, files, count, numbering."""
    bodies.typer_call(bodies.rules_, locals())


@app.command("eval", epilog=_examples(
    "chess960 eval 80", "chess960 eval RNBQKBNR --format json",
    "chess960 eval --engine stockfish --nodes 2000 --ids 0-19 -o sf.csv",
    "chess960 eval --engine fairy-stockfish --nodes 2000 --rules capablanca-random "
    "--ids 0-19 --jobs 2 -o crc.csv",
    "chess960 eval --engine stockfish --nodes 2000 --wdl --ids 0-19 -o sf-wdl.csv",
    "chess960 eval --engine stockfish --nodes 2000 --rules dfrc --ids 0-299 --shard 2/3 "
    "-o part2.sqlite",
    "chess960 eval merge part1.csv part2.csv part3.csv -o all.sqlite",
    "chess960 eval --engine stockfish --nodes 2000 --ids 0-19 --scheduler local:2 -o sf.csv"))
def eval_(
    positions: Annotated[list[str] | None, typer.Argument(
        metavar="ID|RANK|FEN", help="Positions whose figures to show, from every source.",
        show_default=False)] = None,
    rules: RulesOption = "chess960",
    fmt: Annotated[str, typer.Option(
        "--format", "-f", metavar="text|json", help="How the figures are shown.")] = "text",
    eval_table: Annotated[list[str] | None, typer.Option(
        "--eval-table", metavar="FILE", help="Show this table's figures (may repeat) "
        "instead of the shipped sources'.", show_default=False)] = None,
    engine: Annotated[str | None, typer.Option(
        "--engine", metavar="ENGINE", help="Evaluate with this UCI engine (a path, or a "
        "name on PATH or in /usr/games) into the table -o FILE.", show_default=False)] = None,
    nodes: Annotated[int | None, typer.Option(
        "--nodes", min=1, metavar="N", help="With --engine: search N nodes a position.",
        show_default=False)] = None,
    depth: Annotated[int | None, typer.Option(
        "--depth", min=1, metavar="D", help="With --engine: search to depth D.",
        show_default=False)] = None,
    ids: Annotated[str | None, typer.Option(
        "--ids", metavar="IDS", help="With --engine: these IDs (0-19,25; ranks, FENs, "
        "@FILE one a line), not every one.",
        show_default=False)] = None,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, metavar="J", help="With --engine: engine processes at once.")
    ] = 1,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="FILE", help="With --engine: the table to write; run "
        "again to go on where it stopped.", show_default=False)] = None,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=1, metavar="SECONDS",
        help="With --engine: the longest wait for one position.")] = 600.0,
    wdl: Annotated[bool, typer.Option(
        "--wdl", help="With --engine: record the engine's win/draw/loss model (UCI_ShowWDL) "
        "in every row, for --draw-rate; an engine without it is refused.")] = False,
    shard: Annotated[str | None, typer.Option(
        "--shard", metavar="K/N", help="With --engine: only shard K of N of the IDs: every "
        "N-th, starting with the K-th (as `book --workers N --worker K` slices books); "
        "join the N tables with `chess960 eval merge`.", show_default=False)] = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="ADDRESS", help="With --engine: evaluate on a Dask cluster, "
        "local:N (N worker processes here) or a scheduler's tcp://HOST:PORT (default: "
        "$DASK_SCHEDULER_ADDRESS); needs the cluster extra.", show_default=False)] = None,
) -> None:
    """Engine evaluations of start positions: each source's figures with their
    provenance, or a new table made with any UCI engine (--engine); `chess960 eval
    merge --help` joins tables."""
    bodies.typer_call(bodies.eval_, locals())


#: ``chess960 eval merge``: a command of its own, since ``eval`` takes positions
#: (:func:`run` sends ``eval merge ...`` to it; no position is written ``merge``).
eval_merge_app = typer.Typer(
    add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]})


@eval_merge_app.command(epilog=_examples(
    "chess960 eval merge part1.csv part2.csv part3.csv -o sf.csv",
    "chess960 eval merge dfrc.csv --rules dfrc -o dfrc.sqlite",
    "chess960 eval merge dfrc.sqlite --rules dfrc -o dfrc.csv"))
def merge(
    tables: Annotated[list[str], typer.Argument(
        metavar="TABLE", help="Tables (CSV, or SQLite as `eval --engine -o T.sqlite` "
        "writes them) of one engine set-up.", show_default=False)],
    output: Annotated[str, typer.Option(
        "--output", "-o", metavar="FILE", help="The table to write: SQLite if it ends in "
        ".sqlite, .sqlite3 or .db, else CSV in ID order.", show_default=False)],
    rules: RulesOption = "chess960",
) -> None:
    """Join evaluation tables of one engine set-up (engine, version, limit,
    family, numbering) into one; an ID with two values, or two set-ups, is
    refused naming both."""
    bodies.typer_call(bodies.eval_merge, locals())


@app.command(epilog=_examples("chess960 dice --dice 6 --json | chess960 verify -",
                              "chess960 verify commit.json --round 3 --position 144 "
                              "--sealed sealed.json",
                              "chess960 verify commit.json --round 3 --position 144 --sub-seed "
                              "d8849f71a06e12a2fc0b949ba3d30acab8d728fa5964e4e9b7dbd7f15685a5d5"
                              " --earlier 845,891"))
def verify(
    file: Annotated[str, typer.Argument(
        metavar="FILE|-", help="A draw certificate (`random`/`plan --certificate`), a "
                               "procedure (`dice --json`) or a sealed draw's commitment "
                               "(`plan --commit`); `-` reads stdin.",
        show_default=False)],
    rules: Annotated[str | None, typer.Option(
        "--rules", "-r", metavar="NAME|FILE",
        help="A certificate's rule file, when it is no longer where the certificate says "
             "(it must have the recorded hash).", show_default=False)] = None,
    round_: Annotated[int | None, typer.Option(
        "--round", min=1, metavar="K", help="A commitment's round to check (1 is the first).",
        show_default=False)] = None,
    position_: Annotated[str | None, typer.Option(
        "--position", metavar="ID", help="The position announced for --round (its id, or "
        "its rank).", show_default=False)] = None,
    seed: Annotated[str | None, typer.Option(
        "--seed", metavar="TEXT", callback=bodies.check_seed,
        help="The sealed draw's seed, revealed by the organiser.", show_default=False)] = None,
    sealed: Annotated[str | None, typer.Option(
        "--sealed", metavar="FILE", help="The sealed file (`plan --sealed`), published: its "
        "seed.", show_default=False)] = None,
    sub_seed: Annotated[list[str] | None, typer.Option(
        "--sub-seed", metavar="HEX", help="Instead of the seed: round K's sub-seed, published "
        "when the round is played (`reveal` prints it), checked against the commitment's "
        "hash; given once a round for rounds 1 to K, the earlier rounds are drawn from "
        "theirs.", show_default=False)] = None,
    earlier: Annotated[str | None, typer.Option(
        "--earlier", metavar="IDS", help="With round K's --sub-seed: the positions of rounds "
        "1 to K-1 (ids as the commitment shows them, ranks, @FILE one a line).",
        show_default=False)] = None,
) -> None:
    """Make a certified draw again and compare (exit 1 at the first difference),
    work out a procedure's exact distribution (exit 1 if it is not uniform), or
    check a sealed draw's round against its commitment, with the seed revealed
    or, round by round, with the round's sub-seed."""
    from solver.cli.draws import Revealed, verify_command
    from solver.lines import stdin_bytes

    code = verify_command(file, rules, stdin=stdin_bytes(), out=sys.stdout, err=sys.stderr,
                          revealed=Revealed(round_, position_, seed, sealed, sub_seed,
                                            earlier))
    if code:
        raise typer.Exit(code)


@app.command(epilog=_examples("chess960 reveal sealed.json --round 1",
                              "chess960 reveal sealed.json --round 2 --format fen"))
def reveal(
    file: Annotated[str, typer.Argument(
        metavar="FILE|-", help="The sealed file (`plan --commit ... --sealed FILE`); `-` "
                               "reads stdin.", show_default=False)],
    round_: Annotated[int, typer.Option(
        "--round", min=1, metavar="K", help="The round to reveal (1 is the first).")],
    fmt: FormatOption = "text",
    dialect: DialectOption = "xfen",
) -> None:
    """A sealed draw's round K, one `<id> <rank>` line as `random` writes it
    (nothing of any other round)."""
    bodies.typer_call(bodies.reveal, locals())


def _bare_balanced(argv: Sequence[str]) -> list[str]:
    """``argv`` with the default band after a ``--balanced`` given no value.

    >>> _bare_balanced(["random", "--balanced", "--seed", "x"])
    ['random', '--balanced', '0.5', '--seed', 'x']
    >>> _bare_balanced(["plan", "--balanced", "-0.1..0.3"])
    ['plan', '--balanced', '-0.1..0.3']
    """
    args = list(argv)
    if args[:1] not in (["random"], ["plan"], ["book"]) or "--balanced" not in args:
        return args
    from solver.evaluation.band import DEFAULT_BAND

    end = args.index("--") if "--" in args else len(args)
    given: list[str] = []
    for at, arg in enumerate(args):
        given.append(arg)
        after = args[at + 1] if at + 1 < end else None
        if at < end and arg == "--balanced" and (after is None or (
                after.startswith("-") and after[1:2] not in tuple("0123456789."))):
            given.append(DEFAULT_BAND)
    return given


@app.command(epilog=_examples("chess960 dice", "chess960 dice --dice 6",
                              "chess960 dice --rules dfrc", "chess960 dice --count 324 --cards",
                              "chess960 dice --dice 20 --json > d20.json",
                              "chess960 dice --method pieces",
                              "chess960 dice --method pieces --json | chess960 verify -",
                              "chess960 dice --exclude chess959",
                              "chess960 dice --method pieces --dice 6 --html sheet.html"))
def dice(
    rules: Annotated[str | None, typer.Option(
        "--rules", "-r", metavar="NAME|FILE", help="Draw among this family's positions "
        "(default chess960).", show_default=False)] = None,
    count: Annotated[int | None, typer.Option(
        "--count", "-n", min=1, metavar="N", help="Draw among the ids 0..N-1 instead.",
        show_default=False)] = None,
    sides: Annotated[int | None, typer.Option(
        "--dice", min=2, max=1000, metavar="SIDES",
        help="The die's faces: 10 (the default; faces 0-9), 6, 20, ... (faces 1-SIDES).",
        show_default=False)] = None,
    cards: Annotated[bool, typer.Option(
        "--cards", help="A standard 52-card deck instead of a die.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Write the procedure as data, for `chess960 verify`.")] = False,
    method: Annotated[str, typer.Option(
        "--method", metavar="id|pieces",
        help="id: roll the position's id; pieces: place the pieces one step at a time "
             "(light bishop, dark bishop, queen, knights, then R K R), each a roll read "
             "from a table.")] = "id",
    exclude: ExcludeOption = None,
    html: Annotated[str | None, typer.Option(
        "--html", metavar="FILE", help="Also write a printable one-page sheet: the steps, "
        "their tables from face to square, and boxes for the rolls (`-`: to stdout, "
        "instead of the text).", show_default=False)] = None,
) -> None:
    """A uniform physical draw with dice or cards, stated step by step for an arbiter."""
    bodies.typer_call(bodies.dice, locals())


@app.command("report", epilog=_examples("chess960 report --rules chess960 -o chess960.html",
                                         "chess960 report --rules shogi-shuffle -o - > s.html"))
def report_(
    output: Annotated[str, typer.Option(
        "--output", "-o", metavar="FILE", help="The page's file (`-`: stdout).")],
    rules: RulesOption = "chess960",
    no_check: Annotated[bool, typer.Option(
        "--no-check", help="Leave out the proof (what `chess960 check` proves).")] = False,
) -> None:
    """Write a family's page: one self-contained HTML file (rules in words, count and
    proof, where the pieces stand, mirrors, example boards)."""
    from solver.cli.commands import report_command

    code = report_command(rules, output, prove=not no_check, out=sys.stdout, err=sys.stderr)
    if code:
        raise typer.Exit(code)


@app.command(epilog=_examples(
    "chess960 which RNBQKBNR",
    "chess960 which 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' --format json",
    "chess960 which 'RQNBKNBR bbqnnrkr'"))
def which(
    positions: Annotated[list[str], typer.Argument(
        metavar="POSITION", help="Ranks, pairs of ranks or start FENs (either castling "
        "notation); `-` reads one a line from stdin.", show_default=False)],
    rules: Annotated[list[str] | None, typer.Option(
        "--rules", "-r", metavar="NAME|FILE",
        help="Also look in this family (a rule file); may repeat.", show_default=False)] = None,
    fmt: Annotated[str, typer.Option(
        "--format", "-f", metavar="text|json", help="How the answer is written.")] = "text",
) -> None:
    """Every bundled family holding each position, with its number in each of the
    family's numberings; exit 1 (naming the rules broken) when none does."""
    bodies.typer_call(bodies.which, locals())


@app.command(epilog=_examples(
    "chess960 solve --format fen | chess960 compare - --rules chess960",
    "chess960 book --rules racing-kings --numbering pychess | chess960 compare - -r racing-kings",
    "chess960 solve --rules chess324 --format fen | chess960 compare - -r chess324 --format json"))
def compare(
    file: Annotated[str, typer.Argument(
        metavar="FILE|-", help="A list of positions, one a line: ranks, pairs, FENs or EPD "
        "lines (any castling notation; blank lines and # comments skipped); `-`: stdin.",
        show_default=False)],
    rules: RulesOption = "chess960",
    fmt: Annotated[str, typer.Option(
        "--format", "-f", metavar="text|json", help="How the report is written.")] = "text",
    limit: Annotated[int, typer.Option(
        "--limit", min=0, metavar="N",
        help="Name at most N missing positions, extra lines and duplicates each "
             "(0: all).")] = 20,
    numbering: NumberingOption = None,
) -> None:
    """Compare a list of positions with a family: the positions missing, the lines
    that are not the family's (with the rule each breaks), the duplicates, and
    which numbering's order the list follows; exit 1 on any difference."""
    bodies.typer_call(bodies.compare, locals())


@app.command(epilog=_examples(
    "chess960 book -o frc.epd",
    "chess960 book --rules dfrc --sample 1000 --seed 'run 7' --dialect shredder -o dfrc.epd",
    "chess960 book --ids 0-99,518 --format pgn",
    "chess960 book --ids @shortlist.txt -o shortlist.epd",
    "chess960 book --workers 4 --worker 2 -o part2.epd",
    "chess960 book --pairs mirror --numbering scidb -o mirrored.epd",
    "chess960 book --balanced 0.3 --sample 10 --seed 'run 7'",
    "chess960 book --rules dfrc --preset dfrc4852 --sample 500 -o dfrc4852.epd"))
def book(
    rules: RulesOption = "chess960",
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Write the book to FILE (atomically; "
        "default: stdout).", show_default=False)] = None,
    fmt: Annotated[str, typer.Option(
        "--format", "-f", metavar="epd|fen|shredder|pgn",
        help="EPD (with an id operation), FEN lines or PGN games.")] = "epd",
    dialect: DialectOption = "xfen",
    numbering: NumberingOption = None,
    ids: Annotated[str | None, typer.Option(
        "--ids", metavar="LIST", help="Only these numbers (0-99,518: in the --numbering; "
        "ranks, FENs, @FILE one a line), in this order.", show_default=False)] = None,
    sample: Annotated[int | None, typer.Option(
        "--sample", min=1, metavar="N", help="N positions drawn without repeats from "
        "--seed, as `random --seed S -n N --distinct` draws them.",
        show_default=False)] = None,
    seed: SeedOption = None,
    pairs: Annotated[str | None, typer.Option(
        "--pairs", metavar="colour|mirror", help="colour: each position twice in a row "
        "(for runners without -repeat); mirror: each next to its left-right mirror.",
        show_default=False)] = None,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, metavar="N", help="Split the book into N disjoint slices...")] = 1,
    worker: Annotated[int, typer.Option(
        "--worker", min=1, metavar="K", help="...and write slice K (1 to N): every N-th "
        "position (or pair) from the K-th.")] = 1,
    balanced: BalancedOption = None,
    draw_rate: DrawRateOption = None,
    eval_table: EvalTableOption = None,
    preset: PresetOption = None,
) -> None:
    """An engine-testing book: every position of the family once (or --ids, or a
    --sample), in the numbering's order, as EPD, FEN or PGN."""
    bodies.typer_call(bodies.book, locals())


@app.command(epilog=_examples(
    "chess960 random -n 7000 --seed 1 | chess960 audit -",
    "chess960 audit draws.txt --rules dfrc --level 0.001",
    "chess960 audit draws.txt --format json"))
def audit(
    file: Annotated[str, typer.Argument(
        metavar="FILE|-", help="The drawn positions, one a line: ids (the family's own "
        "numbering), `<id> <rank>` lines, ranks, pairs, FENs or EPD lines; `-`: stdin.",
        show_default=False)],
    rules: RulesOption = "chess960",
    level: Annotated[float, typer.Option(
        "--level", metavar="P", help="The test's significance level (the false-alarm "
        "rate), between 0 and 1.")] = 0.01,
    fmt: Annotated[str, typer.Option(
        "--format", "-f", metavar="text|json", help="How the report is written.")] = "text",
) -> None:
    """Test a sample of drawn positions against the family's uniform distribution:
    chi-square (its p-value), the positions drawn most, and the sample size that
    would detect a bias; exit 1 when the sample is not uniform at the level (or too
    small to test)."""
    bodies.typer_call(bodies.audit, locals())


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


_BUILT: dict[str | None, Any] = {}


def command_name(info: Any) -> str:
    """The name of the command Typer registered as ``info`` (a ``CommandInfo``)."""
    return str(info.name or info.callback.__name__.lower().replace("_", "-"))


def _built(argv: Sequence[str]) -> Any:
    """The Click command that answers ``argv``: the app with only the command
    ``argv`` names when it names one (building all twenty takes longer than
    answering most), else the whole app; built once a process."""
    import copy

    name = argv[0] if argv else None
    chosen = [info for info in app.registered_commands if command_name(info) == name]
    groups = [info for info in app.registered_groups if info.name == name]
    if not chosen and not groups:
        name = None
    if name not in _BUILT:
        part = app
        if name is not None:
            part = copy.copy(app)
            part.registered_commands, part.registered_groups = chosen, groups
        _BUILT[name] = _plain_help(typer.main.get_command(part))
    return _BUILT[name]


def run(argv: Sequence[str]) -> int:
    """Run the command line ``argv``; returns the exit code.

    Usage errors are one ``error:`` line on stderr and exit code 2.
    """
    if list(argv[:2]) == ["eval", "merge"]:
        command, argv, name = _plain_help(typer.main.get_command(eval_merge_app)), argv[2:], \
            "chess960 eval merge"
    else:
        command, name = _built(argv), "chess960"
    click_exception = _click_class("ClickException")
    abort = typer.Abort
    try:
        code = command.main(args=_bare_balanced(argv), prog_name=name,
                            standalone_mode=False)
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
