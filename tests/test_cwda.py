"""Chess with Different Armies (issue 38, items 1 and 5): armies of the sides'
own (``[[army]]``, ``pairings``), and letters per family: a family may give a
built-in letter (``A``, ``C``, ...) a piece of its own.

The CWDA golden data is pychess-variants' own code, transcribed below
(:data:`PYCHESS_ARMIES`, :func:`pychess_start_fen`, :data:`CWDA_START_FENS`),
not the code under test.

pychess-variants writes Chess with Different Armies' Colorbound Clobberers
with ``a`` for the FAD and ``c`` for the cardinal (bishop + knight), where this
project's built-in ``A`` is the archbishop and ``C`` the chancellor
(pychess-variants ``server/fairy/cwda.py``, ``CWDA_FAIRY_PIECES``:
``("FAD", "a", "FAD")``, ``("Cardinal", "c", "BN")``).

The brute force below counts from the pieces' moves as Betza writes them,
not from the code under test: a piece on file f of rank 1 defends a pawn on
file g of rank 2 when one of its moves goes from (f, 1) to (g, 2).
"""

from __future__ import annotations

import re
from functools import cache
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver import Family, RuleFileError
from solver.check import check
from solver.errors import ArmyError, LinkError
from solver.ruleset.reader import parse, rules_dir

HEAD = 'name = "my"\ntitle = "t"\nsource = "s"\nfiles = 8\ncount = 1\n'

#: One step forward from rank 1 to rank 2 of each move, by the files it crosses
#: (Betza's atoms: W (1,0), F (1,1), N (2,1); riders R, B reach rank 2 in one step).
_STEPS = {"W": {0}, "F": {1}, "N": {2}, "R": {0}, "B": {1}, "K": {0, 1}, "Q": {0, 1}}


def _defends(betza: str) -> set[int]:
    """The files away from which a piece of these atoms defends a pawn one rank ahead."""
    return set().union(*(_STEPS[atom] for atom in betza))


def _brute_count(pieces: str, moves: dict[str, str]) -> int:
    """Arrangements of ``pieces`` on rank 1 whose every pawn on rank 2 is defended."""
    return _counted(pieces, tuple(sorted(moves.items())))


@cache
def _counted(pieces: str, pairs: tuple[tuple[str, str], ...]) -> int:
    moves = dict(pairs)
    count = 0
    for rank in set(permutations(pieces)):
        reach = [_defends(moves[p]) for p in rank]
        if all(any(abs(f - g) in reach[f] for f in range(8)) for g in range(8)):
            count += 1
    return count


_CHESS = {"K": "K", "Q": "Q", "R": "R", "B": "B", "N": "N"}


def _example() -> str:
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- letters-example.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert block is not None
    return block.group(1)


def test_a_declared_c_is_the_familys_cardinal() -> None:
    """rules/README.md's example: C declared a cardinal (BN) counts as the
    brute force from the cardinal's moves, not the chancellor's (RN)."""
    body = _example()
    family = Family(parse(HEAD + body, "my.toml"))
    cardinal = _brute_count("KCRRBBNN", {**_CHESS, "C": "BN"})
    chancellor = _brute_count("KCRRBBNN", {**_CHESS, "C": "RN"})
    assert cardinal != chancellor
    assert family.total() == cardinal
    assert family.names == {"C": "cardinal"}


def test_the_built_in_c_is_still_the_chancellor() -> None:
    body = _example().split("[[piece]]")[0] + '[[rule]]\nkind = "pawns-protected"\n'
    family = Family(parse(HEAD + body, "my.toml"))
    assert family.total() == _brute_count("KCRRBBNN", {**_CHESS, "C": "RN"})


def test_messages_name_the_familys_piece() -> None:
    body = 'pieces = "KARRBBNN"\n[[piece]]\nletter = "A"\nname = "fad"\nbetza = "FAD"\n'
    family = Family(parse(HEAD + body, "my.toml"))
    with pytest.raises(ValueError, match="fads"):
        family.validate("KAARBBNN")


def test_a_declared_letter_needs_its_moves_for_pawns_protected() -> None:
    body = ('pieces = "KARRBBNN"\n[[piece]]\nletter = "A"\nname = "fad"\n'
            '[[rule]]\nkind = "pawns-protected"\n')
    with pytest.raises(RuleFileError, match="how the fad 'A' captures"):
        parse(HEAD + body, "my.toml")


@pytest.mark.parametrize("letter", ["K", "P", "k"])
def test_the_king_and_the_pawn_keep_their_letters(letter: str) -> None:
    body = f'pieces = "KQRRBBNN"\n[[piece]]\nletter = "{letter}"\nname = "x"\n'
    with pytest.raises(RuleFileError, match=r"piece\[1\]\.letter: .* every family keeps"):
        parse(HEAD + body, "my.toml")


def test_unknown_letters_are_listed_once() -> None:
    body = 'pieces = "KCRRBBNX"\n[[piece]]\nletter = "C"\nname = "cardinal"\n'
    with pytest.raises(RuleFileError, match=r"pieces are KQRBNAC$"):
        parse(HEAD + body, "my.toml")


# -- Chess with Different Armies, from pychess-variants' definition ------------------------

#: pychess-variants server/fairy/cwda.py (commit 2b5bb29), lines 22-27:
#:   FIDE = Army("FIDE", "rnbqkbnr", "rnbq", "r")
#:   COLORBOUND_CLOBBERERS = Army("Colorbound Clobberers", "dwackawd", "dwac", "d")
#:   NUTTY_KNIGHTS = Army("Nutty Knights", "gihokhig", "giho", "g")
#:   REMARKABLE_ROOKIES = Army("Remarkable Rookies", "smfekfms", "smfe", "s")
#:   CWDA_ARMIES = (FIDE, COLORBOUND_CLOBBERERS, NUTTY_KNIGHTS, REMARKABLE_ROOKIES)
#: as (name, back_rank, castling_rook).
PYCHESS_ARMIES = (("FIDE", "rnbqkbnr", "r"), ("Colorbound Clobberers", "dwackawd", "d"),
                  ("Nutty Knights", "gihokhig", "g"), ("Remarkable Rookies", "smfekfms", "s"))
FIDE = PYCHESS_ARMIES[0]


def pychess_start_fen(white: tuple[str, str, str], black: tuple[str, str, str]) -> str:
    """pychess's ``cwda_start_fen`` (line 76)."""
    return f"{black[1]}/pppppppp/8/8/8/8/PPPPPPPP/{white[1].upper()} w KQkq - 0 1"


#: pychess's ``CWDA_START_FENS`` (lines 80-86): "FIDE vs. FIDE is ordinary Chess,
#: so it is intentionally not offered here."
CWDA_START_FENS = tuple(
    pychess_start_fen(white, black)
    for white in PYCHESS_ARMIES
    for black in PYCHESS_ARMIES
    if white is not FIDE or black is not FIDE
)

#: pychess's CWDA_FAIRY_PIECES (lines 30-58): letter, name, Betza.
PYCHESS_PIECES = {"d": ("Bede", "BD"), "w": ("Waffle", "WA"), "a": ("FAD", "FAD"),
                  "c": ("Cardinal", "BN"), "g": ("Charging rook", "fsRbK"),
                  "i": ("Fibnif", "FvN"), "h": ("Charging knight", "fhNbKsW"),
                  "o": ("Colonel", "KfsRfhN"), "s": ("Short rook", "R4"),
                  "m": ("Woody rook", "WD"), "f": ("Half duck", "FDH"),
                  "e": ("Chancellor", "RN")}


@pytest.fixture(scope="module")
def cwda() -> Family:
    return Family.load("cwda")


def test_cwda_counts_pychess_pairings(cwda: Family) -> None:
    assert cwda.count == len(CWDA_START_FENS) == 4 * 4 - 1
    assert len(set(CWDA_START_FENS)) == 15


def test_cwda_reads_and_writes_pychess_fens_in_pychess_order(cwda: Family) -> None:
    for number, fen in enumerate(CWDA_START_FENS):
        assert cwda.id(fen) == number
        assert cwda.position(number).fen() == fen  # written back as pychess writes it
        black, *_, white = fen.split()[0].split("/")
        assert cwda.id(f"{white} {black}") == number
        shredder = cwda.position(number).fen("shredder")
        assert shredder.split()[2] == "HAha" and cwda.id(shredder) == number


def test_cwda_castles_with_each_armys_corner_piece(cwda: Family) -> None:
    """Every pairing is KQkq: each king castles with its army's castling_rook."""
    for name, rank, rook in PYCHESS_ARMIES:
        assert rank[0] == rank[-1] == rook and rank[4] == "k", name
    wrong = CWDA_START_FENS[1].replace("KQkq", "KQk")  # FIDE against the Nutty Knights
    with pytest.raises(ValueError, match="right to castle with the a8 rook is missing"):
        cwda.id(wrong)


def test_cwda_refuses_fide_against_fide_and_other_ranks(cwda: Family) -> None:
    with pytest.raises(LinkError, match="the fide army does not meet the fide army"):
        cwda.id("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    with pytest.raises(ArmyError, match="stand as no army's"):
        cwda.id("RNBQKBNR dwackadw")


def test_cwda_declares_pychess_pieces(cwda: Family) -> None:
    names = cwda.names
    assert set(names) == {c.upper() for c in PYCHESS_PIECES}
    for letter, (name, _) in PYCHESS_PIECES.items():
        assert names[letter.upper()] == name.lower()
    betza = (rules_dir() / "cwda.toml").read_text(encoding="utf-8")
    for letter, (_, moves) in PYCHESS_PIECES.items():  # as pychess, fh written f, FvN left out
        mine = moves.replace("fh", "f")
        assert (f'betza = "{mine}"' in betza) == (letter != "i"), letter


def test_cwda_is_proven_by_check(cwda: Family) -> None:
    report = check(cwda)
    assert report.ok and report.found == 15


def test_cwda_by_the_command() -> None:
    from inprocess import chess960

    done = chess960(["id", CWDA_START_FENS[7], "--rules", "cwda"])
    assert (done.stdout, done.stderr, done.returncode) == ("7\n", "", 0)
    done = chess960(["position", "14", "--rules", "cwda", "--format", "fen"])
    assert (done.stdout, done.returncode) == (CWDA_START_FENS[14] + "\n", 0)


def test_cwda_in_pychess_dialect_is_pychess_own_start_fens() -> None:
    """pychess-variants writes its CWDA starts ``KQkq`` (``cwda_start_fen``), not
    with the rooks' files as its shuffles (``pychess-castling = "xfen"``); the
    FENs, EPD lines and PGN tags it writes are read back."""
    from inprocess import chess960

    ids = "\n".join(str(n) for n in range(15)) + "\n"
    done = chess960(["position", "-", "-r", "cwda", "-f", "fen", "--dialect", "pychess"], stdin=ids)
    assert (done.stdout, done.returncode) == ("".join(f + "\n" for f in CWDA_START_FENS), 0)
    epd = chess960(["position", "-", "-r", "cwda", "-f", "epd", "--dialect", "pychess"], stdin=ids)
    assert [" ".join(line.split()[:4]) for line in epd.stdout.splitlines()] == [
        " ".join(f.split()[:4]) for f in CWDA_START_FENS]
    pgn = chess960(["position", "-", "-r", "cwda", "-f", "pgn", "--dialect", "pychess"], stdin=ids)
    assert re.findall(r'\[FEN "([^"]*)"\]', pgn.stdout) == list(CWDA_START_FENS)
    back = chess960(["id", "-", "-r", "cwda", "--dialect", "pychess"], stdin=done.stdout)
    assert back.stdout == ids
    other = chess960(["position", "5", "-r", "chess960", "-f", "fen", "--dialect", "pychess"])
    rank = other.stdout.split()[0].split("/")[-1]
    rooks = "".join(chr(ord("a") + f) for f, piece in enumerate(rank) if piece == "R")
    assert other.stdout.split()[2] == rooks.upper() + rooks  # a shuffle: files, a-side first


def test_pychess_castling_takes_files_or_xfen() -> None:
    text = (rules_dir() / "cwda.toml").read_text(encoding="utf-8")
    assert 'pychess-castling = "xfen"' in text
    with pytest.raises(RuleFileError, match=r"pychess-castling.*expected 'files' or 'xfen', "
                                            r"got 'KQkq'"):
        parse(text.replace('pychess-castling = "xfen"', 'pychess-castling = "KQkq"'),
              "cwda.toml")


def test_the_readme_example_is_part_of_cwda(cwda: Family) -> None:
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- cwda-example.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert block is not None
    two = Family(parse(block.group(1), "example.toml"))
    assert two.count == 3
    wanted = [f for f in CWDA_START_FENS if set(f.split()[0].lower()) <= set("rnbqkdwacp/8")]
    assert [p.fen() for p in two.positions()] == wanted
    assert all(two.id(fen) == n for n, fen in enumerate(wanted))


def test_armies_pair_every_army_by_default() -> None:
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- cwda-example.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert block is not None
    body = re.sub(r"pairings = .*\n", "", block.group(1)).replace("count = 3", "count = 4")
    family = Family(parse(body, "all.toml"))
    ranks = [(p.white, p.black) for p in family.positions()]
    assert ranks == [(w, b) for w in ("RNBQKBNR", "DWACKAWD") for b in ("RNBQKBNR", "DWACKAWD")]
    assert family.side_count == 2 and family.pair(1, 0).id == 2


_ARMIES = ('files = 8\nsides = "independent"\ncount = 2\n'
           '[[army]]\nname = "fide"\npieces = "RNBQKBNR"\n'
           '[[army]]\nname = "rooks"\npieces = "SNBQKBNS"\ncastles-with = "S"\n'
           '[[piece]]\nletter = "S"\nname = "short rook"\n')


@pytest.mark.parametrize(("change", "key", "message"), [
    (('sides = "independent"\n', ""), "army", "need sides = 'independent'"),
    (("count = 2\n", 'count = 2\npieces = "KQRRBBNN"\n'), "pieces", "is not read with armies"),
    (("count = 2\n", 'count = 2\npairings = ["fide rooks", "fide rooks"]\n'), "pairings[2]",
     "is given twice"),
    (("count = 2\n", 'count = 2\npairings = ["fide rookies"]\n'), "pairings[1]",
     "did you mean 'rooks'"),
    (("count = 2\n", 'count = 2\npairings = ["fide"]\n'), "pairings[1]",
     "is not two armies' names"),
    (('castles-with = "S"', 'castles-with = "X"'), "army[2].castles-with", "is not one piece"),
    (('"SNBQKBNS"', '"RNBQKBNR"'), "army[2].pieces", "is army 'fide''s rank too"),
    (('"SNBQKBNS"', '"SNBQKBNR"'), "army", "the piece army 'fide' castles with"),
    (('name = "rooks"', 'name = "Rooks!"'), "army[2].name", "is not an army's name"),
    (('"SNBQKBNS"', '"SNBQKBN"'), "army[2].pieces", "is not a rank of 8 pieces"),
])
def test_armies_refuse_what_they_cannot_read(change: tuple[str, str], key: str,
                                             message: str) -> None:
    text = _ARMIES.replace(*change)
    with pytest.raises(RuleFileError) as caught:
        parse(HEAD.replace("files = 8\ncount = 1\n", "") + text, "my.toml")
    assert f"my.toml: {key}: " in str(caught.value) and message in str(caught.value)


def test_pairings_need_armies() -> None:
    with pytest.raises(RuleFileError, match="pairings: pairings name armies"):
        parse(HEAD + 'pieces = "KQRRBBNN"\npairings = ["a b"]\n', "my.toml")


def test_lint_with_the_family_passes_pychess_fens() -> None:
    from inprocess import chess960

    done = chess960(["lint", "-r", "cwda", "-"], stdin="\n".join(CWDA_START_FENS) + "\n")
    assert done.returncode == 0, done.stderr
    assert "15 start positions, 0 problems" in done.stderr + done.stdout


#: Letters for random armies: a king, rooks and pieces of a family's own.
_LETTERS = "RNBQDWGS"


@st.composite
def _armies(draw: st.DrawFn) -> tuple[list[str], list[tuple[int, int]]]:
    """Distinct ranks of 6 files, each a king and five letters of :data:`_LETTERS`,
    and the pairings among them, in an order of their own."""
    ranks = draw(st.lists(st.tuples(st.integers(0, 5), st.text(_LETTERS, min_size=5,
                                                                    max_size=5)),
                          min_size=1, max_size=4))
    found = list(dict.fromkeys(rest[:king] + "K" + rest[king:] for king, rest in ranks))
    every = [(w, b) for w in range(len(found)) for b in range(len(found))]
    pairs = draw(st.permutations(every))
    return found, pairs[:draw(st.integers(1, len(pairs)))]


@settings(max_examples=examples(25, most=300), deadline=None)
@given(_armies())
def test_any_armies_number_their_pairings_both_ways(made: tuple[list[str],
                                                               list[tuple[int, int]]]) -> None:
    """Each pairing's position is its place in ``pairings``; its FEN and its pair
    of ranks read back to it; every other pair of armies is refused."""
    ranks, pairs = made
    names = [f"army{i}" for i in range(len(ranks))]
    text = ('name = "armies"\ntitle = "t"\nsource = "s"\nfiles = 6\nsides = "independent"\n'
            f"count = {len(pairs)}\npairings = [" +
            ", ".join(f'"{names[w]} {names[b]}"' for w, b in pairs) + "]\n")
    text += "".join(f'[[army]]\nname = "{n}"\npieces = "{r}"\n'
                    for n, r in zip(names, ranks, strict=True))
    text += "".join(f'[[piece]]\nletter = "{x}"\nname = "piece {x.lower()}"\n' for x in "DWGS")
    family = Family(parse(text, "armies.toml"))
    assert family.count == len(pairs) and family.side_count == len(ranks)
    for number, (w, b) in enumerate(pairs):
        position = family.position(number)
        assert (position.white, position.black) == (ranks[w], ranks[b])
        assert family.id(position.fen()) == number
        assert family.id(f"{ranks[w]} {ranks[b].lower()}") == number
    for w, b in {(w, b) for w in range(len(ranks)) for b in range(len(ranks))} - set(pairs):
        with pytest.raises(LinkError):
            family.id(f"{ranks[w]} {ranks[b].lower()}")


#: Fairy-Stockfish's variant configuration of pychess's armies (its pieces'
#: Betza strings from CWDA_FAIRY_PIECES, the kings castling with ``rdgs``, as
#: pychess's ``castling_rook`` says): an oracle for the castling field.
_FSF_CONFIG = "[cwdaoracle:chess]\n" + "".join(
    f"customPiece{i} = {letter}:{moves}\n"
    for i, (letter, (_, moves)) in enumerate(PYCHESS_PIECES.items(), 1)
) + "castlingRookPieces = " + "".join(rook for _, _, rook in PYCHESS_ARMIES) + "\n"


def test_fairy_stockfish_reads_every_cwda_fen_as_written(cwda: Family) -> None:
    """pyffish, given pychess's armies, finds every FEN valid and writes it back
    unchanged: X-FEN as ours, its Chess960 form as our fsf dialect."""
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config(_FSF_CONFIG)
    for number in range(cwda.count):
        position = cwda.position(number)
        fen = position.fen()
        assert sf.validate_fen(fen, "cwdaoracle", False) == 1, fen
        assert sf.get_fen("cwdaoracle", fen, []) == fen
        assert sf.get_fen("cwdaoracle", fen, [], True) == position.fen("fsf")


def test_check_refutes_a_wrong_count() -> None:
    text = (rules_dir() / "cwda.toml").read_text(encoding="utf-8").replace("count = 15",
                                                                          "count = 14")
    report = check(Family(parse(text, "cwda14.toml")))
    assert not report.ok
    assert [c.ok for c in report.claims if "declared count" in c.text] == [False]


# -- castles-with: a king castling with another piece than the rook -----------------------


def _castles_with_example() -> str:
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- castles-with-example.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert block is not None
    return block.group(1)


def test_castles_with_counts_and_writes_the_bedes_rights() -> None:
    """The Clobberers shuffled, the king between the bedes: as many as the
    arrangements of DWACKAWD with K between the D's (a brute force), each
    castling on both wings with its outermost bedes."""
    family = Family(parse(_castles_with_example(), "example.toml"))
    ranks = {"".join(p) for p in permutations("DWACKAWD")}
    between = sorted(r for r in ranks if r.index("D") < r.index("K") < r.rindex("D"))
    assert family.count == len(between) == 1680
    for number in (0, 1, 839, 1679):
        position = family.position(number)
        rank = position.white
        assert position.fen().split()[2] == "KQkq"
        files = "abcdefgh"
        assert position.fen("shredder").split()[2] == (
            files[rank.rindex("D")].upper() + files[rank.index("D")].upper()
            + files[rank.rindex("D")] + files[rank.index("D")])
        assert family.id(position.fen("shredder")) == number


def test_fairy_stockfish_castles_with_the_bede() -> None:
    """Fairy-Stockfish, told the bede is the castling piece (castlingRookPieces),
    takes every FEN as written, in Chess960 mode."""
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config("[clob960:chess]\nchess960 = true\ncustomPiece1 = d:BD\n"
                           "customPiece2 = w:WA\ncustomPiece3 = a:FAD\ncustomPiece4 = c:BN\n"
                           "castlingRookPieces = d\n")
    family = Family(parse(_castles_with_example(), "example.toml"))
    for number in range(0, family.count, 97):
        position = family.position(number)
        for fen in (position.fen(), position.fen("shredder")):
            assert sf.validate_fen(fen, "clob960", True) == 1, fen
            assert sf.get_fen("clob960", fen, [], True) == position.fen("shredder")


@pytest.mark.parametrize(("value", "message"), [
    ('"K"', "expected one piece letter other than the king"),
    ('"DD"', "expected one piece letter"), ("3", "expected one piece letter"),
    ('"Q"', "'Q' is not one of the pieces DWACKAWD"),
])
def test_castles_with_refuses(value: str, message: str) -> None:
    text = _castles_with_example().replace('castles-with = "D"', f"castles-with = {value}")
    with pytest.raises(RuleFileError, match="castles-with: " + re.escape(message)):
        parse(text, "my.toml")


def test_which_finds_cwda_by_fen_pair_and_rank() -> None:
    from solver import which

    for text, number in [(CWDA_START_FENS[0], 0), ("SMFEKFMS dwackawd", 12),
                         ("GIHOKHIG", 9)]:  # (a single rank: both sides that army)
        found = {m.family: m for m in which(text).families}
        assert "cwda" in found and found["cwda"].id == number, text


def test_a_miscounted_piece_is_named_as_the_family_names_it_where_it_stands() -> None:
    """Janggi's A is its guard; a third one stands on h3, the region's twelfth square."""
    with pytest.raises(ValueError, match=r"has 3 guards \(d1, f1, h3\), expected 2"):
        Family.load("janggi").id("RNBA.ANBR K CA PPPPP rnba.anbr k cc ppppp")
