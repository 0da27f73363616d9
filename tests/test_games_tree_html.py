"""``chess960 games tree --html``: the explorer page.

The default part reads the page with :mod:`html.parser`: it embeds the tree
that ``--format json`` writes for the same games, the start boards as the
positions' own ranks (``tests/data/chess960.txt``, or a FEN written here for
a ten-file family), no address on the network, and moves and a player's
name with ``<`` and ``&`` as text, not markup. The slow part renders the page
in headless Chromium (:mod:`browser`): no console error, no request but the
page itself, the moves' table as the test's own tree has it, a move clicked
goes down, the breadcrumbs, the picker and the Left arrow key go back;
``CHESS960_SCREENSHOTS=DIR`` keeps the screenshots to look at.
"""

from __future__ import annotations

import json
import os
import re
from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.games.tree_html import _json
from tests.test_games import RANKS, fen, run
from tests.test_games_tree import collection, expected, write
from tests.test_pages import network_references


class Page(HTMLParser):
    """The tags met, each ``<script>``'s text by its id, and the text shown."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.scripts: dict[str, str] = {}
        self.text: list[str] = []
        self._script: str | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "script":
            self._script = dict(attrs).get("id") or f"script-{len(self.scripts)}"
            self.scripts[self._script] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts[self._script] += data
        else:
            self.text.append(data)


def page_of(tmp_path: Path, games: Path | list[Path], *options: str) -> tuple[str, Page, Any]:
    """The page of ``games tree`` (its HTML, parsed) and the tree ``--format json`` writes."""
    files = [str(p) for p in (games if isinstance(games, list) else [games])]
    target = tmp_path / "explorer.html"
    ran = run(["games", "tree", *files, *options, "--html", str(target), "-f", "json"])
    assert ran.returncode == 0, ran.stderr
    html = target.read_text(encoding="utf-8")
    return html, Page(html), json.loads(ran.stdout)


def test_page_embeds_the_tree_json_writes(tmp_path: Path) -> None:
    games = collection(11, 150)
    path = write(tmp_path, "g.pgn", games, truncated=False)
    html, page, tree = page_of(tmp_path, path, "--plies", "6")
    assert html.startswith("<!DOCTYPE html>")
    assert json.loads(page.scripts["tree-data"]) == tree
    assert {e["id"] for e in tree["positions"]} == {g.id for g in games}
    view = json.loads(page.scripts["view-data"])
    assert view["start"] == {"id": min(g.id for g in games), "line": []}
    for number, rows in view["boards"].items():  # the boards from the test's own ranks
        rank = RANKS[number]
        assert rows == [rank.lower(), "p" * 8, *["." * 8] * 4, "P" * 8, rank]
    assert set(page.tags) >= {"select", "svg", "symbol", "script"}
    assert page.tags.count("script") == 3


def test_nothing_from_the_network(tmp_path: Path) -> None:
    games = collection(12, 40)  # their Site tags are lichess addresses
    html, page, _ = page_of(tmp_path, write(tmp_path, "g.pgn", games, truncated=False))
    assert "https://lichess.org" in (tmp_path / "g.pgn").read_text()
    assert network_references(html) == []
    assert "http://" not in html and "https://" not in html
    assert not {"link", "img", "iframe", "object", "embed", "audio", "video"} & set(page.tags)
    assert not re.search(r"\b(src|srcset)\s*=", html)
    assert not re.search(r"@import|url\(", html)
    script = page.scripts["script-2"]
    assert not re.search(r"\b(fetch|XMLHttpRequest|import\(|WebSocket|eval)\b", script)


def _game(white: str, moves: str, number: int = 518, result: str = "1-0") -> str:
    return (f'[White "{white}"]\n[Black "b"]\n[Result "{result}"]\n[Variant "Chess960"]\n'
            f'[FEN "{fen(number)}"]\n\n{moves} {result}\n\n')


def test_names_and_moves_are_text(tmp_path: Path) -> None:
    path = tmp_path / "odd.pgn"
    name = "x<y&z"
    path.write_text(_game(name, "1. e4 <b>x 2. a&b </script><i>") + _game(name, "1. d4 Nf6"))
    html, page, tree = page_of(tmp_path, path, "--player", name)
    assert json.loads(page.scripts["tree-data"]) == tree
    node = tree["positions"][0]["children"]["e4"]["children"]
    assert list(node) == ["<b>x"] and list(node["<b>x"]["children"]) == ["a&b"]
    assert "b" not in page.tags and "i" not in page.tags  # the moves made no markup
    assert page.tags.count("script") == 3
    assert f"Only: player {name}." in page.text  # shown as written, escaped in the HTML
    assert "x&lt;y&amp;z" in html and "x<y" not in html


@settings(max_examples=40, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                    max_leaves=8))
def test_json_in_a_script_reads_back(value: Any) -> None:
    text = _json(json.dumps(value, ensure_ascii=False))
    page = Page(f'<script type="application/json" id="x">{text}</script><p>after</p>')
    assert json.loads(page.scripts["x"]) == value
    assert page.text == ["after"]


#: A ten-file start (Capablanca random chess), written out here.
TEN = "qbbacnnrkr/pppppppppp/10/10/10/10/PPPPPPPPPP/QBBACNNRKR w KQkq - 0 1"


def _ten_files(tmp_path: Path) -> Path:
    path = tmp_path / "capa.pgn"
    path.write_text("".join(
        f'[Result "{result}"]\n[Variant "caparandom"]\n[SetUp "1"]\n[FEN "{TEN}"]\n\n'
        f"1. {first} e5 2. Ci3 {result}\n\n"
        for first, result in [("e4", "1-0"), ("e4", "0-1"), ("f4", "1/2-1/2")]))
    return path


def test_ten_files(tmp_path: Path) -> None:
    html, page, tree = page_of(tmp_path, _ten_files(tmp_path), "--rules", "capablanca-random")
    assert json.loads(page.scripts["tree-data"]) == tree
    view = json.loads(page.scripts["view-data"])
    placement = TEN.split(maxsplit=1)[0].split("/")
    rows = [re.sub(r"\d+", lambda m: "." * int(m[0]), row) for row in placement]
    assert list(view["boards"].values()) == [rows]
    assert view["files"][:10] == "abcdefghij"
    assert 'id="piece-wA"' in html and 'id="piece-bC"' in html  # archbishop, chancellor


def test_html_to_stdout_and_with_text(tmp_path: Path) -> None:
    games = collection(13, 30)
    path = write(tmp_path, "g.pgn", games, truncated=False)
    number, move = next((g.id, g.moves[0]) for g in games[5:] if g.moves)
    alone = run(["games", "tree", str(path), "--html", "-", "--id", str(number), "--line", move])
    assert alone.returncode == 0, alone.stderr
    view = json.loads(Page(alone.stdout.decode()).scripts["view-data"])
    assert view["start"] == {"id": number, "line": [move]}
    plain = run(["games", "tree", str(path), "--line", move])
    assert plain.returncode == 0, plain.stderr
    target = tmp_path / "p.html"
    both = run(["games", "tree", str(path), "--line", move, "--html", str(target)])
    assert both.returncode == 0 and both.stdout == plain.stdout  # stdout as without --html
    assert json.loads(Page(target.read_text()).scripts["view-data"])["start"]["line"] == [move]


@pytest.mark.parametrize(("options", "message"), [
    (["--html", "-", "-f", "csv"], "--html - writes the page instead of --format 'csv'"),
    (["--html", "same.html", "-o", "same.html"], "--html 'same.html' is the file -o writes"),
])
def test_usage_errors(tmp_path: Path, options: list[str], message: str,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, "g.pgn", collection(1, 5), truncated=False)
    ran = run(["games", "tree", str(path), *options])
    assert ran.returncode == 2
    err = ran.stderr.decode()
    assert err.startswith("error: ") and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "same.html").exists()


def test_bad_output_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "g.pgn", collection(2, 20), truncated=False)
    ran = run(["games", "tree", str(path), "--html", str(tmp_path)])
    assert ran.returncode == 1 and ran.stdout == b""
    assert ran.stderr.decode() == f"error: cannot write {str(tmp_path)!r}: it is a directory\n"
    target = tmp_path / "p.html"
    ran = run(["games", "tree", str(path), "--id", "518", "--line", "Ke2 Ke7",
               "--html", str(target)])
    assert ran.returncode == 1 and not target.exists()  # the text refused the line: no page
    assert ran.stderr.decode().startswith("error: line ")


def test_no_game_asked_for(tmp_path: Path) -> None:
    path = write(tmp_path, "g.pgn", collection(3, 10), truncated=False)
    target = tmp_path / "p.html"
    ran = run(["games", "tree", str(path), "--id", "1", "--html", str(target)])
    assert ran.returncode == 0 and ran.stdout == b"no game from the positions asked for\n"
    page = Page(target.read_text())
    assert "No game from the positions asked for." in page.text and "select" not in page.tags


# -- in Chromium ----------------------------------------------------------------------------

#: What the page shows, read in the page.
STATE = """({
  crumbs: [...document.querySelectorAll("#crumbs > *:not(.sep)")].map(e => e.textContent),
  moves: [...document.querySelectorAll("table.moves tbody tr")].map(
    tr => [...tr.children].slice(0, 3).map(td => td.textContent)),
  empty: (document.querySelector("#table p") || {}).textContent || null,
  picked: document.getElementById("pick").value,
  options: [...document.querySelectorAll("#pick option")].map(o => o.value),
  squares: [...document.querySelectorAll("#board rect.square")].map(r => r.getAttribute("fill")),
  pieces: [...document.querySelectorAll("#board use")].map(u => u.getAttribute("href")),
  files: [...document.querySelectorAll("#board text")].map(t => t.textContent).join(""),
})"""


def _after(action: str) -> str:
    return (f"(async () => {{ {action}; await new Promise(r => setTimeout(r, 60)); "
            f"return {STATE}; }})()")


def _rendered(page: Path, name: str, steps: list[str]) -> Any:
    from browser import chromium, png_pixels, render

    if chromium() is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium); "
                    "the explorer page was not rendered")
    shown = render(page, width=1100, scale=1, steps=steps)
    keep = os.environ.get("CHESS960_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        (Path(keep) / f"explorer-{name}.png").write_bytes(shown.png)
    assert shown.errors == []
    assert shown.requests == [page.resolve().as_uri()]
    width, height, colours = png_pixels(shown.png)
    assert width >= 800 and height >= 400 and len(colours) > 100
    return shown.values


def _table(want: dict[Any, list[Any]], number: int, line: tuple[str, ...]) -> list[list[str]]:
    """The moves' table (move, games, share) after ``line``, from the test's own tree."""
    total = want[number, line][0]
    below = sorted(((key[1][-1], node[0]) for key, node in want.items()
                    if key[0] == number and key[1][:-1] == line and len(key[1]) == len(line) + 1),
                   key=lambda item: (-item[1], item[0]))
    return [[move, f"{games:,}", f"{_percent(games, total)}%"] for move, games in below]


def _percent(part: int, whole: int) -> str:
    """``100 * part / whole`` to one decimal, a half rounded up (as JavaScript's toFixed)."""
    return str((Decimal(100 * part) / whole).quantize(Decimal("0.1"), ROUND_HALF_UP))


def _numbered(line: tuple[str, ...]) -> list[str]:
    return [f"{ply // 2 + 1}. {m}" if ply % 2 == 0 else f"{(ply + 1) // 2}\u2026 {m}"
            for ply, m in enumerate(line)]


@pytest.mark.slow
def test_clicked_through_in_chromium(tmp_path: Path) -> None:
    from solver.output.diagram import DARK, LIGHT

    games = collection(21, 300)
    path = write(tmp_path, "g.pgn", games, truncated=False)
    _, _, tree = page_of(tmp_path, path, "--plies", "4")
    want = expected(games, 4)
    ids = sorted({g.id for g in games})
    first, second = ids[0], ids[1]
    opening = _table(want, first, ())[0][0]
    reply = _table(want, first, (opening,))[0][0]
    values = _rendered(tmp_path / "explorer.html", "chess960", [
        STATE,
        _after("document.querySelector('table.moves tbody tr').click()"),
        _after("document.querySelector('table.moves tbody a').click()"),
        _after("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}))"),
        _after("document.querySelector('#crumbs a').click()"),
        _after("const p = document.getElementById('pick'); p.value = '" + str(second)
               + "'; p.dispatchEvent(new Event('change'))"),
    ])
    start, down, deeper, left, back, other = values
    label = tree["positions"][0]["position"]
    assert start["options"] == [str(n) for n in ids] and start["picked"] == str(first)
    assert start["crumbs"] == [label] and start["moves"] == _table(want, first, ())
    assert start["files"] == "87654321abcdefgh"
    colours = start["squares"]  # a1 (the last rank's first square) dark, alternating
    assert len(colours) == 64 and colours[56] == DARK and colours[57] == LIGHT
    assert colours[0] == LIGHT and colours.count(DARK) == 32
    rank = RANKS[str(first)]
    assert start["pieces"] == [f"#piece-b{p}" for p in rank] + ["#piece-bP"] * 8 + \
        ["#piece-wP"] * 8 + [f"#piece-w{p}" for p in rank]
    assert down["crumbs"] == [label, *_numbered((opening,))]
    assert down["moves"] == _table(want, first, (opening,))
    assert deeper["crumbs"] == [label, *_numbered((opening, reply))]
    assert deeper["moves"] == _table(want, first, (opening, reply))
    assert left == down
    assert back == start
    assert other["picked"] == str(second) and other["moves"] == _table(want, second, ())
    assert other["pieces"][:8] == [f"#piece-b{p}" for p in RANKS[str(second)]]


@pytest.mark.slow
def test_odd_moves_and_ten_files_in_chromium(tmp_path: Path) -> None:
    path = tmp_path / "odd.pgn"
    path.write_text(_game("a", "1. e4 <b>x 2. a&b </script>"))
    page_of(tmp_path, path)
    values = _rendered(tmp_path / "explorer.html", "odd", [
        _after("location.hash = '#518/e4'"),
        _after("document.querySelector('table.moves tbody tr').click()"),
        _after("document.querySelector('table.moves tbody tr').click()"),
        _after("document.querySelector('table.moves tbody tr').click()"),
    ])
    assert [v["moves"][0][0] if v["moves"] else v["empty"] for v in values] == [
        "<b>x", "a&b", "</script>", "No next move: no game in the collection goes on from here."]
    assert values[-1]["crumbs"][-1] == "2\u2026 </script>"

    folder = tmp_path / "ten"
    folder.mkdir()
    page_of(folder, _ten_files(folder), "--rules", "capablanca-random")
    ten = _rendered(folder / "explorer.html", "capablanca", [
        STATE, _after("document.querySelector('table.moves tbody tr').click()")])
    assert ten[0]["files"] == "87654321abcdefghij" and len(ten[0]["squares"]) == 80
    assert ten[0]["moves"] == [["e4", "2", "66.7%"], ["f4", "1", "33.3%"]]
    assert ten[1]["moves"] == [["e5", "2", "100.0%"]]
    assert "#piece-wA" in ten[0]["pieces"] and "#piece-bC" in ten[0]["pieces"]


def test_the_how_to_shows_a_small_screenshot() -> None:
    root = Path(__file__).resolve().parents[1]
    if not (root / "docs" / "conf.py").exists():
        pytest.skip("the docs are not here (the tests run apart from the source tree)")
    text = (root / "docs" / "how-to" / "opening-explorer.md").read_text(encoding="utf-8")
    assert "](../_static/explorer-326.png)" in text
    data = (root / "docs" / "_static" / "explorer-326.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 150_000
