"""``chess960 games tree`` and ``games merge``: opening trees of collections
made here, compared node by node with a tree the test builds itself from the
move lists it wrote.

The games are lichess-shaped (the export's tag set, ``{ [%clk 0:03:00] }``
after every move, ``0-0`` and ``O-O``, ``!?`` suffixes, NAGs, nested
variations, ``;`` comments), with CRLF line ends, a truncated last game, a
``[FEN "?"]`` game (not in family), gzip and zstd. The moves are SAN-looking
words drawn from a small set, not legal games: the tree is keyed by SAN.
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.family import Family
from solver.games.tree import Tree, merge
from tests.test_games import RANKS, fen, run

MOVES = ["e4", "e5", "d4", "Nf3", "Nc6", "c5", "O-O", "O-O-O", "Bxf7+", "Qh5#", "exd5", "b3"]
IDS = [518, 0, 959, 105]
RESULTS = ["1-0", "1/2-1/2", "0-1", "*"]
CONTROLS = ["15+0", "60+0", "180+2", "300+0", "600+5", "1800+30", "-", "86400+0"]
# lichess's speeds by base + 40 * increment seconds (scalachess Speed.scala), written out here
SPEED = {"15+0": "ultrabullet", "60+0": "bullet", "180+2": "blitz", "300+0": "blitz",
         "600+5": "rapid", "1800+30": "classical", "-": "correspondence",
         "86400+0": "correspondence"}
PLAYERS = ["alice", "Bob", "carol"]


class Game:
    def __init__(self, rng: random.Random, index: int) -> None:
        self.id = rng.choice(IDS)
        self.moves = [rng.choice(MOVES[:6] if rng.random() < 0.6 else MOVES)
                      for _ in range(rng.randrange(0, 16))]
        self.result = rng.choice(RESULTS)
        self.white_elo = rng.choice(["?", *(str(r) for r in range(1200, 2600, 150))])
        self.black_elo = rng.choice([str(r) for r in range(1100, 2700, 170)])
        self.month = f"20{rng.randrange(20, 25)}.{rng.randrange(1, 13):02d}"
        self.date = f"{self.month}.{rng.randrange(1, 29):02d}"
        self.control = rng.choice(CONTROLS)
        self.white, self.black = rng.sample(PLAYERS, 2)
        self.index = index
        self.rng = rng

    def rating(self) -> float | None:
        if "?" in (self.white_elo, self.black_elo):
            return None
        return (int(self.white_elo) + int(self.black_elo)) / 2

    def pgn(self) -> str:
        rng = self.rng
        tags = [("Event", "Rated Chess960 game"), ("Site", f"https://lichess.org/{self.index:08d}"),
                ("Date", self.date), ("Round", "-"), ("White", self.white),
                ("Black", self.black), ("Result", self.result), ("UTCDate", self.date),
                ("UTCTime", "12:00:00"), ("WhiteElo", self.white_elo),
                ("BlackElo", self.black_elo), ("WhiteRatingDiff", "+5"),
                ("BlackRatingDiff", "-5"), ("Variant", "Chess960"),
                ("TimeControl", self.control), ("ECO", "?"),
                ("FEN", fen(self.id, shredder=rng.random() < 0.5)), ("SetUp", "1"),
                ("Termination", "Normal")]
        words = []
        for ply, move in enumerate(self.moves):
            if ply % 2 == 0:
                words.append(f"{ply // 2 + 1}.")
            elif rng.random() < 0.3:
                words.append(f"{ply // 2 + 1}...")
            written = move
            if move.startswith("O-O") and rng.random() < 0.5:
                written = move.replace("O", "0")
            words.append(written + rng.choice(["", "", "!", "?!", "!!"]))
            words.append(f"{{ [%clk 0:0{rng.randrange(10)}:00] }}")
            roll = rng.random()
            if roll < 0.1:
                words.append(f"${rng.randrange(1, 20)}")
            elif roll < 0.15:
                words.append("( 9. Qh5 { a (note) } ( 9. a3 $2 ) Nc6 1-0 )")
            elif roll < 0.18:
                words.append("; a comment ( e4 1-0\n")
        words.append(self.result)
        body = " ".join(words).replace("\n ", "\n")
        return "".join(f'[{name} "{value}"]\n' for name, value in tags) + "\n" + body + "\n\n"


def collection(seed: int, count: int) -> list[Game]:
    rng = random.Random(seed)
    return [Game(rng, i) for i in range(count)]


def expected(games: list[Game], plies: int, take: Any = None) -> dict[tuple[int, tuple[str, ...]],
                                                                     list[Any]]:
    """(id, line) → [games, white, draws, black, rating sum, rated, last date], from the lists."""
    nodes: dict[tuple[int, tuple[str, ...]], list[Any]] = defaultdict(
        lambda: [0, 0, 0, 0, 0.0, 0, ""])
    for game in games:
        if take is not None and not take(game):
            continue
        for depth in range(min(plies, len(game.moves)) + 1):
            node = nodes[game.id, tuple(game.moves[:depth])]
            node[0] += 1
            if game.result != "*":
                node[1 + RESULTS.index(game.result)] += 1
            rating = game.rating()
            if rating is not None:
                node[4] += rating
                node[5] += 1
            node[6] = max(node[6], game.date)
    return dict(nodes)


def flatten(document: dict[str, Any]) -> dict[tuple[int, tuple[str, ...]], list[Any]]:
    found = {}

    def visit(number: int, line: tuple[str, ...], node: dict[str, Any]) -> None:
        found[number, line] = [node["games"], node["white"], node["draws"], node["black"],
                               node["rating_sum"], node["rated_games"], node["last_date"] or ""]
        for move, child in node["children"].items():
            visit(number, (*line, move), child)

    for entry in document["positions"]:
        visit(entry["id"], (), entry)
    return found


def same(got: dict[Any, list[Any]], want: dict[Any, list[Any]]) -> None:
    assert got.keys() == want.keys()
    for key, node in want.items():
        assert got[key][:4] == node[:4] and got[key][5:] == node[5:], key
        assert got[key][4] == pytest.approx(node[4]), key


def write(tmp_path: Path, name: str, games: list[Game], crlf: bool = False,
          truncated: bool = True) -> Path:
    text = "".join(g.pgn() for g in games)
    text += '[Event "x"]\n[Variant "Chess960"]\n[FEN "?"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
    if truncated:
        text += '[Event "cut"]\n[Result "1-0"]\n[FEN "' + fen(518) + '"]\n\n1. e4 { [%clk'
    if crlf:
        text = text.replace("\n", "\r\n")
    path = tmp_path / name
    data = text.encode()
    if name.endswith(".gz"):
        data = gzip.compress(data)
    elif name.endswith(".zst"):
        zstandard = pytest.importorskip("zstandard", reason="zstandard is not installed")
        data = zstandard.ZstdCompressor().compress(data)
    path.write_bytes(data)
    return path


# -- the tree -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "crlf", "plies"), [
    ("g.pgn", False, 12), ("g.pgn", True, 5), ("g.pgn.gz", True, 12), ("g.pgn.zst", False, 3)])
def test_tree_equals_the_written_lines(tmp_path: Path, name: str, crlf: bool, plies: int) -> None:
    games = collection(plies + crlf, 120)
    path = write(tmp_path, name, games, crlf)
    ran = run(["games", "tree", str(path), "--plies", str(plies), "-f", "json"])
    assert ran.returncode == 0
    err = ran.stderr.decode()
    assert err.startswith(f"{path}: game 122 skipped: ") and err.count("\n") == 1, err
    document = json.loads(ran.stdout)
    assert document["games"] == 121 and document["not_in_family"] == 1
    assert document["skipped"] == 1 and document["plies"] == plies
    assert all(entry["rank"] == RANKS[str(entry["id"])] for entry in document["positions"])
    same(flatten(document), expected(games, plies))


def test_csv_rows_are_the_nodes(tmp_path: Path) -> None:
    games = collection(7, 60)
    path = write(tmp_path, "g.pgn", games, truncated=False)
    ran = run(["games", "tree", str(path), "--plies", "4", "-f", "csv"])
    lines = ran.stdout.decode().splitlines()
    assert lines[0] == "id,line,games,white,draws,black,avg_rating,last_date,top_share"
    want = expected(games, 4)
    assert len(lines) - 1 == len(want)
    for row in lines[1:]:
        number, line, count, white, draws, black, rating, last, _ = row.split(",")
        node = want[int(number), tuple(line.split())]
        assert [int(count), int(white), int(draws), int(black), last] == [*node[:4], node[6]]
        assert rating == ("" if not node[5] else f"{node[4] / node[5]:.1f}")


def test_text_table_after_a_line(tmp_path: Path) -> None:
    games = collection(3, 200)
    path = write(tmp_path, "g.pgn", games, truncated=False)
    ran = run(["games", "tree", str(path), "--id", "518", "--line", "1. e4"])
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.decode().splitlines()
    want = expected(games, 12)
    here = want[518, ("e4",)]
    assert lines[0].startswith(f"FRC 518 (id 518) after e4: {here[0]} games")
    assert lines[1].split() == ["move", "games", "%", "white", "draws", "black", "rating"]
    shown = {cells.split()[0]: int(cells.split()[1]) for cells in lines[2:]}
    assert shown == {line[1]: node[0] for (n, line), node in want.items()
                     if n == 518 and len(line) == 2 and line[0] == "e4"}
    finished = [row for row in lines[2:] if row.split()[3] != "-"]
    assert finished and all(set(row.split()[-1]) <= set("█▒░") for row in finished)


def test_min_games_prunes(tmp_path: Path) -> None:
    games = collection(5, 150)
    path = write(tmp_path, "g.pgn", games, truncated=False)
    ran = run(["games", "tree", str(path), "--min-games", "4", "-f", "json"])
    got = flatten(json.loads(ran.stdout))
    want = {k: v for k, v in expected(games, 12).items() if v[0] >= 4}
    assert set(got) <= set(want)
    assert all(got[k][0] >= 4 for k in got)
    # a kept node's parents are kept
    assert all((n, line[:-1]) in got for n, line in got if line)


# -- filters --------------------------------------------------------------------------------------

FILTERS = [
    (["--speed", "blitz,rapid"], lambda g: SPEED[g.control] in ("blitz", "rapid")),
    (["--speed", "correspondence"], lambda g: SPEED[g.control] == "correspondence"),
    (["--speed", "ultrabullet", "--speed", "bullet"],
     lambda g: SPEED[g.control] in ("ultrabullet", "bullet")),
    (["--rating", "1600-2200"], lambda g: g.rating() is not None and 1600 <= g.rating() < 2200),
    (["--rating", "1800"], lambda g: g.rating() is not None and 1800 <= g.rating() < 2000),
    (["--since", "2022-03", "--until", "2023-10"], lambda g: "2022.03" <= g.month <= "2023.10"),
    (["--player", "ALICE"], lambda g: "alice" in (g.white, g.black)),
    (["--player", "bob", "--color", "black"], lambda g: g.black == "Bob"),
]


@pytest.mark.parametrize(("options", "take"), FILTERS)
def test_filters(tmp_path: Path, options: list[str], take: Any) -> None:
    games = collection(11, 150)
    path = write(tmp_path, "g.pgn", games, truncated=False)
    ran = run(["games", "tree", str(path), "-f", "json", "--plies", "6", *options])
    assert ran.returncode == 0, ran.stderr
    document = json.loads(ran.stdout)
    same(flatten(document), expected(games, 6, take))
    assert document["filtered_out"] == sum(not take(g) for g in games)


# -- merge ----------------------------------------------------------------------------------------

@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 80), max_size=4))
def test_merged_shards_equal_the_whole(cuts: list[int]) -> None:
    games = collection(21, 80)
    family = Family.load("chess960")
    bounds = [0, *sorted(cuts), 80]
    documents = []
    for index, (low, high) in enumerate(itertools.pairwise(bounds)):
        shard = Tree(family, 6)
        shard.add(iter(["".join(g.pgn() for g in games[low:high]).encode()]), "x")
        documents.append((f"shard {index}", json.loads(shard.json())))
    whole = Tree(family, 6)
    whole.add(iter(["".join(g.pgn() for g in games).encode()]), "x")
    assert merge(documents) == json.loads(whole.json())


def test_merge_command(tmp_path: Path) -> None:
    games = collection(4, 90)
    paths = []
    for index, part in enumerate((games[:30], games[30:])):
        pgn = write(tmp_path, f"{index}.pgn", part, truncated=False)
        paths.append(str(tmp_path / f"{index}.json"))
        assert run(["games", "tree", str(pgn), "-f", "json", "-o", paths[-1]]).returncode == 0
    ran = run(["games", "merge", *paths])
    assert ran.returncode == 0, ran.stderr
    document = json.loads(ran.stdout)
    same(flatten(document), expected(games, 12))
    assert document["games"] == 92 and document["not_in_family"] == 2


def test_merged_stats_equal_the_whole(tmp_path: Path) -> None:
    games = collection(6, 60)
    paths = [write(tmp_path, f"{i}.pgn", part, truncated=i == 1)
             for i, part in enumerate((games[:25], games[25:]))]
    tables = []
    for path in paths:
        ran = run(["games", "stats", str(path), "-f", "json"])
        tables.append(tmp_path / f"{path.stem}.json")
        tables[-1].write_bytes(ran.stdout)
    merged = run(["games", "merge", *map(str, tables)])
    assert merged.returncode == 0, merged.stderr
    assert merged.stdout == run(["games", "stats", *map(str, paths), "-f", "json"]).stdout
    mixed = run(["games", "merge", str(tables[0]), str(tmp_path / "tree.json")])
    assert mixed.returncode == 1
    (tmp_path / "tree.json").write_bytes(run(["games", "tree", str(paths[0]), "-f", "json"]).stdout)
    mixed = run(["games", "merge", str(tables[0]), str(tmp_path / "tree.json")])
    assert mixed.stderr == b"error: trees and games stats tables cannot be merged together\n"


# -- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "message"), [
    (["--speed", "lightning"], "speed 'lightning' is not one of"),
    (["--rating", "1700"], "rating group '1700' is not one of lichess's groups"),
    (["--rating", "2200-1600"], "rating '2200-1600' is an empty range"),
    (["--since", "2023-13"], "--since '2023-13' is not a month written YYYY-MM"),
    (["--id", "518", "--line", "h4"], "line 'h4' is not played from id 518"),
    (["--id", "960"], "960"),
])
def test_bad_options(tmp_path: Path, options: list[str], message: str) -> None:
    path = write(tmp_path, "g.pgn", collection(1, 20), truncated=False)
    ran = run(["games", "tree", str(path), *options])
    err = ran.stderr.decode()
    assert ran.returncode == 1 and err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err


@pytest.mark.parametrize("content", [
    b"not json", b'{"a": 1}', b'{"family": "chess960", "plies": 2, "positions": [{"id": 1}]}'])
def test_bad_merge_input(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    ran = run(["games", "merge", str(path)])
    err = ran.stderr.decode()
    assert ran.returncode == 1 and err.startswith("error: ") and err.count("\n") == 1, err
    assert "bad.json" in err or "..." in err  # a long path is shown cut in the middle


def test_merge_refuses_other_plies(tmp_path: Path) -> None:
    pgn = write(tmp_path, "g.pgn", collection(2, 10), truncated=False)
    for plies in (3, 4):
        run(["games", "tree", str(pgn), "-f", "json", "-p", str(plies),
             "-o", str(tmp_path / f"{plies}.json")])
    ran = run(["games", "merge", str(tmp_path / "3.json"), str(tmp_path / "4.json")])
    assert ran.returncode == 1 and "cannot be merged" in ran.stderr.decode()
    run(["games", "tree", str(pgn), "-f", "json", "--min-games", "2",
         "-o", str(tmp_path / "pruned.json")])
    ran = run(["games", "merge", str(tmp_path / "pruned.json")])
    assert ran.returncode == 1 and "pruned by --min-games 2" in ran.stderr.decode()


def test_ranks_known() -> None:
    assert all(str(n) in RANKS for n in IDS)


@pytest.mark.parametrize(("options", "message"), [
    (["--color", "white"], "--color needs --player"),
    (["--player", "x", "--color", "red"], "'red' is not white or black"),
    (["-f", "html"], "'html' is not text, json or csv"),
])
def test_usage_errors(tmp_path: Path, options: list[str], message: str) -> None:
    path = write(tmp_path, "g.pgn", collection(1, 5), truncated=False)
    ran = run(["games", "tree", str(path), *options])
    assert ran.returncode == 2 and message in ran.stderr.decode(), ran.stderr


def test_stdin_and_a_file_with_no_game(tmp_path: Path) -> None:
    games = collection(8, 30)
    ran = run(["games", "tree", "-", "-f", "json", "-p", "3"],
              stdin="".join(g.pgn() for g in games).encode())
    same(flatten(json.loads(ran.stdout)), expected(games, 3))
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"no games here\n")
    ran = run(["games", "tree", str(empty)])
    err = ran.stderr.decode()
    assert ran.returncode == 1 and err.startswith("error: ") and err.count("\n") == 1, err


def test_memory_grows_with_lines_not_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same twenty games 40 times and 160 times (500 KB and 2 MB, read 64 KB
    at a time): the tree and the memory read at its peak stay alike."""
    import tracemalloc

    import solver.games.fast

    monkeypatch.setattr(solver.games.fast, "CHUNK", 64 << 10)

    games = collection(12, 20)
    text = "".join(g.pgn() for g in games).encode()
    peaks = []
    for copies in (40, 160):
        tree = Tree(Family.load("chess960"), 12)
        tracemalloc.start()
        tree.add(iter([text] * copies), "x")
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert tree.games == 20 * copies
    assert peaks[1] < peaks[0] * 1.5 + 200_000, peaks


def test_unknown_dates_and_ratings() -> None:
    """``?`` in a date keeps it out of the last date (and out of --since);
    a ``?`` rating keeps the game out of the average."""
    pgn = (f'[FEN "{fen(518)}"]\n[Date "2024.??.??"]\n[WhiteElo "?"]\n[BlackElo "1500"]\n'
           f'[Result "1-0"]\n\n1. e4 1-0\n\n'
           f'[FEN "{fen(518)}"]\n[Date "2023.05.01"]\n[WhiteElo "1700"]\n[BlackElo "1500"]\n'
           f'[Result "0-1"]\n\n1. e4 0-1\n\n').encode()
    tree = Tree(Family.load("chess960"), 2)
    tree.add(iter([pgn]), "x")
    node = tree.roots[518].children["e4"]
    assert (node.games, node.white, node.black, node.last, node.rating()) == \
        (2, 1, 1, "2023.05.01", 1600.0)
