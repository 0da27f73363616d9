"""A start position: its ID and both sides' back ranks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.board import Layout


@dataclass(frozen=True)
class Position:
    """A start position: its ID and both sides' ranks (equal when mirrored).

    Ranks are upper-case letters, each side's back rank from the a-file on.
    ``layout`` is the board around them when it is not the classical one
    (another size, other pawns, Black rotated, a fixed White army); with a
    fixed White army ``white`` is Black's rank too.

    >>> Position(518, "RNBQKBNR", "RNBQKBNR").white
    'RNBQKBNR'
    """

    id: int
    white: str
    black: str
    layout: Layout | None = field(default=None, compare=False, repr=False)
