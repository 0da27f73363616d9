"""Answers kept between runs (solver.cli.cache.keep): the top-level help and a
family's proof, written again from the cache only for the very program (its
modules, Typer's or python-constraint's, Python), rule file and terminal width
that made them, and never when their tag does not prove them the cache's own."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import solver.check
from solver.cli import app, cache, commands, entry
from solver.ruleset.bundled import bundled_path


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


def _check(rules: str) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    code = commands.check_command(rules, out=out, err=err)
    return out.getvalue(), err.getvalue(), code


def test_a_proof_is_kept_for_the_rule_file_that_was_proven(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proven, said, code = _check("chess960")
    assert code == 0 and proven.endswith("960 positions, arithmetic numbering, proven\n")
    assert said.startswith("chess960: checked in ")
    with monkeypatch.context() as patch:
        patch.setattr(solver.check, "check", _no)
        again, said, code = _check("chess960")
    assert (again, code) == (proven, 0)
    assert said.startswith("chess960: proven by an earlier run of this program")
    # The same family in other bytes (a comment more) is proven again.
    copy = tmp_path / "chess960.toml"
    path = bundled_path("chess960")
    assert path is not None
    copy.write_bytes(Path(path).read_bytes() + b"\n# a comment\n")
    with monkeypatch.context() as patch:
        patch.setattr(solver.check, "check", _no)
        with pytest.raises(AssertionError, match="answered again"):
            _check(str(copy))
    assert _check(str(copy))[1].startswith("chess960: checked in ")
    # An edited proof is not the cache's own: the family is proven again.
    for kept in folder.glob("check-*.kept"):
        kept.write_bytes(kept.read_bytes().replace(b"ok  ", b"OK  "))
    assert _check("chess960")[:1] == (proven,)
    assert "checked in" in _check(str(copy))[1]


def test_a_stamp_changes_with_any_module_of_a_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "stamped_example"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    module = package / "inner" / "deep.py"
    module.write_text("x = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = cache.program_stamp("stamped_example")
    assert before == cache.program_stamp("stamped_example") != cache.program_stamp()
    module.write_text("x = 22\n")  # another size
    assert cache.program_stamp("stamped_example") != before
    with pytest.raises(OSError):
        cache.program_stamp("no_such_package_here")
