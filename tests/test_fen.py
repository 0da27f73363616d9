"""Full start FENs: writing them for every family, reading them back, and every error.

Golden data: the FENs quoted in issue 4 (python-chess writes the same), and
Chess960 ranks from the published direct derivation of Scharnagl's numbers
(Wikipedia, "Fischer random chess numbering scheme"), coded here on its own.
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from solver.cli.app import app
from solver.errors import (
    CastlingRightsError,
    Chess960Error,
    FenSyntaxError,
    MirrorError,
    NotStartPositionError,
    SidesError,
)
from solver.family import Family
from solver.notation.fen import castling_field, is_fen, read_start, start_fen

CLASSICAL = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
GOLDEN = {  # id: (X-FEN, Shredder-FEN)
    518: (CLASSICAL, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"),
    105: ("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1",
          "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1"),
    0: ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"),
    959: ("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
          "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1"),
}
CAPABLANCA = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"
# Knight squares among the five left, for N = 0..9 (the published N5N table).
KNIGHTS = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]

runner = CliRunner()


def derived_rank(n: int) -> str:
    """Scharnagl's direct derivation: light bishop, dark bishop, queen, knights, R K R."""
    row = [""] * 8
    n, light = divmod(n, 4)
    row[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    row[2 * dark] = "B"
    knights, queen = divmod(n, 6)
    free = [f for f in range(8) if not row[f]]
    row[free.pop(queen)] = "Q"
    for i in KNIGHTS[knights]:
        row[free[i]] = "N"
    rest = [f for f in range(8) if not row[f]]
    for f, piece in zip(rest, "RKR", strict=True):
        row[f] = piece
    return "".join(row)


def expected_fens(rank: str) -> tuple[str, str]:
    """Both FENs of a Chess960 rank, written out from the FEN standard."""
    rooks = [f for f, p in enumerate(rank) if p == "R"]
    files = "abcdefgh"
    shredder = files[rooks[1]].upper() + files[rooks[0]].upper() + files[rooks[1]] + files[rooks[0]]
    board = f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank}"
    return f"{board} w KQkq - 0 1", f"{board} w {shredder} - 0 1"


@pytest.fixture(scope="module")
def chess960() -> Family:
    return Family.load("chess960")


@pytest.fixture(scope="module")
def dfrc() -> Family:
    return Family.load("dfrc")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


# -- writing -----------------------------------------------------------------------


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_golden_fens_both_notations(chess960: Family, number: int) -> None:
    xfen, shredder = GOLDEN[number]
    position = chess960.position(number)
    assert start_fen(position.white) == xfen
    assert start_fen(position.white, shredder=True) == shredder
    assert run("position", str(number), "--format", "fen") == (0, xfen + "\n", "")
    assert run("position", str(number), "--format", "shredder") == (0, shredder + "\n", "")


def test_derivation_matches_golden() -> None:
    assert [derived_rank(n) for n in (518, 105, 0, 959)] == [
        "RNBQKBNR", "QNRBBNKR", "BBQNNRKR", "RKRNNQBB"]


def test_every_chess960_fen_round_trips(chess960: Family) -> None:
    for number in range(960):
        rank = derived_rank(number)
        xfen, shredder = expected_fens(rank)
        position = chess960.position(number)
        assert position.white == rank
        assert start_fen(position.white) == xfen
        assert start_fen(position.white, shredder=True) == shredder
        assert chess960.identify(xfen).id == number
        assert chess960.identify(shredder).id == number


def test_ten_file_fen() -> None:
    crc = Family.load("capablanca-random")
    found = crc.identify(CAPABLANCA)
    assert found.white == "RNBQCKABNR"
    assert start_fen(found.white) == CAPABLANCA
    shredder = CAPABLANCA.replace("KQkq", "JAja")
    assert start_fen(found.white, shredder=True) == shredder
    assert crc.identify(shredder).id == found.id
    assert run("position", "-r", "capablanca-random", str(found.id), "-f", "fen") == (
        0, CAPABLANCA + "\n", "")


def test_no_castling_without_rooks_on_both_sides() -> None:
    assert castling_field("RRKQBBNN") == "-"
    assert castling_field("KRRQBBNN", shredder=True) == "-"
    assert start_fen("RRKQBBNN").endswith(" w - - 0 1")
    shuffle = Family.load("shuffle")
    fen = "rrkqbbnn/pppppppp/8/8/8/8/PPPPPPPP/RRKQBBNN w - - 0 1"
    assert start_fen(shuffle.identify(fen).white) == fen


def test_independent_castling_per_side() -> None:
    assert castling_field("RNBQKBNR", "RRKQBBNN") == "KQ"
    assert castling_field("RRKQBBNN", "RNBQKBNR", shredder=True) == "ha"


def test_pgn_tags() -> None:
    code, out, err = run("position", "518", "--format", "pgn")
    assert (code, err) == (0, "")
    roster = ('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
              '[White "?"]\n[Black "?"]\n[Result "*"]\n')
    assert out == f'{roster}[Variant "Chess960"]\n[SetUp "1"]\n[FEN "{CLASSICAL}"]\n\n*\n'
    code, out, _ = run("position", "-r", "chess324", "0", "--format", "pgn")
    assert out.startswith(f'{roster}[SetUp "1"]\n')  # standard chess from a set-up position


# -- DFRC ------------------------------------------------------------------------------


def test_dfrc_classical(dfrc: Family) -> None:
    assert run("position", "497798", "--rules", "dfrc", "--format", "fen") == (
        0, CLASSICAL + "\n", "")
    assert dfrc.identify(CLASSICAL).id == 518 * 960 + 518
    assert run("id", "--rules", "dfrc", CLASSICAL) == (0, "497798\n", "")


def test_dfrc_pair(dfrc: Family) -> None:
    fen = "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    number = 518 * 960 + 105  # White's id first
    assert dfrc.identify(fen).id == number
    assert dfrc.identify(fen.replace("KQkq", "HAhc")).id == number
    assert run("id", "--rules", "dfrc", fen) == (0, f"{number}\n", "")
    assert run("position", "--rules", "dfrc", "--white", "518", "--black", "105") == (
        0, "RNBQKBNR qnrbbnkr\n", "")
    assert run("position", "-r", "dfrc", "--white", "518", "--black", "105", "-f", "fen") == (
        0, fen + "\n", "")
    assert run("position", "-r", "dfrc", str(number), "-f", "shredder") == (
        0, fen.replace("KQkq", "HAhc") + "\n", "")


def test_pair_errors(dfrc: Family, chess960: Family) -> None:
    with pytest.raises(SidesError) as info:
        chess960.pair(518, 105)
    assert info.value.family == "chess960"
    assert run("position", "--white", "518", "--black", "105") == (1, "", f"error: {info.value}\n")
    code, out, err = run("position", "-r", "dfrc", "--white", "960", "--black", "1")
    assert (code, out) == (1, "")
    assert err == "error: dfrc white id 960 is out of range 0..959\n"
    assert run("position", "-r", "dfrc", "--white", "1")[0] == 2
    assert run("position", "-r", "dfrc", "--white", "1", "--black", "2", "3")[0] == 2
    assert run("position")[0] == 2


def test_pair_text_still_a_pair(dfrc: Family) -> None:
    assert not is_fen("RNBQKBNR/qnrbbnkr")
    assert dfrc.identify("RNBQKBNR/qnrbbnkr").id == 518 * 960 + 105


# -- errors ------------------------------------------------------------------------------


def expect(family: Family, fen: str, kind: type[Chess960Error]) -> Chess960Error:
    with pytest.raises(kind) as info:
        family.identify(fen)
    error = info.value
    assert isinstance(error, ValueError)
    message = str(error)
    assert repr(fen) in message
    unquoted = re.sub(r"'[^'\s]*'", "", message.replace(repr(fen), ""))
    assert unquoted == unquoted.lower()
    code, out, err = run("id", "--rules", family.name, fen)
    assert (code, out, err) == (1, "", f"error: {message}\n")
    return error


def test_mirror_error_names_dfrc(chess960: Family) -> None:
    fen = "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    error = expect(chess960, fen, MirrorError)
    assert isinstance(error, MirrorError)
    # (wild4 takes the two ranks too, but it has no castling: not this KQkq board)
    assert (error.white, error.black, error.families) == ("RNBQKBNR", "qnrbbnkr", ("dfrc",))
    assert "does not mirror" in str(error) and "dfrc" in str(error)


def test_mirror_error_without_a_taker() -> None:
    crc = Family.load("capablanca-random")
    fen = CAPABLANCA.replace("rnbqckabnr", "rnbqakcbnr")
    error = expect(crc, fen, MirrorError)
    assert isinstance(error, MirrorError) and error.families == ()


@pytest.mark.parametrize(("castling", "right", "words"), [
    ("KQk", None, "black's right to castle with the a8 rook is missing ('q' or 'a')"),
    ("-", None, "white's right to castle with the h1 rook is missing ('K' or 'H')"),
    ("KQkqB", "B", "'B': there is no white rook on b1"),
    ("KQkqq", "q", "'q' repeats black's right to castle with the a8 rook"),
    ("HAhb", "b", "'b': there is no black rook on b8"),
])
def test_castling_errors(chess960: Family, castling: str, right: str | None, words: str) -> None:
    fen = CLASSICAL.replace("KQkq", castling)
    error = expect(chess960, fen, CastlingRightsError)
    assert isinstance(error, CastlingRightsError)
    assert error.right == right
    assert error.expected == ("KQkq", "HAha")
    assert words in str(error)


def test_castling_without_rooks_on_both_sides() -> None:
    shuffle = Family.load("shuffle")
    fen = "rrkqbbnn/pppppppp/8/8/8/8/PPPPPPPP/RRKQBBNN w Bb - 0 1"
    error = expect(shuffle, fen, CastlingRightsError)
    assert "does not stand between two rooks" in str(error)
    error = expect(shuffle, fen.replace("Bb", "Qq"), CastlingRightsError)
    assert isinstance(error, CastlingRightsError) and error.expected == ("-", "-")
    error = expect(shuffle, fen.replace("Bb", "K"), CastlingRightsError)
    assert "no rook on the h-side of the king on c1" in str(error)


def test_castling_mixed_notations_in_any_order(chess960: Family) -> None:
    assert chess960.identify(CLASSICAL.replace("KQkq", "qAkH")).id == 518


@pytest.mark.parametrize(("fen", "reasons"), [
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
     ["pawns not on their ranks (white pawn on e4, e2 has no white pawn)"]),
    ("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1",
     ["pieces in the middle of the board (white knight on f3)",
      "back ranks not filled with each side's pieces (g1 is empty)"]),
    (CLASSICAL.replace(" w ", " b "), ["black to move"]),
    (CLASSICAL.replace("- 0", "e3 0"), ["en passant square 'e3' set"]),
    ("Rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/rNBQKBNR w KQkq - 0 1",
     ["back ranks not filled with each side's pieces (white rook on a8, black rook on a1)"]),
])
def test_not_a_start_position(chess960: Family, fen: str, reasons: list[str]) -> None:
    error = expect(chess960, fen, NotStartPositionError)
    assert isinstance(error, NotStartPositionError)
    assert list(error.reasons) == reasons


@pytest.mark.parametrize(("fen", "field"), [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "placement"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "placement"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "placement"),
    ("rnbqkbnr/pppppppp/8/8/08/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a 1", "halfmove clock"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", "move number"),
])
def test_unreadable_fens(chess960: Family, fen: str, field: str) -> None:
    error = expect(chess960, fen, FenSyntaxError)
    assert isinstance(error, FenSyntaxError) and error.field == field


def test_rank_rules_apply_to_fens(chess960: Family) -> None:
    fen = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1"
    assert chess960.identify(fen).white == "RNBKQBNR"
    bad = "brbqknnr/pppppppp/8/8/8/8/PPPPPPPP/BRBQKNNR w KQkq - 0 1"
    with pytest.raises(Chess960Error, match="opposite"):
        chess960.identify(bad)


def test_read_start_returns_both_ranks() -> None:
    start = read_start("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert (start.white, start.black, start.castling) == ("RNBQKBNR", "QNRBBNKR", "KQkq")


def test_id_reads_fens_and_ranks_from_stdin() -> None:
    lines = f"{GOLDEN[105][1]}\nRKRNNQBB\n{GOLDEN[0][0]}\n"
    result = runner.invoke(app, ["id", "-"], input=lines)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "105\n959\n0\n", "")
