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
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.cli import cache, commands
from solver.family import Family
from solver.numbering.scharnagl import scharnagl_rank
from solver.ruleset.bundled import bundled_path

Answer = tuple[str, str, int]


def _answer(command: str, rules: str, texts: list[str], stdin: bytes | None = None) -> Answer:
    stdin = STDIN if stdin is None else stdin
    out, err = io.StringIO(), io.StringIO()
    kwargs = {"out": out, "err": err}
    if command == "id":
        code = commands.identify_command(rules, texts, stdin=io.BytesIO(stdin), **kwargs)
    elif command == "position":
        code = commands.position_command(rules, texts, stdin=io.BytesIO(stdin), **kwargs)
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
    assert [p.suffix for p in tables.iterdir()] == [".ranks"]
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


@cache_once
def _chess480_table() -> tuple[Family, cache.Table]:
    family = Family.load("chess480")
    return family, cache.Table("chess480", 480, family.side_table())


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
    magic, version, _name, sizes, rest = whole.split(b"\n", 4)
    body_at = len(whole) - len(rest) + int(sizes.split()[0])
    swapped = bytearray(whole)  # two letters of the body swapped: the checksum catches it
    swapped[body_at + 1], swapped[body_at + 2] = swapped[body_at + 2], swapped[body_at + 1]
    return [
        b"",
        whole[:-3],
        whole + f"\n{FIRST}".encode(),
        bytes(swapped),
        whole.replace(version, b"0.0.1", 1),
        whole.replace(magic, b"chess960 ranks 2", 1),
        whole.replace(b"# ", b"#  ", 1),  # other rule bytes
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
