"""The command's one error funnel (solver/cli/errors.py), library errors that are
Chess960Errors everywhere, and the three README examples that were wrong."""

from __future__ import annotations

import io
import json

import pytest

import solver
from solver import Chess960Error, Family
from solver.cli import commands, errors
from solver.cli.app import run
from solver.cli.entry import dispatch
from solver.errors import DrawCountError, IdMismatchError, RecordIdError, UnknownFormatError
from solver.notation.ranks import format_rank
from solver.output import PositionWriter, read_back
from solver.output.plan import plan_table
from solver.sampling import draw_ids, iter_ids, phrase_below, plan


def test_the_funnel_words_errors_and_exit_codes() -> None:
    out, err = io.StringIO(), io.StringIO()
    out.write("answered\n")
    assert errors.failed(out, err, IdMismatchError(4, "ABC", 3)) == errors.FAILED == 1
    assert err.getvalue() == "error: id 4 does not match 'ABC', whose id is 3\n"
    err = io.StringIO()
    assert errors.failed(out, err, KeyboardInterrupt()) == errors.INTERRUPTED == 130
    assert err.getvalue() == "\n"
    assert errors.stream_error("write to standard output", OSError(28, "No space left")) == (
        "error: cannot write to standard output: no space left\n")
    assert errors.USAGE == 2


@pytest.mark.parametrize("argv", [
    ["id", "X", "-r", "nope"],  # the fast path
    ["id", "X", "-r", "nope", "--dialect", "shredder", "--format", "fen"],
    ["check", "--rules", "nope"],  # Typer
    ["plan", "--rounds", "1", "--rules", "nope"],
])
def test_both_paths_word_a_library_error_alike(argv: list[str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(argv) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("error: no rule set 'nope': not a bundled family (")
    assert captured.err.count("\n") == 1
    assert run(argv) == 1
    assert capsys.readouterr().err == captured.err


def test_a_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["random", "-n", "0"]) == 2
    assert capsys.readouterr().err.startswith("error: invalid value for '-n' / '--count'")


# -- bare ValueErrors that are now Chess960Errors -------------------------------------------


def test_readers_raise_record_id_errors() -> None:
    chess960 = Family.load("chess960")
    cases = [("text", "105 RNBQKBNR\n"),
             ("epd", 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "chess960 5";\n'),
             ("csv", "id,fen\n5,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")]
    for fmt, document in cases:
        with pytest.raises(RecordIdError) as caught:
            read_back(fmt, chess960, document)
        assert caught.value.found == 518 and str(caught.value.listed) in {"105", "5"}
        assert isinstance(caught.value, Chess960Error)


def test_unknown_formats_and_bad_counts_are_chess960_errors() -> None:
    chess960 = Family.load("chess960")
    with pytest.raises(UnknownFormatError, match="unknown format 'yaml'; formats are text, "):
        PositionWriter(io.StringIO(), chess960, "yaml")
    with pytest.raises(UnknownFormatError, match="unknown plan format 'yaml'; formats are "):
        plan_table(chess960, [chess960.position(0)], "yaml")
    for call in (lambda: phrase_below(iter([1]), 0),
                 lambda: list(iter_ids(960, -1)),
                 lambda: draw_ids(960, -1),
                 lambda: plan(chess960, -1)):
        with pytest.raises(DrawCountError):
            call()
    assert {"DrawCountError", "RecordIdError", "UnknownFormatError"} <= set(vars(solver.errors))


# -- the three README examples that were wrong ------------------------------------------------


def test_the_book_example_asks_for_the_960_there_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert commands.random_command("chess960", 960, distinct=True, seed="book", fmt="epd",
                                   out=out, err=err) == 0
    assert len(set(out.getvalue().splitlines())) == 960
    out, err = io.StringIO(), io.StringIO()
    assert commands.random_command("chess960", 1000, distinct=True, seed="book", fmt="epd",
                                   out=out, err=err) == 1
    assert out.getvalue() == ""  # refused before anything is written
    assert err.getvalue() == ("error: cannot draw 1,000 distinct chess960 positions: "
                              "only 960 are left\n")


@pytest.mark.parametrize(("rules", "seed"), [("chess960", "1"), ("dfrc", "2"),
                                             ("capablanca-random", "3")])
def test_show_reads_the_lines_random_writes(rules: str, seed: str) -> None:
    drawn = io.StringIO()
    assert commands.random_command(rules, 3, seed=seed, out=drawn, err=io.StringIO()) == 0
    lines = drawn.getvalue()
    family = Family.load(rules)
    out, err = io.StringIO(), io.StringIO()
    code = commands.show_command(rules, "-", letters=True, stdin=io.BytesIO(lines.encode()),
                                 out=out, err=err)
    assert (code, err.getvalue()) == (0, "")
    boards = io.StringIO()
    for line in lines.splitlines():
        number = int(line.split()[0])
        assert commands.show_command(rules, str(number), letters=True, stdin=None, out=boards,
                                     err=err) == 0
    assert out.getvalue() == boards.getvalue() != ""
    assert family.count > 0


def test_show_refuses_a_line_whose_id_is_not_the_ranks() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert commands.show_command("chess960", "-", stdin=io.BytesIO(b"5 RNBQKBNR\n"), out=out,
                                 err=err) == 1
    assert err.getvalue() == ("error: line 1: id 5 does not match 'RNBQKBNR', "
                              "whose id is 518\n")


def test_glyphs_of_a_shogi_family_keep_the_letters_chess_has_no_glyph_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["position", "13774", "--rules", "shogi-shuffle", "--unicode"]) == 0
    assert capsys.readouterr() == ("L♘SG♔GS♘L\n", "")
    assert dispatch(["id", "L♘SG♔GS♘L", "--rules", "shogi-shuffle"]) == 0
    assert capsys.readouterr().out == "13774\n"
    assert dispatch(["position", "13774", "--rules", "shogi-shuffle", "-u", "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["rank"] == "L♘SG♔GS♘L"
    assert format_rank("LNSGK", unicode=True, black=True) == "l♞sg♚"
