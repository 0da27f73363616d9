"""The consistency matrix: whatever a command writes, every reader reads back.

For every bundled family and a set of generated ones, every command that
writes positions (``solve``, ``position``, ``random``, ``book``, ``plan``) in
every format, dialect, variant and numbering the family admits (the lists come
from the registries, see :mod:`matrix_support`), the readers give back the
same family, numbering and id:

* ``id -r F`` reads each written rank, FEN or EPD line back to its id;
* ``lint -r F`` finds no problem in the FENs, EPD and PGN written (with the
  variant's ``--variant`` and ``--dialect``), and plain ``lint`` none in the
  tool's own EPD and PGN;
* the ids a document states (EPD ``id``, JSON and CSV ``id``) are the ids written;
* ``book`` writes the lines ``position`` writes for the same ids;
* ``which`` names the family with the id in every numbering, the same for a
  position's letters, glyphs and FENs;
* ``compare`` finds a whole-family listing or book complete;
* ``games stats`` and ``games tag`` count and tag the PGN written by its ids;
* ``convert`` round-trips every pair of numberings, and agrees with
  ``position --numbering``.

The Python API (``Position.fen``/``epd``, ``Family.id``/``random``, ``which``,
``repr``) answers as these commands do: :mod:`test_api_matrix`.

A cell that a command refuses (a format or dialect the family cannot be
written in) must be refused with one ``error:`` line, and is left out.

Known failures of other areas' code are the table :data:`KNOWN`: each test is
split into the cells a known failure covers (``known``, a strict xfail: it
must still fail, so the mark goes when the bug is fixed) and the rest, which
must pass. The default suite runs a sample (a few families); the whole product
is ``@pytest.mark.slow`` (the two families numbered by counting share it out:
:data:`COUNTED_HALVES`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from matrix_support import (
    BOOK_FORMATS,
    DIALECTS,
    FORMATS,
    PLAN_FORMATS,
    STYLES,
    Combo,
    Known,
    cli,
    cli_process,
    family,
    items,
    labels,
    record_ids,
    sample_ids,
    split,
)

from solver import Chess960Error, Family
from solver.ruleset.reader import bundled_names, parse

FAMILIES = bundled_names()
#: The default suite's families: the classic, one with a hand and gating, one on 10 files.
SAMPLE = ("chess960", "seirawan960", "capahouse960")
#: Families small enough to list whole (solve, book, compare).
WHOLE_MAX = 6_000
#: How many positions plan draws, and random.
DRAWN = 4
RANDOM_DRAWN = 12
SEED = "matrix"


def _subsets(name: str) -> bool:
    """Whether the family's positions differ by castling rights alone (``castling = "subsets"``)."""
    return type(family(name).ruleset.castling).__name__ == "SubsetCastling"


def _set(*values: object) -> frozenset[object]:
    return frozenset(values)


#: Known failures of other helpers' areas, found by this matrix. Remove an
#: entry when its bug is fixed (its ``known`` part then passes, and a strict
#: xfail fails until the entry goes).
KNOWN: list[Known] = [
    *[Known("plain_lint", name,
            "lint: plain lint cannot tell this family from Chess960 in the tool's PGN (the "
            "FEN tag does not name it, as an EPD line's id does), so it judges the castling "
            "field by Chess960's rule; lint -r F passes", {"fmt": _set("pgn")})
      for name in ("chess324x16", "chess99-random", "janggi", "placement", "shuffle-nocastle",
                   "transcendental", "wild3", "wild4")],
    *[Known("plain_lint", name,
            "lint: plain lint cannot read a FEN tag of a board other than chess's (9 files, "
            "10 ranks; the pawns of each side's own half) without the family, which an EPD "
            "line's id names and the tool's PGN does not; lint -r F passes",
            {"fmt": _set("pgn")})
      for name in ("jieqi", "sittuyin")],
    Known("plain_lint", "cwda",
          "lint: plain lint cannot read a FEN tag of pieces no program-wide letter names "
          "(CWDA's bede, waffle, ...) without the family, which an EPD line's id names and "
          "the tool's PGN does not; lint -r cwda passes", {"fmt": _set("pgn")}),
    Known("plain_lint", "shatranj-shuffle",
          "lint: plain lint cannot tell XBoard's shuffled Shatranj from shuffle chess in the "
          "tool's PGN (the FEN tag does not name it, as an EPD line's id does), so it asks "
          "for castling rights Shatranj has none of; lint -r shatranj-shuffle passes",
          {"fmt": _set("pgn")}),
    *[Known("plain_lint", name,
            "lint: plain lint cannot read a FEN tag of this board (Makruk's met and khons "
            "with pawns on the third rank; Metamachy's 12x12) without the family, which an "
            "EPD line's id names and the tool's PGN does not; lint -r F passes",
            {"fmt": _set("pgn")})
      for name in ("makruk-shuffle", "metamachy")],
]


def _known(check: str, name: str) -> list[Known]:
    return [k for k in KNOWN if k.check == check and k.family == name]


def _params(check: str) -> Iterator[object]:
    """The default suite's sample (a few cells of a few families), then every
    family whole (slow), split in two where a known failure covers some cells."""
    for name in SAMPLE:
        yield pytest.param(name, "rest", False, id=f"sample-{name}")
    for name in FAMILIES:
        known = _known(check, name)
        yield pytest.param(name, "rest", True, id=f"{name}-rest" if known else name,
                           marks=pytest.mark.slow)
        for entry in known:
            yield pytest.param(name, "known", True, id=f"{name}-known",
                               marks=[pytest.mark.slow,
                                      pytest.mark.xfail(strict=True, reason=entry.reason)])


def families_for(check: str) -> Callable[[Callable[..., None]], object]:
    """Parametrise a check by family: ``(name, part, full)``."""
    return pytest.mark.parametrize(("name", "part", "full"), list(_params(check)))


#: How many cells of a family the default suite's sample checks.
SAMPLE_CELLS = 6

#: The families numbered by counting (each look-up a tenth of a second) have
#: capablanca-random's board, pieces and cells; in the whole run each takes every
#: other cell (these two offsets), so that every cell is checked on
#: capablanca-random and on one family numbered by counting.
COUNTED_HALVES = {"capablanca-random-full": 0, "cutechess-caparandom": 1}


def cells_of(check: str, name: str, part: str, full: bool, cells: Iterable[Combo]
             ) -> list[Combo]:
    """The cells of one part of a test (see :func:`matrix_support.split`); the
    sample takes a few, spread over the list (a family numbered by counting,
    half of them: :data:`COUNTED_HALVES`)."""
    chosen = list(split(list(cells), _known(check, name), part))
    if not full:
        chosen = chosen[::max(1, len(chosen) // SAMPLE_CELLS)]
    elif name in COUNTED_HALVES and part == "rest":
        chosen = chosen[COUNTED_HALVES[name]::2]
    if part == "known":
        assert chosen, "no cell is covered by the known failure"
    return chosen


# -- writing -----------------------------------------------------------------------


def _refused(cell: Combo, answer: tuple[str, str, int]) -> bool:
    """Whether the command refused the cell (cleanly: one error line, exit 1)."""
    _out, err, code = answer
    if code == 0:
        return False
    assert code in (1, 2) and err.startswith("error:") and err.count("\n") == 1, \
        f"{cell}: not a clean refusal: exit {code}, stderr {err!r}"
    return True


def _scheme_numeric(name: str, numbering: str | None) -> bool:
    scheme = family(name).scheme(numbering)
    return all(label.isdigit() for label in labels(name, sample_ids(name), numbering)) \
        and scheme is not None


def _natural(label: str) -> list[int]:
    """A label's numbers, in order: sorting by them sorts labels by number."""
    return [int(n) for n in re.findall(r"\d+", label)]


def written(cell: Combo) -> tuple[list[int], str] | None:
    """The own ids ``cell`` writes and what it writes (``None``: refused)."""
    name, fam = cell.family, family(cell.family)
    common = ["-r", name, "-f", cell.fmt, *cell.style_args(), *cell.numbering_args()]
    if cell.command == "position":
        ids = sample_ids(name)
        answer = cli("position", *common, *labels(name, ids, cell.numbering))
    elif cell.command == "random":
        # distinct (a book of a family of 8 would repeat one, which lint rightly names)
        drawn_n = ["-n", str(min(RANDOM_DRAWN, fam.count)), "--distinct"]
        drawn = cli("random", "-r", name, "--seed", SEED, *drawn_n, "-f", "json")
        ids = [record["id"] for record in json.loads(drawn[0])]
        answer = cli("random", *common, "--seed", SEED, *drawn_n)
    elif cell.command == "solve":  # in the numbering's order
        ids = sorted(range(fam.count), key=lambda i: _natural(fam.scheme(cell.numbering).text(i)))
        answer = cli("solve", *common)
    else:  # book
        ids = sample_ids(name)
        answer = cli("book", *common, "--ids", ",".join(labels(name, ids, cell.numbering)))
    if _refused(cell, answer):
        return None
    return ids, answer[0]


def write_cells(name: str, commands: Iterable[str] = ("position", "random", "book")
                ) -> Iterator[Combo]:
    """The cells of the commands that write positions, for one family:
    ``position`` in every format and dialect, and (EPD and PGN, which hold the
    variant's whole FEN as the other formats do) every variant; ``random`` and
    ``book`` in every format, and every dialect in EPD; ``solve`` (families of at
    most :data:`WHOLE_MAX`) in every format; each in every other numbering. Text,
    which writes no FEN, is written once."""
    fam = family(name)
    others = [n for n in fam.schemes if n != fam.scheme().name]
    plain = [(None, d) for d in DIALECTS]
    for command in commands:
        if command == "solve" and fam.count > WHOLE_MAX:
            continue
        formats = BOOK_FORMATS if command == "book" else list(FORMATS)
        for fmt in formats:
            if fmt == "text":
                styles: list[tuple[str | None, str]] = [(None, "xfen")]
            elif command == "position":
                styles = STYLES if fmt in ("epd", "pgn") else plain
            else:
                styles = plain if fmt == "epd" else [(None, "xfen")]
            for variant, dialect in styles:
                yield Combo(command, name, fmt, dialect, variant)
            for numbering in others:
                if command != "book" or _scheme_numeric(name, numbering):
                    yield Combo(command, name, fmt, numbering=numbering)


def run_cells(check: str, name: str, part: str, full: bool, cells: Iterable[Combo],
              test: Callable[[Combo, list[int], str], str | None]) -> None:
    """Run ``test`` on each admitted cell of this part; fail naming every cell that fails."""
    failures = []
    chosen = cells_of(check, name, part, full, cells)
    for cell in chosen:
        made = written(cell)
        if made is None:
            continue
        problem = test(cell, *made)
        if problem is not None:
            failures.append(f"{cell}: {problem}")
    assert not failures, f"{len(failures)} of {len(chosen)} cells fail:\n" + "\n".join(failures)


# -- the readers -------------------------------------------------------------------


def _expected_lines(cell: Combo, ids: list[int], per: int) -> list[str]:
    return [label for label in labels(cell.family, ids, cell.numbering) for _ in range(per)]


def check_id(cell: Combo, ids: list[int], text: str) -> str | None:
    """``id -r F`` reads every written position back to its id."""
    if cell.variant is not None:
        return None  # id reads the family's own game; lint reads the variants'
    if cell.fmt == "text" and _subsets(cell.family):
        return None  # ranks carry no castling field, which tells these positions apart
    found = items(cell.fmt, text)
    if not found:
        return f"no position read from {text[:200]!r}"
    per = len(found[0])
    lines = [t for group in found for t in group]
    out, err, code = cli("id", "-r", cell.family, *cell.numbering_args(), "-",
                         stdin="\n".join(lines) + "\n")
    want = _expected_lines(cell, ids, per)
    if code != 0 or out.splitlines() != want:
        return (f"id: expected {want[:6]}..., got {out.splitlines()[:6]} "
                f"(exit {code}, {err[:300]!r})")
    return None


def _lint(args: list[str], text: str, count: int | None) -> str | None:
    out, err, code = cli("lint", *args, "-", stdin=text)
    summary = (out + err).strip().splitlines()[-1:] or [""]
    if code != 0 or not summary[0].endswith(" 0 problems") or (
            count is not None and not summary[0].startswith(
                f"-: {count:,} start position{'s' if count != 1 else ''},")):
        return (f"lint {' '.join(args)}: expected {count} start positions and 0 problems, "
                f"got exit {code}: {(out + err)[:400]!r}")
    return None


LINTED = ("fen", "shredder", "epd", "pgn")


def check_lint_rules(cell: Combo, ids: list[int], text: str) -> str | None:
    """``lint -r F`` (with the variant's --variant and --dialect) finds no problem."""
    if cell.fmt not in LINTED:
        return None
    args = ["-r", cell.family, *cell.numbering_args()]
    if cell.variant is not None:  # the shredder format writes Shredder-FEN's letters
        dialect = "shredder" if cell.fmt == "shredder" and cell.dialect == "xfen" else cell.dialect
        args += ["--variant", cell.variant, "--dialect", dialect]
    return _lint(args, text, len(ids))


def check_plain_lint(cell: Combo, ids: list[int], text: str) -> str | None:
    """Plain ``lint`` passes the tool's own EPD and PGN."""
    if cell.fmt != "pgn" and (cell.fmt != "epd" or cell.variant is not None):
        return None  # an EPD line does not say which variant it is; a PGN game does
    if cell.numbering is not None or not _plain_lint_reads(cell.family):
        return None  # another numbering's ids, or a family plain lint cannot know
    return _lint([], text, None)


def _plain_lint_reads(name: str) -> bool:
    """Whether plain ``lint`` (no family) passes the family's own EPD: it cannot
    know a family's castling rule (none, subsets) or its board without ``-r``."""
    made = [written(Combo(command, name, "epd")) for command in ("position", "random")]
    return all(m is not None and _lint([], m[1], None) is None for m in made)


def check_stated_ids(cell: Combo, ids: list[int], text: str) -> str | None:
    """The ids a document states are the ids written, in the numbering asked for."""
    stated = record_ids(cell.fmt, text)
    if cell.fmt != "epd":  # JSON and CSV: the family's own ids, whatever the numbering
        want = [str(i) for i in ids]
    elif family(cell.family).scheme(cell.numbering).spec.label:  # a label alone: "FRC 518"
        want = labels(cell.family, ids, cell.numbering)
    else:
        want = [f"{cell.family} {label}" for label in labels(cell.family, ids, cell.numbering)]
    if stated is not None and stated != want:
        return f"stated ids: expected {want[:6]}, got {stated[:6]}"
    return None


@families_for("id")
def test_id_reads_back(name: str, part: str, full: bool) -> None:
    run_cells("id", name, part, full, write_cells(name), check_id)


@families_for("lint_rules")
def test_lint_rules_passes(name: str, part: str, full: bool) -> None:
    run_cells("lint_rules", name, part, full, write_cells(name), check_lint_rules)


@families_for("plain_lint")
def test_plain_lint_passes_own_epd_and_pgn(name: str, part: str, full: bool) -> None:
    run_cells("plain_lint", name, part, full, write_cells(name), check_plain_lint)


@families_for("stated_ids")
def test_stated_ids_are_the_ids_written(name: str, part: str, full: bool) -> None:
    run_cells("stated_ids", name, part, full, write_cells(name), check_stated_ids)


def test_position_writes_epd_ids_in_its_numbering() -> None:
    """``position --numbering N -f epd`` writes N's numbers, as ``book`` does and
    ``lint --numbering N`` reads (it wrote the family's own ids)."""
    out, err, code = cli("position", "--numbering", "scidb", "960", "518", "-f", "epd")
    assert (err, code) == ("", 0)
    assert out == ('bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - id "chess960 960";\n'
                   'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "chess960 518";\n')
    assert cli("lint", "-r", "chess960", "--numbering", "scidb", "-", stdin=out)[2] == 0
    assert cli("book", "--numbering", "scidb", "--ids", "960,518")[0] == out
    labelled = cli("position", "-r", "dfrc", "--numbering", "tcec", "DFRC 105:518", "-f", "epd")
    assert labelled[0].endswith(' id "DFRC 105:518";\n')


# -- book and position -------------------------------------------------------------


def book_cells(name: str) -> Iterator[Combo]:
    fam = family(name)
    for fmt in BOOK_FORMATS:
        for dialect in DIALECTS:
            yield Combo("book", name, fmt, dialect)
        for numbering in fam.schemes:
            if numbering != fam.scheme().name and _scheme_numeric(name, numbering):
                yield Combo("book", name, fmt, numbering=numbering)


def check_book_equals_position(cell: Combo, ids: list[int], text: str) -> str | None:
    """``book --ids`` writes the lines ``position`` writes for the same ids."""
    same = Combo("position", cell.family, cell.fmt, cell.dialect, cell.variant, cell.numbering)
    made = written(same)
    if made is None:
        return "position refuses what book writes"
    if made[1] != text:
        book, position = text.splitlines(), made[1].splitlines()
        diff = [(b, p) for b, p in zip(book, position, strict=False) if b != p]
        return (f"book and position differ ({len(book)} and {len(position)} lines): "
                f"first book {diff[0][0]!r} vs position {diff[0][1]!r}" if diff else
                f"book {len(book)} lines, position {len(position)}")
    return None


@families_for("book_equals_position")
def test_book_equals_position(name: str, part: str, full: bool) -> None:
    run_cells("book_equals_position", name, part, full, book_cells(name),
              check_book_equals_position)


# -- which ---------------------------------------------------------------------------


def _which(texts: list[str]) -> tuple[list[dict[str, object]], str]:
    out, err, code = cli("which", "-f", "json", "-", stdin="\n".join(texts) + "\n")
    if code not in (0, 1) or not out:
        return [], f"exit {code}: {err[:300]!r}"
    return json.loads(out), err


def which_cells(name: str) -> Iterator[Combo]:
    """The texts ``which`` reads: letters, glyphs, and each dialect's FEN."""
    yield Combo("position", name, "text")
    yield Combo("position", name, "text", variant="glyphs")
    for dialect in DIALECTS:
        yield Combo("position", name, "fen", dialect)


def check_which(cell: Combo, ids: list[int], text: str) -> str | None:
    """``which`` names the family with each id, in every numbering."""
    fam = family(cell.family)
    if cell.fmt == "text" and _subsets(cell.family):
        return None  # ranks carry no castling field, which tells these positions apart
    lines = [t[0] for t in items(cell.fmt, text)]
    answers, err = _which(lines)
    if len(answers) != len(ids):
        return f"which: expected {len(ids)} answers, got {len(answers)}: {err}"
    fam = family(cell.family)
    problems = []
    for number, line, answer in zip(ids, lines, answers, strict=True):
        want = {n: s.text(number) for n, s in fam.schemes.items()}
        found = [f for f in answer["families"]  # type: ignore[attr-defined]
                 if f["family"] == cell.family]
        got = found[0]["numberings"] if found else None
        if got != want:
            problems.append(f"which {line!r}: expected {cell.family} {want}, got {got}")
    return "; ".join(problems) or None


def written_which(cell: Combo) -> tuple[list[int], str] | None:
    if cell.variant == "glyphs":  # letters as glyphs: position -u
        ids = sample_ids(cell.family)
        out, err, code = cli("position", "-r", cell.family, "-u",
                             *labels(cell.family, ids, None))
        return None if _refused(cell, (out, err, code)) else (ids, out)
    return written(cell)


@families_for("which")
def test_which_names_the_family_in_every_numbering(name: str, part: str, full: bool) -> None:
    failures = []
    for cell in cells_of("which", name, part, full, which_cells(name)):
        made = written_which(cell)
        if made is not None:
            problem = check_which(cell, *made)
            if problem:
                failures.append(f"{cell}: {problem}")
    assert not failures, "\n".join(failures)


@families_for("one_answer")
def test_one_answer_for_letters_glyphs_and_fens(name: str, part: str, full: bool) -> None:
    """One position written every way gets one answer from ``which`` and from ``id``:
    letters and glyphs name the same families, every FEN dialect the same ones,
    and each form names this family with the position's id. (A rank says less than
    a FEN, which also gives the board and the castling, so a rank may fit more
    families than its FEN.)"""
    fam = family(name)
    if part == "rest" and _known("one_answer", name):
        return  # the whole check is the known part
    if full or name == SAMPLE[0]:
        for number in sample_ids(name)[:2 if full else 1]:
            position = fam.position(number)
            ranks: list[str] = [cli("position", "-r", name, str(number))[0].strip(),
                                cli("position", "-r", name, "-u", str(number))[0].strip()]
            fens: list[str] = []
            for dialect in DIALECTS:
                out, _err, code = cli("position", "-r", name, "-f", "fen", "--dialect", dialect,
                                      str(number))
                if code == 0:
                    fens.append(out.strip())
            for forms in (ranks, fens):
                answers = [_which([form])[0] for form in forms]
                shapes = [[(f["family"], f["numberings"]) for f in a[0]["families"]]
                          if a else None for a in answers]
                assert all(s == shapes[0] for s in shapes), \
                    (name, number, list(zip(forms, shapes, strict=True)))
                for form, shape in zip(forms, shapes, strict=True):
                    assert shape and name in [f for f, _ in shape], (name, form, shape)
            forms = fens if _subsets(name) else ranks + fens  # a rank has no castling field
            ids = [cli("id", "-r", name, form)[0].strip() for form in forms]
            assert ids == [str(position.id)] * len(forms), \
                (name, list(zip(forms, ids, strict=True)))


# -- compare: a whole-family listing or book is complete -----------------------------


def whole_cells(name: str) -> Iterator[Combo]:
    if family(name).count > WHOLE_MAX:
        return
    for fmt in ("fen", "shredder", "epd"):  # (compare reads no `<id> <rank>` line)
        yield Combo("solve", name, fmt)
    for fmt in ("fen", "shredder", "epd"):
        for dialect in DIALECTS:
            yield Combo("book", name, fmt, dialect)


def check_compare(cell: Combo) -> str | None:
    args = ["book" if cell.command == "book" else "solve", "-r", cell.family, "-f", cell.fmt,
            "--dialect", cell.dialect]
    out, err, code = cli(*args)
    if _refused(cell, (out, err, code)):
        return None
    got = cli("compare", "-", "-r", cell.family, "-f", "json", stdin=out)
    if got[2] != 0:
        return f"compare: expected a complete family, got exit {got[2]}: {got[0][:400]!r}"
    return None


@families_for("compare_whole")
def test_compare_finds_whole_listings_complete(name: str, part: str, full: bool) -> None:
    if not full and name != SAMPLE[0]:
        return  # the sample lists one family whole
    failures = [f"{cell}: {problem}"
                for cell in cells_of("compare_whole", name, part, full, whole_cells(name))
                if (problem := check_compare(cell))]
    assert not failures, "\n".join(failures)


# -- games stats and games tag over the PGN written ----------------------------------


def check_games(cell: Combo, ids: list[int], text: str) -> str | None:
    """``games stats`` counts one game for each id written; ``games tag`` tags each."""
    if cell.fmt != "pgn" or cell.variant is not None or cell.numbering is not None:
        return None
    out, err, code = cli("games", "stats", "-r", cell.family, "-f", "json", "-", stdin=text)
    if code != 0:
        return f"games stats: exit {code}: {err[:300]!r}"
    stats = json.loads(out)
    counted = {row["id"]: row["games"] for row in stats["positions"]}
    want: dict[int, int] = {}
    for number in ids:
        want[number] = want.get(number, 0) + 1
    if counted != want or stats["not_in_family"]["games"]:
        return f"games stats: expected {want}, got {counted}, not in family " \
               f"{stats['not_in_family']['games']}"
    tagged, err, code = cli("games", "tag", "-r", cell.family, "--tag", "Matrix", "-",
                            stdin=text)
    got = re.findall(r'^\[Matrix "(.*)"\]$', tagged, re.MULTILINE)
    fam = family(cell.family)
    # The number alone: the id, or White's and Black's numbers ("DFRC w:b": id = w * n + b).
    want_tags = [f"{i // fam.side_count}:{i % fam.side_count}" if fam.independent else str(i)
                 for i in ids]
    if code != 0 or got != want_tags:
        return f"games tag: expected {want_tags[:6]}, got {got[:6]} (exit {code}, {err[:300]!r})"
    return None


@families_for("games")
def test_games_read_the_pgn_written(name: str, part: str, full: bool) -> None:
    cells = [c for c in write_cells(name, ("position", "random"))
             if c.fmt == "pgn" and c.variant is None and c.numbering is None]
    run_cells("games", name, part, full, cells, check_games)


# -- convert -------------------------------------------------------------------------


@families_for("convert")
def test_convert_round_trips_every_pair_of_numberings(name: str, part: str, full: bool) -> None:
    fam = family(name)
    ids = sample_ids(name)
    failures = []
    for source in fam.schemes:
        for target in fam.schemes:
            cell = Combo("convert", name, "text", numbering=f"{source}->{target}")
            if any(k.covers(cell) for k in _known("convert", name)) != (part == "known"):
                continue
            given_ = labels(name, ids, source)
            out, err, code = cli("convert", "-r", name, "--from", source, "--to", target,
                                 *given_)
            want = labels(name, ids, target)
            back, err2, code2 = cli("convert", "-r", name, "--from", target, "--to", source,
                                    *out.splitlines())
            if (code, out.splitlines(), code2, back.splitlines()) != (0, want, 0, given_):
                failures.append(f"convert {source} -> {target}: expected {want}, got "
                                f"{out.splitlines()} and back {back.splitlines()} "
                                f"({err[:200]!r} {err2[:200]!r})")
            # position in the source numbering is position in the target's
            pos_source = cli("position", "-r", name, "--numbering", source, *given_)
            pos_target = cli("position", "-r", name, "--numbering", target, *want)
            if pos_source != pos_target:
                failures.append(f"position --numbering {source} {given_} gives "
                                f"{pos_source[0].split()}, --numbering {target} {want} "
                                f"{pos_target[0].split()}")
    assert not failures, "\n".join(failures)


# -- plan ----------------------------------------------------------------------------


def plan_cells(name: str) -> Iterator[Combo]:
    fam = family(name)
    for fmt in PLAN_FORMATS:
        for variant, dialect in STYLES:
            yield Combo("plan", name, fmt, dialect, variant)
        for numbering in fam.schemes:
            if numbering != fam.scheme().name:
                yield Combo("plan", name, fmt, numbering=numbering)


def _plan_rows(fmt: str, text: str) -> list[list[str]]:
    if fmt == "csv":
        import csv
        import io

        return list(csv.reader(io.StringIO(text)))[1:]
    return [[cell.strip() for cell in line.strip("|").split("|")]
            for line in text.splitlines()[2:] if line.startswith("|")]


def check_plan(cell: Combo) -> str | None:
    """Each round's id, rank and FEN name one position of the family."""
    args = ["plan", "-r", cell.family, "--rounds", str(DRAWN), "--seed", SEED, "-f", cell.fmt,
            *cell.style_args(), *cell.numbering_args()]
    answer = cli(*args)
    if _refused(cell, answer):
        return None
    rows = _plan_rows(cell.fmt, answer[0])
    drawn = cli("random", "-r", cell.family, "--seed", SEED, "-n", str(DRAWN), "--distinct",
                "-f", "json")
    if len(rows) != DRAWN:
        return f"plan: expected {DRAWN} rounds, got {answer[0][:300]!r}"
    problems = []
    for row in rows:
        label, rank, fen = row[1], row[2], row[3]
        read = []
        if not _subsets(cell.family):
            read.append(cli("id", "-r", cell.family, *cell.numbering_args(), rank)[0].strip())
        if cell.variant is None:
            read.append(cli("id", "-r", cell.family, *cell.numbering_args(), fen)[0].strip())
        else:
            problem = _lint(["-r", cell.family, "--variant", cell.variant, "--dialect",
                             cell.dialect], fen + "\n", 1)
            if problem:
                problems.append(problem)
        if read != [label] * len(read):
            problems.append(f"round {row[0]}: id {label!r}, rank and FEN read as {read}")
    del drawn
    return "; ".join(problems) or None


@families_for("plan")
def test_plan_rows_read_back(name: str, part: str, full: bool) -> None:
    failures = [f"{cell}: {problem}"
                for cell in cells_of("plan", name, part, full, plan_cells(name))
                if (problem := check_plan(cell))]
    assert not failures, "\n".join(failures)


# -- the installed command -------------------------------------------------------------


def test_the_installed_command_answers_as_the_library() -> None:
    """A sample of the matrix through the ``chess960`` process (its start-up fast
    path included): the same bytes as in this process, read back the same way."""
    ids = [str(i) for i in sample_ids("chess960")]
    epd = ("position", "-f", "epd", "--dialect", "shredder", *ids)
    pgn = ("position", "-r", "seirawan960", "-f", "pgn", *ids)
    for args in (epd, pgn):
        assert cli_process(*args) == cli(*args)
    assert cli_process("id", "-", stdin=cli(*epd)[0])[0].split() == ids
    done = cli_process("lint", "-r", "seirawan960", "-", stdin=cli(*pgn)[0])
    assert done[2] == 0 and done[0].endswith(f"{len(ids)} start positions, 0 problems\n"), done


# -- generated families ------------------------------------------------------------------


@st.composite
def generated_families(draw: st.DrawFn) -> str:
    """A small rule file: a board of 5 to 8 files, its pieces, a rule or two, a
    castling rule, how the sides relate, and a hand."""
    files = draw(st.integers(5, 8))
    rest = draw(st.lists(st.sampled_from("QRBNAC"), min_size=files - 3, max_size=files - 3))
    pieces = "KRR" + "".join(rest)
    sides = draw(st.sampled_from(["mirror", "rotate", "independent"]))
    castling = draw(st.sampled_from(["rooks", "none", "subsets"]))
    if castling == "subsets" and sides != "independent":
        castling = "rooks"
    hand = draw(st.sampled_from([None, "", "Q"]))
    text = (f'name = "generated"\ntitle = "t"\nsource = "s"\nfiles = {files}\n'
            f'pieces = "{pieces}"\ncount = 0\nsides = "{sides}"\ncastling = "{castling}"\n')
    if hand is not None:
        text += f'hand = "{hand}"\n'
    rules = draw(st.sampled_from([
        "", '[[rule]]\nkind = "between"\npiece = "K"\npair = "RR"\n',
        '[[rule]]\nkind = "not-adjacent"\npieces = "RR"\n',
        '[[rule]]\nkind = "on-files"\npiece = "K"\nfiles = "bcd"\n']))
    return text + rules


@settings(max_examples=4, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=generated_families(), fmt=st.sampled_from(list(FORMATS)),
       dialect=st.sampled_from(list(DIALECTS)))
def test_generated_families_read_back(tmp_path_factory: pytest.TempPathFactory, text: str,
                                      fmt: str, dialect: str) -> None:
    """A generated family's positions, in any format and dialect, read back by
    ``id`` and (FEN, EPD, PGN) pass ``lint -r`` and ``compare``."""
    try:
        fam = Family(parse(text, "generated.toml"))
        count = fam.total()
    except Chess960Error:
        return  # a family the language refuses (checked by test_fuzz)
    if count == 0 or count > WHOLE_MAX:
        return
    path = tmp_path_factory.mktemp("generated") / "generated.toml"
    path.write_text(text.replace("count = 0", f"count = {count}"), encoding="utf-8")
    rules = str(path)
    ids = [str(i) for i in sorted({0, count - 1, count // 2})]
    out, err, code = cli("position", "-r", rules, "-f", fmt, "--dialect", dialect, *ids)
    if code != 0:
        assert err.startswith("error:") and err.count("\n") == 1, err
        return
    found = items(fmt, out)
    lines = [t for group in found for t in group]
    read = cli("id", "-r", rules, "-", stdin="\n".join(lines) + "\n")
    assert read[0].split() == [i for i in ids for _ in found[0]], (text, fmt, dialect, read)
    if fmt in LINTED:
        assert _lint(["-r", rules], out, len(ids)) is None, (text, fmt, dialect)
        whole = cli("solve", "-r", rules, "-f", fmt if fmt != "pgn" else "fen",
                    "--dialect", dialect)
        assert cli("compare", "-", "-r", rules, stdin=whole[0])[2] == 0, (text, fmt, dialect)


# -- the reproductions the matrix was asked to catch, as they were reported ------------------


def test_which_finds_wild3_from_letters() -> None:
    answers, err = _which(["KQQQQQQQ"])
    assert answers and "wild3" in [f["family"] for f in answers[0]["families"]], err


def test_which_reads_letters_and_glyphs_alike() -> None:
    assert _which(["RNBQKBNR"])[0][0]["families"] == _which(["♖♘♗♕♔♗♘♖"])[0][0]["families"]


def test_lint_reads_a_random_chess324x16_book() -> None:
    """As reported: no line of random's book (repeats and all) has its id called wrong;
    without repeats, no problem at all."""
    out = cli("random", "-r", "chess324x16", "-n", "500", "--seed", SEED, "-f", "epd")[0]
    report = cli("lint", "-r", "chess324x16", "-", stdin=out)[0]
    assert "is wrong" not in report, report[:2000]
    out = cli("random", "-r", "chess324x16", "-n", "500", "--distinct", "--seed", SEED,
              "-f", "epd")[0]
    assert _lint(["-r", "chess324x16"], out, 500) is None


def test_book_and_position_agree_on_wild4() -> None:
    assert cli("book", "-r", "wild4", "--ids", "0-2")[0] == \
        cli("position", "-r", "wild4", "-f", "epd", "0", "1", "2")[0]
