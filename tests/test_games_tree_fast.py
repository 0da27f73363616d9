"""``games tree``'s quick paths give what reading game by game gives: the games
summed per start and line before they enter the tree, the tags read in one
pass, and a large file read in worker processes (as ``games stats`` reads it)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.family import Family
from solver.games.headers import tag
from solver.games.tree import Tree, plain_tags
from tests.test_games import fen
from tests.test_games_tree import collection, expected, flatten, same


def _text(seed: int, count: int) -> tuple[str, list[Any]]:
    games = collection(seed, count)
    text = "".join(g.pgn() for g in games)
    # a start repaired (its castling field impossible), one outside the family, a bad result
    rank = fen(105).split()[0]
    text += f'[Variant "Chess960"]\n[FEN "{rank} w HEhe - 0 1"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
    text += '[Event "x"]\n[Variant "Chess960"]\n[FEN "?"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
    text += '[Result "2-0"]\n[FEN "' + fen(518) + '"]\n\n1. d4 *\n\n'
    return text, games


def _one_by_one(text: bytes, plies: int) -> Tree:
    """The tree of the games put in one at a time (:meth:`Tree.add_game`)."""
    from solver.games.reading import scan
    from solver.games.stats import result_of

    tree = Tree(Family.load("chess960"), plies)
    for game in scan(iter([text]), "x"):
        if not game.number or game.problem is not None:
            continue
        header = game.data[game.start:game.head]
        result = result_of(game.data, header, game.head, game.end)
        if result is not None:
            tree.add_game(header, game.data, result, game.head, game.end)
    return tree


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.integers(0, 8))
def test_summed_lines_equal_games_one_by_one(seed: int, count: int, plies: int) -> None:
    text = _text(seed, count)[0].encode()
    tree = Tree(Family.load("chess960"), plies)
    tree.add(iter([text]), "x")
    alone = _one_by_one(text, plies)
    got, want = json.loads(tree.json()), json.loads(alone.json())
    assert json.dumps(got["positions"]) == json.dumps(want["positions"])  # children's order too
    assert tree.csv() == alone.csv()


@pytest.mark.parametrize("workers", [2, 3])
def test_workers_equal_one_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                workers: int) -> None:
    text, games = _text(7, 300)
    path = tmp_path / "g.pgn"
    path.write_text(text)
    whole = Tree(Family.load("chess960"), 12)
    told: list[tuple[int, str]] = []
    whole.add(iter([text.encode()]), str(path), lambda n, why: told.append((n, why)))

    import solver.games.fast
    import solver.processes

    monkeypatch.setattr(solver.games.fast, "PARALLEL_FROM", 0)
    monkeypatch.setattr(solver.processes, "cores", lambda: workers)
    spans: list[Any] = []
    ranges = solver.games.fast.ranges
    monkeypatch.setattr(solver.games.fast, "ranges",
                        lambda *a: spans.extend(ranges(*a)) or ranges(*a))
    parts = Tree(Family.load("chess960"), 12)
    reported: list[tuple[int, str]] = []
    read = parts.add_file(str(path), path.stat().st_size, lambda n, why: reported.append((n, why)))
    assert len(spans) == workers  # the file was cut in as many ranges
    assert read == len(games) + 3
    assert parts.json() == whole.json()
    assert (parts.games, parts.skipped, parts.outside) == (whole.games, whole.skipped,
                                                          whole.outside)
    assert parts.notes.records() == whole.notes.records()
    assert reported == told == [(len(games) + 3, "result '2-0' is not 1-0, 0-1, 1/2-1/2 or *")]
    assert parts.notes.repaired == 1
    want = expected(games, 12)
    for line in ((), ("e4",)):  # the repaired game: White won, no rating, no date
        node = want.setdefault((105, line), [0, 0, 0, 0, 0.0, 0, ""])
        node[0] += 1
        node[1] += 1
    same(flatten(json.loads(parts.json())), want)

@pytest.mark.parametrize("line", [(), ("e4",), ("e4", "e5"), ("h4", "h5", "h6"),
                                  ("e4", "e5", "Nf3", "Nc6", "Bb5")])
def test_summarised_workers_answer_as_the_whole_tree(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     line: tuple[str, ...]) -> None:
    """Workers of a tree summarised after a line send the tables through it
    instead of their lines: the explorer's tables, the positions that played
    the line, the ids and the refusals are the whole tree's."""
    from solver.errors import TreeError

    text = _text(11, 300)[0]
    path = tmp_path / "g.pgn"
    path.write_text(text)
    whole = Tree(Family.load("chess960"), 4)
    whole.add(iter([text.encode()]), str(path))

    import solver.games.fast
    import solver.processes

    monkeypatch.setattr(solver.games.fast, "PARALLEL_FROM", 0)
    monkeypatch.setattr(solver.processes, "cores", lambda: 3)
    parts = Tree(Family.load("chess960"), 4)
    parts.summarise(line)
    parts.add_file(str(path), path.stat().st_size)
    assert len(parts._tables) == 3  # (the two workers sent tables; this one kept its own)

    def answers(tree: Tree) -> list[Any]:
        found: list[Any] = [tree.ids, tree.played(line), tree.games, tree.outside]
        for ids in (None, [105, 518], [whole.ids[0]], [7]):
            try:
                found.append(list(tree.text(ids, line, 2)))
            except TreeError as exc:
                found.append(str(exc))
        return found

    assert answers(parts) == answers(whole)
    parts.keep([518, 105, whole.ids[-1]])
    whole.keep([518, 105, whole.ids[-1]])
    assert answers(parts) == answers(whole)
    with pytest.raises(RuntimeError, match="summarised"):
        parts.json()


_NAMES = ["FEN", "Result", "WhiteElo", "BlackElo", "UTCDate", "Date", "Variant", "F", "Res"]
_line = st.one_of(
    st.tuples(st.sampled_from(_NAMES), st.text("ab 1?.\\\"-", max_size=6),
              st.sampled_from(['[{} "{}"]', '[{}  "{}"]', '[{}\t"{}"]', '[{} "{}"]\r',
                               '[{} "{}" ]', ' [{} "{}"]', '{} "{}"'])).map(
        lambda t: t[2].format(t[0], t[1])),
    st.sampled_from(["", "%", '[FEN "x"] [Result "1-0"]']))


@settings(max_examples=150, deadline=None)
@given(st.lists(_line, min_size=1, max_size=6))
def test_plain_tags_are_what_tag_reads(lines: list[str]) -> None:
    header = "\n".join(lines).encode()
    found = plain_tags(header)
    plain = all(re.fullmatch(r'\[[A-Za-z0-9_]+ "[^"\\\r\n]*"\]', line) for line in lines)
    assert (found is not None) == plain
    if found is not None:
        for name in _NAMES:
            assert found.get(name.encode()) == tag(header, name.encode()), name


def test_tree_command_reads_a_large_file_in_workers(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The command gives the same tree from a plain file (read in ranges) and
    from the same bytes compressed (read as a stream)."""
    from typer.testing import CliRunner

    import solver.games.fast
    import solver.processes
    from solver.cli.app import app

    text = _text(3, 120)[0]
    plain = tmp_path / "g.pgn"
    plain.write_text(text)
    import gzip

    packed = tmp_path / "g.pgn.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    monkeypatch.setattr(solver.games.fast, "PARALLEL_FROM", 0)
    monkeypatch.setattr(solver.processes, "cores", lambda: 2)
    runner = CliRunner()
    got = [runner.invoke(app, ["games", "tree", str(p), "--format", "json"]) for p in
           (plain, packed)]
    assert got[0].exit_code == got[1].exit_code == 0
    assert json.loads(got[0].stdout)["positions"] == json.loads(got[1].stdout)["positions"]



_WORDS = ["e4", "Nf3", "exd5", "O-O", "0-0", "0-0-0+", "Qh5#", "e8=Q+", "e4!?", "Nc6?", "--",
          "1.", "12.", "1...", "3.e4", "1.1.e4", "5", "e4.", "{ [%clk 0:03:00] }", "{x}", "{",
          "}", "$1", "(", ")", "( 2. d4 )", ";c\n", "\n%x\n", "1-0", "0-1", "1/2-1/2", "*",
          "*x", "\n", "\t", "\r\n", "e4{a}e5", "e4)", "0-1x"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=30), st.integers(1, 14),
       st.sampled_from([" ", "", "\n"]))
def test_plain_moves_pattern_reads_as_the_tokenizer(words: list[str], plies: int,
                                                    gap: str) -> None:
    """Where the one-match pattern reads the moves, it reads what the careful
    tokenizer reads (which the other tests hold against lines written out)."""
    from solver.games.tree import _moves, _plies, moves_in

    text = gap.join(words).encode()
    want = _moves(text, plies, True)
    assert moves_in(text, 0, len(text), plies) == want
    found = _plies(plies).match(text)
    if found is not None:
        assert len(want) == plies
