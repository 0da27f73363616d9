"""``chess960 eval`` against hostile inputs and misbehaving engines (issue 33):
two runs on one table, killed runs, oversized tables and engine lines,
numbers too large for a float, engine names with escape sequences, Ctrl-C
with engines that ignore the end of their input.

Each case runs the command on inputs made here (as a process of its own where
its memory, a kill or a signal is the point; otherwise in the test's process);
the engines are small Python scripts speaking UCI (real processes), each
written for its case.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inprocess import chess960
from profiles import examples, sample

from solver.errors import EvalTableError
from solver.evaluation.run import evaluation
from solver.evaluation.table import read_text
from solver.evaluation.uci import Result, parse_info

COMMAND = Path(sys.executable).with_name("chess960")

HEADER = "id,fen,engine,limit,depth,nodes,time,eval,mate,wins,draws,losses\n"

ENGINE = '''\
import os, signal, sys, time
NAME, INFO, DELAY, STUBBORN, PIDS = {name!r}, {info!r}, {delay!r}, {stubborn!r}, {pids!r}
if PIDS:
    with open(os.path.join(PIDS, str(os.getpid())), "w"):
        pass
if STUBBORN:  # deaf to Ctrl-C, SIGTERM, 'quit' and the end of its input
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
def say(line):
    sys.stdout.write(line + "\\n"); sys.stdout.flush()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        if isinstance(NAME, int):
            sys.stdout.write("id name " + "N" * NAME + "\\n")
        else:
            say("id name " + NAME)
        say("option name UCI_Chess960 type check default false")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "go":
        if STUBBORN:
            continue  # never answers
        time.sleep(DELAY)
        if isinstance(INFO, int):  # one line of INFO bytes, in pieces
            piece = "x" * (1 << 20)
            for _ in range(INFO >> 20):
                sys.stdout.write(piece)
            say("")
        else:
            say(INFO)
        say("bestmove e2e4")
    elif words[0] == "quit" and not STUBBORN:
        break
while STUBBORN:
    time.sleep(1)
'''


def make_engine(folder: Path, *, name: str | int = "Fake 1.0",
                info: str | int = "info depth 3 score cp 25 nodes 42 time 1",
                delay: float = 0.0, stubborn: bool = False, pids: Path | None = None) -> Path:
    """A fake UCI engine: ``name`` (an int: that many characters), the ``info`` line
    it answers ``go`` with (an int: one line of that many bytes), after ``delay``
    seconds; a ``stubborn`` one ignores everything and never answers ``go``; each
    process writes its PID as a file in ``pids``."""
    script = folder / "fake-engine"
    body = ENGINE.format(name=name, info=info, delay=delay, stubborn=stubborn,
                         pids=None if pids is None else str(pids))
    script.write_text(f"#!{sys.executable}\n{body}")
    script.chmod(0o755)
    return script


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``chess960 ARGV`` in ``cwd``, in this process (the engines are processes)."""
    return chess960(argv, cwd=cwd)


def one_error(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The run failed with exit 1 and exactly one ``error:`` line (no traceback)
    containing each of ``words``; that line."""
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, done.stderr[-2000:]
    assert len(errors[0]) < 1000
    for word in words:
        assert word in errors[0], errors[0]
    return errors[0]


#: A small waiter between the test and the command: the command is forked from it,
#: not from the test's own process, whose peak a vfork'd exec would pass on
#: (Linux keeps the larger of the old and new peak in ``ru_maxrss``).
_WAITER = ("import os, sys\n"
           "pid = os.fork()\n"
           "if pid == 0:\n"
           "    os.execv(sys.argv[2], sys.argv[2:])\n"
           "_, status, usage = os.wait4(pid, 0)\n"
           "with open(sys.argv[1], 'w') as out:\n"
           "    out.write(f'{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}')\n")


def peak_memory(argv: list[str], cwd: Path, timeout: float = 120) -> tuple[int, str, int]:
    """Run the command; its exit code, stderr and peak resident memory in MiB
    (this child's own, from ``wait4`` in a small waiter process)."""
    report = cwd / "peak.txt"
    with open(cwd / "stderr.txt", "w+b") as err:
        try:
            subprocess.run([sys.executable, "-c", _WAITER, str(report), str(COMMAND), *argv],
                           cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, timeout=timeout,
                           check=False)
        except subprocess.TimeoutExpired:
            pytest.fail("the command did not end")
        err.seek(0)
        code, peak = report.read_text().split()
        return int(code), err.read().decode(errors="replace"), int(peak) >> 10


# -- two runs on one table, and killed runs -------------------------------------------


@pytest.mark.slow
def test_a_second_run_on_a_table_being_written_is_refused(tmp_path: Path) -> None:
    engine = make_engine(tmp_path, delay=0.1)
    first = subprocess.Popen([str(COMMAND), "eval", "--engine", str(engine), "--nodes", "1",
                              "--ids", "0-19", "-o", "t.csv"], cwd=tmp_path,
                             stderr=subprocess.PIPE, text=True)
    try:
        table = tmp_path / "t.csv"
        deadline = time.monotonic() + 60
        while not (table.exists() and table.read_text().count("\n") >= 2):
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.02)
        second = run("eval", "--engine", str(engine), "--nodes", "1", "--ids", "0-19",
                     "-o", "t.csv", cwd=tmp_path)
        one_error(second, "'t.csv'", "being written by another")
        assert first.wait(timeout=60) == 0
    finally:
        if first.poll() is None:
            first.kill()
        first.wait()
    ids = [line.split(",")[0] for line in table.read_text().splitlines()[1:]]
    assert ids == [str(n) for n in range(20)]  # each once, in order
    again = run("eval", "--engine", str(engine), "--nodes", "1", "--ids", "0-19",
                "-o", "t.csv", cwd=tmp_path)
    assert again.returncode == 0 and "20 already there, 0 evaluated" in again.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake-engine", "t.csv"]


@pytest.mark.slow
def test_ids_twice_in_a_table_are_read_when_they_agree(tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text(HEADER + "80,,E,,,,,0.4,,,,\n80,,E,,,,0.9,0.4,,,,\n")
    shown = run("eval", "80", "--eval-table", "t.csv", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "+0.40" in shown.stdout and "1 positions" in shown.stdout
    (tmp_path / "u.csv").write_text("id,eval,mate\n5,0.4,\n7,,3\n5,0.45,\n7,,3\n")
    line = one_error(run("eval", "5", "--eval-table", "u.csv", cwd=tmp_path),
                     "'u.csv', line 4", "id 5", "eval 0.4 (line 2)", "eval 0.45")
    assert line.endswith("comes twice with different values: eval 0.4 (line 2) and eval 0.45")
    (tmp_path / "v.csv").write_text("id,eval,mate\n7,,3\n7,,-3\n")
    one_error(run("eval", "7", "--eval-table", "v.csv", cwd=tmp_path),
              "id 7", "mate 3 (line 2)", "mate -3")


@pytest.mark.slow
def test_a_resumed_run_takes_a_table_with_agreeing_duplicates(tmp_path: Path) -> None:
    engine = make_engine(tmp_path)
    made = run("eval", "--engine", str(engine), "--nodes", "1", "--ids", "0-2", "-o", "t.csv",
               cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    table = tmp_path / "t.csv"
    lines = table.read_text().splitlines(keepends=True)
    table.write_text("".join(lines + lines[1:]))  # as two runs' appends would leave it
    again = run("eval", "--engine", str(engine), "--nodes", "1", "--ids", "0-3", "-o", "t.csv",
                cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "3 already there, 1 evaluated" in again.stderr
    assert [r.split(",")[0] for r in table.read_text().splitlines()[1:]] == ["0", "1", "2", "3"]


@pytest.mark.slow
def test_a_run_killed_while_rewriting_leaves_nothing_after_the_next_run(tmp_path: Path) -> None:
    """SIGKILL while the table is rewritten in ID order leaves a hidden partial
    copy; the next run on the table removes it."""
    rows = 30_000
    table = tmp_path / "t.csv"
    engine = make_engine(tmp_path)
    argv = [str(COMMAND), "eval", "--engine", str(engine), "--nodes", "1", "--rules", "dfrc",
            "--ids", f"0-{rows - 1}", "-o", "t.csv"]
    seen: list[str] = []
    for _ in range(5):  # the rewrite takes a moment: caught at once, as a rule
        table.write_text(HEADER + "".join(f"{n},,Fake 1.0,nodes 1,,,,0.1,,,,\n"
                                          for n in range(1, rows)))
        process = subprocess.Popen(argv, cwd=tmp_path, stderr=subprocess.DEVNULL)
        while process.poll() is None and not seen:
            seen = [p for p in os.listdir(tmp_path) if p.startswith(".")]
        process.kill()
        process.wait()
        if seen:
            break
    assert seen, "the runs ended before their rewrite was seen"
    again = run(*argv[1:], cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert sorted(os.listdir(tmp_path)) == ["fake-engine", "t.csv"]


# -- bounds ---------------------------------------------------------------------------


@pytest.mark.slow
def test_a_100_mb_table_is_refused_in_little_memory(tmp_path: Path) -> None:
    table = tmp_path / "big.csv"
    with table.open("w") as out:
        out.write("id,eval\n")
        n = 0
        while out.tell() < 100 << 20:
            out.write("".join(f"{i},0.1\n" for i in range(n, n + 100_000)))
            n += 100_000
    code, err, memory = peak_memory(["eval", "0", "--eval-table", "big.csv"], tmp_path)
    assert (code, err) == (1, "error: evaluation table 'big.csv', line 962: id 960 is out of "
                              "range 0..959\n")
    assert memory < 200, memory


def test_a_table_of_too_many_rows_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("solver.evaluation.table.MAX_ROWS", 1000)
    read_text("id,eval\n" + "0,0.1\n" * 1000, "t.csv")  # agreeing duplicates, as many as allowed
    with pytest.raises(EvalTableError, match=r"line 1002: the table has over 1,000 rows"):
        read_text("id,eval\n" + "0,0.1\n" * 1001, "t.csv")


def test_a_table_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    table = tmp_path / "huge.csv"
    with table.open("w") as out:
        out.write("id,eval\n0,0.1\n")
        out.truncate((256 << 20) + 1)  # sparse: no disk used
    code, err, memory = peak_memory(["eval", "0", "--eval-table", "huge.csv"], tmp_path)
    assert (code, err) == (1, "error: evaluation table 'huge.csv': is over 256 MiB\n")
    assert memory < 150, memory


def test_an_engine_line_of_300_mb_is_refused_in_little_memory(tmp_path: Path) -> None:
    engine = make_engine(tmp_path, info=300 << 20)
    code, err, memory = peak_memory(["eval", "--engine", str(engine), "--nodes", "1",
                                     "--ids", "0", "-o", "t.csv"], tmp_path)
    assert code == 1 and "Traceback" not in err, err[-2000:]
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert errors == [f"error: engine {str(engine)!r}: wrote a line over 64 KiB while "
                      "searching 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1' "
                      "(nodes 1)"], err
    assert memory < 200, memory


def stray(pids: Path) -> list[int]:
    """The engine processes (their PIDs written in ``pids``) still alive."""
    alive = []
    for name in os.listdir(pids):
        try:
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            continue
        if state != "Z":
            alive.append(int(name))
    return alive


@pytest.fixture
def pids(tmp_path: Path) -> Iterator[Path]:
    """A folder the fake engines write their PIDs in; any left alive are killed."""
    folder = tmp_path / "pids"
    folder.mkdir()
    yield folder
    for pid in stray(folder):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_ctrl_c_ends_engines_that_ignore_their_input_ending(stop: int, tmp_path: Path,
                                                           pids: Path) -> None:
    engine = make_engine(tmp_path, stubborn=True, pids=pids)
    process = subprocess.Popen([str(COMMAND), "eval", "--engine", str(engine), "--nodes", "1",
                                "--jobs", "2", "--ids", "0-9", "-o", "t.csv"], cwd=tmp_path,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(os.listdir(pids)) < 2:  # the first (asked its options, then a job's), 1 more
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    time.sleep(0.3)  # the jobs' engines are searching
    process.send_signal(stop)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + stop
    assert "Traceback" not in err and "error:" not in err
    deadline = time.monotonic() + 3
    while stray(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stray(pids) == []


# -- numbers, fields, line ends, names ------------------------------------------------


@pytest.mark.parametrize("info", sample([
    "info depth 3 score cp " + "9" * 400 + " nodes 42",
    "info depth 3 score cp 25 nodes 42 time " + "9" * 400,
    "info depth 3 score mate -" + "9" * 400,
    "info depth " + "9" * 400 + " score cp 25",
], 2), ids=["cp", "time", "mate", "depth"])
def test_an_engine_number_of_400_digits_is_one_error(info: str, tmp_path: Path) -> None:
    engine = make_engine(tmp_path, info=info)
    done = run("eval", "--engine", str(engine), "--nodes", "1", "--ids", "0", "-o", "t.csv",
               cwd=tmp_path)
    one_error(done, str(engine), "info line that cannot be read", "'info depth ")


@pytest.mark.parametrize(("text", "words"), sample([
    ("id,eval\n0," + "1" * (129 << 10) + "\n", ("line 2", "a field is over 128 KiB")),
    ("id,eval\n0,0.4\r1,0.1\r2,x\r", ("line 4", "eval 'x' is not a number")),
    ("id,eval\n0,0.4\n1,0\r.1\n", ("line 4", "not as many fields")),
    ("id,eval\n" + "9" * 310 + ",0.4\n", ("line 2", "id '999", "over 18 digits")),
    ("id,eval\n0,0.4,\"" + "x" * (300 << 10) + "\"\n", ("line 2", "line is over 256 KiB")),
    ("id,eval\n0,0.4\n1,\"x\n", ("line 3", "eval 'x' is not a number")),
    ("id,eval\n0,0.4\n\xff", ("t.csv': is not UTF-8 text",)),
], 3), ids=["field-128k", "cr-ends-bad-row", "lone-cr", "id-310-digits", "line-300k",
        "open-quote", "not-utf8"])
def test_tables_that_cannot_be_read_are_one_error(text: str, words: tuple[str, ...],
                                                  tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_bytes(text.encode("utf-8", "surrogateescape")
                                     if "\xff" not in text else text.encode("latin-1"))
    one_error(run("eval", "0", "--eval-table", "t.csv", cwd=tmp_path), "'t.csv'", *words)


def test_random_balanced_refuses_an_id_of_310_digits_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text("id,eval\n" + "9" * 310 + ",0.4\n")
    one_error(run("random", "--balanced", "1", "--eval-table", "t.csv", cwd=tmp_path),
              "'t.csv', line 2: id '999", "(310 characters) has over 18 digits")


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"], ids=["CR", "CRLF", "LF"])
def test_any_line_end_is_read(end: str, tmp_path: Path) -> None:
    text = end.join(["id,engine,eval", "0,E,0.4", "80,E,-0.2", "959,E,0.1"]) + end
    (tmp_path / "t.csv").write_bytes(text.encode())
    shown = run("eval", "80", "--eval-table", "t.csv", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "-0.20" in shown.stdout and "3 positions" in shown.stdout


@pytest.mark.parametrize(("length", "reason"), [
    (129 << 10, "wrote a line over 64 KiB while waiting for 'uciok'"),
    (5000, "gave a name of 5,000 characters (at most 1,000)"),
], ids=["128k", "5000"])
def test_an_engine_name_too_long_is_one_error(length: int, reason: str,
                                              tmp_path: Path) -> None:
    engine = make_engine(tmp_path, name=length)
    done = run("eval", "--engine", str(engine), "--nodes", "1", "--ids", "0-1", "-o", "t.csv",
               cwd=tmp_path)
    one_error(done, str(engine), reason)
    assert not (tmp_path / "t.csv").exists()


def test_a_table_with_a_name_of_200_kib_is_one_error_on_resume(tmp_path: Path) -> None:
    """What an earlier version wrote for such an engine: resuming is an error, not a crash."""
    (tmp_path / "t.csv").write_text(HEADER + "0,,\"" + "N" * (200 << 10) + "\",,,,,0.1,,,,\n")
    engine = make_engine(tmp_path)
    done = run("eval", "--engine", str(engine), "--nodes", "1", "--ids", "0-1", "-o", "t.csv",
               cwd=tmp_path)
    one_error(done, "'t.csv', line 2", "a field is over 128 KiB")


@pytest.mark.slow
def test_names_with_escape_sequences_are_shown_escaped(tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text("id,engine,limit,eval\n"
                                    "80,Fish\x1b[2J\x07 9,nodes\x1b]0;x,0.1\n")
    shown = run("eval", "80", "--eval-table", "t.csv", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    assert shown.stdout.count("Fish\\x1b[2J\\x07 9") == 2  # the row and the sources
    assert "nodes\\x1b]0;x" in shown.stdout
    drawn = run("random", "--balanced", "1", "--eval-table", "t.csv", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    assert "\x1b" not in drawn.stderr and "Fish\\x1b[2J\\x07 9" in drawn.stderr
    engine = make_engine(tmp_path, name="Evil\x1b[31m 1")
    made = run("eval", "--engine", str(engine), "--nodes", "1", "--ids", "0", "-o", "u.csv",
               cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "\x1b" not in made.stderr and "evaluated by Evil\\x1b[31m 1 (" in made.stderr


# -- properties -----------------------------------------------------------------------

WORDS = st.sampled_from(["info", "depth", "nodes", "time", "score", "cp", "mate", "wdl",
                         "lowerbound", "pv", "e2e4", "-"])
NUMBERS = st.integers(-(10 ** 40), 10 ** 40).map(str)


@given(st.lists(st.one_of(WORDS, NUMBERS), max_size=12))
def test_parse_info_reads_or_refuses_with_value_error(words: list[str]) -> None:
    try:
        info = parse_info(" ".join(["info", *words]))
    except ValueError:
        return
    for value in (info.cp, info.mate, info.depth, info.nodes):
        assert value is None or abs(value) < 10 ** 18


@given(st.integers(-(10 ** 500), 10 ** 500), st.integers(0, 10 ** 500), st.booleans())
def test_any_score_read_makes_a_row(cp: int, ms: int, white: bool) -> None:
    """A score and time the client accepts always make a table row (as the
    command would write it); others are a ValueError (one error line)."""
    try:
        info = parse_info(f"info depth 1 score cp {cp} nodes 1 time {ms}")
    except ValueError:
        return
    row = evaluation(0, "f", "E", "nodes 1",
                     Result(info.cp, None, None, info.depth, info.nodes, info.time, "e2e4"),
                     white)
    assert row.pawns is not None and math.isfinite(row.pawns)
    assert row.time is not None and math.isfinite(row.time)


CELLS = st.one_of(st.sampled_from(["0", "80", "959", "0.4", "-1e3", "nan", "", "x", '"',
                                   "\r", "\n", "\r\n", ",", "9" * 30]),
                  st.text(max_size=5))


@settings(max_examples=examples(20, 1000))
@given(st.lists(st.lists(CELLS, max_size=5), max_size=6))
def test_read_text_reads_or_refuses_with_one_error(rows: list[list[str]]) -> None:
    text = "id,eval,mate\n" + "".join(",".join(r) + "\n" for r in rows)
    try:
        table = read_text(text, "t.csv")
    except EvalTableError:
        return
    assert all(0 <= n < 10 ** 18 for n in table.rows)
