"""chess960: start positions of Chess960 and its kin, stated as constraints.

Load a family's rules, let the constraint solver find its ranks, number them
canonically and prove the numbering against the published formula.

>>> from solver import Family
>>> chess960 = Family.load("chess960")
>>> chess960.identify("QNRBBNKR").id
105
>>> chess960.position(518).white
'RNBQKBNR'
"""

from solver.catalogue import Family, Position
from solver.errors import (
    CastlingRightsError,
    Chess960Error,
    DrawError,
    EmptyFamilyError,
    FenError,
    FenSyntaxError,
    IdError,
    IdRangeError,
    IdSyntaxError,
    MirrorError,
    NotStartPositionError,
    NumberingError,
    PairError,
    PieceCountError,
    RankError,
    RankLengthError,
    RuleFileError,
    RuleViolationError,
    SearchTooLargeError,
    UnknownPieceError,
    UnknownRuleSetError,
    Violation,
)
from solver.fen import position_fen, start_fen
from solver.notation import format_rank, parse_id, parse_rank
from solver.numbering import Numbering
from solver.rules import RuleSet, bundled_names, load
from solver.scharnagl import scharnagl_id, scharnagl_rank

__version__ = "0.1.0"

__all__ = [
    "CastlingRightsError",
    "Chess960Error",
    "DrawError",
    "EmptyFamilyError",
    "Family",
    "FenError",
    "FenSyntaxError",
    "IdError",
    "IdRangeError",
    "IdSyntaxError",
    "MirrorError",
    "NotStartPositionError",
    "Numbering",
    "NumberingError",
    "PairError",
    "PieceCountError",
    "Position",
    "RankError",
    "RankLengthError",
    "RuleFileError",
    "RuleSet",
    "RuleViolationError",
    "SearchTooLargeError",
    "UnknownPieceError",
    "UnknownRuleSetError",
    "Violation",
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
