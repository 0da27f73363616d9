"""The games played from a start position (``--variant``): one class each, in a registry.

A variant says how its start FEN differs from chess's: the board (horde's
pawns), pieces in hand (``[]``), the castling field (none for antichess,
Black's only for horde, gating rights for Seirawan), extra fields (``3+3``)
and two boards (bughouse); and how to read such a FEN back into the plain one
a family reads (:meth:`Variant.read`). What depends on the program writing it
is asked of the *dialect* (:mod:`solver.notation.dialects`). A new variant is
one class with :func:`register`.

>>> VARIANTS["3check"].extra
('3+3',)
>>> list(VARIANTS)[:4]
['chess', 'crazyhouse', 'bughouse', 'atomic']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Final, Protocol, TypeVar

from solver.notation.fen import placement

if TYPE_CHECKING:
    from solver.ruleset.reader import RuleSet


class Writing(Protocol):
    """What a variant asks of the dialect writing it
    (see :class:`solver.notation.dialects.Dialect`)."""

    @property
    def name(self) -> str: ...
    @property
    def seirawan_hand(self) -> str: ...
    def castling(self, white: str, black: str) -> str: ...
    def gating(self, white: str, black: str) -> str: ...
    def join(self, fen: str) -> str: ...


_HAND_RE: Final = re.compile(r"\[[A-Za-z]*\]$")


class Variant:
    """A game played from a start position (the base: chess's own start FEN)."""

    #: The name ``--variant`` takes.
    name: ClassVar[str] = ""
    #: One line for ``--help`` and the documentation's table of variants.
    help: ClassVar[str] = ""
    #: The section (its anchor) of docs/reference/formats.md whose table lists it.
    doc: ClassVar[str] = "variants"
    #: Its PGN ``Variant`` tag, as python-chess, cutechess and the servers read it.
    pgn_tag: ClassVar[str] = ""
    #: How many files its board has.
    files: ClassVar[int] = 8
    #: Whether it is the game of a family of ``files`` files unless told.
    default: ClassVar[bool] = False
    #: Whether python-chess (so lichess) plays it.
    lichess: ClassVar[bool] = True
    #: Fields after the en-passant square (three-check's remaining checks).
    extra: ClassVar[tuple[str, ...]] = ()
    #: Whether its FEN holds only Black's rank (horde), so it cannot write a
    #: family whose sides are independent (each pair would lose White's rank).
    black_only: ClassVar[bool] = False

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    # -- writing ------------------------------------------------------------------

    def board(self, white: str, black: str) -> str:
        """The piece-placement field (``white`` and ``black`` upper case)."""
        return placement(white, black)

    def hand(self, dialect: Writing) -> str:
        """Pieces in hand, written after the placement (``[]``), or ``""``."""
        return ""

    def castling(self, white: str, black: str, dialect: Writing) -> str:
        """The castling field, as ``dialect`` writes it for this game."""
        return dialect.castling(white, black)

    def join(self, fen: str, dialect: Writing) -> str:
        """The whole start FEN from one board's (bughouse joins two)."""
        return fen

    def start_fen(self, white: str, black: str, dialect: Writing, counters: bool = True) -> str:
        """The start FEN from these back ranks (upper case), as ``dialect`` writes it.

        >>> from solver.notation.dialects import DIALECTS
        >>> VARIANTS["antichess"].start_fen("RNBQKBNR", "RNBQKBNR", DIALECTS["fsf"], False)
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -'
        """
        fields = [self.board(white, black) + self.hand(dialect), "w",
                  self.castling(white, black, dialect), "-", *self.extra]
        if counters:
            fields += ["0", "1"]
        fen = " ".join(fields)
        return self.join(fen, dialect) if counters else fen

    # -- reading back -------------------------------------------------------------

    def read(self, text: str, dialect: Writing) -> str:
        """The plain start FEN (the castling field as ``dialect`` writes chess's)
        of a FEN this game's ``dialect`` writes, for a family to read;
        what is not in the game's form is left as it is, for the family's
        reader to judge.

        >>> from solver.notation.dialects import DIALECTS
        >>> VARIANTS["horde"].read(
        ...     "qnrbbnkr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w hc - 0 1",
        ...     DIALECTS["fsf"])
        'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1'
        """
        fields = self.unjoin(text.strip(), dialect).split()
        if not fields:
            return text
        board = self.read_board(self.unhand(fields[0]))
        if self.extra and fields[4:4 + len(self.extra)] == list(self.extra):
            del fields[4:4 + len(self.extra)]
        rows = board.split("/")
        if len(fields) > 2 and rows[0].isalpha() and rows[-1].isalpha():
            white, black = rows[-1].upper(), rows[0].upper()
            if len(white) == len(black) and fields[2] == self.castling(white, black, dialect):
                fields[2] = dialect.castling(white, black)
        return " ".join([board, *fields[1:]])

    def unjoin(self, text: str, dialect: Writing) -> str:
        """One board's FEN of a whole start FEN (the inverse of :meth:`join`)."""
        return text

    def unhand(self, board: str) -> str:
        """The placement without the pieces in hand (the inverse of :meth:`hand`)."""
        return board

    def read_board(self, board: str) -> str:
        """The plain placement of this game's (the inverse of :meth:`board`)."""
        return board


VARIANTS: Final[dict[str, Variant]] = {}

_V = TypeVar("_V", bound=type[Variant])


def register(cls: _V) -> _V:
    """Add a variant class to :data:`VARIANTS` (a class decorator); complete,
    as a dialect is (:func:`solver.notation.dialects.register`), with its
    ``help``, its README row and its example in ``tests/registry_examples.py``."""
    if cls.name in VARIANTS:
        raise TypeError(f"variant {cls.name!r} is defined twice")
    VARIANTS[cls.name] = cls()
    return cls


class _Holdings(Variant):
    """A game with pieces in hand (``[]`` after the placement)."""

    def hand(self, dialect: Writing) -> str:
        return "[]"

    def unhand(self, board: str) -> str:
        return _HAND_RE.sub("", board)


@register
class Chess(Variant):
    name = "chess"
    help = "chess's own start FEN (the default on 8 files)"
    default = True


@register
class Crazyhouse(_Holdings):
    name = "crazyhouse"
    help = "pieces in hand: [] after the placement"
    pgn_tag = "Crazyhouse"


@register
class Bughouse(_Holdings):
    name = "bughouse"
    help = "crazyhouse's FEN; pychess writes both boards, joined by a bar"
    pgn_tag = "Bughouse960"
    lichess = False

    def join(self, fen: str, dialect: Writing) -> str:
        return dialect.join(fen)

    def unjoin(self, text: str, dialect: Writing) -> str:
        return text.split(" | ", maxsplit=1)[0]


@register
class Atomic(Variant):
    name = "atomic"
    help = "chess's start FEN; captures explode"
    pgn_tag = "Atomic"


@register
class KingOfTheHill(Variant):
    name = "kingofthehill"
    help = "chess's start FEN; a king in the centre wins"
    pgn_tag = "King of the Hill"


@register
class ThreeCheck(Variant):
    name = "3check"
    help = "the remaining checks 3+3 after the en-passant square"
    pgn_tag = "Three-check"
    extra = ("3+3",)


@register
class Antichess(Variant):
    name = "antichess"
    help = "no castling field (-)"
    pgn_tag = "Antichess"

    def castling(self, white: str, black: str, dialect: Writing) -> str:
        return "-"


#: White's side of a horde start, rank 4 down to rank 1 (Black's pawns are on rank 7).
_HORDE_WHITE: Final = ("1PP2PP1", "PPPPPPPP", "PPPPPPPP", "PPPPPPPP", "PPPPPPPP")


@register
class Horde(Variant):
    """Black's Chess960 rank against White's fixed 36 pawns (the rule files
    cannot state that side here, so it is written from Black's rank)."""

    name = "horde"
    help = "Black's rank against White's fixed 36 pawns; Black's castling only"
    pgn_tag = "Horde"
    black_only = True

    def board(self, white: str, black: str) -> str:
        return "/".join([black.lower(), "p" * 8, "8", *_HORDE_WHITE])

    def castling(self, white: str, black: str, dialect: Writing) -> str:
        # White has no king, so only Black's rights are kept (from Black's rank).
        field = dialect.castling(black, black)
        return "".join(c for c in field if c.islower()) or "-"

    def read_board(self, board: str) -> str:
        rows = board.split("/")
        if rows[1:] != ["p" * 8, "8", *_HORDE_WHITE]:
            return board
        return placement(rows[0].upper(), rows[0])


@register
class Seirawan(_Holdings):
    name = "seirawan"
    help = "hawk and elephant in hand, the castling field holding the gating rights"
    pgn_tag = "seirawan"
    lichess = False

    def hand(self, dialect: Writing) -> str:
        return dialect.seirawan_hand

    def castling(self, white: str, black: str, dialect: Writing) -> str:
        return dialect.gating(white, black)


@register
class Capablanca(Variant):
    name = "capablanca"
    help = "the 10-file game (the default on 10 files)"
    pgn_tag = "caparandom"
    files = 10
    default = True
    lichess = False


def default_variant(files: int) -> str:
    """The variant a family of ``files`` files plays unless told.

    >>> default_variant(8), default_variant(10)
    ('chess', 'capablanca')
    """
    return next((v.name for v in VARIANTS.values() if v.default and v.files == files), "chess")


#: Family variant names (the rule file's ``variant``, else its ``name``), lower
#: case, and their tag: ``""`` for standard chess from a set-up position.
FAMILY_TAGS: Final = {
    "chess960": "Chess960", "chess 960": "Chess960", "fischerandom": "Chess960",
    "fischerrandom": "Chess960", "fischer random": "Chess960",
    "fischer random chess": "Chess960",
    "dfrc": "Chess960", "double fischer random chess": "Chess960",
    "chess324": "", "kaufman random chess": "",
    "capablanca random chess": "caparandom", "caparandom": "caparandom",
    "capablanca-random": "caparandom",
    "horde960": "Horde", "racing kings": "Racing Kings", "racing-kings": "Racing Kings",
}


def pgn_variant(ruleset: RuleSet, variant: str | None = None) -> str | None:
    """The ``Variant`` tag value for a family (and game), ``""`` for none needed,
    or ``None`` when no program has a name for it.

    >>> from solver.ruleset.reader import load
    >>> pgn_variant(load("chess960")), pgn_variant(load("dfrc")), pgn_variant(load("chess324"))
    ('Chess960', 'Chess960', '')
    >>> pgn_variant(load("capablanca-random")), pgn_variant(load("shuffle"))
    ('caparandom', None)
    >>> pgn_variant(load("chess960"), "3check")
    'Three-check'
    """
    if variant is not None and VARIANTS[variant].pgn_tag:
        return VARIANTS[variant].pgn_tag
    for name in (ruleset.variant, ruleset.name):
        if name is not None and name.lower() in FAMILY_TAGS:
            return FAMILY_TAGS[name.lower()]
    return None
