"""Jieqi's covered pieces, written as pychess-variants writes them (issue 38,
item 5): its one covered FEN for every deal, with the deal kept apart as its
game documents keep it (``wj``, ``bj``: EPD operations here; a FEN, which
cannot carry the deal, shows the position revealed), against
pychess-variants' own rule transcribed here (server/fairy/fairy_board.py, server/fairy/jieqi.py of
gbtami/pychess-variants, AGPL-3.0: quoted to test against, not shipped)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_jieqi import BLACK_PIECES, BLACK_SQUARES, RED_PIECES, RED_SQUARES, _placement

from solver.errors import Chess960Error, RuleFileError
from solver.family import Family
from solver.notation.fen_syntax import split_opcodes

# server/fairy/fairy_board.py, line 48
JIEQI_FEN = ("r~n~b~a~ka~b~n~r~/9/1c~5c~1/p~1p~1p~1p~1p~/9/9/P~1P~1P~1P~1P~/1C~5C~1/9/"
             "R~N~B~A~KA~B~N~R~ w - - 0 1")

JIEQI = Family.load("jieqi")


def make_initial_mapping(black_pieces: list[str], red_pieces: list[str]) -> dict[str, str]:
    """server/fairy/jieqi.py make_initial_mapping: square -> piece."""
    mapping = {}
    for i in range(15):
        mapping[RED_SQUARES[i]] = red_pieces[i]
        mapping[BLACK_SQUARES[i]] = black_pieces[i]
    return mapping


def _deal(epd: str) -> tuple[str, str]:
    ops = dict(split_opcodes(epd.split(None, 4)[4]))
    return ops["wj"].strip('"'), ops["bj"].strip('"')


def test_our_deal_is_what_pychess_stores_for_the_same_start() -> None:
    """pychess deals with random.sample and stores wj/bj = the letters in
    RED_SQUARES/BLACK_SQUARES order; our pychess EPD of that start carries
    the same strings, and its placement is JIEQI_FEN's."""
    rng = random.Random(46)
    for _ in range(200):
        black, red = rng.sample(BLACK_PIECES, 15), rng.sample(RED_PIECES, 15)
        revealed = _placement(make_initial_mapping(black, red))
        number = JIEQI.id(f"{revealed} w - - 0 1")
        epd = JIEQI.position(number).epd("pychess", id=f"jieqi {number}")
        assert epd.split()[0] == JIEQI_FEN.split(maxsplit=1)[0]
        assert _deal(epd) == ("".join(red), "".join(black))
        assert JIEQI.position(number).fen("pychess").split()[0] == revealed
        assert JIEQI.id(epd) == number


@settings(max_examples=60, deadline=None)
@given(st.integers(0, JIEQI.count - 1))
def test_the_deal_reads_back_in_any_dialect_reader(number: int) -> None:
    position = JIEQI.position(number)
    epd = position.epd("pychess")
    assert JIEQI.id(epd) == number
    assert JIEQI.id(position.fen("pychess")) == number
    assert position.epd("xfen").split()[0] == position.fen("pychess").split()[0]
    assert position.epd("xfen").split()[0] != JIEQI_FEN.split(maxsplit=1)[0]


def test_the_commands_write_and_read_the_deal() -> None:
    from matrix_support import cli

    out, _, code = cli("position", "7", "-r", "jieqi", "-f", "epd", "--dialect", "pychess")
    assert code == 0 and out.startswith(JIEQI_FEN.split(maxsplit=1)[0] + " w - - wj ")
    assert cli("id", "-r", "jieqi", "-", stdin=out)[::2] == ("7\n", 0)
    assert cli("lint", "-r", "jieqi", "-", stdin=out)[2] == 0
    fen, _, code = cli("position", "7", "-r", "jieqi", "-f", "fen", "--dialect", "pychess")
    assert code == 0 and "~" not in fen  # a FEN cannot carry the deal: revealed
    assert cli("id", "-r", "jieqi", "-", stdin=fen)[::2] == ("7\n", 0)


@pytest.mark.parametrize(("text", "message"), [
    (JIEQI_FEN, "a covered start is written the same for every deal, so it names no position"),
    (JIEQI_FEN.replace(" 0 1", ' wj "RRNNBBAACCPPPP"; bj "rrnnbbaaccppppp";'),
     "wj 'RRNNBBAACCPPPP' has 14 pieces, the covered start 15"),
    (JIEQI_FEN.replace(" 0 1", ' wj "RRNNBBAACCPPPPp"; bj "rrnnbbaaccppppp";'),
     "wj 'RRNNBBAACCPPPPp' is not White's pieces: upper-case letters"),
    (JIEQI_FEN.replace("R~N~B~A~KA~B~N~R~", "R~N~B~AK~A~B~N~R~").replace(
        " 0 1", ' wj "RRNNBBAACCPPPPP"; bj "rrnnbbaaccppppp";'),
     "is not the family's covered start"),
])
def test_bad_covered_lines_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(Chess960Error, match="cannot be read") as caught:
        JIEQI.id(text)
    assert message in str(caught.value)


RULE = '''name = "covered-test"
title = "t"
source = "t"
files = 8
pieces = "RNBQKBNR"
count = 1
covered = {covered}

[[rule]]
kind = "only"
ranks = ["RNBQKBNR"]
'''


@pytest.mark.parametrize(("covered", "message"), [
    ('"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"', "no piece is covered (marked '~')"),
    ('"r~n~b~q~k~b~n~r~/pppppppp/8/8/8/8/PPPPPPPP"', "it has 7 ranks, the board 8"),
    ('"r~n~b~q~k~b~n~r~/pppppppp/8/8/8/8/PPPPPPP~P/RNBQKBNR"',
     "g2 holds 'P' on the board, 'P~' in the covered start"),
    ('"R~n~b~q~k~b~n~r~/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"',
     "a8 holds a Black piece on the board, 'R~' in the covered start"),
    ('"r~n~b~q~k~b~n~r~/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN"',
     "the rank 'RNBQKBN' has 7 squares, not 8"),
    ("7", "must be a FEN placement (text), not int"),
])
def test_a_covered_key_that_does_not_fit_the_board_is_refused(covered: str, message: str,
                                                              tmp_path: Path) -> None:
    path = tmp_path / "covered.toml"
    path.write_text(RULE.format(covered=covered))
    with pytest.raises(RuleFileError, match="covered") as caught:
        Family.load(str(path))
    assert message in str(caught.value)


def test_a_covered_key_that_fits_is_written_by_pychess_only(tmp_path: Path) -> None:
    path = tmp_path / "covered.toml"
    path.write_text(RULE.format(covered='"r~n~b~q~k~b~n~r~/pppppppp/8/8/8/8/PPPPPPPP/'
                                         'R~N~B~Q~K~B~N~R~"'))
    family = Family.load(str(path))
    position = family.position(0)
    assert position.epd("pychess").startswith("r~n~b~q~k~b~n~r~/")
    assert position.epd("pychess").endswith(' wj "RNBQKBNR"; bj "rnbqkbnr";')
    assert family.id(position.epd("pychess")) == 0
    assert position.fen("xfen") == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
