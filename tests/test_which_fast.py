"""`which`'s quick way through the bundled families equals the general path.

The quick way (:func:`solver.lists.which.bundled_candidates`) reads a bundled
family only when a rank could fit the width its shipped rule file declares,
and answers a rank of eight upper-case letters by each family's declared
arithmetic (:func:`solver.numbering.shortcut.declared_answer`: Scharnagl's for
Chess960, step places, wild 3 and 4's armies), reading no rule file at all.
The general path reads every family and asks each. Here both answer the same
texts, byte for byte through the command: every Chess960 rank for the
arithmetic, a spread of ranks, pairs, FENs of other families, glyphs and
texts no family holds end to end (all 960 end to end in the slow run).
"""

from __future__ import annotations

import hashlib
import io
import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Family
from solver.cli import lists as cli_lists
from solver.lists import which as which_module
from solver.lists.which import (
    Bundled,
    bundled_candidates,
    bundled_families,
    fen_width,
    piece_letters,
    which,
)
from solver.numbering import shortcut
from solver.ruleset.reader import rules_dir

GOLDEN = [line.split()[1] for line in
          (Path(__file__).parent / "data" / "chess960.txt").read_text().splitlines()]


def test_the_rules_digest_is_the_shipped_files() -> None:
    digest = hashlib.blake2b(digest_size=32)
    for path in sorted(rules_dir().glob("*.toml"), key=lambda p: p.stem):
        data = path.read_bytes()
        digest.update(f"{len(path.stem)} {path.stem} {len(data)}\n".encode() + data)
    assert digest.hexdigest() == shortcut.RULES_DIGEST, (
        "a bundled rule file changed, so `which` reads every family (slower). If the edit "
        "is meant, set RULES_DIGEST in solver/numbering/shortcut.py to "
        f"{digest.hexdigest()!r} once this file's tests pass with it")
    assert shortcut.bundled_shapes() is not None


def test_each_declared_shape_is_the_familys_region_and_pieces() -> None:
    shapes = shortcut.bundled_shapes()
    families = bundled_families()
    assert shapes is not None
    assert list(shapes) == [family.name for family in families]
    for family in families:
        width, pieces, files = shapes[family.name]
        assert width in (None, family.ruleset.region_size), family.name  # (None: unsaid)
        assert pieces is not None and piece_letters(family) <= set(pieces), family.name
        # a FEN's rows are as wide as the board, its files (None: a hand in brackets)
        assert files == family.ruleset.files, family.name
        assert fen_width(family.position(0).fen()) in (files, None), family.name
    # the shapes the rule files state, read here by eye
    assert shapes["chess960"] == (8, "BKNQR", 8)
    assert (shapes["bench-12"][0], shapes["shogi-shuffle"]) == (12, (9, "GKLNS", 9))
    assert shapes["chess256"] == (24, "BKNPQR", 8)  # a region: rank 1, and 2-3 a file each
    assert shapes["janggi"][::2] == (17, 9)  # a region on a board of 9 files
    assert shapes["wild4"] == (8, "BKNQR", 8)  # "K + 7 of NBRQ"


def test_an_edited_rule_file_turns_the_quick_way_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shortcut, "RULES_DIGEST", "0" * 64)
    assert shortcut.bundled_shapes() is None
    assert all(isinstance(f, Family) for f in bundled_candidates())


def test_the_arithmetic_numbers_every_chess960_rank_as_the_family() -> None:
    chess960 = Family.load("chess960")
    for rank in GOLDEN:
        quick = Bundled("chess960", 8, "BKNQR")
        assert which(rank, [quick]) == which(rank, [chess960]), rank
        assert quick._family is None, rank  # the arithmetic answered, the file unread


def _texts() -> list[str]:
    """Ranks, pairs, FENs of other families, glyphs and texts no family holds."""
    texts = [*GOLDEN[::120], GOLDEN[5].lower(), f"{GOLDEN[7]} {GOLDEN[700].lower()}",
             f"{GOLDEN[9]}/", " RNBQKBNR", "♖♘♗♕♔♗♘♖", "RNBQKBNR rnbqkbnr",
             "RQNBKNBR bbqnnrkr", "KRRNNBBQ", "RNBQKBNRX", "RNBQKBN", "hello",
             "RNBQKBNR RNBQKBNR", "RNBAKCRBNQ", "KKKKKKKK", "QQQQKQQQ",
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
             "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/BRBNKQNR w - - 0 1",
             # boards of another width than any family's, or rows of two widths
             "rnbqk/ppppp/5/5/PPPPP/RNBQK w - - 0 1",
             "rnbakbnrq/ppppppppp/9/9/9/9/PPPPPPPPP/RNBAKBNRQ w - - 0 1",
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRRR w KQkq - 0 1",
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"]
    for name in ("capablanca-random", "chess99-random", "shuffle", "wild4", "racing-kings",
                 "janggi", "chess256", "horde960", "corner"):
        family = Family.load(name)
        position = family.position(family.count // 2)
        texts.append(position.white)
        if name != "capablanca-random":  # (its FEN: every ten-file family counts, slowly)
            texts.append(position.fen())
    return texts


def test_a_fen_is_read_only_by_families_of_its_width(monkeypatch: pytest.MonkeyPatch) -> None:
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    candidates = bundled_candidates()
    assert which_module.fen_width(fen) == 8
    which(fen, candidates)
    read = {c.name for c in candidates if isinstance(c, Bundled) and c._family is not None}
    shapes = shortcut.bundled_shapes()
    assert shapes is not None
    assert read == {name for name, (_, _, files) in shapes.items() if files == 8}, read
    assert not {"capablanca-random", "shogi-shuffle", "janggi"} & read


def _run(texts: list[str], fmt: str, monkeypatch: pytest.MonkeyPatch, *, general: bool
         ) -> tuple[int, str, str]:
    with monkeypatch.context() as patch:
        if general:
            patch.setattr(which_module, "bundled_candidates", bundled_families)
        out, err = io.StringIO(), io.StringIO()
        code = cli_lists.which_command(texts, [], fmt, stdin=None, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_the_quick_way_prints_what_the_general_path_prints(
        monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts()
    quick = _run(texts, "text", monkeypatch, general=False)
    assert quick == _run(texts, "text", monkeypatch, general=True)
    assert quick[0] == 1 and quick[2].count("error: ") == quick[2].count("\n") > 5
    assert quick[1].count("\n  chess960 scharnagl=") >= len(GOLDEN[::120])
    assert "  wild4 " in quick[1]
    for text in ("RNBQKBNR", "hello"):
        one = _run([text], "json", monkeypatch, general=False)
        assert one == _run([text], "json", monkeypatch, general=True), text


@pytest.mark.slow
def test_every_chess960_rank_end_to_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """All 960 ranks in one call each way (the families read once), and every
    40th rank alone (each call reads the families afresh: ~0.3 s a rank)."""
    ranks = list(GOLDEN)
    quick = _run(ranks, "text", monkeypatch, general=False)
    assert quick == _run(ranks, "text", monkeypatch, general=True)
    assert quick[0] == 0 and quick[1].count("\n  chess960 scharnagl=") == len(GOLDEN)
    for rank in GOLDEN[::40]:
        assert _run([rank], "text", monkeypatch, general=False) == \
            _run([rank], "text", monkeypatch, general=True), rank


@pytest.mark.parametrize(("head", "width"), [
    (b'files = 8\nregion="a1-h1, e2"\n', 9),  # no spaces: read all the same
    (b'files = 8\nregion = "rank 1"\n', None),  # not squares: only the reading knows
    (b'files = 8\nregions = "a1"\n', None),  # not the key itself
    (b'files = 8\nregion = "a1-h1"\nregion = "a1"\n', None),  # said twice
    (b'files = 8\nregion = """\na1-h1"""\n', None),  # a multi-line string
])
def test_a_region_declares_its_width_only_when_plain(head: bytes, width: int | None) -> None:
    assert shortcut.declared_shape(head)[::2] == (width, 8)


def test_pieces_on_lines_of_their_own_say_no_letters() -> None:
    assert shortcut.declared_shape(b'files = 8\npieces = """\nKQRRBBNN"""\n') == (8, None, 8)


#: Every arrangement of Chess960's eight pieces: every rank of the declared
#: families but wild 3's and wild 4's (which hold any king with seven of NBRQ).
SHUFFLES = sorted({"".join(p) for p in itertools.permutations("KQRRBBNN")})
#: Every arrangement of Makruk's eight pieces (``M`` its met, ``S`` its khons).
MAKRUK = sorted({"".join(p) for p in itertools.permutations("KMRRSSNN")})
#: Ranks of other pieces: wild 3 and 4's armies, and ranks no family holds.
OTHERS = ["KQQQQQQQ", "KNNNNNNN", "NNNNNNNK", "QBKRNNNN", "BBBBKBBB", "RRRRRRRR",
          "KKNNBBRR", "KQRRBBN", "KQRRBBNNN", "NBRQKQRB", "KQRRBBNA"]


def _family_answer(family: Family, rank: str) -> object:
    """What the general path answers for ``rank`` in ``family``: its ID and each
    numbering's text in order, or False."""
    held = which_module._member(family, rank, [rank])
    if isinstance(held, which_module.Membership):
        return held.id, list(held.numberings.items())
    return False


def _declared(name: str, rank: str) -> object:
    answer = shortcut.declared_answer(name, rank)
    if answer is None or answer is False:
        return answer
    number, texts = answer
    return number, list(texts.items())


def _check_declared(ranks: list[str]) -> None:
    for name in sorted(shortcut.DECLARED):
        family = Family.load(name)
        for rank in ranks:
            declared = _declared(name, rank)
            if declared is not None:  # (None: the family answers itself)
                assert declared == _family_answer(family, rank), (name, rank)


def test_every_family_an_eight_letter_rank_may_fit_is_declared() -> None:
    """So that ``which`` of such a rank reads no rule file."""
    fitting = {c.name for c in bundled_candidates() if isinstance(c, Bundled)
               and any(c.may_hold([rank]) for rank in ("RNBQKBNR", "DWACKAWD", "SMFEKFMS",
                                                       "RNSKMSNR"))}
    assert fitting == shortcut.DECLARED


def test_the_declarations_answer_as_the_families() -> None:
    """Every 101st arrangement of Chess960's pieces, four Chess960 ranks,
    ranks of other pieces, and each family's first position, whose one-based
    number is its count (every arrangement in the slow run)."""
    first = [Family.load(name).position(0).white for name in sorted(shortcut.DECLARED)]
    _check_declared([*SHUFFLES[::101], *MAKRUK[::211], *GOLDEN[::240], *OTHERS, *first])


@pytest.mark.slow
def test_the_declarations_answer_as_the_families_for_every_arrangement() -> None:
    _check_declared(SHUFFLES + MAKRUK)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 7), st.text("NBRQ", min_size=7, max_size=7))
def test_wild_3_and_4_are_declared_for_any_army(king: int, pool: str) -> None:
    rank = pool[:king] + "K" + pool[king:]
    for name in ("wild3", "wild4"):
        assert _declared(name, rank) == _family_answer(Family.load(name), rank), (name, rank)


def test_cwda_reads_a_rank_alone_only_of_an_army_against_itself() -> None:
    cwda = Family.load("cwda")
    mirrored = {cwda.position(i).white for i in range(cwda.count)
                if cwda.position(i).black.upper() == cwda.position(i).white}
    assert mirrored == shortcut.CWDA_MIRRORED
    _check_declared(sorted({cwda.position(i).white for i in range(cwda.count)}))


def test_a_rank_is_answered_without_reading_a_rule_file() -> None:
    """``which`` of a Chess960 rank, in a fresh interpreter: no family is read,
    and neither typing nor dataclasses is imported (start-up, issue 34)."""
    code = ("import sys\nfrom solver.lists.which import which\n"
            "found = which('RNBQKBNR')\n"
            "print(len(found.families), sorted(m for m in ('solver.family', "
            "'solver.ruleset.reader', 'typing', 'dataclasses', 'tomllib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    held = len(which("RNBQKBNR", bundled_families()).families)  # (the general path's)
    assert out == f"{held} []\n", out


def test_random_ranks_print_what_the_general_path_prints(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ranks of Chess960's letters drawn at random (most held by no family, so
    the declared families are read to word the error) and arrangements."""
    rng = random.Random(34)
    texts = ["".join(rng.choice("BKNQR") for _ in range(8)) for _ in range(12)]
    texts += rng.sample(SHUFFLES, 12)
    assert _run(texts, "text", monkeypatch, general=False) == \
        _run(texts, "text", monkeypatch, general=True)
