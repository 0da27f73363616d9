"""How many counting states :mod:`solver.numbering.counting` may keep: the bound.

Counting a family costs about one step per *state* it meets (the pieces
still to place and each rule's state), not per rank, so its time and memory
follow the number of states. A family whose states would exceed the bound
is refused before counting starts
(:class:`~solver.errors.CountingTooLargeError`); the command line raises the
bound with ``--max-states N``. Kept apart, with no imports, so that the
command line can set it without loading the counting engine.

>>> max_states() == MAX_STATES
True
"""

from __future__ import annotations

from typing import Final

#: The default bound on counting states (a state costs about 1-3 µs and
#: 100-300 bytes to count; see ``rules/README.md``, Limits).
MAX_STATES: Final = 1_000_000

_limit = [MAX_STATES]


def max_states() -> int:
    """The bound new counters take (:data:`MAX_STATES` unless set)."""
    return _limit[0]


def set_max_states(limit: int) -> None:
    """Set the bound new counters take (the ``--max-states`` option)."""
    if limit < 1:
        raise ValueError(f"the bound on counting states must be positive, got {limit!r}")
    _limit[0] = limit
