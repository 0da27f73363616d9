"""`chess960 which`: every bundled family holding a position, with its numbers.

The expected families of the classical start are stated here from the
families' definitions (rules/README.md and each rule file's title), not
asked of the code: the IDs come from the published tables (the golden
Chess960 list made from the KRN table, Scidb's and TCEC's numbers, Fritz 9's
one published example) or are read back through another path
(:meth:`Family.position`).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from profiles import sample

from solver import Chess960Error, Family
from solver.cli.lists import which_command
from solver.errors import NoFamilyError
from solver.lists.which import bundled_families, which
from solver.notation.dialects import DIALECTS
from solver.ruleset.reader import rules_dir

CLASSICAL = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
GOLDEN = [line.split()[1] for line in
          (Path(__file__).parent / "data" / "chess960.txt").read_text().splitlines()]

#: The bundled families that hold RNBQKBNR against rnbqkbnr, and why.
HOLDING = {
    "chess960": "bishops on opposite colours, king between the rooks, Black mirrors",
    "chess480": "chess960 with the queen left of the king: d1 is left of e1",
    "bishops-opposite": "only the bishops on opposite colours (c1 dark, f1 light)",
    "king-between-rooks": "only the king between the rooks",
    "shuffle": "any arrangement of the eight pieces",
    "chess324": "kings and rooks on their usual squares, each side's others shuffled",
    "dfrc": "each side any chess960 rank, independently: RNBQKBNR twice is one pair",
    "chess324x16": "chess324 in 16 castling variations: KQkq keeps every right",
    "chess256": "the classical back rank, each pawn on its second or third rank",
    "placement": "each side places its pieces, bishops on opposite colours; castling "
                 "with the king on e1 and rooks on a1/h1, so KQkq",
    "chess18": "XBoard's shuffle keeps the king on e1 and rooks on a1/h1: KQkq",
}
#: The bundled families that do not, and why.
NOT_HOLDING = {
    "horde960": "White is the 36-pawn horde, not a back rank",
    "racing-kings": "the pieces fill ranks 1 and 2, no pawns",
    "bench-12": "12 files", "capablanca-random": "10 files",
    "capablanca-random-full": "10 files", "capablanca-shuffle": "10 files",
    "chess99-random": "a 9x9 board", "shogi-shuffle": "shogi, written in SFEN",
    "transcendental": "no castling: its starts are written with '-', not KQkq",
    "shuffle-nocastle": "FICS wild 2 has no castling: '-', not KQkq",
    "wild3": "FICS wild 3 has no castling", "wild4": "FICS wild 4 has no castling",
    "corner": "the kings stand in the corners", "janggi": "9 files, 10 ranks",
    "myshogi": "shogi, written in SFEN", "seirawan960": "hawk and elephant in hand: [HEhe]",
    "capahouse960": "10 files", "cutechess-caparandom": "10 files",
    "xboard-caparandom": "10 files",
    "pychess-capablanca": "10 files",
    "myshogi-program": "shogi, written in SFEN",
    "jieqi": "9 files, 10 ranks",
    "sittuyin": "Sittuyin's pieces in each side's half, no castling",
    "cwda": "FIDE against FIDE is ordinary chess, which pychess's CWDA leaves out",
    "makruk-shuffle": "Makruk's pieces (met, khons), pawns on the third rank",
    "shatranj-shuffle": "no castling in Shatranj: '-', not KQkq",
    "metamachy": "12 files, 12 ranks",
}


def test_the_expected_sets_cover_every_bundled_family() -> None:
    assert {f.name for f in bundled_families()} == set(HOLDING) | set(NOT_HOLDING)


def test_which_names_every_family_holding_the_classical_start_with_its_ids() -> None:
    found = {m.family: m for m in which(CLASSICAL).families}
    assert set(found) == set(HOLDING)
    sp = GOLDEN.index("RNBQKBNR")
    assert sp == 518
    assert found["chess960"].numberings == {
        "scharnagl": "518", "scidb": "518", "xboard": "518", "jocly": "#385", "tcec": "FRC 518",
        "fritz9": "359", "one-based": "518"}
    assert found["dfrc"].id == sp * 960 + sp
    assert found["dfrc"].numberings == {
        "scharnagl": str(sp * 960 + sp), "tcec": "FRC 518", "one-based": str(sp * 960 + sp),
        "black-major": str(sp * 960 + sp)}
    # Chess480 keeps Scharnagl's order with the queen-right-of-king ranks left out.
    queen_left = [rank for rank in GOLDEN if rank.index("Q") < rank.index("K")]
    assert found["chess480"].id == queen_left.index("RNBQKBNR")
    # Scidb's shuffle chess numbers the Chess960 ranks first, as Scharnagl does.
    assert found["bishops-opposite"].numberings["scidb-shuffle"] == "518"
    for name, member in found.items():
        family = Family.load(name)
        position = family.position(member.id)
        # (chess256's region is ranks 1-3: its first eight squares are the back rank)
        assert (position.white[:8], position.black.upper()[:8]) == ("RNBQKBNR",) * 2, name
        assert member.numberings["one-based"] == str(member.id or family.count)
        assert list(member.numberings) == list(family.schemes)


def test_the_command_prints_a_line_a_family_and_json() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert which_command([CLASSICAL], [], "text", stdin=None, out=out, err=err) == 0
    lines = out.getvalue().splitlines()
    assert [line.split()[0] for line in lines] == sorted(HOLDING)
    assert 'chess960 scharnagl=518 scidb=518 xboard=518 jocly=#385 tcec="FRC 518" fritz9=359 ' \
           'one-based=518' in lines
    out = io.StringIO()
    assert which_command(["RNBQKBNR rnbqkbnr"], [], "json", stdin=None, out=out, err=err) == 0
    data = json.loads(out.getvalue())
    # (a pair of ranks is not chess256's 24 squares of ranks 1-3)
    assert {f["family"] for f in data[0]["families"]} >= set(HOLDING) - {"chess256"}


def test_families_that_cannot_hold_it_are_never_numbered() -> None:
    families = bundled_families()
    which(CLASSICAL, families)
    which("RNBQKBNR", families)
    for family in families:
        if family.ruleset.region_size != 8 and family.name not in HOLDING:
            assert "index" not in family.__dict__, family.name


def test_a_pair_no_family_holds_names_the_rule_broken() -> None:
    fen = "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/BRBNKQNR w - - 0 1"
    with pytest.raises(NoFamilyError) as caught:
        which(fen)
    message = str(caught.value)
    assert f"none of the {len(bundled_families())} families" in message
    assert "bishops on a1 and c1 are both on dark squares (rule opposite-colours BB)" in message
    out, err = io.StringIO(), io.StringIO()
    assert which_command([fen, "RNBQKBNR"], [], "text", stdin=None, out=out, err=err) == 1
    assert err.getvalue().startswith("error: ") and err.getvalue().count("\n") == 1
    assert "RNBQKBNR\n  bishops-opposite" in out.getvalue()


def test_a_rule_file_given_is_looked_in_too(tmp_path: Path) -> None:
    source = (rules_dir() / "chess960.toml").read_text()
    own = tmp_path / "mine.toml"
    own.write_text(source.replace('name = "chess960"', 'name = "mine"', 1))
    out, err = io.StringIO(), io.StringIO()
    assert which_command(["QNRBBNKR"], [str(own)], "text", stdin=None, out=out, err=err) == 0
    assert out.getvalue().splitlines()[-1] == \
        'mine scharnagl=105 scidb=105 xboard=105 jocly=#541 tcec="FRC 105" fritz9=106 one-based=105'


def test_positions_from_stdin() -> None:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.BytesIO(b"\xef\xbb\xbfNRBKQNRB\r\n# a comment\r\n\r\nRNBQKBNR rnbqkbnr\r\n")
    assert which_command(["-"], [], "json", stdin=stdin, out=out, err=err) == 0
    data = json.loads(out.getvalue())
    assert [d["position"] for d in data] == ["NRBKQNRB", "RNBQKBNR rnbqkbnr"]
    chess960 = next(f for f in data[0]["families"] if f["family"] == "chess960")
    assert chess960["id"] == GOLDEN.index("NRBKQNRB")


# -- every written form is read the same way (issue 33) -----------------------------

def test_letters_and_glyphs_name_the_same_families() -> None:
    families = bundled_families()
    for letters, glyphs in (("RNBQKBNR", "♖♘♗♕♔♗♘♖"), ("RNBQKBNR rnbqkbnr", "♖♘♗♕♔♗♘♖ ♜♞♝♛♚♝♞♜"),
                            ("qnrbbnkr", "♛♞♜♝♝♞♚♜"), ("KQQQQQQQ", "♔♕♕♕♕♕♕♕")):
        by_letters = [(m.family, m.id) for m in which(letters, families).families]
        assert by_letters == [(m.family, m.id) for m in which(glyphs, families).families]
    # a rank alone, for families of independent sides: the position Black answers
    found = {m.family: m.id for m in which("♖♘♗♕♔♗♘♖", families).families}
    assert found["dfrc"] == 518 * 960 + 518 and found["chess960"] == 518


def test_an_armys_rank_is_in_its_family() -> None:
    # FICS wild 3: the king and 7 of N B R Q; seven queens are one of them
    found = {m.family: m.id for m in which("KQQQQQQQ").families}
    assert found["wild3"] == Family.load("wild3").identify("KQQQQQQQ").id
    assert Family.load("wild3").position(found["wild3"]).white == "KQQQQQQQ"
    out, err = io.StringIO(), io.StringIO()
    assert which_command(["KQQQQQQQ"], [], "text", stdin=None, out=out, err=err) == 0
    assert "wild3 " in out.getvalue() and err.getvalue() == ""


def test_a_wide_region_with_a_bad_piece_is_an_error_not_a_traceback() -> None:
    # chess256's region has 24 squares: the 24th is past the 16 files named
    with pytest.raises(NoFamilyError):
        which("RNBQKBNRPPPPPPPP.......X")
    out, err = io.StringIO(), io.StringIO()
    assert which_command(["RNBA.ANBRKCCPPPPP/rnba.anbrkccpppp"], [], "text", stdin=None,
                         out=out, err=err) == 1
    assert err.getvalue().startswith("error: ") and err.getvalue().count("\n") == 1


def _forms(family: Family, number: int) -> list[str]:
    """The position written as ``chess960 position`` writes it, in every FEN
    dialect the family admits, and (when it has no castling variations, which a
    rank cannot show) as letters and glyphs."""
    from solver.notation.ranks import format_rank
    from solver.output import PositionWriter

    position = family.position(number)
    forms = []
    for dialect in DIALECTS:
        out = io.StringIO()
        try:
            with PositionWriter(out, family, "fen", text="rank",  # type: ignore[arg-type]
                                dialect=dialect) as writer:
                writer.write(position)
        except Chess960Error:
            continue
        forms.append(out.getvalue().strip())
    if family.ruleset.castling.variations == 1:
        white, black = position.white, position.black
        if family.independent:
            forms += [f"{white} {black.lower()}", f"{white}/{black.lower()}",
                      f"{format_rank(white, True)} {format_rank(black, True, True)}"]
        else:
            forms += [white, white.lower(), format_rank(white, True), " ".join(white)]
    return forms


@pytest.mark.parametrize("name", sample([  # (families numbered by counting: slow runs only)
    pytest.param(name, marks=pytest.mark.slow)
    if name in ("capablanca-random-full", "cutechess-caparandom") else name
    for name in sorted(path.stem for path in rules_dir().glob("*.toml"))], 6))
def test_which_names_each_family_with_its_id_in_every_form(name: str) -> None:
    families = bundled_families()
    family = next(f for f in families if f.name == name)
    for number in sorted({0, family.count - 1, family.count // 3}):
        for text in _forms(family, number):
            found = {m.family: m.id for m in which(text, families).families}
            assert found.get(name) == number, (text, found.get(name))
