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
    made = runner.invoke(app, ["dice", "--method", "pieces", "--rules", "dfrc", "-x", "chess959"])
    assert "RNBQKBNR rnbqkbnr (497798), start again" in made.stdout  # 518 * 960 + 518
    made = runner.invoke(app, ["dice", "--method", "pieces", "-x", "chess958", "--json"])
    checked = runner.invoke(app, ["verify", "-"], input=made.stdout)
    assert "  2 ids 518, 534: left out\n" in checked.stdout and checked.exit_code == 0


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


# -- every family that allows it: the printed steps followed ---------------------------------

_PIECE_LETTERS = {"king": "K", "queen": "Q", "rook": "R", "bishop": "B", "knight": "N",
                  "archbishop": "A", "chancellor": "C"}


def _letter(what: str, own: dict[str, str]) -> str:
    name = what.removeprefix("the ").replace("light-squared ", "").replace("dark-squared ", "")
    names = {**_PIECE_LETTERS, **{v: k for k, v in own.items()}}
    return names.get(name) or names[name[:-1]]  # one piece, or several (plural)


def _light(square: str) -> bool:
    """a1 is dark: a square is light when its file and rank numbers add up to an odd sum."""
    return (ord(square[0]) - ord("a") + int(square[1:])) % 2 == 0


def _follow(steps: list[str], choices: list[int], files: int, rank: int,
            own: dict[str, str], last: str) -> str:
    """The rank the printed steps (``n. what on where: ...: face label, ...``) give
    for the choices made (an index into each step's table; one-way steps: 0)."""
    squares = [f"{chr(ord('a') + f)}{rank}" for f in range(files)]
    row = dict.fromkeys(squares, "")
    for text, choice in zip(steps, choices, strict=True):
        head, _, table = text.removesuffix(": the only way, no roll.").partition(
            ": roll the die")
        head = head.split(". ", 1)[1].removeprefix("White: ").removeprefix("Black: ")
        what, _, where = head.partition(" on ")
        letter = _letter(what, own)
        free = [s for s in squares if not row[s]]
        if " of the colour " in where:  # relative to a piece placed before
            there = next(s for s in squares if row[s] == _letter(
                "the " + where.split(" to the ")[1].removesuffix("'s"), own))
            same = " same " in where
            free = [s for s in free if (_light(s) == _light(there)) == same]
        elif " free light squares" in where or " free dark squares" in where:
            free = [s for s in free if _light(s) == (" light " in where)]
        if " on " in where.split("squares", 1)[-1]:
            allowed = where.rsplit(" on ", 1)[1].split(", ")
            free = [s for s in free if s in allowed]
        if table:
            label = table.split(": ", 1)[1].rstrip(".").split(", ")[choice].split(" ")[-1]
        else:  # the only way: every square it names, or every free one
            label = "+".join(free) if "free" in where else where.replace(", ", "+")
        for part in label.split("+"):
            target = part if part in row else free[int(part[:-2]) - 1]
            row[target] = letter
    if "in this order" in last:
        order = [_letter(name, own) for name in
                 last.split("Then the ", 1)[1].split(" on the ", maxsplit=1)[0].split(", ")]
        for square, letter in zip([s for s in squares if not row[s]], order, strict=True):
            row[square] = letter
    return "".join(row[s] for s in squares)


def _families() -> list[str]:
    from solver.family import _bundled_names

    return list(_bundled_names())


@pytest.mark.parametrize("name", _families())
def test_the_printed_steps_give_the_tools_positions(name: str) -> None:
    import random

    from solver.draws.dice import pieces
    from solver.errors import DiceError
    from solver.family import Family

    family = Family.load(name)
    try:
        found = pieces(family, 10)
    except DiceError as exc:
        assert "use --method id" in str(exc)
        return
    lines = found.lines()
    steps = [line for line in lines[2:] if line[:1].isdigit() and " on " in line]
    sides = ("White", "Black") if family.independent else ("",)
    tables = [step.choices for step in found.steps]
    weights = [step.weight for step in found.steps]
    if family.count <= 1000:
        picked = list(itertools.product(*(range(n) for n in tables)))
    else:  # 150 choices of each step at random (seeded), and the first and last ways
        chosen = random.Random(name)
        picked = [tuple(chosen.randrange(n) for n in tables) for _ in range(150)]
        picked += [tuple(0 for _ in tables), tuple(n - 1 for n in tables)]
    for choices in picked:
        number = sum(c * w for c, w in zip(choices, weights, strict=True))
        position = family.position(number)
        for side in sides:
            at = [i for i, step in enumerate(found.steps) if step.side == side]
            rank = 1 if side != "Black" else family.layout.ranks
            got = _follow([steps[i] for i in at], [choices[i] for i in at],
                          family.ruleset.region_size, rank, dict(family.names), found.last)
            want = position.black.upper() if side == "Black" else position.white
            assert got == want, (name, side, choices, number)
