"""What a family's page shows, worked out: its rules in words, how often each
piece stands on each square, its mirror pairs and symmetric ranks, examples.

:func:`family_report` gathers it all into a :class:`FamilyReport`;
:func:`solver.output.html.report_page` draws the page. Everything is about
one side's ranks (White's; Black's answers it as the family's ``sides``
says, or, for independent sides, is another rank of the same set).

* :func:`piece_squares` counts, for each piece and each square of the
  region, the ranks that put the piece there, by completions of partial
  ranks (the rules' trackers, as the counting engine counts), so a family
  of any size is counted without listing it; a family whose counting
  states exceed a bound is counted over its listing instead, when it is
  small enough to list.
* :func:`mirrors` lists the family (up to :data:`LIST_LIMIT` ranks) and
  pairs each rank with its left-right mirror.
* :func:`evaluation_spread` is the hook for engine evaluations: ``None``
  until evaluation data is wired in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from solver.board.geometry import piece_name
from solver.board.glyphs import FILE_LETTERS

if TYPE_CHECKING:
    from solver.check import Report as Proof
    from solver.family import Family
    from solver.position import Position

#: The most ranks a side :func:`mirrors` (and the listing fallback of
#: :func:`piece_squares`) lists.
LIST_LIMIT: Final = 250_000
#: The most partial ranks :func:`piece_squares` keeps in one layer while counting.
STATE_LIMIT: Final = 2_000_000
#: How many symmetric ranks and mirror pairs a report shows.
SHOWN: Final = 12
#: The pieces' names in the game's own words, by the family's ``variant`` (lower
#: case), for games whose letters (as Fairy-Stockfish and pychess-variants write
#: them) mean other pieces than chess's: Janggi's A is a guard and C a cannon,
#: Seirawan's H and E (in hand) the hawk and the elephant.
GAME_NAMES: Final[dict[str, dict[str, str]]] = {
    "janggi": {"K": "general", "A": "guard", "R": "chariot", "N": "horse",
               "B": "elephant", "C": "cannon", "P": "soldier"},
    "seirawan960": {"H": "hawk", "E": "elephant"},
}


#: A partial rank while counting: the pieces left of each letter, the rules' states.
_Node = tuple[tuple[int, ...], tuple[object, ...]]


@dataclass(frozen=True)
class Heatmap:
    """How many ranks put each piece on each square of the region.

    ``cells[letter][i]`` counts the ranks with ``letter`` on ``squares[i]``
    (a piece the family has twice is counted on both its squares); ``method``
    says how it was found (``counted`` or ``listed``), ``total`` is the number
    of ranks.
    """

    squares: tuple[str, ...]
    cells: dict[str, list[int]]
    total: int
    method: str


@dataclass(frozen=True)
class Mirrors:
    """A family's ranks and their left-right mirrors (one side's ranks)."""

    total: int
    #: Ranks equal to their own mirror.
    symmetric: list[str]
    #: Pairs of two different ranks of the family, mirrors of each other.
    pairs: list[tuple[str, str]]
    #: Ranks whose mirror breaks a rule of the family.
    outside: int


@dataclass
class FamilyReport:
    """Everything :func:`solver.output.html.report_page` draws."""

    family: Family
    board: list[str]
    rules: list[tuple[str, str]]
    pieces: list[tuple[str, str, int]]
    count: int
    side_count: int
    proof: Proof | None
    heatmap: Heatmap | None
    heatmap_note: str
    mirrors: Mirrors | None
    mirrors_note: str
    evaluation: list[dict[str, str]] | None
    examples: list[Position] = field(default_factory=list)


def evaluation_spread(family: Family) -> list[dict[str, str]] | None:
    """Engine evaluations of the family's positions and their spread over the
    sources, as table rows (column name -> text), or ``None`` where there is no
    data: a row a shipped source (:mod:`solver.evaluation.sources`), then one
    for the spread between them.

    >>> from solver.family import Family
    >>> rows = evaluation_spread(Family.load("chess960"))
    >>> [row["source"] for row in rows]
    ['eval960', 'evalanalyzer', 'spread between the sources']
    """
    from statistics import mean, median

    from solver.evaluation.sources import load_source, shipped

    sources = shipped(family.name)
    if not sources:
        return None
    rows: list[dict[str, str]] = []
    tables = [load_source(source) for source in sources]
    for source, table in zip(sources, tables, strict=True):
        evals = {n: e.pawns for n, e in table.rows.items() if e.pawns is not None}
        low = min(evals, key=lambda n: (evals[n], n))
        high = max(evals, key=lambda n: (evals[n], -n))
        rows.append({"source": source.name, "engine": f"{source.engine}, {source.limit}",
                     "positions": f"{len(evals):,}", "mean": f"{mean(evals.values()):+.2f}",
                     "lowest": f"{evals[low]:+.2f} ({low})",
                     "highest": f"{evals[high]:+.2f} ({high})"})
    if len(tables) >= 2:
        spreads = {}
        for number in range(family.count):
            values = [t.rows[number].pawns for t in tables if number in t.rows]
            if len(values) == len(tables) and None not in values:
                found = [v for v in values if v is not None]
                spreads[number] = max(found) - min(found)
        if spreads:
            widest = max(spreads, key=lambda n: (spreads[n], -n))
            rows.append({"source": "spread between the sources", "engine": "",
                         "positions": f"{len(spreads):,}",
                         "mean": f"{mean(spreads.values()):.2f}",
                         "lowest": f"median {median(spreads.values()):.2f}",
                         "highest": f"{spreads[widest]:.2f} ({widest})"})
    return rows


def square_names(family: Family) -> tuple[str, ...]:
    """The names of White's squares as the family's players name them: algebraic
    (``a1``), or for shogi (SFEN) the file counted from the right and the rank
    lettered from the top (Sente's back rank of nine is ``9i`` .. ``1i``).

    >>> from solver.family import Family
    >>> square_names(Family.load("shogi-shuffle"))[:3]
    ('9i', '8i', '7i')
    """
    rs = family.ruleset
    if rs.sides.fixed_white:  # the shuffled rank is Black's, on the top rank
        return tuple(f"{FILE_LETTERS[f]}{rs.ranks + 1 - r}" for f, r in rs.region.squares)
    if rs.notation != "sfen":
        return rs.region.names
    return tuple(f"{rs.files - f}{FILE_LETTERS[rs.ranks - r]}" for f, r in rs.region.squares)


def board_words(family: Family) -> list[str]:
    """The board and how the sides stand, in sentences.

    >>> from solver.family import Family
    >>> print(board_words(Family.load("chess960"))[0])
    A board of 8 files and 8 ranks; White's pieces fill rank 1 (a1-h1).
    """
    rs = family.ruleset
    region = rs.region
    squares = square_names(family)
    shogi = rs.notation == "sfen"
    if region.one_rank and region.ranks == (1,):
        first = FILE_LETTERS[rs.ranks - 1] if shogi else "1"
        where = f"rank {first} ({squares[0]}-{squares[-1]})"
    else:
        where = f"the squares {', '.join(squares)}"
    side = "Sente's (White's)" if shogi else "White's"
    if rs.sides.fixed_white:
        side, where = "Black's shuffled", f"rank {rs.ranks} ({squares[0]}-{squares[-1]})"
    names = game_names(family)
    out = [f"A board of {rs.files} files and {rs.ranks} ranks; {side} pieces fill {where}."]
    out.append(_pieces_words(family, names))
    if rs.sides.fixed_white:
        fixed = Counter(p for row in rs.fixed for p in row if p != " ")
        listed = ", ".join(named(x, n, names) for x, n in sorted(fixed.items()))
        out.append(f"White stands on fixed squares: {listed}.")
    else:
        out.append(f"Black answers White: {rs.sides.help}.")
    for front in rs.front:
        side = "right" if front.right else "left"
        out.append(f"A {names[front.piece]} stands one rank in front "
                   f"of the {side} {names[front.of]}.")
    out.append(_pawn_words(family, names))
    out.extend(hand_words(family, names))
    if shogi:
        out.append("Positions are written as SFEN; Sente (upper case) is White here, "
                   "Gote Black. Files are numbered 9 to 1 from Sente's left, ranks "
                   "lettered a to i from Gote's side.")
    return out


def _pieces_words(family: Family, names: Mapping[str, str]) -> str:
    """The sentence naming the shuffled pieces (or the armies of the sides' own)."""
    rs = family.ruleset
    if rs.armies:  # armies of the sides' own, each standing as written
        armies = "; ".join(f"{a.title} {a.pieces}" for a in rs.armies)
        return (f"Each side plays one of {len(rs.armies)} armies, standing as written: "
                f"{armies}; {len(rs.pairings)} pairings of them are the positions.")
    army = rs.army
    shuffled = rs.pieces.replace(army.placeholder, "") if army else rs.pieces
    pieces = ", ".join(named(x, n, names) for x, n in _piece_counts(shuffled))
    if army:
        pool = [names[x] for x in army.pool]
        each = ", ".join(pool[:-1]) + f" or {pool[-1]}" if len(pool) > 1 else pool[0]
        pieces += f" and {army.size} more, each a {each}"
    return f"The shuffled pieces: {pieces} ({len(rs.pieces)} in all)."


def _pawn_words(family: Family, names: Mapping[str, str]) -> str:
    """Where the pawns stand, in words consistent with the pieces' count."""
    rs = family.ruleset
    among = rs.pieces.count("P")
    if rs.sides.fixed_white and rs.pawns is not None:
        return f"Black's pawns fill rank {rs.ranks + 1 - rs.pawns}."
    if rs.pawns is None:
        if among:
            plural = named("P", among, names).split(" ", 1)[1]
            return (f"The {among} {plural} are among the shuffled pieces, not on a rank of "
                    "their own.")
        return "No pawns."
    pawns, theirs = rs.pawns, rs.ranks + 1 - rs.pawns
    if rs.notation == "sfen":
        return (f"Sente's pawns fill rank {FILE_LETTERS[rs.ranks - pawns]}, Gote's "
                f"rank {FILE_LETTERS[rs.ranks - theirs]}.")
    return f"White's pawns fill rank {pawns}, Black's rank {theirs}."


def hand_words(family: Family, names: Mapping[str, str] | None = None) -> list[str]:
    """The pieces in hand and their gating, in sentences (none without a hand).

    >>> from solver.family import Family
    >>> held, gating = hand_words(Family.load("seirawan960"))
    >>> held
    'In hand, each side holds 1 hawk (H) and 1 elephant (E), written [HEhe] after the placement.'
    >>> gating.startswith("Gating: a piece in hand"), "(KQABCDEkqabcde in the first" in gating
    (True, True)
    """
    rs = family.ruleset
    if rs.hand is None:
        return []
    names = names if names is not None else game_names(family)
    if not rs.hand:
        return ["Each side has a hand, empty at the start, written [] after the placement."]
    held = " and ".join(f"{named(x, n, names)} ({x})" for x, n in _piece_counts(rs.hand))
    out = [f"In hand, each side holds {held}, written [{rs.hand}{rs.hand.lower()}] "
           "after the placement."]
    if rs.gating:
        from solver.notation.fen import position_fen

        castling = position_fen(family.position(0)).split()[2]
        out.append("Gating: a piece in hand enters play on a square of its side's first "
                   "rank as the piece standing there first leaves it; the castling field "
                   "lists each side's castling rights, then its gating squares "
                   f"({castling} in the first position).")
    return out


def _piece_counts(pieces: str) -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    for x in pieces:
        seen[x] = seen.get(x, 0) + 1
    return list(seen.items())


def piece_squares(family: Family) -> Heatmap:
    """How many of one side's ranks put each piece on each square, counted by
    completions of partial ranks (never listing the family).

    >>> from solver.family import Family
    >>> heat = piece_squares(Family.load("chess960"))
    >>> heat.cells["K"], heat.total, heat.method
    ([0, 108, 168, 204, 204, 168, 108, 0], 960, 'counted')

    Raises :class:`~solver.errors.CountingTooLargeError` when a layer of
    partial ranks would exceed :data:`STATE_LIMIT`.
    """
    from solver.errors import CountingTooLargeError

    rs = family.ruleset
    region, pieces = rs.region, rs.pieces
    trackers = [rule.tracker(region, pieces) for rule in rs.rules]
    letters = sorted(set(pieces))
    size = len(pieces)
    start: _Node = (tuple(pieces.count(x) for x in letters), tuple(t.start() for t in trackers))

    def moves(node: _Node, file: int) -> list[tuple[int, _Node]]:
        counts, states = node
        out = []
        for i, left in enumerate(counts):
            if not left:
                continue
            after = []
            for t, s in zip(trackers, states, strict=True):
                placed = t.place(s, file, letters[i])
                if placed is None:
                    break
                after.append(placed)
            else:
                out.append((i, ((*counts[:i], left - 1, *counts[i + 1:]), tuple(after))))
        return out

    layers: list[dict[_Node, int]] = [{start: 1}]
    for file in range(size):
        following: dict[_Node, int] = {}
        for node, ways in layers[-1].items():
            for _, child in moves(node, file):
                following[child] = following.get(child, 0) + ways
        if len(following) > STATE_LIMIT:
            raise CountingTooLargeError(family.name, len(following), STATE_LIMIT,
                                        "counting each piece on each square")
        layers.append(following)
    after: dict[_Node, int] = {node: int(all(t.finish(s) for t, s in
                                            zip(trackers, node[1], strict=True)))
                              for node in layers[-1]}
    cells = {x: [0] * size for x in letters}
    for file in range(size - 1, -1, -1):
        here: dict[_Node, int] = {}
        for node, ways in layers[file].items():
            total = 0
            for i, child in moves(node, file):
                ends = after.get(child, 0)
                if ends:
                    total += ends
                    cells[letters[i]][file] += ways * ends
            here[node] = total
        after = here
    return Heatmap(square_names(family), cells, after.get(start, 0), "counted")


def listed_squares(family: Family, ranks: Sequence[str]) -> Heatmap:
    """:func:`piece_squares` by counting over a listing of the ranks."""
    letters = sorted({*family.ruleset.pieces, *(x for rank in ranks for x in rank)})
    size = family.ruleset.region_size
    cells = {x: [0] * size for x in letters}
    for rank in ranks:
        for i, x in enumerate(rank):
            cells[x][i] += 1
    return Heatmap(square_names(family), cells, len(ranks), "listed")


def mirror_of(family: Family) -> list[int]:
    """Where each square of the region goes in the left-right mirror, as indices
    into the region (a square whose mirror is outside the region: -1).

    >>> from solver.family import Family
    >>> mirror_of(Family.load("racing-kings"))
    [3, 2, 1, 0, 7, 6, 5, 4]
    """
    squares = family.ruleset.region.squares
    files = [f for f, _ in squares]
    low, high = min(files), max(files)
    where = {square: i for i, square in enumerate(squares)}
    return [where.get((low + high - f, r), -1) for f, r in squares]


def mirrors(family: Family, ranks: Sequence[str]) -> Mirrors:
    """The mirror pairs and symmetric ranks among ``ranks`` (the whole family):
    each rank reflected left to right within its region.

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> found = mirrors(chess960, chess960.side_table())
    >>> len(found.symmetric), len(found.pairs), found.outside
    (0, 480, 0)
    """
    turn = mirror_of(family)
    known = set(ranks)
    symmetric: list[str] = []
    pairs: list[tuple[str, str]] = []
    outside = 0
    for rank in ranks:
        if -1 in turn:
            outside += 1
            continue
        image = "".join(rank[j] for j in turn)
        if image == rank:
            symmetric.append(rank)
        elif image not in known:
            outside += 1
        elif rank < image:
            pairs.append((rank, image))
    return Mirrors(len(ranks), symmetric, pairs, outside)


def side_id(family: Family, rank: str) -> int:
    """The number of one side's rank (one place to re-point when a family gets
    several numberings)."""
    return family.rank_id(rank)


def examples(family: Family, how_many: int = 4) -> list[Position]:
    """A few positions to draw: the first, the last, the middle one and one
    drawn with the seed ``report`` (in ID order, no repeats)."""
    from solver.sampling import draw_ids

    count = family.count
    chosen = {0, count // 2, count - 1, *draw_ids(count, 1, seed="report")}
    return [family.position(n) for n in sorted(chosen)[:how_many]]


def family_report(family: Family, prove: bool = True) -> FamilyReport:
    """Everything the family's page shows (``prove``: run ``check`` too)."""
    from solver.errors import Chess960Error

    rs = family.ruleset
    names = dict(rs.names)
    side_count = family.side_count
    ranks: list[str] | None = None

    def listing() -> list[str] | None:
        nonlocal ranks
        if ranks is None and side_count <= LIST_LIMIT:
            ranks = family.side_table()
        return ranks

    heat_note = ("Counted by completions of partial ranks, square by square, "
                 "as the counting engine counts; the family was not listed.")
    heatmap: Heatmap | None
    try:
        if rs.armies:  # (each army stands as written: its rank is all there is to count)
            heatmap = listed_squares(family, family.side_table())
            heat_note = f"Counted over the {side_count} armies' ranks, each standing as written."
        else:
            heatmap = piece_squares(family)
    except Chess960Error as exc:
        listed = listing()
        if listed is None:
            heatmap = None
            heat_note = f"Not computed: {exc}; and the family is too large to list."
        else:
            heatmap = listed_squares(family, listed)
            heat_note = f"Counted over the listing of all {len(listed):,} ranks ({exc})."
    listed = listing()
    if listed is None:
        found = None
        mirror_note = (f"Not computed: one side has {side_count:,} ranks, more than the "
                       f"{LIST_LIMIT:,} a report lists.")
    else:
        found = mirrors(family, listed)
        mirror_note = ("Each rank reflected left to right (within the squares the pieces "
                       f"fill), over the listing of all {len(listed):,} ranks.")
    proof = None
    if prove:
        from solver.check import check

        proof = check(family)
    rules = [(rule.label, rule.words(names)) for rule in rs.rules]
    words = game_names(family)
    counts = _piece_counts("".join(a.pieces for a in rs.armies) or rs.pieces)
    pieces = [(x, words.get(x) or piece_name(x), n) for x, n in counts]
    return FamilyReport(family, board_words(family), rules, pieces, family.count, side_count,
                  proof, heatmap, heat_note, found, mirror_note, evaluation_spread(family),
                  examples(family))


def squares_text(family: Family, position: Position) -> list[tuple[str, str]]:
    """The set-up read left to right, rank by rank from White's side: for each
    rank of the region, its squares' range and the pieces' letters.

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> squares_text(chess960, chess960.position(518))
    [('a1-h1', 'R N B Q K B N R')]
    >>> rk = Family.load("racing-kings")
    >>> squares_text(rk, rk.identify("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"))
    [('e1-h1', 'N B R Q'), ('e2-h2', 'N B R K')]
    """
    rs = family.ruleset
    squares = rs.region.squares
    if rs.sides.fixed_white:  # Black's rank, from the a-file on
        return [(f"a{rs.ranks}-{FILE_LETTERS[rs.files - 1]}{rs.ranks}",
                 " ".join(position.black.lower()))]
    rank = position.white
    rows: dict[int, list[tuple[int, str]]] = {}
    for (f, r), letter in zip(squares, rank, strict=True):
        rows.setdefault(r, []).append((f, letter))
    out = []
    shogi = rs.notation == "sfen"
    for r in sorted(rows):
        row = sorted(rows[r])
        if shogi:
            span = (f"{rs.files - row[0][0]}{FILE_LETTERS[rs.ranks - r]}-"
                    f"{rs.files - row[-1][0]}{FILE_LETTERS[rs.ranks - r]}")
        else:
            span = f"{FILE_LETTERS[row[0][0]]}{r}-{FILE_LETTERS[row[-1][0]]}{r}"
        out.append((span, " ".join(letter for _, letter in row)))
    if rs.sides.independent:
        top = rs.ranks
        out.append((f"a{top}-{FILE_LETTERS[rs.files - 1]}{top}", " ".join(position.black.lower())))
    return out


def game_names(family: Family) -> dict[str, str]:
    """Each letter the family's boards may show (its pieces, the pieces in front,
    in hand and the pawn) with its name in the game's own words: the rule
    file's declared names, else the game's (:data:`GAME_NAMES`), else chess's.

    >>> from solver.family import Family
    >>> names = game_names(Family.load("janggi"))
    >>> names["A"], names["C"], names["P"]
    ('guard', 'cannon', 'soldier')
    >>> game_names(Family.load("seirawan960"))["H"]
    'hawk'
    """
    rs = family.ruleset
    declared = dict(rs.names)
    own = GAME_NAMES.get((rs.variant or rs.name).lower(), {})
    letters = {*_letters(family), "P"}
    letters |= {p.upper() for row in rs.fixed for p in row if p != " "}
    return {x: declared.get(x) or own.get(x) or piece_name(x, 1, declared)
            for x in sorted(letters)}


def _letters(family: Family) -> set[str]:
    """The letters of the family's own pieces: its rank's (a varying army's pool
    for its placeholder), those in front and those in hand."""
    rs = family.ruleset
    army = rs.army
    pieces = rs.pieces.replace(army.placeholder, "") + army.pool if army else rs.pieces
    pieces += "".join(a.pieces for a in rs.armies)
    return {*pieces, *(f.piece for f in rs.front), *(rs.hand or "")}


def named(letter: str, count: int, names: Mapping[str, str]) -> str:
    """``count`` and the piece's name from ``names``, plural when not 1.

    >>> named("A", 2, {"A": "guard"}), named(".", 1, {".": "empty square"})
    ('2 guards', '1 empty square')
    """
    name = names.get(letter) or piece_name(letter, 1)
    return f"{count} {name}{'s' * (count != 1)}"


def names_of(family: Family) -> Mapping[str, str]:
    """Each piece letter of the family with its name in the game's words (the
    pawn when the family has pawns, the pieces in hand too)."""
    names = game_names(family)
    rs = family.ruleset
    shown = _letters(family)
    if rs.pawns is not None or rs.fixed:
        shown.add("P")
    return {x: names[x] for x in sorted(shown)}


def families_table() -> Iterator[str]:
    """The lines of ``chess960 rules``: each bundled family's name, title, files, count
    and numbering, in columns.

    >>> next(families_table()).split()
    ['name', 'title', 'files', 'count', 'numbering']
    """
    from solver.ruleset.reader import bundled_names, load

    rows = []
    for name in bundled_names():
        rs = load(name)
        rows.append((rs.name, rs.title, str(rs.files), f"{rs.count:,}", rs.numbering))
    header = ("name", "title", "files", "count", "numbering")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = [c.ljust(w) if i < 2 or i == 4 else c.rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        yield "  ".join(cells).rstrip()


def numberings_table(rules: str | None = None) -> Iterator[str]:
    """The lines of ``chess960 rules --numberings``: each family's numberings
    (``rules``: one family's), with their numbers and what proves them.

    >>> next(numberings_table("chess960"))
    "chess960 scharnagl: Scharnagl's start-position IDs (SP-ID) 0..959 (own; 0..959)"
    """
    from solver.family import Family
    from solver.ruleset.reader import bundled_names

    for name in [rules] if rules is not None else bundled_names():
        family = Family.load(name)
        for scheme in family.schemes.values():
            if scheme.canonical:
                yield (f"{family.name} {scheme.name}: {scheme.spec.title} "
                       f"(own; {scheme.describe_range()})")
            else:
                yield f"{family.name} {scheme.summary()}"
