"""Every numbering programs use, against its source: Stockfish's DFRC book order,
Scidb's 1..960 and shuffle 1..2,880, XBoard's SetUpShuffle, pychess-variants'
Racing Kings list, TCEC's labels, Fritz 9's one example.

Each oracle here is written from the source's own definition (a formula, a
program's code, a published list), not from the numberings' code.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from typer.testing import CliRunner

from solver.cli.app import app
from solver.errors import NumberingLabelError, RuleFileError, UnknownNumberingError
from solver.family import Family
from solver.ruleset.reader import parse

DATA = Path(__file__).parent / "data"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=stdin, prog_name="chess960")
    return result.exit_code, result.stdout, result.stderr


# -- an independent Scharnagl decoder (the published table's rule) --------------------

KNIGHTS = [(a, b) for a in range(5) for b in range(a + 1, 5)]


def sp_rank(n: int) -> str:
    """Scharnagl's SP-ID n as a rank: light bishop, dark bishop, queen, knights, R K R."""
    rank = [""] * 8
    n, light = divmod(n, 4)
    n, dark = divmod(n, 4)
    n, queen = divmod(n, 6)
    rank[2 * light + 1] = "B"
    rank[2 * dark] = "B"
    free = [f for f in range(8) if not rank[f]]
    rank[free.pop(queen)] = "Q"
    a, b = KNIGHTS[n]
    for f in (free[b], free[a]):
        rank[f] = "N"
        free.remove(f)
    for f, letter in zip(free, "RKR", strict=True):
        rank[f] = letter
    return "".join(rank)


def shredder_castling(white: str, black: str) -> str:
    files = "ABCDEFGH"

    def side(rank: str) -> str:
        return files[rank.rindex("R")] + files[rank.index("R")]

    return side(white) + side(black).lower()


# -- DFRC: Stockfish's book order, white-major --------------------------------------------


def test_dfrc_position_is_white_major_and_black_major_is_kept() -> None:
    assert run("position", "101318", "-r", "dfrc") == (0, "QNRBBNKR rnbqkbnr\n", "")
    assert run("position", "101318", "-r", "dfrc", "--numbering", "black-major") == (
        0, "RNBQKBNR qnrbbnkr\n", "")
    assert run("convert", "101318", "-r", "dfrc", "--to", "black-major") == (
        0, f"{518 * 960 + 105}\n", "")


@pytest.mark.slow
def test_dfrc_book_order_numbers_every_line_in_order() -> None:
    # Stockfish's DFRC_openings.epd, regenerated from its rule: line k holds White's
    # SP k // 960 and Black's k % 960, Shredder castling.
    ranks = [sp_rank(i) for i in range(960)]
    lines = []
    for k in range(960 * 960):
        white, black = ranks[k // 960], ranks[k % 960]
        lines.append(f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w "
                     f"{shredder_castling(white, black)} - 0 1\n")
    done = subprocess.run([sys.executable, "-m", "solver", "id", "-r", "dfrc", "-"],
                          input="".join(lines), capture_output=True, text=True, check=True)
    assert done.stdout.split() == [str(k) for k in range(960 * 960)]


# -- Scidb and Scharnagl's 1..960 -------------------------------------------------------


def test_scidb_numbers() -> None:
    assert run("convert", "518", "--to", "scidb") == (0, "518\n", "")
    assert run("convert", "0", "--to", "scidb") == (0, "960\n", "")
    assert run("id", "BBQNNRKR", "--numbering", "scidb") == (0, "960\n", "")
    assert run("position", "960", "--numbering", "scidb") == (0, "BBQNNRKR\n", "")
    assert run("convert", "960", "--from", "scidb") == (0, "0\n", "")


def test_scidb_table_is_sp_mod_960() -> None:
    chess960 = Family.load("chess960")
    scidb = chess960.scheme("scidb")
    for k in range(1, 961):  # PositionTable[k] = SP k mod 960
        assert chess960.position(scidb.read(str(k))).white == sp_rank(k % 960)


def test_scidb_shuffle_from_its_definition() -> None:
    family = Family.load("bishops-opposite")
    scheme = family.scheme("scidb-shuffle")
    for n in range(1, 2881):
        block, sp = (n - 1) // 960, n % 960
        rank = list(sp_rank(sp))
        king = rank.index("K")
        left, right = rank.index("R"), 7 - rank[::-1].index("R")
        if block == 1:  # the king swapped with the rook to its right
            rank[king], rank[right] = rank[right], rank[king]
        elif block == 2:  # the left rook swapped with the king
            rank[king], rank[left] = rank[left], rank[king]
        assert family.position(scheme.read(str(n))).white == "".join(rank), n
        assert scheme.text(family.rank_id("".join(rank))) == str(n)


def test_one_based_is_every_familys() -> None:
    for name in ("chess960", "racing-kings", "dfrc"):
        family = Family.load(name)
        one = family.scheme("one-based")
        assert one.text(0) == str(family.count) and one.text(1) == "1"


# -- XBoard: SetUpShuffle, re-derived from backend.c ----------------------------------------


def xboard_shuffle(number: int, pieces: dict[str, int], width: int) -> str:
    """XBoard's SetUpShuffle for a variant with FRC castling: bishops light then
    dark, then the other pieces from the highest piece type down (pairs as one
    choice among n(n-1)/2), then the king between the rooks."""
    board = [""] * width
    seed = number

    def put(letter: str, n: int, shade: int) -> None:  # the n-th free square of the shade
        for i in range(width):
            if ((i & 1) + 1) & shade and not board[i]:
                if n == 0:
                    board[i] = letter
                    return
                n -= 1

    def left(shade: int) -> int:
        return sum(1 for i in range(width) if ((i & 1) + 1) & shade and not board[i])

    def one(letter: str, shade: int) -> None:
        nonlocal seed
        n = left(shade)
        i = seed % n
        seed //= n
        put(letter, i, shade)

    def two(letter: str) -> None:
        nonlocal seed
        n = left(3)
        k = n * (n - 1) // 2
        i = seed % k
        seed //= k
        j = n - 1
        while i >= j:
            i -= j
            j -= 1
        j = n - 1 - j
        i += j
        put(letter, j, 3)
        put(letter, i, 3)

    one("B", 2)  # LITE: odd files
    one("B", 1)  # DARK
    for letter in ("C", "A", "Q", "N"):  # Marshall, Angel, Queen, Knight: from King-2 down
        count = pieces.get(letter, 0)
        while count >= 2:
            two(letter)
            count -= 2
        if count:
            one(letter, 3)
    for letter in "RKR":
        put(letter, 0, 3)
    return "".join(board)


def test_xboard_frc_numbers_are_scharnagls() -> None:
    family = Family.load("chess960")
    scheme = family.scheme("xboard")
    for n in range(960):
        rank = xboard_shuffle(n, {"Q": 1, "N": 2}, 8)
        assert rank == sp_rank(n)
        assert scheme.text(family.rank_id(rank)) == str(n)


@pytest.mark.slow
def test_xboard_caparandom_order_for_all_84000() -> None:
    family = Family.load("capablanca-shuffle")
    scheme = family.scheme("xboard")
    pieces = {"C": 1, "A": 1, "Q": 1, "N": 2}
    for n in range(84_000):
        assert family.position(scheme.read(str(n))).white == xboard_shuffle(n, pieces, 10), n


# -- pychess-variants: Racing Kings' list ------------------------------------------------


def pychess_list() -> list[str]:
    return [line for line in (DATA / "pychess_racingkings.txt").read_text().splitlines()
            if line and not line.startswith("#")]


def test_pychess_racing_kings_list() -> None:
    family = Family.load("racing-kings")
    listed = pychess_list()
    assert len(listed) == 1440
    for number, two_ranks in enumerate(listed):
        fen = f"8/8/8/8/8/8/{two_ranks} w - - 0 1"
        assert family.scheme("pychess").text(family.identify(fen).id) == str(number)
    start = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
    assert listed.index("krbnNBRK/qrbnNBRQ") == 612
    assert run("id", start, "-r", "racing-kings", "--numbering", "pychess") == (0, "612\n", "")


# -- TCEC's labels --------------------------------------------------------------------


def test_tcec_labels() -> None:
    assert run("id", "RNBQKBNR", "--numbering", "tcec") == (0, "FRC 518\n", "")
    white, black = sp_rank(502), sp_rank(532)
    assert run("id", f"{white} {black.lower()}", "-r", "dfrc", "--numbering", "tcec") == (
        0, "DFRC 502:532\n", "")
    assert run("position", "DFRC 502:532", "-r", "dfrc", "--numbering", "tcec") == (
        0, f"{white} {black.lower()}\n", "")
    assert run("id", "RNBQKBNR rnbqkbnr", "-r", "dfrc", "--numbering", "tcec") == (
        0, "FRC 518\n", "")
    assert run("convert", "FRC 518", "-r", "dfrc", "--from", "tcec") == (0, "497798\n", "")
    assert run("convert", "DFRC 502:532", "-r", "dfrc", "--from", "tcec") == (
        0, f"{502 * 960 + 532}\n", "")


def test_fritz9_rests_on_one_example() -> None:
    assert run("id", "RNBQKBNR", "--numbering", "fritz9") == (0, "359\n", "")
    code, out, _ = run("check")
    assert code == 0 and "fritz9" in out and "rests on one published example" in out


# -- errors ----------------------------------------------------------------------------


def test_unknown_numbering_and_bad_numbers() -> None:
    with pytest.raises(UnknownNumberingError) as info:
        Family.load("chess960").scheme("scid")
    assert info.value.known[0] == "scharnagl"
    code, _, err = run("id", "RNBQKBNR", "--numbering", "scid")
    assert code == 1 and err.startswith("error: unknown numbering 'scid' of chess960")
    with pytest.raises(NumberingLabelError):
        Family.load("chess960").scheme("scidb").read("0")
    code, _, err = run("position", "DFRC 960:1", "-r", "dfrc", "--numbering", "tcec")
    assert code == 1 and "'DFRC 960:1' is not a dfrc number in the numbering tcec" in err
    assert run("id", "RNBQKBNR", "--numbering", "scidb", "-f", "fen")[0] == 1


BASE = """name = "x"
title = "x"
source = "x"
files = 8
pieces = "KQRRBBNN"
count = 40320
"""


@pytest.mark.parametrize(("table", "message"), [
    ('[[numberings]]\nname = "a"\nsource = "s"\nlabel = "N {id}"\n', "has the field {id}"),
    ('[[numberings]]\nname = "a"\nsource = "s"\npairs = "black-major"\n',
     "needs sides = \"independent\""),
    ('[[numberings]]\nname = "a"\nsource = "s"\nfirst = -1\n', "out of range"),
    ('[[numberings]]\nname = "a"\nsource = "s"\ncolour = 1\n', "unknown key 'colour'"),
    ('[[numberings]]\nname = "a"\nsource = "s"\n[[numberings]]\nname = "a"\nsource = "t"\n',
     "declared twice"),
    ('[[numberings]]\nname = "a"\nsource = "s"\nevidence = "example"\n', "needs the examples"),
    ('[[numberings]]\nname = "a"\nsource = "s"\nsteps = ["K", "Q", "RR", "BB", "NNN"]\n',
     "numberings[1].steps"),
    ('[numbering]\nsteps = ["B:light", "B:dark", "Q", "NN", "RKR|RRK"]\n',
     "only a further numbering's steps may"),
])
def test_numbering_rule_errors(table: str, message: str) -> None:
    with pytest.raises(RuleFileError) as info:
        parse(BASE + table)
    assert message in str(info.value)


@cache
def _loaded(name: str) -> Family:
    """A family loaded once for every example (its numberings made once too)."""
    return Family.load(name)


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from([("chess960", "scidb"), ("chess960", "xboard"), ("chess960", "tcec"),
                        ("chess960", "fritz9"), ("dfrc", "tcec"), ("dfrc", "black-major"),
                        ("dfrc", "one-based"), ("bishops-opposite", "scidb-shuffle"),
                        ("racing-kings", "pychess")]), st.data())
def test_every_numbering_reads_back_what_it_writes(pair: tuple[str, str],
                                                   data: st.DataObject) -> None:
    family = _loaded(pair[0])
    scheme = family.scheme(pair[1])
    number = data.draw(st.integers(0, family.count - 1))
    assert scheme.read(scheme.text(number)) == number
    converted = family.converter(None, pair[1])(str(number))
    assert family.converter(pair[1], None)(converted) == str(number)


# -- every command that numbers takes --numbering ------------------------------------------


def test_random_solve_plan_and_lint_take_a_numbering() -> None:
    code, out, _ = run("random", "--seed", "n", "-n", "3", "--numbering", "scidb")
    ids = [int(line.split()[0]) for line in out.splitlines()]
    plain = [int(line.split()[0]) for line in run("random", "--seed", "n", "-n", "3")[1].split("\n")
             if line]
    assert code == 0 and ids == [n or 960 for n in plain]
    code, out, _ = run("random", "-x", ",".join(str(n) for n in range(2, 961)), "-n", "2",
                       "--numbering", "scidb")
    assert code == 0 and out == "1 BQNBNRKR\n1 BQNBNRKR\n"  # only scidb 1 is left
    code, out, _ = run("solve", "--numbering", "scidb")
    lines = out.splitlines()
    assert code == 0 and lines[0] == f"1 {sp_rank(1)}" and lines[-1] == f"960 {sp_rank(0)}"
    code, out, _ = run("plan", "--rounds", "3", "--seed", "p", "-r", "dfrc", "--numbering",
                       "tcec", "-f", "csv")
    rows = out.splitlines()
    assert code == 0 and rows[0] == "round,id (tcec),rank,FEN"
    for row in rows[1:]:
        label, pair = row.split(",")[1:3]
        white, black = pair.split()
        assert label in (f"DFRC {sp_index(white)}:{sp_index(black.upper())}",
                         f"FRC {sp_index(white)}")


def sp_index(rank: str) -> int:
    return [sp_rank(i) for i in range(960)].index(rank)


def test_lint_reads_a_book_numbered_black_major(tmp_path: Path) -> None:
    book = tmp_path / "old.epd"
    lines = []
    for white_id, black_id in ((518, 105), (0, 959), (7, 7)):
        white, black = sp_rank(white_id), sp_rank(black_id)
        old_id = black_id * 960 + white_id  # the order before white-major
        lines.append(f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w "
                     f"{shredder_castling(white, black)} - id \"dfrc {old_id}\";")
    book.write_text("\n".join(lines) + "\n")
    code, out, _ = run("lint", str(book), "-r", "dfrc", "--numbering", "black-major")
    assert code == 0 and out.endswith("3 start positions, 0 problems\n")
    code, out, _ = run("lint", str(book), "-r", "dfrc")
    assert code == 1 and "the position's dfrc id is 497385" in out
    assert run("lint", str(book), "--numbering", "black-major")[0] == 2


# -- convert answers afresh on every run ---------------------------------------------------


def test_convert_answers_the_same_on_every_run() -> None:
    for _ in range(2):  # nothing is kept between runs
        assert run("convert", "0", "--to", "scidb") == (0, "960\n", "")
        assert run("convert", "0", "5", "--to", "scidb") == (0, "960\n5\n", "")
    assert run("convert", "0518", "961", "--to", "scidb")[1:] == (
        "518\n", "error: '961' is not a chess960 number in the numbering scharnagl (0..959)\n")


def test_a_certificate_records_the_familys_own_ids(tmp_path: Path) -> None:
    cert = str(tmp_path / "c.json")
    code, _, err = run("plan", "--rounds", "2", "--seed", "x", "--numbering", "tcec",
                       "--certificate", cert)
    assert code == 1 and err == ("error: plan: --certificate and --numbering do not go together: "
                                 "a certificate records the family's own ids (convert them "
                                 "with `chess960 convert`)\n")
    code, _, err = run("random", "--seed", "x", "--numbering", "scidb", "--certificate", cert)
    assert code == 1 and "do not go together" in err
    code, out, _ = run("random", "-n", "3", "--seed", "x", "--balanced", "0.3",
                       "--certificate", cert)
    assert code == 0 and run("verify", cert)[0] == 0
    data = json.loads(Path(cert).read_text())
    allowed = {int(line.split()[0]) for line in out.splitlines()}
    excluded = set(data["exclusions"]["ids"])
    assert len(excluded) == 960 - 307 and not allowed & excluded


def test_a_familys_page_lists_its_numberings() -> None:
    from solver.output.html import report_page
    from solver.report import family_report

    page = report_page(family_report(Family.load("chess960"), prove=False))
    table = page[page.index("<h2>Numberings</h2>"):]
    table = table[:table.index("</table>")]
    for name, first in (("scharnagl", "0"), ("scidb", "960"), ("tcec", "FRC 0"),
                        ("fritz9", "81"), ("one-based", "960")):  # BBQNNRKR: 1 + 16 * 5
        assert f"<td><code>{name}</code></td>" in table
        row = table[table.index(f"<code>{name}</code>"):]
        assert f"<td>{first}</td>" in row[:row.index("</tr>")]
