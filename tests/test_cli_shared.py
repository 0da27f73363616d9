"""The pieces the commands share: one translation of a library error into the
``error:`` line and exit code (:func:`solver.cli.errors.reported`), one reader
of a bounded regular file (:func:`solver.files.read_text`), and one progress
bar for a person watching (:class:`solver.cli.progress.Watched`)."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import TextIO

import pytest

from solver.cli.errors import FAILED, INTERRUPTED, reported
from solver.cli.progress import ReadProgress
from solver.errors import SeedError
from solver.files import read_text


@reported
def _command(what: str, *, out: TextIO, err: TextIO) -> int:
    out.write("partial\n")
    if what == "library":
        raise SeedError("")
    if what == "interrupt":
        raise KeyboardInterrupt
    if what == "bug":
        raise RuntimeError("a bug")
    return 0


@pytest.mark.parametrize(("what", "code", "said"), [
    ("library", FAILED, "error: seed '' is empty: give a phrase or an integer\n"),
    ("interrupt", INTERRUPTED, "\n"),
    ("fine", 0, ""),
])
def test_a_command_reports_a_library_error_or_ctrl_c_once(what: str, code: int,
                                                          said: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert _command(what, out=out, err=err) == code
    assert (out.getvalue(), err.getvalue()) == ("partial\n", said)


def test_any_other_exception_is_not_worded_as_the_users() -> None:
    with pytest.raises(RuntimeError, match="a bug"):
        _command("bug", out=io.StringIO(), err=io.StringIO())
    assert _command.__name__ == "_command"  # the command's own name, for help and tracebacks


def _read(path: Path | str, limit: int = 10) -> str:
    return read_text(str(path), limit, lambda reason: ValueError(f"{path}: {reason}"))


def test_read_text_reads_a_small_utf8_file_and_refuses_anything_else(tmp_path: Path) -> None:
    (tmp_path / "ok").write_text("é 518\n", encoding="utf-8")
    assert _read(tmp_path / "ok") == "é 518\n"
    (tmp_path / "big").write_bytes(b"x" * 11)
    assert _read(tmp_path / "big", 11) == "x" * 11
    (tmp_path / "bad").write_bytes(b"ab\xff")
    os.mkfifo(tmp_path / "fifo")  # refused at once, not waited on
    for name, reason in [("big", "larger than 10 bytes"), ("bad", "not UTF-8 text (byte 2)"),
                         ("fifo", "not a regular file"), (".", "not a regular file"),
                         ("missing", "no such file or directory")]:
        with pytest.raises(ValueError) as caught:
            _read(tmp_path / name)
        assert str(caught.value) == f"{tmp_path / name}: {reason}"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream", [io.StringIO(), _Terminal()])
def test_progress_shows_only_to_a_person_after_the_delay(stream: io.StringIO,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHESS960_PROGRESS_DELAY", "0")
    progress = ReadProgress(stream, "stats")
    progress(3_000_000)
    time.sleep(0.11)
    progress(2_000_000)
    progress.close()
    shown = stream.getvalue()
    assert ("stats: 5 MB read" in shown) == isinstance(stream, _Terminal), shown
    monkeypatch.setenv("CHESS960_PROGRESS_DELAY", "60")
    later = _Terminal()
    waiting = ReadProgress(later, "stats")
    waiting(1_000_000)
    waiting.close()
    assert later.getvalue() == ""  # silent for the first DELAY seconds


def test_the_book_bar_counts_positions_and_stays_off_a_terminal_book(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHESS960_PROGRESS_DELAY", "0")
    from solver.cli.progress import CountProgress

    shown, quiet = _Terminal(), _Terminal()
    with CountProgress(shown, "book") as progress:
        progress(60, 100)
    with CountProgress(quiet, "book", _Terminal()) as progress:  # the book itself on the screen
        progress(60, 100)
    assert "60/100" in shown.getvalue() and quiet.getvalue() == ""
