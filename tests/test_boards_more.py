"""Empty squares, pieces placed by file on other ranks (the ``holds`` kind,
regions as unions) and the bundles that need them: janggi, myshogi, chess256,
corner; each equal to a brute force written from its publisher's definition."""

from __future__ import annotations

from itertools import permutations, product

import pytest

from solver import Family
from solver.errors import RuleFileError
from solver.notation.fen import position_fen
from solver.ruleset.reader import parse


def fen_row(text: str) -> str:
    """A FEN placement row of ``text`` (a space an empty square, runs counted)."""
    out, empty = "", 0
    for c in text:
        if c == " ":
            empty += 1
            continue
        out += (str(empty) if empty else "") + c
        empty = 0
    return out + (str(empty) if empty else "")


def _fens(family: Family) -> list[str]:
    return [position_fen(p) for p in family.positions()]


def test_janggi_is_the_sixteen_set_ups() -> None:
    """Each side chooses horse-elephant or elephant-horse on each wing (2 x 2);
    the sides choose apart: 16. Fairy-Stockfish's start is one of them."""
    wings = ["NB", "BN"]
    sides = [f"R{left}A1A{right}R" for left in wings for right in wings]
    expected = {f"{black.lower()}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{white} w - - 0 1"
                for white in sides for black in sides}
    family = Family.load("janggi")
    fens = _fens(family)
    assert family.count == 16 == len(set(fens))
    assert set(fens) == expected
    start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
    assert start in fens  # Fairy-Stockfish's and pychess-variants' janggi start
    issue = "rnba1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR w - - 0 1"
    assert family.identify(issue).id == fens.index(issue)


def test_janggi_names_a_wrong_square() -> None:
    family = Family.load("janggi")
    with pytest.raises(Exception, match="e1 holds 'A'"):
        family.identify("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAA1BNR w - - 0 1")


def _myshogi_wing_orders() -> set[tuple[int, ...]]:
    """The orders MyShogi's wing shuffle reaches: for i in 0..3, swap square i
    with a square drawn below 4 - i (ExtendedGame.Shogi960)."""
    reached = set()
    for draws in product(range(4), range(3), range(2), range(1)):
        order = list(range(4))
        for i, r in enumerate(draws):
            order[i], order[r] = order[r], order[i]
        reached.add(tuple(order))
    return reached


def test_myshogi_wing_shuffle_reaches_only_eleven_orders() -> None:
    """MyShogi states "any exchange" of each wing's four pieces (5,183, the
    family as bundled), but its loop ends swapping square 3 with square 0
    every time, so the program draws only 11 of the 24 orders (a finding
    recorded in rules/myshogi.toml)."""
    assert len(_myshogi_wing_orders()) == 11


@pytest.mark.slow
def test_myshogi_is_its_brute_force() -> None:
    """Bishop on 8h-6h, rook on 2h-4h, each wing's four pieces in any order,
    Gote turned half round, the standard start drawn again: 5,183."""
    standard = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

    expected = set()
    for left in permutations("LNSG"):
        for right in permutations("GSNL"):
            back = "".join(left) + "K" + "".join(right)
            for b in range(1, 4):
                for r in range(5, 8):
                    second = [" "] * 9
                    second[b], second[r] = "B", "R"
                    white2 = "".join(second)
                    fen = "/".join([fen_row(back[::-1].lower()), fen_row(white2[::-1].lower()),
                                    "ppppppppp", "9", "9", "9", "PPPPPPPPP", fen_row(white2),
                                    fen_row(back)]) + " b - 1"
                    expected.add(fen)
    expected.discard(standard)
    family = Family.load("myshogi")
    fens = _fens(family)
    assert family.count == 5183 == len(set(fens))
    assert set(fens) == expected


def test_myshogi_reads_its_sfen_and_refuses_the_standard_start() -> None:
    family = Family.load("myshogi")
    sfen = "lnsgkgsnl/2r3b2/ppppppppp/9/9/9/PPPPPPPPP/2B3R2/LNSGKGSNL b - 1"
    position = family.identify(sfen)
    assert position_fen(position) == sfen
    with pytest.raises(Exception, match="excluded"):
        family.identify("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")


def test_chess256_is_every_pawn_on_its_second_or_third_rank() -> None:
    expected = set()
    for ranks in product((2, 3), repeat=8):
        second = "".join("P" if r == 2 else " " for r in ranks)
        third = "".join("P" if r == 3 else " " for r in ranks)

        expected.add("/".join(["rnbqkbnr", fen_row(second.lower()), fen_row(third.lower()),
                               "8", "8", fen_row(third), fen_row(second), "RNBQKBNR"])
                     + " w KQkq - 0 1")
    family = Family.load("chess256")
    fens = _fens(family)
    assert family.count == 256 == len(set(fens))
    assert set(fens) == expected
    # ChessV's example position
    assert family.identify("rnbqkbnr/3p4/ppp1pppp/8/8/PPP1PPPP/3P4/RNBQKBNR w KQkq - 0 1")


def test_corner_is_its_brute_force() -> None:
    """King on h1 (a8), the other seven pieces anywhere on a1-g1 with the bishops
    on opposite colours, Black turned half round, no castling: 360."""
    expected = set()
    for order in set(permutations("QRRBBNN")):
        bishops = [i for i, p in enumerate(order) if p == "B"]
        if bishops[0] % 2 == bishops[1] % 2:
            continue
        white = "".join(order) + "K"
        expected.add(f"{white[::-1].lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w - - 0 1")
    family = Family.load("corner")
    fens = _fens(family)
    assert family.count == 360 == len(expected) == len(set(fens))
    assert set(fens) == expected


def test_regions_join_squares_and_rectangles() -> None:
    ruleset = parse('name = "x"\ntitle = "x"\nsource = "x"\nfiles = 8\npawns = "none"\n'
                    'region = "a1-h1, a2-a3, e4"\npieces = "RNBQKBNR P. ."\ncount = 1\n')
    assert ruleset.region.names[7:] == ("h1", "a2", "a3", "e4")


@pytest.mark.parametrize(("table", "message"), [
    ('squares = "a1-b1"\npieces = "RNB"', "has 3 letters for the 2 squares"),
    ('squares = "a9"\npieces = "R"', "a9 is not a square of the region"),
    ('squares = "a1"\npieces = "X"', "'X' is not among this family's pieces"),
    ('squares = "a1 | b1"\npieces = "R"', "1 groups for the 2 groups"),
    ('squares = "a1"\npieces = "R"\neach = "rank"', "expected 'area', 'file' or 'square'"),
])
def test_holds_errors_name_the_key(table: str, message: str) -> None:
    text = ('name = "x"\ntitle = "x"\nsource = "x"\nfiles = 8\npieces = "RNBQKBNR"\n'
            f'count = 1\n[[rule]]\nkind = "holds"\n{table}\n')
    with pytest.raises(RuleFileError, match=message):
        parse(text)


def _readme_examples() -> list[tuple[str, int, str]]:
    import re

    from solver.ruleset.reader import rules_dir
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    return [(m.group(1), int(m.group(2)), m.group(3)) for m in re.finditer(
        r"<!-- tested-example (\S+) (\d+) -->\s*```toml\n(.*?)```", text, re.DOTALL)]


def test_the_rules_readme_examples_are_the_bundled_families() -> None:
    """Each example of rules/README.md's new keys states its bundled family:
    the same count and the same positions (the examples leave the numbering out)."""
    examples = _readme_examples()
    assert {name for name, _, _ in examples} == {"janggi", "chess256", "seirawan960"}
    for name, count, text in examples:
        mine, bundled = Family(parse(text)), Family.load(name)
        assert mine.count == bundled.count == count
        assert {position_fen(p) for p in mine.positions()} == set(_fens(bundled))
