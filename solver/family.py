"""A start-position family: its rules, its numbering, its positions.

:class:`Family` joins a :class:`~solver.ruleset.reader.RuleSet` with its numbering
(:class:`~solver.numbering.index.RankIndex`) and reads positions written as ranks,
pairs of ranks or start FENs. Looking up one ID or rank of an arithmetic
family needs neither the solver nor a table; enumerated families (and
listing any family, :mod:`solver.numbering.listing`) ask the solver, imported only then.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import cache, cached_property, lru_cache
from typing import TYPE_CHECKING

from solver.board.castling_rules import SubsetCastling
from solver.board.geometry import EXTRA_NAMES, Layout, piece_name
from solver.board.sides import INDEPENDENT, Sides
from solver.errors import (
    Chess960Error,
    FenSyntaxError,
    IdRangeError,
    MirrorError,
    PairError,
    PairOrderError,
    PieceCountError,
    RuleViolationError,
    SidesError,
    Violation,
    need_int,
    need_text,
)
from solver.kinds.model import MAX_ARRANGEMENTS
from solver.kinds.vocabulary import Placement
from solver.notation.castling import side_rights
from solver.notation.fen import check_castling, is_fen, read_start
from solver.notation.ranks import parse_id, parse_rank, piece_sides
from solver.numbering.index import RankIndex
from solver.position import Mirrored, Pairs, Position
from solver.ruleset.reader import RuleSet, bundled_names, load, load_source
from solver.syntax.steps import Numbering

if TYPE_CHECKING:
    from solver.numbering.armies import ArmyIndex
    from solver.numbering.counting import Counting
    from solver.numbering.different_armies import ArmiesIndex
    from solver.numbering.schemes import Scheme
    from solver.ruleset.source import RuleSource

__all__ = ["Family", "Position"]

Progress = Callable[[int], object]

#: A start FEN on the classical board written the common way (both back ranks
#: of the five chess pieces, White to move, no en passant square, counters or
#: an ``id`` operation): what :meth:`Family.fen_identifier` answers by ranks.
_PLAIN_START = re.compile(
    r'([kqrbn]{8})/pppppppp/8/8/8/8/PPPPPPPP/([KQRBN]{8}) w ([A-Za-z]{1,4}|-) -'
    r'(?: [0-9]{1,9} [0-9]{1,9})?(?: id "[^";]*";?)?')

#: Back ranks whose ID and castling rights :meth:`Family.fen_identifier` remembers.
RANK_MEMO = 1 << 16


class Family:
    """A start-position family with its numbering.

    >>> chess960 = Family.load("chess960")
    >>> chess960
    <Family 'chess960': 960 positions>
    >>> chess960.id("QNRBBNKR"), chess960.position(518).fen()
    (105, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')

    One name for each thing asked of it:

    * make one: :meth:`load` (a bundled name or a path), :meth:`from_source`;
    * how many: :attr:`count` (from the numbering), :meth:`total` (as the
      solver finds them), :attr:`side_count` (one side's ranks);
    * a position: :meth:`position` (by ID), :meth:`pair` (by each side's ID),
      :meth:`identify` (a rank, a pair of ranks or a start FEN), :meth:`read`
      (any of those or an ID), :meth:`id` (:meth:`read`'s ID),
      :meth:`random` (drawn uniformly);
    * one side's rank: :meth:`validate` (read and check it), :meth:`violations`
      (the rules it breaks), :meth:`rank_id` and :meth:`rank_of` (its ID and back),
      as :class:`~solver.numbering.counting.Counting` names them;
    * every position: :meth:`positions` (in ID order), :meth:`numbered` (the
      same as ``(id, white, black)`` rows, for writers); one side's ranks:
      :meth:`ranks` (a list), :meth:`side_ranks` (streamed), :meth:`solver_ranks`
      (in the solver's order), :meth:`canonical` (sorted into ID order);
    * numberings: :attr:`schemes`, :meth:`scheme` (one by name),
      :meth:`converter` (from one to another);
    * the board: :attr:`layout`, :attr:`sides`, :attr:`independent`.
    """

    def __init__(self, ruleset: RuleSet, max_arrangements: int = MAX_ARRANGEMENTS) -> None:
        self.ruleset = ruleset
        self.max_arrangements = max_arrangements

    @cached_property
    def numbering(self) -> Numbering:
        """The numbering by placement steps (made on first use: surveying the
        steps of a wide board takes a while, and counting does not need it).

        >>> Family.load("chess960").numbering
        <Numbering 'chess960': 5 steps, 960 ranks>
        """
        return self.ruleset.step_numbering()

    @cached_property
    def index(self) -> RankIndex:
        """One side's lookups; enumerated families count rather than list (an
        army that varies: :class:`~solver.numbering.armies.ArmyIndex`, which
        has the same interface)."""
        if self.ruleset.armies:
            return self.armies  # type: ignore[return-value]
        if self.ruleset.army is not None:
            return self.army  # type: ignore[return-value]
        return RankIndex(self.numbering, self.ruleset.numbering == "arithmetic",
                         lambda: list(self.side_ranks()), self._counting)

    @cached_property
    def army(self) -> ArmyIndex:
        """The numbering of a family whose army varies (``K + 7 of NBRQ``)."""
        from solver.numbering.armies import ArmyIndex

        frame = replace(self.ruleset, army=None)
        return ArmyIndex(self.ruleset, lambda: Family(frame, self.max_arrangements))

    @cached_property
    def armies(self) -> ArmiesIndex:
        """The numbering of a family whose sides have armies of their own
        (``[[army]]``, Chess with Different Armies)."""
        from solver.numbering.different_armies import ArmiesIndex

        return ArmiesIndex(self.ruleset)

    @property
    def linked(self) -> bool:
        """Whether the sides' ranks are tied: by a ``link`` (FICS wild 4), or as
        the ``pairings`` of armies (Chess with Different Armies) say.

        >>> Family.load("wild4").linked, Family.load("dfrc").linked
        (True, False)
        """
        return bool(self.ruleset.armies) or (
            self.ruleset.army is not None and self.ruleset.army.linked)

    @property
    def _paired(self) -> ArmyIndex | ArmiesIndex:
        """The numbering of a family whose ranks are drawn (:attr:`_drawn`): its
        one side's ranks, and a linked family's pairs (:attr:`linked`)."""
        return self.armies if self.ruleset.armies else self.army

    @property
    def _drawn(self) -> bool:
        """Whether one side's ranks are numbered by arithmetic on an army (an army
        that varies, or armies of the sides' own), not by the solver's listing."""
        return self.ruleset.army is not None or bool(self.ruleset.armies)

    @classmethod
    def load(
        cls, name_or_path: str = "chess960", max_arrangements: int = MAX_ARRANGEMENTS
    ) -> Family:
        """The family of a bundled name or a rule file's path (a regular file:
        a FIFO or a directory is refused at once, as :func:`~solver.ruleset.reader.load` does).

        >>> Family.load("dfrc")
        <Family 'dfrc': 921600 positions>
        """
        return cls(load(name_or_path), max_arrangements)

    @classmethod
    def from_source(
        cls, source: RuleSource, max_arrangements: int = MAX_ARRANGEMENTS
    ) -> Family:
        """The family in a rule file already read (:meth:`RuleSource.read
        <solver.ruleset.source.RuleSource.read>`), without reading it again.

        >>> from solver.ruleset.source import RuleSource
        >>> Family.from_source(RuleSource.read("chess960"))
        <Family 'chess960': 960 positions>
        """
        return cls(load_source(source), max_arrangements)

    def take_listing(self, ranks: list[str]) -> None:
        """Answer lookups from ``ranks``, one side's ranks in canonical order made
        earlier in this run (:meth:`side_table`, as :mod:`solver.lists.book` does), instead
        of counting: for an enumerated family whose sides mirror (else nothing).

        >>> family = Family.load("capablanca-random-full")
        >>> family.take_listing(["RNBQKBNR"])
        >>> family.side_count, family.rank_of(0)
        (1, 'RNBQKBNR')
        """
        if self.ruleset.numbering == "arithmetic" or self._drawn or self.independent:
            return
        index = RankIndex(self.numbering, False, lambda: ranks)
        index.ranks()
        self.__dict__["index"] = index

    def _counting(self) -> Counting:
        """The counter that numbers an enumerated family without listing it."""
        return self._counter()

    @cache  # noqa: B019  (one counter per family, kept as long as the family)
    def _counter(self) -> Counting:
        from solver.numbering.counting import Counting

        return Counting(self.ruleset, lambda: self.numbering)

    @property
    def name(self) -> str:
        """The family's name: a bundled name, or the rule file's ``name``.

        >>> Family.load("dfrc").name
        'dfrc'
        """
        return self.ruleset.name

    def __repr__(self) -> str:
        """``<Family 'chess960': 960 positions>``: its name and count.

        >>> Family.load("dfrc")
        <Family 'dfrc': 921600 positions>
        """
        try:
            count = self.count
        except Chess960Error:  # over a counting limit: the count the rule file states
            count = self.ruleset.count
        return f"<Family {self.name!r}: {count} positions>"

    @cached_property
    def schemes(self) -> dict[str, Scheme]:
        """Every numbering of the family by name, its own first
        (:mod:`solver.numbering.schemes`).

        >>> list(Family.load("dfrc").schemes)
        ['scharnagl', 'tcec', 'one-based', 'black-major']
        """
        from solver.numbering.schemes import schemes_of

        return schemes_of(self)

    def scheme(self, name: str | None = None) -> Scheme:
        """The numbering ``name`` (default: the family's own); raises
        :class:`~solver.errors.UnknownNumberingError` for a name it does not have.

        >>> Family.load("dfrc").scheme("tcec").text(101318)
        'DFRC 105:518'
        """
        from solver.numbering.schemes import scheme_named

        return scheme_named(self, name or self.ruleset.numbering_name)

    def converter(self, source: str | None = None, target: str | None = None
                  ) -> Callable[[str], str]:
        """How a number (or label) of the numbering ``source`` is written in
        ``target`` (each default: the family's own numbering).

        >>> Family.load("chess960").converter(target="scidb")("0")
        '960'
        """
        read, write = self.scheme(source).read, self.scheme(target).text
        return lambda text: write(read(text))

    @property
    def sides(self) -> Sides:
        """How Black's rank relates to White's (:mod:`solver.board.sides`).

        >>> Family.load("chess960").sides.name, Family.load("dfrc").sides.name
        ('mirror', 'independent')
        """
        return self.ruleset.sides

    @property
    def independent(self) -> bool:
        """Whether Black's rank is one of its own (a position is a pair of ranks).

        >>> Family.load("dfrc").independent
        True
        """
        return self.ruleset.sides.independent

    @cached_property
    def names(self) -> dict[str, str]:
        """The family's own piece letters (beyond chess's) with their names.

        >>> Family.load("myshogi").names
        {'L': 'lance', 'S': 'silver general', 'G': 'gold general'}
        """
        return dict(self.ruleset.names)

    @cached_property
    def layout(self) -> Layout:
        """The board around the ranks (the classical one: :attr:`Layout.standard
        <solver.board.geometry.Layout.standard>`), made once.

        >>> Family.load("chess960").layout.standard, Family.load("janggi").layout.ranks
        (True, 10)
        """
        return self.ruleset.layout

    def _one(self, number: int, rank: str) -> Position:
        """The position of a family whose sides share one rank."""
        return Position(number, rank, self.layout.black_rank(rank), self.layout)

    @property
    def side_count(self) -> int:
        """How many ranks one side may have (from the numbering or by counting).

        >>> Family.load("dfrc").side_count
        960
        """
        if self._drawn:
            return self.index.count
        if self.ruleset.numbering != "arithmetic" and (
                "index" not in self.__dict__ or self.index.listed is None):
            return self._counter().count
        return self.index.count

    @property
    def count(self) -> int:
        """How many positions the family has (times its castling variations,
        :attr:`RuleSet.castling <solver.ruleset.reader.RuleSet.castling>`), from
        its numbering: at once, however large the family.

        >>> Family.load("chess960").count, Family.load("wild4").count
        (960, 149320544)
        """
        if self.linked:
            return self._paired.pair_count * self.ruleset.castling.variations
        return self.sides.pair_count(self.side_count) * self.ruleset.castling.variations

    # -- one side -------------------------------------------------------------

    def violations(self, rank: str) -> list[Violation]:
        """Every rule of the family that ``rank`` (upper-case letters) breaks.

        >>> [str(v) for v in Family.load("chess960").violations("RNQBKBNR")]
        ['bishops on d1 and f1 are both on light squares (rule opposite-colours BB)']
        """
        placement = Placement(rank, self.names, self.ruleset.region)
        return [v for rule in self.ruleset.rules for v in rule.violations(placement)]

    def breaks_a_rule(self, rank: str) -> bool:
        """Whether ``rank`` breaks a rule as the rules explain it (the first
        explained violation decides; see :meth:`violations`), without listing them all.

        >>> Family.load("chess960").breaks_a_rule("RNQBKBNR")
        True
        """
        placement = Placement(rank, self.names, self.ruleset.region)
        return any(rule.violations(placement) for rule in self.ruleset.rules)

    def validate(self, text: str) -> str:
        """Read one rank and check it belongs to the family; return its letters.

        Raises a :class:`~solver.errors.RankError` subclass naming what is
        wrong: length, unknown piece, piece counts, or every rule it breaks.

        >>> Family.load("chess960").validate("rnbqkbnr")
        'RNBQKBNR'
        """
        rank = parse_rank(need_text(text, "rank"), self.ruleset.region_size, self._own())
        self._check_counts(text, rank)
        broken = self.violations(rank)
        if broken:
            raise RuleViolationError(text, self.name, broken)
        return rank

    def _own(self) -> str:
        """The family's own piece letters, with the empty square and the pawn
        where its ranks hold them (what :func:`~solver.notation.ranks.parse_rank` reads)."""
        return "".join(self.names) + "".join(c for c in EXTRA_NAMES if c in self.ruleset.pieces)

    def _check_counts(self, text: str, rank: str) -> None:
        if self.ruleset.armies:
            if self.armies.army_of(rank) is None:
                from solver.errors import ArmyError

                raise ArmyError(text, self.name, self.armies.text,
                                "its pieces stand as no army's")
            return
        army = self.ruleset.army
        if army is not None:
            if not army.has(rank):
                from solver.errors import ArmyError

                strangers = sorted(set(rank) - set(army.fixed + army.pool))
                kings = rank.count("K")
                reason = (f"{', '.join(strangers)} is not in the army" if strangers else
                          f"it has {kings} kings" if kings != 1 else
                          "its pieces are not the army's")
                raise ArmyError(text, self.name, army.text, reason)
            return
        want = self.ruleset.piece_counts
        have = Counter(rank)
        for letter in [*want, *(p for p in have if p not in want)]:
            if have[letter] != want[letter]:
                names = self.ruleset.region.names  # (a region's own squares, in its order)
                squares = [names[f] for f, p in enumerate(rank) if p == letter]
                what = piece_name(letter, have[letter], self.names)
                raise PieceCountError(text, letter, have[letter], want[letter], squares, what)

    def rank_id(self, rank: str) -> int:
        """The ID of one side's valid rank (upper-case letters).

        >>> Family.load("dfrc").rank_id("QNRBBNKR")
        105
        """
        index = self.index
        try:  # bulk lookups: the table without another call (None until built)
            return index.ids[rank]  # type: ignore[index]
        except (KeyError, TypeError):
            return index.id(rank)

    def rank_of(self, number: int) -> str:
        """One side's rank with ID ``number`` (``0 <= number < side_count``).

        >>> Family.load("dfrc").rank_of(105)
        'QNRBBNKR'
        """
        need_int(number, "id")
        index = self.index
        if number >= 0:  # the table, once built (None until then), without another call
            try:
                return index.by_id[number]  # type: ignore[index]
            except (IndexError, TypeError):
                pass
        return index.rank(number)

    # -- reading positions -------------------------------------------------------

    def identify(self, text: str) -> Position:
        """The position a rank, a pair of ranks or a start FEN is.

        A pair is written White's rank first, then Black's, with any spaces
        or a ``/`` between: ``RNBQKBNR rnbqkbnr``. Either rank may be in
        either case, except Black's first: a pair whose first rank is all
        lower case (black glyphs) and whose second is all upper case (white
        glyphs) raises :class:`~solver.errors.PairOrderError`. A full start FEN may use
        either castling notation; an SFEN may start with
        USI's ``sfen`` keyword.

        >>> Family.load("dfrc").identify("QNRBBNKR rnbqkbnr")
        Position(101318, 'QNRBBNKR', 'RNBQKBNR')
        """
        need_text(text, "position")
        if self.layout.notation == "sfen":
            words = text.split(maxsplit=1)
            if len(words) == 2 and words[0] == "sfen":  # USI's `position sfen ...` prefix
                text = words[1]
        if is_fen(text):
            return self._identify_fen(text)
        if not self.independent:
            rank = self.validate(text)
            return self._one(self.rank_id(rank), rank)
        files = self.ruleset.region_size
        spaced = text.replace("/", " ").replace(":", " ")
        letters = parse_rank(spaced, None, self._own())
        if len(letters) != 2 * files:
            raise PairError(text, self.name, len(letters), files)
        sides = piece_sides(spaced)
        if set(sides[:files]) == {"b"} and set(sides[files:]) == {"w"}:
            raise PairOrderError(text, self.name,
                                 f"{letters[files:]} {letters[:files].lower()}")
        return self._pair(self.validate(letters[:files]), self.validate(letters[files:]))

    def fen_identifier(self) -> Callable[[str], int]:
        """``identify(text).id`` for many texts: a start FEN written the common
        way is answered from its two back ranks, each validated and numbered
        once (remembered for up to :data:`RANK_MEMO` ranks); any other text,
        or one whose answer is an error, goes to :meth:`identify` (the same
        answer, the same error).

        >>> answer = Family.load("dfrc").fen_identifier()
        >>> answer("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChq - 0 1")
        101318
        """
        if not self.layout.chessboard or self.linked:
            return lambda text: self.identify(text).id
        independent = self.independent
        count = self.side_count if independent else 0
        ranks: dict[str, tuple[int, str, str] | None] = {}
        match = _PLAIN_START.fullmatch
        identify = self.identify

        def side(row: str) -> tuple[int, str, str] | None:
            """A back rank's ID and castling rights (X-FEN, Shredder-FEN), or None."""
            try:
                return ranks[row]
            except KeyError:
                pass
            table = self.index.ids  # (once built: every rank of the family, so valid)
            number = None if table is None else table.get(row)
            try:
                found: tuple[int, str, str] | None = (
                    self.rank_id(self.validate(row)) if number is None else number,
                    side_rights(row), side_rights(row, True))
            except Chess960Error:
                found = None
            if len(ranks) < RANK_MEMO:
                ranks[row] = found
            return found

        def answer(text: str) -> int:
            found = match(text)
            if found is not None:
                black_row, white_row, castling = found.groups()
                black_rank = black_row.upper()
                white = side(white_row)
                if white is not None and (independent or black_rank == white_row):
                    black = side(black_rank) if independent else white
                    if black is not None and (
                            castling == ((white[1] + black[1].lower()) or "-") or
                            castling == ((white[2] + black[2].lower()) or "-")):
                        return white[0] * count + black[0] if independent else white[0]
            return identify(text).id

        return answer

    def _identify_fen(self, text: str) -> Position:
        """The position a start FEN (either castling notation) shows.

        >>> Family.load("chess960")._identify_fen(
        ...     "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1").id
        105

        Besides the errors of :func:`~solver.notation.fen.read_start` and
        :func:`~solver.notation.fen.check_castling`, raises
        :class:`~solver.errors.MirrorError` when Black does not mirror White
        in a mirrored family, and the rank errors of :meth:`validate`.
        """
        layout = self.ruleset.layout
        try:
            start = read_start(text, layout)
        except FenSyntaxError:
            plain = self._variant_plain(text)
            if plain is None:
                raise
            return self._identify_fen(plain)
        white = self.validate(start.white)  # a wrong White names its own fault first
        if not self.independent and start.black != layout.black_rank(start.white):
            raise self.mirror_error(text, start.white, start.black)
        black = self.validate(start.black.lower()) if self.independent else start.black
        variation = check_castling(text, start.castling, white, black, layout)
        found = self._one(self.rank_id(white), white) if not self.independent \
            else self._pair(white, black)
        if variation:
            found = replace(found, id=self._rights_id(variation, found.id))
        return found

    def _rights_id(self, variation: int, placement: int) -> int:
        """The id of a placement's castling variation (see
        :class:`~solver.board.castling_rules.SubsetCastling`: the one place of
        this arithmetic)."""
        rule = self.ruleset.castling
        assert isinstance(rule, SubsetCastling)
        return rule.join(variation, placement)

    def _variant_plain(self, text: str) -> str | None:
        """The plain FEN of a variant's start FEN (pieces in hand, ``3+3``,
        bughouse's boards, Seirawan's gating field) as any dialect writes it,
        for a family on the classical board (``None``: not one)."""
        if not self.layout.standard or not any(c in text for c in "[+|"):
            return None
        from solver.notation.dialects import read_any

        return read_any(text)

    def _pair(self, white: str, black: str) -> Position:
        if self.linked:
            paired = self._paired
            if not paired.fits(white, black):
                from solver.errors import LinkError

                raise LinkError(f"{white} {black.lower()}", self.name, white, black,
                                self._misfit(white, black))
            return Position(paired.pair_id(white, black), white, black, self.layout)
        number = self.rank_id(white) * self.side_count + self.rank_id(black)
        return Position(number, white, black, self.layout)

    def _misfit(self, white: str, black: str) -> str:
        """Why Black's rank does not fit White's, in words."""
        if self.ruleset.armies:
            return self.armies.misfit(white, black)
        if sorted(white) != sorted(black):
            return "the link 'same-army' gives black white's pieces"
        colour = self.ruleset.army.colour if self.ruleset.army is not None else None
        piece = piece_name(colour or "B", 2, self.names)
        return (f"the link 'same-colours {colour}' gives each side as many {piece} "
                "on dark squares (each rank read as it would stand on white's first rank)")

    def mirror_error(self, text: str, white: str, black: str) -> MirrorError:
        """The error of a start FEN ``text`` whose Black rank ``black`` (upper
        case) does not answer White's ``white`` in this family of answered sides.

        >>> print(Family.load("chess960").mirror_error("...", "QNRBBNKR", "RNBQKBNR"))
        fen '...' is not a chess960 position: black's rank 'rnbqkbnr' does not mirror white's
        'QNRBBNKR'; the dfrc family takes the pair
        """
        return MirrorError(text, self.name, white, black.lower(),
                           self._pair_families(white, black),
                           relation=self.ruleset.layout.sides.mismatch(white))

    def _pair_families(self, white: str, black: str) -> list[str]:
        """Bundled families with independent sides, on this family's board, that
        take ``white`` and ``black``."""
        names: list[str] = []
        for name in self._pair_candidates:
            if not (_takes(name, white) and _takes(name, black)):
                continue
            other = _bundled(name)
            if other.linked and not other._paired.fits(white, black.upper()):
                continue
            names.append(name)
        return names

    @cached_property
    def _pair_candidates(self) -> tuple[str, ...]:
        """Bundled families with independent sides on this family's board."""
        board = replace(self.ruleset.layout, sides=INDEPENDENT)
        names: list[str] = []
        for name in _bundled_names():
            try:
                other = _bundled(name)
                if other.independent and other.ruleset.layout == board:
                    names.append(name)
            except Chess960Error:
                continue
        return tuple(names)

    def read(self, text: str) -> Position:
        """The position named by an ID, a rank (a pair of ranks) or a start FEN.

        >>> Family.load("chess960").read("518") == Family.load("chess960").read("RNBQKBNR")
        True
        """
        stripped = need_text(text, "position").strip()
        if stripped.isascii() and stripped.lstrip("+-").isdigit():
            return self.position(self.parse_id(stripped))
        return self.identify(text)

    def id(self, text: str) -> int:
        """The ID of the position a text names: an ID, a rank, a pair of ranks
        or a start FEN (:meth:`read`).

        >>> chess960 = Family.load("chess960")
        >>> chess960.id("QNRBBNKR"), chess960.id("518")
        (105, 518)
        >>> chess960.id("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        518
        """
        return self.read(text).id

    def random(self, n: int = 1, *, seed: int | str | None = None, distinct: bool = False,
               exclude: Iterable[int] = ()) -> list[Position]:
        """``n`` positions drawn uniformly (:func:`solver.sampling.draw`):
        from the operating system's randomness, or reproducibly from a ``seed``
        phrase (the same draw on every machine); ``distinct`` draws never
        repeat a position, ``exclude`` leaves IDs out.

        >>> Family.load("chess960").random(3, seed="Freestyle Open 2026, round 3")
        [Position(687, 'QRKNNRBB', 'QRKNNRBB'), Position(682, 'QRKNBBNR', 'QRKNBBNR'),
         Position(782, 'QRKNRBBN', 'QRKNRBBN')]

        Raises :class:`~solver.errors.DrawError` when too few positions are
        left and :class:`~solver.errors.SeedError` for a seed that is no phrase.
        """
        from solver.sampling import draw

        return draw(self, need_int(n, "n"), seed=seed, distinct=distinct, exclude=exclude)

    def parse_id(self, text: str) -> int:
        """Read a position ID of this family (raises :class:`~solver.errors.IdError`).

        >>> Family.load("chess960").parse_id(" 518")
        518
        """
        return parse_id(need_text(text, "id"), self.count, self.name)

    # -- positions by ID -----------------------------------------------------------

    def position(self, number: int) -> Position:
        """The position with ID ``number``: for independent sides
        ``number = white_id * side_count + black_id`` (White's rank the more
        significant digit, as Stockfish's DFRC book and TCEC order pairs).

        >>> Family.load("dfrc").position(101318)
        Position(101318, 'QNRBBNKR', 'RNBQKBNR')
        """
        if not 0 <= need_int(number, "id") < self.count:
            raise IdRangeError(str(number), number, self.count, self.name)
        rule = self.ruleset.castling
        if isinstance(rule, SubsetCastling):
            return replace(self._placement(rule.split(number)[1]), id=number)
        return self._placement(number)

    def _placement(self, number: int) -> Position:
        """The position of a placement id (without castling variations)."""
        if not self.independent:
            return self._one(number, self.rank_of(number))
        if self.linked:
            return Position(number, *self._paired.pair(number), self.layout)
        white, black = divmod(number, self.side_count)
        return Position(number, self.rank_of(white), self.rank_of(black), self.layout)

    def pair(self, white: int | str, black: int | str) -> Position:
        """The position of an independent-sides family from each side's ID.

        >>> Family.load("dfrc").pair(105, "518").id
        101318

        IDs may be given as text; raises :class:`~solver.errors.SidesError`
        for a mirrored family and :class:`~solver.errors.IdError` for a bad ID.
        """
        if not self.independent:
            raise SidesError(self.name)
        n = self.side_count
        if self.linked:
            ranks = [self.rank_of(parse_id(str(number if isinstance(number, str)
                                                    else need_int(number, f"{side}'s id")),
                                           n, f"{self.name} {side}"))
                     for side, number in (("white", white), ("black", black))]
            return self._pair(*ranks)
        ids = [
            parse_id(str(number if isinstance(number, str) else need_int(number, f"{side}'s id")),
                     n, f"{self.name} {side}")
            for side, number in (("white", white), ("black", black))
        ]
        return self.position(ids[0] * n + ids[1])

    # -- listing ----------------------------------------------------------------------

    def ranks(self, progress: Progress | None = None) -> list[str]:
        """One side's ranks as the solver finds them, in canonical (ID) order.

        >>> Family.load("chess960").ranks()[:2]
        ['BBQNNRKR', 'BQNBNRKR']
        """
        if self._drawn:
            return list(self._paired)
        listed = self.index.listed
        if listed is not None:
            return list(listed)
        return list(self.side_ranks(progress))

    def side_table(self) -> list[str]:
        """One side's ranks in canonical (ID) order, made the fastest proven way:
        by the solver for an arithmetic family, by counting for an enumerated one
        (``check`` proves both equal to the other method).

        >>> Family.load("chess480").side_table()[:2]
        ['BBQNNRKR', 'BQNBNRKR']
        """
        listed = self.index.listed
        if listed is not None or self.ruleset.numbering == "arithmetic" or self._drawn:
            return self.ranks()
        from solver.numbering.listing import canonical

        return canonical(self.ruleset, self.numbering, list(self._counter()))

    def positions(self, progress: Progress | None = None) -> Iterator[Position]:
        """Every position in ID order, from the solver's ranks.

        Mirrored families stream: a position comes as soon as the solver has
        found it and every position before it. ``progress`` is told how many
        ranks the solver has found so far, batch by batch.

        >>> next(iter(Family.load("chess960").positions()))
        Position(0, 'BBQNNRKR', 'BBQNNRKR')
        """
        for number, white, black in self.numbered(progress):
            yield Position(number, white, black, self.layout)

    def numbered(self, progress: Progress | None = None) -> Iterable[tuple[int, str, str]]:
        """``(id, white, black)`` for every position in ID order (see :meth:`positions`):
        streamed for mirrored families, :class:`~solver.position.Pairs` of the
        listed side for independent ones.

        >>> next(iter(Family.load("dfrc").numbered()))
        (0, 'BBQNNRKR', 'BBQNNRKR')
        """
        rows: Iterable[tuple[int, str, str]]
        if self.linked:
            rows = self._paired.pairs()
        elif self.independent:
            rows = Pairs(self.ranks(progress))
        else:
            rows = self._mirrored(progress)
        rule = self.ruleset.castling
        if isinstance(rule, SubsetCastling):
            return _variations(rule, list(rows))
        return rows

    def _mirrored(self, progress: Progress | None) -> Mirrored:
        return Mirrored(self.side_blocks(progress), self.ruleset.layout.black_rank)

    def side_ranks(self, progress: Progress | None = None) -> Iterator[str]:
        """One side's ranks in canonical order, each as soon as the order allows.

        >>> next(Family.load("chess960").side_ranks())
        'BBQNNRKR'
        """
        if self._drawn:
            return iter(self._paired)
        listed = self.index.listed
        if listed is not None:
            return iter(listed)
        from solver.numbering.listing import side_ranks

        return side_ranks(self.ruleset, self.numbering, self.max_arrangements, progress)

    def side_blocks(self, progress: Progress | None = None) -> Iterator[list[str]]:
        """:meth:`side_ranks` a block of consecutive IDs at a time.

        >>> next(Family.load("chess960").side_blocks())[:2]
        ['BBQNNRKR', 'BQNBNRKR']
        """
        from solver.numbering.listing import blocks_of, side_blocks

        if self._drawn or self.index.listed is not None:
            return blocks_of(self.side_ranks(progress))
        return side_blocks(self.ruleset, self.numbering, self.max_arrangements, progress)

    def total(self, progress: Progress | None = None) -> int:
        """How many positions the family has, as the solver finds them (counted
        without keeping any rank; ``progress`` is told how many ranks so far);
        a family over the search limit is counted by completions of partial
        ranks instead (:attr:`count`, which ``check`` proves agrees).

        >>> Family.load("chess960").total()
        960

        Raises :class:`~solver.errors.EmptyFamilyError`, naming rules that
        cannot all hold, when the family has no position at all.
        """
        from solver.errors import SearchTooLargeError

        listed = self.index.listed if "index" in self.__dict__ else None
        if self._drawn:
            return self.count
        if listed:
            n = len(listed)
        else:
            from solver.numbering.listing import solved_count

            try:
                n = solved_count(self.ruleset, self.max_arrangements, progress)
            except SearchTooLargeError:
                if self.count == 0:
                    raise
                return self.count
        return self.sides.pair_count(n) * self.ruleset.castling.variations

    def solver_ranks(self, progress: Progress | None = None) -> list[str]:
        """One side's ranks in the order the constraint solver finds them.

        >>> len(Family.load("chess960").solver_ranks())
        960
        """
        from solver.numbering.listing import solver_ranks

        return solver_ranks(self.ruleset, self.max_arrangements, progress)

    def canonical(self, ranks: list[str]) -> list[str]:
        """``ranks`` in the family's canonical order
        (see :func:`solver.numbering.listing.canonical`).

        >>> Family.load("chess960").canonical(["RNBQKBNR", "QNRBBNKR"])
        ['QNRBBNKR', 'RNBQKBNR']
        """
        if self._drawn:
            return sorted(ranks, key=self._paired.id)
        from solver.numbering.listing import canonical

        return canonical(self.ruleset, self.numbering, ranks)


def _variations(rule: SubsetCastling, rows: list[tuple[int, str, str]]
                ) -> Iterator[tuple[int, str, str]]:
    """``rows`` (every placement, in id order) in each castling variation in turn."""
    for variation in range(rule.variations):
        for number, white, black in rows:
            yield rule.join(variation, number), white, black


@cache
def _bundled_names() -> tuple[str, ...]:
    """The bundled families' names (:func:`bundled_names`), listed once a process."""
    return tuple(bundled_names())


@cache
def _bundled(name: str) -> Family:
    """The bundled family ``name``, loaded once a process (an error is raised anew each time)."""
    return Family(load(name))


@lru_cache(maxsize=1 << 16)
def _takes(name: str, rank: str) -> bool:
    """Whether the bundled family ``name`` takes ``rank`` (the last 65,536 answers remembered)."""
    try:
        _bundled(name).validate(rank)
    except Chess960Error:
        return False
    return True
