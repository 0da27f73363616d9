"""``chess960 games`` on damaged and unusual input (issue 33), each case
reproduced against the installed command with inputs made here: compressed
files cut short, header lines python-chess reads (a tab between a tag's name
and value, blank, ``;`` and ``%`` lines inside a header, tag lines inside a
comment), in-place tagging of files that are shared or change while read,
input without line breaks, and inputs every game of which is skipped.

The positions' ranks come from ``tests/data/chess960.txt`` (made from the
published table); python-chess, where it is installed, reads the same
headers as the games were written with.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from test_games import Ran, run

from solver.family import Family

ROOT = Path(__file__).resolve().parent.parent
RANKS = dict(line.split() for line in (ROOT / "tests/data/chess960.txt").read_text().splitlines())
COMMAND = str(Path(sys.executable).with_name("chess960"))
RESULTS = ["1-0", "1/2-1/2", "0-1", "*"]


def fen(number: int) -> str:
    rank = RANKS[str(number)]
    return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"


def game(number: int, result: str = "1-0", event: str = "e") -> str:
    return (f'[Event "{event}"]\n[Result "{result}"]\n[Variant "Chess960"]\n'
            f'[FEN "{fen(number)}"]\n[SetUp "1"]\n\n1. e4 e5 {result}\n\n')


def chess960(*args: str, stdin: bytes = b"", timeout: float = 120,
             process: bool = False) -> Ran:
    """The command's exit code, stdout and stderr: run as the console script
    runs it, in this process (quick), or in its own (``process``)."""
    if not process:
        return run(list(args), stdin)
    ran = subprocess.run([COMMAND, *args], input=stdin, capture_output=True,
                         timeout=timeout, check=False)
    return Ran(ran.returncode, ran.stdout, ran.stderr)


def table(out: bytes) -> dict[str, list[int]]:
    """``games stats --format csv``'s rows: id (or name) -> games and results."""
    rows = {}
    for line in out.decode().splitlines()[1:]:
        number, name, *counts = line.split(",")
        rows[number or name] = [int(c) for c in counts[:5]]
    return rows


def one_error(ran: Ran, *words: str) -> str:
    """The one ``error:`` line of a failed run (and that it names ``words``)."""
    err = ran.stderr.decode()
    assert ran.returncode == 1, (ran.returncode, err)
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# -- compressed inputs cut short --------------------------------------------------------------

def collection(n: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    return "".join(game(rng.randrange(960), rng.choice(RESULTS), f"g{k}")
                   for k in range(n)).encode()


def test_a_zstd_file_written_by_zstd_cut_at_any_byte_is_an_error(tmp_path: Path) -> None:
    zstandard = pytest.importorskip("zstandard", reason="the zstd extra is not installed")
    data = collection(3000)
    packed = zstandard.ZstdCompressor(write_checksum=True).compress(data)
    if shutil.which("zstd"):  # the command-line tool's own frame
        source = tmp_path / "all.pgn"
        source.write_bytes(data)
        subprocess.run(["zstd", "-q", "-f", str(source), "-o", str(tmp_path / "all.zst")],
                       check=True)
        packed = (tmp_path / "all.zst").read_bytes()
    whole = chess960("games", "stats", "-", "--format", "csv", stdin=packed, process=True)
    assert whole.returncode == 0 and table(whole.stdout)["chess960"][0] == 3000
    rng = random.Random(2)
    cuts = sorted({5, 9, len(packed) // 2, len(packed) - 4, len(packed) - 1,
                   *(rng.randrange(5, len(packed)) for _ in range(6))})
    for cut in cuts:
        path = tmp_path / f"cut{cut}.pgn.zst"
        path.write_bytes(packed[:cut])
        ran = chess960("games", "stats", str(path), process=cut == cuts[-1])
        one_error(ran, repr(str(path)), "cut short")
        assert ran.stdout == b""


def test_a_zstd_stream_of_frames_cut_inside_its_last_frame_is_an_error(tmp_path: Path) -> None:
    zstandard = pytest.importorskip("zstandard", reason="the zstd extra is not installed")
    data = collection(3000)
    half = data.index(b"\n\n[", len(data) // 2) + 2
    pack = zstandard.ZstdCompressor().compress  # no checksum: the frames' blocks tell
    frames = pack(data[:half]) + pack(data[half:])
    whole = chess960("games", "stats", "-", "--format", "csv", stdin=frames)
    assert table(whole.stdout)["chess960"][0] == 3000
    first = len(pack(data[:half]))
    for cut in (first + 1, first + 6, first + 20, len(frames) - 1):
        path = tmp_path / "frames.pgn.zst"
        path.write_bytes(frames[:cut])
        one_error(chess960("games", "stats", str(path)), "cut short")
        before = path.read_bytes()
        one_error(chess960("games", "tag", "--in-place", str(path)), "cut short")
        assert path.read_bytes() == before  # not rewritten as a valid, shorter file
        assert sorted(p.name for p in tmp_path.iterdir()) == ["frames.pgn.zst"]


@pytest.mark.parametrize("pack", [gzip.compress, bz2.compress, lzma.compress])
def test_gzip_bzip2_and_xz_cut_short_are_an_error(pack: object) -> None:
    packed = pack(collection(500))  # type: ignore[operator]
    for cut in (len(packed) // 2, len(packed) - 1):
        one_error(chess960("games", "stats", "-", stdin=packed[:cut]))


# -- header lines as python-chess reads them --------------------------------------------------

def test_a_tab_or_spaces_between_a_tags_name_and_value(tmp_path: Path) -> None:
    for gap in ("\t", "  ", " \t"):
        text = game(105).replace('[FEN "', f'[FEN{gap}"')
        ran = chess960("games", "stats", "-", "--format", "csv", stdin=text.encode())
        assert ran.returncode == 0 and ran.stderr == b""
        assert table(ran.stdout)["105"][0] == 1 and "518" not in table(ran.stdout)
        assert chess960("games", "filter", "-", "--id", "518", stdin=text.encode()).stdout == b""
        assert chess960("games", "filter", "-", "--id", "105",
                        stdin=text.encode()).stdout == text.encode()
        tagged = chess960("games", "tag", "-", stdin=text.encode()).stdout.decode()
        assert '[Opening "FRC 105"]' in tagged and "FRC 518" not in tagged
        assert tagged.count("[FEN") == 1 and tagged.count("[SetUp") == 1
    # in bulk: many plain games around it (a file, read a window at a time)
    path = tmp_path / "bulk.pgn"
    path.write_text(game(0) * 500 + game(105).replace('[FEN "', '[FEN\t"') + game(0) * 500)
    rows = table(chess960("games", "stats", str(path), "--format", "csv").stdout)
    assert rows["105"][0] == 1 and rows["0"][0] == 1000 and "518" not in rows


@pytest.mark.parametrize("inside", ["\n", ";a comment line\n", "%an escape line\n",
                                    "\n;c\n%e\n"])
def test_blank_comment_and_escape_lines_inside_a_header(inside: str, tmp_path: Path) -> None:
    text = game(105).replace("[FEN ", inside + "[FEN ")
    ran = chess960("games", "stats", "-", "--format", "csv", stdin=text.encode())
    assert ran.returncode == 0 and ran.stderr == b"", ran.stderr
    assert table(ran.stdout) == {"105": [1, 1, 0, 0, 0], "chess960": [1, 1, 0, 0, 0],
                                 "not in family": [0] * 5}
    assert chess960("games", "filter", "-", "--id", "105", stdin=text.encode()).stdout == \
        text.encode()
    path = tmp_path / "bulk.pgn"
    path.write_text(game(7) * 300 + text + game(7) * 300)
    rows = table(chess960("games", "stats", str(path), "--format", "csv").stdout)
    assert rows["105"][0] == 1 and rows["7"][0] == 600 and "518" not in rows


@pytest.mark.parametrize("comment", [
    '{a comment 1-0\n[Event "b"]\n[Result "0-1"]\n} 1-0',
    '{a comment 1-0\n\n[Event "b"]\n[Result "0-1"]\n\n1. d4 0-1\n} 1-0',
    '{ [%clk 0:03:00]\n[Event "b"]\n[Result "0-1"]\n\n1. d4 0-1 } 1-0',
])
def test_tag_lines_inside_a_comment_start_no_game(comment: str, tmp_path: Path) -> None:
    text = game(105).replace("1. e4 e5 1-0", "1. e4 e5 " + comment)
    ran = chess960("games", "stats", "-", "--format", "csv", stdin=text.encode())
    assert ran.returncode == 0 and ran.stderr == b"", ran.stderr
    assert table(ran.stdout)["chess960"] == [1, 1, 0, 0, 0]
    path = tmp_path / "bulk.pgn"
    path.write_text(game(7) * 300 + text + game(7) * 300)
    ran = chess960("games", "stats", str(path), "--format", "csv")
    assert ran.stderr == b"" and table(ran.stdout)["chess960"] == [601, 601, 0, 0, 0]


@pytest.mark.parametrize("odd", ["bom", "comment", "ctrl-z"])
def test_games_that_are_whole_are_not_called_truncated(odd: str) -> None:
    first, second = game(105), game(7, "0-1")
    if odd == "bom":  # files joined together
        text = (first + "\ufeff" + second).encode()
    elif odd == "comment":
        text = (first.replace("1-0\n\n", "1-0 {White won}\n\n")
                + second.replace("0-1\n\n", "0-1 ; resigned\n")).encode()
    else:
        text = (first + second).encode() + b"\x1a"
    ran = chess960("games", "stats", "-", "--format", "csv", stdin=text)
    assert ran.returncode == 0 and ran.stderr == b"", ran.stderr
    assert table(ran.stdout)["105"] == [1, 1, 0, 0, 0]
    assert table(ran.stdout)["7"] == [1, 0, 0, 1, 0]


# -- inputs nothing could be read from --------------------------------------------------------

def test_an_input_whose_every_game_is_skipped_fails() -> None:
    cut = game(105).replace(" 1-0\n\n", "\n\n") * 3  # three games cut short
    for command in (["stats"], ["filter", "--id", "105"], ["tag"]):
        ran = chess960("games", command[0], "-", *command[1:], stdin=cut.encode())
        one_error(ran, "'-'", "skipped")
        assert ran.stderr.decode().count("-: game ") == 3  # each game, then the error
        assert b"chess960" not in ran.stdout  # no all-zero table


# -- lines without end -------------------------------------------------------------------------

def test_input_without_line_breaks_is_an_error_soon(tmp_path: Path) -> None:
    zeros = bytes(24 << 20)
    (tmp_path / "zeros.pgn").write_bytes(zeros)
    began = time.monotonic()
    one_error(chess960("games", "stats", "-", stdin=zeros, process=True),
              "longer than 1,048,576 bytes")
    one_error(chess960("games", "stats", str(tmp_path / "zeros.pgn")), "longer than")
    one_error(chess960("games", "filter", str(tmp_path / "zeros.pgn"), "--id", "1"),
              "longer than")
    one_error(chess960("games", "stats", "-", stdin=game(1).encode() + zeros), "longer than")
    zstandard = pytest.importorskip("zstandard", reason="the zstd extra is not installed")
    bomb = zstandard.ZstdCompressor(level=19).compress(bytes(64 << 20))
    assert len(bomb) < 10_000
    one_error(chess960("games", "stats", "-", stdin=bomb), "longer than")
    assert time.monotonic() - began < 60


@pytest.mark.slow
def test_a_gigabyte_of_zeros_is_one_error_in_linear_time_and_flat_memory() -> None:
    timer = Path("/usr/bin/time")
    if not timer.exists():
        pytest.skip("/usr/bin/time is not installed")
    ran = subprocess.run(f"head -c 1G /dev/zero | {timer} -v {COMMAND} games stats -",
                         shell=True, capture_output=True, timeout=300, check=False)
    err = ran.stderr.decode()
    assert ran.returncode == 1
    assert [line for line in err.splitlines() if line.startswith("error:")] == [
        "error: cannot read '-': a line is longer than 1,048,576 bytes (at byte 1,048,576): "
        "not PGN"]
    peak = int(next(line for line in err.splitlines() if "Maximum resident" in line)
               .split(":")[1])
    assert peak < 100_000, peak  # kilobytes


# -- in-place tagging --------------------------------------------------------------------------

def test_in_place_refuses_read_only_files_and_hard_links(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    text = game(105).replace("[FEN", "[Opening \"?\"]\n[FEN").encode()
    path.write_bytes(text)
    path.chmod(0o444)
    one_error(chess960("games", "tag", "--in-place", str(path), process=True), "read-only")
    assert path.read_bytes() == text and (path.stat().st_mode & 0o777) == 0o444
    path.chmod(0o644)
    (tmp_path / "link.pgn").hardlink_to(path)
    one_error(chess960("games", "tag", "--in-place", str(path)), "hard links")
    assert path.read_bytes() == text
    (tmp_path / "link.pgn").unlink()
    ran = chess960("games", "tag", "--in-place", str(path))
    assert ran.returncode == 0 and b'[Opening "FRC 105"]' in path.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn"]


def test_in_place_refuses_a_file_appended_to_while_it_is_rewritten(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from solver.games.tag import Tagger

    path = tmp_path / "games.pgn"
    text = collection(50).decode()
    path.write_text(text)
    rewrite = Tagger.rewrite

    def appending(self: Tagger, *args: object, **kwargs: object) -> object:
        for k, piece in enumerate(rewrite(self, *args, **kwargs)):  # type: ignore[arg-type]
            if k == 3:
                with path.open("a") as out:
                    out.write(game(7, event="late"))
            yield piece

    monkeypatch.setattr(Tagger, "rewrite", appending)
    ran = chess960("games", "tag", "--in-place", str(path))
    assert ran.returncode == 1
    assert b"changed while it was read" in ran.stderr
    assert path.read_text() == text + game(7, event="late")  # the late game is kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn"]


def test_a_temporary_file_left_by_a_killed_run_is_removed_by_the_next(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_bytes(collection(1000).replace(b" 1-0\n", b" 1-0 {c}\n") * 40)  # read slowly
    process = subprocess.Popen([COMMAND, "games", "tag", "--in-place", str(path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    found: list[Path] = []
    deadline = time.monotonic() + 60
    while not found and process.poll() is None and time.monotonic() < deadline:
        found = [p for p in tmp_path.iterdir() if p.name != "games.pgn"]
        time.sleep(0.002)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    if not found:
        pytest.skip("the run ended before its temporary file was seen")
    left = [p.name for p in tmp_path.iterdir() if p.name != "games.pgn"]
    assert left == [f".games.pgn.chess960-{process.pid}.tmp"]  # named after the file
    path.write_text(game(3))  # the next run, on a small file of the same name
    assert chess960("games", "tag", "--in-place", str(path), process=True).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn"]


# -- tagging twice -----------------------------------------------------------------------------

def test_tagging_a_tagged_file_changes_nothing() -> None:
    text = ('[Event "chess"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
            '[Event "broadcast"]\n[Result "*"]\n[Opening "FRC 105"]\n\n1. e4 *\n\n'
            + game(7).replace("[FEN", "[FEN\t") + game(9).replace("[Event", "\n[Event"))
    once = chess960("games", "tag", "-", stdin=text.encode()).stdout
    twice = chess960("games", "tag", "-", stdin=once).stdout
    assert once.count(b"[FEN") == 3 and once.count(b"[SetUp") == 3
    assert twice == once
    for name in ("FRCId", "Opening"):
        once = chess960("games", "tag", "-", "--tag", name, stdin=text.encode()).stdout
        assert chess960("games", "tag", "-", "--tag", name, stdin=once).stdout == once


# -- the property: the bulk and careful readers and python-chess agree -------------------------

@st.composite
def odd_collections(draw: st.DrawFn) -> tuple[bytes, list[tuple[int | None, int]]]:
    """Games written with the variations python-chess reads: the bytes, and
    each game's position (None: chess's own start, no FEN) and result."""
    games: list[tuple[int | None, int]] = []
    parts = [draw(st.sampled_from(["", "\ufeff"]))]
    for k in range(draw(st.integers(1, 12))):
        number = draw(st.one_of(st.none(), st.integers(0, 959)))
        result = draw(st.integers(0, 3))
        games.append((number, result))
        gap = draw(st.sampled_from([" ", " ", "\t", "  "]))
        lines = [f'[Event "g{k}"]', f'[Result{draw(st.sampled_from([" ", gap]))}"'
                                     f'{RESULTS[result]}"]']
        if number is not None:
            lines += ['[Variant "Chess960"]', f'[FEN{gap}"{fen(number)}"]']
        lines.append('[White "w"]')
        for _ in range(draw(st.integers(0, 2))):  # blank, ; and % lines between tags
            at = draw(st.integers(1, len(lines) - 1))
            lines.insert(at, draw(st.sampled_from(["", ";c", "%e", "; [Event \"x\"]"])))
        header = "\n".join(lines).replace("\n\n\n", "\n\n")
        while "\n\n" in header and header.count("\n\n") > 1:
            header = header.replace("\n\n", "\n", 1)
        moves = "1. e4 e5"
        if draw(st.booleans()):  # a comment over lines holding tag lines and a blank line
            moves += ' {so 1-0\n\n[Event "phantom"]\n[Result "0-1"]\n\n1. d4 0-1\n}'
        moves += " " + RESULTS[result]
        if draw(st.booleans()):
            moves += draw(st.sampled_from([" {after}", " ; after"]))
        parts.append(header + "\n\n" + moves + "\n\n")
        if draw(st.booleans()):
            parts.append(draw(st.sampled_from(["\ufeff", ""])))
    text = "".join(parts).encode()
    if draw(st.booleans()):
        text += b"\x1a"
    return text, games


def _python_chess_headers(text: bytes) -> list[dict[str, str]]:
    import chess.pgn

    handle = io.StringIO(text.decode("utf-8").replace("\x1a", ""))
    found = []
    while (headers := chess.pgn.read_headers(handle)) is not None:
        found.append(dict(headers))
    return found


@settings(max_examples=examples(20, 60), deadline=None)
@given(odd_collections())
def test_bulk_careful_and_python_chess_read_the_same_headers(
        made: tuple[bytes, list[tuple[int | None, int]]]) -> None:
    from solver.games.stats import Stats
    from solver.games.tag import Tagger

    text, games = made
    want: dict[int, list[int]] = {}
    for number, result in games:
        want.setdefault(518 if number is None else number, [0] * 4)[result] += 1
    try:
        import chess  # noqa: F401
    except ImportError:
        pass
    else:
        headers = _python_chess_headers(text)
        assert [(h.get("FEN"), h["Result"]) for h in headers] == [
            (None if n is None else fen(n), RESULTS[r]) for n, r in games]
    family = Family.load("chess960")
    quick, careful = Stats(family), Stats(family)
    told: list[tuple[int, str]] = []
    assert quick.add(iter([text]), "x", lambda n, p: told.append((n, p))) == len(games)
    assert careful.careful(iter([text[i:i + 97] for i in range(0, len(text), 97)]), "x",
                           lambda n, p: told.append((n, p))) == len(games)
    careful._settle()
    mapped = Stats(family)
    with tempfile.NamedTemporaryFile(suffix=".pgn") as handle:  # a file, mapped
        handle.write(text)
        handle.flush()
        assert mapped.add_range(handle.name, 0, len(text),
                                lambda n, p: told.append((n, p))) == len(games)
    assert told == []
    assert quick.rows == careful.rows == mapped.rows == want
    assert quick.outside == careful.outside == mapped.outside == [0, 0, 0, 0]
    tagged = b"".join(Tagger(family).rewrite(iter([text]), "x"))
    assert b"".join(Tagger(family).rewrite(iter([tagged]), "x")) == tagged  # idempotent
    again = Stats(family)
    again.add(iter([tagged]), "x")
    assert again.rows == want


def test_a_zstd_stream_cut_at_every_byte_is_an_error() -> None:
    zstandard = pytest.importorskip("zstandard", reason="the zstd extra is not installed")
    from solver.errors import InputFileError
    from solver.games.reading import chunks, open_input

    data = collection(40)
    first = zstandard.ZstdCompressor(level=1).compress(data[:900])
    for packed in (zstandard.ZstdCompressor(write_checksum=True).compress(data),
                   first + zstandard.ZstdCompressor(write_content_size=False).compress(data[900:])):
        stream, kind = open_input("-", io.BytesIO(packed))
        assert kind == "zstd" and b"".join(chunks(stream, "-")) == data
        for cut in range(4, len(packed)):
            stream, _ = open_input("-", io.BytesIO(packed[:cut]))
            if packed[:cut] == first:  # whole frames: a valid stream, nothing tells (README)
                assert b"".join(chunks(stream, "-", 64)) == data[:900]
                continue
            with pytest.raises(InputFileError, match="cut short"):
                b"".join(chunks(stream, "-", 64))
