"""Every ```console block of the READMEs and of the documentation pages (docs/),
run: each ``$ `` line's output is what it shows.

Each file is its own test (its path the test's id). The blocks of one file run
in order, in one temporary directory (a block may read a file an earlier one
wrote, as a reader following along would). Every ``chess960`` command runs in
this process, through the console command's own dispatch
(:func:`solver.cli.entry.dispatch`): alone, or as a stage of a pipeline of
simple commands (``|``, ``< FILE``, ``> FILE``, ``>> FILE``, ``2> FILE``)
whose other stages (``head``, ``sed``, ``printf``) run as programs; a line
the pipeline reader does not take (``;``, ``&&``, ``$(...)``) or with no
``chess960`` in it runs in ``bash`` with the installed ``chess960`` first on
``PATH``. The few command lines that take more than about a second
(:data:`SLOW`) run with the slow tests.
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
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from solver.cli.entry import dispatch

ROOT = Path(__file__).resolve().parent.parent


def _pages(root: Path = ROOT) -> list[str]:
    """The READMEs with console blocks, then every page of the documentation site."""
    docs = sorted(path.relative_to(root).as_posix() for path in (root / "docs").rglob("*.md")
                  if "_build" not in path.parts)
    return ["README.md", "rules/README.md", "bench/README.md", *docs]


READMES = _pages()
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
    "chess960 audit biased.txt": 1,  # audit exits 1 on a sample that is not uniform
}

#: Command lines that take more than about a second (a family solved or proven in full):
#: the default run leaves them out, the slow run runs them
#: (:func:`test_slow_console_lines_print_what_they_show`).
#: A line here must not need the output of an earlier line.
SLOW = {
    "chess960 check --rules crc-protected.toml",
    "chess960 solve --count --rules crc-protected.toml",
    "chess960 solve --count --rules capablanca-random-full",
    "chess960 check --rules chess960",
    "chess960 check",
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
    seirawan = (ROOT / "rules" / "seirawan960.toml").read_text(encoding="utf-8")
    assert '\nhand = "HE"\n' in seirawan
    (folder / "uneven-hand.toml").write_text(
        seirawan.replace('\nhand = "HE"\n', '\nhand = "HEh"\n'), encoding="utf-8")
    (folder / "bad-label.toml").write_text(
        own + '[[numberings]]\nname = "tcec"\nsource = "TCEC"\nlabel = "FRC {id}"\n',
        encoding="utf-8")


def _streams(data: bytes = b"") -> tuple[io.BytesIO, io.TextIOWrapper, io.TextIOWrapper]:
    """A byte buffer, a text stream writing through to it, and a standard input of ``data``."""
    buffer = io.BytesIO()
    text = io.TextIOWrapper(buffer, encoding="utf-8", newline="\n", write_through=True)
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    return buffer, text, stdin


def _dispatch(argv: list[str], monkeypatch: pytest.MonkeyPatch, data: bytes = b"",
              together: bool = True) -> tuple[bytes, bytes, int]:
    """The command line run through the console command's dispatch, here: what it
    wrote on stdout and on stderr (``together``: both on stdout, in the order
    written, as a terminal shows them), and its exit status."""
    out, stdout, stdin = _streams(data)
    err = out if together else io.BytesIO()
    stderr = io.TextIOWrapper(err, encoding="utf-8", newline="\n", write_through=True)
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stdout", stdout)
        patch.setattr(sys, "stderr", stderr)
        patch.setattr(sys, "stdin", stdin)
        code = dispatch(argv)
        stdout.flush()
        stderr.flush()
    written, said = out.getvalue(), b"" if together else err.getvalue()
    return written, said, code


def _in_process(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """The command line run through the console command's dispatch, here."""
    written, _, code = _dispatch(argv, monkeypatch)
    return written.decode("utf-8", "replace"), code


def _in_bash(command: str, folder: Path) -> tuple[str, int]:
    env = {**os.environ, "PATH": f"{COMMAND.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120, check=False)
    return done.stdout, done.returncode


OPERATOR = set("|&;<>()")


def _words(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def _simple(command: str) -> list[str] | None:
    """``chess960``'s arguments when ``command`` is that command alone, else None."""
    words = _words(command)
    if words[:1] != ["chess960"] or any(set(w) <= OPERATOR for w in words):
        return None
    return words[1:]


@dataclass
class Pipeline:
    """A command line of simple commands joined by ``|``, with its redirections."""

    stages: list[list[str]]
    stdin: str | None = None  # ``< FILE``, of the first stage
    stdout: str | None = None  # ``> FILE`` or ``>> FILE``, of the last
    append: bool = False
    stderr: dict[int, str] = field(default_factory=dict)  # ``2> FILE`` of a stage


#: ``2> FILE``, which the shell lexer would read as an argument ``2`` and ``> FILE``.
STDERR = re.compile(r"(?:^|(?<=\s))2>(?!&)")
REDIRECT = ("<", ">", ">>", "@stderr@")


def _pipeline(command: str) -> Pipeline | None:
    """``command`` as a :class:`Pipeline` with a ``chess960`` stage, or None (bash runs it)."""
    if any(c in command for c in "$`") or "2>&" in command:
        return None
    words = _words(STDERR_MARK.join(STDERR.split(command)))
    found = Pipeline([[]])
    for at, word in enumerate(words):
        if at and words[at - 1] in REDIRECT:
            continue  # the redirection's file, taken below
        if found.stdout is not None or (set(word) <= OPERATOR and word not in ("|", *REDIRECT)):
            return None  # anything after `> FILE`; `;`, `&&`, `(`
        if word == "|":
            found.stages.append([])
        elif word in REDIRECT:
            target = words[at + 1] if at + 1 < len(words) else "|"
            last = len(found.stages) - 1
            if set(target) <= OPERATOR or target in REDIRECT or (word == "<" and last) or (
                    word == "@stderr@" and last in found.stderr):
                return None
            if word == "<":
                found.stdin = target
            elif word == "@stderr@":
                found.stderr[last] = target
            else:
                found.stdout, found.append = target, word == ">>"
        else:
            found.stages[-1].append(word)
    if not all(found.stages) or ["chess960"] not in [stage[:1] for stage in found.stages]:
        return None
    return found


#: What ``2>`` becomes before the shell lexer reads the line: a word of its own.
STDERR_MARK = " @stderr@ "


def _in_pipeline(line: Pipeline, folder: Path, monkeypatch: pytest.MonkeyPatch,
                 ) -> tuple[str, int]:
    """``line`` run: its ``chess960`` stages in this process, the others as programs
    (through bash, for its builtins), each stage reading what the one before wrote;
    what the terminal shows is the stages' stderr, then the last one's stdout."""
    data = (folder / line.stdin).read_bytes() if line.stdin is not None else b""
    said, code = b"", 0
    for at, stage in enumerate(line.stages):
        if stage[0] == "chess960":
            # the last stage's stdout and stderr reach the terminal in the order written
            together = at == len(line.stages) - 1 and line.stdout is None and at not in line.stderr
            data, err, code = _dispatch(stage[1:], monkeypatch, data, together=together)
        else:
            done = subprocess.run(["bash", "-c", shlex.join(stage)], cwd=folder, input=data,
                                  capture_output=True, timeout=120, check=False)
            data, err, code = done.stdout, done.stderr, done.returncode
        target = line.stderr.get(at)
        if target is None:
            said += err
        elif target != "/dev/null":
            (folder / target).write_bytes(err)
    if line.stdout is not None:
        if line.stdout != "/dev/null":
            with (folder / line.stdout).open("ab" if line.append else "wb") as file:
                file.write(data)
        data = b""
    return (said + data).decode("utf-8", "replace"), code


def _run(line: Line, folder: Path, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """What is wrong with ``line``'s run, or None."""
    target = re.fullmatch(r"cat (\S+)", line.command)
    if target and not (folder / target.group(1)).exists():
        (folder / target.group(1)).write_text(line.output, encoding="utf-8")
    argv = _simple(line.command)
    piped = None if argv is not None else _pipeline(line.command)
    if argv is not None:
        printed, code = _in_process(argv, monkeypatch)
    elif piped is not None:
        printed, code = _in_pipeline(piped, folder, monkeypatch)
    else:
        printed, code = _in_bash(line.command, folder)
    shown = line.output
    printed, shown = TIMING.sub("checked in … s", printed), TIMING.sub("checked in … s", shown)
    expected = EXIT.get(line.command, 1 if re.search(r"^error:", shown, re.MULTILINE) else 0)
    problems = []
    if printed != shown and (line.mark is None or line.mark[0] == "needs"):
        problems.append(f"printed:\n{printed}\nthe README shows:\n{shown}")
    if (code != 0) != (expected != 0) or (expected and code != expected):
        problems.append(f"exit status {code}, expected {expected}")
    return f"{line}\n" + "\n".join(problems) if problems else None


@pytest.mark.parametrize("readme", READMES)
def test_every_console_block_prints_what_it_shows(
        readme: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line but the engines' (``needs``) and the slow ones (:data:`SLOW`)."""
    found = [line for line in lines(readme) if (line.mark is None or line.mark[0] != "needs")
             and line.command not in SLOW]
    if not found:
        pytest.skip(f"{readme}: no console blocks here")
    _check(found, tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("readme", READMES)
def test_slow_console_lines_print_what_they_show(
        readme: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lines of :data:`SLOW` (a family solved or proven in full)."""
    found = [line for line in lines(readme) if (line.mark is None or line.mark[0] != "needs")
             and line.command in SLOW]
    if not found:
        pytest.skip(f"{readme}: no slow console line")
    _check(found, tmp_path, monkeypatch)


def test_every_slow_line_is_on_a_page() -> None:
    """:data:`SLOW` names lines the pages show (an entry no page has is stale)."""
    shown = {line.command for readme in READMES for line in lines(readme)}
    if not shown:
        pytest.skip("no READMEs here (an installed package)")
    assert not SLOW - shown, f"SLOW names lines no page shows: {sorted(SLOW - shown)}"


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
    """The examples are run, not only shown: few blocks are skipped (a program the
    tests cannot have), each mark says why."""
    every = [block for readme in READMES for block in blocks(readme)]
    if not every:
        pytest.skip("no READMEs here (an installed package)")
    marked = [mark for _, _, mark in every if mark is not None]
    assert len(every) >= 30
    assert len([kind for kind, _ in marked if kind == "skip"]) <= 3
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


def test_the_pipeline_reader_takes_pipes_and_redirections_only() -> None:
    line = _pipeline("chess960 id --rules dfrc - < dfrc.epd 2>/dev/null | head -1")
    assert line == Pipeline([["chess960", "id", "--rules", "dfrc", "-"], ["head", "-1"]],
                            stdin="dfrc.epd", stderr={0: "/dev/null"})
    assert _pipeline("chess960 id 2 2> e") == Pipeline([["chess960", "id", "2"]],
                                                        stderr={0: "e"})
    line = _pipeline("printf 'a\\nb' | chess960 id - >> out.txt")
    assert line == Pipeline([["printf", "a\\nb"], ["chess960", "id", "-"]], stdout="out.txt",
                            append=True)
    for bash_only in ("head -1 dfrc.epd", "chess960 lint x > /dev/null; cut -f1 x",
                      "chess960 id $(cat x)", "chess960 solve > a | head", "chess960 id 2>&1",
                      "chess960 solve && echo", "sort < a | chess960 id - < b"):
        assert _pipeline(bash_only) is None, bash_only


def test_a_pipeline_run_here_is_what_bash_prints(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process pipeline against bash with the installed command, on one line
    of each kind: stdin from a file, a stage after, stderr and stdout to files."""
    if not COMMAND.exists():
        pytest.skip(f"no installed chess960 beside {sys.executable}")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.txt").write_text("QNRBBNKR\nRNBQ\nRNBQKBNR\n", encoding="utf-8")
    command = "chess960 id - < in.txt 2> err.txt | sed -n 2,3p > out.txt"
    line = _pipeline(command)
    assert line is not None
    here = _in_pipeline(line, tmp_path, monkeypatch), *(
        (tmp_path / name).read_text(encoding="utf-8") for name in ("out.txt", "err.txt"))
    there = _in_bash(command, tmp_path), *((tmp_path / name).read_text(encoding="utf-8")
                                  for name in ("out.txt", "err.txt"))
    assert here == there
    assert here[1] == "\n518\n"
    assert "error:" in here[2] and "'RNBQ'" in here[2]
