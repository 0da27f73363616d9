"""The Python API: its namespace, its examples, and its methods against oracles.

Oracles (test-only, GPL, skipped when not installed): python-chess's
``Board.from_chess960_pos(n)``, its ``fen()``, ``shredder_fen()`` and ``epd()``.
"""

from __future__ import annotations

import doctest
import inspect
import io
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solver
from solver.family import Family
from solver.position import Position

#: The documented top level (README's API section, docs/tutorials/python.md):
#: the API, the errors' module and the errors' bases.
DOCUMENTED = [
    "Chess960Error", "DrawError", "EngineError", "Family", "InputError", "LimitError",
    "Numbering", "NumberingError", "Position", "PositionError", "RuleFileError", "RuleSet",
    "WorkerError", "__version__", "bundled_names", "errors", "format_rank", "load",
    "parse_rank", "scharnagl_id", "scharnagl_rank", "start_fen", "which",
]

CHESS960 = Family.load("chess960")


def test_the_top_level_is_the_documented_api() -> None:
    assert dir(solver) == sorted(solver.__all__) == sorted(DOCUMENTED)
    assert len([n for n in dir(solver) if not n.startswith("__")]) <= 25
    for name in solver.__all__:
        assert getattr(solver, name) is not None, name
    assert solver.errors.Chess960Error is solver.Chess960Error


@pytest.mark.parametrize("name", [n for n in DOCUMENTED if n != "__version__"])
def test_every_public_name_has_an_example_that_runs(name: str) -> None:
    value = getattr(solver, name)
    assert value.__doc__ and value.__doc__.strip(), f"{name} has no docstring"
    finder = doctest.DocTestFinder(recurse=False)
    module = value if inspect.ismodule(value) else sys.modules[value.__module__]
    tests = [t for t in finder.find(value, name, globs=dict(vars(module))) if t.examples]
    assert tests, f"{name}'s docstring has no >>> example"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    out = io.StringIO()
    for test in tests:
        runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()


def test_every_public_method_of_the_api_has_a_docstring() -> None:
    for cls in (Family, Position):
        for name, member in vars(cls).items():
            if name.startswith("_"):
                continue
            target = getattr(member, "fget", getattr(member, "func", member))
            assert getattr(target, "__doc__", None), f"{cls.__name__}.{name}"


# -- FEN and EPD, python-chess's way --------------------------------------------------


def test_fens_are_python_chess_s_for_chess960_ids() -> None:
    chess = pytest.importorskip("chess")
    for number in range(0, 960, 3):  # a third of them: each board costs python-chess a while
        board = chess.Board.from_chess960_pos(number)
        position = CHESS960.position(number)
        assert position.fen() == board.fen()
        assert position.fen("shredder") == board.shredder_fen()
        assert position.fen(counters=False) == board.epd()
        assert CHESS960.id(board.fen()) == number == board.chess960_pos()


def test_epd_operations_are_written_as_python_chess_writes_them() -> None:
    chess = pytest.importorskip("chess")
    board = chess.Board.from_chess960_pos(105)
    position = CHESS960.position(105)
    operations = {"id": "chess960 105", "hmvc": 7, "c0": 'say "hi"'}
    assert position.epd(**operations) == board.epd(**operations)
    assert position.epd("shredder", fmvn=1) == board.epd(shredder=True, fmvn=1)


def test_fen_in_each_dialect_is_the_command_s() -> None:
    """``Position.fen`` writes what ``chess960 position --format fen`` writes."""
    from typer.testing import CliRunner

    from solver.cli.app import app

    cases = [("chess960", 105, "lichess", "3check"), ("chess960", 105, "fsf", "crazyhouse"),
             ("dfrc", 101318, "pychess", None), ("chess324x16", 1000, "fsf", None),
             ("seirawan960", 3, "pychess", None), ("capablanca-random", 5, "shredder", None)]
    for name, number, dialect, variant in cases:
        args = ["position", str(number), "-r", name, "--format", "fen", "--dialect", dialect]
        result = CliRunner().invoke(app, args + (["--variant", variant] if variant else []))
        fen = Family.load(name).position(number).fen(dialect, variant)
        assert (result.stdout, result.exit_code) == (fen + "\n", 0), (name, dialect, variant)


def test_a_dialect_that_cannot_write_the_position_is_refused() -> None:
    dfrc = Family.load("dfrc").position(101318)
    with pytest.raises(solver.errors.DialectError, match="horde writes only Black's rank"):
        dfrc.fen("fsf", "horde")
    with pytest.raises(solver.errors.DialectError, match="unknown variant 'chess961'"):
        dfrc.fen("xfen", "chess961")
    with pytest.raises(solver.errors.DialectError, match="name no variant"):
        Family.load("seirawan960").position(0).fen("fsf", "crazyhouse")
    with pytest.raises(solver.errors.ArgumentTypeError):
        CHESS960.position(0).epd(id=1.5)  # type: ignore[arg-type]


# -- numbers, draws and reprs ----------------------------------------------------------


@given(st.integers(0, 921_599))
def test_id_reads_every_way_of_writing_a_position(number: int) -> None:
    dfrc = Family.load("dfrc")
    position = dfrc.position(number)
    assert dfrc.id(str(number)) == number
    assert dfrc.id(f"{position.white} {position.black.lower()}") == number
    assert dfrc.id(position.fen()) == dfrc.id(position.fen("shredder")) == number


@given(st.text(min_size=1, max_size=30).filter(lambda s: not any(0xD800 <= ord(c) < 0xE000
                                                                  for c in s)),
       st.integers(0, 20))
def test_a_seeded_draw_is_the_module_s_draw(seed: str, n: int) -> None:
    from solver.sampling import draw_ids

    drawn = CHESS960.random(n, seed=seed)
    assert [p.id for p in drawn] == draw_ids(960, n, seed=seed)
    assert all(p == CHESS960.position(p.id) for p in drawn)
    distinct = CHESS960.random(n, seed=seed, distinct=True, exclude=[518])
    assert len({p.id for p in distinct}) == n and 518 not in {p.id for p in distinct}


def test_an_unseeded_draw_is_in_range() -> None:
    assert all(0 <= p.id < 960 for p in CHESS960.random(50))


def test_reprs_are_short_and_say_what_the_value_is() -> None:
    assert repr(CHESS960) == "<Family 'chess960': 960 positions>"
    position = CHESS960.position(518)
    assert repr(position) == "Position(518, 'RNBQKBNR', 'RNBQKBNR')"
    assert eval(repr(position), {"Position": Position}) == position
    assert repr(solver.load("dfrc")) == "<RuleSet 'dfrc': 8 files, 921600 positions, 2 rules>"
    assert repr(solver.which("QNRBBNKR")).startswith("<Found 'QNRBBNKR': ")


def test_a_family_s_repr_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the counting limit, a family shows the count its rule file states."""
    def over(self: Family) -> int:
        raise solver.errors.CountingTooLargeError("chess960", 10, 5, "a test")

    monkeypatch.setattr(Family, "count", property(over))
    assert repr(Family.load("chess960")) == "<Family 'chess960': 960 positions>"
