"""The console command's quick path (solver.cli.quick) is Typer's own declaration
of each common command, and answers exactly as Typer does, loading none of Typer,
Pydantic, Rich or the solver.

The quick path's table is made from the Typer app (solver.cli.quick.make_table)
and checked in (solver.cli.quick_table): the default run makes it again and
compares, and holds each command's body (solver.cli.bodies) to the Typer
command's parameters. Every option of every quick command, drawn from the
table, is parsed both ways and must reach the body with the same arguments.
The slow run answers each command line twice in-process: through
:func:`solver.cli.entry.dispatch` (the quick path, when it takes the line) and
through the Typer app (solver.cli.app.run), and the two must write the same
stdout and stderr and return the same exit code. The installed command is
checked for its imports with ``python -X importtime``.
"""

from __future__ import annotations

import inspect
import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import make_quick_table
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples, sample

from solver.cli import app as cli
from solver.cli import bodies, entry, quick
from solver.cli.commands import arithmetic_id, arithmetic_number
from solver.cli.quick_table import TABLE
from solver.family import Family

CHESS960 = Path(sys.executable).parent / "chess960"

STDIN = b"518\n\nQNRBBNKR\nx\n105 QNRBBNKR\n104 QNRBBNKR\n\xff\n0\nRNBQKBNR\n"

REGENERATE = "regenerate it with `python tests/make_quick_table.py`"


@pytest.fixture(autouse=True)
def _budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--max-states`` sets the counting budget for the process: only for the test."""
    from solver.numbering import budget

    monkeypatch.setattr(budget, "_limit", [budget.MAX_STATES])


# -- the table is the Typer app's ----------------------------------------------------------


def test_the_checked_in_table_is_the_typer_apps() -> None:
    try:
        made = make_quick_table.quick_table()
    except AttributeError as exc:  # an older Typer (the lowest declared) has no type_descriptor
        if "type_descriptor" not in str(exc):
            raise
        pytest.skip(f"the quick table is made with a Typer whose parameters carry "
                    f"type_descriptor ({exc}); CI's main run compares it")
    for name in sorted(set(made) | set(TABLE)):
        assert name in TABLE, f"command {name!r} is missing from solver/cli/quick_table.py: " \
                              f"{REGENERATE}"
        assert name in made, f"command {name!r} is no longer in the Typer app: {REGENERATE}"
        for part in ("body", "argument", "options"):
            assert made[name][part] == TABLE[name][part], \
                f"{name}: its {part} differ from the Typer app's: {REGENERATE}"
        mine, theirs = made[name]["params"], TABLE[name]["params"]
        for key in sorted(set(mine) | set(theirs)):
            now = {k: v for k, v in mine.get(key, {}).items() if v is not None}
            assert theirs.get(key) == now, \
                f"{name}: option {key!r} differs from the Typer app's ({now} in the app, " \
                f"{theirs.get(key)} in the table): {REGENERATE}"
    source = Path(quick.__file__).with_name("quick_table.py").read_text(encoding="utf-8")
    assert source == make_quick_table.table_source(made, make_quick_table.value_table()), \
        f"the table's text is not as made: {REGENERATE}"


def _typer_functions() -> dict[str, Any]:
    functions = {cli.command_name(info): info.callback
                 for info in cli.app.registered_commands}
    for sub in cli.app.registered_groups:
        functions |= {f"{sub.name} {cli.command_name(info)}": info.callback
                      for info in sub.typer_instance.registered_commands}
    return functions


def _parameters(function: Any) -> list[tuple[str, object]]:
    found = []
    for name, parameter in inspect.signature(function).parameters.items():
        default = parameter.default
        if isinstance(default, typer.models.ParameterInfo):  # not in Annotated
            default = default.default
        found.append((name, default))
    return found


@pytest.mark.parametrize("name", TABLE)
def test_each_body_takes_the_typer_commands_parameters(name: str) -> None:
    """Names, order and defaults: the body is called with Typer's keyword arguments."""
    body = quick._function(TABLE[name]["body"])
    assert body.__module__ == "solver.cli.bodies"
    assert _parameters(body) == _parameters(_typer_functions()[name]), name


def test_the_bodies_default_limit_is_the_search_models() -> None:
    from solver.kinds.model import MAX_ARRANGEMENTS

    assert bodies.MAX_ARRANGEMENTS == MAX_ARRANGEMENTS


def test_the_quick_commands_are_the_tables() -> None:
    assert tuple(TABLE) == quick.QUICK


#: A value each parameter takes, where the table's default would not show it passed on.
SAMPLES = {"fmt": "json", "dialect": "shredder", "variant": "crazyhouse", "seed": "7",
           "rules": "dfrc", "table": "csv", "fix": "xfen", "numbering": "scidb",
           "date": "2027-04-01"}


def _sample(key: str, param: dict[str, Any]) -> list[str]:
    """A value of ``param`` as typed on the command line (none for a flag)."""
    if param["kind"] == "flag":
        return []
    if param["kind"] == "int":
        return [str(max(param.get("min") or 0, 2))]
    return [SAMPLES.get(key, "x")]


def _base(name: str) -> list[str]:
    """``name``'s command line with its argument and required options alone."""
    command = TABLE[name]
    argv = name.split()
    if command["argument"] is not None:
        argv.append("-")
    for option, key in command["options"].items():
        param = command["params"][key]
        if param["required"] and option.startswith("--") and option not in argv:
            argv += [option, *_sample(key, param)]
    return argv


def _cases() -> list[list[str]]:
    """Every option (each of its names) of every quick command, on its own."""
    cases = []
    for name, command in TABLE.items():
        cases.append(_base(name))
        for option, key in command["options"].items():
            argv = _base(name)
            if option in argv:
                continue
            value = _sample(key, command["params"][key])
            cases.append([*argv, option, *value])
            if option.startswith("--") and value:
                cases.append([*argv, f"{option}={value[0]}"])
    return cases


CASES = _cases()


def test_the_cases_exercise_every_option_of_the_table() -> None:
    used = {(" ".join(argv[:2]) if argv[0] == "games" else argv[0], arg.partition("=")[0])
            for argv in CASES for arg in argv}
    for name, command in TABLE.items():
        for option in command["options"]:
            assert (name, option) in used or option in _base(name), (name, option)


@pytest.mark.parametrize("argv", CASES, ids=" ".join)
def test_every_option_reaches_the_body_as_typer_passes_it(
        argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Both ways call the same body with the same keyword arguments (the bodies
    replaced by a recorder: nothing runs)."""
    name = " ".join(argv[:2]) if argv[0] == "games" else argv[0]
    function = TABLE[name]["body"].partition(":")[2]
    calls: list[dict[str, Any]] = []

    def record(**arguments: Any) -> int:
        calls.append(arguments)
        return 0

    monkeypatch.setattr(bodies, function, record)
    options, params = TABLE[name]["options"], TABLE[name]["params"]
    if any(params[options[a.partition("=")[0]]]["kind"] == "other"
           for a in argv if a.partition("=")[0] in options):
        assert quick.parse(argv) is None  # a value the table cannot check: Typer's
        return
    parsed = quick.parse(argv)
    assert parsed is not None, f"the quick path does not take {argv}"
    assert parsed[1] is not None
    assert parsed[0](**parsed[1]) == 0
    assert cli.run(argv) == 0
    assert len(calls) == 2 and calls[0] == calls[1], argv


# -- both ways answer alike ---------------------------------------------------------------


def _run(argv: list[str], fast: bool, stdin: bytes,
         capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
         ) -> tuple[str, str, int]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    capsys.readouterr()
    code = entry.dispatch(argv) if fast else cli.run(argv)
    sys.stdout.flush()
    out, err = capsys.readouterr()
    return out, err, code


def _same(argv: list[str], capsys: pytest.CaptureFixture[str],
          monkeypatch: pytest.MonkeyPatch, stdin: bytes = STDIN) -> bool:
    """Whether the quick path answered ``argv`` (Typer was not called); asserts
    both ways answer alike."""
    typer_calls: list[object] = []
    real = cli.run

    def counted(args: Any) -> int:
        typer_calls.append(args)
        return real(args)

    with monkeypatch.context() as patch:
        patch.setattr(cli, "run", counted)
        fast = _run(argv, True, stdin, capsys, monkeypatch)
    typed = _run(argv, False, stdin, capsys, monkeypatch)
    assert _timeless(fast) == _timeless(typed), argv
    return not typer_calls


def _timeless(answer: tuple[str, str, int]) -> tuple[str, str, int]:
    """``answer`` with the time ``check`` took (on stderr) left out."""
    import re

    out, err, code = answer
    return out, re.sub(r"checked in [0-9.]+ s", "checked in T s", err), code


#: The table's cases cheap enough for the default run.
CHEAP = [argv for argv in CASES if argv[0] in ("id", "position", "convert")]


@pytest.mark.parametrize("argv", CHEAP, ids=" ".join)
def test_the_tables_cheap_cases_are_answered_as_typer_does(
        argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # --svg x writes x
    _same(argv, capsys, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [a for a in CASES if a not in CHEAP and "--all" not in a],
                         ids=" ".join)
def test_the_tables_cases_are_answered_as_typer_does(
        argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # --svg-dir x, --html x, --certificate x write there
    drawn = argv[0] in ("random", "plan") or (
        argv[0] == "book" and any(a.startswith("--sample") for a in argv))
    if drawn and not any(a.startswith("--seed") for a in argv):
        argv = [*argv, "--seed", "3"]  # unseeded draws differ from run to run
    _same(argv, capsys, monkeypatch)


CORPUS: list[list[str]] = [
    ["id", "QNRBBNKR"], ["id", "QNRBBNKR", "RNBQKBNR"], ["id", "qnrbbnkr"],
    ["id", "♕♘♖♗♗♘♔♖"], ["id", "518 RNBQKBNR"], ["id", "519 RNBQKBNR"], ["id", "BBBBBBBB"],
    ["id", ""], ["id", " QNRBBNKR "], ["id", "-"], ["id", "QNRBBNKR", "-", "X"],
    ["id", "-r", "dfrc", "RNBQKBNR rnbqkbnr"], ["id", "-r", "nope", "X"],
    ["id", "--rules=chess960", "RNBQKBNR"], ["id", "--rules=", "RNBQKBNR"],
    ["id", "-r", "capablanca-random", "RNABQKBCNR", "RNBQKBNR"],
    ["id", "-f", "json", "QNRBBNKR"], ["id", "--format", "fen", "QNRBBNKR", "--dialect",
                                       "shredder"],
    ["id", "QNRBBNKR", "--dialect", "bogus", "-f", "fen"], ["id", "--format", "bogus", "X"],
    ["id", "QNRBBNKR", "--dialect", "lichess"], ["id", "QNRBBNKR", "--dialect", "shredder"],
    ["id", "QNRBBNKR", "--variant", "crazyhouse", "-f", "epd"],
    ["id", "QNRBBNKR", "--variant", "crazyhouse"],
    ["id", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
    ["id", "-", "-f", "csv"], ["id"], ["id", "--help"], ["id", "-r"], ["id", "-x"],
    ["id", "--", "-"], ["id", "QNRBBNKR", "-r", "chess960", "-r", "dfrc"],
    ["id", "-rdfrc", "X"], ["id", "QNRBBNKR", "--format"],
    ["position", "518"], ["position", "518", "0", "959"], ["position", "960"],
    ["position", "0518"], ["position", "+5"], ["position", " 5"], ["position", "x"],
    ["position", "-5"], ["position", "1" * 50], ["position", "-u", "518"],
    ["position", "518", "--unicode"], ["position", "518", "-f", "fen"],
    ["position", "518", "--format=pgn"], ["position", "518", "-f", "csv", "--dialect", "fsf"],
    ["position", "-r", "dfrc", "101318"], ["position", "-r", "dfrc", "518"],
    ["position", "--white", "518", "--black", "105", "-r", "dfrc"], ["position"],
    ["position", "-"], ["position", "-", "-f", "json"], ["position", "518", "--variant", "bogus"],
    ["position", "518", "--dialect", "pychess"], ["position", "518", "-u", "-u"],
    ["position", "518", "--unicode=1"], ["position", "--", "518"],
    ["random", "--seed", "1"], ["random", "--seed", "1", "-n", "5"],
    ["random", "--seed", "phrase words", "-n", "3", "--distinct"],
    ["random", "--seed", "7", "-x", "518,534", "-x", "0"],
    ["random", "--seed", "7", "-n", "960", "--distinct", "-x", "5"],
    ["random", "--seed", "7", "-n", "959", "--distinct", "-x", "5"],
    ["random", "--seed", "1", "-n", "0"], ["random", "--seed", "-1"], ["random", "--seed", ""],
    ["random", "--seed", "1", "-x", "960"], ["random", "--seed", "1", "-x", "abc"],
    ["random", "--seed", "1", "-x", " 5 , 6"], ["random", "--seed", "1", "-x", ","],
    ["random", "--seed", "1", "-r", "dfrc", "-n", "3"],
    ["random", "--seed", "1", "-r", "nope"], ["random", "--seed", "1", "-f", "json", "-n", "2"],
    ["random", "--seed", "1", "-u"], ["random", "--seed", "1", "extra"],
    ["random", "--seed", "2", "-n", "3", "--distinct", "--distinct"],
    ["random", "--seed=5", "--count=2"], ["random", "--seed", "1", "-n", "+3"],
    ["random", "-n", "3", "--seed", "1", "--dialect", "lichess", "-f", "fen"],
    ["random", "--seed", "1", "--dialect", "lichess"],
    ["random", "--seed", "١"], ["random", "--seed", "1", "-n", "x"],
    ["random", "--seed", "1", "--help"],
    ["show", "518"], ["show", "518", "-l"], ["show", "QNRBBNKR", "--letters"], ["show", "x"],
    ["show", "-"], ["show", "-", "--svg", "-"], ["show", "105", "--svg", "-"],
    ["show", "RNBQKBNR rnbqkbnr", "-r", "dfrc"], ["show"], ["show", "1", "2"],
    ["show", "518", "--svg"], ["show", "-r", "-", "518"], ["id", "-r", "-", "X"],
    ["position", "518", "--dialect", "-"], ["show", "518", "--letters=1"],
    ["rules"], ["rules", "x"], ["rules", "--help"], [], ["--version"], ["nope"],
    ["solve", "--count"], ["solve", "--count", "-r", "dfrc"], ["solve", "-r", "nope"],
    ["solve"], ["solve", "-r", "chess324", "-f", "csv"], ["solve", "-u", "--format=fen"],
    ["solve", "--count", "--count"], ["solve", "x"], ["solve", "--count", "-f", "bogus"],
    ["solve", "--max-arrangements", "10"], ["solve", "--count", "--max-arrangements", "100"],
    ["solve", "-r", "racing-kings", "--dialect", "lichess"], ["solve", "--count=1"],
]


#: A book for ``lint`` and ``which``: good X-FEN and Shredder-FEN lines, a wrong
#: castling field, a foreign position, a repeat, junk.
BOOK = (b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
        b"qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1\n"
        b"qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1\n"
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
        b"rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1\n"
        b"junk\n")

LINTS: list[list[str]] = [
    ["lint"], ["lint", "-"], ["lint", "-q"], ["lint", "--verbose"], ["lint", "--quiet", "-"],
    ["lint", "--fix", "shredder"], ["lint", "--fix", "bogus"], ["lint", "--fix=xfen", "-"],
    ["lint", "--dialect", "pychess", "--fix", "xfen"], ["lint", "--dialect", "bogus"],
    ["lint", "-r", "chess960"], ["lint", "-r", "chess960", "--complete"], ["lint", "--complete"],
    ["lint", "--numbering", "scidb"], ["lint", "-r", "chess960", "--numbering", "scidb"],
    ["lint", "--variant", "crazyhouse"], ["lint", "--variant", "bogus"],
    ["lint", "no-such-book.epd"], ["lint", "-r", "nope"], ["lint", "-r", "dfrc", "-"],
    ["lint", "--help"], ["lint", "-x"], ["lint", "-q", "-q"],
    ["which", "RNBQKBNR"], ["which", "RNBQKBNR", "QNRBBNKR qnrbbnkr"], ["which", "X"],
    ["which", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"], ["which", "-"],
    ["which", "RNBQKBNR", "-f", "json"], ["which", "RNBQKBNR", "--format", "csv"],
    ["which", "RNBQKBNR", "-r", "chess960", "-r", "dfrc"], ["which", "RNBQKBNR", "-r", "nope"],
    ["which"], ["which", "--help"],
    ["compare", "-"], ["compare", "-", "-r", "dfrc"], ["compare", "-", "-f", "json"],
    ["compare", "-", "--limit", "0"], ["compare", "-", "--limit", "1"],
    ["compare", "-", "--limit", "01"], ["compare", "-", "--limit", "-1"],
    ["compare", "-", "--numbering", "scidb"], ["compare", "-", "--numbering", "bogus"],
    ["compare", "no-such-list.txt"], ["compare", "-", "-f", "csv"], ["compare"],
    ["compare", "-", "-"], ["compare", "-r", "nope", "-"],
]


@pytest.mark.slow
@pytest.mark.parametrize("argv", LINTS, ids=" ".join)
def test_lint_and_which_are_answered_as_typer_does(
        argv: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert _same(argv, capsys, monkeypatch, BOOK) == (argv not in TYPER_WORDS)


#: Games for ``games stats``: X-FEN and Shredder-FEN starts, a number tag only, a
#: truncated game, a standard game.
GAMES = (b'[Event "a"]\n[Result "1-0"]\n[Variant "Chess960"]\n'
         b'[FEN "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1"]\n\n1. e4 1-0\n\n'
         b'[Event "b"]\n[Result "1/2-1/2"]\n[Variant "fischerandom"]\n'
         b'[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n\n1/2-1/2\n\n'
         b'[Event "c"]\n[Result "0-1"]\n[FRCId "105"]\n\n0-1\n\n'
         b'[Event "d"]\n[Result "*"]\n\n1. e4\n\n[Event "e"]\n[Result "1-0"]\n\n1-0\n')

GAME_LINES: list[list[str]] = [
    ["games", "stats", "-"], ["games", "stats", "-", "-f", "csv"],
    ["games", "stats", "-", "--format=json"], ["games", "stats", "-", "--tag", "FRCId"],
    ["games", "stats", "-", "-r", "dfrc"], ["games", "stats", "no-such-games.pgn"],
    ["games", "stats", "-", "-f", "bogus"], ["games", "stats"], ["games", "stats", "--help"],
    ["games", "stats", "-", "-r", "nope"], ["games", "stats", "-", "-x"],
]


@pytest.mark.slow
@pytest.mark.parametrize("argv", GAME_LINES, ids=" ".join)
def test_games_stats_is_answered_as_typer_does(
        argv: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert _same(argv, capsys, monkeypatch, GAMES) == (argv[-1] not in (
        "bogus", "stats", "--help", "-x"))


#: Lines Typer answers (a usage error or help, in Typer's words).
TYPER_WORDS = [
    ["lint", "--fix", "bogus"], ["lint", "--dialect", "bogus"], ["lint", "--complete"],
    ["lint", "--numbering", "scidb"], ["lint", "--variant", "bogus"], ["lint", "--help"],
    ["lint", "-x"], ["lint", "-q", "-q"], ["which", "RNBQKBNR", "--format", "csv"], ["which"],
    ["which", "--help"], ["compare", "-", "--limit", "01"], ["compare", "-", "--limit", "-1"],
    ["compare", "-", "-f", "csv"], ["compare"], ["compare", "-", "-"],
]


@pytest.mark.slow
@pytest.mark.parametrize("argv", CORPUS, ids=lambda argv: " ".join(argv) or "(none)")
def test_fast_path_answers_as_typer_does(argv: list[str], capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _same(argv, capsys, monkeypatch)


CHECKS: list[list[str]] = [
    ["check"], ["check", "-r", "dfrc"], ["check", "--rules=chess324"], ["check", "-r", "nope"],
    ["check", "--max-arrangements", "5"], ["check", "--max-arrangements", "2880"],
    ["check", "--max-arrangements", "0"], ["check", "--max-arrangements", "010"],
    ["check", "--max-arrangements", "x"], ["check", "x"], ["check", "--all", "x"],
    ["check", "--help"],
]


@pytest.mark.slow
@pytest.mark.parametrize("argv", CHECKS, ids=" ".join)
def test_check_is_answered_as_typer_does(argv: list[str], capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """As :func:`_same`, the time each family took (on stderr) aside."""
    import re

    def timeless(answer: tuple[str, str, int]) -> tuple[str, str, int]:
        out, err, code = answer
        return out, re.sub(r"checked in [0-9.]+ s", "checked in T s", err), code

    fast = _run(argv, True, b"", capsys, monkeypatch)
    typed = _run(argv, False, b"", capsys, monkeypatch)
    assert timeless(fast) == timeless(typed)
    assert (quick.parse(argv) is not None) == (argv in CHECKS[:6])


PLANS: list[list[str]] = [
    ["plan", "--rounds", "3", "--seed", "Open 2026"],
    ["plan", "--rounds", "4", "--seed", "7", "-r", "dfrc", "-f", "csv", "--exclude-mirrors"],
    ["plan", "--rounds=2", "--seed", "1", "-x", "518,534", "-x", "0", "--dialect", "lichess"],
    ["plan", "--rounds", "2", "--seed", "1", "--variant", "crazyhouse", "--format=markdown"],
    ["plan", "--rounds", "961", "--seed", "1"], ["plan", "--rounds", "2", "--seed", "1",
                                                 "-x", "abc"],
    ["plan", "--rounds", "2", "--seed", "1", "-r", "nope"],
    ["plan", "--rounds", "2", "--seed", "1", "--dialect", "bogus"],  # a usage error: Typer's
    ["plan", "--rounds", "0"], ["plan", "--seed", "1"], ["plan", "--rounds", "2", "-f", "json"],
    ["plan", "--rounds", "+2", "--seed", "1"], ["plan", "--rounds", "2", "--seed", "-1"],
    ["plan", "--rounds", "2", "x"], ["plan", "--rounds", "2", "--help"],
]


@pytest.mark.slow
@pytest.mark.parametrize("argv", PLANS, ids=" ".join)
def test_plan_is_answered_as_typer_does(argv: list[str], capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    assert _same(argv, capsys, monkeypatch) == (argv in PLANS[:7])


def test_the_corpus_exercises_the_fast_path() -> None:
    taken = [argv for argv in CORPUS if quick.parse(argv) is not None]
    assert len(taken) >= 60
    for argv in (["id", "--help"], ["id", "-rdfrc", "X"], ["random", "--seed", "1", "-n", "0"],
                 ["id", "--", "X"], ["rules", "x"], ["--version"], ["position", "-u", "-u"]):
        assert quick.parse(argv) is None


TOKENS = ["id", "position", "random", "rules", "QNRBBNKR", "RNBQKBNR", "rnbqkbnr", "518", "0",
          "959", "960", "x", "", "-", "--", "-r", "--rules", "chess960", "dfrc", "shuffle",
          "-f", "--format", "text", "json", "fen", "epd", "--dialect", "lichess", "shredder",
          "--variant", "crazyhouse", "-u", "--unicode", "-n", "--count", "2", "--seed",
          "--distinct",
          "-x", "--exclude", "5,6", "--help", "--rules=dfrc", "--format=csv", "--seed=x",
          "-l", "--letters"]  # never --svg: it would write files named by other tokens


@pytest.mark.slow
@settings(max_examples=examples(40, most=500), deadline=None,  # CI: 1,500 took 182 s
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(command=st.sampled_from(["id", "position", "random", "show", "rules"]),
       rest=st.lists(st.sampled_from(TOKENS), max_size=7))
def test_any_command_line_of_known_tokens_is_answered_alike(
        command: str, rest: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    if command == "random" and "--seed" not in rest and not any(
            t.startswith("--seed=") for t in rest):
        rest = [*rest, "--seed", "3"]  # unseeded draws differ from run to run
    _same([command, *rest], capsys, monkeypatch)


def test_arithmetic_agrees_with_the_rule_file_on_every_position() -> None:
    family = Family.load("chess960")
    for number in range(960):
        rank = family.position(number).white
        assert arithmetic_id(rank) == number
        assert arithmetic_number(str(number)) == number


@pytest.mark.parametrize("args", sample([
    ["position", "518"], ["id", "QNRBBNKR"], ["random", "--seed", "1"],
    ["random", "--seed", "Open 2026", "-n", "3", "-x", "518"], ["id", "-"], ["rules"],
    ["position", "518", "0", "-r", "chess960"], ["show", "518"], ["show", "105", "--svg", "-"],
    ["solve", "--count"], ["check"], ["plan", "--rounds", "3", "--seed", "1"],
], 3))
def test_fast_commands_import_only_what_they_use(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", str(CHESS960), *args],
                          input=b"RNBQKBNR\n", capture_output=True, check=False)
    assert done.returncode == 0, done.stderr[-500:]
    imported = {line.rsplit("|", 1)[1].strip()
                for line in done.stderr.decode().splitlines() if line.startswith("import time:")}
    heavy = {"pydantic", "typer", "click", "solver.cli.app", "json", "pathlib"}
    if args[:2] == ["solve", "--count"]:  # counts: writes no position
        heavy |= {"solver.output", "solver.notation.dialects"}
    if args[0] not in ("solve", "check"):
        heavy |= {"constraint", "solver.search.solve", "solver.search.csp"}
    if args[0] != "show":  # show draws with Rich
        heavy.add("rich")
    if "--svg" not in args:  # the SVG's escaping
        heavy.add("xml")
    if args[0] == "show" and "--svg" not in args:  # the SVG file's writing
        heavy.add("tempfile")
    assert imported and not {m for m in imported if m in heavy or m.split(".")[0] in heavy}
    if args[0] in ("id", "position", "random") and "-" not in args:  # by arithmetic
        assert "solver.family" not in imported and "tomllib" not in imported
        assert "typing" not in imported  # annotations are the type checker's alone


@pytest.mark.parametrize("castling", ["KQkq", "KQk"])
def test_lint_of_a_file_imports_no_rule_file_reader(castling: str, tmp_path: Path) -> None:
    """``lint FILE`` without ``--rules`` reads no rule file and writes no file; a
    book of plain Chess960 start FENs (right: ``KQkq``) not even the linter."""
    book = tmp_path / "one.epd"
    book.write_text(f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {castling} - 0 1\n")
    done = subprocess.run([sys.executable, "-X", "importtime", str(CHESS960), "lint", str(book)],
                          capture_output=True, check=False)
    assert done.returncode == (castling != "KQkq"), done.stderr[-500:]
    imported = {line.rsplit("|", 1)[1].strip()
                for line in done.stderr.decode().splitlines() if line.startswith("import time:")}
    assert ("solver.lists.lint" in imported) == (castling != "KQkq")
    heavy = {"typer", "solver.family", "solver.ruleset.reader", "tomllib", "tempfile",
             "pathlib", "json", "solver.files", "solver.output", "constraint"}
    assert not imported & heavy, sorted(imported & heavy)


def test_stdin_answers_each_distinct_line_once_even_within_a_chunk() -> None:
    from solver.cli.inputs import answer_all

    asked: list[str] = []

    def answer(text: str) -> str:
        asked.append(text)
        return f"{len(text)}\n"

    lines = ["QNRBBNKR", "RNBQKBNR", "QNRBBNKR", "", "RNBQKBNR", "x"] * 500  # one chunk
    stdin = io.BytesIO("".join(f"{line}\n" for line in lines).encode())
    out, err = io.StringIO(), io.StringIO()
    assert answer_all(["-"], answer, stdin, out, err) is True  # the blank lines
    assert sorted(asked) == ["QNRBBNKR", "RNBQKBNR", "x"]
    assert out.getvalue().splitlines() == [str(len(line)) if line else "" for line in lines]
    assert err.getvalue().count("blank line") == 500
