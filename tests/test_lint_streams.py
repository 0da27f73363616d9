"""The linter and the readers of many lines (issues 24 and 27): nothing passed
unread, nothing read wrongly, bounded memory, no traceback.

Most cases run the installed ``chess960`` command (``CHESS960_COMMAND``
overrides it); memory is the child's peak RSS from ``getrusage(RUSAGE_CHILDREN)``
in a fresh wrapper process (:func:`test_budgets.measured`). Each case failed
before the fix it names.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_budgets import RSS_BUDGET, command, measured
from typer.testing import CliRunner

from solver import Chess960Error
from solver.cli.app import app
from solver.lines import LineReader
from solver.lists.lint import lint_text

# Many runs of the installed command: CI's slow step runs them (`-m slow`).
pytestmark = pytest.mark.slow

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
QNR = "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1"


def run(*args: str, stdin: bytes | None = b"", env: dict[str, str] | None = None,
        cwd: Path | None = None) -> tuple[int, str, str]:
    done = subprocess.run([*command().split(), *args], input=stdin, capture_output=True,
                          check=False, timeout=120, env={**os.environ, **(env or {})},
                          cwd=cwd)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def lint(*args: str, stdin: bytes | None = b"") -> tuple[int, str, str]:
    return run("lint", *args, stdin=stdin)


# -- 24.1: nothing passed unread ------------------------------------------------------


def test_a_book_with_nothing_to_check_fails(tmp_path: Path) -> None:
    books = []
    for n, text in enumerate(["", "\n\n", "\ufeff", "\ufeff\r\n", "hello world\n# nothing\n",
                              "1/2-1/2\n", "1. e4 e5 2. Nf3 1/2-1/2\n"]):
        books.append(tmp_path / f"book{n}.fen")
        books[-1].write_text(text)
    code, out, err = lint(*map(str, books))
    assert code == 1
    assert out.splitlines() == [f"{book}: 0 start positions, 1 problem" for book in books]
    why = ["it is empty"] * 4 + ["no line is a FEN, an EPD line or a PGN FEN tag"] * 3
    assert err.splitlines() == [f"error: {book}: no position to check ({reason})"
                                for book, reason in zip(books, why, strict=True)]


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    book = tmp_path / "bom.fen"
    book.write_bytes(b"\xef\xbb\xbf" + START.replace("KQkq", "KQk").encode() + b"\n")
    code, out, _ = lint(str(book))
    assert code == 1
    assert out.startswith(f"{book}:1: castling 'KQk' is wrong")
    assert out.endswith(f"{book}: 1 start position, 1 problem\n")
    code, out, _ = lint("--fix", "xfen", str(book))
    assert code == 0 and book.read_bytes() == b"\xef\xbb\xbf" + START.encode() + b"\n"


VARIANT_CASES = [("crazyhouse", "xfen"), ("crazyhouse", "fsf"), ("bughouse", "pychess"),
                 ("seirawan", "xfen"), ("seirawan", "fsf"), ("3check", "lichess"),
                 ("horde", "fsf"), ("antichess", "xfen"), ("capablanca", "xfen")]


@pytest.mark.parametrize(("variant", "dialect"), VARIANT_CASES)
def test_variant_books_the_tool_writes_are_checked_line_by_line(
    tmp_path: Path, variant: str, dialect: str
) -> None:
    # In process (the same code as the installed command, without its start-up).
    rules = "capablanca-random" if variant == "capablanca" else "chess960"
    ids = ["0", "105", "518", "959"]
    written = CliRunner().invoke(app, ["position", *ids, "-r", rules, "-f", "fen",
                                       "--variant", variant, "--dialect", dialect])
    assert written.exit_code == 0
    book = tmp_path / "book.fen"
    book.write_text(written.stdout)
    result = CliRunner().invoke(app, ["lint", "--variant", variant, "--dialect", dialect,
                                      str(book)])
    assert (result.exit_code, result.stdout) == (0, f"{book}: 4 start positions, 0 problems\n")


def test_the_tool_s_antichess_pgn_is_read_as_antichess(tmp_path: Path) -> None:
    code, written, _ = run("position", "5", "518", "-f", "pgn", "--variant", "antichess")
    book = tmp_path / "anti.pgn"
    book.write_text(written)
    code, out, _ = lint(str(book))
    assert (code, out) == (0, f"{book}: 2 start positions, 0 problems\n")
    code, _, _ = lint("--fix", "shredder", str(book))
    assert code == 0 and book.read_text() == written  # '-' is antichess's own field


def test_positions_after_moves_are_checked_where_the_pieces_stand(tmp_path: Path) -> None:
    # Lines as Stockfish's 3moves_FRC.epd has them, and a start board whose
    # counters say moves were played (knights out and back).
    book = tmp_path / "3moves.epd"
    book.write_text(
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n"
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9\n"
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HA - 2 9\n"
        f"{QNR.removesuffix(' 0 1')} 4 3\n"
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN1 b Kkq e3 0 1\n")
    code, out, _ = lint(str(book))
    assert code == 1
    assert out.splitlines() == [
        f"{book}:3: castling 'HA' is wrong: 'A': there is no white rook on a1 "
        "(fen line after moves)",
        f"{book}:5: castling 'Kkq' is wrong: 'K': white has no rook on rank 1 on the h-side "
        "of the king (fen line after moves)",
        f"{book}: 0 start positions, 5 positions after moves, 2 problems",
    ]


def test_skipped_lines_are_summed_up(tmp_path: Path) -> None:
    bad = START.replace("/8/8/8/8/", "/9/8/8/8/")
    book = tmp_path / "book.fen"
    book.write_text("\n".join([bad] * 1000 + [START]) + "\n")
    code, out, _ = lint(str(book))
    assert (code, out.splitlines()) == (0, [
        f"{book}: 1,000 lines skipped (fen line cannot be read): lines 1, 2, 3, 4, 5, ...",
        f"{book}: 1 start position, 1,000 lines skipped, 0 problems"])
    code, out, _ = lint("-q", str(book))
    assert (code, out) == (0, f"{book}: 1 start position, 1,000 lines skipped, 0 problems\n")
    code, out, _ = lint("--verbose", str(book))
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1002
    assert lines[999].startswith(f"{book}:1000: skipped: fen line ")


def test_rules_checks_membership(tmp_path: Path) -> None:
    book = tmp_path / "book.fen"
    book.write_text(f"{START}\n{QNR}\nrrkbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RRKBBNNQ w - - 0 1\n")
    code, out, _ = lint(str(book))
    assert (code, out) == (0, f"{book}: 3 start positions, 0 problems\n")
    code, out, _ = lint("--rules", "chess960", str(book))
    assert code == 1
    assert out.startswith(f"{book}:3: not a chess960 start position: "), out
    assert out.endswith(f"{book}: 3 start positions, 1 problem\n")


# -- 27.7: U+2028 is no line break; an EPD id is checked ------------------------------


def test_a_line_separator_in_a_comment_splits_nothing(tmp_path: Path) -> None:
    book = tmp_path / "book.epd"
    wrong = START.replace("KQkq - 0 1", 'KQk - c0 "a\u2028b";')
    book.write_text(f"{wrong}\nRNBQKBNX\n{START}\n", encoding="utf-8")
    code, out, _ = lint(str(book))
    assert code == 1
    assert out.startswith(f"{book}:1: castling 'KQk' is wrong")
    code, out, err = run("id", "-", stdin=book.read_bytes())
    assert err.splitlines()[1].startswith("error: line 2: ")  # the same numbering as lint's


def test_an_epd_id_that_is_not_the_position_s_is_a_problem(tmp_path: Path) -> None:
    book = tmp_path / "book.epd"
    book.write_text(START.replace("0 1", 'id "chess960 5";') + "\n" +
                    START.replace("0 1", 'id "chess960 518";') + "\n")
    code, out, _ = lint(str(book))
    assert code == 1
    assert out.splitlines() == [
        f"{book}:1: epd id 'chess960 5' is wrong: the position's chess960 id is 518",
        f"{book}: 2 start positions, 1 problem"]


# -- 27.11: bounded memory -------------------------------------------------------------


def test_dev_zero_is_one_error_in_bounded_memory() -> None:
    result = measured("lint", "/dev/zero")
    assert result["code"] == 1
    assert result["err"] == "error: cannot read '/dev/zero': line 1 is longer than " \
                            "1,048,576 bytes\n"
    assert float(str(result["rss_mb"])) < RSS_BUDGET


def test_a_100_mb_line_is_one_error_in_bounded_memory(tmp_path: Path) -> None:
    book = tmp_path / "big.fen"
    with book.open("wb") as handle:
        for _ in range(100):
            handle.write(b"R" * 1_000_000)
    for args in (["lint", str(book)], ["lint", "--fix", "xfen", str(book)]):
        result = measured(*args)
        assert result["code"] == 1
        assert result["err"] == f"error: cannot read {str(book)!r}: line 1 is longer than " \
                                "1,048,576 bytes\n"
        assert result["out"] == ""
        assert float(str(result["rss_mb"])) < RSS_BUDGET


@pytest.mark.slow
def test_id_memory_is_bounded_however_many_distinct_lines(tmp_path: Path) -> None:
    lines = tmp_path / "distinct.txt"
    with lines.open("w") as handle:
        for n in range(20_000):  # distinct EPD lines of 10 KB, each one answered
            handle.write(START.replace("0 1", f'c0 "{n:08}' + "x" * 10_180 + '";') + "\n")
    code = ("import resource, subprocess, sys\n"
            "with open(sys.argv[2], 'rb') as f:\n"
            "    p = subprocess.run([sys.argv[1], 'id', '-'], stdin=f, capture_output=True)\n"
            "print(p.returncode, p.stderr.count(b'\\n'),"
            " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    done = subprocess.run([sys.executable, "-c", code, command(), str(lines)],
                          capture_output=True, text=True, timeout=300, check=True)
    status, errors, peak_kib = map(int, done.stdout.split())
    assert (status, errors) == (0, 0)
    assert peak_kib < RSS_BUDGET * 1024


# -- 27.13: no traceback -------------------------------------------------------------


def test_odd_lines_are_findings_not_tracebacks() -> None:
    lines = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1",
             "rnb²kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB²KBNR w KQkq - 0 1",
             f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/{'1' * 5000} w KQkq - 0 1",
             f"{'1' * 5000}/8 w KQkq - 0 1"]
    code, out, err = lint(stdin="\n".join(lines).encode() + b"\n")
    assert (code, err) == (1, "")
    assert out.startswith("-:1: castling 'KQkq' is wrong: 'K': white has no king")
    assert out.endswith("-: 1 start position, 3 lines skipped, 1 problem\n")
    assert all(len(row) < 600 for row in out.splitlines())


def test_bad_stdin_is_one_error() -> None:
    done = subprocess.run([*command().split(), "lint"], input=b"\xff\xfe\n",
                          capture_output=True, check=False,
                          env={**os.environ, "LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"})
    assert (done.returncode, done.stderr) == (
        1, b"error: cannot read '-': line 1 is not UTF-8 (byte 0xff at column 1)\n")
    done = subprocess.run(f"{command()} lint <&-", shell=True, capture_output=True,
                          check=False)
    assert (done.returncode, done.stderr) == (
        1, b"error: cannot read '-': standard input is closed\n")


@given(st.lists(st.sampled_from(
    [*"rnbqkpRNBQKP12345678/ -wbKQkqHAha0\r\n\u2028²;\"[]|+",
     'id "chess960 ', START, QNR, "\ufeff", '[Variant "Antichess"]\n', "1" * 300]),
    max_size=60).map("".join),
    st.sampled_from([None, "crazyhouse", "antichess", "seirawan", "horde", "3check"]),
    st.sampled_from([None, "xfen", "shredder"]))
def test_lint_answers_a_report_or_one_chess960_error(text: str, variant: str | None,
                                                     fix: str | None) -> None:
    try:
        report = lint_text(text, "fuzz", fix=fix, variant=variant)
    except Chess960Error:
        return
    assert report.problems >= 0
    assert all(len(line) < 2000 for line in report.lines())


# -- 27.9: --fix never rewrites what it should not -----------------------------------


def test_fix_refuses_a_read_only_file_and_hard_links(tmp_path: Path) -> None:
    book = tmp_path / "book.fen"
    book.write_text(QNR.replace("KQkq", "KQk") + "\n")
    before = book.read_text()
    book.chmod(0o444)
    code, out, err = lint("--fix", "xfen", str(book))
    assert (code, out) == (1, "")
    assert err == f"error: cannot write {str(book)!r}: it is read-only (mode 0444)\n"
    assert book.read_text() == before and stat.S_IMODE(book.stat().st_mode) == 0o444
    book.chmod(0o644)
    os.link(book, tmp_path / "link.fen")
    code, out, err = lint("--fix", "xfen", str(book))
    assert (code, out) == (1, "")
    assert err == (f"error: cannot write {str(book)!r}: it has 2 hard links, which replacing "
                   "it would break (fix a copy)\n")
    assert book.read_text() == before and book.stat().st_nlink == 2


# -- 27.16, 24.4: bounded quotes, every reader takes a BOM and CR-only endings ----------


def test_errors_quote_a_bounded_part_of_a_line() -> None:
    line = START.replace("0 1", 'c0 "' + "x" * 1_000_000)
    code, out, err = run("id", "-", stdin=line.encode() + b"\n")
    assert code == 1 and len(err) < 400, err[:500]
    code, out, err = lint(stdin=line.encode() + b"\n")
    assert code == 1 and max(map(len, out.splitlines())) < 400, out[:500]


@pytest.mark.parametrize(("args", "lines", "expected"), [
    (["id", "-"], [b"RNBQKBNR", b"QNRBBNKR"], "518\n105\n"),
    (["position", "-"], [b"518", b"105"], "RNBQKBNR\nQNRBBNKR\n"),
])
def test_every_reader_takes_a_bom_and_any_line_ending(args: list[str], lines: list[bytes],
                                                      expected: str) -> None:
    for ending in (b"\r", b"\r\n", b"\n"):  # each ending, then all three mixed
        data = b"\xef\xbb\xbf" + (ending.join(lines) + ending) * 2
        assert run(*args, stdin=data) == (0, expected * 2, "")
    data = b"\xef\xbb\xbf" + lines[0] + b"\r" + lines[1] + b"\r\n" + lines[0] + b"\n"
    assert run(*args, stdin=data) == (0, expected + expected.split("\n", maxsplit=1)[0] + "\n", "")


def test_show_takes_a_bom_and_cr_only_endings() -> None:
    code, out, err = run("show", "-", "--letters", stdin=b"\xef\xbb\xbf105\r518\r")
    assert (code, err) == (0, "")
    assert out.count("8  q  n  r  b  b  n  k  r  8") == 1
    assert out.count("8  r  n  b  q  k  b  n  r  8") == 1


def test_the_line_reader_splits_on_line_breaks_only() -> None:
    import io

    text = "a\u2028b\rc\r\nd\x0c\x1ce\n".encode()
    reader = LineReader(io.BytesIO(b"\xef\xbb\xbf" + text))
    assert [line for batch in reader for line in batch] == [
        "a\u2028b".encode(), b"c", b"d\x0c\x1ce"]
    assert (reader.bom, reader.ending, reader.closed) == (True, b"\r", True)


def test_a_report_on_an_ascii_stdout_escapes_what_it_cannot_show() -> None:
    line = "rnb²kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB²KBNR w KQkq - 0 1\n"
    code, out, err = run("lint", "--verbose", stdin=line.encode(),
                         env={"PYTHONIOENCODING": "ascii"})
    assert (code, err) == (1, "error: -: no position to check (1 line skipped: 1 fen line "
                              "cannot be read)\n")
    assert out.startswith("-:1: skipped: fen line 'rnb\\xb2kbnr/")
