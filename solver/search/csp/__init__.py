"""The one subpackage that talks to python-constraint.

It compiles a :class:`~solver.kinds.model.Model` into python-constraint problems
and runs them, in the way python-constraint2 splits itself:

* :mod:`solver.search.csp.constraints`: the constraint classes;
* :mod:`solver.search.csp.compile`: the model compiled into domains, tables and
  constraints (:class:`Plan`), searched part by part;
* :mod:`solver.search.csp.symmetry`: the mirror symmetry, proven on the tables;
* :mod:`solver.search.csp.workers`: the parts run in worker processes, batch by batch.

Nothing from a rule file reaches python-constraint's string compiler.
"""

from __future__ import annotations

from solver.processes import cores, stop_workers
from solver.search.csp.compile import TABLE_LIMIT, Batch, Part, Plan, compile_model
from solver.search.csp.constraints import (
    IncreasingConstraint,
    RequirementConstraint,
    TableConstraint,
)
from solver.search.csp.workers import MAX_WORKERS, SPLIT_ABOVE, batches

__all__ = [
    "MAX_WORKERS",
    "SPLIT_ABOVE",
    "TABLE_LIMIT",
    "Batch",
    "IncreasingConstraint",
    "Part",
    "Plan",
    "RequirementConstraint",
    "TableConstraint",
    "batches",
    "compile_model",
    "cores",
    "stop_workers",
]


