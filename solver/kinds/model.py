"""The chess-level model a rule set is solved as: pieces, squares, requirements.

This module speaks chess and knows nothing of the constraint library. Every
piece of the rank is a variable whose value is the file it stands on;
identical pieces are numbered (``R1``, ``R2``) and kept in order
(``R1 < R2``) so that each rank is found once. Rules either narrow a piece's
squares (folded into its domain) or add a :class:`Requirement` over some
pieces. :mod:`solver.search.csp` hands the model to python-constraint.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from math import factorial

from solver.board.geometry import Colour, Region, colour

#: The default bound on a search: arrangements of the pieces within the files
#: the rules allow them (:meth:`Model.search_size`). bench-12, the largest
#: bundled family, has 5,443,200 and lists in about 7 s; listing 5,443,200
#: ranks of an enumerated family took 300 s and 1 GB, so the limit sits just
#: above bench-12 (see rules/README.md).
MAX_ARRANGEMENTS = 6_000_000

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

    #: How many squares the pieces fill (a rank string's length).
    region_size: int
    pieces: str
    domains: dict[str, list[int]] = field(default_factory=dict)
    letter_of: dict[str, str] = field(default_factory=dict)
    instances: dict[str, tuple[str, ...]] = field(default_factory=dict)
    requirements: list[Requirement] = field(default_factory=list)
    #: Letters whose pair is told apart by colour (first dark, second light).
    colour_split: set[str] = field(default_factory=set)
    #: The colour and the board file of each square of the region (default: rank 1).
    colours: tuple[Colour, ...] = ()
    file_of: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.colours:
            self.colours = tuple(colour(f) for f in range(self.region_size))
        if not self.file_of:
            self.file_of = tuple(range(self.region_size))

    @classmethod
    def for_pieces(cls, region_size: int, pieces: str, region: Region | None = None) -> Model:
        """A model with every piece free to stand on any square of the region
        (``region_size`` squares; by default the first rank).

        >>> Model.for_pieces(8, "KQRRBBNN").instances["R"]
        ('R1', 'R2')
        """
        if region is None:
            model = cls(region_size=region_size, pieces=pieces)
        else:
            model = cls(region_size=region_size, pieces=pieces, colours=region.colours,
                        file_of=region.file_of)
        for letter, count in Counter(pieces).items():
            names = (letter,) if count == 1 else tuple(f"{letter}{i}" for i in range(1, count + 1))
            model.instances[letter] = names
            for name in names:
                model.domains[name] = list(range(region_size))
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
        self.domains[first] = [f for f in self.domains[first] if self.colours[f] == "dark"]
        self.domains[second] = [f for f in self.domains[second] if self.colours[f] == "light"]
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

    def search_size(self) -> int:
        """Arrangements of the pieces within their domains: the rules folded in.

        This is what a search may have to visit after the rules that narrow
        pieces' files (``on-files``, ``not-on-files``, ``opposite-colours``
        of a pair); the requirements between pieces are not counted. Counted
        exactly, file set by file set.

        >>> model = Model.for_pieces(8, "KQRRBBNN")
        >>> model.search_size()
        5040
        >>> model.split_by_colour("B")
        >>> model.search_size()
        2880
        """
        # Groups with the same files are counted as one, times the ways to
        # share its squares among them (else 16 kinds took minutes).
        alike: dict[frozenset[int], list[int]] = {}
        for group in self._groups():
            alike.setdefault(frozenset(self.domains[group[0]]), []).append(len(group))
        domains = list(alike)
        sizes = [sum(kinds) for kinds in alike.values()]
        shares = 1
        for kinds in alike.values():
            shares *= factorial(sum(kinds))
            for size in kinds:
                shares //= factorial(size)
        # File by file: which groups each file may take, and how many pieces
        # of each group are still to place (identical pieces fill their files
        # left to right, so each arrangement is counted once).
        ways: dict[tuple[int, ...], int] = {tuple(sizes): 1}
        for file in range(self.region_size):
            takers = [i for i, domain in enumerate(domains) if file in domain]
            grown: dict[tuple[int, ...], int] = {}
            for left, n in ways.items():
                if sum(left) < self.region_size - file:  # more squares than pieces
                    grown[left] = grown.get(left, 0) + n
                for i in takers:
                    if left[i]:
                        after = (*left[:i], left[i] - 1, *left[i + 1:])
                        grown[after] = grown.get(after, 0) + n
            ways = grown
        return shares * sum(ways.values())

    def _groups(self) -> list[tuple[str, ...]]:
        """Pieces placed together: a set of identical pieces in order, or one piece."""
        groups: list[tuple[str, ...]] = []
        for letter, names in self.instances.items():
            if len(names) > 1 and letter not in self.colour_split:
                groups.append(names)
            else:
                groups.extend((name,) for name in names)
        return groups

    def rank(self, files_of: dict[str, int]) -> str:
        """The rank a full assignment of pieces to files stands for."""
        squares = [""] * self.region_size
        for name, file in files_of.items():
            squares[file] = self.letter_of[name]
        return "".join(squares)
