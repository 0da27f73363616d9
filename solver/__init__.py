"""chess960: start positions of Chess960 and its kin, stated as constraints.

Load a family's rules, let the constraint solver find its ranks, number them
canonically and prove the numbering against the published formula.

>>> from solver import Family
>>> chess960 = Family.load("chess960")
>>> chess960.identify("QNRBBNKR").id
105
>>> chess960.position(518).white
'RNBQKBNR'

The public names are imported on first use (PEP 562), so that importing
one part of the package (the console command's start-up) loads only that part.
"""

from importlib import import_module as _import_module
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

__version__ = "0.1.0"

#: Every public name, with the module that defines it.
_EXPORTS: dict[str, str] = {
    "Family": "solver.family",
    "Position": "solver.position",
    "Numbering": "solver.syntax.steps",
    "RuleSet": "solver.ruleset.reader",
    "bundled_names": "solver.ruleset.reader",
    "load": "solver.ruleset.reader",
    "format_rank": "solver.notation.ranks",
    "parse_id": "solver.notation.ranks",
    "parse_rank": "solver.notation.ranks",
    "position_fen": "solver.notation.fen",
    "start_fen": "solver.notation.fen",
    "scharnagl_id": "solver.numbering.scharnagl",
    "scharnagl_rank": "solver.numbering.scharnagl",
    **{
        name: "solver.errors"
        for name in (
            "ArgumentTypeError", "BetzaError", "CastlingRightsError", "Chess960Error",
            "CountingTooLargeError", "DialectError", "DrawCountError", "DrawError",
            "EmptyFamilyError", "FenError", "FenSyntaxError", "IdError", "IdMismatchError",
            "IdRangeError", "IdSyntaxError", "InputFileError",
            "MirrorError", "NoFamilyError",
            "NotStartPositionError", "NumberingError", "NumberingLabelError",
            "OptionConflictError",
            "OutputFileError", "PairError",
            "PairOrderError",
            "PieceCountError", "RankError", "RankLengthError", "RecordIdError", "RuleFileError",
            "RuleViolationError", "SearchTooLargeError", "SeedError", "SidesError",
            "StepSyntaxError", "UnknownFormatError", "UnknownNumberingError",
            "UnknownPieceError", "UnknownRuleSetError",
            "Violation",
            "WorkerError",
            "EvalTableError", "BandError", "EngineError",
            # draws an arbiter can defend (solver/draws/)
            "CertificateError", "CertificateMismatchError", "DiceError", "ExclusionError",
            "NotUniformError", "ProcedureError", "UnknownAlgorithmError",
            "CompressionError", "NoGamesError",
            # armies that vary (solver/numbering/armies.py)
            "ArmyError", "LinkError",
        )
    },
}

if _TYPE_CHECKING:
    from solver.errors import (
        ArgumentTypeError,
        ArmyError,
        BetzaError,
        CastlingRightsError,
        CertificateError,
        CertificateMismatchError,
        Chess960Error,
        CompressionError,
        CountingTooLargeError,
        DialectError,
        DiceError,
        DrawCountError,
        DrawError,
        EmptyFamilyError,
        ExclusionError,
        FenError,
        FenSyntaxError,
        IdError,
        IdMismatchError,
        IdRangeError,
        IdSyntaxError,
        InputFileError,
        LinkError,
        MirrorError,
        NoFamilyError,
        NoGamesError,
        NotStartPositionError,
        NotUniformError,
        NumberingError,
        NumberingLabelError,
        OptionConflictError,
        OutputFileError,
        PairError,
        PairOrderError,
        PieceCountError,
        ProcedureError,
        RankError,
        RankLengthError,
        RecordIdError,
        RuleFileError,
        RuleViolationError,
        SearchTooLargeError,
        SeedError,
        SidesError,
        StepSyntaxError,
        UnknownAlgorithmError,
        UnknownFormatError,
        UnknownNumberingError,
        UnknownPieceError,
        UnknownRuleSetError,
        Violation,
        WorkerError,
    )
    from solver.family import Family
    from solver.notation.fen import position_fen, start_fen
    from solver.notation.ranks import format_rank, parse_id, parse_rank
    from solver.numbering.scharnagl import scharnagl_id, scharnagl_rank
    from solver.position import Position
    from solver.ruleset.reader import RuleSet, bundled_names, load
    from solver.syntax.steps import Numbering

__all__ = [
    "ArgumentTypeError",
    "ArmyError",
    "BandError",
    "BetzaError",
    "CastlingRightsError",
    # draws an arbiter can defend (solver/draws/)
    "CertificateError",
    "CertificateMismatchError",
    "Chess960Error",
    "CompressionError",
    "CountingTooLargeError",
    "DialectError",
    "DiceError",
    "DrawCountError",
    "DrawError",
    "EmptyFamilyError",
    "EngineError",
    "EvalTableError",
    "ExclusionError",
    "Family",
    "FenError",
    "FenSyntaxError",
    "IdError",
    "IdMismatchError",
    "IdRangeError",
    "IdSyntaxError",
    "InputFileError",
    "LinkError",
    "MirrorError",
    "NoFamilyError",
    "NoGamesError",
    "NotStartPositionError",
    "NotUniformError",
    "Numbering",
    "NumberingError",
    "NumberingLabelError",
    "OptionConflictError",
    "OutputFileError",
    "PairError",
    "PairOrderError",
    "PieceCountError",
    "Position",
    "ProcedureError",
    "RankError",
    "RankLengthError",
    "RecordIdError",
    "RuleFileError",
    "RuleSet",
    "RuleViolationError",
    "SearchTooLargeError",
    "SeedError",
    "SidesError",
    "StepSyntaxError",
    "UnknownAlgorithmError",
    "UnknownFormatError",
    "UnknownNumberingError",
    "UnknownPieceError",
    "UnknownRuleSetError",
    "Violation",
    "WorkerError",
    "__version__",
    "bundled_names",
    "format_rank",
    "load",
    "parse_id",
    "parse_rank",
    "position_fen",
    "scharnagl_id",
    "scharnagl_rank",
    "start_fen",
]


def __getattr__(name: str) -> _Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(_import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only (:data:`__all__`), not the helpers this module uses."""
    return sorted(__all__)
