"""The castling linter: clean on the tool's books, finds hand-broken fields, rewrites them.

Oracles: a brute force written here (the outermost rook on each side of a
king between two rooks) and python-chess (test-only) reading the rewritten
lines.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from solver.family import Family
from solver.notation.lint import lint_path, lint_text
from solver.output import PositionWriter


def write(name: str, fmt: str, ids: list[int], dialect: str = "xfen") -> str:
    family = Family.load(name)
    out = io.StringIO()
    with PositionWriter(out, family, fmt, dialect=dialect) as writer:
        for number in ids:
            writer.write(family.position(number))
    return out.getvalue()


def rooks(rank: str) -> list[int]:
    king = rank.index("K")
    left = [f for f in range(king) if rank[f] == "R"]
    right = [f for f in range(king + 1, len(rank)) if rank[f] == "R"]
    return [left[0], right[-1]] if left and right else []


def ranks(fen: str) -> tuple[str, str]:
    rows = fen.split(maxsplit=1)[0].split("/")
    return rows[-1], rows[0].upper()


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "solver", "lint", *args], input=stdin,
                          capture_output=True, text=True, check=False)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(("name", "fmt", "dialect"), [
    ("chess960", "fen", "xfen"), ("chess960", "epd", "shredder"), ("chess960", "pgn", "xfen"),
    ("dfrc", "epd", "xfen"), ("shuffle", "shredder", "xfen"),
    ("capablanca-random", "epd", "shredder"),
])
def test_books_written_by_the_tool_are_clean(name: str, fmt: str, dialect: str) -> None:
    family = Family.load(name)
    ids = list(range(0, family.count, max(1, family.count // 300)))
    report = lint_text(write(name, fmt, ids, dialect), "book")
    assert (report.positions, report.problems) == (len(ids), 0)


def broken_book() -> tuple[str, set[int]]:
    """A shuffle book with KQkq everywhere, one mixed field and one missing right."""
    lines = write("shuffle", "fen", list(range(0, 5040, 37))).splitlines()
    wrong = set()
    out = []
    for number, written in enumerate(lines, 1):
        line = re.sub(r" w \S+ ", " w KQkq ", written)
        if not rooks(ranks(line)[0]):
            wrong.add(number)
        out.append(line)
    out.append(write("chess960", "shredder", [105]).strip().replace("HChc", "HCh"))
    wrong.add(len(out))
    out.append(write("chess960", "fen", [7]).strip().replace("KQkq", "GQge"))
    wrong.add(len(out))
    return "\n".join(out) + "\n", wrong


def test_every_broken_field_is_found(tmp_path: Path) -> None:
    text, wrong = broken_book()
    report = lint_text(text, "broken.fen")
    assert {f.line for f in report.findings if f.problem and f.line} == wrong
    path = tmp_path / "broken.fen"
    path.write_text(text)
    code, out, err = run(str(path))
    assert code == 1 and err == "" and out.count("is wrong") + out.count("mixes") >= len(wrong)


@pytest.mark.parametrize("notation", ["xfen", "shredder"])
def test_fix_rewrites_only_the_castling_field(tmp_path: Path, notation: str) -> None:
    chess = pytest.importorskip("chess")
    text, _ = broken_book()
    path = tmp_path / "book.fen"
    path.write_text(text)
    os.chmod(path, 0o640)
    code, _out, _ = run("--fix", notation, str(path))
    assert code == 0
    fixed = path.read_text()
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["book.fen"]
    for before, after in zip(text.splitlines(), fixed.splitlines(), strict=True):
        b, a = before.split(), after.split()
        assert b[:2] + b[3:] == a[:2] + a[3:]
        board = chess.Board(after, chess960=True)
        assert board.status() & chess.STATUS_BAD_CASTLING_RIGHTS == 0
        want = 0
        for rank, row in zip(ranks(after), (0, 7), strict=True):
            for f in rooks(rank):
                want |= chess.BB_SQUARES[row * 8 + f]
        assert board.castling_rights == want
        if notation == "shredder" and a[2] != "-":
            assert a[2].upper() == a[2].upper().strip("KQ")
    assert run(str(path))[0] == 0


def test_fix_that_cannot_replace_the_file_leaves_it_as_it_was(tmp_path: Path) -> None:
    # The project's one atomic writer refuses to replace a symbolic link.
    text, _ = broken_book()
    book = tmp_path / "book.fen"
    book.write_text(text)
    link = tmp_path / "link.fen"
    link.symlink_to(book)
    code, _out, err = run("--fix", "xfen", str(link))
    assert code == 1
    assert err == (f"error: cannot write {str(link)!r}: "
                   "it is a symbolic link (name the file it points to)\n")
    assert book.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.fen", "link.fen"]


def test_fix_in_pgn_and_from_stdin() -> None:
    pgn = write("chess960", "pgn", [105, 518])
    code, out, err = run("--fix", "shredder", "--dialect", "pychess", "-", stdin=pgn)
    assert code == 0 and "2 lines rewritten" in err
    assert out == pgn.replace("w KQkq", "w CHch", 1).replace("w KQkq", "w AHah", 1)


def test_a_book_mixing_notations() -> None:
    text = write("chess960", "fen", [105]) + write("chess960", "shredder", [0])
    report = lint_text(text, "mixed")
    assert report.problems == 1 and "mixes castling notations" in report.findings[0].message


def test_lines_that_are_not_start_positions_are_skipped() -> None:
    text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n# comment\n\n"
    report = lint_text(text)
    # A position after 1.e4: its rights are checked where the pieces stand, no problem.
    assert (report.positions, report.moved, report.problems, len(report.findings)) == \
        (0, 1, 0, 0)
    report = lint_text(text + "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
    assert (report.positions, report.moved, report.problems, report.skipped_lines) == \
        (0, 1, 0, 1)


def test_unreadable_file() -> None:
    code, out, err = run("/nonexistent/book.epd")
    assert (code, out) == (1, "")
    assert err.startswith("error: cannot read '/nonexistent/book.epd'")
    with pytest.raises(ValueError):
        lint_path("/nonexistent/book.epd")


# -- with --rules: membership, duplicates, missing positions, move counters ----------------

GOLDEN = [line.split()[1] for line in
          (Path(__file__).parent / "data" / "chess960.txt").read_text().splitlines()]


def start_fen(white: str, black: str | None = None, castling: str = "KQkq",
              counters: str = "0 1") -> str:
    return (f"{(black or white).lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - "
            f"{counters}")


def both_paths(text: str, tmp_path: Path, **options: object) -> list[str]:
    """The report of lint_text (line by line) and of lint_path (the bulk path by
    ranks), which must agree; returns its lines."""
    book = tmp_path / "book.fen"
    book.write_text(text)
    one = list(lint_text(text, str(book), **options).lines())  # type: ignore[arg-type]
    other = list(lint_path(str(book), **options).lines())  # type: ignore[arg-type]
    assert one == other
    return one


def test_rules_find_positions_outside_the_family_repeats_and_missing_ones(
        tmp_path: Path) -> None:
    chess960 = Family.load("chess960")
    left_out = {5, 77, 900}
    rows = [start_fen(rank) for n, rank in enumerate(GOLDEN) if n not in left_out]
    rows.insert(10, start_fen(GOLDEN[3]))  # line 11 repeats line 4 (id 3)
    rows.append(start_fen("BRBNKQNR"))  # bishops both on dark squares: line 959
    rows.append(start_fen(GOLDEN[518]))  # line 960 repeats 518 (on line 518: 2 left out
    #                                      before it, 1 repeat inserted)
    book = tmp_path / "book.fen"
    lines = both_paths("\n".join(rows) + "\n", tmp_path, family=chess960, complete=True)
    assert lines == [
        f"{book}:11: duplicate: the same chess960 start position as line 4 (chess960 3)",
        f"{book}:959: not a chess960 start position: 'BRBNKQNR' is not a chess960 rank: bishops "
        "on a1 and c1 are both on dark squares (rule opposite-colours BB)",
        f"{book}:960: duplicate: the same chess960 start position as line 518 (chess960 518)",
        f"{book}: the book lacks 3 of the 960 chess960 positions: 5, 77, 900",
        f"{book}: 960 start positions, 4 problems",
    ]
    # the same book without --complete names no missing position
    assert not any("lacks" in line for line in both_paths(
        "\n".join(rows) + "\n", tmp_path, family=chess960))


def test_rules_on_a_dfrc_book_with_ids_and_another_numbering(tmp_path: Path) -> None:
    dfrc = Family.load("dfrc")
    pairs = [(0, 0), (0, 1), (105, 518), (518, 105), (0, 1)]
    rows = [f'{start_fen(GOLDEN[w], GOLDEN[b]).rsplit(" ", 2)[0]} id "dfrc {b * 960 + w}";'
            for w, b in pairs]  # written black-major, as before white-major
    book = tmp_path / "book.fen"
    lines = both_paths("\n".join(rows), tmp_path, family=dfrc, numbering="black-major")
    assert lines == [f"{book}:5: duplicate: the same dfrc start position as line 2 (dfrc 960)",
                     f"{book}: 5 start positions, 1 problem"]
    lines = both_paths("\n".join(rows), tmp_path, family=dfrc)
    assert lines[0] == (f"{book}:2: epd id 'dfrc 960' is wrong: the position's dfrc id is 1")


def test_move_counters_that_are_not_a_start_are_a_problem_with_rules(tmp_path: Path) -> None:
    # DFRC_4852_v1.epd's odd lines: back ranks at the start, no castling, counters 2 2
    dfrc = Family.load("dfrc")
    rows = [start_fen(GOLDEN[105], GOLDEN[518], "HCha"),
            start_fen(GOLDEN[7], GOLDEN[9], "-", "2 2")]
    book = tmp_path / "book.fen"
    lines = both_paths("\n".join(rows), tmp_path, family=dfrc)
    assert lines[0] == (f"{book}:2: move counters '2 2' are not a start position's ('0 1'), "
                        "though the pieces stand as at the start")
    assert lines[1].startswith(f"{book}:2: castling '-' is wrong")
    assert lines[-1] == f"{book}: 2 start positions, 2 problems"
    # without --rules it is a position after moves whose '-' is right
    assert both_paths("\n".join(rows), tmp_path) == [
        f"{book}: 1 start position, 1 position after moves, 0 problems"]


@pytest.mark.slow
def test_complete_and_numbering_need_rules() -> None:
    code, _, err = run("--complete", stdin=start_fen("RNBQKBNR"))
    assert code == 2 and err.startswith("error: ") and "--rules" in err
    code, out, err = run("--rules", "chess960", "--complete", "-",
                         stdin="".join(start_fen(r) + "\n" for r in GOLDEN))
    assert (code, err) == (0, "") and out == "-: 960 start positions, 0 problems\n"


@pytest.mark.parametrize(("text", "why"), [
    ("", "it is empty"), ("\ufeff", "it is empty"), ("\ufeff\r\n\r\n", "it is empty"),
    ("hello\nworld\n", "no line is a FEN, an EPD line or a PGN FEN tag"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
     "1 line skipped: 1 fen line cannot be read"),
])
def test_a_book_with_no_position_is_an_error(text: str, why: str) -> None:
    report = lint_text(text, "book.fen")
    assert report.error == f"no position to check ({why})"
    assert report.problems == 1 and not report.findings
