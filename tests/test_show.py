"""Board diagrams: the terminal board and the SVG (one square per board square)."""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from typer.testing import CliRunner

from solver.cli import commands
from solver.cli.app import app
from solver.errors import OutputFileError
from solver.family import Family
from solver.files import write_atomic
from solver.numbering.scharnagl import scharnagl_rank
from solver.output.diagram import board_svg, board_text, write_svg
from solver.ruleset.bundled import bundled_path

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"
FILES = "abcdefghij"


def squares_of(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg.encode())
    assert root.tag == f"{SVG}svg"
    return [e for e in root.iter(f"{SVG}rect") if "square" in e.get("class", "").split()]


def expected_colour(name: str) -> str:
    """a1 is dark; colours alternate along files and ranks."""
    file, rank = FILES.index(name[0]), int(name[1:])
    return "dark" if (file + rank) % 2 == 1 else "light"


@pytest.mark.parametrize(("family", "number", "files"), [
    ("chess960", 518, 8), ("dfrc", 101318, 8), ("capablanca-random", 0, 10),
])
def test_svg_one_square_per_board_square(family: str, number: int, files: int) -> None:
    fam = Family.load(family)
    svg = board_svg(fam, fam.position(number))
    found = squares_of(svg)
    assert len(found) == files * 8
    names = [e.get("data-square", "") for e in found]
    assert sorted(names) == sorted(f"{f}{r}" for f in FILES[:files] for r in range(1, 9))
    for element, name in zip(found, names, strict=True):
        assert expected_colour(name) in element.get("class", "").split()
    root = ET.fromstring(svg.encode())
    pieces = [g for g in root.iter(f"{SVG}g") if "piece" in g.get("class", "").split()]
    assert len(pieces) == 4 * files
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert 400 <= width <= 1000 and 400 <= height <= 1000


def test_svg_draws_every_piece_as_paths_not_glyphs() -> None:
    """Archbishop and chancellor are compound shapes (a mitre or a tower beside a
    knight's head), and no piece of any kind is a font glyph, a letter or a disc."""
    crc = Family.load("capablanca-random")
    svg = board_svg(crc, crc.identify("RNBQCKABNR"))
    root = ET.fromstring(svg.encode())
    pieces = [g for g in root.iter(f"{SVG}g") if "piece" in g.get("class", "").split()]
    assert len(pieces) == 40
    for group in pieces:
        assert group.find(f".//{SVG}path") is not None
        assert group.find(f".//{SVG}text") is None and group.find(f".//{SVG}circle") is None
    rare = [g for g in pieces if {"archbishop", "chancellor"} & set(g.get("class", "").split())]
    assert len(rare) == 4
    for group in rare:  # two shapes on one base: a nested group for each
        assert len(group.findall(f"{SVG}g/{SVG}g")) == 2
    for glyph in "\u2654\u265a\u2658\U0001fa50\U0001fa4f\U0001fa53\U0001fa52":
        assert glyph not in svg


def test_svg_caption_names_family_number_and_fen() -> None:
    crc = Family.load("capablanca-random")
    svg = board_svg(crc, crc.identify("RNBQCKABNR"))
    root = ET.fromstring(svg.encode())
    caption = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "caption")
    lines = [t.text for t in caption.iter(f"{SVG}text")]
    assert lines == ["capablanca-random position 26058: RNBQCKABNR",
                     "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"]


def test_terminal_board_plain() -> None:
    crc = Family.load("capablanca-random")
    text = board_text(crc, crc.identify("RNBQCKABNR"), letters=True, coloured=False).plain
    lines = text.splitlines()
    assert lines[0] == "   a  b  c  d  e  f  g  h  i  j"
    assert lines[1] == "8  r  n  b  q  c  k  a  b  n  r  8"
    assert lines[3] == "6     ·     ·     ·     ·     ·  6"
    assert lines[4] == "5  ·     ·     ·     ·     ·     5"
    assert lines[8] == "1  R  N  B  Q  C  K  A  B  N  R  1"
    assert lines[9] == lines[0]
    assert lines[11] == "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"


def test_terminal_board_glyphs_and_colours() -> None:
    chess960 = Family.load("chess960")
    text = board_text(chess960, chess960.position(518))
    lines = text.plain.splitlines()
    assert lines[1] == "8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜  8"
    assert lines[8] == "1  ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖  1"
    backgrounds = [str(span.style) for span in text.spans if " on " in str(span.style)]
    assert len(backgrounds) == 64
    a8, b8 = backgrounds[0], backgrounds[1]
    assert a8 != b8 and backgrounds[56] == b8  # a1 dark like b8; a8 light


def test_show_command(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    result = runner.invoke(app, ["show", "105", "--svg", str(target)])
    assert (result.exit_code, result.stderr) == (0, "")
    assert "chess960 position 105: QNRBBNKR" in result.stdout
    assert "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1" in result.stdout
    assert len(squares_of(target.read_text(encoding="utf-8"))) == 64
    assert os.listdir(tmp_path) == ["board.svg"]
    result = runner.invoke(app, ["show", "-r", "capablanca-random", "RNBQCKABNR", "-l"])
    assert "1  R  N  B  Q  C  K  A  B  N  R  1" in result.stdout
    result = runner.invoke(app, ["show", "BRBQKNNR"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: 'BRBQKNNR' is not a chess960 rank")


def test_svg_write_errors(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "board.svg"
    result = runner.invoke(app, ["show", "518", "--svg", str(missing)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(f"error: cannot write {str(missing)!r}: ")
    assert result.stderr.count("\n") == 1
    result = runner.invoke(app, ["show", "518", "--svg", str(tmp_path)])
    assert result.stderr == f"error: cannot write {str(tmp_path)!r}: it is a directory\n"


def test_atomic_write_keeps_old_file_on_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "board.svg"
    target.write_text("old", encoding="utf-8")

    def broken(src: str, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    chess960 = Family.load("chess960")
    with pytest.raises(OutputFileError) as info:
        write_svg(target, chess960, chess960.position(518))
    assert info.value.reason == "no space left on device"
    assert target.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["board.svg"]


def test_atomic_write_replaces(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    write_atomic(target, "one")
    write_atomic(target, "two")
    assert target.read_text(encoding="utf-8") == "two"
    assert os.listdir(tmp_path) == ["out.txt"]


def _show(rules: str, text: str, letters: bool, out: io.StringIO) -> str:
    err = io.StringIO()
    assert commands.show_command(rules, text, None, letters, stdin=None, out=out, err=err) == 0
    assert err.getvalue() == ""
    return out.getvalue()


@settings(max_examples=examples(40), deadline=None)
@given(number=st.integers(0, 959), letters=st.booleans(), by_rank=st.booleans())
def test_show_without_colour_draws_chess960_as_rich_does(
        number: int, letters: bool, by_rank: bool) -> None:
    """Output that takes no colour gets Chess960's board by arithmetic, without
    Rich: byte for byte what Rich draws from the family (the rule file given by
    its path, which always loads the family), for an ID and for a rank."""
    text = scharnagl_rank(number) if by_rank else str(number)
    assert commands._chess960_board("chess960", text, letters, io.StringIO()) is not None
    path = str(bundled_path("chess960"))
    assert _show("chess960", text, letters, io.StringIO()) == \
        _show(path, text, letters, io.StringIO())


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_or_forced_colour_is_left_to_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    assert commands._chess960_board("chess960", "518", False, _Terminal()) is None
    assert commands._chess960_board("chess960", "0518", False, io.StringIO()) is None
    assert commands._chess960_board("dfrc", "518", False, io.StringIO()) is None
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert commands._chess960_board("chess960", "518", False, ascii_out) is None
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        with monkeypatch.context() as patch:
            patch.setenv(name, "")
            assert commands._chess960_board("chess960", "518", False, io.StringIO()) is None
    # Rich decides what FORCE_COLOR means (Rich 12 ignores it, later ones colour):
    # the board is Rich's own drawing either way.
    path = str(bundled_path("chess960"))
    with monkeypatch.context() as patch:
        patch.setenv("FORCE_COLOR", "1")
        drawn = _show("chess960", "518", False, io.StringIO())
        assert drawn == _show(path, "518", False, io.StringIO())
    assert "RNBQKBNR" in drawn


def test_janggi_terminal_board_is_letters_on_uncoloured_points() -> None:
    """Janggi's pieces are not chess's: letters, not chess glyphs, and its board
    is not chequered (without colour every empty point shows a dot)."""
    janggi = Family.load("janggi")
    drawn = board_text(janggi, janggi.position(0), coloured=False).plain.splitlines()
    assert drawn[1] == "10  r  n  b  a  ·  a  n  b  r  10"
    assert drawn[5] == " 6  ·  ·  ·  ·  ·  ·  ·  ·  ·  6"
    assert drawn[10] == " 1  R  N  B  A  ·  A  N  B  R  1"
    assert not set("".join(drawn)) & set("♔♕♖♗♘♙♚♛♜♝♞♟\U0001fa50\U0001fa4f\U0001fa53\U0001fa52")
    styles = {str(span.style) for span in board_text(janggi, janggi.position(0)).spans}
    assert not any("#b58863" in s for s in styles)  # no dark square
