"""Answers kept between runs (solver.cli.cache.keep): only the top-level help,
written again from the cache only for the very bytes that made it (the
program's modules, Typer's, Click's and Rich's, Python), the terminal width and
the environment variables they read, and never when its tag does not prove it
the cache's own. ``check`` keeps nothing: it proves its family on every run
(issue 33: a kept proof answered "proven" for a rule file that does not prove)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import solver
import solver.check
from solver.cli import app, cache, commands, entry
from solver.ruleset.bundled import bundled_path
from solver.ruleset.bundled import rules_folder as bundled_folder


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    made = tmp_path / "cache"
    monkeypatch.setenv("CHESS960_CACHE_DIR", str(made))
    monkeypatch.delenv("CHESS960_NO_CACHE", raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    return made


def _help(capsys: pytest.CaptureFixture[str]) -> str:
    assert entry.top_help(["--help"]) == 0
    return capsys.readouterr().out


def _typer_help(capsys: pytest.CaptureFixture[str]) -> str:
    assert app.run(["--help"]) == 0
    return capsys.readouterr().out


def _no(*args: object, **kwargs: object) -> int:
    raise AssertionError("answered again although it was kept")


def test_the_help_is_typers_and_is_kept_for_the_terminal_width(
        folder: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    typer_help = _typer_help(capsys)
    assert typer_help.startswith("Usage: chess960 [OPTIONS] COMMAND")
    assert _help(capsys) == typer_help
    [kept] = folder.glob("help-*.kept")
    with monkeypatch.context() as patch:
        patch.setattr(app, "run", _no)
        assert _help(capsys) == typer_help
    monkeypatch.setenv("COLUMNS", "60")  # another width: Typer words it again
    narrow = _typer_help(capsys)
    assert narrow != typer_help and _help(capsys) == narrow
    assert len(list(folder.glob("help-*.kept"))) == 2
    kept.write_bytes(kept.read_bytes().replace(b"Usage:", b"Usage?"))
    monkeypatch.setenv("COLUMNS", "80")
    assert _help(capsys) == typer_help  # an edited answer is not the cache's own


def test_no_cache_keeps_no_help(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CHESS960_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("CHESS960_NO_CACHE", "1")
    assert _help(capsys) == _typer_help(capsys)
    assert list(tmp_path.iterdir()) == []


def test_the_help_is_made_again_when_the_environment_that_words_it_changes(
        folder: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _help(capsys)
    calls: list[list[str]] = []
    real = app.run

    def counted(argv: list[str]) -> int:
        calls.append(argv)
        return real(argv)

    monkeypatch.setattr(app, "run", counted)
    assert _help(capsys) == plain and calls == []
    monkeypatch.setenv("FORCE_COLOR", "1")  # Rich and Click read it: Typer answers again
    _help(capsys)
    assert calls == [["--help"]]


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
    first = _check("chess960")
    assert first[2] == 0 and first[0].endswith("960 positions, arithmetic numbering, proven\n")
    second = _check("chess960")
    assert second[:1] == first[:1] and second[2] == 0
    assert second[1].startswith("chess960: checked in ")
    assert proven == ["chess960", "chess960"]
    assert not list(folder.glob("check-*")) if folder.exists() else True


def _unproven_copy(path: Path) -> None:
    """The bundled Chess960 with a count it does not have: it does not prove."""
    bundled = bundled_path("chess960")
    assert bundled is not None
    data = Path(bundled).read_bytes()
    assert b"\ncount = 960\n" in data
    path.write_bytes(data.replace(b"\ncount = 960\n", b"\ncount = 959\n"))


def _installed(args: list[str], env: dict[str, str],
               cwd: Path) -> subprocess.CompletedProcess[str]:
    """The console command (run from ``cwd``, so that no tree there is imported instead)."""
    return subprocess.run([sys.executable, "-m", "solver", *args], check=False,
                          capture_output=True,
                          text=True, env=env, timeout=120, cwd=cwd)


def test_a_rule_file_replaced_while_check_runs_is_not_called_proven(tmp_path: Path) -> None:
    """Issue 33: ``check`` proved the file it loaded, then read the file again to
    keep the proof; replaced meanwhile, the bad file was "proven" from then on."""
    rules, bad = tmp_path / "family.toml", tmp_path / "bad.toml"
    bundled = bundled_path("chess960")
    assert bundled is not None
    rules.write_bytes(Path(bundled).read_bytes())
    _unproven_copy(bad)
    env = {**os.environ, "CHESS960_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("CHESS960_NO_CACHE", None)
    swap = ("import os, sys\nimport solver.check\nreal = solver.check.check\n"
            "def swapped(family, *shortcuts):\n    report = real(family, *shortcuts)\n"
            f"    os.replace({str(bad)!r}, {str(rules)!r})\n    return report\n"
            "solver.check.check = swapped\nfrom solver.cli.entry import main\n"
            "sys.argv = ['chess960', 'check', '-r', sys.argv[1]]\nmain()\n")
    raced = subprocess.run([sys.executable, "-c", swap, str(rules)], check=False,
                           capture_output=True,
                           text=True, env=env, timeout=120, cwd=tmp_path)
    assert raced.returncode == 0, raced.stderr
    assert rules.read_bytes() != Path(bundled).read_bytes()  # the bad file is in place
    for run_env in (env, {**env, "CHESS960_NO_CACHE": "1"}):
        later = _installed(["check", "-r", str(rules)], run_env, tmp_path)
        assert later.returncode == 1, later.stdout
        assert later.stdout.endswith("960 positions, arithmetic numbering, NOT proven\n")
        assert "FAIL the solver finds the declared count 959: found 960" in later.stdout
        assert later.stderr.splitlines()[-1] == "error: check failed for chess960"


def test_a_module_edited_with_its_size_and_time_kept_is_proven_again(tmp_path: Path) -> None:
    """Issue 33: the kept proof was keyed on modules' sizes and modification
    times; a module edited with both kept still answered "proven"."""
    tree = tmp_path / "tree"
    shutil.copytree(Path(solver.__file__).parent, tree / "solver",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(Path(bundled_folder()), tree / "rules")
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1",
           "CHESS960_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("CHESS960_NO_CACHE", None)
    for _ in range(2):
        good = _installed(["check"], env, tmp_path)
        assert good.returncode == 0, good.stderr
        assert good.stdout.endswith("960 positions, arithmetic numbering, proven\n")
    module = tree / "solver" / "check.py"
    before = module.stat()
    text = module.read_text()
    assert text.count("if report.found == rules.count else") == 1
    module.write_text(text.replace("if report.found == rules.count else",
                                   "if report.found != rules.count else"))
    os.utime(module, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = module.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    edited = _installed(["check"], env, tmp_path)
    assert edited.returncode == 1, edited.stdout
    assert edited.stdout.endswith("960 positions, arithmetic numbering, NOT proven\n")


def test_a_kept_answer_is_used_only_while_its_modules_have_their_bytes(
        folder: Path, tmp_path: Path) -> None:
    module = tmp_path / "made_it.py"
    module.write_text("x = 1\n")
    parts = (b"some", b"parts")
    cache.keep("example", parts, "the answer", [str(module)])
    assert cache.find_kept("example", parts) == "the answer"
    assert cache.find_kept("example", (b"other", b"parts")) is None
    stat = module.stat()
    module.write_text("x = 2\n")  # the same size, the same time: not the bytes it was made from
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (module.stat().st_size, module.stat().st_mtime_ns) == (stat.st_size,
                                                                   stat.st_mtime_ns)
    assert cache.find_kept("example", parts) is None
    module.write_text("x = 1\n")
    assert cache.find_kept("example", parts) == "the answer"
    module.unlink()
    assert cache.find_kept("example", parts) is None


def test_the_help_lists_the_modules_that_made_it(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _help(capsys)
    [kept] = folder.glob("help-*.kept")
    listed = kept.read_bytes().split(b"\n", 2)[2].split(b"\0")[0].decode().split("\n")
    names = {Path(path).as_posix() for path in listed}
    assert any(name.endswith("solver/cli/app.py") for name in names)
    assert any(name.endswith("typer/main.py") for name in names)
    assert not any(name.endswith("/textwrap.py") for name in names)  # Python's own: its version
