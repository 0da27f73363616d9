"""The castling linter: clean on the tool's books, finds hand-broken fields, rewrites them.

Oracles: a brute force written here (the outermost rook on each side of a
king between two rooks) and python-chess (test-only) reading the rewritten
lines.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import Any

import inprocess
import pytest
from profiles import sample

from solver.errors import InputFileError
from solver.family import Family
from solver.lists.lint import lint_path, lint_text
from solver.notation.dialects import DIALECTS
from solver.output import FORMATS, PositionWriter


def write(name: str, fmt: str, ids: list[int], dialect: str = "xfen") -> str:
    family = Family.load(name)
    out = io.StringIO()
    with PositionWriter(out, family, fmt, dialect=dialect) as writer:
        for number in ids:
            writer.write(family.position(number))
    return out.getvalue()


def rooks(rank: str) -> list[int]:
    king = rank.index("K")
    left = [f for f in range(king) if rank[f] == "R"]
    right = [f for f in range(king + 1, len(rank)) if rank[f] == "R"]
    return [left[0], right[-1]] if left and right else []


def ranks(fen: str) -> tuple[str, str]:
    rows = fen.split(maxsplit=1)[0].split("/")
    return rows[-1], rows[0].upper()


def chess960(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """``chess960 ARGS`` as the console command answers (in this process: what
    lint reads and says is the point here, not the process)."""
    done = inprocess.chess960(args, stdin=stdin)
    return done.returncode, done.stdout, done.stderr


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """``chess960 lint ARGS`` (in this process)."""
    return chess960("lint", *args, stdin=stdin)


@pytest.mark.parametrize(("name", "fmt", "dialect"), [
    ("chess960", "fen", "xfen"), ("chess960", "epd", "shredder"), ("chess960", "pgn", "xfen"),
    ("dfrc", "epd", "xfen"), ("shuffle", "shredder", "xfen"),
    ("capablanca-random", "epd", "shredder"),
])
def test_books_written_by_the_tool_are_clean(name: str, fmt: str, dialect: str) -> None:
    family = Family.load(name)
    ids = list(range(0, family.count, max(1, family.count // 300)))
    report = lint_text(write(name, fmt, ids, dialect), "book")
    assert (report.positions, report.problems) == (len(ids), 0)


def broken_book() -> tuple[str, set[int]]:
    """A shuffle book with KQkq everywhere, one mixed field and one missing right."""
    lines = write("shuffle", "fen", list(range(0, 5040, 37))).splitlines()
    wrong = set()
    out = []
    for number, written in enumerate(lines, 1):
        line = re.sub(r" w \S+ ", " w KQkq ", written)
        if not rooks(ranks(line)[0]):
            wrong.add(number)
        out.append(line)
    out.append(write("chess960", "shredder", [105]).strip().replace("HChc", "HCh"))
    wrong.add(len(out))
    out.append(write("chess960", "fen", [7]).strip().replace("KQkq", "GQge"))
    wrong.add(len(out))
    return "\n".join(out) + "\n", wrong


def test_every_broken_field_is_found(tmp_path: Path) -> None:
    text, wrong = broken_book()
    report = lint_text(text, "broken.fen")
    assert {f.line for f in report.findings if f.problem and f.line} == wrong
    path = tmp_path / "broken.fen"
    path.write_text(text)
    code, out, err = run(str(path))
    assert code == 1 and err == "" and out.count("is wrong") + out.count("mixes") >= len(wrong)


@pytest.mark.parametrize("notation", ["xfen", "shredder"])
def test_fix_rewrites_only_the_castling_field(tmp_path: Path, notation: str) -> None:
    chess = pytest.importorskip("chess")
    text, _ = broken_book()
    path = tmp_path / "book.fen"
    path.write_text(text)
    os.chmod(path, 0o640)
    code, _out, _ = run("--fix", notation, str(path))
    assert code == 0
    fixed = path.read_text()
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["book.fen"]
    for before, after in zip(text.splitlines(), fixed.splitlines(), strict=True):
        b, a = before.split(), after.split()
        assert b[:2] + b[3:] == a[:2] + a[3:]
        board = chess.Board(after, chess960=True)
        assert board.status() & chess.STATUS_BAD_CASTLING_RIGHTS == 0
        want = 0
        for rank, row in zip(ranks(after), (0, 7), strict=True):
            for f in rooks(rank):
                want |= chess.BB_SQUARES[row * 8 + f]
        assert board.castling_rights == want
        if notation == "shredder" and a[2] != "-":
            assert a[2].upper() == a[2].upper().strip("KQ")
    assert run(str(path))[0] == 0


def test_fix_that_cannot_replace_the_file_leaves_it_as_it_was(tmp_path: Path) -> None:
    # The project's one atomic writer refuses to replace a symbolic link.
    text, _ = broken_book()
    book = tmp_path / "book.fen"
    book.write_text(text)
    link = tmp_path / "link.fen"
    link.symlink_to(book)
    code, _out, err = run("--fix", "xfen", str(link))
    assert code == 1
    assert err == (f"error: cannot write {str(link)!r}: "
                   "it is a symbolic link (name the file it points to)\n")
    assert book.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.fen", "link.fen"]


def test_fix_in_pgn_and_from_stdin() -> None:
    pgn = write("chess960", "pgn", [105, 518])
    code, out, err = run("--fix", "shredder", "--dialect", "pychess", "-", stdin=pgn)
    assert code == 0 and "2 lines rewritten" in err
    assert out == pgn.replace("w KQkq", "w CHch", 1).replace("w KQkq", "w AHah", 1)


def test_a_book_mixing_notations() -> None:
    text = write("chess960", "fen", [105]) + write("chess960", "shredder", [0])
    report = lint_text(text, "mixed")
    assert report.problems == 1 and "mixes castling notations" in report.findings[0].message


def test_lines_that_are_not_start_positions_are_skipped() -> None:
    text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n# comment\n\n"
    report = lint_text(text)
    # A position after 1.e4: its rights are checked where the pieces stand, no problem.
    assert (report.positions, report.moved, report.problems, len(report.findings)) == \
        (0, 1, 0, 0)
    report = lint_text(text + "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
    assert (report.positions, report.moved, report.problems, report.skipped_lines) == \
        (0, 1, 0, 1)


def test_unreadable_file() -> None:
    code, out, err = run("/nonexistent/book.epd")
    assert (code, out) == (1, "")
    assert err.startswith("error: cannot read '/nonexistent/book.epd'")
    with pytest.raises(InputFileError) as caught:  # a file that cannot be read: not a ValueError
        lint_path("/nonexistent/book.epd")
    assert not isinstance(caught.value, ValueError)


# -- with --rules: membership, duplicates, missing positions, move counters ----------------

GOLDEN = [line.split()[1] for line in
          (Path(__file__).parent / "data" / "chess960.txt").read_text().splitlines()]


def start_fen(white: str, black: str | None = None, castling: str = "KQkq",
              counters: str = "0 1") -> str:
    return (f"{(black or white).lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - "
            f"{counters}")


def both_paths(text: str, tmp_path: Path, **options: object) -> list[str]:
    """The report of lint_text (line by line) and of lint_path (the bulk path by
    ranks), which must agree; returns its lines."""
    book = tmp_path / "book.fen"
    book.write_text(text)
    one = list(lint_text(text, str(book), **options).lines())  # type: ignore[arg-type]
    other = list(lint_path(str(book), **options).lines())  # type: ignore[arg-type]
    assert one == other
    return one


def test_rules_find_positions_outside_the_family_repeats_and_missing_ones(
        tmp_path: Path) -> None:
    chess960 = Family.load("chess960")
    left_out = {5, 77, 900}
    rows = [start_fen(rank) for n, rank in enumerate(GOLDEN) if n not in left_out]
    rows.insert(10, start_fen(GOLDEN[3]))  # line 11 repeats line 4 (id 3)
    rows.append(start_fen("BRBNKQNR"))  # bishops both on dark squares: line 959
    rows.append(start_fen(GOLDEN[518]))  # line 960 repeats 518 (on line 518: 2 left out
    #                                      before it, 1 repeat inserted)
    book = tmp_path / "book.fen"
    lines = both_paths("\n".join(rows) + "\n", tmp_path, family=chess960, complete=True)
    assert lines == [
        f"{book}:11: duplicate: the same chess960 start position as line 4 (chess960 3)",
        f"{book}:959: not a chess960 start position: 'BRBNKQNR' is not a chess960 rank: bishops "
        "on a1 and c1 are both on dark squares (rule opposite-colours BB)",
        f"{book}:960: duplicate: the same chess960 start position as line 518 (chess960 518)",
        f"{book}: the book lacks 3 of the 960 chess960 positions: 5, 77, 900",
        f"{book}: 960 start positions, 4 problems",
    ]
    # the same book without --complete names no missing position
    assert not any("lacks" in line for line in both_paths(
        "\n".join(rows) + "\n", tmp_path, family=chess960))


def test_rules_on_a_dfrc_book_with_ids_and_another_numbering(tmp_path: Path) -> None:
    dfrc = Family.load("dfrc")
    pairs = [(0, 0), (0, 1), (105, 518), (518, 105), (0, 1)]
    rows = [f'{start_fen(GOLDEN[w], GOLDEN[b]).rsplit(" ", 2)[0]} id "dfrc {b * 960 + w}";'
            for w, b in pairs]  # written black-major, as before white-major
    book = tmp_path / "book.fen"
    lines = both_paths("\n".join(rows), tmp_path, family=dfrc, numbering="black-major")
    assert lines == [f"{book}:5: duplicate: the same dfrc start position as line 2 (dfrc 960)",
                     f"{book}: 5 start positions, 1 problem"]
    lines = both_paths("\n".join(rows), tmp_path, family=dfrc)
    assert lines[0] == (f"{book}:2: epd id 'dfrc 960' is wrong: the position's dfrc id is 1")


def test_a_position_after_moves_is_never_judged_as_a_start_with_rules(tmp_path: Path) -> None:
    # issue 32.2: a DFRC start after 1. O-O O-O-O (no castling left, counters 2 2) may
    # have its pieces stand as another start: it is a position after moves
    dfrc = Family.load("dfrc")
    rows = [start_fen(GOLDEN[105], GOLDEN[518], "HCha"),
            start_fen(GOLDEN[7], GOLDEN[9], "-", "2 2")]
    book = tmp_path / "book.fen"
    for family in (dfrc, None):
        assert both_paths("\n".join(rows), tmp_path, family=family) == [
            f"{book}: 1 start position, 1 position after moves, 0 problems"]


def test_a_chess324x16_book_with_castling_variations_is_clean() -> None:
    # issue 32.1: two lines with the same ranks and other castling rights were
    # given one EPD id (the first line's)
    code, book, err = chess960("random", "-r", "chess324x16", "-n", "500", "--distinct",
                               "--seed", "issue 32.1", "-f", "epd")
    assert code == 0, err
    # the ids, by the rule file's definition: id = variation * 324 + chess324 id, the
    # variation 15 minus the rights kept (bits K Q k q, K the most significant)
    base: dict[str, int] = {}
    for line in book.splitlines():
        fields = line.split()
        number = int(fields[-1].rstrip('";'))
        kept = sum(bit for letter, bit in zip("KQkq", (8, 4, 2, 1), strict=True)
                   if letter in fields[2])
        assert number // 324 == 15 - kept
        assert base.setdefault(fields[0], number % 324) == number % 324
    assert len(base) < 500  # ranks repeat with other rights
    code, out, err = chess960("lint", "-r", "chess324x16", "-", stdin=book)
    assert (code, out, err) == (0, "-: 500 start positions, 0 problems\n", "")


# Four of the 44 lines of Stockfish's DFRC_4852_v1.epd (official-stockfish/books,
# CC0 1.0) whose pieces stand as at a start after 1. O-O O-O-O (or 1. O-O-O O-O).
DFRC_4852_LINES = [
    "bbqnrrkn/pppppppp/8/8/8/8/PPPPPPPP/NBKRQRBN w - - 2 2",
    "nbkrbqnr/pppppppp/8/8/8/8/PPPPPPPP/QNBBRRKN w - - 2 2",
    "nnkrqrbb/pppppppp/8/8/8/8/PPPPPPPP/RNNBBRKQ w - - 2 2",
    "bnkrnbqr/pppppppp/8/8/8/8/PPPPPPPP/NBBQRRKN w - - 2 2",
]


def _castled(chess: Any, white: str, black: str) -> list[str]:
    """python-chess's FENs after each White and Black castling at move 1 from
    the DFRC start of these ranks (upper case)."""
    rights = "".join(side_files(white)).upper() + "".join(side_files(black))
    board = chess.Board(f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} - 0 1",
                        chess960=True)
    found = []
    for first in [m for m in board.legal_moves if board.is_castling(m)]:
        board.push(first)
        for second in [m for m in board.legal_moves if board.is_castling(m)]:
            board.push(second)
            found.append(board.fen())
            board.pop()
        board.pop()
    return found


def side_files(rank: str) -> list[str]:
    """The files of a rank's outer rooks (Shredder-FEN letters), h-side first."""
    return ["abcdefgh"[f] for f in reversed(rooks(rank))]


def test_dfrc_lines_after_castling_pass_lint_with_rules(tmp_path: Path) -> None:
    # issue 32.2: each such line got two problems (its counters, and "not a dfrc
    # start position"); python-chess plays the castlings (the oracle)
    chess = pytest.importorskip("chess")
    swapped = {}  # a castled rank: the start ranks it may come from (K and R swapped back)
    for line in DFRC_4852_LINES:
        for rank in ranks(line):
            king = rank.index("K")
            swapped[rank] = [rank[:f] + rank[king] + rank[f + 1:king] + rank[f] + rank[king + 1:]
                             if f < king else
                             rank[:king] + rank[f] + rank[king + 1:f] + rank[king] + rank[f + 1:]
                             for f in (king - 1, king + 1) if 0 <= f < 8 and rank[f] == "R"]
    for line in DFRC_4852_LINES:
        white, black = ranks(line)
        assert any(line in _castled(chess, w, b)
                   for w in swapped[white] for b in swapped[black]), line
    made = []  # more: every start with a king beside a rook on each side (f-g, c-d)
    for white in [r for r in GOLDEN if r[5:7] == "KR"][:6]:
        for black in [r for r in GOLDEN if r[2:4] == "RK"][:6]:
            made += [fen for fen in _castled(chess, white, black) if fen.endswith(" 2 2")]
    assert made
    book = tmp_path / "DFRC_4852_like.epd"
    book.write_text("\n".join(DFRC_4852_LINES + made) + "\n")
    lines = len(DFRC_4852_LINES) + len(made)
    for rules in (["--rules", "dfrc"], []):
        code, out, err = chess960("lint", *rules, str(book))
        assert (code, err) == (0, ""), out
        assert out.endswith("0 problems\n") and "start position" in out
        assert f"{lines} positions after moves" in out


@pytest.mark.slow
def test_complete_and_numbering_need_rules() -> None:
    code, _, err = run("--complete", stdin=start_fen("RNBQKBNR"))
    assert code == 2 and err.startswith("error: ") and "--rules" in err
    code, out, err = run("--rules", "chess960", "--complete", "-",
                         stdin="".join(start_fen(r) + "\n" for r in GOLDEN))
    assert (code, err) == (0, "") and out == "-: 960 start positions, 0 problems\n"


@pytest.mark.parametrize(("text", "why"), [
    ("", "it is empty"), ("\ufeff", "it is empty"), ("\ufeff\r\n\r\n", "it is empty"),
    ("hello\nworld\n", "no line is a FEN, an EPD line or a PGN FEN tag"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
     "1 line skipped: 1 fen line cannot be read"),
])
def test_a_book_with_no_position_is_an_error(text: str, why: str) -> None:
    report = lint_text(text, "book.fen")
    assert report.error == f"no position to check ({why})"
    assert report.problems == 1 and not report.findings


# -- issue 32.3: every book the tool writes passes lint -------------------------------

#: The formats whose positions are FENs, and every dialect (the registries).
WRITTEN_FORMATS = tuple(name for name, kind in FORMATS.items() if kind.fens)
WRITTEN_DIALECTS = tuple(DIALECTS)
#: Families whose FEN lines plain ``lint`` (no ``--rules``) cannot tell from another
#: game's: castling by a rule of their own (none, a subset of the rooks', the king
#: on e), which reads as a chess book missing rights, or a board it does not read
#: (9x9, 9x10, SFEN); ``lint -r NAME`` checks them, and plain ``lint`` their EPD
#: lines, whose ``id`` names the family.
OWN_RULES = frozenset(("chess324x16", "chess99-random", "janggi", "myshogi", "placement",
                       "shogi-shuffle", "transcendental", "wild3", "wild4", "myshogi-program",
                       "jieqi", "sittuyin", "cwda", "shatranj-shuffle", "makruk-shuffle",
                       "metamachy"))


def written_books(folder: Path, name: str, variants: tuple[str | None, ...] = (None,),
                  count: int = 30) -> list[str]:
    """Books of ``name`` in each format, dialect and variant the tool writes (those it
    refuses, as ``random`` does, left out): their paths."""
    from solver import Chess960Error

    family = Family.load(name)
    number = min(count, family.count)
    ids = sorted({k * family.count // number for k in range(number)})
    paths = []
    for fmt in WRITTEN_FORMATS:
        for dialect in WRITTEN_DIALECTS:
            for variant in variants:
                out = io.StringIO()
                try:
                    with PositionWriter(out, family, fmt, dialect=dialect,
                                        variant=variant) as writer:
                        for at in ids:
                            writer.write(family.position(at))
                except Chess960Error:
                    continue
                path = folder / f"{name}.{variant or 'own'}.{dialect}.{fmt}"
                path.write_text(out.getvalue())
                paths.append(str(path))
    return paths


def assert_lint_passes(name: str, paths: list[str], rules: bool) -> None:
    if not paths:  # shogi-shuffle is written in FEN formats only
        return
    code, out, err = chess960("lint", "-q", *(["-r", name] if rules else []), *paths)
    assert (code, err) == (0, ""), "\n".join(
        line for line in out.splitlines() if not line.endswith(" 0 problems"))[:3000]
    assert len(out.splitlines()) == len(paths)


@pytest.mark.parametrize("name", sample(["chess960", "horde960", "seirawan960", "chess324x16",
                                         "capablanca-random", "dfrc", "wild3", "janggi"], 3))
def test_the_tools_books_pass_lint(name: str, tmp_path: Path) -> None:
    # issue 32.3: horde PGNs (30 of 30), Seirawan PGNs and pychess Seirawan EPD failed
    # (here 4 positions a book; the slow run's test below, 12 of chess960's)
    assert_variant_books_pass_lint(name, tmp_path, count=4)


def assert_variant_books_pass_lint(name: str, folder: Path, count: int) -> None:
    from solver.notation.variants import VARIANTS

    variants: tuple[str | None, ...] = (None,)
    if name == "chess960":  # each game played from Chess960 positions (--variant)
        variants += tuple(v.name for v in VARIANTS.values() if v.files == 8)
    paths = written_books(folder, name, variants, count=count)
    assert paths
    # antichess's FEN without its PGN tag is a chess FEN without castling rights:
    # `lint --variant antichess` reads it
    told = [p for p in paths if ".antichess." in p and not p.endswith(".pgn")]
    paths = [p for p in paths if p not in told]
    assert_lint_passes(name, paths, rules=True)
    if told:
        code, out, _ = chess960("lint", "-q", "--variant", "antichess", *told)
        assert code == 0, out
    assert_lint_passes(name, [p for p in paths if name not in OWN_RULES or
                              p.endswith(".epd")], rules=False)


@pytest.mark.slow
def test_chess960_books_of_every_variant_pass_lint(tmp_path: Path) -> None:
    assert_variant_books_pass_lint("chess960", tmp_path, count=12)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(
    toml.stem for toml in (Path(__file__).parent.parent / "rules").glob("*.toml")))
def test_every_family_format_and_dialect_passes_lint(name: str, tmp_path: Path) -> None:
    paths = written_books(tmp_path, name)
    assert paths, name
    assert_lint_passes(name, paths, rules=True)
    assert_lint_passes(name, [p for p in paths if name not in OWN_RULES or
                              p.endswith(".epd")], rules=False)


def test_a_refused_start_position_loads_no_rule_file_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 32.4: a line --rules refused (a DFRC pair in a Chess960 book) cost 19 times
    # one it accepted: naming the families that take the pair loaded every bundled
    # rule file again, for each line (bench/run.py --only refusals times it)
    import solver.family

    chess960_family = Family.load("chess960")
    loads: list[str] = []
    real = solver.family.load

    def counted(name: str) -> object:
        loads.append(name)
        return real(name)

    monkeypatch.setattr(solver.family, "load", counted)
    book = tmp_path / "refused.fen"
    text = "".join(start_fen(rank, GOLDEN[(n + 7) % 960]) + "\n" for n, rank in enumerate(GOLDEN))
    book.write_text(text)
    report = lint_path(str(book), family=chess960_family)
    assert (report.positions, report.problems) == (960, 960)
    assert len(loads) <= len(list((Path(__file__).parent.parent / "rules").glob("*.toml")))
    assert report.findings[0].message == (
        f"not a chess960 start position: fen {start_fen(GOLDEN[0], GOLDEN[7])!r} is not a "
        f"chess960 position: black's rank {GOLDEN[7].lower()!r} does not mirror white's "
        f"{GOLDEN[0]!r}; the dfrc family takes the pair")
    # what the bulk path says from the ranks is what the line-by-line reading says
    assert list(report.lines()) == list(lint_text(text, str(book), family=chess960_family)
                                        .lines())
