"""The bulk count (:mod:`solver.games.fast`) gives the careful reader's table on
any input: games drawn at random from the shapes met in the wild and the
broken ones around them (tags in any order, missing or repeated, escapes,
a ``"]`` or ``]`` inside a value, header lines that are no tag, no blank
line after the header, blank and ``[%clk`` lines in the moves, truncated
games, results that disagree, CRLF and lone CRs, a byte order mark, text
before the first game), read as a stream cut anywhere and as a file mapped
a small window at a time. Every count, every game skipped and every message
must be the careful reader's (:meth:`Stats.careful`, one game at a time).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.family import Family
from solver.games import fast
from solver.games.stats import Stats

FAMILY = Family.load("chess960")
RESULTS = ["1-0", "0-1", "1/2-1/2", "*"]
FENS = ["bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",  # 0, X-FEN
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",  # 0, Shredder-FEN
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # 518
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",  # after 1. e4
        "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1"]  # 105

#: Tag lines, well written.
GOOD = st.one_of(
    st.sampled_from([f'[Result "{r}"]' for r in RESULTS]),
    st.sampled_from([f'[FEN "{f}"]' for f in FENS]),
    st.sampled_from(['[Variant "Chess960"]', '[Variant "chess 960"]', '[Variant "fischerandom"]',
                     '[Variant "Standard"]', '[Variant "Crazyhouse"]',
                     '[Variant "From Position"]']),
    st.sampled_from(['[Opening "FRC 105"]', '[Opening "Sicilian Defense"]', '[FRCId "959"]',
                     '[SP "7"]', '[Chess960 "x"]', '[SetUp "1"]', '[Event "Rated blitz game"]',
                     '[Site "https://lichess.org/abc"]', '[Round "-"]', '[White "A \\"B\\" C"]',
                     '[Black "D"]', '[ECO "?"]', '[WhiteElo "1500"]', '[%evp "1"]',
                     '[Opening "FRC 518"]', '[Event "a\\\\"]']))
#: Header lines the careful reader reads otherwise, or not as a tag.
BAD = st.sampled_from([
    '[Result "1-0 "]', '[Result "draw"]', '[Result " 1-0"]', '[FEN "a\\"b"]', '[Event "a"] "]',
    '[Event "a"]"]', '[Site "x', '[Date "y"] ', ' [Round "1"]', '[Event "a"]]', '[]', '[Event]',
    '[Result "1-0"', '[Variant "Chess"960"]', '[FEN "' + FENS[0] + '"] x', '[Event "[blitz]"]',
    '[Event "a"]\r', 'not a tag', '', '[Site "x\n"]', '[Site "x\ny"]', '[Site\n[Date "y"]'])


@st.composite
def games(draw: st.DrawFn) -> str:
    """One game: plainly written, then at times changed in one place."""
    lines = draw(st.lists(GOOD, max_size=5))
    for kept in ([f'[Result "{r}"]' for r in RESULTS], [f'[FEN "{f}"]' for f in FENS],
                 ['[Variant "Chess960"]', '[Variant "Standard"]']):
        if draw(st.integers(0, 9)):
            lines.append(draw(st.sampled_from(kept)))
    lines = draw(st.permutations(lines)) or ['[Event "x"]']
    result = next((line[9:-2] for line in lines if line.startswith('[Result "')), "*")
    gap, moves, end, after = "\n\n", "1. e4 e5 ", result, "\n\n"
    change = draw(st.integers(0, 9))
    if change in (0, 6):
        lines.insert(draw(st.integers(0, len(lines))), draw(BAD))
    elif change == 1:
        gap = draw(st.sampled_from(["\n", "\n\n\n", "\n \n"]))
    elif change == 2:
        moves = draw(st.sampled_from(["1. e4 {a\n[%clk 0:01:00]} e5 ", "1. e4\n\ne5 ", "",
                                      "1. e4 e5\n2. Nf3 ", '1. e4 {"]} e5 ', "[%clk 1] ",
                                      '1. e4\n[Event "inside"]\ne5 ', "1. e4\n"]))
    elif change == 3:
        end = draw(st.sampled_from([*RESULTS, "", "1-", "1/2", "0-1 {x}", "; won 1-0",
                                    "\n%x 1-0", "{ a ; b } 0-1", "\n; x\n1-0"]))
    elif change == 4:
        after = draw(st.sampled_from(["\n", "\n\n\n", " \n\n", "", "\n \n", "\n%c\n\n"]))
    elif change == 5:
        lines.insert(draw(st.integers(0, len(lines))), draw(GOOD))
    return "\n".join(lines) + gap + moves + end + after


@st.composite
def collections(draw: st.DrawFn) -> bytes:
    text = "".join(draw(st.lists(games(), min_size=0, max_size=12)))
    if draw(st.booleans()):
        text = draw(st.sampled_from(["", "% a comment\n", "junk\n\n", "\n"])) + text
    data = text.encode()
    newline = draw(st.sampled_from(["lf", "lf", "crlf", "cr here and there"]))
    if newline == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif newline != "lf" and data:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\r" + data[at:]
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data


def careful(data: bytes) -> tuple[object, ...]:
    stats = Stats(FAMILY)
    told: list[tuple[int, str]] = []
    read = stats.careful(iter([data]), "x", lambda n, p: told.append((n, p)))
    stats._settle()
    return read, stats.rows, stats.outside, stats.games, stats.skipped, told


def streamed(data: bytes, cuts: list[int]) -> tuple[object, ...]:
    stats = Stats(FAMILY)
    told: list[tuple[int, str]] = []
    bounds = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    pieces = [data[a:b] for a, b in itertools.pairwise(bounds)]
    read = stats.add(iter(pieces), "x", lambda n, p: told.append((n, p)))
    return read, stats.rows, stats.outside, stats.games, stats.skipped, told


def mapped(path: Path, data: bytes) -> tuple[object, ...]:
    path.write_bytes(data)
    stats = Stats(FAMILY)
    told: list[tuple[int, str]] = []
    read = stats.add_file(str(path), len(data), lambda n, p: told.append((n, p)))
    return read, stats.rows, stats.outside, stats.games, stats.skipped, told


def _same_tables(data: bytes, cuts: list[int], monkeypatch: pytest.MonkeyPatch,
                 tmp_path: Path) -> None:
    monkeypatch.setattr(fast, "CHUNK", 64)  # cut the stream at many game starts
    monkeypatch.setattr(fast, "WINDOW", 200)  # and the file's windows too
    want = careful(data)
    assert streamed(data, cuts) == want
    if data:
        assert mapped(tmp_path / "g.pgn", data) == want


_UNCHECKED = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


@settings(max_examples=examples(10, 500), suppress_health_check=_UNCHECKED)
@given(data=collections(), cuts=st.lists(st.integers(0, 1 << 16), max_size=4))
def test_the_bulk_count_is_the_careful_readers_on_any_input(
        data: bytes, cuts: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _same_tables(data, cuts, monkeypatch, tmp_path)


@pytest.mark.slow
@pytest.mark.no_cover  # the code is the test above's; CI's 10,000 took 408-420 s even so
@settings(max_examples=examples(3000, 3000), suppress_health_check=_UNCHECKED)
@given(data=collections(), cuts=st.lists(st.integers(0, 1 << 16), max_size=4))
def test_the_bulk_count_is_the_careful_readers_on_many_more_inputs(
        data: bytes, cuts: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _same_tables(data, cuts, monkeypatch, tmp_path)


PLAIN = b'[Event "e"]\n[Result "1-0"]\n[FEN "%s"]\n\n1. e4 e5 1-0\n\n' % FENS[0].encode()


@pytest.mark.parametrize("odd", [
    b'[Event "a"] "]\n[Result "1-0"]\n\n1. e4 1-0\n\n',  # two "] in a line
    b'[Event "a"]"]\n[Result "1-0"]\n\n1. e4 1-0\n\n',
    b'[Event "[blitz]"]\n[Result "1-0"]\n\n1-0\n\n',  # a ] inside a value
    b'[Site "x\n[Result "1-0"]\n\n1-0\n\n',  # no closing quote
    b'[Site "x\ny"]\n[Result "1-0"]\n\n1-0\n\n',
    b'[Site\n[Date "y"]\n[Result "1-0"]\n\n1-0\n\n',
    b'[%evp "1"]\n[Result "1-0"]\n\n1-0\n\n',  # not a game start: the last game's moves
    b'[Result "1-0"]\n\n1-0\n[Event "x"]\n[Result "0-1"]\n\n0-1\n\n',  # no blank line
    b'[Result "1-0"]\n\n1. e4 1/2\n\n',  # ends in 1/2, not 1/2-1/2
    b'[Result "1/2-1/2"]\n\n1/2-1/2\n\n',
    b'[Result "1-0"]\n[Result "0-1"]\n[FEN "x"]\n[FEN "y"]\n\n0-1\n\n',  # the first one counts
    b'[Event "x"]\n\n1. e4 0-1\n\n',  # no Result: the moves' result
    b'[Result "1-0"]\n[FEN "a\\"b"]\n\n1-0\n\n',  # an escape
    b'[Result "1-0"]\n[Opening "FRC 105"]\n[FRC "7"]\n[SP "9"]\n[Variant "960"]\n'
    b'[Chess960 "3"]\n\n1-0\n\n',  # more kept tags than DEPTH
    b'[Result "1-0"]\n\n1. e4\n\n[%clk 1] 1-0\n\n',
    b'[Result "1-0"]\n\n1. e4 e5 ; won 1-0\n\n',  # the result in a ; comment: truncated
    b'[Result "1-0"]\n\n1. e4 e5\n%x 1-0\n\n',  # the result in a % line: truncated
    b'[Result "1-0"]\n\n1. e4 { a ; b } 1-0\n\n',  # a ; in a {} comment: not a comment
    b'[Result "1-0"]\r\n\r\n1-0\r\n\r\n[Result "0-1"]\n\n0-1\r\n',  # CRLF and LF
    b'[Result "1-0"]\n\n1-0\r\n\r[Result "0-1"]\n\n0-1\n',  # a lone CR
    # PLAIN's shape (learnt from the first game read) with one line changed
    *(PLAIN.replace(b'[Event "e"]', line) for line in (
        b'[Event "a"] "]', b'[Event "a\n"]', b'[Event "a\nb"]', b'[Event "a"b"]', b'[Event "]"]',
        b'[Event "a"]\n[Event "b"]', b'[Event "a"]\n[FEN "x"]', b'[Event "\\"]', b'[Event  "a"]',
        # (a line whose name starts as no kept tag's does: any such tag line there)
        b'[ECO "x"]', b'[E "x"]', b'[Eve]nt "x"]', b'[Event "a]b"]', b'[E"]', b'[Event"]',
        b'[Ex\n"]', b'[E\n[FEN "x"]', b'[Ev "a"] [FEN "x"]', b'[FEN "x"]')),
    PLAIN.replace(b"[Result", b"[FEN \"y\"]\n[Result"),
    PLAIN.replace(b"\n\n1.", b"\n[Variant \"Chess960\"]\n\n1."),
])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_odd_games_are_read_as_the_careful_reader_reads_them(
        odd: bytes, where: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    data = {"first": odd + PLAIN * 3, "middle": PLAIN * 2 + odd + PLAIN, "last": PLAIN * 3 + odd}
    _same_tables(data[where], [], monkeypatch, tmp_path)


def _plain(n: int, crlf: bool = False) -> bytes:
    text = "".join(f'[Event "e{k}"]\n[Result "{RESULTS[k % 4]}"]\n[Variant "Chess960"]\n'
                   f'[FEN "{FENS[k % len(FENS)]}"]\n[SetUp "1"]\n\n1. e4 e5 {RESULTS[k % 4]}\n\n'
                   for k in range(n))
    return (text.replace("\n", "\r\n") if crlf else text).encode()


@pytest.mark.parametrize("crlf", [False, True])
def test_plain_games_are_counted_in_bulk_to_the_end(crlf: bool) -> None:
    data = _plain(200, crlf).replace(b"\r\n", b"\n")
    found, stop = fast.bulk(data, 0, len(data), fast.pattern(()))
    assert stop == len(data)
    assert sum(found.values()) == 200
    assert careful(_plain(200, crlf)) == streamed(_plain(200, crlf), [])


def test_a_bad_game_stops_the_bulk_count_where_it_starts() -> None:
    data = _plain(10)
    at = data.index(b'[Event "e6"]')
    broken = data[:at] + data[at:].replace(b"1. e4 e5 1/2-1/2", b"1. e4 e5", 1)
    found, stop = fast.bulk(broken, 0, len(broken), fast.pattern(()))
    assert (stop, sum(found.values())) == (at, 6)
    assert careful(broken) == streamed(broken, [])
    assert careful(broken)[-1] == [(7, "truncated: its moves do not end in a result "
                                        "(1-0, 0-1, 1/2-1/2 or *)")]


def test_games_without_fen_are_counted_in_bulk_by_their_number_tags() -> None:
    data = (b'[Result "1-0"]\n[Opening "FRC 105"]\n\n1-0\n\n'
            b'[Result "0-1"]\n[Variant "Chess960"]\n[FRCId "7"]\n\n0-1\n\n'
            b'[Result "*"]\n[Opening "Sicilian"]\n\n*\n')
    _, stop = fast.bulk(data, 0, len(data), fast.pattern(Stats(FAMILY).starts.number_tags))
    assert stop == len(data)
    _, rows, outside, *_ = streamed(data, [])
    assert rows == {105: [1, 0, 0, 0], 7: [0, 0, 1, 0], 518: [0, 0, 0, 1]}
    assert outside == [0, 0, 0, 0]


@pytest.mark.parametrize("name", [b"", b"FRC Id", b"X.y", b"Opening"])
def test_a_number_tag_of_any_name_is_kept(name: bytes) -> None:
    data = (b'[Result "1-0"]\n[%s "105"]\n\n1-0\n\n[Result "0-1"]\n[Event "e"]\n\n0-1\n\n'
            % name) * 3
    want, got = Stats(FAMILY, (name,)), Stats(FAMILY, (name,))
    want.careful(iter([data]), "x")
    want._settle()
    assert got.add(iter([data]), "x") == 6
    assert (got.rows, got.outside) == (want.rows, want.outside)
    assert got.rows[105] == [3, 0, 0, 0]
