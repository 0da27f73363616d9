"""The installed ``chess960`` command at the edges of the shell (issues 14 and 11).

Every test runs the installed command (the console script beside the
Python running the tests) as a subprocess: streams closed, full or piped to
a reader that has gone, stdin that is huge, binary or closed, files that
are not regular, workers and parents killed, a terminal for the progress
bar, and the command-line conventions (usage errors, ``-h``, help texts,
``-`` for stdin, completion). Nothing synchronises by sleeping: where a
process must reach a state first, the test polls for that state with a
deadline.
"""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

COMMAND = Path(sys.executable).parent / "chess960"
# Every command, as run in the stream tests: each writes to stdout.
COMMANDS = [
    ["id", "RNBQKBNR"], ["id", "--format", "json", "RNBQKBNR"], ["--help"],
    ["--version"], ["solve"], ["solve", "--count"], ["position", "518"], ["random"],
    ["show", "518"], ["check"], ["rules"], ["solve", "--help"],
]
EMPTY = """
name = "empty"
title = "King in the corner, between the rooks"
source = "test"
files = 6
pieces = "KRRBBN"
count = 0

[[rule]]
kind = "on-files"
piece = "K"
files = "a"

[[rule]]
kind = "between"
piece = "K"
pair = "RR"
"""

# Many runs of the installed command: CI's slow step runs them (`-m slow`).
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not COMMAND.exists(), reason="chess960 is not installed")]


def run(
    *args: str,
    stdin: bytes | None = b"",
    env: dict[str, str] | None = None,
    **kwargs: object,
) -> subprocess.CompletedProcess[bytes]:
    """The installed command with ``args``; stdin given as bytes."""
    options: dict[str, object] = {"timeout": 120, **kwargs}
    return subprocess.run(  # type: ignore[call-overload,no-any-return]
        [str(COMMAND), *args], input=stdin, capture_output=True, check=False,
        env={**os.environ, **(env or {})}, **options,
    )


def shell(script: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    """``script`` run by bash with ``$C`` the installed command."""
    return subprocess.run(["bash", "-c", script], capture_output=True, timeout=120,
                          check=False, env={**os.environ, "C": str(COMMAND), **env})


def one_error(stderr: bytes) -> str:
    """The single ``error:`` line on stderr (asserting there is exactly one)."""
    text = stderr.decode()
    assert "Traceback" not in text
    lines = text.splitlines()
    assert len(lines) == 1, text
    assert lines[0].startswith("error: "), text
    return lines[0]


def poll(condition: object, deadline: float, what: str) -> None:
    """Wait until ``condition()`` holds, checking repeatedly, at most ``deadline`` s."""
    end = time.monotonic() + deadline
    while not condition():  # type: ignore[operator]
        if time.monotonic() > end:
            raise AssertionError(f"not within {deadline} s: {what}")
        time.sleep(0.005)


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has stopped running)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
needs_workers = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2,
                                   reason="worker processes need two cores")


# -- 14.5, 14.12: standard input as bytes, in bounded chunks -----------------------------


def test_a_100_mb_line_is_one_error_and_the_next_line_is_answered() -> None:
    # The command runs under a small Python parent that feeds it 1 MB at a
    # time and measures its peak RSS (the only child it waits for).
    code = (
        "import resource, subprocess, sys\n"
        "p = subprocess.Popen([sys.argv[1], 'id', '-'], stdin=subprocess.PIPE,\n"
        "                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
        "block = b'R' * 1_000_000\n"
        "for _ in range(100):\n"
        "    p.stdin.write(block)\n"
        "out, err = p.communicate(b'\\nQNRBBNKR\\n')\n"
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.stdout.flush()\n"
        "sys.stdout.buffer.write(out + b'|' + err)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(COMMAND)], capture_output=True,
                          timeout=300, check=True)
    head, rest = done.stdout.split(b"\n", 1)
    status, peak_kib = map(int, head.split())
    out, err = rest.split(b"|", 1)
    assert status == 1
    assert out == b"\n105\n"
    assert one_error(err) == "error: line 1: longer than 1,048,576 bytes"
    assert peak_kib * 1024 <= 200 * 1024 * 1024


def test_invalid_utf8_line_is_one_error_and_loses_nothing() -> None:
    done = run("id", "-", stdin=b"RNBQKBNR\n\xff\xfe\nQNRBBNKR\n",
               env={"PYTHONIOENCODING": "utf-8"})
    assert done.stdout == b"518\n\n105\n"
    assert one_error(done.stderr) == "error: line 2: not UTF-8 (byte 0xff at column 1)"
    assert done.returncode == 1


# -- 11.6: `id -` answers one line per input line; it takes solve's lines ----------------


def test_id_answers_one_line_per_input_line_in_order() -> None:
    stdin = b"QNRBBNKR\n\n   \nRNBQ\nRNBQKBNR\r\n"
    done = run("id", "-", stdin=stdin)
    assert done.stdout == b"105\n\n\n\n518\n"
    assert done.stderr.decode().splitlines() == [
        "error: line 2: blank line",
        "error: line 3: blank line",
        "error: line 4: 'RNBQ' has 4 squares, expected 8",
    ]
    assert done.returncode == 1


def test_id_reads_solves_own_lines_back() -> None:
    listing = run("solve").stdout
    done = run("id", "-", stdin=listing)
    assert done.returncode == 0
    assert done.stdout.decode().split() == [str(n) for n in range(960)]
    # The first 50 lines of the DFRC listing (the reader goes away after them).
    pairs = shell('"$C" solve --rules dfrc | head -n 50').stdout.splitlines()
    assert len(pairs) == 50
    done = run("id", "--rules", "dfrc", "-", stdin=b"\n".join(pairs))
    assert done.stdout.decode().split() == [line.split()[0].decode() for line in pairs]


def test_id_refuses_a_solve_line_whose_id_is_wrong() -> None:
    done = run("id", "517 RNBQKBNR")
    assert one_error(done.stderr) == (
        "error: id 517 does not match 'RNBQKBNR', whose id is 518")
    assert done.returncode == 1


# -- 14.7, 14.10: rule files and output files that are no regular files --------------


def test_a_fifo_as_rule_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    for args in (["solve", "--count"], ["id", "RNBQKBNR"], ["check"]):
        done = run(*args, "--rules", str(fifo), timeout=20)
        assert one_error(done.stderr) == f"error: {fifo}: not a regular file"
        assert done.returncode == 1


def test_a_directory_as_rule_file_is_refused(tmp_path: Path) -> None:
    done = run("solve", "--rules", f"{tmp_path}/")
    assert one_error(done.stderr).endswith("not a regular file")


@pytest.mark.parametrize("option", ["--rules", "--svg"])
def test_a_name_over_255_bytes_is_one_error(tmp_path: Path, option: str) -> None:
    name = str(tmp_path / ("x" * 300))
    args = ["show", "518", "--svg", name] if option == "--svg" else ["solve", "--rules", name]
    done = run(*args)
    assert "file name too long" in one_error(done.stderr)
    assert done.returncode == 1


# -- 14.11, 14.17: full, closed and abandoned standard streams ------------------------


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_full_disk_is_one_error_line(args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run([str(COMMAND), *args], stdout=full, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=120, check=False)
    assert one_error(done.stderr) == (
        "error: cannot write to standard output: no space left on device")
    assert done.returncode == 1


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_reader_that_has_gone_ends_every_command_quietly(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first write
    try:
        done = subprocess.run([str(COMMAND), *args], stdout=write, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=120, check=False)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, b"")


@pytest.mark.parametrize("command", ["check", "--help", "rules", "solve"])
def test_head_1_exits_zero_quietly(command: str) -> None:
    done = shell(f'"$C" {command} | head -1; echo "status ${{PIPESTATUS[0]}}" >&2')
    assert done.stderr.decode().splitlines()[-1] == "status 0"
    assert "Traceback" not in done.stderr.decode()


def test_closed_stdout_is_one_error_line() -> None:
    done = shell('"$C" position 518 >&-')
    assert one_error(done.stderr) == "error: cannot write to standard output: it is closed"
    assert done.returncode == 1


def test_closed_stdin_is_one_error_line() -> None:
    done = shell('"$C" id - <&-')
    assert one_error(done.stderr) == "error: cannot read standard input: it is closed"
    assert done.returncode == 1


def test_closed_stderr_is_silent() -> None:
    done = shell('"$C" id RNBQKBNR XX 2>&-')
    assert (done.stdout, done.returncode) == (b"518\n", 1)


# -- 14.13, 14.15: solver workers --------------------------------------------------------




@pytest.fixture
def listing_solve(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], list[int]]]:
    """A long listing solve of an enumerated family and its worker processes, once they run."""
    # A Chess960-like family on 12 files, enumerated (1,814,400 ranks): listing it
    # searches in worker processes for seconds (bench-12 is listed without a search).
    rules = Path(__file__).parent / "data" / "fam12.toml"
    process = subprocess.Popen([str(COMMAND), "solve", "--rules", str(rules)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        found: list[int] = []

        def started() -> bool:
            found[:] = children(process.pid)
            return bool(found)

        poll(started, 60, "a worker process starts")
        yield process, found
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


@needs_proc
@needs_workers
def test_a_killed_worker_is_one_error_line(
    listing_solve: tuple[subprocess.Popen[bytes], list[int]],
) -> None:
    process, workers = listing_solve
    os.kill(workers[0], signal.SIGKILL)
    assert process.wait(timeout=120) == 1
    assert process.stderr is not None
    assert one_error(process.stderr.read()) == (
        "error: a solver worker process stopped unexpectedly (killed by signal 9)")


@needs_proc
@needs_workers
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_workers_die_with_their_parent(
    listing_solve: tuple[subprocess.Popen[bytes], list[int]], how: int
) -> None:
    process, workers = listing_solve
    process.send_signal(how)
    process.wait(timeout=10)
    poll(lambda: not any(alive(pid) for pid in workers), 1.0, "every worker has stopped")


# -- 14.14: Ctrl-C during start-up -------------------------------------------------------


def test_ctrl_c_at_once_never_shows_a_traceback_from_the_package() -> None:
    # SIGINT lands somewhere in start-up: in the interpreter's own set-up
    # (killed by the signal, -2), or once the package's code runs (130).
    # As from a terminal: SIGINT not ignored, even when the tests run as a
    # background job (an ignored SIGINT is inherited, and the command keeps it).
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _ctrl_c_at_once()
    finally:
        signal.signal(signal.SIGINT, old)


def _ctrl_c_at_once() -> None:
    for _ in range(20):
        process = subprocess.Popen([str(COMMAND), "solve", "--count"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert process.returncode in (130, -signal.SIGINT), err
        assert b"solver" not in err, err.decode()


def test_the_signal_handler_is_installed_before_anything_is_imported() -> None:
    # After the console script's own imports, the entry point must run
    # nothing of the package before installing the handler.
    code = ("import signal, sys\n"
            "import solver.cli.entry as entry\n"
            "before = set(sys.modules)\n"
            "signal.signal = lambda *a: sys.exit(set(sys.modules) - before and 1 or 0)\n"
            "entry.main()\n")
    done = subprocess.run([sys.executable, "-c", code, "--version"], timeout=60, check=False)
    assert done.returncode == 0


# -- 14.16: one atomic-write helper ------------------------------------------------------


@pytest.mark.parametrize("target", ["device", "fifo", "dir"])
def test_svg_refuses_what_is_not_a_regular_file(tmp_path: Path, target: str) -> None:
    # Never the real /dev/null: a broken build run as root would replace it.
    path = tmp_path / target
    if target == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a null device
        except PermissionError:
            pytest.skip("making a device node needs root")
    if target == "fifo":
        os.mkfifo(path)
    if target == "dir":
        path.mkdir()
    before = os.lstat(path)
    done = run("show", "518", "--svg", str(path), timeout=20)
    assert one_error(done.stderr).startswith(f"error: cannot write {str(path)!r}: it is ")
    assert done.returncode == 1
    after = os.lstat(path)
    assert (after.st_ino, stat.S_IFMT(after.st_mode)) == (before.st_ino,
                                                         stat.S_IFMT(before.st_mode))
    assert [p.name for p in tmp_path.iterdir()] == [target]


def test_svg_refuses_a_symbolic_link_and_leaves_it(tmp_path: Path) -> None:
    (tmp_path / "real.svg").write_text("old")
    (tmp_path / "link.svg").symlink_to("real.svg")
    done = run("show", "518", "--svg", str(tmp_path / "link.svg"))
    assert "it is a symbolic link" in one_error(done.stderr)
    assert (tmp_path / "link.svg").is_symlink()
    assert (tmp_path / "real.svg").read_text() == "old"


def test_svg_writes_a_250_byte_name(tmp_path: Path) -> None:
    path = tmp_path / ("b" * 250)
    done = run("show", "518", "--svg", str(path))
    assert done.returncode == 0, done.stderr
    assert path.read_text().startswith("<?xml")
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_svg_failure_leaves_the_original_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "board.svg"
    path.write_text("old")
    tmp_path.chmod(0o500)
    try:
        if os.access(tmp_path, os.W_OK):
            pytest.skip("running as root: a read-only directory is writable")
        done = run("show", "518", "--svg", str(path))
        assert "permission denied" in one_error(done.stderr)
    finally:
        tmp_path.chmod(0o700)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["board.svg"]


def test_ctrl_c_while_writing_the_svg_leaves_no_temporary(tmp_path: Path) -> None:
    # The command's own entry point, with Ctrl-C arriving while the file is synced.
    code = (
        "import os, signal, sys\n"
        "from solver.cli import entry\n"
        "os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGINT)\n"
        "sys.argv = ['chess960', 'show', '518', '--svg', sys.argv[1]]\n"
        "entry.main()\n"
    )
    (tmp_path / "board.svg").write_text("old")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "board.svg")],
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 130
    assert b"Traceback" not in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["board.svg"]
    assert (tmp_path / "board.svg").read_text() == "old"


# -- 14.19, 11.6: show ------------------------------------------------------------------


def test_columns_0_still_draws_the_board() -> None:
    done = run("show", "518", "--letters", env={"COLUMNS": "0"})
    assert done.returncode == 0
    assert "8  r  n  b  q  k  b  n  r  8" in done.stdout.decode()


def test_no_color_keeps_the_square_pattern() -> None:
    # FORCE_COLOR makes Rich treat the pipe as a colour terminal.
    done = run("show", "518", env={"NO_COLOR": "1", "FORCE_COLOR": "1", "TERM": "xterm"})
    text = done.stdout.decode()
    assert not re.search(r"\x1b\[[0-9;]*(3|4)8;", text)  # no colour (dim and bold may stay)
    lines = re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines()
    assert lines[3] == "6     ·     ·     ·     ·  6"


def test_show_svg_dash_writes_the_svg_to_stdout(tmp_path: Path) -> None:
    done = run("show", "105", "--svg", "-", cwd=tmp_path)
    assert done.stdout.startswith(b"<?xml") and done.stdout.rstrip().endswith(b"</svg>")
    assert list(tmp_path.iterdir()) == []
    run("show", "105", "--svg", str(tmp_path / "b.svg"))
    assert (tmp_path / "b.svg").read_bytes() == done.stdout


def test_show_and_position_read_stdin() -> None:
    assert run("show", "-", "--letters", stdin=b"105\n").stdout == run(
        "show", "105", "--letters").stdout
    done = run("position", "-", stdin=b"518\n\n0\n")
    assert done.stdout == b"RNBQKBNR\n\nBBQNNRKR\n"
    assert one_error(done.stderr) == "error: line 2: blank line"


# -- 14.21: the progress bar is gone before the count is printed -------------------------


def test_count_is_not_glued_to_the_progress_bar() -> None:
    import pty

    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [str(COMMAND), "solve", "--count", "--rules", "king-between-rooks"],
            stdin=subprocess.DEVNULL, stdout=follower, stderr=follower,
            env={**os.environ, "CHESS960_PROGRESS_DELAY": "0", "TERM": "xterm",
                 "COLUMNS": "100"})
        os.close(follower)
        output = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closes with the process
                break
            if not chunk:
                break
            output += chunk
        assert process.wait(timeout=60) == 0
    finally:
        os.close(leader)
    text = output.decode()
    count = run("solve", "--count", "--rules", "king-between-rooks").stdout.decode().strip()
    assert "solving" in text  # the bar was shown
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    last_line = re.split(r"[\r\n]", plain.rstrip("\r\n"))[-1]
    assert last_line == count


# -- 14.22: a failed listing is not a valid empty document -------------------------------


@pytest.mark.parametrize("fmt", ["json", "csv", "pgn", "text"])
def test_a_failed_listing_prints_no_complete_document(tmp_path: Path, fmt: str) -> None:
    rules = tmp_path / "empty.toml"
    rules.write_text(EMPTY)
    done = run("solve", "--format", fmt, "--rules", str(rules))
    assert done.returncode == 1
    assert "has no positions at all" in one_error(done.stderr)
    if fmt == "json":
        with pytest.raises(json.JSONDecodeError):
            json.loads(done.stdout)
    assert done.stdout.strip() in (b"", b"id,rank,fen,shredder_fen,family")[: 1 + (fmt == "csv")]


# -- 11.6: usage errors, help, completion ------------------------------------------------


USAGE_ERRORS = [
    ["random", "-n", "abc"], ["solve", "--bogus"], ["id"], ["bogus"], ["position", "--white"],
    ["random", "-n", "0"], ["solve", "--format", "xml"], ["show"],
]


def in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """What the console command does with ``argv`` when Typer answers it (solver.cli.app.run,
    which the installed command calls for these lines), run in this process."""
    from solver.cli import app as cli
    from solver.cli.quick import parse

    assert parse(argv) is None  # Typer's own lines
    capsys.readouterr()
    code = cli.run(argv)
    sys.stdout.flush()
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args", USAGE_ERRORS)
def test_a_usage_error_is_one_error_line_and_exit_2(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = in_process(args, capsys)
    line = one_error(err.encode())
    assert "╭" not in line
    assert line.endswith("--help')")
    assert code == 2
    assert out == ""


def test_the_installed_command_words_a_usage_error_the_same() -> None:
    done = run(*USAGE_ERRORS[0])
    assert done.returncode == 2
    assert done.stdout == b""
    assert one_error(done.stderr).endswith("--help')")


SUBCOMMANDS = ["solve", "id", "position", "random", "show", "check", "rules"]


@pytest.mark.parametrize("command", [[], *([c] for c in SUBCOMMANDS)], ids=str)
def test_h_is_help_with_examples_and_plain_metavars(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = in_process([*command, "-h"], capsys)
    assert code == 0
    assert text == in_process([*command, "--help"], capsys)[1]
    assert not re.search(r"<(bool|str|int|list)", text), text
    assert "╭" not in text
    if command:
        assert "Examples:\n    chess960 " in text


def test_the_installed_command_answers_h_as_help() -> None:
    short = run("solve", "-h")
    assert short.returncode == 0
    assert short.stdout == run("solve", "--help").stdout
    assert b"Examples:\n    chess960 " in short.stdout


def test_completion_is_available() -> None:
    assert b"--install-completion" in run("--help").stdout
    # Typer finds the shell among the command's parents (shellingham), so
    # run it from bash (the `; exit` keeps bash from exec-ing it away), as a
    # user typing it would, whatever runs the tests.
    script = shell('"$C" --show-completion; exit $?')
    assert script.returncode == 0, script.stderr
    assert b"_chess960_completion" in script.stdout
    done = run(env={"_CHESS960_COMPLETE": "complete_bash", "COMP_WORDS": "chess960 so",
                    "COMP_CWORD": "1"})
    assert done.stdout.split() == [b"solve"]
