"""``chess960 games``: PGN collections counted, chosen and tagged by start position.

Each command declares its options here and runs in :mod:`solver.cli.game_runs`
(``stats`` through :func:`solver.cli.bodies.stats`, which the quick path calls too),
which opens its inputs, hands their bytes to :mod:`solver.games`, and writes
what it answers; a game that cannot be read is one line on stderr,
``FILE: game N skipped: <why>``, and the others are still answered; an input
with no game at all is an ``error:`` line and exit code 1.
"""

from __future__ import annotations

from typing import Annotated

import typer

from solver.cli import bodies


def _examples(*lines: str) -> str:
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


games_app = typer.Typer(
    no_args_is_help=True,
    epilog=_examples("chess960 random -n 100 --seed 1 --format pgn | chess960 games stats -",
                     "chess960 position 105 518 --format pgn | chess960 games filter - --id 105",
                     "chess960 position 105 --format pgn | chess960 games tag -"),
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="PGN collections: count, choose and tag games by their start position.",
)

FilesArgument = Annotated[list[str], typer.Argument(
    metavar="FILE|-", show_default=False,
    help="PGN files, plain or gzip, bzip2, xz or zstd compressed; `-` reads stdin.")]
RulesOption = Annotated[str, typer.Option(
    "--rules", "-r", metavar="NAME|FILE",
    help="A bundled family (see `chess960 rules`) or a rule file.")]
OutOption = Annotated[str | None, typer.Option(
    "--output", "-o", metavar="OUT", show_default=False,
    help="Write to this file, atomically (compressed when it ends in .gz, .bz2, .xz or "
         ".zst); default: stdout.")]


def _exit(code: int) -> None:
    if code:
        raise typer.Exit(code)


@games_app.command("stats", epilog=_examples(
    "chess960 games stats games.pgn", "chess960 games stats lichess_db_chess960.pgn.zst -f csv",
    "zcat *.pgn.gz | chess960 games stats - --format json"))
def stats(
    files: FilesArgument,
    rules: RulesOption = "chess960",
    fmt: Annotated[str, typer.Option(
        "--format", "-f", metavar="text|csv|json", help="The table's form.")] = "text",
    number_tag: Annotated[str | None, typer.Option(
        "--tag", metavar="NAME", show_default=False,
        help="Also read a position's number from this tag when a game has no FEN.")] = None,
) -> None:
    """Games, White's wins, draws, Black's wins, unfinished games and White's score,
    per start position and for the family."""
    bodies.typer_call(bodies.stats, locals())


@games_app.command("filter", epilog=_examples(
    "chess960 games filter games.pgn --id 518,534", "chess960 games filter - --id 'FRC 105'",
    "chess960 games filter a.pgn.gz b.pgn --id 0 -o first.pgn"))
def filter_(
    files: FilesArgument,
    ids: Annotated[list[str], typer.Option(
        "--id", metavar="IDS", show_default=False,
        help="Position IDs or labels, comma-separated (518,534; FRC 518; DFRC 502:532); "
             "may repeat.")],
    rules: RulesOption = "chess960",
    out: OutOption = None,
) -> None:
    """The games that start from the given positions, byte for byte as read."""
    from solver.cli.game_runs import filter_command

    _exit(filter_command(files, ids, rules, out))


@games_app.command("tag", epilog=_examples(
    "chess960 games tag games.pgn > tagged.pgn", "chess960 games tag --in-place broadcast.pgn",
    "chess960 games tag games.pgn --tag FRCId -o tagged.pgn.gz"))
def tag_(
    files: FilesArgument,
    rules: RulesOption = "chess960",
    name: Annotated[str, typer.Option(
        "--tag", metavar="NAME",
        help="The tag that gets the number: Opening gets 'FRC 518' (TCEC's form), "
             "any other tag the number alone.")] = "Opening",
    in_place: Annotated[bool, typer.Option(
        "--in-place", "-i", help="Replace each file, atomically (compressed as it was).")] = False,
    out: OutOption = None,
) -> None:
    """Add each game's position number, a FEN where only the number was given, and
    write Variant aliases as Chess960; every other byte stays as it was."""
    import re

    if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_+#=:.-]*", name):
        raise typer.BadParameter(f"{name!r} is not a PGN tag name", param_hint="'--tag'")
    if in_place and out is not None:
        raise typer.BadParameter("give --in-place or --output, not both", param_hint="'--in-place'")
    if in_place and "-" in files:
        raise typer.BadParameter("standard input cannot be replaced in place",
                                 param_hint="'--in-place'")

    from solver.cli.game_runs import tag_command

    _exit(tag_command(files, rules, name, in_place, out))
