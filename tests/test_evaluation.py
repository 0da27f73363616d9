"""The shipped evaluation tables, ``chess960 eval ID``, and balanced draws.

Expectations come from the upstream files themselves (tests/data/eval-upstream,
byte for byte as published, read here with the csv module) and from the
published SP-ID table (tests/data/chess960.txt, made from Scharnagl's KRN
table alone), not from the code under test.
"""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import io
import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.cli.commands import plan_command, random_command
from solver.cli.entry import dispatch
from solver.errors import BandError, EvalTableError
from solver.evaluation.band import balance, parse_band
from solver.evaluation.run import evaluate
from solver.evaluation.sources import SOURCES, load_source, tables_for
from solver.evaluation.table import read_table, read_text, verify
from solver.family import Family

DATA = Path(__file__).parent / "data"
UPSTREAM = DATA / "eval-upstream"
GOLDEN = dict(line.split() for line in (DATA / "chess960.txt").read_text().splitlines())


def upstream_evals() -> dict[str, dict[int, float]]:
    """Each source's eval by SP-ID, read from the upstream files as published."""
    eval960 = {int(r["id"]): float(r["eval"]) for r in
               csv.DictReader(io.StringIO((UPSTREAM / "eval960-results.csv").read_text()))}
    text = (UPSTREAM / "evalanalyzer-results.csv").read_text("utf-8-sig")
    analyzer = {int(i): float(e) for i, e, _ in csv.reader(io.StringIO(text))}
    return {"eval960": eval960, "evalanalyzer": analyzer}


EVALS = upstream_evals()


def shipped_file(name: str) -> bytes:
    from importlib.resources import files

    return files("solver.evaluation").joinpath("data", name).read_bytes()


def cli(*argv: str) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")
    try:
        code = dispatch(list(argv))
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
    return out.getvalue(), err.getvalue(), code


# -- the data -------------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_every_row_is_keyed_by_the_published_sp_id(source: object) -> None:
    table = load_source(source)  # type: ignore[arg-type]
    assert sorted(table.rows) == list(range(960))
    chess960 = Family.load("chess960")
    from solver.notation.fen import position_fen

    for number, row in table.rows.items():
        board, *rest = row.fen.split()
        assert board.split("/")[-1] == GOLDEN[str(number)], number
        assert board.split("/")[0] == GOLDEN[str(number)].lower()
        assert rest == ["w", "KQkq", "-", "0", "1"]
        assert row.fen == position_fen(chess960.position(number))
    verify(table, chess960)


def test_the_upstream_positions_list_is_in_sp_id_order() -> None:
    ranks = (UPSTREAM / "evalanalyzer-positions.txt").read_text("utf-8-sig").split()
    assert ranks == [GOLDEN[str(n)] for n in range(960)]
    text = (UPSTREAM / "evalanalyzer-results.csv").read_text("utf-8-sig")
    assert all(GOLDEN[i] == rank for i, _, rank in csv.reader(io.StringIO(text)))


def test_the_tables_are_the_documented_conversion_of_the_upstream_files(
        tmp_path: Path) -> None:
    script = DATA / "make_eval_tables.py"
    spec = importlib.util.spec_from_file_location("make_eval_tables", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, make in module.TABLES.items():
        assert make().encode("ascii") == shipped_file(name), name
    notice = shipped_file("README.md").decode()
    for name in ("eval960-results.csv", "evalanalyzer-results.csv",
                 "evalanalyzer-positions.txt"):
        assert hashlib.sha256((UPSTREAM / name).read_bytes()).hexdigest() in notice
    for name in ("eval960-LICENSE", "evalanalyzer-LICENSE"):
        assert (UPSTREAM / name).read_text("utf-8").strip() in notice
    for source in SOURCES:
        assert source.commit in notice and source.engine in notice


def test_the_figures_are_the_upstream_figures() -> None:
    for source in (s for s in SOURCES if s.name in EVALS):  # eval960-d32: test_draw_rate
        rows = load_source(source).rows
        assert {n: r.pawns for n, r in rows.items()} == EVALS[source.name]
    eval960 = load_source(SOURCES[0]).rows[80]
    assert (eval960.wins, eval960.draws, eval960.losses) == (107, 886, 7)


# -- chess960 eval ID ------------------------------------------------------------------


@pytest.mark.parametrize("given", ["80", "BBNNRKRQ",
                                   "bbnnrkrq/pppppppp/8/8/8/8/PPPPPPPP/BBNNRKRQ w KQkq - 0 1"])
def test_eval_80_shows_both_sources_with_provenance_and_spread(given: str) -> None:
    out, err, code = cli("eval", given)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "chess960 80 BBNNRKRQ"
    assert any(line.split()[:3] == ["eval960", "+0.40", "107/886/7"] for line in lines)
    assert any(line.split()[:4] == ["evalanalyzer", "+0.80", "Stockfish", "18"]
               for line in lines)
    assert "spread 0.40 pawns" in out
    for words in ("clfs/eval960", "Stockfish 17.1", "1 s a position", "71c2763", "MIT",
                  "bariskisir/Chess960EvalAnalyzer", "depth 25", "92a9710"):
        assert words in out


def test_eval_json() -> None:
    out, _, code = cli("eval", "518", "80", "--format", "json")
    assert code == 0
    found = json.loads(out)
    assert [(d["id"], d["rank"]) for d in found] == [(518, "RNBQKBNR"), (80, "BBNNRKRQ")]
    sources = {s["source"]: s for s in found[1]["sources"]}
    assert sources["eval960"]["eval"] == EVALS["eval960"][80]
    assert sources["evalanalyzer"]["eval"] == EVALS["evalanalyzer"][80]
    assert sources["evalanalyzer"]["table_limit"] == "depth 25"
    assert sources["eval960"]["licence"] == "MIT"
    assert found[1]["spread"] == pytest.approx(0.4)


def test_eval_errors_are_one_line() -> None:
    _, err, code = cli("eval", "960")
    assert code == 1 and err.startswith("error:") and err.count("\n") == 1
    _, err, code = cli("eval", "0", "--rules", "dfrc")
    assert code == 1 and "no evaluation data is shipped for dfrc" in err
    _, err, code = cli("eval", "--nodes", "5", "0")
    assert code == 2 and "go with --engine" in err


# -- bands ---------------------------------------------------------------------------


def test_band_syntax() -> None:
    assert (parse_band("0.3").low, parse_band("0.3").high) == (-0.3, 0.3)
    assert parse_band("evalanalyzer:0.1..0.4").source == "evalanalyzer"
    for bad in ("x", "-1", "0.4..0.1", ":0.3", "nan", "inf"):
        with pytest.raises(BandError):
            parse_band(bad)


def test_a_band_over_a_source_not_given_or_leaving_nothing_is_refused() -> None:
    chess960 = Family.load("chess960")
    tables = tables_for(chess960, [])
    with pytest.raises(BandError, match="not one of eval960, evalanalyzer"):
        balance(chess960, "sf:0.3", tables)
    with pytest.raises(BandError, match="leaves no chess960 position"):
        balance(chess960, "-5..-4", tables)


def allowed(low: float, high: float, source: str | None) -> set[int]:
    names = [source] if source else list(EVALS)
    return {n for n in range(960) if all(low <= EVALS[s][n] <= high for s in names)}


@settings(max_examples=examples(2, 100))
@given(seed=st.text(min_size=1, max_size=20).filter(lambda s: s.isprintable()),
       high=st.sampled_from([0.15, 0.2, 0.3, 0.35, 0.5, 0.8]),
       source=st.sampled_from([None, "eval960", "evalanalyzer"]))
def test_random_and_plan_balanced_never_draw_outside_the_band(seed: str, high: float,
                                                      source: str | None) -> None:
    band = f"{source}:{high}" if source else str(high)
    out, err = io.StringIO(), io.StringIO()
    code = random_command("chess960", 30, seed=seed, out=out, err=err, balanced=band)
    assert code == 0, err.getvalue()
    drawn = [int(line.split()[0]) for line in out.getvalue().splitlines()]
    inside = allowed(-high, high, source)
    assert len(drawn) == 30 and set(drawn) <= inside
    assert f"within ±{high:.2f} pawns, {len(inside)} of 960" in err.getvalue()
    out = io.StringIO()
    assert plan_command("chess960", 5, seed=seed, exclude=[], mirrors=False, table="csv",
                        svg_dir=None, dialect="xfen", variant=None, out=out, err=err,
                        balanced=band) == 0
    planned = [int(row.split(",")[1]) for row in out.getvalue().splitlines()[1:]]
    assert len(planned) == 5 and set(planned) <= inside


def test_random_balanced_through_the_command_says_band_and_data() -> None:
    out, err, code = cli("random", "--balanced", "--seed", "x", "-n", "5")
    assert code == 0
    assert err.startswith("balanced: every source's eval within ±0.50 pawns, ")
    assert "eval960 (Stockfish 17.1" in err and "evalanalyzer (Stockfish 18, depth 25)" in err
    assert {int(line.split()[0]) for line in out.splitlines()} <= allowed(-0.5, 0.5, None)
    _, err, code = cli("random", "--eval-table", "t.csv")
    assert code == 2 and "goes with --balanced" in err


def test_plan_balanced_says_its_band_below_the_table() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = plan_command("chess960", 12, seed="Open", exclude=[], mirrors=True,
                        table="markdown", svg_dir=None, dialect="xfen", variant=None,
                        out=out, err=err, balanced="0.1..0.3")
    assert code == 0 and err.getvalue() == ""
    rows = [line for line in out.getvalue().splitlines() if line.startswith("| ") and
            line.split("|")[2].strip().isdigit()]
    assert len(rows) == 12
    assert {int(r.split("|")[2]) for r in rows} <= allowed(0.1, 0.3, None)
    assert out.getvalue().splitlines()[-1].startswith(
        "Balanced: every source's eval between +0.10 and +0.30 pawns")
    out, err = io.StringIO(), io.StringIO()
    assert plan_command("chess960", 3, seed="Open", exclude=[], mirrors=False, table="csv",
                        svg_dir=None, dialect="xfen", variant=None, out=out, err=err,
                        balanced="0.3") == 0
    assert err.getvalue().startswith("balanced: ")


# -- tables of one's own ---------------------------------------------------------------


def test_a_table_of_ones_own_is_read_and_checked(tmp_path: Path) -> None:
    chess960 = Family.load("chess960")
    good = tmp_path / "mine.csv"
    good.write_text("id,fen,engine,eval\n0,,E,0.1\n5,,E,0.9\n7,,E,-0.2\n")
    found = balance(chess960, "0.5", tables_for(chess960, [str(good)]))
    assert found.allowed == 2 and 5 in found.excluded and 0 not in found.excluded
    assert "mine (" in found.note
    cases = {
        "id,value\n0,1\n": "no eval column",
        "id,eval\n0,1\n0,2\n": "id 0 comes twice",
        "id,eval\nx,1\n": "id 'x' is not a number",
        "id,eval\n1,\n": "neither eval nor mate",
        "id,eval\n1,0.3,7\n": "not as many fields",
        "id,eval\n960,0.3\n": "out of range 0..959",
        "id,fen,eval\n0,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,0.3\n":
            "is position 518 of chess960",
    }
    for text, reason in cases.items():
        bad = tmp_path / "bad.csv"
        bad.write_text(text)
        with pytest.raises(EvalTableError, match=reason):
            verify(read_table(str(bad)), chess960)
    with pytest.raises(EvalTableError, match="no such file"):
        read_table(str(tmp_path / "absent.csv"))
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(EvalTableError, match="is not a regular file"):
        read_table(str(tmp_path / "fifo"))
    with pytest.raises(EvalTableError, match="is not a regular file"):
        evaluate(chess960, "no-such-engine", ids=[0], out=str(tmp_path / "fifo"), nodes=5)
    (tmp_path / "link.csv").symlink_to(good)
    with pytest.raises(EvalTableError, match="is a symbolic link"):
        evaluate(chess960, "no-such-engine", ids=[0], out=str(tmp_path / "link.csv"), nodes=5)
    assert read_text("id,eval,mate\n3,,-2\n", "m.csv").rows[3].score() == "#-2"
