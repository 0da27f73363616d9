"""EPD opening books: written by ``--format epd``, read back by ``id``.

Oracles: python-chess's EPD reader (``Board.from_epd``), which reads the
four fields and the ``id`` operation on its own, and pyffish for the
10-file Capablanca books (both test-only, skipped when not installed).
"""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from profiles import sample
from typer.testing import CliRunner

from solver.cli.app import app
from solver.errors import FenSyntaxError, NotStartPositionError
from solver.family import Family
from solver.notation.fen import read_start, split_opcodes
from solver.output import PositionWriter, read_back

runner = CliRunner()
F105 = "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR"


def book(family: Family, ids: list[int], dialect: str = "xfen") -> str:
    out = io.StringIO()
    with PositionWriter(out, family, "epd", dialect=dialect) as writer:
        for number in ids:
            writer.write(family.position(number))
    return out.getvalue()


def test_the_epd_line() -> None:
    chess960 = Family.load("chess960")
    assert book(chess960, [105]) == f'{F105} w KQkq - id "chess960 105";\n'
    assert book(chess960, [105], "shredder") == f'{F105} w HChc - id "chess960 105";\n'


@pytest.mark.parametrize("dialect", sample(["xfen", "shredder"], 1))
def test_every_chess960_line_read_back_and_by_python_chess(dialect: str) -> None:
    chess = pytest.importorskip("chess")
    chess960 = Family.load("chess960")
    text = book(chess960, list(range(960)), dialect)
    assert [p.id for p in read_back("epd", chess960, text)] == list(range(960))
    for number, line in enumerate(text.splitlines()):
        board, ops = chess.Board.from_epd(line, chess960=True)
        assert ops == {"id": f"chess960 {number}"}
        assert board.is_valid()
        want = chess.Board.from_chess960_pos(number)
        assert board.fen() == want.fen() and board.castling_rights == want.castling_rights


def test_dfrc_book_every_line_read_back() -> None:
    chess = pytest.importorskip("chess")
    dfrc = Family.load("dfrc")
    ids = list(range(0, 921_600, 997))
    text = book(dfrc, ids, "shredder")
    assert [p.id for p in read_back("epd", dfrc, text)] == ids
    for number, line in zip(ids, text.splitlines(), strict=True):
        board, ops = chess.Board.from_epd(line, chess960=True)
        white, black = divmod(number, 960)
        assert ops["id"] == f"dfrc {number}" and board.is_valid()
        assert board.board_fen().split("/")[-1] == chess.Board.from_chess960_pos(
            white).board_fen().split("/")[-1]
        assert board.board_fen().split("/")[0] == chess.Board.from_chess960_pos(
            black).board_fen().split("/")[0]


def test_capablanca_book_accepted_by_fairy_stockfish() -> None:
    sf = pytest.importorskip("pyffish")
    family = Family.load("capablanca-random")
    ids = list(range(0, 48_000, 131))
    text = book(family, ids, "shredder")
    assert [p.id for p in read_back("epd", family, text)] == ids
    for line in text.splitlines():
        fen = line.split(" id ")[0] + " 0 1"
        assert sf.validate_fen(fen, "caparandom", True) == 1
        assert sf.get_fen("caparandom", fen, [], True) == fen


def test_id_reads_every_line_of_a_book_on_stdin() -> None:
    text = book(Family.load("dfrc"), [0, 101318, 921599])
    done = subprocess.run([sys.executable, "-m", "solver", "id", "-r", "dfrc", "-"],
                          input=text, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "0\n101318\n921599\n", "")


@pytest.mark.parametrize("line", [
    f"{F105} w KQkq -",
    f"{F105} w HChc - 0 1",
    f"{F105} w HChc - 12 40",
    f"{F105} w KQkq - hmvc 0; fmvn 1; id \"chess960 105\";",
    f"{F105} w KQkq - 0 1 id \"x; y\"; c0 \"a comment\"",
    f"{F105} w KQkq - id \"book line 7\"",
    f"  {F105}   w  KQkq  -  ",
])
def test_id_reads_epd_lines_and_any_counters(line: str) -> None:
    assert Family.load("chess960").identify(line).id == 105
    result = runner.invoke(app, ["id", line])
    assert (result.exit_code, result.stdout) == (0, "105\n")


def test_opcodes_are_kept_in_order() -> None:
    start = read_start(f'{F105} w HChc - c0 "a; b"; id "chess960 105";')
    assert start.opcodes == (("c0", '"a; b"'), ("id", '"chess960 105"'))
    assert split_opcodes("a 1;b;") == [("a", "1"), ("b", "")]


@pytest.mark.parametrize(("line", "field"), [
    (f"{F105} w KQkq", "fields"),
    (f"{F105} w KQkq - 0", "fields"),
    (f"{F105} w KQkq - 0 x", "move number"),
    (f"{F105} w KQkq - 7 id \"x\";", "move number"),
    (f"{F105} w KQkq - 1bad \"x\";", "opcodes"),
    (f"{F105} w KQkq - id \"open;", "opcodes"),
])
def test_unreadable_epd_lines(line: str, field: str) -> None:
    with pytest.raises(FenSyntaxError) as caught:
        Family.load("chess960").identify(line)
    assert caught.value.field == field


def test_epd_lines_that_are_not_start_positions() -> None:
    with pytest.raises(NotStartPositionError, match="black to move"):
        Family.load("chess960").identify(f"{F105} b KQkq - id \"x\";")


def test_a_book_whose_id_disagrees_is_refused_on_read_back() -> None:
    chess960 = Family.load("chess960")
    with pytest.raises(ValueError, match="says id 104"):
        read_back("epd", chess960, f'{F105} w KQkq - id "chess960 104";\n')
