"""The ``chess960`` command: exact stdout, stderr and exit codes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver import __version__, bundled_names
from solver.cli.app import app
from solver.ruleset.reader import rules_dir

GOLDEN = Path(__file__).parent / "data" / "chess960.txt"


def run(*args: str, stdin: str | None = None) -> tuple[str, str, int]:
    result = CliRunner().invoke(app, list(args), input=stdin, prog_name="chess960")
    return result.stdout, result.stderr, result.exit_code


def test_solve_count() -> None:
    assert run("solve", "--count") == ("960\n", "", 0)


def test_solve_lists_every_rank_in_order() -> None:
    out, err, code = run("solve")
    assert (err, code) == ("", 0)
    assert out == GOLDEN.read_text(encoding="ascii")


def test_solve_unicode() -> None:
    out, _, code = run("solve", "--unicode")
    assert code == 0
    assert out.splitlines()[518] == "518 ♖♘♗♕♔♗♘♖"


def test_id() -> None:
    assert run("id", "QNRBBNKR") == ("105\n", "", 0)
    assert run("id", "RNBQKBNR", "♛♞♜♝♝♞♚♜", "r n b q k b n r") == ("518\n105\n518\n", "", 0)


def test_position() -> None:
    assert run("position", "518") == ("RNBQKBNR\n", "", 0)
    assert run("position", "0", "959") == ("BBQNNRKR\nRKRNNQBB\n", "", 0)
    assert run("position", "518", "--unicode") == ("♖♘♗♕♔♗♘♖\n", "", 0)


@pytest.mark.parametrize(
    ("args", "stderr"),
    [
        (["id", "RNBQKBN"], "error: 'RNBQKBN' has 7 squares, expected 8\n"),
        (["id", "RNBQKBNX"], "error: 'RNBQKBNX' has an unknown piece 'X' on h1\n"),
        (["id", "RNBQKBN♙"], "error: 'RNBQKBN♙' has an unknown piece '♙' on h1\n"),
        (["id", "RNBQKNNR"], "error: 'RNBQKNNR' has 1 bishop (c1), expected 2\n"),
        (["id", "RNNQKBNR"], "error: 'RNNQKBNR' has 1 bishop (f1), expected 2\n"),
        (["id", "BRBNKQNR"],
         "error: 'BRBNKQNR' is not a chess960 rank: bishops on a1 and c1 are both on dark "
         "squares (rule opposite-colours BB)\n"),
        (["id", "KRBBRQNN"],
         "error: 'KRBBRQNN' is not a chess960 rank: king on a1 is not between the rooks on b1 "
         "and e1 (rule between K RR)\n"),
        (["position", "960"], "error: chess960 id 960 is out of range 0..959\n"),
        (["position", "--", "-3"], "error: chess960 id -3 is out of range 0..959\n"),
        (["position", "x"], "error: position id 'x' is not an integer\n"),
        (["position", "1.5"], "error: position id '1.5' is not an integer\n"),
        (["solve", "--rules", "chess96O"],
         f"error: no rule set 'chess96O': not a bundled family ({', '.join(bundled_names())}) "
         "nor a file (did you mean 'chess960'?)\n"),
    ],
)
def test_bad_input_gives_one_error_line(args: list[str], stderr: str) -> None:
    assert run(*args) == ("", stderr, 1)


def test_good_answers_survive_bad_ones() -> None:
    out, err, code = run("id", "QNRBBNKR", "XX", "RNBQKBNR")
    assert out == "105\n518\n"
    assert err == "error: 'XX' has an unknown piece 'X' on a1\n"
    assert code == 1


def test_stdin_streams_and_numbers_bad_lines() -> None:
    stdin = "QNRBBNKR\nBRBNKQNR\n\nrnbqkbnr\nRNBQ\n"
    out, err, code = run("id", "-", stdin=stdin)
    assert out == "105\n\n\n518\n\n"  # one line per input line
    assert err == (
        "error: line 2: 'BRBNKQNR' is not a chess960 rank: bishops on a1 and c1 are both on "
        "dark squares (rule opposite-colours BB)\n"
        "error: line 3: blank line\n"
        "error: line 5: 'RNBQ' has 4 squares, expected 8\n"
    )
    assert code == 1


def test_stdin_all_good_exits_zero() -> None:
    assert run("id", "-", stdin="QNRBBNKR\r\nRNBQKBNR\n") == ("105\n518\n", "", 0)


def test_check() -> None:
    out, err, code = run("check")
    assert code == 0
    assert re.fullmatch(r"chess960: checked in \d+\.\d\d s\n", err)
    lines = out.splitlines()
    assert lines[0] == "chess960: Chess960 (Fischer Random Chess)"
    assert "  ok   the solver finds the declared count 960" in lines
    assert ("  ok   the canonical order matches Scharnagl's published formula for every rank"
            in lines)
    assert not any("FAIL" in line for line in lines)
    assert lines[-1] == "  960 positions, arithmetic numbering, proven"


def test_check_names_disagreements(tmp_path: Path) -> None:
    wrong = (rules_dir() / "janggi.toml").read_text()  # 16 positions: proven at once
    wrong = wrong.replace("count = 16", "count = 9")
    path = tmp_path / "wrong.toml"
    path.write_text(wrong)
    out, err, code = run("check", "--rules", str(path))
    assert code == 1
    assert ("  FAIL the solver finds the declared count 9 (4 per side, squared): found 16"
            in out.splitlines())
    assert err.endswith("\nerror: check failed for janggi\n")
    assert err.count("error:") == 1


def test_version() -> None:
    assert run("--version") == (f"chess960 {__version__}\n", "", 0)


@pytest.mark.parametrize("command", ["solve", "id", "position", "check", "rules"])
def test_help(command: str) -> None:
    out, _, code = run(command, "--help")
    assert code == 0
    assert "Usage: chess960 " + command in out


def test_usage_errors_keep_exit_2() -> None:
    _, err, code = run("id")
    assert code == 2
    assert "Missing argument" in err


def test_installed_command_has_no_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "solver", "id", "BRBNKQNR"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("error: ")
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_id_does_not_import_the_solver() -> None:
    code = (
        "import sys\n"
        "from solver.cli.app import run\n"
        "sys.argv = ['chess960', 'id', 'QNRBBNKR']\n"
        "try:\n    sys.exit(run(sys.argv[1:]))\n"
        "except SystemExit:\n    pass\n"
        "print('constraint' in sys.modules, 'solver.search.solve' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "105\nFalse False\n"
