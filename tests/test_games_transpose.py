"""``chess960 games tree --transpositions``: the tree merged by position,
compared position by position with counts python-chess (a test-only oracle)
builds by replaying each game itself.

The games are legal games python-chess plays from several Chess960 starts,
drawn mostly from a few moves so that lines transpose (``1. Nf3 Nf6 2. g3``
and ``1. g3 Nf6 2. Nf3``), with Chess960 castling (id 96, BBQNRNKR: ``1. Nfe3
... 2. O-O``) and repetitions (``Nf3 Nf6 Ng1 Ng8``), which count once per visit.
"""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("cozy_chess", reason="cozy-chess-py is not installed: "
                                          "pip install 'chess960[moves]' to test --transpositions")
chess = pytest.importorskip("chess", reason="python-chess (the oracle) is not installed")

from tests.test_games import RANKS, run  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PLIES = 8
IDS = [518, 326, 96, 0]
LIKED = {"Nf3", "g3", "Nf6", "g6", "d4", "d5", "O-O", "O-O-O", "Nfe3", "Nfe6", "Nf1", "Ng1", "Ng8",
         "c4", "c5", "e4", "e5", "Nc3", "Nc6", "Bg2", "Bg7"}
RESULTS = ["1-0", "1/2-1/2", "0-1", "*"]
#: Fixed games: (id, moves, result, ratings).
FIXED = [
    (518, "Nf3 Nf6 g3 d5", "1-0", (1800, 1700)),
    (518, "g3 Nf6 Nf3 d5", "0-1", (2000, 2100)),
    (518, "g3 Nf6 Nf3 e6", "1/2-1/2", None),
    (518, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6", "1-0", None),  # the start and two more, twice each
    (96, "Nfe3 Nfe6 O-O O-O", "1-0", (1500, 1500)),
    (96, "Nfe3 Nfe6 O-O g6", "0-1", None),
]


def start(number: int) -> Any:
    rank = RANKS[str(number)]
    return chess.Board(f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1",
                       chess960=True)


def key(board: Any) -> str:
    return " ".join(board.fen(shredder=True).split()[:4])


def played(rng: random.Random) -> tuple[int, list[str]]:
    """A random legal game's moves (SAN as python-chess writes them)."""
    number = rng.choice(IDS)
    board = start(number)
    line: list[str] = []
    for _ in range(rng.randrange(0, 12)):
        sans = [board.san(m) for m in board.legal_moves]
        if not sans:
            break
        liked = [s for s in sans if s.rstrip("+#") in LIKED]
        san = rng.choice(liked if liked and rng.random() < 0.85 else sans)
        board.push_san(san)
        line.append(san)
    return number, line


def collection(seed: int, count: int) -> list[tuple[int, list[str], str, Any]]:
    rng = random.Random(seed)
    games = [(n, moves.split(), result, ratings) for n, moves, result, ratings in FIXED]
    for _ in range(count):
        number, line = played(rng)
        ratings = None if rng.random() < 0.3 else (rng.randrange(1200, 2400),
                                                   rng.randrange(1200, 2400))
        games.append((number, line, rng.choice(RESULTS), ratings))
    return games


def pgn(games: list[tuple[int, list[str], str, Any]]) -> str:
    out = []
    for index, (number, line, result, ratings) in enumerate(games):
        rank = RANKS[str(number)]
        tags = [f'[Event "g{index}"]', f'[Result "{result}"]',
                f'[UTCDate "2024.{1 + index % 12:02d}.01"]',
                f'[FEN "{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"]']
        if ratings is not None:
            tags[1:1] = [f'[WhiteElo "{ratings[0]}"]', f'[BlackElo "{ratings[1]}"]']
        moves = " ".join(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san
                         for i, san in enumerate(line))
        out.append("\n".join(tags) + f"\n\n{moves} {result}\n\n")
    return "".join(out)


def oracle(games: list[tuple[int, list[str], str, Any]], plies: int
           ) -> tuple[dict[tuple[int, str], list[Any]], dict[tuple[int, str, str], int]]:
    """python-chess's merged counts: per (id, position) games, White's wins,
    draws, Black's wins, rated games, rating sum, last date; per (id,
    position, next position) the games that went on to it."""
    counts: dict[tuple[int, str], list[Any]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0.0, ""])
    edges: dict[tuple[int, str, str], int] = defaultdict(int)
    for index, (number, line, result, ratings) in enumerate(games):
        board = start(number)
        date = f"2024.{1 + index % 12:02d}.01"
        here = key(board)
        visits = [here]
        for san in line[:plies]:
            board.push_san(san)
            after = key(board)
            edges[number, here, after] += 1
            visits.append(after)
            here = after
        for position in visits:
            row = counts[number, position]
            row[0] += 1
            if result in ("1-0", "1/2-1/2", "0-1"):
                row[1 + ("1-0", "1/2-1/2", "0-1").index(result)] += 1
            if ratings is not None:
                row[4] += 1
                row[5] += (ratings[0] + ratings[1]) / 2
            row[6] = max(row[6], date)
    return dict(counts), dict(edges)


@pytest.mark.parametrize(("seed", "plies"), [(1, PLIES), (2, 3), (3, 12)])
def test_json_equals_python_chess(tmp_path: Path, seed: int, plies: int) -> None:
    games = collection(seed, 300)
    path = tmp_path / "g.pgn"
    path.write_text(pgn(games))
    ran = run(["games", "tree", str(path), "--transpositions", "-f", "json", "-p", str(plies)])
    assert ran.returncode == 0, ran.stderr
    document = json.loads(ran.stdout)
    got: dict[tuple[int, str], list[Any]] = {}
    got_edges: dict[tuple[int, str, str], int] = {}
    for entry in document["positions"]:
        number = entry["id"]
        assert entry["start"] == key(start(number))
        for position in entry["positions"]:
            got[number, position["fen"]] = [
                position[k] for k in ("games", "white", "draws", "black", "rated_games",
                                      "rating_sum")] + [position["last_date"] or ""]
            for san, target in position["moves"].items():
                got_edges[number, position["fen"], target] = position["next"][san]["games"]
    want, want_edges = oracle(games, plies)
    assert got.keys() == want.keys()
    for where, row in want.items():
        assert got[where][:5] == row[:5], where
        assert got[where][5] == pytest.approx(row[5]) and got[where][6] == row[6], where
    assert got_edges == want_edges
    assert {entry["id"] for entry in document["positions"]} == {n for n, *_ in games}


def test_transposed_and_castled_positions_are_merged(tmp_path: Path) -> None:
    games = collection(4, 0)
    path = tmp_path / "g.pgn"
    path.write_text(pgn(games))
    ran = run(["games", "tree", str(path), "--transpositions", "-f", "json"])
    positions = {(e["id"], p["fen"]): p for e in json.loads(ran.stdout)["positions"]
                 for p in e["positions"]}
    board = start(518)
    for san in ["Nf3", "Nf6", "g3"]:
        board.push_san(san)
    assert positions[518, key(board)]["games"] == 3  # two move orders
    assert positions[518, key(start(518))]["games"] == 5  # four games, one back there
    board = start(518)
    for san in ["Nf3", "Nf6"]:
        board.push_san(san)
    assert positions[518, key(board)]["games"] == 3  # one game, and one there twice
    board = start(96)
    for san in ["Nfe3", "Nfe6", "O-O"]:
        board.push_san(san)
    castled = positions[96, key(board)]
    assert castled["games"] == 2 and set(castled["moves"]) == {"O-O", "g6"}
    assert castled["fen"] == "bbqnr1kr/pppppppp/4n3/8/8/4N3/PPPPPPPP/BBQNRRK1 b he -"


def test_csv_rows_are_the_positions(tmp_path: Path) -> None:
    games = collection(5, 100)
    path = tmp_path / "g.pgn"
    path.write_text(pgn(games))
    ran = run(["games", "tree", str(path), "--transpositions", "-f", "csv", "-p", "6"])
    rows = ran.stdout.decode().splitlines()
    assert rows[0] == "id,fen,games,white,draws,black,avg_rating,last_date,moves"
    want, _ = oracle(games, 6)
    got = {}
    for row in rows[1:]:
        number, fen, count, white, draws, black, *_ = row.split(",")
        got[int(number), fen] = [int(count), int(white), int(draws), int(black)]
    assert got == {where: row[:4] for where, row in want.items()}


def test_table_after_a_line_counts_every_move_order(tmp_path: Path) -> None:
    games = collection(6, 200)
    path = tmp_path / "g.pgn"
    path.write_text(pgn(games))
    ran = run(["games", "tree", str(path), "--transpositions", "--id", "518",
               "--line", "1. g3 Nf6 2. Nf3"])
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.decode().splitlines()
    want, edges = oracle(games, 12)
    board = start(518)
    for san in ["Nf3", "Nf6", "g3"]:  # the other order: the same position
        board.push_san(san)
    here = key(board)
    assert lines[0].startswith(f"FRC 518 (id 518) after g3 Nf6 Nf3 (any move order): "
                               f"{want[518, here][0]} games")
    assert lines[1].split() == ["move", "games", "%", "white", "draws", "black", "rating"]
    shown = {row.split()[0]: int(row.split()[1]) for row in lines[2:]}
    expected = {}
    for move in board.legal_moves:
        after = board.copy()
        after.push(move)
        if (518, here, key(after)) in edges:
            expected[board.san(move)] = edges[518, here, key(after)]
    assert shown == expected and sum(shown.values()) <= want[518, here][0]


def test_a_line_shows_the_starts_that_reached_it(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text(pgn(collection(4, 0)))
    ran = run(["games", "tree", str(path), "--transpositions", "--line", "Nfe3 Nfe6 O-O"])
    lines = ran.stdout.decode().splitlines()
    assert ran.returncode == 0, ran.stderr
    assert lines[0].startswith("FRC 96 (id 96) after Nfe3 Nfe6 O-O (any move order): 2 games")
    assert {row.split()[0] for row in lines[2:]} == {"O-O", "g6"}
    ran = run(["games", "tree", str(path), "--transpositions", "--line", "Nfe3", "--id", "518"])
    assert ran.returncode == 1
    assert ran.stderr.decode() == "error: line 'Nfe3' from id 518: 'Nfe3' is not a legal move\n"


def test_a_move_that_is_not_legal(tmp_path: Path) -> None:
    path = tmp_path / "bad.pgn"
    path.write_text('[Result "1-0"]\n'
                    '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n'
                    "\n1. e4 e5 2. Ke3 1-0\n\n")
    ran = run(["games", "tree", str(path), "--transpositions"])
    err = ran.stderr.decode()
    assert ran.returncode == 1 and err.count("\n") == 1, err
    assert err == "error: line 'e4 e5 Ke3' from id 518: 'Ke3' is not a legal move\n"


def written_otherwise(games: list[tuple[int, list[str], str, Any]], seed: int
                      ) -> list[tuple[int, list[str], str, Any]]:
    """The games with some pieces' moves written as python-chess also reads
    them: from their whole square (``Ng1f3``), their file or rank (``Ngf3``,
    ``N1f3``), with ``-`` or without their ``x``."""
    rng = random.Random(seed)
    out = []
    for number, line, result, ratings in games:
        board = start(number)
        written = []
        for played_san in line:
            san = played_san
            move = board.parse_san(san)
            piece = board.piece_at(move.from_square)
            if piece is not None and piece.piece_type != chess.PAWN and \
                    not board.is_castling(move) and rng.random() < 0.5:
                square = chess.square_name(move.from_square)
                capture = rng.choice(["x", "", "-"]) if board.is_capture(move) else \
                    rng.choice(["", "-"])
                origin = rng.choice([square, square[0], square[1]])
                other = (piece.symbol().upper() + origin + capture
                         + chess.square_name(move.to_square) + san[len(san.rstrip("+#")):])
                with contextlib.suppress(ValueError):  # (a file or rank that leaves two)
                    if board.parse_san(other) == move:
                        san = other
            board.push_san(san)
            written.append(san)
        out.append((number, written, result, ratings))
    return out


def test_moves_written_otherwise_are_read_as_python_chess_reads_them(tmp_path: Path) -> None:
    """An over-specified move (``Ng1f3``, ``Ngf3``), ``-`` or no ``x``: the same
    move, so the same positions and counts as python-chess's."""
    games = written_otherwise(collection(5, 150), 5)
    assert any(len(san.rstrip("+#")) > 4 for _, line, _, _ in games for san in line)
    path = tmp_path / "g.pgn"
    path.write_text(pgn(games))
    ran = run(["games", "tree", str(path), "--transpositions", "-f", "json", "-p", "12"])
    assert ran.returncode == 0, ran.stderr
    got = {(entry["id"], position["fen"]): position["games"]
           for entry in json.loads(ran.stdout)["positions"] for position in entry["positions"]}
    want, _ = oracle(games, 12)
    assert got == {where: row[0] for where, row in want.items()}


def test_an_ambiguous_move(tmp_path: Path) -> None:
    """``Nd2`` where both knights can go (python-chess: AmbiguousMoveError)."""
    board = start(518)
    for san in ["Nf3", "Nf6", "d4", "d5"]:
        board.push_san(san)
    with pytest.raises(chess.AmbiguousMoveError):
        board.parse_san("Nd2")
    path = tmp_path / "g.pgn"
    path.write_text(pgn([(518, ["Nf3", "Nf6", "d4", "d5", "Nd2"], "1-0", None)]))
    ran = run(["games", "tree", str(path), "--transpositions"])
    assert ran.returncode == 1
    assert ran.stderr.decode() == ("error: line 'Nf3 Nf6 d4 d5 Nd2' from id 518: 'Nd2' is "
                                   "ambiguous (2 legal moves fit it)\n")


def test_only_chess_shaped_families(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text(pgn(collection(7, 3)))
    ran = run(["games", "tree", str(path), "--transpositions", "-r", "makruk-shuffle"])
    err = ran.stderr.decode()
    assert ran.returncode == 1 and err.startswith("error: ") and "makruk-shuffle" in err, err


def test_html_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text(pgn(collection(7, 3)))
    ran = run(["games", "tree", str(path), "--transpositions", "--html", str(tmp_path / "x")])
    assert ran.returncode == 2 and "--transpositions" in ran.stderr.decode()


def test_without_cozy_chess(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.pgn"
    path.write_text(pgn(collection(7, 3)))
    monkeypatch.setitem(sys.modules, "cozy_chess", None)  # import cozy_chess fails
    ran = run(["games", "tree", str(path), "--transpositions"])
    err = ran.stderr.decode()
    assert ran.returncode == 1 and err.count("\n") == 1, err
    assert err.startswith("error: ") and "pip install 'chess960[moves]'" in err


def test_the_tree_without_it_does_not_import_cozy_chess(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text(pgn(collection(7, 3)))
    code = ("import sys\nfrom solver.cli.entry import dispatch\n"
            f"for args in (['games', 'tree', {str(path)!r}], ['games', 'stats', {str(path)!r}]):\n"
            "    assert dispatch(args) == 0\n"
            "assert 'cozy_chess' not in sys.modules and 'solver.games.transpose' not in "
            "sys.modules\n")
    ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         check=False, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert ran.returncode == 0, ran.stderr.decode()
