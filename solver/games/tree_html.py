"""``chess960 games tree --html``: the opening explorer as one self-contained page.

The page holds the tree as ``games tree --format json`` writes it (inline, in
a ``<script type="application/json">``), the start board of each position as
its rows of FEN letters, each piece drawn once as an inline SVG symbol
(:mod:`solver.output.pieces`), its style (:data:`solver.output.html.STYLE`
and a few rules of its own) and a small script: one start position at a time,
picked by number; the table of the next moves after the line followed
(games, share, White's wins, draws and Black's wins as a bar, average rating,
last date played); a move clicked goes down the tree, the breadcrumbs back up
(the line is the address's ``#518/e4/e5``, so the browser's Back works too).
Nothing is fetched: no font, no script, no image, no address to follow.

The tree is keyed by the moves as written, with no move generator: the page
draws the start board, not the board after the line.

>>> from solver.family import Family
>>> from solver.games.tree import Tree
>>> tree = Tree(Family.load("chess960"), plies=2)
>>> tree.add(iter([b'[Result "1-0"]\\n\\n1. e4 e5 1-0\\n']), "x")
1
>>> html = explorer_page(tree)
>>> html.startswith("<!DOCTYPE html>"), '"e4":' in html, "http" in html
(True, True, False)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from solver.family import Family
    from solver.games.tree import Tree

#: The page's own style, after :data:`solver.output.html.STYLE`.
EXPLORER_STYLE: Final = """
body { max-width: 72em; }
.explorer { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.explorer .side { flex: 0 0 auto; width: min-content; max-width: 100%; }
.explorer .main { flex: 1 1 36em; min-width: 0; }
.picker label { font-weight: bold; margin-right: 0.4em; }
.picker select { font-size: 1em; max-width: 100%; }
#board svg { display: block; }
nav.crumbs { font-size: 1.05em; margin: 0.4em 0; }
nav.crumbs a { color: #1a4e8a; text-decoration: none; }
nav.crumbs a:hover { text-decoration: underline; }
nav.crumbs .sep { color: #888888; margin: 0 0.35em; }
nav.crumbs .here { font-weight: bold; }
table.moves { width: 100%; }
table.moves th { white-space: nowrap; }
table.moves th.bars { white-space: normal; }
table.moves td.move, table.moves th.move { text-align: left; }
table.moves td.move a { color: #1a4e8a; font-weight: bold; text-decoration: none; }
table.moves tbody tr { cursor: pointer; }
table.moves tbody tr:hover { background: #f5efe3; }
table.moves tfoot td { font-weight: bold; background: #f8f8f8; }
.bar { display: flex; width: 10em; height: 1.35em; border: 1px solid #777777;
       font-size: 0.78em; line-height: 1.35em; }
.bar span { display: block; overflow: hidden; text-align: center; white-space: nowrap; }
.bar .w { background: #ffffff; color: #1a1a1a; }
.bar .d { background: #a8a8a8; color: #1a1a1a; }
.bar .b { background: #303030; color: #ffffff; }
td.bars, th.bars { text-align: left; }
"""

#: The page's script: reads the two JSON blocks and draws the explorer.
SCRIPT: Final = r"""
"use strict";
const tree = JSON.parse(document.getElementById("tree-data").textContent);
const view = JSON.parse(document.getElementById("view-data").textContent);
const positions = new Map(tree.positions.map((p) => [String(p.id), p]));
const $ = (id) => document.getElementById(id);

function el(tag, attributes, ...children) {  // children: nodes, or strings as text
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  node.append(...children);
  return node;
}
const count = (n) => n.toLocaleString("en-US");
const percent = (part, whole) => (whole ? (100 * part / whole).toFixed(1) + "%" : "-");
const address = (id, line) => "#" + [id, ...line].map(encodeURIComponent).join("/");
const numbered = (ply, move) =>
  (ply % 2 ? Math.ceil(ply / 2) + "\u2026 " : ply / 2 + 1 + ". ") + move;

function wanted() {  // [id, line] from the address, else the page's start
  try {
    const parts = location.hash.slice(1).split("/").filter((s) => s).map(decodeURIComponent);
    if (parts.length && positions.has(parts[0])) return [parts[0], parts.slice(1)];
  } catch (error) { /* a malformed address: the start */ }
  return [String(view.start.id), view.start.line];
}

function boardSvg(rows) {  // the start board: a1 dark, files a.., ranks 1..
  const size = 36, margin = 20, files = rows[0].length, ranks = rows.length;
  const width = files * size + 2 * margin, height = ranks * size + 2 * margin;
  let svg = `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `role="img" aria-label="the start position"><g font-size="13" fill="#444444" ` +
    `text-anchor="middle" font-family="'DejaVu Sans', Arial, sans-serif">`;
  rows.forEach((row, i) => {
    const rank = ranks - i, y = margin + i * size;
    for (let file = 0; file < files; file++) {
      const x = margin + file * size, piece = row[file];
      const fill = view.style !== "chess" ? view.ground :
        (file + rank) % 2 ? view.dark : view.light;
      svg += `<rect class="square" x="${x}" y="${y}" width="${size}" height="${size}" ` +
        `fill="${fill}"` + (view.style === "chess" ? "" : ` stroke="#000000"`) + "/>";
      if (piece !== ".") {
        const side = piece === piece.toUpperCase() ? "w" : "b";
        svg += `<use href="#piece-${side}${piece.toUpperCase()}" x="${x}" y="${y}" ` +
          `width="${size}" height="${size}"/>`;
      }
    }
    svg += `<text x="${margin / 2}" y="${y + size / 2 + 4}">${rank}</text>`;
  });
  for (let file = 0; file < files; file++) {
    svg += `<text x="${margin + file * size + size / 2}" y="${height - 5}">` +
      `${view.files[file]}</text>`;
  }
  return svg + "</g></svg>";
}

function bar(node) {  // White's wins, draws, Black's wins among the finished games
  const finished = node.white + node.draws + node.black;
  if (!finished) return el("span", {}, "no result");
  const parts = [["w", node.white, "White wins"], ["d", node.draws, "draws"],
    ["b", node.black, "Black wins"]].filter(([, n]) => n);
  return el("div", {class: "bar"}, ...parts.map(([kind, n, what]) => {
    const share = 100 * n / finished;
    const title = `${what}: ${count(n)} (${share.toFixed(1)}%)`;
    return el("span", {class: kind, style: `width: ${share}%`, title},
      share >= 12 ? share.toFixed(0) + "%" : "");
  }));
}

function cells(node, games) {
  return [count(node.games), percent(node.games, games)].map((t) => el("td", {}, t))
    .concat([el("td", {class: "bars"}, bar(node)),
      el("td", {}, node.avg_rating === null ? "-" : node.avg_rating.toFixed(0)),
      el("td", {}, node.last_date || "-")]);
}

function table(id, line, node) {
  const next = Object.entries(node.children)
    .sort(([a, x], [b, y]) => y.games - x.games || (a < b ? -1 : a > b ? 1 : 0));
  if (!next.length) {
    const why = line.length >= tree.plies ? `the tree keeps ${tree.plies} plies` :
      tree.min_games ? `no next move was played ${tree.min_games} times or more` :
      "no game in the collection goes on from here";
    return el("p", {class: "note"}, `No next move: ${why}.`);
  }
  const head = el("tr", {}, ...["move", "games", "%", "white / draws / black", "rating",
    "last played"].map((t, i) => el("th", {class: ["move", "", "", "bars"][i] || ""}, t)));
  const rows = next.map(([move, child]) => {
    const to = address(id, [...line, move]);
    const row = el("tr", {}, el("td", {class: "move"}, el("a", {href: to}, move)),
      ...cells(child, node.games));
    row.addEventListener("click", () => { location.hash = to; });
    return row;
  });
  const total = el("tr", {}, el("td", {class: "move"}, "all"), ...cells(node, node.games));
  return el("table", {class: "moves"}, el("thead", {}, head), el("tbody", {}, ...rows),
    el("tfoot", {}, total));
}

function show() {
  const [id, asked] = wanted();
  const position = positions.get(id);
  let node = position;
  const line = [];
  for (const move of asked) {  // as far down the asked line as the tree goes
    if (!Object.hasOwn(node.children, move)) break;
    node = node.children[move];
    line.push(move);
  }
  $("pick").value = id;
  $("board").innerHTML = boardSvg(view.boards[id]);
  $("rank").textContent = `${position.position}: ${position.rank}`;
  const crumbs = [el("a", {href: address(id, [])}, position.position)];
  line.forEach((move, ply) => {
    const text = numbered(ply, move);
    const back = address(id, line.slice(0, ply + 1));
    crumbs.push(el("span", {class: "sep"}, "\u203a"), ply === line.length - 1 ?
      el("span", {class: "here"}, text) : el("a", {href: back}, text));
  });
  $("crumbs").replaceChildren(...crumbs);
  const facts = [`${count(node.games)} game${node.games === 1 ? "" : "s"}`];
  if (node.avg_rating !== null) facts.push(`average rating ${node.avg_rating.toFixed(0)}`);
  if (node.last_date) facts.push(`last played ${node.last_date}`);
  $("facts").textContent = (line.length ? "After " + line.map((m, p) => numbered(p, m))
    .join(" ") + ": " : "From the start: ") + facts.join(", ") + ".";
  $("table").replaceChildren(table(id, line, node));
}

if (positions.size) {
  const pick = $("pick");
  for (const p of tree.positions) {
    const named = p.position.endsWith(" " + p.id) ? "" : ` \u00b7 ${p.position}`;
    pick.append(el("option", {value: String(p.id)},
      `${p.id} \u00b7 ${p.rank}${named} (${count(p.games)} game${p.games === 1 ? "" : "s"})`));
  }
  pick.addEventListener("change", () => { location.hash = address(pick.value, []); });
  document.addEventListener("keydown", (event) => {  // Left arrow: one move back
    if (event.key !== "ArrowLeft" || event.target === pick) return;
    const [id, line] = wanted();
    if (line.length) location.hash = address(id, line.slice(0, -1));
  });
  window.addEventListener("hashchange", show);
  show();
}
"""


def _json(text: str) -> str:
    """JSON ``text`` made fit for a ``<script>`` element's text: every ``<``
    written ``\\u003c`` (JSON has ``<`` in strings alone), so no ``</script>``
    ends it early."""
    return text.replace("<", "\\u003c")


def _rows(family: Family, number: int) -> list[str]:
    """The start board of ``number``, rank 8 (the top) first, ``.`` an empty square."""
    from solver.output.diagram import squares

    return ["".join(piece or "." for piece in row) for row in squares(family.position(number))]


def _symbols(family: Family, letters: set[str], style: str) -> list[str]:
    """Each piece shown, once, as an SVG symbol (``piece-wN``, ``piece-bN``)."""
    from solver.output.pieces import piece_svg
    from solver.report import game_names

    names = game_names(family)
    shogi, token = style == "shogi", style == "points"
    out = ['<svg class="symbols" width="0" height="0" style="position: absolute" '
           'aria-hidden="true"><defs>']
    for piece in sorted(letters):
        white, letter = piece.isupper(), piece.upper()
        side = "w" if white else "b"
        name = f"{'White' if white else 'Black'} {names.get(letter, letter)}"
        drawn = piece_svg(letter, white, 0, 0, 45, shogi=shogi, token=token,
                          turned=shogi and not white)
        out.append(f'<symbol id="piece-{side}{escape(letter)}" viewBox="0 0 45 45">'
                   f"<title>{escape(name)}</title>{drawn}</symbol>")
    out.append("</defs></svg>")
    return out


def explorer_page(tree: Tree, min_games: int = 0, start: tuple[int, Sequence[str]] | None = None,
                  notes: Sequence[str] = ()) -> str:
    """The explorer page of ``tree``: its positions and lines with at least
    ``min_games`` games, opened at ``start`` (a position's number and a line;
    default: the first position's start); ``notes`` (what was read, the
    filters) are shown under the title."""
    from solver.board.drawing import DARK, LIGHT, SHOGI_BOARD
    from solver.board.glyphs import FILE_LETTERS
    from solver.output.diagram import board_style
    from solver.output.html import page

    family = tree.family
    ids = [n for n in sorted(tree.roots) if tree.roots[n].games >= min_games]
    style = board_style(family)
    boards = {str(n): _rows(family, n) for n in ids}
    letters = {p for rows in boards.values() for row in rows for p in row if p != "."}
    if start is None or start[0] not in ids:
        start = (ids[0] if ids else 0, ())
    view = {"start": {"id": start[0], "line": list(start[1])}, "style": style,
            "light": LIGHT, "dark": DARK, "ground": SHOGI_BOARD, "files": FILE_LETTERS,
            "boards": boards}
    title = f"{family.name} opening explorer"
    body = [f"<h1>{escape(title)}</h1>",
            f'<p class="sub">{escape(family.ruleset.title)} &middot; {tree.games:,} '
            f"game{'' if tree.games == 1 else 's'} read &middot; {len(ids):,} start "
            f"position{'' if len(ids) == 1 else 's'} &middot; the first {tree.plies} plies</p>"]
    body.extend(f'<p class="note">{escape(note)}</p>' for note in notes)
    if ids:
        body += ['<div class="explorer">',
                 '<div class="side">',
                 '<p class="picker"><label for="pick">Start position</label>'
                 '<select id="pick"></select></p>',
                 '<div id="board"></div>',
                 '<p class="note" id="rank"></p>',
                 '<p class="note">The start position: the moves are counted as '
                 "written, with no move generator, so the board after a line is not "
                 "drawn.</p>",
                 "</div>",
                 '<div class="main">',
                 '<nav class="crumbs" id="crumbs" aria-label="the line followed"></nav>',
                 '<p id="facts"></p>',
                 '<div id="table" class="scroll"></div>',
                 '<p class="note">Click a move to follow it, a move of the line above '
                 "(or the Left arrow key) to go back. The bar shows White's wins "
                 "(white), draws (grey) and Black's wins (black) among the finished "
                 "games; the rating is the average of both players' ratings.</p>",
                 "</div>",
                 "</div>"]
        body += _symbols(family, letters, style)
    else:
        body.append("<p>No game from the positions asked for.</p>")
    body += [f'<script type="application/json" id="tree-data">{_json(tree.json(min_games))}'
             "</script>",
             f'<script type="application/json" id="view-data">'
             f"{_json(json.dumps(view, ensure_ascii=False))}</script>",
             f"<script>{SCRIPT}</script>"]
    return page(title, body, extra_style=EXPLORER_STYLE)
