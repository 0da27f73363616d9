"""The castling linter: are a book's castling fields right, and written one way?

:func:`lint_lines` reads a FEN, EPD or PGN document line by line (any line
that is a FEN or an EPD line, or a PGN ``[FEN "..."]`` tag) and, for each
start position, checks the castling field against the rooks
(:func:`solver.notation.fen.check_castling`), on a board of any width. A
position after some moves (pieces moved, or move counters past ``0 1``) is
no start position: its castling field is checked against the pieces where
they stand (each right needs its king and its rook on their back rank). A
*problem* is

* a field that is wrong: a right the rooks do not give, or one they give
  that is missing (``KQkq`` on a start where a king does not stand between
  two rooks, say);
* a field that mixes X-FEN's ``K``/``Q`` with Shredder-FEN's file letters;
* a book that mixes the two notations from line to line (a field counts
  only where the two notations differ);
* an EPD ``id "<family> <n>"`` that is not the position's id;
* with ``rules``, a start position that is not in the family, one that
  repeats an earlier line's and, with ``complete`` (the book claims to be the
  whole family), the family's positions the book lacks (a position after
  moves is never judged as a start position, even where its pieces stand as
  one: after ``1. O-O O-O-O`` in Chess960 they may);
* a book in which no position could be checked (empty, or nothing but junk):
  :attr:`LintReport.error` says why, and the command makes it an ``error:`` line.

Lines that are neither (unreadable FENs, boards of other games) are skipped
and summed up by reason. ``fix`` rewrites each start position's castling
field (wrong ones included: the rooks decide) in X-FEN or Shredder-FEN,
White's rights first and h-side first, or in the order of ``dialect``
(pychess: a-side first); nothing else in any line changes. ``variant``
reads each line as that game's start FEN in ``dialect``
(:func:`solver.notation.dialects.read_fen`): pieces in hand, three-check's
``3+3``, horde's board, antichess's empty and Seirawan's gating castling
fields are what the dialect writes for it; a PGN game's ``[Variant "..."]``
tag does the same for the game's FEN tag, in whichever dialect wrote it.
Without ``rules``, an EPD line whose ``id`` names a bundled family with rules
its FEN does not show (castling of its own, a board of its own) is checked
as that family's.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache

from solver.board.castling_rules import SubsetCastling
from solver.board.geometry import CLASSICAL, Layout
from solver.board.glyphs import FILE_LETTERS
from solver.errors import (
    CastlingRightsError,
    Chess960Error,
    FenSyntaxError,
    InputFileError,
    NotStartPositionError,
    OutputFileError,
    shown_path,
)
from solver.notation.castling import side_rights
from solver.notation.dialects import (
    DIALECTS,
    dialect_named,
    read_any_as,
    read_fen,
    read_game,
    variant_named,
)
from solver.notation.fen import castling_field, check_castling, read_start
from solver.notation.fen_syntax import expand_row, split_fields
from solver.notation.variants import VARIANTS

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up

if TYPE_CHECKING:
    from typing import IO, Final

    from solver.family import Family

#: Notations ``--fix`` writes.
NOTATIONS: Final = tuple(n for n, d in DIALECTS.items() if d.plain)
#: Programs' dialects ``--fix`` may follow (``lichess`` is X-FEN, ``fsf`` Shredder's order,
#: ``pychess`` a-side first).
FIX_DIALECTS: Final = tuple(n for n, d in DIALECTS.items() if not d.plain)
#: Line numbers shown for each reason lines were skipped (``verbose``: every line).
SHOWN_LINES: Final = 5
#: Characters of a line quoted in a finding.
QUOTED: Final = 60
#: Placements whose ids are remembered (EPD ``id`` checks).
MEMO_MAX: Final = 1 << 14
#: Back ranks whose castling rights are remembered (the bulk path of :func:`lint_lines`).
RANK_MEMO: Final = 1 << 16
#: Families up to this count keep each position's first line in an array (duplicates).
FIRST_ARRAY_MAX: Final = 1 << 24
#: Missing IDs named by ``complete``.
MISSING_SHOWN: Final = 10
#: The widest board read (files a to z).
MAX_FILES: Final = len(FILE_LETTERS)

#: A start position on the classical board written the common way, as bytes:
#: Black's and White's back ranks of the five chess pieces, White to move, no
#: en passant square, then move counters, or an ``id`` operation that names no
#: family the linter checks (not ``chess960``). :func:`lint_lines` answers such
#: a line from its two ranks; any other line is read by :meth:`Linter.feed`.
_PLAIN_START: Final = re.compile(
    rb'([kqrbn]{8})/pppppppp/8/8/8/8/PPPPPPPP/([KQRBN]{8}) w ([A-Za-z]{1,4}|-) -'
    rb'(?: ([0-9]{1,9}) ([0-9]{1,9}))?( id "(?!chess960 )[^";]*";?)?')
_FEN_TAG: Final = re.compile(r'^(\s*\[FEN\s+")([^"]*)("\s*\]\s*)$')
_VARIANT_TAG: Final = re.compile(r'^\s*\[Variant\s+"([^"]*)"\s*\]\s*$', re.IGNORECASE)
_EVENT_TAG: Final = re.compile(r"^\s*\[Event\s", re.IGNORECASE)
_WORD: Final = re.compile(r"\S+")
#: PGN results and move numbers: the words a movetext line starts with.
_MOVETEXT: Final = re.compile(r"(1-0|0-1|1/2-1/2|\*|[0-9]+\.+\S*)$")
_ID: Final = re.compile(r'"([A-Za-z0-9_.+-]{1,64}) ([0-9]{1,20})"')
_ID_OPERATION: Final = re.compile(r'(?:^|\s)id\s+"([A-Za-z0-9_.+-]{1,64}) ([0-9]{1,20})"')
#: PGN ``Variant`` tags of games that are chess as far as castling goes.
_CHESS_TAGS: Final = frozenset(("", "chess", "chess960", "fischerandom", "standard",
                                "fromposition", "normal"))
_TAG_ALIASES: Final = {"threecheck": "3check", "giveaway": "antichess", "suicide": "antichess",
                       "zh": "crazyhouse", "koth": "kingofthehill"}


def short(text: str) -> str:
    """``text`` quoted, cut at :data:`QUOTED` characters with an ellipsis.

    >>> short("RNBQKBNR"), short("1" * 100)[-8:]
    ("'RNBQKBNR'", "1111'...")
    """
    return repr(text) if len(text) <= QUOTED else f"{text[:QUOTED]!r}..."


@dataclass
class Finding:
    """What the linter says of one line (``line`` counts from 1; 0: the whole book)."""

    line: int
    message: str
    problem: bool


@dataclass
class LintReport:
    """The linter's findings on one document, and the document rewritten if asked.

    ``positions`` counts start positions, ``moved`` positions after moves
    whose castling was checked, ``skipped`` the lines skipped by reason
    (their count and first line numbers). ``findings`` holds the problems
    (and, ``verbose``, every skipped line) unless they went to ``emit``.
    """

    name: str
    positions: int = 0
    moved: int = 0
    findings: list[Finding] = field(default_factory=list)
    fixed: str | None = None
    changed: int = 0
    problem_count: int = 0
    skipped: dict[str, tuple[int, list[int]]] = field(default_factory=dict)
    lines_read: int = 0
    #: Why nothing could be checked (``None``: something was); counted as a problem.
    error: str | None = None
    #: With ``rules``: how many of the family's positions the book holds, and lacks
    #: (``complete``).
    distinct: int = 0
    missing: int = 0

    @property
    def problems(self) -> int:
        """How many problems were found."""
        return self.problem_count

    @property
    def checked(self) -> int:
        """How many positions had their castling checked."""
        return self.positions + self.moved

    @property
    def skipped_lines(self) -> int:
        """How many lines were skipped."""
        return sum(count for count, _ in self.skipped.values())

    def finding(self, finding: Finding) -> str:
        """One finding as a report line."""
        where = f":{finding.line}" if finding.line else ""
        return f"{self.name}{where}: {finding.message}"

    def lines(self, quiet: bool = False) -> Iterator[str]:
        """The report: each finding kept (book-wide ones last), the skipped
        lines summed up by reason (``quiet``: only in the last line), then a
        summary line.

        >>> print(*lint_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1",
        ...                  "book.fen").lines(), sep="\\n")
        book.fen:1: castling 'KQk' is wrong: black's right to castle with the a8 rook is \
missing ('q' or 'a'); the rooks give 'KQkq' (X-FEN) or 'HAha' (Shredder-FEN)
        book.fen: 1 start position, 1 problem
        """
        for finding in self.findings:
            yield self.finding(finding)
        if not quiet:
            for reason, (count, numbers) in self.skipped.items():
                shown = ", ".join(map(str, numbers))
                more = ", ..." if count > len(numbers) else ""
                line_s = "line" if count == 1 else "lines"
                yield (f"{self.name}: {count:,} {line_s} skipped ({reason}): "
                       f"{line_s} {shown}{more}")
        verdict = f"{self.problems} problem{'s' if self.problems != 1 else ''}"
        if self.fixed is not None or self.changed:
            verdict += f", {self.changed} line{'s' if self.changed != 1 else ''} rewritten"
        plural = "s" if self.positions != 1 else ""
        counts = f"{self.positions:,} start position{plural}"
        if self.moved:
            counts += f", {self.moved:,} position{'s' if self.moved != 1 else ''} after moves"
        skipped = self.skipped_lines
        if skipped:
            counts += f", {skipped:,} line{'s' if skipped != 1 else ''} skipped"
        yield f"{self.name}: {counts}, {verdict}"


def _files(placement: str) -> int:
    """How many files the last row of a placement spans (0 if unreadable)."""
    row = placement.rsplit("/", maxsplit=1)[-1]
    total, digits = 0, ""
    for char in row:
        if char in "0123456789":
            digits += char
            if len(digits) > 2:
                return 0
            continue
        total += int(digits or 0) + 1
        digits = ""
    return total + int(digits or 0)


def _castling_span(fen: str) -> tuple[int, int] | None:
    """Where the castling field (third word) lies in ``fen``."""
    words = list(_WORD.finditer(fen))
    return (words[2].start(), words[2].end()) if len(words) >= 3 else None


def _notation(castling: str, xfen: str, shredder: str) -> str | None:
    """Which notation a right field is written in, ``"mixed"``, or ``None`` where both agree."""
    if xfen == shredder:
        return None
    letters = sorted(castling)
    if letters == sorted(xfen):
        return "xfen"
    if letters == sorted(shredder):
        return "shredder"
    return "mixed"


def _ordered(field_text: str, dialect: str | None) -> str:
    return field_text if dialect is None else dialect_named(dialect).order(field_text)


def _kind(text: str) -> str:
    """``"epd"`` or ``"fen"``: how a line is written (a FEN ends in two move counters)."""
    words = text.split()
    return "fen" if len(words) == 6 and words[4].isdigit() and words[5].isdigit() else "epd"


def tag_variant(tag: str) -> str | None:
    """The variant a PGN ``[Variant "..."]`` tag names (``None``: chess, or one not known).

    >>> tag_variant("Antichess"), tag_variant("Three-check"), tag_variant("Chess960")
    ('antichess', '3check', None)
    """
    key = "".join(c for c in tag.lower() if c.isalnum())
    key = _TAG_ALIASES.get(key, key)
    if key in _CHESS_TAGS or key == "chess" or key not in VARIANTS:
        return None
    return key


class Linter:
    """Lints a document fed to it line by line (:meth:`feed`), then :meth:`finish`.

    ``emit`` takes each finding as it is found (else they are kept in the
    report); ``rules`` is a family the start positions must be in.
    """

    def __init__(
        self, name: str = "-", fix: str | None = None, dialect: str | None = None,
        variant: str | None = None, family: Family | None = None, verbose: bool = False,
        emit: Callable[[Finding], None] | None = None, numbering: str | None = None,
        complete: bool = False,
    ) -> None:
        if variant is not None:
            variant_named(variant, dialect or "xfen")
            dialect_named(dialect or "xfen", variant)
        self.report = LintReport(name)
        self.fix = fix
        self.dialect = dialect
        self.variant = variant
        self.game = variant  # the variant of the PGN game being read
        self.family = family
        self.verbose = verbose
        self.emit = emit
        self.used: dict[str, int] = {}
        self._families: dict[str, Family | None] = {}
        #: Families EPD ids name, by name, when their rules are their own (:meth:`_named`).
        self._own_rules: dict[str, Family | None] = {}
        self._ids: dict[tuple[str, str], int | None] = {}
        self._rights: dict[bytes, tuple[str, str]] = {}
        if family is not None:
            self._families[family.name] = family
        #: The numbering the family's EPD ``id`` numbers are in (None: its own).
        self.scheme = family.scheme(numbering) if family is not None and numbering else None
        self.complete = complete and family is not None
        self._text_lines = 0
        #: With ``rules``: which of the family's positions were seen, and on which line first.
        self._seen: bytearray | set[int] | None = None
        self._first: array[int] | dict[int, int] = {}
        #: A family checked from the two back ranks of a common FEN (:meth:`quick`).
        self._quick_family = family is not None and family.layout.chessboard
        self._rank_ids: dict[bytes, tuple[int, bytes] | None] = {}
        #: Why a back rank is not the family's (:meth:`_refusal`).
        self._rank_why: dict[bytes, str] = {}

    def _add(self, number: int, message: str, problem: bool = True) -> None:
        finding = Finding(number, message, problem)
        if problem:
            self.report.problem_count += 1
        if self.emit is not None:
            self.emit(finding)
        else:
            self.report.findings.append(finding)

    def _skip(self, number: int, reason: str, detail: str) -> None:
        if self.verbose:
            self._add(number, f"skipped: {detail}", False)
        count, numbers = self.report.skipped.get(reason, (0, []))
        if len(numbers) < SHOWN_LINES:
            numbers.append(number)
        self.report.skipped[reason] = (count + 1, numbers)

    def feed(self, number: int, line: str) -> str:
        """Lint line ``number`` (without its line break); the line, rewritten if asked."""
        if not self._text_lines and line.strip():
            self._text_lines = 1
        prefix, fen, suffix = "", line, ""
        tag = _FEN_TAG.match(line)
        if tag:
            prefix, fen, suffix = tag.groups()
        else:
            if self.variant is None:
                if _EVENT_TAG.match(line):
                    self.game = None
                elif variant := _VARIANT_TAG.match(line):
                    self.game = tag_variant(variant.group(1))
            first = fen.split(maxsplit=1)[0] if fen.strip() else ""
            if not first or first.startswith(("[", "#", "{", ";", "%")) or "/" not in first \
                    or _MOVETEXT.match(first):
                return line
        return f"{prefix}{self._fen(fen, number)}{suffix}"

    @property
    def plain(self) -> bool:
        """Whether a line :data:`_PLAIN_START` matches may be answered by
        :meth:`quick` (not in a variant's game, nor with a family to check)."""
        return self.game is None and self.variant is None and (
            self.family is None or self._quick_family)

    def _rank_id(self, row: bytes) -> tuple[int, bytes] | None:
        """A back rank's ID in the family (either case) and the row Black answers
        it with (lower case), or None when the rank is not the family's; remembered."""
        try:
            return self._rank_ids[row]
        except KeyError:
            pass
        family = self.family
        assert family is not None
        rank = row.decode("ascii").upper()
        try:
            found: tuple[int, bytes] | None = (
                family.rank_id(family.validate(rank)),
                family.ruleset.layout.black_rank(rank).lower().encode("ascii"))
        except Chess960Error:
            found = None
            try:  # why, as :meth:`Family.identify` says it (of the rank as written)
                family.validate(row.decode("ascii"))
            except Chess960Error as exc:
                if len(self._rank_why) < RANK_MEMO:
                    self._rank_why[row] = _why(exc)
        if len(self._rank_ids) < RANK_MEMO:
            self._rank_ids[row] = found
        return found

    def _refusal(self, found: re.Match[bytes], xfen: str) -> str | None:
        """Why a common start FEN's back ranks are not the family's, as
        :meth:`_membership` says it; ``None`` when they are (its ``id``
        operation is then wrong) or the family's castling rule has its say."""
        family = self.family
        assert family is not None
        if not family.ruleset.castling.default:
            return None
        black_row, white_row = found.group(1), found.group(2)
        white = self._rank_id(white_row)
        if white is None:
            return self._rank_why.get(white_row)
        if family.independent:
            return self._rank_why.get(black_row) if self._rank_id(black_row) is None else None
        if black_row == white[1]:
            return None
        line = found.string.decode("ascii")
        text = line[:found.start(3)] + xfen + line[found.end(3):]
        return _why(family.mirror_error(text, white_row.decode("ascii"),
                                        black_row.decode("ascii").upper()))

    def _quick_id(self, white_row: bytes, black_row: bytes, opcode: bytes | None) -> int | None:
        """The family's ID of a common start FEN from its back ranks; None when
        the ranks are not the family's or an ``id`` operation naming the family
        gives another number (:meth:`feed` then says what is wrong)."""
        family = self.family
        assert family is not None
        white = self._rank_id(white_row)
        if white is None:
            return None
        if family.independent:
            black = self._rank_id(black_row)
            if black is None:
                return None
            number = white[0] * family.side_count + black[0]
        elif black_row != white[1]:
            return None
        else:
            number = white[0]
        if opcode is not None:
            said = _ID.search(opcode.decode("ascii"))
            if said is not None and said.group(1) == family.name:
                written = self.scheme.text(number) if self.scheme is not None else str(number)
                if said.group(2) != written:
                    return None
        return number

    def _record(self, number: int, position: int) -> None:
        """With ``rules``: note that line ``number`` holds the family's position
        ``position``; a problem when an earlier line held it."""
        family = self.family
        assert family is not None
        seen = self._seen
        if type(seen) is bytearray and not seen[position]:  # the common case, at once
            seen[position] = 1
            self._first[position] = number
            self.report.distinct += 1
            return
        if seen is None:
            count = family.count
            if count <= FIRST_ARRAY_MAX:
                seen = self._seen = bytearray(count)
                self._first = array("I", bytes(4 * count))
            else:
                seen = self._seen = set()
        if position in seen if isinstance(seen, set) else seen[position]:
            shown = self.scheme.text(position) if self.scheme is not None else str(position)
            self._add(number, f"duplicate: the same {family.name} start position as line "
                              f"{self._first[position]} ({family.name} {shown})")
            return
        if isinstance(seen, set):
            seen.add(position)
        else:
            seen[position] = 1
        self._first[position] = number
        self.report.distinct += 1

    def _side(self, row: bytes) -> tuple[str, str]:
        """The castling rights (X-FEN, Shredder-FEN) a back rank gives, in its case."""
        found = self._rights.get(row)
        if found is None:
            rank = row.decode("ascii")
            upper = rank.upper()
            found = (side_rights(upper), side_rights(upper, True))
            if rank != upper:
                found = (found[0].lower(), found[1].lower())
            if len(self._rights) < RANK_MEMO:
                self._rights[row] = found
        return found

    def quick(self, number: int, found: re.Match[bytes]) -> str | None:
        """Lint a line :data:`_PLAIN_START` matched, as :meth:`feed` would, from
        its two back ranks; ``None`` (nothing recorded) when its castling is not
        what the rooks give, written one way, or its counters say moves were
        played: :meth:`feed` then reads it."""
        black_row, white_row, written, halfmove, move, opcode = found.groups()
        if halfmove is not None and opcode is None and (
                halfmove != b"0" or move not in (b"0", b"1")):
            return None  # a FEN after moves
        white, black = self._side(white_row), self._side(black_row)
        xfen = (white[0] + black[0]) or "-"
        shredder = (white[1] + black[1]) or "-"
        castling = written.decode("ascii")
        if castling not in (xfen, shredder):
            return None
        position = None
        if self.family is not None:
            position = self._quick_id(white_row, black_row, opcode)
            if position is None:
                why = self._refusal(found, xfen)
                if why is None:
                    return None  # feed says what is wrong
                self._add(number, f"not a {self.family.name} start position: {why}")
        self.report.positions += 1
        if position is not None:
            self._record(number, position)
        if xfen != shredder:
            kind = "xfen" if castling == xfen else "shredder"
            self.used[kind] = self.used.get(kind, 0) + 1
        text = found.string.decode("ascii")
        if self.fix is None:
            return text
        return self._rewrite(text, white_row.decode("ascii"),
                             black_row.decode("ascii").upper(), xfen, shredder, None)

    def _fen(self, fen: str, number: int) -> str:
        """Check one FEN, record what is found, and return it (rewritten if asked)."""
        kind = _kind(fen)
        variant = self.game
        if self.family is not None and not self.family.layout.plain_board:
            # a board of its own (a castling rule alone is checked and fixed below): the
            # family reads its FENs in each dialect, a PGN Variant tag's game's among them
            return self._own_board(fen, number, kind, self.family)
        if self.family is None and variant is None and 'id "' in fen:
            named = self._named(fen)
            if named is not None:  # a family whose FENs do not show its rules
                return self._own_board(fen, number, kind, *named)
        try:
            plain, shown, game = self._read(fen, variant)
            files = _files(plain.split(maxsplit=1)[0])
            if not 0 < files <= MAX_FILES:
                raise FenSyntaxError(plain, "placement",
                                     f"its last rank is not 1 to {MAX_FILES} squares wide")
            start = read_start(plain, files)
        except NotStartPositionError as exc:
            if variant is None and self._moved(fen, number, kind):
                return fen
            self._skip(number, "not a start position",
                       f"{kind} line {short(fen)} is not a start position: "
                       f"{'; '.join(exc.reasons)}")
            return fen
        except FenSyntaxError as exc:
            return self._not_read(number, kind, fen, exc.reason)
        except Chess960Error as exc:
            return self._not_read(number, kind, fen, str(exc))
        fields = plain.split()
        if kind == "fen" and (fields[4] != "0" or fields[5] not in ("0", "1")) and \
                variant is None:
            # counters past 0 1: moves were played (castling, say, leaves the pieces as at
            # another start), so it is a position after moves, whatever the family
            self._moved(fen, number, kind)
            return fen
        self.report.positions += 1
        white, black = start.white.upper(), start.black.upper()
        layout = self._castling_layout(files)
        variation = None
        if isinstance(layout.castling, SubsetCastling):
            try:  # the subset written, when it is one the rooks allow
                variation = layout.castling.join(
                    check_castling(plain, start.castling, white, black, layout), 0)
            except Chess960Error:
                variation = None
        xfen = castling_field(white, black, layout=layout, number=variation)
        shredder = castling_field(white, black, shredder=True, layout=layout, number=variation)
        written = None
        if game is not None:  # the field as the game writes it, in X-FEN and Shredder-FEN
            played = VARIANTS[game]
            written = (fen.split()[2], played.castling(white, black, DIALECTS["xfen"]),
                       played.castling(white, black, DIALECTS["shredder"]))
        self._castling(fen if variant is None and shown is None else plain, number,
                       start.castling, white, black, xfen, shredder, layout, written)
        span = _castling_span(plain)
        assert span is not None
        self._membership(plain[:span[0]] + xfen + plain[span[1]:], number, start.opcodes)
        if shown is not None:
            return fen  # written as its program writes it: left as it is
        return self._rewrite(fen, white, black, xfen, shredder, variant)

    def _read(self, fen: str, variant: str | None) -> tuple[str, str | None, str | None]:
        """The plain start FEN of a line read as ``variant``'s game, the same when
        it was read in a variant's form found in it (else ``None``), and the game
        it was read as (``None``: chess's own FEN)."""
        if variant is not None:
            if self.variant is not None:  # --variant, in --dialect
                return read_fen(fen, variant, self.dialect or "xfen"), None, variant
            found = read_game(fen, variant, self.dialect)  # a PGN Variant tag: any dialect
            return (found[0] if found is not None else read_fen(fen, variant)), None, variant
        plain = fen.strip()
        if any(c in plain for c in "[+|"):
            # a variant's FEN in the form some program writes (hands, 3+3, two boards)
            read = read_any_as(plain)
            if read is not None:
                return read[0], read[0], read[1]
        return plain, None, None

    def _not_read(self, number: int, kind: str, fen: str, why: str) -> str:
        """Skip a line that cannot be read as a FEN, saying why; the line, as it is."""
        self._skip(number, f"{kind} line cannot be read",
                   f"{kind} line {short(fen)} cannot be read: {why}")
        return fen

    def _named(self, fen: str) -> tuple[Family, int] | None:
        """Without ``rules``: the bundled family an EPD ``id "<family> <n>"`` names,
        and ``n``, when the family has rules of its own that its FENs do not show
        (a castling rule other than the rooks', a board of its own)."""
        found = _ID_OPERATION.search(fen)
        if found is None:
            return None
        name = found.group(1)
        if name not in self._own_rules:
            family = None
            if len(self._own_rules) < MEMO_MAX and name in _bundled_names():
                from solver.family import Family

                family = Family.load(name)
                if family.layout.standard:
                    family = None
            self._own_rules[name] = family
        family = self._own_rules[name]
        return None if family is None else (family, int(found.group(2)))

    def _own_board(self, fen: str, number: int, kind: str, family: Family,
                   said: int | None = None) -> str:
        """Check one FEN of a family on a board of its own (another height, a
        region, pieces in hand, SFEN), or of a family an EPD id names (``said``: its
        number): the family reads it, in any dialect that writes it; it is left as
        it is."""
        try:
            position = family.identify(fen.strip())
        except NotStartPositionError as exc:
            if not self._moved(fen, number, kind):
                self._skip(number, "not a start position",
                           f"{kind} line {short(fen)} is not a start position: "
                           f"{'; '.join(exc.reasons)}")
            return fen
        except FenSyntaxError as exc:
            return self._not_read(number, kind, fen, exc.reason)
        except CastlingRightsError as exc:
            self.report.positions += 1
            self._add(number, f"castling is wrong: {exc.reason}")
            return fen
        except Chess960Error as exc:
            self.report.positions += 1
            self._add(number, f"not a {family.name} start position: "
                              f"{getattr(exc, 'reason', None) or exc}")
            return fen
        self.report.positions += 1
        if said is not None and said != position.id:
            self._add(number, f"epd id '{family.name} {said}' is wrong: the position's "
                              f"{family.name} id is {position.id}")
        return fen

    def _castling_layout(self, files: int) -> Layout:
        """The board whose castling rule a position ``files`` wide is checked by: the
        checked family's when it is the classical board with a rule of its own (not
        the rooks'), else the classical board (castling as the rooks give it)."""
        family = self.family
        if family is None or family.ruleset.castling.default:
            return Layout.classical(files)
        layout = family.layout
        if layout.files != files or not layout.plain_board:
            return Layout.classical(files)
        return layout

    def _castling(self, text: str, number: int, castling: str, white: str, black: str,
                  xfen: str, shredder: str, layout: Layout = CLASSICAL,
                  written: tuple[str, str, str] | None = None) -> None:
        """Check a start position's castling field and note its notation; ``written``:
        a variant's field as the line writes it, and as the game writes it in X-FEN
        and Shredder-FEN (its notation is judged from those)."""
        try:
            check_castling(text, castling, white, black, layout)
        except CastlingRightsError as exc:
            gives = "the rooks give" if exc.allows is None else \
                f"{self.family.name if self.family else 'the family'} allows {exc.allows}: write"
            self._add(number, f"castling {short(castling)} is wrong: {exc.reason}; {gives} "
                              f"{_both(xfen, shredder)}")
        except Chess960Error as exc:
            self._add(number, f"castling {short(castling)}: "
                              f"{getattr(exc, 'reason', None) or exc}")
        else:
            kind = _notation(castling, xfen, shredder) if written is None else \
                _notation(*written)
            if kind == "mixed" and written is not None:
                return  # a game's field some program writes (pychess's Seirawan gating)
            if kind == "mixed":
                self._add(number, f"castling {short(castling)} mixes X-FEN and Shredder-FEN; "
                                  f"write {_both(xfen, shredder)}")
            elif kind is not None:
                self.used[kind] = self.used.get(kind, 0) + 1

    def _family(self, name: str) -> Family | None:
        if name not in self._families:
            found = None
            if name == "chess960":
                from solver.family import Family

                found = Family.load("chess960")
            self._families[name] = found
        return self._families[name]

    def _id(self, family: Family, plain: str) -> int | None:
        """The id of ``plain`` in ``family`` (None: not one of its start positions),
        remembered for up to :data:`MEMO_MAX` distinct placements and castling fields."""
        key = (family.name, " ".join(plain.split(maxsplit=3)[:3:2]))  # castling: a subset
        if key in self._ids:
            return self._ids[key]
        try:
            found: int | None = family.identify(plain).id
        except Chess960Error:
            found = None
        if len(self._ids) < MEMO_MAX:
            self._ids[key] = found
        return found

    def _membership(self, plain: str, number: int,
                    opcodes: tuple[tuple[str, str], ...]) -> None:
        """With ``rules``: is the position in the family? Does an EPD ``id`` name it?
        (``plain``'s castling field is the one the rooks give: it was checked already.)"""
        if self.family is not None:
            try:
                position = self.family.identify(plain)
            except Chess960Error as exc:
                self._add(number, f"not a {self.family.name} start position: {_why(exc)}")
                return
            self._record(number, position.id)
        for name, operands in opcodes:
            found = _ID.fullmatch(operands.strip()) if name == "id" else None
            if found is None:
                continue
            family = self._family(found.group(1))
            if family is None:
                continue
            said = int(found.group(2))
            actual = self._id(family, plain)
            if actual is None:
                self._add(number, f"epd id {short(found.group(0)[1:-1])}: the position is "
                                  f"not a {family.name} start position")
                continue
            if self.scheme is not None and family is self.family:
                written = self.scheme.text(actual)
                if written != found.group(2):
                    self._add(number, f"epd id {short(found.group(0)[1:-1])} is wrong: the "
                                      f"position's {family.name} number in the numbering "
                                      f"{self.scheme.name} is {written}")
                continue
            if actual != said:
                self._add(number, f"epd id {short(found.group(0)[1:-1])} is wrong: the "
                                  f"position's {family.name} id is {actual}")

    def _rewrite(self, fen: str, white: str, black: str, xfen: str, shredder: str,
                 variant: str | None) -> str:
        fix, dialect = self.fix, self.dialect
        if fix is None:
            return fen
        span = _castling_span(fen)
        assert span is not None  # read_start read three fields
        wanted = _ordered(xfen if fix == "xfen" else shredder, dialect)
        if variant is not None:
            game = variant_named(variant)
            writer = dialect_named(dialect or fix)
            if game.castling(white, black, writer) != writer.castling(white, black):
                wanted = game.castling(white, black, writer)
        if fen[span[0]:span[1]] == wanted:
            return fen
        self.report.changed += 1
        return fen[:span[0]] + wanted + fen[span[1]:]

    def _moved(self, fen: str, number: int, kind: str) -> bool:
        """Check the castling of a position after moves against the pieces where
        they stand; False when it cannot be read as one."""
        try:
            fields, _, _ = split_fields(fen.strip())
            rows = fields[0].split("/")
            files = _files(fields[0])
            if not 0 < files <= MAX_FILES or len(rows) < 2 or fields[1] not in ("w", "b"):
                return False
            board = [expand_row(fen, row, len(rows) - i, files) for i, row in enumerate(rows)]
        except Chess960Error:
            return False
        self.report.moved += 1
        castling = fields[2]
        wrong = _moved_rights(castling, board)
        if wrong:
            self._add(number, f"castling {short(castling)} is wrong: {'; '.join(wrong)} "
                              f"({kind} line after moves)")
        return True

    def finish(self) -> LintReport:
        """The report, with the book-wide findings."""
        report = self.report
        if len(self.used) > 1:
            counts = ", ".join(f"{self.used[k]:,} {'X-FEN' if k == 'xfen' else 'Shredder-FEN'}"
                               for k in sorted(self.used))
            self._add(0, f"the book mixes castling notations: {counts}")
        if self.complete and self.family is not None:
            self._missing()
        if not report.checked:
            skipped = report.skipped_lines
            if skipped:
                reasons = "; ".join(f"{count:,} {reason}" for reason, (count, _) in
                                    report.skipped.items())
                why = f"{skipped:,} line{'s' if skipped != 1 else ''} skipped: {reasons}"
            elif self._text_lines:
                why = "no line is a FEN, an EPD line or a PGN FEN tag"
            else:
                why = "it is empty"
            report.error = f"no position to check ({why})"
            report.problem_count += 1
        return report

    def _missing(self) -> None:
        """``complete``: the family's positions the book lacks, counted, the first named."""
        family = self.family
        assert family is not None
        report = self.report
        report.missing = family.count - report.distinct
        if not report.missing:
            return
        seen = self._seen
        shown: list[int] = []
        if isinstance(seen, bytearray):
            at = 0
            while len(shown) < MISSING_SHOWN and (at := seen.find(0, at)) >= 0:
                shown.append(at)
                at += 1
        else:
            at = 0
            while len(shown) < MISSING_SHOWN and at < family.count:
                if seen is None or at not in seen:
                    shown.append(at)
                at += 1
        text = self.scheme.text if self.scheme is not None else str
        more = ", ..." if report.missing > len(shown) else ""
        self._add(0, f"the book lacks {report.missing:,} of the {family.count:,} "
                     f"{family.name} positions: {', '.join(map(text, shown))}{more}")


@cache
def _bundled_names() -> frozenset[str]:
    """The bundled families' names, listed once a process."""
    from solver.ruleset.reader import bundled_names

    return frozenset(bundled_names())


def _cut(text: str) -> str:
    return text if len(text) <= 200 else f"{text[:200]}..."


def _why(exc: Chess960Error) -> str:
    """Why a position is not the family's, as a finding says it."""
    return getattr(exc, "reason", None) or _cut(str(exc))


def _moved_rights(castling: str, board: list[list[str]]) -> list[str]:
    """What is wrong with ``castling`` on ``board`` (top rank first, ``""``
    empty): each right needs its side's king and a rook on its back rank, on
    the side the right names, and no side has two rights on one wing."""
    if castling == "-":
        return []
    wrong: list[str] = []
    seen: set[tuple[bool, str]] = set()
    files = len(board[0])
    for char in castling:
        is_white = char.isupper()
        who = "white" if is_white else "black"
        row = board[-1] if is_white else board[0]
        rank = 1 if is_white else len(board)
        king_letter, rook_letter = ("K", "R") if is_white else ("k", "r")
        lower = char.lower()
        if not (lower in ("k", "q") or lower in FILE_LETTERS[:files]):
            wrong.append(f"{char!r} is no castling right")
            continue
        if king_letter not in row:
            wrong.append(f"{char!r}: the {who} king is not on rank {rank}")
            continue
        king = row.index(king_letter)
        if lower in ("k", "q"):
            wing = "h" if lower == "k" else "a"
            rooks = [f for f, p in enumerate(row) if p == rook_letter and
                     (f > king if wing == "h" else f < king)]
            if not rooks:
                wrong.append(f"{char!r}: {who} has no rook on rank {rank} on the "
                             f"{wing}-side of the king")
                continue
        else:
            file = FILE_LETTERS.index(lower)
            if row[file] != rook_letter:
                wrong.append(f"{char!r}: there is no {who} rook on {lower}{rank}")
                continue
            wing = "h" if file > king else "a"
        if (is_white, wing) in seen:
            wrong.append(f"{char!r} repeats a {who} right on the {wing}-side")
        seen.add((is_white, wing))
    return wrong


def _both(xfen: str, shredder: str) -> str:
    return f"{xfen!r} (X-FEN) or {shredder!r} (Shredder-FEN)" if xfen != shredder else repr(xfen)


def lint_text(
    text: str, name: str = "-", fix: str | None = None, dialect: str | None = None,
    variant: str | None = None, family: Family | None = None, verbose: bool = False,
    numbering: str | None = None, complete: bool = False,
) -> LintReport:
    """Lint one document; with ``fix``, also rewrite it (:attr:`LintReport.fixed`).

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` only (a U+2028 in an EPD
    comment is part of its line), as :class:`solver.lines.LineReader`
    reads them; a byte order mark at the start is dropped.

    >>> report = lint_text("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1\\n",
    ...                    fix="shredder")
    >>> report.problems, report.fixed
    (0, 'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1\\n')
    """
    linter = Linter(name, fix, dialect, variant, family, verbose, numbering=numbering,
                    complete=complete)
    bom = text.startswith("\ufeff")
    out: list[str] = ["\ufeff"] if bom else []
    text = text.removeprefix("\ufeff")
    for number, found in enumerate(_LINE.finditer(text), 1):
        body, ending = found.group(1), found.group(2)
        if not body and not ending:
            break
        out.append(linter.feed(number, body) + ending)
        linter.report.lines_read = number
    report = linter.finish()
    if fix is not None:
        report.fixed = "".join(out)
    return report


_LINE: Final = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")


def _open(path: str) -> IO[bytes]:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise InputFileError(path, (exc.strerror or str(exc)).lower()) from None


def _refuse_shared(path: str) -> None:
    """``--fix`` would replace the file: refuse a read-only file or one with hard links."""
    try:
        found = os.stat(path)
    except OSError:
        return
    if not stat.S_ISREG(found.st_mode):
        raise OutputFileError(shown_path(path), "it is not a regular file")
    if not found.st_mode & stat.S_IWUSR or not os.access(path, os.W_OK):
        raise OutputFileError(shown_path(path),
                              f"it is read-only (mode {stat.S_IMODE(found.st_mode):04o})")
    if found.st_nlink > 1:
        raise OutputFileError(shown_path(path),
                              f"it has {found.st_nlink} hard links, which replacing it "
                              "would break (fix a copy)")


def lint_lines(
    lines: Iterable[list[bytes | None]], name: str, linter: Linter,
    out: IO[str] | None = None, ending: Callable[[], str] = lambda: "\n",
) -> LintReport:
    """Lint the byte lines of :class:`~solver.lines.LineReader`, writing each
    line (rewritten) and its line break to ``out`` when fixing.

    Raises :class:`~solver.errors.InputFileError` at the first line too long
    or not UTF-8: the document is then not checked.
    """
    from solver.lines import MAX_LINE

    number = 0
    match = _PLAIN_START.fullmatch
    for batch in lines:
        for raw in batch:
            number += 1
            if raw is None:
                raise InputFileError(name, f"line {number} is longer than {MAX_LINE:,} bytes")
            found = match(raw) if linter.plain else None
            rewritten = linter.quick(number, found) if found is not None else None
            if rewritten is None:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise InputFileError(
                        name, f"line {number} is not UTF-8 (byte 0x{raw[exc.start]:02x} at "
                              f"column {exc.start + 1})") from None
                rewritten = linter.feed(number, text)
            if out is not None:
                if number > 1:
                    out.write(ending())
                out.write(rewritten)
    report = linter.finish()
    report.lines_read = number
    return report


def lint_path(
    path: str, fix: str | None = None, dialect: str | None = None, text: str | None = None,
    variant: str | None = None, family: Family | None = None, verbose: bool = False,
    emit: Callable[[Finding], None] | None = None, stdout: IO[str] | None = None,
    numbering: str | None = None, complete: bool = False,
) -> LintReport:
    """Lint the file at ``path`` (``-``: stdin; or ``text`` read from it
    already), read in chunks with bounded memory; with ``fix``, replace the
    file by the rewritten one when anything changed (stdin: write it to
    ``stdout`` once every line was read). A file to fix must be writable and
    have no other hard link; it is never rewritten half-read.

    Raises :class:`~solver.errors.InputFileError` when the file cannot be
    read, :class:`~solver.errors.OutputFileError` when it cannot be replaced.
    """
    if text is not None:
        return lint_text(text, path, fix, dialect, variant, family, verbose, numbering,
                         complete)
    from solver.lines import LineReader, stdin_bytes

    linter = Linter(path, fix, dialect, variant, family, verbose, emit, numbering, complete)
    if path == "-":
        stream: IO[bytes] | None = stdin_bytes()
        if stream is None:
            raise InputFileError(path, "standard input is closed")
    else:
        if fix is not None:
            _refuse_shared(path)
        stream = _open(path)
    if fix is None:  # a document (JSON, CSV) as its FENs; PGN games are read here
        from solver.documents import position_stream

        stream = position_stream(stream, path, keep=("pgn", "text"))
    reader = LineReader(stream)  # type: ignore[arg-type]
    try:
        if fix is None:
            return _read(reader, path, linter, None)
        import tempfile

        from solver.files import write_atomic

        with tempfile.SpooledTemporaryFile(1 << 22, "w+", encoding="utf-8",
                                           newline="") as spool:
            report = _read(reader, path, linter, spool)
            report.fixed = ""
            spool.seek(0)
            if path == "-":
                target = stdout if stdout is not None else sys.stdout
                target.write("\ufeff" if reader.bom else "")
                while piece := spool.read(1 << 16):
                    target.write(piece)
            elif report.changed:
                write_atomic(path, _pieces(spool, "\ufeff" if reader.bom else ""))
            return report
    finally:
        if path != "-":
            stream.close()


def _pieces(spool: IO[str], first: str) -> Iterator[str]:
    """``first``, then what ``spool`` holds, a piece at a time."""
    yield first
    while piece := spool.read(1 << 16):
        yield piece


def _read(reader: Iterable[list[bytes | None]], path: str, linter: Linter,
          out: IO[str] | None) -> LintReport:
    from solver.lines import LineReader

    assert isinstance(reader, LineReader)
    try:
        report = lint_lines(reader, path, linter, out, lambda: reader.ending.decode("ascii"))
    except OSError as exc:
        raise InputFileError(path, (exc.strerror or str(exc)).lower()) from None
    if out is not None and reader.closed and report.lines_read:
        out.write(reader.ending.decode("ascii"))
    return report
