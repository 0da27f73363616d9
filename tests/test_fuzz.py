"""Fuzzing every reader the library has: each input is read or refused cleanly.

For rule-file text (bundled files, mutated: characters flipped, brackets, dots,
quotes, digits and control characters inserted, cut short, parts repeated),
ranks, ids, positions (ranks, pairs, FEN-like text) and start FENs, every case
must either succeed or raise a :class:`~solver.errors.Chess960Error`, never
another exception, within a per-case time budget (CPU seconds of this
process, so that a loaded machine does not fail a case: 1 s, ten times that
for a case whose allocations tracemalloc traces) and memory budget
(tracemalloc peak; one rule file in eight, every other input).

``HYPOTHESIS_PROFILE=ci`` runs 20,000 inputs per reader and 5,000 mutated rule
files; otherwise a few hundred, to keep the default suite fast.
"""

from __future__ import annotations

import os
import time
import tracemalloc
import zlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import Chess960Error, Family
from solver.notation.fen import read_start
from solver.notation.ranks import parse_id, parse_rank
from solver.ruleset.reader import bundled_names, parse, rules_dir
from solver.search.solve import build_model

CI = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
READER_CASES = 2_000 if CI else 50  # CI: 20,000 took 25 min of one worker in all
RULE_FILE_CASES = 1_000 if CI else 50
MEMORY_BUDGET = 50 * 1024 * 1024  # bytes allocated at peak by one case


TIME_BUDGET = 1.0  # CPU seconds for one case
TRACING_SLOWDOWN = 10  # tracemalloc slows a case down about this much


def budget(cases: int) -> settings:
    """``cases`` examples; each case checks its own budgets (:func:`within_budget`)."""
    return settings(max_examples=cases, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def within_budget(read: Callable[[], Any], traced: bool = True) -> None:
    """Run ``read``: it may succeed or raise a Chess960Error, within the budgets.

    Time is this process's CPU time (a loaded machine slows the wall clock,
    not this). ``traced`` also measures the case's peak allocation with
    tracemalloc, which slows a case down about tenfold.
    """
    if traced:
        tracemalloc.start()
    started = time.process_time()
    try:
        read()
    except Chess960Error as exc:
        assert "\n" not in str(exc)
    finally:
        used = time.process_time() - started
        if traced:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    allowed = TIME_BUDGET * (TRACING_SLOWDOWN if traced else 1)
    assert used < allowed, f"{used:.2f} s of CPU (budget {allowed:.0f} s)"
    if traced:
        assert peak < MEMORY_BUDGET, f"peak allocation {peak:,} bytes"


# -- rule files ------------------------------------------------------------------

TEXTS = [(rules_dir() / f"{name}.toml").read_text() for name in bundled_names()]
INSERTS = st.one_of(
    st.sampled_from(["[", "]", "[[", "]]", "{", "}", ".", '"', "'", '"""', "'''", "=", ",",
                     "#", "\n", "\\", "[[rule]]\n", 'kind = "between"\n', "\x00", "\x1b",
                     "\x85", "\x7f", "\r", "\t", "\ufeff", "-", "_", "+", "inf", "true"]),
    st.text(alphabet="0123456789", min_size=1, max_size=60),
    st.integers(1, 400).map(lambda n: "x" + ".x" * n),
    st.integers(1, 200).map(lambda n: "[" * n),
    st.integers(1, 2000).map(lambda n: "9" * n),
    st.text(max_size=20),
)


@st.composite
def mutated_rule_files(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(TEXTS))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["flip", "insert", "cut", "repeat", "delete"]))
        if how == "flip" and at < len(text):
            text = text[:at] + draw(st.characters()) + text[at + 1:]
        elif how == "insert":
            text = text[:at] + draw(INSERTS) + text[at:]
        elif how == "cut":
            text = text[:at]
        elif how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        else:
            end = draw(st.integers(at, min(len(text), at + 200)))
            text = text[:at] + text[at:end] * draw(st.integers(1, 400)) + text[at:]
    return text


def read_rule_file(text: str) -> None:
    ruleset = parse(text, "fuzz.toml")
    build_model(ruleset).search_size()


@budget(RULE_FILE_CASES)
@given(text=mutated_rule_files())
def test_mutated_rule_files(text: str) -> None:
    # one file in eight is traced: tracemalloc makes reading the 12-file numbering
    # ten times slower, past the time budget; the limits bound the memory of all
    traced = zlib.crc32(text.encode("utf-8", "surrogatepass")) % 8 == 0  # lone surrogates too
    within_budget(lambda: read_rule_file(text), traced=traced)


# -- ranks and ids ---------------------------------------------------------------

RANKISH = st.text(alphabet=st.one_of(st.sampled_from("KQRBNACkqrbnac ♔♕♖♗♘♚♛♜♝♞/:-0123456789"),
                                     st.characters()), max_size=40)


@budget(READER_CASES)
@given(text=RANKISH, files=st.none() | st.integers(4, 12))
def test_parse_rank(text: str, files: int | None) -> None:
    within_budget(lambda: parse_rank(text, files))


IDS = st.one_of(
    st.text(alphabet=st.sampled_from("0123456789+- \t\n_xe.٣１"), max_size=60),
    st.integers(-10**50, 10**50).map(str),
    st.tuples(st.integers(0, 6000), st.integers(0, 10**6)).map(lambda t: "0" * t[0] + str(t[1])),
    st.integers(1, 6000).map(lambda n: "9" * n),
    st.text(max_size=20),
)


@budget(READER_CASES)
@given(text=IDS, count=st.sampled_from([1, 960, 921600, 14968800**2]))
def test_parse_id(text: str, count: int) -> None:
    within_budget(lambda: parse_id(text, count))


# -- positions and FENs ------------------------------------------------------------

FAMILIES = {name: Family.load(name) for name in ("chess960", "dfrc", "capablanca-random")}
for _family in FAMILIES.values():
    _position = _family.position(0)  # solve and index once, outside the budget
    _family.identify(_position.white + (_position.black.lower() if _family.independent else ""))

RANK_LETTERS = st.text(alphabet=st.sampled_from("KQRBNACkqrbnac"), min_size=6, max_size=12)
CASTLING = st.sampled_from(["KQkq", "HAha", "-", "K", "AHah", "KQkqX", "", "HChc", "qkQK"])
COUNTER = st.one_of(st.sampled_from(["0", "1", "-1", "01", "x", ""]),
                    st.integers(0, 10**30).map(str))


@st.composite
def fen_like(draw: st.DrawFn) -> str:
    white = draw(RANK_LETTERS).upper()
    black = draw(st.sampled_from([white.lower(), draw(RANK_LETTERS).lower()]))
    files = len(white)
    pawns = draw(st.sampled_from(["p" * files, "p" * (files - 1), str(files), "P" * files]))
    empty = draw(st.sampled_from([str(files), "8", "10", "4" + "4", "1" * 4, "9", "44",
                                  "1" * files, "1" * 12]))
    rows = [black, pawns, empty, empty, empty, empty, pawns.upper(), white]
    if draw(st.booleans()):
        rows = draw(st.lists(st.sampled_from(rows), max_size=10))
    fields = ["/".join(rows), draw(st.sampled_from(["w", "b", "W", "x"])), draw(CASTLING),
              draw(st.sampled_from(["-", "e3", "z9", "e6"])), draw(COUNTER), draw(COUNTER)]
    fields = fields[: draw(st.integers(0, 7))] + draw(st.lists(st.text(max_size=5), max_size=2))
    return draw(st.sampled_from([" ", "  ", "\t"])).join(fields)


POSITIONS = st.one_of(
    RANK_LETTERS,
    st.tuples(RANK_LETTERS, st.sampled_from([" ", "/", ":", ""]), RANK_LETTERS).map("".join),
    fen_like(),
    RANKISH,
)


@budget(READER_CASES)
@given(name=st.sampled_from(sorted(FAMILIES)), text=POSITIONS)
def test_identify(name: str, text: str) -> None:
    within_budget(lambda: FAMILIES[name].identify(text))


@budget(READER_CASES)
@given(text=st.one_of(fen_like(), st.text(max_size=80)), files=st.integers(4, 12))
def test_read_start(text: str, files: int) -> None:
    within_budget(lambda: read_start(text, files))


def test_read_start_with_a_counter_of_5000_digits() -> None:
    with pytest.raises(Chess960Error):
        read_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 " + "1" * 5000)


def test_read_start_with_a_run_of_digits_in_a_row() -> None:
    with pytest.raises(Chess960Error):
        read_start("rnbqkbnr/pppppppp/11111111111/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
