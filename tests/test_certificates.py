"""Draw certificates (``random``/``plan --certificate``, ``verify``) and exclusion presets.

Golden data, apart from the code under test: the draws made again here by
the README's recipe (SHA-256 words, rejection, the ``k``-th allowed ID; a
plan's mirrors as the reversed rank), ranks from the golden KRN table in
``tests/data/chess960.txt``, the rule file's hash by :mod:`hashlib` from its
bytes, and the presets' IDs from their ranks in that table (a DFRC pair of
one rank twice is ``id * 961`` whichever side's ID comes first).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inprocess import chess960
from oracles import seed_below as below
from oracles import seed_words as words
from profiles import examples
from typer.testing import CliRunner

from solver.cli.app import app
from solver.cli.entry import dispatch
from solver.draws.certificate import Result, certify, read_certificate, verify
from solver.draws.presets import exclusions
from solver.errors import (
    CertificateError,
    CertificateMismatchError,
    ExclusionError,
    IdSyntaxError,
    RuleFileError,
    UnknownAlgorithmError,
)
from solver.family import Family
from solver.ruleset.bundled import bundled_path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = {int(i): r for i, r in (line.split() for line in
                                 (ROOT / "tests/data/chess960.txt").read_text().splitlines())}
IDS = {rank: number for number, rank in GOLDEN.items()}
runner = CliRunner()


def reference_random(phrase: str, n: int, excluded: set[int]) -> list[int]:
    stream = words(phrase)
    allowed = [i for i in range(960) if i not in excluded]
    return [allowed[below(stream, len(allowed))] for _ in range(n)]


def reference_plan(phrase: str, rounds: int, excluded: set[int], mirrors: bool) -> list[int]:
    def mirror(number: int) -> int:
        return IDS[GOLDEN[number][::-1]]

    stream = words(phrase)
    skipped = set(excluded) | ({mirror(i) for i in excluded} if mirrors else set())
    drawn = []
    for _ in range(rounds):
        allowed = [i for i in range(960) if i not in skipped]
        pick = allowed[below(stream, len(allowed))]
        drawn.append(pick)
        skipped |= {pick, mirror(pick)} if mirrors else {pick}
    return drawn


def fen(rank: str) -> str:
    return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"


def rules_hash(name: str = "chess960") -> str:
    path = bundled_path(name)
    assert path is not None
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# -- certificates written and verified ---------------------------------------------------


def test_random_certificate_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    seed = "Zürich open, round 1"
    result = runner.invoke(app, ["random", "--seed", seed, "-n", "5", "--exclude", "chess958",
                                 "--certificate", str(path)])
    assert result.exit_code == 0, result.stderr
    ids = reference_random(seed, 5, {518, 534})
    assert result.stdout == "".join(f"{i} {GOLDEN[i]}\n" for i in ids)
    assert result.stderr == "excluded: chess958 (518, 534)\n"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {
        "format": "chess960-certificate/2", "family": "chess960",
        "rules": {"bundled": "chess960", "sha256": rules_hash()},
        "numbering": "scharnagl", "seed": seed,
        "algorithm": {"name": "random", "version": 1, "distinct": False},
        "exclusions": {"presets": {"chess958": [518, 534]}, "ids": [518, 534]},
        "count": 5,
        "results": [{"id": i, "rank": GOLDEN[i], "fen": fen(GOLDEN[i])} for i in ids],
        "made_by": data["made_by"],
    }
    assert data["made_by"].startswith("chess960 ")
    checked = runner.invoke(app, ["verify", str(path)])
    assert checked.exit_code == 0 and checked.stderr == ""
    assert checked.stdout == (
        f"{path}: verified 5 chess960 positions drawn by random version 1 from seed "
        f"'{seed}', excluding chess958 (518, 534): the bundled chess960 (sha256 "
        f"{rules_hash()[:16]}...) unchanged, scharnagl numbering\n")


def test_plan_certificate_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "plan.json"
    seed = "Freestyle Open 2026"
    result = runner.invoke(app, ["plan", "--rounds", "6", "--seed", seed, "--exclude-mirrors",
                                 "--exclude", "chess959,7", "--certificate", str(path),
                                 "-f", "csv"])
    assert result.exit_code == 0, result.stderr
    ids = reference_plan(seed, 6, {518, 7}, mirrors=True)
    rows = result.stdout.splitlines()[1:]
    assert [int(row.split(",")[1]) for row in rows] == ids
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["algorithm"] == {"name": "plan", "version": 1, "mirrors": True}
    assert data["exclusions"] == {"presets": {"chess959": [518]}, "ids": [7, 518]}
    assert [r["id"] for r in data["results"]] == ids
    assert [r["rank"] for r in data["results"]] == [GOLDEN[i] for i in ids]
    checked = runner.invoke(app, ["verify", str(path)])
    assert checked.exit_code == 0, checked.stderr
    assert "drawn by plan version 1 (never a position and its mirror)" in checked.stdout
    assert "excluding chess959 (518), 7" in checked.stdout
    assert runner.invoke(app, ["verify", "-"], input=path.read_text()).exit_code == 0


def test_distinct_draws_and_integer_seeds(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    assert runner.invoke(app, ["random", "--seed", "042", "-n", "3", "--distinct",
                               "--certificate", str(path)]).exit_code == 0
    data = json.loads(path.read_text())
    assert data["seed"] == "042" and data["algorithm"]["distinct"] is True
    left, stream = list(range(960)), words("042")  # the README's partial Fisher-Yates
    for i in range(3):
        j = i + below(stream, len(left) - i)
        left[i], left[j] = left[j], left[i]
    assert [r["id"] for r in data["results"]] == left[:3]
    assert runner.invoke(app, ["verify", str(path)]).exit_code == 0


def test_a_certified_draw_without_a_seed_makes_one(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    result = runner.invoke(app, ["random", "-n", "3", "--certificate", str(path)])
    data = json.loads(path.read_text())
    seed = data["seed"]
    assert len(seed) == 32 and int(seed, 16) >= 0
    assert result.stderr == f"seed: {seed} (made for the certificate)\n"
    assert [r["id"] for r in data["results"]] == reference_random(seed, 3, set())
    assert runner.invoke(app, ["verify", str(path)]).exit_code == 0


def test_dfrc_certificate_with_a_preset(tmp_path: Path) -> None:
    path = tmp_path / "dfrc.json"
    result = runner.invoke(app, ["random", "--rules", "dfrc", "--seed", "pairs", "-n", "2",
                                 "--exclude", "chess959", "--certificate", str(path)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(path.read_text())
    assert data["exclusions"] == {"presets": {"chess959": [518 * 961]}, "ids": [518 * 961]}
    assert data["rules"] == {"bundled": "dfrc", "sha256": rules_hash("dfrc")}
    assert data["family"] == "dfrc"
    assert runner.invoke(app, ["verify", str(path)]).exit_code == 0


# -- certificates refused ----------------------------------------------------------------


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


TAMPERED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("an id", _set(["results", 1, "id"], 5),
     "result 2 differs: the certificate has id 5, the draw gives"),
    ("a rank", _set(["results", 0, "rank"], "RNBQKBNR"),
     "result 1 differs: the certificate has rank 'RNBQKBNR', the draw gives"),
    ("a fen", _set(["results", 2, "fen"], fen("RNBQKBNR")),
     "result 3 differs: the certificate has fen"),
    ("the seed", _set(["seed"], "another seed"), "result 1 differs"),
    ("the rule file", _set(["rules", "sha256"], "0" * 64),
     "this build's bundled chess960 (rules/chess960.toml) is not the rule file of the draw: "
     "its SHA-256 is "),
    ("the version", _set(["algorithm", "version"], 2),
     "unknown draw algorithm 'random' version 2: this build draws by plan version 1, "
     "random version 1"),
    ("the algorithm", _set(["algorithm", "name"], "shuffle"),
     "unknown draw algorithm 'shuffle' version 1"),
    ("an option", _set(["algorithm", "mirrors"], True), "algorithm random has no option mirrors"),
    ("the family", _set(["family"], "dfrc"),
     "the certificate is for the family 'dfrc', rules/chess960.toml is 'chess960'"),
    ("the numbering", _set(["numbering"], "krn"),
     "the certificate's ids are in the 'krn' numbering, chess960's are in 'scharnagl'"),
    ("a preset", _set(["exclusions", "presets", "chess958"], [518]),
     "the preset chess958 stands for ids 518, 534 now, the certificate excludes 518 for it"),
    ("the count", _set(["count"], 4), "'count' is 4, but 5 results are listed"),
    ("an id's type", _set(["results", 0, "id"], "12"),
     "result 1: 'id' should be a whole number, not \"12\""),
    ("the seed's type", _set(["seed"], None), "'seed' should be text, not null"),
    ("an unknown preset", _set(["exclusions", "presets"], {"chess957": [1]}),
     "the certificate's preset: 'chess957' is neither a position id nor an exclusion preset"),
    ("a preset's ids left in", _set(["exclusions", "ids"], [518]),
     "the ids the certificate leaves out lack its preset chess958's (518, 534)"),
    ("an id out of range", _set(["exclusions", "ids"], [518, 534, 960]),
     "the draw cannot be made again: chess960 id 960 is out of range 0..959"),
    ("the format", _set(["format"], "chess960-certificate/9"),
     "neither a draw certificate nor a procedure"),
]


@pytest.fixture(scope="module")
def certified() -> str:
    """A certificate of five draws, as ``random --certificate`` writes it."""
    return certify("chess960", "random", 5, seed="tamper", exclude=["chess958"]
                   ).certificate.to_json()


@pytest.mark.parametrize(("what", "change", "message"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_a_changed_certificate_is_refused(
        what: str, change: Callable[[dict[str, Any]], None], message: str, tmp_path: Path,
        certified: str) -> None:
    path = tmp_path / "c.json"
    data = json.loads(certified)
    change(data)
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1 and result.stdout == "", what
    assert result.stderr.startswith(f"error: {path}: ") and message in result.stderr, (
        result.stderr)
    assert result.stderr.count("\n") == 1


def test_errors_carry_the_difference() -> None:
    made = certify("chess960", "plan", 3, seed="attributes")
    data = made.certificate.data()
    data["results"][1]["id"] = (data["results"][1]["id"] + 1) % 960
    with pytest.raises(CertificateMismatchError) as info:
        verify(read_certificate(json.dumps(data), "x.json"), "x.json")
    assert info.value.what == "result 2" and info.value.path == "x.json"
    derived, recorded = info.value.derived, info.value.recorded
    assert isinstance(derived, Result) and isinstance(recorded, Result)
    assert (derived.id, recorded.id) == (made.positions[1].id, data["results"][1]["id"])
    data["algorithm"]["version"] = 7
    with pytest.raises(UnknownAlgorithmError) as unknown:
        read_certificate(json.dumps(data), "x.json")
    assert (unknown.value.name, unknown.value.version) == ("plan", 7)
    assert unknown.value.known == {"random": 1, "plan": 1}
    assert isinstance(unknown.value, CertificateError)
    with pytest.raises(CertificateError, match="not JSON: line 1 column 1"):
        read_certificate("nope", "x.json")


def test_a_rule_file_changed_or_moved(tmp_path: Path) -> None:
    original = bundled_path("chess960")
    assert original is not None
    mine = tmp_path / "mine.toml"
    shutil.copyfile(original, mine)
    made = certify(str(mine), "random", 4, seed="moved")
    assert made.certificate.rules == str(mine)
    assert made.certificate.rules_sha256 == hashlib.sha256(mine.read_bytes()).hexdigest()
    assert made.certificate.numbering == "scharnagl"
    verify(made.certificate)
    kept = tmp_path / "kept.toml"
    shutil.copyfile(mine, kept)
    mine.write_bytes(mine.read_bytes() + b"\n# a comment changes the hash\n")
    with pytest.raises(CertificateMismatchError) as info:
        verify(made.certificate)
    assert info.value.what == "rule file"
    assert "unchanged" in verify(made.certificate, rules=str(kept))
    mine.unlink()
    with pytest.raises(RuleFileError, match="cannot read"):
        verify(made.certificate)
    assert rules_hash() == made.certificate.rules_sha256  # the bundled file: the same bytes
    assert "unchanged" in verify(made.certificate, rules="chess960")


def test_the_certificate_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    for argv in (["random", "--seed", "1"], ["plan", "--rounds", "2", "--seed", "1"]):
        result = runner.invoke(app, [*argv, "--certificate", str(folder)])
        assert result.exit_code == 1 and result.stdout == ""
        assert result.stderr == f"error: cannot write {str(folder)!r}: it is a directory\n"
    assert list(folder.iterdir()) == []
    path = tmp_path / "old.json"
    path.write_text("an older certificate")
    assert runner.invoke(app, ["random", "--seed", "2", "--certificate", str(path)]
                         ).exit_code == 0
    assert json.loads(path.read_text())["seed"] == "2"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".chess960-")] == []


# -- presets -----------------------------------------------------------------------------


def test_presets_leave_their_positions_out() -> None:
    chess960 = Family.load("chess960")
    assert exclusions(chess960, ["chess959"]).ids == (IDS["RNBQKBNR"],) == (518,)
    assert exclusions(chess960, ["chess958"]).ids == (518, IDS["RNBKQBNR"]) == (518, 534)
    assert exclusions(chess960, ["Chess958, 7", 3]).presets == (("chess958", (518, 534)),)
    assert exclusions(chess960, ["chess958,chess959"]).ids == (518, 534)
    dfrc = Family.load("dfrc")
    assert exclusions(dfrc, ["chess958"]).ids == (518 * 961, 534 * 961)
    assert dfrc.position(518 * 961).white == dfrc.position(518 * 961).black == "RNBQKBNR"
    with pytest.raises(ExclusionError) as info:
        exclusions(Family.load("shuffle"), ["chess959"])
    assert (info.value.family, info.value.presets) == ("shuffle", ())
    assert isinstance(info.value, IdSyntaxError)
    assert str(info.value) == ("'chess959' is neither a position id nor an exclusion preset "
                               "of shuffle (it has none)")


def test_presets_in_draws_on_both_paths(capsys: pytest.CaptureFixture[str]) -> None:
    result = runner.invoke(app, ["random", "--seed", "s", "-n", "3000", "--exclude", "chess958"])
    drawn = {int(line.split()[0]) for line in result.stdout.splitlines()}
    assert result.exit_code == 0 and not drawn & {518, 534} and len(drawn) > 900
    # the fast path (no Typer) answers as Typer does, note included
    for argv in (["random", "--seed", "t", "-n", "4", "-x", "chess959", "-x", "9"],
                 ["plan", "--rounds", "2", "--seed", "t", "--exclude", "chess958"],
                 ["random", "--seed", "t", "-n", "2", "-r", "dfrc", "-x", "chess959"]):
        typer_run = runner.invoke(app, argv)
        assert dispatch(argv) == typer_run.exit_code == 0
        fast = capsys.readouterr()
        assert (fast.out, fast.err) == (typer_run.stdout, typer_run.stderr)
        assert fast.err.startswith("excluded: chess95")
    drawn_t = runner.invoke(app, ["random", "--seed", "t", "-n", "4", "-x", "chess959",
                                  "-x", "9"]).stdout
    assert [int(line.split()[0]) for line in drawn_t.splitlines()] == reference_random(
        "t", 4, {518, 9})
    result = runner.invoke(app, ["random", "-r", "shuffle", "-x", "chess958"])
    assert result.exit_code == 1 and "exclusion preset of shuffle (it has none)" in result.stderr


@settings(max_examples=examples(20, 500))
@given(seed=st.text(min_size=1), n=st.integers(1, 12), distinct=st.booleans(),
       left_out=st.sets(st.integers(0, 959), max_size=5), plan_it=st.booleans())
def test_any_certified_draw_verifies(seed: str, n: int, distinct: bool, left_out: set[int],
                                     plan_it: bool) -> None:
    if plan_it:
        made = certify("chess960", "plan", n, seed=seed, exclude=sorted(left_out), mirrors=distinct)
        expected = reference_plan(seed, n, left_out, distinct)
    else:
        made = certify("chess960", "random", n, seed=seed, exclude=sorted(left_out),
                       distinct=distinct)
        expected = None if distinct else reference_random(seed, n, left_out)
    certificate = read_certificate(made.certificate.to_json())
    assert certificate == made.certificate
    assert [r.id for r in certificate.results] == [p.id for p in made.positions]
    if expected is not None:
        assert [r.id for r in certificate.results] == expected
    assert verify(certificate).endswith(
        f": the bundled chess960 (sha256 {rules_hash()[:16]}...) unchanged, scharnagl numbering")


def test_a_certificate_holds_at_most_100000_draws(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    never = tmp_path / "never.json"
    assert dispatch(["random", "-n", "100001", "--certificate", str(never)]) == 1
    assert capsys.readouterr().err == ("error: cannot certify 100,001 draws: a certificate "
                                       "lists every draw, at most 100,000\n")
    assert not never.exists()


# -- the rule file named by its content (issue 33) ----------------------------------------


def _forge(folder: Path) -> Path:
    """``folder/rules/chess960.toml``: the bundled file with its placement steps
    reordered, so that the same ids are other positions (259 is BRQNKNRB, not BNRKNQRB)."""
    original = bundled_path("chess960")
    assert original is not None
    text = Path(original).read_text(encoding="utf-8")
    steps = 'steps = ["B:light", "B:dark", "Q", "NN", "RKR"]'
    assert text.count(steps) == 2
    forged = folder / "rules" / "chess960.toml"
    forged.parent.mkdir()
    forged.write_text(text.replace(steps, 'steps = ["Q", "NN", "B:light", "B:dark", "RKR"]', 1),
                      encoding="utf-8")
    return forged


def _command(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The console command, run in ``cwd`` (in this process)."""
    return chess960(args, cwd=cwd)


def test_a_forged_rule_file_at_the_bundled_path_is_named_as_not_the_bundled_one(
        tmp_path: Path) -> None:
    """Issue 33: a certificate naming ``rules/chess960.toml`` was checked against
    whatever file sat there, and verified in the genuine draw's very words."""
    forged = _forge(tmp_path)
    seed = "announced seed"
    assert _command(["position", "259", "-r", "rules/chess960.toml"], tmp_path).stdout == \
        "BRQNKNRB\n" and GOLDEN[259] == "BNRKNQRB"
    for name, args in (("genuine.json", []), ("forged.json", ["-r", "rules/chess960.toml"])):
        made = _command(["random", "--seed", seed, "-n", "3", *args, "--certificate", name],
                        tmp_path)
        assert made.returncode == 0, made.stderr
    genuine = _command(["verify", "genuine.json"], tmp_path)
    forgery = _command(["verify", "forged.json"], tmp_path)
    assert genuine.returncode == forgery.returncode == 0, (genuine.stderr, forgery.stderr)
    assert genuine.stdout.endswith(f": the bundled chess960 (sha256 {rules_hash()[:16]}...) "
                                   "unchanged, scharnagl numbering\n")
    digest = hashlib.sha256(forged.read_bytes()).hexdigest()
    assert forgery.stdout.endswith(
        f": the rule file 'rules/chess960.toml' (sha256 {digest[:16]}...; its family is named "
        "'chess960' but it is NOT the bundled chess960: other bytes) unchanged, scharnagl "
        "numbering\n")
    data = json.loads((tmp_path / "forged.json").read_text(encoding="utf-8"))
    assert data["rules"] == {"path": "rules/chess960.toml", "sha256": digest}
    # Claiming the bundled family with the forged bytes: refused.
    data["rules"] = {"bundled": "chess960", "sha256": digest}
    (tmp_path / "claimed.json").write_text(json.dumps(data), encoding="utf-8")
    claimed = _command(["verify", "claimed.json"], tmp_path)
    assert claimed.returncode == 1 and claimed.stdout == ""
    assert claimed.stderr == (
        f"error: claimed.json: this build's bundled chess960 (rules/chess960.toml) is not the "
        f"rule file of the draw: its SHA-256 is {rules_hash()[:16]}..., the certificate's "
        f"{digest[:16]}...\n")


def _first_format(data: dict[str, Any]) -> dict[str, Any]:
    """A certificate in the first format: ``rules`` as text, ``rules_sha256``."""
    rules = data.pop("rules")
    name = rules.get("bundled", rules.get("path"))
    return {"format": "chess960-certificate/1", **{k: v for k, v in data.items()
                                                    if k != "format"},
            "rules": name, "rules_sha256": rules["sha256"]}


def test_first_format_certificates_are_read_a_bundled_name_first(tmp_path: Path) -> None:
    genuine = certify("chess960", "random", 3, seed="old").certificate
    old = read_certificate(json.dumps(_first_format(genuine.data())))
    assert old == genuine and old.bundled
    assert verify(old) == verify(genuine)
    forged = _forge(tmp_path)
    made = certify(str(forged), "random", 3, seed="old").certificate
    assert not made.bundled
    old = read_certificate(json.dumps(_first_format(made.data())))
    assert old == made and not old.bundled
    assert "NOT the bundled chess960" in verify(old)


@pytest.mark.parametrize(("rules", "message"), [
    ({"bundled": "chess960"}, "'rules' should be {\"bundled\": NAME, \"sha256\": HEX}"),
    ({"bundled": "chess960", "path": "x", "sha256": "0" * 64}, "'rules' should be"),
    ({"path": "x.toml", "sha256": "0" * 63}, "rules: 'sha256' should be 64 hex digits"),
    ({"bundled": "chess961", "sha256": "0" * 64},
     "the certificate's rule file is the bundled family 'chess961', which this build does "
     "not have"),
    ("chess960", "'rules' should be a JSON object, not \"chess960\""),
])
def test_a_certificates_rule_file_is_named_by_content(rules: object, message: str,
                                                      certified: str) -> None:
    data = json.loads(certified)
    data["rules"] = rules
    with pytest.raises(CertificateError, match=re.escape(message)):
        read_certificate(json.dumps(data), "x.json")


@pytest.mark.parametrize("key", ["seed", "rules", "sha256", "id"])
def test_a_repeated_key_is_refused(key: str, tmp_path: Path, certified: str) -> None:
    """Strict JSON: an object that names a key twice (which one would count?) is refused."""
    text = certified
    first = {"seed": '"seed": ', "rules": '"rules": ', "sha256": '"sha256": ',
             "id": '{"id": '}[key]
    at = text.index(first)
    twice = {"seed": '"seed": "another", ', "rules": '"rules": "chess960",\n  ',
             "sha256": f'"sha256": "{"0" * 64}", ', "id": '"id": 1, '}[key]
    at += 1 if key == "id" else 0
    path = tmp_path / "twice.json"
    path.write_text(text[:at] + twice + text[at:], encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"error: {path}: not JSON this reader takes: the key {key!r} "
                             f"appears twice in one object\n")
