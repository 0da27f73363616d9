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
    per start position and for the family.

    A start FEN whose castling field alone is impossible counts under its position;
    stderr names those games and, for the games not in the family, each reason, with
    the first game numbers."""
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
    write Variant aliases as Chess960; every other byte stays as it was.

    A start FEN whose castling field alone is impossible gets its position's number,
    its FEN left as it is, and stderr says so."""
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


@games_app.command("tree", epilog=_examples(
    "chess960 games tree games.pgn --id 518 --line 'e4 e5'",
    "chess960 games tree lichess_db_chess960.pgn.zst --speed blitz,rapid --rating 1600-2200 "
    "-f json -o tree.json",
    "chess960 games tree games.pgn --player DrNykterstein --color white --min-games 5 -f csv",
    "chess960 games tree lichess_db_chess960.pgn.zst --min-games 20 --html explorer.html "
    "-f json -o tree.json"))
def tree(
    files: FilesArgument,
    rules: RulesOption = "chess960",
    plies: Annotated[int, typer.Option(
        "--plies", "-p", min=0, max=200, help="How many plies (half-moves) the tree keeps.")] = 12,
    ids: Annotated[list[str] | None, typer.Option(
        "--id", metavar="IDS", show_default=False,
        help="Only these positions (518,534; FRC 518); may repeat. Default: every one met.")
    ] = None,
    line: Annotated[str | None, typer.Option(
        "--line", metavar="SAN", show_default=False,
        help="Text form: the table after these moves ('e4 e5', move numbers allowed).")] = None,
    speed: Annotated[list[str] | None, typer.Option(
        "--speed", metavar="SPEEDS", show_default=False,
        help="Only games of these lichess speeds, from TimeControl: ultrabullet, bullet, "
             "blitz, rapid, classical, correspondence (comma-separated; may repeat).")] = None,
    rating: Annotated[str | None, typer.Option(
        "--rating", metavar="A-B|GROUP", show_default=False,
        help="Only games whose players' average rating is in A-B (A included, B not) or "
             "in a lichess group (1600: 1600 to 1799).")] = None,
    since: Annotated[str | None, typer.Option(
        "--since", metavar="YYYY-MM", show_default=False,
        help="Only games played in this month or later (UTCDate, else Date).")] = None,
    until: Annotated[str | None, typer.Option(
        "--until", metavar="YYYY-MM", show_default=False,
        help="Only games played in this month or earlier.")] = None,
    player: Annotated[str | None, typer.Option(
        "--player", metavar="NAME", show_default=False,
        help="Only games this player played (White or Black tag, any case).")] = None,
    color: Annotated[str | None, typer.Option(
        "--color", metavar="white|black", show_default=False,
        help="With --player: only the games the player had this colour.")] = None,
    min_games: Annotated[int, typer.Option(
        "--min-games", metavar="K", min=0,
        help="Leave out of the output the lines played fewer than K times.")] = 0,
    fmt: Annotated[str, typer.Option(
        "--format", "-f", metavar="text|json|csv", help="The output's form.")] = "text",
    out: OutOption = None,
    html: Annotated[str | None, typer.Option(
        "--html", metavar="FILE", show_default=False,
        help="Also write the explorer as one self-contained page (a position picker, "
             "the next moves' table, clicking a move follows it), opened at --line; "
             "stdout (or -o) gets --format's output as without it; `-`: the page to "
             "stdout (or -o) instead.")] = None,
    transpositions: Annotated[bool, typer.Option(
        "--transpositions",
        help="Merge the lines that reach the same position (placement, side to move, "
             "castling rights, en-passant square) by any move order: the table after "
             "--line counts every game that reached its position; json and csv list the "
             "positions. A game that reaches a position twice within the plies is counted "
             "twice. Needs cozy-chess (pip install 'chess960[moves]').")] = False,
) -> None:
    """Per start position, the tree of the first plies of its games: games,
    results, average rating, last date played, per line, as lichess's opening
    explorer shows them; text shows the next moves after --line; --html writes
    the explorer as a page.

    --transpositions merges the lines that reach the same position by any move
    order (replayed with cozy-chess; SAN read as python-chess reads it, so
    Nf3, Ngf3 and Ng1f3 are one move): text shows the moves from the position
    after --line, json lists each start's positions (FEN, counts, next moves),
    csv has a row a position."""
    bodies.typer_call(bodies.tree, locals())


@games_app.command("merge", epilog=_examples(
    "chess960 games merge 2023-*.json -o 2023.json",
    "chess960 games stats a.pgn -f json > a.json && chess960 games stats b.pgn -f json > b.json"
    " && chess960 games merge a.json b.json",
    "chess960 games tree a.pgn -f json -o a.json && chess960 games tree b.pgn -f json -o b.json"
    " && chess960 games merge a.json b.json"))
def merge(
    files: Annotated[list[str], typer.Argument(
        metavar="FILE|-", show_default=False,
        help="Trees made by `chess960 games tree --format json` (of one family and one "
             "number of plies), or tables made by `chess960 games stats --format json`; "
             "`-` reads stdin.")],
    out: OutOption = None,
) -> None:
    """The sum of opening trees (or of games stats tables) made from different
    files or slices: the tree (the table) of all their games, as JSON."""
    from solver.cli.game_runs import merge_command

    _exit(merge_command(files, out))
