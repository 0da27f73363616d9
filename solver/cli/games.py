"""``chess960 games``: PGN collections counted, chosen and tagged by start position.

Each command opens its inputs, hands their bytes to :mod:`solver.games`, and
writes what it answers; a game that cannot be read is one line on stderr,
``FILE: game N skipped: <why>``, and the others are still answered; an input
with no game at all is an ``error:`` line and exit code 1.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, TextIO

import typer

from solver.cli.errors import FAILED, report
from solver.errors import Chess960Error


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


class _Progress:
    """Bytes and games read, on stderr, once a run takes over a second and
    only when stderr is a terminal (as :mod:`solver.cli.progress` does)."""

    def __init__(self, stream: TextIO, what: str) -> None:
        from solver.cli.progress import _delay

        self.stream = stream
        self.what = what
        self.start = time.monotonic()
        self.delay = _delay()
        self.read = 0
        self.shown = 0.0
        self.bar: Any = None
        self.watched: bool | None = None

    def __call__(self, size: int) -> None:
        self.read += size
        now = time.monotonic()
        if now - self.shown < 0.1 or now - self.start < self.delay:
            return
        self.shown = now
        if self.watched is None:
            try:
                self.watched = self.stream.isatty()
            except (AttributeError, ValueError, OSError):
                self.watched = False
        if not self.watched:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("{task.description}"), TimeElapsedColumn(),
                                console=Console(file=self.stream), transient=True,
                                auto_refresh=False, redirect_stdout=False,
                                redirect_stderr=False)
            self.task = self.bar.add_task(self.what)
            self.bar.start()
        rate = self.read / max(now - self.start, 1e-9) / 1e6
        self.bar.update(self.task, description=f"{self.what}: {self.read / 1e6:,.0f} MB read, "
                                               f"{rate:,.0f} MB/s")
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            bar, self.bar = self.bar, None
            bar.stop()
            self.stream.flush()


def _skipped(path: str, verb: str = "skipped") -> Callable[[int, str], None]:
    def tell(number: int, problem: str) -> None:
        sys.stdout.flush()
        sys.stderr.write(f"{path}: game {number} {verb}: {problem}\n")

    return tell


def _inputs(files: list[str], what: str) -> Iterator[tuple[str, Iterator[bytes], Any]]:
    """``(path, its bytes, the Input)`` for each file; one that cannot be opened
    is an ``error:`` line (and the exit code 1 at the end, see :func:`_run`)."""
    from solver.cli.inputs import stdin_bytes
    from solver.games.inputs import Input

    progress = _Progress(sys.stderr, what)
    try:
        for path in files:
            try:
                source = Input(path, stdin_bytes() if path == "-" else None, progress)
            except Chess960Error as exc:
                report(sys.stdout, sys.stderr, exc)
                _FAILED.append(path)
                continue
            try:
                yield path, source.pieces(), source
            finally:
                source.close()
    finally:
        progress.close()


_FAILED: list[str] = []


def _run(body: Callable[[], None]) -> None:
    """Run a command's body: library errors an ``error:`` line, exit 1 if any input failed."""
    _FAILED.clear()
    try:
        body()
    except Chess960Error as exc:
        report(sys.stdout, sys.stderr, exc)
        raise typer.Exit(FAILED) from None
    if _FAILED:
        raise typer.Exit(FAILED)


def _family(rules: str) -> Any:
    from solver.cli.inputs import load_family

    return load_family(rules)


def _write_bytes(pieces: Iterable[bytes], out: str | None) -> None:
    """``pieces`` to the file ``out`` (atomically, compressed by its ending) or stdout."""
    if out is not None:
        from solver.files import write_atomic
        from solver.games.inputs import compressed, kind_of

        write_atomic(out, lambda: compressed(pieces, kind_of(out), out))
        return
    stdout = sys.stdout
    stdout.flush()
    buffer = getattr(stdout, "buffer", None)
    for piece in pieces:
        if buffer is not None:
            buffer.write(piece)
        else:  # a text stream (a test's): the bytes as text
            stdout.write(piece.decode("utf-8", "surrogateescape"))
    if buffer is not None:
        buffer.flush()


def _one_game(path: str, read: int) -> None:
    from solver.games.inputs import no_games

    try:
        no_games(path, read)
    except Chess960Error as exc:
        report(sys.stdout, sys.stderr, exc)
        _FAILED.append(path)


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
    if fmt not in ("text", "csv", "json"):
        raise typer.BadParameter(f"{fmt!r} is not one of text, csv, json", param_hint="'--format'")

    def body() -> None:
        from solver.games.headers import NUMBER_TAGS
        from solver.games.stats import Stats

        family = _family(rules)
        tags = None if number_tag is None else (number_tag.encode(), *NUMBER_TAGS)
        table = Stats(family, tags)
        for path, pieces, source in _inputs(files, "reading games"):
            if source.compression is None and path != "-":
                read = table.add_file(path, source.size, _skipped(path), pieces)
            else:
                read = table.add(pieces, path, _skipped(path))
            _one_game(path, read)
        if table.games or not _FAILED:
            if fmt == "text":
                sys.stdout.write("".join(f"{line}\n" for line in table.text()))
            else:
                sys.stdout.write(table.csv() if fmt == "csv" else table.json())

    _run(body)


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

    def body() -> None:
        from solver.games.select import Chooser, parse_ids

        family = _family(rules)
        chooser = Chooser(family, parse_ids(family, ids))

        def chosen() -> Iterator[bytes]:
            for path, pieces, _ in _inputs(files, "filtering games"):
                before = chooser.read
                yield from chooser.games(pieces, path, _skipped(path))
                _one_game(path, chooser.read - before)

        _write_bytes(chosen(), out)

    _run(body)


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

    def body() -> None:
        from solver.games.tag import Tagger

        family = _family(rules)
        if in_place:
            from solver.files import write_atomic
            from solver.games.inputs import compressed

            for path in files:
                for _, pieces, source in _inputs([path], "tagging games"):
                    tagger = Tagger(family, name)

                    def rewritten(tagger: Tagger = tagger, pieces: Iterator[bytes] = pieces,
                                  path: str = path) -> Iterator[bytes]:
                        yield from tagger.rewrite(pieces, path, _skipped(path, "left as it is"))
                        from solver.games.inputs import no_games

                        no_games(path, tagger.games)

                    try:
                        write_atomic(path, compressed(rewritten(), source.compression, path))
                    except Chess960Error as exc:
                        report(sys.stdout, sys.stderr, exc)
                        _FAILED.append(path)
                        continue
                    sys.stderr.write(tagger.summary(path) + "\n")
            return

        def everything() -> Iterator[bytes]:
            for path, pieces, _ in _inputs(files, "tagging games"):
                tagger = Tagger(family, name)
                yield from tagger.rewrite(pieces, path, _skipped(path, "left as it is"))
                _one_game(path, tagger.games)
                sys.stderr.write(tagger.summary(path) + "\n")

        _write_bytes(everything(), out)

    _run(body)
