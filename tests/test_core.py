"""Chess960 core: known values, the golden table, round trips, notation, errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import arrangements, chess960_rank
from profiles import examples

from solver import (
    Chess960Error,
    Family,
    format_rank,
    load,
    parse_rank,
    scharnagl_id,
    scharnagl_rank,
)
from solver.errors import (
    IdRangeError,
    IdSyntaxError,
    PieceCountError,
    RankLengthError,
    RuleViolationError,
    UnknownPieceError,
)
from solver.search.solve import solve

GOLDEN = Path(__file__).parent / "data" / "chess960.txt"

# Published values (Wikipedia, "Fischer random chess numbering scheme").
KNOWN = {
    "QNRBBNKR": 105,
    "RNBQKBNR": 518,
    "RQNBBKRN": 601,
    "RNQBBKRN": 617,
    "BRNNKQRB": 451,
    "BBQNNRKR": 0,
    "RKRNNQBB": 959,
}


@pytest.fixture(scope="module")
def chess960() -> Family:
    return Family.load("chess960")


@pytest.fixture(scope="module")
def golden() -> dict[int, str]:
    lines = GOLDEN.read_text(encoding="ascii").splitlines()
    table = {int(n): rank for n, rank in (line.split() for line in lines)}
    assert len(table) == 960
    return table


@pytest.fixture(scope="module")
def solved() -> list[str]:
    return list(solve(load("chess960")))


@pytest.mark.parametrize(("rank", "number"), KNOWN.items())
def test_known_values(chess960: Family, rank: str, number: int) -> None:
    assert chess960.identify(rank).id == number
    assert chess960.position(number).white == rank
    assert scharnagl_id(rank) == number
    assert scharnagl_rank(number) == rank


@pytest.mark.parametrize(
    "text",
    ["QNRBBNKR", "qnrbbnkr", "QnRbBnKr", "♕♘♖♗♗♘♔♖", "♛♞♜♝♝♞♚♜", "Q N R B B N K R",
     "♕ ♘ ♖ ♗ ♗ ♘ ♔ ♖", "  ♛♞♜ ♝♝ ♞♚♜\t"],
)
def test_glyph_and_letter_forms(chess960: Family, text: str) -> None:
    assert chess960.identify(text).id == 105


def test_format_rank() -> None:
    assert format_rank("QNRBBNKR") == "QNRBBNKR"
    assert format_rank("QNRBBNKR", unicode=True) == "♕♘♖♗♗♘♔♖"
    assert format_rank("QNRBBNKR", unicode=True, black=True) == "♛♞♜♝♝♞♚♜"
    assert parse_rank(format_rank("RNBQKBNR", unicode=True)) == "RNBQKBNR"


def test_make_golden_writes_the_golden_table(tmp_path: Path) -> None:
    # The script alone, without site-packages: it cannot import the package.
    out = tmp_path / "chess960.txt"
    subprocess.run([sys.executable, "-I", "-S", str(GOLDEN.with_name("make_golden.py")), str(out)],
                   capture_output=True, check=True)
    assert out.read_bytes() == GOLDEN.read_bytes()


def test_solver_matches_golden(golden: dict[int, str], solved: list[str]) -> None:
    assert len(solved) == 960
    assert sorted(solved) == sorted(golden.values())


def test_generic_numbering_matches_golden(chess960: Family, golden: dict[int, str]) -> None:
    numbering = chess960.numbering
    assert numbering.count == 960
    for number, rank in golden.items():
        assert numbering.decode(number) == rank
        assert numbering.encode(rank) == number


def test_canonical_order_matches_golden(chess960: Family, golden: dict[int, str]) -> None:
    assert chess960.ranks() == [golden[n] for n in range(960)]
    assert [(p.id, p.white) for p in chess960.positions()] == sorted(golden.items())


def test_published_formula_module_matches_golden(golden: dict[int, str]) -> None:
    for number, rank in golden.items():
        assert scharnagl_rank(number) == rank
        assert scharnagl_id(rank) == number


@settings(max_examples=examples(20, 1000))
@given(st.integers(min_value=0, max_value=959))
def test_id_round_trip(number: int) -> None:
    family = Family.load("chess960")
    assert family.identify(family.position(number).white).id == number


def test_every_permutation_accepted_exactly_when_solver_finds_it(
    chess960: Family, solved: list[str]
) -> None:
    found = set(solved)
    assert len(arrangements()) == 5040
    for rank in arrangements():
        assert (rank in found) == chess960_rank(rank)
        if rank in found:
            assert chess960.identify(rank).white == rank
        else:
            with pytest.raises(RuleViolationError):
                chess960.identify(rank)


@settings(max_examples=examples(20, 1000))
@given(st.permutations("KQRRBBNN"))
def test_permutations_property(pieces: list[str]) -> None:
    family = Family.load("chess960")
    rank = "".join(pieces)
    if chess960_rank(rank):
        assert family.position(family.identify(rank).id).white == rank
    else:
        with pytest.raises(RuleViolationError) as info:
            family.identify(rank)
        assert info.value.violations


@settings(max_examples=examples(40, 2000))
@given(st.text())
def test_any_text_gives_a_rank_or_our_error(text: str) -> None:
    family = Family.load("chess960")
    try:
        position = family.identify(text)
    except Chess960Error as exc:
        assert isinstance(exc, ValueError)
        assert str(exc)
    else:
        assert 0 <= position.id < 960


@settings(max_examples=examples(40, 2000))
@given(st.text())
def test_any_text_as_id_gives_a_position_or_our_error(text: str) -> None:
    family = Family.load("chess960")
    try:
        number = family.parse_id(text)
    except Chess960Error:
        pass
    else:
        assert family.position(number).id == number


def test_wrong_length(chess960: Family) -> None:
    with pytest.raises(RankLengthError) as info:
        chess960.identify("RNBQKBN")
    assert (info.value.length, info.value.files) == (7, 8)
    assert str(info.value) == "'RNBQKBN' has 7 squares, expected 8"


def test_unknown_piece(chess960: Family) -> None:
    with pytest.raises(UnknownPieceError) as info:
        chess960.identify("RNBQKBNX")
    assert (info.value.char, info.value.square) == ("X", "h1")
    assert str(info.value) == "'RNBQKBNX' has an unknown piece 'X' on h1"


def test_wrong_piece_count(chess960: Family) -> None:
    with pytest.raises(PieceCountError) as info:
        chess960.identify("RNBQKNNR")
    assert (info.value.piece, info.value.found, info.value.expected) == ("B", 1, 2)
    assert info.value.squares == ("c1",)


def test_piece_the_family_lacks(chess960: Family) -> None:
    with pytest.raises(PieceCountError) as info:
        chess960.identify("RNBAKBNR")
    assert str(info.value) == "'RNBAKBNR' has 0 queens, expected 1"


def test_bishops_on_one_colour(chess960: Family) -> None:
    with pytest.raises(RuleViolationError) as info:
        chess960.identify("BRBNKQNR")
    (violation,) = info.value.violations
    assert violation.squares == ("a1", "c1")
    assert str(info.value) == (
        "'BRBNKQNR' is not a chess960 rank: bishops on a1 and c1 are both on dark squares "
        "(rule opposite-colours BB)"
    )


def test_king_outside_rooks(chess960: Family) -> None:
    with pytest.raises(RuleViolationError) as info:
        chess960.identify("KRBBRQNN")
    (violation,) = info.value.violations
    assert violation.squares == ("a1", "b1", "e1")
    assert "king on a1 is not between the rooks on b1 and e1" in str(info.value)


def test_every_broken_rule_is_named(chess960: Family) -> None:
    with pytest.raises(RuleViolationError) as info:
        chess960.identify("KRBRBQNN")
    assert [v.rule for v in info.value.violations] == ["opposite-colours BB", "between K RR"]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("960", IdRangeError, "chess960 id 960 is out of range 0..959"),
        ("-1", IdRangeError, "chess960 id -1 is out of range 0..959"),
        ("abc", IdSyntaxError, "position id 'abc' is not an integer"),
        ("1e3", IdSyntaxError, "position id '1e3' is not an integer"),
        ("0x10", IdSyntaxError, "position id '0x10' is not an integer"),
        ("５１８", IdSyntaxError, "position id '５１８' is not an integer"),
        ("5_18", IdSyntaxError, "position id '5_18' is not an integer"),
        ("", IdSyntaxError, "position id '' is not an integer"),
    ],
)
def test_bad_ids(chess960: Family, text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        chess960.parse_id(text)
    assert str(info.value) == message


def test_huge_id(chess960: Family) -> None:
    with pytest.raises(IdRangeError) as info:
        chess960.parse_id("9" * 5000)
    assert len(str(info.value)) < 100
