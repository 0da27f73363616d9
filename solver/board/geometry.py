"""Board geometry and the piece vocabulary: files, square names and colours.

Files are numbered from 0 (the a-file). The a1 square is dark, so on the
first rank an even file index is a dark square and an odd one a light square.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Final, Literal

from solver.board.castling_rules import ROOKS, CastlingRule
from solver.board.glyphs import FILE_LETTERS
from solver.board.sides import MIRROR, Sides, side_relation

Colour = Literal["dark", "light"]

#: Every piece letter a rank may hold, with its English name.
PIECE_NAMES: Final[dict[str, str]] = {
    "K": "king",
    "Q": "queen",
    "R": "rook",
    "B": "bishop",
    "N": "knight",
    "A": "archbishop",
    "C": "chancellor",
}

#: Plural names, for messages such as "3 knights".

#: Letters a region's rank may hold besides pieces: an empty square (``.``)
#: and a pawn placed as one of the family's pieces (``P``).
EMPTY: Final = "."
EXTRA_NAMES: Final[dict[str, str]] = {EMPTY: "empty square", "P": "pawn"}

MIN_FILES: Final = 4
MAX_FILES: Final = 16


def colour(file: int) -> Colour:
    """The colour of the first-rank square on ``file``.

    >>> colour(0), colour(1)
    ('dark', 'light')
    """
    return "light" if file % 2 else "dark"


def square_name(file: int, rank: int = 1) -> str:
    """The algebraic name of a square.

    >>> square_name(0), square_name(7, 8)
    ('a1', 'h8')
    """
    return f"{FILE_LETTERS[file]}{rank}"


def piece_name(piece: str, count: int = 1, names: Mapping[str, str] | None = None) -> str:
    """The English name of a piece letter, plural when ``count`` is not 1.

    ``names`` are a family's own pieces (``{"L": "lance"}``, or a built-in
    letter the family gives a piece of its own, ``{"C": "cardinal"}``); a
    letter known nowhere is named as such.

    >>> piece_name("N", 2), piece_name("L", 1, {"L": "lance"}), piece_name("X")
    ('knights', 'lance', "piece 'X'")
    >>> piece_name("C", 2, {"C": "cardinal"})
    'cardinals'
    """
    name = (names or {}).get(piece) or PIECE_NAMES.get(piece) or EXTRA_NAMES.get(piece)
    if name is None:
        return f"piece {piece!r}" if count == 1 else f"pieces {piece!r}"
    return name if count == 1 else f"{name}s"


@dataclass(frozen=True)
class Region:
    """The squares a side's shuffled pieces fill, in order: a rank is a string
    of piece letters, one for each square of the region.

    Squares are ``(file, rank)``, files from 0 and ranks from 1; a region is
    read rank by rank from the lowest, each from the a-file on.

    >>> Region.rank_of(8).names[:3], Region.rank_of(8).colours[:2]
    (('a1', 'b1', 'c1'), ('dark', 'light'))
    """

    squares: tuple[tuple[int, int], ...]

    @classmethod
    def rank_of(cls, files: int, rank: int = 1) -> Region:
        """One whole rank of a board ``files`` wide."""
        return cls(tuple((f, rank) for f in range(files)))

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(square_name(f, r) for f, r in self.squares)

    @cached_property
    def colours(self) -> tuple[Colour, ...]:
        """Each square's colour: a1 is dark."""
        return tuple("dark" if (f + r) % 2 else "light" for f, r in self.squares)

    @cached_property
    def file_of(self) -> tuple[int, ...]:
        return tuple(f for f, _ in self.squares)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks the region spans, lowest first."""
        return tuple(sorted({r for _, r in self.squares}))

    @property
    def one_rank(self) -> bool:
        """Whether the region lies on one rank and covers it from the a-file,
        so that files and the rank's order coincide."""
        return self.squares == tuple((f, self.squares[0][1]) for f in range(len(self.squares)))


MIN_RANKS: Final = 4
MAX_RANKS: Final = 16
#: Ranks of the classical board, and the rank of White's pawns on it.
STANDARD_RANKS: Final = 8
STANDARD_PAWNS: Final = 2



@dataclass(frozen=True)
class Front:
    """A piece standing one rank in front of a piece of the family's rank.

    ``of`` is the piece it stands before, ``right`` picks the rightmost of
    several (seen from White), else the leftmost.
    """

    piece: str
    of: str
    right: bool = False


@dataclass(frozen=True)
class Layout:
    """The whole start board around the family's ranks.

    ``pawns`` is the rank of White's pawns (``None``: no pawns); Black's
    stand as far from the top. ``fixed`` holds White's fixed army for
    ``white-fixed``, one string per rank from rank 1 up (``" "`` for an
    empty square). ``front`` are pieces one rank in front of the rank's,
    ``names`` the family's own piece letters and names, ``notation``
    ``fen`` or ``sfen`` (shogi's), ``castling`` which rooks give castling
    rights (:mod:`solver.board.castling_rules`; a rule other than the
    rooks' makes the board one of its own).

    >>> Layout(9, 9).rows("RNBQKABNR", "RNBAKQBNR")[0]
    'rnbakqbnr'
    """

    files: int
    ranks: int = STANDARD_RANKS
    pawns: int | None = STANDARD_PAWNS
    #: How Black's pieces answer White's (a relation's name is taken too).
    sides: Sides = MIRROR
    fixed: tuple[str, ...] = ()
    front: tuple[Front, ...] = ()
    names: tuple[tuple[str, str], ...] = ()
    notation: str = "fen"
    #: White's region when it is not the first rank (see :class:`Region`).
    squares: tuple[tuple[int, int], ...] = ()
    #: Pieces each side holds in hand at the start (``hand``; ``None``: no hand
    #: field, ``""``: an empty one, written ``[]``).
    hand: str | None = None
    #: Whether the castling field also lists the gating squares (Seirawan's ``gating``).
    gating: bool = False
    #: Whether the region may hold empty squares (``.`` among the pieces).
    empty: bool = False
    #: Which rooks give castling rights (:mod:`solver.board.castling_rules`).
    castling: CastlingRule = ROOKS
    #: The pieces a king castles with, one per army (``castles-with``): the
    #: rook, or each army's own corner piece (Chess with Different Armies).
    castles_with: str = "R"
    #: The start as its publisher shows it when pieces start face down
    #: (``covered``, :mod:`solver.notation.covered`): a FEN placement, ``~``
    #: after each covered piece; ``""``: none is covered.
    covered: str = ""
    #: How pychess-variants writes the castling field (``pychess-castling``):
    #: ``files`` (its shuffles' file letters) or ``xfen`` (its fixed starts' ``KQkq``).
    pychess_castling: str = "files"

    def __post_init__(self) -> None:
        if isinstance(self.sides, str):
            object.__setattr__(self, "sides", side_relation(self.sides))

    @classmethod
    def classical(cls, files: int = 8) -> Layout:
        """The classical board ``files`` wide: eight ranks, pawns on ranks 2 and 7,
        Black mirroring White (one value for each width).

        >>> Layout.classical(10).standard, Layout.classical(10).files
        (True, 10)
        """
        return _classical(files)

    @cached_property
    def standard(self) -> bool:
        """Whether this is the classical eight-rank board with pawns on ranks 2 and 7
        (:meth:`classical`, whatever its width, Black's rank mirrored or its own):
        the board a plain FEN writes, whose positions are written, read and
        listed by the quick paths made for it.

        >>> Layout.classical().standard, Layout(8, sides="rotate").standard
        (True, False)

        Covered pieces (``covered``) make it a board of its own: the dialect
        that shows them writes it.
        """
        return self.plain_board and self.castling.default and not self.covered

    def castling_view(self, rank: str) -> str:
        """``rank`` (upper case) as the castling rules read it: the piece its
        army castles with written ``R``, any other rook not (armies whose kings
        castle with pieces of their own, ``castles_with``).

        >>> Layout(8, castles_with="DR").castling_view("DWACKAWD")
        'RWACKAWR'
        """
        if self.castles_with == "R":
            return rank
        rook = "R" in self.castles_with
        return "".join("R" if c in self.castles_with else "*" if c == "R" and not rook else c
                       for c in rank)

    @cached_property
    def plain_board(self) -> bool:
        """Whether the pieces stand as on the classical board, whatever rooks give
        castling rights: a plain FEN shows the position, its castling field as the
        board's rule gives it (:attr:`standard` but for the castling rule). Pieces
        of the family's own (``names``), and kings castling with other pieces
        than rooks (``castles_with``), make a board of its own.

        >>> from solver.board.castling_rules import NO_CASTLING
        >>> Layout(8, castling=NO_CASTLING).plain_board, Layout(8, castling=NO_CASTLING).standard
        (True, False)
        """
        return (self.ranks == STANDARD_RANKS and self.pawns == STANDARD_PAWNS
                and self.sides.classical and not self.front
                and self.notation == "fen" and not self.squares
                and self.hand is None and not self.gating
                and not self.names and self.castles_with == "R")

    @property
    def chessboard(self) -> bool:
        """Whether this is chess's own board: the classical one, eight files wide,
        whose common start FENs the quick readers answer from their two back ranks.

        >>> Layout.classical(8).chessboard, Layout.classical(10).chessboard
        (True, False)
        """
        return self.files == 8 and self.standard

    def fitted(self, width: int) -> Layout:
        """This board for ranks ``width`` letters wide: the classical board is as wide
        as its ranks (a position made without a board, on :data:`CLASSICAL`, stands
        on the classical board of its width); any other board is itself.

        >>> CLASSICAL.fitted(10).files, Layout(9, 9, sides="rotate").fitted(9).files
        (10, 9)
        """
        if width == self.files or not self.standard:
            return self
        return _classical(width)

    @property
    def region(self) -> tuple[tuple[int, int], ...]:
        """White's squares for the family's rank (the first rank by default)."""
        return self.squares or tuple((f, 1) for f in range(self.files))

    @property
    def on_back_rank(self) -> bool:
        """Whether the family's pieces fill the whole first rank (and so may castle).

        >>> Layout(8).on_back_rank, Layout(8, squares=((4, 1), (5, 1))).on_back_rank
        (True, False)
        """
        return not self.squares or self.squares[:self.files] == tuple(
            (f, 1) for f in range(self.files))

    def black_square(self, square: tuple[int, int]) -> tuple[int, int]:
        """Where Black's piece stands for White's on ``square``.

        >>> Layout(8, sides="mirror-files").black_square((0, 1))
        (7, 1)
        """
        return self.sides.black_square(square, self.files, self.ranks)

    @property
    def black_pawns(self) -> int | None:
        """The rank of Black's pawns, as far from the top as White's from the bottom."""
        return None if self.pawns is None else self.ranks + 1 - self.pawns

    @property
    def letters(self) -> frozenset[str]:
        """Every piece letter the board may show (upper case), pawns included."""
        return frozenset({*PIECE_NAMES, *(n for n, _ in self.names), "P"})

    def black_rank(self, white: str) -> str:
        """Black's rank (from the a-file on) in a position whose White rank is ``white``;
        in a region, Black's letters in the order of White's squares they answer.

        >>> Layout(8, sides="rotate").black_rank("RNBQKBNR")
        'RNBKQBNR'
        """
        return white if self.squares else self.sides.black_rank(white)

    def _half(self, rank: str) -> dict[tuple[int, int], str]:
        """White's pieces from ``rank`` (its back rank): ``(file, rank) -> letter``."""
        squares = dict(zip(self.region, rank.upper(), strict=True))
        for front in self.front:
            files = [f for f, p in enumerate(rank.upper()) if p == front.of]
            if files:  # (a board being read may lack the piece)
                squares[(files[-1] if front.right else files[0], 2)] = front.piece
        if self.pawns is not None:
            squares.update({(f, self.pawns): "P" for f in range(self.files)})
        return squares

    def rows(self, white: str, black: str) -> list[str]:
        """The board, the top rank first, as FEN letters (``" "`` empty).

        ``white`` is White's rank (ignored when White is fixed), ``black``
        Black's as it stands on the top rank, each from the a-file on. Black's
        pieces stand on the squares that answer White's (:meth:`black_square`:
        turned half round for ``rotate``, reflected across the middle rank for
        ``mirror``, ...).
        """
        board = [[" "] * self.files for _ in range(self.ranks)]
        if self.sides.fixed_white:
            white_squares = {(f, r): p for r, row in enumerate(self.fixed, 1)
                             for f, p in enumerate(row) if p != " "}
        else:
            white_squares = self._half(white)
        # Black's letters in the order of White's squares they answer.
        own = black if self.squares else "".join(
            black[self.black_square((f, 1))[0]] for f in range(self.files))
        for (f, r), piece in white_squares.items():
            board[self.ranks - r][f] = piece
        for square, piece in self._half(own).items():
            f, r = self.black_square(square)
            board[self.ranks - r][f] = piece.lower()
        return ["".join(row).replace(EMPTY, " ") for row in board]


@cache
def _classical(files: int) -> Layout:
    """:meth:`Layout.classical`, made once for each width."""
    return Layout(files)


#: The classical board of chess, eight files wide: the board of a position
#: made without one (:meth:`Layout.fitted` widens it to the position's ranks).
CLASSICAL: Final = Layout.classical()
