"""Hands as part of a family (``hand``, ``gating``), and every dialect on the
families on boards of their own: seirawan960, capahouse960, horde960, corner."""

from __future__ import annotations

import pytest

from solver import Family
from solver.errors import NotStartPositionError, RuleFileError
from solver.notation.dialects import DIALECTS, VARIANTS, family_fen, family_refusal, start_fen
from solver.notation.fen import position_fen
from solver.ruleset.reader import parse

#: The dialects whose programs play Seirawan (the registry's; lichess does not).
SEIRAWAN = [n for n, d in DIALECTS.items() if d.refuses(VARIANTS["seirawan"]) is None]


@pytest.mark.slow
def test_seirawan960_writes_what_the_seirawan_variant_writes() -> None:
    """Every Chess960 rank with [HEhe] and the gating field, as the existing
    seirawan variant writes it in each program's dialect."""
    family = Family.load("seirawan960")
    chess960 = Family.load("chess960")
    assert family.count == 960
    for position, plain in zip(family.positions(), chess960.positions(), strict=True):
        assert position.white == plain.white
        for dialect in SEIRAWAN:
            fen = family_fen(position.board, position.white, position.black, dialect)
            assert fen == start_fen(position.white, variant="seirawan", dialect=dialect)
            assert family.identify(fen).id == position.id


def test_seirawan960_some_positions_in_every_dialect() -> None:
    family = Family.load("seirawan960")
    for number in (0, 105, 518, 959):
        position = family.position(number)
        for dialect in SEIRAWAN:
            fen = family_fen(position.board, position.white, position.black, dialect)
            assert fen == start_fen(position.white, variant="seirawan", dialect=dialect)
            assert family.identify(fen).id == number


def test_seirawan960_refuses_a_missing_hand_and_a_plain_castling_field() -> None:
    family = Family.load("seirawan960")
    with pytest.raises(NotStartPositionError, match=r"no pieces in hand"):
        family.identify("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    with pytest.raises(NotStartPositionError, match=r"gating field 'KQkq', not 'KQBCDFGkqbcdfg'"):
        family.identify("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQkq - 0 1")


def test_capahouse960_is_capablanca_random_with_an_empty_hand() -> None:
    family = Family.load("capahouse960")
    plain = Family.load("capablanca-random")
    assert family.count == plain.count == 48_000
    for number in (0, 1, 4_711, 47_999):
        mine, theirs = position_fen(family.position(number)), position_fen(plain.position(number))
        board, rest = theirs.split(" ", 1)
        assert mine == f"{board}[] {rest}"
        for dialect in ("xfen", "shredder", "fsf", "pychess"):
            fen = family_fen(family.layout or family.ruleset.layout, family.position(number).white,
                             family.position(number).black, dialect)
            assert family.identify(fen).id == number


@pytest.mark.parametrize("name", ["horde960", "corner", "janggi", "chess256", "racing-kings"])
def test_every_dialect_that_plays_a_family_writes_it_and_id_reads_it(name: str) -> None:
    family = Family.load(name)
    layout = family.ruleset.layout
    for dialect in DIALECTS:
        if family_refusal(layout, dialect) is not None:
            continue
        for number in sorted({0, family.count // 2, family.count - 1}):
            position = family.position(number)
            fen = family_fen(layout, position.white, position.black, dialect)
            assert family.identify(fen).id == number, (dialect, fen)


def test_horde960_in_pychess_dialect_is_the_horde_variant() -> None:
    family = Family.load("horde960")
    for position in family.positions():
        for dialect in ("fsf", "pychess", "lichess"):
            assert (family_fen(family.ruleset.layout, position.white, position.black, dialect)
                    == start_fen(position.black, variant="horde", dialect=dialect))


def test_lichess_refuses_what_python_chess_does_not_play() -> None:
    assert family_refusal(Family.load("seirawan960").ruleset.layout, "lichess")
    assert family_refusal(Family.load("janggi").ruleset.layout, "lichess")
    assert family_refusal(Family.load("corner").ruleset.layout, "lichess") is None


@pytest.mark.parametrize(("text", "message"), [
    ("hand = 3", "expected a string of piece letters"),
    ('hand = "H1"', "is not up to 16 piece letters"),
    ("gating = true", "gating pieces come from the hand"),
    ('hand = "HE"\ngating = "yes"', "expected true or false"),
])
def test_hand_errors_name_the_key(text: str, message: str) -> None:
    with pytest.raises(RuleFileError, match=message):
        parse(f'name = "x"\ntitle = "x"\nsource = "x"\nfiles = 8\npieces = "RNBQKBNR"\n'
              f'count = 1\n{text}\n')


def test_fairy_stockfish_writes_the_families_as_we_do() -> None:
    """pyffish reads each family's FEN in the fsf dialect and writes it back
    unchanged (Chess960 mode for the shuffled games)."""
    sf = pytest.importorskip("pyffish")
    for name, variant, chess960 in (("seirawan960", "seirawan", True),
                                    ("capahouse960", "capahouse", True),
                                    ("horde960", "horde", True), ("janggi", "janggi", False)):
        family = Family.load(name)
        for number in sorted({0, family.count // 3, family.count - 1}):
            position = family.position(number)
            fen = family_fen(family.ruleset.layout, position.white, position.black, "fsf")
            assert sf.get_fen(variant, fen, [], chess960) == fen
    janggi = Family.load("janggi")
    assert sf.start_fen("janggi") in [position_fen(p) for p in janggi.positions()]


@pytest.mark.parametrize("variant", ["seirawan", "3check", "bughouse", "crazyhouse"])
def test_id_reads_what_every_dialect_writes_without_being_told_the_variant(
        variant: str) -> None:
    """Holdings ([HEhe], []), three-check's 3+3 and pychess bughouse's
    `fen | fen` are read back by the family, in every dialect that writes them."""
    from solver.errors import DialectError
    from solver.notation.dialects import DIALECTS as WRITERS
    from solver.notation.dialects import VARIANTS, check_style

    chess960 = Family.load("chess960")
    dfrc = Family.load("dfrc")
    assert VARIANTS[variant]
    for dialect in WRITERS:
        try:
            check_style(variant, dialect, 8)
        except DialectError:
            continue
        for number, rank in ((105, "QNRBBNKR"), (518, "RNBQKBNR"), (959, "RKRNNQBB")):
            fen = start_fen(rank, variant=variant, dialect=dialect)
            assert chess960.identify(fen).id == number, (dialect, fen)
        pair = start_fen("QNRBBNKR", "RNBQKBNR", variant=variant, dialect=dialect)
        assert dfrc.identify(pair).id == 105 * 960 + 518


def test_a_hand_that_is_no_start_is_refused() -> None:
    with pytest.raises(Exception, match="cannot be read"):
        Family.load("chess960").identify(
            "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[Q] w KQkq - 0 1")


def test_lint_reads_variant_fens_without_being_told_the_variant() -> None:
    from solver.lists.lint import Linter

    lines = [start_fen("QNRBBNKR", variant=v, dialect=d)
             for v, d in (("seirawan", "pychess"), ("seirawan", "fsf"), ("3check", "lichess"),
                          ("bughouse", "pychess"), ("crazyhouse", "fsf"))]
    linter = Linter(family=Family.load("chess960"))
    for number, line in enumerate(lines, 1):
        linter.feed(number, line)
    report = linter.finish()
    assert report.positions == len(lines)
    # the findings: the same Chess960 start on every line (--rules names repeats), and
    # the programs' castling notations differ from line to line (pychess's Seirawan
    # field holds X-FEN's KQkq, as lichess's three-check does); nothing else
    assert [f.message for f in report.findings] == [
        *["duplicate: the same chess960 start position as line 1 (chess960 105)"] * 4,
        "the book mixes castling notations: 3 Shredder-FEN, 2 X-FEN"]
