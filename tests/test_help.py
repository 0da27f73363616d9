"""Help: every command's help has examples, and every example runs.

The examples are read from the help itself (each command's epilog, as
``chess960 <command> --help`` prints it) and run in a temporary directory:
each ``chess960`` stage of a pipeline in-process through
:func:`solver.cli.entry.dispatch`, any other stage (``head``, ``seq``) as the
program it names; ``> FILE`` writes the last stage's output to FILE.
"""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from profiles import sample

from solver.cli import app as cli
from solver.cli import entry

# The default run takes a sample of the examples (profiles.sample), CI's slow step the rest.

CHESS960 = Path(sys.executable).parent / "chess960"

#: Examples too slow for the default run (CI's slow run takes them).
SLOW = {"chess960 check --all"}
#: The sealed plan the examples of ``reveal`` and ``verify COMMIT`` read
#: (docs/how-to/sealed-draws.md's: its round 3 is 144, after 845 and 891).
SEALED = ("chess960 plan --rounds 9 --seed 5f0c2b7e9a41d3866e2f1b0c7d94a3e1 --exclude chess959 "
          "--commit commit.json --sealed sealed.json")


def _commands() -> dict[str, object]:
    group = typer.main.get_command(cli.app)
    return dict(group.commands)  # type: ignore[attr-defined]


def _examples(command: object) -> list[str]:
    epilog = getattr(command, "epilog", None) or ""
    _, _, lines = epilog.partition("Examples:\n")
    return [line.strip() for line in lines.splitlines() if line.strip()]


EXAMPLES = [(name, line) for name, command in _commands().items()
            for line in _examples(command)]


def test_every_command_has_examples_in_its_help() -> None:
    for name, command in _commands().items():
        assert _examples(command), name
    out = subprocess.run([str(CHESS960), "plan", "--help"], capture_output=True,
                         check=True).stdout.decode()
    assert "Examples:\n    chess960 plan --rounds" in out


def _dispatch(argv: list[str], stdin: bytes, monkeypatch: pytest.MonkeyPatch,
              ) -> tuple[bytes, str, int]:
    out = io.BytesIO()
    err = io.StringIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", newline="\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", err)
    code = entry.dispatch(argv)
    stdout.flush()
    return out.getvalue(), err.getvalue(), code


def _run_example(line: str, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, str, int]:
    words = shlex.split(line)
    target = None
    if ">" in words:
        at = words.index(">")
        words, target = words[:at], words[at + 1:]
        assert len(target) == 1, line
    stages: list[list[str]] = [[]]
    for word in words:
        if word == "|":
            stages.append([])
        else:
            stages[-1].append(word)
    data, errors, code = b"", "", 0
    for stage in stages:
        if stage[0] == "chess960":
            data, err, code = _dispatch(stage[1:], data, monkeypatch)
        else:
            done = subprocess.run(stage, input=data, capture_output=True, check=False)
            data, err, code = done.stdout, done.stderr.decode(), done.returncode
        errors += err
        assert code == 0, (line, stage, err)
    if target is not None:
        Path(target[0]).write_bytes(data)
    return data, errors, code


@pytest.mark.parametrize(("command", "line"), sample([
    pytest.param(command, line, marks=[pytest.mark.slow] if line in SLOW else [])
    for command, line in EXAMPLES], 6))
def test_each_help_example_runs(command: str, line: str, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert f"chess960 {command}" in line
    if line == "chess960 check --all":  # --all over two families here: each bundled
        # family's proof is tests/test_families.py's, and CI runs the command whole
        monkeypatch.setattr("solver.ruleset.reader.bundled_names",
                            lambda: ["chess960", "chess480"])
    if "--engine" in line:  # an engine's example: run where the engine is installed
        import shutil

        engine = shlex.split(line)[shlex.split(line).index("--engine") + 1]
        if shutil.which(engine) is None and shutil.which(engine, path="/usr/games") is None:
            pytest.skip(f"{engine} is not installed (.ci/run installs it)")
    if line.startswith(("chess960 reveal", "chess960 verify commit.json")):  # a sealed plan
        _run_example(SEALED, monkeypatch)
    if "shortlist.txt" in line:  # --from's and --ids @FILE's: a shortlist
        (tmp_path / "shortlist.txt").write_text("# a shortlist\n0-19\n518\nQNRBBNKR\n")
    if "draws.txt" in line:  # audit's: a sample drawn uniformly, of the family audited
        rules = " --rules dfrc" if "--rules dfrc" in line else ""
        _run_example(f"chess960 random -n 7000 --seed 1{rules} > draws.txt", monkeypatch)
    if line.startswith("chess960 eval merge"):  # three shards of the shipped depth-32 table
        from importlib.resources import files

        lines = files("solver.evaluation").joinpath("data", "eval960-d32.csv").read_text(
            "utf-8").splitlines(keepends=True)
        for part in (1, 2, 3):
            (tmp_path / f"part{part}.csv").write_text(
                "".join([lines[0], *lines[1:][part - 1::3]]))
    out, err, code = _run_example(line, monkeypatch)
    assert code == 0
    assert "error:" not in err and "Traceback" not in err, err
    written = [p for p in tmp_path.iterdir() if p.is_file()]
    # Something to read: on stdout, or in the files the example names.
    assert out.strip() or written, line
    for path in written:
        assert path.stat().st_size > 0, path
        if path.suffix == ".svg":
            assert b"<svg" in path.read_bytes()
    if "lint" in line:
        assert "0 problems" in err + out.decode()


@pytest.mark.slow  # every command's --help, each a run of the installed command
def test_help_has_no_doubled_punctuation_and_plain_metavars() -> None:
    """`--format`'s help showed `id "<family> <id>";;`; lint's usage `[[FILE|-]...]...`."""
    for name in _commands():
        out = subprocess.run([str(CHESS960), name, "--help"], capture_output=True,
                             check=True, env={"COLUMNS": "200", "PATH": ""}).stdout.decode()
        assert ";;" not in out, name
        assert "[[" not in out and "]...]" not in out, name
    out = subprocess.run([str(CHESS960), "lint", "--help"], capture_output=True,
                         check=True).stdout.decode()
    usage = out.splitlines()[0]
    # typer 0.19 (the declared floor) writes the argument plainly, later ones as [FILE|-]...
    assert usage in ("Usage: chess960 lint [OPTIONS] [FILE|-]...",
                     "Usage: chess960 lint [OPTIONS] FILE|-"), usage
