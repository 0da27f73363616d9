"""The castling linter: are a book's castling fields right, and written one way?

:func:`lint_text` reads a FEN, EPD or PGN document (any line that is a FEN,
or a PGN ``[FEN "..."]`` tag) and, for each start position, checks the
castling field against the rooks (:func:`solver.notation.fen.check_castling`), on a
board of any width. A *problem* is

* a field that is wrong: a right the rooks do not give, or one they give
  that is missing (``KQkq`` on a start where a king does not stand between
  two rooks, say);
* a field that mixes X-FEN's ``K``/``Q`` with Shredder-FEN's file letters;
* a book that mixes the two notations from line to line (a field counts
  only where the two notations differ).

Lines that are not start positions are reported as skipped, and are no
problem. ``fix`` rewrites each start position's castling field (wrong ones
included: the rooks decide) in X-FEN or Shredder-FEN, White's rights first
and h-side first, or in the order of ``dialect`` (pychess: a-side first);
nothing else in any line changes. ``variant`` reads each line as that game's
start FEN in ``dialect`` (:func:`solver.notation.dialects.read_fen`): pieces
in hand, three-check's ``3+3``, horde's board, antichess's empty and
Seirawan's gating castling fields are what the dialect writes for it.
:func:`solver.files.write_atomic` replaces a file atomically.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from solver.errors import CastlingRightsError, Chess960Error, InputFileError
from solver.files import write_atomic
from solver.notation.dialects import DIALECTS, dialect_named, read_fen, variant_named
from solver.notation.fen import castling_field, check_castling, read_start

#: Notations ``--fix`` writes.
NOTATIONS: Final = ("xfen", "shredder")
#: Programs' dialects ``--fix`` may follow (``lichess`` is X-FEN, ``fsf`` Shredder's order,
#: ``pychess`` a-side first).
FIX_DIALECTS: Final = tuple(n for n, d in DIALECTS.items() if not d.plain)

_FEN_TAG: Final = re.compile(r'^(\s*\[FEN\s+")([^"]*)("\s*\]\s*)$')
_WORD: Final = re.compile(r"\S+")


@dataclass
class Finding:
    """What the linter says of one line (``line`` counts from 1; 0: the whole book)."""

    line: int
    message: str
    problem: bool


@dataclass
class Report:
    """The linter's findings on one document, and the document rewritten if asked."""

    name: str
    positions: int = 0
    findings: list[Finding] = field(default_factory=list)
    fixed: str | None = None
    changed: int = 0

    @property
    def problems(self) -> int:
        """How many findings are problems."""
        return sum(f.problem for f in self.findings)

    def lines(self) -> Iterator[str]:
        """The report, one line a finding, then a summary line.

        >>> print(*lint_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1",
        ...                  "book.fen").lines(), sep="\\n")
        book.fen:1: castling 'KQk' is wrong: black's right to castle with the a8 rook is \
missing ('q' or 'a'); the rooks give 'KQkq' (X-FEN) or 'HAha' (Shredder-FEN)
        book.fen: 1 start position, 1 problem
        """
        for finding in self.findings:
            where = f":{finding.line}" if finding.line else ""
            yield f"{self.name}{where}: {finding.message}"
        verdict = f"{self.problems} problem{'s' if self.problems != 1 else ''}"
        if self.fixed is not None:
            verdict += f", {self.changed} line{'s' if self.changed != 1 else ''} rewritten"
        plural = "s" if self.positions != 1 else ""
        yield f"{self.name}: {self.positions:,} start position{plural}, {verdict}"


def _files(placement: str) -> int:
    """How many files the last row of a placement spans (0 if unreadable)."""
    row = placement.rsplit("/", maxsplit=1)[-1]
    total, digits = 0, ""
    for char in row:
        if char.isdigit():
            digits += char
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


def lint_text(
    text: str, name: str = "-", fix: str | None = None, dialect: str | None = None,
    variant: str | None = None,
) -> Report:
    """Lint one document; with ``fix``, also rewrite it (:attr:`Report.fixed`).

    >>> report = lint_text("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1\\n",
    ...                    fix="shredder")
    >>> report.problems, report.fixed
    (0, 'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1\\n')
    """
    if variant is not None:
        variant_named(variant, dialect or "xfen")
        dialect_named(dialect or "xfen", variant)
    report = Report(name)
    out: list[str] = []
    used: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        prefix, fen, suffix = "", body, ""
        tag = _FEN_TAG.match(body)
        if tag:
            prefix, fen, suffix = tag.groups()
        elif not fen.strip() or fen.lstrip().startswith(("[", "#", "{", ";", "%")) or \
                "/" not in fen.split(maxsplit=1)[0]:
            out.append(line)
            continue
        rewritten = _lint_fen(fen, number, report, used, fix, dialect, variant)
        out.append(f"{prefix}{rewritten}{suffix}{ending}")
    if len(used) > 1:
        counts = ", ".join(f"{used[k]:,} {'X-FEN' if k == 'xfen' else 'Shredder-FEN'}"
                           for k in sorted(used))
        report.findings.append(Finding(0, f"the book mixes castling notations: {counts}", True))
    if fix is not None:
        report.fixed = "".join(out)
    return report


def _lint_fen(
    fen: str, number: int, report: Report, used: dict[str, int], fix: str | None,
    dialect: str | None, variant: str | None = None,
) -> str:
    """Check one FEN, record what is found, and return it (rewritten if asked)."""
    plain = fen.strip() if variant is None else read_fen(fen, variant, dialect or "xfen")
    try:
        start = read_start(plain, _files(plain.split(maxsplit=1)[0]))
    except Chess960Error as exc:
        report.findings.append(Finding(number, f"skipped: {exc}", False))
        return fen
    report.positions += 1
    white, black = start.white.upper(), start.black.upper()
    xfen = castling_field(white, black)
    shredder = castling_field(white, black, shredder=True)
    try:
        check_castling(fen if variant is None else plain, start.castling, white, black)
    except CastlingRightsError as exc:
        report.findings.append(Finding(
            number, f"castling {start.castling!r} is wrong: {exc.reason}; the rooks give "
                    f"{_both(xfen, shredder)}", True))
    except Chess960Error as exc:
        report.findings.append(Finding(number, f"castling {start.castling!r}: {exc}", True))
    else:
        kind = _notation(start.castling, xfen, shredder)
        if kind == "mixed":
            report.findings.append(Finding(
                number, f"castling {start.castling!r} mixes X-FEN and Shredder-FEN; "
                        f"write {_both(xfen, shredder)}", True))
        elif kind is not None:
            used[kind] = used.get(kind, 0) + 1
    if fix is None:
        return fen
    span = _castling_span(fen)
    assert span is not None  # read_start read three fields
    wanted = _ordered(xfen if fix == "xfen" else shredder, dialect)
    if variant is not None:
        game, writer = variant_named(variant), dialect_named(dialect or fix)
        if game.castling(white, black, writer) != writer.castling(white, black):
            wanted = game.castling(white, black, writer)
    if fen[span[0]:span[1]] == wanted:
        return fen
    report.changed += 1
    return fen[:span[0]] + wanted + fen[span[1]:]


def _both(xfen: str, shredder: str) -> str:
    return f"{xfen!r} (X-FEN) or {shredder!r} (Shredder-FEN)" if xfen != shredder else repr(xfen)


def lint_path(
    path: str, fix: str | None = None, dialect: str | None = None, text: str | None = None,
    variant: str | None = None,
) -> Report:
    """Lint the file at ``path`` (or ``text`` read from it already, e.g. stdin);
    with ``fix``, replace the file by the rewritten one when anything changed.

    Raises :class:`~solver.errors.InputFileError` when the file cannot be
    read, :class:`~solver.errors.OutputFileError` when it cannot be replaced.
    """
    if text is None:
        try:
            with open(path, encoding="utf-8", newline="") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
            raise InputFileError(path, (reason or str(exc)).lower()) from None
    report = lint_text(text, path, fix, dialect, variant)
    if fix is not None and path != "-" and report.fixed is not None and report.changed:
        write_atomic(path, report.fixed)
    return report
