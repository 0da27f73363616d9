"""Benchmarks for issues 5 ("Fast at every size") and 12 ("Instant answers"):
one run, medians side by side.

Run from a checkout with the project installed (``pip install -e .``)::

    python bench/run.py              # everything (a few minutes)
    python bench/run.py --quick      # fewer repeats, no 12-file listing

Each measurement is repeated; ours and its baseline alternate, so that a
machine busy with other work slows both alike, and the table shows medians.
Baselines are written here: a brute force over permutations, a plain
python-constraint model (pieces as variables, lambda constraints), the
published Scharnagl arithmetic, a bare Python loop over the same input,
``python -c pass`` and, when it is installed (``pip install -e '.[oracle]'``,
benchmark-only), python-chess, measured in the same run. Every command and
baseline runs in the same scrubbed environment (:data:`ENV`: no
``PYTHONUNBUFFERED`` or other ``PYTHON*`` variable). This is a benchmark, not a
test: it prints PASS or FAIL per target, writes the table into
``bench/README.md`` (between its markers) and exits 0 either way
(``--strict`` makes a FAIL exit 1).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path

from constraint import AllDifferentConstraint, Problem

from solver import Family, load, scharnagl_id, scharnagl_rank

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
CHESS960 = str(BIN / "chess960")

#: Every subprocess, ours and the baselines, runs in this scrubbed environment: no
#: PYTHON* variable (PYTHONUNBUFFERED slows only a Python baseline's writes;
#: bytecode caching stays on, as for an installed package) but PYTHONPATH (the
#: tree measured, when it is not the installed one), nothing else inherited.
ENV = {k: v for k, v in os.environ.items()
       if k in ("PATH", "HOME", "LANG", "TMPDIR", "PYTHONPATH")}
ENV.setdefault("LANG", "C.UTF-8")

#: A family far too large to list (1,210,809,600 ranks, the one tests/test_counting.py
#: counts by hand).
BIG = (HERE.parent / "tests" / "data" / "big-16.toml").read_text(encoding="utf-8")
BIG_COUNT = 1_210_809_600

#: The table's place in bench/README.md.
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def python_chess() -> object | None:
    """python-chess, when installed (benchmark-only: it is GPL)."""
    try:
        import chess
    except ImportError:
        return None
    return chess


# -- baselines written here -----------------------------------------------------------


def _rank_strings(solutions: Iterable[dict[str, int]], files: int) -> list[str]:
    ranks = []
    for solution in solutions:
        row = [""] * files
        for name, file in solution.items():
            row[file] = name[0]
        ranks.append("".join(row))
    return ranks


def plain_problem(name: str) -> tuple[Problem, int]:
    """The family as anyone would first write it for python-constraint."""
    problem = Problem()
    if name == "chess960":
        names, files = ["K", "Q", "R1", "R2", "B1", "B2", "N1", "N2"], 8
    elif name == "capablanca-random":
        names, files = ["K", "Q", "A", "C", "R1", "R2", "B1", "B2", "N1", "N2"], 10
    else:  # bench-12
        names, files = ["K", "Q", "A", "C1", "C2", "C3", "R1", "R2", "B1", "B2", "N1", "N2"], 12
    problem.addVariables(names, range(files))
    problem.addConstraint(AllDifferentConstraint())
    problem.addConstraint(lambda a, b: a < b, ["R1", "R2"])
    problem.addConstraint(lambda a, b: a < b, ["B1", "B2"])
    problem.addConstraint(lambda a, b: a < b, ["N1", "N2"])
    problem.addConstraint(lambda a, b: a % 2 != b % 2, ["B1", "B2"])
    problem.addConstraint(lambda k, a, b: a < k < b, ["K", "R1", "R2"])
    if name != "chess960":
        problem.addConstraint(lambda q, a: q % 2 != a % 2, ["Q", "A"])
    if name == "bench-12":
        problem.addConstraint(lambda a, b, c: a < b < c, ["C1", "C2", "C3"])
    return problem, files


def plain_ranks(name: str) -> list[str]:
    problem, files = plain_problem(name)
    return _rank_strings(problem.getSolutionIter(), files)


def plain_count(name: str) -> int:
    problem, _ = plain_problem(name)
    return sum(1 for _ in problem.getSolutionIter())


def _opposite(rank: str, a: str, b: str) -> bool:
    x = rank.index(a)
    y = rank.rindex(b) if a == b else rank.index(b)
    return x % 2 != y % 2


def brute_force(name: str) -> list[str]:
    """Every distinct permutation of the pieces that keeps the rules."""
    pieces = {"chess960": "KQRRBBNN", "capablanca-random": "KQACRRBBNN"}[name]
    found = []
    for rank in set(map("".join, permutations(pieces))):
        if not _opposite(rank, "B", "B"):
            continue
        if "A" in rank and not _opposite(rank, "Q", "A"):
            continue
        if rank.index("R") < rank.index("K") < rank.rindex("R"):
            found.append(rank)
    return found


PYTHON_CHESS_IDS = """
import sys
import chess
write = sys.stdout.write
for line in sys.stdin:
    rank = line.strip()
    board = chess.Board(f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1",
                        chess960=True)
    write(f"{board.chess960_pos()}\\n")
"""

WRITE_LIST = """
import sys
lines = open(sys.argv[1]).read().splitlines(keepends=True)
write = sys.stdout.write
for line in lines:
    write(line)
"""

PLAIN_COUNT = """
import sys
sys.path.insert(0, sys.argv[1])
from run import plain_count
print(plain_count(sys.argv[2]))
"""

IO_LIMIT = """
import json, sys
table = {f"{rank}\\n": f"{number}\\n" for rank, number in json.load(open(sys.argv[1])).items()}
write = sys.stdout.write
for line in sys.stdin:
    write(table[line])
"""

LINE_TABLE = """
import json, sys
table = {f"{key}\\n": line for key, line in json.load(open(sys.argv[1])).items()}
write = sys.stdout.write
for line in sys.stdin:
    write(table[line])
"""

TREE_PEAK = """
import json, os, resource, subprocess, sys, time

def tree(root):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    todo, found = [root], []
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found

def rss(pid):
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError, ValueError):
        return 0

start = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
peak = 0
while process.poll() is None:
    peak = max(peak, sum(rss(p) for p in tree(process.pid)))
    time.sleep(0.05)
out = process.stdout.read()
wall = time.perf_counter() - start
largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"wall": wall, "largest": largest, "tree": peak, "out": out.decode()}))
"""


# -- measuring ------------------------------------------------------------------------


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def alternate(ours: Callable[[], object], base: Callable[[], object], repeats: int,
              warm: bool = True) -> tuple[float, float]:
    """Medians of ``ours`` and ``base``, run in turn ``repeats`` times each."""
    if warm:
        ours()
        base()
    mine, theirs = [], []
    for _ in range(repeats):
        mine.append(timed(ours))
        theirs.append(timed(base))
    return statistics.median(mine), statistics.median(theirs)


def run(cmd: list[str], stdin: Path | None = None, discard: bool = False,
        env: dict[str, str] | None = None, feed: bytes | None = None) -> bytes:
    """``cmd``'s output (``discard``: written to /dev/null), in :data:`ENV` (or ``env``);
    ``feed``: bytes given on its standard input."""
    out = subprocess.DEVNULL if discard else subprocess.PIPE
    env = ENV if env is None else env
    if feed is not None:
        return subprocess.run(cmd, input=feed, stdout=out, env=env, check=True).stdout or b""
    if stdin is None:
        return subprocess.run(cmd, stdout=out, env=env, check=True).stdout or b""
    with stdin.open("rb") as handle:
        return subprocess.run(cmd, stdin=handle, stdout=out, env=env, check=True).stdout or b""


def run_any(cmd: list[str]) -> None:
    """Run ``cmd`` in :data:`ENV`, whatever its exit code (``compare`` exits 1 on a
    difference), its output discarded."""
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV,
                   check=False)


@dataclass
class Row:
    what: str
    ours: str
    base: str
    ratio: float | None
    target: str
    ok: bool | None

    def cells(self) -> list[str]:
        ratio = f"{self.ratio:.2f}x" if self.ratio is not None else ""
        verdict = "" if self.ok is None else ("PASS" if self.ok else "FAIL")
        return [self.what, self.ours, self.base, ratio, self.target, verdict]


def seconds(value: float) -> str:
    if value < 1e-3:
        return f"{value * 1e6:.3f} us"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def compare(what: str, ours: float, base: float, base_name: str,
            limit: float | None) -> Row:
    ratio = ours / base
    target = f"<= {limit:.2f}x" if limit is not None else "(info)"
    ok = None if limit is None else ratio <= limit
    return Row(what, seconds(ours), f"{seconds(base)} {base_name}", ratio, target, ok)


def under(what: str, ours: float, limit: float) -> Row:
    """An absolute target: ``ours`` seconds at most ``limit``."""
    return Row(what, seconds(ours), "", None, f"< {seconds(limit)}", ours < limit)


# -- the benchmarks -------------------------------------------------------------------


def bench_solve(name: str, repeats: int, brute: bool, rows: list[Row], limit: float | None,
                log: Callable[[str], None]) -> None:
    ruleset = load(name)
    ours = Family(ruleset).ranks()
    plain = plain_ranks(name)
    assert sorted(ours) == sorted(plain), f"{name}: solver and plain model disagree"
    head = min(len(ours), 1000)
    assert [Family(ruleset).numbering.encode(r) for r in ours[:head]] == list(range(head))
    log(f"solve {name}: {len(ours):,} ranks, same set as the plain model")
    mine, theirs = alternate(lambda: Family(ruleset).ranks(), lambda: plain_ranks(name),
                             repeats, warm=repeats > 3)
    rows.append(compare(f"solve {name} (canonical order)", mine, theirs, "plain model", limit))
    if brute:
        assert sorted(brute_force(name)) == sorted(ours)
        mine_b, brute_t = alternate(lambda: Family(ruleset).ranks(), lambda: brute_force(name),
                                    max(3, repeats // 2), warm=False)
        rows.append(compare(f"solve {name} (canonical order)", mine_b, brute_t,
                            "brute force", None))


def bench_count_12(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    cmd = [sys.executable, "-c", TREE_PEAK, CHESS960, "solve", "--count", "--rules", "bench-12"]
    mine, theirs, largest, tree = [], [], [], []
    for _ in range(repeats):
        result = json.loads(run(cmd))
        assert result["out"].strip() == "1008000", result["out"]
        mine.append(result["wall"])
        largest.append(result["largest"])
        tree.append(result["tree"])
        theirs.append(timed(lambda: plain_count("bench-12")))
        log(f"  bench-12 --count {result['wall']:.2f} s, plain {theirs[-1]:.2f} s")
    rows.append(compare("chess960 solve --count -r bench-12", statistics.median(mine),
                        statistics.median(theirs), "plain model count", 0.5))
    mb = max(tree) / 2**20
    rows.append(Row("  peak memory, all processes (sampled)", f"{mb:.0f} MB", "", None,
                    "<= 150 MB", mb <= 150))
    rows.append(Row("  peak memory, largest process (ru_maxrss)",
                    f"{max(largest) / 2**20:.0f} MB", "", None, "(info)", None))


def bench_lookups(rows: list[Row]) -> None:
    family = Family.load("chess960")
    rng = random.Random(960)
    ids = [rng.randrange(960) for _ in range(100_000)]
    ranks = [scharnagl_rank(i) for i in ids]
    for rank in ranks[:1000]:  # warm: the library builds its table after enough lookups
        family.rank_id(rank)

    def per_call(call: Callable[[], object]) -> float:
        return min(timed(call) for _ in range(7)) / len(ids)

    def lib_id() -> None:
        rank_id = family.rank_id
        for rank in ranks:
            rank_id(rank)

    def lib_rank() -> None:
        rank_of = family.rank_of
        for number in ids:
            rank_of(number)

    def formula_id() -> None:
        for rank in ranks:
            scharnagl_id(rank)

    def formula_rank() -> None:
        for number in ids:
            scharnagl_rank(number)

    chess = python_chess()
    pc_id = pc_rank = None
    if chess is not None:
        boards = [chess.Board.from_chess960_pos(i) for i in ids]  # type: ignore[attr-defined]
        assert [b.chess960_pos() for b in boards[:1000]] == ids[:1000]

        def pc_id_f() -> None:
            for board in boards:
                board.chess960_pos()

        def pc_rank_f() -> None:
            from_pos = chess.Board.from_chess960_pos  # type: ignore[attr-defined]
            for number in ids:
                from_pos(number)

        pc_id, pc_rank = pc_id_f, pc_rank_f
    for what, mine_f, base_f, pc_f in (
            ("rank -> id, Family.rank_id", lib_id, formula_id, pc_id),
            ("id -> rank, Family.rank_of", lib_rank, formula_rank, pc_rank)):
        mine, base = per_call(mine_f), per_call(base_f)
        rows.append(Row(f"{what} (warm, per call)", seconds(mine), "", None, "<= 0.200 us",
                        mine <= 0.2e-6))
        rows.append(compare("  against the Scharnagl arithmetic", mine, base, "formula", None))
        if pc_f is not None:
            theirs = per_call(pc_f)
            rows.append(compare("  against python-chess (measured)", mine, theirs,
                                "python-chess", 0.05))


def bench_bulk(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    rng = random.Random(518)
    with tempfile.TemporaryDirectory() as tmp:
        ranks = Path(tmp) / "ranks.txt"
        table = Path(tmp) / "table.json"
        ranks.write_text("".join(f"{scharnagl_rank(rng.randrange(960))}\n"
                                 for _ in range(200_000)))
        table.write_text(json.dumps({scharnagl_rank(i): i for i in range(960)}))
        ours = [CHESS960, "id", "-"]
        base = [sys.executable, "-c", IO_LIMIT, str(table)]
        expected = run(base, ranks)
        assert run(ours, ranks) == expected
        log("bulk id: 200,000 lines, same output as the per-line dict loop")
        mine, theirs = alternate(lambda: run(ours, ranks), lambda: run(base, ranks), repeats)
        rows.append(compare("chess960 id - (200,000 ranks)", mine, theirs,
                            "per-line dict loop", 1.3))
        if python_chess() is not None:
            pc = [sys.executable, "-c", PYTHON_CHESS_IDS]
            assert run(pc, ranks) == expected
            log("bulk id: python-chess gives the same 200,000 ids")
            pc_time = statistics.median(timed(lambda: run(pc, ranks))
                                        for _ in range(max(1, repeats // 5)))
            rows.append(compare("  against python-chess (measured, per line)", mine, pc_time,
                                "python-chess", 0.05))


#: The baseline of the commands Typer answers: a one-command Typer app (an int
#: option, so that Typer converts a value as the real commands do).
TYPER_ONE = """
import typer
app = typer.Typer(add_completion=False)
@app.command()
def one(name: str, count: int = 1) -> None:
    print(name * count)
app(args=["x", "--count", "2"], standalone_mode=False)
"""


def bench_family_startup(repeats: int, rows: list[Row]) -> None:
    """``position`` from families other than Chess960, each read from its rule file
    and numbered on every run (nothing is kept between runs), against
    ``python -c pass`` (the limit of the common commands is 3x)."""
    base = [sys.executable, "-c", "pass"]
    for family in ("chess480", "shuffle", "capablanca-random-full", "dfrc"):
        ours = [CHESS960, "position", "7", "-r", family]
        expected = run(ours)
        assert run(ours) == expected, family  # the same on every run
        mine, theirs = alternate(lambda ours=ours: run(ours), lambda: run(base), repeats)
        rows.append(compare(f"chess960 position 7 -r {family} (start-up, the family)", mine,
                            theirs, "python -c pass", None))


def bench_startup(repeats: int, rows: list[Row]) -> None:
    """Each command's start-up: the common ones (the quick path) against
    ``python -c pass`` (at most 3x), every other one and every ``--help`` against
    a one-command Typer app run in turn with it (at most 1.3x; issue 34)."""
    base = [sys.executable, "-c", "pass"]
    typer_one = [sys.executable, "-c", TYPER_ONE]
    with tempfile.TemporaryDirectory() as tmp:
        book, pgn = Path(tmp) / "one.epd", Path(tmp) / "one.pgn"
        book.write_text(f"{_chess960_fen('RNBQKBNR')}\n")
        pgn.write_text(f'[Result "1-0"]\n[FEN "{_chess960_fen("RNBQKBNR")}"]\n'
                       '[Variant "Chess960"]\n\n1. e4 1-0\n')
        common: list[tuple[list[str], bytes | None, float | None]] = [
            (["position", "518"], b"RNBQKBNR\n", 3.0),
            (["id", "QNRBBNKR"], b"105\n", 3.0),
            (["random", "--seed", "1"], None, 3.0),
            (["show", "518"], None, 3.0),
            (["solve", "--count"], b"960\n", 3.0),
            (["convert", "518", "--to", "scidb"], None, 3.0),
            (["which", "RNBQKBNR"], None, 3.0),
            (["lint", str(book)], None, 3.0),
            (["position", "518", "--format", "fen"], None, None),
            (["id", "QNRBBNKR qnrbbnkr", "-r", "dfrc"], None, None),
            (["rules"], None, None),
            (["plan", "--rounds", "3", "--seed", "1"], None, None),
            (["compare", str(book), "-r", "chess960"], None, None),
            (["games", "stats", str(pgn)], None, None),
        ]
        for args, expected, limit in common:
            ours = [CHESS960, *args]
            if expected is not None:
                assert run(ours) == expected, args
            mine, theirs = alternate(lambda ours=ours: run_any(ours), lambda: run(base), repeats)
            shown = " ".join(Path(arg).name if arg.startswith("/") else arg for arg in args)
            rows.append(compare(f"chess960 {shown} (start-up)", mine, theirs,
                                "python -c pass", limit))
        mine, theirs = alternate(lambda: run(typer_one), lambda: run(base), repeats)
        rows.append(compare("  a one-command Typer app (the baseline below)", mine, theirs,
                            "python -c pass", None))
        others: list[list[str]] = [
            ["--help"], ["id", "--help"], ["solve", "--help"], ["games", "stats", "--help"],
            ["book", "--sample", "10", "--seed", "1"], ["eval", "518"], ["dice", "--dice", "6"],
            ["random", "-n", "0"], ["position", "518", "-u", "-u"], ["--version"]]
        for args in others:
            ours = [CHESS960, *args]
            mine, theirs = alternate(lambda ours=ours: run_any(ours), lambda: run(typer_one),
                                     max(3, repeats // 2))
            rows.append(compare(f"chess960 {' '.join(args)} (start-up, Typer)", mine, theirs,
                                "one-command Typer app", 1.3))
    bench_family_startup(max(3, repeats // 2), rows)
    fresh = [CHESS960, "check"]
    mine, theirs = alternate(lambda: run(fresh), lambda: run(base), max(3, repeats // 4))
    rows.append(compare("  chess960 check, proven afresh", mine, theirs,
                        "python -c pass", None))
    tab = {**ENV, "_CHESS960_COMPLETE": "complete_bash", "COMP_WORDS": "chess960 solve --rules ",
           "COMP_CWORD": "3"}

    def complete() -> None:
        offered = subprocess.run([CHESS960], env=tab, stdout=subprocess.PIPE, check=True).stdout
        assert b"chess960\n" in offered, offered

    mine, theirs = alternate(complete, lambda: run(base), repeats)
    rows.append(compare("chess960 completion (TAB on --rules)", mine, theirs,
                        "python -c pass", None))
    rows.append(under("  completion, absolute", mine, 0.2))
    mine, theirs = alternate(lambda: run([sys.executable, "-c", "import typer"]),
                             lambda: run(base), repeats)
    rows.append(compare("  python -c 'import typer' (for scale)", mine, theirs,
                        "python -c pass", None))


def bench_enumerated(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """``id`` and ``position`` on the bundled enumerated 10-file family (full CRC,
    12,118 ranks), against the same on Chess960: the first call, then warm (the
    family counted on every run: nothing is kept between runs)."""
    crc = "capablanca-random-full"
    ours = [CHESS960, "id", "BRCNQAKBNR", "-r", crc]
    base = [CHESS960, "id", "QNRBBNKR"]
    first = timed(lambda: run(ours))
    rank = run([CHESS960, "position", "6000", "-r", crc]).decode().strip()
    assert rank == "BRCNQAKBNR" and run(ours) == b"6000\n", "id and position agree"
    log(f"enumerated family: full CRC (12,118 ranks), position 6000 is {rank} and back")
    rows.append(Row(f"chess960 id RANK -r {crc}, first call (counting)", seconds(first),
                    "", None, "(info)", None))
    mine, theirs = alternate(lambda: run(ours), lambda: run(base), repeats)
    rows.append(compare(f"chess960 id RANK -r {crc} (12,118, enumerated)", mine,
                        theirs, "same on chess960", None))
    ours = [CHESS960, "position", "6000", "-r", crc]
    base = [CHESS960, "position", "518"]
    mine, theirs = alternate(lambda: run(ours), lambda: run(base), repeats)
    rows.append(compare(f"chess960 position ID -r {crc}", mine, theirs,
                        "same on chess960", None))


def bench_big(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """A family of 1,210,809,600 ranks: its count and a seeded draw, whole process."""
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big-16.toml"
        big.write_text(BIG)
        count = [CHESS960, "solve", "--count", "-r", str(big)]
        assert run(count) == f"{BIG_COUNT}\n".encode()
        log(f"big-16: counts {BIG_COUNT:,}, the figure worked out by hand in the tests")
        mine = statistics.median(timed(lambda: run(count)) for _ in range(repeats))
        rows.append(under("chess960 solve --count -r big-16 (1.2e9 ranks)", mine, 1.0))
        draw = [CHESS960, "random", "--seed", "1", "-r", str(big)]
        mine = statistics.median(timed(lambda: run(draw)) for _ in range(repeats))
        rows.append(under("chess960 random --seed 1 -r big-16", mine, 1.0))


_CHILD = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300)
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": time.perf_counter() - start, "code": done.returncode,
                  "err": done.stderr, "rss_mb": use.ru_maxrss / 1024}))
"""


def _budget_family(name: str, files: int, region: str, pawns: int, pieces: str,
                   extra: str = "") -> str:
    names = {"D": "dragon", "E": "elephant", "F": "ferz", "G": "giraffe", "H": "hawk",
             "I": "imp", "J": "jester", "L": "lion", "M": "monk", "O": "ox"}
    text = (f'name = "{name}"\ntitle = "{name}"\nsource = "bench"\nfiles = {files}\n'
            f'ranks = 12\nregion = "{region}"\npawns = {pawns}\npieces = "{pieces}"\n'
            'count = 0\n')
    for letter in sorted(set(pieces) & set(names)):
        text += f'\n[[piece]]\nletter = "{letter}"\nname = "{names[letter]}"\n'
    return text + extra


def bench_counting(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """Counting within its budget (issues 26 and 27): each family is answered or
    refused with one error line, whole process, under an absolute limit and 100 MB."""
    bishops = '\n[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n'
    families = {
        "reg16x2d": (HERE.parent / "tests" / "data" / "reg16x2d.toml").read_text(),
        "k13": _budget_family("k13", 8, "ranks 1-3", 4, "KQRRBBNNAACCDDEEFFGGHHII", bishops),
        "i10": _budget_family("i10", 8, "ranks 1-4", 5, "K" + "N" * 16 + "R" * 15,
                              '[numbering]\nsteps = ["K", "' + "N" * 16 + '", "'
                              + "R" * 15 + '"]\n'),
        "i10b": _budget_family("i10b", 8, "ranks 1-3", 4, "K" + "N" * 12 + "R" * 11),
    }
    cases = [
        ("reg16x2d", ("solve", "--count"), "16 kinds, 2x16: count", 1.0),
        ("reg16x2d", ("position", "0"), "16 kinds, 2x16: position 0", 1.0),
        ("k13", ("solve", "--count"), "13 kinds, 3x8: count", 1.0),
        ("k13", ("random", "--seed", "1"), "13 kinds, 3x8: random", 1.0),
        ("i10", ("position", "0"), "K+16N+15R, 4x8, steps: position 0", 2.0),
        ("i10", ("random", "--seed", "1"), "K+16N+15R, 4x8, steps: random", 2.0),
        ("i10b", ("position", "0"), "K+12N+11R, 3x8: position 0", 2.0),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in families.items():
            (Path(tmp) / f"{name}.toml").write_text(text)
        for name, args, what, limit in cases:
            cmd = [sys.executable, "-c", _CHILD, CHESS960, *args, "-r",
                   str(Path(tmp) / f"{name}.toml")]
            results = [json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                                 env=ENV, check=True).stdout)
                       for _ in range(repeats)]
            wall = statistics.median(r["wall"] for r in results)
            peak = max(r["rss_mb"] for r in results)
            clean = all(r["code"] in (0, 1) and "Traceback" not in r["err"] for r in results)
            log(f"{what}: {wall:.2f} s, {peak:.0f} MB, exit {results[0]['code']}")
            rows.append(Row(f"chess960 {' '.join(args)}: {what}, {peak:.0f} MB", seconds(wall),
                            "", None, f"< {seconds(limit)}, 100 MB",
                            clean and wall < limit and peak < 100))


def bench_walks(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """``position N`` and ``random`` of huge enumerated families against their
    ``--count`` (issue 25 item 3: each <= 2x the count and under 2 s), whole
    process, within the default bound on states (the walk by projections
    counts the kinds no rule names together, as the count does)."""
    bishops = '\n[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n'
    families = {
        # K Q RR BB NN, 5 archbishops and 51 dragons on 4 ranks of 16 files: 4.3e19
        "w19": (_budget_family("w19", 16, "ranks 1-4", 5, "KQRRBBNN" + "A" * 5 + "D" * 51,
                               bishops), "pieces filling 4x16 (4.3e19)", "12345678901234567890"),
        # 16 distinct pieces on 16 files: 16! = 2.1e13
        "w13": (_budget_family("w13", 16, "rank 1", 2, "KQRBNACDEFGHIJLM"),
                "16 distinct pieces on 16 files (2.1e13)", "12345678901"),
    }
    # each repeat runs the count, position and random in turn (interleaved)
    repeats = max(repeats, 5)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, what, number) in families.items():
            rules = Path(tmp) / f"{name}.toml"
            rules.write_text(text)
            cases = [("solve", "--count"), ("position", number), ("random", "--seed", "1")]
            results: dict[tuple[str, ...], list[dict[str, object]]] = {c: [] for c in cases}
            for _ in range(repeats):
                for args in cases:
                    cmd = [sys.executable, "-c", _CHILD, CHESS960, *args, "-r", str(rules)]
                    results[args].append(json.loads(subprocess.run(
                        cmd, capture_output=True, text=True, env=ENV, check=True).stdout))

            def median(got: list[dict[str, object]]) -> tuple[float, float, object]:
                return (statistics.median(float(str(r["wall"])) for r in got),
                        max(float(str(r["rss_mb"])) for r in got), got[0]["code"])

            count, count_mb, _ = median(results[cases[0]])
            log(f"{what}: count {count:.2f} s")
            rows.append(Row(f"chess960 solve --count: {what}, {count_mb:.0f} MB",
                            seconds(count), "", None, "(info)", None))
            for args in cases[1:]:
                wall, peak, code = median(results[args])
                log(f"{what}: {' '.join(args)} {wall:.2f} s, {peak:.0f} MB, exit {code}")
                rows.append(Row(f"chess960 {' '.join(args)} (default bound): {what}, "
                                f"{peak:.0f} MB", seconds(wall), f"{seconds(count)} its --count",
                                wall / count, "<= 2.00x and < 2 s",
                                code == 0 and wall <= 2 * count and wall < 2.0))


SCALE_BEGIN, SCALE_END = "<!-- scaling:begin -->", "<!-- scaling:end -->"


def _scaling_families() -> list[tuple[str, str, str]]:
    """(name, what, rule file) of enumerated families from 10^3 to 10^19
    arrangements and from 3 to 16 piece kinds, for :func:`bench_scaling`."""
    bishops = '\n[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n'
    king = '\n[[rule]]\nkind = "between"\npiece = "K"\npair = "RR"\n'
    return [
        ("s8", "KQRRBBNN on 8 files, BB and K between RR",
         _budget_family("s8", 8, "rank 1", 2, "KQRRBBNN", bishops + king)),
        ("s10", "KQRRBBNNAC on 10 files, BB", _budget_family("s10", 10, "rank 1", 2,
                                                             "KQRRBBNNAC", bishops)),
        ("s12", "KQACCCRRBBNN on 12 files, BB and K between RR",
         _budget_family("s12", 12, "rank 1", 2, "KQACCCRRBBNN", bishops + king)),
        ("s16", "16 distinct pieces on 16 files, no rule",
         _budget_family("s16", 16, "rank 1", 2, "KQRBNACDEFGHIJLM")),
        ("k13", "24 pieces of 13 kinds on 3x8, BB",
         _budget_family("k13", 8, "ranks 1-3", 4, "KQRRBBNNAACCDDEEFFGGHHII", bishops)),
        ("i10", "K + 16 N + 15 R on 4x8, no rule",
         _budget_family("i10", 8, "ranks 1-4", 5, "K" + "N" * 16 + "R" * 15)),
        ("r16", "32 pieces of 16 kinds on 2x16, BB",
         (HERE.parent / "tests" / "data" / "reg16x2d.toml").read_text()),
        ("w19", "64 pieces of 6 kinds on 4x16, BB",
         _budget_family("w19", 16, "ranks 1-4", 5, "KQRRBBNN" + "A" * 5 + "D" * 51, bishops)),
    ]


def bench_scaling(repeats: int, log: Callable[[str], None]) -> str:
    """How numbering cost grows (issue 26): for enumerated families from 10^3
    to 10^19 arrangements and 3 to 16 piece kinds, whole-process time and peak
    memory of ``solve --count``, ``id``, ``position N`` and ``random --seed 1``
    (medians of ``repeats``, each command in turn); the table that
    rules/README.md quotes."""
    header = ["family", "kinds", "positions", "count", "id", "position", "random", "peak"]
    lines = [header]
    with tempfile.TemporaryDirectory() as tmp:
        for name, what, text in _scaling_families():
            rules = Path(tmp) / f"{name}.toml"
            rules.write_text(text)
            total = int(run([CHESS960, "solve", "--count", "-r", str(rules)]))
            number = str(total * 2 // 3)
            rank = run([CHESS960, "position", number, "-r", str(rules)]).decode().strip()
            assert run([CHESS960, "id", rank, "-r", str(rules)]).decode().strip() == number
            commands = {"count": ("solve", "--count"), "id": ("id", rank),
                        "position": ("position", number), "random": ("random", "--seed", "1")}
            times: dict[str, list[float]] = {key: [] for key in commands}
            peak = 0.0
            for _ in range(repeats):
                for key, args in commands.items():
                    cmd = [sys.executable, "-c", _CHILD, CHESS960, *args, "-r", str(rules)]
                    result = json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                                       env=ENV, check=True).stdout)
                    assert result["code"] == 0, (name, args, result["err"])
                    times[key].append(result["wall"])
                    peak = max(peak, result["rss_mb"])
            kinds = len(set(rank.replace("/", "").replace(" ", "").upper()) - {"P", "."})
            cells = [f"{statistics.median(times[key]):.2f} s" for key in commands]
            size = f"{total:.1e}".replace("e+0", "e").replace("e+", "e") if total >= 10**6 \
                else f"{total:,}"
            lines.append([what, str(kinds), size,
                          *cells, f"{peak:.0f} MB"])
            log(f"scaling: {what}: {', '.join(cells)}, {peak:.0f} MB")
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True))
                     .rstrip() for line in lines)


def write_scaling(report: str) -> None:
    """Put the scaling table between the markers of rules/README.md."""
    readme = HERE.parent / "rules" / "README.md"
    text = readme.read_text(encoding="utf-8")
    head, _, rest = text.partition(SCALE_BEGIN)
    _, _, tail = rest.partition(SCALE_END)
    readme.write_text(f"{head}{SCALE_BEGIN}\n```\n{report}\n```\n{SCALE_END}{tail}",
                      encoding="utf-8")


def bench_count_crc(repeats: int, rows: list[Row]) -> None:
    """``solve --count`` whole process against a naive python-constraint2 script."""
    ours = [CHESS960, "solve", "--count", "-r", "capablanca-random"]
    base = [sys.executable, "-c", PLAIN_COUNT, str(HERE), "capablanca-random"]
    assert run(ours) == run(base) == b"48000\n"
    mine, theirs = alternate(lambda: run(ours), lambda: run(base), repeats)
    rows.append(compare("chess960 solve --count -r capablanca-random (process)", mine, theirs,
                        "naive python-constraint2 script", 0.5))


def bench_dfrc(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """``solve -r dfrc > /dev/null`` against writing its lines from a precomputed list."""
    ours = [CHESS960, "solve", "-r", "dfrc"]
    with tempfile.TemporaryDirectory() as tmp:
        listed = Path(tmp) / "dfrc.txt"
        listed.write_bytes(run(ours))
        lines = listed.read_bytes().count(b"\n")
        assert lines == 921_600, lines
        base = [sys.executable, "-c", WRITE_LIST, str(listed)]
        assert run(base) == listed.read_bytes()
        log("dfrc: 921,600 lines")
        mine, theirs = alternate(lambda: run(ours, discard=True),
                                 lambda: run(base, discard=True), repeats)
    rows.append(compare("chess960 solve -r dfrc > /dev/null", mine, theirs,
                        "writing the precomputed list", 3.0))


#: A Chess960-like family on 12 files, enumerated (1,814,400 ranks; also listed by
#: tests/test_shell.py's worker tests).
FAM12 = HERE.parent / "tests" / "data" / "fam12.toml"


def bench_listings(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """Listing an enumerated 12-file family (1,814,400 ranks, sorted by the
    placement steps) and bench-12, each against writing its lines."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, rules, lines, limit in (
                ("a 12-file Chess960-like family (enumerated)", str(FAM12), 1_814_400, 15.0),
                ("bench-12", "bench-12", 1_008_000, 5.0)):
            ours = [CHESS960, "solve", "-r", rules]
            listed = Path(tmp) / "listed.txt"
            listed.write_bytes(run(ours))
            assert listed.read_bytes().count(b"\n") == lines
            base = [sys.executable, "-c", WRITE_LIST, str(listed)]
            log(f"{name}: {lines:,} lines")
            mine, theirs = alternate(lambda ours=ours: run(ours, discard=True),
                                     lambda base=base: run(base, discard=True), repeats,
                                     warm=False)
            rows.append(compare(f"chess960 solve -r {name} > /dev/null", mine, theirs,
                                "writing the precomputed list", limit))


def bench_sampling(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """Plans and draws that skip many IDs (issue 27 item 12), whole process."""
    excluded = list(range(0, 1_000_000, 10))
    exclude = [arg for at in range(0, len(excluded), 10_000)
               for arg in ("-x", ",".join(map(str, excluded[at:at + 10_000])))]
    cases = [
        ([CHESS960, "plan", "--rounds", "1", "--seed", "1", "-r", "bench-12",
          "--exclude-mirrors"], "chess960 plan --rounds 1 --seed 1 -r bench-12 --exclude-mirrors",
         2.0),
        ([CHESS960, "plan", "--rounds", "16000", "--seed", "1", "-r", "bench-12"],
         "chess960 plan --rounds 16000 --seed 1 -r bench-12", 4.0),
        ([CHESS960, "random", "-n", "1000", "--seed", "1", "-r", "bench-12", *exclude],
         "chess960 random -n 1000 -r bench-12 with 100,000 --exclude ids", 2.0),
    ]
    for cmd, what, limit in cases:
        mine = statistics.median(timed(lambda cmd=cmd: run(cmd, discard=True))
                                 for _ in range(repeats))
        log(f"{what}: {mine:.2f} s")
        rows.append(under(what, mine, limit))


def _chess960_fen(rank: str) -> str:
    """A Chess960 start FEN written here, not by the solver (two rooks: always ``KQkq``)."""
    return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"


def _against_writing(what: str, ours: list[str], listed: Path, repeats: int) -> Row:
    """``solve -r dfrc`` with the options ``what`` (``ours``, whose output is in
    ``listed``) against a script writing the same lines from a precomputed list
    (<= 1.5x), interleaved."""
    base = [sys.executable, "-c", WRITE_LIST, str(listed)]
    assert run(base) == listed.read_bytes()
    mine, theirs = alternate(lambda: run(ours, discard=True), lambda: run(base, discard=True),
                             repeats)
    return compare(f"chess960 solve -r dfrc {what} > /dev/null", mine, theirs,
                   "writing the precomputed list", 1.5)


def bench_formats(repeats: int, small: int, rows: list[Row],
                  log: Callable[[str], None]) -> None:
    """Every format at the speed of plain text (issue 25): ``solve -r dfrc -f epd``
    and ``-f fen`` against writing the same lines from a precomputed list, and
    ``id - -f fen`` / ``position - -f fen`` on 200,000 lines against a dict loop."""
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("epd", "fen"):
            ours = [CHESS960, "solve", "-r", "dfrc", "-f", fmt]
            listed = Path(tmp) / f"dfrc.{fmt}"
            listed.write_bytes(run(ours))
            lines = listed.read_bytes().splitlines()
            assert len(lines) == 921_600, len(lines)
            n = 960
            for number in (0, 518, 101_318, 921_599):  # pairs written here, not by the solver
                white, black = scharnagl_rank(number // n), scharnagl_rank(number % n)
                fen = f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq -"
                want = f'{fen} id "dfrc {number}";' if fmt == "epd" else f"{fen} 0 1"
                assert lines[number].decode() == want, (fmt, number, lines[number])
            log(f"dfrc -f {fmt}: 921,600 lines, the same as the precomputed list")
            rows.append(_against_writing(f"-f {fmt}", ours, listed, repeats))
        rng = random.Random(960)
        ranks = Path(tmp) / "ranks.txt"
        ids = Path(tmp) / "ids.txt"
        drawn = [rng.randrange(960) for _ in range(200_000)]
        ranks.write_text("".join(f"{scharnagl_rank(i)}\n" for i in drawn))
        ids.write_text("".join(f"{i}\n" for i in drawn[::-1]))
        for command, given, key in (("id", ranks, scharnagl_rank), ("position", ids, str)):
            table = Path(tmp) / f"{command}.json"
            table.write_text(json.dumps({key(i): f"{_chess960_fen(scharnagl_rank(i))}\n"
                                         for i in range(960)}))
            ours = [CHESS960, command, "-", "-f", "fen"]
            base = [sys.executable, "-c", LINE_TABLE, str(table)]
            expected = run(base, given)
            assert run(ours, given) == expected
            log(f"{command} - -f fen: 200,000 lines, the same as the dict loop")
            mine, theirs = alternate(lambda o=ours, g=given: run(o, g),
                                     lambda b=base, g=given: run(b, g), small)
            rows.append(compare(f"chess960 {command} - -f fen (200,000 lines)", mine, theirs,
                                "per-line dict loop", 1.5))


def _dfrc_record(number: int) -> dict[str, object]:
    """DFRC position ``number``'s JSON object, written here from Scharnagl's
    ranks (two rooks a side, so X-FEN is always ``KQkq``), not by the solver."""
    white, black = scharnagl_rank(number // 960), scharnagl_rank(number % 960)

    def letters(rank: str) -> str:  # Shredder-FEN: the rooks' files, h-side first
        return "".join("abcdefgh"[f] for f in (rank.rindex("R"), rank.index("R")))

    top = f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white}"
    return {"id": number, "rank": white, "black_rank": black.lower(),
            "fen": f"{top} w KQkq - 0 1",
            "shredder_fen": f"{top} w {letters(white).upper()}{letters(black)} - 0 1",
            "family": "dfrc"}


def bench_every_format(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """Every other format and FEN dialect at the speed of plain text (issue 25
    item 1): ``solve -r dfrc -f F`` (JSON, CSV, PGN, Shredder-FEN) and ``-f fen
    --dialect D``, each against writing its own output's lines from a
    precomputed list; a few records of each checked against FENs written here."""
    cases: list[tuple[str, list[str]]] = [
        (f"-f {fmt}", ["-f", fmt]) for fmt in ("json", "csv", "pgn", "shredder")]
    cases += [(f"-f fen --dialect {d}", ["-f", "fen", "--dialect", d])
              for d in ("shredder", "fsf", "lichess", "pychess")]
    with tempfile.TemporaryDirectory() as tmp:
        for what, args in cases:
            ours = [CHESS960, "solve", "-r", "dfrc", *args]
            listed = Path(tmp) / "listed.txt"
            listed.write_bytes(run(ours))
            text = listed.read_text()
            _check_records(what, text)
            log(f"dfrc {what}: {len(text):,} characters, the same as the precomputed list")
            rows.append(_against_writing(what, ours, listed, repeats))
            listed.unlink()


def _check_records(what: str, text: str) -> None:
    """A few positions of a DFRC listing in the format ``what`` names against
    :func:`_dfrc_record`."""
    lines = text.split("\n\n[Event ") if what == "-f pgn" else text.splitlines()
    expected = {"-f json": 921_602, "-f csv": 921_601}.get(what, 921_600)
    assert len(lines) == expected, (what, len(lines))
    for number in (0, 518, 101_318, 921_599):
        want = _dfrc_record(number)
        fen, shredder = str(want["fen"]), str(want["shredder_fen"])
        if what == "-f json":
            line = lines[1 + number].rstrip(",")
            assert json.loads(line) == want, (what, number, line)
        elif what == "-f csv":
            line = lines[1 + number]
            assert line.split(",") == [str(v) for v in want.values()], (what, number, line)
        elif what == "-f pgn":
            assert f'[FEN "{fen}"]\n\n*' in lines[number], (what, number)
        else:
            letters = shredder.split()[2]
            field = {"fsf": letters, "shredder": letters, "lichess": "KQkq",
                     "pychess": "".join(sorted(letters[:2]) + sorted(letters[2:]))}
            line = lines[number]
            assert line == fen.replace(" KQkq ", f" {field[what.rsplit(maxsplit=1)[-1]]} "), (
                what, number, line)


RANK_LINT_LOOP = """
import json, sys
rights = json.load(open(sys.argv[1]))  # a back rank, either case: [X-FEN part, Shredder part]
good = 0
for line in open(sys.argv[2]):
    fields = line.split()
    rows = fields[0].split("/")
    white, black = rights[rows[7]], rights[rows[0]]
    if fields[2] in ((white[0] + black[0]) or "-", (white[1] + black[1]) or "-"):
        good += 1
print(good)
"""

RANK_ID_LOOP = """
import json, sys
ids = json.load(open(sys.argv[1]))  # a back rank, either case: its Scharnagl id
write = sys.stdout.write
for line in sys.stdin:
    rows = line.split(maxsplit=1)[0].split("/")
    write(f"{ids[rows[7]] * 960 + ids[rows[0]]}\\n")
"""

PEAK_RSS = """
import resource, subprocess, sys
with open(sys.argv[1], "rb") as given:
    subprocess.run(sys.argv[2:], stdin=given, stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
"""


def _dfrc_book(path: Path) -> None:
    """Stockfish's ``DFRC_openings.epd``, regenerated: line ``k`` has White's rank
    ``k // 960`` and Black's ``k % 960`` (Scharnagl), Shredder-FEN castling, four fields."""
    ranks = [scharnagl_rank(i) for i in range(960)]
    with path.open("w") as out:
        for k in range(921_600):
            white, black = ranks[k // 960], ranks[k % 960]
            out.write(f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w "
                      f"{_shredder(white)[0]}{_shredder(black)[1]} -\n")


def _shredder(rank: str) -> tuple[str, str]:
    """A Chess960 rank's Shredder-FEN rights, White's and Black's (written here:
    the files of the outer rooks, h-side first)."""
    files = "abcdefgh"
    rooks = [files[i] for i, piece in enumerate(rank) if piece == "R"][::-1]
    return "".join(rooks).upper(), "".join(rooks)


def bench_bulk_reading(repeats: int, small: int, rows: list[Row],
                       log: Callable[[str], None]) -> None:
    """Big books read in bulk (issue 25, the input side): ``lint`` and ``id -r dfrc``
    over 921,600 DFRC EPD lines against a dict loop by ranks (and their peak
    RSS), ``id - -r dfrc`` on 200,000 FEN pairs and ``id -`` on 200,000 Chess960
    FENs against a per-line dict loop."""
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "DFRC_openings.epd"
        _dfrc_book(book)
        ranks = [scharnagl_rank(i) for i in range(960)]
        rights = Path(tmp) / "rights.json"
        rights.write_text(json.dumps(
            {**{r: _shredder(r) for r in ranks},
             **{r.lower(): [x.lower() for x in _shredder(r)] for r in ranks}}))
        ids = Path(tmp) / "ids.json"
        ids.write_text(json.dumps({**{r: i for i, r in enumerate(ranks)},
                                   **{r.lower(): i for i, r in enumerate(ranks)}}))
        lint = [CHESS960, "lint", str(book)]
        lint_base = [sys.executable, "-c", RANK_LINT_LOOP, str(rights), str(book)]
        assert run(lint_base) == b"921600\n"
        assert run(lint).endswith(b": 921,600 start positions, 0 problems\n")
        identify = [CHESS960, "id", "-r", "dfrc", "-"]
        id_base = [sys.executable, "-c", RANK_ID_LOOP, str(ids)]
        expected = run(id_base, book)
        assert expected.split()[:2] == [b"0", b"1"]  # white_id * 960 + black_id: line order
        assert run(identify, book) == expected
        log("a DFRC book of 921,600 lines: lint finds no problem, id says what the loop says")
        for what, ours, base, given in (("lint", lint, lint_base, None),
                                        ("id -r dfrc -", identify, id_base, book)):
            mine, theirs = alternate(lambda o=ours, g=given: run(o, g, discard=True),
                                     lambda b=base, g=given: run(b, g, discard=True), repeats)
            rows.append(compare(f"chess960 {what} < DFRC_openings.epd (921,600 lines)", mine,
                                theirs, "dict loop by ranks", 3.0))
            peak = float(run([sys.executable, "-c", PEAK_RSS,
                              str(given or "/dev/null"), *ours]))
            rows.append(Row("  peak memory (ru_maxrss)", f"{peak:.0f} MB", "", None,
                            "<= 100 MB", peak <= 100))
        rng = random.Random(25)
        for what, command, count in (("FEN pairs", ["-r", "dfrc"], 960),
                                     ("Chess960 FENs", [], 1)):
            table: dict[str, str] = {}
            lines = []
            for _ in range(200_000):
                white = rng.randrange(960)
                black = rng.randrange(960) if count > 1 else white
                castling = (f"{_shredder(ranks[white])[0]}{_shredder(ranks[black])[1]}"
                            if count > 1 else "KQkq")  # Chess960: always two rooks
                line = (f"{ranks[black].lower()}/pppppppp/8/8/8/8/PPPPPPPP/{ranks[white]} w "
                        f"{castling} - 0 1")
                table[line] = f"{white * 960 + black if count > 1 else white}\n"
                lines.append(f"{line}\n")
            given = Path(tmp) / f"{len(command)}.txt"
            given.write_text("".join(lines))
            loop = Path(tmp) / f"{len(command)}.json"
            loop.write_text(json.dumps(table))
            ours = [CHESS960, "id", "-", *command]
            base = [sys.executable, "-c", LINE_TABLE, str(loop)]
            assert run(ours, given) == run(base, given)
            log(f"id - {' '.join(command)}: 200,000 {what}, the same as the dict loop")
            mine, theirs = alternate(lambda o=ours, g=given: run(o, g),
                                     lambda b=base, g=given: run(b, g), small)
            rows.append(compare(f"chess960 id - {' '.join(command)} (200,000 {what})".replace(
                "  ", " "), mine, theirs, "per-line dict loop", 1.3 if count > 1 else 1.5))


def bench_convert(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """``convert -`` on 200,000 lines against ``id -`` over the same positions, in
    the same run (issue 21): Chess960 ids to Scidb's numbers, DFRC ids to TCEC's
    labels."""
    rng = random.Random(21)
    with tempfile.TemporaryDirectory() as tmp:
        for rules, count, target in (("chess960", 960, "scidb"), ("dfrc", 921_600, "tcec")):
            numbers = [rng.randrange(count) for _ in range(200_000)]
            ranks = [scharnagl_rank(i) for i in range(960)]
            given = Path(tmp) / f"{rules}.ids"
            given.write_text("".join(f"{n}\n" for n in numbers))
            positions = Path(tmp) / f"{rules}.ranks"
            positions.write_text("".join(
                f"{ranks[n]}\n" if count == 960 else
                f"{ranks[n // 960]} {ranks[n % 960].lower()}\n" for n in numbers))
            convert = [CHESS960, "convert", "-", "-r", rules, "--to", target]
            identify = [CHESS960, "id", "-", "-r", rules]
            out = run(convert, given).split(b"\n")
            assert run(identify, positions) == given.read_bytes()
            if target == "scidb":
                assert out[:-1] == [str(n or 960).encode() for n in numbers]
            log(f"convert - --to {target}: 200,000 {rules} ids, as their definition says")
            mine, theirs = alternate(lambda c=convert, g=given: run(c, g, discard=True),
                                     lambda i=identify, p=positions: run(i, p, discard=True),
                                     repeats)
            rows.append(compare(f"chess960 convert - -r {rules} --to {target} (200,000 lines)",
                                mine, theirs, "id - of the same positions", 1.2))


def bench_check_all(rows: list[Row], log: Callable[[str], None]) -> None:
    log("check --all (once)")
    mine = timed(lambda: run([CHESS960, "check", "--all"]))
    rows.append(under("chess960 check --all", mine, 30.0))


# -- report ---------------------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    from importlib.metadata import version

    return (f"{cpu}, {cores} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, python-constraint2 "
            f"{version('python-constraint2')}")


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def pc_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chess")
    except PackageNotFoundError:
        return "not installed (pip install -e '.[oracle]'); its rows are left out"


def write_readme(report: str) -> None:
    """Put ``report`` between the markers of bench/README.md."""
    readme = HERE / "README.md"
    text = readme.read_text(encoding="utf-8")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    readme.write_text(f"{head}{BEGIN}\n```\n{report}\n```\n{END}{tail}", encoding="utf-8")


def table(rows: list[Row]) -> str:
    header = ["measurement", "ours (median)", "baseline (median)", "ratio", "target", ""]
    cells = [header] + [r.cells() for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    lines = []
    for index, row in enumerate(cells):
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer repeats; skip the 12-file listing and the brute force")
    parser.add_argument("--repeats", type=int, default=None, help="repeats of small timings")
    parser.add_argument("--strict", action="store_true", help="exit 1 if a target fails")
    parser.add_argument("--only", choices=[*_SECTIONS, "scaling"], default=None,
                        help="run one section alone (counting: the counting budget and "
                             "listings of enumerated families; formats: issue 25's output "
                             "formats; bulk: issue 25's big books read in bulk; numberings: "
                             "convert against id; games: issue 22's PGN collections "
                             "(lichess-shaped, CHESS960_BENCH_GAMES games, 200000 by "
                             "default); gamestree: issue 36's games tree against games "
                             "stats, grep and python-chess, and its memory; armies: "
                             "wild 3 and wild 4; lists: issue 22's compare, lint --rules and "
                             "book over DFRC; enumerated: id and position of full "
                             "Capablanca Random, counted on every run; "
                             "refusals: issue 32's lint --rules chess960 on "
                             "refused lines against accepted ones; evaltables: issue 37's "
                             "stored DFRC table resumed and looked up, eval --engine "
                             "against a minimal UCI loop; scaling: the table of "
                             "how numbering costs grow, written into rules/README.md), "
                             "printing its rows only")
    parser.add_argument("--no-readme", action="store_true",
                        help="print the table only (do not write it into bench/README.md)")
    args = parser.parse_args()
    small = args.repeats or (5 if args.quick else 15)
    large = 1 if args.quick else 3

    def log(message: str) -> None:
        print(f"# {message}", file=sys.stderr, flush=True)

    began = time.perf_counter()
    before = load_average()
    _measure(args, small, large, log, began, before)


def _measure(args: argparse.Namespace, small: int, large: int,
             log: Callable[[str], None], began: float, before: str) -> None:
    run([CHESS960, "id", "QNRBBNKR"])  # write the bytecode caches once
    rows: list[Row] = []
    if args.only is None:
        _measure_all(args, small, large, log, rows)
    elif args.only != "scaling":
        _SECTIONS[args.only](small, large, rows, log)
    scaling = None
    if args.only == "scaling" or (args.only is None and not args.quick):
        log("how numbering costs grow: the scaling table")
        scaling = bench_scaling(large, log)
        if not args.no_readme:
            write_scaling(scaling)
    _report(args, rows, began, before, scaling)


def _counting_section(small: int, large: int, rows: list[Row],
                      log: Callable[[str], None]) -> None:
    log("counting within its budget")
    bench_counting(large, rows, log)
    log("numbering huge families")
    bench_walks(large, rows, log)
    log("listing enumerated families and bench-12")
    bench_listings(large, rows, log)
    log("plans and draws skipping many IDs")
    bench_sampling(large, rows, log)


def _formats_section(small: int, large: int, rows: list[Row],
                     log: Callable[[str], None]) -> None:
    log("every format at the speed of plain text")
    bench_formats(large, small, rows, log)
    log("every other format and FEN dialect at the speed of plain text")
    bench_every_format(large, rows, log)


def _bulk_section(small: int, large: int, rows: list[Row],
                  log: Callable[[str], None]) -> None:
    log("big books read in bulk")
    bench_bulk_reading(large, small, rows, log)


def _numberings_section(small: int, large: int, rows: list[Row],
                        log: Callable[[str], None]) -> None:
    log("converting between numberings")
    bench_convert(small, rows, log)


PGN_HEADERS_LOOP = """
import collections, sys
import chess.pgn
counts = collections.Counter()
with open(sys.argv[1], encoding="utf-8") as handle:
    while (headers := chess.pgn.read_headers(handle)) is not None:
        counts[(headers.get("FEN"), headers.get("Result"))] += 1
print(sum(counts.values()))
"""


#: SAN-shaped moves for the bench's middle games (the tree needs no legality:
#: within a start position a SAN sequence names one path).
_LATER_MOVES = ("Nxe5", "Bxf7+", "Qxd5", "Rfe1", "Rad8", "h3", "a6", "Kh1", "Bd3", "Be7",
                "exd5", "cxd4", "Ng5", "Qb3", "Rc1", "O-O-O", "Nd2", "Qh4+", "Bxc6", "bxc6",
                "Re8", "g4", "Kg8", "d6", "e6", "Rxe8#", "Qg7#", "c3", "Nb5", "f3")


def _bench_lines(rng: random.Random, count: int) -> list[list[str]]:
    """``count`` move lists of 8 to 20 full moves whose first 12 plies share prefixes
    (a few choices a ply, the first ones likelier), as an opening tree does. The first
    12 plies push six pawns a side once each (White to its 3rd or 4th rank, Black to its
    6th or 5th), which is legal from every Chess960 start: python-chess reads them."""
    lines = []
    for _ in range(count):
        line: list[str] = []
        left = ["edcfgbah", "edcfgbah"]
        for ply in range(12):
            files = left[ply % 2]
            file = files[int(rng.random() ** 2 * min(3, len(files)))]
            left[ply % 2] = files.replace(file, "")
            far = rng.random() < 0.7
            line.append(file + ("4" if far else "3") if ply % 2 == 0 else
                        file + ("5" if far else "6"))
        line += rng.choices(_LATER_MOVES, k=2 * rng.randrange(8, 21) - 12)
        lines.append(line)
    return lines


def _lichess_movetext(line: list[str], rng: random.Random) -> str:
    """``line`` as lichess exports it: move numbers, a clock comment after each move."""
    clocks = [180, 180]
    out = []
    for ply, move in enumerate(line):
        side = ply % 2
        clocks[side] = max(0, clocks[side] - rng.randrange(0, 9))
        clock = f"{{ [%clk 0:{clocks[side] // 60:02d}:{clocks[side] % 60:02d}] }}"
        number = f"{ply // 2 + 1}. " if side == 0 else f"{ply // 2 + 1}... "
        out.append(f"{number}{move} {clock}")
    return " ".join(out)


#: Games in the bench's PGN collections: 200,000 by default; ``CHESS960_BENCH_GAMES``
#: (for example ``1000000``, a 1.1 GB file) changes it.
BENCH_GAMES = int(os.environ.get("CHESS960_BENCH_GAMES", "200000"))


def _pgn_collection(path: Path, games: int) -> dict[int, int]:
    """A lichess-shaped Chess960 PGN of ``games`` games, about 1.1 KB each (the lichess
    export's tag set: Seven Tag Roster, UTCDate/UTCTime, ratings and their diffs,
    Variant, TimeControl, ECO, Termination, FEN in X-FEN or Shredder-FEN, SetUp; 960
    distinct start FENs; dates, names, ratings and time controls varying; a
    ``{ [%clk 0:02:57] }`` comment after every move, 8 to 20 moves drawn from 64
    lines whose openings share prefixes); returns the games per position, as written."""
    rng = random.Random(22)
    results = ["1-0", "0-1", "1/2-1/2", "*"]
    texts = [_lichess_movetext(line, rng) for line in _bench_lines(rng, 64) for _ in range(4)]
    controls = ["180+0", "60+0", "300+3", "600+5", "15+0", "1800+20", "-"]
    fens = []
    for number in range(960):
        rank = scharnagl_rank(number)
        xfen = f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"
        white = "".join("ABCDEFGH"[i] for i in reversed(range(8)) if rank[i] == "R")
        shredder = xfen.replace("KQkq", white + white.lower())
        fens.append((xfen, shredder))
    per: dict[int, int] = {}
    with path.open("w", encoding="utf-8") as out:
        batch = []
        for g in range(games):
            number = g % 960 if g < 960 else rng.randrange(960)  # all 960 starts
            per[number] = per.get(number, 0) + 1
            result = results[rng.randrange(4)]
            date = f"{2013 + g % 11}.{1 + g % 12:02d}.{1 + g % 28:02d}"
            white, black = 800 + rng.randrange(2200), 800 + rng.randrange(2200)
            diff = rng.randrange(1, 20)
            batch.append(
                f'[Event "Rated Chess960 game"]\n[Site "https://lichess.org/{g:08d}"]\n'
                f'[Date "{date}"]\n[Round "-"]\n[White "player{g % 1000}"]\n'
                f'[Black "player{g * 7 % 1000}"]\n[Result "{result}"]\n[UTCDate "{date}"]\n'
                f'[UTCTime "{g % 24:02d}:{g % 60:02d}:{g * 7 % 60:02d}"]\n'
                f'[WhiteElo "{white}"]\n[BlackElo "{black}"]\n'
                f'[WhiteRatingDiff "+{diff}"]\n[BlackRatingDiff "-{diff}"]\n'
                f'[Variant "Chess960"]\n[TimeControl "{controls[g % 7]}"]\n[ECO "?"]\n'
                f'[Termination "Normal"]\n'
                f'[FEN "{fens[number][g % 2]}"]\n[SetUp "1"]\n\n'
                f'{texts[rng.randrange(256)]} {result}\n\n')
            if len(batch) == 10_000:
                out.write("".join(batch))
                batch = []
        out.write("".join(batch))
    return per


def bench_games(repeats: int, rows: list[Row], log: Callable[[str], None],
                games: int = 1_000_000) -> None:
    """``chess960 games stats`` over a 1,000,000-game PGN (issue 22) against
    ``grep -c '^\\[Result'`` over the same file (<= 5x) and python-chess's
    ``chess.pgn.read_headers`` loop (>= 20x faster), interleaved; and its peak memory."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pgn"
        per = _pgn_collection(path, games)
        log(f"a PGN of {games:,} games, {path.stat().st_size / 1e6:,.0f} MB")
        ours = [CHESS960, "games", "stats", str(path), "--format", "csv"]
        table = run(ours).decode().splitlines()
        found = {int(line.split(",")[0]): int(line.split(",")[2])
                 for line in table[1:] if line[:1].isdigit()}
        assert found == per, "games stats disagrees with the games written"
        grep = ["grep", "-c", "^\\[Result", str(path)]
        assert run(grep) == f"{games}\n".encode()
        log("games stats counts every position as written; grep counts every game")
        # grep's output is read through a pipe: to /dev/null, GNU grep stops at the first match
        mine, theirs = alternate(lambda: run(ours, discard=True), lambda: run(grep), repeats)
        rows.append(compare(f"chess960 games stats ({games:,} games)", mine, theirs,
                            "grep -c '^\\[Result'", 5.0))
        peak = float(run([sys.executable, "-c", PEAK_RSS, "/dev/null", *ours]))
        rows.append(Row("  peak memory (ru_maxrss)", f"{peak:.0f} MB", "", None,
                        "<= 100 MB", peak <= 100))
        if python_chess() is None:
            log("python-chess is not installed: no read_headers baseline")
            return
        loop = [sys.executable, "-c", PGN_HEADERS_LOOP, str(path)]
        mine, theirs = alternate(lambda: run(ours, discard=True),
                                 lambda: run(loop, discard=True), 1, warm=False)
        faster = theirs / mine  # shown as how many times faster ours is
        rows.append(Row(f"chess960 games stats vs read_headers ({games:,} games)",
                        seconds(mine), f"{seconds(theirs)} python-chess read_headers",
                        faster, ">= 20x faster", faster >= 20))


def _games_section(small: int, large: int, rows: list[Row],
                   log: Callable[[str], None]) -> None:
    log("PGN collections: games stats")
    bench_games(large, rows, log, BENCH_GAMES)


#: python-chess building the SAN tree of the first 12 plies: ``{rank line: games}``
#: (the baseline of ``games tree``; its games' later moves are not legal, so
#: python-chess stops reading each game there, which favours it).
PGN_TREE_LOOP = """
import collections, json, logging, sys
import chess.pgn
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
counts = collections.Counter()
with open(sys.argv[1], encoding="utf-8") as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        board = game.board()
        rank = board.fen().split("/")[7].split()[0]
        line = []
        counts[rank] += 1
        for move in game.mainline_moves():
            if len(line) == 12:
                break
            line.append(board.san(move))
            board.push(move)
            counts[rank + " " + " ".join(line)] += 1
print(json.dumps(counts))
"""

#: ``games tree --format json`` flattened as :data:`PGN_TREE_LOOP` prints it.
TREE_LINES = """
import json, sys
def walk(node, key, out):
    out[key] = node["games"]
    for move, child in node["children"].items():
        walk(child, key + " " + move, out)
out = {}
for entry in json.load(sys.stdin)["positions"]:
    walk(entry, entry["rank"], out)
print(json.dumps(out))
"""


def bench_games_tree(repeats: int, rows: list[Row], log: Callable[[str], None],
                     games: int) -> None:
    """``chess960 games tree --plies 12`` (the explorer's table of every start)
    against ``games stats`` on the same lichess-shaped file (<= 3x), the whole
    tree written as JSON (info), ``games stats`` against ``grep -c`` (<= 5x),
    python-chess building the same SAN tree (on a subset, scaled) against the
    JSON tree (>= 20x faster), and the tree's peak memory at two sizes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pgn"
        _pgn_collection(path, games)
        log(f"a lichess-shaped PGN of {games:,} games, {path.stat().st_size / 1e6:,.0f} MB")
        tree = [CHESS960, "games", "tree", str(path), "--plies", "12"]
        whole = [*tree, "--format", "json"]
        stats = [CHESS960, "games", "stats", str(path), "--format", "csv"]
        grep = ["grep", "-c", "^\\[Result", str(path)]
        mine, theirs = alternate(lambda: run(tree, discard=True),
                                 lambda: run(stats, discard=True), repeats)
        rows.append(compare(f"chess960 games tree --plies 12 ({games:,} games)", mine, theirs,
                            "games stats", 3.0))
        mine, theirs = alternate(lambda: run(whole, discard=True),
                                 lambda: run(stats, discard=True), repeats)
        rows.append(compare(f"  the whole tree as JSON (--format json, {games:,} games)", mine,
                            theirs, "games stats", None))
        json_time = mine
        mine, theirs = alternate(lambda: run(stats, discard=True), lambda: run(grep), repeats)
        rows.append(compare(f"chess960 games stats ({games:,} lichess-shaped games)", mine,
                            theirs, "grep -c '^\\[Result'", 5.0))
        for size in (games // 10, games):
            part = path if size == games else Path(tmp) / "part.pgn"
            if size != games:
                _pgn_collection(part, size)
            command = [*whole[:3], str(part), *whole[4:]]
            nodes = len(json.loads(run([sys.executable, "-c", TREE_LINES],
                                       feed=run(command))))
            peak = float(run([sys.executable, "-c", PEAK_RSS, "/dev/null", *command]))
            rows.append(Row(f"  games tree peak memory ({size:,} games, {nodes:,} nodes)",
                            f"{peak:.0f} MB", "", None, "(info)", None))
        if python_chess() is None:
            log("python-chess is not installed: no python-chess tree baseline")
            return
        subset = min(games, 5_000)
        small_path = Path(tmp) / "subset.pgn"
        _pgn_collection(small_path, subset)
        ours = json.loads(run([sys.executable, "-c", TREE_LINES],
                              feed=run([*whole[:3], str(small_path), *whole[4:]])))
        loop = [sys.executable, "-c", PGN_TREE_LOOP, str(small_path)]
        start = time.perf_counter()
        theirs_tree = json.loads(run(loop))
        theirs = (time.perf_counter() - start) * games / subset
        assert theirs_tree == ours, "python-chess's SAN tree differs from games tree's"
        log(f"python-chess's tree of the first {subset:,} games equals games tree's")
        faster = theirs / json_time
        rows.append(Row(f"chess960 games tree -f json vs python-chess ({games:,} games)",
                        seconds(json_time),
                        f"{seconds(theirs)} python-chess read_game + san "
                        f"({subset:,} games, scaled)", faster, ">= 20x faster", faster >= 20))


def _games_tree_section(small: int, large: int, rows: list[Row],
                        log: Callable[[str], None]) -> None:
    log("PGN collections: games tree against games stats, grep and python-chess")
    bench_games_tree(large, rows, log, BENCH_GAMES)


def bench_armies(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """FICS wild 3 (131,072) and wild 4 (149,320,544): count, ``id``, ``position``
    and ``random`` by arithmetic (issue 20: under a second each, nothing listed),
    whole processes against the same command on Chess960 and ``python -c pass``."""
    base = [sys.executable, "-c", "pass"]
    commands: list[tuple[str, list[str], bytes]] = [
        ("wild3", ["solve", "--count"], b"131072\n"),
        ("wild3", ["id", "RNBQKBNR"], b"74194\n"),
        ("wild3", ["position", "74194"], b"RNBQKBNR\n"),
        ("wild3", ["random", "--seed", "1"], b""),
        ("wild4", ["solve", "--count"], b"149320544\n"),
        ("wild4", ["id", "RNBQKBNR bbnnrqkr"], b"84405813\n"),
        ("wild4", ["position", "84405813"], b"RNBQKBNR bbnnrqkr\n"),
        ("wild4", ["random", "--seed", "1"], b""),
    ]
    for name, args, expected in commands:
        ours = [CHESS960, *args, "-r", name]
        if expected:
            assert run(ours) == expected, (name, args)
        chess960 = [CHESS960, *args[:1], *(["518"] if args[0] == "position" else
                                          ["RNBQKBNR"] if args[0] == "id" else args[1:])]
        log(f"{name} {' '.join(args)}")
        mine, theirs = alternate(lambda ours=ours: run(ours), lambda c=chess960: run(c), repeats)
        rows.append(compare(f"chess960 {' '.join(args)} -r {name}", mine, theirs,
                            f"{' '.join(chess960[1:])} (chess960)", None))
        rows.append(under("  absolute", mine, 1.0))
    mine, theirs = alternate(lambda: run([CHESS960, "solve", "--count", "-r", "wild4"]),
                             lambda: run(base), repeats)
    rows.append(compare("chess960 solve --count -r wild4 (start-up)", mine, theirs,
                        "python -c pass", None))


def _armies_section(small: int, large: int, rows: list[Row],
                    log: Callable[[str], None]) -> None:
    log("armies that vary: wild 3 and wild 4 by arithmetic")
    bench_armies(small, rows, log)


#: The sections `--only` runs alone (each also runs in the full run).
_SECTIONS: dict[str, Callable[[int, int, list[Row], Callable[[str], None]], None]] = {
    "counting": _counting_section, "formats": _formats_section, "bulk": _bulk_section,
    "numberings": _numberings_section,
    "games": _games_section, "gamestree": _games_tree_section,
    "armies": _armies_section,
    "startup": lambda small, large, rows, log: bench_startup(small * 2, rows),
    "enumerated": lambda small, large, rows, log: bench_enumerated(small, rows, log),
}
#: The sections the full run measures in its own order (not again with the others).
_IN_ORDER = ("startup", "enumerated")


def bench_lists(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """Issue 22's lists and books over the whole of DFRC (921,600 positions):
    ``compare`` and ``lint --rules --complete`` of Stockfish's book against the
    dict loop by ranks (and their peak RSS), ``book`` against ``solve --format epd``."""
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "DFRC_openings.epd"
        _dfrc_book(book)
        ranks = [scharnagl_rank(i) for i in range(960)]
        ids = Path(tmp) / "ids.json"
        ids.write_text(json.dumps({**{r: i for i, r in enumerate(ranks)},
                                   **{r.lower(): i for i, r in enumerate(ranks)}}))
        id_base = [sys.executable, "-c", RANK_ID_LOOP, str(ids)]
        compare_ = [CHESS960, "compare", "-", "--rules", "dfrc"]
        lint = [CHESS960, "lint", "--rules", "dfrc", "--complete", "-"]
        assert run(compare_, book).endswith(
            b"921,600 lines: each of the 921,600 dfrc positions once, in the order of the "
            b"numberings scharnagl, tcec\n")
        assert run(lint, book).endswith(b": 921,600 start positions, 0 problems\n")
        log("compare and lint --rules dfrc --complete: the DFRC book is the whole family")
        for what, ours in (("compare - -r dfrc", compare_),
                           ("lint -r dfrc --complete -", lint)):
            mine, theirs = alternate(lambda o=ours: run(o, book, discard=True),
                                     lambda: run(id_base, book, discard=True), repeats)
            rows.append(compare(f"chess960 {what} < DFRC_openings.epd (921,600 lines)", mine,
                                theirs, "dict loop by ranks", 4.0))
            peak = float(run([sys.executable, "-c", PEAK_RSS, str(book), *ours]))
            rows.append(Row("  peak memory (ru_maxrss)", f"{peak:.0f} MB", "", None,
                            "<= 100 MB", peak <= 100))
        written = Path(tmp) / "book.epd"
        ours_book = [CHESS960, "book", "--rules", "dfrc", "-o", str(written)]
        solve = [CHESS960, "solve", "--rules", "dfrc", "--format", "epd"]
        run(ours_book)
        assert written.read_bytes() == run(solve)
        log("book --rules dfrc writes what solve --format epd writes")
        to_stdout = ours_book[:-2]  # both to /dev/null: -o adds the fsync of a 65 MB file
        mine, theirs = alternate(lambda: run(to_stdout, discard=True),
                                 lambda: run(solve, discard=True), repeats)
        # book starts through Typer (about 0.2 s), solve on the fast path: the lines
        # themselves are made as fast (one template a White rank, both)
        rows.append(compare("chess960 book -r dfrc (921,600 positions)", mine, theirs,
                            "solve -r dfrc --format epd", 4.0))


def _lists_section(small: int, large: int, rows: list[Row],
                   log: Callable[[str], None]) -> None:
    log("lists and books (compare, lint --rules, book) over DFRC")
    bench_lists(large, rows, log)


_SECTIONS["lists"] = _lists_section


def bench_lint_refusals(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """Issue 32.4: ``lint --rules chess960`` on books of start positions it refuses
    (DFRC pairs whose Black does not mirror White) against books of ones it accepts
    (the 960 positions), as many lines each: a refused line costs at most twice an
    accepted one."""
    files = 40
    ranks = [scharnagl_rank(i) for i in range(960)]
    with tempfile.TemporaryDirectory() as tmp:
        accepted, refused = [], []
        for k in range(files):
            good, bad = Path(tmp) / f"good{k}.fen", Path(tmp) / f"bad{k}.fen"
            good.write_text("".join(_fen_pair(white, white) for white in ranks))
            bad.write_text("".join(_fen_pair(white, ranks[(i + 1 + k) % 960])
                                   for i, white in enumerate(ranks)))
            accepted.append(str(good))
            refused.append(str(bad))
        lint = [CHESS960, "lint", "--rules", "chess960", "-q"]
        lines = files * 960
        assert run(lint + accepted[:1]).endswith(b": 960 start positions, 0 problems\n")
        done = subprocess.run(lint + refused[:1], capture_output=True, env=ENV, check=False)
        assert done.stdout.endswith(b": 960 start positions, 960 problems\n"), done.stdout[-200:]
        log(f"lint --rules chess960: {lines:,} lines refused against {lines:,} accepted")
        mine, theirs = alternate(lambda: run_any(lint + refused),
                                 lambda: run_any(lint + accepted), repeats)
        rows.append(compare(f"chess960 lint -r chess960, {lines:,} refused lines", mine, theirs,
                            f"{lines:,} accepted lines", 2.0))


def _fen_pair(white: str, black: str) -> str:
    """A start FEN of two Chess960 ranks, Shredder-FEN castling (:func:`_shredder`)."""
    return (f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w "
            f"{_shredder(white)[0]}{_shredder(black)[1]} - 0 1\n")


def _refusals_section(small: int, large: int, rows: list[Row],
                      log: Callable[[str], None]) -> None:
    log("lint refusing start positions: as fast as accepting them")
    bench_lint_refusals(small, rows, log)


_SECTIONS["refusals"] = _refusals_section


def _evaltables_section(small: int, large: int, rows: list[Row],
                        log: Callable[[str], None]) -> None:
    log("evaluation tables at DFRC size, and eval --engine against a minimal UCI loop")
    bench_eval_tables(large, rows, log)


_SECTIONS["evaltables"] = _evaltables_section


#: The minimal UCI loop ``eval --engine`` is measured against: per position
#: ``ucinewgame``, ``isready``, ``position``, ``go nodes N``, read to ``bestmove``
#: (the same commands, so the same figures), JOBS engines in as many threads.
UCI_LOOP = """
import subprocess, sys, threading
engine, nodes, jobs, fens = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
work = iter(fens)
lock = threading.Lock()
found = {}

def job():
    sf = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                          bufsize=1)
    def until(word):
        for line in sf.stdout:
            if line.startswith(word):
                return line
    for line in ("uci", "setoption name Threads value 1",
                 "setoption name UCI_Chess960 value true", "setoption name UCI_ShowWDL value true"):
        sf.stdin.write(line + "\\n")
    until("uciok")
    while True:
        with lock:
            fen = next(work, None)
        if fen is None:
            break
        sf.stdin.write(f"ucinewgame\\nisready\\n")
        until("readyok")
        sf.stdin.write(f"position fen {fen}\\ngo nodes {nodes}\\n")
        score = None
        for line in sf.stdout:
            if " score " in line:
                score = line.split(" score ")[1].split()[:2]
            elif line.startswith("bestmove"):
                break
        found[fen] = score
    sf.stdin.write("quit\\n")
    sf.wait()

threads = [threading.Thread(target=job) for _ in range(jobs)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(found))
"""


def _own_peak(cmd: list[str]) -> tuple[float, int]:
    """``cmd``'s wall time and its own peak RSS (``VmHWM``, an engine it starts
    not counted), in :data:`ENV`."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=ENV)
    peak = 0
    while process.poll() is None:
        try:
            with open(f"/proc/{process.pid}/status") as status:
                peak = max([peak] + [int(line.split()[1]) * 1024 for line in status
                                     if line.startswith("VmHWM:")])
        except (OSError, ValueError):
            pass
        time.sleep(0.005)
    assert process.returncode == 0, cmd
    return time.perf_counter() - start, peak


def bench_eval_tables(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """Issue 37: a stored table of all 921,600 DFRC positions resumed with one ID
    left and looked up by one ID (each under 1 s and 100 MB); ``eval --engine`` of
    200 IDs at 20,000 nodes, ``--jobs 2``, against a minimal UCI loop (<= 1.05x);
    and what all 921,600 DFRC pairs would cost, from the per-position figure."""
    import shutil

    from solver.evaluation.store import StoreWriter
    from solver.evaluation.table import Evaluation

    engine = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    dfrc = Family.load("dfrc")
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "dfrc.sqlite"
        left = 654_321
        setup = {"engine": "", "limit": "nodes 2000"}
        if engine is not None:
            name = subprocess.run([engine], input="uci\nquit\n", capture_output=True,
                                  text=True, check=True).stdout
            setup["engine"] = next(line[8:] for line in name.splitlines()
                                   if line.startswith("id name "))
        log("a stored table of 921,599 DFRC positions (synthetic evals)")
        start = time.perf_counter()
        with StoreWriter(str(table), dfrc, setup) as writer:
            writer.add_many(Evaluation(n, "", setup["engine"], "nodes 2000", 9, 2000, 0.01,
                                       (n % 201 - 100) / 100)
                            for n in range(dfrc.count) if n != left)
        rows.append(Row("writing a stored table of 921,599 rows (add_many)",
                        seconds(time.perf_counter() - start), "", None, "(info)", None))
        copy = Path(tmp) / "copy.sqlite"
        shutil.copyfile(table, copy)
        look = [CHESS960, "eval", "123456", "-r", "dfrc", "--eval-table", str(table)]
        looks = [_own_peak(look) for _ in range(max(3, repeats))]
        wall = statistics.median(w for w, _ in looks)
        peak = max(p for _, p in looks)
        rows.append(under("chess960 eval ID -r dfrc --eval-table T.sqlite (921,599 rows)",
                          wall, 0.2))
        rows.append(Row("  its peak memory (VmHWM)", f"{peak / 2**20:.0f} MB", "", None,
                        "< 100 MB", peak < 100 * 2**20))
        if engine is None:
            log("stockfish is not installed: the engine rows are left out")
            return
        resume = [CHESS960, "eval", "--engine", engine, "--nodes", "2000", "-r", "dfrc",
                  "-o", str(table)]
        runs = []
        for _ in range(max(3, repeats)):
            shutil.copyfile(copy, table)
            runs.append(_own_peak(resume))
        wall = statistics.median(w for w, _ in runs)
        peak = max(p for _, p in runs)
        rows.append(under("chess960 eval --engine -r dfrc -o T.sqlite, one ID of 921,600 left",
                          wall, 1.0))
        rows.append(Row("  its peak memory (VmHWM; the engine's not counted)",
                        f"{peak / 2**20:.0f} MB", "", None, "< 100 MB", peak < 100 * 2**20))
        _bench_engine_loop(engine, repeats, rows, log, Path(tmp))


def _bench_engine_loop(engine: str, repeats: int, rows: list[Row],
                       log: Callable[[str], None], tmp: Path) -> None:
    from solver.notation.fen import position_fen

    dfrc = Family.load("dfrc")
    ids = list(range(0, 921_600, 4608))  # 200 IDs over the whole family
    fens = [position_fen(dfrc.position(n), shredder=True) for n in ids]
    nodes = "20000"
    out = tmp / "t.csv"

    def ours() -> None:
        out.unlink(missing_ok=True)
        run([CHESS960, "eval", "--engine", engine, "--nodes", nodes, "-r", "dfrc", "--ids",
             ",".join(map(str, ids)), "--jobs", "2", "-o", str(out)], discard=True)

    loop = [sys.executable, "-c", UCI_LOOP, engine, nodes, "2", *fens]
    assert run(loop).strip() == b"200"
    log("eval --engine of 200 DFRC ids at 20,000 nodes, --jobs 2, against a minimal UCI loop")
    mine, theirs = alternate(ours, lambda: run(loop, discard=True), max(2, repeats // 2))
    rows.append(compare("chess960 eval --engine, 200 DFRC ids, 20,000 nodes, --jobs 2", mine,
                        theirs, "minimal UCI loop, 2 engines", 1.05))
    per = mine * 2 / 200  # core-seconds a position
    hours = per * 921_600 / 3600
    rows.append(Row(f"  all 921,600 DFRC pairs at 20,000 nodes ({per * 1e3:.1f} ms a position "
                    "on one core)", f"{hours / 2:.1f} h on 2 cores",
                    f"{hours * 60 / 100:.1f} min on 100", None, "(info)", None))


def bench_eval_cluster(repeats: int, rows: list[Row], log: Callable[[str], None]) -> None:
    """Issue 37.2: ``eval --scheduler local:2`` (a Dask LocalCluster of two worker
    processes, started and closed by the run) against ``eval --jobs 2``, 200
    chess960 IDs at 20,000 nodes with Debian's stockfish, whole runs into fresh
    tables. Skipped without stockfish or the ``cluster`` extra."""
    import importlib.util
    import shutil

    engine = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if engine is None or importlib.util.find_spec("distributed") is None:
        log("eval on a cluster: skipped (needs stockfish and the cluster extra)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "t.csv"
        common = [CHESS960, "eval", "--engine", engine, "--nodes", "20000", "--ids", "0-199",
                  "-o", str(table)]

        def fresh(*extra: str) -> Callable[[], object]:
            def call() -> None:
                table.unlink(missing_ok=True)
                subprocess.run([*common, *extra], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=ENV, check=True)
            return call

        cluster, jobs = alternate(fresh("--scheduler", "local:2"), fresh("--jobs", "2"),
                                  repeats, warm=False)
    rows.append(compare("eval --scheduler local:2, 200 ids at 20,000 nodes", cluster, jobs,
                        "--jobs 2", 1.3))


def _eval_cluster_section(small: int, large: int, rows: list[Row],
                          log: Callable[[str], None]) -> None:
    log("eval on a Dask LocalCluster against --jobs")
    bench_eval_cluster(large, rows, log)


_SECTIONS["evalcluster"] = _eval_cluster_section


def _measure_all(args: argparse.Namespace, small: int, large: int,
                 log: Callable[[str], None], rows: list[Row]) -> None:
    log("solving chess960")
    bench_solve("chess960", small * 2, not args.quick, rows, 0.7, log)
    log("solving capablanca-random")
    bench_solve("capablanca-random", max(3, small // 3), not args.quick, rows, 0.5, log)
    if not args.quick:
        log("solving bench-12 (canonical order, 1,008,000 ranks)")
        bench_solve("bench-12", large, False, rows, 0.5, log)
    log("counting bench-12")
    bench_count_12(large, rows, log)
    log("id <-> rank lookups")
    bench_lookups(rows)
    log("bulk id from stdin")
    bench_bulk(small, rows, log)
    log("start-up")
    bench_startup(small * 2, rows)
    log("enumerated family lookups")
    bench_enumerated(small, rows, log)
    log("a family too big to list")
    bench_big(large, rows, log)
    log("counting capablanca-random, whole process")
    bench_count_crc(max(3, small // 3), rows)
    if not args.quick:
        log("listing dfrc")
        bench_dfrc(large, rows, log)
        for name, section in _SECTIONS.items():
            if name not in _IN_ORDER:
                section(small, large, rows, log)
        bench_check_all(rows, log)


def _report(args: argparse.Namespace, rows: list[Row], began: float, before: str,
            scaling: str | None = None) -> None:

    failed = [r.what.strip() for r in rows if r.ok is False]
    report = "\n".join([
        f"machine: {machine()}",
        f"python-chess: {pc_version()}",
        f"load average before / after: {before} / {load_average()}; "
        f"run took {time.perf_counter() - began:.0f} s",
        "",
        table(rows),
        "",
        "all targets PASS" if not failed else f"FAIL: {'; '.join(failed)}",
        *([] if scaling is None else [
            "", "How numbering costs grow (whole process, medians; rules/README.md quotes it):",
            "", scaling]),
    ])
    print(report)
    if not args.no_readme and args.only is None:  # a section alone is not the table
        write_readme(report)
    if args.strict and failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
