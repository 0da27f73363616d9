"""Armies that vary (``pieces = "K + 7 of NBRQ"``) and linked sides: FICS wild 3 and wild 4.

The brute forces below are written from the FICS server's generator
(lasker-2.2.3 ``src/board.c``, ``wild_update()``), not from the code under test:

* wild 3 (case 3): the White king on any square of rank 1
  (``place_piece(b, W_KING, ANY_SQUARE)``), every other square
  ``(random() % 4) + 2``, that is a knight, bishop, rook or queen; Black mirrors
  White (``b[i][7] = b[i][0] | BLACK``).
* wild 4 (case 4): White as in wild 3; Black has the same pieces, each Black
  bishop placed on ``!SquareColor(i, 0)`` for a White bishop on file ``i``, with
  ``SquareColor(f, r) = (f ^ r) & 1`` on the board's own rows (rank 1 is row 0,
  rank 8 row 7), the other pieces anywhere.

Nothing here is listed by the family for counting: the family's own count,
``id``, ``position`` and ``random`` are arithmetic (bench/run.py --only armies
times them).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict
from functools import cache
from itertools import pairwise, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver import Family, RuleFileError
from solver.check import check
from solver.errors import ArmyError, LinkError, RuleViolationError
from solver.notation.fen import position_fen
from solver.ruleset.reader import parse, rules_dir

ROOT = Path(__file__).resolve().parents[1]

POOL = "NBRQ"  # (random() % 4) + 2: KNIGHT, BISHOP, ROOK, QUEEN in the server's numbering


@cache
def wild3_ranks() -> list[str]:
    """Every rank FICS's case 3 can make: the king's file, then seven pool pieces."""
    out = []
    for king in range(8):
        for rest in product(POOL, repeat=7):
            row = list(rest)
            row.insert(king, "K")
            out.append("".join(row))
    return out


def square_color(f: int, r: int) -> int:
    """The server's SquareColor: 1 a white (light) square, 0 a black (dark) one."""
    return (f ^ r) & 1


def fics_fits(white: str, black: str) -> bool:
    """Whether FICS's case 4 can give Black ``black`` (as it stands on rank 8,
    a-file first) for White's ``white``: the same pieces, and Black's bishops on
    the colours opposite White's bishops' colours, one for one."""
    if sorted(white) != sorted(black):
        return False
    wanted = sorted(1 - square_color(f, 0) for f, p in enumerate(white) if p == "B")
    placed = sorted(square_color(f, 7) for f, p in enumerate(black) if p == "B")
    return wanted == placed


def word_id(rank: str) -> int:
    """wild3's side id as rules/README.md defines it: the pool word in dictionary
    order of N B R Q, plus 4^7 times the king's file."""
    word = [POOL.index(p) for p in rank if p != "K"]
    number = 0
    for digit in word:
        number = number * 4 + digit
    return number + 4 ** 7 * rank.index("K")


@cache
def fics4_key(rank: str, row: int) -> tuple[str, tuple[int, ...]]:
    """What FICS's case 4 compares: the pieces, and the bishops' square colours
    (for White the colours Black's bishops must take)."""
    colours = [square_color(f, row) for f, p in enumerate(rank) if p == "B"]
    if row == 0:
        colours = [1 - c for c in colours]
    return "".join(sorted(rank)), tuple(sorted(colours))


@cache
def wild4_numbering() -> tuple[list[str], list[int], dict[tuple[str, tuple[int, ...]], list[str]]]:
    """The White-major numbering of wild 4 by brute force: White's ranks in side
    id order with the pairs before each, and Black's ranks of each key in order."""
    ranks = sorted(wild3_ranks(), key=word_id)
    blacks: dict[tuple[str, tuple[int, ...]], list[str]] = defaultdict(list)
    for rank in ranks:
        blacks[fics4_key(rank, 7)].append(rank)
    before = [0]
    for rank in ranks:
        before.append(before[-1] + len(blacks[fics4_key(rank, 0)]))
    return ranks, before, blacks


def brute_pair_id(white: str, black: str) -> int:
    _, before, blacks = wild4_numbering()
    fitting = blacks[fics4_key(white, 0)]
    at = bisect_left(fitting, word_id(black), key=word_id)
    assert fitting[at] == black
    return before[word_id(white)] + at


@pytest.fixture(scope="module")
def wild3() -> Family:
    return Family.load("wild3")


@pytest.fixture(scope="module")
def wild4() -> Family:
    return Family.load("wild4")


# -- wild 3 ---------------------------------------------------------------------------


@pytest.mark.slow
def test_wild3_is_the_servers_set_in_its_own_order(wild3: Family) -> None:
    every = wild3_ranks()
    assert len(every) == len(set(every)) == wild3.count == 8 * 4 ** 7 == 131_072
    assert wild3.ranks() == sorted(every, key=word_id)  # one walk of the arithmetic


@settings(max_examples=examples(100, 1000))
@given(st.integers(0, 131_071))
def test_wild3_ids_both_ways(wild3: Family, number: int) -> None:
    rank = wild3.rank_of(number)
    assert word_id(rank) == number
    assert wild3.read(rank).id == number
    position = wild3.position(number)
    rows = position_fen(position).split()[0].split("/")
    assert rows[0] == rank.lower() and rows[7] == rank  # Black mirrors White, file by file
    assert wild3.read(position_fen(position)).id == number


def test_wild3_published_examples(wild3: Family) -> None:
    assert wild3.read("RNBQKBNR").id == 74194  # rules/README.md's worked id
    assert wild3.position(0).white == "KNNNNNNN"
    assert wild3.position(131_071).white == "QQQQQQQK"


@pytest.mark.parametrize(("text", "reason"), [
    ("RNBQKBNK", "it has 2 kings"),
    ("RNBQABNR", "A is not in the army"),
])
def test_wild3_refuses_another_army(wild3: Family, text: str, reason: str) -> None:
    with pytest.raises(ArmyError) as caught:
        wild3.read(text)
    assert caught.value.reason == reason
    assert str(caught.value) == (f"'{text}' is not a wild3 rank: {reason} "
                                 "(the army is K + 7 of NBRQ)")


# -- wild 4 ---------------------------------------------------------------------------


@pytest.mark.slow
def test_wild4_count_is_the_servers() -> None:
    whites = Counter(fics4_key(r, 0) for r in wild3_ranks())
    blacks = Counter(fics4_key(r, 7) for r in wild3_ranks())
    pairs = sum(n * blacks[key] for key, n in whites.items())
    assert pairs == 149_320_544 == Family.load("wild4").count


@settings(max_examples=examples(60, 600))
@given(st.integers(0, 149_320_543))
def test_wild4_ids_both_ways(wild4: Family, number: int) -> None:
    position = wild4.position(number)
    assert fics_fits(position.white, position.black)
    assert wild4.read(f"{position.white} {position.black.lower()}").id == number
    rows = position_fen(position).split()[0].split("/")
    assert rows[0] == position.black.lower() and rows[7] == position.white
    assert wild4.read(position_fen(position)).id == number


@pytest.mark.slow
@settings(max_examples=examples(100, 1000))
@given(st.integers(0, 149_320_543))
def test_wild4_ids_are_the_white_major_brute_force(wild4: Family, number: int) -> None:
    position = wild4.position(number)
    assert brute_pair_id(position.white, position.black) == number


def test_wild4_ends_and_a_standard_start(wild4: Family) -> None:
    assert (wild4.position(0).white, wild4.position(0).black) == ("KNNNNNNN", "KNNNNNNN")
    last = wild4.position(149_320_543)
    assert (last.white, last.black) == ("QQQQQQQK", "QQQQQQQK")
    assert wild4.read("RNBQKBNR bbnnrqkr").id == 84405813  # (brute force: the slow run)


def test_wild4_refuses_pairs_the_server_never_makes(wild4: Family) -> None:
    # the same pieces, but both Black bishops on light squares (a8, c8)
    white, black = "RNBQKBNR", "BNBRQKNR"
    assert not fics_fits(white, black)
    with pytest.raises(LinkError) as caught:
        wild4.read(f"{white} {black.lower()}")
    assert "same-colours B" in str(caught.value)
    with pytest.raises(LinkError, match="same-army"):
        wild4.read("RNBQKBNR rnbqkbnq")


def test_wild4_has_no_black_major_numbering(wild4: Family) -> None:
    assert "black-major" not in wild4.schemes  # a link is no product of sides


@pytest.mark.slow
@pytest.mark.parametrize(("name", "count"), [("wild3", 131_072), ("wild4", 149_320_544)])
def test_check_proves_them(name: str, count: int) -> None:
    report = check(Family.load(name))
    assert report.ok and report.found == count, report.claims


# -- the rule language -----------------------------------------------------------------

HEAD = 'name = "my"\ntitle = "t"\nsource = "s"\nfiles = 8\ncount = 0\n'


@pytest.mark.parametrize(("body", "message"), [
    ('pieces = "K + 7 of NBRQ"\n[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n',
     "rule[1].pieces: 'BB' names B, drawn from the pool in varying numbers (K + 7 of NBRQ); "
     "rules may name only the fixed pieces K"),
    ('pieces = "K + 7 of NBRQ"\n[[rule]]\nkind = "pawns-protected"\n',
     "rule[1].kind: pawns-protected reads every square of the rank, whose pieces vary "
     "(K + 7 of NBRQ); rules may name only the fixed pieces K"),
    ('pieces = "KR + 6 of NBRQ"\n',
     "pieces: 'KR + 6 of NBRQ' has R both fixed and in the pool, so a rank would be read two "
     "ways; write it once"),
    ('pieces = "K + 6 of NBRQ"\n', "pieces: 'K + 6 of NBRQ' has 7 pieces for 8 files"),
    ('pieces = "K + 7 of N"\n', "pieces: 'K + 7 of N' has a pool of one letter"),
    ('pieces = "K + 7 of NBRQ"\nlink = ["same-army"]\n', "link: a link ties two ranks of "
     "their own: it needs sides = 'independent'"),
    ('pieces = "KQRRBBNN"\nsides = "independent"\nlink = ["same-army"]\n',
     "link: a link ties the sides of an army that varies"),
    ('pieces = "K + 7 of NBRQ"\nsides = "independent"\nlink = ["same-colours B"]\n',
     "link: a link needs 'same-army'"),
    ('pieces = "K + 7 of NBRQ"\nsides = "independent"\nlink = ["same-army", "same-colours K"]\n',
     "link[2]: 'same-colours K': same-colours names one piece of the pool NBRQ"),
])
def test_the_reader_names_what_an_army_cannot_do(body: str, message: str) -> None:
    with pytest.raises(RuleFileError) as caught:
        parse(HEAD + body, "my.toml")
    assert f"my.toml: {message}" in str(caught.value)


def test_the_readme_documents_the_refusals() -> None:
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    for body in [
        'pieces = "K + 7 of NBRQ"\n[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n',
        'pieces = "K + 7 of NBRQ"\n[[rule]]\nkind = "pawns-protected"\n',
        'pieces = "KR + 6 of NBRQ"\n',
    ]:
        with pytest.raises(RuleFileError) as caught:
            parse(HEAD + body, "my.toml")
        assert f"error: {caught.value}" in text, body


def test_the_readme_example_is_wild3() -> None:
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- armies-example.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert block is not None
    family = Family(parse(block.group(1), "example.toml"))
    wild3 = Family.load("wild3")
    assert family.count == wild3.count == 131_072
    for number in (0, 74194, 99_999, 131_071):
        assert family.rank_of(number) == wild3.rank_of(number)


def test_rules_on_fixed_pieces_still_hold() -> None:
    body = ('pieces = "K + 7 of NBRQ"\n[[rule]]\nkind = "on-files"\npiece = "K"\n'
            'files = "bg"\n')
    family = Family(parse(HEAD + body, "my.toml"))
    assert family.count == 2 * 4 ** 7
    assert family.rank_of(0) == "NKNNNNNN" and family.rank_of(2 * 4 ** 7 - 1) == "QQQQQQKQ"
    with pytest.raises(RuleViolationError, match="on-files"):
        family.read("KNNNNNNN")


def test_declared_letters_stand_in_a_fixed_white_army() -> None:
    text = (rules_dir() / "horde960.toml").read_text(encoding="utf-8")
    text = re.sub(r'white = ".*"', 'white = "DDDDDDDD/PPPPPPPP"', text)
    text += '\n[[piece]]\nletter = "D"\nname = "dragon"\n'
    family = Family(parse(text, "dragons.toml"))
    fen = position_fen(family.position(518))
    assert fen.startswith("rnbqkbnr/pppppppp/8/8/8/8/DDDDDDDD/PPPPPPPP w")
    assert family.read(fen).id == 518


def test_wild_fens_have_no_castling_rights(wild3: Family, wild4: Family) -> None:
    assert position_fen(wild3.position(74194)).split()[2] == "-"
    assert position_fen(wild4.position(84405197)).split()[2] == "-"


def test_linked_listing_streams_pairs_in_id_order() -> None:
    family = Family(parse('name = "small"\ntitle = "t"\nsource = "s"\nfiles = 5\n'
                          'count = 0\npieces = "K + 4 of NB"\nsides = "independent"\n'
                          'link = ["same-army", "same-colours B"]\n', "small.toml"))
    listed = list(family.numbered())
    assert len(listed) == family.count
    for number, white, black in listed:
        position = family.position(number)
        assert (number, position.white, position.black) == (number, white, black)


# -- any small army, against a brute force over every string of its letters -------------


@st.composite
def small_armies(draw: st.DrawFn) -> tuple[str, bool, str | None, str | None]:
    """A rule file's text for a small army that varies, whether it is linked,
    the linked piece, and the files the king may stand on."""
    files = draw(st.integers(4, 5))
    fixed = draw(st.sampled_from(["K", "KR", "KQ", "KRN"]))
    spare = [c for c in "QRBNAC" if c not in fixed]
    pool = "".join(draw(st.lists(st.sampled_from(spare), min_size=2, max_size=3, unique=True)))
    king = draw(st.one_of(st.none(), st.sampled_from(["ab", "bd", "ac"])))
    linked = draw(st.booleans())
    colour = draw(st.one_of(st.none(), st.sampled_from(pool))) if linked else None
    text = (f'name = "small"\ntitle = "t"\nsource = "s"\nfiles = {files}\ncount = 0\n'
            f'pieces = "{fixed} + {files - len(fixed)} of {pool}"\n')
    if linked:
        links = '"same-army"' + (f', "same-colours {colour}"' if colour else "")
        text += f'sides = "independent"\nlink = [{links}]\n'
    if king:
        text += f'[[rule]]\nkind = "on-files"\npiece = "K"\nfiles = "{king}"\n'
    return text, linked, colour, king


def brute_ranks(fixed: str, pool: str, files: int, king: str | None) -> list[str]:
    out = []
    for row in product(sorted(set(fixed + pool)), repeat=files):
        rank = "".join(row)
        rest = list(rank)
        try:
            for letter in fixed:
                rest.remove(letter)
        except ValueError:
            continue
        if all(p in pool for p in rest) and (king is None or "abcdef"[rank.index("K")] in king):
            out.append(rank)
    return out


@settings(max_examples=examples(6, 300))
@given(small_armies())
def test_small_armies_are_their_brute_force(case: tuple[str, bool, str | None, str | None]
                                            ) -> None:
    text, linked, colour, king = case
    family = Family(parse(text, "small.toml"))
    army = family.ruleset.army
    assert army is not None
    every = brute_ranks(army.fixed, army.pool, family.ruleset.files, king)
    side = [family.rank_of(i) for i in range(family.side_count)]
    assert sorted(side) == sorted(every) and len(set(side)) == len(side)
    assert [family.rank_id(r) for r in side] == list(range(len(side)))
    # within a frame, words follow in dictionary order of the pool as written
    for a, b in pairwise(side):
        frame_a = [p if p in army.fixed else "." for p in a]
        if frame_a == [p if p in army.fixed else "." for p in b]:
            words = ["".join(p for p in r if p not in army.fixed) for r in (a, b)]
            assert [[army.pool.index(p) for p in w] for w in words] == sorted(
                [[army.pool.index(p) for p in w] for w in words])
    if not linked:
        assert family.count == len(every)
        return

    def fits(white: str, black: str) -> bool:
        dark = [sum(1 for f, p in enumerate(r) if p == colour and f % 2 == 0)
                for r in (white, black)]
        return sorted(white) == sorted(black) and (colour is None or dark[0] == dark[1])

    pairs = [(w, b) for w in side for b in side if fits(w, b)]  # White-major, side order
    assert family.count == len(pairs)
    for number in sorted({0, len(pairs) // 3, len(pairs) // 2, len(pairs) - 1}):
        position = family.position(number)
        assert (position.white, position.black) == pairs[number]
        assert family.read(f"{position.white} {position.black.lower()}").id == number


@pytest.mark.slow
def test_fixed_pieces_under_a_filling_step_and_a_link() -> None:
    """``KRR + 5 of NBQ``, the king between the rooks (steps ``RKR``: the pool's
    squares are placed before the filling step), linked as wild 4."""
    family = Family(parse('name = "krr"\ntitle = "t"\nsource = "s"\nfiles = 8\ncount = 0\n'
                          'pieces = "KRR + 5 of NBQ"\nsides = "independent"\n'
                          'link = ["same-army", "same-colours B"]\n[[rule]]\nkind = "between"\n'
                          'piece = "K"\npair = "RR"\n[numbering]\nsteps = ["RKR"]\n', "krr.toml"))
    assert family.ruleset.numbering == "arithmetic"
    ranks = [r for r in ("".join(row) for row in product("KRNBQ", repeat=8))
             if r.count("K") == 1 and r.count("R") == 2
             and r.index("R") < r.index("K") < r.rindex("R")]
    assert sorted(family.ranks()) == sorted(ranks)
    classes = Counter((tuple(sorted(r)), sum(1 for f, p in enumerate(r) if p == "B" and f % 2 == 0))
                      for r in ranks)
    assert family.count == sum(n * n for n in classes.values()) == 6_927_776
    assert check(family).found == 6_927_776
