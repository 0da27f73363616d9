"""Shortlists and ranges (issue 39 item 2, issue 37's ``--ids @FILE``): one
reader of lists of positions (:mod:`solver.idlists`) behind ``--ids``,
``--exclude`` and ``--from`` on ``random``, ``plan``, ``book`` and ``eval``.

Golden data: the positions' numbers and FENs from python-chess
(``chess.Board.from_chess960_pos``, Scharnagl's numbering, an oracle written
apart from ours), and each list's IDs by brute force from the definition
(every item's IDs in order, each kept at its first appearance).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inprocess import chess960

from solver.family import Family
from solver.idlists import MAX_BYTES, id_ranges, list_items, ordered_ranges

chess = pytest.importorskip("chess", reason="python-chess (the oracle extra) is not installed")


def rank(number: int) -> str:
    """Chess960 position ``number``'s white rank, by python-chess."""
    board = chess.Board.from_chess960_pos(number)
    return "".join(board.piece_at(square).symbol() for square in range(8))  # type: ignore[union-attr]


def fen(number: int) -> str:
    """Its start FEN (X-FEN castling), by python-chess."""
    board = chess.Board.from_chess960_pos(number)
    board.chess960 = True
    return str(board.fen())


def lines(done: object) -> list[str]:
    return str(getattr(done, "stdout", "")).splitlines()


def drawn_ids(done: object) -> list[int]:
    return [int(line.split()[0]) for line in lines(done)]


def book_ids(done: object) -> list[int]:
    """The ids of an EPD book (``id "chess960 N"``)."""
    return [int(line.rsplit(" ", 1)[1].rstrip('";')) for line in lines(done)]


# -- the forms ------------------------------------------------------------------------

def test_exclude_a_range_leaves_the_rest() -> None:
    done = chess960(["random", "--exclude", "0-949", "--seed", "r", "-n", "200"])
    assert done.returncode == 0, done.stderr
    assert set(drawn_ids(done)) <= set(range(950, 960))


def test_ids_ranges_and_singles_in_the_order_given() -> None:
    done = chess960(["book", "--ids", "0-99,200", "-f", "fen"])
    assert done.returncode == 0, done.stderr
    assert lines(done) == [fen(n) for n in [*range(100), 200]]


LIST = """\
# the club's shortlist
518
{rank105}

{fen7}   # a FEN, a comment after it
3-5
{line289}
5
"""


def mixed(tmp_path: Path) -> tuple[Path, list[int]]:
    """A list file of ids, ranks, a FEN, a range and a line ``random`` writes,
    with comments and blank lines, and its ids (each once, in order)."""
    path = tmp_path / "ids.txt"
    path.write_text(LIST.format(rank105=rank(105), fen7=fen(7), line289=f"289 {rank(289)}"))
    return path, [518, 105, 7, 3, 4, 5, 289]


def test_ids_from_a_file_of_ids_ranks_and_fens(tmp_path: Path) -> None:
    path, ids = mixed(tmp_path)
    done = chess960(["book", "--ids", f"@{path}", "-f", "fen"])
    assert done.returncode == 0, done.stderr
    assert lines(done) == [fen(n) for n in ids]
    epd = chess960(["book", "--ids", f"@{path}"])
    assert book_ids(epd) == ids


def test_a_hash_then_a_digit_is_a_label_not_a_comment() -> None:
    found = list_items(["@l.txt"], {"l.txt": "#385\n# a comment\n7 #2 # and this\n"}.get)
    assert [item.text for item in found] == ["#385", "7 #2"]


@given(st.lists(st.one_of(st.integers(0, 40), st.tuples(st.integers(0, 40), st.integers(0, 9))),
                max_size=12))
def test_ordered_ranges_is_each_id_once_in_order(parts: list[int | tuple[int, int]]) -> None:
    given_parts: list[range | int] = [
        p if isinstance(p, int) else range(p[0], p[0] + p[1] + 1) for p in parts]
    expected: dict[int, None] = {}
    for part in given_parts:
        for number in [part] if isinstance(part, int) else part:
            expected.setdefault(number)
    found = ordered_ranges(given_parts)
    assert list(found) == list(expected)
    assert len(found) == len(expected)


# -- random --from --------------------------------------------------------------------

SHORT = [3, 105, 518, 700, 959]


@settings(max_examples=20, deadline=None)
@given(st.text(min_size=1, max_size=12).filter(lambda s: s.strip() == s and "\x00" not in s))
def test_random_from_draws_only_from_the_list(seed: str) -> None:
    path = Path(f"/tmp/shortlist-{id(seed)}.txt")  # hypothesis runs without tmp_path
    path.write_text("".join(f"{rank(n)}\n" for n in SHORT))
    try:
        done = chess960(["random", "--from", str(path), "--seed", seed, "-n", "30"])
        again = chess960(["random", "--from", str(path), "--seed", seed, "-n", "30"])
    finally:
        path.unlink()
    assert done.returncode == 0, done.stderr
    assert set(drawn_ids(done)) <= set(SHORT)
    assert done.stdout == again.stdout  # reproducible from the seed
    assert all(line.split()[1] == rank(int(line.split()[0])) for line in lines(done))


def test_random_from_is_uniform_over_the_list(tmp_path: Path) -> None:
    path = tmp_path / "l.txt"
    path.write_text(",".join(map(str, SHORT)))
    done = chess960(["random", "--from", str(path), "--seed", "u", "-n", "5000"])
    counts = [drawn_ids(done).count(n) for n in SHORT]
    # chi-square with 4 degrees of freedom: 18.47 is the 0.1 % point
    assert sum((c - 1000) ** 2 / 1000 for c in counts) < 18.47, counts


def test_random_from_with_exclude_removes_those(tmp_path: Path) -> None:
    path = tmp_path / "l.txt"
    path.write_text("\n".join(map(str, SHORT)))
    done = chess960(["random", "--from", str(path), "--exclude", "518,3-105", "--seed", "x",
                     "-n", "2", "--distinct"])
    assert done.returncode == 0, done.stderr
    assert sorted(drawn_ids(done)) == [700, 959]


# -- the same list, the same ids, on every command ----------------------------------------

FAKE = '''\
import sys
def say(line):
    sys.stdout.write(line + "\\n"); sys.stdout.flush()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name Fake 1.0")
        say("option name UCI_Chess960 type check default false")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "go":
        say("info depth 1 score cp 7 nodes 1 time 1")
        say("bestmove e2e4")
    elif words[0] == "quit":
        break
'''


def test_one_list_is_the_same_ids_on_every_command(tmp_path: Path) -> None:
    path, ids = mixed(tmp_path)
    listed = f"@{path}"
    book = chess960(["book", "--ids", listed])
    drawn = chess960(["random", "--from", str(path), "-n", str(len(ids)), "--distinct",
                      "--seed", "c"])
    plan = chess960(["plan", "--from", str(path), "--rounds", str(len(ids)), "--seed", "c",
                     "-f", "csv"])
    engine = tmp_path / "fake-engine"
    engine.write_text(f"#!{sys.executable}\n{FAKE}")
    engine.chmod(0o755)
    table = tmp_path / "t.csv"
    evaluated = chess960(["eval", "--engine", str(engine), "--nodes", "1", "--ids", listed,
                          "-o", str(table)])
    for done in (book, drawn, plan, evaluated):
        assert done.returncode == 0, done.stderr
    planned = [int(row.split(",")[1]) for row in lines(plan)[1:]]
    rows = table.read_text().splitlines()[1:]
    assert book_ids(book) == ids
    assert sorted(drawn_ids(drawn)) == sorted(planned) == sorted(ids)
    assert sorted(int(row.split(",")[0]) for row in rows) == sorted(ids)
    # and as --exclude: every position but the list's
    left = chess960(["random", "--exclude", listed, "-n", "3000", "--seed", "e"])
    assert not set(drawn_ids(left)) & set(ids)


# -- errors: one line each ------------------------------------------------------------------

def error_cases(tmp_path: Path) -> list[tuple[list[str], str]]:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing yet\n\n")
    bad = tmp_path / "bad.txt"
    bad.write_text(f"518\n{rank(105)[:-1]}X\n")
    missing = tmp_path / "missing.txt"
    return [
        (["9-3"], "error: range '9-3' is reversed: 9 > 3\n"),
        (["960"], "error: chess960 id 960 is out of range 0..959\n"),
        ([f"@{missing}"], f"error: cannot read {str(missing)!r}: no such file or directory\n"),
        ([f"@{tmp_path}"], f"error: cannot read {str(tmp_path)!r}: not a regular file\n"),
        ([f"@{empty}"], f"error: {str(empty)!r} lists no position (only blank lines and "
                        "comments)\n"),
        ([f"@{bad}"], f"error: {bad} line 2: '{rank(105)[:-1]}X' has an unknown piece 'X' "
                      "on h1\n"),
    ]


COMMANDS = {
    "book --ids": ["book", "--ids"],
    "eval --ids": ["eval", "--engine", "no-such-engine", "--nodes", "1", "-o", "t.csv",
                   "--ids"],
    "random --exclude": ["random", "--exclude"],
    "plan --exclude": ["plan", "--rounds", "2", "--exclude"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_bad_lists_are_one_error_line(command: str, tmp_path: Path) -> None:
    for given_list, message in error_cases(tmp_path):
        done = chess960([*COMMANDS[command], *given_list], cwd=tmp_path)
        assert (done.returncode, done.stderr) == (1, message), (command, given_list)
        assert not (tmp_path / "t.csv").exists()


@pytest.mark.parametrize("command", ["random", "plan"])
def test_bad_from_files_are_one_error_line(command: str, tmp_path: Path) -> None:
    head = ["plan", "--rounds", "2"] if command == "plan" else ["random"]
    for given_list, message in error_cases(tmp_path)[2:]:
        done = chess960([*head, "--from", given_list[0][1:]])
        assert (done.returncode, done.stderr) == (1, message), given_list
    listed = tmp_path / "l.txt"
    listed.write_text("518\n105\n")
    done = chess960([*head, "--from", str(listed), "--exclude", "105,518"])
    assert (done.returncode, done.stderr) == (
        1, f"error: --exclude leaves none of the 2 positions {str(listed)!r} lists\n")


def test_an_absurd_file_is_refused(tmp_path: Path) -> None:
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as out:
        out.truncate(MAX_BYTES + 1)  # sparse: costs no disk
    done = chess960(["book", "--ids", f"@{huge}"])
    assert (done.returncode, done.stderr) == (
        1, f"error: cannot read {str(huge)!r}: larger than {MAX_BYTES:,} bytes (a list "
           "holds one position a line)\n")


def test_an_empty_item_and_a_file_in_a_file_are_refused(tmp_path: Path) -> None:
    done = chess960(["book", "--ids", "5,,7"])
    assert (done.returncode, done.stderr) == (
        1, "error: list '5,,7' has an empty item: give ids, ranges, positions or @FILE, "
           "comma-separated\n")
    nested = tmp_path / "n.txt"
    nested.write_text("5\n@other.txt\n")
    done = chess960(["book", "--ids", f"@{nested}"])
    assert (done.returncode, done.stderr) == (
        1, f"error: {nested} line 2: '@other.txt': a list file names no other file (@ is "
           "for the command line)\n")


@pytest.mark.slow
def test_a_file_of_every_dfrc_pair_shuffled_is_read_in_seconds(tmp_path: Path) -> None:
    import random

    family = Family.load("dfrc")
    ids = list(range(family.count))
    random.Random(5).shuffle(ids)
    path = tmp_path / "all.txt"
    path.write_text("\n".join(map(str, ids)) + "\n")
    start = time.process_time()
    found = id_ranges(family, [f"@{path}"])
    assert time.process_time() - start < 20
    assert len(found) == family.count and found[0] == ids[0] and found[-1] == ids[-1]


def test_too_few_listed_and_mirrors_are_one_error_line(tmp_path: Path) -> None:
    listed = tmp_path / "l.txt"
    listed.write_text("518\n105\n7\n")
    done = chess960(["plan", "--rounds", "3", "--from", str(listed), "--exclude", "7"])
    assert (done.returncode, done.stderr) == (
        1, f"error: 3 distinct positions are asked for, but {str(listed)!r} lists 2 after "
           "--exclude\n")
    done = chess960(["random", "--from", str(listed), "-n", "4", "--distinct"])
    assert (done.returncode, done.stderr) == (
        1, f"error: 4 distinct positions are asked for, but {str(listed)!r} lists 3\n")
    done = chess960(["plan", "--rounds", "2", "--from", str(listed), "--exclude-mirrors"])
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: plan: --from and --exclude-mirrors do not go together")
    done = chess960(["random", "--from", str(listed), "--certificate", str(tmp_path / "c")])
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert not (tmp_path / "c").exists()


def test_from_reads_ids_in_the_numbering(tmp_path: Path) -> None:
    listed = tmp_path / "l.txt"
    listed.write_text("960\n")  # Scidb's 960 is Scharnagl's 0
    done = chess960(["random", "--numbering", "scidb", "--from", str(listed), "-n", "2",
                     "--seed", "s"])
    assert (done.returncode, done.stdout) == (0, f"960 {rank(0)}\n" * 2)
