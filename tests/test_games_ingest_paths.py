"""The notes of ``games stats`` (repaired castling fields, why games are not
in the family, and each note's first game numbers) are the same whichever way
the games are read: one by one, in bulk from a stream cut in small chunks, from
a file mapped a small window at a time, and in worker processes.

Games counted in bulk are counted without a Python step per game, so their
numbers are read off the bulk count's order (issue 36 item 4); this holds the
numbers, and the counts, to the ones decided here from the games written: each
game is clean, repaired (its castling field ``-``) or not in the family
(``[FEN "?"]``, a garbled FEN), its rank from ``tests/data/chess960.txt``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.family import Family
from solver.games import fast
from solver.games.headers import FIRST
from solver.games.stats import Stats

ROOT = Path(__file__).resolve().parent.parent
RANKS = {int(n): r for n, r in (line.split() for line in
                                 (ROOT / "tests/data/chess960.txt").read_text().splitlines())}

#: What each kind of game is noted as (None: a clean start).
NOTES = {"clean": None, "dash": "castling field repaired",
         "unknown": "FEN '?' names no position", "garbled": "FEN cannot be read"}


def game(number: int, kind: str, result: str) -> bytes:
    rank = RANKS[number]
    castling = "-" if kind == "dash" else "KQkq"
    fen = {"unknown": "?", "garbled": "rnbqkbnr/pppp w"}.get(
        kind, f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w {castling} - 0 1")
    return (f'[Event "Rated Chess960 game"]\n[Site "https://lichess.org/x"]\n'
            f'[White "a"]\n[Black "b"]\n[Result "{result}"]\n[WhiteElo "1500"]\n'
            f'[BlackElo "1600"]\n[Variant "Chess960"]\n[TimeControl "180+0"]\n'
            f'[FEN "{fen}"]\n[SetUp "1"]\n\n'
            f"1. e4 {{ [%clk 0:03:00] }} 1... e5 {{ [%clk 0:03:00] }} {result}\n\n").encode()


def expected(kinds: list[str]) -> tuple[dict[str, int], dict[str, list[int]]]:
    """Per note: how many games, and the first :data:`FIRST` game numbers."""
    counts: dict[str, int] = {}
    first: dict[str, list[int]] = {}
    for number, kind in enumerate(kinds, 1):
        note = NOTES[kind]
        if note is not None:
            counts[note] = counts.get(note, 0) + 1
            if len(first.setdefault(note, [])) < FIRST:
                first[note].append(number)
    return counts, first


GAMES = st.lists(st.tuples(st.integers(0, 959),
                           st.sampled_from(["clean"] * 12 + ["dash", "unknown", "garbled"]),
                           st.sampled_from(["1-0", "0-1", "1/2-1/2"])),
                 min_size=1, max_size=400)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(games=GAMES)
def test_notes_are_the_same_read_any_way(games: list[tuple[int, str, str]], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"".join(game(*g) for g in games)
    path = tmp_path / "g.pgn"
    path.write_bytes(data)
    family = Family.load("chess960")
    want = expected([kind for _, kind, _ in games])
    monkeypatch.setattr(fast, "CHUNK", 4096)
    monkeypatch.setattr(fast, "WINDOW", 8192)
    one_by_one = Stats(family)
    one_by_one.careful(iter([data]), str(path))
    streamed = Stats(family)
    streamed.add(iter([data[i:i + 1000] for i in range(0, len(data), 1000)]), str(path))
    mapped = Stats(family)
    mapped.add_range(str(path), 0, len(data))
    monkeypatch.setattr(fast, "PARALLEL_FROM", 1)
    workers = Stats(family)
    workers.add_file(str(path), len(data))
    for stats in (one_by_one, streamed, mapped, workers):
        assert stats.notes.counts == want[0]
        assert {note: [n for _, n in first] for note, first in stats.notes.first.items()
                if first} == want[1]
        assert sum(stats.outside) == sum(n for note, n in want[0].items()
                                         if note != "castling field repaired")
