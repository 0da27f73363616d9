"""The chess-level model a rule set is solved as: pieces, squares, requirements.

This module speaks chess and knows nothing of the constraint library. Every
piece of the rank is a variable whose value is the file it stands on;
identical pieces are numbered (``R1``, ``R2``) and kept in order
(``R1 < R2``) so that each rank is found once. Rules either narrow a piece's
squares (folded into its domain) or add a :class:`Requirement` over some
pieces. :mod:`solver.csp` hands the model to python-constraint.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from math import factorial

from solver.board import colour

#: The default bound on a search: arrangements of the pieces before any rule.
#: The largest 12-file family (K, Q, R, B, N, A, C with five of them doubled)
#: has 12!/2**5 = 14,968,800, so every family within the format fits.
MAX_ARRANGEMENTS = 15_000_000

#: A test over the files of a requirement's pieces, in the requirement's order.
Test = Callable[..., bool]


@dataclass(frozen=True)
class Requirement:
    """A rule over some pieces: ``test(*files)`` must hold once all stand."""

    pieces: tuple[str, ...]
    test: Test
    rule: str


@dataclass(frozen=True)
class Ordered:
    """Identical pieces kept in file order, ``pieces[0] < pieces[1] < ...``."""

    pieces: tuple[str, ...]


@dataclass
class Model:
    """Pieces with their possible files and the requirements between them."""

    files: int
    pieces: str
    domains: dict[str, list[int]] = field(default_factory=dict)
    letter_of: dict[str, str] = field(default_factory=dict)
    instances: dict[str, tuple[str, ...]] = field(default_factory=dict)
    requirements: list[Requirement] = field(default_factory=list)
    #: Letters whose pair is told apart by colour (first dark, second light).
    colour_split: set[str] = field(default_factory=set)

    @classmethod
    def for_pieces(cls, files: int, pieces: str) -> Model:
        """A model with every piece free to stand on any file.

        >>> Model.for_pieces(8, "KQRRBBNN").instances["R"]
        ('R1', 'R2')
        """
        model = cls(files=files, pieces=pieces)
        for letter, count in Counter(pieces).items():
            names = (letter,) if count == 1 else tuple(f"{letter}{i}" for i in range(1, count + 1))
            model.instances[letter] = names
            for name in names:
                model.domains[name] = list(range(files))
                model.letter_of[name] = letter
        return model

    def restrict(self, letter: str, files: Iterable[int]) -> None:
        """Let every ``letter`` piece stand only on ``files``."""
        allowed = set(files)
        for name in self.instances[letter]:
            self.domains[name] = [f for f in self.domains[name] if f in allowed]

    def split_by_colour(self, letter: str) -> None:
        """Fold "this pair on opposite colours" into the domains.

        The first piece of the pair takes the dark squares, the second the
        light ones; this both states the rule and tells the two apart.
        """
        first, second = self.instances[letter]
        self.domains[first] = [f for f in self.domains[first] if colour(f) == "dark"]
        self.domains[second] = [f for f in self.domains[second] if colour(f) == "light"]
        self.colour_split.add(letter)

    def require(self, pieces: Iterable[str], test: Test, rule: str) -> None:
        """Add a requirement over the named pieces."""
        self.requirements.append(Requirement(tuple(pieces), test, rule))

    def ordered_groups(self) -> list[Ordered]:
        """Order constraints for the identical pieces not already told apart."""
        return [
            Ordered(names)
            for letter, names in self.instances.items()
            if len(names) > 1 and letter not in self.colour_split
        ]

    def arrangements(self) -> int:
        """The number of distinct arrangements of the pieces before any rule.

        >>> Model.for_pieces(8, "KQRRBBNN").arrangements()
        5040
        """
        total = factorial(len(self.pieces))
        for count in Counter(self.pieces).values():
            total //= factorial(count)
        return total

    def rank(self, files_of: dict[str, int]) -> str:
        """The rank a full assignment of pieces to files stands for."""
        squares = [""] * self.files
        for name, file in files_of.items():
            squares[file] = self.letter_of[name]
        return "".join(squares)
