"""Big books read in bulk (issue 25, the input side): ``lint`` and ``id`` answer a
start FEN or EPD line written the common way from its two back ranks (each
rank's rights and ID remembered, a bounded memo), and must answer exactly as
the one-at-a-time path does, line for line, message for message.

The properties build books from a few ranks, mixing good lines with wrong
castling, a wrong mirror, junk, lower and upper case, X-FEN and Shredder-FEN,
counters and EPD operations; the one-at-a-time answers are
:meth:`Linter.feed <solver.lists.lint.Linter.feed>` on every line and
:meth:`Family.identify <solver.family.Family.identify>`. The installed command
then reads a generated DFRC book (Stockfish's ``DFRC_openings.epd`` order)
within a CPU and memory budget (failed before: 9 to 10 s of CPU for 100,000
lines, about 90 us a line).
"""

from __future__ import annotations

import io
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from test_budgets import RSS_BUDGET, measured

from solver.cli.inputs import family_ranks, id_answer
from solver.errors import Chess960Error
from solver.family import Family
from solver.lines import LineReader
from solver.lists.lint import Linter, lint_lines
from solver.notation.castling import castling_field, side_rights
from solver.notation.start_lines import ranks_answer
from solver.numbering.scharnagl import scharnagl_rank
from solver.numbering.shortcut import arithmetic_id, chess960_rights

#: Ranks the books are made of: Chess960's, and some no family takes (two
#: kings, no rook, rooks on one side of the king, a pawn's letter missing).
RANKS = [scharnagl_rank(i) for i in (0, 1, 105, 518, 700, 959)] + [
    "RNBQKBNK", "QNNBBKKR", "RRKQBBNN", "NNBBQKRR", "RKRKRKRK", "QQQQQQQQ"]


def wrong_castlings(white: str, black: str) -> list[str]:
    """Fields the rooks do not give, or give another way: a right dropped,
    rights in another order, the notations mixed, one too many, junk."""
    xfen = castling_field(white, black)
    shredder = castling_field(white, black, shredder=True)
    found = [xfen[::-1], shredder[::-1], xfen[:-1] or "-", shredder[1:] or "-",
             "KQkq", "HAha", "-", "Kq", "KAkq", "xyz"]
    if len(xfen) == 4:
        found += [xfen[:2] + shredder[2:], shredder[:2] + xfen[2:], xfen + "k"]
    return found


@st.composite
def lines(draw: st.DrawFn) -> str:
    """One line of a book: mostly start positions, some of them wrong."""
    kind = draw(st.sampled_from(["start"] * 6 + ["junk", "tag", "blank", "moved"]))
    if kind == "junk":
        return draw(st.sampled_from([
            "1. e4 e5 *", "# a comment", "not a fen at all", "x/y/z w - -",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "open;',
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1234567890 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 \u00e9",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq -",
            "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2",
        ]))
    if kind == "tag":
        return draw(st.sampled_from([
            '[Event "x"]', '[Variant "Chess960"]', '[Variant "Antichess"]', '[Variant "Atomic"]',
            '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]']))
    if kind == "blank":
        return draw(st.sampled_from(["", "   "]))
    white = draw(st.sampled_from(RANKS))
    black = white if draw(st.integers(0, 3)) else draw(st.sampled_from(RANKS))
    castling = draw(st.sampled_from(
        [castling_field(white, black), castling_field(white, black, shredder=True)] * 3
        + wrong_castlings(white, black)))
    top, bottom = black.lower(), white
    if draw(st.integers(0, 9)) == 0:  # a case gone wrong
        top, bottom = draw(st.sampled_from([(top.upper(), bottom), (top, bottom.lower()),
                                            (top[:4] + top[4:].upper(), bottom)]))
    side = draw(st.sampled_from(["w"] * 8 + ["b"]))
    passant = draw(st.sampled_from(["-"] * 8 + ["e3"]))
    tail = draw(st.sampled_from([
        "", " 0 1", " 0 0", " 3 1", " 0 7", " 0 1 ", "  0 1", ' id "dfrc 1";', ' id "dfrc 1"',
        f' id "chess960 {518}";', ' id "chess960 105";', ' id "x";', ' c0 "a; b";',
        ' 0 1 id "dfrc 2";', ' id "a b c";', ' id "";', ";", " ;"]))
    lead = draw(st.sampled_from([""] * 9 + [" "]))
    return f"{lead}{top}/pppppppp/8/8/8/8/PPPPPPPP/{bottom} {side} {castling} {passant}{tail}"


def one_at_a_time(book: list[str], fix: str | None) -> tuple[list[str], list[str]]:
    """The report and the lines written, every line through :meth:`Linter.feed`."""
    linter = Linter("book.epd", fix)
    written = [linter.feed(number, line) for number, line in enumerate(book, 1)]
    report = linter.finish()
    report.lines_read = len(book)
    return list(report.lines()), written


def in_bulk(book: list[str], fix: str | None) -> tuple[list[str], list[str]]:
    """The report and the lines written by :func:`lint_lines` (the bulk path)."""
    linter = Linter("book.epd", fix)
    out = io.StringIO()
    reader = LineReader(io.BytesIO("".join(f"{line}\n" for line in book).encode()))
    report = lint_lines(reader, "book.epd", linter, out)
    return list(report.lines()), out.getvalue().split("\n")


@settings(max_examples=examples(40, 2000))
@given(st.lists(lines(), min_size=1, max_size=12),
       st.sampled_from([None, "xfen", "shredder"]))
def test_lint_in_bulk_says_what_line_by_line_says(book: list[str], fix: str | None) -> None:
    assert in_bulk(book, fix) == one_at_a_time(book, fix)


@cache
def family(name: str) -> Family:
    return Family.load(name)


def answers(identify: object, texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        try:
            found.append(str(identify(text)))  # type: ignore[operator]
        except Chess960Error as exc:
            found.append(f"{type(exc).__name__}: {exc}")
    return found


@settings(max_examples=examples(16, 800))  # a wrong mirror costs identify ~50 ms
@given(st.lists(lines(), min_size=1, max_size=12), st.sampled_from(["chess960", "dfrc"]))
def test_id_by_ranks_answers_as_identify(texts: list[str], name: str) -> None:
    chosen = family(name)
    texts = [t for t in texts if t.strip()]
    assert answers(chosen.fen_identifier(), texts) == answers(
        lambda text: chosen.identify(text).id, texts)


@pytest.mark.parametrize("name", ["chess960", "dfrc"])
def test_id_by_ranks_answers_as_identify_once_the_table_is_built(name: str) -> None:
    """Once enough ranks are numbered, the family's table of ranks is built
    and a rank in it is not validated again: every start, in both castling
    notations, and ranks that break a rule or are no rank, answered as identify does."""
    chosen = Family.load(name)  # (not the cached one: its table is built here)
    answer = chosen.fen_identifier()
    ranks = [scharnagl_rank(i) for i in range(960)]
    texts = []
    for k, white in enumerate(ranks):
        black = white if name == "chess960" else ranks[(k * 7 + 3) % 960]
        for shredder in (False, True):
            texts.append(f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w "
                         f"{castling_field(white, black, shredder=shredder)} - 0 1")
    for white in ("RNQBKBNR", "RKRNNQBB"[::-1], "KRRNNQBB", "RNBQKBN", "RNBQKBNRR", "RNBQKBNQ"):
        texts.append(f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1")
    assert chosen.index.ids is None
    found = answers(answer, texts)
    assert chosen.index.ids is not None  # built meanwhile
    assert found == answers(answer, texts) == answers(
        lambda text: family(name).identify(text).id, texts)


@settings(max_examples=examples(40, 2000))
@given(st.lists(lines(), min_size=1, max_size=12), st.sampled_from(["chess960", "dfrc", "960"]))
def test_id_lines_by_ranks_answer_as_one_at_a_time(texts: list[str], name: str) -> None:
    # the bytes path of `id -` (ranks_answer) says None or exactly what id_answer says
    chosen = family("chess960" if name == "960" else name)
    quick = ranks_answer(arithmetic_id, None, chess960_rights) if name == "960" else \
        family_ranks(chosen)
    assert quick is not None
    slow = id_answer(lambda text: chosen.identify(text).id)
    for text in texts:
        said = quick(text.encode())
        if said is None:
            continue
        assert said == slow(text), text


def test_chess960_rights_are_what_the_rooks_give() -> None:
    for number in range(960):
        rank = scharnagl_rank(number)
        assert chess960_rights(rank) == (side_rights(rank), side_rights(rank, shredder=True))


def test_id_by_ranks_knows_the_pairs_the_arithmetic_gives() -> None:
    # independent check: dfrc id = white_id * 960 + black_id (Stockfish's DFRC book order)
    answer = family("dfrc").fen_identifier()
    for white_id, black_id in ((0, 0), (518, 105), (959, 3), (105, 518)):
        white, black = scharnagl_rank(white_id), scharnagl_rank(black_id)
        fen = (f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w "
               f"{castling_field(white, black, shredder=True)} -")
        assert answer(fen) == white_id * 960 + black_id
    mirrored = family("chess960").fen_identifier()
    assert mirrored("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1") == 105
    with pytest.raises(Chess960Error, match="mirror"):
        mirrored("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1")


def dfrc_book(lines_wanted: int) -> str:
    """Stockfish's ``DFRC_openings.epd`` order: line ``k`` has White's rank
    ``k // 960`` and Black's ``k % 960``, Shredder-FEN castling, four fields."""
    ranks = [scharnagl_rank(i) for i in range(960)]
    out = []
    for k in range(lines_wanted):
        white, black = ranks[k // 960], ranks[k % 960]
        out.append(f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w "
                   f"{castling_field(white, black, shredder=True)} -\n")
    return "".join(out)


BOOK_LINES = 100_000
#: Seconds of CPU for 100,000 lines: about 0.4 s here (9 to 10 s before), with a factor for load.
CPU_PER_BOOK = 5.0


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("dfrc") / "DFRC_openings.epd"
    path.write_text(dfrc_book(BOOK_LINES))
    return str(path)


@pytest.mark.slow
def test_lint_reads_a_dfrc_book_within_budget(book: str) -> None:
    # failed before: 9 s of CPU for these 100,000 lines
    result = measured("lint", book)
    assert result["code"] == 0, result
    assert str(result["out"]).endswith(f": {BOOK_LINES:,} start positions, 0 problems\n")
    assert float(str(result["cpu"])) < CPU_PER_BOOK, result["cpu"]
    assert float(str(result["rss_mb"])) < RSS_BUDGET, result["rss_mb"]


@pytest.mark.slow
def test_id_reads_a_dfrc_book_within_budget(book: str) -> None:
    # failed before: 10 s of CPU for these 100,000 lines
    result = _id_book(book)
    assert result["code"] == 0, result
    ids = str(result["out"]).split()
    assert len(ids) == BOOK_LINES
    # Stockfish's line order is White-major, white_id * 960 + black_id: line k is id k
    assert [int(i) for i in ids[:3]] == [0, 1, 2]
    assert int(ids[-1]) == BOOK_LINES - 1
    assert float(str(result["cpu"])) < CPU_PER_BOOK, result["cpu"]
    assert float(str(result["rss_mb"])) < RSS_BUDGET, result["rss_mb"]


def _id_book(book: str) -> dict[str, object]:
    """``chess960 id -r dfrc -`` with the book on stdin, measured."""
    import json
    import subprocess
    import sys

    from test_budgets import command

    wrapper = (
        "import json, resource, subprocess, sys\n"
        "with open(sys.argv[1], 'rb') as f:\n"
        "    done = subprocess.run(sys.argv[2:], stdin=f, capture_output=True, text=True,"
        " timeout=170)\n"
        "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'code': done.returncode, 'out': done.stdout, 'err': done.stderr,"
        " 'cpu': use.ru_utime + use.ru_stime, 'rss_mb': use.ru_maxrss / 1024}))\n")
    done = subprocess.run([sys.executable, "-c", wrapper, book, *command().split(),
                           "id", "-r", "dfrc", "-"],
                          capture_output=True, text=True, check=True, timeout=180)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_lint_reads_a_dfrc_book_by_ranks(monkeypatch: pytest.MonkeyPatch) -> None:
    # the common lines never take the one-at-a-time path (before: every line did, 90 us each)
    fed: list[int] = []
    feed = Linter.feed

    def counted(self: Linter, number: int, line: str) -> str:
        fed.append(number)
        return feed(self, number, line)

    monkeypatch.setattr(Linter, "feed", counted)
    text = dfrc_book(5_000) + "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk -\n"
    report = lint_lines(LineReader(io.BytesIO(text.encode())), "book.epd", Linter("book.epd"))
    assert (report.positions, report.problems) == (5_001, 1)
    assert fed == [5_001]  # only the wrong line
