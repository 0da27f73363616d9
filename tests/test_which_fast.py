"""`which`'s quick way through the bundled families equals the general path.

The quick way (:func:`solver.lists.which.bundled_candidates`) reads a bundled
family only when a rank could fit the width its shipped rule file declares,
and numbers a Chess960 rank by Scharnagl's arithmetic (the shortcut seam).
The general path reads every family and asks each. Here both answer the same
texts, byte for byte through the command: every Chess960 rank for the
arithmetic, a spread of ranks, pairs, FENs of other families, glyphs and
texts no family holds end to end (all 960 end to end in the slow run).
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest

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
