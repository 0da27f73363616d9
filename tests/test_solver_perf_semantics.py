"""The tuned solver finds exactly what the rules allow, and streams it.

The oracles (``tests/oracles.py``) are written from the rules of each family
(a brute force over every arrangement, or a plain python-constraint model with
lambdas), never from the solver's code. No test measures time.
"""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import permutations

import pytest
from oracles import EIGHT_FILE_RULES, arrangements, family_ranks, plain_capablanca_random
from profiles import sample

from solver.cli import bodies
from solver.cli.progress import SolveProgress
from solver.cli.quick import parse as quick_parse
from solver.errors import EmptyFamilyError
from solver.family import Family
from solver.numbering.encoder import FastEncoder
from solver.ruleset.reader import load, parse
from solver.search import csp
from solver.search.solve import build_model, count, solve

ENTRY = [sys.executable, "-c", "from solver.cli.entry import main; main()"]


@pytest.mark.parametrize("name", sorted(EIGHT_FILE_RULES))
def test_solver_finds_exactly_the_brute_force_ranks(name: str) -> None:
    expected = family_ranks(name)
    found = list(solve(load(name)))
    assert len(found) == len(set(found))
    assert set(found) == expected


@pytest.mark.slow  # 48,000 ranks three ways; the small families below take every path: CI
def test_capablanca_random_equals_a_plain_model_in_one_process_and_in_workers() -> None:
    expected = plain_capablanca_random()
    assert len(expected) == 48_000
    one = list(solve(load("capablanca-random"), workers=1))
    two = list(solve(load("capablanca-random"), workers=2))
    assert len(one) == len(two) == 48_000
    assert set(one) == set(two) == expected


# Small made-up families that take every path of the compiler: an odd board
# (the king's middle file is not mirrored), rules that are not mirror-invariant
# (an asymmetric on-files, differs-from, exclude), a rule over every piece that
# is tabulated (and proven mirror-invariant) or too wide to tabulate, and
# identical pieces in threes.
SMALL = {
    "odd": """
        files = 7
        pieces = "KRRBBNQ"
        [[rule]]
        kind = "between"
        piece = "K"
        pair = "RR"
        [[rule]]
        kind = "not-adjacent"
        pieces = "BB"
    """,
    "lopsided": """
        files = 6
        pieces = "KQRRNN"
        [[rule]]
        kind = "on-files"
        piece = "Q"
        files = "abc"
        [[rule]]
        kind = "same-colour"
        pieces = "KQ"
    """,
    "protected": """
        files = 6
        pieces = "KQRBBN"
        [[rule]]
        kind = "pawns-protected"
        [[rule]]
        kind = "opposite-colours"
        pieces = "BB"
    """,
    "wide": """
        files = 7
        pieces = "KQRRBBN"
        [[rule]]
        kind = "pawns-protected"
        [[rule]]
        kind = "opposite-colours"
        pieces = "BB"
    """,
    "triples": """
        files = 7
        pieces = "KNNNRRB"
        [[rule]]
        kind = "between"
        piece = "K"
        pair = "RR"
    """,
    "excluded": """
        files = 6
        pieces = "KQRRBB"
        [[rule]]
        kind = "exclude"
        ranks = ["RBQKBR", "RBKQBR"]
        [[rule]]
        kind = "differs-from"
        rank = "RQBBKR"
        at-least = 3
    """,
}


def small_family(name: str) -> Family:
    head = f'name = "{name}"\ntitle = "t"\nsource = "s"\ncount = 0\n'
    body = "\n".join(line.strip() for line in SMALL[name].strip().splitlines())
    fields, _, rules = body.partition("[[rule]]")
    return Family(parse(head + fields + "[[rule]]" + rules, f"<{name}>"))


@pytest.mark.parametrize("name", sample(sorted(SMALL), 3))
@pytest.mark.parametrize("workers", [1, 2])
def test_small_families_equal_brute_force_by_the_explanations(
    name: str, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(csp.workers, "SPLIT_ABOVE", 0)  # split into parts even when small
    forked = []
    in_workers = csp.workers._in_workers

    def counted(*args: object) -> object:
        forked.append(args)
        return in_workers(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(csp.workers, "_in_workers", counted)
    family = small_family(name)
    expected = {r for r in arrangements(family.ruleset.pieces) if not family.violations(r)}
    found = list(solve(family.ruleset, workers=workers))
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert count(family.ruleset, workers=workers) == len(expected)
    # The parts are forked only where no other thread runs (csp.workers._can_fork): a
    # test before this one in the same process may have left threads (Dask's, an
    # engine's), and the search then runs the parts in this process.
    forks = workers == 2 and csp.workers._can_fork()
    assert len(forked) == (2 if forks else 0)


def test_enumerated_family_lists_in_step_order() -> None:
    family = small_family("wide")
    assert family.ruleset.numbering == "enumerated"
    ranks = family.ranks()
    keys = [family.numbering.digits(r)[::-1] for r in ranks]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert family.total() == len(ranks) == family.side_count
    assert [family.rank_id(r) for r in ranks] == list(range(len(ranks)))


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("forwardcheck", [True, False])
def test_untabulated_constraints_find_the_same_ranks(
    name: str, forwardcheck: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    family = small_family(name)
    expected = set(solve(family.ruleset))
    monkeypatch.setattr(csp.compile, "TABLE_LIMIT", 1)  # every rule tested as it comes
    plan = csp.compile_model(build_model(family.ruleset))
    plan.forwardcheck = forwardcheck
    assert not plan.mirror and not plan.tables
    found = [r for b in csp.batches(plan, plan.ranks, workers=1) for r in b]
    assert len(found) == len(set(found))
    assert set(found) == expected


def test_a_family_with_no_rank_solves_to_nothing() -> None:
    family = Family(parse('''
        name = "empty"
        title = "King in the corner, between the rooks"
        source = "test"
        files = 6
        pieces = "KRRBBN"
        count = 0
        [[rule]]
        kind = "between"
        piece = "K"
        pair = "RR"
        [[rule]]
        kind = "on-files"
        piece = "K"
        files = "a"
    '''.replace("\n        ", "\n")))
    assert list(solve(family.ruleset)) == []
    for listing in (family.total, family.ranks):
        with pytest.raises(EmptyFamilyError) as info:
            listing()
        assert info.value.conflict == ("between K RR", "on-files K a")


# Which pieces the search leaves out, read off each family's rules: the king
# (the pivot) is always searched; pieces no rule ties to another piece, or
# tied only among themselves, are filled in afterwards while their ways stay
# within FILL_LIMIT. capablanca-random-full's pawns-protected reads every
# piece, so nothing is left out.
@pytest.mark.parametrize(
    ("name", "mirror", "searched"),
    [("chess960", True, {"K", "R1", "R2"}),
     ("capablanca-random", True, {"K", "R1", "R2", "C", "B2"}),
     ("bench-12", True, {"K", "R1", "R2", "Q", "A", "B1", "B2"}),
     ("chess324", False, {"K"}),
     ("capablanca-random-full", False, {"K", "Q", "A", "C", "R1", "R2", "B1", "B2", "N1",
                                        "N2"})],
)
def test_symmetry_and_left_out_pieces_are_detected(
    name: str, mirror: bool, searched: set[str]
) -> None:
    plan = csp.compile_model(build_model(load(name)))
    assert plan.mirror is mirror
    assert set(plan.domains) == searched
    everyone = set(plan.model.domains)
    assert set(plan.fill.pieces if plan.fill else ()) == everyone - searched


def test_left_out_pieces_take_every_way_their_rules_allow_on_the_files_left() -> None:
    # chess960 searches K R R only. R1 on b, K on e, R2 on f leave a, c, d,
    # g, h: three dark and two light, so the bishops have 3 x 2 ways and the
    # queen 3 of the files left, the knights the rest: 18 ways, listed here
    # by brute force over the letters.
    plan = csp.compile_model(build_model(load("chess960")))
    assert plan.fill is not None
    free = (0, 2, 3, 6, 7)  # R1 on b, K on e, R2 on f
    mask = sum(1 << f for f in free)
    dark = [f for f in free if f % 2 == 0]
    expected = set()
    for letters in set(permutations("BBQNN")):
        bishops = [f for f, letter in zip(free, letters, strict=True) if letter == "B"]
        if len([f for f in bishops if f in dark]) == 1:
            expected.add("".join(letters))
    assert len(expected) == 18
    assert set(plan.fill.ways[mask]) == expected
    assert len(plan.fill.ways[mask]) == 18


@pytest.mark.parametrize(("name", "mirror"), [("odd", True), ("lopsided", False),
                                              ("protected", True), ("wide", False),
                                              ("excluded", False), ("triples", True)])
def test_mirroring_is_used_only_when_every_rule_allows_it(name: str, mirror: bool) -> None:
    plan = csp.compile_model(build_model(small_family(name).ruleset))
    assert plan.mirror is mirror


# -- canonical order and streaming ----------------------------------------------------


@pytest.mark.parametrize("name", ["chess960", "shuffle", "chess324", "king-between-rooks",
                                  pytest.param("capablanca-random", marks=pytest.mark.slow)])
def test_ranks_come_in_id_order_and_count_matches(name: str) -> None:
    family = Family.load(name)
    ranks = family.ranks()
    assert len(ranks) == family.side_count
    assert [family.numbering.encode(r) for r in ranks] == list(range(len(ranks)))
    assert family.total() == family.count


def test_streamed_positions_match_the_listed_ranks_and_independent_sides_square() -> None:
    family = Family.load("chess960")
    positions = list(family.positions())
    assert [p.white for p in positions] == family.ranks()
    assert [p.id for p in positions] == list(range(960))
    dfrc = Family.load("dfrc")
    assert dfrc.total() == 960 * 960
    first = next(iter(dfrc.positions()))
    assert (first.id, first.white, first.black) == (0, "BBQNNRKR", "BBQNNRKR")


def test_progress_is_told_the_running_total() -> None:
    seen: list[int] = []
    family = Family.load("capablanca-random")
    assert family.total(seen.append) == 48_000
    assert seen == sorted(seen)
    assert seen[-1] == 48_000


@pytest.mark.parametrize("name", ["chess960", "bishops-opposite", "chess324", "shuffle",
                                  "capablanca-shuffle"])
def test_fast_encoder_is_the_numbering(name: str) -> None:
    family = Family.load(name)
    ranks = list(solve(family.ruleset))[:6000]
    assert FastEncoder(family.numbering).ids(ranks) == [family.numbering.encode(r)
                                                        for r in ranks]


def test_fast_encoder_refuses_what_the_numbering_refuses() -> None:
    from solver.errors import NumberingError

    encoder = FastEncoder(load("chess960").step_numbering())
    assert encoder.id("RNBQKBNR") == 518
    with pytest.raises(NumberingError):
        encoder.id("RNBQRBNK")  # the last step RKR finds R R K


def test_lookup_table_is_built_only_after_many_lookups() -> None:
    family = Family.load("chess960")
    assert family.rank_id("QNRBBNKR") == 105
    assert family.rank_of(518) == "RNBQKBNR"
    assert family.index.ids is None  # one lookup (`chess960 id X`) builds nothing
    for number in range(300):
        assert family.rank_id(family.rank_of(number)) == number
    assert family.index.ids is not None
    assert all(family.rank_of(i) == family.numbering.decode(i) for i in range(960))
    assert family.rank_id("RNBQKBNR") == 518
    with pytest.raises(ValueError, match=r"id 960 is out of range 0\.\.959"):
        family.rank_of(960)
    with pytest.raises(ValueError, match="id -1 is out of range"):
        family.rank_of(-1)


# -- the command line ------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "parsed"), [
    (["id", "QNRBBNKR"], (["QNRBBNKR"], "chess960", "text")),
    (["id", "-", "X"], (["-", "X"], "chess960", "text")),
    (["id", "-r", "dfrc", "X"], (["X"], "dfrc", "text")),
    (["id", "--rules=dfrc", "X"], (["X"], "dfrc", "text")),
    (["id", "X", "--format", "json"], (["X"], "chess960", "json")),
    (["id"], None),
    (["id", "--help"], None),
    (["id", "-r"], None),
    (["id", "X", "--format", "nope"], None),
    (["solve", "--help"], None),
    ([], None),
])
def test_fast_id_command_lines(argv: list[str],
                               parsed: tuple[list[str], str, str] | None) -> None:
    quick = quick_parse(argv)
    if parsed is None:
        assert quick is None
        return
    assert quick is not None
    body, arguments = quick
    assert body is bodies.id_
    assert (arguments["ranks"], arguments["rules"], arguments["fmt"]) == parsed


def run(args: list[str], stdin: str = "") -> tuple[str, str, int]:
    done = subprocess.run([*ENTRY, *args], input=stdin, capture_output=True, text=True,
                          check=False)
    return done.stdout, done.stderr, done.returncode


def test_plain_id_runs_in_process(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    from solver.cli import entry

    monkeypatch.setattr(sys, "stdin", io.StringIO("QNRBBNKR\nnope\n"))
    monkeypatch.setattr(sys, "argv", ["chess960", "id", "RNBQKBNR", "-"])
    with pytest.raises(SystemExit) as exit_:
        entry.main()
    assert exit_.value.code == 1
    out, err = capsys.readouterr()
    assert out == "518\n105\n\n"  # one output line per stdin line
    assert err.startswith("error: line 2: 'nope'")
    assert entry.dispatch(["id", "X", "-r", "nope"]) == 1
    assert "error: no rule set 'nope'" in capsys.readouterr().err

    def interrupted(*args: object) -> Family:
        raise KeyboardInterrupt

    monkeypatch.setattr(Family, "load", interrupted)
    monkeypatch.setattr(Family, "from_source", interrupted)
    assert entry.dispatch(["id", "RNBQKBNR", "-r", "dfrc"]) == 130  # chess960 needs none


def test_id_from_stdin_answers_every_line_in_order() -> None:
    lines = ["QNRBBNKR", "", "rnbqkbnr", "QNRBBNKR", "bad", "RNBQKBNR  ", "QNRBBNKR"] * 3
    out, err, code = run(["id", "-"], "\n".join(lines) + "\n")
    assert out.split() == ["105", "518", "105", "518", "105"] * 3
    # blank lines are errors too (one output line per input line)
    assert err.count("error: line") == 6 and "error: line 5: 'bad'" in err
    assert code == 1


def test_plain_id_needs_no_typer_pydantic_or_solver() -> None:
    code = ("import atexit, sys; sys.argv = ['chess960', 'id', 'QNRBBNKR']\n"
            "heavy = {'typer', 'pydantic', 'constraint', 'rich', 'solver.search.solve',"
            " 'solver.search.csp'}\n"
            "atexit.register(lambda: print(sorted(m for m in sys.modules if m in heavy or "
            "m.split('.')[0] in heavy), file=sys.stderr))  # (main ends the process)\n"
            "from solver.cli.entry import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "105\n"
    assert done.stderr.strip() == "[]"


def test_typer_and_plain_paths_agree(capsys: pytest.CaptureFixture[str]) -> None:
    from solver.cli.app import run as typer_run
    from solver.cli.entry import dispatch

    for args in (["id", "QNRBBNKR", "BBBBBBBB"], ["id", "-r", "nope", "X"]):
        plain = dispatch(args), capsys.readouterr()
        typed = typer_run(args), capsys.readouterr()
        assert plain == typed
        assert plain[1].out or plain[1].err


def test_progress_bar_shows_on_a_terminal_only() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    family = Family.load("capablanca-random")
    quiet = io.StringIO()
    with SolveProgress(family, quiet, delay=0) as progress:
        progress(10)
    assert quiet.getvalue() == ""
    shown = Terminal()
    with SolveProgress(family, shown, delay=0) as progress:
        progress(24_000)
    assert "solving capablanca-random" in shown.getvalue()
    assert "24000/48000" in shown.getvalue()


#: Generous: how long a solve may take to show that it has started, on a loaded machine.
STARTED_WITHIN = 120.0


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state, ppid, pgrp, ...)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].decode().split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) and fields[1] == str(pid):
            found.append(int(entry))
    return found


def _ignores_sigint(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("SigIgn:"):
                    return bool(int(line.split()[1], 16) >> (signal.SIGINT - 1) & 1)
    except (FileNotFoundError, ProcessLookupError):
        pass
    return False


def _wait_for(process: subprocess.Popen[bytes], sign: Callable[[], bool], what: str) -> None:
    """Wait until ``sign()`` holds, while the process runs; fail if it ends first."""
    deadline = time.monotonic() + STARTED_WITHIN
    while not sign():
        try:
            process.wait(timeout=0.02)  # returns early only if the process has ended
        except subprocess.TimeoutExpired:
            pass
        else:
            pytest.fail(f"the solve ended (exit {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {STARTED_WITHIN:.0f} s")


def _first_line(process: subprocess.Popen[bytes]) -> bytes:
    """The first line the process writes to stdout (waiting at most STARTED_WITHIN)."""
    assert process.stdout is not None
    fd = process.stdout.fileno()
    data = b""
    deadline = time.monotonic() + STARTED_WITHIN
    while b"\n" not in data:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            pytest.fail(f"no line on stdout within {STARTED_WITHIN:.0f} s")
        if select.select([fd], [], [], remaining)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                pytest.fail(f"stdout closed before a first line: {data!r}")
            data += chunk
    return data.split(b"\n", 1)[0]


@pytest.mark.parametrize("args", [["solve", "--rules", "bench-12"],
                                  ["solve", "--count", "--rules", "bench-12"]])
def test_ctrl_c_stops_at_once_with_130_and_no_traceback(args: list[str]) -> None:
    # SIGINT goes only when the solve has shown that it is under way (and so
    # that the entry point's handler is in place), never after a fixed delay:
    # a listing by its first line (bench-12 is listed from its placement
    # steps, with no search); a count, which prints nothing until the
    # end, by a worker process that has started searching (workers ignore
    # SIGINT; the parent answers it for them). Nobody reads on: a listing soon
    # blocks on the full pipe, and a count of a million ranks takes seconds,
    # so both are still running at SIGINT.
    listing = "--count" not in args
    if csp.cores() < 2 and not listing:
        pytest.skip("on one core a solve runs in one process and shows no worker")
    process = subprocess.Popen([*ENTRY, *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        if listing:
            assert _first_line(process) == b"0 BBQACCCNNRKR"
        else:
            _wait_for(process, lambda: any(map(_ignores_sigint, _children(process.pid))),
                      "worker process searching")
        assert process.poll() is None, "the solve ended before it could be interrupted"
        process.send_signal(signal.SIGINT)
        started = time.monotonic()
        process.wait(timeout=10)
        stopped = time.monotonic() - started
        err = process.stderr.read() if process.stderr else b""
    finally:
        process.kill()
        process.wait()
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()
    assert process.returncode == 130, err
    assert stopped < 5
    assert b"Traceback" not in err
    # No worker process is left behind: the solve kills and reaps its workers
    # before it exits, and a worker forked as the signal came dies with its parent
    # (PR_SET_PDEATHSIG): the process group empties (polled; 5 s, not 1, because on
    # a loaded machine, as in CI's wheel step, a killed worker once took over a second
    # to be gone: what is asserted is that none is left, not how fast).
    deadline = time.monotonic() + 5.0
    while True:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "a worker outlived its parent by 5 seconds"
        time.sleep(0.01)


def test_a_worker_that_fails_is_one_library_error() -> None:
    # A bug in a worker (here ``prepare`` dividing by zero in the worker
    # process, not in the caller's own share) reaches the caller as a
    # WorkerError (one `error:` line in the CLI), never as a bare exception.
    from solver.errors import WorkerError
    from solver.search.solve import batches

    caller = os.getpid()

    def broken(batch: object) -> int:
        return 1 // (os.getpid() == caller)

    with pytest.raises(WorkerError, match=r"failed: ZeroDivisionError: integer division") as caught:
        list(batches(load("capablanca-random"), broken, workers=2))
    assert caught.value.reason is not None and caught.value.exitcode is None
