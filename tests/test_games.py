"""``chess960 games``: PGN collections made here, with known positions and
results, counted, chosen and tagged; every count is the test's own tally.

The games use the spellings met in the wild: ``Variant`` tags ``Chess960``,
``chess 960``, ``fischerandom``, ``Fischerandom``, ``Fischer Random``; FENs in
X-FEN and Shredder-FEN; standard games with no FEN (Chess960's 518);
broadcast games that give only ``[Opening "FRC N"]`` or ``[FRCId "N"]``;
games from a position after moves and other variants (not in the family);
a truncated game and one with a garbage header line (reported and skipped);
CRLF line ends, a byte order mark, wrapped ``[%clk]`` comments; gzip, bzip2,
xz and zstd. The positions' ranks come from ``tests/data/chess960.txt``
(made from the published table), the castling fields from the rooks, here.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import random
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from solver.cli.entry import dispatch
from solver.family import Family

ROOT = Path(__file__).resolve().parent.parent
RANKS = dict(line.split() for line in (ROOT / "tests/data/chess960.txt").read_text().splitlines())
RESULTS = ["1-0", "1/2-1/2", "0-1", "*"]
VARIANTS = ["Chess960", "chess 960", "fischerandom", "Fischerandom", "Fischer Random"]
COMMAND = Path(sys.executable).with_name("chess960")


def fen(number: int, shredder: bool = False) -> str:
    rank = RANKS[str(number)]
    rooks = [i for i, p in enumerate(rank) if p == "R"]
    if shredder:
        files = "ABCDEFGH"
        white = files[rooks[1]] + files[rooks[0]]
        castling = white + white.lower()
    else:
        castling = "KQkq"
    return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w {castling} - 0 1"


@dataclass
class Made:
    """A collection: its bytes, each game's bytes and start (None: not in family;
    "bad": skipped), and the expected table."""

    data: bytes
    games: list[tuple[bytes, int | str | None, int]]  # (bytes, id or None or "bad", result)

    def table(self) -> tuple[dict[int, list[int]], list[int]]:
        rows: dict[int, list[int]] = {}
        outside = [0, 0, 0, 0]
        for _, start, result in self.games:
            if start == "bad":
                continue
            if start is None:
                outside[result] += 1
            else:
                assert isinstance(start, int)
                rows.setdefault(start, [0, 0, 0, 0])[result] += 1
        return rows, outside


def make(seed: int, n: int, crlf: bool = False, bom: bool = False, bad: bool = True) -> Made:
    """``n`` games of every kind, in a random order, with the test's own tally."""
    rnd = random.Random(seed)
    games: list[tuple[bytes, int | str | None, int]] = []
    for k in range(n):
        number = rnd.randrange(960)
        result = rnd.randrange(4)
        tags = [("Event", f"Rated game {k}"), ("Site", "https://example.org/x"),
                ("White", f"player {k % 7}"), ("Black", "B \\\"quoted\\\""),
                ("Result", RESULTS[result])]
        kind = rnd.choice(["xfen", "shredder", "standard", "opening", "frcid", "moved",
                           "crazyhouse", "xfen", "shredder"])
        start: int | None = number
        if kind in ("xfen", "shredder"):
            tags += [("Variant", rnd.choice(VARIANTS)), ("SetUp", "1"),
                     ("FEN", fen(number, kind == "shredder"))]
        elif kind == "standard":
            start = 518
            if rnd.random() < 0.5:
                tags.append(("Opening", "Sicilian Defense"))
        elif kind == "opening":
            tags += [("Variant", "Chess960"), ("Opening", f"FRC {number}")]
        elif kind == "frcid":
            tags += [("FRCId", str(number))]
            start = number
        elif kind == "moved":
            rank = RANKS[str(number)]
            moved = f"{rank.lower()}/pppppppp/8/8/4P3/8/PPPP1PPP/{rank} b KQkq - 0 1"
            tags += [("Variant", "Chess960"), ("SetUp", "1"), ("FEN", moved)]
            start = None
        else:
            tags += [("Variant", "Crazyhouse")]
            start = None
        if kind == "frcid":
            tags.insert(0, ("Variant", "Chess960"))
        rnd.shuffle(tags[5:])
        head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
        moves = "1. e4 { [%clk 0:03:00] } e5 2. Nf3 {a comment\n[%clk 0:02:59] wrapped} Nc6"
        games.append(((head + "\n" + moves + " " + RESULTS[result] + "\n\n").encode(), start,
                      result))
    if bad:
        garbage = b'[Event "garbage"]\n[Site "x\n[Result "1-0"]\n\n1. e4 1-0\n\n'
        games.insert(rnd.randrange(len(games)), (garbage, "bad", 0))
        games.append((b'[Event "cut"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf', "bad", 0))
    if crlf:
        games = [(g.replace(b"\n", b"\r\n"), s, r) for g, s, r in games]
    data = (b"\xef\xbb\xbf" if bom else b"") + b"".join(g for g, _, _ in games)
    return Made(data, games)


def stats_of(data: bytes, *args: str) -> tuple[dict[int, list[int]], list[int], str]:
    """The table ``chess960 games stats - --format csv`` prints, and its stderr."""
    out = run(["games", "stats", "-", "--format", "csv", *args], data)
    assert out.returncode == 0, out.stderr
    rows: dict[int, list[int]] = {}
    outside = None
    for line in out.stdout.decode().splitlines()[1:]:
        number, name, _, *counts = line.split(",")
        values = [int(c) for c in counts[:4]]
        if number:
            rows[int(number)] = values
        elif name == "not in family":
            outside = values
    assert outside is not None
    return rows, outside, out.stderr.decode()


@dataclass
class Ran:
    returncode: int
    stdout: bytes
    stderr: bytes


def run(args: list[str], stdin: bytes = b"") -> Ran:
    """The command, in this process (as the README's examples run)."""
    import os
    import tempfile

    with tempfile.TemporaryFile() as source, tempfile.TemporaryFile() as out, \
            tempfile.TemporaryFile() as err:
        source.write(stdin)
        source.seek(0)
        saved = sys.stdin, sys.stdout, sys.stderr
        sys.stdin = io.TextIOWrapper(os.fdopen(os.dup(source.fileno()), "rb"))
        sys.stdout = io.TextIOWrapper(os.fdopen(os.dup(out.fileno()), "wb"), write_through=True)
        sys.stderr = io.TextIOWrapper(os.fdopen(os.dup(err.fileno()), "wb"), write_through=True)
        try:
            code = dispatch(args)
        finally:
            for stream in (sys.stdin, sys.stdout, sys.stderr):
                stream.close()
            sys.stdin, sys.stdout, sys.stderr = saved
        out.seek(0)
        err.seek(0)
        return Ran(code, out.read(), err.read())


# -- stats ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("crlf", "bom"), [(False, False), (True, True)])
def test_stats_counts_each_position_as_the_test_tallies(crlf: bool, bom: bool) -> None:
    made = make(1, 400, crlf, bom)
    rows, outside, err = stats_of(made.data)
    want_rows, want_outside = made.table()
    assert rows == want_rows
    assert outside == want_outside
    bad = [i + 1 for i, (_, s, _) in enumerate(made.games) if s == "bad"]
    assert re.findall(r"^-: game (\d+) skipped", err, re.M) == [str(b) for b in bad]
    assert "truncated" in err and "header line 2 is not a tag" in err


def test_stats_text_and_json_agree_with_the_tally() -> None:
    import json

    made = make(2, 60)
    want_rows, want_outside = made.table()
    out = run(["games", "stats", "-", "--format", "json"], made.data)
    document = json.loads(out.stdout)
    assert {p["id"]: [p["white_wins"], p["draws"], p["black_wins"], p["unfinished"]]
            for p in document["positions"]} == want_rows
    total = [sum(r[i] for r in want_rows.values()) for i in range(4)]
    assert document["total"]["games"] == sum(total)
    w, d, b, _ = total
    assert document["total"]["white_score"] == round((w + d / 2) / (w + d + b), 4)
    assert document["not_in_family"]["games"] == sum(want_outside)
    assert document["skipped"] == 2
    text = run(["games", "stats", "-"], made.data).stdout.decode().splitlines()
    assert text[0].split() == ["id", "position", "games", "white", "draws", "black",
                               "unfinished", "white", "score"]
    for line in text[1:-2]:
        number, _, _, games, *_ = line.split()
        assert int(games) == sum(want_rows[int(number)])


def test_compressed_inputs_give_the_same_table(tmp_path: Path) -> None:
    made = make(3, 120, bad=False)
    want = made.table()
    packers = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}
    for suffix, pack in packers.items():
        path = tmp_path / f"games.pgn.{suffix}"
        path.write_bytes(pack(made.data[:5000]) + pack(made.data[5000:]))  # two members
        rows, outside, _ = _file_stats(path)
        assert (rows, outside) == want, suffix


def test_zstd_input_gives_the_same_table(tmp_path: Path) -> None:
    zstandard = pytest.importorskip("zstandard", reason="the zstd extra is not installed")
    made = make(3, 120, bad=False)
    path = tmp_path / "games.pgn.zst"
    pack = zstandard.ZstdCompressor().compress
    path.write_bytes(pack(made.data[:5000]) + pack(made.data[5000:]))  # two frames
    rows, outside, _ = _file_stats(path)
    assert (rows, outside) == made.table()


def _file_stats(path: Path) -> tuple[dict[int, list[int]], list[int], str]:
    out = run(["games", "stats", str(path), "--format", "csv"])
    assert out.returncode == 0, out.stderr
    rows: dict[int, list[int]] = {}
    outside: list[int] = []
    for line in out.stdout.decode().splitlines()[1:]:
        number, name, _, *counts = line.split(",")
        if number:
            rows[int(number)] = [int(c) for c in counts[:4]]
        elif name == "not in family":
            outside = [int(c) for c in counts[:4]]
    return rows, outside, out.stderr.decode()


def test_zstd_without_zstandard_names_the_extra(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.pgn.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 20)
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import fails
    out = run(["games", "stats", str(path)])
    assert out.returncode == 1
    assert out.stderr.decode() == (
        f"error: cannot read {str(path)!r}: it is zstd-compressed, which needs the optional "
        "package 'zstandard' (pip install 'chess960-solver[zstd]')\n")


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"junk\nmore junk\n", b"1. e4 e5 *\n"])
def test_an_input_with_no_game_says_so_and_exits_1(data: bytes) -> None:
    out = run(["games", "stats", "-"], data)
    assert out.returncode == 1
    assert out.stderr.decode() == (
        "error: '-' holds no PGN game (no header block [Name \"value\"])\n")


def test_several_inputs_add_up(tmp_path: Path) -> None:
    one, two = make(4, 50, bad=False), make(5, 70, bad=False)
    (tmp_path / "a.pgn").write_bytes(one.data)
    (tmp_path / "b.pgn.gz").write_bytes(gzip.compress(two.data))
    out = run(["games", "stats", str(tmp_path / "a.pgn"), "-", "--format", "json"],
              gzip.compress(two.data))
    import json

    document = json.loads(out.stdout)
    assert document["games"] == 120


# -- filter -----------------------------------------------------------------------------------

def test_filter_writes_the_chosen_games_byte_for_byte(tmp_path: Path) -> None:
    made = make(6, 300, crlf=True)
    counts = Counter(s for _, s, _ in made.games if isinstance(s, int))
    chosen = {518, *[n for n, _ in counts.most_common(2)]}
    ids = ",".join(map(str, sorted(chosen)))
    out = run(["games", "filter", "-", "--id", ids], made.data)
    assert out.returncode == 0
    assert out.stdout == b"".join(g for g, s, _ in made.games if s in chosen)
    target = tmp_path / "chosen.pgn.gz"
    out = run(["games", "filter", "-", "--id", ids, "-o", str(target)], made.data)
    assert gzip.decompress(target.read_bytes()) == b"".join(
        g for g, s, _ in made.games if s in chosen)


def test_filter_refuses_an_id_not_in_the_family() -> None:
    out = run(["games", "filter", "-", "--id", "518,960"], b'[Result "*"]\n\n*\n')
    assert out.returncode == 1
    assert out.stderr.decode().startswith("error: chess960 id 960 is out of range")


# -- tag ---------------------------------------------------------------------------------------

def test_tag_numbers_every_game_and_changes_nothing_else() -> None:
    made = make(7, 300, crlf=True)
    out = run(["games", "tag", "-"], made.data)
    assert out.returncode == 0
    tagged = out.stdout
    games = re.split(rb"(?<=\r\n\r\n)(?=\[)", tagged)
    assert len(games) == len(made.games)
    for (original, start, _), new in zip(made.games, games, strict=True):
        expected_label = None if start == "bad" or start is None else f"FRC {start}".encode()
        kept_sicilian = b'[Opening "Sicilian Defense"]' in original
        labels = re.findall(rb'^\[Opening "([^"]*)"\]\r$', new, re.M)
        if expected_label is not None and not kept_sicilian:
            assert labels == [expected_label], new
        # every line the original had is there, in order, but Variant aliases
        lines = original.split(b"\r\n")
        variant = re.compile(
            rb'^\[Variant "(chess 960|fischerandom|Fischerandom|Fischer Random)"\]$')
        want = [variant.sub(rb'[Variant "Chess960"]', line) if start != "bad" else line
                for line in lines]
        added = [line for line in new.split(b"\r\n") if line not in want]
        rest = [line for line in new.split(b"\r\n") if line in want]
        assert rest == want, new
        for line in added:
            assert line.startswith((b'[Opening "FRC ', b'[SetUp "1"]', b'[FEN "', b'[Variant "'))
        if b'[Opening "FRC' in original or b"[FRCId" in original:
            assert isinstance(start, int)
            assert f'[FEN "{fen(start)}"]'.encode() in added


def test_tag_with_a_numeric_tag_and_in_place_on_a_gzip_file(tmp_path: Path) -> None:
    made = make(8, 40, bad=False)
    path = tmp_path / "games.pgn.gz"
    path.write_bytes(gzip.compress(made.data))
    out = run(["games", "tag", str(path), "--tag", "FRCId", "--in-place"])
    assert out.returncode == 0, out.stderr
    text = gzip.decompress(path.read_bytes())
    found = [int(v) for v in re.findall(rb'^\[FRCId "(\d+)"\]$', text, re.M)]
    assert found == [s for _, s, _ in made.games if isinstance(s, int)]
    assert out.stderr.decode().startswith(f"{path}: 40 games, ")


def test_tag_in_place_leaves_a_file_with_no_game_untouched(tmp_path: Path) -> None:
    path = tmp_path / "junk.pgn"
    path.write_bytes(b"junk\n")
    out = run(["games", "tag", str(path), "--in-place"])
    assert out.returncode == 1
    assert path.read_bytes() == b"junk\n"
    assert "holds no PGN game" in out.stderr.decode()


# -- a 1 GB stream, memory flat ---------------------------------------------------------------

GAME = (b'[Event "Rated Chess960 game"]\n[Site "https://example.org/abcdefgh"]\n'
        b'[Date "2024.01.01"]\n[White "someone"]\n[Black "someone else"]\n[Result "%s"]\n'
        b'[WhiteElo "1500"]\n[BlackElo "1500"]\n[Variant "Chess960"]\n[TimeControl "180+0"]\n'
        b'[FEN "%s"]\n[SetUp "1"]\n\n' + b"1. e4 e5 2. Nf3 Nc6 " * 20 + b"%s\n\n")


@pytest.mark.slow
def test_a_1_gb_stream_is_counted_with_flat_memory() -> None:
    """1 GB made on the fly and piped to ``chess960 games stats -``: the counts
    are the test's, and the command's resident memory stays under 100 MB."""
    import threading
    import time

    blocks = []
    expected: dict[int, list[int]] = {}
    for number in (0, 105, 518, 959):
        for result in range(4):
            value = RESULTS[result].encode()
            blocks.append(GAME % (value, fen(number, number % 2 == 1).encode(), value))
            expected.setdefault(number, [0, 0, 0, 0])[result] += 1
    block = b"".join(blocks)
    times = (1 << 30) // len(block) + 1
    process = subprocess.Popen([str(COMMAND), "games", "stats", "-", "--format", "csv"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdin is not None
    peak = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        status = Path(f"/proc/{process.pid}/status")
        while not done.is_set():
            try:
                found = re.search(r"VmRSS:\s+(\d+) kB", status.read_text())
            except OSError:
                break
            if found:
                peak = max(peak, int(found.group(1)))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for _ in range(times):
            process.stdin.write(block)
        process.stdin.close()
        assert process.stdout is not None and process.stderr is not None
        stdout, stderr = process.stdout.read(), process.stderr.read()
        process.wait(timeout=600)
    finally:
        done.set()
        watcher.join()
    assert process.returncode == 0, stderr
    rows = {int(line.split(",")[0]): [int(c) for c in line.split(",")[3:7]]
            for line in stdout.decode().splitlines()[1:] if line[:1].isdigit()}
    assert rows == {n: [c * times for c in counts] for n, counts in expected.items()}
    assert 0 < peak < 100_000, f"peak resident memory {peak} kB"


# -- the bulk count and the worker processes answer as the careful reader does -----------------

def _clean(seed: int, n: int) -> Made:
    """Games that all give their FEN, in both castling notations, some CRLF."""
    rnd = random.Random(seed)
    games: list[tuple[bytes, int | str | None, int]] = []
    for k in range(n):
        number, result = rnd.randrange(960), rnd.randrange(4)
        text = (f'[Event "e{k}"]\n[Result "{RESULTS[result]}"]\n'
                f'[Variant "{rnd.choice(VARIANTS)}"]\n[FEN "{fen(number, k % 2 == 1)}"]\n'
                f'[SetUp "1"]\n\n1. e4 e5 {RESULTS[result]}\n\n')
        games.append((text.encode(), number, result))
    return Made(b"".join(g for g, _, _ in games), games)


def test_the_bulk_count_agrees_with_the_careful_reader() -> None:
    from solver.games import fast
    from solver.games.stats import Stats

    made = _clean(9, 3000)
    regex = fast.pattern(())
    assert fast.bulk(made.data, 0, len(made.data), regex)[1] == len(made.data)  # all in bulk
    family = Family.load("chess960")
    quick, careful = Stats(family), Stats(family)
    assert quick.add(iter([made.data]), "x") == 3000
    assert careful.careful(iter([made.data]), "x") == 3000
    careful._settle()
    want_rows, want_outside = made.table()
    assert quick.rows == careful.rows == want_rows
    assert quick.outside == careful.outside == want_outside
    for cut in (b"e5 1-0\n\n", b"e5 *\n\n"):  # a truncated game: read game by game
        broken = made.data.replace(cut, b"e5\n\n", 1)
        assert fast.bulk(broken, 0, len(broken), regex)[1] < len(broken)


def test_a_large_file_in_workers_reports_games_by_their_number(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from solver.games import fast
    from solver.games.stats import Stats

    made = _clean(10, 2000)
    bad = b'[Event "cut"]\n[Result "1-0"]\n\n1. e4\n\n'
    games = [*made.games[:1500], (bad, "bad", 0), *made.games[1500:]]
    made = Made(b"".join(g for g, _, _ in games), games)
    path = tmp_path / "big.pgn"
    path.write_bytes(made.data)
    monkeypatch.setattr(fast, "PARALLEL_FROM", 1)
    monkeypatch.setattr(fast, "CHUNK", 4096)
    stats = Stats(Family.load("chess960"))
    told: list[tuple[int, str]] = []
    read = stats.add_file(str(path), len(made.data), lambda n, p: told.append((n, p)))
    assert read == 2001
    assert [n for n, _ in told] == [1501]
    want_rows, want_outside = made.table()
    assert stats.rows == want_rows
    assert stats.outside == want_outside
