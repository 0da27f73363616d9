"""FEN dialects and variants, and PGN ``Variant`` tags, against the programs themselves.

Oracles (test-only, GPL, skipped when not installed): pyffish
(Fairy-Stockfish), python-chess (lichess's forms and its PGN reader), and
pychess-variants' own start-position code (``FairyBoard.shuffle_start`` in
``server/fairy/fairy_board.py``, commit 37b7a729) copied below for fixed
ranks.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from profiles import sample
from typer.testing import CliRunner

from solver.cli.app import app
from solver.errors import DialectError, RuleFileError
from solver.family import Family
from solver.notation.dialects import VARIANTS, start_fen
from solver.notation.fen import position_fen
from solver.output import PositionWriter
from solver.ruleset.reader import bundled_names, load, rules_dir

runner = CliRunner()
CHESS960 = Family.load("chess960")
RANKS = [CHESS960.position(i).white for i in range(960)]
EIGHT_FILE = [v for v in VARIANTS if v != "capablanca"]
FILES = "abcdefghij"


def pychess_shuffle_start(variant: str, rank8: str) -> str:
    """pychess-variants' ``shuffle_start`` with its random rank fixed to ``rank8``."""
    seirawan = variant == "seirawan"
    if seirawan:
        castl = ("kq" + FILES[rank8.index("b")] + FILES[rank8.rindex("b")]
                 + FILES[rank8.index("q")] + FILES[rank8.index("n")] + FILES[rank8.rindex("n")])
    else:
        castl = FILES[rank8.index("r")] + FILES[rank8.rindex("r")]
    width = len(rank8)
    body = f"/{'p' * width}/{width}/{width}/{width}/{width}/{'P' * width}/"
    if variant in ("crazyhouse", "capahouse", "bughouse"):
        holdings = "[]"
    elif seirawan:
        holdings = "[HEhe]"
    else:
        holdings = ""
    checks = "3+3 " if variant == "3check" else ""
    if variant == "horde":
        fen = (rank8 + "/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP"
               + " w " + castl + " - " + "0 1")
    elif variant == "antichess":
        fen = rank8 + body + rank8.upper() + " w - - 0 1"
    else:
        fen = (rank8 + body + rank8.upper() + holdings + " w " + castl.upper() + castl
               + " - " + checks + "0 1")
    if variant == "bughouse":
        return fen + " | " + fen
    return fen


@pytest.mark.slow  # 960 ids by 10 variants through pyffish; CI's oracle step runs it
@pytest.mark.parametrize("variant", EIGHT_FILE)
def test_fsf_form_is_fairy_stockfish_s_own_for_every_chess960_id(variant: str) -> None:
    sf = pytest.importorskip("pyffish")
    for number, rank in enumerate(RANKS):
        ours = start_fen(rank, variant=variant, dialect="fsf")
        assert sf.get_fen(variant, ours, [], True) == ours
        if number % 8 == 0:  # each pyffish call takes milliseconds
            assert sf.validate_fen(ours, variant, True) == 1
            # FSF's normal form of the same start as another program writes it.
            other = pychess_shuffle_start(variant, rank.lower()).split(" | ")[0]
            assert sf.get_fen(variant, other, [], True) == ours


@pytest.mark.slow  # every position of a 48,000 family through pyffish; CI's oracle step
def test_fsf_form_for_capablanca_random() -> None:
    sf = pytest.importorskip("pyffish")
    family = Family.load("capablanca-random")
    for number in range(0, 48_000, 97):
        rank = family.position(number).white
        ours = start_fen(rank, variant="capablanca", dialect="fsf")
        assert sf.get_fen("capablanca", ours, [], True) == ours
        assert sf.get_fen("capablanca", start_fen(rank), [], True) == ours


@pytest.mark.parametrize("variant", [*EIGHT_FILE, "capablanca"])
def test_pychess_form_is_pychess_variants_own(variant: str) -> None:
    if variant == "capablanca":
        family = Family.load("capablanca-random")
        ranks = [family.position(i).white for i in range(0, 48_000, 97)]
    else:
        ranks = RANKS
    for rank in ranks:
        assert start_fen(rank, variant=variant, dialect="pychess") == pychess_shuffle_start(
            variant, rank.lower())


@pytest.mark.parametrize("variant", EIGHT_FILE)
def test_a_listing_in_pychess_form_is_pychess_variants_own(variant: str) -> None:
    """``solve -f fen --dialect pychess --variant V`` (a listing, written in
    bulk from each rank's parts) line by line against pychess-variants' code."""
    out = io.StringIO()
    with PositionWriter(out, CHESS960, "fen", dialect="pychess", variant=variant) as writer:
        writer.write_rows(CHESS960.numbered())
    assert out.getvalue().splitlines() == [pychess_shuffle_start(variant, rank.lower())
                                           for rank in RANKS]


LICHESS = ["chess", "crazyhouse", "atomic", "kingofthehill", "3check", "antichess", "horde"]


@pytest.mark.parametrize("variant", sample(LICHESS, 3))
def test_lichess_form_is_python_chess_s_own(variant: str) -> None:
    variants = pytest.importorskip("chess.variant")
    board_type = variants.find_variant(variant)
    for rank in RANKS:
        ours = start_fen(rank, variant=variant, dialect="lichess")
        board = board_type(ours, chess960=True)
        assert board.is_valid()
        assert board.fen() == ours


@pytest.mark.parametrize("variant", LICHESS[:-1])
def test_dfrc_pairs_in_bulk_in_lichess_form_are_python_chess_s_own(variant: str) -> None:
    """DFRC's pairs written in bulk (a white rank's block at a time) in
    python-chess's form: python-chess writes each FEN back as it is, with
    White's and Black's ranks where the pair puts them."""
    from solver.position import Pairs

    variants = pytest.importorskip("chess.variant")
    board_type = variants.find_variant(variant)
    ranks = RANKS[::48]
    out = io.StringIO()
    with PositionWriter(out, Family.load("dfrc"), "fen", dialect="lichess",
                        variant=variant) as writer:
        writer.write_rows(Pairs(ranks))
    lines = out.getvalue().splitlines()
    assert len(lines) == len(ranks) ** 2
    for number, line in enumerate(lines):
        board = board_type(line, chess960=True)
        assert board.is_valid() and board.fen() == line
        white, black = ranks[number // len(ranks)], ranks[number % len(ranks)]
        assert board.board_fen().split("/")[::7] == [black.lower(), white]


def test_xfen_and_shredder_are_today_s_fens() -> None:
    from solver.notation.fen import start_fen as plain

    for rank in RANKS:
        assert start_fen(rank) == plain(rank)
        assert start_fen(rank, dialect="shredder") == plain(rank, shredder=True)


@pytest.mark.parametrize(("variant", "dialect", "files", "message"), [
    ("seirawan", "lichess", 8, "lichess and python-chess do not play 'seirawan'"),
    ("bughouse", "lichess", 8, "do not play 'bughouse'"),
    ("capablanca", "fsf", 8, "variant 'capablanca' is played on 10 files, not 8"),
    ("horde", "fsf", 10, "variant 'horde' is played on 8 files, not 10"),
    ("racingkings", "fsf", 8, "unknown variant 'racingkings'"),
    ("chess", "uci", 8, "unknown dialect 'uci'"),
])
def test_what_cannot_be_written(variant: str, dialect: str, files: int, message: str) -> None:
    rank = "RNBQKBNR" if files == 8 else "RNBQABCNKR"
    with pytest.raises(DialectError, match=message):
        start_fen(rank, variant=variant, dialect=dialect)


def test_command_line_variants_and_dialects() -> None:
    result = runner.invoke(app, ["position", "105", "--variant", "crazyhouse",
                                 "--dialect", "fsf", "-f", "fen"])
    assert result.stdout == "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w HChc - 0 1\n"
    result = runner.invoke(app, ["position", "105", "--variant", "3check", "-f", "epd"])
    assert result.stdout == ('qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 3+3 '
                             'id "chess960 105";\n')
    result = runner.invoke(app, ["position", "0", "-r", "capablanca-random", "--variant",
                                 "horde", "-f", "fen"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "error: variant 'horde' is played on 8 files, not 10\n"


# -- PGN ------------------------------------------------------------------------------


def pgn(family: Family, ids: list[int], variant: str | None = None) -> str:
    out = io.StringIO()
    with PositionWriter(out, family, "pgn", variant=variant) as writer:
        for number in ids:
            writer.write(family.position(number))
    return out.getvalue()


EIGHT_FILE_FAMILIES = [n for n in bundled_names()
                       if load(n).files == 8 and load(n).layout.standard]


@pytest.mark.parametrize("name", sample(EIGHT_FILE_FAMILIES, 2))
def test_python_chess_reads_every_game_of_every_8_file_family(name: str) -> None:
    chess = pytest.importorskip("chess")
    pgn_module = pytest.importorskip("chess.pgn")
    family = Family.load(name)
    ids = list(range(family.count)) if family.count <= 1000 else list(
        range(0, family.count, max(1, family.count // 600)))
    stream = io.StringIO(pgn(family, ids))
    games = 0
    for number in ids:
        game = pgn_module.read_game(stream)
        assert game is not None and game.errors == []
        for key, value in (("Event", "?"), ("Site", "?"), ("Date", "????.??.??"),
                           ("Round", "?"), ("White", "?"), ("Black", "?"), ("Result", "*")):
            assert game.headers[key] == value
        board = game.board()
        position = family.position(number)
        expected = chess.Board(f"{position.black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/"
                               f"{position.white} w - - 0 1", chess960=True)
        assert board.board_fen() == expected.board_fen()
        # The same castling rooks as the brute force: the outermost rook on each
        # side of a king that stands between two rooks.
        want = 0
        for rank, row in ((position.white, 0), (position.black, 7)):
            king = rank.index("K")
            left = [f for f in range(king) if rank[f] == "R"]
            right = [f for f in range(king + 1, 8) if rank[f] == "R"]
            if left and right:
                want |= chess.BB_SQUARES[row * 8 + left[0]] | chess.BB_SQUARES[row * 8 + right[-1]]
        assert board.castling_rights == want
        games += 1
    assert pgn_module.read_game(stream) is None and games == len(ids)


def test_variant_tags() -> None:
    text = pgn(CHESS960, [518])
    assert '[Variant "Chess960"]' in text
    assert '[Variant "Chess960"]' in pgn(Family.load("dfrc"), [0])
    assert "[Variant" not in pgn(Family.load("chess324"), [0])
    shuffle = pgn(Family.load("king-between-rooks"), [0])
    assert "[Variant" not in shuffle and "{king-between-rooks: no variant name known" in shuffle
    assert '[Variant "caparandom"]' in pgn(Family.load("capablanca-random"), [0])
    assert "[Variant" not in pgn(Family.load("capablanca-shuffle"), [0])


@pytest.mark.parametrize(("variant", "board_name"), [
    ("crazyhouse", "CrazyhouseBoard"), ("atomic", "AtomicBoard"),
    ("kingofthehill", "KingOfTheHillBoard"), ("3check", "ThreeCheckBoard"),
    ("antichess", "AntichessBoard"), ("horde", "HordeBoard"),
])
def test_python_chess_reads_variant_games(variant: str, board_name: str) -> None:
    pgn_module = pytest.importorskip("chess.pgn")
    text = pgn(CHESS960, [105, 518], variant)
    stream = io.StringIO(text)
    for number in (105, 518):
        game = pgn_module.read_game(stream)
        assert game is not None and game.errors == []
        board = game.board()
        assert type(board).__name__ == board_name
        assert board.fen() == start_fen(RANKS[number], variant=variant, dialect="lichess")


def test_rule_file_text_cannot_escape_its_tag(tmp_path: Path) -> None:
    pgn_module = pytest.importorskip("chess.pgn")
    chess960 = (rules_dir() / "chess960.toml").read_text()
    # A newline never gets as far as PGN: the rule file is refused.
    newline = tmp_path / "newline.toml"
    newline.write_text(chess960.replace('variant = "Chess960"', 'variant = "x\\n[Evil \\"1"'))
    with pytest.raises(RuleFileError, match=r"variant: .* has a control character"):
        Family.load(str(newline))
    # A quote and a bracket never reach a tag either.
    path = tmp_path / "evil.toml"
    path.write_text(chess960.replace('variant = "Chess960"', 'variant = "x\\"] [Evil \\"1"'))
    text = pgn(Family.load(str(path)), [0, 1])
    game = pgn_module.read_game(io.StringIO(text))
    assert game is not None and "Evil" not in game.headers
    from solver.output.pgn import tag_value

    assert tag_value('x"]\n[Evil "1') == 'x\\"] [Evil \\"1'


def test_horde_variant_is_the_horde960_family() -> None:
    # `--variant horde` on Chess960 and the horde960 rule file (issue 10) are
    # one family: the same FEN for every id, read back to the same id.
    horde = Family.load("horde960")
    for number, rank in enumerate(RANKS):
        fen = start_fen(rank, variant="horde", dialect="lichess")
        assert fen == position_fen(horde.position(number))
        assert horde.identify(fen).id == number
