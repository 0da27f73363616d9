"""Shortcuts behind one seam (solver.numbering.shortcut): each shortcut a
family answers through answers as the family itself does (the general path:
the rule file read, the ranks solved and numbered), for every family; ``check``
names it, on or off and why; and an edited ``rules/chess960.toml`` turns the
arithmetic off, visibly, with every answer still right.

The default run compares a sample of each family's positions; the slow run
every position, through ``check`` (which never answers from a shortcut).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.check import check
from solver.cli import commands
from solver.family import Family
from solver.numbering import shortcut
from solver.numbering.scharnagl import scharnagl_rank
from solver.numbering.shortcut import Arithmetic, Choice
from solver.ruleset.bundled import bundled_path
from solver.ruleset.reader import bundled_names

OFF = "shortcut: chess960 arithmetic (off: rules/chess960.toml differs from the shipped file)"


def _scharnagl(number: int) -> str:
    """Scharnagl's rank of ``number``, transcribed from the published scheme
    (Wikipedia's "Fischer random chess numbering scheme"), apart from the code."""
    n, light = divmod(number, 4)
    n, dark = divmod(n, 4)
    krn, queen = divmod(n, 6)
    row = [""] * 8
    row[2 * light + 1] = row[2 * dark] = "B"
    free = [i for i in range(8) if not row[i]]
    row[free.pop(queen)] = "Q"
    table = ["NNRKR", "NRNKR", "NRKNR", "NRKRN", "RNNKR",
             "RNKNR", "RNKRN", "RKNNR", "RKNRN", "RKRNN"][krn]
    for square, piece in zip(free, table, strict=True):
        row[square] = piece
    return "".join(row)


def _sample(count: int) -> list[int]:
    """IDs spread over a family (few: an enumerated family's ID costs a count)."""
    return sorted({0, 1, count // 3, 2 * count // 3, count - 1} & set(range(count)))


def test_the_arithmetic_answers_for_the_shipped_chess960_only() -> None:
    from solver.numbering.shortcut import blake2b

    data = Path(bundled_path("chess960") or "").read_bytes()
    digest = blake2b(data, digest_size=32).hexdigest()
    assert digest == shortcut.CHESS960_DIGEST, (
        "rules/chess960.toml is not the file the arithmetic answers for, so every command "
        "answers Chess960 from the family (slower), and `chess960 check` says the shortcut "
        "is off. If the edit is meant, prove it (`chess960 check`), then set CHESS960_DIGEST "
        f"in solver/numbering/shortcut.py to {digest!r}")
    choice = shortcut.arithmetic("chess960")
    assert isinstance(choice.shortcut, Arithmetic)
    assert str(choice) == ("shortcut: chess960 arithmetic (on: rules/chess960.toml is the "
                           "shipped file)")
    assert not shortcut.arithmetic("chess480").on
    assert not shortcut.arithmetic(str(bundled_path("chess960"))).on  # a path: the family


def test_the_arithmetic_is_scharnagls_published_scheme() -> None:
    arithmetic = Arithmetic()
    for number in range(960):
        rank = _scharnagl(number)
        assert arithmetic.rank(number) == rank
        assert arithmetic.id_of(rank) == number
        assert arithmetic.id_of(rank.lower()) is None
        assert arithmetic.number(str(number)) == number
    assert [arithmetic.number(text) for text in ("0518", "+518", "960", "-1", "５")] == [None] * 5


@pytest.mark.parametrize("name", bundled_names())
def test_every_shortcut_answers_as_the_family_does(name: str) -> None:
    """Each family's shortcut that is on (the arithmetic: Chess960's only), on a
    sample of its ids, against the family loaded afresh; every other family none."""
    family = Family.load(name)
    choices = shortcut.shortcuts(name, family.name)
    assert choices and all(str(choice).startswith("shortcut: ") for choice in choices)
    if name != "chess960":
        assert choices == [Choice("none", f"{name} answers every command itself")]
        return
    assert [choice.label for choice in choices if choice.on] == ["chess960 arithmetic"]
    for choice in choices:
        if choice.shortcut is None:
            continue
        found = choice.shortcut
        assert found.count == family.count
        for number in _sample(family.count):
            rank = family.position(number).white
            assert found.rank(number) == rank, (name, choice.label, number)
            assert found.id_of(rank) == family.identify(rank).id == number
            assert found.number(str(number)) == number


def _loads(monkeypatch: pytest.MonkeyPatch, module: object) -> list[str]:
    """The families ``module.load_family`` loads from now on, in order (it still loads them)."""
    loaded: list[str] = []
    real = module.load_family
    monkeypatch.setattr(module, "load_family",
                        lambda rules, *a, **k: loaded.append(rules) or real(rules, *a, **k))
    return loaded


def test_the_commands_answer_through_the_chosen_shortcut(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``position`` answers Chess960 by the arithmetic without loading the family,
    and a family with no shortcut on from the family."""
    loaded = _loads(monkeypatch, commands)
    out = io.StringIO()
    assert commands.position_command("chess960", ["518", "0"], stdin=None, out=out,
                                     err=io.StringIO()) == 0
    assert out.getvalue() == f"{_scharnagl(518)}\n{_scharnagl(0)}\n" and loaded == []
    err = io.StringIO()
    assert commands.rules_command(out=io.StringIO(), err=err) == 0 and err.getvalue() == ""
    assert shortcut.choose("chess480") == Choice("none", "chess480 answers every command itself")


def test_solve_count_answers_through_the_shortcut_as_the_solver_counts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve --count`` of the shipped Chess960 is the arithmetic's count, without
    loading the family, and it is the count the constraint solver finds (the
    product of Scharnagl's choices, 4 * 4 * 6 * 10, counted apart from the code);
    a family with no shortcut is counted by the solver."""
    loaded = _loads(monkeypatch, commands)
    out = io.StringIO()
    assert commands.solve_command("chess960", count=True, out=out, err=io.StringIO()) == 0
    assert out.getvalue() == "960\n" and loaded == []
    assert len(Family.load("chess960").solver_ranks()) == 4 * 4 * 6 * 10 == Arithmetic.count
    out = io.StringIO()
    assert commands.solve_command("chess480", count=True, out=out, err=io.StringIO()) == 0
    assert out.getvalue() == f"{len(Family.load('chess480').solver_ranks())}\n"
    assert loaded == ["chess480"]


def _fritz9(rank: str) -> int:
    """Fritz 9's number of a Chess960 rank, from its definition (the rule file's
    source line), apart from the code: the light bishop, the dark bishop, the
    knight pair among the six squares left, then the queen among the four left,
    the first the least significant digit, counted from 1."""
    from itertools import combinations

    bishops = [i for i, p in enumerate(rank) if p == "B"]
    light = next(i for i in bishops if i % 2) // 2
    dark = next(i for i in bishops if not i % 2) // 2
    free = [i for i in range(8) if rank[i] != "B"]
    knights = list(combinations(free, 2)).index(tuple(i for i in free if rank[i] == "N"))
    rest = [i for i in free if rank[i] != "N"]
    queen = rest.index(rank.index("Q"))
    return 1 + light + 4 * dark + 16 * knights + 16 * 15 * queen


def test_the_arithmetic_numberings_are_the_published_ones() -> None:
    """Apart from the family: Scidb's 1..960 (960 for 0), Jocly's dark bishop
    first, TCEC's label, Fritz 9's knights before the queen."""
    numberings = Arithmetic.numberings
    assert numberings["scidb"].text(0) == "960" and numberings["scidb"].text(518) == "518"
    assert numberings["tcec"].text(518) == "FRC 518"
    for number in range(960):
        rank = _scharnagl(number)
        assert numberings["fritz9"].text(number) == str(_fritz9(rank))
        n, light = divmod(number, 4)
        n, dark = divmod(n, 4)
        krn, queen = divmod(n, 6)
        assert numberings["jocly"].text(number) == f"#{dark * 240 + light * 60 + queen * 10 + krn}"
    assert numberings["fritz9"].text(518) == "359" and numberings["jocly"].text(518) == "#385"


def test_every_arithmetic_numbering_writes_and_reads_as_the_family_does() -> None:
    """Every numbering of the shipped Chess960, for every ID, as the family's
    schemes (the names in the same order); ``check`` proves the same."""
    family = Family.load("chess960")
    ranks = [family.position(i).white for i in range(960)]
    assert shortcut.prove(Arithmetic(), ranks, schemes=family.schemes) == []
    assert list(Arithmetic.numberings) == list(family.schemes)
    wrong = dict(family.schemes)
    wrong["scidb"] = family.schemes["xboard"]
    assert shortcut.prove(Arithmetic(), ranks, range, wrong)[:1] == [
        "scidb 0: '0' by the family, '960' by the shortcut, which reads '0' as None"]


_CONVERTED = ["0", "518", "959", "960", "961", "0518", " 518", "+1", "#385", "#0385",
              "FRC 518", "frc 518", "FRC  518", "x", "", "-1", "１"]


def _convert(rules: str, texts: list[str], source: str | None,
             target: str | None) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    code = commands.convert_command(rules, texts, source, target, stdin=None, out=out, err=err)
    return out.getvalue(), err.getvalue(), code


def test_convert_answers_through_the_shortcut_as_the_family_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``convert`` of the shipped Chess960 between any two of its numberings: every
    number each writes, without loading the family, and other texts (the family
    reads them, and words the errors) the same as with no shortcut on."""
    names = [None, *Arithmetic.numberings, "no-such"]
    every = {name: [Arithmetic.numberings[name].text(i) for i in range(960)]
             for name in Arithmetic.numberings}
    loaded = _loads(monkeypatch, commands)
    quick = {}
    for source, target in zip(names, names[1:] + names[:1], strict=True):
        if source in every and target != "no-such":
            loaded.clear()
            quick[source, target, "every"] = _convert("chess960", every[source], source, target)
            assert loaded == [], (source, target)
        quick[source, target, "other"] = _convert("chess960", _CONVERTED, source, target)
    assert quick["scidb", "xboard", "every"][0].split() == every["xboard"]
    monkeypatch.setattr(shortcut, "choose", _no_shortcut)
    for (source, target, which), answer in quick.items():
        texts = every[source] if which == "every" else _CONVERTED
        assert answer == _convert("chess960", texts, source, target), (source, target)


def _edited(tmp_path: Path) -> Path:
    """A copy of the bundled rules whose chess960.toml has one numbering more."""
    folder = tmp_path / "rules"
    folder.mkdir()
    for path in Path(bundled_path("chess960") or "").parent.glob("*.toml"):
        (folder / path.name).write_bytes(path.read_bytes())
    added = ('\n[[numberings]]\nname = "knights-first"\ntitle = "knights before the queen"\n'
             'source = "made up for the test"\nsteps = ["B:light", "B:dark", "NN", "Q", "RKR"]\n')
    (folder / "chess960.toml").write_text((folder / "chess960.toml").read_text() + added)
    return folder


def test_an_edited_chess960_turns_the_arithmetic_off_visibly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from solver.ruleset import bundled

    folder = str(_edited(tmp_path))
    monkeypatch.setattr(bundled, "rules_folder", lambda: folder)
    choice = shortcut.choose("chess960")
    assert str(choice) == OFF and choice.shortcut is None
    out, err = io.StringIO(), io.StringIO()
    assert commands.check_command("chess960", out=out, err=err) == 0
    lines = out.getvalue().splitlines()
    assert lines[1] == f"  {OFF}"
    assert "  ok   numbering knights-first (0..959) is a bijection and reads back what it writes" \
        in lines
    assert lines[-1] == "  960 positions, arithmetic numbering, proven"
    assert not any("shortcut chess960 arithmetic answers" in line for line in lines)
    out, err = io.StringIO(), io.StringIO()
    assert commands.rules_command(out=out, err=err) == 0
    assert "chess960 " in out.getvalue() and err.getvalue() == f"chess960: {OFF}\n"
    # the answers stay right: the family answers, as Scharnagl numbers
    out = io.StringIO()
    assert commands.solve_command("chess960", count=True, out=out, err=io.StringIO()) == 0
    assert out.getvalue() == "960\n"
    ids = [0, 105, 518, 959]
    out = io.StringIO()
    assert commands.position_command("chess960", [str(i) for i in ids], stdin=None, out=out,
                                     err=io.StringIO()) == 0
    assert out.getvalue().split() == [_scharnagl(i) for i in ids]
    out = io.StringIO()
    assert commands.identify_command("chess960", [_scharnagl(i) for i in ids], stdin=None,
                                     out=out, err=io.StringIO()) == 0
    assert out.getvalue().split() == [str(i) for i in ids]
    out = io.StringIO()
    assert commands.identify_command("chess960", ["RNBQKBNR"], stdin=None, out=out,
                                     err=io.StringIO(), numbering="knights-first") == 0
    assert out.getvalue() == "358\n"  # fritz9's steps, from 0 (Fritz 9 counts from 1: 359)


@pytest.mark.slow
@pytest.mark.parametrize("name", bundled_names())
def test_check_proves_every_shortcut_for_every_position(name: str) -> None:
    family = Family.load(name)
    choices = shortcut.shortcuts(name, family.name)
    report = check(family, choices)
    assert report.shortcuts == [str(choice) for choice in choices]
    proven = [claim for claim in report.claims if claim.text.startswith("shortcut ")]
    assert len(proven) == sum(choice.on for choice in choices)
    assert all(claim.ok for claim in proven), [c.detail for c in proven]


# --- An edited rules/chess960.toml is a family like any other ---


def _chess480() -> list[str]:
    """Chess480 by hand: of each Chess960 mirror pair, the rank whose king
    stands right of its queen, in Scharnagl's order (its numbering's definition)."""
    order = [scharnagl_rank(i) for i in range(960)]
    return [r for r in order if r.index("K") > r.index("Q")]


def test_the_chess480_brute_force_is_fischers() -> None:
    """The hand-made order above draws on Scharnagl's arithmetic: 480 ranks,
    each Chess960 rank or its mirror."""
    from itertools import permutations

    kept = _chess480()
    every = {"".join(p) for p in permutations("KQRRBBNN")}
    assert len(kept) == 480 and set(kept) <= every
    assert {r[::-1] for r in kept}.isdisjoint(kept)


def _as_chess480(tmp_path: Path) -> Path:
    """A copy of the bundled rules whose chess960.toml holds chess480's rules."""
    folder = tmp_path / "rules"
    folder.mkdir()
    bundled = Path(bundled_path("chess960") or "").parent
    for path in bundled.glob("*.toml"):
        (folder / path.name).write_bytes(path.read_bytes())
    text = (bundled / "chess480.toml").read_text()
    (folder / "chess960.toml").write_text(text.replace('name = "chess480"', 'name = "chess960"'))
    return folder


def _answer(command: str, rules: str, texts: list[str], fmt: str) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    run = commands.identify_command if command == "id" else commands.position_command
    code = run(rules, texts, fmt, stdin=None, out=out, err=err)
    return out.getvalue(), err.getvalue(), code


@pytest.mark.parametrize("fmt", ["text", "fen", "json"])
def test_an_edited_chess960_answers_from_its_file_in_every_format(
        fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain text no longer comes from the arithmetic when rules/chess960.toml is
    edited (the bundled folder pointed elsewhere), nor for --rules to an edited copy."""
    from solver.ruleset import bundled

    first, last = _chess480()[0], _chess480()[-1]
    folder = _as_chess480(tmp_path)
    monkeypatch.setattr(bundled, "rules_folder", lambda: str(folder))
    path = str(folder / "chess960.toml")
    for rules in ("chess960", path):
        for _ in range(2):  # the same on every run: nothing is kept
            written, err, code = _answer("position", rules, ["479", "0"], fmt)
            assert code == 0 and err == ""
            assert last in written and first in written
            assert scharnagl_rank(479) not in written and scharnagl_rank(479) != last
            assert (written, err, code) == _answer("position", path, ["479", "0"], fmt)
            answer = _answer("id", rules, ["RNBKQBNR", last], fmt)
            assert answer == _answer("id", path, ["RNBKQBNR", last], fmt)
            assert answer[2] == 1 and "rank" in answer[1]
            assert fmt != "text" or answer[0] == "479\n"
    assert not shortcut.pristine_chess960()


def _no_shortcut(rules: str) -> Choice:
    return Choice("none", f"{rules} answers every command itself")


def test_eval_reads_through_the_shortcut_as_the_family_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``eval`` of the shipped Chess960 reads a plain ID or rank through the arithmetic,
    without loading the family, and shows what it shows from the family for every
    ID and every rank (other inputs load the family, as before)."""
    from solver.cli import evaluate

    texts = [str(i) for i in range(960)] + [_scharnagl(i) for i in range(0, 960, 7)] + [
        "rnbqkbnr", "0518", "960", "x"]
    loaded = _loads(monkeypatch, evaluate)
    quick_out, quick_err = io.StringIO(), io.StringIO()
    assert evaluate.figures_command("chess960", texts[:960], "text", [], out=quick_out,
                                    err=quick_err) == 0
    assert loaded == []
    assert evaluate.figures_command("chess960", texts, "text", [], out=quick_out,
                                    err=quick_err) == 1
    assert loaded == ["chess960"]  # for the inputs the arithmetic does not read
    monkeypatch.setattr(shortcut, "choose", _no_shortcut)
    out, err = io.StringIO(), io.StringIO()
    assert evaluate.figures_command("chess960", texts[:960], "text", [], out=out,
                                    err=err) == 0
    assert evaluate.figures_command("chess960", texts, "text", [], out=out, err=err) == 1
    assert quick_out.getvalue() == out.getvalue() and quick_err.getvalue() == err.getvalue()
    assert "chess960 518 RNBQKBNR\n" in out.getvalue()


@pytest.mark.parametrize("sides", [6, 10, 20])
def test_dice_counts_through_the_shortcut_as_the_rule_file_does(
        sides: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``dice`` of the shipped Chess960 takes the arithmetic's count without reading
    the rule file, and states the same draw as with the rule file's count."""
    from solver.cli.draws import dice_command
    from solver.ruleset import reader

    read: list[str] = []
    real = reader.load
    monkeypatch.setattr(reader, "load", lambda rules, *a: read.append(rules) or real(rules, *a))
    quick = io.StringIO()
    for rules in (None, "chess960"):
        assert dice_command(rules, None, sides, False, False, out=quick, err=io.StringIO()) == 0
        assert dice_command(rules, None, sides, False, True, out=quick, err=io.StringIO()) == 0
    assert read == [] and "960" in quick.getvalue()
    monkeypatch.setattr(shortcut, "choose", _no_shortcut)
    out = io.StringIO()
    for rules in (None, "chess960"):
        assert dice_command(rules, None, sides, False, False, out=out, err=io.StringIO()) == 0
        assert dice_command(rules, None, sides, False, True, out=out, err=io.StringIO()) == 0
    assert read == ["chess960"] * 4 and out.getvalue() == quick.getvalue()
    assert reader.load("chess960").count == Arithmetic.count


# --- lint of plain Chess960 start FENs: answered without the linter, as it answers ---


def _start_fen(number: int) -> str:
    rank = _scharnagl(number)
    return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"


#: Lines that are not plain Chess960 start FENs, each changing one thing.
_ODD = [lambda f: f.replace(" 0 1", ""), lambda f: f.replace("KQkq", "HAha"),
        lambda f: f.replace("KQkq", "KQk"), lambda f: f + " ", lambda f: f + "\r",
        lambda f: "", lambda f: f.replace("w", "b"), lambda f: f.upper(),
        lambda f: f.replace("N", "Q", 1),
        lambda f: "rbqnkbnr" + f[8:35] + "RBQNKBNR" + f[43:],  # bishops on one colour
        lambda f: f.replace("pppppppp", "pppp1ppp"), lambda f: "# " + f,
        lambda f: f + ' id "chess960 518";', lambda f: "\ufeff" + f, lambda f: f.lower()]


def _lint(paths: list[str]) -> tuple[str, str, int]:
    from solver.cli.lists import lint_command

    out, err = io.StringIO(), io.StringIO()
    code = lint_command(paths, None, None, None, None, False, False, None, False, out=out,
                        err=err)
    return out.getvalue(), err.getvalue(), code


@settings(max_examples=examples(25, 1000))
@given(st.lists(st.lists(st.tuples(st.integers(0, 959), st.integers(-1, len(_ODD) - 1)),
                         max_size=6), min_size=1, max_size=3), st.booleans())
def test_lint_answers_plain_chess960_books_as_the_linter_does(
        books: list[list[tuple[int, int]]], ending: bool) -> None:
    """Books of Chess960 start FENs (some lines changed: another castling field,
    another rank, a comment, a blank): ``lint``'s answer without the linter is the
    linter's, and it is taken only where every line is plain."""
    import tempfile

    from solver.cli import lists

    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, lines in enumerate(books):
            text = "\n".join(_ODD[odd](_start_fen(n)) if odd >= 0 else _start_fen(n)
                             for n, odd in lines) + ("\n" if ending and lines else "")
            paths.append(str(Path(folder) / f"book{index}.epd"))
            Path(paths[-1]).write_bytes(text.encode())
        plain = lists._plain_books(paths)
        quick = _lint(paths)
        real = lists._plain_books
        try:
            lists._plain_books = lambda paths: None
            assert quick == _lint(paths)
        finally:
            lists._plain_books = real
        # 0: EPD, plain too; a blank last line with no line break after it is no
        # line at all (its book then ends in one: plain, a line shorter)
        kept = [[odd for at, (_, odd) in enumerate(lines)
                 if not (odd == 5 and 0 < at == len(lines) - 1 and not ending)]
                for lines in books]
        assert (plain is not None) == (all(kept) and all(odd <= 0 for odds in kept
                                                         for odd in odds))
        assert plain is None or plain == [len(odds) for odds in kept]


def test_lint_of_plain_chess960_fens_loads_no_linter(tmp_path: Path) -> None:
    """Every Chess960 start FEN, and as EPD, plain: each right, counted, read
    without the linter (a new process, whose modules are watched)."""
    import subprocess
    import sys

    book = tmp_path / "all.epd"
    book.write_text("".join(f"{_start_fen(n)}\n" for n in range(960))
                    + "".join(f"{_start_fen(n)[:-4]}\n" for n in range(960)))
    assert _lint([str(book)]) == (f"{book}: 1,920 start positions, 0 problems\n", "", 0)
    code = ("import sys; from solver.cli.entry import dispatch; "
            f"code = dispatch(['lint', {str(book)!r}]); "
            "print(sorted(m for m in sys.modules if m.startswith('solver.lists')), code)")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout
    assert found.endswith("[] 0\n"), found
