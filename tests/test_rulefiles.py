"""Rule files: the documented format, every error it names, and user files on the CLI.

The worked example of ``rules/README.md`` is read from the README itself,
written to a file and solved, so the documentation cannot drift from the
code; its count is checked against a brute force (``tests/oracles.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from oracles import brute_force, capablanca_random_protected, chess960_rank, pawns_protected
from typer.testing import CliRunner

from solver import Family, RuleFileError, load
from solver.check import check
from solver.cli.app import app
from solver.errors import UnknownRuleSetError
from solver.ruleset.reader import parse, rules_dir

README = rules_dir() / "README.md"


def run(*args: str) -> tuple[str, str, int]:
    result = CliRunner().invoke(app, list(args), prog_name="chess960")
    if result.exc_info is not None and result.exc_info[0] is not SystemExit:
        raise AssertionError("the command raised") from result.exception
    return result.stdout, result.stderr, result.exit_code


# -- the worked example -------------------------------------------------------------


def worked_example() -> str:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"<!-- worked-example.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert found, "rules/README.md has no worked example"
    return found.group(1)


def test_worked_example_from_the_readme(tmp_path: Path) -> None:
    """The README's figures for its worked example (numbered by counting, not listing)."""
    path = tmp_path / "crc-protected.toml"
    path.write_text(worked_example(), encoding="utf-8")
    fam = Family.load(str(path))
    assert fam.ruleset.count == fam.count == 12_130
    assert fam.ruleset.numbering == "enumerated"
    readme = README.read_text(encoding="utf-8")
    assert "\n12130\n" in readme and "12,130 positions" in readme
    assert "12,129" in readme
    # ... and the ids it shows.
    assert fam.position(0).white == "BQACNBNRKR"
    assert fam.position(12_129).white == "RKRBNNACBQ"
    assert fam.identify("RNBQCKABNR").id == 6288


@pytest.mark.slow  # listing and brute-forcing a 10-file family, and its whole proof: CI
def test_worked_example_from_the_readme_is_proven(tmp_path: Path) -> None:
    path = tmp_path / "crc-protected.toml"
    path.write_text(worked_example(), encoding="utf-8")
    expected = capablanca_random_protected()
    fam = Family.load(str(path))
    assert len(expected) == 12_130
    assert set(fam.ranks()) == expected
    # The README's note on full CRC: leaving out Gothic Chess gives 12,129.
    assert "RNBQCKABNR" in expected and len(expected - {"RNBQCKABNR"}) == 12_129
    report = check(fam)
    assert report.ok, [c for c in report.claims if not c.ok]


# -- errors: file, key, message ------------------------------------------------------

BASE = """\
name = "mine"
title = "Mine"
source = "tests"
files = 8
pieces = "KQRRBBNN"
count = 960

[[rule]]
kind = "opposite-colours"
pieces = "BB"

[[rule]]
kind = "between"
piece = "K"
pair = "RR"

[numbering]
steps = ["B:light", "B:dark", "Q", "NN", "RKR"]
"""


def edit(old: str, new: str) -> Callable[[str], str]:
    def change(text: str) -> str:
        assert old in text
        return text.replace(old, new, 1)
    return change


def add(extra: str) -> Callable[[str], str]:
    return edit("\n[numbering]", f"\n{extra}\n\n[numbering]")


ERRORS: list[tuple[str, Callable[[str], str], str, str]] = [
    ("unknown top key", edit('title = "Mine"', 'title = "Mine"\nnmae = "x"'), "nmae",
     "unknown key 'nmae' (did you mean 'name'?)"),
    ("unknown numbering key", edit("[numbering]", "[numbering]\nstpes = []"), "numbering.stpes",
     "unknown key 'stpes' (did you mean 'steps'?)"),
    ("missing name", edit('name = "mine"\n', ""), "name", "missing"),
    ("missing count", edit("count = 960\n", ""), "count", "missing"),
    ("bad name", edit('name = "mine"', 'name = "My Family"'), "name",
     "'My Family' is not a short lower-case name"),
    ("files is a string", edit("files = 8", 'files = "8"'), "files",
     "expected an integer, got string '8'"),
    ("files is a boolean", edit("files = 8", "files = true"), "files",
     "expected an integer, got boolean True"),
    ("title is a number", edit('title = "Mine"', "title = 7"), "title",
     "expected a string, got integer 7"),
    ("too few files", edit("files = 8", "files = 3"), "files", "3 is not in 4..16"),
    ("too many files", edit("files = 8", "files = 17"), "files", "17 is not in 4..16"),
    ("unknown piece", edit('"KQRRBBNN"', '"KQRRBBNX"'), "pieces",
     "unknown piece 'X' in 'KQRRBBNX'; pieces are KQRBNAC"),
    ("pieces for files", edit('"KQRRBBNN"', '"KQRRBBN"'), "pieces",
     "'KQRRBBN' has 7 pieces for 8 files"),
    ("no king", edit('"KQRRBBNN"', '"QQRRBBNN"'), "pieces", "must have exactly one king"),
    ("negative count", edit("count = 960", "count = -1"), "count", "-1 is negative"),
    ("bad sides", edit("count = 960", 'count = 960\nsides = "indep"'), "sides",
     "got 'indep' (did you mean 'independent'?)"),
    ("independent count", edit("count = 960", 'count = 960\nsides = "independent"'), "count",
     "960 is not a square"),
    ("benchmark type", edit("count = 960", 'count = 960\nbenchmark = "yes"'), "benchmark",
     "expected a boolean, got string 'yes'"),
    ("rule as a table", edit("[[rule]]\nkind = \"opposite-colours\"\npieces = \"BB\"\n\n[[rule]]",
                             "[rule]"), "rule", "expected an array of tables"),
    ("unknown kind", edit('"between"', '"betwen"'), "rule[2].kind",
     "unknown kind 'betwen' (did you mean 'between'?)"),
    ("missing kind", add('[[rule]]\npieces = "QK"'), "rule[3].kind", "missing; kinds are"),
    ("kind not a string", edit('"between"', "3"), "rule[2].kind",
     "expected a string, got integer 3"),
    ("unknown rule key", edit('pair = "RR"', 'pair = "RR"\npeice = "Q"'), "rule[2].peice",
     "unknown key 'peice' for kind 'between' (keys: piece, pair) (did you mean 'piece'?)"),
    ("missing rule key", edit('pair = "RR"\n', ""), "rule[2].pair", "missing"),
    ("rule key type", edit('piece = "K"', "piece = 1"), "rule[2].piece",
     "expected a string, got integer 1"),
    ("unknown piece in rule", edit('piece = "K"', 'piece = "X"'), "rule[2].piece",
     "unknown piece 'X'"),
    ("absent piece in rule", edit('piece = "K"', 'piece = "A"'), "rule[2].piece",
     "piece 'A' is not among this family's pieces KQRRBBNN"),
    ("pair of a single piece", edit('pieces = "BB"', 'pieces = "QQ"'), "rule[1].pieces",
     "'QQ' names a pair but the family has 1 queen"),
    ("half a pair", edit('pieces = "BB"', 'pieces = "BQ"'), "rule[1].pieces",
     "'B' stands for 2 pieces; name a pair ('BB')"),
    ("three letters", edit('pieces = "BB"', 'pieces = "BBB"'), "rule[1].pieces",
     "expected two piece letters, got 'BBB'"),
    ("between itself", edit('piece = "K"', 'piece = "R"'), "rule[2].pair",
     "'RR' includes the piece 'R' itself"),
    ("file off the board", add('[[rule]]\nkind = "on-files"\npiece = "K"\nfiles = "ai"'),
     "rule[3].files", "'i' is not a file of this 8-file board (a..h)"),
    ("no files", add('[[rule]]\nkind = "not-on-files"\npiece = "K"\nfiles = []'),
     "rule[3].files", "names no file"),
    ("files type", add('[[rule]]\nkind = "on-files"\npiece = "K"\nfiles = 4'),
     "rule[3].files", "expected file letters, got integer 4"),
    ("short rank", add('[[rule]]\nkind = "differs-from"\nrank = "RNBQKBN"'), "rule[3].rank",
     "'RNBQKBN' is not an arrangement of the pieces KQRRBBNN"),
    ("at-least too big", add('[[rule]]\nkind = "differs-from"\nrank = "RNBQKBNR"\nat-least = 9'),
     "rule[3].at-least", "9 is not in 1..8"),
    ("at-least type", add('[[rule]]\nkind = "differs-from"\nrank = "RNBQKBNR"\nat-least = "2"'),
     "rule[3].at-least", "expected an integer, got string '2'"),
    ("exclude a string", add('[[rule]]\nkind = "exclude"\nranks = "RNBQKBNR"'), "rule[3].ranks",
     "expected a non-empty array of ranks"),
    ("exclude a wrong rank", add('[[rule]]\nkind = "exclude"\nranks = ["RNBQKBNN"]'),
     "rule[3].ranks", "'RNBQKBNN' is not an arrangement of the pieces"),
    ("steps not an array", edit('steps = ["B:light", "B:dark", "Q", "NN", "RKR"]',
                                'steps = "RKR"'), "numbering.steps",
     "expected a non-empty array of strings"),
    ("step syntax", edit('"B:light"', '"B:lite"'), "numbering.steps[1]",
     "step 'B:lite' is not LETTERS[:light|dark|opposite-X|same-X]"),
    ("step piece", edit('"Q"', '"X"'), "numbering.steps[3]", "step 'X' has an unknown piece 'X'"),
    ("mixing step not last", edit('"B:light", "B:dark", "Q", "NN", "RKR"',
                                  '"RKR", "B:light", "B:dark", "Q", "NN"'),
     "numbering.steps[1]", "step 'RKR' mixes pieces; only the last step may"),
    ("part of a group", edit('"NN"', '"N"'), "numbering.steps[4]",
     "step 'N' places 1 of 2 knights left; unqualified steps place them all"),
    ("pieces left over", edit(', "RKR"]', "]"), "numbering.steps[4]",
     "steps leave pieces unplaced: KRR"),
    ("relative to a later piece",
     edit('"B:light", "B:dark", "Q"', '"B:light", "B:dark", "N:opposite-Q"'),
     "numbering.steps[3]", "refers to 'Q', which no earlier step places"),
    ("unknown numbering kind", edit("[numbering]", '[numbering]\nkind = "arithmetik"'),
     "numbering.kind", "got 'arithmetik' (did you mean 'arithmetic'?)"),
    ("arithmetic with a rule no step captures",
     lambda t: add('[[rule]]\nkind = "pawns-protected"')(t).replace(
         "[numbering]", '[numbering]\nkind = "arithmetic"'),
     "numbering.kind", "the steps do not capture rule pawns-protected; use 'enumerated'"),
    ("arithmetic with uneven steps",
     lambda t: t.replace('"B:light", "B:dark", "Q"', '"Q", "B:light", "B:dark"').replace(
         "[numbering]", '[numbering]\nkind = "arithmetic"'),
     "numbering.kind", "step 2 'B:light' has 3 or 4 choices"),
    ("unknown reference", edit("[numbering]", '[numbering]\nreference = "scharnagel"'),
     "numbering.reference", "unknown reference 'scharnagel' (did you mean 'scharnagl'?)"),
]


@pytest.mark.parametrize(("change", "key", "message"), [e[1:] for e in ERRORS],
                         ids=[e[0] for e in ERRORS])
def test_each_error_names_the_file_and_the_key(
    change: Callable[[str], str], key: str, message: str
) -> None:
    text = change(BASE)
    with pytest.raises(RuleFileError) as info:
        parse(text, "bad.toml")
    error = info.value
    assert isinstance(error, ValueError)
    assert (error.path, error.key) == ("bad.toml", key)
    assert str(error).startswith(f"bad.toml: {key}: ")
    assert message in str(error)
    assert str(error) == str(error).split("\n")[0]  # one line
    hint = re.search(r"\(did you mean '([^']+)'\?\)$", str(error))
    assert error.suggestion == (hint.group(1) if hint else None)


def test_the_base_file_is_valid() -> None:
    rules = parse(BASE, "good.toml")
    assert (rules.name, rules.count, rules.numbering) == ("mine", 960, "arithmetic")


def test_toml_syntax_error_gives_the_line() -> None:
    text = BASE.replace("files = 8", "files = = 8")
    with pytest.raises(RuleFileError) as info:
        parse(text, "bad.toml")
    assert info.value.line == 4
    assert info.value.key is None
    assert str(info.value).startswith("bad.toml:4: invalid TOML: ")


def test_non_utf8_bytes(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(BASE.replace('"Mine"', '"Mine \xe9"').encode("latin-1"))
    with pytest.raises(RuleFileError) as info:
        load(str(path))
    offset = path.read_bytes().index(b"\xe9")
    assert info.value.path == str(path)
    assert str(info.value) == f"{path}: not UTF-8 text (byte {offset})"


def test_missing_file_and_unknown_name(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError, match="cannot read"):
        load(str(tmp_path / "nowhere.toml"))
    with pytest.raises(UnknownRuleSetError, match="did you mean 'chess960'"):
        load("chess96")


def test_errors_from_a_file_name_the_path(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text(BASE.replace('"between"', '"betwen"'), encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        load(str(path))
    assert str(info.value) == (f"{path}: rule[2].kind: unknown kind 'betwen' "
                               "(did you mean 'between'?)")


def test_nothing_in_a_rule_file_is_evaluated() -> None:
    hostile = BASE.replace('pieces = "BB"', 'pieces = "__import__(\'os\').system(\'false\')"')
    with pytest.raises(RuleFileError, match="expected two piece letters"):
        parse(hostile, "bad.toml")
    hostile = BASE.replace('"between"', '"__class__"')
    with pytest.raises(RuleFileError, match="unknown kind '__class__'"):
        parse(hostile, "bad.toml")


# -- the command line --------------------------------------------------------------


@pytest.mark.parametrize("command", [["check"], ["solve", "--count"], ["id", "RNBQKBNR"],
                                     ["position", "0"]])
@pytest.mark.parametrize(("content", "start"), [
    (BASE.replace('"between"', '"betwen"').encode(), ": rule[2].kind: unknown kind 'betwen'"),
    (BASE.replace("files = 8", "files = = 8").encode(), ":4: invalid TOML: "),
    (BASE.replace('"Mine"', '"\xff"').encode("latin-1"), ": not UTF-8 text (byte 23)"),
], ids=["kind", "syntax", "bytes"])
def test_cli_bad_rule_file_is_one_error_line(
    tmp_path: Path, command: list[str], content: bytes, start: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    out, err, code = run(*command, "--rules", str(path))
    assert (out, code) == ("", 1)
    assert err.startswith(f"error: {path}{start}")
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "Traceback" not in err


PROTECTED_960 = BASE.replace("count = 960", "count = {count}").replace(
    "\n[numbering]", '\n[[rule]]\nkind = "pawns-protected"\n\n[numbering]')


def chess960_protected() -> set[str]:
    return brute_force("KQRRBBNN", [chess960_rank, pawns_protected])


def test_cli_with_a_user_rule_file(tmp_path: Path) -> None:
    expected = chess960_protected()
    path = tmp_path / "mine.toml"
    path.write_text(PROTECTED_960.format(count=len(expected)), encoding="utf-8")
    rules = ("--rules", str(path))

    assert run("solve", "--count", *rules) == (f"{len(expected)}\n", "", 0)
    out, err, code = run("solve", *rules)
    assert (err, code) == ("", 0)
    listed = [line.split() for line in out.splitlines()]
    assert [int(n) for n, _ in listed] == list(range(len(expected)))
    assert {rank for _, rank in listed} == expected

    some = [listed[0], listed[len(listed) // 2], listed[-1]]
    out, err, code = run("position", *(n for n, _ in some), *rules)
    assert (out, err, code) == ("".join(f"{r}\n" for _, r in some), "", 0)
    out, err, code = run("id", *(r for _, r in some), *rules)
    assert (out, err, code) == ("".join(f"{n}\n" for n, _ in some), "", 0)

    out, err, code = run("check", *rules)
    assert code == 0 and "error" not in err
    assert f"  {len(expected)} positions, enumerated numbering, proven" in out


def test_cli_user_copy_of_chess960_is_arithmetic(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(BASE, encoding="utf-8")
    assert run("id", "RNBQKBNR", "QNRBBNKR", "--rules", str(path)) == ("518\n105\n", "", 0)
    assert run("position", "0", "959", "--rules", str(path)) == ("BBQNNRKR\nRKRNNQBB\n", "", 0)
    out, _, code = run("check", "--rules", str(path))
    assert code == 0 and "960 positions, arithmetic numbering, proven" in out


def test_cli_explains_every_broken_rule_with_squares(tmp_path: Path) -> None:
    path = tmp_path / "strict.toml"
    path.write_text(BASE.replace("count = 960", "count = 0").replace(
        "\n[numbering]", '\n[[rule]]\nkind = "not-adjacent"\npieces = "NN"\n\n'
                         '[[rule]]\nkind = "pawns-protected"\n\n[numbering]'), encoding="utf-8")
    out, err, code = run("id", "KRRNNBQB", "--rules", str(path))
    assert (out, code) == ("", 1)
    assert err == (
        "error: 'KRRNNBQB' is not a mine rank: "
        "bishops on f1 and h1 are both on light squares (rule opposite-colours BB); "
        "king on a1 is not between the rooks on b1 and c1 (rule between K RR); "
        "knights on d1 and e1 are on neighbouring files (rule not-adjacent NN); "
        "pawn on d2 is not defended (rule pawns-protected)\n"
    )
