"""`chess960 audit`: a sample of draws tested against the family's uniform draws.

The biased sample is drawn here by the three-boxes method as its description
gives it (positions 900-959 come up 5/3 as often as the others), the uniform
ones by :class:`random.Random`; the p-values are checked against the
definition of the chi-square tail (for an even number of degrees of freedom
a Poisson sum, for an odd one ``erfc`` plus a finite sum), against published
table values, and against scipy where it is installed; the binomial tail
against its definition summed exactly.
"""

from __future__ import annotations

import io
import json
import math
import random
import re
from decimal import Decimal, getcontext
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver import Family
from solver.cli.draws import audit_command
from solver.draws.audit import audit_ids, cells_for, detect_size
from solver.draws.stats import binom_sf, chi2_isf, chi2_sf, gamma_q

DATA = Path(__file__).parent / "data"
GOLDEN = [line.split()[1] for line in (DATA / "chess960.txt").read_text().splitlines()]
CHESS960 = Family.load("chess960")


def three_boxes(rng: random.Random, n: int) -> list[int]:
    """``n`` Chess960 IDs drawn as the three-boxes method draws them: each of
    900-959 five times for every three times any other comes up (weights 3 and
    5 over 900 * 3 + 60 * 5 = 3,000 equally likely tickets)."""
    drawn = []
    for _ in range(n):
        ticket = int(rng.random() * 3000)
        drawn.append(ticket // 3 if ticket < 2700 else 900 + (ticket - 2700) // 5)
    return drawn


def uniform(rng: random.Random, n: int, count: int = 960) -> list[int]:
    return rng.choices(range(count), k=n)


def run(tmp_path: Path, text: str, rules: str = "chess960", level: float = 0.01,
        fmt: str = "text") -> tuple[int, str, str]:
    path = tmp_path / "sample.txt"
    path.write_bytes(text.encode("utf-8"))
    out, err = io.StringIO(), io.StringIO()
    code = audit_command(str(path), rules, level, fmt, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def lines(ids: list[int]) -> str:
    return "".join(f"{n}\n" for n in ids)


# -- the verdicts -----------------------------------------------------------------


def stated_size(tmp_path: Path) -> int:
    """The sample size ``audit`` says would detect the three-boxes bias."""
    _, out, _ = run(tmp_path, lines(uniform(random.Random(0), 5000)))
    found = re.search(r"a sample of ([\d,]+) would detect the 60 positions 900-959 drawn "
                      r"5/3 as often as the others \(as the three-boxes method draws them\) "
                      r"with power 0\.9 at level 0\.01", out)
    assert found, out
    return int(found.group(1).replace(",", ""))


def test_a_three_boxes_sample_of_the_stated_size_is_flagged(tmp_path: Path) -> None:
    size = stated_size(tmp_path)
    assert 4000 < size < 20000
    code, out, err = run(tmp_path, lines(three_boxes(random.Random(1), size)))
    assert (code, err) == (1, ""), out
    assert out.splitlines()[-1].startswith(f"{tmp_path / 'sample.txt'}: not uniform at level 0.01")
    # the power is 0.9: of 20 such samples, at least 14 are flagged
    # (P(fewer) under Binomial(20, 0.9) is below 0.003)
    flagged = sum(not audit_ids(three_boxes(random.Random(seed), size), CHESS960).uniform
                  for seed in range(2, 22))
    assert flagged >= 14


def test_the_stated_size_is_where_the_power_is_reached() -> None:
    size, bias = detect_size(960, 0.01)
    assert (bias.first, bias.count) == (900, 60)
    smaller, _ = detect_size(960, 0.05)
    larger, _ = detect_size(960, 0.001)
    assert smaller is not None and size is not None and larger is not None
    assert smaller < size < larger


def test_a_uniform_sample_passes(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, lines(uniform(random.Random(7), 6000)))
    assert (code, err) == (0, ""), out
    assert "chi-square over each of the 960 positions" in out
    assert "consistent with uniform draws at level 0.01" in out.splitlines()[-1]


@settings(max_examples=examples(2, 20), deadline=None)
@given(st.integers(0, 2**32))
def test_the_false_alarm_rate_is_the_level(base: int) -> None:
    # 50 uniform samples audited at level 0.01: the false alarms are
    # Binomial(50, 0.01); 5 or more has probability below 2e-4
    alarms = sum(not audit_ids(uniform(random.Random(base + k), 4800), CHESS960).uniform
                 for k in range(50))
    assert alarms <= 4


@settings(max_examples=examples(2, 10), deadline=None)
@given(st.integers(0, 2**32))
def test_the_false_alarm_rate_over_bins_is_the_level(base: int) -> None:
    dfrc = Family.load("dfrc")
    alarms = 0
    for k in range(50):
        found = audit_ids(uniform(random.Random(base + k), 1000, dfrc.count), dfrc)
        assert found.cells == 200 and not found.per_position
        alarms += not found.uniform
    assert alarms <= 4


def test_a_generator_stuck_on_518_is_flagged_and_named(tmp_path: Path) -> None:
    drawn = uniform(random.Random(3), 5000) + [518] * 40
    code, out, _ = run(tmp_path, lines(drawn))
    assert code == 1
    most = [line for line in out.splitlines() if line.startswith("drawn most:")]
    assert most[0].startswith("drawn most: 518 (RNBQKBNR): ")
    corrected = float(most[0].rsplit("p = ", 1)[1].split(",")[0])
    assert corrected < 1e-10


def test_a_small_sample_is_binned_and_says_why(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, lines(uniform(random.Random(5), 1000)))
    assert code == 0
    assert "chi-square over 200 bins of consecutive ids" in out
    assert "one cell a position needs 5 draws a position, 4,800 in all" in out
    assert cells_for(4800, 960) == 960 and cells_for(4799, 960) == 959


def test_json(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, lines(three_boxes(random.Random(4), 20000)), fmt="json")
    data = json.loads(out)
    assert code == 1
    assert (data["family"], data["draws"], data["test"], data["uniform"]) == \
        ("chess960", 20000, "positions", False)
    assert data["p"] < 0.01 and data["degrees_of_freedom"] == 959
    assert data["bias"]["first"] == 900 and data["needed"] > 4000


# -- reading the sample ----------------------------------------------------------


def test_every_way_of_writing_a_position_is_read(tmp_path: Path) -> None:
    ids = uniform(random.Random(9), 12)
    rank = GOLDEN  # the KRN table's order: the family's own IDs
    written = []
    for k, n in enumerate(ids):
        written.append([str(n), f"{n} {rank[n]}", rank[n],
                        f"{rank[n].lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank[n]} w KQkq - 0 1"
                        ][k % 4])
    text = "# a comment\n\n" + "\n".join(written) + "\n"
    _, out, err = run(tmp_path, text, fmt="json")
    assert err == ""
    assert json.loads(out)["draws"] == 12
    found = audit_ids(ids, CHESS960)
    assert json.loads(out)["chi_square"] == pytest.approx(found.statistic)


@pytest.mark.parametrize(("text", "message"), [
    ("", "sample.txt: no positions to audit"),
    ("# nothing\n\n", "sample.txt: no positions to audit"),
    ("518\n" * 9, "a sample of 9 draws is too small for a chi-square test"),
])
def test_no_sample_or_too_small_is_one_error_line(tmp_path: Path, text: str,
                                                  message: str) -> None:
    code, out, err = run(tmp_path, text)
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_too_small_says_what_size_is_needed(tmp_path: Path) -> None:
    size = stated_size(tmp_path)
    _, _, err = run(tmp_path, "518\n")
    assert f"a sample of {size:,} would detect the 60 positions 900-959" in err


def test_a_line_that_is_no_position_is_one_error_line(tmp_path: Path) -> None:
    text = lines(uniform(random.Random(2), 100)) + "RNBQKBNQ\n960\n"
    code, out, err = run(tmp_path, text)
    assert code == 1
    errors = err.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith(f"error: {tmp_path / 'sample.txt'}:101: not a chess960 "
                                "position: 'RNBQKBNQ': ")
    assert errors[1].startswith(f"error: {tmp_path / 'sample.txt'}:102: not a chess960 "
                                "position: '960': ")
    assert "100 draws of chess960" in out  # the rest is still audited


def test_an_unreadable_file_is_one_error_line(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    missing = str(tmp_path / "missing.txt")
    assert audit_command(missing, "chess960", 0.01, "text", out=out, err=err) == 1
    assert err.getvalue() == f"error: cannot read {missing!r}: no such file or directory\n"
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"518\n\xe9\n")
    err = io.StringIO()
    assert audit_command(str(path), "chess960", 0.01, "text", out=out, err=err) == 1
    assert err.getvalue().count("\n") == 1 and "line 2 is not UTF-8" in err.getvalue()


def test_the_command_line(tmp_path: Path) -> None:
    from inprocess import chess960

    path = tmp_path / "draws.txt"
    path.write_text(lines(uniform(random.Random(8), 5000)))
    done = chess960(["audit", str(path), "--level", "0.001"])
    assert done.returncode == 0, done.stderr
    assert "at level 0.001" in done.stdout
    done = chess960(["audit", "-"], stdin=lines([518] * 20))
    assert done.returncode == 1 and "not uniform" in done.stdout
    for level in ("0", "1.5"):
        done = chess960(["audit", str(path), "--level", level])
        assert done.returncode == 2
        assert done.stderr.startswith("error: ") and "'--level'" in done.stderr
    done = chess960(["audit", str(path), "--format", "xml"])
    assert done.returncode == 2 and "'xml' is not one of text, json" in done.stderr


# -- the distributions -----------------------------------------------------------


def poisson_q(k: int, x: float) -> Decimal:
    """``Q(k, x)`` for a whole ``k`` by its definition's closed form:
    ``exp(-x) * sum(x**j / j! for j < k)`` (a Poisson tail), in 60 digits."""
    getcontext().prec = 60
    big = Decimal(repr(x))
    term, total = Decimal(1), Decimal(0)
    for j in range(k):
        total += term
        term = term * big / (j + 1)
    return (-big).exp() * total


def half_q(n: int, x: float) -> float:
    """``Q(n + 1/2, x)`` in closed form: ``erfc(sqrt(x)) + exp(-x) * sum(x**(j + 1/2)
    / Gamma(j + 3/2) for j < n)``."""
    getcontext().prec = 60
    big = Decimal(repr(x))
    term = big.sqrt() * 2 / Decimal(repr(math.sqrt(math.pi)))  # x^(1/2) / Gamma(3/2)
    total = Decimal(0)
    for j in range(n):
        total += term
        term = term * big / (Decimal(j) + Decimal("1.5"))
    return math.erfc(math.sqrt(x)) + float((-big).exp() * total)


@settings(max_examples=examples(30, 1000))
@given(st.integers(1, 1000), st.floats(0.01, 3000))
def test_gamma_q_against_the_poisson_sum(k: int, x: float) -> None:
    expected = float(poisson_q(k, x))
    assert gamma_q(k, x) == pytest.approx(expected, rel=1e-9, abs=1e-300)


@settings(max_examples=examples(30, 1000))
@given(st.integers(0, 1000), st.floats(0.01, 3000))
def test_gamma_q_at_half_integers(n: int, x: float) -> None:
    assert gamma_q(n + 0.5, x) == pytest.approx(half_q(n, x), rel=1e-8, abs=1e-290)


@pytest.mark.parametrize("x", [850.0, 900.0, 959.0, 1000.0, 1050.5, 1061.0, 1100.0])
def test_chi2_with_959_degrees_of_freedom(x: float) -> None:
    assert chi2_sf(x, 959) == pytest.approx(half_q(479, x / 2), rel=1e-9)


#: Published chi-square table values: (degrees of freedom, x, upper tail).
#: NIST/SEMATECH e-Handbook, table 1.3.6.7.4 (df 1 to 100); df 1000 from the
#: usual extended tables (e.g. Abramowitz and Stegun, 26.4).
TABLE = [(1, 3.841, 0.05), (1, 6.635, 0.01), (10, 18.307, 0.05), (10, 23.209, 0.01),
         (100, 124.342, 0.05), (100, 135.807, 0.01), (100, 77.929, 0.95),
         (1000, 1074.679, 0.05), (1000, 1106.969, 0.01), (1000, 927.594, 0.95),
         (1000, 898.912, 0.99)]


@pytest.mark.parametrize(("df", "x", "tail"), TABLE)
def test_chi2_against_published_tables(df: int, x: float, tail: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(tail, rel=2e-3)
    assert chi2_isf(tail, df) == pytest.approx(x, abs=2e-3)


@pytest.mark.parametrize("df", [1, 7, 100, 959, 921599])
@pytest.mark.parametrize("p", [0.9, 0.05, 0.01, 1e-6])
def test_chi2_against_scipy(df: int, p: float) -> None:
    stats = pytest.importorskip("scipy.stats", reason="scipy is not installed")
    x = chi2_isf(p, df)
    assert x == pytest.approx(stats.chi2.isf(p, df), rel=1e-8)
    assert chi2_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-8)


@settings(max_examples=examples(30, 1000))
@given(st.integers(1, 120), st.data())
def test_binom_sf_against_its_definition(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(-1, n + 1))
    p = data.draw(st.sampled_from([Fraction(1, 960), Fraction(1, 2), Fraction(3, 7),
                                   Fraction(99, 100)]))
    exact = sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(max(k, 0), n + 1))
    assert binom_sf(k, n, float(p)) == pytest.approx(float(exact), rel=1e-9, abs=1e-15)


def poisson_mixture_sf(x: float, df: int, nc: float) -> float:
    """The noncentral chi-square's upper tail by its definition: a Poisson
    (mean ``nc / 2``) mixture of central chi-square tails of ``df + 2j``
    degrees of freedom."""
    half = nc / 2
    if not half:
        return chi2_sf(x, df)
    total = 0.0
    for j in range(int(half + 40 * math.sqrt(half + 1)) + 40):
        weight = math.exp(-half + j * math.log(half) - math.lgamma(j + 1))
        total += weight * chi2_sf(x, df + 2 * j)
    return total


@pytest.mark.parametrize(("df", "nc"), [(959, 0.0), (959, 50.0), (959, 170.0), (199, 30.0),
                                        (4, 10.0)])
def test_the_noncentral_chi_square_is_its_poisson_mixture(df: int, nc: float) -> None:
    from solver.draws.stats import ncx2_sf

    for tail in (0.05, 0.01):
        x = chi2_isf(tail, df)
        assert ncx2_sf(x, df, nc) == pytest.approx(poisson_mixture_sf(x, df, nc), rel=1e-9)
    # and close to Patnaik's approximation (a scaled central chi-square)
    c, f = (df + 2 * nc) / (df + nc), (df + nc) ** 2 / (df + 2 * nc)
    x = chi2_isf(0.01, df)
    assert ncx2_sf(x, df, nc) == pytest.approx(chi2_sf(x / c, f), abs=0.02)
