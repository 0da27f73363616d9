"""Ranges ``A-B`` in ``--exclude`` (issue 39, item 2): golden sets from Python's range."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.draws.presets import read_exclusions
from solver.errors import IdError
from solver.numbering.scharnagl import scharnagl_id


def _parse(text: str) -> int:
    value = int(text)
    if not 0 <= value < 960:
        raise IdError(text, f"chess960 id {value} is out of range 0..959")
    return value


@given(st.integers(0, 959), st.integers(0, 959), st.integers(0, 959))
def test_range_is_both_ends_included(a: int, b: int, single: int) -> None:
    low, high = min(a, b), max(a, b)
    found = read_exclusions("chess960", [f"{low}-{high},{single}"], _parse, scharnagl_id)
    assert set(found.ids) == set(range(low, high + 1)) | {single}


@given(st.integers(0, 958), st.integers(1, 959))
def test_reversed_range_refused(low: int, step: int) -> None:
    high = low + step
    if high > 959:
        return
    with pytest.raises(IdError, match="reversed"):
        read_exclusions("chess960", [f"{high}-{low}"], _parse, scharnagl_id)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solver", *args],
                          capture_output=True, text=True, check=False)


def test_cli_exclude_range_leaves_the_rest() -> None:
    done = _run("random", "--exclude", "0-949", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[0]) in range(950, 960)


@pytest.mark.parametrize(("text", "message"), [
    ("9-3", "error: range '9-3' is reversed: 9 > 3\n"),
    ("0-960", "error: chess960 id 960 is out of range 0..959\n"),
])
def test_cli_exclude_bad_range(text: str, message: str) -> None:
    done = _run("random", "--exclude", text, "--seed", "1")
    assert done.returncode != 0
    assert done.stderr == message
