"""The documentation's pictures are the tool's own: the README's board is what
``chess960 show 105 --svg docs/_static/chess960-105.svg`` writes today, byte
for byte, and the report's screenshot is a small PNG the how-to page shows.

When the board's drawing changes on purpose, write the picture again with
that command (from the repository's root) and commit it.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import docs_text
import pytest

from solver.cli.entry import dispatch

STATIC = docs_text.DOCS / "_static"
BOARD = STATIC / "chess960-105.svg"
SCREENSHOT = STATIC / "report-chess960.png"
#: The command that draws the README's board (run from the repository's root).
COMMAND = ["show", "105", "--svg", "docs/_static/chess960-105.svg"]


def test_the_readme_board_is_what_show_draws_today(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shown = docs_text.page(BOARD)
    readme = docs_text.page(docs_text.ROOT / "README.md")
    assert f"]({BOARD.relative_to(docs_text.ROOT)})" in readme
    (tmp_path / "docs" / "_static").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert dispatch(COMMAND) == 0
    drawn = (tmp_path / COMMAND[-1]).read_text(encoding="utf-8")
    assert drawn == shown, ("the README's board differs from what `chess960 "
                            f"{' '.join(COMMAND)}` draws: run it and commit the picture")
    assert "<title>chess960 position 105: QNRBBNKR</title>" in drawn


def test_the_report_screenshot_is_a_small_png_the_pages_show() -> None:
    text = docs_text.page(docs_text.DOCS / "how-to" / "boards-and-pages.md")
    assert "](../_static/report-chess960.png)" in text
    data = SCREENSHOT.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 150_000
