"""``chess960 games tree --transpositions``: an opening tree merged by position.

The tree (:class:`~solver.games.tree.Tree`) keys its nodes by SAN lines, so
``1. Nf3 Nf6 2. g3`` and ``1. g3 Nf6 2. Nf3`` are two nodes. Here each start
position's tree is replayed move by move with cozy-chess (the optional
package ``cozy-chess-py``, ``pip install 'chess960[moves]'``; imported only
when called), and the nodes that reach the same position (same placement,
side to move, castling rights, en-passant square) are merged: a position's
counts (games, White's wins, draws, Black's wins, ratings, last date) are the
sum of the counts of the tree nodes that reach it, and each next move counts
the games that went on with it from there, by whatever order they came.

A position's key is cozy-chess's Shredder-FEN (castling rights by the rooks'
files, as Chess960 needs them) without the move counters, its en-passant
square written only when an en-passant capture is legal (cozy-chess writes
the square after every double step; a square no pawn can take on does not
make another position, as the repetition rule and python-chess have it).

A game that reaches one position twice within the tree's plies (a
repetition, ``Nf3 Nf6 Ng1 Ng8``) is counted twice there, once per visit.

SAN moves are matched with the legal moves' SAN, written here (cozy-chess
has none), ignoring ``+``, ``#`` and a promotion's ``=``: a collection that
leaves out a check sign reaches the same position; the merged moves are keyed
by the SAN written here, check signs included. Only families on chess's board
with chess's pieces (Chess960, DFRC, Chess324, ...) are supported.
"""

from __future__ import annotations

import copy
import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from solver.errors import TreeError
from solver.games.tree import Node, dumps, heading, table

if TYPE_CHECKING:
    import cozy_chess

    from solver.family import Family
    from solver.games.tree import Tree

#: What to install when cozy-chess is missing.
INSTALL: Final = "pip install 'chess960[moves]'"


@dataclass
class Position:
    """One position of a start position's merged tree: the summed counts of
    the tree nodes that reach it (:attr:`counts`, a :class:`Node` without
    lines), its next moves (SAN -> position key) and, per next move, the
    counts of the games that went on with it from here (:attr:`next`)."""

    counts: Node = field(default_factory=Node)
    moves: dict[str, str] = field(default_factory=dict)
    next: dict[str, Node] = field(default_factory=dict)

    def node(self) -> Node:
        """A :class:`Node` with this position's counts whose children are its
        next moves' counts (what :func:`~solver.games.tree.table` shows)."""
        node = Node()
        node.add_counts(self.counts)
        node.children = dict(self.next)
        return node


@dataclass
class Merged:
    """One start position's tree merged by position: its id, the key of the
    start and every position reached, by key."""

    number: int
    start: str
    positions: dict[str, Position]


def cozy() -> Any:
    """The ``cozy_chess`` module; raises :class:`TreeError` naming the extra
    to install when it is missing."""
    try:
        import cozy_chess
    except ImportError:
        raise TreeError("--transpositions needs the optional package cozy-chess-py: "
                        f"{INSTALL}") from None
    return cozy_chess


def supported(family: Family) -> None:
    """Raise :class:`TreeError` unless ``family`` is chess960-shaped: chess's
    8x8 board and chess's pieces."""
    pieces = set(str(getattr(family.ruleset, "pieces", "")).upper())
    if not family.layout.chessboard or not pieces or not pieces <= set("KQRBN"):
        raise TreeError(f"--transpositions supports families on chess's board with chess's "
                        f"pieces (chess960, dfrc, ...), not {family.name!r}")


def transpose(tree: Tree, family: Family) -> dict[int, Merged]:
    """``tree``'s lines merged by position, per start id (see the module's
    docstring): a position's counts are the sum of those of the tree nodes
    that reach it, so a game that reaches it twice within the plies (a
    repetition) counts twice. Raises :class:`TreeError` on a SAN move that is
    not legal in its position, quoting its line, or for a family not
    chess960-shaped."""
    supported(family)
    mover = Mover(cozy())
    merged = {}
    for number in sorted(tree.roots):
        root = tree.roots[number]
        board = mover.start(family, number)
        start = mover.key(board)
        positions = {start: Position()}
        positions[start].counts.add_counts(root)
        mover.walk(root, board, start, positions, [], number)
        merged[number] = Merged(number, start, positions)
    return merged


#: A SAN move other than castling, as python-chess reads one (``Board.parse_san``):
#: piece, from file, from rank, ``x`` or ``-`` or nothing, to, promotion.
_SAN: Final = re.compile(r"([KQRBN])?([a-h])?([1-8])?[-x]?([a-h][1-8])(?:=?([QRBNqrbn]))?")


class Mover:
    """Legal moves in cozy-chess boards, found and written as SAN."""

    def __init__(self, module: Any) -> None:
        self.c = module
        pieces = module.Piece
        self.letters = {pieces.Knight: "N", pieces.Bishop: "B", pieces.Rook: "R",
                        pieces.Queen: "Q", pieces.King: "K", pieces.Pawn: ""}
        self.pieces = {letter: piece for piece, letter in self.letters.items()}

    def start(self, family: Family, number: int) -> cozy_chess.Board:
        """The start position ``number`` of ``family`` as a Chess960 board."""
        from solver.notation.fen import position_fen

        fen = position_fen(family.position(number), shredder=True)
        try:
            board: cozy_chess.Board = self.c.Board.from_fen(fen, True)
        except ValueError as exc:
            raise TreeError(f"--transpositions cannot play from id {number} ({fen}): "
                            f"{exc}") from None
        return board

    def key(self, board: cozy_chess.Board) -> str:
        """The position's key: its Shredder-FEN without the move counters, the
        en-passant square only when an en-passant capture is legal."""
        fields = board.shredder_fen().split()
        if fields[3] != "-" and not any(
                move.to_square == self.c.Square.from_str(fields[3])
                and board.piece_on(move.from_square) == self.c.Piece.Pawn
                for move in board.generate_moves()):
            fields[3] = "-"
        return " ".join(fields[:4])

    def walk(self, node: Node, board: cozy_chess.Board, key: str,
             positions: dict[str, Position], line: list[str], number: int) -> None:
        """Merge the lines below ``node`` (at ``board``, keyed ``key``) into ``positions``."""
        if not node.children:
            return
        here = positions[key]
        legal = board.generate_moves()
        for san, child in node.children.items():
            line.append(san)
            move = self.find(board, legal, san, line, number)
            after = copy.copy(board)
            after.play(move)
            written = self.san(board, move, legal, marked=True) + self.suffix(after)
            target = self.key(after)
            here.moves[written] = target
            edge = here.next.get(written)
            if edge is None:
                edge = here.next[written] = Node()
            edge.add_counts(child)
            reached = positions.get(target)
            if reached is None:
                reached = positions[target] = Position()
            reached.counts.add_counts(child)
            self.walk(child, after, target, positions, line, number)
            line.pop()

    def play(self, board: cozy_chess.Board, line: Sequence[str],
             number: int) -> cozy_chess.Board:
        """The board after the SAN moves ``line``; raises :class:`TreeError`."""
        for depth, san in enumerate(line):
            move = self.find(board, board.generate_moves(), san, line[:depth + 1], number)
            board = copy.copy(board)
            board.play(move)
        return board

    def find(self, board: cozy_chess.Board, legal: list[cozy_chess.Move], san: str,
             line: Sequence[str], number: int) -> cozy_chess.Move:
        """The legal move written ``san`` (``+`` and ``#`` ignored), read as
        python-chess reads SAN: the piece, any of its square's file and rank
        (more than needed too), ``x``, ``-`` or nothing, the square it goes to,
        the promotion; a pawn without its file goes along its file; a piece
        given by its whole square needs no letter. A move two legal moves fit
        is ambiguous."""
        plain = san.rstrip("+#")
        if plain in ("O-O", "O-O-O"):
            for move in legal:
                if self._castle(board, move) == plain:
                    return move
        else:
            match = _SAN.fullmatch(plain)
            if match is not None:
                to = self.c.Square.from_str(match[4])
                fits = [move for move in legal if move.to_square == to
                        and not self._castle(board, move) and self._fits(board, move, match)]
                if len(fits) == 1:
                    return fits[0]
                if fits:
                    raise TreeError(f"line {' '.join(line)!r} from id {number}: {san!r} is "
                                    f"ambiguous ({len(fits)} legal moves fit it)")
        raise TreeError(f"line {' '.join(line)!r} from id {number}: {san!r} is not a legal move")

    def _fits(self, board: cozy_chess.Board, move: cozy_chess.Move, san: re.Match[str]) -> bool:
        """Whether ``move`` (to the square ``san`` names) is what ``san`` says."""
        letter, file, rank, _, promotion = san.groups()
        start = move.from_square
        if (file is not None and str(start.file()) != file) or \
                (rank is not None and str(start.rank()) != rank):
            return False
        piece = board.piece_on(start)
        if letter is not None:
            wanted_piece = self.pieces[letter]
        elif file is None or rank is None:  # a pawn: along its file unless its file is given
            wanted_piece = self.c.Piece.Pawn
            if file is None and start.file() != move.to_square.file():
                return False
        else:  # a whole square: any piece
            wanted_piece = piece
        wanted = None if promotion is None else self.pieces[promotion.upper()]
        return bool(piece == wanted_piece and move.promotion == wanted)

    def _castle(self, board: cozy_chess.Board, move: cozy_chess.Move) -> str:
        """``O-O`` or ``O-O-O`` for a castling move (the king takes its own
        rook, as cozy-chess writes it), else ""."""
        if board.piece_on(move.from_square) != self.c.Piece.King or \
                board.color_on(move.to_square) != board.side_to_move():
            return ""
        return "O-O" if int(move.to_square) > int(move.from_square) else "O-O-O"

    def san(self, board: cozy_chess.Board, move: cozy_chess.Move,
            legal: list[cozy_chess.Move], marked: bool = False) -> str:
        """``move``'s SAN without a check sign, a promotion's piece after ``=``
        when ``marked`` (else without it)."""
        castle = self._castle(board, move)
        if castle:
            return castle
        piece = board.piece_on(move.from_square)
        start, to = move.from_square, move.to_square
        capture = board.piece_on(to) is not None
        if piece == self.c.Piece.Pawn:
            text = f"{start.file()}x{to}" if start.file() != to.file() else str(to)
            if move.promotion is not None:
                text += ("=" if marked else "") + self.letters[move.promotion]
            return text
        text = self.letters[piece]
        rivals = [m.from_square for m in legal
                  if m.to_square == to and m.from_square != start
                  and board.piece_on(m.from_square) == piece and not self._castle(board, m)]
        if rivals:
            if all(s.file() != start.file() for s in rivals):
                text += str(start.file())
            elif all(s.rank() != start.rank() for s in rivals):
                text += str(start.rank())
            else:
                text += str(start)
        return text + ("x" if capture else "") + str(to)

    def suffix(self, after: cozy_chess.Board) -> str:
        """``+`` or ``#`` when the side to move in ``after`` is in check (mated)."""
        if not after.checkers():
            return ""
        return "#" if not after.generate_moves() else "+"


# -- output ---------------------------------------------------------------------------------------

def _counts(node: Node) -> dict[str, Any]:
    rated = node.rated
    return {"games": node.games, "white": node.white, "draws": node.draws,
            "black": node.black, "rating_sum": node.ratings, "rated_games": rated,
            "avg_rating": round(node.ratings / rated, 1) if rated else None,
            "last_date": node.last or None}


def _ordered(merged: Merged, min_games: int) -> list[tuple[str, Position]]:
    """The positions with at least ``min_games`` games, the most played first."""
    kept = [(key, p) for key, p in merged.positions.items() if p.counts.games >= min_games]
    return sorted(kept, key=lambda item: (-item[1].counts.games, item[0]))


def _moves(position: Position, min_games: int) -> list[tuple[str, Node]]:
    kept = [(san, n) for san, n in position.next.items() if n.games >= min_games]
    return sorted(kept, key=lambda item: (-item[1].games, item[0]))


def to_json(tree: Tree, merged: dict[int, Merged], min_games: int = 0) -> str:
    """The merged trees as JSON: the tree's head fields, then per start id
    ``{"id", "position", "start", "positions": [{"fen", counts..., "moves":
    {san: fen}, "next": {san: counts}}]}`` (``next``: the games that went on
    with each move from this position)."""
    from solver.games.labels import label

    family = tree.family
    head = {"family": family.name, "plies": tree.plies, "min_games": min_games,
            "transpositions": True, "games": tree.games, "skipped": tree.skipped,
            "not_in_family": tree.outside, "filtered_out": tree.left_out}
    starts = []
    for number in sorted(merged):
        one = merged[number]
        rows = []
        for key, position in _ordered(one, min_games):
            moves = _moves(position, min_games)
            rows.append({"fen": key, **_counts(position.counts),
                         "moves": {san: position.moves[san] for san, _ in moves},
                         "next": {san: _counts(n) for san, n in moves}})
        starts.append({"id": number, "position": label(family, number),
                       "start": one.start, "positions": rows})
    return dumps({**head, "positions": starts})


def to_csv(merged: dict[int, Merged], min_games: int = 0) -> str:
    """One row per position: id, FEN, its counts and its next moves (the most
    played first, space-separated)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "fen", "games", "white", "draws", "black", "avg_rating",
                     "last_date", "moves"])
    for number in sorted(merged):
        for key, position in _ordered(merged[number], min_games):
            node = position.counts
            rating = node.rating()
            writer.writerow([number, key, node.games, node.white, node.draws, node.black,
                             "" if rating is None else f"{rating:.1f}", node.last,
                             " ".join(san for san, _ in _moves(position, min_games))])
    return out.getvalue()


def text(tree: Tree, merged: dict[int, Merged], ids: Sequence[int] | None,
         line: Sequence[str], min_games: int = 0) -> Iterator[str]:
    """The explorer's table of the position after ``line`` (reached by any
    move order), for each of ``ids`` (default: every start id where a game
    reached it, else every one); raises :class:`TreeError`."""
    from solver.games.labels import label

    family = tree.family
    mover = Mover(cozy())
    if not merged:
        return

    def reached(number: int) -> str:
        return mover.key(mover.play(mover.start(family, number), line, number))

    if ids is None:  # the starts where the line is legal and a game reached its position
        found = []
        for number in sorted(merged):
            try:
                if reached(number) in merged[number].positions:
                    found.append(number)
            except TreeError:
                continue
        ids = found or sorted(merged)
    for index, number in enumerate(ids):
        position = merged[number].positions.get(reached(number))
        if position is None:
            raise TreeError(f"line {' '.join(line)!r} from id {number} reaches a position "
                            "no game read reached")
        node = position.node()
        if index:
            yield ""
        yield heading(label(family, number), number, node,
                      f" after {' '.join(line)} (any move order)" if line else "")
        yield from table(node, min_games)
