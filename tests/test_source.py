"""One way from a ``--rules`` argument to a rule file's bytes (solver/ruleset/source.py):
the library refuses what the command refuses, and a run reads its rule file once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from solver import Family, RuleFileError
from solver.errors import UnknownRuleSetError
from solver.ruleset.limits import MAX_FILE_BYTES
from solver.ruleset.reader import load, rules_dir
from solver.ruleset.source import RuleSource, locate

ROOT = Path(__file__).resolve().parent.parent


def _in_child(code: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """``code`` run in a fresh interpreter, killed if it waits (as a FIFO would make it)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, check=False)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("how", ["Family.load", "load"])
def test_the_library_refuses_a_fifo_at_once(tmp_path: Path, how: str) -> None:
    fifo = tmp_path / "a-fifo.toml"
    os.mkfifo(fifo)
    done = _in_child(f"""
        from solver import Family, RuleFileError
        from solver.ruleset.reader import load, rules_dir
        try:
            {how}({str(fifo)!r})
        except RuleFileError as exc:
            print(type(exc).__name__, exc)
    """)
    assert done.stdout == f"RuleFileReadError {fifo}: not a regular file\n", done.stderr


@pytest.mark.parametrize("path", ["dir.toml", "dir/"])
def test_the_library_refuses_a_directory(tmp_path: Path, path: str,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / path.rstrip("/")).mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuleFileError, match="not a regular file"):
        Family.load(path)


def test_the_library_refuses_a_file_over_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(RuleFileError, match=f"larger than {MAX_FILE_BYTES:,} bytes"):
        load(str(big))
    with pytest.raises(RuleFileError, match=f"larger than {MAX_FILE_BYTES:,} bytes"):
        RuleSource.read(str(big))


def test_a_missing_file_and_an_unknown_name() -> None:
    with pytest.raises(RuleFileError) as caught:
        Family.load("no/such.toml")
    assert str(caught.value) == "no/such.toml: cannot read: No such file or directory"
    with pytest.raises(UnknownRuleSetError, match="did you mean 'chess960'"):
        Family.load("chess961")
    assert locate("chess961") is None


def test_a_bundled_name_and_its_path_read_the_same_bytes() -> None:
    by_name = RuleSource.read("chess960")
    bundled = rules_dir() / "chess960.toml"  # beside the package, or inside the wheel's
    by_path = RuleSource.read(str(bundled))
    assert by_name.data == by_path.data == bundled.read_bytes()
    assert (by_name.shown, by_name.bundled, by_path.bundled) == (
        "rules/chess960.toml", True, False)
    assert Family.from_source(by_name).count == 960


# A run of the command that answers from the rule file (not the arithmetic of chess960)
# opens it once: the family is loaded from its bytes, read once.
_COUNT_OPENS = """
    import builtins, io, os, sys
    opened = []
    real_open, real_os_open = builtins.open, os.open
    def spy(path, *a, **k):
        if str(path).endswith("chess480.toml"):
            opened.append(str(path))
        return real_open(path, *a, **k)
    def os_spy(path, *a, **k):
        if str(path).endswith("chess480.toml"):
            opened.append(str(path))
        return real_os_open(path, *a, **k)
    builtins.open, io.open, os.open = spy, spy, os_spy
    from solver.cli import commands
    out = io.StringIO()
    for command in {commands}:
        command
    print(len(opened), out.getvalue().split())
"""


@pytest.mark.parametrize("call", [
    'commands.identify_command("chess480", ["RNBQKBNR"], stdin=None, out=out, err=sys.stderr)',
    'commands.position_command("chess480", ["1"], stdin=None, out=out, err=sys.stderr)',
    'commands.random_command("chess480", 2, seed="1", out=out, err=sys.stderr)',
    'commands.position_command("chess480", ["1"], "fen", stdin=None, out=out, err=sys.stderr)',
])
def test_a_run_reads_its_rule_file_once(call: str, tmp_path: Path) -> None:
    done = _in_child(textwrap.dedent(_COUNT_OPENS).replace("{commands}", f"[{call}]"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "1", done.stdout
