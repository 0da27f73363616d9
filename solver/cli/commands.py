"""What the commands scripts call most do: ``id``, ``position``, ``random``, ``show``,
``rules``, and ``solve`` (whose own work, the search, dwarfs its start-up anyway).

Each function here is one command after its arguments are parsed: it
writes the answers to ``out``, one ``error:`` line per failed input to
``err``, and returns the exit code (0, or 1 when an input or the family
failed). The commands' bodies (:mod:`solver.cli.bodies`) call them, and the
Typer commands (:mod:`solver.cli.app`) and the console command's quick path
(:mod:`solver.cli.quick`, which parses the common command lines with a table
made from the Typer app, without Typer) both call those bodies with the same
arguments, so the two cannot answer differently.

Plain-text answers come without loading the family where they can, through
the family's shortcut (:mod:`solver.numbering.shortcut`), chosen in one place
(:func:`solver.numbering.shortcut.choose`), never here: the default family,
Chess960, by Scharnagl's arithmetic while its rule file is the one shipped.
``chess960 check`` names the shortcut, on or off and why, and proves it
equal to the family for every position. Nothing is kept between runs. The rule
file, the solver and the output formats are loaded only for anything else
(another format, glyphs, a FEN, a bad input), so the error lines are the
library's own.

>>> import io, sys
>>> position_command("chess960", ["518", "0"], stdin=None, out=sys.stdout, err=sys.stdout)
RNBQKBNR
BBQNNRKR
0
>>> identify_command("chess960", ["QNRBBNKR", "RNBQKBNR"], stdin=None, out=sys.stdout,
...                  err=sys.stdout)
105
518
0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver.cli.errors import FAILED, reported
from solver.cli.inputs import (
    answer_all,
    id_answer,
    identify_all,
    load_family,
)
from solver.notation.start_lines import ranks_answer
from solver.numbering.scharnagl import scharnagl_rank
from solver.numbering.shortcut import (
    ARITHMETIC,
    Arithmetic,
    Choice,
    arithmetic,
    arithmetic_id,
    arithmetic_line,
    arithmetic_number,
    chess960_rights,
    choose,
)

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up

if TYPE_CHECKING:
    from typing import Any, BinaryIO, TextIO

    from solver.draws.certificate import Certificate
    from solver.family import Family
    from solver.numbering.schemes import Scheme
    from solver.numbering.shortcut import Numbered, Shortcut
    from solver.position import Position

def _plain(fmt: str, unicode: bool, dialect: str, variant: str | None) -> bool:
    """Whether answers are plain text: an ID, or a rank in its letters."""
    return (fmt == "text" and not unicode and dialect in ("xfen", "shredder")
            and variant is None)


def _check_sides(family: Family, dialect: str, variant: str | None) -> None:
    """Refuse a variant that holds only Black's rank for a family of independent sides."""
    if variant is not None and family.layout.standard and family.independent:
        from solver.notation.dialects import check_style

        check_style(variant, dialect, family.ruleset.files, family.name)


def _reader(dialect: str, variant: str | None) -> Callable[[str], str] | None:
    """How ``id`` reads a start FEN of ``variant`` as ``dialect`` writes it, back
    into the plain FEN the family reads (``None``: as it is)."""
    if variant is None:
        return None
    from solver.notation.dialects import dialect_named, read_fen, variant_named
    from solver.notation.fen_syntax import is_fen

    variant_named(variant, dialect)
    dialect_named(dialect, variant)
    return lambda text: read_fen(text, variant, dialect) if is_fen(text) else text


def _quick(rules: str, fmt: str, unicode: bool, dialect: str,
           variant: str | None) -> Shortcut | None:
    """The family's shortcut for plain answers, when one is on (:func:`choose`)."""
    if not _plain(fmt, unicode, dialect, variant):
        return None
    return choose(rules).shortcut


def _arithmetic(rules: str) -> Choice | None:
    """Chess960's arithmetic when :func:`choose` takes it for ``rules``, else None."""
    choice = choose(rules) if rules == ARITHMETIC else None
    return choice if choice is not None and isinstance(choice.shortcut, Arithmetic) else None


class _Lazy:
    """The family, loaded the first time an input needs it."""

    def __init__(self, rules: str) -> None:
        self.rules = rules
        self.loaded: Family | None = None

    def __call__(self) -> Family:
        if self.loaded is None:
            self.loaded = load_family(self.rules)
        return self.loaded


def _quick_lines(rules: str, fmt: str, dialect: str, variant: str | None) -> bool:
    """Whether the bundled Chess960 writes ``fmt``, a line format (FEN,
    Shredder-FEN, EPD), in ``dialect``, a plain one, by arithmetic
    (:func:`arithmetic_line`, without loading the family or the writers)."""
    return (fmt in ("fen", "shredder", "epd") and variant is None
            and dialect in ("xfen", "shredder") and _arithmetic(rules) is not None)


def _blank(fmt: str) -> str:
    """What a failed stdin line writes to stdout: an empty line in text."""
    return "\n" if fmt == "text" else ""


def _scheme(family: Family, numbering: str | None) -> Scheme | None:
    """The numbering ``numbering`` of ``family`` (``None``: its own IDs)."""
    if numbering is None:
        return None
    scheme = family.scheme(numbering)
    return None if scheme.canonical else scheme


def _numbered_ids(family: Family, scheme: Scheme, texts: Sequence[str],
                  stdin: BinaryIO | None, out: TextIO, err: TextIO,
                  read: Callable[[str], str] | None) -> bool:
    """``chess960 id --numbering``: each position's number (or label) in ``scheme``."""
    identify = family.fen_identifier() if read is None else \
        (lambda text: family.identify(read(text)).id)
    return answer_all(texts, lambda text: f"{scheme.answer(text, identify)}\n", stdin, out,
                      err)


@reported
def identify_command(
    rules: str, ranks: Sequence[str], fmt: str = "text", dialect: str = "xfen",
    variant: str | None = None, *, stdin: BinaryIO | None, out: TextIO, err: TextIO,
    numbering: str | None = None,
) -> int:
    """``chess960 id``: the ID of each rank, pair or start FEN (``-``: stdin's lines),
    in the family's own numbering or ``numbering``."""
    if stdin is not None and "-" in ranks:  # a document (JSON, CSV, PGN): its positions
        from solver.documents import position_stream

        stdin = position_stream(stdin, "-", keep=("text",))  # type: ignore[assignment]
    if numbering is not None:
        family_ = load_family(rules)
        scheme = _scheme(family_, numbering)
        if scheme is not None:
            _text_only(fmt, "id")
            _check_sides(family_, dialect, variant)
            bad = _numbered_ids(family_, scheme, ranks, stdin, out, err,
                                _reader(dialect, variant))
            out.flush()
            return FAILED if bad else 0
    quick = _quick(rules, fmt, False, dialect, variant)
    if quick is not None:
        family = _Lazy(rules)
        id_of = quick.id_of
        by_ranks: list[Callable[[str], int]] = []  # the family's, once loaded

        def identify(text: str) -> int:
            number = id_of(text)
            if number is not None:
                return number
            if not by_ranks:
                by_ranks.append(family().fen_identifier())
            return by_ranks[0](text)

        bad = answer_all(ranks, id_answer(identify), stdin, out, err,
                         quick=_ranks_quick(quick))
    elif _quick_lines(rules, fmt, dialect, variant):
        bad = _write_lines(rules, ranks, "identify", fmt, dialect, stdin, out, err)
    elif fmt == "text":
        read = _reader(dialect, variant)
        loaded = load_family(rules)
        _check_sides(loaded, dialect, variant)
        bad = identify_all(loaded, ranks, stdin, out, err, read)
    else:
        loaded = load_family(rules)
        bad = _write_each(loaded, ranks, fmt, "id", False, dialect, variant,
                          "identify", stdin, out, err, _reader(dialect, variant))
    out.flush()
    return FAILED if bad else 0


def _ranks_quick(quick: Shortcut) -> Callable[[bytes | None], str | None] | None:
    """How ``id -`` answers a start FEN line by its back ranks: Chess960 by
    arithmetic (no family loaded); None for any other shortcut (each line is
    then answered one at a time)."""
    if isinstance(quick, Arithmetic):
        return ranks_answer(arithmetic_id, None, chess960_rights)
    return None


def _write_each(
    family: Family, texts: Sequence[str], fmt: str, style: str, unicode: bool, dialect: str,
    variant: str | None, how: str, stdin: BinaryIO | None, out: TextIO, err: TextIO,
    read: Callable[[str], str] | None = None, scheme: Scheme | None = None,
) -> bool:
    """Write the position each text names (``how``: identify a rank or read an ID;
    ``read`` turns a variant's FEN into the family's)."""
    from solver.output import PositionWriter

    with PositionWriter(out, family, fmt, text=style, unicode=unicode,  # type: ignore[arg-type]
                        dialect=dialect, variant=variant, numbering=scheme) as writer:

        def find(text: str) -> Position:
            if how == "identify":
                return family.identify(read(text) if read is not None else text)
            if scheme is not None:
                return family.position(scheme.read(text))
            return family.position(family.parse_id(text))

        line = getattr(writer.writer, "line", None)
        if line is not None:  # a line format: equal lines are answered once
            return answer_all(texts, lambda text: line(find(text)), stdin, out, err,
                              blank=_blank(fmt))

        def answer(text: str) -> str:
            writer.write(find(text))
            return ""

        return answer_all(texts, answer, stdin, out, err, memo=False, blank=_blank(fmt))


def _write_lines(
    rules: str, texts: Sequence[str], how: str, fmt: str, dialect: str,
    stdin: BinaryIO | None, out: TextIO, err: TextIO,
) -> bool:
    """:func:`_write_each` for Chess960 by arithmetic: each text's line in the
    format ``fmt`` and ``dialect``, from its ID and rank (``how``: identify a
    rank or read an ID); the family (and its writer) is loaded only for a
    text the arithmetic does not answer (a FEN, a pair, lower case)."""
    quick = Arithmetic()
    family = _Lazy(rules)
    line = arithmetic_line(fmt, dialect)
    loaded: list[Callable[[Position], str]] = []

    ids: dict[str, int] = {}
    if how == "identify":  # what arithmetic_id answers, for every rank at once
        ids = {quick.rank(number): number for number in range(quick.count)}

    def answer(text: str) -> str:
        number = ids.get(text) if how == "identify" else quick.number(text)
        rank = None if number is None else text if how == "identify" else quick.rank(number)
        if number is not None and rank is not None:
            return line(number, rank)
        found = family()
        if not loaded:
            from solver.output import FORMATS

            loaded.append(FORMATS[fmt](out, found, dialect=dialect).line)  # type: ignore[attr-defined]
        position = (found.identify(text) if how == "identify"
                    else found.position(found.parse_id(text)))
        return loaded[0](position)

    return answer_all(texts, answer, stdin, out, err, blank=_blank("fen"))


@reported
def position_command(
    rules: str, ids: Sequence[str], fmt: str = "text", unicode: bool = False,
    dialect: str = "xfen", variant: str | None = None, *, stdin: BinaryIO | None,
    out: TextIO, err: TextIO, numbering: str | None = None,
) -> int:
    """``chess960 position``: the rank of each ID (``-``: stdin's lines), an ID
    of the family's own numbering or of ``numbering`` (a number or a label)."""
    if numbering is not None:
        family_ = load_family(rules)
        scheme = _scheme(family_, numbering)
        if scheme is not None:
            bad = _write_each(family_, ids, fmt, "rank", unicode, dialect, variant,
                              "position", stdin, out, err, scheme=scheme)
            out.flush()
            return FAILED if bad else 0
    quick = _quick(rules, fmt, False, dialect, variant)  # with --unicode, its ranks as glyphs
    if quick is not None:
        family = _Lazy(rules)
        number_of, rank = quick.number, quick.rank
        shown: Callable[[str], str] = str
        if unicode:  # (imported only then: the quick path's start-up)
            from solver.notation.ranks import format_rank, glyphs_fit

            if glyphs_fit(out):  # letters where glyphs cannot be written

                def shown(letters: str) -> str:
                    return format_rank(letters, unicode=True)

        def answer(text: str) -> str:
            number = number_of(text)
            answered = None if number is None else rank(number)
            if answered is None:
                found = family()
                answered = found.position(found.parse_id(text)).white
            return f"{shown(answered)}\n"

        bad = answer_all(ids, answer, stdin, out, err)
    elif not unicode and _quick_lines(rules, fmt, dialect, variant):
        bad = _write_lines(rules, ids, "position", fmt, dialect, stdin, out, err)
    else:
        loaded = load_family(rules)
        bad = _write_each(loaded, ids, fmt, "rank", unicode, dialect, variant,
                          "position", stdin, out, err)
    out.flush()
    return FAILED if bad else 0


@reported
def random_command(
    rules: str, count: int = 1, *, distinct: bool = False, exclude: Sequence[str] = (),
    shortlist: str | None = None, seed: str | None = None, fmt: str = "text",
    unicode: bool = False, dialect: str = "xfen",
    variant: str | None = None, out: TextIO, err: TextIO, numbering: str | None = None,
    balanced: str | None = None, eval_tables: Sequence[str] = (),
    certificate: str | None = None, draw_rate: str | None = None, preset: str | None = None,
) -> int:
    """``chess960 random``: ``count`` uniform draws, one ``<id> <rank>`` line each
    (streamed); with ``numbering``, each id (and ``exclude``) in that numbering;
    ``balanced``, ``draw_rate``, ``preset``: only positions inside those bands and
    that named subset (:mod:`solver.evaluation.band`), said on ``err``; with
    ``certificate``, the draw's certificate written to that file first (the
    band's positions are among its exclusions); ``shortlist``: only among the
    positions that file lists (the others are excluded)."""
    from solver.sampling import iter_draw, iter_ids

    if certificate is not None:
        from solver.draws.tournament import certificate_ids, certificate_list, outside_bands

        if numbering is not None:
            raise certificate_ids("random")
        banned = [] if balanced is None and draw_rate is None and preset is None else [
            str(n) for n in outside_bands(load_family(rules), balanced, eval_tables, err.write,
                                           draw_rate, preset)]
        if shortlist is not None:
            raise certificate_list("random")
        return _certified_random(rules, count, distinct, [*exclude, *banned], seed, fmt,
                                 unicode, dialect, variant, certificate, out, err)
    if numbering is not None:
        family_ = load_family(rules)
        scheme = _scheme(family_, numbering)
        if scheme is not None:
            _text_only(fmt, "random")
            from solver.draws.presets import off_list
            from solver.draws.tournament import outside_bands
            from solver.output.base import position_text

            left = excluded_ids(family_.name, exclude, scheme.read,
                                lambda text: family_.identify(text).id, err)
            left += outside_bands(family_, balanced, eval_tables, err.write, draw_rate, preset)
            left += off_list(family_, shortlist, scheme, exclude, count if distinct else 1)
            for found in iter_draw(family_, count, seed=seed, distinct=distinct,
                                   exclude=left):
                out.write(f"{scheme.text(found.id)} "
                          f"{position_text(family_, found, unicode)}\n")
            out.flush()
            return 0
    quick = _quick(rules, fmt, unicode, dialect, variant)
    if (balanced is not None or draw_rate is not None or preset is not None
            or shortlist is not None):
        quick = None  # the tables (the list) are read by the family
    if quick is not None:
        family = _Lazy(rules)
        number_of, rank, id_of = quick.number, quick.rank, quick.id_of

        def parse(text: str) -> int:
            number = number_of(text.strip())
            return number if number is not None else family().parse_id(text)

        def identify(text: str) -> int:
            number = id_of(text)
            return number if number is not None else family().identify(text).id

        left_out = excluded_ids(quick.name, exclude, parse, identify, err)
        ids = iter_ids(quick.count, count, seed=seed, distinct=distinct,
                       exclude=left_out, family=quick.name)
        for number in ids:
            answered = rank(number)
            if answered is None:  # the shortcut does not answer: the family does
                answered = family().position(number).white
            out.write(f"{number} {answered}\n")
    else:
        from solver.draws.presets import off_list
        from solver.draws.tournament import outside_bands
        from solver.output import PositionWriter

        loaded = load_family(rules)
        left_out = excluded_ids(loaded.name, exclude, loaded.parse_id,
                                lambda text: loaded.identify(text).id, err)
        left_out += outside_bands(loaded, balanced, eval_tables, err.write, draw_rate, preset)
        left_out += off_list(loaded, shortlist, None, exclude, count if distinct else 1)
        drawn = iter_draw(loaded, count, seed=seed, distinct=distinct, exclude=left_out)
        with PositionWriter(out, loaded, fmt, text="id-rank", unicode=unicode,
                            dialect=dialect, variant=variant) as writer:
            for found in drawn:
                writer.write(found)
    out.flush()
    return 0


def excluded_ids(family: str, exclude: Sequence[str], parse: Callable[[str], int],
                 identify: Callable[[str], int], err: TextIO) -> list[int]:
    """:func:`solver.draws.presets.excluded_ids`, a preset noted on ``err``
    (nothing imported for plain IDs: the quick path's start-up)."""
    parts = [part.strip() for item in exclude for part in item.split(",") if part.strip()]
    if all(part.isascii() and part.isdigit() for part in parts):
        return [parse(part) for part in parts]
    from solver.draws.presets import excluded_ids as excluded

    return excluded(family, exclude, parse, identify, err.write)


def _certified_random(
    rules: str, count: int, distinct: bool, exclude: Sequence[str], seed: str | None, fmt: str,
    unicode: bool, dialect: str, variant: str | None, certificate: str, out: TextIO,
    err: TextIO,
) -> int:
    """``chess960 random --certificate FILE``: the draw (kept whole: the
    certificate lists it), its certificate written, then its positions."""
    from solver.draws.certificate import certify
    from solver.output import PositionWriter

    made = certify(rules, "random", count, seed=seed, exclude=exclude, distinct=distinct)
    with PositionWriter(out, made.family, fmt, text="id-rank", unicode=unicode,
                        dialect=dialect, variant=variant) as writer:
        made.certificate.write(certificate)
        _note_certificate(made.certificate, seed is None, err)
        for found in made.positions:
            writer.write(found)
    out.flush()
    return 0


def _note_certificate(certificate: Certificate, made_seed: bool, err: TextIO) -> None:
    """Note a certified draw's presets (as ``--exclude`` does) and the seed made
    for it when none was given."""
    from solver.draws.presets import Exclusions

    if certificate.presets:
        err.write(f"excluded: {Exclusions(certificate.excluded, certificate.presets).describe()}\n")
    if made_seed:
        err.write(f"seed: {certificate.seed} (made for the certificate)\n")


@reported
def solve_command(
    rules: str, count: bool = False, fmt: str = "text", unicode: bool = False,
    dialect: str = "xfen", variant: str | None = None,
    max_arrangements: int | None = None, *, out: TextIO, err: TextIO,
    numbering: str | None = None,
) -> int:
    """``chess960 solve``: every position in canonical order, one ``<id> <rank>``
    line each (or in ``fmt``); with ``count``, only how many there are; with
    ``numbering``, in that numbering's order with its numbers.

    The count of a family with a shortcut on (:func:`choose`: the shipped
    Chess960's arithmetic) is the shortcut's, which ``check`` proves equal to
    the solver's count; every other family is counted by the solver.

    >>> import sys
    >>> solve_command("chess960", count=True, out=sys.stdout, err=sys.stdout)
    960
    0
    """
    quick = choose(rules).shortcut if count else None
    if quick is not None:
        out.write(f"{quick.count}\n")
        out.flush()
        return 0
    from solver.cli.progress import SolveProgress

    family = load_family(rules, max_arrangements)
    scheme = None if count else _scheme(family, numbering)
    if scheme is not None:
        _text_only(fmt, "solve")
        for line in scheme.listing(unicode):
            out.write(line)
    elif count:
        with SolveProgress(family) as progress:
            found = family.total(progress)
        out.write(f"{found}\n")  # after the bar is gone
    else:
        from solver.output import PositionWriter

        with (SolveProgress(family, output=out) as progress,
              PositionWriter(out, family, fmt, text="id-rank", unicode=unicode,
                             dialect=dialect, variant=variant) as writer):
            writer.write_rows(family.numbered(progress))
    out.flush()
    return 0


@reported
def convert_command(
    rules: str, values: Sequence[str], source_numbering: str | None,
    target_numbering: str | None, *, stdin: BinaryIO | None, out: TextIO, err: TextIO,
) -> int:
    """``chess960 convert``: each number (or label) of one numbering of the family
    in another (``-``: stdin's lines)."""
    family = _Lazy(rules)
    made: list[Callable[[str], str]] = []
    quick = _numbered(rules, source_numbering, target_numbering)

    def answer(text: str) -> str:
        number = None if quick is None else quick[0].read(text)
        if quick is not None and number is not None:
            return f"{quick[1].text(number)}\n"
        if not made:  # the family is loaded for the first value it must read
            made.append(family().converter(source_numbering, target_numbering))
        return f"{made[0](text)}\n"

    bad = answer_all(values, answer, stdin, out, err)
    out.flush()
    return FAILED if bad else 0


def _numbered(rules: str, source: str | None, target: str | None
              ) -> tuple[Numbered, Numbered] | None:
    """The numberings ``source`` and ``target`` by the family's shortcut, when one
    is on and knows both (:func:`choose`: the shipped Chess960's arithmetic)."""
    quick = choose(rules).shortcut
    if quick is None:
        return None
    numberings = quick.numberings
    own = next(iter(numberings))  # the family's own numbering comes first
    found = numberings.get(source or own), numberings.get(target or own)
    return None if found[0] is None or found[1] is None else (found[0], found[1])


def _text_only(fmt: str, command: str) -> None:
    """``--numbering`` on ``command`` writes numbers in the text format only."""
    if fmt != "text":
        from solver.errors import OptionConflictError

        raise OptionConflictError(command, ("--numbering", f"--format {fmt}"),
                                  "numbers of another numbering are written in the text "
                                  "format (the other formats write the family's own ids; "
                                  "`chess960 convert` turns them)")


@reported
def show_command(
    rules: str, text: str, svg: str | None = None, letters: bool = False, *,
    stdin: BinaryIO | None, out: TextIO, err: TextIO,
) -> int:
    """``chess960 show``: draw the position ``text`` names (``-``: each line of
    stdin, such as the ``<id> <rank>`` lines ``random`` and ``solve`` write) in the
    terminal with Rich, and as SVG to the file ``svg`` (``-``: to ``out``, instead
    of the board)."""
    if svg is None and (drawn := _chess960_board(rules, text, letters, out)) is not None:
        out.write(drawn)
        out.flush()
        return 0
    from solver.idlists import read_listed
    from solver.output.diagram import board_svg, board_text, write_svg

    family = load_family(rules)
    from solver.notation.ranks import glyphs_fit

    fits = glyphs_fit(out)  # an ASCII or Latin-1 stdout: letters, and a plain board
    console = _console(out)
    coloured = console.color_system is not None and not console.no_color

    def draw(line: str) -> str:
        found = read_listed(family, line)
        if svg == "-":  # XML character references where the encoding has no glyphs
            drawn = board_svg(family, found)
            out.write(drawn if fits else _ascii(drawn, "xmlcharrefreplace"))
            return ""
        if svg is not None:
            write_svg(svg, family, found)
        out.flush()
        if not fits:
            board = board_text(family, found, True, False).plain.replace("\u00b7", ".")
            out.write(_ascii(board, "replace") + "\n")
            return ""
        console.print(board_text(family, found, letters, coloured), soft_wrap=True)
        return ""

    bad = answer_all([text], draw, stdin, out, err, memo=False, blank="")
    out.flush()
    return FAILED if bad else 0


def _chess960_board(rules: str, text: str, letters: bool, out: TextIO) -> str | None:
    """What ``show`` writes for a Chess960 ID or rank, by arithmetic and without
    Rich, when its output takes no colour (else None: Rich draws the board)."""
    if rules != ARITHMETIC or not _colourless(out):
        return None
    number = arithmetic_number(text)
    if number is None:
        number = arithmetic_id(text)
    if number is None or _arithmetic(rules) is None:
        return None
    from solver.board.drawing import chess960_board

    drawn = chess960_board(number, scharnagl_rank(number), letters)
    try:
        drawn.encode(getattr(out, "encoding", None) or "utf-8")
    except (UnicodeError, LookupError):
        return None  # an ASCII or Latin-1 stdout: the family draws letters
    return drawn


#: Variables that make Rich treat any output as a terminal.
_FORCING = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


def _colourless(out: TextIO) -> bool:
    """Whether Rich writes to ``out`` without colour or styles: not a terminal,
    and no variable in the environment makes it one."""
    import os

    if any(name in os.environ for name in _FORCING):
        return False
    try:
        return not out.isatty()
    except (OSError, ValueError):
        return False


@reported
def check_command(rules: str, every: bool = False, max_arrangements: int | None = None, *,
                  out: TextIO, err: TextIO) -> int:
    """``chess960 check``: prove the family ``rules`` (``every``: each bundled
    family); the report to ``out``, the time each family took to ``err``."""
    from solver.check import check_each
    from solver.cli.errors import report
    from solver.ruleset.reader import bundled_names

    names = bundled_names() if every else [rules]  # always proven afresh: none is kept
    unproven = []
    for proof in check_each(names, max_arrangements):
        out.write(proof.text())
        out.flush()
        # The time goes to stderr so that stdout is the same bytes on every run.
        err.write(f"{proof.family}: checked in {proof.seconds:.2f} s\n")
        if not proof.ok:
            unproven.append(proof.family)
    if unproven:
        report(out, err, f"check failed for {', '.join(unproven)}")
        return FAILED
    return 0


@reported
def plan_command(rules: str, rounds: int, *, seed: str | None, exclude: Sequence[str],
                 shortlist: str | None = None, mirrors: bool, table: str,
                 svg_dir: str | None, dialect: str,
                 variant: str | None, out: TextIO, err: TextIO,
                 numbering: str | None = None, balanced: str | None = None,
                 eval_tables: Sequence[str] = (), certificate: str | None = None,
                 html: str | None = None, event: str | None = None,
                 date: str | None = None, draw_rate: str | None = None,
                 preset: str | None = None) -> int:
    """``chess960 plan``: ``rounds`` distinct positions drawn from ``seed`` as a
    ``table`` (markdown or csv), each board also as ``svg_dir/round-N.svg`` (the
    folder made when missing), and the printable page ``html`` (``-``: to
    ``out``, instead of the table); ids (and ``exclude``) in ``numbering``;
    ``balanced``, ``draw_rate``: only positions inside those bands, said below a Markdown table
    (on ``err`` for CSV); ``certificate``: the draw's certificate written to
    that file too; ``event`` and ``date``: above a Markdown table, on the page
    and in the certificate; ``shortlist``: only positions that file lists."""
    import io

    from solver.draws.tournament import draw_plan, write_boards
    from solver.output.plan import plan_details, plan_heading, plan_table

    noted = io.StringIO()
    planned = draw_plan(rules, rounds, seed=seed, exclude=exclude, shortlist=shortlist,
                        mirrors=mirrors, numbering=numbering, balanced=balanced,
                        eval_tables=eval_tables, draw_rate=draw_rate, preset=preset,
                        certificate=certificate is not None, event=event, date=date,
                        note=err.write, band_note=(err if table == "csv" else noted).write)
    family, drawn, scheme, certified = (planned.family, planned.drawn, planned.scheme,
                                        planned.certified)
    pictures = None if svg_dir is None else write_boards(family, drawn, svg_dir)
    written = "" if html == "-" else plan_table(
        family, drawn, table, dialect=dialect, variant=variant, pictures=pictures,
        numbering=scheme)
    if certified is not None and certificate is not None:
        certified.certificate.write(certificate)
        _note_certificate(certified.certificate, seed is None, err)
    if html is not None:
        from solver.output.html import plan_page
        from solver.output.plan import plan_fens

        page = plan_page(family, drawn, details=plan_details(
            seed, shortlist, sorted(set(planned.left_out) - set(planned.outside)), mirrors,
            event, date),
                         fens=plan_fens(family, drawn, dialect=dialect, variant=variant))
        if html == "-":
            out.write(page)
            return 0
        from solver.files import write_atomic

        write_atomic(html, page)
    out.write(plan_heading(event, date, table) + written)
    if noted.getvalue():  # a Markdown plan says its band below the table
        out.write(f"\n{noted.getvalue()[:1].upper()}{noted.getvalue()[1:]}")
    return 0


@reported
def report_command(rules: str, output: str, *, prove: bool = True, out: TextIO,
                   err: TextIO) -> int:
    """``chess960 report``: the family ``rules``'s page written to ``output``
    (``-``: to ``out``)."""
    from solver.output.html import report_page
    from solver.report import family_report

    family = load_family(rules)
    page = report_page(family_report(family, prove=prove))
    if output == "-":
        out.write(page)
    else:
        from solver.files import write_atomic

        write_atomic(output, page)
        err.write(f"{family.name}: report written to {output}\n")
    return 0


def _ascii(text: str, errors: str) -> str:
    """``text`` with every character beyond ASCII replaced as ``errors`` says."""
    return text.encode("ascii", errors).decode("ascii")


def _console(out: TextIO) -> Any:
    """A Rich console on ``out`` that never crops the board (``COLUMNS=0`` included)."""
    from rich.console import Console

    console = Console(highlight=False, file=out)
    # The board is never wrapped: a narrower console (COLUMNS=0) would only lose it.
    console.width = max(console.width, 80)
    return console


@reported
def rules_command(*, out: TextIO, err: TextIO, numberings: bool = False,
                  rules: str | None = None) -> int:
    """``chess960 rules``: the table of bundled families (``numberings``: their
    numberings instead, of every family or of ``rules``); on ``err``, that
    Chess960's arithmetic is off when ``rules/chess960.toml`` was edited."""
    from solver.report import families_table, numberings_table

    lines = list(numberings_table(rules) if numberings else families_table())
    out.write("".join(f"{line}\n" for line in lines))
    if rules in (None, ARITHMETIC) and not (choice := arithmetic(ARITHMETIC)).on:
        err.write(f"chess960: {choice}\n")  # an edited rules/chess960.toml, said aloud
    return 0
