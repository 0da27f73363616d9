"""The pages looked at in headless Chromium, as a person would look at them.

For each family, ``chess960 report`` and ``chess960 plan --html`` write a page
(through the installed command); Chromium loads it over the DevTools protocol
(:mod:`browser`), and the test checks what a reader would meet: a page that
is not blank (the screenshot, decoded with zlib, has many colours, a fair
share of non-white pixels, and the board's own square colours), no console
error or uncaught exception, and no request but the page's own file. The
HTML itself is parsed for addresses on the network too.

Slow (a browser a page); skipped, saying so, where Chromium is absent (CI
installs Debian's ``chromium``). ``CHESS960_SCREENSHOTS=DIR`` keeps the
screenshots in DIR to look at.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from browser import chromium, png_pixels, render
from test_pages import network_references

from solver.output.diagram import DARK, LIGHT, SHOGI_BOARD
from solver.output.pieces import WOOD

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(chromium() is None, reason="Chromium is not installed (Debian: "
                       "apt-get install chromium); the pages were not rendered"),
]

COMMAND = Path(sys.executable).with_name("chess960")
FAMILIES = ["chess960", "capablanca-random-full", "racing-kings", "chess99-random",
            "shogi-shuffle"]


def _rgb(colour: str) -> bytes:
    return bytes.fromhex(colour.lstrip("#"))


def _page(kind: str, family: str, folder: Path) -> Path:
    target = folder / f"{kind}-{family}.html"
    if kind == "report":
        args = ["report", "--rules", family, "-o", str(target)]
    else:
        args = ["plan", "--rounds", "3", "--seed", "pages", "--rules", family,
                "--html", str(target)]
    done = subprocess.run([str(COMMAND), *args], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return target


@pytest.mark.parametrize("kind", ["report", "plan"])
@pytest.mark.parametrize("family", FAMILIES)
def test_page_renders(kind: str, family: str, tmp_path: Path) -> None:
    page = _page(kind, family, tmp_path)
    html = page.read_text(encoding="utf-8")
    assert network_references(html) == []
    shown = render(page)
    keep = os.environ.get("CHESS960_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        (Path(keep) / f"{kind}-{family}.png").write_bytes(shown.png)
    assert shown.errors == []
    assert shown.requests == [page.resolve().as_uri()]
    width, height, colours = png_pixels(shown.png)
    assert width >= 400 and height >= 600  # (half the page's CSS pixels)
    assert len(colours) > 100  # pieces, text and shading, not a flat page
    pixels = width * height
    white = colours[b"\xff\xff\xff"]
    assert 0.05 < 1 - white / pixels < 0.95
    squares = [SHOGI_BOARD, WOOD] if family == "shogi-shuffle" else [LIGHT, DARK]
    for colour in squares:  # the boards were drawn
        assert colours[_rgb(colour)] > pixels // 100, colour


def test_the_browser_check_sees_errors_and_requests(tmp_path: Path) -> None:
    """The checks above can fail: a script error, a console error and a
    request to the network are each seen."""
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><body><p>x</p><img src="http://127.0.0.1:9/x.png">'
                    '<script>console.error("seen"); throw new Error("thrown")</script>'
                    "</body></html>", encoding="utf-8")
    shown = render(page)
    assert any("thrown" in e for e in shown.errors)
    assert any("seen" in e for e in shown.errors)
    assert "http://127.0.0.1:9/x.png" in shown.requests
    _, _, colours = png_pixels(shown.png)
    assert len(colours) < 100  # a nearly blank page fails the colour check


#: Measures, in the browser, how wide the page's content is and which SVG texts
#: run outside their SVG's viewBox (by their own bounding boxes), and writes it
#: on the body for ``--dump-dom`` to show.
MEASURE = """<script>
const found = {width: document.documentElement.scrollWidth, clipped: []};
for (const svg of document.querySelectorAll("svg[viewBox]")) {
  const box = svg.viewBox.baseVal;
  for (const text of svg.querySelectorAll("text")) {
    const b = text.getBBox();
    if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5
        || b.y + b.height > box.y + box.height + 0.5) {
      found.clipped.push(text.textContent + " " + (b.x + b.width) + " > " + box.width);
    }
  }
}
document.body.setAttribute("data-measured", JSON.stringify(found));
</script>"""


def measured(page: Path, folder: Path, width: int = 1200) -> dict[str, object]:
    """The page's content width and clipped SVG texts, at ``width`` CSS pixels."""
    import html
    import json
    import re

    command = chromium()
    assert command is not None
    probe = folder / f"measured-{page.name}"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"),
                     encoding="utf-8")
    done = subprocess.run([command, "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", f"--window-size={width},900",
                           f"--user-data-dir={folder / 'profile'}", "--dump-dom",
                           probe.resolve().as_uri()],
                          capture_output=True, text=True, timeout=120, check=False)
    found = re.search(r'data-measured="([^"]*)"', done.stdout)
    assert found, done.stderr[-2000:]
    result: dict[str, object] = json.loads(html.unescape(found.group(1)))
    return result


@pytest.mark.parametrize("family", ["janggi", "seirawan960", "horde960", "chess960",
                                    "capablanca-random-full", "shogi-shuffle"])
def test_page_fits_1200_pixels_and_no_svg_text_is_clipped(family: str, tmp_path: Path) -> None:
    """Issue 32: janggi's table ran off a 1,200 px page and captions were clipped."""
    page = _page("report", family, tmp_path)
    found = measured(page, tmp_path)
    assert found["width"] <= 1200  # type: ignore[operator]
    assert found["clipped"] == []
    svg = tmp_path / f"{family}.svg"
    done = subprocess.run([str(COMMAND), "show", "0", "--rules", family, "--svg", str(svg)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    framed = tmp_path / f"{family}-svg.html"
    framed.write_text(f"<!DOCTYPE html><html><body>{svg.read_text(encoding='utf-8')}</body>"
                      "</html>", encoding="utf-8")
    assert measured(framed, tmp_path)["clipped"] == []
