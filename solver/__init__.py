"""chess960: start positions of Chess960 and its kin, stated as constraints.

Load a family's rules, let the constraint solver find its ranks, number them
canonically and prove the numbering against the published formula.

>>> from solver import Family
>>> chess960 = Family.load("chess960")
>>> chess960
<Family 'chess960': 960 positions>
>>> chess960.id("QNRBBNKR")
105
>>> chess960.position(518).fen()
'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'

The top level holds the API (:data:`__all__`) and the bases of the errors;
every error class is in :mod:`solver.errors`. The public names are imported
on first use (PEP 562), so that importing one part of the package (the
console command's start-up) loads only that part.
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
    "which": "solver.lists.which",
    "format_rank": "solver.notation.ranks",
    "parse_rank": "solver.notation.ranks",
    "start_fen": "solver.notation.fen",
    "scharnagl_id": "solver.numbering.scharnagl",
    "scharnagl_rank": "solver.numbering.scharnagl",
    **{
        # the root and its bases, one for each kind of failure (every leaf is in solver.errors)
        name: "solver.errors"
        for name in ("Chess960Error", "RuleFileError", "PositionError", "NumberingError",
                     "InputError", "DrawError", "LimitError", "EngineError", "WorkerError")
    },
}

if _TYPE_CHECKING:
    from typing import Any as _Any

    from solver import errors
    from solver.errors import (
        Chess960Error,
        DrawError,
        EngineError,
        InputError,
        LimitError,
        NumberingError,
        PositionError,
        RuleFileError,
        WorkerError,
    )
    from solver.family import Family
    from solver.lists.which import which
    from solver.notation.fen import start_fen
    from solver.notation.ranks import format_rank, parse_rank
    from solver.numbering.scharnagl import scharnagl_id, scharnagl_rank
    from solver.position import Position
    from solver.ruleset.reader import RuleSet, bundled_names, load
    from solver.syntax.steps import Numbering

#: The public names: the API, the errors' module and the errors' bases.
__all__ = [
    "Chess960Error",
    "DrawError",
    "EngineError",
    "Family",
    "InputError",
    "LimitError",
    "Numbering",
    "NumberingError",
    "Position",
    "PositionError",
    "RuleFileError",
    "RuleSet",
    "WorkerError",
    "__version__",
    "bundled_names",
    "errors",
    "format_rank",
    "load",
    "parse_rank",
    "scharnagl_id",
    "scharnagl_rank",
    "start_fen",
    "which",
]


def __getattr__(name: str) -> "_Any":
    if name == "errors":  # the module of every error class
        return _import_module("solver.errors")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(_import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only (:data:`__all__`), not the helpers this module uses."""
    return sorted(__all__)
