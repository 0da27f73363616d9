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
  hand ``[EHeh]`` and every back-rank file as a gating right (castling rooks
  first, then the other files from a to h);
* ``pychess``: pychess-variants' FENs (``FairyBoard.shuffle_start``): as
  ``fsf`` but the castling letters a-side first (``AHah``), Black's only
  for horde (``ch``), Seirawan's hand ``[HEhe]`` and its field ``KQ`` then
  the files of the bishops, the queen and the knights (``KQCFDBGkqcfdbg``
  for RNBQKBNR); bughouse is the two boards' FENs joined by `` | `` (full
  FENs only).

Horde is Black's Chess960 rank against White's fixed 36 pawns, written
here from Black's rank (the family ``horde960`` states the whole board).

>>> start_fen("QNRBBNKR", variant="crazyhouse", dialect="fsf")
'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w HChc - 0 1'
>>> start_fen("QNRBBNKR", variant="3check", dialect="lichess")
'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 3+3 0 1'
"""

from __future__ import annotations

from typing import Final

from solver.board.geometry import FILE_LETTERS
from solver.errors import DialectError
from solver.notation.fen import castling_field, castling_rooks, placement

#: Every variant that can be written, as the command line names it.
VARIANTS: Final = ("chess", "crazyhouse", "bughouse", "atomic", "kingofthehill", "3check",
                   "antichess", "horde", "seirawan", "capablanca")
#: Every dialect, the default first.
DIALECTS: Final = ("xfen", "shredder", "lichess", "fsf", "pychess")

#: Variants python-chess (so lichess) plays; the others have no lichess form.
_LICHESS: Final = frozenset({"chess", "crazyhouse", "atomic", "kingofthehill", "3check",
                             "antichess", "horde"})
_HOLDINGS: Final = frozenset({"crazyhouse", "bughouse"})
#: White's side of a horde start, rank 4 down to rank 1 (Black's pawns are on rank 7).
_HORDE_WHITE: Final = ("1PP2PP1", "PPPPPPPP", "PPPPPPPP", "PPPPPPPP", "PPPPPPPP")


def default_variant(files: int) -> str:
    """The variant a family of ``files`` files plays unless told.

    >>> default_variant(8), default_variant(10)
    ('chess', 'capablanca')
    """
    return "capablanca" if files == 10 else "chess"


def check_style(variant: str, dialect: str, files: int) -> None:
    """Raise :class:`~solver.errors.DialectError` unless ``variant`` and
    ``dialect`` can be written for a family of ``files`` files."""
    if variant not in VARIANTS:
        raise DialectError(variant, dialect, f"unknown variant {variant!r}; variants are "
                                             f"{', '.join(VARIANTS)}")
    if dialect not in DIALECTS:
        raise DialectError(variant, dialect, f"unknown dialect {dialect!r}; dialects are "
                                             f"{', '.join(DIALECTS)}")
    wanted = 10 if variant == "capablanca" else 8
    if files != wanted:
        raise DialectError(variant, dialect,
                           f"variant {variant!r} is played on {wanted} files, not {files}")
    if dialect == "lichess" and variant not in _LICHESS:
        raise DialectError(variant, dialect,
                           f"lichess and python-chess do not play {variant!r}")


def _castling(white: str, black: str, variant: str, dialect: str) -> str:
    if variant == "antichess":
        return "-"
    if dialect in ("xfen", "lichess"):
        field = castling_field(white, black)
    else:
        field = castling_field(white, black, shredder=True)
    if variant == "horde":
        field = "".join(c for c in field if c.islower()) or "-"
    if variant == "seirawan" and dialect == "fsf":
        field = _gating(white, True) + _gating(black, False)
    if variant == "seirawan" and dialect == "pychess":
        return _pychess_gating(white).upper() + _pychess_gating(black).lower()
    if dialect == "pychess" and field != "-":
        field = _a_side_first(field)
    return field


def _gating(rank: str, upper: bool) -> str:
    """Seirawan's castling field for one side: castling rooks, then every other file."""
    rooks = list(castling_rooks(rank) or ())
    files = rooks + [f for f in range(len(rank)) if f not in rooks]
    letters = "".join(FILE_LETTERS[f] for f in files)
    return letters.upper() if upper else letters


def _pychess_gating(rank: str) -> str:
    """pychess-variants' Seirawan field for one side: ``KQ``, then the files of
    the first and last bishop, the queen, the first and last knight."""
    files = [rank.index("B"), rank.rindex("B"), rank.index("Q"), rank.index("N"),
             rank.rindex("N")]
    return "KQ" + "".join(FILE_LETTERS[f] for f in files)


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
        if dialect in ("xfen", "shredder"):
            fields = [placement(white, black), "w",
                      castling_field(white, black, dialect == "shredder"), "-"]
            return " ".join(fields + (["0", "1"] if counters else []))
        variant = default_variant(len(white))
    check_style(variant, dialect, len(white))
    if variant == "horde":
        board = "/".join([black.lower(), "p" * 8, "8", *_HORDE_WHITE])
    else:
        board = placement(white, black)
    if variant in _HOLDINGS:
        board += "[]"
    elif variant == "seirawan":
        board += "[EHeh]" if dialect == "fsf" else "[HEhe]"
    # Horde: White has no king, so only Black's rights are kept (from Black's rank).
    castling_white = black if variant == "horde" else white
    fields = [board, "w", _castling(castling_white, black, variant, dialect), "-"]
    if variant == "3check":
        fields.append("3+3")
    if counters:
        fields += ["0", "1"]
    fen = " ".join(fields)
    if variant == "bughouse" and dialect == "pychess" and counters:
        return f"{fen} | {fen}"
    return fen
