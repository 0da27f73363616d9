"""Self-contained HTML pages: a family's report and a printable tournament plan.

A page is one file with nothing to fetch: its style is inline, its boards
and piece pictures inline SVG (:mod:`solver.output.diagram`,
:mod:`solver.output.pieces`), no scripts, no fonts, no images, and no link
or address another program would follow (a rule file's source is shown as
text). It prints as it shows: one board a round, never split across pages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from solver.family import Family
    from solver.position import Position
    from solver.report import FamilyReport, Heatmap, Mirrors

#: The pages' style sheet (inline).
STYLE: Final = """
body { font-family: 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif; color: #1a1a1a;
       background: #ffffff; margin: 2em auto; max-width: 60em; padding: 0 1em; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #cccccc; padding-bottom: 0.2em;
     margin-top: 1.6em; }
.sub { color: #555555; margin-top: 0; }
code, .fen { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 0.92em; }
.fen { word-break: break-all; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #d0d0d0; padding: 0.25em 0.5em; text-align: right; }
th { background: #f3f3f3; }
td.name, th.name { text-align: left; }
td.ok { color: #1a7f37; font-weight: bold; text-align: left; }
td.fail { color: #b42318; font-weight: bold; text-align: left; }
td.claim { text-align: left; }
.scroll { max-width: 100%; overflow-x: auto; }
.heat { font-size: 0.85em; }
.heat td.cell { min-width: 2.8em; padding: 0.25em 0.3em; }
li code, p code { overflow-wrap: anywhere; }
.piece-icon { width: 28px; height: 28px; vertical-align: middle; }
.legend { display: flex; flex-wrap: wrap; gap: 0.8em 1.6em; }
.legend span { white-space: nowrap; }
.boards { display: flex; flex-wrap: wrap; gap: 1.2em; }
.boards figure { flex: 0 1 calc(50% - 0.6em); }
figure { margin: 0; }
figure svg { width: 100%; max-width: 36em; height: auto; }
figcaption { font-size: 0.9em; color: #444444; }
.round { border: 1px solid #d0d0d0; padding: 0.8em 1em; margin: 1em 0; break-inside: avoid;
         page-break-inside: avoid; }
.round h2 { margin-top: 0; border: none; }
.round dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
.round dt { font-weight: bold; }
.round dd { margin: 0; }
.note { color: #555555; font-size: 0.92em; }
@media print {
  body { margin: 0; max-width: none; }
  .round { page-break-after: always; border: none; }
}
"""


#: reStructuredText's inline literal (````x````) and emphasis (``*x*``), as rule
#: words and rule files' texts write them.
_LITERAL: Final = re.compile(r"``(.+?)``")
_EMPHASIS: Final = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")


def inline(text: str) -> str:
    """``text`` as HTML: escaped, its ````literal```` set as code and its
    ``*emphasis*`` as emphasis (no markup is left raw).

    >>> inline("hold ``each`` *piece* & 2*3")
    'hold <code>each</code> <em>piece</em> &amp; 2*3'
    """
    out = escape(text)
    out = _LITERAL.sub(lambda m: f"<code>{m.group(1)}</code>", out)
    return _EMPHASIS.sub(lambda m: f"<em>{m.group(1)}</em>", out)


def page(title: str, body: Sequence[str], extra_style: str = "") -> str:
    """A whole HTML document: ``title`` and the ``body``'s lines, with the style
    (and ``extra_style``, a page's own rules, after it)."""
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}{extra_style}</style>",
        "</head>",
        "<body>",
        *body,
        "</body>",
        "</html>",
        "",
    ])


def _board(family: Family, position: Position, square: int = 44) -> str:
    """A board as inline SVG (the SVG's own caption names it)."""
    from solver.output.diagram import board_svg

    return board_svg(family, position, square=square, standalone=False)


def piece_icon(letter: str, white: bool, shogi: bool, name: str, token: bool = False) -> str:
    """A piece as a small inline SVG, 45 units square (``token``: a points game's)."""
    from solver.output.pieces import piece_svg

    return (f'<svg class="piece-icon" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45" '
            f'role="img" aria-label="{escape(name)}">'
            f"{piece_svg(letter, white, 0, 0, 45, shogi=shogi, token=token)}</svg>")


def _shogi(family: Family) -> bool:
    return family.ruleset.notation == "sfen"


def _token(family: Family) -> bool:
    """Whether the family's pieces are drawn as a points game's tokens."""
    from solver.output.diagram import board_style

    return board_style(family) == "points"


# -- a family's report -------------------------------------------------------------


def report_page(report: FamilyReport) -> str:
    """The family's page: rules in words, count and proof, where the pieces stand,
    mirrors, evaluations (when there are any) and example boards.

    >>> from solver.family import Family
    >>> from solver.report import family_report
    >>> html = report_page(family_report(Family.load("chess960"), prove=False))
    >>> html.startswith("<!DOCTYPE html>"), "http://www.w3.org/2000/svg" in html, "<script" in html
    (True, True, False)
    """
    from solver.report import names_of

    family = report.family
    rs = family.ruleset
    shogi = _shogi(family)
    names = names_of(family)
    body = [f"<h1>{escape(rs.title)}</h1>",
            f'<p class="sub"><code>{escape(rs.name)}</code>'
            + (f" &middot; {escape(rs.variant)}" if rs.variant else "")
            + f" &middot; {report.count:,} positions</p>"]
    if rs.source:
        body.append(f'<p class="note">Source: <span class="fen">{escape(rs.source)}</span></p>')

    body.extend(_rules(report))
    body.extend(_proof(report))
    body.extend(_numberings(family))
    body.append("<h2>Where the pieces stand</h2>")
    army = rs.army
    if army:  # the heat map counts the varying pieces together
        names = {**names, army.placeholder: "any of " + ", ".join(names[x] for x in army.pool)}
    if report.heatmap is not None:
        body.extend(_heatmap(report.heatmap, names, shogi, _token(family)))
    body.append(f'<p class="note">{inline(report.heatmap_note)}</p>')

    body.append("<h2>Mirror pairs and symmetric ranks</h2>")
    if report.mirrors is not None:
        body.extend(_mirrors(family, report.mirrors))
    body.append(f'<p class="note">{inline(report.mirrors_note)}</p>')

    body.extend(_evaluations(report.evaluation))

    body.append("<h2>Example boards</h2>")
    body.append('<div class="boards">')
    body.extend(f"<figure>{_board(family, p)}</figure>" for p in report.examples)
    body.append("</div>")
    return page(f"{rs.name}: {rs.title}", body)


def _evaluations(rows: Sequence[Mapping[str, str]] | None) -> list[str]:
    """The evaluation spread's table (:func:`solver.report.evaluation_spread`)."""
    body = ["<h2>Evaluations</h2>"]
    if not rows:
        body.append('<p class="note">No engine evaluations of this family are at hand.</p>')
        return body
    columns = list(rows[0])
    body.append('<div class="scroll"><table><thead><tr>'
                + "".join(f"<th>{escape(c)}</th>" for c in columns)
                + "</tr></thead><tbody>")
    body.extend("<tr>" + "".join(f"<td>{escape(row.get(c, ''))}</td>" for c in columns)
                + "</tr>" for row in rows)
    body.append("</tbody></table></div>")
    return body


def _numberings(family: Family) -> list[str]:
    """The family's numberings (:attr:`Family.schemes <solver.family.Family.schemes>`):
    name, numbers, an example, what proves each."""
    body = ["<h2>Numberings</h2>", '<div class="scroll"><table><thead><tr>'
            "<th>numbering</th><th>numbers</th>"
            "<th>what it is</th><th>the first position</th><th>source</th></tr></thead><tbody>"]
    for scheme in family.schemes.values():
        source = "this family's own" if scheme.canonical else \
            "every family has it" if scheme.builtin else scheme.spec.source
        body.append(f"<tr><td><code>{escape(scheme.name)}</code></td>"
                    f"<td>{escape(scheme.describe_range())}</td>"
                    f"<td>{escape(scheme.spec.title)}</td>"
                    f"<td>{escape(scheme.text(0))}</td><td>{escape(source)}</td></tr>")
    body.append("</tbody></table></div>")
    return body


def _rules(report: FamilyReport) -> list[str]:
    """The rules in words, and a legend of the pieces as drawn."""
    from solver.report import names_of

    family = report.family
    shogi = _shogi(family)
    body: list[str] = []
    body.append("<h2>The rules in words</h2>")
    body.append("<ul>" + "".join(f"<li>{inline(line)}</li>" for line in report.board) + "</ul>")
    if report.rules:
        body.append("<p>Every rank obeys these rules:</p><ol>")
        body.extend(f"<li>{inline(words)} <code>{escape(label)}</code></li>"
                    for label, words in report.rules)
        body.append("</ol>")
    elif family.ruleset.armies:
        body.append("<p>No rule: each army stands as written.</p>")
    else:
        body.append("<p>No rule: every arrangement of the pieces is a start position.</p>")
    names = names_of(family)
    token = _token(family)
    body.append('<div class="legend">' + "".join(
        f"<span>{piece_icon(x, True, shogi, n, token)} <code>{escape(x)}</code> {escape(n)}</span>"
        for x, n in names.items()) + "</div>")
    return body


def _proof(report: FamilyReport) -> list[str]:
    """The count and what ``chess960 check`` proves."""
    rs = report.family.ruleset
    body: list[str] = []
    body.append("<h2>Count and proof</h2>")
    if rs.sides.independent and report.family.linked:  # a link, or the pairings of armies
        tie = "one of the pairings" if rs.armies else "a pair the link ties"
        body.append(f"<p>Each side has {report.side_count:,} ranks; a position is {tie}: "
                    f"{report.count:,} positions.</p>")
    elif rs.sides.independent:
        body.append(f"<p>Each side has {report.side_count:,} ranks; a position is a pair of "
                    f"ranks: {report.side_count:,} &times; {report.side_count:,} = "
                    f"{report.count:,} positions.</p>")
    else:
        side = "Black's" if rs.sides.fixed_white else "White's"
        body.append(f"<p>{report.count:,} positions, one for each of {side} "
                    f"{report.side_count:,} ranks. Numbering: "
                    f"<code>{escape(rs.numbering)}</code>.</p>")
    proof = report.proof
    if proof is None:
        body.append('<p class="note">Not proven here (run <code>chess960 check --rules '
                    f"{escape(rs.name)}</code>).</p>")
    else:
        verdict = "proven" if proof.ok else "NOT proven"
        body.append(f"<p>What <code>chess960 check</code> proves ({verdict}):</p>")
        body.append('<div class="scroll"><table><tbody>')
        for claim in proof.claims:
            mark, css = ("ok", "ok") if claim.ok else ("FAIL", "fail")
            detail = f": {inline(claim.detail)}" if claim.detail else ""
            body.append(f'<tr><td class="{css}">{mark}</td>'
                        f'<td class="claim">{inline(claim.text)}{detail}</td></tr>')
        body.append("</tbody></table></div>")

    return body


#: A region of more squares than this has its heat map turned: a row a square.
WIDE_REGION: Final = 12


def _heatmap(heat: Heatmap, names: Mapping[str, str], shogi: bool,
             token: bool = False) -> list[str]:
    """The table of how often each piece stands on each square, shaded: a row a
    piece, or, for a region of many squares, a row a square (so it stays narrow)."""
    peak = max((v for row in heat.cells.values() for v in row), default=0) or 1

    def cell(value: int) -> str:
        share = value / heat.total if heat.total else 0.0
        level = value / peak
        ink = "#ffffff" if level > 0.6 else "#1a1a1a"
        red, green, blue = (int(255 - k * level) for k in (200, 120, 40))
        return (f'<td class="cell" style="background: rgb({red}, {green}, {blue}); '
                f'color: {ink}" title="{value:,} of {heat.total:,}">{100 * share:.1f}%</td>')

    def piece(letter: str) -> str:
        name = names.get(letter, letter)
        return f"{piece_icon(letter, True, shogi, name, token)} {escape(name)}"

    out = [f"<p>How often each piece stands on each square the shuffled pieces fill, over all "
           f"{heat.total:,} ranks (a piece the family has twice counts on both its "
           "squares):</p>", '<div class="scroll"><table class="heat"><thead><tr>']
    letters = list(heat.cells)
    if len(heat.squares) > WIDE_REGION:
        out.append('<th class="name">square</th>'
                   + "".join(f'<th class="name">{piece(x)}</th>' for x in letters)
                   + "</tr></thead><tbody>")
        out.extend(f'<tr><td class="name">{escape(square)}</td>'
                   + "".join(cell(heat.cells[x][i]) for x in letters) + "</tr>"
                   for i, square in enumerate(heat.squares))
    else:
        out.append('<th class="name">piece</th>'
                   + "".join(f"<th>{escape(s)}</th>" for s in heat.squares)
                   + "</tr></thead><tbody>")
        out.extend(f'<tr><td class="name">{piece(x)}</td>'
                   + "".join(cell(v) for v in heat.cells[x]) + "</tr>" for x in letters)
    out.append("</tbody></table></div>")
    return out


def _mirrors(family: Family, found: Mirrors) -> list[str]:
    from solver.report import SHOWN, side_id

    out = [f"<p>Of {found.total:,} ranks: {len(found.pairs):,} mirror pairs "
           f"({2 * len(found.pairs):,} ranks), {len(found.symmetric):,} symmetric "
           f"(their own mirror), {found.outside:,} whose mirror is not in the family.</p>"]
    if found.pairs:
        out.append("<p>Some mirror pairs (rank and number):</p><ul>")
        out.extend(f"<li><code>{escape(a)}</code> ({side_id(family, a)}) &harr; "
                   f"<code>{escape(b)}</code> ({side_id(family, b)})</li>"
                   for a, b in found.pairs[:SHOWN // 2])
        out.append("</ul>")
    if found.symmetric:
        shown = ", ".join(f"<code>{escape(r)}</code>" for r in found.symmetric[:SHOWN])
        more = f" and {len(found.symmetric) - SHOWN:,} more" if len(found.symmetric) > SHOWN else ""
        out.append(f"<p>Symmetric ranks: {shown}{more}.</p>")
    return out


# -- a tournament plan ---------------------------------------------------------------


def plan_page(family: Family, positions: Sequence[Position], *, fens: Sequence[str],
              details: Sequence[tuple[str, str]] = ()) -> str:
    """A printable plan: one board a round, with the round, the number, the FEN
    (``fens``, as the plan's table writes them) and the set-up read left to right;
    ``details`` (name, value) describe the draw (seed, exclusions, ...).

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> html = plan_page(chess960, [chess960.position(518)], fens=["rnbqkbnr/... w KQkq - 0 1"])
    >>> html.count('<section class="round">'), "R N B Q K B N R" in html
    (1, True)
    """
    from solver.output.diagram import number_text
    from solver.report import names_of, squares_text

    rs = family.ruleset
    names = names_of(family)
    body = [f"<h1>Tournament plan: {escape(rs.title)}</h1>",
            f'<p class="sub"><code>{escape(rs.name)}</code> &middot; {len(positions)} '
            f"{'round' if len(positions) == 1 else 'rounds'}</p>"]
    if details:
        body.append('<div class="scroll"><table><tbody>' + "".join(
            f'<tr><th class="name">{escape(k)}</th><td class="name">{escape(v)}</td></tr>'
            for k, v in details) + "</tbody></table></div>")
    key = ", ".join(f"{x} {n}" for x, n in names.items())
    body.append(f'<p class="note">Letters: {escape(key)}.</p>')
    for number, (position, fen) in enumerate(zip(positions, fens, strict=True), 1):
        reading = "<br>".join(f"<code>{escape(span)}</code>: {escape(letters)}"
                              for span, letters in squares_text(family, position))
        body.extend([
            '<section class="round">',
            f"<h2>Round {number}</h2>",
            "<dl>",
            f"<dt>Number</dt><dd>{escape(number_text(family, position))}</dd>",
            f'<dt>FEN</dt><dd class="fen">{escape(fen)}</dd>',
            f"<dt>Set-up, left to right</dt><dd>{reading}</dd>",
            "</dl>",
            f"<figure>{_board(family, position, 56)}</figure>",
            "</section>",
        ])
    return page(f"Plan: {rs.name}, {len(positions)} rounds", body)
