"""One board path: the classical board is a :class:`~solver.board.geometry.Layout`
like any other (issue 34), so no code keeps it apart with a ``None`` layout.

* no ``layout is None`` / ``layout is not None`` branch, nor an optional
  layout type, anywhere in the package (nor in the tests and benchmarks);
* every family has its board, and its positions stand on it;
* a position made without a board stands on the classical one as wide as its
  ranks, and writes the FEN of the classical start written out by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solver
from solver.board.geometry import CLASSICAL, Layout
from solver.family import Family
from solver.notation.castling import castling_field
from solver.notation.fen import position_fen, read_start
from solver.position import Position
from solver.ruleset.reader import bundled_names, load

PACKAGE = Path(solver.__file__).resolve().parent

#: A layout tested against ``None``, or typed as one that may be ``None``.
_NONE_LAYOUT = re.compile(
    r"layout\s+is\s+(?:not\s+)?None|Optional\[\s*Layout\s*\]|Layout\s*\|\s*None|None\s*\|\s*Layout")


def test_no_branch_keeps_the_classical_board_apart() -> None:
    """In the package, and in the tests and benchmarks, where such a branch
    would now be silently always (or never) taken."""
    root = PACKAGE.parent
    paths = [p for folder in ("solver", "tests", "bench") for p in (root / folder).rglob("*.py")
             if p.resolve() != Path(__file__).resolve()]
    found = [f"{path.relative_to(root)}:{number}: {line.strip()}"
             for path in sorted(paths)
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if _NONE_LAYOUT.search(line)]
    assert not found, "the classical board is a Layout (Layout.classical), never None:\n" + \
        "\n".join(found)


@pytest.mark.parametrize("text", ["if family.layout is None:", "x = layout is not None",
                                  "layout: Optional[Layout] = None", "def f(b: Layout | None)"])
def test_the_check_finds_a_none_layout(text: str) -> None:
    assert _NONE_LAYOUT.search(text)


@pytest.mark.parametrize("name", bundled_names())
def test_every_family_has_its_board_and_its_positions_stand_on_it(name: str) -> None:
    family = Family.load(name)
    assert isinstance(family.layout, Layout)
    assert family.layout == load(name).layout  # the rule file's board, classical or not
    position = family.position(0)
    assert position.layout is family.layout
    assert position.board == family.layout


def _classical_fen(white: str, black: str) -> str:
    """The classical start FEN, written out from its definition: Black's pieces,
    Black's pawns, four empty ranks, White's pawns, White's pieces (no castling)."""
    n = len(white)
    return "/".join([black.lower(), "p" * n, *[str(n)] * 4, "P" * n, white]) + " w - - 0 1"


#: Ranks without rooks (so no castling rights), 4 to 16 files wide.
_RANKS = st.text(alphabet="KQBNAC", min_size=4, max_size=16)


@given(_RANKS, st.data())
def test_a_position_without_a_board_stands_on_the_classical_one_as_wide(
        white: str, data: st.DataObject) -> None:
    black_rank = "".join(data.draw(st.permutations(white)))
    plain = Position(0, white, black_rank)
    assert plain.layout is CLASSICAL
    assert plain.board == Layout.classical(len(white)) == Layout(len(white))
    assert plain.board.standard
    fen = position_fen(plain)
    assert fen == _classical_fen(white, black_rank)
    assert fen == position_fen(Position(0, white, black_rank, Layout.classical(len(white))))
    assert read_start(fen, len(white)).white == white


def test_the_classical_board_is_one_value_a_width() -> None:
    assert Layout.classical() is CLASSICAL is Layout.classical(8)
    assert Layout.classical(10) is Layout.classical(10)
    assert CLASSICAL.chessboard and not Layout.classical(10).chessboard
    shogi = Family.load("myshogi").layout
    assert not shogi.standard and shogi.fitted(3) is shogi  # only the classical board widens


def test_castling_on_the_default_board_is_the_classical_boards() -> None:
    for white in ("RNBQKBNR", "RNBQKCABNR", "RKRNNQBB"):
        for shredder in (False, True):
            assert castling_field(white, shredder=shredder) == castling_field(
                white, shredder=shredder, layout=Layout.classical(len(white)))
    assert castling_field("RNBQKCABNR", shredder=True) == "JAja"
