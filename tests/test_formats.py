"""``--format text|json|csv|fen|shredder|pgn`` on solve, id, position and random.

Exact stdout, stderr and exit code through typer's CliRunner; expected
output written out by hand from the FENs quoted in issue 4.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from itertools import islice

import pytest
from inprocess import chess960
from profiles import sample
from typer.testing import CliRunner

from solver.cli.app import app
from solver.lists.book import _Whites  # the slice of pairs a book writes
from solver.position import Mirrored, Pairs, Position

runner = CliRunner()

F518 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
S518 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
F105 = "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1"
S105 = "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1"
F0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
S0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"

JSON_518_105 = (
    "[\n"
    f'{{"id": 518, "rank": "RNBQKBNR", "fen": "{F518}", "shredder_fen": "{S518}", '
    '"family": "chess960"},\n'
    f'{{"id": 105, "rank": "QNRBBNKR", "fen": "{F105}", "shredder_fen": "{S105}", '
    '"family": "chess960"}\n'
    "]\n"
)
CSV_518_105 = (
    "id,rank,fen,shredder_fen,family\n"
    f"518,RNBQKBNR,{F518},{S518},chess960\n"
    f"105,QNRBBNKR,{F105},{S105},chess960\n"
)


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_position_json() -> None:
    assert run("position", "518", "105", "--format", "json") == (0, JSON_518_105, "")
    assert json.loads(JSON_518_105)[1]["shredder_fen"] == S105


def test_position_csv() -> None:
    assert run("position", "518", "105", "-f", "csv") == (0, CSV_518_105, "")


def test_id_json_and_csv() -> None:
    assert run("id", "RNBQKBNR", S105, "--format", "json") == (0, JSON_518_105, "")
    assert run("id", F518, "QNRBBNKR", "--format", "csv") == (0, CSV_518_105, "")


def test_random_json_and_csv() -> None:
    keep_only_105 = ",".join(str(i) for i in range(960) if i != 105)
    one = ("[\n"
           f'{{"id": 105, "rank": "QNRBBNKR", "fen": "{F105}", "shredder_fen": "{S105}", '
           '"family": "chess960"}\n'
           "]\n")
    assert run("random", "--exclude", keep_only_105, "--format", "json") == (0, one, "")
    assert run("random", "-x", keep_only_105, "-n", "2", "-f", "csv") == (
        0, f"id,rank,fen,shredder_fen,family\n105,QNRBBNKR,{F105},{S105},chess960\n"
           f"105,QNRBBNKR,{F105},{S105},chess960\n", "")
    assert run("random", "-x", keep_only_105) == (0, "105 QNRBBNKR\n", "")
    assert run("random", "-x", keep_only_105, "-f", "shredder") == (0, S105 + "\n", "")


def test_independent_sides_columns() -> None:
    number = 518 * 960 + 105  # White's id first
    fen = F105.replace("QNRBBNKR", "RNBQKBNR")
    shredder = fen.replace("KQkq", "HAhc")
    assert run("position", "-r", "dfrc", str(number), "-f", "csv") == (
        0, "id,rank,black_rank,fen,shredder_fen,family\n"
           f"{number},RNBQKBNR,qnrbbnkr,{fen},{shredder},dfrc\n", "")
    assert run("position", "-r", "dfrc", str(number), "-f", "json") == (
        0, "[\n"
           f'{{"id": {number}, "rank": "RNBQKBNR", "black_rank": "qnrbbnkr", "fen": "{fen}", '
           f'"shredder_fen": "{shredder}", "family": "dfrc"}}\n'
           "]\n", "")


def test_text_stays_the_default() -> None:
    assert run("position", "518", "105") == (0, "RNBQKBNR\nQNRBBNKR\n", "")
    assert run("position", "518", "-f", "text") == (0, "RNBQKBNR\n", "")
    assert run("id", "RNBQKBNR", "QNRBBNKR") == (0, "518\n105\n", "")
    assert run("position", "-r", "dfrc", "497798") == (0, "RNBQKBNR rnbqkbnr\n", "")
    assert run("position", "518", "--unicode") == (0, "♖♘♗♕♔♗♘♖\n", "")


def test_solve_formats() -> None:
    code, out, err = run("solve")
    assert (code, err) == (0, "")
    assert out.splitlines()[:1] == ["0 BBQNNRKR"] and out.splitlines()[518] == "518 RNBQKBNR"
    code, out, err = run("solve", "--format", "csv")
    lines = out.splitlines()
    assert (code, err, len(lines)) == (0, "", 961)
    assert lines[0] == "id,rank,fen,shredder_fen,family"
    assert lines[1] == f"0,BBQNNRKR,{F0},{S0},chess960"
    code, out, _ = run("solve", "-f", "json")
    rows = json.loads(out)
    assert len(rows) == 960 and rows[518]["fen"] == F518 and rows[959]["id"] == 959
    code, out, _ = run("solve", "-f", "fen")
    assert out.splitlines()[518] == F518


def test_pgn_blocks() -> None:
    roster = ('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
              '[White "?"]\n[Black "?"]\n[Result "*"]\n')
    assert run("position", "518", "105", "-f", "pgn") == (
        0,
        f'{roster}[Variant "Chess960"]\n[SetUp "1"]\n[FEN "{F518}"]\n\n*\n\n'
        f'{roster}[Variant "Chess960"]\n[SetUp "1"]\n[FEN "{F105}"]\n\n*\n',
        "",
    )


def test_errors_keep_the_array_whole() -> None:
    code, out, err = run("position", "518", "960", "105", "-f", "json")
    assert (code, out) == (1, JSON_518_105)
    assert err == "error: chess960 id 960 is out of range 0..959\n"
    code, out, err = run("id", "RNBQKBNR", "XYZ", "QNRBBNKR", "-f", "csv")
    assert (code, out) == (1, CSV_518_105)
    assert err == "error: 'XYZ' has an unknown piece 'X' on a1\n"
    assert run("position", "99999", "-f", "json") == (
        1, "[]\n", "error: chess960 id 99999 is out of range 0..959\n")


def test_unknown_format_is_a_usage_error() -> None:
    assert run("position", "518", "-f", "yaml")[0] == 2


@pytest.mark.slow  # a process under -X importtime; CI's slow step runs it
def test_id_and_position_do_not_import_the_solver_or_rich() -> None:
    code = (
        "import sys\nfrom solver.cli.app import run\n"
        "try:\n    sys.exit(run(sys.argv[1:]))\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'constraint', 'rich', 'json'}),"
        " 'solver.search.solve' in sys.modules)"
    )
    for args in (["id", F105], ["position", "518", "-f", "fen"], ["position", "7", "-f", "pgn"]):
        done = subprocess.run([sys.executable, "-c", code, *args],
                              capture_output=True, text=True, check=True)
        assert done.stdout.splitlines()[-1] == "[] False", args


@pytest.mark.parametrize("unicode", [False, True])
def test_pairs_in_bulk_write_what_writing_each_pair_writes(unicode: bool) -> None:
    """The text writer's block-at-a-time path for independent sides (``Pairs``,
    what ``solve -r dfrc`` writes) against one position at a time, with a
    ``%`` in a rank's text (the blocks are filled by ``%``) and an ID of 6 digits."""
    from solver import Family
    from solver.output import PositionWriter
    from solver.position import Pairs

    family = Family.load("dfrc")
    ranks = family.ranks()[:120] + family.ranks()[-1:]
    odd = [] if unicode else [[*ranks[:3], "R%BQKBNR"]]  # glyphs know no '%'
    for shown in (ranks, *odd):
        pairs = Pairs(shown)
        bulk, single = io.StringIO(), io.StringIO()
        with PositionWriter(bulk, family, "text", unicode=unicode) as writer:
            writer.write_rows(pairs)
        assert writer.count == len(pairs) == len(shown) ** 2
        with PositionWriter(single, family, "text", unicode=unicode) as writer:
            for number, white, black in pairs:
                writer.write(Position(number, white, black))
        assert bulk.getvalue() == single.getvalue()


@pytest.mark.parametrize("name", sample(["chess324", "chess960", "racing-kings", "dfrc",
                                         "capablanca-random"], 2))
@pytest.mark.parametrize("unicode", [False, True])
def test_a_listing_in_bulk_writes_what_writing_each_position_writes(
        name: str, unicode: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``write_rows`` (what ``solve`` calls: a mirrored family's ranks in blocks,
    :class:`Mirrored`) against ``write`` one position at a time, over more rows
    than a block of the bulk writers and than the ranks their parts are kept
    for (both made small here), which stay bounded."""
    from solver import Family
    from solver.output import FORMATS, PositionWriter, base

    monkeypatch.setattr(base, "PARTS_MEMO", 100)
    monkeypatch.setattr(base, "LINES", 300)
    family = Family.load(name)
    many = name == "dfrc"  # text only, over more rows than a block of its writer
    rows = list(islice(family.numbered(), 20_000 if many else 1000))

    def mirrored() -> Mirrored:  # as ``solve`` lists a mirrored family: blocks of ranks
        ranks = [white for _, white, _ in rows]
        return Mirrored(iter([ranks[:350], ranks[350:]]), family.ruleset.layout.black_rank)

    assert family.independent or list(mirrored()) == rows
    for fmt in ["text"] if many else FORMATS:
        if fmt in ("epd", "pgn") and not family.layout.standard:
            continue
        bulk, single = io.StringIO(), io.StringIO()
        with PositionWriter(bulk, family, fmt, unicode=unicode) as writer:
            writer.write_rows(iter(rows) if family.independent else mirrored())
        assert writer.count == len(rows)
        for parts in [*writer.writer._parts.values(), *(writer.writer._records or ())]:
            assert len(parts._tops) <= 100 and len(parts._rights) <= 100
        assert all(len(kept) <= 100 for kept in writer.writer._kept.values())
        with PositionWriter(single, family, fmt, unicode=unicode) as writer:
            for number, white, black in rows:
                writer.write(Position(number, white, black, family.layout))
        assert bulk.getvalue() == single.getvalue(), (name, fmt)


def _styles() -> list[tuple[str, str | None]]:
    from solver.notation.dialects import DIALECTS
    from solver.notation.variants import VARIANTS

    return [(dialect, variant) for dialect in DIALECTS for variant in [None, *VARIANTS]]


def _listings(name: str) -> list[list[tuple[int, str, str]] | Pairs]:
    """Listings of a family to write: pairs of ranks with no castling rights
    (``-``, or only one side's), one not of letters (written whole) and IDs of
    6 digits for independent sides, as a :class:`Pairs` listing, a slice of
    one and plain rows; for the rest the first rows, then such ranks."""
    from solver import Family

    family = Family.load(name)
    first = family.ranks()[:3] if family.layout.standard else [
        w for _, w, _ in islice(family.numbered(), 3)]
    width = len(first[0])
    odd = [("RRKQBBNN" + "AC" * 4)[:width], ("KRRNNBBQ" + "CA" * 4)[:width]]
    if family.independent:
        ranks = [*first, *odd, first[-1]]
        return [Pairs(ranks), Pairs([*ranks[:2], "R " + ranks[0][2:]]),
                _Whites(ranks, range(2, 5)), [(n + 400_000, w, b) for n, w, b in Pairs(ranks)]]
    rows = list(islice(family.numbered(), 30))
    turn = family.ruleset.layout.black_rank
    extra = [*odd, "R " + first[0][2:]] if family.layout.standard else []
    return [rows + [(90_000 + i, r, turn(r)) for i, r in enumerate(extra)]]


BULK_FAMILIES = ["dfrc", "chess960", "racing-kings", "capablanca-random", "chess324x16",
                 "capahouse960", "horde960"]


@pytest.mark.parametrize("name", sample(BULK_FAMILIES, 2))
def test_every_format_dialect_and_variant_in_bulk_writes_what_each_position_writes(
        name: str) -> None:
    """``write_rows`` (what ``solve`` and ``book`` call: a pair listing,
    :class:`Pairs`, or a slice of one, for independent sides; a listing's rows
    otherwise) against ``write`` one position at a time, in every format,
    dialect and variant the family can be written in, twice into one writer
    (a document is opened once), with and without glyphs: mirrored families,
    independent sides, 10 files, castling variations, hands, boards of their own."""
    from solver import Family
    from solver.errors import Chess960Error
    from solver.output import FORMATS, PositionWriter

    family = Family.load(name)
    listings = _listings(name)
    tried = 0
    for fmt in FORMATS:
        for dialect, variant in _styles():
            for unicode in ([False, True] if fmt in ("text", "json", "csv") and
                            dialect == "xfen" and variant is None else [False]):
                for twice, rows in enumerate(listings[:1] * 2 + listings[1:]):
                    bulk, single = io.StringIO(), io.StringIO()
                    try:
                        with PositionWriter(bulk, family, fmt, dialect=dialect,
                                            variant=variant, unicode=unicode) as writer:
                            writer.write_rows(rows)
                            if twice == 1:
                                writer.write_rows(rows)
                    except Chess960Error:  # a style the family cannot be written in
                        continue
                    written = [*rows, *rows] if twice == 1 else list(rows)
                    assert writer.count == len(written)
                    with PositionWriter(single, family, fmt, dialect=dialect,
                                        variant=variant, unicode=unicode) as writer:
                        for number, white, black in written:
                            writer.write(Position(number, white, black, family.layout))
                    assert bulk.getvalue() == single.getvalue(), (fmt, dialect, variant, rows)
                    tried += 1
    styles = 7 * (len(listings) + 1)
    styles *= 1 if not family.layout.standard else 5 if family.ruleset.files == 10 else 20
    assert tried >= styles, tried


def test_fen_parts_join_what_start_fen_writes() -> None:
    """Each rank's parts joined (:class:`FenParts`) against the whole FEN
    :func:`~solver.notation.dialects.start_fen` writes, in every dialect and
    variant, for pairs of every width's ranks with castling rights on both,
    one or neither side, in either case, with and without move counters;
    every style splits but Horde's (Black's rank alone) and those a program
    does not play, which are written whole, refused as ``start_fen`` refuses them."""
    from solver.errors import DialectError
    from solver.notation.dialects import start_fen
    from solver.output.base import FenParts

    ranks = ["QNRBBNKR", "RRKQBBNN", "NRKQBBNR", "RKRNNQBB", "RNBQKBNR", "BBNNRKRQ",
             "qnrbbnkr", "RNABQKBCNR", "RRKQBBNNAC", "ACRKRQBBNN", "RKR", "K"]
    whole = set()
    for dialect, variant in _styles():
        for counters in (True, False):
            parts = FenParts(dialect, variant, counters)
            for files in (8, 10):
                if parts.sides(files) is None:
                    whole.add((dialect, variant, files))
            for white in ranks:
                for black in ranks:
                    if len(white) != len(black):
                        continue
                    try:
                        expected = start_fen(white, black, variant=variant, dialect=dialect,
                                             counters=counters)
                    except DialectError as error:
                        with pytest.raises(DialectError, match=str(error)):
                            parts.fen(white, black)
                        continue
                    assert parts.fen(white, black) == expected, (white, black, dialect, variant)
    played = {("lichess", v) for v in ("bughouse", "seirawan", "capablanca")}
    for dialect, variant in _styles():
        files = 10 if variant == "capablanca" else 8
        split = (dialect, variant, files) not in whole
        assert split == (variant != "horde" and (dialect, variant) not in played), (
            dialect, variant)
        assert (dialect, None, 8) not in whole
        assert ((dialect, None, 10) not in whole) == (dialect != "lichess")


def _installed() -> str:
    import os
    import shutil
    from pathlib import Path

    found = os.environ.get("CHESS960_COMMAND") or shutil.which(
        "chess960", path=str(Path(sys.executable).parent)) or shutil.which("chess960")
    assert found, "the chess960 command is not installed"
    return found


@pytest.mark.parametrize(("fmt", "dialect"), [("fen", "xfen"), ("shredder", "xfen"),
                                              ("epd", "shredder")])
def test_chess960_lines_by_arithmetic_are_what_the_family_writes(fmt: str, dialect: str) -> None:
    """``id -`` and ``position -`` in a line format answer Chess960 by arithmetic
    (no family loaded); each line is what the family's own writer writes of the
    position, texts the arithmetic does not answer (lower case, a FEN, a pair,
    ``05``) go to the family, and bad lines get an error and nothing on stdout."""
    from solver import Family
    from solver.errors import Chess960Error
    from solver.output import PositionWriter

    family = Family.load("chess960")
    texts = {
        "id": ["QNRBBNKR", "qnrbbnkr", F518, "RNBQKBNR RNBQKBNR", "KRRNNBBQ", "BBQNNRKR",
               "QNRBBNKR"],
        "position": ["105", "0", "05", " 7", "960", "x", "959", "105"],
    }
    for command, given in texts.items():
        expected = io.StringIO()
        with PositionWriter(expected, family, fmt, dialect=dialect) as writer:
            failures = 0
            for text in given:
                try:
                    found = (family.identify(text) if command == "id"
                             else family.position(family.parse_id(text)))
                except Chess960Error:
                    failures += 1
                    continue
                writer.write(found)
        done = chess960([command, "-", "-f", fmt, "--dialect", dialect],
                        stdin="\n".join(given) + "\n")  # the console entry, in this process
        assert done.stdout == expected.getvalue(), (command, fmt)
        assert done.stderr.count("error: line ") == failures > 0, done.stderr
        assert done.returncode == 1


@pytest.mark.slow
def test_fens_of_200_000_chess960_ranks_cost_about_what_their_ids_cost() -> None:
    """``id - -f fen`` and ``position - -f fen`` over 200,000 lines (9.8 s and
    5.8 s before: every line identified and written whole); now the lines
    come from per-rank parts, equal lines answered once."""
    import random
    import resource

    from solver.numbering.scharnagl import scharnagl_rank

    rng = random.Random(25)
    drawn = [rng.randrange(960) for _ in range(200_000)]
    for command, lines in (("id", [scharnagl_rank(i) for i in drawn]),
                           ("position", [str(i) for i in drawn])):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([*_installed().split(), command, "-", "-f", "fen"],
                              input="\n".join(lines) + "\n", capture_output=True, text=True,
                              check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        out = done.stdout.splitlines()
        assert len(out) == 200_000
        rank = scharnagl_rank(drawn[-1])
        assert out[-1] == f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"
        assert cpu < 1.5, (command, cpu)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["epd", "fen"])
def test_a_dfrc_book_costs_about_what_its_text_listing_costs(fmt: str) -> None:
    """``solve -r dfrc -f epd`` (and ``-f fen``): 921,600 lines, 19.6 s (21 s)
    before, written a black rank's block at a time from one template."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([*_installed().split(), "solve", "-r", "dfrc", "-f", fmt],
                          capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    lines = done.stdout.splitlines()
    assert len(lines) == 921_600
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq -"  # White 105, Black 518
    assert lines[105 * 960 + 518].decode() == (
        f'{fen} id "dfrc 101318";' if fmt == "epd" else f"{fen} 0 1")
    assert cpu < 4, cpu


def test_chess960s_lines_by_arithmetic_are_the_writers() -> None:
    """``id`` and ``position`` write Chess960's FEN, Shredder-FEN and EPD lines by
    arithmetic, without the writers: every one of the 960, in each format and
    plain dialect, is the writer's line."""
    from solver.family import Family
    from solver.numbering.shortcut import arithmetic_line
    from solver.output import FORMATS

    family = Family.load("chess960")
    positions = [family.position(number) for number in range(960)]
    for fmt in ("fen", "shredder", "epd"):
        for dialect in ("xfen", "shredder"):
            writer = FORMATS[fmt](io.StringIO(), family, dialect=dialect)
            line = arithmetic_line(fmt, dialect)
            for position in positions:
                assert line(position.id, position.white) == writer.line(position), \
                    (position.id, fmt, dialect)
