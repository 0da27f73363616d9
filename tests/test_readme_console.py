"""Every ```console block of the READMEs, run: each ``$ `` line's output is what it shows.

The blocks of one README run in order, in one temporary directory (a block may
read a file an earlier one wrote, as a reader following along would). A line
that is one ``chess960`` command runs in this process, through the console command's own dispatch
(:func:`solver.cli.entry.dispatch`); a line with a pipe, a redirect or another
program runs in ``bash`` with the installed ``chess960`` first on ``PATH``.
Standard output and standard error are compared together, as a terminal
shows them; a ``checked in N s`` timing (or the note that a proof was kept
from an earlier run) is compared as a timing. The exit
status must be 0 unless the output shows an ``error:`` line (or the line is
in :data:`EXIT`, which says why).

Conventions in the READMEs:

* ``<!-- console: skip (reason) -->`` on the line before a block skips it,
  visibly (an engine, a program the tests do not have);
* ``<!-- console: status only (reason) -->`` runs its lines but checks only
  that each exits 0 (commands shown without what they print);
* ``<!-- console: needs (a and b) -->`` runs the block in full where the
  programs ``a`` and ``b`` are installed, and skips it where one is not
  (the engines); such blocks run with the slow tests, on their own;
* ``$ cat FILE`` of a file no earlier line made is the file's content: the
  test writes what the block shows to FILE first;
* the rule files the text asks the reader to write (:func:`_rule_files`) are
  made before the blocks run.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from solver.cli.entry import dispatch

ROOT = Path(__file__).resolve().parent.parent
#: The READMEs, then every page of docs/ (each page's blocks run in a folder of their own).
READMES = ["README.md", "rules/README.md", "bench/README.md",
           *sorted(str(page.relative_to(ROOT)) for page in (ROOT / "docs").rglob("*.md"))]
MARK = re.compile(r"<!--\s*console:\s*(skip|status only|needs)\b\s*(.*?)\s*-->")
BLOCK = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)
#: ``check``'s line on stderr: the time it took (it proves on every run).
TIMING = re.compile(r"checked in \d+\.\d+ s")

#: Command lines whose exit status is not 0 though they show no ``error:`` line.
EXIT = {
    "chess960 lint broken.fen": 1,  # lint exits 1 when a book has a problem
    "chess960 lint games.epd": 1,
    "chess960 compare racing.fen --rules racing-kings": 1,  # compare exits 1 on a difference
    "chess960 lint --rules chess960 --complete part2.epd": 1,  # the book lacks positions
    "chess960 lint --rules chess960 twice.fen": 1,
}

#: The installed console command (the test environment's).
COMMAND = Path(sys.executable).with_name("chess960")


@dataclass
class Line:
    """One ``$ `` line of a block, with what it prints."""

    readme: str
    at: int  # line number in the README
    command: str
    output: str
    mark: tuple[str, str] | None = None  # ("skip" or "status only", why)

    @property
    def skip(self) -> bool:
        if self.mark is not None and self.mark[0] == "needs":
            return bool(missing(self.mark[1]))
        return self.mark is not None and self.mark[0] == "skip"

    def __str__(self) -> str:
        return f"{self.readme}:{self.at}: $ {self.command}"


def missing(why: str) -> list[str]:
    """The programs a ``needs (a and b)`` mark names that are not installed (on
    ``PATH`` or in ``/usr/games``, where Debian puts engines)."""
    import shutil

    names = [n for n in re.split(r"[\s,()]+|\band\b", why) if n.strip()]
    return [n for n in names
            if shutil.which(n) is None and shutil.which(n, path="/usr/games") is None]


def blocks(readme: str, root: Path = ROOT) -> list[tuple[int, str, tuple[str, str] | None]]:
    """``(line, body, mark)`` of each console block of ``readme``; the mark
    (``("skip", why)``, ``("status only", why)``) is None for a block run in full."""
    path = root / readme
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    found = []
    for match in BLOCK.finditer(text):
        at = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.fullmatch(before.strip())
        found.append((at, match.group(1), (mark.group(1), mark.group(2)) if mark else None))
    return found


def lines(readme: str, root: Path = ROOT) -> list[Line]:
    """Every ``$ `` line of ``readme``'s console blocks, in order."""
    found = []
    for at, body, mark in blocks(readme, root):
        current: Line | None = None
        for number, text in enumerate(body.splitlines(keepends=True), start=at + 1):
            if text.startswith("$ "):
                current = Line(readme, number, text[2:].rstrip("\n"), "", mark)
                found.append(current)
            elif current is not None and current.command.endswith("\\"):
                current.command = current.command[:-1].rstrip() + " " + text.strip()
            elif current is not None:
                current.output += text
    return found


def _rule_files(folder: Path) -> None:
    """The rule files rules/README.md has the reader write."""
    chess960 = (ROOT / "rules" / "chess960.toml").read_text(encoding="utf-8")
    (folder / "my-family.toml").write_text(chess960, encoding="utf-8")
    steps = '["B:light", "B:dark", "Q", "NN", "RKR"]'
    assert steps in chess960
    own = chess960.split("\n# Further numberings")[0]  # without the further numberings
    queen_first = own.replace(steps, '["Q", "B:light", "B:dark", "NN", "RKR"]').replace(
        "[numbering]", '[numbering]\nkind = "arithmetic"', 1)
    (folder / "queen-first.toml").write_text(queen_first, encoding="utf-8")
    text = (ROOT / "rules" / "README.md").read_text(encoding="utf-8")
    worked = re.search(r"<!-- worked-example.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert worked is not None
    (folder / "crc-protected.toml").write_text(worked.group(1), encoding="utf-8")
    numbered = re.search(r"<!-- numberings-example.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert numbered is not None
    (folder / "numbered.toml").write_text(own + numbered.group(1), encoding="utf-8")
    (folder / "bad-label.toml").write_text(
        own + '[[numberings]]\nname = "tcec"\nsource = "TCEC"\nlabel = "FRC {id}"\n',
        encoding="utf-8")


def _in_process(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """The command line run through the console command's dispatch, here."""
    printed = io.StringIO()
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stdout", printed)
        patch.setattr(sys, "stderr", printed)
        patch.setattr(sys, "stdin", io.StringIO(""))
        code = dispatch(argv)
    return printed.getvalue(), code


def _in_bash(command: str, folder: Path) -> tuple[str, int]:
    env = {**os.environ, "PATH": f"{COMMAND.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120, check=False)
    return done.stdout, done.returncode


def _simple(command: str) -> list[str] | None:
    """``chess960``'s arguments when ``command`` is that command alone, else None."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words = list(lexer)
    if words[:1] != ["chess960"] or any(set(w) <= set("|&;<>()") for w in words):
        return None
    return words[1:]


def _run(line: Line, folder: Path, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """What is wrong with ``line``'s run, or None."""
    target = re.fullmatch(r"cat (\S+)", line.command)
    if target and not (folder / target.group(1)).exists():
        (folder / target.group(1)).write_text(line.output, encoding="utf-8")
    argv = _simple(line.command)
    printed, code = (_in_process(argv, monkeypatch) if argv is not None
                     else _in_bash(line.command, folder))
    shown = line.output
    printed, shown = TIMING.sub("checked in … s", printed), TIMING.sub("checked in … s", shown)
    expected = EXIT.get(line.command, 1 if re.search(r"^error:", shown, re.MULTILINE) else 0)
    problems = []
    if printed != shown and (line.mark is None or line.mark[0] == "needs"):
        problems.append(f"printed:\n{printed}\nthe README shows:\n{shown}")
    if (code != 0) != (expected != 0) or (expected and code != expected):
        problems.append(f"exit status {code}, expected {expected}")
    return f"{line}\n" + "\n".join(problems) if problems else None


@pytest.mark.parametrize("readme", [
    # the manual's hundred commands take seconds: CI's slow step runs them
    pytest.param(r, marks=pytest.mark.slow) if r == "README.md" or r.startswith("docs/") else r
    for r in READMES])
def test_every_console_block_prints_what_it_shows(
        readme: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = [line for line in lines(readme) if line.mark is None or line.mark[0] != "needs"]
    if not found:
        pytest.skip(f"{readme}: no console blocks here")
    _check(found, tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("readme", READMES)
def test_console_blocks_that_need_programs_print_what_they_show(
        readme: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``needs (...)`` blocks (engines: slow), where their programs are installed."""
    found = [line for line in lines(readme) if line.mark is not None
             and line.mark[0] == "needs"]
    if not found:
        pytest.skip(f"{readme}: no console block needs a program")
    absent = sorted({name for line in found for name in missing(line.mark[1])})  # type: ignore[index]
    if absent:
        pytest.skip(f"not installed: {', '.join(absent)} (.ci/run installs them)")
    _check(found, tmp_path, monkeypatch)


def _check(found: list[Line], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not COMMAND.exists():
        pytest.skip(f"no installed chess960 beside {sys.executable}")
    monkeypatch.chdir(tmp_path)
    for name in ("COLUMNS", "FORCE_COLOR", "TTY_COMPATIBLE", "CLICOLOR_FORCE"):
        monkeypatch.delenv(name, raising=False)
    _rule_files(tmp_path)
    failures = [problem for line in found if not line.skip
                and (problem := _run(line, tmp_path, monkeypatch)) is not None]
    assert not failures, "\n\n".join(failures)


def test_the_readmes_have_console_blocks_and_few_skips() -> None:
    """The examples are run, not only shown: few blocks are skipped, each says why."""
    every = [block for readme in READMES for block in blocks(readme)]
    if not every:
        pytest.skip("no READMEs here (an installed package)")
    marked = [mark for _, _, mark in every if mark is not None]
    assert len(every) >= 30
    assert len(marked) <= 3
    assert all(why.startswith("(") and why.endswith(")") for _, why in marked)


def test_the_parser_reads_commands_outputs_and_skips(tmp_path: Path) -> None:
    text = ("Intro\n\n```console\n$ chess960 id QNRBBNKR\n105\n$ chess960 a \\\n    b\n```\n\n"
            "<!-- console: skip (needs an engine) -->\n```console\n$ engine\n```\n")
    readme = tmp_path / "README.md"
    readme.write_text(text, encoding="utf-8")
    found = lines("README.md", tmp_path)
    assert [(x.at, x.command, x.output, x.mark) for x in found] == [
        (4, "chess960 id QNRBBNKR", "105\n", None), (6, "chess960 a b", "", None),
        (12, "engine", "", ("skip", "(needs an engine)"))]
    assert [x.skip for x in found] == [False, False, True]
    assert _simple("chess960 random --seed 'a b'") == ["random", "--seed", "a b"]
    assert _simple("chess960 solve | head -1") is None
    assert _simple("chess960 id - < dfrc.epd") is None
    assert _simple("head -1 dfrc.epd") is None
    assert missing("(sh and no-such-program-here)") == ["no-such-program-here"]
