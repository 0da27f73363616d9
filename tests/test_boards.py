"""Families beyond Chess960's rules and board: Chess480 (``left-of``), Horde960
(a fixed White army), Chess 99 (a 9x9 board, Black turned half round).

Golden data: brute forces and boards written here from the published
descriptions (Chess480: of each Chess960 mirror pair, SMIRF keeps the rank
"where the white king is right sided to the queen"; Horde: lichess's and
pychess-variants' start FEN; Chess 99: three groups of files each permuted,
the board symmetric about e5), never from the code under test.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from profiles import examples

from solver import Chess960Error, Family, RuleFileError
from solver.check import check
from solver.errors import RuleViolationError
from solver.notation.fen import position_fen
from solver.numbering.counting import Counting
from solver.output.diagram import board_svg, board_text
from solver.ruleset.reader import parse

# -- Chess480 ----------------------------------------------------------------------------


def _chess960() -> set[str]:
    """Fischer's rules, by brute force: bishops on opposite colours, king between rooks."""
    ranks = set()
    for rank in map("".join, permutations("KQRRBBNN")):
        bishops = [f for f, p in enumerate(rank) if p == "B"]
        rooks = [f for f, p in enumerate(rank) if p == "R"]
        if (bishops[0] + bishops[1]) % 2 == 1 and rooks[0] < rank.index("K") < rooks[1]:
            ranks.add(rank)
    return ranks


def _chess480() -> set[str]:
    """One rank of each mirror pair: the one whose king stands right of its queen."""
    every = _chess960()
    kept = set()
    for rank in every:
        mirror = rank[::-1]
        assert mirror in every and mirror != rank  # mirror pairs, no rank its own mirror
        kept.add(rank if rank.index("K") > rank.index("Q") else mirror)
    return kept


CHESS480 = _chess480()


def test_chess480_is_half_of_chess960_by_mirror_pairs() -> None:
    assert len(_chess960()) == 960
    assert len(CHESS480) == 480
    assert "RNBQKBNR" in CHESS480 and "RNBKQBNR" not in CHESS480


def test_chess480_rule_file_gives_the_brute_force_set() -> None:
    family = Family.load("chess480")
    assert family.count == 480
    assert set(family.solver_ranks()) == CHESS480
    counting = Counting(family.ruleset)
    assert counting.count == 480
    assert set(counting) == CHESS480
    report = check(family)
    assert report.ok, [c for c in report.claims if not c.ok]
    assert report.found == 480


def test_chess480_numbers_in_scharnagls_order_with_the_mirrors_left_out() -> None:
    """Enumerated: Scharnagl's order of Chess960, keeping only Chess480's ranks."""
    chess960 = Family.load("chess960")
    expected = [r for r in (chess960.rank_of(i) for i in range(960)) if r in CHESS480]
    family = Family.load("chess480")
    assert [family.rank_of(i) for i in range(480)] == expected
    assert [family.rank_id(r) for r in expected] == list(range(480))


def test_chess480_refuses_a_mirrored_rank_naming_left_of() -> None:
    with pytest.raises(RuleViolationError) as caught:
        Family.load("chess480").identify("RNBKQBNR")
    assert "queen on e1 is not left of the king on d1 (rule left-of QK)" in str(caught.value)


# -- left-of on small boards -------------------------------------------------------------

HEAD = 'name = "t"\ntitle = "t"\nsource = "s"\nfiles = {files}\npieces = "{pieces}"\ncount = 0\n'


@pytest.mark.parametrize(("pieces", "message"), [
    ("RR", "'RR' names a pair, whose two pieces are alike"),
    ("QQ", "'QQ' names a pair but the family has 1 queen"),
    ("QX", "unknown piece 'X'"),
    ("RK", "'R' stands for 2 pieces"),
])
def test_left_of_refuses_a_pair_and_unknown_pieces(pieces: str, message: str) -> None:
    text = (HEAD.format(files=8, pieces="KQRRBBNN")
            + f'[[rule]]\nkind = "left-of"\npieces = "{pieces}"\n')
    with pytest.raises(RuleFileError) as caught:
        parse(text, "bad.toml")
    assert caught.value.key == "rule[1].pieces"
    assert message in str(caught.value)


@settings(max_examples=examples(25))
@given(st.integers(4, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.sampled_from("QRBNAC"), min_size=n - 1, max_size=n - 1))),
    st.data())
def test_left_of_agrees_with_a_brute_force(board: tuple[int, list[str]],
                                           data: st.DataObject) -> None:
    files, extra = board
    pieces = "K" + "".join(extra)
    singles = sorted(p for p in set(pieces) if pieces.count(p) == 1)
    assume(len(singles) >= 2)
    left, right = data.draw(st.permutations(singles).map(lambda s: s[:2]))
    text = HEAD.format(files=files, pieces=pieces) + (
        f'[[rule]]\nkind = "left-of"\npieces = "{left}{right}"\n')
    family = Family(parse(text, "t.toml"))
    expected = {r for r in map("".join, permutations(pieces)) if r.index(left) < r.index(right)}
    assert set(family.solver_ranks()) == expected
    assert set(Counting(family.ruleset)) == expected


# -- boards: Horde960 and Chess 99 ---------------------------------------------------------

HORDE_WHITE = "1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP"  # lichess and pychess Horde, ranks 5-1


def _chess99() -> set[str]:
    """Chess 99's random setup: each of files a-c, d-f, g-i permutes its three pieces."""
    return {"".join(a + b + c) for a in permutations("RNB") for b in permutations("QKA")
            for c in permutations("BNR")}


def _board(fen: str) -> dict[tuple[int, int], str]:
    """The pieces of a FEN's placement by (file, rank), counted from 0 at a1."""
    rows = fen.split(maxsplit=1)[0].split("/")
    found: dict[tuple[int, int], str] = {}
    for i, row in enumerate(rows):
        file = 0
        digits = ""
        for char in row + " ":
            if char.isdigit():
                digits += char
                continue
            file += int(digits or 0)
            digits = ""
            if char != " ":
                found[(file, len(rows) - 1 - i)] = char
                file += 1
    return found


def test_horde960_is_chess960_for_black_with_the_horde_for_white() -> None:
    family = Family.load("horde960")
    assert set(family.solver_ranks()) == _chess960()
    report = check(family)
    assert report.ok and report.found == 960
    for number in range(960):
        position = family.position(number)
        fen = f"{position.white.lower()}/pppppppp/8/{HORDE_WHITE} w kq - 0 1"
        assert position_fen(position) == fen
        assert family.identify(fen).id == number
    assert family.identify(f"rnbqkbnr/pppppppp/8/{HORDE_WHITE} w kq - 0 1").id == 518


@pytest.mark.parametrize(("fen", "reason"), [
    ("rnbqkbnr/pppppppp/8/1PP2P2/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
     "g5 should hold a white pawn"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "should hold a white pawn"),
    (f"rnbqkbnr/pppppppp/8/{HORDE_WHITE} w KQkq - 0 1",
     "'K': white's army is fixed, so white cannot castle; 'Q': white's army is fixed"),
    (f"rnbqkbnr/pppppppp/8/{HORDE_WHITE} b kq - 0 1", "black to move"),
])
def test_horde960_refuses_other_boards(fen: str, reason: str) -> None:
    with pytest.raises(Chess960Error) as caught:
        Family.load("horde960").identify(fen)
    assert reason in str(caught.value)


def test_chess99_random_gives_the_216_group_shuffles() -> None:
    family = Family.load("chess99-random")
    assert set(family.solver_ranks()) == _chess99()
    assert len(_chess99()) == 216
    report = check(family)
    assert report.ok and report.found == 216


def test_chess99_random_positions_are_symmetric_about_e5() -> None:
    family = Family.load("chess99-random")
    for number in range(216):
        position = family.position(number)
        fen = position_fen(position)
        board = _board(fen)
        assert len(board) == 36  # 9 pieces and 9 pawns a side
        assert all(board[(8 - f, 8 - r)] == p.swapcase() for (f, r), p in board.items())
        assert "".join(board[(f, 0)] for f in range(9)) == position.white
        assert all(board[(f, 1)] == "P" for f in range(9))
        assert family.identify(fen).id == number


def test_chess99_random_refuses_a_mirrored_black() -> None:
    family = Family.load("chess99-random")
    rank = family.position(0).white
    fen = f"{rank.lower()}/ppppppppp/9/9/9/9/9/PPPPPPPPP/{rank} w KQkq - 0 1"
    with pytest.raises(Chess960Error, match="turned half round"):
        family.identify(fen)


def test_show_draws_the_whole_board() -> None:
    family = Family.load("chess99-random")
    position = family.position(0)
    svg = board_svg(family, position)
    assert svg.count('class="square ') == 81
    assert 'data-square="i9"' in svg
    assert svg.count('class="piece ') == 36
    text = board_text(family, position, letters=True, coloured=False).plain.splitlines()
    assert text[0].split() == list("abcdefghi")
    assert text[1].split()[1:-1] == list(position.black.lower())
    horde = Family.load("horde960")
    svg = board_svg(horde, horde.position(518))
    assert svg.count('class="piece white pawn"') == 36
    assert svg.count('class="piece black pawn"') == 8


# -- bad board keys ---------------------------------------------------------------------------

BOARD = 'name = "t"\ntitle = "t"\nsource = "s"\nfiles = 8\npieces = "KQRRBBNN"\ncount = 0\n'


@pytest.mark.parametrize(("extra", "key", "message"), [
    ("ranks = 3", "ranks", "3 is not in 4..16"),
    ("ranks = 17", "ranks", "17 is not in 4..16"),
    ('ranks = "9"', "ranks", "expected an integer, got string '9'"),
    ("pawns = 5", "pawns", "rank 5 is not in 2..4"),
    ('pawns = "nothing"', "pawns", "expected a rank number or 'none'"),
    ('sides = "rotated"', "sides", "(did you mean 'rotate'?)"),
    ('sides = "white-fixed"', "white", "missing"),
    (f'white = "{HORDE_WHITE}"', "white", "needs sides = 'white-fixed'"),
    (f'sides = "white-fixed"\nwhite = "PPPPPPPP/{HORDE_WHITE}/PPPPPPPP"', "white",
     "has 7 ranks, but Black's pieces leave White only ranks 1..6"),
    ('sides = "white-fixed"\nwhite = "1PP2PP"', "white", "rank 1 '1PP2PP' has 7 squares"),
    ('sides = "white-fixed"\nwhite = "pppppppp"', "white", "'p', which is no white piece"),
    ('sides = "white-fixed"\nwhite = "8/8"', "white", "has no piece"),
    ('sides = "white-fixed"\nwhite = "PPPP?PPP"', "white", "'?', which is neither"),
])
def test_bad_board_keys_name_the_key(extra: str, key: str, message: str) -> None:
    with pytest.raises(RuleFileError) as caught:
        parse(BOARD + extra + "\n", "bad.toml")
    assert caught.value.key == key
    assert message in str(caught.value)
    assert str(caught.value).startswith(f"bad.toml: {key}: ")


# -- shogi-shuffle ----------------------------------------------------------------------------

SHOGI_START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"  # USI startpos


def _shogi_sfen(rank: str) -> str:
    """The SFEN of a shuffled shogi start, built square by square (Sente at the bottom)."""
    board = [[""] * 9 for _ in range(9)]  # board[rank - 1][file]
    knights = [f for f, p in enumerate(rank) if p == "N"]
    for f, piece in enumerate(rank):
        board[0][f] = piece
    board[1][knights[0]] = "B"  # in front of Sente's left knight
    board[1][knights[1]] = "R"
    board[2] = ["P"] * 9
    for r in range(9):  # Gote: every Sente piece turned half round
        for f in range(9):
            if board[r][f] and board[r][f].isupper():
                board[8 - r][8 - f] = board[r][f].lower()
    rows = []
    for r in range(8, -1, -1):
        row, empty = "", 0
        for piece in board[r]:
            if not piece:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " b - 1"


def test_shogi_shuffle_is_every_arrangement_of_the_back_rank() -> None:
    family = Family.load("shogi-shuffle")
    every = set(map("".join, permutations("LLNNSSGGK")))
    assert len(every) == 22_680
    assert set(family.solver_ranks()) == every
    report = check(family)
    assert report.ok and report.found == 22_680


@pytest.mark.parametrize("every", [
    pytest.param(1, marks=pytest.mark.slow, id="every-position"),  # 22,680: CI
    pytest.param(97, id="every-97th"),
])
def test_shogi_shuffle_writes_and_reads_sfen(every: int) -> None:
    family = Family.load("shogi-shuffle")
    assert _shogi_sfen("LNSGKGSNL") == SHOGI_START
    assert position_fen(family.identify("LNSGKGSNL")) == SHOGI_START
    for number in [*range(0, family.count, every), family.count - 1]:
        position = family.position(number)
        sfen = position_fen(position)
        assert sfen == _shogi_sfen(position.white)
        assert family.identify(sfen).id == number


@pytest.mark.parametrize(("sfen", "reason"), [
    (SHOGI_START.replace("1B5R1", "1R5B1"), "b2 should hold a white bishop"),
    (SHOGI_START.replace(" b - 1", " w - 1"), "gote to move"),
    (SHOGI_START.replace(" b - 1", " b P 1"), "pieces in hand 'P'"),
    (SHOGI_START.replace("lnsgkgsnl/", "lngskgsnl/"), "turned half round"),
    ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1", "'X', which is no piece"),
])
def test_shogi_shuffle_refuses_other_boards(sfen: str, reason: str) -> None:
    with pytest.raises(Chess960Error) as caught:
        Family.load("shogi-shuffle").identify(sfen)
    assert reason in str(caught.value)


def test_shogi_shuffle_names_its_own_pieces() -> None:
    family = Family.load("shogi-shuffle")
    with pytest.raises(Chess960Error, match="3 lances"):
        family.identify("LLLNSSGGK")
    svg = board_svg(family, family.identify("LNSGKGSNL"))
    assert svg.count('class="piece white silver-general"') == 2
    assert svg.count('class="piece black lance"') == 2
    assert svg.count('class="square ') == 81
    assert svg.count('transform="rotate(180 ') == 20  # Gote's pieces face Sente


def test_sfen_families_refuse_chess_formats() -> None:
    from io import StringIO

    from solver.output import PositionWriter

    family = Family.load("shogi-shuffle")
    for fmt in ("epd", "pgn"):
        with pytest.raises(Chess960Error, match=f"which {fmt} cannot hold"):
            PositionWriter(StringIO(), family, fmt)


@pytest.mark.parametrize("name", ["chess480", "horde960", "chess99-random",
                                  pytest.param("capablanca-random-full", marks=pytest.mark.slow)])
def test_every_position_round_trips_through_its_fen(name: str) -> None:
    family = Family.load(name)
    positions = list(family.positions())
    assert [p.id for p in positions] == list(range(family.count))
    for position in positions:
        assert family.identify(position_fen(position)).id == position.id
    for number in range(0, family.count, max(1, family.count // 50)):
        assert family.position(number) == positions[number]


@pytest.mark.parametrize(("extra", "key", "message"), [
    ('[[piece]]\nletter = "K"\nname = "king"', "piece[1].letter", "every family keeps"),
    ('[[piece]]\nletter = "P"\nname = "pawn"', "piece[1].letter", "built-in pawn"),
    ('[[piece]]\nletter = "LL"\nname = "lance"', "piece[1].letter", "expected one letter"),
    ('[[piece]]\nletter = "L"\nname = "Lance!"', "piece[1].name", "lower-case words"),
    ('[[piece]]\nletter = "L"\nnmae = "lance"', "piece[1].nmae", "did you mean 'name'"),
    ('[[piece]]\nletter = "L"\nname = "lance"\n[[piece]]\nletter = "l"\nname = "x"',
     "piece[2].letter", "declared twice"),
    ('[[front]]\npiece = "B"\nof = "N"', "front[1].piece", "where White's pawns stand"),
    ('pawns = 3\n[[front]]\npiece = "B"\nof = "X"', "front[1].of", "not one of the rank's"),
    ('pawns = 3\n[[front]]\npiece = "B"\nof = "N"\nwhich = "lft"', "front[1].which",
     "did you mean 'left'"),
    ('pawns = 3\n[[front]]\npiece = "B"\nof = "N"\n[[front]]\npiece = "R"\nof = "N"',
     "front[2].of", "already stands in front of the left 'N'"),
    ('notation = "sfn"', "notation", "did you mean 'sfen'"),
])
def test_bad_piece_and_front_tables_name_the_key(extra: str, key: str, message: str) -> None:
    with pytest.raises(RuleFileError) as caught:
        parse(BOARD + extra + "\n", "bad.toml")
    assert caught.value.key == key
    assert message in str(caught.value)


def test_a_rule_needing_movement_names_the_piece_without_it() -> None:
    text = (HEAD.format(files=9, pieces="LNSGKGSNL") + '[[piece]]\nletter = "L"\n'
            'name = "lance"\n[[piece]]\nletter = "S"\nname = "silver general"\n'
            '[[piece]]\nletter = "G"\nname = "gold general"\n[[rule]]\nkind = "pawns-protected"\n')
    with pytest.raises(RuleFileError) as caught:
        parse(text, "bad.toml")
    assert caught.value.key == "rule[1].kind"
    assert "how the lance 'L' captures" in str(caught.value)


def test_rules_name_a_declared_piece() -> None:
    text = (HEAD.format(files=9, pieces="LNSGKGSNL") + '[[piece]]\nletter = "L"\n'
            'name = "lance"\n[[piece]]\nletter = "S"\nname = "silver general"\n'
            '[[piece]]\nletter = "G"\nname = "gold general"\n'
            '[[rule]]\nkind = "on-files"\npiece = "L"\nfiles = "ai"\n')
    family = Family(parse(text, "t.toml"))
    assert family.count == 630  # lances on a1 and i1, then 7! / (2! 2! 2!) for NNSSGGK
    with pytest.raises(RuleViolationError, match="lance on b1 is not on files a,i"):
        family.identify("KLNSGGSNL")


# -- full Capablanca Random Chess ------------------------------------------------------------

#: The file distances at which a first-rank piece captures on the second rank.
CAPTURES = {"K": {0, 1}, "Q": {0, 1}, "R": {0}, "B": {1}, "N": {2}, "A": {1, 2}, "C": {0, 2}}
GOTHIC = "RNBQCKABNR"


def _crc(gothic_differences: int) -> set[str]:
    """Scharnagl's six rules by brute force over the 453,600 arrangements, with the
    Gothic rule read as "differs from RNBQCKABNR in at least this many squares"."""
    kept = set()
    for rank in set(map("".join, permutations("KQACRRBBNN"))):
        b1, b2 = (f for f, p in enumerate(rank) if p == "B")
        r1, r2 = (f for f, p in enumerate(rank) if p == "R")
        if (b1 + b2) % 2 == 0 or (rank.index("Q") + rank.index("A")) % 2 == 0:
            continue
        if not r1 < rank.index("K") < r2 or b2 - b1 == 1:
            continue
        if not all(any(abs(f - pawn) in CAPTURES[p] for f, p in enumerate(rank))
                   for pawn in range(10)):
            continue
        if sum(a != b for a, b in zip(rank, GOTHIC, strict=True)) >= gothic_differences:
            kept.add(rank)
    return kept


@pytest.mark.slow  # 453,600 arrangements by brute force, twice
def test_full_capablanca_random_is_12118_only_with_three_differences_from_gothic() -> None:
    """English Wikipedia's "different from Gothic Chess" leaves 12,129; German
    Wikipedia's "fewer than three differences are left out" gives the published 12,118."""
    three = _crc(3)
    assert len(three) == 12_118
    assert len(_crc(1)) == 12_129
    family = Family.load("capablanca-random-full")
    assert family.count == 12_118
    counting = Counting(family.ruleset)
    assert set(counting) == three
    assert set(family.solver_ranks()) == three


# -- Racing Kings: a region of two ranks, Black the left-right mirror ---------------------

RK_SQUARES = [(f, r) for r in (1, 2) for f in range(4, 8)]  # e1 f1 g1 h1 e2 f2 g2 h2
RK_START = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"  # lichess's and pychess's Racing Kings


def _racing_kings() -> set[str]:
    """White's eight squares e1-h2: bishops on opposite colours, the king on the g- or h-file."""
    kept = set()
    for rank in set(map("".join, permutations("KQRRBBNN"))):
        bishops = [RK_SQUARES[i] for i, p in enumerate(rank) if p == "B"]
        dark = [(f + r) % 2 == 1 for f, r in bishops]  # a1 (0, 1) is dark
        king = RK_SQUARES[rank.index("K")]
        if dark[0] != dark[1] and king[0] in (6, 7):
            kept.add(rank)
    return kept


def _rk_fen(rank: str) -> str:
    board = [["1"] * 8 for _ in range(8)]
    for (f, r), piece in zip(RK_SQUARES, rank, strict=True):
        board[8 - r][f] = piece
        board[8 - r][7 - f] = piece.lower()
    rows = ["".join(row).replace("11111111", "8") for row in board]
    return "/".join(rows) + " w - - 0 1"


def test_racing_kings_gives_the_1440_by_brute_force() -> None:
    expected = _racing_kings()
    assert len(expected) == 1440
    family = Family.load("racing-kings")
    assert set(family.solver_ranks()) == expected
    assert set(Counting(family.ruleset)) == expected
    report = check(family)
    assert report.ok and report.found == 1440


def test_racing_kings_writes_and_reads_every_board() -> None:
    family = Family.load("racing-kings")
    assert _rk_fen("NBRQNBRK") == RK_START
    assert family.identify(RK_START).white == "NBRQNBRK"
    for number in range(family.count):
        position = family.position(number)
        fen = position_fen(position)
        assert fen == _rk_fen(position.white)
        assert family.identify(fen).id == number


@pytest.mark.parametrize(("fen", "reason"), [
    ("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w KQkq - 0 1",
     "'K': white's pieces do not fill the back rank, so white cannot castle; 'Q': white's"),
    ("8/8/8/8/8/8/nrbkKBRN/qrbnNBRQ w - - 0 1", "king on e2 is not on files g,h"),
    ("8/8/8/8/8/8/kbrnNBRK/qrbnNBRQ w - - 0 1", "does not mirror"),
    ("8/8/8/8/8/8/krbnNBR1/qrbnNBRQ w - - 0 1", "h2 is empty"),
])
def test_racing_kings_refuses_other_boards(fen: str, reason: str) -> None:
    with pytest.raises(Chess960Error) as caught:
        Family.load("racing-kings").identify(fen)
    assert reason in str(caught.value)


def test_racing_kings_rules_explain_on_region_squares() -> None:
    family = Family.load("racing-kings")
    broken = family.violations("NBKQNBRR")  # bishops f1 (light), f2 (dark); king g1
    assert broken == []
    broken = family.violations("BNRQNBRK")  # bishops e1 and f2, both dark
    assert [list(v.squares) for v in broken] == [["e1", "f2"]]
    assert "bishops on e1 and f2 are both on dark squares" in broken[0].message
    broken = family.violations("KBRQNBRN")
    assert "king on e1 is not on files g,h" in broken[0].message


def test_racing_kings_board_is_drawn() -> None:
    family = Family.load("racing-kings")
    svg = board_svg(family, family.identify(RK_START))
    assert svg.count('class="square ') == 64
    assert svg.count('class="piece white') == 8 and svg.count('class="piece black') == 8
    assert "pawn" not in svg


RK = 'name = "t"\ntitle = "t"\nsource = "s"\nfiles = 8\npieces = "KQRRBBNN"\ncount = 0\n'


@pytest.mark.parametrize(("extra", "key", "message"), [
    ('region = "e1-h2"\nsides = "mirror-files"', "pawns", "set pawns = 'none'"),
    ('region = "e1-i2"\nsides = "mirror-files"\npawns = "none"', "region", "not on this 8x8"),
    ('region = "d1-g2"\nsides = "mirror-files"\npawns = "none"', "region",
     "overlaps Black's squares"),
    ('region = "e1-h3"\nsides = "mirror-files"\npawns = "none"', "pieces",
     "has 8 pieces for 12 squares of the region"),
    ('region = "a1:d2"\npawns = "none"', "region", "is not 'rank N'"),
    ('sides = "mirror-files"\npawns = "none"', "region", "missing"),
    ('region = "ranks 1-2"', "region", "covers rank 2, where pawns stand"),
    ('region = "e1-h2"\nsides = "mirror-files"\npawns = "none"\n[[rule]]\n'
     'kind = "between"\npiece = "K"\npair = "RR"', "rule[1].kind", "reads a rank from left"),
])
def test_bad_regions_name_the_key(extra: str, key: str, message: str) -> None:
    with pytest.raises(RuleFileError) as caught:
        parse(RK + extra + "\n", "bad.toml")
    assert caught.value.key == key
    assert message in str(caught.value)


# -- declared pieces with Betza movement ---------------------------------------------------

AMAZON = (HEAD.format(files=8, pieces="KMRRBBNN") + '[[piece]]\nletter = "M"\nname = "amazon"\n'
          'betza = "QN"\n[[rule]]\nkind = "pawns-protected"\n')


def test_a_declared_piece_defends_pawns_as_its_betza_string_says() -> None:
    """The amazon (queen + knight) defends a pawn straight ahead, diagonally and a
    knight's move away: |file difference| 0, 1 or 2, counted here by hand."""
    reach = {"K": {0, 1}, "M": {0, 1, 2}, "R": {0}, "B": {1}, "N": {2}}
    expected = {r for r in map("".join, permutations("KMRRBBNN"))
                if all(any(abs(f - pawn) in reach[p] for f, p in enumerate(r))
                       for pawn in range(8))}
    family = Family(parse(AMAZON, "amazon.toml"))
    assert set(family.solver_ranks()) == expected
    assert set(Counting(family.ruleset)) == expected
    with pytest.raises(RuleViolationError, match="pawns on a2, h2 are not defended"):
        family.identify("NRBMKBRN")


@pytest.mark.parametrize(("betza", "key", "message"), [
    ("QX", "piece[1].betza", "at 'X'"),
    ("fsN", "piece[1].betza", "is not Betza notation"),
    ("", "piece[1].betza", "is not Betza notation"),
    ("C", "rule[1].kind", "defends pawns more than 2 files away"),
])
def test_bad_or_unreadable_betza_names_the_key(betza: str, key: str, message: str) -> None:
    with pytest.raises(RuleFileError) as caught:
        parse(AMAZON.replace('betza = "QN"', f'betza = "{betza}"'), "bad.toml")
    assert caught.value.key == key
    assert message in str(caught.value)


def test_captures_reads_directions_and_riders() -> None:
    from solver.board.betza import captures, pawn_distances

    assert pawn_distances("K") == {0, 1} and pawn_distances("R") == {0}
    assert pawn_distances("WW") == {0} and pawn_distances("mQ") == set()
    assert captures("fW") == {(0, 1)} and captures("bF") == {(1, -1), (-1, -1)}
    assert captures("sW") == {(1, 0), (-1, 0)} and captures("vW") == {(0, 1), (0, -1)}
    assert pawn_distances("fN") == {2} and pawn_distances("bN") == set()


@pytest.mark.slow  # every position through python-chess: CI's slow and oracle steps run it
@pytest.mark.parametrize(("name", "board"), [("horde960", "HordeBoard"),
                                             ("racing-kings", "RacingKingsBoard")])
def test_python_chess_reads_the_pgn_of_every_position(name: str, board: str) -> None:
    """python-chess (a peer program) reads each game as its variant, on our board."""
    from io import StringIO

    pgn_module = pytest.importorskip("chess.pgn")
    variant = pytest.importorskip("chess.variant")
    from solver.output import PositionWriter

    family = Family.load(name)
    out = StringIO()
    with PositionWriter(out, family, "pgn") as writer:
        for number in range(family.count):
            writer.write(family.position(number))
    stream = StringIO(out.getvalue())
    for number in range(family.count):
        game = pgn_module.read_game(stream)
        assert game is not None and game.errors == []
        read = game.board()
        assert isinstance(read, getattr(variant, board))
        assert read.is_valid()
        assert read.fen() == position_fen(family.position(number))


# -- any small region against a brute force ------------------------------------------------


@st.composite
def region_families(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]], str, str, str]:
    """A rule file with a rectangular region of up to 6 squares, a bishop pair on
    opposite colours and the king held to some files; its squares, pieces, king's files."""
    files = draw(st.integers(4, 8))
    ranks = 8
    width = draw(st.integers(2, min(3, files // 2)))
    height = 2 if width == 2 else draw(st.integers(1, 2))
    left = draw(st.integers(0, files - width))
    sides = draw(st.sampled_from(["mirror", "rotate", "mirror-files"]))
    if sides == "mirror-files":
        left = draw(st.integers(files - files // 2, files - width))  # the right half
    squares = [(f, r) for r in range(1, height + 1) for f in range(left, left + width)]
    letters = "abcdefgh"
    corner = f"{letters[left]}1-{letters[left + width - 1]}{height}"
    rest = draw(st.lists(st.sampled_from("QRN"), min_size=len(squares) - 3,
                         max_size=len(squares) - 3))
    pieces = "KBB" + "".join(rest)
    king = "".join(sorted(draw(st.sets(st.sampled_from(letters[left:left + width]),
                                       min_size=1))))
    text = (f'name = "r"\ntitle = "t"\nsource = "s"\nfiles = {files}\nranks = {ranks}\n'
            f'region = "{corner}"\nsides = "{sides}"\npawns = "none"\npieces = "{pieces}"\n'
            f'count = 0\n[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n'
            f'[[rule]]\nkind = "on-files"\npiece = "K"\nfiles = "{king}"\n'
            f'[numbering]\nsteps = ["B:light", "B:dark", "K"'
            + "".join(f', "{p * rest.count(p)}"' for p in dict.fromkeys(rest)) + "]\n")
    return text, squares, pieces, king, sides


@settings(max_examples=examples(30))
@given(region_families())
def test_regions_agree_with_a_brute_force(case: tuple[str, list[tuple[int, int]], str, str,
                                                      str]) -> None:
    text, squares, pieces, king, _sides = case
    family = Family(parse(text, "r.toml"))
    expected = set()
    for rank in set(map("".join, permutations(pieces))):
        bishops = [squares[i] for i, p in enumerate(rank) if p == "B"]
        k_file = "abcdefgh"[squares[rank.index("K")][0]]
        if sum(bishops[0]) % 2 != sum(bishops[1]) % 2 and k_file in king:
            expected.add(rank)
    assert set(family.solver_ranks()) == expected
    assert set(Counting(family.ruleset)) == expected
    if not expected:
        return  # (check reports an empty family as a failure, naming the rules)
    report = check(Family(replace(family.ruleset, count=len(expected))))
    assert report.ok, [c for c in report.claims if not c.ok]
    for rank in sorted(expected)[:5]:
        position = family.identify(rank)
        assert family.identify(position_fen(position)).id == position.id


#: Chess 99 for Fairy-Stockfish, in its variants.ini format: 9x9, the archbishop as A.
CHESS99_INI = """
[chess99:chess]
maxRank = 9
maxFile = 9
archbishop = a
startFen = rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1
"""


@pytest.mark.parametrize(("name", "variant"), [("racing-kings", "racingkings"),
                                               ("horde960", "horde"),
                                               ("chess99-random", "chess99"),
                                               pytest.param("shogi-shuffle", "shogi",
                                                            marks=pytest.mark.slow)])
def test_fairy_stockfish_accepts_every_position(name: str, variant: str) -> None:
    """Fairy-Stockfish (a peer program) validates each start position of the family
    (castling rights read as Chess960's, where the family has them).

    Its shogi FEN is the SFEN board with an empty hand, ``[-] w 0 1`` (Sente
    is its White).
    """
    sf = pytest.importorskip("pyffish")
    if variant == "chess99":
        sf.load_variant_config(CHESS99_INI)
    family = Family.load(name)
    for position in family.positions():
        fen = position_fen(position)
        if variant == "shogi":
            fen = f"{fen.split(maxsplit=1)[0]}[-] w 0 1"
        assert sf.validate_fen(fen, variant, name in ("horde960", "chess99-random")) == 1, fen
