"""Tables kept between runs (solver.cli.cache): made the second time a family
answers, used from the third, answering exactly as the family does, and never
trusted when damaged, stale or made from other bytes.

Every command line is answered with the cache turned off and with it on,
through the same functions the console command calls (solver.cli.commands);
the two must write the same stdout and stderr and return the same code.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from functools import cache as cache_once
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.cli import cache, commands
from solver.family import Family
from solver.numbering import shortcut
from solver.numbering.scharnagl import scharnagl_rank
from solver.ruleset.bundled import bundled_path

# Many runs of the installed command: CI's slow step runs them (`-m slow`).
pytestmark = pytest.mark.slow

Answer = tuple[str, str, int]


def _answer(command: str, rules: str, texts: list[str], stdin: bytes | None = None,
            fmt: str = "text") -> Answer:
    stdin = STDIN if stdin is None else stdin
    out, err = io.StringIO(), io.StringIO()
    kwargs = {"out": out, "err": err}
    if command == "id":
        code = commands.identify_command(rules, texts, fmt, stdin=io.BytesIO(stdin), **kwargs)
    elif command == "position":
        code = commands.position_command(rules, texts, fmt, stdin=io.BytesIO(stdin), **kwargs)
    else:
        code = commands.random_command(rules, 5, seed=texts[0], exclude=texts[1:], **kwargs)
    return out.getvalue(), err.getvalue(), code


def _uncached(monkeypatch: pytest.MonkeyPatch, *args: object) -> Answer:
    with monkeypatch.context() as patch:
        patch.setenv("CHESS960_NO_CACHE", "1")
        return _answer(*args)  # type: ignore[arg-type]


@pytest.fixture
def tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CHESS960_CACHE_DIR", str(folder))
    monkeypatch.delenv("CHESS960_NO_CACHE", raising=False)
    return folder


def _made(rules: str, tables: Path) -> Path:
    """Answer twice from ``rules`` (the second time makes its table); the table."""
    for _ in range(2):
        assert _answer("position", rules, ["0"])[2] == 0
    made = list(tables.glob("*.ranks"))
    assert len(made) == 1 and not list(tables.glob("*.seen")), sorted(tables.iterdir())
    return made[0]


def _chess480() -> list[str]:
    """Chess480 by hand: of each Chess960 mirror pair, the rank whose king
    stands right of its queen, in Scharnagl's order (its numbering's definition)."""
    order = [scharnagl_rank(i) for i in range(960)]
    return [r for r in order if r.index("K") > r.index("Q")]


CHESS480 = _chess480()
FIRST, LAST = CHESS480[0], CHESS480[-1]

#: Lines of ``-`` (good, blank, lower case, ``solve`` lines right and wrong, not UTF-8, bad).
STDIN = f"{LAST}\n\n{LAST.lower()}\n479 {LAST}\n1 {LAST}\n".encode() + b"\xff\nx\n"

INPUTS = {
    "id": [FIRST, LAST, "RNBQKBNR", "rnbqkbnr", "RNBKQBNR", "X", "", f"0 {FIRST}",
           f"1 {FIRST}", " RNBQKBNR", "♖♘♗♕♔♗♘♖", "-",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"],
    "position": ["0", "479", "480", "0479", "+1", " 1", "-1", "1e2", "x", "-", "١"],
}

#: ``random``'s seed, then what it leaves out (by ID): good, out of range, not an ID.
RANDOM = [["1"], ["2", "0,1,2", "5"], ["3", "479", " 7 "], ["1", "480"], ["1", "x"], ["4", "0"]]


def test_the_first_answer_marks_the_family_the_second_makes_its_table(tables: Path) -> None:
    expected = f"{CHESS480.index('RNBQKBNR')}\n"
    assert _answer("id", "chess480", ["RNBQKBNR"])[0] == expected
    assert [p.suffix for p in tables.iterdir()] == [".seen"]
    assert _answer("id", "chess480", ["RNBQKBNR"])[0] == expected
    assert sorted(p.suffix or p.name for p in tables.iterdir()) == [".ranks", "key"]
    table = cache.find(cache.read_source("chess480"))
    assert table is not None and table.name == "chess480" and table.count == 480


def test_chess480s_table_is_scharnagls_order_without_the_mirrors(tables: Path) -> None:
    """Made by counting (chess480 is enumerated), checked against the hand-made order."""
    _made("chess480", tables)
    table = cache.find(cache.read_source("chess480"))
    assert table is not None and table.ranks == CHESS480


@pytest.mark.parametrize("rules", ["chess480", "shuffle", "king-between-rooks"])
@pytest.mark.parametrize("command", ["id", "position", "random"])
def test_a_table_answers_as_the_family_does(
        rules: str, command: str, tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if command == "random":
        cases = RANDOM
    else:
        texts = INPUTS[command]
        if command == "id" and rules != "chess480":
            first = Family.load(rules).rank_of(0)
            texts = [first, first.lower(), f"0 {first}", f"1 {first}", *texts]
        cases = [texts, *([t] for t in texts)]
    expected = [_uncached(monkeypatch, command, rules, texts) for texts in cases]
    _made(rules, tables)
    assert [_answer(command, rules, texts) for texts in cases] == expected
    assert any(code == 0 for _, _, code in expected) and any(code for _, _, code in expected)


FORMATS = ["fen", "epd", "json", "csv", "pgn"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", ["id", "position"])
def test_every_format_answers_from_the_table_as_the_family_does(
        command: str, fmt: str, tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Other formats than text load the family, which then takes the table
    instead of counting: the same answers, and no counter is ever made."""
    texts = INPUTS[command]
    expected = _uncached(monkeypatch, command, "chess480", texts, None, fmt)
    _made("chess480", tables)

    def no_counting(self: Family) -> None:
        raise AssertionError("counted although the table was there")

    monkeypatch.setattr(Family, "_counter", no_counting)
    assert _answer(command, "chess480", texts, None, fmt) == expected
    assert expected[2] == 1 and expected[0].count("\n") >= 2


def test_random_and_solve_in_other_formats_take_the_table(
        tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = io.StringIO(), io.StringIO()
    expected = commands.random_command("chess480", 20, seed="7", fmt="fen", out=out, err=err)
    assert expected == 0
    listed = io.StringIO()
    assert commands.solve_command("chess480", fmt="epd", out=listed, err=err) == 0
    _made("chess480", tables)
    monkeypatch.setattr(Family, "_counter", lambda self: 1 / 0)
    again, again_listed = io.StringIO(), io.StringIO()
    assert commands.random_command("chess480", 20, seed="7", fmt="fen", out=again,
                                   err=err) == 0
    assert commands.solve_command("chess480", fmt="epd", out=again_listed, err=err) == 0
    assert again.getvalue() == out.getvalue() and again_listed.getvalue() == listed.getvalue()
    assert listed.getvalue().count("\n") == 480 and err.getvalue() == ""


def test_a_table_with_a_rank_twice_or_foreign_pieces_is_not_whole() -> None:
    ranks = list(CHESS480)
    assert cache.Table("chess480", 480, ranks, "BBKNNQRR").whole()
    assert not cache.Table("chess480", 480, [*ranks[:-1], ranks[0]], "BBKNNQRR").whole()
    assert not cache.Table("chess480", 480, [*ranks[:-1], "BBKNNQRQ"], "BBKNNQRR").whole()


@cache_once
def _chess480_table() -> tuple[Family, cache.Table]:
    family = Family.load("chess480")
    return family, cache.Table("chess480", 480, family.side_table(), "BBKNNQRR")


@settings(max_examples=examples(50), deadline=None)
@given(numbers=st.lists(st.integers(0, 479), min_size=1, max_size=20))
def test_ids_and_ranks_from_the_table_are_the_familys(numbers: list[int]) -> None:
    """Any IDs of chess480 from its table, and their ranks back, against the family
    (both made once: the examples only look up)."""
    family, table = _chess480_table()
    for number in numbers:
        rank = family.rank_of(number)
        assert table.rank(number) == rank
        assert table.id_of(rank) == number == table.number(str(number))


def _damaged(table: Path) -> list[bytes]:
    whole = table.read_bytes()
    magic, name, sizes, tag, body = whole.split(b"\n", 4)
    body_at = len(whole) - len(body)
    swapped = bytearray(whole)  # two letters of the body swapped: the tag catches it
    swapped[body_at + 1], swapped[body_at + 2] = swapped[body_at + 2], swapped[body_at + 1]
    return [
        b"",
        whole[:-3],
        whole + f"\n{FIRST}".encode(),
        bytes(swapped),
        whole.replace(magic, b"chess960 ranks 1", 1),
        whole.replace(name, b"chess481", 1),
        whole.replace(tag, tag[:-1] + (b"0" if tag[-1:] != b"0" else b"1"), 1),
        whole.replace(sizes, b"1 2 3", 1),
        whole.replace(sizes, b"x", 1),
        b"\xff" * 100,
    ]


def test_a_damaged_table_is_not_used_and_is_made_again(
        tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = _made("chess480", tables)
    good = table.read_bytes()
    expected = _uncached(monkeypatch, "id", "chess480", INPUTS["id"])
    for bad in _damaged(table):
        assert bad != good
        table.write_bytes(bad)
        assert cache.find(cache.read_source("chess480")) is None, bad[:80]
        assert _answer("id", "chess480", INPUTS["id"]) == expected
    for _ in range(2):  # a mark, then the table made again
        assert _answer("id", "chess480", INPUTS["id"]) == expected
    assert table.read_bytes() == good


def test_an_edited_rule_file_gets_its_own_table(
        tables: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rule_file = tmp_path / "mine.toml"
    text = Path(bundled_path("chess480") or "").read_text()
    rule_file.write_text(text.replace('name = "chess480"', 'name = "mine"'))
    _made(str(rule_file), tables)
    assert _answer("id", str(rule_file), ["RNBQKBNR"])[0] == f"{CHESS480.index('RNBQKBNR')}\n"
    # Now the king stands left of the queen: the other half of Chess960.
    rule_file.write_text(rule_file.read_text().replace('"QK"', '"KQ"'))
    other = [scharnagl_rank(i) for i in range(960)]
    other = [r for r in other if r.index("K") < r.index("Q")]
    for _ in range(3):
        answer = _answer("id", str(rule_file), ["RNBKQBNR", "RNBQKBNR"])
        assert answer == _uncached(monkeypatch, "id", str(rule_file), ["RNBKQBNR", "RNBQKBNR"])
        assert answer[0] == f"{other.index('RNBKQBNR')}\n" and answer[2] == 1
    assert len(list(tables.glob("*.ranks"))) == 2


@pytest.mark.parametrize("how", ["file", "read-only"])
def test_a_cache_that_cannot_be_written_changes_nothing(
        how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if how == "read-only" and os.geteuid() == 0:
        pytest.skip("root writes to read-only directories")
    folder = tmp_path / "cache"
    if how == "file":
        folder.write_text("not a directory")
    else:
        folder.mkdir()
        folder.chmod(0o500)
    monkeypatch.setenv("CHESS960_CACHE_DIR", str(folder))
    expected = _uncached(monkeypatch, "id", "chess480", INPUTS["id"])
    for _ in range(3):
        assert _answer("id", "chess480", INPUTS["id"]) == expected
    assert how == "file" or not list(folder.iterdir())


def test_no_cache_neither_reads_nor_writes(
        tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = _made("chess480", tables)
    table.write_bytes(b"")
    monkeypatch.setenv("CHESS960_NO_CACHE", "1")
    before = sorted(tables.iterdir())
    for _ in range(3):
        assert _answer("position", "chess480", ["0"])[0] == f"{FIRST}\n"
    assert sorted(tables.iterdir()) == before


def test_families_without_plain_ranks_or_too_large_keep_no_table(tables: Path) -> None:
    """dfrc (pairs), racing-kings (another board) and capablanca-shuffle
    (84,000 ranks a side) answer from the family every time."""
    for rules in ("dfrc", "racing-kings", "capablanca-shuffle"):
        for _ in range(3):
            assert _answer("position", rules, ["0"])[2] == 0
        assert not list(tables.glob("*.ranks")) and not list(tables.glob("*.seen")), rules


def test_only_plain_text_answers_come_from_the_table(
        tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _made("chess480", tables)
    out = io.StringIO()
    commands.position_command("chess480", ["0"], fmt="fen", stdin=None, out=out,
                              err=io.StringIO())
    assert out.getvalue() == f"{FIRST.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{FIRST} w KQkq - 0 1\n"


def test_where_the_cache_is(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("CHESS960_CACHE_DIR", "CHESS960_NO_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("HOME", "/home/someone")
    assert cache.cache_dir() == "/home/someone/.cache/chess960"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache.cache_dir() == "/home/someone/.cache/chess960"
    monkeypatch.setenv("XDG_CACHE_HOME", "/var/cache/me")
    assert cache.cache_dir() == "/var/cache/me/chess960"
    monkeypatch.setenv("CHESS960_CACHE_DIR", "/elsewhere")
    assert cache.cache_dir() == "/elsewhere"
    monkeypatch.setenv("CHESS960_NO_CACHE", "1")
    assert cache.cache_dir() is None


@pytest.mark.parametrize("xdg", [None, "", "relative/ignored", "/var/cache/me", "~/cache"])
@pytest.mark.parametrize("home", ["/home/someone", "/root"])
def test_the_xdg_rule_is_platformdirs_answer(
        xdg: str | None, home: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On Linux the cache directory is worked out without importing platformdirs:
    the same directory as platformdirs finds (a new process: its answer is not cached)."""
    for key in ("CHESS960_CACHE_DIR", "CHESS960_NO_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("HOME", home)
    if xdg is not None:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    import platformdirs

    assert cache.xdg_cache_dir() == platformdirs.user_cache_dir("chess960", appauthor=False)
    if sys.platform not in ("win32", "darwin"):
        assert cache.cache_dir() == cache.xdg_cache_dir()


def test_other_systems_ask_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    for key in ("CHESS960_CACHE_DIR", "CHESS960_NO_CACHE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setattr(sys, "platform", "darwin")
    asked: list[str] = []

    def user_cache_dir(name: str, appauthor: object = None) -> str:
        asked.append(name)
        assert appauthor is False  # no vendor folder: %LOCALAPPDATA%\chess960\Cache
        return "/Users/someone/Library/Caches/chess960"

    monkeypatch.setattr(platformdirs, "user_cache_dir", user_cache_dir)
    assert cache.cache_dir() == "/Users/someone/Library/Caches/chess960"
    assert asked == ["chess960"]
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: "relative")
    assert cache.cache_dir() is None


def test_a_table_answers_without_loading_the_rules_or_the_solver(tmp_path: Path) -> None:
    """The third run of the installed command's entry imports neither."""
    code = (
        "import sys\nfrom solver.cli.entry import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m in {'solver.ruleset.reader', 'solver.family',"
        " 'constraint', 'typer', 'tomllib', 'solver.numbering.counting'}))"
    )
    for n, args in enumerate((["id", "RNBQKBNR", "-r", "chess480"],
                              ["position", "5", "-r", "chess480"],
                              ["random", "--seed", "1", "-r", "chess480"])):
        env = {**os.environ, "CHESS960_CACHE_DIR": str(tmp_path / str(n))}
        runs = [subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                               text=True, check=True, env=env)
                for _ in range(3)]
        assert "'solver.family'" in runs[0].stdout, args
        assert runs[2].stdout.splitlines()[-1] == "[]", args
        assert runs[2].stdout.splitlines()[:-1] == runs[0].stdout.splitlines()[:-1], args


def test_the_chess480_brute_force_is_fischers() -> None:
    """The hand-made order above draws on Scharnagl's arithmetic: 480 ranks,
    each Chess960 rank or its mirror."""
    kept = _chess480()
    every = {"".join(p) for p in permutations("KQRRBBNN")}
    assert len(kept) == 480 and set(kept) <= every
    assert {r[::-1] for r in kept}.isdisjoint(kept)


# --- Crafted tables: the tag, the answers' own checks, how the files are opened ---

PIECES = "BBKNNQRR"
_KEPT: dict[str, object] = {}


@pytest.fixture(scope="module")
def crafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """A sound chess480 table made by the command once for the module: its folder and bytes."""
    folder = tmp_path_factory.mktemp("crafted")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CHESS960_CACHE_DIR", str(folder))
        patch.delenv("CHESS960_NO_CACHE", raising=False)
        table = _made("chess480", folder)
        assert cache.find(cache.read_source("chess480")) is not None
    return table, table.read_bytes()


def _family(rules: str, max_arrangements: int | None = None,
            source: object = None) -> Family:
    """chess480 loaded once for the module (the examples only answer from it)."""
    assert rules == "chess480"
    if "family" not in _KEPT:
        _KEPT["family"] = Family.load("chess480")
    found = _KEPT["family"]
    assert isinstance(found, Family)
    return found


def _unkeyed_tag(sizes: bytes, body: bytes, key: bytes | None) -> bytes:
    """The tag as whoever has not the cache's key could make it: with no key, or another."""
    from solver.cli.cache import blake2b

    digest = blake2b(digest_size=32) if key is None else blake2b(key=key, digest_size=32)
    source = cache.read_source("chess480")
    assert source is not None
    for part in (cache.MAGIC, cache.code_id(), source.data, b"chess480", sizes, body):
        digest.update(b"%d\n" % len(part))
        digest.update(part)
    return digest.hexdigest().encode()


_INDEX = st.integers(0, 479)
DAMAGE = st.one_of(
    st.tuples(st.just("swap"), _INDEX, _INDEX),
    st.tuples(st.just("reverse")),
    st.tuples(st.just("duplicate"), _INDEX, _INDEX),
    st.tuples(st.just("garbage"), _INDEX, st.sampled_from(["", "X", "KQRRBBNN", "RNBQKBNR",
                                                           "bbqnnrkr", "RKR", "BBQNNRKR\nX"])),
    st.tuples(st.just("shorten"), st.integers(1, 480)),
    st.tuples(st.just("extend"), st.lists(st.sampled_from([*CHESS480[:3], "RNBKQBNR", "X"]),
                                          min_size=1, max_size=3)),
)


def _seen_beneath_the_tag(how: tuple[object, ...]) -> bool:
    """Whether the checks of each answer can see this damage without the tag: not a
    swap or a reversal (every rank still the family's, at another ID), nor a rank
    of the family's own pieces that is not one of its ranks (only the rules, or the
    tag, tell it apart)."""
    if how[0] in ("swap", "reverse"):
        return False
    return not (how[0] == "garbage" and sorted(str(how[2])) == sorted(PIECES)
                and how[2] not in CHESS480)


def _damage(ranks: list[str], how: tuple[object, ...]) -> list[str]:
    ranks = list(ranks)
    kind = how[0]
    if kind == "swap":
        i, j = how[1], how[2]
        assert isinstance(i, int) and isinstance(j, int)
        ranks[i % len(ranks)], ranks[j % len(ranks)] = ranks[j % len(ranks)], ranks[i % len(ranks)]
    elif kind == "reverse":
        ranks.reverse()
    elif kind == "duplicate":
        i, j = how[1], how[2]
        assert isinstance(i, int) and isinstance(j, int)
        ranks[j % len(ranks)] = ranks[i % len(ranks)]
    elif kind == "garbage":
        i, text = how[1], how[2]
        assert isinstance(i, int) and isinstance(text, str)
        ranks[i % len(ranks)] = text
    elif kind == "shorten":
        size = how[1]
        assert isinstance(size, int)
        ranks = ranks[:max(1, len(ranks) - size)]
    else:
        extra = how[1]
        assert isinstance(extra, list)
        ranks.extend(extra)
    return ranks


@settings(max_examples=examples(60, 1000), deadline=None)
@given(damages=st.lists(DAMAGE, min_size=1, max_size=3),
       tag=st.sampled_from(["kept", "unkeyed", "other key", "empty sizes"]),
       counted=st.booleans(), picks=st.lists(_INDEX, min_size=1, max_size=3))
def test_a_crafted_table_never_changes_an_answer(
        crafted: tuple[Path, bytes], damages: list[tuple[object, ...]], tag: str,
        counted: bool, picks: list[int]) -> None:
    """Tables swapped, reversed, duplicated, garbled, shortened or extended, their
    count made to match or not, tagged as anyone without the cache's key can:
    every answer is the family's (as with CHESS960_NO_CACHE=1), and the table is refused."""
    table, good = crafted
    ranks = CHESS480
    for how in damages:
        ranks = _damage(ranks, how)
    body = "\n".join(ranks).encode()
    sizes = f"{len(ranks) if counted else 480} {PIECES}".encode()
    kept_tag = good.split(b"\n", 4)[3]
    made = {"kept": kept_tag, "unkeyed": _unkeyed_tag(sizes, body, None),
            "other key": _unkeyed_tag(sizes, body, bytes(32)),
            "empty sizes": _unkeyed_tag(b"", body, None)}[tag]
    crafted_bytes = b"\n".join([cache.MAGIC, b"chess480", sizes, made, body])
    ids = [*(ranks[i % len(ranks)] for i in picks), *(CHESS480[i] for i in picks)]
    numbers = [*(str(i) for i in picks), str(len(ranks) - 1), "479"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CHESS960_CACHE_DIR", str(table.parent))
        patch.setattr(commands, "load_family", _family)
        patch.setattr(commands, "remember", lambda source, family: None)
        expected = [_uncached(patch, "id", "chess480", ids),
                    _uncached(patch, "position", "chess480", numbers),
                    _uncached(patch, "random", "chess480", [str(picks[0])])]
        table.write_bytes(crafted_bytes)
        try:
            if crafted_bytes != good:
                assert cache.find(cache.read_source("chess480")) is None
            assert [_answer("id", "chess480", ids), _answer("position", "chess480", numbers),
                    _answer("random", "chess480", [str(picks[0])])] == expected
        finally:
            table.write_bytes(good)


@settings(max_examples=examples(50, 1000), deadline=None)
@given(damages=st.lists(DAMAGE.filter(_seen_beneath_the_tag),
                        min_size=1, max_size=3),
       picks=st.lists(_INDEX, min_size=1, max_size=5))
@example(damages=[("duplicate", 0, 1), ("garbage", 0, "")], picks=[1])  # found by CI
def test_a_table_checks_each_answer_it_gives(
        damages: list[tuple[object, ...]], picks: list[int]) -> None:
    """Beneath the tag, each answer is checked on its own: a table with a rank
    twice, a rank of other pieces, or more or fewer ranks than it says answers
    the family's answer or nothing (None: the family answers)."""
    ranks = CHESS480
    for how in damages:
        ranks = _damage(ranks, how)
    table = cache.Table("chess480", 480, ranks, PIECES)
    for i in picks:
        for text in (ranks[i % len(ranks)], CHESS480[i]):
            assert table.id_of(text) in (None, CHESS480.index(text) if text in CHESS480 else None)
        assert table.rank(i) in (None, CHESS480[i])
    if len(ranks) != 480 or len(set(ranks)) != 480:  # unsound from its first answer
        assert table.rank(picks[0]) is None and table.id_of(CHESS480[picks[0]]) is None


def test_a_table_from_other_numbering_code_is_not_used(
        tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _made("chess480", tables)
    assert cache.find(cache.read_source("chess480")) is not None
    monkeypatch.setattr(cache, "_CODE_ID", [bytes(32)])
    assert cache.find(cache.read_source("chess480")) is None


def test_the_code_hashed_is_the_code_that_numbers_ranks() -> None:
    package = Path(cache.__file__).parent.parent
    hashed = {str(Path(p).relative_to(package)) for p in
              cache._modules(str(package), cache.CODE_FOLDERS)}
    for needed in ("family.py", "numbering/scharnagl.py", "numbering/index.py",
                   "ruleset/reader.py", "search/solve.py", "kinds/base.py", "board/sides.py",
                   "notation/ranks.py", "notation/castling.py"):  # a conversion's labels
        assert needed in hashed
    assert not any(p.startswith(("cli/", "output/")) for p in hashed)
    assert len(cache.code_id()) == 32


@pytest.mark.parametrize("how", ["mode 0644", "symlink", "short", "fifo"])
def test_an_unsound_key_is_never_used_and_is_made_again(
        how: str, tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = _made("chess480", tables)
    key = tables / "key"
    good = key.read_bytes()
    assert key.stat().st_mode & 0o777 == 0o600
    if how == "mode 0644":
        key.chmod(0o644)
    elif how == "symlink":
        (tables / "elsewhere").write_bytes(good)
        (tables / "elsewhere").chmod(0o600)
        key.unlink()
        key.symlink_to(tables / "elsewhere")
    elif how == "short":
        key.write_bytes(good[:-1])
    else:
        key.unlink()
        os.mkfifo(key, 0o600)
    assert cache.find(cache.read_source("chess480")) is None
    expected = _uncached(monkeypatch, "id", "chess480", INPUTS["id"])
    for _ in range(2):  # a mark, then a new key and the table made again
        assert _answer("id", "chess480", INPUTS["id"]) == expected
    assert cache.find(cache.read_source("chess480")) is not None
    assert key.is_file() and not key.is_symlink() and key.stat().st_mode & 0o777 == 0o600
    assert key.read_bytes() != good and table.exists()


CHESS960_COMMAND = Path(sys.executable).parent / "chess960"


def _stem() -> str:
    source = cache.read_source("chess480")
    assert source is not None
    return cache.stem(source)


@pytest.mark.parametrize("what", ["table", "key"])
@pytest.mark.parametrize("odd", ["stdin", "fifo"])
def test_a_link_to_stdin_or_a_fifo_in_the_cache_neither_eats_input_nor_blocks(
        what: str, odd: str, tmp_path: Path) -> None:
    """printf '5\\n6\\n7\\n' | chess960 position -r chess480 - (installed command)."""
    folder = tmp_path / "cache"
    env = {**os.environ, "CHESS960_CACHE_DIR": str(folder)}
    env.pop("CHESS960_NO_CACHE", None)
    run = [str(CHESS960_COMMAND), "position", "-r", "chess480", "-"]
    for _ in range(2):  # a table and its key, made
        subprocess.run(run, input=b"5\n", env=env, check=True, capture_output=True)
    path = folder / (f"{_stem()}.ranks" if what == "table" else "key")
    path.unlink()
    if odd == "stdin":
        path.symlink_to("/dev/stdin")
    else:
        os.mkfifo(path)
    done = subprocess.run(run, input=b"5\n6\n7\n", env=env, capture_output=True, timeout=60,
                          check=False)
    assert (done.stdout.decode(), done.stderr, done.returncode) == (
        "".join(f"{CHESS480[i]}\n" for i in (5, 6, 7)), b"", 0)


def test_a_missing_cache_folder_is_made_but_not_its_parents(tmp_path: Path) -> None:
    """CHESS960_CACHE_DIR=/nonexistent/x makes no /nonexistent (installed command)."""
    env = {**os.environ, "CHESS960_CACHE_DIR": str(tmp_path / "no" / "x")}
    env.pop("CHESS960_NO_CACHE", None)
    for _ in range(3):
        done = subprocess.run([str(CHESS960_COMMAND), "id", "-r", "chess480", FIRST],
                              env=env, capture_output=True, check=False)
        assert (done.stdout, done.stderr, done.returncode) == (b"0\n", b"", 0)
    assert not (tmp_path / "no").exists()
    env["CHESS960_CACHE_DIR"] = str(tmp_path / "x")
    subprocess.run([str(CHESS960_COMMAND), "id", "-r", "chess480", FIRST], env=env, check=True)
    assert (tmp_path / "x").is_dir() and (tmp_path / "x").stat().st_mode & 0o777 == 0o700


def test_a_marked_family_in_a_cache_that_cannot_be_written_is_not_made_every_run(
        tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read-only (the temporary file cannot be made): its ranks are not made at all;
    a full disk (the write fails): made once, then the mark is gone."""
    import tempfile

    made: list[int] = []
    side_table = Family.side_table

    def counted(self: Family) -> list[str]:
        made.append(1)
        return side_table(self)

    monkeypatch.setattr(Family, "side_table", counted)
    expected = _uncached(monkeypatch, "id", "chess480", INPUTS["id"])
    _answer("id", "chess480", INPUTS["id"])  # the mark
    assert [p.suffix for p in tables.iterdir()] == [".seen"]

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(30, "Read-only file system")

    with monkeypatch.context() as patch:
        patch.setattr(tempfile, "mkstemp", read_only)
        for _ in range(3):
            assert _answer("id", "chess480", INPUTS["id"]) == expected
    assert made == [] and not list(tables.glob("*.ranks"))

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", full)
        for _ in range(3):
            assert _answer("id", "chess480", INPUTS["id"]) == expected
    assert len(made) == 1 and not list(tables.glob("*.ranks"))
    assert not list(tables.glob(".chess960-*"))


def test_concurrent_runs_answer_as_the_family_does(tmp_path: Path) -> None:
    """Four installed commands at once on a marked family: each writes the table."""
    env = {**os.environ, "CHESS960_CACHE_DIR": str(tmp_path)}
    env.pop("CHESS960_NO_CACHE", None)
    run = [str(CHESS960_COMMAND), "id", "-r", "chess480", "-"]
    lines = "".join(f"{rank}\n" for rank in CHESS480[::7]).encode()
    subprocess.run(run, input=lines, env=env, check=True, capture_output=True)
    running = [subprocess.Popen(run, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env) for _ in range(4)]
    answers = [proc.communicate(lines, timeout=120) for proc in running]
    expected = "".join(f"{i}\n" for i in range(0, 480, 7)).encode()
    assert answers == [(expected, b"")] * 4
    assert [proc.returncode for proc in running] == [0] * 4
    done = subprocess.run(run, input=lines, env=env, check=True, capture_output=True)
    assert done.stdout == expected and cache.read_key(str(tmp_path)) is not None
    # (a run that found no table yet may have marked the family again: harmless)
    assert {p.name for p in tmp_path.iterdir()} - {f"{_stem()}.seen"} == {
        f"{_stem()}.ranks", "key"}


# --- An edited rules/chess960.toml is a family like any other ---

# (that the shipped file is the one the arithmetic answers for: tests/test_shortcut.py)

def _edited_rules(tmp_path: Path) -> Path:
    """A copy of the bundled rules whose chess960.toml holds chess480's rules."""
    folder = tmp_path / "rules"
    folder.mkdir()
    bundled = Path(bundled_path("chess960") or "").parent
    for path in bundled.glob("*.toml"):
        (folder / path.name).write_bytes(path.read_bytes())
    text = (bundled / "chess480.toml").read_text()
    (folder / "chess960.toml").write_text(text.replace('name = "chess480"', 'name = "chess960"'))
    return folder


@pytest.mark.parametrize("fmt", ["text", "fen", "json"])
def test_an_edited_chess960_answers_from_its_file_in_every_format(
        fmt: str, tmp_path: Path, tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain text no longer comes from the arithmetic when rules/chess960.toml is
    edited (the bundled folder pointed elsewhere), nor for --rules to an edited copy."""
    from solver.ruleset import bundled

    folder = _edited_rules(tmp_path)
    monkeypatch.setattr(bundled, "rules_folder", lambda: str(folder))
    for rules in ("chess960", str(folder / "chess960.toml")):
        for _ in range(3):  # no table, a mark, a table
            out, err = io.StringIO(), io.StringIO()
            code = commands.position_command(rules, ["479", "0"], fmt, stdin=None, out=out,
                                             err=err)
            assert code == 0 and err.getvalue() == ""
            written = out.getvalue()
            assert LAST in written and FIRST in written
            assert scharnagl_rank(479) not in written and scharnagl_rank(479) != LAST
            path = str(folder / "chess960.toml")
            assert (written, err.getvalue(), code) == _uncached(
                monkeypatch, "position", path, ["479", "0"], None, fmt)
            answer = _answer("id", rules, ["RNBKQBNR", LAST], None, fmt)
            assert answer == _uncached(monkeypatch, "id", path, ["RNBKQBNR", LAST], None, fmt)
            assert answer[2] == 1 and "rank" in answer[1]
            assert fmt != "text" or answer[0] == "479\n"
    assert not shortcut.pristine_chess960()
