"""The exceptions' tree: every error the package defines is under exactly one
of a few bases, as the table below says, and only an error on a bad value is
a :class:`ValueError` (a file, an engine or a worker that fails is not)."""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil

import pytest

import solver
import solver.errors
from solver.cli import errors as cli_errors
from solver.cli.entry import dispatch

#: Every exception class, its base (``-`` for a base itself) and whether it is
#: a ValueError. Bases first, each followed by its leaves.
TREE = """
class                       base              ValueError
Chess960Error               -                 no
RuleFileError               -                 no
InvalidRuleFileError        RuleFileError     yes
RuleFileReadError           RuleFileError     no
UnknownRuleSetError         RuleFileError     yes
BetzaError                  RuleFileError     yes
EmptyFamilyError            RuleFileError     yes
PositionError               -                 yes
RankError                   PositionError     yes
RankLengthError             PositionError     yes
UnknownPieceError           PositionError     yes
PieceCountError             PositionError     yes
RuleViolationError          PositionError     yes
PairError                   PositionError     yes
PairOrderError              PositionError     yes
ArmyError                   PositionError     yes
LinkError                   PositionError     yes
FenError                    PositionError     yes
FenSyntaxError              PositionError     yes
NotStartPositionError       PositionError     yes
CastlingRightsError         PositionError     yes
MirrorError                 PositionError     yes
NoFamilyError               PositionError     yes
NumberingError              -                 yes
IdError                     NumberingError    yes
IdListError                 NumberingError    yes
IdSyntaxError               NumberingError    yes
IdRangeError                NumberingError    yes
IdMismatchError             NumberingError    yes
RecordIdError               NumberingError    yes
NumberingLabelError         NumberingError    yes
ExclusionError              NumberingError    yes
UnknownNumberingError       NumberingError    yes
StepSyntaxError             NumberingError    yes
SidesError                  NumberingError    yes
InputError                  -                 no
InputFileError              InputError        no
CompressionError            InputError        no
OutputFileError             InputError        no
EvalTableError              InputError        no
NoGamesError                InputError        yes
CertificateError            InputError        yes
UnknownAlgorithmError       InputError        yes
CertificateMismatchError    InputError        yes
ProcedureError              InputError        yes
NotUniformError             InputError        yes
DialectError                InputError        yes
UnknownFormatError          InputError        yes
DocumentError               InputError        yes
SampleError                 InputError        yes
TreeError                   InputError        yes
OptionConflictError         InputError        yes
SeedError                   InputError        yes
BandError                   InputError        yes
ArgumentTypeError           InputError        no
DrawError                   -                 yes
DrawCountError              DrawError         yes
DiceError                   DrawError         yes
LimitError                  -                 no
SearchTooLargeError         LimitError        no
CountingTooLargeError       LimitError        no
EngineError                 -                 no
ClusterError                EngineError       no
WorkerError                 -                 no
"""

ROWS = {name: (base, value == "yes")
        for name, base, value in (line.split() for line in TREE.strip().splitlines()[1:])}
BASES = [name for name, (base, _) in ROWS.items() if base == "-" and name != "Chess960Error"]

#: Exceptions private to a module, raised and caught there, never seen outside it.
PRIVATE = {
    "solver.draws.jsontext._RepeatedKeyError",  # a key twice: becomes the caller's error
    "solver.cli.inputs._LineError",  # a stdin line that is no input: one error: line
    "solver.games.stats._NeedsFamilyError",  # a worker's tally reads its range again
}

#: The command line's own signals, never raised by the library: each becomes
#: Click's usage error (exit 2) where it is raised.
CLI_SIGNALS = {
    "solver.cli.bodies.Usage",  # options that do not go together
}


def defined_exceptions() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of ``solver``, by qualified name."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(solver.__path__, "solver."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == info.name):
                found[f"{info.name}.{name}"] = value
    return found


def test_every_exception_is_in_the_table() -> None:
    found = defined_exceptions()
    private = {name for name in found if name.rsplit(".", 1)[1].startswith("_")}
    assert private <= PRIVATE, "a private exception that must stay in its module"
    signals = {name for name in found if name.startswith("solver.cli.")} - private
    assert signals == CLI_SIGNALS, "the CLI's own exceptions: library errors go in solver.errors"
    assert not any(issubclass(found[name], solver.errors.Chess960Error) for name in signals)
    public = {name.rsplit(".", 1)[1]: cls for name, cls in found.items()
              if name not in private | signals}
    assert set(public) == set(ROWS)
    assert all(cls.__module__ == "solver.errors" for cls in public.values())


@pytest.mark.parametrize("name", list(ROWS))
def test_each_class_is_under_exactly_one_base(name: str) -> None:
    cls = getattr(solver.errors, name)
    base, value_error = ROWS[name]
    assert issubclass(cls, solver.errors.Chess960Error)
    under = [b for b in BASES if issubclass(cls, getattr(solver.errors, b))]
    if name == "Chess960Error":
        assert under == []
    elif base == "-":  # a base: straight under the root
        assert under == [name]
        assert solver.errors.Chess960Error in cls.__bases__
    else:
        assert under == [base]
    assert issubclass(cls, ValueError) == value_error


def test_files_engines_and_workers_are_not_value_errors() -> None:
    e = solver.errors
    for cls in (e.InputFileError, e.OutputFileError, e.CompressionError, e.EvalTableError,
                e.RuleFileReadError, e.EngineError, e.WorkerError, e.LimitError):
        assert not issubclass(cls, ValueError), cls
    assert issubclass(e.ArgumentTypeError, TypeError)


def test_the_top_level_exports_the_bases() -> None:
    for name in ["Chess960Error", *BASES]:
        assert name in solver.__all__
        assert getattr(solver, name) is getattr(solver.errors, name)
    exported = [n for n in solver.__all__ if n in ROWS]
    assert len(exported) < len(ROWS) // 2  # the common ones; the rest in solver.errors


@pytest.mark.parametrize("error", [
    solver.errors.EngineError("stockfish", "exited with code 1 before 'uciok'"),
    solver.errors.WorkerError(-9),
    solver.errors.InputFileError("book.epd", "no such file or directory"),
    solver.errors.RuleFileReadError("x.toml", "cannot read: No such file or directory"),
    solver.errors.SearchTooLargeError("big", 10, 5),
])
def test_the_command_words_each_kind_as_one_error_line(error: Exception) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert cli_errors.failed(out, err, error) == cli_errors.FAILED
    assert err.getvalue() == f"error: {error}\n"


def test_an_unreadable_rule_file_is_one_error_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["id", "QNRBBNKR", "-r", "/dev/null"]) == 1
    assert capsys.readouterr() == ("", "error: /dev/null: not a regular file\n")
