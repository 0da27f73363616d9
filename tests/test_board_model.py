"""One board model: ``files`` is the board's width everywhere, and a family
whose pieces fill a region narrower than the board is drawn, written and read
on the whole board.

Golden data: the boards below are written here by hand from the rule file's
``files``, ``region`` and ``pieces``, never from the code under test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver import Family
from solver.board.geometry import Layout
from solver.cli.app import app
from solver.errors import CastlingRightsError, NotStartPositionError
from solver.notation.castling import castling_field, check_castling
from solver.notation.fen import position_fen, read_start
from solver.output.diagram import board_svg
from solver.ruleset.reader import parse

#: Six pieces in the region a1-c2 of an 8-file board, Black mirrored onto a8-c7.
SMALL = ('name = "small"\ntitle = "t"\nsource = "s"\nfiles = 8\nregion = "a1-c2"\n'
         'pawns = "none"\npieces = "KQRRBB"\ncount = 0\n'
         '[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n')


def small() -> Family:
    return Family(parse(SMALL, "small.toml"))


def test_files_is_the_boards_width_and_region_size_the_squares_filled() -> None:
    ruleset = small().ruleset
    assert ruleset.files == 8
    assert ruleset.region_size == 6
    assert ruleset.layout.files == 8
    assert ruleset.region.names == ("a1", "b1", "c1", "a2", "b2", "c2")
    assert ruleset.step_numbering().region_size == 6


#: White's BKQBRR on a1 b1 c1 a2 b2 c2 (bishops a1 dark, a2 light), Black's mirrored
#: onto a8 b8 c8 a7 b7 c7; no pawns, no castling (the pieces are not on a back rank).
SMALL_FEN = "bkq5/brr5/8/8/8/8/BRR5/BKQ5 w - - 0 1"


def test_a_region_family_writes_and_reads_its_whole_board() -> None:
    family = small()
    position = family.identify("BKQBRR")
    assert position_fen(position) == SMALL_FEN
    assert family.identify(SMALL_FEN).id == position.id


def test_show_draws_the_whole_board_of_a_region_family(tmp_path: Path) -> None:
    rules = tmp_path / "small.toml"
    rules.write_text(SMALL, encoding="utf-8")
    result = CliRunner().invoke(app, ["show", "BKQBRR", "--rules", str(rules), "--letters"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[9].split() == list("abcdefgh")
    rows = lines[1:9]
    assert [row[:2].strip() for row in rows] == [str(r) for r in range(8, 0, -1)]
    for row in rows:
        assert len(row) == len("8 ") + 8 * 3 + len(" 8")  # eight squares, three cells each
    pieces = [[c for c in row.split() if c != "\u00b7"] for row in rows]  # dots: dark squares
    assert pieces[0] == ["8", "b", "k", "q", "8"]
    assert pieces[1] == ["7", "b", "r", "r", "7"]
    assert pieces[6] == ["2", "B", "R", "R", "2"]
    assert pieces[7] == ["1", "B", "K", "Q", "1"]
    assert lines[-1] == SMALL_FEN


def test_the_svg_of_a_region_family_is_the_whole_board() -> None:
    family = small()
    svg = board_svg(family, family.identify("BKQBRR"), square=64)
    assert svg.count('class="square ') == 64
    assert 'data-square="h1"' in svg and 'data-square="h8"' in svg
    assert 'width="576"' in svg  # 8 files of 64 and two margins of 32
    assert svg.count('class="piece white') == 6 and svg.count('class="piece black') == 6
    texts = re.findall(r'<text x="[\d.]+" y="[\d.]+">([a-p])</text>', svg)
    assert sorted(set(texts)) == list("abcdefgh")


# -- one reader, one castling checker, for every board ------------------------------------

CHESS99 = Family.load("chess99-random")


def test_one_reader_reads_the_classical_board_as_a_layout() -> None:
    fen = "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert read_start(fen) == read_start(fen, Layout(8)) == read_start(fen, 8)
    assert read_start(fen).black == "QNRBBNKR"


def test_the_reader_gives_every_reason_on_another_board() -> None:
    """Chess 99: nine files and ranks, pawns on ranks 2 and 8, Black turned half round."""
    fen = CHESS99_START.replace("/PPPPPPPPP/", "/PPPP1PPPP/").replace("/9/9/9/", "/9/4N4/9/")
    assert fen.split("/")[3] == "4N4"  # rank 6
    with pytest.raises(NotStartPositionError) as caught:
        read_start(fen, CHESS99.ruleset.layout)
    assert list(caught.value.reasons) == [
        "pawns not on their ranks (e2 has no white pawn)",
        "pieces in the middle of the board (white knight on e6)",
    ]


#: chess99-random's start position for White's RNBQKABNR: Black's is the same
#: rank turned half round (a9 holds White's i1 piece), pawns on ranks 2 and 8.
CHESS99_START = "rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1"


@pytest.mark.parametrize(("castling", "reasons"), [
    ("Kk", ["white's right to castle with the a1 rook is missing ('Q' or 'A')",
            "black's right to castle with the a9 rook is missing ('q' or 'a')"]),
    ("KQkqB", ["'B': there is no white rook on b1"]),
    ("KQkqKh", ["'K' repeats white's right to castle with the i1 rook",
                "'h': there is no black rook on h9"]),
])
def test_castling_on_another_board_names_each_wrong_right(castling: str,
                                                          reasons: list[str]) -> None:
    assert CHESS99.identify(CHESS99_START).white == "RNBQKABNR"
    fen = CHESS99_START.replace(" KQkq ", f" {castling} ")
    with pytest.raises(CastlingRightsError) as caught:
        CHESS99.identify(fen)
    assert caught.value.reason == "; ".join(reasons)
    assert caught.value.expected == ("KQkq", "IAia")


def test_castling_on_the_classical_board_names_each_wrong_right() -> None:
    with pytest.raises(CastlingRightsError) as caught:
        check_castling("(fen)", "KBk", "RNBQKBNR", "RNBQKBNR")
    assert caught.value.reason == (
        "'B': there is no white rook on b1; white's right to castle with the a1 rook is "
        "missing ('Q' or 'A'); black's right to castle with the a8 rook is missing "
        "('q' or 'a')")


def test_a_fixed_army_and_a_region_have_no_rights_and_each_given_one_is_named() -> None:
    assert castling_field("RNBQKBNR", layout=Layout(8, sides="white-fixed")) == "kq"
    assert castling_field("RNBQKBNR", layout=small().ruleset.layout) == "-"
    with pytest.raises(CastlingRightsError) as caught:
        check_castling("(fen)", "Kq", "BKQBRR", "BKQBRR", small().ruleset.layout)
    assert caught.value.reason == (
        "'K': white's pieces do not fill the back rank, so white cannot castle; "
        "'q': black's pieces do not fill the back rank, so black cannot castle")
