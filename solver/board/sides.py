"""How Black's pieces answer White's: one class per ``sides`` value of a rule file.

Each relation is a class registered in :data:`SIDES` under the name a rule
file gives (``sides = "rotate"``); the code asks the relation object what it
needs (:meth:`Sides.black_rank`, :meth:`Sides.pair_count`, ...) instead of
comparing names. A new relation is one class with :func:`register`.

>>> side_relation("rotate").black_rank("RNBQKBNR")
'RNBKQBNR'
>>> side_relation("independent").pair_count(960)
921600
>>> list(SIDES)
['mirror', 'independent', 'rotate', 'mirror-files', 'white-fixed', 'independent-rotate']
"""

from __future__ import annotations

from math import isqrt
from typing import ClassVar, Final, TypeVar


class Sides:
    """How Black's rank relates to White's (the base: ``mirror``'s behaviour).

    Relations are values: two objects of one class are equal (so one pickled
    to another process is still the relation), and a relation equals its name.

    >>> ROTATE == "rotate", ROTATE == MIRROR
    (True, False)
    """

    __slots__ = ()

    #: The name a rule file gives (``sides = "..."``).
    name: ClassVar[str] = ""
    #: One line for the rule files' documentation.
    help: ClassVar[str] = ""
    #: The section of rules/README.md (its anchor) whose table lists it.
    doc: ClassVar[str] = "boards"
    #: Whether Black's rank is one of its own, numbered apart: a position is a pair of ranks.
    independent: ClassVar[bool] = False
    #: Whether White stands on fixed squares and the family's rank is Black's.
    fixed_white: ClassVar[bool] = False
    #: Whether the relation may stand on the classical board (a plain FEN writes it).
    classical: ClassVar[bool] = False
    #: The error for a rule file without ``region``, when the relation needs one.
    region_missing: ClassVar[str | None] = None
    #: The error for a rule file with ``region``, when the relation takes none.
    region_refused: ClassVar[str | None] = None
    #: The error for pawns with a region, when they cannot stand with this relation.
    pawns_refused: ClassVar[str | None] = None

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return other == self.name
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(self.name)

    def pair_count(self, n: int) -> int:
        """How many positions ``n`` ranks a side make.

        >>> MIRROR.pair_count(960), INDEPENDENT.pair_count(3)
        (960, 9)
        """
        return n * n if self.independent else n

    def side_count(self, count: int) -> int:
        """How many ranks a side has, of a family of ``count`` positions.

        >>> INDEPENDENT.side_count(921600)
        960
        """
        return isqrt(count) if self.independent else count

    def count_problem(self, count: int) -> str | None:
        """Why ``count`` cannot be a family's count under this relation, or ``None``."""
        if self.independent and isqrt(count) ** 2 != count:
            return (f"{count} is not a square, but with independent sides "
                    "the count is one side's count squared")
        return None

    def pair_id(self, white: int, black: int, n: int) -> int:
        """The position's ID from each side's rank ID (``n`` ranks a side).

        >>> MIRROR.pair_id(5, 5, 960), INDEPENDENT.pair_id(105, 518, 960)
        (5, 101318)
        """
        return white * n + black if self.independent else white

    def black_rank(self, white: str) -> str:
        """Black's rank, from the a-file on, for White's ``white`` (on the first rank)."""
        return white

    def black_square(self, square: tuple[int, int], files: int, ranks: int) -> tuple[int, int]:
        """Where Black's piece stands for White's on ``square`` of a ``files`` x ``ranks`` board.

        >>> MIRROR.black_square((0, 1), 8, 8), ROTATE.black_square((0, 1), 8, 8)
        ((0, 8), (7, 8))
        """
        f, r = square
        return f, ranks + 1 - r

    def mismatch(self, white: str) -> str:
        """How a Black rank that does not answer White's ``white`` is described."""
        return f"does not mirror white's {white!r}"


#: Every relation, by the name a rule file gives, in the order the docs list them.
SIDES: Final[dict[str, Sides]] = {}

_S = TypeVar("_S", bound=type[Sides])


def register(cls: _S) -> _S:
    """Add a relation class to :data:`SIDES` (a class decorator); complete with
    its ``help`` and its row in rules/README.md's table (section ``doc``),
    which tests/test_structure.py checks."""
    if cls.name in SIDES:
        raise TypeError(f"sides {cls.name!r} is defined twice")
    SIDES[cls.name] = cls()
    return cls


def side_relation(name: str) -> Sides:
    """The relation named ``name`` (raises ``KeyError`` for an unknown name;
    a rule file's reader says which names there are).

    >>> side_relation("mirror") == MIRROR
    True
    """
    return SIDES[name]


@register
class Mirror(Sides):
    name = "mirror"
    help = "the same letters from the a-file on"
    classical = True


@register
class Independent(Sides):
    name = "independent"
    help = "a rank of its own"
    independent = True
    classical = True


@register
class Rotate(Sides):
    name = "rotate"
    help = "the board turned 180 degrees: White's rank read backwards"

    def black_rank(self, white: str) -> str:
        return white[::-1]

    def black_square(self, square: tuple[int, int], files: int, ranks: int) -> tuple[int, int]:
        f, r = square
        return files - 1 - f, ranks + 1 - r

    def mismatch(self, white: str) -> str:
        return f"is not white's {white!r} turned half round ({white[::-1].lower()!r})"


@register
class MirrorFiles(Sides):
    name = "mirror-files"
    help = "reflected left to right on the same ranks"
    region_missing = ("missing: with sides = 'mirror-files' White's pieces "
                      "fill part of the ranks, such as 'e1-h2'")
    pawns_refused = ("with sides = 'mirror-files' both sides stand on the same "
                     "ranks, so pawns cannot mirror them; set pawns = 'none'")

    def black_square(self, square: tuple[int, int], files: int, ranks: int) -> tuple[int, int]:
        f, r = square
        return files - 1 - f, r


@register
class WhiteFixed(Sides):
    name = "white-fixed"
    help = "White stands on fixed squares; the family's rank is Black's"
    fixed_white = True
    region_refused = ("with sides = 'white-fixed' the family's rank is Black's "
                      "last rank; a region is not taken")


@register
class IndependentRotate(Rotate):
    name = "independent-rotate"
    help = "a rank of its own, on the board turned 180 degrees (Sittuyin)"
    independent = True

    def black_rank(self, white: str) -> str:
        return white


MIRROR: Final = side_relation("mirror")
INDEPENDENT: Final = side_relation("independent")
ROTATE: Final = side_relation("rotate")
