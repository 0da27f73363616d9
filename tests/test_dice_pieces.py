"""``chess960 dice --method pieces`` and ``--exclude``, checked apart from the code.

Golden data: the piece-by-piece rule as arbiters state it (light bishop on one
of b1 d1 f1 h1, dark bishop on one of a1 c1 e1 g1, queen on one of the 6 free
squares, knights on one of the 10 pairs of the 5 free squares in order, then
R K R), written here, followed for every accepted face sequence; the rank it
gives compared with python-chess's ``Board.from_chess960_pos`` of the ID the
tool's procedure gives (Scharnagl's numbering, an independent oracle).
"""

from __future__ import annotations

import itertools
import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from browser import chromium, png_pixels, render
from test_pages import network_references
from typer.testing import CliRunner

from solver.cli.app import app
from solver.cli.entry import dispatch
from solver.draws.procedure import distribution, procedure_from

chess = pytest.importorskip("chess", reason="python-chess (the oracle extra) is not installed")

runner = CliRunner()


def _rank_by_hand(light: int, dark: int, queen: int, knights: int) -> str:
    row = [""] * 8
    row["bdfh".index("bdfh"[light]) * 2 + 1] = "B"
    row[dark * 2] = "B"
    free = [f for f in range(8) if not row[f]]
    row[free[queen]] = "Q"
    free = [f for f in range(8) if not row[f]]
    pair = list(itertools.combinations(range(5), 2))[knights]
    for i in pair:
        row[free[i]] = "N"
    for f, piece in zip([f for f in range(8) if not row[f]], "RKR", strict=True):
        row[f] = piece
    return "".join(row)


def _number(data: dict[str, object], faces: dict[str, int]) -> int:
    weights = data["number"]
    assert isinstance(weights, dict)
    offset = data.get("offset", 0)
    assert isinstance(offset, int)
    return sum(w * faces[n] for n, w in weights.items()) + offset


@pytest.mark.parametrize("sides", [10, 6])
def test_every_face_sequence_gives_the_rank_the_rule_describes(sides: int) -> None:
    result = runner.invoke(app, ["dice", "--method", "pieces", "--dice", str(sides), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    names = [d["name"] for d in data["draws"]]
    low = 0 if sides == 10 else 1
    kept = {name: (low, low + sides - 1) for name in names}
    for condition in data["reject"]:
        ((name, (first, _)),) = condition.items()
        kept[name] = (low, first - 1)
    seen = set()
    for faces in itertools.product(*(range(a, b + 1) for a, b in kept.values())):
        values = dict(zip(names, faces, strict=True))
        digits = [f - low for f in faces]
        if sides == 10:
            light, dark, queen, knights = digits
        else:  # the knights' pair: two rolls, 5 then 2 faces, read row then column
            light, dark, queen, first, second = digits
            knights = first * 2 + second
        number = _number(data, values)
        oracle = chess.Board.from_chess960_pos(number)
        rank = "".join((oracle.piece_at(chess.square(f, 0)) or chess.Piece(1, True)).symbol()
                       for f in range(8)).upper()
        assert rank == _rank_by_hand(light, dark, queen, knights), (values, number)
        seen.add(number)
    assert seen == set(range(960))


def test_pieces_json_is_verified_uniform() -> None:
    made = runner.invoke(app, ["dice", "--method", "pieces", "--json"])
    checked = runner.invoke(app, ["verify", "-"], input=made.stdout)
    assert checked.exit_code == 0, checked.stderr
    assert checked.stdout.endswith("uniform: each of the 960 ids has probability 1/960\n")
    assert "worked out by counting" in checked.stdout


def test_exclude_chess959_is_uniform_over_the_rest() -> None:
    made = runner.invoke(app, ["dice", "--exclude", "chess959", "--json"])
    assert made.exit_code == 0 and made.stderr == "excluded: chess959 (518)\n"
    data = json.loads(made.stdout)
    assert data["exclude"] == [[518, 518]]
    checked = runner.invoke(app, ["verify", "-"], input=made.stdout)
    assert checked.exit_code == 0, checked.stderr
    assert "  1 id 518: left out\n" in checked.stdout
    assert checked.stdout.endswith("uniform: each of the 959 ids left in has probability "
                                   "1/959\n")
    found = distribution(procedure_from(data))
    assert found.probabilities[518] == 0
    assert set(found.probabilities[:518] + found.probabilities[519:]) == {Fraction(1, 959)}
    text = runner.invoke(app, ["dice", "--exclude", "chess959"]).stdout
    assert "4. If the id is one left out (518), start again from step 1." in text
    pieces = runner.invoke(app, ["dice", "--method", "pieces", "--exclude", "chess959"]).stdout
    assert "RNBQKBNR (518), start again" in pieces


def test_a_range_left_out() -> None:
    made = runner.invoke(app, ["dice", "--exclude", "0-949", "--json"])
    checked = runner.invoke(app, ["verify", "-"], input=made.stdout)
    assert checked.exit_code == 0
    assert "10 ids 950..959: probability 1/10 each" in checked.stdout


def test_dfrc_is_answered_by_counting() -> None:
    for how in ([], ["--method", "pieces"]):
        made = runner.invoke(app, ["dice", "--rules", "dfrc", *how, "--json"])
        checked = runner.invoke(app, ["verify", "-"], input=made.stdout)
        assert checked.exit_code == 0, checked.stderr
        assert "921,600 ids 0..921599: probability 1/921600 each" in checked.stdout
        assert "worked out by counting" in checked.stdout


def test_a_crafted_procedure_that_is_not_uniform_still_fails() -> None:
    made = json.loads(runner.invoke(app, ["dice", "--method", "pieces", "--json"]).stdout)
    made["reject"] = made["reject"][1:]  # the light bishop's faces 4..9 kept: not ids
    made["id"] = "remainder"
    checked = runner.invoke(app, ["verify", "-"], input=json.dumps(made))
    assert checked.exit_code == 1 and "not uniform" in checked.stderr


@pytest.mark.parametrize(("argv", "message"), [
    (["--rules", "chess480"], "chess480 cannot be drawn piece by piece"),
    (["--rules", "shuffle", "--dice", "6"], "step 'Q' has 7 choices"),
    (["--cards"], "not --count or --cards"),
    (["--exclude", "0-949"], "at most 12"),
])
def test_pieces_refuses_with_one_line(argv: list[str], message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["dice", "--method", "pieces", *argv]) in (1, 2)
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and message in err, err
    assert err.count("\n") == 1


@pytest.mark.parametrize("how", [["--method", "pieces", "--dice", "6"],
                                 ["--exclude", "chess959"]])
def test_the_sheet_is_one_self_contained_page(how: list[str], tmp_path: Path) -> None:
    path = tmp_path / "sheet.html"
    result = runner.invoke(app, ["dice", *how, "--html", str(path)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("To draw one of the 960 chess960 positions")
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</html>\n")
    assert network_references(page) == [] and "<script" not in page
    if "pieces" in how:  # every face of each table, and each square it gives
        assert page.count("<table>") == 4
        assert "<td>1</td><td>2</td><td>3</td><td>4</td>" in page
        assert "<td>b1</td><td>d1</td><td>f1</td><td>h1</td>" in page
        assert "<td>5 then 2</td>" in page and "<td>4th+5th</td>" in page
    else:
        assert "If the id is one left out (518), start again from step 1." in page
    alone = runner.invoke(app, ["dice", *how, "--html", "-"])
    assert alone.stdout == page


@pytest.mark.slow
@pytest.mark.skipif(chromium() is None, reason="Chromium is not installed (Debian: "
                    "apt-get install chromium); the sheet was not rendered")
def test_the_sheet_renders_in_a_browser(tmp_path: Path) -> None:
    path = tmp_path / "sheet.html"
    assert runner.invoke(app, ["dice", "--method", "pieces", "--dice", "6",
                               "--html", str(path)]).exit_code == 0
    shown = render(path)
    keep = os.environ.get("CHESS960_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        (Path(keep) / "dice-sheet.png").write_bytes(shown.png)
    assert shown.errors == [] and shown.requests == [path.resolve().as_uri()]
    width, height, colours = png_pixels(shown.png)
    assert width >= 400 and height >= 300
    white = colours[b"\xff\xff\xff"]
    assert 0.02 < 1 - white / (width * height) < 0.5  # text and tables on a white page
    assert colours[bytes.fromhex("e8e4da")] > 200  # the tables' heading cells were drawn
