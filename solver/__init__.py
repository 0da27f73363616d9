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

#: typing is the type checker's alone: importing it costs start-up.
_TYPE_CHECKING = False

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
            # the root and its bases, one for each kind of failure
            "Chess960Error", "RuleFileError", "PositionError", "NumberingError", "InputError",
            "DrawError", "LimitError", "EngineError", "WorkerError",
            # the leaves most often caught (every other one is in solver.errors)
            "ArgumentTypeError", "FenError", "IdError", "InvalidRuleFileError", "RankError",
            "RuleViolationError", "UnknownRuleSetError", "Violation",
        )
    },
}

if _TYPE_CHECKING:
    from typing import Any as _Any

    from solver.errors import (
        ArgumentTypeError,
        Chess960Error,
        DrawError,
        EngineError,
        FenError,
        IdError,
        InputError,
        InvalidRuleFileError,
        LimitError,
        NumberingError,
        PositionError,
        RankError,
        RuleFileError,
        RuleViolationError,
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
    "Chess960Error",
    "DrawError",
    "EngineError",
    "Family",
    "FenError",
    "IdError",
    "InputError",
    "InvalidRuleFileError",
    "LimitError",
    "Numbering",
    "NumberingError",
    "Position",
    "PositionError",
    "RankError",
    "RuleFileError",
    "RuleSet",
    "RuleViolationError",
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


def __getattr__(name: str) -> "_Any":
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(_import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only (:data:`__all__`), not the helpers this module uses."""
    return sorted(__all__)
