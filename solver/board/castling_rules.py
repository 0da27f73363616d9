"""A family's castling rule: which rooks give a side castling rights.

A family states its rule with the rule file's ``castling`` key
(:mod:`solver.ruleset.castling_keys` reads it); the board
(:class:`~solver.board.geometry.Layout`) carries it, and the FEN writer and
reader (:mod:`solver.notation.castling`) follow it:

* :data:`ROOKS` (``"rooks"``, the default): a side whose king stands between
  two rooks castles with the outermost rook on each side of it, as in Chess960;
* :data:`NO_CASTLING` (``"none"``): no side ever castles (the field is ``-``);
* :class:`FixedCastling` (a table ``{ king = "e", rooks = "ah" }``): a side
  castles only while its king stands on one of the king's files, with each rook
  standing on one of the rooks' files (pychess's shuffle chess, Placement
  chess: the classical squares);
* :class:`SubsetCastling` (``"subsets"``): every subset of the rights the rooks
  give is a position of its own, a numbered dimension of the family
  (Chess324 with TCEC's 16 castling variations).

A rule is plain data (frozen, hashable): it never sees a FEN, only the
upper-case back rank of one side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

_LETTERS: Final = "abcdefghijklmnop"

#: The four rights of the subset dimension, in the order of its bits (most
#: significant first): White's h-side and a-side, Black's h-side and a-side.
SUBSET_RIGHTS: Final = ("K", "Q", "k", "q")


def outermost_rooks(rank: str) -> tuple[int, ...]:
    """Files of the outermost rook on each side of the king, h-side first, or
    ``()`` when the king does not stand between two rooks.

    >>> outermost_rooks("RNBQKBNR"), outermost_rooks("RRKQBBNN")
    ((7, 0), ())
    """
    king = rank.find("K")
    if king < 0:
        return ()
    a_side = rank.find("R", 0, king)
    h_side = rank.rfind("R", king + 1)
    if a_side < 0 or h_side < 0:
        return ()
    return h_side, a_side


@dataclass(frozen=True)
class CastlingRule:
    """The base rule: castling as the rooks give it (:data:`ROOKS`)."""

    #: The rule's name in a rule file (``castling = "rooks"``).
    name: ClassVar[str] = "rooks"

    @property
    def default(self) -> bool:
        """Whether this is the default rule (the classical board's)."""
        return type(self) is CastlingRule

    @property
    def variations(self) -> int:
        """How many castling variations each placement of the pieces has (1,
        or 16 for :class:`SubsetCastling`)."""
        return 1

    def rooks(self, rank: str) -> tuple[int, ...]:
        """Files of the rooks a side with this back rank (upper case) may
        castle with, h-side first (``()``: none)."""
        return outermost_rooks(rank)

    def why_not(self, rank: str) -> str:
        """Why a side with this back rank has no right with a rook it does not
        castle with (words after "white ...")."""
        if "K" not in rank:
            return "has no king"
        if not outermost_rooks(rank):
            return "king does not stand between two rooks, so it cannot castle"
        return "castles only with the outermost rook on each side of the king"

    def allows(self) -> str:
        """What the rule allows, in words, for errors."""
        return "castling with the outermost rook on each side of the king"


#: Castling rights from the king and the outermost rooks (the default).
ROOKS: Final = CastlingRule()


@dataclass(frozen=True)
class NoCastling(CastlingRule):
    """No side ever castles."""

    name: ClassVar[str] = "none"

    def rooks(self, rank: str) -> tuple[int, ...]:
        return ()

    def why_not(self, rank: str) -> str:
        return "may never castle in this family"

    def allows(self) -> str:
        return "no castling"


#: No castling at all.
NO_CASTLING: Final = NoCastling()


@dataclass(frozen=True)
class FixedCastling(CastlingRule):
    """A side castles only while its king stands on one of ``king`` files, with
    each rook standing on one of ``rooks`` files (files from 0, the a-file).

    >>> rule = FixedCastling((4,), (0, 7))
    >>> rule.rooks("RNBQKBNR"), rule.rooks("NRBQKBNR"), rule.rooks("RNBKQBNR")
    ((7, 0), (7,), ())
    """

    king: tuple[int, ...] = (4,)
    rook_files: tuple[int, ...] = (0, 7)
    name: ClassVar[str] = "fixed"

    def rooks(self, rank: str) -> tuple[int, ...]:
        king = rank.find("K")
        if king not in self.king:
            return ()
        return tuple(sorted((f for f in self.rook_files if f < len(rank) and rank[f] == "R"),
                            reverse=True))

    def why_not(self, rank: str) -> str:
        return "has no such right here (the king or that rook is off its castling file)"

    def _where(self) -> str:
        kings = ",".join(_LETTERS[f] for f in self.king)
        rooks = ",".join(_LETTERS[f] for f in self.rook_files)
        return f"with the king on file {kings} and a rook on file {rooks}"

    def allows(self) -> str:
        return f"castling only {self._where()}"

    def describe(self) -> str:
        """The rule as a rule file writes it."""
        kings = "".join(_LETTERS[f] for f in self.king)
        rooks = "".join(_LETTERS[f] for f in self.rook_files)
        return f'{{ king = "{kings}", rooks = "{rooks}" }}'


@dataclass(frozen=True)
class SubsetCastling(CastlingRule):
    """Every subset of the rights the rooks give, as 16 variations of each
    placement: variation ``v`` keeps the rights whose bits are set in
    ``15 - v``, the bits ``K Q k q`` from the most significant (so variation 0
    is ``KQkq``, 15 is ``-``). A family's id is ``v * base + placement id``:
    the variation is the most significant digit, and ids ``0 .. base - 1`` are
    the placements with every right.

    >>> rule = SubsetCastling(324)
    >>> rule.split(5183), rule.kept(1), rule.kept(15)
    ((15, 323), ('K', 'Q', 'k'), ())
    """

    #: How many placements of the pieces (the family's count over 16).
    base: int = 1
    name: ClassVar[str] = "subsets"

    @property
    def variations(self) -> int:
        return 1 << len(SUBSET_RIGHTS)

    def split(self, number: int) -> tuple[int, int]:
        """A family id's variation and placement id."""
        return divmod(number, self.base)

    def join(self, variation: int, placement: int) -> int:
        """The family id of a placement in a variation."""
        return variation * self.base + placement

    def kept(self, variation: int) -> tuple[str, ...]:
        """The rights (of ``K Q k q``) variation ``variation`` keeps."""
        mask = self.variations - 1 - variation
        size = len(SUBSET_RIGHTS)
        return tuple(r for i, r in enumerate(SUBSET_RIGHTS) if mask >> (size - 1 - i) & 1)

    def variation(self, kept: set[str]) -> int:
        """The variation keeping the rights ``kept`` (of ``K Q k q``).

        >>> SubsetCastling(1).variation({"K", "q"})
        6
        """
        size = len(SUBSET_RIGHTS)
        mask = sum(1 << (size - 1 - i) for i, r in enumerate(SUBSET_RIGHTS) if r in kept)
        return self.variations - 1 - mask

    def why_not(self, rank: str) -> str:
        return ROOKS.why_not(rank)

    def allows(self) -> str:
        return ("any subset of castling with the outermost rook on each side of the king "
                "(each subset a position of its own)")
