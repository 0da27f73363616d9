"""Physical draws: ``chess960 dice`` and ``verify`` of a described procedure.

Golden data, worked out here apart from :mod:`solver.draws.procedure` (which
follows the draws once, merging equal states): every outcome of a procedure
enumerated one by one from its JSON, as the README describes the format, with
exact fractions; the three boxes of digits by hand (a number below 900 is
three free digits, 1/10 each: 1/1000; 900..959 is a 9, one of six digits
and a free one: 1/10 x 1/6 x 1/10 = 1/600); and the words ``dice`` prints,
read back and followed (their weights, their limit, their bands).
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from typer.testing import CliRunner

from solver.cli.app import app
from solver.cli.entry import dispatch
from solver.draws import procedure as procedures
from solver.draws.dice import card_number, dice
from solver.draws.procedure import (
    check_uniform,
    distribution,
    procedure_from,
    read_procedure,
)
from solver.errors import (
    Chess960Error,
    DiceError,
    DrawCountError,
    NotUniformError,
    ProcedureError,
)

runner = CliRunner()

#: The draw a ChessBase article recommends for Freestyle events: three boxes of
#: digits, the second holding only 0..5 when the first gave 9.
THREE_BOXES: dict[str, Any] = {
    "format": "chess960-procedure/1",
    "name": "three boxes of digits",
    "count": 960,
    "draws": [
        {"name": "box 1", "from": 0, "to": 9},
        {"name": "box 2", "from": 0, "to": 9,
         "cases": [{"when": {"box 1": [9, 9]}, "from": 0, "to": 5}]},
        {"name": "box 3", "from": 0, "to": 9},
    ],
    "number": {"box 1": 100, "box 2": 10, "box 3": 1},
}


def enumerated(data: dict[str, Any]) -> tuple[dict[int, Fraction], Fraction]:
    """Every outcome of the procedure ``data``, one by one: the probability of
    each ID given that the procedure ends, and the chance a round starts over."""
    outcomes: list[tuple[dict[str, int], Fraction]] = [({}, Fraction(1))]
    for draw in data["draws"]:
        grown = []
        for values, chance in outcomes:
            low, high = draw["from"], draw["to"]
            for case in draw.get("cases", []):
                if all(a <= values[k] <= b for k, (a, b) in case["when"].items()):
                    low, high = case["from"], case["to"]
                    break
            grown += [({**values, draw["name"]: face}, chance / (high - low + 1))
                      for face in range(low, high + 1)]
        outcomes = grown
    ids: dict[int, Fraction] = {}
    again = Fraction(0)
    for values, chance in outcomes:
        number = sum(w * values[n] for n, w in data["number"].items()) + data.get("offset", 0)
        seen = {**values, "number": number}
        if any(all(a <= seen[k] <= b for k, (a, b) in c.items()) for c in data.get("reject", [])):
            again += chance
            continue
        number = number % data["count"] if data.get("id") == "remainder" else number
        assert 0 <= number < data["count"], values
        ids[number] = ids.get(number, Fraction(0)) + chance
    return {i: p / (1 - again) for i, p in ids.items()}, again


def counted(data: dict[str, Any]) -> tuple[Counter[int], int]:
    """For a procedure of plain draws (no cases): how many outcomes give each
    ID, and how many start over (every outcome equally likely)."""
    ranges = [range(d["from"], d["to"] + 1) for d in data["draws"]]
    weights = [data["number"].get(d["name"], 0) for d in data["draws"]]
    limit = data["reject"][0]["number"][0] if data.get("reject") else None
    ids: Counter[int] = Counter()
    again = 0
    for rolls in itertools.product(*ranges):
        number = sum(w * r for w, r in zip(weights, rolls, strict=True)) + data.get("offset", 0)
        if limit is not None and number >= limit:
            again += 1
            continue
        ids[number % data["count"] if data.get("id") == "remainder" else number] += 1
    return ids, again


# -- the three boxes ---------------------------------------------------------------------


def test_three_boxes_are_not_uniform() -> None:
    by_hand = {n: Fraction(1, 1000) if n < 900 else Fraction(1, 600) for n in range(960)}
    assert sum(by_hand.values()) == 1
    ids, again = enumerated(THREE_BOXES)
    assert ids == by_hand and again == 0
    found = distribution(procedure_from(THREE_BOXES))
    assert dict(enumerate(found.probabilities)) == by_hand and found.restart == 0
    assert not found.uniform
    with pytest.raises(NotUniformError) as info:
        check_uniform(procedure_from(THREE_BOXES), "three-boxes.json")
    assert info.value.groups == ((Fraction(1, 600), tuple(range(900, 960))),
                                 (Fraction(1, 1000), tuple(range(900))))
    assert (info.value.count, info.value.name) == (960, "three-boxes.json")
    assert isinstance(info.value, ProcedureError) and isinstance(info.value, Chess960Error)


def test_verify_says_the_three_boxes_are_not_uniform(tmp_path: Path) -> None:
    path = tmp_path / "three-boxes.json"
    path.write_text(json.dumps(THREE_BOXES))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:] == [
        "  starts over: probability 0",
        "  60 ids 900..959: probability 1/600 each",
        "  900 ids 0..899: probability 1/1000 each",
        "  worked out state by state (at most 960 states)",
    ]
    assert result.stderr == (f"error: {path}: not uniform: 60 ids (900..959) have probability "
                             f"1/600 each, 900 ids (0..899) 1/1000 each (uniform: 1/960)\n")


# -- dice for 960 ------------------------------------------------------------------------


@pytest.mark.parametrize("how", [[], ["--dice", "6"], ["--dice", "20"], ["--dice", "2"],
                                 ["--cards"]])
def test_dice_for_960_are_uniform(how: list[str]) -> None:
    result = runner.invoke(app, ["dice", *how, "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    ids, again = counted(data)
    assert set(ids) == set(range(960)) and len(set(ids.values())) == 1
    assert again * 2 < again + ids.total()  # a round starts over less than half the time
    exact, restart = enumerated(data)
    assert exact == {n: Fraction(1, 960) for n in range(960)}
    assert restart == Fraction(again, again + ids.total())
    checked = runner.invoke(app, ["verify", "-"], input=result.stdout)
    assert checked.exit_code == 0
    assert checked.stdout.endswith("uniform: each of the 960 ids has probability 1/960\n")


def _found(pattern: str, text: str) -> str:
    match = re.search(pattern, text, re.MULTILINE)
    assert match is not None, (pattern, text)
    return match.group(1)


def _follow_words(lines: list[str], count: int, sides: int, cards: bool) -> Counter[int]:
    """The IDs the printed steps give, outcome by outcome, read from the words:
    the weights of step 2, the limit of the step that starts again, the bands."""
    text = "\n".join(lines)
    if sides == 10 and not cards:
        rolls = int(_found(r"Roll the die (\d+) times", text))
    else:
        rolls = len(_found(r": ([a-z](?:, [a-z])*)\.$", text).split(", "))
    formula = re.search(r"Work out the number (.*?), from", text)
    weights = ([int(m.replace(",", "")) for m in re.findall(r"×([\d,]+)", formula.group(1))] + [1]
               if formula else [10 ** (rolls - 1 - i) for i in range(rolls)])
    limit = re.search(r"If the number is ([\d,]+) or more", text)
    stop = int(limit.group(1).replace(",", "")) if limit else None
    bands = [(int(a.replace(",", "")), int(b.replace(",", "")), int(c.replace(",", "")))
             for a, b, c in re.findall(r"the number − ([\d,]+) if it is ([\d,]+) to ([\d,]+)",
                                       text)]
    low = 0 if sides == 10 or cards else 1
    found: Counter[int] = Counter()
    for faces in itertools.product(range(low, low + sides), repeat=rolls):
        number = sum(w * (f - low) for w, f in zip(weights, faces, strict=True))
        if stop is not None and number >= stop:
            continue
        if "is the position's id" in text:
            found[number] += 1
        elif "remainder of the number divided by" in text:
            found[number % count] += 1
        else:
            minus = next((m for m, a, b in bands if a <= number <= b), 0)
            found[number - minus] += 1
    return found


@pytest.mark.parametrize(("count", "sides", "cards"), [
    (960, 10, False), (960, 6, False), (960, 52, True), (324, 6, False), (100, 52, True),
    (7, 6, False), (960, 20, False)])
def test_the_printed_steps_give_each_id_equally(count: int, sides: int, cards: bool) -> None:
    lines = dice(count, sides, cards=cards, family="x").lines()
    found = _follow_words(lines, count, sides, cards)
    assert set(found) == set(range(count)) and len(set(found.values())) == 1, lines


def test_dice_text_for_960_and_dfrc() -> None:
    result = runner.invoke(app, ["dice"])
    assert result.stdout.splitlines()[2:5] == [
        "1. Roll the die 3 times; the faces, in order, are a 3-digit number from 000 to 999.",
        "2. If the number is 960 or more, it does not count: start again from step 1.",
        "3. Otherwise the number is the position's id.",
    ]
    result = runner.invoke(app, ["dice", "--rules", "dfrc"])
    assert "Roll the die 6 times" in result.stdout and "921,600 or more" in result.stdout
    assert "`chess960 position ID --rules dfrc`" in result.stdout
    only = runner.invoke(app, ["dice", "-n", "1"]).stdout
    assert only == "There is only id 0: nothing to draw.\n"


@settings(max_examples=examples(8, 200))
@given(count=st.integers(1, 2500), sides=st.integers(2, 20), cards=st.booleans())
def test_any_count_is_drawn_uniformly(count: int, sides: int, cards: bool) -> None:
    stated = dice(count, sides, cards=cards)
    data = stated.procedure().data()
    ids, again = counted(data)
    assert set(ids) == set(range(count)) and len(set(ids.values())) == 1
    assert Fraction(again, again + ids.total()) == stated.restart < Fraction(1, 2)
    found = distribution(read_procedure(json.dumps(data)))
    assert found.uniform and found.restart == stated.restart


def test_card_numbers() -> None:
    deck = [f"{rank}{suit}" for suit in "♣♦♥♠"
            for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    assert [card_number(card) for card in deck] == list(range(52))
    assert "clubs ♣ 0 to 12, diamonds ♦ 13 to 25, hearts ♥ 26 to 38, spades ♠ 39 to 51" in (
        runner.invoke(app, ["dice", "--cards"]).stdout)


def test_a_naive_remainder_is_not_uniform() -> None:
    naive = {"format": "chess960-procedure/1", "name": "four dice, remainder", "count": 960,
             "draws": [{"name": f"d{i}", "from": 1, "to": 6} for i in range(4)],
             "number": {"d0": 216, "d1": 36, "d2": 6, "d3": 1}, "offset": -259,
             "id": "remainder"}
    exact, _ = enumerated(naive)
    assert exact[0] == Fraction(2, 1296) and exact[959] == Fraction(1, 1296)
    with pytest.raises(NotUniformError) as info:
        check_uniform(procedure_from(naive))
    assert [(p, len(ids)) for p, ids in info.value.groups] == [
        (Fraction(1, 648), 336), (Fraction(1, 1296), 624)]


# -- wrong procedures and usage ----------------------------------------------------------


def _changed(**changes: Any) -> dict[str, Any]:
    return {**THREE_BOXES, **changes}


@pytest.mark.parametrize(("data", "message"), [
    (_changed(draws=[{"name": "box 1", "from": 0, "to": 9},
                     {"name": "box 2", "from": 0, "to": 9},
                     {"name": "box 3", "from": 0, "to": 9}]),
     "the number 960 (and 39 other numbers) is no id of 0..959 and does not start over "
     "(probability 1/25)"),
    (_changed(reject=[{"number": [0, 999]}]), "every outcome starts over: it never ends"),
    (_changed(colour="red"), "the procedure has an unknown key 'colour'"),
    (_changed(format="chess960-procedure/2"), "'format' should be 'chess960-procedure/1'"),
    (_changed(count=0), "'count' should be a whole number of at least 1, not 0"),
    (_changed(count=True), "'count' should be a whole number of at least 1, not true"),
    (_changed(number={"box 4": 1}), "'number' weighs 'box 4', which is no draw"),
    (_changed(draws=[{"name": "a", "from": 0, "to": 9,
                      "cases": [{"when": {"b": [0, 0]}, "from": 0, "to": 1}]},
                     {"name": "b", "from": 0, "to": 9}]),
     "draw 'a''s case 1 'when' names 'b': it may name none"),
    (_changed(draws=[{"name": "a", "from": 5, "to": 4}]), "draw 'a' should give from 1 to"),
    (_changed(draws=[{"name": "a", "from": 0, "to": 1}, {"name": "a", "from": 0, "to": 1}]),
     "draw 2 needs a name of its own"),
    (_changed(reject=[{}]), "reject condition 1 is empty"),
    (_changed(reject=[{"number": [1]}]), "'number' should be a range [low, high]"),
    (_changed(id="modulo"), "'id' should be 'number' or 'remainder'"),
    (_changed(exclude=[[5, 960]]), "'exclude' range 1 should be [low, high] with 0 <= low <= "
                                   "high <= 959, not [5, 960]"),
    (_changed(exclude={"5": 6}), "'exclude' should be a list of id ranges [low, high]"),
])
def test_wrong_procedures_are_named(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ProcedureError) as info:
        distribution(read_procedure(json.dumps(data), "p.json"), "p.json")
    assert message in str(info.value) and str(info.value).startswith("p.json: ")


def test_too_large_to_follow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(procedures, "MAX_STATES", 500)
    with pytest.raises(ProcedureError, match="more than 500 states to follow"):
        distribution(procedure_from(THREE_BOXES))


def test_verify_reads_files_and_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{\"format\": ")
    (tmp_path / "other.json").write_text("[1, 2]")
    (tmp_path / "huge.json").write_text('{"format": "chess960-procedure/1", "count": 1'
                                        + "0" * 5000 + "}")
    (tmp_path / "deep.json").write_text("[" * 100_000)
    (tmp_path / "latin1.json").write_bytes(b'{"name": "\xe9"}')
    cases = [
        ([str(tmp_path / "huge.json")], "not JSON this reader takes: exceeds the limit"),
        ([str(tmp_path / "deep.json")], "not JSON"),
        ([str(tmp_path / "latin1.json")], "not UTF-8 text (byte 10)"),
        ([str(tmp_path / "bad.json")], "not JSON: line 1 column 12"),
        ([str(tmp_path / "other.json")], "neither a draw certificate nor a procedure"),
        ([str(tmp_path / "missing.json")], "cannot read"),
        ([str(tmp_path)], "not a regular file"),
    ]
    for argv, message in cases:
        result = runner.invoke(app, ["verify", *argv])
        assert result.exit_code == 1 and result.stdout == "", argv
        assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1
    (tmp_path / "d.json").write_text(json.dumps(THREE_BOXES))
    result = runner.invoke(app, ["verify", str(tmp_path / "d.json"), "--rules", "chess960"])
    assert result.exit_code == 2 and "--rules is for certificates" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("argv", "code", "message"), [
    (["dice", "--dice", "1"], 2, "invalid value for '--dice'"),
    (["dice", "--dice", "6", "--cards"], 2, "give --dice or --cards, not both"),
    (["dice", "--rules", "dfrc", "--count", "5"], 2, "give --rules or --count, not both"),
    (["dice", "--count", "0"], 2, "invalid value for '--count'"),
    (["dice", "--rules", "chess961"], 1, "chess961"),
    (["dice", "--count", str(10**30), "--dice", "2"], 1, "takes 100 rolls, more than 26"),
    (["dice", "--count", "10", "--exclude", "12"], 1, "--count 10 id 12 is out of range 0..9"),
    (["dice", "--count", "10", "--exclude", "chess959"], 1,
     "'chess959' is neither a position id nor an exclusion preset of --count 10"),
    (["dice", "--count", "3", "--exclude", "0-2"], 1, "every one of the 3 ids is left out"),
    (["dice", "--method", "pieces", "--exclude", "5-4"], 1, "range '5-4' is reversed"),
    (["dice", "--method", "dice"], 2, "--method is 'id' or 'pieces', not 'dice'"),
    (["dice", "--json", "--html", "x.html"], 2, "give --json or --html, not both"),
])
def test_dice_refuses(argv: list[str], code: int, message: str,
                      capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(argv) == code
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and message in err, err
    assert err.count("\n") == 1


def test_library_errors_carry_details() -> None:
    with pytest.raises(DiceError) as info:
        dice(960, 1)
    assert (info.value.sides, info.value.count) == (1, 960)
    with pytest.raises(DrawCountError):
        dice(0)


# -- bounded by work (issue 33) -----------------------------------------------------------

#: Two draws of a million faces each (the second weighs nothing): 300 bytes whose
#: exact distribution would take 10**12 steps, hours, before the work was bounded.
TWO_MILLIONS = {
    "format": "chess960-procedure/1", "name": "two draws of a million", "count": 1_000_000,
    "draws": [{"name": "a", "from": 0, "to": 999_999}, {"name": "b", "from": 0, "to": 999_999}],
    "number": {"a": 1},
}


def test_a_procedure_past_the_work_limit_is_refused_at_once(tmp_path: Path) -> None:
    # The two independent draws are counted (a run of a million numbers, spread over
    # the second draw's weight 0 at once); a case makes the draws dependent: state by
    # state, 10**12 steps, refused before any is made.
    found = distribution(procedure_from(TWO_MILLIONS))
    assert found.uniform and found.method.startswith("by counting")
    dependent = {**TWO_MILLIONS, "draws": [
        TWO_MILLIONS["draws"][0],
        {**TWO_MILLIONS["draws"][1], "cases": [{"when": {"a": [0, 0]}, "from": 0, "to": 1}]}]}
    path = tmp_path / "two.json"
    path.write_text(json.dumps(dependent))
    assert len(path.read_bytes()) < 400
    message = (f"{path}: up to 1,000,002,000,000 steps of work (every face of each draw "
               f"from every state the draws before it may leave, and every id), more than "
               f"4,000,000: too large to work out exactly here")
    # The installed command (hours before the work was bounded): one error line, exit 1.
    done = subprocess.run([sys.executable, "-m", "solver", "verify", str(path)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=30, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"error: {message}\n")
    started = time.perf_counter()  # refused before any step is made
    with pytest.raises(ProcedureError) as info:
        distribution(read_procedure(path.read_text(), str(path)), str(path))
    assert time.perf_counter() - started < 0.5
    assert str(info.value) == message


@pytest.mark.slow
def test_counting_stops_past_the_work_limit() -> None:
    # two draws of a million, both weighing 1: a million numbers of a million masses
    crossed = {**TWO_MILLIONS, "number": {"a": 1, "b": 1}, "count": 2_000_000}
    started = time.perf_counter()
    with pytest.raises(ProcedureError, match="more than 1,000,000 runs of equally likely"):
        distribution(procedure_from(crossed))
    assert time.perf_counter() - started < 10


def test_counting_stops_at_its_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    crossed = {**TWO_MILLIONS, "draws": [{"name": "a", "from": 0, "to": 999},
                                         {"name": "b", "from": 0, "to": 999}],
               "number": {"a": 1, "b": 1}, "count": 2000}
    monkeypatch.setattr(procedures, "MAX_STATES", 500)
    with pytest.raises(ProcedureError, match="more than 500 runs of equally likely"):
        distribution(procedure_from(crossed))
    monkeypatch.setattr(procedures, "MAX_WORK", 900)
    with pytest.raises(ProcedureError, match="more than 900 steps of work counting"):
        distribution(procedure_from(crossed))


@st.composite
def independent_procedures(draw: st.DrawFn) -> dict[str, Any]:
    """Procedures :func:`distribution` works out by counting: no cases, each
    reject condition on one draw or on the number."""
    data = draw(small_procedures())
    for item in data["draws"]:
        item.pop("cases", None)
    reject = [{item["name"]: [item["from"] + 1, item["to"]]} for item in data["draws"]
              if item["to"] > item["from"] and draw(st.booleans())]
    if draw(st.booleans()):
        low = draw(st.integers(-20, 40))
        reject.append({"number": [low, low + draw(st.integers(0, 10))]})
    data["reject"] = reject
    data["id"] = draw(st.sampled_from(["remainder", "number"]))
    if data["id"] == "number":  # every number an id: 0 .. the largest
        weights = [data["number"][item["name"]] for item in data["draws"]]
        ends = [sorted((w * item["from"], w * item["to"]))
                for w, item in zip(weights, data["draws"], strict=True)]
        data["offset"] = -sum(low for low, _ in ends)
        data["count"] = sum(high - low for low, high in ends) + 1
    if draw(st.booleans()):
        data["exclude"] = [[1, 2]] if data["count"] > 2 else []
    return data


@settings(max_examples=examples(30, 1000))
@given(data=independent_procedures())
def test_counting_agrees_with_every_outcome_enumerated(data: dict[str, Any]) -> None:
    ids, again = enumerated(data)
    left_out = {n for low, high in data.get("exclude", []) for n in range(low, high + 1)}
    try:
        found = distribution(procedure_from(data))
    except ProcedureError as exc:
        assert "never ends" in str(exc) and all(n in left_out for n in ids)
        return
    assert found.method.startswith("by counting")
    kept = {n: p for n, p in ids.items() if n not in left_out}
    total = sum(kept.values())
    expected = {n: p / total for n, p in kept.items()}
    assert {n: p for n, p in enumerate(found.probabilities) if p} == expected
    assert found.restart == 1 - (1 - again) * total


def _work_followed(data: dict[str, Any]) -> int:
    """The steps of the README's exact method, followed here: from every state (the
    draws a case or a reject names, and the weighted sum so far), every face of the
    next draw; then every state left judged, and every id weighed."""
    kept = {k for d in data["draws"] for c in d.get("cases", []) for k in c["when"]}
    kept |= {k for c in data.get("reject", []) for k in c if k != "number"}
    states: set[tuple[tuple[int, ...], int]] = {((), 0)}
    names: list[str] = []
    work = data["count"]
    for draw in data["draws"]:
        grown = set()
        for values, total in states:
            seen = dict(zip(names, values, strict=True))
            low, high = draw["from"], draw["to"]
            for case in draw.get("cases", []):
                if all(a <= seen[k] <= b for k, (a, b) in case["when"].items()):
                    low, high = case["from"], case["to"]
                    break
            work += high - low + 1
            weight = data["number"].get(draw["name"], 0)
            grown |= {((*values, face) if draw["name"] in kept else values,
                       total + weight * face) for face in range(low, high + 1)}
        if draw["name"] in kept:
            names.append(draw["name"])
        states = grown
    return work + len(states)


@st.composite
def small_procedures(draw: st.DrawFn) -> dict[str, Any]:
    rolls = draw(st.integers(1, 4))
    draws: list[dict[str, Any]] = []
    for at in range(rolls):
        low = draw(st.integers(-3, 3))
        item: dict[str, Any] = {"name": f"d{at}", "from": low,
                                "to": low + draw(st.integers(0, 6))}
        if draws and draw(st.booleans()):
            earlier = draw(st.sampled_from(draws))
            case_low = draw(st.integers(-2, 5))
            item["cases"] = [{"when": {earlier["name"]: [earlier["from"], earlier["from"]]},
                              "from": case_low, "to": case_low + draw(st.integers(0, 8))}]
        draws.append(item)
    weights = {d["name"]: draw(st.integers(-4, 9)) for d in draws}
    data: dict[str, Any] = {"format": "chess960-procedure/1", "name": "p",
                            "count": draw(st.integers(1, 50)), "draws": draws,
                            "number": weights, "id": "remainder"}
    if draw(st.booleans()):
        named = draw(st.sampled_from(draws))["name"]
        data["reject"] = [{named: [0, 1]}]
    return data


@settings(max_examples=examples(20, 1000))
@given(data=small_procedures())
def test_the_work_is_estimated_from_above(data: dict[str, Any]) -> None:
    procedure = procedure_from(data)
    assert procedures.estimated_work(procedure) >= _work_followed(data)


def test_dfrcs_ten_sided_die_is_within_the_work_limit(tmp_path: Path) -> None:
    stated = dice(921_600, 10)
    assert procedures.estimated_work(stated.procedure()) == 3_032_710 <= procedures.MAX_WORK
    found = distribution(stated.procedure())
    assert found.uniform and found.restart == Fraction(78_400, 1_000_000)
