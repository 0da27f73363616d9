"""The ``on-squares`` kind of rule: every piece of a kind stands on one of
some squares of the region (Sittuyin's rooks on the back rank only, where the
other pieces take any square of the side's half).

Defined apart from :mod:`solver.kinds.vocabulary`; it joins the registry of
kinds when this module is imported (:mod:`solver.ruleset.reader` does).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from solver.board.geometry import Region, piece_name, square_name
from solver.errors import Violation, quote
from solver.kinds.base import Placement, Rule, State, Tracker
from solver.kinds.holds import read_squares
from solver.kinds.model import Model
from solver.syntax.args import Context


@dataclass(frozen=True)
class OnSquares(Rule):
    """Every piece of a kind stands only on the listed squares (folded into domains)."""

    kind: ClassVar[str] = "on-squares"
    keys: ClassVar[tuple[str, ...]] = ("piece", "squares")
    piece: str
    squares: str
    indices: frozenset[int]

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        piece = ctx.piece(table, "piece")
        text = ctx.string(table, "squares")
        region = ctx.region or Region.rank_of(ctx.files or ctx.region_size)
        index = {sq: i for i, sq in enumerate(region.squares)}
        indices: set[int] = set()
        for square in read_squares(text, ctx):
            if square not in index:
                first = ", ".join(region.names[:4])
                raise ctx.error("squares", f"{square_name(*square)} in {quote(text)} is not a "
                                           f"square of the region ({first}...)")
            indices.add(index[square])
        return cls(piece, " ".join(text.split()), frozenset(indices))

    def words(self, names: Mapping[str, str] | None = None) -> str:
        return f"Every {piece_name(self.piece, 1, names)} stands only on {self.squares}."

    @property
    def label(self) -> str:
        return f"{self.kind} {self.piece} {self.squares}"

    @property
    def letters(self) -> frozenset[str]:
        return frozenset(self.piece)

    def constrain(self, model: Model) -> None:
        model.restrict(self.piece, sorted(self.indices))

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Squares(self.piece, self.indices)

    def violations(self, placement: Placement) -> list[Violation]:
        return [
            Violation(self.label, f"{placement.name(self.piece)} on {placement.squares[x]} is "
                      f"not on {self.squares}", placement.at(x))
            for x in placement.of(self.piece) if x not in self.indices
        ]


class _Squares(Tracker):
    """On-squares: a filter on the squares a piece may take."""

    def __init__(self, piece: str, indices: frozenset[int]) -> None:
        self.piece = piece
        self.indices = indices

    def place(self, state: State, file: int, letter: str) -> State | None:
        return state if letter != self.piece or file in self.indices else None

    def states(self, squares: int) -> int:
        return 1
