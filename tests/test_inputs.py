"""Inputs a user types, through the installed command: seeds, pairs, variants,
dialects, encodings and the API's types (issues 24 and 27)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import oracles
import pytest

from solver.notation.dialects import DIALECTS, VARIANTS

# Many runs of the installed command: CI's slow step runs them (`-m slow`).
pytestmark = pytest.mark.slow

CHESS960 = Path(sys.executable).parent / "chess960"


def cli(*args: str, env: dict[str, str] | None = None, stdin: bytes = b"",
        ) -> tuple[str, str, int]:
    """Run the installed command; stdout, stderr (decoded leniently) and exit code."""
    merged = {**os.environ, **(env or {})}
    done = subprocess.run([str(CHESS960), *args], input=stdin, capture_output=True,
                          env=merged, timeout=120, check=False)
    return (done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"),
            done.returncode)


def one_error(err: str) -> None:
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err


# -- seeds ----------------------------------------------------------------------

reference = oracles.seed_draws  # the README's recipe, written again


@pytest.mark.parametrize("seed", ["42", "042", " 42", "-1", "9" * 5000])
def test_every_seed_is_a_phrase_drawn_by_the_recipe(seed: str) -> None:
    out, err, code = cli("random", "--seed", seed, "-n", "3")
    assert (err, code) == ("", 0)
    assert [int(line.split()[0]) for line in out.splitlines()] == reference(seed.encode(), 960, 3)


@pytest.mark.parametrize("command", [["random"], ["plan", "--rounds", "2"]])
@pytest.mark.parametrize("seed", [b"\xff", b"ab\xed\xa0\x80"])  # invalid UTF-8; a surrogate
def test_a_seed_that_is_not_utf8_is_a_usage_error(command: list[str], seed: bytes) -> None:
    done = subprocess.run([os.fsencode(CHESS960), *(c.encode() for c in command), b"--seed",
                           seed], capture_output=True, timeout=120, check=False)
    err = done.stderr.decode("utf-8", "replace")
    one_error(err)
    assert "not valid UTF-8" in err and done.returncode == 2 and done.stdout == b""


def test_a_long_integer_seed_draws_in_plan() -> None:
    seed = "9" * 5000
    out, err, code = cli("plan", "--rounds", "1", "--seed", seed, "-f", "csv")
    assert (err, code) == ("", 0)
    assert out.splitlines()[1].split(",")[1] == str(reference(seed.encode(), 960, 1)[0])


# -- pairs ----------------------------------------------------------------------

@pytest.mark.parametrize("pair", ["qnrbbnkr RNBQKBNR", "qnrbbnkr/RNBQKBNR",
                                  "♜♞♝♛♚♝♞♜ ♖♘♗♕♔♗♘♖"])
def test_a_pair_black_first_is_refused(pair: str) -> None:
    out, err, code = cli("id", "-r", "dfrc", pair)
    one_error(err)
    assert (out, code) == ("", 1)
    assert repr(pair) in err and "White's rank in upper case" in err


def test_pairs_white_first_in_any_case() -> None:
    # Scharnagl: RNBQKBNR is 518, QNRBBNKR 105; the pair's id is white * 960 + black.
    for pair, number in (("RNBQKBNR qnrbbnkr", 518 * 960 + 105),
                         ("QNRBBNKR RNBQKBNR", 105 * 960 + 518),
                         ("rnbqkbnr qnrbbnkr", 518 * 960 + 105),
                         ("QNRBBNKR/rnbqkbnr", 105 * 960 + 518)):
        assert cli("id", "-r", "dfrc", pair) == (f"{number}\n", "", 0)


# -- variants -------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["position", "-r", "dfrc", "100800", "101318", "-f", "fen", "--variant", "horde"],
    ["position", "-r", "dfrc", "100800", "-f", "epd", "--variant", "horde", "--dialect", "fsf"],
    ["plan", "--rounds", "2", "-r", "dfrc", "--variant", "horde", "--seed", "x"],
    ["id", "-r", "dfrc", "--variant", "horde",
     "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"],
])
def test_horde_refuses_a_family_of_independent_sides(args: list[str]) -> None:
    out, err, code = cli(*args)
    one_error(err)
    assert (out, code) == ("", 1)
    assert "horde writes only Black's rank" in err and "dfrc" in err


def test_horde_still_writes_chess960() -> None:
    out, err, code = cli("position", "518", "-f", "fen", "--variant", "horde")
    assert (out, err, code) == (
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1\n", "", 0)


# -- usage errors -----------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["id", "RNBQKBNR", "--dialect", "bogus", "--variant", "bogus"],
    ["id", "RNBQKBNR", "--variant", "bogus"],
    ["position", "518", "-f", "fen", "--dialect", "bogus"],
    ["position", "518", "-f", "fen", "--variant", "bogus"],
    ["random", "--seed", "1", "-f", "fen", "--variant", "bogus"],
    ["solve", "--variant", "bogus"],
    ["plan", "--rounds", "1", "--dialect", "bogus"],
])
def test_a_bad_dialect_or_variant_is_a_usage_error(args: list[str]) -> None:
    out, err, code = cli(*args)
    one_error(err)
    assert (out, code) == ("", 2)
    assert "'bogus' is not one of" in err


@pytest.mark.parametrize("args", [["random", "-n", "x"], ["solve", "--max-arrangements", "x"],
                                  ["position", "x", "--white"]])
def test_usage_errors_are_lower_case(args: list[str]) -> None:
    _, err, code = cli(*args)
    one_error(err)
    assert code == 2
    reason = err.partition("': ")[2] or err.removeprefix("error: ")
    assert not (reason[:1].isupper() and reason[1:2].islower()), err


# -- the API's inputs ---------------------------------------------------------------

BAD_VALUES = ["5", 5, None, 1.5, b"RNBQKBNR", True, ["R"], object()]


def _entry_points() -> dict[str, object]:
    import solver
    from solver.notation.fen import position_fen
    from solver.notation.ranks import parse_id

    chess960, dfrc = solver.Family.load("chess960"), solver.Family.load("dfrc")
    return {
        "Family.position": chess960.position, "Family.rank_of": chess960.rank_of,
        "Family.identify": chess960.identify, "Family.read": chess960.read,
        "Family.validate": chess960.validate, "Family.parse_id": chess960.parse_id,
        "Family.pair": lambda v: dfrc.pair(v, 0), "Family.load": solver.Family.load,
        "load": solver.load, "parse_rank": solver.parse_rank,
        "parse_id": lambda v: parse_id(v, 960), "format_rank": solver.format_rank,
        "start_fen": solver.start_fen, "position_fen": position_fen,
        "Position.fen": lambda v: chess960.position(0).fen(v),  # type: ignore[arg-type]
        "Position.epd": lambda v: chess960.position(0).epd(id=v),  # type: ignore[arg-type]
        "Family.id": chess960.id, "Family.random": chess960.random, "which": solver.which,
        "scharnagl_id": solver.scharnagl_id, "scharnagl_rank": solver.scharnagl_rank,
    }


def test_every_entry_point_raises_chess960_errors_for_bad_types() -> None:
    import solver

    for name, call in _entry_points().items():
        for value in BAD_VALUES:
            try:
                call(value)  # type: ignore[operator]
            except solver.Chess960Error:
                pass
            except Exception as exc:  # the failure this test is about
                pytest.fail(f"{name}({value!r}) raised {type(exc).__name__}: {exc}")


def test_a_string_id_is_an_argument_type_error() -> None:
    import solver
    import solver.errors

    with pytest.raises(solver.errors.ArgumentTypeError) as caught:
        solver.Family.load("chess960").position("5")  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError) and caught.value.value == "5"
    assert str(caught.value) == "id must be an integer (int), not str '5'"
    assert "ArgumentTypeError" not in solver.__all__ and "PairOrderError" in vars(solver.errors)


def test_the_public_namespace_holds_only_public_names() -> None:
    import solver

    assert dir(solver) == sorted(solver.__all__)
    for helper in ("Any", "TYPE_CHECKING", "annotations", "import_module"):
        assert helper not in dir(solver)
        with pytest.raises(AttributeError):
            getattr(solver, helper)


def test_the_range_error_is_worded_like_the_others() -> None:
    assert cli("position", "960") == ("", "error: chess960 id 960 is out of range 0..959\n", 1)
    out, err, code = cli("position", "-r", "dfrc", "--white", "960", "--black", "0")
    assert (out, err, code) == ("", "error: dfrc white id 960 is out of range 0..959\n", 1)


def test_usi_s_sfen_keyword_is_read() -> None:
    fen, _, _ = cli("position", "0", "-r", "shogi-shuffle", "-f", "fen")
    assert cli("id", "-r", "shogi-shuffle", f"sfen {fen.strip()}") == ("0\n", "", 0)
    assert cli("id", "-r", "shogi-shuffle", "-", stdin=f"sfen {fen}".encode()) == ("0\n", "", 0)


# -- output encodings ---------------------------------------------------------------

@pytest.mark.parametrize(("encoding", "args"), [
    ("ascii", ["show", "518"]), ("latin-1", ["show", "518"]), ("ascii", ["show", "518", "-l"]),
    ("ascii", ["position", "518", "-u"]), ("latin-1", ["random", "-u", "--seed", "1"]),
    ("ascii", ["position", "518", "-u", "-f", "json"]), ("ascii", ["show", "105", "--svg", "-"]),
])
def test_a_stdout_without_glyphs_gets_letters(encoding: str, args: list[str]) -> None:
    done = subprocess.run([str(CHESS960), *args], capture_output=True, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": encoding}, check=False)
    assert (done.returncode, done.stderr) == (0, b"")
    text = done.stdout.decode(encoding)
    assert not any(0x2654 <= ord(c) <= 0x265F for c in text)
    if args[0] == "show" and "--svg" not in args:
        assert "1  R  N  B  Q  K  B  N  R  1" in text
    elif "--svg" in args:
        # pieces are paths (no glyph to escape): the black queen is there, in ASCII
        assert 'class="piece black queen"' in text and text.isascii()
    elif args[0] == "position":
        assert "RNBQKBNR" in text


# -- Seirawan gating rights ------------------------------------------------------------

#: The dialects whose programs play Seirawan (the registry's; lichess does not).
DIALECT_NAMES = [n for n, d in DIALECTS.items() if d.refuses(VARIANTS["seirawan"]) is None]


def rule_file(tmp_path: Path, name: str, pieces: str, count: int, extra: str = "") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\ntitle = "t"\nsource = "s"\nfiles = 8\n'
                    f'pieces = "{pieces}"\ncount = {count}\n{extra}')
    return str(path)


def seirawan(*args: str) -> list[str]:
    out, err, code = cli("position", *args, "-f", "fen", "--variant", "seirawan")
    assert (err, code) == ("", 0)
    return out.splitlines()


def side_letters(field: str) -> tuple[str, str]:
    return "".join(c for c in field if c.isupper()), "".join(c for c in field if c.islower())


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
def test_seirawan_fens_carry_gating_rights_in_every_dialect(dialect: str) -> None:
    for fen in seirawan("0", "105", "518", "959", "--dialect", dialect):
        white, black = side_letters(fen.split()[2])
        rank = fen.split("/")[7].split("[")[0]
        # every back-rank square gates: by a castling letter (king and castling rooks)
        # or by its own file letter, and no letter twice
        assert len(set(white)) == len(white) and white.lower() == black
        files = {c for c in white if c not in "KQ"}
        implied = {"K", "Q"} & set(white)
        assert len(files) + (3 if implied == {"K", "Q"} else 0) >= 8, (fen, rank)


def test_seirawan_in_xfen_is_fairy_stockfish_s_own_start() -> None:
    [fen] = seirawan("518")
    assert fen == ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1")
    [fen] = seirawan("518", "--dialect", "shredder")
    assert fen.split()[2] == "HABCDEFGhabcdefg"


def test_pychess_seirawan_writes_kq_only_where_the_rooks_castle(tmp_path: Path) -> None:
    [fen] = seirawan("0", "-r", "shuffle", "--dialect", "pychess")  # KQRRBBNN: no castling
    field = fen.split()[2]
    assert "K" not in field.replace("K", "", 0)[:0] + field[:2] and field[:2] != "KQ", fen
    assert field == "EFBGHCDefbghcd"  # B, B, Q (none), N, N first, then the rest a to h
    # one bishop: no letter twice
    one = rule_file(tmp_path, "onebishop", "KQRRBNNN", 3360)
    for fen in seirawan("0", "7", "100", "-r", one, "--dialect", "pychess"):
        white, black = side_letters(fen.split()[2])
        assert len(set(white)) == len(white) and len(set(black)) == len(black), fen


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
def test_a_family_without_queen_bishop_or_knight_writes_seirawan(tmp_path: Path,
                                                                  dialect: str) -> None:
    karr = rule_file(tmp_path, "karr", "KARRBBNN", 5040)
    for fen in seirawan("0", "1", "2000", "-r", karr, "--dialect", dialect):
        assert "[" in fen and fen.split()[2] != "-", fen
        assert cli("id", "-r", karr, "--variant", "seirawan", "--dialect", dialect,
                   fen)[2] == 0


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
def test_fairy_stockfish_allows_28_first_moves(dialect: str) -> None:
    pyffish = pytest.importorskip("pyffish")
    fens = seirawan("0", "105", "518", "777", "959", "--dialect", dialect)
    for fen in fens:
        rank = fen.split("/")[7].split("[")[0]
        # 16 pawn moves and each knight move three ways (plain, gating H, gating E):
        # 28 when the knights have four moves (without gating rights: 20)
        hops = sum(0 <= f + d < 8 for f, p in enumerate(rank) if p == "N" for d in (-1, 1))
        assert len(pyffish.legal_moves("seirawan", fen, [], True)) == 16 + 3 * hops, fen
        assert len(pyffish.legal_moves("seirawan", fen, [], False)) == 16 + 3 * hops, fen
        if rank == "RNBQKBNR":
            assert 16 + 3 * hops == 28


def test_fairy_stockfish_reads_no_castling_where_there_is_none() -> None:
    pyffish = pytest.importorskip("pyffish")
    for dialect in DIALECT_NAMES:
        [fen] = seirawan("0", "-r", "shuffle", "--dialect", dialect)  # KQRRBBNN
        read = pyffish.get_fen("seirawan", fen, [], False).split()[2]
        assert "K" not in read and "Q" not in read and "A" not in read, (dialect, read)
        # every square but the king's gates
        assert sorted(read) == sorted("BCDEFGHbcdefgh"), (dialect, read)


# -- a family's own pieces ---------------------------------------------------------------

def test_a_declared_piece_reads_its_own_fen(tmp_path: Path) -> None:
    own = rule_file(tmp_path, "own", "KQRRXXNN", 5040,
                    '\n[[piece]]\nletter = "X"\nname = "wazir"\n')
    for number in ("0", "2", "500", "5039"):
        fen, err, code = cli("position", number, "-r", own, "-f", "fen")
        assert (err, code) == ("", 0)
        assert cli("id", "-r", own, fen.strip()) == (f"{number}\n", "", 0)
    assert cli("id", "-r", own, "qrkrxxnn/pppppppp/8/8/8/8/PPPPPPPP/QRKRXXNN w KQkq - 0 1"
               )[1:] == ("", 0)


# -- rule files: every mistake at once -------------------------------------------------

FIVE_MISTAKES = """name = "Five Mistakes"
title = "t"
files = 8
pieces = "KQRRBBNN"
count = -3
colour = "red"

[[rule]]
kind = "opposite-colors"
pieces = "BB"

[numbering]
kind = "fast"
"""


def test_a_rule_file_s_mistakes_are_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "five.toml"
    path.write_text(FIVE_MISTAKES)
    out, err, code = cli("position", "0", "-r", str(path))
    assert (out, code) == ("", 1) and "Traceback" not in err
    lines = err.splitlines()
    assert all(line.startswith(f"error: {path}: ") for line in lines), err
    keys = [line.removeprefix(f"error: {path}: ").split(":")[0] for line in lines]
    assert keys == ["colour", "name", "source", "count", "rule[1].kind", "numbering.kind"]


def test_rule_file_errors_list_their_problems_and_stop_at_ten() -> None:
    from solver import RuleFileError
    from solver.ruleset.reader import MAX_PROBLEMS, parse

    with pytest.raises(RuleFileError) as caught:
        parse(FIVE_MISTAKES)
    assert len(caught.value.problems) == 6
    assert caught.value.key == "colour"  # the first mistake's details
    assert str(caught.value).count("<string>: ") == 6
    many = "\n".join(f"bad{i} = 1" for i in range(30))
    with pytest.raises(RuleFileError) as caught:
        parse(many + '\nname = "x"\n')
    assert len(caught.value.problems) == MAX_PROBLEMS == 10
    # one mistake: the error as before, alone
    with pytest.raises(RuleFileError) as caught:
        parse(FIVE_MISTAKES.replace("colour", "#").replace("Five Mistakes", "five")
              .replace("count = -3", "count = 5040").replace("colors", "colours")
              .replace('kind = "fast"', "").replace('title = "t"', 'title = "t"\nsource = "s"')
              + "\n[[front]]\n")
    assert caught.value.problems == (caught.value,)


# -- faults named where they are --------------------------------------------------

def test_a_wrong_white_rank_in_a_fen_names_its_own_fault() -> None:
    # White's rank has two queens and no king: that is the fault, not the mirror
    out, err, code = cli("id", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1")
    assert (out, code) == ("", 1)
    one_error(err)
    assert "'RNBQQBNR' has 0 kings, expected 1" in err
    assert "mirror" not in err


def test_plan_boards_are_written_all_or_none(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "round-3.svg").mkdir()  # the third board cannot be written
    out, err, code = cli("plan", "--rounds", "4", "--seed", "1", "--svg-dir", str(boards))
    assert (out, code) == ("", 1)
    one_error(err)
    assert "round-3.svg" in err
    assert sorted(p.name for p in boards.iterdir()) == ["round-3.svg"]
    (boards / "round-3.svg").rmdir()
    out, err, code = cli("plan", "--rounds", "4", "--seed", "1", "--svg-dir", str(boards))
    assert (err, code) == ("", 0)
    assert sorted(p.name for p in boards.iterdir()) == [f"round-{n}.svg" for n in range(1, 5)]

