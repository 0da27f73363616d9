"""No answers kept between runs (issue 34): ``--help`` is Typer's on every run,
``check`` proves its family on every run (issue 33: a kept proof answered
"proven" for a rule file that does not prove), and no command writes to the
user's cache directory (the tables of ranks kept there are gone)."""

from __future__ import annotations

import importlib.util
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inprocess import chess960

import solver
import solver.check
from solver.cli import app, commands, entry
from solver.ruleset.bundled import bundled_path
from solver.ruleset.bundled import rules_folder as bundled_folder


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home and a cache directory of the test's own (empty)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("COLUMNS", "80")
    return home


def _written(home: Path) -> list[Path]:
    return sorted(path for path in home.rglob("*"))


def test_the_help_is_typers_on_every_run_and_keeps_nothing(
        folder: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``chess960 --help`` is Typer's, worded afresh on every run: no answer is
    kept between runs (issue 34), so another width or environment words it anew."""
    calls: list[list[str]] = []
    real = app.run

    def counted(argv: list[str]) -> int:
        calls.append(list(argv))
        return real(argv)

    monkeypatch.setattr(app, "run", counted)
    for _ in range(2):
        assert entry.dispatch(["--help"]) == 0
        assert capsys.readouterr().out.startswith("Usage: chess960 [OPTIONS] COMMAND")
    monkeypatch.setenv("COLUMNS", "60")
    assert entry.dispatch(["--help"]) == 0
    narrow = capsys.readouterr().out
    assert max(len(line) for line in narrow.splitlines()) <= 60
    assert calls == [["--help"]] * 3
    assert _written(folder) == []
    assert importlib.util.find_spec("solver.cli.cache") is None  # no tables kept anywhere


def _check(rules: str) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    code = commands.check_command(rules, out=out, err=err)
    return out.getvalue(), err.getvalue(), code


def test_check_proves_on_every_run_and_keeps_nothing(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = solver.check.check
    proven: list[str] = []

    def counted(family: object, *shortcuts: object) -> solver.check.Report:
        report = real(family, *shortcuts)  # type: ignore[arg-type]
        proven.append(report.family)
        return report

    monkeypatch.setattr(solver.check, "check", counted)
    first = _check("janggi")  # a family proven in a tenth of a second: any family would do
    assert first[2] == 0 and first[0].endswith("16 positions, enumerated numbering, proven\n")
    second = _check("janggi")
    assert second[:1] == first[:1] and second[2] == 0
    assert second[1].startswith("janggi: checked in ")
    assert proven == ["janggi", "janggi"]
    assert _written(folder) == []


def test_commands_write_nothing_to_the_users_cache(folder: Path) -> None:
    """``id``, ``position``, ``random`` and ``convert`` of a small family, twice each,
    as the console command runs them (its entry point, in this process): the home
    and the cache directory stay empty, and the second answer is computed as the
    first was."""
    runs = [["id", "-r", "chess480", "QNRBBNKR", "RNBQKBNR"], ["position", "-r", "chess480", "7"],
            ["random", "-r", "chess480", "--seed", "1"],
            ["position", "-r", "capablanca-random-full", "7"],
            ["convert", "-r", "chess480", "7", "--to", "one-based"]]
    for args in runs:
        answers = [chess960(args, cwd=folder) for _ in range(2)]
        assert answers[0].returncode == 0, answers[0].stderr
        assert (answers[1].stdout, answers[1].stderr) == (answers[0].stdout, answers[0].stderr)
    assert _written(folder) == []


#: The family these tests prove: any would do; Janggi's 16 positions prove at once.
PROVEN = "janggi"


def _unproven_copy(path: Path) -> None:
    """The bundled Janggi with a count it does not have: it does not prove."""
    bundled = bundled_path(PROVEN)
    assert bundled is not None
    data = Path(bundled).read_bytes()
    assert b"\ncount = 16\n" in data
    path.write_bytes(data.replace(b"\ncount = 16\n", b"\ncount = 9\n"))


def _installed(args: list[str], env: dict[str, str],
               cwd: Path) -> subprocess.CompletedProcess[str]:
    """The console command (run from ``cwd``, so that no tree there is imported instead)."""
    return subprocess.run([sys.executable, "-m", "solver", *args], check=False,
                          capture_output=True,
                          text=True, env=env, timeout=120, cwd=cwd)


def test_a_rule_file_replaced_while_check_runs_is_not_called_proven(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: ``check`` proved the file it loaded, then read the file again to
    keep the proof; replaced meanwhile, the bad file was "proven" from then on."""
    rules, bad = tmp_path / "family.toml", tmp_path / "bad.toml"
    bundled = bundled_path(PROVEN)
    assert bundled is not None
    rules.write_bytes(Path(bundled).read_bytes())
    _unproven_copy(bad)
    real = solver.check.check

    def swapped(family: object, *shortcuts: object) -> solver.check.Report:
        report = real(family, *shortcuts)  # type: ignore[arg-type]
        os.replace(bad, rules)
        return report

    with monkeypatch.context() as patched:
        patched.setattr(solver.check, "check", swapped)
        raced = chess960(["check", "-r", str(rules)], cwd=tmp_path)
    assert raced.returncode == 0, raced.stderr
    assert rules.read_bytes() != Path(bundled).read_bytes()  # the bad file is in place
    later = chess960(["check", "-r", str(rules)], cwd=tmp_path)
    assert later.returncode == 1, later.stdout
    assert later.stdout.endswith("16 positions, enumerated numbering, NOT proven\n")
    assert ("FAIL the solver finds the declared count 9 (4 per side, squared): found 16"
            in later.stdout)
    assert later.stderr.splitlines()[-1] == "error: check failed for janggi"


def test_a_module_edited_with_its_size_and_time_kept_is_proven_again(tmp_path: Path) -> None:
    """Issue 33: the kept proof was keyed on modules' sizes and modification
    times; a module edited with both kept still answered "proven"."""
    tree = tmp_path / "tree"
    shutil.copytree(Path(solver.__file__).parent, tree / "solver",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(Path(bundled_folder()), tree / "rules")
    # Bytecode in a folder of the test's own, so that the runs compile the tree once;
    # Python's own cache is keyed on sizes and times too, so the edited module's
    # bytecode is removed below (the claim is about the program keeping nothing).
    bytecode = tmp_path / "bytecode"
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONPYCACHEPREFIX": str(bytecode)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for _ in range(2):
        good = _installed(["check", "-r", PROVEN], env, tmp_path)
        assert good.returncode == 0, good.stderr
        assert good.stdout.endswith("16 positions, enumerated numbering, proven\n")
    module = tree / "solver" / "check.py"
    before = module.stat()
    text = module.read_text()
    listed = 'if report.found == rules.count else [f"found'  # the listing's count claim
    assert text.count(listed) == 1
    module.write_text(text.replace(listed, listed.replace("==", "!=")))
    os.utime(module, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = module.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    compiled = [path for path in bytecode.rglob("check.*.pyc") if path.parent.name == "solver"]
    assert len(compiled) == 1, compiled
    compiled[0].unlink()
    edited = _installed(["check", "-r", PROVEN], env, tmp_path)
    assert edited.returncode == 1, edited.stdout
    assert edited.stdout.endswith("16 positions, enumerated numbering, NOT proven\n")
