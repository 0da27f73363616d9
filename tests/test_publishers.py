"""Named numberings against their publishers' own code, for every position.

TCEC's labels (the numbering ``tcec`` of chess960, dfrc and chess324x16) are
TCEC's labeller, ``scripts/classifyfrc.py`` of TCEC-Chess/tcecgames (commit
e71d5fdae0c5f9319e098acde7561d9ba37d7fab, 2025-03-30), transcribed below:
it matches a game's ``[FEN "..."]`` tag against

    ([nbrqk]{8})/pppppppp/8/8/8/8/PPPPPPPP/([NBRQK]{8}) w (K?Q?k?q?|-) - 0 1

and writes ``classifyDfrc(white, black) + classifyChess324Castling(rights)``:
``FRC <n>`` when White's rank is Black's (upper-cased), else ``DFRC <w>:<b>``,
each number the rank's index in its ``frcTable`` (Scharnagl's SP-IDs, here
:func:`sp_rank` of :mod:`test_numberings`, re-derived from Scharnagl's rule);
then nothing for ``KQkq``, `` no castling`` for ``-``, else a space and the
field. The positions are made here too (FENs from the SP-ID ranks), so neither
side of a comparison comes from the numberings' code.

Set ``CHESS960_TCECGAMES`` to a checkout (or git directory) of
TCEC-Chess/tcecgames to run the labeller itself as well.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
import subprocess
import sys
from itertools import product
from pathlib import Path
from types import ModuleType

import pytest
from test_numberings import run, sp_rank

from solver.errors import NumberingLabelError, RuleFileError
from solver.family import Family
from solver.ruleset.bundled import bundled_path
from solver.ruleset.reader import parse

# -- TCEC's labeller, transcribed from scripts/classifyfrc.py --------------------------

TCEC_FEN = re.compile(r'\[FEN "([nbrqk]{8})/pppppppp/8/8/8/8/PPPPPPPP/([NBRQK]{8}) '
                      r'w (K?Q?k?q?|-) - 0 1"\]')
SP_ID = {sp_rank(n): n for n in range(960)}  # classifyFrc: frcTable.index(pieces)


def tcec_castling(castling: str) -> str:
    """classifyChess324Castling."""
    if castling == "KQkq":
        return ""
    if castling == "-":
        return " no castling"
    return " " + castling


def tcec_pair(white: str, black: str) -> str:
    """classifyDfrc: black's rank upper-cased; one number when the sides mirror."""
    black = black.upper()
    if white == black:
        return f"FRC {SP_ID[white]}"
    return f"DFRC {SP_ID[white]}:{SP_ID[black]}"


def tcec_opening(fen: str) -> str | None:
    """The Opening tag classifyFrcFromStdin writes for a game with this FEN tag
    (``None``: the FEN is not of the form it labels)."""
    found = TCEC_FEN.fullmatch(f'[FEN "{fen}"]')
    if found is None:
        return None
    return tcec_pair(found.group(2), found.group(1)) + tcec_castling(found.group(3))


def start_fen(white: str, black: str, castling: str) -> str:
    return f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1"


#: Every subset of KQkq as a FEN writes it (K?Q?k?q?), "-" for none.
RIGHTS = ["".join(c for c, keep in zip("KQkq", bits, strict=True) if keep) or "-"
          for bits in product((True, False), repeat=4)]

#: Chess324's ranks: Chess960's with the king on e and the rooks on a and h.
CHESS324 = [rank for rank in SP_ID if rank[4] == "K" and rank[0] == rank[7] == "R"]


def test_the_transcription_writes_tcecs_own_forms() -> None:
    assert len(CHESS324) == 18 and len(RIGHTS) == 16
    assert tcec_opening(start_fen("RNBQKBNR", "RNBQKBNR", "KQkq")) == "FRC 518"
    assert tcec_opening(start_fen("RNBQKBNR", "RNBQKBNR", "Kq")) == "FRC 518 Kq"
    assert tcec_opening(start_fen(sp_rank(692), sp_rank(693), "KQkq")) == "DFRC 692:693"
    assert tcec_opening(start_fen(sp_rank(692), sp_rank(693), "-")) == \
        "DFRC 692:693 no castling"
    assert tcec_opening(start_fen("RNBQKBNR", "RNBQKBNR", "HAha")) is None  # Shredder-FEN


def ids_of(family: str, lines: list[str], numbering: str | None = None) -> list[str]:
    extra = ["--numbering", numbering] if numbering else []
    code, out, err = run("id", "-", "-r", family, *extra, stdin="\n".join(lines) + "\n")
    assert (code, err) == (0, "")
    return out.splitlines()


def convert(family: str, items: list[str], *how: str) -> list[str]:
    code, out, err = run("convert", "-", "-r", family, *how, stdin="\n".join(items) + "\n")
    assert (code, err) == (0, "")
    return out.splitlines()


def check_family(family: str, fens: list[str], every: bool = True) -> None:
    """For each FEN: ``id --numbering tcec`` is TCEC's label, ``convert
    --from tcec`` reads the label as the FEN's id, and ``--to tcec`` writes
    that id as the label again."""
    labels = [tcec_opening(fen) for fen in fens]
    assert None not in labels
    assert ids_of(family, fens, "tcec") == labels
    ids = ids_of(family, fens)
    assert convert(family, labels, "--from", "tcec") == ids  # type: ignore[arg-type]
    assert convert(family, ids, "--to", "tcec") == labels


def check_every_id(family: str, fens: list[str], sample: int) -> None:
    """Every id of the family: its FEN (``position``) is one of ``fens`` (all
    of them, once), ``convert --to tcec`` writes TCEC's label of that FEN, and
    ``convert --from tcec`` reads ``sample`` of TCEC's labels back as their ids."""
    ids = [str(k) for k in range(len(fens))]
    code, out, err = run("position", "-", "-r", family, "-f", "fen", stdin="\n".join(ids))
    shown = out.splitlines()
    assert (code, err) == (0, "") and sorted(shown) == sorted(fens)
    labels = [tcec_opening(fen) for fen in shown]
    assert convert(family, ids, "--to", "tcec") == labels
    assert len(set(labels)) == len(fens)
    chosen = sorted(random.Random(len(fens)).sample(range(len(fens)), sample))
    assert convert(family, [labels[k] for k in chosen],  # type: ignore[misc]
                   "--from", "tcec") == [str(k) for k in chosen]


CHESS960_FENS = [start_fen(sp_rank(n), sp_rank(n), "KQkq") for n in range(960)]
CHESS324X16_FENS = [start_fen(white, black, rights)
                    for white in CHESS324 for black in CHESS324 for rights in RIGHTS]


def test_tcec_chess960_every_position() -> None:
    check_every_id("chess960", CHESS960_FENS, 300)
    assert convert("chess960", [str(n) for n in range(960)], "--to", "tcec") == [
        f"FRC {n}" for n in range(960)]
    check_family("chess960", CHESS960_FENS[::7])


def test_tcec_chess324x16_every_position() -> None:
    assert len(set(CHESS324X16_FENS)) == 5184
    check_every_id("chess324x16", CHESS324X16_FENS, 500)
    check_family("chess324x16", CHESS324X16_FENS[::29])


@pytest.mark.slow
def test_tcec_chess324x16_every_fen_and_label_both_ways() -> None:
    check_family("chess324x16", CHESS324X16_FENS)


def test_tcec_dfrc_sample() -> None:
    chooser = random.Random(324)
    pairs = [(n, n) for n in range(0, 960, 3)] + [
        (chooser.randrange(960), chooser.randrange(960)) for _ in range(700)]
    check_family("dfrc", [start_fen(sp_rank(w), sp_rank(b), "KQkq") for w, b in pairs])


@pytest.mark.slow
def test_tcec_dfrc_every_position() -> None:
    # dfrc's own ids are White's SP-ID * 960 + Black's (test_numberings proves it
    # against Stockfish's book order); each one's label is TCEC's.
    ranks = [sp_rank(n) for n in range(960)]
    done = subprocess.run([sys.executable, "-m", "solver", "convert", "-", "-r", "dfrc",
                           "--to", "tcec"], input="".join(f"{k}\n" for k in range(960 * 960)),
                          capture_output=True, text=True, check=True)
    got = done.stdout.splitlines()
    assert len(got) == 960 * 960
    for k, label in enumerate(got):
        white, black = ranks[k // 960], ranks[k % 960]
        assert label == tcec_pair(white, black) + tcec_castling("KQkq"), k


@pytest.mark.parametrize(("family", "text", "written"), [
    ("chess324x16", "DFRC 692:693 KQkq", "DFRC 692:693"),
    ("chess324x16", "DFRC 692:692 KQk", "FRC 692 KQk"),
    ("chess324x16", "DFRC 692:693 -", "DFRC 692:693 no castling"),
    ("chess324x16", "FRC 692 KQkq", "FRC 692"),
    ("chess324x16", "FRC 692 qK", "FRC 692 Kq"),
    ("dfrc", "DFRC 518:518", "FRC 518"),
])
def test_a_label_tcec_does_not_write_names_the_one_it_does(
        family: str, text: str, written: str) -> None:
    code, out, err = run("convert", text, "-r", family, "--from", "tcec")
    assert (code, out) == (1, "")
    assert err.startswith(f"error: {text!r} is not a {family} number in the numbering tcec (")
    assert err.endswith(f"; it writes that position {written!r})\n") and err.count("\n") == 1


@pytest.mark.parametrize("text", ["FRC 692 kqk", "FRC 692 no", "DFRC 692:693 KQkq-",
                                  "FRC 692  Kq", "DFRC 692:960", "FRC 518 KQkq-"])
def test_not_a_tcec_label(text: str) -> None:
    code, _, err = run("convert", text, "-r", "chess324x16", "--from", "tcec")
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"error: {text!r} is not a chess324x16 number") and "writes" not in err


def test_tcec_forms_read_in_any_case() -> None:
    assert convert("chess324x16", ["frc 692 NO CASTLING", "dfrc 692:693"], "--from", "tcec",
                   "--to", "tcec") == ["FRC 692 no castling", "DFRC 692:693"]


def test_games_are_tagged_as_tcec_tags_them() -> None:
    from solver.games.labels import label, read_label

    family = Family.load("chess324x16")
    for fen in (start_fen("RNBQKBNR", "RNBQKBNR", "Kq"), start_fen(sp_rank(692), sp_rank(693),
                                                                     "-")):
        position = family.read(fen)
        assert label(family, position) == tcec_opening(fen)
        assert read_label(family, tcec_opening(fen) or "") == position


# -- rights-labels in a rule file --------------------------------------------------------

BASE = """name = "x"
title = "x"
count = 16
source = "x"
files = 8
pieces = "KQRRBBNN"
sides = "independent"
castling = "subsets"

[[numberings]]
name = "t"
source = "s"
"""


@pytest.mark.parametrize(("table", "message"), [
    ('label = "D {white}:{black}"\nrights-labels = { KQkq = "" }\n',
     "rights-labels needs a label with the field {rights}"),
    ('label = "D {white}:{black}{rights}"\nrights-labels = { KQkx = "" }\n',
     "numberings[1].rights-labels.KQkx: 'KQkx' is not castling rights"),
    ('label = "D {white}:{black}{rights}"\nrights-labels = { KK = "" }\n',
     "'KK' is not castling rights"),
    ('label = "D {white}:{black}{rights}"\nrights-labels = { KQ = "{rights}" }\n',
     "only '*' may use one"),
    ('label = "D {white}:{black}{rights}"\nrights-labels = { "*" = " {number}" }\n',
     "only '*' may use one"),
    ('label = "D {white}:{black}{rights}"\nrights-labels = { KQ = "a", kq = "a" }\n',
     "two rights are written alike"),
    ('label = "D {white}:{black}{rights}"\nrights-labels = 3\n', "expected a table"),
])
def test_rights_labels_errors(table: str, message: str) -> None:
    with pytest.raises(RuleFileError) as info:
        parse(BASE + table)
    assert message in str(info.value)


# -- TCEC's labeller itself, where a copy of tcecgames is at hand ---------------------------


def _tcecgames() -> Path:
    where = os.environ.get("CHESS960_TCECGAMES")
    if not where:
        pytest.skip("set CHESS960_TCECGAMES to a checkout or git directory of "
                    "TCEC-Chess/tcecgames to run its labeller")
    return Path(where)


def _tcec_file(path: str) -> str:
    root = _tcecgames()
    if (root / path).is_file():
        return (root / path).read_text(encoding="utf-8", errors="replace")
    return subprocess.run(["git", "--git-dir", str(root), "show", f"HEAD:{path}"],
                          capture_output=True, text=True, check=True).stdout


def _classifyfrc(tmp_path: Path) -> ModuleType:
    source = tmp_path / "classifyfrc.py"
    source.write_text(_tcec_file("scripts/classifyfrc.py"))
    spec = importlib.util.spec_from_file_location("classifyfrc", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tcecs_own_labeller_agrees(tmp_path: Path) -> None:
    tcec = _classifyfrc(tmp_path)
    assert tcec.frcTable == [sp_rank(n) for n in range(960)]
    chooser = random.Random(960)
    fens = [start_fen(w, b, r) for w in CHESS324 for b in CHESS324 for r in RIGHTS] + [
        start_fen(sp_rank(chooser.randrange(960)), sp_rank(chooser.randrange(960)), "KQkq")
        for _ in range(2000)]
    for fen in fens:
        black, rest = fen.split("/", 1)
        white, castling = rest.split(" ")[0][-8:], rest.split(" ")[2]
        assert tcec.classifyDfrc(white, black) + tcec.classifyChess324Castling(castling) \
            == tcec_opening(fen)
    assert ids_of("dfrc", fens[5184:], "tcec") == [tcec_opening(f) for f in fens[5184:]]


# -- Scidb's own tables, where a copy of its source is at hand -------------------------------


def _scidb_source() -> str:
    """``trunk/src/db/db_common.cpp`` of Scidb (a checkout or git directory of
    a mirror such as rofl0r/scidb, commit 4fb7b5050ae9d3982406558191c37cbfc66c2a77)."""
    where = os.environ.get("CHESS960_SCIDB")
    if not where:
        pytest.skip("set CHESS960_SCIDB to a checkout or git directory of Scidb "
                    "(e.g. rofl0r/scidb) to read its PositionTable")
    root, path = Path(where), "trunk/src/db/db_common.cpp"
    if (root / path).is_file():
        return (root / path).read_text(encoding="utf-8", errors="replace")
    return subprocess.run(["git", "--git-dir", str(root), "show", f"HEAD:{path}"],
                          capture_output=True, text=True, check=True).stdout


def test_scidbs_own_tables_agree() -> None:
    source = _scidb_source()
    start = source.index("PositionTable[961] =")
    table = re.findall(r'"([A-Z]*)"', source[start:source.index("};", start)])
    assert len(table) == 961 and table[0] == ""

    def shuffle_position(idn: int) -> str:  # shuffle::position, 1..2880
        rank = list(table[(idn - 1) % 960 + 1])
        if idn > 2 * 960:  # the first rook and the king after it swapped
            rook = rank.index("R")
            king = rank.index("K", rook + 1)
            rank[rook], rank[king] = rank[king], rank[rook]
        elif idn > 960:  # the king and the first rook after it swapped
            king = rank.index("K")
            rook = rank.index("R", king + 1)
            rank[rook], rank[king] = rank[king], rank[rook]
        return "".join(rank)

    chess960, shuffle = Family.load("chess960"), Family.load("bishops-opposite")
    scidb, scidb_shuffle = chess960.scheme("scidb"), shuffle.scheme("scidb-shuffle")
    for idn in range(1, 961):
        assert scidb.text(chess960.rank_id(table[idn])) == str(idn)
    for idn in range(1, 2881):
        assert scidb_shuffle.text(shuffle.rank_id(shuffle_position(idn))) == str(idn)


def test_rights_labels_of_another_form_write_and_read_back(tmp_path: Path) -> None:
    bundled = Path(str(bundled_path("chess324x16")))  # the installed copy too
    text = bundled.read_text(encoding="utf-8")
    start = text.index("[[numberings]]")
    rule = tmp_path / "brackets.toml"
    rule.write_text(text[:start] + '[[numberings]]\nname = "brackets"\nsource = "s"\n'
                    'side-family = "chess960"\nlabel = "{white}-{black}{rights}"\n'
                    'rights-labels = { "-" = "", "*" = " [{rights}]" }\n', encoding="utf-8")
    family = Family.load(str(rule))
    scheme = family.scheme("brackets")
    fen = start_fen("RNBQKBNR", sp_rank(692), "Kq")
    assert scheme.text(family.read(fen).id) == "518-692 [Kq]"
    assert scheme.text(family.read(start_fen("RNBQKBNR", "RNBQKBNR", "-")).id) == "518-518"
    assert scheme.text(family.read(start_fen("RNBQKBNR", "RNBQKBNR", "KQkq")).id) == \
        "518-518 [KQkq]"
    for number in range(0, 5184, 7):
        assert scheme.read(scheme.text(number)) == number
    with pytest.raises(NumberingLabelError, match="it writes that position '518-518'"):
        scheme.read("518-518 [-]")


# -- check compares tcec with TCEC's labeller ---------------------------------------------


@pytest.mark.slow  # proves whole families twice (about 4 s on an idle core)
def test_check_proves_tcec_against_tcecs_labeller(tmp_path: Path) -> None:
    from solver.check import check

    claim = "numbering tcec writes what TCEC's labeller writes"
    for name in ("chess960", "chess324x16"):
        report = check(Family.load(name))
        (found,) = [c for c in report.claims if c.text.startswith(claim)]
        assert found.ok and found.text.endswith("for every position")
    # the numbering before issue 32 ("DFRC 692:692 KQkq" for TCEC's "FRC 692"): 900 wrong
    bundled = Path(str(bundled_path("chess324x16")))  # the installed copy too
    text = bundled.read_text(encoding="utf-8")
    old = tmp_path / "old.toml"
    old.write_text(text[:text.index("[[numberings]]")] + '[[numberings]]\nname = "tcec"\n'
                   'source = "s"\nside-family = "chess960"\n'
                   'label = "DFRC {white}:{black} {rights}"\n', encoding="utf-8")
    code, out, err = run("check", "--rules", str(old))
    assert code == 1 and err.endswith("error: check failed for chess324x16\n")
    (line,) = [row for row in out.splitlines() if claim in row]
    assert line.startswith("  FAIL ") and line.endswith(" (900 of 5,184)")
    assert "id 0: 'DFRC 692:692 KQkq', TCEC's labeller writes 'FRC 692'" in line


def test_the_checks_own_tcec_rule_is_the_transcription() -> None:
    from solver.numbering.publishers import tcec_label

    chooser = random.Random(32)
    for _ in range(3000):
        white, black = sp_rank(chooser.randrange(960)), sp_rank(chooser.randrange(960))
        rights = chooser.choice(RIGHTS)
        assert tcec_label(white, black.lower(), rights) == \
            tcec_opening(start_fen(white, black, rights))
    assert tcec_label("RNBQKBNR", "rnbqkbnr", "HAha") is None
    assert tcec_label("KRNBQBNR", "rnbqkbnr", "KQkq") is None  # not a Chess960 rank
