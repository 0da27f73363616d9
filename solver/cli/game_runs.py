"""What ``chess960 games`` does once its options are parsed: the PGN inputs
opened (plain or compressed, stdin), progress on stderr, a skipped game's line,
and each command's body (``stats``, ``filter``, ``tag``), without Typer, so that
the console command's quick path (:mod:`solver.cli.quick`) answers ``games
stats`` through :func:`solver.cli.bodies.stats` as the Typer command does.

Each command writes its answer to stdout, a game that cannot be read is one
line on stderr, ``FILE: game N skipped: <why>``, and an input with no game at
all (or that cannot be opened) is an ``error:`` line; each returns the exit
code (1 if any input failed).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from solver.cli.errors import FAILED, report
from solver.errors import Chess960Error


def _skipped(path: str, verb: str = "skipped") -> Callable[[int, str], None]:
    def tell(number: int, problem: str) -> None:
        sys.stdout.flush()
        sys.stderr.write(f"{path}: game {number} {verb}: {problem}\n")

    return tell


def _inputs(files: Sequence[str], what: str) -> Iterator[tuple[str, Iterator[bytes], Any]]:
    """``(path, its bytes, the Input)`` for each file; one that cannot be opened
    is an ``error:`` line (and the exit code 1 at the end, see :func:`_run`)."""
    from solver.cli.progress import ReadProgress
    from solver.games.inputs import Input
    from solver.lines import stdin_bytes

    progress = ReadProgress(sys.stderr, what)
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


def _run(body: Callable[[], None]) -> int:
    """Run a command's body: library errors an ``error:`` line; the exit code (1
    if any input failed)."""
    _FAILED.clear()
    try:
        body()
    except Chess960Error as exc:
        report(sys.stdout, sys.stderr, exc)
        return FAILED
    return FAILED if _FAILED else 0


def _uncollected(body: Callable[[], None]) -> Callable[[], None]:
    """``body`` run without cyclic garbage collection (a command reading games:
    what it makes has no cycle, and each collection would walk all of it)."""

    def run() -> None:
        from solver.games.fast import no_collection

        with no_collection():
            body()

    return run


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


def _one_game(path: str, read: int, skipped: int = 0) -> None:
    """An ``error:`` line for an input that held no game, or whose every game was skipped."""
    from solver.games.inputs import no_games

    try:
        no_games(path, read, skipped)
    except Chess960Error as exc:
        report(sys.stdout, sys.stderr, exc)
        _FAILED.append(path)


def _notes(notes: Any, only_repaired: bool = False) -> None:
    """A line on stderr per note: repaired castling fields, why games are not in
    the family (``only_repaired``: the first only)."""
    lines = notes.lines()
    if only_repaired:
        lines = lines[:1] if notes.repaired else []
    sys.stdout.flush()
    for line in lines:
        sys.stderr.write(f"{line}\n")


def stats_command(files: Sequence[str], rules: str, fmt: str, number_tag: str | None) -> int:
    """``chess960 games stats``: games, results and scores per start position of
    ``rules``'s family, in the form ``fmt`` (text, csv or json)."""

    def body() -> None:
        from solver.games.headers import NUMBER_TAGS
        from solver.games.stats import Stats, start_early

        tags = None if number_tag is None else (number_tag.encode(), *NUMBER_TAGS)
        started = start_early(files[0], lambda: _family(rules), tags) if files else None
        try:
            table = Stats(_family(rules), tags)
            for path, pieces, source in _inputs(files, "reading games"):
                skipped = table.skipped
                if source.compression is None and path != "-":
                    read = table.add_file(path, source.size, _skipped(path), pieces, started)
                else:
                    read = table.add(pieces, path, _skipped(path))
                _one_game(path, read, table.skipped - skipped)
        finally:
            if started is not None:
                started.close()
        if table.games or not _FAILED:
            if fmt == "text":
                sys.stdout.write("".join(f"{line}\n" for line in table.text()))
            else:
                sys.stdout.write(table.csv() if fmt == "csv" else table.json())
            _notes(table.notes)  # on stderr (the JSON has them as fields too)

    return _run(_uncollected(body))


def filter_command(files: Sequence[str], ids: Sequence[str], rules: str, out: str | None) -> int:
    """``chess960 games filter``: the games that start from ``ids``, byte for byte."""

    def body() -> None:
        from solver.games.select import Chooser, parse_ids

        family = _family(rules)
        chooser = Chooser(family, parse_ids(family, list(ids)))

        def chosen() -> Iterator[bytes]:
            for path, pieces, _ in _inputs(files, "filtering games"):
                before, skipped = chooser.read, chooser.skipped
                yield from chooser.games(pieces, path, _skipped(path))
                _one_game(path, chooser.read - before, chooser.skipped - skipped)

        _write_bytes(chosen(), out)

    return _run(body)


def tag_command(files: Sequence[str], rules: str, name: str, in_place: bool,
                out: str | None) -> int:
    """``chess960 games tag``: each game's number in the tag ``name`` (and a FEN
    where only the number was given), to ``out`` or each file in place."""

    def body() -> None:
        from solver.games.tag import Tagger

        family = _family(rules)
        if in_place:
            from solver.games.inputs import compressed, refuse_in_place, replace_in_place

            for path in files:
                try:
                    before = refuse_in_place(path)
                except Chess960Error as exc:
                    report(sys.stdout, sys.stderr, exc)
                    _FAILED.append(path)
                    continue
                for _, pieces, source in _inputs([path], "tagging games"):
                    tagger = Tagger(family, name)

                    def rewritten(tagger: Tagger = tagger, pieces: Iterator[bytes] = pieces,
                                  path: str = path) -> Iterator[bytes]:
                        yield from tagger.rewrite(pieces, path, _skipped(path, "left as it is"))
                        from solver.games.inputs import no_games

                        no_games(path, tagger.games, tagger.skipped)

                    try:
                        replace_in_place(path, compressed(rewritten(), source.compression, path),
                                         before)
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
                _one_game(path, tagger.games, tagger.skipped)
                sys.stderr.write(tagger.summary(path) + "\n")

        _write_bytes(everything(), out)

    return _run(body)


def tree_command(files: Sequence[str], rules: str, plies: int, ids: Sequence[str],
                 line: str | None, fmt: str, min_games: int, filters: dict[str, Any],
                 out: str | None, html: str | None = None, transpositions: bool = False) -> int:
    """``chess960 games tree``: the opening tree of each start position, in the
    form ``fmt`` (text: the explorer's table after ``line``; json; csv), and
    the explorer page written to ``html`` (``-``: to ``out`` instead);
    ``transpositions``: the tree merged by position
    (:mod:`solver.games.transpose`), without a page."""

    def body() -> None:
        from solver.games.select import parse_ids
        from solver.games.tree import Filters, Tree, moves, parse_month, parse_rating, parse_speeds

        family = _family(rules)
        if transpositions:
            from solver.games.transpose import cozy, supported

            cozy()  # (before the games are read: the package, then the family)
            supported(family)
        chosen = sorted(parse_ids(family, list(ids))) if ids else None
        low, high = parse_rating(filters["rating"])
        player = filters["player"]
        tree = Tree(family, plies, Filters(
            parse_speeds(filters["speed"]), low, high, parse_month(filters["since"], "--since"),
            parse_month(filters["until"], "--until"),
            None if player is None else player.casefold(), filters["color"]))
        played = moves((line or "").encode(), 1 << 30)
        if fmt == "text" and html is None and not transpositions:
            tree.summarise(played)  # (workers send the tables after the line, not their lines)
        for path, pieces, source in _inputs(files, "reading games"):
            skipped = tree.skipped
            if source.compression is None and path != "-":
                read = tree.add_file(path, source.size, _skipped(path), pieces)
            else:
                read = tree.add(pieces, path, _skipped(path))
            _one_game(path, read, tree.skipped - skipped)
        _notes(tree.notes, only_repaired=True)  # (games stats names the others)
        if _FAILED and not tree.games:
            return
        if chosen is not None:
            tree.keep(chosen)
        if transpositions:
            _write_bytes([_transposed(tree, fmt, chosen, played, min_games).encode()], out)
            return
        page = None if html is None else _page(tree, files, chosen, played, min_games, filters)
        if html == "-" and page is not None:
            _write_bytes([page.encode()], out)
            return
        if fmt == "text":
            held = set(tree.ids)
            if not held:
                _write_page(html, page)
                sys.stdout.write("no game from the positions asked for\n")
                return
            text = "".join(f"{row}\n" for row in tree.text(
                None if chosen is None else [n for n in chosen if n in held],
                played, min_games))
        else:
            text = tree.csv(min_games) if fmt == "csv" else tree.json(min_games)
        _write_page(html, page)  # (after the text, which may refuse the line)
        _write_bytes([text.encode()], out)

    return _run(_uncollected(body))


def _transposed(tree: Any, fmt: str, chosen: Sequence[int] | None, line: Sequence[str],
                min_games: int) -> str:
    """``games tree --transpositions``'s output in the form ``fmt``."""
    from solver.games import transpose

    merged = transpose.transpose(tree, tree.family)
    if fmt == "json":
        return transpose.to_json(tree, merged, min_games)
    if fmt == "csv":
        return transpose.to_csv(merged, min_games)
    if not merged:
        return "no game from the positions asked for\n"
    ids = None if chosen is None else [n for n in chosen if n in merged]
    return "".join(f"{row}\n" for row in transpose.text(tree, merged, ids, line, min_games))


def _write_page(html: str | None, page: str | None) -> None:
    """The explorer page to the file ``html``, atomically (when asked for)."""
    if html is not None and page is not None:
        from solver.files import write_atomic

        write_atomic(html, page)


def _page(tree: Any, files: Sequence[str], chosen: Sequence[int] | None, line: Sequence[str],
          min_games: int, filters: dict[str, Any]) -> str:
    """The explorer page of ``tree``, opened at ``line`` from the first position
    asked for (or met) where it was played, saying what was read and kept."""
    from solver.games.tree_html import explorer_page

    start = (tree.played(line, chosen) or [0])[0]
    notes = [f"Read: {', '.join('stdin' if f == '-' else f for f in files)}."]
    kept = [f"{name} {', '.join(value) if isinstance(value, list) else value}"
            for name, value in filters.items() if value and name != "color"]
    if filters.get("color"):
        kept = [f"{k} (as {filters['color']})" if k.startswith("player ") else k for k in kept]
    if min_games:
        kept.append(f"lines played fewer than {min_games} times left out")
    if kept:
        notes.append(f"Only: {'; '.join(kept)}.")
    return explorer_page(tree, min_games, (start, line), notes)


def merge_command(files: Sequence[str], out: str | None) -> int:
    """``chess960 games merge``: the sum of trees made by ``games tree --format json``
    (or of tables made by ``games stats --format json``)."""

    def body() -> None:
        from solver.games.tree import merge_json, read_json

        documents = [(path, read_json(path, b"".join(pieces)))
                     for path, pieces, _ in _inputs(files, "reading trees")]
        if _FAILED:
            return
        _write_bytes([merge_json(documents).encode()], out)

    return _run(body)
