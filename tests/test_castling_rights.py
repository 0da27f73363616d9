"""Castling rights as data (issue 20, item 1): each family's rule, from its
publisher's definition, brute-forced here without the solver's castling code.

* Transcendental Chess (Wikipedia): each side 2,880 ranks, bishops opposite,
  no castling: every FEN writes ``-``.
* Placement chess (pychess-variants): castling only with the king on e1 and
  the rook on h1 (K) or a1 (Q).
* Shuffle chess without castling (FICS wild 2, pychess's ShuffleBoard writes
  ``w - - 0 1``): 5,040 ranks.
* Chess324 x 16 (TCEC): 18 ranks a side, every subset of KQkq.
* Cute Chess's caparandom (CaparandomBoard::pawnsAreSafe) and XBoard's
  caparandom order (SetUpShuffle): in the slow run.
"""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import arrangements, is_dark
from profiles import examples

from solver import RuleFileError
from solver.check import check
from solver.errors import CastlingRightsError
from solver.family import Family
from solver.notation.dialects import DIALECTS
from solver.notation.fen import position_fen
from solver.ruleset.reader import parse, rules_dir

BOARD = "/pppppppp/8/8/8/8/PPPPPPPP/"


def fen(white: str, black: str, castling: str) -> str:
    return f"{black.lower()}{BOARD}{white} w {castling} - 0 1"


def bishops_opposite(rank: str) -> bool:
    first, second = (f for f, p in enumerate(rank) if p == "B")
    return is_dark(first) != is_dark(second)


SIDE = sorted(r for r in arrangements() if bishops_opposite(r))  # 2,880 ranks a side


def pychess_rights(rank: str) -> str:
    """pychess's rule (ShuffleBoard, Placement): K with the king on e1 and a
    rook on h1, Q with the king on e1 and a rook on a1."""
    if rank[4] != "K":
        return ""
    return ("K" if rank[7] == "R" else "") + ("Q" if rank[0] == "R" else "")


def test_transcendental_is_every_pair_of_bishops_opposite_ranks_without_castling() -> None:
    fam = Family.load("transcendental")
    assert len(SIDE) == 2880 and fam.count == 2880 ** 2 == 8_294_400
    assert {fam.rank_of(i) for i in range(fam.side_count)} == set(SIDE)
    for number in (0, 12_345, 4_258_118, fam.count - 1):
        written = position_fen(fam.position(number))
        assert written.split()[2] == "-"
        assert fam.identify(written).id == number
    # the standard start, as the game writes it, and with the rights it forbids
    standard = fen("RNBQKBNR", "RNBQKBNR", "-")
    assert fam.identify(standard).id == SIDE_ID(fam, "RNBQKBNR") * 2880 + SIDE_ID(fam, "RNBQKBNR")
    with pytest.raises(CastlingRightsError, match="the family allows no castling") as err:
        fam.identify(fen("RNBQKBNR", "RNBQKBNR", "KQkq"))
    assert err.value.allows is not None


def SIDE_ID(fam: Family, rank: str) -> int:  # noqa: N802 (reads as a name)
    return fam.rank_id(rank)


def test_transcendental_positions_the_rooks_rule_would_give_rights_are_4608000() -> None:
    """The issue's count: pairs where a side's king stands between its rooks."""
    between = sum(1 for r in SIDE if r.index("R") < r.index("K") < r.rindex("R"))
    assert 2880 ** 2 - (2880 - between) ** 2 == 4_608_000


def test_placement_rights_are_pychess_rights_for_every_rank() -> None:
    fam = Family.load("placement")
    assert fam.count == 8_294_400
    assert {fam.rank_of(i) for i in range(fam.side_count)} == set(SIDE)
    black = "RNBQKBNR"
    black_id = fam.rank_id(black)
    for rank in SIDE:
        position = fam.position(fam.rank_id(rank) * 2880 + black_id)
        assert position.castling == pychess_rights(rank) + "kq", rank
    for rank in SIDE[::29]:
        written = fen(rank, black, pychess_rights(rank) + "kq")
        assert position_fen(fam.identify(written)) == written


def test_placement_refuses_rights_away_from_the_classical_squares() -> None:
    fam = Family.load("placement")
    with pytest.raises(CastlingRightsError, match="king on file e and a rook on file a,h"):
        fam.identify(fen("RKRNNQBB", "RNBQKBNR", "KQkq"))


def test_shuffle_nocastle_is_every_arrangement_and_reads_pychess_fens() -> None:
    fam = Family.load("shuffle-nocastle")
    assert {fam.rank_of(i) for i in range(fam.count)} == set(arrangements())
    for rank in sorted(arrangements())[::97]:
        written = fen(rank, rank, "-")  # as pychess's ShuffleBoard writes it
        assert position_fen(fam.identify(written)) == written
    with pytest.raises(CastlingRightsError):
        fam.identify(fen("RNBQKBNR", "RNBQKBNR", "KQkq"))


def chess324_rank(rank: str) -> bool:
    return rank[4] == "K" and rank[0] == rank[7] == "R" and bishops_opposite(rank)


def test_chess324x16_is_every_pair_with_every_subset_of_the_rights() -> None:
    fam = Family.load("chess324x16")
    ranks = sorted(r for r in arrangements() if chess324_rank(r))
    assert len(ranks) == 18 and fam.count == 18 * 18 * 16
    subsets = ["".join(s) or "-" for n in range(5) for s in combinations("KQkq", n)]
    expected = {fen(w, b, s) for w in ranks for b in ranks for s in subsets}
    written = [position_fen(fam.position(i)) for i in range(fam.count)]
    assert set(written) == expected and len(written) == 5184
    for number in range(0, fam.count, 7):
        assert fam.identify(written[number]).id == number
    # ids 0..323 are chess324's own, with every right
    chess324 = Family.load("chess324")
    assert all(fam.position(i).white == chess324.position(i).white for i in range(0, 324, 13))
    # a reduced-rights position in Shredder-FEN
    assert position_fen(fam.identify(fen("RNBQKBNR", "RNBQKBNR", "Ha")), shredder=True) \
        == fen("RNBQKBNR", "RNBQKBNR", "Ha")


@settings(max_examples=examples(20, 1000))
@given(st.integers(0, 5183), st.booleans())
def test_chess324x16_ids_fens_and_labels_round_trip(number: int, shredder: bool) -> None:
    """Any id: its FEN (either notation) and its TCEC label read back to it, and
    its rights are the variation's (number // 324: 15 - v's bits K Q k q)."""
    fam = Family.load("chess324x16")
    position = fam.position(number)
    assert fam.identify(position_fen(position, shredder=shredder)).id == number
    tcec = fam.scheme("tcec")
    assert tcec.read(tcec.text(number)) == number
    mask = 15 - number // 324
    kept = "".join(r for i, r in enumerate("KQkq") if mask >> (3 - i) & 1) or "-"
    assert position.castling == kept


def test_chess324x16_tcec_labels_carry_the_rights() -> None:
    fam = Family.load("chess324x16")
    chess960 = Family.load("chess960")
    tcec = fam.scheme("tcec")
    number = tcec.read("DFRC 692:508 Kq")
    position = fam.position(number)
    assert chess960.rank_id(position.white) == 692 and chess960.rank_id(position.black) == 508
    assert position_fen(position).split()[2] == "Kq"
    assert tcec.text(number) == "DFRC 692:508 Kq"


@pytest.mark.slow
def test_check_proves_the_castling_rule() -> None:
    for name in ("transcendental", "chess324x16", "shuffle-nocastle"):
        report = check(Family.load(name))
        assert report.ok, [c for c in report.claims if not c.ok]
        assert any(c.text.startswith("castling") for c in report.claims)


BASE = """name = "mine"
title = "t"
source = "s"
files = 8
pieces = "KQRRBBNN"
"""


@pytest.mark.parametrize(("extra", "message"), [
    ('castling = "nope"', "castling: expected 'rooks', 'none', 'subsets'"),
    ('castling = { king = "e", rooks = "az" }', "castling.rooks: 'z' is not a file"),
    ('castling = { king = "e" }', "castling.rooks: missing"),
    ('castling = { king = "e", rooks = "ah", wing = 1 }', "castling.wing: unknown key"),
    ('castling = "subsets"\ncount = 100', "count: 100 is not a multiple of 16"),
])
def test_castling_key_errors(extra: str, message: str) -> None:
    text = BASE + extra + ("" if "count" in extra else "\ncount = 5040")
    with pytest.raises(RuleFileError, match=message.replace("(", r"\(")):
        parse(text)


# -- the 10-file families, from their programs' code (slow: 453,600 arrangements) --------


def cutechess_pawns_safe(rank: str) -> bool:
    """Cute Chess's CaparandomBoard::pawnsAreSafe, as its code reads."""
    knight, bishop, rook = set("NAC"), set("BAQ"), set("RCQ")
    for i in range(len(rank)):
        safe = any(0 <= j < len(rank) and rank[j] in knight for j in (i - 2, i + 2))
        safe |= any(0 <= j < len(rank) and (rank[j] in bishop or rank[j] == "K")
                    for j in (i - 1, i + 1))
        safe |= rank[i] in rook or rank[i] == "K"
        if not safe:
            return False
    return True


@pytest.mark.slow
def test_cutechess_caparandom_is_cute_chess_generator_set() -> None:
    """Every rank CaparandomBoard can draw: Q and A on opposite colours, the
    bishops on opposite colours, R K R in that order on the squares left, and
    every pawn safe."""
    found = set()
    for rank in arrangements("KQACRRBBNN"):
        q, a = rank.index("Q"), rank.index("A")
        if q % 2 == a % 2 or not bishops_opposite(rank):
            continue
        if not rank.index("R") < rank.index("K") < rank.rindex("R"):
            continue
        if cutechess_pawns_safe(rank):
            found.add(rank)
    fam = Family.load("cutechess-caparandom")
    assert len(found) == fam.count == 21_836
    assert {fam.rank_of(i) for i in range(fam.count)} == found
    assert position_fen(fam.position(0)).split()[2] == "KQkq"  # Cute Chess writes KQkq


def xboard_caparandom(number: int) -> str:
    """XBoard's SetUpShuffle for caparandom, from its order: the light bishop
    (of 5 light squares), the dark bishop (of 5), the chancellor, archbishop
    and queen each on a free square (8, 7, 6), the knight pair (of the 10 pairs of the
    5 squares left), then R K R; the first the least significant digit."""
    board = [""] * 10

    def free(squares: list[int]) -> list[int]:
        return [s for s in squares if not board[s]]

    number, light = divmod(number, 5)
    board[free(list(range(1, 10, 2)))[light]] = "B"
    number, dark = divmod(number, 5)
    board[free(list(range(0, 10, 2)))[dark]] = "B"
    for piece, choices in (("C", 8), ("A", 7), ("Q", 6)):
        number, pick = divmod(number, choices)
        board[free(list(range(10)))[pick]] = piece
    pairs = list(combinations(free(list(range(10))), 2))
    number, pair = divmod(number, len(pairs))
    for square in pairs[pair]:
        board[square] = "N"
    for square, piece in zip(free(list(range(10))), "RKR", strict=True):
        board[square] = piece
    return "".join(board)


@pytest.mark.slow
def test_xboard_caparandom_numbers_as_xboard_places() -> None:
    fam = Family.load("xboard-caparandom")
    assert fam.count == 84_000
    for number in range(0, 84_000, 7):
        assert fam.rank_of(number) == xboard_caparandom(number), number
    capa = Family.load("capablanca-shuffle")
    assert capa.scheme("xboard").read("4321") == capa.rank_id(fam.rank_of(4321))


# -- lint follows the family's rule ------------------------------------------------------


def test_lint_and_fix_follow_the_family_rule() -> None:
    from solver.lists.lint import lint_text

    book = "".join(f"{fen(r, r, c)}\n" for r, c in (("RNBQKBNR", "KQkq"), ("RNBQKBNR", "-")))
    transcendental = lint_text(book, "book", fix="xfen", family=Family.load("transcendental"))
    # KQkq: the game has no castling (and line 2 repeats line 1's position)
    assert transcendental.problems == 2 and "duplicate" in transcendental.findings[1].message
    assert transcendental.fixed == f"{fen('RNBQKBNR', 'RNBQKBNR', '-')}\n" * 2
    placement = lint_text(book, "book", fix="shredder", family=Family.load("placement"))
    # '-': the classical squares give every right (and line 2 repeats line 1)
    assert placement.problems == 2 and "duplicate" in placement.findings[1].message
    assert placement.fixed == f"{fen('RNBQKBNR', 'RNBQKBNR', 'HAha')}\n" * 2
    subsets = lint_text(f"{fen('RNBQKBNR', 'RNBQKBNR', 'Hq')}\n", "book", fix="xfen",
                        family=Family.load("chess324x16"))
    assert subsets.problems == 1  # a mix of notations, the subset kept
    assert subsets.fixed == f"{fen('RNBQKBNR', 'RNBQKBNR', 'Kq')}\n"
    rooks = lint_text(book, "book")  # without a family: the rooks' rights
    assert rooks.problems == 1


# -- path and step-paths ------------------------------------------------------------------


RACING = (rules_dir() / "racing-kings.toml").read_text()


@pytest.mark.parametrize(("old", "new", "message"), [
    ('path = "e2 f2 g2 h2 h1 g1 f1 e1"', 'path = "e2 f2 g2 h2 h1 g1 f1"',
     "numberings[1].path: 7 squares, but a path lists every square of the region (8)"),
    ('path = "e2 f2 g2 h2 h1 g1 f1 e1"', 'path = "a1 f2 g2 h2 h1 g1 f1 e1"',
     "numberings[1].path: 'a1' is not a square of the family's region"),
    ('step-paths = { K = "h2 h1 g1 g2" }', 'step-paths = { N = "h2" }',
     "numberings[1].step-paths.N: 'N' is not one of the steps"),
])
def test_path_errors(old: str, new: str, message: str) -> None:
    assert old in RACING
    with pytest.raises(RuleFileError, match=re.escape(message)):
        parse(RACING.replace(old, new))


def test_path_orders_the_steps_squares() -> None:
    """The region's order, then a path that reverses it: the first rank read
    backwards numbers as the rank itself did (steps without colours)."""
    from solver.syntax.steps import Numbering

    steps = ["K", "Q", "RR", "BB", "NN"]
    plain = Numbering(8, "KQRRBBNN", steps)
    backwards = Numbering(8, "KQRRBBNN", steps, paths=[tuple(range(7, -1, -1))] * 5)
    for number in range(0, 5040, 37):
        assert backwards.decode(number) == plain.decode(number)[::-1]
        assert backwards.encode(plain.decode(number)[::-1]) == number


def test_plan_without_mirrors_mirrors_the_rights_too(tmp_path: Path) -> None:
    """Chess960 x 16 variations: a position's mirror is the mirrored rank with
    the rights kept on the other wings; a plan never draws both."""
    from solver.sampling import plan

    chess960 = (rules_dir() / "chess960.toml").read_text()
    text = chess960.split("\n# Further numberings")[0].replace('name = "chess960"',
                                                                'name = "chess960x16"')
    text = text.replace("count = 960", 'count = 15360\ncastling = "subsets"')
    text = text.replace('reference = "scharnagl"\n', "")
    path = tmp_path / "chess960x16.toml"
    path.write_text(text)
    fam = Family.load(str(path))
    drawn = plan(fam, 3000, seed="mirrors", mirrors=True)
    wings = str.maketrans("KQkq", "QKqk")
    seen = {(p.white, frozenset(p.castling)) for p in drawn}
    assert len(seen) == 3000
    assert not any((p.white[::-1], frozenset(p.castling.translate(wings))) in seen
                   for p in drawn)


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_every_dialect_keeps_a_castling_variation(dialect: str) -> None:
    # each program's FEN of a reduced-rights Chess324x16 position reads back as that
    # position (fsf, pychess and lichess once wrote every right the rooks give)
    import io

    from solver.output import FORMATS

    family = Family.load("chess324x16")
    writer = FORMATS["fen"](io.StringIO(), family, dialect=dialect)
    for number in (0, 323, 324, 1295, 2014, 5183):
        written = writer.fen(family.position(number))
        assert family.identify(written).id == number, (dialect, number, written)
