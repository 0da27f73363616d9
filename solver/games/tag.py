"""``chess960 games tag``: each game's position number as a tag, its FEN where
only the number was given, and one spelling of ``Variant``; nothing else changed.

For each game whose start is one of the family's:

* the number goes into the tag ``name`` (TCEC's ``[Opening "FRC 518"]`` by
  default; another tag gets the number alone, ``[FRCId "518"]``). A tag that
  is there already is set when it holds a number, ``?`` or nothing, and kept
  (and reported) when it holds anything else, such as an opening's name;
* a game that gives only the number (a broadcast's ``[Opening "FRC 105"]``)
  gets ``[SetUp "1"]`` and ``[FEN "..."]`` (and ``[Variant "Chess960"]`` if it has none),
  but a chess game (no ``Variant``) numbered 518, chess's own start, needs none:
  so tagging a tagged file changes nothing;
* a ``Variant`` that names Chess960 another way (``chess 960``,
  ``fischerandom``, ``Fischer Random``) becomes ``Chess960``.

A start FEN whose pieces are a family's start but whose castling field is
impossible (lichess's 2023-11 dump: ``HEhe``, ``-``) is tagged with its
position's number and its FEN left as it is; :meth:`Tagger.summary` tells how
many such games there were and the first ones, and, for the games not in the
family, each reason and its first games.

New tags go after the header's last tag, in the header's line endings; every
other byte (comments, moves, line endings, a byte order mark, games that
cannot be read) is written as it was read.

>>> from solver.family import Family
>>> pgn = b'[Event "x"]\\r\\n[Variant "fischerandom"]\\r\\n[Opening "FRC 105"]\\r\\n\\r\\n1-0\\r\\n'
>>> tagger = Tagger(Family.load("chess960"))
>>> print(b"".join(tagger.rewrite(iter([pgn]), "x")).decode().replace("\\r", "<CR>"))
[Event "x"]<CR>
[Variant "Chess960"]<CR>
[Opening "FRC 105"]<CR>
[SetUp "1"]<CR>
[FEN "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1"]<CR>
<CR>
1-0<CR>
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from solver.errors import InputFileError
from solver.games.headers import NO_START, TAG_LINE, Notes, Starts, tag, variant_key
from solver.games.reading import LONG, Game, scan

if TYPE_CHECKING:
    from solver.family import Family

#: Told of each game skipped: its number and why.
SkipReport = Callable[[int, str], object]

#: Tag values that a number may replace: unknown or empty.
_UNKNOWN = frozenset((b"", b"?", b"-"))


class Tagger:
    """Rewrites games' headers (:meth:`rewrite`); counts what it changed."""

    def __init__(self, family: Family, name: str = "Opening") -> None:
        from solver.notation.variants import pgn_variant

        self.family = family
        self.name = name.encode("ascii")
        numbered = (self.name, *(n for n in _number_tags() if n != self.name))
        self.starts = Starts(family, numbered)
        self.variant = pgn_variant(family.ruleset) or ""
        self.games = 0
        self.tagged = 0
        self.fens = 0
        self.variants = 0
        self.kept = 0
        self.outside = 0
        self.skipped = 0
        self.notes = Notes()
        self._path = ""

    def summary(self, path: str) -> str:
        """One line: what was read and changed in ``path``; then a line per note
        (repaired castling fields, why games are not in the family)."""
        parts = [f"{self.games:,} game{'s' * (self.games != 1)}", f"{self.tagged:,} tagged"]
        for count, what in ((self.fens, "FEN added"), (self.variants, "Variant renamed"),
                            (self.notes.repaired, "castling field repaired"),
                            (self.kept, "tag kept"), (self.outside, "not in family"),
                            (self.skipped, "skipped")):
            if count:
                parts.append(f"{count:,} {what}")
        notes = self.notes.lines("tagged, their FEN left as it is")
        return "\n".join([f"{path}: " + ", ".join(parts), *(f"{path}: {line}" for line in notes)])

    def rewrite(self, pieces: Iterator[bytes], path: str,
                report: SkipReport | None = None) -> Iterator[bytes]:
        """Every byte of one input, with the games' headers rewritten."""
        self._path = path
        for game in scan(pieces, path):
            if not game.number:
                yield game.raw()
                continue
            self.games += 1
            if game.problem is not None:
                if game.problem.startswith(LONG.split("{")[0]):
                    raise InputFileError(path, f"game {game.number} is {game.problem}: "
                                               "nothing written")
                self.skipped += 1
                if report is not None:
                    report(game.number, game.problem)
                yield game.raw()
                continue
            yield self._game(game, report)

    def _game(self, game: Game, report: SkipReport | None) -> bytes:
        data, head = game.data, game.head
        header = data[game.start:head]
        crlf = header.endswith(b"\r")
        end = b"\r" if crlf else b""
        spans: list[tuple[int, int, bytes]] = []  # (begin, end, new value) in header
        lines: list[bytes] = []
        starts = self.starts
        variant = tag(header, b"Variant")
        if variant is not None and variant != b"Chess960" and variant_key(variant) == "chess960":
            spans.append((*_value_span(header, b"Variant"), b"Chess960"))
            self.variants += 1
        found, note = self._start(header, variant, lines, end)
        if note is not None:
            self.notes.add(note, self._path, game.number)
        if found is None:
            self.outside += 1
        else:
            value = self._value(found)
            have = tag(header, self.name)
            if have is None:
                lines.append(b"[" + self.name + b' "' + value + b'"]' + end)
                self.tagged += 1
            elif have != value:
                if have.strip() in _UNKNOWN or starts.label(have) is not None:
                    spans.append((*_value_span(header, self.name), value))
                    self.tagged += 1
                else:
                    self.kept += 1
                    if report is not None:
                        shown = have.decode("utf-8", "replace")
                        report(game.number, f"its tag [{self.name.decode()} {shown!r}] is not "
                                            f"a position's number (use --tag NAME)")
            else:
                self.tagged += 1
        if not spans and not lines:
            return game.raw()
        pieces: list[bytes] = []
        at = 0
        for begin, stop, value in sorted(spans):
            pieces += [header[at:begin], value]
            at = stop
        pieces.append(header[at:])
        for line in lines:
            pieces += [b"\n", line]
        pieces.append(data[head:game.end])
        return b"".join(pieces)

    def _start(self, header: bytes, variant: bytes | None, lines: list[bytes],
               end: bytes) -> tuple[int | None, str | None]:
        """The game's start and its note (see :meth:`Starts.start`); the lines
        of the FEN (and Variant) to add, where only the number is given."""
        starts = self.starts
        if variant_key(variant) not in starts.variants:
            return starts.start(header, None, variant)
        fen = tag(header, b"FEN")
        if fen is not None:
            return starts.fen_start(fen)
        found, _ = starts.numbered(header)
        if found is not None and found == starts.classical and \
                variant_key(variant) in _chess_keys():
            return found, None  # chess's own start: no FEN needed (nor added by a first run)
        if found is not None:
            from solver.notation.fen import position_fen

            position = self.family.position(found)
            if variant is None and self.variant and found != starts.classical:
                lines.append(b'[Variant "' + self.variant.encode() + b'"]' + end)
            lines.append(b'[SetUp "1"]' + end)
            lines.append(b'[FEN "' + position_fen(position).encode() + b'"]' + end)
            self.fens += 1
            return found, None
        if variant_key(variant) in _chess_keys() and starts.classical is not None:
            return starts.classical, None
        return None, NO_START

    def _value(self, found: int) -> bytes:
        from solver.games.labels import label, number

        position = self.family.position(found)
        if self.name == b"Opening":
            return label(self.family, position).encode()
        return number(self.family, position).encode()


def _value_span(header: bytes, name: bytes) -> tuple[int, int]:
    """Where the value of the first tag ``name`` is in ``header``."""
    for found in TAG_LINE.finditer(header):
        if found.group(1) == name:
            return found.span(2)
    raise AssertionError(f"no tag {name!r}")  # pragma: no cover - callers found it


def _number_tags() -> tuple[bytes, ...]:
    from solver.games.headers import NUMBER_TAGS

    return NUMBER_TAGS


def _chess_keys() -> frozenset[str]:
    from solver.games.headers import CHESS

    return CHESS
