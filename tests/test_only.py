"""Families given as lists: the ``only`` kind (inline or a data file beside
the rule file) and ``one-of`` (some squares hold one of listed orders), with
the two families they state, each equal to a brute force written from its
publisher's code: pychess-variants' eight Capablanca arrays and MyShogi's
Shogi960 as its program draws it."""

from __future__ import annotations

import re
from itertools import permutations, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import chess960_rank

from solver import Family
from solver.errors import RuleFileError
from solver.kinds import listed
from solver.notation.fen import position_fen
from solver.ruleset.reader import load, parse, rules_dir

DATA = Path(__file__).parent / "data"

#: pychess-variants server/fairy/capa_altarnate.py (gbtami/pychess-variants), its
#: eight named arrays, transcribed whole.
PYCHESS_ARRAYS = {
    "BIRD": "rnbcqkabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCQKABNR w KQkq - 0 1",
    "CARRERA": "ranbqkbncr/pppppppppp/10/10/10/10/PPPPPPPPPP/RANBQKBNCR w KQkq - 0 1",
    "CONSERVATIVE": "arnbqkbnrc/pppppppppp/10/10/10/10/PPPPPPPPPP/ARNBQKBNRC w KQkq - 0 1",
    "EMBASSY": "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1",
    "GOTHIC": "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1",
    "SCHOOLBOOK": "rqnbakbncr/pppppppppp/10/10/10/10/PPPPPPPPPP/RQNBAKBNCR w KQkq - 0 1",
    "UNIVERS": "rbncqkanbr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBNCQKANBR w KQkq - 0 1",
    "VICTORIAN": "crnbakbnrq/pppppppppp/10/10/10/10/PPPPPPPPPP/CRNBAKBNRQ w KQkq - 0 1",
}

def header(count: int = 1, files: int = 8, pieces: str = "KQRRBBNN") -> str:
    return (f'name = "listed"\ntitle = "t"\nsource = "s"\nfiles = {files}\n'
            f'pieces = "{pieces}"\ncount = {count}\n')


def test_pychess_capablanca_is_its_eight_arrays() -> None:
    family = Family.load("pychess-capablanca")
    fens = [position_fen(p) for p in family.positions()]
    assert family.count == 8 == len(set(fens))
    assert set(fens) == set(PYCHESS_ARRAYS.values())
    for fen in PYCHESS_ARRAYS.values():  # pychess's own FENs are read back
        assert position_fen(family.identify(fen)) == fen
    with pytest.raises(Exception, match="not one of"):
        family.identify("RNABQKBCNR")  # Capablanca's own array is not among them


def _myshogi_program_fens() -> set[str]:
    """MyShogi ExtendedGame.Shogi960, run over every draw of its PRNG:
    bishop SQ_88 swapped with FILE_6 + Rand(3) on rank 8, rook SQ_28 with
    FILE_2 + Rand(3); for i in 0..3 swap FILE_1 + i with FILE_1 + Rand(4 - i)
    on rank 9, and the same from FILE_6; Gote is Sente turned half round; the
    standard start is drawn again. Squares as MyShogi numbers them: file 1 is
    the right edge (i here), rank 9 Sente's back rank."""
    standard = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    found = set()
    for bishop, rook, left, right in product(range(3), range(3),
                                             product(range(4), range(3), range(2), range(1)),
                                             product(range(4), range(3), range(2), range(1))):
        rank9 = dict(zip(range(1, 10), "LNSGKGSNL", strict=True))  # file -> piece
        rank8 = {f: " " for f in range(1, 10)}
        rank8[8], rank8[2] = "B", "R"
        rank8[8], rank8[6 + bishop] = rank8[6 + bishop], rank8[8]
        rank8[2], rank8[2 + rook] = rank8[2 + rook], rank8[2]
        for i in range(4):
            a, b = 1 + i, 1 + right[i]
            rank9[a], rank9[b] = rank9[b], rank9[a]
            a, b = 6 + i, 6 + left[i]
            rank9[a], rank9[b] = rank9[b], rank9[a]
        back = "".join(rank9[f] for f in range(9, 0, -1))  # written from file 9 (a)
        second = "".join(rank8[f] for f in range(9, 0, -1))
        rows = [back[::-1].lower(), second[::-1].lower(), "ppppppppp", "", "", "", "PPPPPPPPP",
                second, back]
        fen = "/".join(_fen_row(r) for r in rows) + " b - 1"
        found.add(fen)
    found.discard(standard)
    return found


def _fen_row(text: str) -> str:
    text = text or " " * 9
    return re.sub(r" +", lambda m: str(len(m.group())), text)


@pytest.mark.slow
def test_myshogi_program_is_what_its_loop_draws() -> None:
    """1,088 = 3 x 3 x 11 x 11 - 1, listed and numbered by the bundled file."""
    expected = _myshogi_program_fens()
    assert len(expected) == 1088
    family = Family.load("myshogi-program")
    fens = [position_fen(p) for p in family.positions()]
    assert family.count == 1088 == len(set(fens))
    assert set(fens) == expected
    for fen in sorted(expected)[::97]:
        assert fens[family.identify(fen).id] == fen


def _write(tmp_path: Path, rule: str, data: str | None = None, name: str = "ranks.txt",
           count: int = 1) -> Path:
    path = tmp_path / "listed.toml"
    path.write_text(header(count) + "\n[[rule]]\n" + rule + "\n")
    if data is not None:
        (tmp_path / name).write_text(data)
    return path


def _chess960() -> list[str]:
    return sorted({"".join(p) for p in permutations("KQRRBBNN") if chess960_rank("".join(p))})


def test_a_data_file_over_the_rule_file_limit_is_read(tmp_path: Path) -> None:
    """Every arrangement of KQRRBBNN, one a line with a comment: 5,040 ranks in
    over 64,000 bytes, which a rule file may not have."""
    ranks = sorted({"".join(p) for p in permutations("KQRRBBNN")})
    data = "# all of them\n\n" + "".join(f"{r}   # number {i}\n" for i, r in enumerate(ranks))
    assert len(data.encode()) > 64_000
    family = Family(load(str(_write(tmp_path, 'kind = "only"\nfile = "ranks.txt"', data,
                                           count=5040))))
    assert family.count == 5040


def test_a_data_file_states_chess960(tmp_path: Path) -> None:
    golden = _chess960()
    path = _write(tmp_path, 'kind = "only"\nfile = "ranks.txt"', "\n".join(golden[::-1]),
                  count=960)
    family = Family(load(str(path)))
    assert family.count == 960
    assert sorted(family.ranks()) == golden


@settings(max_examples=15, deadline=None)
@given(st.sets(st.sampled_from(_chess960()), min_size=1, max_size=12))
def test_only_keeps_exactly_its_ranks(chosen: set[str]) -> None:
    listed_ranks = ", ".join(f'"{r}"' for r in sorted(chosen))
    rule = f'\n[[rule]]\nkind = "only"\nranks = [{listed_ranks}]\n'
    family = Family(parse(header(len(chosen)) + rule))
    assert family.count == len(chosen)
    ranks = family.ranks()
    assert set(ranks) == chosen
    for number, rank in enumerate(ranks):
        assert family.identify(rank).id == number


def test_one_of_keeps_exactly_its_orders() -> None:
    rule = 'kind = "one-of"\nsquares = "a1-b1"\norders = ["RN", "NR"]'
    family = Family(parse(header(720) + "\n[[rule]]\n" + rule + "\n"))
    brute = {"".join(p) for p in permutations("KQRRBBNN") if "".join(p)[:2] in ("RN", "NR")}
    assert family.count == len(brute) == 2 * 360
    assert set(family.ranks()) == brute


@pytest.mark.parametrize(("data", "message"), [
    ("RNBQKBNR\nRNBQKBN\n", r"'ranks.txt' line 2: 'RNBQKBN' has 7 squares, not 8"),
    ("RNBQKBNR\n# x\nRNBQKBNZ\n", r"'ranks.txt' line 3: 'RNBQKBNZ': 'Z' is not among"),
    ("RNBQKBNR\nRNBQKBNR # again\n", r"'ranks.txt' line 2: 'RNBQKBNR' is listed twice "
                                     r"\(first 'ranks.txt' line 1\)"),
    ("RNBQKBNN\n", r"'ranks.txt' line 1: 'RNBQKBNN' is not an arrangement of the pieces"),
    ("# nothing\n", r"rule\[1\]\.file: lists nothing"),
])
def test_a_bad_line_is_quoted_with_its_file_and_line(tmp_path: Path, data: str,
                                                       message: str) -> None:
    with pytest.raises(RuleFileError, match=message):
        load(str(_write(tmp_path, 'kind = "only"\nfile = "ranks.txt"', data)))


@pytest.mark.parametrize(("rule", "message"), [
    ('kind = "only"\nranks = ["RNBQKBNR", "RNBQKBNR"]', r"item 2: 'RNBQKBNR' is listed twice"),
    ('kind = "only"\nranks = ["RNBQKB"]', r"rule\[1\]\.ranks: item 1: 'RNBQKB' has 6 squares"),
    ('kind = "only"\nranks = ["RNBQKBNR"]\nfile = "x.txt"', "give either 'ranks'"),
    ('kind = "only"\nfile = "../x.txt"', r"'\.\./x\.txt' is not a file name beside"),
    ('kind = "only"\nfile = "absent.txt"', r"cannot read 'absent\.txt' beside the rule file"),
    ('kind = "one-of"\nsquares = "a1-b1"\norders = ["RNB"]', r"item 1: 'RNB' has 3 squares, not 2"),
    ('kind = "one-of"\nsquares = "a1-b1"\norders = ["RX"]', r"'X' is not among"),
    ('kind = "one-of"\nsquares = "a1-b1"\norders = ["RN", "rn"]', r"item 2: 'rn' is listed twice"),
    ('kind = "one-of"\nsquares = "a1-b1"', r"rule\[1\]\.orders: missing"),
])
def test_bad_rules_are_refused(tmp_path: Path, rule: str, message: str) -> None:
    with pytest.raises(RuleFileError, match=message):
        load(str(_write(tmp_path, rule)))


def test_a_data_file_over_its_bound_is_refused(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listed, "MAX_LIST_BYTES", 20)
    path = _write(tmp_path, 'kind = "only"\nfile = "ranks.txt"', "RNBQKBNR\nQNRBBNKR\nBBQNNRKR\n")
    with pytest.raises(RuleFileError, match=r"'ranks\.txt' has 27 bytes, more than 20"):
        load(str(path))


def test_the_command_line_says_one_error_line(tmp_path: Path) -> None:
    from inprocess import chess960  # the command line, run in this process
    path = _write(tmp_path, 'kind = "only"\nfile = "ranks.txt"', "RNBQKBNR\nRNBQKBQR\n")
    result = chess960(["solve", "--count", "--rules", str(path)])
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "'ranks.txt' line 2: 'RNBQKBQR'" in lines[0]


def _readme_block(tag: str) -> str:
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- {tag}.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert found is not None, tag
    return found.group(1)


def test_the_readme_examples_run() -> None:
    only = _readme_block("only-example")
    family = Family(parse(header(2, 10, "KQACRRBBNN") + only))
    assert set(family.ranks()) == {"RNBCQKABNR", "RANBQKBNCR"}
    one_of = _readme_block("one-of-example")
    family = Family(parse(header(720) + one_of))
    assert family.count == 720
    assert all(r[:2] in ("RN", "NR") for r in family.ranks())
