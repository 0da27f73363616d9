"""The families issue 38 found stated exactly by today's rule language, each
against its publisher's own code: XBoard's shuffles (Chess18, Shatranj,
Makruk), numbered as XBoard numbers them, and Jocly's Metamachy, numbered by
Jocly's set-up moves.

XBoard (GNU XBoard, ``backend.c``, ``SetUpShuffle``, read from the
github:arunpersaud/xboard mirror of git.savannah.gnu.org/xboard.git) shuffles
the first rank of the current variant when ``-shuffleOpenings`` (the "New
Shuffle Game" dialog's "shuffle") is on, and numbers the shuffles by
``-defaultFrcPosition N``: ``GetPositionNumber`` sets ``seed = N``, each
placement takes ``seed % choices`` and divides the seed by its choices, and
``N`` is taken modulo their product (``appData.defaultFrcPosition %=
nrOfShuffles``). :func:`set_up_shuffle` below transcribes the function, with
its helpers ``put``, ``AddOnePiece`` and ``AddTwoPieces``, for a board of 8
files; the piece types are common.h's ``ChessSquare`` values, whose order
decides which piece is placed first. The golden ranks come from it, never
from the solver.

Jocly (``src/games/chessbase/cazaux/metamachy-model.js``, github:aclap-dev/jocly)
sets up both sides of Metamachy with one move ``#0``..``#11``;
:func:`jocly_metamachy` transcribes its ``Model.Board.ApplyMove``.

Oracles (test-only, GPL, skipped when absent): pyffish (Fairy-Stockfish's
``makruk`` and ``shatranj``), python-chess for Chess18's FENs.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest
from inprocess import chess960

from solver.family import Family

# -- XBoard's SetUpShuffle, transcribed ------------------------------------------------------

#: common.h ``ChessSquare``: WhitePawn, WhiteKnight, WhiteBishop, WhiteRook,
#: WhiteQueen, WhiteFerz, WhiteAlfil, WhiteAngel, WhiteMarshall, WhiteWazir,
#: WhiteMan, ... (54 more), WhiteCrown, WhiteKing: the values used here
#: (WhiteMan is the 11th, WhiteKing the 66th and last white piece).
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, FERZ, ALFIL, MAN, KING = 0, 1, 2, 3, 4, 5, 6, 10, 65
DARK, LITE, ANY = 1, 2, 3  # backend.c: #define DARK 1, LITE 2, ANY 3


class Shuffle:
    """XBoard's shuffle state on White's first rank (8 files, ``BOARD_LEFT``
    0): the globals ``seed``, ``nrOfShuffles``, ``squaresLeft[]`` and
    ``piecesLeft[]``, with the helpers that use them."""

    def __init__(self, array: list[int], number: int) -> None:
        self.width = 8
        self.seed = number  # GetPositionNumber(): seed = appData.defaultFrcPosition
        self.shuffles = 1
        self.board: list[int | None] = [None] * self.width
        self.left = {DARK: (self.width + 1) // 2, ANY: self.width}
        self.left[LITE] = self.left[ANY] - self.left[DARK]
        self.pieces = Counter(array)

    def put(self, piece: int, n: int, shade: int) -> int:
        """``put``: "put the piece on the (n-1)-th empty squares of the given shade"."""
        for i in range(self.width):
            if ((i & 1) + 1) & shade and self.board[i] is None:
                if n == 0:
                    self.board[i] = piece
                    self.left[(i & 1) + 1] -= 1
                    self.left[ANY] -= 1
                    self.pieces[piece] -= 1
                    return i
                n -= 1
        return -1

    def add_one_piece(self, piece: int, shade: int) -> None:
        """``AddOnePiece``."""
        i = self.seed % self.left[shade]
        self.shuffles *= self.left[shade]
        self.seed //= self.left[shade]
        self.put(piece, i, shade)

    def add_two_pieces(self, piece: int) -> None:
        """``AddTwoPieces``: both of a pair as one choice among n(n-1)/2."""
        n = self.left[ANY]
        j = n - 1
        k = n * (n - 1) // 2  # nr of possibilities, not counting permutations
        i = self.seed % k
        self.shuffles *= k
        self.seed //= k
        while i >= j:  # while(i >= j) i -= j--;
            i -= j
            j -= 1
        j = n - 1 - j
        i += j
        self.put(piece, j, ANY)
        self.put(piece, i, ANY)


def set_up_shuffle(array: list[int], number: int, castle_ok: bool) -> tuple[list[int], int]:
    """XBoard's ``SetUpShuffle(board, number)`` on White's first rank
    ``array``, for a variant whose ``PosFlags`` has ``F_ALL_CASTLE_OK``
    (``castle_ok``, normal chess) or neither it nor ``F_FRC_TYPE_CASTLING``
    (Shatranj, Makruk). Returns the shuffled rank and ``nrOfShuffles``."""
    s = Shuffle(array, number)
    if castle_ok:  # shuffles restricted to allow normal castling put KRR first
        if s.pieces[KING]:
            s.put(KING, (s.width + 1) // 2, ANY)  # King goes rightish of middle
        if s.pieces[ROOK]:
            s.put(ROOK, s.width - 2, ANY)  # First supply a Rook for K-side castling
        if s.pieces[ROOK]:
            s.put(ROOK, 0, ANY)  # Then supply a Rook for Q-side castling
    for p in range(KING, PAWN, -1):  # even boards: colour-bound pairs on opposite colours
        if p not in (BISHOP, FERZ, ALFIL):
            continue
        while s.pieces[p] >= 2:
            s.add_one_piece(p, LITE)
            s.add_one_piece(p, DARK)
    for p in range(KING - 2, PAWN, -1):
        if p == ROOK:
            continue
        while s.pieces[p] >= 2:
            s.add_two_pieces(p)
        if s.pieces[p]:
            s.add_one_piece(p, ANY)
    while s.pieces[KING]:  # neither F_FRC_TYPE_CASTLING: the king anywhere
        s.add_one_piece(KING, ANY)
    while s.pieces[ROOK]:  # Only Rooks can be left; simply place them all
        s.put(ROOK, 0, ANY)
    rank = [square for square in s.board if square is not None]
    assert len(rank) == s.width
    return rank, s.shuffles


#: backend.c's arrays (White's rank, a-file first) and pieceToChar tables:
#: FIDEArray, "PNBRQ...........K"; ShatranjArray, "PN.R.QB...K" (ferz Q,
#: alfil B); makrukArray, "PN.R.M....SK" (ferz M, man S).
XBOARD = {
    "chess18": ([ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK],
                {PAWN: "P", KNIGHT: "N", BISHOP: "B", ROOK: "R", QUEEN: "Q", KING: "K"}, True),
    "shatranj-shuffle": ([ROOK, KNIGHT, ALFIL, KING, FERZ, ALFIL, KNIGHT, ROOK],
                         {KNIGHT: "N", ROOK: "R", FERZ: "Q", ALFIL: "B", KING: "K"}, False),
    "makruk-shuffle": ([ROOK, KNIGHT, MAN, KING, FERZ, MAN, KNIGHT, ROOK],
                       {KNIGHT: "N", ROOK: "R", FERZ: "M", MAN: "S", KING: "K"}, False),
}
COUNTS = {"chess18": 18, "shatranj-shuffle": 2880, "makruk-shuffle": 5040}


def xboard_rank(name: str, number: int) -> tuple[str, int]:
    array, letters, castle_ok = XBOARD[name]
    rank, shuffles = set_up_shuffle(array, number, castle_ok)
    return "".join(letters[p] for p in rank), shuffles


def test_the_transcription_gives_xboard_s_counts_and_each_rank_once() -> None:
    for name, count in COUNTS.items():
        ranks = [xboard_rank(name, n) for n in range(count)]
        assert {shuffles for _, shuffles in ranks} == {count}, name
        assert len({rank for rank, _ in ranks}) == count, name


def brute_force(name: str) -> set[str]:
    """Each family from its definition, over every arrangement of the pieces:
    Chess18 keeps the king on e1 and the rooks on a1 and h1 with the bishops on
    opposite colours; Shatranj keeps the alfils on opposite colours; Makruk
    keeps nothing."""
    found = set()
    for rank in set(permutations(xboard_rank(name, 0)[0])):
        text = "".join(rank)
        if name == "chess18" and (text[4] != "K" or text[0] + text[7] != "RR"):
            continue
        bishops = [i for i, c in enumerate(text) if c == "B"]
        if name != "makruk-shuffle" and (bishops[0] + bishops[1]) % 2 == 0:
            continue
        found.add(text)
    return found


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_number_gives_xboard_s_rank(name: str) -> None:
    """Position by position: the family's number N is the rank XBoard sets up
    for -defaultFrcPosition N, both ways, and the family is the brute force's
    set."""
    family = Family.load(name)
    assert family.count == COUNTS[name]
    golden = [xboard_rank(name, n)[0] for n in range(family.count)]
    assert set(golden) == brute_force(name)
    assert [family.position(n).white for n in range(family.count)] == golden
    assert all(family.rank_id(rank) == n for n, rank in enumerate(golden))


def test_the_command_line_gives_xboard_s_numbers() -> None:
    """``chess960 position N`` and ``id``: the classical start is Chess18's 8;
    Shatranj's and Makruk's own starts are their XBoard numbers; numbers above
    the count are XBoard's modulo, not ours (ours are refused)."""
    assert xboard_rank("chess18", 8)[0] == "RNBQKBNR"
    out = chess960(["position", "8", "--rules", "chess18", "-f", "fen"])
    assert out.stdout == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
    for name, start in (("shatranj-shuffle", "RNBKQBNR"), ("makruk-shuffle", "RNSKMSNR")):
        n = next(n for n in range(COUNTS[name]) if xboard_rank(name, n)[0] == start)
        assert chess960(["id", start, "--rules", name]).stdout == f"{n}\n"
        assert chess960(["position", str(n), "--rules", name]).stdout.startswith(start)
    bad = chess960(["position", "18", "--rules", "chess18"])
    assert bad.returncode == 1 and bad.stderr == "error: chess18 id 18 is out of range 0..17\n"


def test_makruk_s_pawns_stand_on_the_third_rank_and_nobody_castles() -> None:
    out = chess960(["position", "0", "--rules", "makruk-shuffle", "-f", "fen"]).stdout
    rank = xboard_rank("makruk-shuffle", 0)[0]
    assert out == f"{rank.lower()}/8/pppppppp/8/8/PPPPPPPP/8/{rank} w - - 0 1\n"
    out = chess960(["position", "0", "--rules", "shatranj-shuffle", "-f", "fen"]).stdout
    rank = xboard_rank("shatranj-shuffle", 0)[0]
    assert out == f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w - - 0 1\n"


@pytest.mark.parametrize(("name", "variant"), [("makruk-shuffle", "makruk"),
                                               ("shatranj-shuffle", "shatranj")])
def test_fairy_stockfish_validates_what_the_fsf_dialect_writes(name: str, variant: str) -> None:
    """pyffish's own start FEN is read as the family's rank, and every 97th
    position as ``position -f fen --dialect fsf`` writes it is valid for
    Fairy-Stockfish, its board Fairy-Stockfish's start board with the first
    ranks replaced."""
    sf = pytest.importorskip("pyffish")
    start = sf.start_fen(variant)
    family = Family.load(name)
    white = start.split()[0].split("/")[-1]
    if variant == "makruk":  # Fairy-Stockfish's start has Black's king and met crossed
        assert chess960(["id", white, "--rules", name]).returncode == 0
    else:
        assert family.rank_id(white) == family.id(start)
    for n in range(0, family.count, 97):
        fen = chess960(["position", str(n), "--rules", name, "-f", "fen",
                        "--dialect", "fsf"]).stdout.strip()
        assert sf.validate_fen(fen, variant) == 1, fen
        rows = fen.split()[0].split("/")
        theirs = start.split()[0].split("/")
        assert rows[1:-1] == theirs[1:-1] and rows[-1] == xboard_rank(name, n)[0]


def test_python_chess_reads_chess18_s_fens_with_every_castling_right() -> None:
    chess = pytest.importorskip("chess")
    family = Family.load("chess18")
    for n in range(18):
        board = chess.Board(family.position(n).fen())
        assert board.is_valid() and board.castling_rights == chess.BB_CORNERS, n


# -- Jocly's Metamachy ------------------------------------------------------------------------

#: Jocly's squares: p = 12 x row + column, row 0 White's first rank.
F1, G1, F2, G2 = 5, 6, 17, 18


def jocly_metamachy(setup: int) -> str:
    """White's ranks 1 and 2 after Jocly's set-up move ``#setup``
    (``Model.Board.ApplyMove``, setup phase), the other pieces on their
    ``pieceTypes`` ``initial`` squares: cannons p 0 and 11 (``C``), camels 1
    and 10 (``M``), elephants 12 and 23 (``E``), rooks 13 and 22, knights 14
    and 21, bishops 15 and 20, princes 16 and 19 (``I``)."""
    if setup // 6 < 1:  # if(setup/6<1)
        king, remaining = F2, [G2, F1, G1]  # this.kings[1]=17; remaining[1]=[18,5,6]
    else:
        king, remaining = F1, [F2, G2, G1]  # this.kings[1]=5; remaining[1]=[17,18,6]
    setup %= 6
    queen = remaining.pop(setup // 2)  # var queen=Math.floor(setup/2); ... splice(queen,1)
    setup %= 2
    eagle, lion = (0, 1) if setup == 0 else (1, 0)
    placed = {king: "K", queen: "Q", remaining[eagle]: "A", remaining[lion]: "L"}
    board = dict.fromkeys(range(24), ".")
    board.update({0: "C", 11: "C", 1: "M", 10: "M", 12: "E", 23: "E", 13: "R", 22: "R",
                  14: "N", 21: "N", 15: "B", 20: "B", 16: "I", 19: "I"})
    board.update(placed)
    return "".join(board[p] for p in range(24))


def test_metamachy_is_jocly_s_twelve_set_ups_in_jocly_s_order() -> None:
    """Each ``#n`` is the set-up Jocly's move ``#n`` makes, both ways; the
    family is the brute force's: the king on f1 or f2, the queen, lion and
    eagle on the other three of f1, g1, f2, g2, everything else fixed."""
    family = Family.load("metamachy")
    golden = [jocly_metamachy(n) for n in range(12)]
    brute = set()
    for order in permutations("KQLA"):
        board = list(jocly_metamachy(0))
        for square, letter in zip((F1, G1, F2, G2), order, strict=True):
            board[square] = letter
        if "K" in (board[F1], board[F2]):
            brute.add("".join(board))
    assert set(golden) == brute and len(brute) == family.count == 12
    jocly = family.scheme("jocly")
    for n, rank in enumerate(golden):
        assert jocly.text(family.rank_id(rank)) == f"#{n}"
        assert family.position(jocly.read(f"#{n}")).white.replace(" ", "") == rank


def test_metamachy_s_board_as_the_command_writes_it() -> None:
    """``position '#1' --numbering jocly``: Jocly's own opening array
    (``pieceTypes``' initial squares) is its set-up ``#1``; Black's ranks 11
    and 12 hold the same pieces on the same files (Jocly's initial p 120..143),
    the pawns on ranks 3 and 10, no castling."""
    assert jocly_metamachy(1) == "CM...LA...MCERNBIKQIBNRE"
    out = chess960(["position", "#1", "--rules", "metamachy", "--numbering", "jocly",
                    "-f", "fen"])
    assert out.stdout == ("cm3la3mc/ernbikqibnre/pppppppppppp/12/12/12/12/12/12/"
                          "PPPPPPPPPPPP/ERNBIKQIBNRE/CM3LA3MC w - - 0 1\n")
    back = chess960(["id", out.stdout.strip(), "--rules", "metamachy", "--numbering", "jocly"])
    assert back.stdout == "#1\n"
    bad = chess960(["position", "#12", "--rules", "metamachy", "--numbering", "jocly"])
    assert bad.returncode == 1 and bad.stderr.startswith("error:") and "'#12'" in bad.stderr


@pytest.mark.parametrize(("name", "fen"), [
    ("shatranj-shuffle", "bbqnnkrr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNKRR w - 0 1"),
    ("makruk-shuffle", "ssmnnkrr/8/pppppppp/8/8/PPPPPPPP/8/SSMNNKRR w - 0 1"),
])
def test_xboard_s_own_fen_without_an_en_passant_field_is_read(name: str, fen: str) -> None:
    assert chess960(["id", fen, "--rules", name]).stdout == "0\n"
