"""`chess960 book` for every bundled family: its lines are `position`'s.

The reference for a line is `chess960 position ID -r F` in the same format
and dialect (the one path from an ID to a position). Beside it, what the
rule files define, checked here from their words: FICS wild 4's link (Black
has White's pieces, as many bishops on dark squares, each rank read as it
would stand on White's first rank, a1 dark) and chess324x16's numbering (id =
variation * 324 + chess324 id, variation v keeping the rights whose bits are
set in 15 - v, bits K Q k q, K the most significant).
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from profiles import sample
from typer.testing import CliRunner

from solver import Chess960Error, Family
from solver.cli.app import app
from solver.idlists import id_ranges
from solver.lists.book import BOOK_FORMATS, book_units, write_book
from solver.lists.compare import compare_path
from solver.notation.dialects import DIALECTS
from solver.output import PositionWriter
from solver.ruleset.reader import rules_dir

FAMILIES = sorted(path.stem for path in rules_dir().glob("*.toml"))
#: Families numbered by counting, whose first look-ups take seconds: slow runs only.
COUNTED_SLOWLY = ("capablanca-random-full", "cutechess-caparandom")
#: A third of the families by default (the rest in the slow run).
QUICK = sample([pytest.param(name, marks=pytest.mark.slow) if name in COUNTED_SLOWLY else name
                for name in FAMILIES], 10)
EPD_ID = re.compile(r' id "(\S+) (\d+)";$')
runner = CliRunner()


def cli(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin, prog_name="chess960")
    return result.exit_code, result.stdout, result.stderr


def sample_ids(family: Family, k: int, seed: int) -> list[int]:
    """``k`` IDs drawn by Python's own generator (not the code's), with both ends."""
    rng = random.Random(f"{family.name} {seed}")
    return sorted({0, family.count - 1, *(rng.randrange(family.count) for _ in range(k))})


def positions(family: Family, ids: list[int], fmt: str, dialect: str) -> str:
    """What ``chess960 position ID... -f fmt --dialect dialect`` writes of the IDs
    (its writer, :class:`~solver.output.PositionWriter`, of :meth:`Family.position`),
    a document an ID (PGN: one game each); raises the error it would report."""
    out = io.StringIO()
    for number in ids:
        with PositionWriter(out, family, fmt, text="rank",  # type: ignore[arg-type]
                            dialect=dialect) as writer:
            writer.write(family.position(number))
    return out.getvalue()


def book_of(family: Family, fmt: str, dialect: str = "xfen", **options: object) -> str:
    out = io.StringIO()
    write_book(family, out, fmt, dialect=dialect, **options)
    return out.getvalue()


def is_dark(file: int) -> bool:
    return file % 2 == 0  # a1 dark, as each rank is read on White's first rank


# -- FICS wild 4 (issue 32) -------------------------------------------------------

def test_wild4_book_lines_are_positions_lines() -> None:
    family = Family.load("wild4")
    ids = sample_ids(family, 40, 1)
    for fmt in ("fen", "epd"):
        assert book_of(family, fmt, ids=",".join(map(str, ids))) == positions(family, ids, fmt,
                                                                            "xfen")
    # the commands themselves, for two IDs
    for number in ids[1:3]:
        code, line, _ = cli("book", "-r", "wild4", "--ids", str(number), "-f", "fen")
        assert (code, line) == cli("position", str(number), "-r", "wild4", "-f", "fen")[:2]


def test_wild4_sample_keeps_the_link() -> None:
    code, book, _ = cli("book", "-r", "wild4", "--sample", "200", "--seed", "s", "-f", "epd")
    assert code == 0 and len(book.splitlines()) == 200
    for line in book.splitlines():
        placement = line.split()[0].split("/")
        black, white = placement[0].upper(), placement[-1]
        assert sorted(black) == sorted(white), line  # same-army
        dark = [sum(1 for f, p in enumerate(rank) if p == "B" and is_dark(f))
                for rank in (white, black)]
        assert dark[0] == dark[1], line  # same-colours B
        assert white.count("K") == 1 and set(white) <= set("KQRBN")
    code, report, _ = cli("lint", "-r", "wild4", "-", stdin=book)
    assert report.splitlines()[-1] == "-: 200 start positions, 0 problems"
    assert code == 0


# -- chess324x16 (issue 33) -----------------------------------------------------

def rights_of(number: int) -> str:
    kept = 15 - number // 324
    return "".join(c for bit, c in zip((8, 4, 2, 1), "KQkq", strict=True) if kept & bit) or "-"


def test_chess324x16_whole_book_is_every_id_with_its_rights() -> None:
    code, book, _ = cli("book", "-r", "chess324x16")
    lines = book.splitlines()
    assert code == 0 and len(lines) == 5184 == 324 * 16
    chess324 = Family.load("chess324")
    for number, line in enumerate(lines):
        fields = line.split()
        assert EPD_ID.search(line).groups() == ("chess324x16", str(number))  # type: ignore[union-attr]
        assert fields[2] == rights_of(number), line
        base = chess324.position(number % 324)
        placement = fields[0].split("/")
        assert (placement[-1], placement[0].upper()) == (base.white, base.black), line


def test_chess324x16_samples_ids_and_workers() -> None:
    code, book, err = cli("book", "-r", "chess324x16", "--sample", "10", "--seed", "x")
    assert code == 0 and err == "" and len(book.splitlines()) == 10
    ids = [int(EPD_ID.search(line).group(2)) for line in book.splitlines()]  # type: ignore[union-attr]
    assert len(set(ids)) == 10 and max(ids) > 323
    assert all(line.split()[2] == rights_of(n) for n, line in zip(ids, book.splitlines(),
                                                                    strict=True))
    family = Family.load("chess324x16")
    assert book_of(family, "fen", ids="320-330,5183") == positions(
        family, [*range(320, 331), 5183], "fen", "xfen")
    halves = [cli("book", "-r", "chess324x16", "--workers", "2", "--worker", k)
              for k in ("1", "2")]
    assert [code for code, _, _ in halves] == [0, 0]
    assert [len(book.splitlines()) for _, book, _ in halves] == [2592, 2592]
    assert sorted(int(EPD_ID.search(line).group(2))  # type: ignore[union-attr]
                  for _, book, _ in halves for line in book.splitlines()) == list(range(5184))


@pytest.mark.parametrize("name", sample(FAMILIES, 5))
def test_a_worker_out_of_range_is_a_usage_error(name: str) -> None:
    for workers, worker in (("2", "3"), ("2", "0"), ("1", "-1")):
        code, out, err = cli("book", "-r", name, "--workers", workers, "--worker", worker)
        assert code == 2 and out == "" and "Traceback" not in err
        assert "--worker" in err


# -- id ranges stay ranges --------------------------------------------------------

# The peak of the resident memory, in KiB on Linux (tracemalloc would say the same
# of Python's allocations, at ten times the run's time).
LISTED_NEVER = """
import resource
from solver import Family
from solver.idlists import id_ranges
from solver.lists.book import book_text

family = Family.load("wild4")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
first = next(book_text(family, "epd", ids="0-149320543"))
ids = id_ranges(family, ["0-149320543,5,7-9"])
print(first.splitlines()[0], len(ids), ids[-1], 149320543 in ids)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 << 10)
"""


def limited(argv: list[str]) -> subprocess.CompletedProcess[bytes]:
    """``argv`` run with at most 1 GiB of address space (a list of every ID
    of wild4 would take several), this tree first on the path."""
    def limit() -> None:  # pragma: no cover - in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(argv, capture_output=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
                          preexec_fn=limit)


def test_a_range_as_long_as_wild4_is_never_listed() -> None:
    done = limited([sys.executable, "-c", LISTED_NEVER])
    assert done.stderr == b""
    assert done.stdout.decode().splitlines() == [
        'knnnnnnn/pppppppp/8/8/8/8/PPPPPPPP/KNNNNNNN w - - id "wild4 0"; '
        "149320544 149320543 True", "True"]


def test_ranges_overlapping_are_each_id_once_in_order() -> None:
    family = Family.load("chess960")
    assert list(id_ranges(family, ["5-7,0-9,3"])) == [5, 6, 7, 0, 1, 2, 3, 4, 8, 9]
    assert book_of(family, "fen", ids="5-7,0-9,3") == positions(
        family, [5, 6, 7, 0, 1, 2, 3, 4, 8, 9], "fen", "xfen")


def test_a_closed_pipe_after_three_lines_of_a_huge_range() -> None:
    script = (f"'{sys.executable}' -m solver book --ids 0-149320543 -r wild4 | head -3; "
              "exit ${PIPESTATUS[0]}")
    done = limited(["bash", "-c", script])
    assert done.stderr == b""
    assert len(done.stdout.splitlines()) == 3
    assert done.stdout.splitlines()[2].endswith(b'id "wild4 2";')


# -- every family ----------------------------------------------------------------

def _admitted(family: Family, fmt: str, dialect: str, ids: list[int]) -> None:
    try:
        expected = positions(family, ids, fmt, dialect)
    except Chess960Error as exc:  # a format or dialect the family does not admit
        with pytest.raises(type(exc)):
            book_of(family, fmt, dialect, ids=",".join(map(str, ids)))
        return
    written = book_of(family, fmt, dialect, ids=",".join(map(str, ids)))
    if fmt == "pgn":
        games = ["[Event" + game for game in written.split("[Event")[1:]]
        wanted = ["[Event" + game for game in expected.split("[Event")[1:]]
        assert [g.strip() for g in games] == [g.strip() for g in wanted], (family.name, dialect)
    else:
        assert written == expected, (family.name, fmt, dialect)


@pytest.mark.parametrize("name", QUICK)
def test_book_lines_are_position_lines_in_every_format_and_dialect(name: str) -> None:
    family = Family.load(name)
    ids = sample_ids(family, 2, 2)
    for fmt in BOOK_FORMATS:
        for dialect in DIALECTS:
            _admitted(family, fmt, dialect, ids)


def _line_format(family: Family) -> str:
    return "fen" if family.ruleset.layout.notation == "sfen" else "epd"


@pytest.mark.parametrize("name", sample([
    pytest.param(name, marks=pytest.mark.slow)
    if name in COUNTED_SLOWLY else name for name in FAMILIES], 6))
def test_a_sample_book_lints_clean(name: str) -> None:
    family = Family.load(name)
    fmt = _line_format(family)
    n = min(200, family.count)
    code, book, _ = cli("book", "-r", name, "--sample", str(n), "--seed", "s", "-f", fmt)
    assert code == 0
    code, report, _ = cli("lint", "-r", name, "-", stdin=book)
    assert report.splitlines()[-1] == f"-: {n} start positions, 0 problems"
    assert code == 0


@pytest.mark.parametrize("name", QUICK)
def test_a_sample_book_is_what_each_family_reads_back(name: str) -> None:
    family = Family.load(name)
    fmt = _line_format(family)
    for line in book_of(family, fmt, sample=min(50, family.count), seed="s").splitlines():
        found = family.identify(line)
        if fmt == "epd":
            assert EPD_ID.search(line).group(2) == str(found.id), line  # type: ignore[union-attr]
        else:
            assert family.position(found.id).white == found.white


#: The whole book compared with the family (compare reads each line: slow past this).
COMPARED = 25_000
#: The whole book's lines counted (its writing is fast up to this).
COUNTED = 1_000_000


@pytest.mark.slow
@pytest.mark.parametrize("name", FAMILIES)
def test_the_whole_family_book_has_count_lines_and_is_complete(name: str,
                                                               tmp_path: Path) -> None:
    family = Family.load(name)
    if family.count > COUNTED:
        pytest.skip(f"{name} has {family.count:,} positions")
    fmt = _line_format(family)
    target = tmp_path / f"{name}.{fmt}"
    code, _, _ = cli("book", "-r", name, "-f", fmt, "-o", str(target))
    assert code == 0
    code, count, _ = cli("solve", "-r", name, "--count")
    with target.open() as lines:
        assert sum(1 for _ in lines) == int(count.split()[0].replace(",", ""))
    if family.count <= COMPARED or name == "dfrc":
        assert compare_path(str(target), family).same


def test_mirror_pairs_of_linked_and_castling_variation_families() -> None:
    # chess324x16's king stands on e: no mirror is in the family, each position alone
    units = list(book_units(Family.load("chess324x16"), pairs="mirror"))
    assert len(units) == 5184 and {len(u) for u in units} == {1}
    # wild4: the mirror of both ranks keeps the link (each colour's bishops swap alike)
    family = Family.load("wild4")
    pairs = [u for u in book_units(family, ids="0-500,5000000-5000500", pairs="mirror")
             if len(u) == 2]
    assert len(pairs) > 250
    for first, second in pairs:
        one, other = family.position(first), family.position(second)
        assert (other.white, other.black) == (one.white[::-1], one.black[::-1])
