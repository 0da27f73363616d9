"""``chess960 eval --engine``: real engines (Debian's stockfish and
fairy-stockfish, skipped with a message where absent) through the installed
command, the UCI client checked against python-chess's (GPL, test-only), and
a fake engine (a small script speaking UCI) for the error paths and resuming.

Slow: every test starts engine processes.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solver.errors import EngineError, EvalTableError
from solver.evaluation.run import evaluate
from solver.evaluation.table import read_table
from solver.evaluation.uci import Engine, find_engine
from solver.family import Family
from solver.idlists import id_ranges

pytestmark = pytest.mark.slow

COMMAND = Path(sys.executable).with_name("chess960")


def engine_or_skip(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/games")
    if found is None:
        pytest.skip(f"{name} is not installed (Debian package {name}; .ci/run installs it)")
    return found


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(COMMAND), *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=300, check=False)


# -- real engines through the installed command ---------------------------------------


@pytest.mark.parametrize(("engine", "rules", "variant"), [
    ("stockfish", "chess960", "UCI_Chess960"),
    ("fairy-stockfish", "capablanca-random", "UCI_Variant caparandom"),
])
def test_engine_table_is_read_by_random_balanced(engine: str, rules: str, variant: str,
                                                 tmp_path: Path) -> None:
    engine_or_skip(engine)
    made = run("eval", "--engine", engine, "--nodes", "2000", "--rules", rules,
               "--ids", "0-19", "--jobs", "2", "-o", "t.csv", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stdout == ""
    assert f"20 {rules} positions, 0 already there, 20 evaluated by" in made.stderr
    assert variant in made.stderr and "eval: 20/20 positions" in made.stderr
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert [int(r["id"]) for r in rows] == list(range(20))
    family = Family.load(rules)
    from solver.notation.fen import position_fen

    for row in rows:
        assert row["fen"] == position_fen(family.position(int(row["id"])))
        assert row["limit"] == "nodes 2000" and row["engine"]
        assert row["eval"] or row["mate"]
        assert int(row["nodes"]) >= 2000
    again = run("eval", "--engine", engine, "--nodes", "2000", "--rules", rules,
                "--ids", "0-19", "-o", "t.csv", cwd=tmp_path)
    assert again.returncode == 0 and "20 already there, 0 evaluated" in again.stderr
    evals = {int(r["id"]): float(r["eval"]) for r in rows if r["eval"]}
    high = max(abs(v) for v in evals.values())
    drawn = run("random", "--balanced", str(high), "--eval-table", "t.csv", "--rules", rules,
                "--seed", "x", "-n", "40", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    ids = [int(line.split()[0]) for line in drawn.stdout.splitlines()]
    assert len(ids) == 40 and set(ids) <= set(evals)
    assert drawn.stderr.startswith(f"balanced: t's eval within ±{high:.2f} pawns, "
                                   f"{len(evals)} of {family.count:,} {rules} positions allowed;")
    assert "t.csv" in drawn.stderr and "nodes 2000" in drawn.stderr
    # `--balanced` alone: ±0.5 pawns (an error naming the band if no position is inside)
    drawn = run("random", "--balanced", "--eval-table", "t.csv", "--rules", rules,
                "--seed", "x", "-n", "10", cwd=tmp_path)
    inside = {n for n, v in evals.items() if abs(v) <= 0.5}
    if inside:
        assert drawn.returncode == 0, drawn.stderr
        assert {int(line.split()[0]) for line in drawn.stdout.splitlines()} <= inside
        assert drawn.stderr.startswith("balanced: t's eval within ±0.50 pawns, ")
    else:
        assert drawn.returncode == 1 and drawn.stdout == ""
        assert drawn.stderr.startswith("error: band '0.5' leaves no ")
    middle = sorted(evals.values())[len(evals) // 2]
    inside = {n for n, v in evals.items() if abs(v) <= abs(middle)}
    drawn = run("random", "--balanced", f"{abs(middle)}", "--eval-table", "t.csv",
                "--rules", rules, "--seed", "y", "-n", "40", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    assert {int(line.split()[0]) for line in drawn.stdout.splitlines()} <= inside


def test_the_client_scores_as_python_chess_does() -> None:
    """Our client's score for a fixed node count equals python-chess's ``analyse``
    (one thread, a new game each: the search is deterministic)."""
    path = engine_or_skip("stockfish")
    pytest.importorskip("chess")
    import chess.engine

    family = Family.load("chess960")
    from solver.notation.fen import position_fen

    with chess.engine.SimpleEngine.popen_uci(path) as oracle, Engine(path) as ours:
        oracle.configure({"Threads": 1})
        ours.set_option("UCI_Chess960", "true")
        ours.set_option("Threads", "1")
        for number in (0, 80, 518, 959):
            board = chess.Board.from_chess960_pos(number)
            oracle.protocol.send_line("ucinewgame")
            info = oracle.analyse(board, chess.engine.Limit(nodes=3000), game=object())
            fen = position_fen(family.position(number), shredder=True)
            result = ours.analyse(fen, nodes=3000)
            assert result.cp == info["score"].white().score(), number


# -- a fake engine for the error paths ------------------------------------------------

FAKE = '''\
import os, sys
mode = os.environ.get("FAKE_UCI", "ok")
def say(line):
    sys.stdout.write(line + "\\n"); sys.stdout.flush()
fen = ""
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        if mode == "mute":
            continue
        say("id name Fake 1.0")
        say("option name UCI_Chess960 type check default false")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        fen = " ".join(words[2:])
    elif words[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            continue
        if mode == "garbage":
            say("info depth 1 score cp banana nodes 10")
        elif mode != "noscore":
            cp = sum(map(ord, fen)) % 101 - 50
            say(f"info string hello")
            say(f"info depth 3 seldepth 4 score cp {cp} nodes 42 time 1 pv e2e4")
        say("bestmove e2e4")
    elif words[0] == "quit":
        break
'''


@pytest.fixture
def fake(tmp_path: Path) -> Path:
    script = tmp_path / "fake-engine"
    script.write_text(f"#!{sys.executable}\n{FAKE}")
    script.chmod(0o755)
    return script


def expected_cp(fen: str) -> int:
    return sum(map(ord, fen)) % 101 - 50


def test_fake_engine_table_and_resume(fake: Path, tmp_path: Path) -> None:
    chess960 = Family.load("chess960")
    out = tmp_path / "t.csv"
    first = evaluate(chess960, str(fake), ids=id_ranges(chess960, ["0-4"]), out=str(out),
                     nodes=10, jobs=2)
    assert (first.asked, first.skipped, first.done, first.engine) == (5, 0, 5, "Fake 1.0")
    # a run stopped mid-line: the cut line is dropped, its id evaluated again
    out.write_bytes(out.read_bytes() + b"5,bbq")
    second = evaluate(chess960, str(fake), ids=list(range(10)), out=str(out), nodes=10, jobs=3)
    assert (second.skipped, second.done) == (5, 5)
    table = read_table(str(out))
    assert sorted(table.rows) == list(range(10))
    from solver.notation.fen import position_fen

    for number, row in table.rows.items():
        shredder = position_fen(chess960.position(number), shredder=True)
        assert row.pawns == expected_cp(shredder) / 100
        assert (row.depth, row.nodes, row.limit) == (3, 42, "nodes 10")
    assert out.read_text().splitlines()[1].startswith("0,")  # rewritten in ID order
    other = tmp_path / "other.csv"
    other.write_text("id,eval\n0,1\n")
    with pytest.raises(EvalTableError, match="header differs"):
        evaluate(chess960, str(fake), ids=[0], out=str(other), nodes=10)
    with pytest.raises(EvalTableError, match="another family's"):
        evaluate(Family.load("king-between-rooks"), str(fake), ids=[0], out=str(out), nodes=10)


@pytest.mark.parametrize(("mode", "reason"), [
    ("crash", "exited with code 3 while searching"),
    ("garbage", "info line that cannot be read"),
    ("noscore", "'bestmove' with no score"),
    ("hang", "no answer within 1 s while searching"),
])
def test_fake_engine_failures_are_one_clear_error(mode: str, reason: str, fake: Path,
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_UCI", mode)
    with pytest.raises(EngineError, match=reason):
        evaluate(Family.load("chess960"), str(fake), ids=[0, 1], out=str(tmp_path / "t.csv"),
                 nodes=10, timeout=1)
    done = run("eval", "--engine", str(fake), "--nodes", "10", "--ids", "0-3", "--timeout", "1",
               "-o", "u.csv", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("error:")] == [
        line for line in done.stderr.splitlines() if "engine" in line and reason in line]


def test_engines_that_cannot_be_used(fake: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(EngineError, match="not found on PATH nor in /usr/games"):
        find_engine("no-such-engine-here")
    with pytest.raises(EngineError, match="no such program"):
        find_engine(str(tmp_path / "absent"))
    with pytest.raises(EngineError, match="offers no UCI_Variant capablanca"):
        evaluate(Family.load("capablanca-random"), str(fake), ids=[0],
                 out=str(tmp_path / "c.csv"), nodes=10)
    with pytest.raises(EngineError, match="no UCI set-up is known for shogi-shuffle"):
        evaluate(Family.load("shogi-shuffle"), str(fake), ids=[0],
                 out=str(tmp_path / "s.csv"), nodes=10)
    monkeypatch.setenv("FAKE_UCI", "mute")
    monkeypatch.setattr("solver.evaluation.uci.HANDSHAKE_TIMEOUT", 1.0)
    with pytest.raises(EngineError, match="no answer within 1 s while waiting for 'uciok'"):
        Engine(str(fake))
    assert not os.path.exists(tmp_path / "c.csv")
