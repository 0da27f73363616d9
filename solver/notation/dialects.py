"""Start FENs in the dialects of other programs, for the 960 versions of variants.

A *variant* is the game played from the start position (``chess``,
``crazyhouse``, ``3check``, ...); a *dialect* is how a program writes its
FEN:

* ``xfen``: X-FEN castling (``KQkq``, a rook's file letter where ``K``/``Q``
  would be ambiguous), as python-chess writes Chess960; the default;
* ``shredder``: Shredder-FEN castling (the rooks' files, h-side first);
* ``lichess``: python-chess's (and lichess's) FENs: X-FEN, ``[]`` holdings
  for crazyhouse, ``3+3`` remaining checks for three-check, ``-`` castling
  for antichess; no bughouse, Seirawan or Capablanca;
* ``fsf``: Fairy-Stockfish's Chess960 FENs (``pyffish.get_fen(..., True)``):
  Shredder letters, ``[]`` holdings, ``3+3``, and for Seirawan the pieces in
  hand ``[EHeh]``;
* ``pychess``: pychess-variants' FENs (``FairyBoard.shuffle_start``): as
  ``fsf`` but the castling letters a-side first (``AHah``; X-FEN's ``KQkq``
  for a family whose rule file says ``pychess-castling = "xfen"``, as
  pychess-variants writes its fixed CWDA starts), Black's only
  for horde (``ch``), Seirawan's hand ``[HEhe]`` and its field the X-FEN
  castling letters then the files of the bishops, the queen and the knights
  (``KQCFDBGkqcfdbg`` for RNBQKBNR); bughouse is the two boards' FENs joined
  by `` | `` (full FENs only).

Seirawan's castling field carries the gating rights in every dialect: each
side's castling letters, then the files of its other back-rank pieces
(:meth:`Dialect.gating`).

Each dialect is a class in :data:`DIALECTS`, each variant one in
:data:`~solver.notation.variants.VARIANTS`; a new one is one class. What a
dialect writes, :func:`read_fen` reads back into the plain FEN a family
reads (``chess960 id --variant ... --dialect ...``; ``chess960 lint``).

Horde is Black's Chess960 rank against White's fixed 36 pawns, written
here from Black's rank (the family ``horde960`` states the whole board).

>>> start_fen("QNRBBNKR", variant="crazyhouse", dialect="fsf")
'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w HChc - 0 1'
>>> start_fen("QNRBBNKR", variant="3check", dialect="lichess")
'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 3+3 0 1'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final, TypeVar

from solver.board.geometry import Layout
from solver.errors import DialectError
from solver.notation.castling import side_rights
from solver.notation.fen import castling_field, check_castling, layout_fen, placement
from solver.notation.hands import gates as _gates
from solver.notation.hands import hand_text, same_hand, split_hand
from solver.notation.hands import pychess_gates as _pychess_gating
from solver.notation.variants import (
    VARIANTS,
    Antichess,
    Bughouse,
    Seirawan,
    Variant,
    default_variant,
)

__all__ = ["DIALECTS", "VARIANTS", "Dialect", "FenSides", "Variant", "check_style",
           "default_variant", "dialect_named", "family_fen", "family_refusal", "fen_sides",
           "plain_dialects", "read_any", "read_any_as", "read_fen", "read_game", "start_fen",
           "variant_named", "writes_plain"]


class Dialect:
    """How a program writes its FEN (the base: X-FEN castling, as python-chess writes Chess960).

    A variant asks its dialect for what differs from program to program:
    the castling letters and their order, Seirawan's hand and gating field,
    bughouse's two boards.
    """

    #: The name ``--dialect`` takes.
    name: ClassVar[str] = ""
    #: One line for ``--help`` and the documentation's table of dialects.
    help: ClassVar[str] = ""
    #: The section (its anchor) of docs/reference/formats.md whose table lists it.
    doc: ClassVar[str] = "dialects"
    #: Whether it writes any family's own FEN, on any board, when no variant is named.
    plain: ClassVar[bool] = False
    #: Whether its castling letters are the rooks' files (Shredder-FEN) rather than ``KQkq``.
    shredder: ClassVar[bool] = False
    #: Seirawan's pieces in hand.
    seirawan_hand: ClassVar[str] = "[HEhe]"
    #: Whether its EPD lines write a family's covered start (``covered``) as its
    #: publisher shows it, the deal in the operations ``wj`` and ``bj``
    #: (:mod:`solver.notation.covered`); a FEN, which cannot carry the deal,
    #: shows the position revealed.
    covered: ClassVar[bool] = False

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def refuses(self, variant: Variant) -> str | None:
        """Why this program does not play ``variant``, or ``None`` when it does."""
        return None

    def write(self, variant: Variant, white: str, black: str, counters: bool = True) -> str:
        """The start FEN of ``variant`` from these back ranks (upper case), as this program
        writes it (see :func:`start_fen`, which checks that it can).

        >>> DIALECTS["fsf"].write(VARIANTS["crazyhouse"], "QNRBBNKR", "QNRBBNKR")
        'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w HChc - 0 1'
        """
        return variant.start_fen(white, black, self, counters)

    def read(self, variant: Variant, text: str) -> str:
        """The plain start FEN a family reads, of a start FEN of ``variant`` as this
        program writes it (what is not in that form is left for the family to judge).

        >>> DIALECTS["pychess"].read(VARIANTS["antichess"],
        ...                          "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w - - 0 1")
        'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w CHch - 0 1'
        """
        return variant.read(text, self)

    def castling(self, white: str, black: str) -> str:
        """The castling field of these back ranks (upper case).

        >>> DIALECTS["pychess"].castling("QNRBBNKR", "QNRBBNKR")
        'CHch'
        """
        return self.order(castling_field(white, black, self.shredder))

    def order(self, field: str) -> str:
        """A castling field's letters in this program's order (h-side first by default)."""
        return field

    def files_for(self, layout: Layout) -> bool:
        """Whether a family's castling field is written with the rooks' files
        (Shredder-FEN letters) rather than X-FEN's."""
        return self.shredder

    def side(self, rank: str) -> str:
        """One side's part of :meth:`castling` (upper case, ``""``: none): the
        letters a back rank (upper case) gives whoever's it is.

        >>> DIALECTS["pychess"].side("QNRBBNKR"), DIALECTS["xfen"].side("RRKQBBNN")
        ('CH', '')
        """
        return self.order(side_rights(rank, self.shredder))

    def gating_side(self, rank: str) -> str:
        """One side's part of :meth:`gating` (upper case).

        >>> DIALECTS["xfen"].gating_side("RNBQKBNR")
        'KQBCDFG'
        """
        return _gates(rank, self.side(rank), self.shredder)

    def gating(self, white: str, black: str) -> str:
        """Seirawan's castling field: each side's castling rights, then its gating
        squares (see :func:`_gates`), White's first.

        >>> DIALECTS["xfen"].gating("RNBQKBNR", "RNBQKBNR")
        'KQBCDFGkqbcdfg'
        >>> DIALECTS["shredder"].gating("RNBQKBNR", "RNBQKBNR")
        'HABCDEFGhabcdefg'
        """
        field = self.order(castling_field(white, black, self.shredder))
        return (_gates(white, "".join(c for c in field if c.isupper()), self.shredder)
                + _gates(black, "".join(c for c in field if c.islower()).upper(),
                         self.shredder).lower())

    def join(self, fen: str) -> str:
        """Bughouse's whole FEN from one board's: that board's, by default."""
        return fen


DIALECTS: Final[dict[str, Dialect]] = {}

_D = TypeVar("_D", bound=type[Dialect])


def register(cls: _D) -> _D:
    """Add a dialect class to :data:`DIALECTS` (a class decorator; the default first).

    An entry is complete when it has its ``name``, its ``help`` line, its row
    in the README's table (section ``doc``) and its example in
    ``tests/registry_examples.py``; tests/test_structure.py names what a new
    one lacks."""
    if cls.name in DIALECTS:
        raise TypeError(f"dialect {cls.name!r} is defined twice")
    DIALECTS[cls.name] = cls()
    return cls


@register
class XFen(Dialect):
    name = "xfen"
    help = "X-FEN castling: KQkq, a rook's file where K or Q is ambiguous (the default)"
    plain = True


@register
class Shredder(Dialect):
    name = "shredder"
    help = "Shredder-FEN castling: the rooks' files, h-side first"
    plain = True
    shredder = True


@register
class Lichess(Dialect):
    """python-chess's (and lichess's) FENs: X-FEN; no bughouse, Seirawan or Capablanca."""

    name = "lichess"
    help = ("python-chess's and lichess's FENs: X-FEN, [] holdings, 3+3 checks; "
            "no bughouse, Seirawan or Capablanca")

    def refuses(self, variant: Variant) -> str | None:
        return None if variant.lichess else (
            f"lichess and python-chess do not play {variant.name!r}")


@register
class Fsf(Dialect):
    """Fairy-Stockfish's Chess960 FENs: Shredder letters; Seirawan's hand
    ``[EHeh]`` and every back-rank file as a gating right."""

    name = "fsf"
    help = ("Fairy-Stockfish's Chess960 FENs: Shredder letters, [] holdings, 3+3, "
            "Seirawan's hand [EHeh]")
    shredder = True
    seirawan_hand = "[EHeh]"


@register
class Pychess(Dialect):
    """pychess-variants' FENs: Shredder letters a-side first, Seirawan's
    ``KQ`` and piece files, bughouse's boards joined by `` | ``."""

    name = "pychess"
    help = ("pychess-variants' FENs: as fsf, letters a-side first (KQkq where the rule file "
            "says pychess-castling = xfen: CWDA), Seirawan's [HEhe], bughouse's two boards, "
            "Jieqi's covered pieces in EPD")
    shredder = True
    covered = True

    def order(self, field: str) -> str:
        return field if field == "-" else _a_side_first(field)

    def files_for(self, layout: Layout) -> bool:
        return layout.pychess_castling == "files"  # (X-FEN for its fixed starts: CWDA's)

    def gating(self, white: str, black: str) -> str:
        field = castling_field(white, black, False)
        return (_pychess_gating(white, "".join(c for c in field if c.isupper()))
                + _pychess_gating(black, "".join(c for c in field if c.islower()).upper()).lower())

    def gating_side(self, rank: str) -> str:
        return _pychess_gating(rank, side_rights(rank))

    def join(self, fen: str) -> str:
        return f"{fen} | {fen}"


def plain_dialects() -> str:
    """The dialects that write any family's own FEN, for messages.

    >>> plain_dialects()
    'xfen and shredder'
    """
    names = [n for n, d in DIALECTS.items() if d.plain]
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def writes_plain(dialect: str) -> bool:
    """Whether ``dialect`` is known and writes any family's own FEN (``xfen``, ``shredder``).

    >>> writes_plain("shredder"), writes_plain("fsf"), writes_plain("uci")
    (True, False, False)
    """
    found = DIALECTS.get(dialect)
    return found is not None and found.plain


def variant_named(variant: str, dialect: str = "xfen") -> Variant:
    """The variant named ``variant`` (raises :class:`~solver.errors.DialectError`)."""
    if variant not in VARIANTS:
        raise DialectError(variant, dialect, f"unknown variant {variant!r}; variants are "
                                             f"{', '.join(VARIANTS)}")
    return VARIANTS[variant]


def dialect_named(dialect: str, variant: str = "-") -> Dialect:
    """The dialect named ``dialect`` (raises :class:`~solver.errors.DialectError`)."""
    if dialect not in DIALECTS:
        raise DialectError(variant, dialect, f"unknown dialect {dialect!r}; dialects are "
                                             f"{', '.join(DIALECTS)}")
    return DIALECTS[dialect]


def check_style(variant: str, dialect: str, files: int, independent: str | None = None) -> None:
    """Raise :class:`~solver.errors.DialectError` unless ``variant`` and
    ``dialect`` can be written for a family of ``files`` files (``independent``:
    the name of a family whose sides are independent, such as ``dfrc``).

    >>> check_style("horde", "xfen", 8, independent="dfrc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.DialectError: horde writes only Black's rank, so it cannot write a dfrc ...
    """
    game = variant_named(variant, dialect)
    writer = dialect_named(dialect, variant)
    if files != game.files:
        raise DialectError(variant, dialect,
                           f"variant {variant!r} is played on {game.files} files, not {files}")
    if game.black_only and independent is not None:
        raise DialectError(variant, dialect,
                           f"{variant} writes only Black's rank, so it cannot write a "
                           f"{independent} position, whose White's rank is its own")
    refused = writer.refuses(game)
    if refused is not None:
        raise DialectError(variant, dialect, refused)


def _a_side_first(field: str) -> str:
    """Each side's letters in a-to-h order, White's first (pychess-variants).

    >>> _a_side_first("HChc")
    'CHch'
    """
    white = sorted(c for c in field if c.isupper())
    black = sorted(c for c in field if c.islower())
    return "".join(white + black)


def start_fen(
    white: str,
    black: str | None = None,
    *,
    variant: str | None = None,
    dialect: str = "xfen",
    counters: bool = True,
) -> str:
    """The start FEN of ``variant`` from these back ranks, as ``dialect`` writes it.

    ``variant=None`` is the family's own game: for ``xfen`` and ``shredder``
    the plain FEN on any number of files (:func:`solver.notation.fen.start_fen`), for
    the programs' dialects :func:`default_variant`. ``counters=False`` leaves
    the move counters out (EPD's four fields, with a variant's extra field
    such as ``3+3`` kept).

    >>> start_fen("RNABQKBCNR", dialect="shredder", counters=False)
    'rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w JAja -'

    >>> start_fen("RNBQKBNR", variant="horde", dialect="fsf")
    'rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w ha - 0 1'
    >>> start_fen("RNBQKBNR", variant="seirawan", dialect="pychess", counters=False)
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQCFDBGkqcfdbg -'
    """
    black = (black if black is not None else white).upper()
    white = white.upper()
    if variant is None:
        if writes_plain(dialect):
            fields = [placement(white, black), "w",
                      castling_field(white, black, DIALECTS[dialect].shredder), "-"]
            return " ".join(fields + (["0", "1"] if counters else []))
        variant = default_variant(len(white))
    check_style(variant, dialect, len(white))
    return DIALECTS[dialect].write(VARIANTS[variant], white, black, counters)


def _same(fen: str) -> str:
    return fen


#: The characters a split FEN's fixed text may hold (none that JSON, CSV or a
#: PGN tag would escape or quote).
_PLAIN: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/ -[]+|")


@dataclass(frozen=True)
class FenSides:
    """:func:`start_fen` on the classical board as what each side's rank gives
    (:func:`fen_sides`): ``join(top + WHITE + hand + " w " + (side(WHITE) +
    side(BLACK).lower() or none) + tail)``, ``top`` the placement down to
    White's rank; ranks in upper case. Its fixed text is plain (letters,
    digits, ``/ -[]+|``: nothing JSON, CSV or a PGN tag escapes).

    >>> sides = fen_sides("crazyhouse", "pychess", 8)
    >>> sides.fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/", "QNRBBNKR", "RNBQKBNR")
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w CHah - 0 1'
    """

    #: Pieces in hand after the placement (``[]``), or ``""``.
    hand: str
    #: One side's part of the castling field (upper case).
    side: Callable[[str], str]
    #: The castling field when neither side has a part (``-``; ``""`` for Seirawan's).
    none: str
    #: What follows the castling field: the en-passant square, extra fields, counters.
    tail: str
    #: The whole FEN from one board's (bughouse joins two).
    join: Callable[[str], str] = _same

    def fen(self, top: str, white: str, black: str) -> str:
        """The FEN of these ranks (upper case) below ``top``."""
        castling = self.side(white) + self.side(black).lower() or self.none
        return self.join(f"{top}{white}{self.hand} w {castling}{self.tail}")


def fen_sides(variant: str | None, dialect: str, files: int,
              counters: bool = True) -> FenSides | None:
    """How :func:`start_fen` of ``variant`` in ``dialect`` on the classical
    board of ``files`` files splits into what each side's rank gives, or
    ``None`` when it does not (Horde's board is Black's rank alone; a style
    that cannot be written on such a board; a variant or dialect whose
    board, castling or joining is not one of those known here): those FENs
    are written whole.

    >>> fen_sides(None, "shredder", 8, counters=False).tail
    ' -'
    >>> fen_sides("3check", "lichess", 8).tail
    ' - 3+3 0 1'
    >>> fen_sides("horde", "fsf", 8) is None, fen_sides("chess", "fsf", 10) is None
    (True, True)
    """
    writer = DIALECTS.get(dialect)
    if writer is None:
        return None
    if variant is None and writer.plain:
        game = VARIANTS["chess"]  # the plain FEN: chess's, on any number of files
    else:
        name = variant if variant is not None else default_variant(files)
        try:
            check_style(name, dialect, files)
        except DialectError:
            return None
        game = VARIANTS[name]
    kind, style = type(game), type(writer)
    if (kind.board is not Variant.board or kind.start_fen is not Variant.start_fen
            or style.write is not Dialect.write or style.castling is not Dialect.castling
            or style.order not in (Dialect.order, Pychess.order)):
        return None
    side: Callable[[str], str]
    if kind.castling is Variant.castling:
        side, none = writer.side, "-"
    elif kind.castling is Antichess.castling:
        side, none = _nothing, "-"
    elif kind.castling is Seirawan.castling and style.gating in (Dialect.gating, Pychess.gating):
        side, none = writer.gating_side, ""
    else:
        return None
    join: Callable[[str], str] = _same
    if counters and kind.join is Bughouse.join and style.join in (Dialect.join, Pychess.join):
        join = writer.join
    elif counters and kind.join is not Variant.join:
        return None
    hand = game.hand(writer)
    tail = " ".join(["", "-", *game.extra, *(["0", "1"] if counters else [])])
    if not set(hand + tail + join("")) <= _PLAIN:
        return None
    return FenSides(hand, side, none, tail, join)


def _nothing(rank: str) -> str:
    return ""


def read_fen(text: str, variant: str, dialect: str = "xfen") -> str:
    """The plain start FEN a family reads, of a start FEN of ``variant`` as
    ``dialect`` writes it (:meth:`~solver.notation.variants.Variant.read`).

    >>> read_fen("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w HChc - 0 1",
    ...          "crazyhouse", "fsf")
    'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1'
    >>> read_fen("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 3+3 0 1", "3check")
    'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1'
    """
    game = variant_named(variant, dialect)
    return dialect_named(dialect, variant).read(game, text)


def family_refusal(layout: Layout, dialect: str) -> str | None:
    """Why ``dialect``'s program cannot play a family on this board of its own
    (``None``: it can, and :func:`family_fen` writes it).

    Fairy-Stockfish and pychess-variants play every FEN board (pieces in
    hand and gating included); python-chess (lichess) plays eight by eight
    boards of chess's pieces, crazyhouse's empty hand among them. SFEN
    families are written only as SFEN (the plain dialects).

    >>> from solver.board.geometry import Layout
    >>> family_refusal(Layout(8, sides="rotate"), "lichess") is None
    True
    >>> family_refusal(Layout(10, hand=""), "lichess")
    'lichess and python-chess play only 8x8 boards of chess pieces'
    """
    writer = dialect_named(dialect)
    if writer.plain:
        return None
    if layout.notation == "sfen":
        return "the family is written in sfen, which only the dialects xfen and shredder write"
    if writer.name == "lichess" and (
            layout.files != 8 or layout.ranks != 8 or layout.names or layout.gating
            or (layout.hand not in (None, ""))):
        return "lichess and python-chess play only 8x8 boards of chess pieces"
    return None


def family_fen(layout: Layout, white: str, black: str, dialect: str,
               counters: bool = True, number: int | None = None) -> str:
    """The start FEN of a family on a board of its own, as ``dialect`` writes it:
    its castling letters in the program's style and order, its hand as the
    program orders it (Fairy-Stockfish sorts each side's letters), its gating
    field as the program writes Seirawan's. ``number`` is the position's ID,
    which a family with castling variations needs for its rights.

    >>> from solver.board.geometry import Layout
    >>> family_fen(Layout(8, hand="HE", gating=True), "RNBQKBNR", "RNBQKBNR", "fsf")
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w HABCDEFGhabcdefg - 0 1'
    >>> family_fen(Layout(8, hand="HE", gating=True), "RNBQKBNR", "RNBQKBNR", "pychess")
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQCFDBGkqcfdbg - 0 1'
    """
    refused = family_refusal(layout, dialect)
    if refused is not None:
        raise DialectError("-", dialect, refused)
    writer = DIALECTS[dialect]
    files = writer.files_for(layout)
    fields = layout_fen(layout, white, black, files, number).split()
    if layout.notation != "sfen":
        if layout.hand is not None:
            board, _ = split_hand(fields[0])
            order = "sorted" if writer.seirawan_hand == "[EHeh]" else "white-first"
            fields[0] = board + hand_text(layout.hand, order)
        if layout.gating:
            fields[2] = writer.gating(white.upper(), black.upper())
        elif files:
            fields[2] = writer.order(fields[2])
    return " ".join(fields if counters else fields[:-2])


#: The variants whose start FENs show their form (hands, two boards, checks,
#: the horde), tried in this order when no variant is named.
_SHOWN: Final = ("bughouse", "seirawan", "crazyhouse", "3check", "horde")


def read_any(text: str) -> str | None:
    """The plain start FEN of a start FEN that some program writes for one of
    the variants whose FEN shows its form (pieces in hand, Seirawan's gating
    field, three-check's ``3+3``, bughouse's two boards, the horde), in any
    dialect; ``None`` when it is none of them. ``id`` and ``lint`` read such
    FENs back without being told the variant.

    >>> read_any("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[HEhe] w KQDEABFkqdeabf - 0 1")
    'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w CHch - 0 1'
    >>> read_any("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1") is None
    True
    """
    found = read_any_as(text)
    return found[0] if found is not None else None


def read_any_as(text: str) -> tuple[str, str] | None:
    """:func:`read_any`'s plain start FEN and the variant it was read as.

    >>> read_any_as("rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w ah - 0 1")
    ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1', 'horde')
    """
    shown = " ".join(text.split())
    _, hand = split_hand(shown.split(" | ")[0].split(maxsplit=1)[0]) if shown else ("", None)
    for name in _SHOWN:
        if name == "seirawan" and (hand is None or not same_hand(hand, "HE")):
            continue
        if name in ("crazyhouse", "bughouse") and hand != "":
            continue  # a start position's hands are empty
        found = read_game(text, name, changed=True)
        if found is not None:
            return found[0], name
    return None


def read_game(text: str, variant: str, first: str | None = None,
              changed: bool = False) -> tuple[str, str] | None:
    """The plain start FEN of a start FEN of ``variant`` as some dialect writes it
    (``first`` tried first, then each in turn) and that dialect's name: the first
    whose reading gives castling rights the rooks allow; ``None`` when none does
    (``changed``: nor when the text is not in the variant's form at all).

    >>> read_game("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w - - 0 1", "antichess")
    ('qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1', 'xfen')
    >>> read_game("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 3+3 0 1", "horde")
    """
    from solver.errors import Chess960Error
    from solver.notation.fen import read_start

    shown = " ".join(text.split())
    game = VARIANTS[variant]
    names = ([first] if first in DIALECTS else []) + [n for n in DIALECTS if n != first]
    for name in names:
        try:
            plain = game.read(text, DIALECTS[name])
            if changed and plain == shown:
                return None  # not in this variant's form
            rows = plain.split(maxsplit=1)[0].split("/")
            start = read_start(plain, len(rows[-1]) if rows[-1].isalpha() else 8)
            check_castling(plain, start.castling, start.white, start.black)
        except Chess960Error:
            continue
        return plain, name
    return None
