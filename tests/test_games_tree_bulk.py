"""``games tree`` reads plainly written games in bulk (one pattern per header
shape, :mod:`solver.games.tree_bulk`) and the others game by game: the tree is
the one the careful reader builds, game by game, whatever the games hold.

The games are drawn from pieces that each way must read alike: lichess's
header (tags in its order, a title now and then), clock comments, move
numbers written ``1.``/``1...``/``1.e4``, NAGs, ``!?``, variations, ``;`` and
``%`` lines, castling as ``0-0``, short games, games without a result, a
``Result`` tag that is none of the four, a FEN repeated, a FEN with impossible
castling rights, ``[FEN "?"]``, number tags instead of a FEN, another variant,
escapes in values, CRLF line ends, filters.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.family import Family
from solver.games.stats import Stats
from solver.games.tree import Filters, Tree
from tests.profiles import examples
from tests.test_games import fen

MOVES = ["e4", "e5", "Nf3", "Nc6", "d4", "exd4", "O-O", "0-0", "O-O-O+", "Qxd8#", "Bb5!?",
         "c5?", "f4!", "Kg8", "h3", "a6", "e8=Q+", "Nbd7", "--", "g4"]
SPACES = [" ", "  ", "\n", " {[%clk 0:03:00]} ", " { a comment } ", " $1 ", " (1... c5 2. c3) ",
          " ; a comment to the line's end\n", "\n% an escaped line\n", "{x}", " {a\n b} "]


@st.composite
def game(draw: Any) -> str:
    plain = draw(st.integers(0, 4)) > 0  # most games plainly written, as lichess writes them
    number = draw(st.sampled_from([0, 105, 518, 959, 334]))
    castling = draw(st.sampled_from(["", "", "", "HEhe", "-", "shredder"]))
    start = fen(number, shredder=castling == "shredder")
    if castling in ("HEhe", "-"):
        start = start.replace(" KQkq ", f" {castling} ")
    tags = [("Event", "Rated Chess960 game"), ("Site", "https://lichess.org/x")]
    tags.append(("Date", draw(st.sampled_from(["2024.01.02", "2023.??.??", "????.??.??", "x"]))))
    tags += [("White", draw(st.sampled_from(["Anna", "bob", "Carl \\\"C\\\""]))),
             ("Black", draw(st.sampled_from(["Anna", "BOB", "dave"])))]
    result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]))
    tags.append(("Result", result if plain else draw(st.sampled_from([result, "2-0", " 1-0", ""]))))
    if draw(st.booleans()):
        tags.append(("UTCDate", draw(st.sampled_from(["2024.03.04", "", "2022.05.??"]))))
    for side in ("WhiteElo", "BlackElo"):
        if draw(st.integers(0, 5)):
            tags.append((side, draw(st.sampled_from(["1500", "2210", "?", " 1800", "+5"]))))
    if draw(st.integers(0, 4)) == 0:
        tags.append(("WhiteTitle", "FM"))
    tags.append(("Variant", draw(st.sampled_from(["Chess960"] * 5 + ["Standard", "Atomic", ""]))))
    tags.append(("TimeControl", draw(st.sampled_from(["180+0", "600+5", "-", "15+0"]))))
    where = draw(st.sampled_from(["fen"] * 6 + ["none", "?", "opening", "twice"]))
    if where == "fen":
        tags.append(("FEN", start))
    elif where == "?":
        tags.append(("FEN", "?"))
    elif where == "opening":
        tags.append(("Opening", f"FRC {number}"))
    elif where == "twice":
        tags += [("FEN", start), ("FEN", fen(518))]
    if draw(st.booleans()):
        tags = draw(st.permutations(tags))
    header = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    moves = draw(st.lists(st.sampled_from(MOVES), max_size=16))
    text = ""
    for ply, move in enumerate(moves):
        if ply % 2 == 0:
            text += draw(st.sampled_from([f"{ply // 2 + 1}. ", f"{ply // 2 + 1}.", ""]))
        elif draw(st.booleans()):
            text += f"{ply // 2 + 1}... "
        text += move + draw(st.sampled_from(SPACES[:5] if plain else SPACES))
    if plain:
        return f"{header}\n{text}{result}\n\n"
    end = draw(st.sampled_from([result, "", "1-0 {late}", f"; won {result}", f"\n%x {result}",
                                f"{{ a ; b }} {result}"]))
    game = f"{header}\n{text}{end}\n\n"
    return game.replace("\n", "\r\n") if draw(st.booleans()) else game


def _trees(text: bytes, plies: int, filters: Filters | None = None) -> tuple[Tree, Tree]:
    family = Family.load("chess960")
    bulk, careful = Tree(family, plies, filters), Tree(family, plies, filters)
    told: list[list[tuple[int, str]]] = [[], []]
    bulk.add(iter([text]), "x", lambda n, why: told[0].append((n, why)))
    careful.careful(iter([text]), "x", lambda n, why: told[1].append((n, why)))
    assert told[0] == told[1]
    return bulk, careful


def _same(bulk: Tree, careful: Tree) -> None:
    assert json.loads(bulk.json()) == json.loads(careful.json())
    assert bulk.csv() == careful.csv()
    assert list(bulk.text()) == list(careful.text())
    assert bulk.notes.lines() == careful.notes.lines()
    for number in careful.leaves:
        for move in careful.roots[number].children:
            assert list(bulk.text([number], [move])) == list(careful.text([number], [move]))


@settings(max_examples=examples(50, 1500), deadline=None)
@given(st.lists(game(), max_size=25), st.integers(0, 14))
def test_bulk_reads_what_game_by_game_reads(games: list[str], plies: int) -> None:
    bulk, careful = _trees("".join(games).encode(), plies)
    _same(bulk, careful)


@settings(max_examples=examples(25, 600), deadline=None)
@given(st.lists(game(), min_size=1, max_size=20),
       st.sampled_from([Filters(speeds=frozenset({"blitz"})), Filters(low=1600, high=2200),
                        Filters(since="2024.01"), Filters(player="anna", color="white"),
                        Filters(player="bob")]))
def test_bulk_filters_as_game_by_game(games: list[str], filters: Filters) -> None:
    bulk, careful = _trees("".join(games).encode(), 8, filters)
    _same(bulk, careful)
    assert bulk.left_out == careful.left_out


#: A game as lichess exports it (its tags fewer).
LICHESS = (f'[Event "Rated"]\n[Result "1-0"]\n[WhiteElo "1500"]\n[BlackElo "1700"]\n'
           f'[UTCDate "2024.01.02"]\n[Variant "Chess960"]\n[FEN "{fen(518)}"]\n\n'
           "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 1-0\n\n")


def _spied(plies: int) -> tuple[Tree, list[int]]:
    """A tree whose careful reader notes where it is asked to read (its offsets)."""
    tree = Tree(Family.load("chess960"), plies)
    calls: list[int] = []
    original = tree.careful

    def spy(pieces: Any, path: str, report: Any = None, offset: int = 0) -> int:
        calls.append(offset)
        return original(pieces, path, report, offset)

    tree.careful = spy  # type: ignore[method-assign]
    return tree, calls


def test_lichess_games_are_read_in_bulk() -> None:
    """A lichess-shaped game is read by the pattern of its header's shape (not
    game by game), and a game with a variation in between by the careful reader."""
    plain = LICHESS
    odd = plain.replace("2. Nf3", "2. Nf3 (2. d4)")
    text = (plain * 3 + odd + plain * 2).encode()
    tree, careful = _spied(4)
    assert tree.add(iter([text]), "x") == 6
    assert careful == [3]  # only the fourth game, game by game
    node = tree.roots[518].children["e4"].children["e5"]
    assert node.games == 6 and list(node.children) == ["Nf3"] and node.rating() == 1600.0


def test_building_the_tree_leaves_the_lines_as_they_were() -> None:
    """A line read in bulk (``0-0``) and the same line read game by game (``O-O``,
    after a variation) are one node; building the tree (for JSON) does not add
    one's games to the other's, so the table read after it is the one before."""
    head = f'[Result "1-0"]\n[FEN "{fen(518)}"]\n\n'
    text = (head + "1. 0-0 1-0\n\n" + head + "1. O-O (1. e4) 1-0\n\n").encode()
    tree = Tree(Family.load("chess960"), 2)
    tree.add(iter([text]), "x")
    before = list(tree.text())
    assert tree.roots[518].children["O-O"].games == 2
    assert list(tree.text()) == before and before[0].endswith(": 2 games")


def test_crlf_files_are_read_in_bulk_as_game_by_game() -> None:
    """A file with CRLF line ends (ChessBase writes them) is read in bulk
    without its CRs, to the careful reader's tree; a lone CR keeps the rest
    game by game, to the same tree."""
    plain = LICHESS
    for text in ((plain * 5).replace("\n", "\r\n"),
                 (plain * 2).replace("\n", "\r\n") + plain.replace("Nf3", "Nf3\r") * 3):
        bulk, careful = _trees(text.encode(), 4)
        _same(bulk, careful)
        assert bulk.games == 5
    tree, calls = _spied(4)
    tree.add(iter([(plain * 5).replace("\n", "\r\n").encode()]), "x")
    assert calls == [] and tree.games == 5


@pytest.mark.parametrize("end", ["; won 1-0", "\n%x 1-0"])
@pytest.mark.parametrize("plies", [1, 4])
def test_a_result_in_a_comment_ends_no_game(end: str, plies: int) -> None:
    """A result after ``;`` or on a ``%`` line is a comment: the game's moves end
    in none, so it is skipped as truncated, whether read in bulk or game by game,
    by games tree as by games stats (once counted in bulk, skipped game by game)."""
    odd = LICHESS.replace("2. Nf3 1-0", "2. Nf3" + end)
    text = (LICHESS * 2 + odd + LICHESS).encode()
    bulk, careful = _trees(text, plies)
    _same(bulk, careful)
    stats = Stats(Family.load("chess960"))
    told: list[tuple[int, str]] = []
    stats.add(iter([text]), "x", lambda n, why: told.append((n, why)))
    assert bulk.games == stats.games == 3 and bulk.skipped == stats.skipped == 1
    assert [n for n, _ in told] == [3]


@settings(max_examples=examples(25, 800), deadline=None)
@given(st.lists(game(), max_size=20), st.integers(0, 14))
def test_games_stats_and_games_tree_agree(games: list[str], plies: int) -> None:
    """Both commands read a collection alike: the same games under each start,
    the same skipped (and why), the same outside the family, the same notes."""
    text = "".join(games).encode()
    family = Family.load("chess960")
    stats, tree = Stats(family), Tree(family, plies)
    told: list[list[tuple[int, str]]] = [[], []]
    stats.add(iter([text]), "x", lambda n, why: told[0].append((n, why)))
    tree.add(iter([text]), "x", lambda n, why: told[1].append((n, why)))
    assert {n: sum(row) for n, row in stats.rows.items()} == \
        {n: node.games for n, node in tree.roots.items()}
    assert told[0] == told[1] and stats.skipped == tree.skipped
    assert sum(stats.outside) == tree.outside
    assert stats.notes.lines() == tree.notes.lines()
