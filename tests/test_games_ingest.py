"""Robust lichess ingestion (issue 36 item 4): the two traps of lichess's
Chess960 dumps, read by ``games stats``, ``games tag`` and ``games tree``.

* the 2023-11 dump's start FENs whose pieces are a Chess960 start but whose
  castling field is impossible (``HEhe`` where the rooks are elsewhere, ``-``,
  one side's rights only): counted under their position, and reported as
  "castling field repaired" with a count and the first game numbers;
* older dumps' ``[FEN "?"]``, and other games without a usable start (a FEN
  of another family, a garbled FEN, a position after moves, another variant,
  a Chess960 game with neither FEN nor number): "not in family", each reason
  named with its count and first game numbers.

The games are lichess-shaped (the export's full tag set, clocks in comments),
their positions' ranks come from ``tests/data/chess960.txt`` (made from the
published table), and what each game is (clean, repaired, or why it is not in
the family) is decided here, from the rooks' files, not by the code under test:
a Chess960 start's castling field is ``KQkq`` or the rooks' files (Shredder-FEN),
both sides with both rights.
"""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_games import Ran, run

from solver.games.headers import FIRST

ROOT = Path(__file__).resolve().parent.parent
RANKS = {int(n): r for n, r in (line.split() for line in
                                 (ROOT / "tests/data/chess960.txt").read_text().splitlines())}
RESULTS = ["1-0", "1/2-1/2", "0-1", "*"]
MOVES = ["e4", "e5", "Nf3", "Nc6", "d4", "exd4", "c3", "d5", "g3", "O-O"]

#: The reasons the commands give (the report's words, asserted as the user reads them).
UNKNOWN = "FEN '?' names no position"
OTHER_FAMILY = "FEN is not a start of chess960"
GARBLED = "FEN cannot be read"
AFTER_MOVES = "FEN is not a start position"
NO_START = "no FEN and no position number"
REPAIRED = "castling field repaired"


def rook_files(rank: str) -> str:
    return "".join(chr(ord("a") + i) for i, piece in enumerate(rank) if piece == "R")


def start_fen(rank: str, castling: str | None = None) -> str:
    return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w {castling or 'KQkq'} - 0 1"


def possible(rank: str, castling: str) -> bool:
    """Whether ``castling`` is a start's field: both rights of both sides, as
    X-FEN (``KQkq``) or Shredder-FEN (the rooks' files) writes them."""
    files = rook_files(rank)
    shredder = files[::-1].upper() + files[::-1]
    return castling == "KQkq" or sorted(castling) == sorted(shredder)


def impossible_fields(rank: str) -> list[str]:
    """Castling fields that no start with this rank has (lichess's 2023-11 kinds)."""
    fields = ["-", "KQ", "kq", "HEhe", "HAha", "Kkq"]
    return [f for f in fields if not possible(rank, f)]


@dataclass
class Collection:
    """Games made here, and what the test knows of each."""

    games: list[str] = field(default_factory=list)
    rows: dict[int, list[int]] = field(default_factory=dict)  # id -> games per result
    outside: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    repaired: list[int] = field(default_factory=list)  # game numbers
    reasons: dict[str, list[int]] = field(default_factory=dict)  # reason -> game numbers
    ids: list[int | None] = field(default_factory=list)  # each game's position

    def data(self, crlf: bool = False) -> bytes:
        text = "".join(self.games)
        return (text.replace("\n", "\r\n") if crlf else text).encode()


def lichess_game(rng: random.Random, index: int, result: str, fen: str | None,
                 variant: str = "Chess960") -> str:
    """One game as lichess exports it: the full tag set, clocks after every move."""
    white, black = rng.randint(800, 2800), rng.randint(800, 2800)
    tags = [("Event", "Rated Blitz game"), ("Site", f"https://lichess.org/g{index:07d}"),
            ("Date", f"2023.11.{1 + index % 28:02d}"), ("Round", "-"),
            ("White", f"player{rng.randrange(50)}"), ("Black", f"player{rng.randrange(50)}"),
            ("Result", result), ("UTCDate", f"2023.11.{1 + index % 28:02d}"),
            ("UTCTime", f"{index % 24:02d}:{index % 60:02d}:00"), ("WhiteElo", str(white)),
            ("BlackElo", str(black)), ("WhiteRatingDiff", "+5"), ("BlackRatingDiff", "-5"),
            ("Variant", variant), ("TimeControl", "180+2"), ("ECO", "?"),
            ("Termination", "Normal")]
    if fen is not None:
        tags += [("FEN", fen), ("SetUp", "1")]
    header = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    moves = []
    for ply, move in enumerate(MOVES[:rng.randint(0, len(MOVES))]):
        number = f"{ply // 2 + 1}. " if ply % 2 == 0 else f"{ply // 2 + 1}... "
        moves.append(f"{number}{move} {{ [%clk 0:0{ply % 3}:{10 + ply}] }}")
    return f"{header}\n{' '.join([*moves, result])}\n\n"


def collection(seed: int, n: int, traps: bool = True) -> Collection:
    """``n`` games: most from a clean start, some repaired, some not in the family."""
    rng = random.Random(seed)
    made = Collection()
    for index in range(1, n + 1):
        result = rng.choice(RESULTS)
        r = RESULTS.index(result)
        number = rng.randrange(960)
        rank = RANKS[number]
        kind = rng.choice(["clean", "shredder", "repaired", "repaired", "unknown", "other",
                           "garbled", "after", "no start"]) if traps else "clean"
        fen: str | None
        found: int | None = number
        reason = None
        if kind == "clean":
            fen = start_fen(rank)
        elif kind == "shredder":
            files = rook_files(rank)
            fen = start_fen(rank, files[::-1].upper() + files[::-1])
        elif kind == "repaired":
            fen = start_fen(rank, rng.choice(impossible_fields(rank)))
            made.repaired.append(index)
        elif kind == "unknown":
            fen, found, reason = "?", None, UNKNOWN
        elif kind == "other":  # black's rank is another start's: a DFRC pair
            other = RANKS[(number + 1) % 960]
            fen = f"{other.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"
            found, reason = None, OTHER_FAMILY
        elif kind == "garbled":
            fen, found, reason = f"{rank.lower()}/pppppppp/8/8 w KQkq", None, GARBLED
        elif kind == "after":
            fen = start_fen(rank).replace("/8/8/PPPPPPPP/", "/8/4P3/PPPP1PPP/", 1)
            fen = fen.replace(" w ", " b ", 1)
            found, reason = None, AFTER_MOVES
        else:
            fen, found, reason = None, None, NO_START
        made.games.append(lichess_game(rng, index, result, fen))
        made.ids.append(found)
        if found is None:
            made.outside[r] += 1
            assert reason is not None
            made.reasons.setdefault(reason, []).append(index)
        else:
            made.rows.setdefault(found, [0, 0, 0, 0])[r] += 1
    return made


def csv_rows(out: bytes) -> dict[str, list[int]]:
    rows = {}
    for line in out.decode().splitlines()[1:]:
        number, name, *counts = line.split(",")
        rows[number or name] = [int(c) for c in counts[1:5]]
    return rows


def first_games(numbers: list[int]) -> list[int]:
    return numbers[:FIRST]


def shown(path: str, numbers: list[int]) -> str:
    """How the report writes the first game numbers of one input."""
    games = first_games(numbers)
    return f"(first: {path} game{'s' * (len(games) > 1)} " + ", ".join(map(str, games)) + ")"


def plural(n: int) -> str:
    return f"{n:,} game{'s' * (n != 1)}"


# -- the made games themselves ---------------------------------------------------------------

def test_the_made_fields_are_impossible_and_python_chess_agrees() -> None:
    """The fields called impossible here are so for python-chess too (its
    cleaned castling rights differ from the field's), where it is installed."""
    chess = pytest.importorskip("chess")
    for number in (0, 105, 518, 959):
        rank = RANKS[number]
        assert possible(rank, "KQkq")
        for castling in impossible_fields(rank):
            board = chess.Board(start_fen(rank, castling), chess960=True)
            full = chess.Board(start_fen(rank), chess960=True)
            assert board.castling_rights != full.castling_rights, (number, castling)


# -- games stats -----------------------------------------------------------------------------

@pytest.mark.parametrize("crlf", [False, True])
def test_stats_counts_repaired_games_under_their_position(tmp_path: Path, crlf: bool) -> None:
    made = collection(1, 300)
    path = tmp_path / "lichess.pgn"
    path.write_bytes(made.data(crlf))
    ran = run(["games", "stats", str(path), "--format", "csv"])
    assert ran.returncode == 0, ran.stderr
    rows = csv_rows(ran.stdout)
    assert {int(k): v for k, v in rows.items() if k.isdigit()} == made.rows
    assert rows["not in family"] == made.outside
    err = ran.stderr.decode()  # csv: the notes on stderr
    assert f"{REPAIRED}: {plural(len(made.repaired))}" in err
    assert shown(str(path), made.repaired) in err
    for reason, numbers in made.reasons.items():
        line = next(x for x in err.splitlines() if f"not in family: {reason}:" in x)
        assert plural(len(numbers)) in line and shown(str(path), numbers) in line, line


def test_stats_text_has_the_notes_on_stderr_and_json_has_their_fields(tmp_path: Path) -> None:
    made = collection(2, 200)
    path = tmp_path / "lichess.pgn"
    path.write_bytes(made.data())
    text = run(["games", "stats", str(path)])
    assert text.returncode == 0, text.stderr
    assert REPAIRED not in text.stdout.decode()  # the table alone on stdout
    notes = text.stderr.decode().splitlines()
    assert len(notes) == 1 + len(made.reasons)
    assert notes[0].startswith(f"{REPAIRED}: {plural(len(made.repaired))}")
    assert all(x.startswith("not in family: ") for x in notes[1:])
    ran = run(["games", "stats", str(path), "-f", "json"])
    document = json.loads(ran.stdout)
    repaired = document["castling_repaired"]
    assert repaired["games"] == len(made.repaired)
    assert [g["game"] for g in repaired["first"]] == first_games(made.repaired)
    assert {g["file"] for g in repaired["first"]} == {str(path)}
    reasons = {r["reason"]: r for r in document["not_in_family_reasons"]}
    assert set(reasons) == set(made.reasons)
    for reason, numbers in made.reasons.items():
        assert reasons[reason]["games"] == len(numbers)
        assert [g["game"] for g in reasons[reason]["first"]] == first_games(numbers)
    assert sum(r["games"] for r in reasons.values()) == document["not_in_family"]["games"]


def test_stats_clean_games_say_nothing_more(tmp_path: Path) -> None:
    made = collection(3, 50, traps=False)
    path = tmp_path / "clean.pgn"
    path.write_bytes(made.data())
    ran = run(["games", "stats", str(path)])
    assert ran.returncode == 0 and not ran.stderr
    assert REPAIRED not in ran.stdout.decode()
    assert ran.stdout.decode().splitlines()[-1].startswith("not in family")
    document = json.loads(run(["games", "stats", str(path), "-f", "json"]).stdout)
    assert document["castling_repaired"] == {"games": 0, "first": []}
    assert document["not_in_family_reasons"] == []


def test_stats_on_stdin_gzip_and_several_inputs(tmp_path: Path) -> None:
    """A stream (read in bulk where it can) and two files: numbers per input."""
    first, second = collection(4, 120), collection(5, 80)
    a, b = tmp_path / "a.pgn.gz", tmp_path / "b.pgn"
    a.write_bytes(gzip.compress(first.data()))
    b.write_bytes(second.data())
    ran = run(["games", "stats", str(a), str(b), "-f", "json"])
    document = json.loads(ran.stdout)
    want = len(first.repaired) + len(second.repaired)
    assert document["castling_repaired"]["games"] == want
    places = [(g["file"], g["game"]) for g in document["castling_repaired"]["first"]]
    assert places == [(str(a), n) for n in first_games(first.repaired)]
    piped = run(["games", "stats", "-", "-f", "json"], first.data())
    reasons = json.loads(piped.stdout)["not_in_family_reasons"]
    assert {r["reason"]: [g["game"] for g in r["first"]] for r in reasons} == \
        {k: first_games(v) for k, v in first.reasons.items()}
    assert all(g["file"] == "-" for r in reasons for g in r["first"])


def test_stats_in_bulk_after_the_first_games_still_counts_every_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mostly clean games with a few traps far apart, in worker processes:
    every count holds, and the first numbers are the first ones."""
    from solver.games import fast

    rng = random.Random(6)
    clean = collection(6, 3000, traps=False)
    traps = collection(7, 400)
    made = Collection()
    for index, text in enumerate(clean.games, 1):
        made.games.append(text)
        if index % 150 == 0:  # a trap every 150 games
            made.games.append(rng.choice(traps.games))
    data = made.data()
    path = tmp_path / "big.pgn"
    path.write_bytes(data)
    monkeypatch.setattr(fast, "PARALLEL_FROM", 1)
    monkeypatch.setattr(fast, "WINDOW", 1 << 16)
    with_workers = json.loads(run(["games", "stats", str(path), "-f", "json"]).stdout)
    monkeypatch.setattr(fast, "PARALLEL_FROM", 1 << 40)
    alone = json.loads(run(["games", "stats", str(path), "-f", "json"]).stdout)
    monkeypatch.setattr(fast, "CHUNK", 1 << 16)
    piped = json.loads(run(["games", "stats", "-", "-f", "json"], data).stdout)
    games = data.decode().split("\n\n[Event")
    want_repaired, want_reasons = _classify(games)
    assert want_repaired and want_reasons
    for document in (with_workers, alone, piped):
        _notes_as_made(document, games)


def _notes_as_made(document: dict[str, Any], games: list[str]) -> None:
    """The JSON table's notes are those the test reads back from the games it made."""
    want_repaired, want_reasons = _classify(games)
    assert document["castling_repaired"]["games"] == len(want_repaired)
    assert [g["game"] for g in document["castling_repaired"]["first"]] == \
        first_games(want_repaired)
    got = {r["reason"]: (r["games"], [g["game"] for g in r["first"]])
           for r in document["not_in_family_reasons"]}
    assert got == {k: (len(v), first_games(v)) for k, v in want_reasons.items()}


def _classify(games: list[str]) -> tuple[list[int], dict[str, list[int]]]:
    """Repaired game numbers and reasons, read back from the made text with the
    test's own rule (:func:`possible`)."""
    repaired: list[int] = []
    reasons: dict[str, list[int]] = {}
    for number, text in enumerate(games, 1):
        if '[FEN "' not in text:
            reasons.setdefault(NO_START, []).append(number)
            continue
        fen = text.split('[FEN "', 1)[1].split('"', 1)[0]
        if fen == "?":
            reasons.setdefault(UNKNOWN, []).append(number)
            continue
        fields = fen.split(" ")
        ranks = fields[0].split("/")
        if len(ranks) != 8:
            reasons.setdefault(GARBLED, []).append(number)
        elif fields[1] == "b":
            reasons.setdefault(AFTER_MOVES, []).append(number)
        elif ranks[0] != ranks[7].lower():
            reasons.setdefault(OTHER_FAMILY, []).append(number)
        elif not possible(ranks[7], fields[2]):
            repaired.append(number)
    return repaired, reasons


# -- games tag -------------------------------------------------------------------------------

def test_tag_numbers_repaired_games_and_says_so(tmp_path: Path) -> None:
    made = collection(8, 150)
    path = tmp_path / "lichess.pgn"
    path.write_bytes(made.data())
    ran = run(["games", "tag", str(path), "--tag", "FRCId"])
    assert ran.returncode == 0, ran.stderr
    out = ran.stdout.decode()
    games = out.split("\n\n[Event")
    assert len(games) == len(made.games)
    for number, (text, found) in enumerate(zip(games, made.ids, strict=True), 1):
        original = made.games[number - 1]
        fen = original.split('[FEN "', 1)[1].split('"', 1)[0] if "[FEN" in original else None
        if found is None:
            assert "[FRCId" not in text, number
        else:
            assert f'[FRCId "{found}"]' in text, number
            assert f'[FEN "{fen}"]' in text, number  # the repaired field left as it is
    err = ran.stderr.decode().splitlines()
    summary = err[0]
    assert f"{len(made.repaired)} castling field repaired" in summary
    assert f"{sum(made.outside)} not in family" in summary
    repaired = next(x for x in err if x.startswith(f"{path}: {REPAIRED}:"))
    assert plural(len(made.repaired)) in repaired and "FEN left as it is" in repaired
    assert shown(str(path), made.repaired) in repaired
    for reason, numbers in made.reasons.items():
        line = next(x for x in err if f"not in family: {reason}:" in x)
        assert shown(str(path), numbers) in line, line


# -- games tree ------------------------------------------------------------------------------

def test_tree_counts_repaired_games_under_their_position(tmp_path: Path) -> None:
    made = collection(9, 200)
    path = tmp_path / "lichess.pgn"
    path.write_bytes(made.data())
    ran = run(["games", "tree", str(path), "-f", "json", "--plies", "2"])
    assert ran.returncode == 0, ran.stderr
    document = json.loads(ran.stdout)
    got = {p["id"]: p["games"] for p in document["positions"]}
    assert got == {n: sum(row) for n, row in made.rows.items()}
    assert document["not_in_family"] == sum(made.outside)
    err = ran.stderr.decode().splitlines()  # the repair only (games stats names the reasons)
    assert len(err) == 1 and err[0].startswith(f"{REPAIRED}: {plural(len(made.repaired))}")
    assert shown(str(path), made.repaired) in err[0]


def test_every_kind_is_met() -> None:
    """The made collections hold every trap (else a test above would test less)."""
    made = collection(1, 300)
    assert made.repaired and set(made.reasons) == \
        {UNKNOWN, OTHER_FAMILY, GARBLED, AFTER_MOVES, NO_START}
    kinds = Counter(len(impossible_fields(RANKS[n])) for n in range(960))
    assert min(kinds) >= 4


def test_a_trap_only_file_is_still_a_table(tmp_path: Path) -> None:
    """Every game outside the family: the table, the reasons, exit 0."""
    rng = random.Random(10)
    text = "".join(lichess_game(rng, i, "1-0", "?") for i in range(1, 8))
    ran: Ran = run(["games", "stats", "-"], text.encode())
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.decode().splitlines()[-1].split()[3] == "7"  # not in family: 7 games
    err = ran.stderr.decode()
    assert f"not in family: {UNKNOWN}: 7 games {shown('-', list(range(1, 8)))}" in err


@pytest.mark.parametrize("where", ["second half", "last game", "everywhere", "truncated", "crlf",
                                   "many keys"])
def test_stats_workers_forked_before_the_family_say_what_one_process_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """``games stats`` on a large file forks its workers before it loads the
    family: they keep their games' keys for this process to read. The traps
    put only in their range (the first numbers of their notes found by reading
    it again), or a game to read game by game there (the worker then reads
    its range again with the family), give the table, notes and numbers
    that one process gives, and those the test made."""
    import solver.games.stats as stats_module
    from solver.games import fast

    games = _placed(where)
    path = tmp_path / "big.pgn"
    path.write_bytes("".join(games).encode())
    read_keys: list[int] = []
    real = stats_module.Stats._absorb_keys

    def absorb_keys(self: stats_module.Stats, keys: Counter[tuple[bytes | None, ...]],
                    *args: Any) -> None:
        read_keys.append(sum(keys.values()))
        real(self, keys, *args)

    monkeypatch.setattr(stats_module.Stats, "_absorb_keys", absorb_keys)
    monkeypatch.setattr("solver.processes.can_fork", lambda: True)
    monkeypatch.setattr("solver.processes.cores", lambda: 2)
    monkeypatch.setattr(fast, "PARALLEL_FROM", 1)
    monkeypatch.setattr(fast, "WINDOW", 1 << 16)
    if where == "many keys":  # more distinct keys than a worker keeps unread
        monkeypatch.setattr(stats_module, "DEFERRED_KEYS", 100)
    with_workers = run(["games", "stats", str(path), "-f", "json"])
    monkeypatch.setattr(fast, "PARALLEL_FROM", 1 << 40)
    alone = run(["games", "stats", str(path), "-f", "json"])
    assert with_workers == alone
    if where == "everywhere":  # a file named twice: read twice
        monkeypatch.setattr(fast, "PARALLEL_FROM", 1)
        twice = run(["games", "stats", str(path), str(path), "-f", "json"])
        document = json.loads(twice.stdout)
        assert document["games"] + document["skipped"] == 2 * len(games)
        monkeypatch.setattr(fast, "PARALLEL_FROM", 1 << 40)
        assert twice == run(["games", "stats", str(path), str(path), "-f", "json"])
    if where in ("truncated", "crlf", "many keys"):  # read again, the family loaded
        assert read_keys == []
    else:
        assert read_keys and 0 < read_keys[0] < len(games)
    document = json.loads(alone.stdout)
    _notes_as_made(document, "".join(games).replace("\r\n", "\n").split("\n\n[Event"))
    assert document["games"] + document["skipped"] == len(games)


def _placed(where: str) -> list[str]:
    """Clean lichess-shaped games, with traps or a game to read game by game where told."""
    clean = collection(11, 1200, traps=False)
    traps = collection(12, 300)
    games = list(clean.games)
    half = len(games) // 2
    if where == "second half":
        for k, text in enumerate(traps.games[:40]):
            games.insert(half + 13 * k, text)
    elif where == "last game":
        games.append(next(g for g in traps.games if '[FEN "?"]' in g))
    elif where in ("everywhere", "many keys"):
        for k, text in enumerate(traps.games[:60]):
            games.insert(20 * k, text)
    elif where == "truncated":
        for result in (" 1-0\n", " 0-1\n", " 1/2-1/2\n", " *\n"):
            games[half + 50] = games[half + 50].replace(result, "\n")
        games.insert(half + 80, traps.games[0])
    else:
        games[half:] = [g.replace("\n", "\r\n") for g in games[half:]]
    return games


@pytest.mark.parametrize("where", ["second half", "truncated"])
def test_a_deferred_tally_absorbed_is_the_tally_of_the_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """In this process: a tally without its family (a worker's forked before
    it is loaded) reads the second part of a file, another the first; the
    second absorbed into the first is one tally of the whole file, notes and
    their first numbers included (read again from the second part's windows),
    and a game to read game by game there has the deferred tally load its
    family (once) and read its part again."""
    from solver.family import Family
    from solver.games import fast
    from solver.games.stats import Stats

    games = _placed(where)
    data = "".join(games).encode()
    path = tmp_path / "big.pgn"
    path.write_bytes(data)
    monkeypatch.setattr(fast, "WINDOW", 1 << 15)
    (_, cut), (_, end) = fast.ranges(str(path), len(data), 2)
    loads: list[str] = []

    def load() -> Family:
        loads.append("chess960")
        return Family.load("chess960")

    family = Family.load("chess960")
    deferred = Stats(load, deferred=True)
    second = deferred.add_range(str(path), cut, end)
    first = Stats(family)
    read = first.add_range(str(path), 0, cut)
    first.absorb(*deferred.shared(), offset=read)
    whole = Stats(family)
    assert whole.add_range(str(path), 0, end) == read + second == len(games)
    assert (first.rows, first.outside, first.games, first.skipped) == \
        (whole.rows, whole.outside, whole.games, whole.skipped)
    assert (first.notes.counts, first.notes.first) == (whole.notes.counts, whole.notes.first)
    assert whole.notes.counts  # (the traps are there)
    assert loads == ([] if where == "second half" else ["chess960"])
    assert deferred.deferred is (where == "second half")
    lazy = Stats(load)  # (not deferred: the family loaded when first needed)
    assert lazy.add_range(str(path), 0, end) == len(games)
    assert (lazy.rows, lazy.notes.first) == (whole.rows, whole.notes.first)
    streamed = Stats(load, deferred=True)  # (a stream is read with the family)
    assert streamed.add(iter([data]), str(path)) == len(games)
    assert (streamed.rows, streamed.notes.first) == (whole.rows, whole.notes.first)
