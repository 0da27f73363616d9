"""What every rule kind shares: the :class:`Rule` base and its registry, the
:class:`Tracker` a kind counts with, and the :class:`Placement` it explains on.

A kind is one class deriving from :class:`Rule` with its own ``kind`` name;
defining it registers it (:data:`REGISTRY`, in the order defined). The kinds
themselves are in :mod:`solver.kinds.vocabulary`, which holds the complete
registry as :data:`~solver.kinds.vocabulary.KINDS`.

>>> from solver.kinds.vocabulary import KINDS
>>> KINDS["between"].keys
('piece', 'pair')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from solver.board.geometry import Region, piece_name
from solver.errors import Violation
from solver.kinds.model import Model
from solver.syntax.args import Context
from solver.syntax.steps import Step

# -- counting ------------------------------------------------------------------------------

#: A rule's state: any hashable value but ``None`` (which means the rule broke).
State = Any

#: A state standing for "this rule is settled, nothing later can break it".
DONE: Final = "done"


class Tracker:
    """What one rule needs to remember while a rank is placed file by file.

    A rank is built file by file, left to right; after some files the rest of
    the rank may be completed in a number of ways that depends only on the
    pieces still to place and each rule's state
    (:mod:`solver.numbering.counting`).
    """

    def start(self) -> State:
        """The state before any file is placed (never ``None``, which means broken)."""
        return 0

    def place(self, state: State, file: int, letter: str) -> State | None:
        """The state after ``letter`` goes on ``file``; ``None`` when the rule breaks."""
        raise NotImplementedError

    def finish(self, state: State) -> bool:
        """Whether a full rank that reached ``state`` obeys the rule."""
        return True

    def states(self, squares: int) -> int:
        """At most how many states the rule may be in, on a region of
        ``squares``, once how many of each piece are placed is known (the
        counting budget multiplies these, :mod:`solver.numbering.budget`)."""
        return 2


# -- explaining ----------------------------------------------------------------------------


class Placement:
    """A full rank, indexed by piece, for testing rules against it.

    ``names`` are the family's own pieces, for messages.

    >>> Placement("RNBQKBNR").two("BB")
    (2, 5)
    """

    def __init__(self, rank: str, names: Mapping[str, str] | None = None,
                 region: Region | None = None) -> None:
        self.rank = rank
        self.names = names or {}
        self.region = region or Region.rank_of(len(rank))
        self.colours = self.region.colours
        self.squares = self.region.names
        self.file_of = self.region.file_of
        self.files: dict[str, list[int]] = {}
        for file, letter in enumerate(rank):
            self.files.setdefault(letter, []).append(file)

    def name(self, letter: str, count: int = 1) -> str:
        """The piece's name in messages (``knights``, ``lance``)."""
        return piece_name(letter, count, self.names)

    def of(self, letter: str) -> list[int]:
        return self.files.get(letter, [])

    def two(self, pieces: str) -> tuple[int, int]:
        """The files of a pair (``BB``) or of two single pieces (``QA``)."""
        if pieces[0] == pieces[1]:
            first, second = self.of(pieces[0])
            return first, second
        return self.of(pieces[0])[0], self.of(pieces[1])[0]

    def at(self, *squares: int) -> list[str]:
        """The names of these squares of the region (``a1``)."""
        return [self.squares[i] for i in squares]

    def two_label(self, pieces: str) -> str:
        """How messages name two pieces: ``bishops``, ``queen and king``."""
        if pieces[0] == pieces[1]:
            return self.name(pieces[0], 2)
        return f"{self.name(pieces[0])} and {self.name(pieces[1])}"


def two_names(model: Model, pieces: str) -> tuple[str, str]:
    """The model's names of a pair (``BB``) or of two single pieces (``QA``)."""
    if pieces[0] == pieces[1]:
        first, second = model.instances[pieces[0]]
        return first, second
    return model.instances[pieces[0]][0], model.instances[pieces[1]][0]


def fill_step(steps: Sequence[Step]) -> Step | None:
    """The last step when it mixes pieces and so fills the squares left in order."""
    return steps[-1] if steps and steps[-1].fill else None


# -- the rule kinds ------------------------------------------------------------------------

#: Every rule kind defined so far, by the name rule files use, in the order
#: defined (filled by :meth:`Rule.__init_subclass__`).
REGISTRY: Final[dict[str, type[Rule]]] = {}


class Rule(ABC):
    """Base of every rule kind: its name in files, arguments and behaviour.

    A subclass that sets its own ``kind`` is a kind and is registered under
    that name; one without (a shared base such as a two-piece rule) is not.
    """

    kind: ClassVar[str]
    keys: ClassVar[tuple[str, ...]]
    #: Whether the rule depends only on the left-to-right order of its pieces,
    #: so that it can be tested on any row holding them in that order.
    order_only: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("kind")
        if name is None:
            return
        if name in REGISTRY:
            raise TypeError(f"rule kind {name!r} is defined twice "
                            f"({REGISTRY[name].__qualname__} and {cls.__qualname__})")
        REGISTRY[name] = cls

    @classmethod
    @abstractmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        """Read the rule's arguments from its ``[[rule]]`` table."""

    @property
    @abstractmethod
    def label(self) -> str:
        """How messages name this rule, e.g. ``opposite-colours BB``."""

    @abstractmethod
    def constrain(self, model: Model) -> None:
        """State this rule on the model."""

    @abstractmethod
    def violations(self, placement: Placement) -> list[Violation]:
        """Every way ``placement`` breaks this rule (empty if it holds)."""

    @abstractmethod
    def tracker(self, region: Region, pieces: str) -> Tracker:
        """What this rule remembers while a rank of ``pieces`` is placed on
        ``region`` square by square (its counting state)."""

    @property
    def letters(self) -> frozenset[str]:
        """The piece letters the rule is about (empty: it reads the whole rank)."""
        return frozenset()

    def words(self, names: Mapping[str, str] | None = None) -> str:
        """The rule as a sentence for people (``names``: the family's own pieces);
        by default the first line of the kind's description."""
        doc = (type(self).__doc__ or self.label).strip().splitlines()[0]
        return doc

    def captured_by(self, steps: Sequence[Step]) -> bool:
        """Whether placing pieces by ``steps`` already obeys this rule.

        Arithmetic numbering needs every rule captured; the default is no.
        """
        return False

    def justifies(self, step: Step) -> bool:
        """Whether this rule asks for the colour ``step`` places its piece on.

        A step that restricts colours (``B:light``, ``A:opposite-Q``) numbers
        exactly the family's ranks only when some rule asks for it.
        """
        return False
