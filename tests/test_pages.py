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
from profiles import sample
from typer.testing import CliRunner

from solver.cli.app import app
from solver.family import Family
from solver.notation.fen import position_fen
from solver.output.diagram import board_svg
from solver.output.html import plan_page, report_page
from solver.output.pieces import shape
from solver.report import (
    examples,
    family_report,
    listed_squares,
    mirrors,
    piece_squares,
    squares_text,
)
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


#: Letters with no figure yet, drawn as the fallback (the letter on a disc):
#: Makruk's met (M; Fairy-Stockfish's and XBoard's letter, which Metamachy gives
#: its camel) and Metamachy's camel, elephant, prince and lion.
LETTERED_DISCS = {("makruk-shuffle", "M"), ("metamachy", "M"), ("metamachy", "E"),
                  ("metamachy", "I"), ("metamachy", "L")}


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
                if (name, letter) in LETTERED_DISCS:
                    assert "<circle" in drawn, (name, letter)
                    continue
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
        armies = family.ruleset.armies  # (armies of the sides' own: a rank each)
        for letter, row in report.heatmap.cells.items():
            assert sum(row) == (sum(a.pieces.count(letter) for a in armies) if armies else
                                report.heatmap.total * family.ruleset.pieces.count(letter))
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


# -- every family in its own words (issue 32) -----------------------------------------

#: The names a game gives pieces whose FEN letters mean other pieces in chess,
#: transcribed from pychess-variants' pages (pychess.org/variants/janggi and
#: /seirawan): Janggi's letters as Fairy-Stockfish writes them, and Seirawan's
#: hawk (H) and elephant (E) in hand.
OWN_WORDS = {
    "janggi": {"K": "general", "A": "guard", "R": "chariot", "N": "horse", "B": "elephant",
               "C": "cannon", "P": "soldier"},
    "seirawan960": {"H": "hawk", "E": "elephant"},
}
#: Chess's names of the built-in letters (rules/README.md's table).
CHESS_WORDS = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight",
               "A": "archbishop", "C": "chancellor", "P": "pawn", ".": "empty square"}
#: Conservative widths of a character as shares of the font size: wider than
#: DejaVu Sans Bold's widest capitals (about 0.78) and DejaVu Sans Mono's 0.602.
SANS_WIDTH, MONO_WIDTH = 0.8, 0.62


def rule_file(name: str) -> dict[str, object]:
    """The bundled rule file, read as TOML here (not by the code under test)."""
    import tomllib

    from solver.ruleset.bundled import bundled_path

    return tomllib.loads(Path(bundled_path(name)).read_text(encoding="utf-8"))


def expected_names(name: str) -> dict[str, str]:
    """Each letter's name as the rule file declares it ([[piece]]), else the
    game's own word, else chess's."""
    doc = rule_file(name)
    tables: list[dict[str, str]] = doc.get("piece", [])  # type: ignore[assignment]
    declared = {t["letter"].upper(): t["name"] for t in tables}
    own = OWN_WORDS.get(name, {})
    armies: list[dict[str, str]] = doc.get("army", [])  # type: ignore[assignment]
    pieces = "".join(t["pieces"] for t in armies) or str(doc["pieces"]).replace(" ", "")
    varying = re.fullmatch(r"(\w+)\+\d+of(\w+)", pieces)  # "K + 7 of NBRQ": K and the pool
    letters = set("".join(varying.groups()) if varying else pieces) | set(str(doc.get("hand", "")))
    fronts: list[dict[str, str]] = doc.get("front", [])  # type: ignore[assignment]
    letters |= {t["piece"].upper() for t in fronts}
    return {x: declared.get(x) or own.get(x) or CHESS_WORDS[x] for x in letters}


class _Text(HTMLParser):
    """A page's visible text (not its style), and its legend's letter-name pairs."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.legend: dict[str, str] = {}
        self._skip = 0
        self._in_legend = False
        self._span: list[str] = []
        self._svg = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "title", "desc"):
            self._skip += 1
        self._svg += tag == "svg"
        if tag == "div" and ("class", "legend") in attrs:
            self._in_legend = True
        if self._in_legend and tag == "span":
            self._span = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "title", "desc"):
            self._skip -= 1
        self._svg -= tag == "svg"
        if self._in_legend and tag == "span":
            letter, name = " ".join(self._span).split(None, 1)
            self.legend[letter] = name.strip()
        if tag == "div":
            self._in_legend = False

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self.parts.append(data)
        if self._in_legend and not self._svg and data.strip():
            self._span.append(data.strip())

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.parts).split())


def quick_report(family: Family) -> object:
    """The family's report, its heat map left out for the two big families and
    its mirrors always (they name no piece), to keep the test fast."""
    from solver.report import FamilyReport, board_words, examples

    rs = family.ruleset
    report = FamilyReport(family, board_words(family),
                    [(rule.label, rule.words(dict(rs.names))) for rule in rs.rules], [],
                    family.count, family.side_count, None,
                    piece_squares(family) if family.side_count <= 20_000 else None, "",
                    None, "", None, examples(family))
    return report


def caption_overflows(svg: str) -> list[str]:
    """The caption's and hand's texts that may run past the SVG's viewBox, each
    character taken as wide as the widest of its font."""
    root = ET.fromstring(svg.encode())
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    found = []
    for group in root.iter(f"{SVG}g"):
        if group.get("class") not in ("caption", "hand"):
            continue
        for text in group.iter(f"{SVG}text"):
            mono = "Mono" in (text.get("font-family") or "")
            size = float(text.get("font-size") or group.get("font-size") or 0)
            right = float(text.get("x", 0)) + len(text.text or "") * size * (
                MONO_WIDTH if mono else SANS_WIDTH)
            if right > width or float(text.get("y", 0)) + size * 0.3 > height:
                found.append(f"{text.text!r}: {right:.0f} of {width:.0f}")
    return found


#: Families numbered by counting, whose first look-ups take a second: slow runs only.
COUNTED_SLOWLY = ("capablanca-random-full", "cutechess-caparandom")


@pytest.mark.parametrize("name", sample([pytest.param(name, marks=pytest.mark.slow)
                                         if name in COUNTED_SLOWLY else name
                                         for name in bundled_names()], 10))
def test_every_family_page_and_svg_in_its_own_words(name: str) -> None:
    """The page names each piece as its rule file (or game) does, has no raw
    markup, says of pawns what the family has, shows its hand; every SVG's
    caption fits its viewBox."""
    family = Family.load(name)
    doc = rule_file(name)
    html = report_page(quick_report(family))  # type: ignore[arg-type]
    parsed = _Text()
    parsed.feed(html)
    text = parsed.text
    assert "``" not in text and not re.search(r"(?<![\w*])\*\w[^*]*\*(?![\w*])", text), name
    names = expected_names(name)
    assert {x: n for x, n in parsed.legend.items() if x != "P"} == \
        {x: n for x, n in names.items() if x != "P"}
    for letter, chess in CHESS_WORDS.items():  # no chess name for a piece it is not
        if letter in names and names[letter] != chess and letter != "P" \
                and chess not in names.values():  # (CWDA's E is its chancellor, C not)
            assert re.search(rf"\b{chess}s?\b", text) is None, (name, chess)
    # pawns: a rank of them, none, or some among the shuffled pieces, never two of these
    among = str(doc.get("pieces", "")).count("P")
    if doc.get("pawns") == "none" and not among:
        assert "No pawns." in text
    else:
        assert "No pawns." not in text
    if among:
        word = names["P"]
        assert f"{among} {word}s" in text and f"The {among} {word}s are among" in text
    if "hand" in doc:
        hand = str(doc["hand"])
        assert f"[{hand}{hand.lower()}]" in text
        for letter in hand:
            assert names[letter] in text
        assert ("Gating:" in text) == bool(doc.get("gating"))
    svgs = [board_svg(family, p) for p in examples(family)]
    for svg in svgs:
        assert caption_overflows(svg) == [], name
        if "hand" in doc:  # each side's hand drawn under the board
            root = ET.fromstring(svg.encode())
            held = [g for g in root.iter(f"{SVG}g") if "in-hand" in g.get("class", "").split()]
            assert len(held) == 2 * len(str(doc["hand"]))
    for svg in re.findall(r"<svg[^>]*viewBox=\"0 0 \d+ \d+\".*?</svg>", html, re.S):
        assert caption_overflows(svg) == [], name


def test_janggi_is_drawn_on_its_points_with_tokens() -> None:
    """Janggi: 9 x 10 points, no chequering, no chess shape for its pieces."""
    janggi = Family.load("janggi")
    svg = board_svg(janggi, janggi.position(0))
    root = ET.fromstring(svg.encode())
    squares = [e for e in root.iter(f"{SVG}rect") if "square" in e.get("class", "").split()]
    assert len(squares) == 90
    assert {e.get("class") for e in squares} == {"square plain"}  # not chequered
    lines = [e for e in root.iter(f"{SVG}path") if e.get("class") == "lines"]
    assert len(lines) == 1
    # 9 files and 10 ranks of lines, and the two palaces' four diagonals
    assert len(re.findall(r"[VHL]", lines[0].get("d", ""))) == 9 + 10 + 4
    pieces = [g for g in root.iter(f"{SVG}g") if "piece" in g.get("class", "").split()]
    assert len(pieces) == 32
    for piece in pieces:  # each a lettered octagon, not a chess silhouette
        assert len(list(piece.iter(f"{SVG}polygon"))) == 1
    kinds = Counter(g.get("class", "").split()[2] for g in pieces)
    assert kinds == {"soldier": 10, "chariot": 4, "horse": 4, "elephant": 4, "guard": 4,
                     "cannon": 4, "general": 2}
    chess = Family.load("chess960")
    chequered = ET.fromstring(board_svg(chess, chess.position(518)).encode())
    assert not list(chequered.iter(f"{SVG}polygon"))


def _page_text(name: str) -> tuple[str, dict[str, str]]:
    parsed = _Text()
    parsed.feed(report_page(quick_report(Family.load(name))))  # type: ignore[arg-type]
    return parsed.text, parsed.legend


def test_janggi_page_names_its_own_pieces_and_soldiers() -> None:
    text, legend = _page_text("janggi")
    assert legend == {".": "empty square", "A": "guard", "B": "elephant", "C": "cannon",
                      "K": "general", "N": "horse", "R": "chariot", "P": "soldier"}
    assert ("The shuffled pieces: 2 chariots, 2 horses, 2 elephants, 2 guards, "
            "1 empty square, 1 general, 2 cannons, 5 soldiers (17 in all).") in text
    assert "No pawns." not in text  # beside the 5 soldiers
    assert "The 5 soldiers are among the shuffled pieces, not on a rank of their own." in text
    for chess in ("archbishop", "chancellor", "pawn", "king", "knight", "bishop", "rook"):
        assert chess not in text


def test_rule_words_markup_is_rendered_not_shown() -> None:
    html = report_page(quick_report(Family.load("janggi")))  # type: ignore[arg-type]
    assert "``" not in html
    assert "(<code>each</code>: per file, per square)" in html


def test_seirawan960_page_and_board_show_the_hand_and_gating() -> None:
    text, legend = _page_text("seirawan960")
    assert legend["H"] == "hawk" and legend["E"] == "elephant"
    assert ("In hand, each side holds 1 hawk (H) and 1 elephant (E), written [HEhe] after "
            "the placement.") in text
    assert "Gating: a piece in hand enters play" in text
    assert "(KQABCDEkqabcde in the first position)" in text
    family = Family.load("seirawan960")
    root = ET.fromstring(board_svg(family, family.position(518)).encode())
    hand = [g for g in root.iter(f"{SVG}g") if g.get("class") == "hand"]
    assert len(hand) == 1
    held = [g.get("class") for g in hand[0].iter(f"{SVG}g") if g.get("class", "hand") != "hand"]
    assert held == ["piece white in-hand hawk", "piece white in-hand elephant",
                    "piece black in-hand hawk", "piece black in-hand elephant"]
    labels = [t.text for t in hand[0].iter(f"{SVG}text")]
    assert labels == ["White's hand:", "(hawk, elephant)", "Black's hand:", "(hawk, elephant)"]


@pytest.mark.parametrize("name", ["janggi", "seirawan960", "horde960"])
@pytest.mark.parametrize("square", [44, 64])
def test_svg_captions_are_not_clipped(name: str, square: int) -> None:
    family = Family.load(name)
    for position in examples(family):
        svg = board_svg(family, position, square=square)
        assert caption_overflows(svg) == []
        root = ET.fromstring(svg.encode())  # all of the caption is there, FEN included
        caption = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "caption")
        mono = [t.text or "" for t in caption if "Mono" in (t.get("font-family") or "")]
        assert "".join(mono).replace(" ", "") == position_fen(position).replace(" ", "")
