"""Pages and pictures: the report's facts against brute force, the pages' HTML
read as a parser reads it (nothing fetched from the network, no script), shogi
on a shogi board, every piece a shape, and ``plan --svg-dir``'s folder made.

Rendering the pages in a browser is ``test_pages_browser.py`` (slow).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from itertools import permutations
from math import factorial
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli.app import app
from solver.family import Family
from solver.output.diagram import board_svg
from solver.output.html import plan_page, report_page
from solver.output.pieces import shape
from solver.report import family_report, listed_squares, mirrors, piece_squares, squares_text
from solver.ruleset.reader import bundled_names, load

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"
NETWORK = re.compile(r"^\s*(https?:)?//", re.IGNORECASE)
URL = re.compile(r"url\(\s*['\"]?\s*(https?:)?//", re.IGNORECASE)


class _Links(HTMLParser):
    """Every address an HTML page would load or follow, and its tags."""

    def __init__(self) -> None:
        super().__init__()
        self.addresses: list[str] = []
        self.tags: Counter[str] = Counter()
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1
        self._in_style = tag == "style"
        for name, value in attrs:
            if name in ("src", "href", "xlink:href", "srcset", "action", "poster", "data"):
                self.addresses.append(value or "")
            if name == "style":
                self.styles.append(value or "")

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False


def network_references(html: str) -> list[str]:
    """The page's references to the network: src/href addresses and CSS url()s."""
    links = _Links()
    links.feed(html)
    found = [a for a in links.addresses if NETWORK.match(a)]
    found += [s for s in links.styles if URL.search(s) or "@import" in s]
    return found


def brute_ranks(family: Family) -> list[str]:
    """Every arrangement of the family's pieces that breaks none of its rules
    (the rules' explanations, not the counting trackers)."""
    pieces = family.ruleset.pieces
    return sorted(r for r in {"".join(p) for p in permutations(pieces)}
                  if not family.violations(r))


# -- the facts -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["chess960", "racing-kings"])
def test_piece_squares_counted_equal_brute_force(name: str) -> None:
    family = Family.load(name)
    ranks = brute_ranks(family)
    counted = piece_squares(family)
    assert counted.method == "counted" and counted.total == len(ranks) == family.side_count
    expected = {x: [sum(r[i] == x for r in ranks) for i in range(len(ranks[0]))]
                for x in sorted(set(family.ruleset.pieces))}
    assert counted.cells == expected
    assert listed_squares(family, ranks).cells == expected


def test_piece_squares_known_figures() -> None:
    # Chess960: the king stands between the rooks, so never on a or h; a
    # bishop pair stands on each file in 1/4 of the ranks (one of 4 squares of a colour).
    heat = piece_squares(Family.load("chess960"))
    assert heat.cells["K"][0] == heat.cells["K"][7] == 0
    assert heat.cells["B"] == [240] * 8
    # Shogi shuffle: no rule, so every piece is equally likely on every square.
    shogi = piece_squares(Family.load("shogi-shuffle"))
    assert shogi.total == factorial(9) // 2 ** 4
    assert shogi.cells["K"] == [shogi.total // 9] * 9
    assert shogi.squares[0] == "9i" and shogi.squares[-1] == "1i"


def test_mirrors_against_arithmetic() -> None:
    chess960 = Family.load("chess960")
    found = mirrors(chess960, chess960.side_table())
    assert (len(found.pairs), len(found.symmetric), found.outside) == (480, 0, 0)
    assert ("RNBQKBNR", "RNBKQBNR") in found.pairs or ("RNBKQBNR", "RNBQKBNR") in found.pairs
    shogi = Family.load("shogi-shuffle")
    found = mirrors(shogi, shogi.side_table())
    # symmetric: the king in the middle, each half one of the 4! orders of L N S G
    assert len(found.symmetric) == factorial(4)
    assert len(found.pairs) == (shogi.side_count - factorial(4)) // 2
    # Chess480 keeps one rank of each mirror pair: no mirror is in the family
    chess480 = Family.load("chess480")
    found = mirrors(chess480, chess480.side_table())
    assert (len(found.pairs), found.outside) == (0, 480)


def test_every_rule_of_every_bundled_family_in_words() -> None:
    for name in bundled_names():
        rs = load(name)
        for rule in rs.rules:
            words = rule.words(dict(rs.names))
            assert words.endswith(".") and words[0].isupper(), (name, rule.label, words)
            assert rule.label not in words


def test_set_up_read_left_to_right() -> None:
    dfrc = Family.load("dfrc")
    pair = dfrc.read("RNBQKBNR qnrbbnkr")
    assert squares_text(dfrc, pair) == [("a1-h1", "R N B Q K B N R"),
                                        ("a8-h8", "q n r b b n k r")]
    shogi = Family.load("shogi-shuffle")
    assert squares_text(shogi, shogi.identify("LNSGKGSNL")) == [("9i-1i", "L N S G K G S N L")]


# -- the pictures ------------------------------------------------------------------------


def test_every_piece_of_every_bundled_family_is_a_shape() -> None:
    for name in bundled_names():
        rs = load(name)
        shogi = rs.notation == "sfen"
        letters = {*rs.pieces, *(f.piece for f in rs.front), "P"} - {"."}  # "." is empty
        if rs.army is not None:  # an army that varies: its pool's letters, not the frame's mark
            letters = (letters - {rs.army.placeholder}) | set(rs.army.pool)
        for letter in letters:
            for white in (True, False):
                drawn = "".join(shape(letter, white, shogi))
                assert "<path" in drawn, (name, letter)
                assert "<text" not in drawn and "<circle" not in drawn, (name, letter)


def test_shogi_is_drawn_on_a_shogi_board() -> None:
    shogi = Family.load("shogi-shuffle")
    root = ET.fromstring(board_svg(shogi, shogi.identify("LNSGKGSNL")).encode())
    groups = {g.get("class"): g for g in root.iter(f"{SVG}g")}
    coordinates = [t.text for t in groups["coordinates"].iter(f"{SVG}text")]
    assert coordinates == [*"987654321", *"abcdefghi"]
    tones = {r.get("class") for r in groups["board"].iter(f"{SVG}rect")}
    assert tones == {"square plain"}
    assert len(groups["board"].findall(f"{SVG}circle")) == 4  # the star points
    pieces = [g for g in root.iter(f"{SVG}g") if "piece" in g.get("class", "").split()]
    assert len(pieces) == 40
    assert all(p.find(f".//{SVG}text") is None for p in pieces)


def test_shogi_terminal_board_has_shogi_coordinates() -> None:
    from solver.output.diagram import board_text

    shogi = Family.load("shogi-shuffle")
    lines = board_text(shogi, shogi.identify("LNSGKGSNL"), letters=True,
                       coloured=False).plain.splitlines()
    assert lines[0] == "   9  8  7  6  5  4  3  2  1"
    assert lines[1] == "   l  n  s  g  k  g  s  n  l  a"
    assert lines[8] == "   ·  B  ·  ·  ·  ·  ·  R  ·  h"
    assert lines[9] == "   L  N  S  G  K  G  S  N  L  i"
    assert lines[10].startswith("shogi-shuffle position ")


# -- the pages -----------------------------------------------------------------------------


def test_report_page_is_self_contained() -> None:
    report = family_report(Family.load("chess99-random"))
    html = report_page(report)
    assert network_references(html) == []
    links = _Links()
    links.feed(html)
    for tag in ("script", "link", "img", "iframe", "object", "embed"):
        assert links.tags[tag] == 0, tag
    # the sections a reader looks for
    for heading in ("The rules in words", "Count and proof", "Where the pieces stand",
                    "Mirror pairs and symmetric ranks", "Evaluations", "Example boards"):
        assert f"<h2>{heading}</h2>" in html
    assert "The king stands between the two rooks." in html
    assert html.count("<figure>") == len(report.examples) == 4
    assert "216 positions" in html and "proven" in html
    # the source is shown, as text only
    assert "https://www.chess99.net/random-variations" in html


def test_network_references_are_found() -> None:
    bad = ['<img src="https://x.org/a.png">', '<a href="//cdn.example/x">',
           "<style>body { background: url('http://x/y.png') }</style>",
           '<div style="background: url(https://x/y)"></div>']
    for html in bad:
        assert network_references(html), html
    assert network_references('<a href="#top">top</a><p>https://text.only</p>') == []


def test_plan_page_one_board_a_round() -> None:
    chess960 = Family.load("chess960")
    drawn = [chess960.position(n) for n in (518, 105)]
    html = plan_page(chess960, drawn, fens=["fen-a", "fen-b"], details=[("seed", "x")])
    assert html.count('<section class="round">') == 2
    assert "<h2>Round 1</h2>" in html and "<h2>Round 2</h2>" in html
    assert "R N B Q K B N R" in html and "Q N R B B N K R" in html
    assert "fen-a" in html and "fen-b" in html and "<dd>105</dd>" in html
    assert network_references(html) == []


def test_cli_report_and_plan_html(tmp_path: Path) -> None:
    target = tmp_path / "r.html"
    result = runner.invoke(app, ["report", "--rules", "racing-kings", "--no-check",
                                 "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert "Racing Kings" in target.read_text(encoding="utf-8")
    page = tmp_path / "plan.html"
    result = runner.invoke(app, ["plan", "--rounds", "3", "--seed", "x", "--rules",
                                 "shogi-shuffle", "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("| round | id |")  # the table is still printed
    assert page.read_text(encoding="utf-8").count('<section class="round">') == 3
    # to stdout instead of the table, the boards' SVGs still written
    result = runner.invoke(app, ["plan", "--rounds", "2", "--seed", "x", "--html", "-",
                                 "--svg-dir", str(tmp_path / "svg")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("<!DOCTYPE html>") and "| round |" not in result.output
    assert len(list((tmp_path / "svg").iterdir())) == 2


def test_cli_report_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", "--rules", "no-such-family", "-o",
                                 str(tmp_path / "x.html")])
    assert result.exit_code == 1 and "error:" in result.output
    missing = tmp_path / "no" / "dir" / "x.html"
    result = runner.invoke(app, ["report", "--no-check", "-o", str(missing)])
    assert result.exit_code == 1
    assert result.output.startswith("error: cannot write") and "Traceback" not in result.output
    assert not missing.parent.exists()


def test_plan_svg_dir_is_made_and_the_table_printed(tmp_path: Path) -> None:
    folder = tmp_path / "boards" / "2026"
    result = runner.invoke(app, ["plan", "--rounds", "2", "--seed", "x", "--svg-dir",
                                 str(folder)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["round-1.svg", "round-2.svg"]
    assert result.output.count("\n") == 4 and "round-2.svg" in result.output
    blocked = tmp_path / "file"
    blocked.write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["plan", "--rounds", "2", "--svg-dir", str(blocked)])
    assert result.exit_code == 1
    assert result.output.startswith("error: cannot write") and "not a folder" in result.output


def test_horde_words_name_black_as_the_shuffled_side() -> None:
    from solver.report import board_words

    words = board_words(Family.load("horde960"))
    assert words[0].endswith("Black's shuffled pieces fill rank 8 (a8-h8).")
    assert "White stands on fixed squares: 36 pawns." in words


@pytest.mark.slow
@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_family_has_a_page(name: str) -> None:
    family = Family.load(name)
    report = family_report(family, prove=False)
    html = report_page(report)
    assert network_references(html) == []
    if report.heatmap is not None:  # every rank puts each piece somewhere
        for letter, row in report.heatmap.cells.items():
            assert sum(row) == report.heatmap.total * family.ruleset.pieces.count(letter)
    if report.mirrors is not None:
        m = report.mirrors
        assert 2 * len(m.pairs) + len(m.symmetric) + m.outside == m.total == family.side_count


def test_a_piece_without_a_shape_is_its_letter_on_a_disc() -> None:
    drawn = "".join(shape("X", False))  # a rule file's own piece: a disc, the letter in strokes
    assert "<circle" in drawn and "<path" in drawn and "<text" not in drawn
    assert "<text" in "".join(shape("Ж", True))  # a letter with no strokes: text, the last resort
    assert "<text" in "".join(shape("Ж", True, shogi=True))


def test_evaluation_rows_are_a_table() -> None:
    from solver.output.html import _evaluations

    assert "No engine evaluations" in "".join(_evaluations(None))
    table = "".join(_evaluations([{"id": "518", "source": "a <b>", "eval": "+0.3"}]))
    assert "<th>source</th>" in table and "<td>a &lt;b&gt;</td>" in table


def test_too_many_states_falls_back_to_the_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.report

    chess960 = Family.load("chess960")
    counted = piece_squares(chess960)
    monkeypatch.setattr(solver.report, "STATE_LIMIT", 10)
    listed = family_report(chess960, prove=False)
    assert listed.heatmap is not None and listed.heatmap.method == "listed"
    assert listed.heatmap.cells == counted.cells
    assert listed.heatmap_note.startswith("Counted over the listing of all 960 ranks")
    monkeypatch.setattr(solver.report, "LIST_LIMIT", 100)
    neither = family_report(chess960, prove=False)
    assert neither.heatmap is None and neither.mirrors is None
    assert neither.heatmap_note.startswith("Not computed")
    assert "more than the 100 a report lists" in neither.mirrors_note
    assert "Not computed" in report_page(neither)
