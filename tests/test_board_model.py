"""One board model: ``files`` is the board's width everywhere, and a family
whose pieces fill a region narrower than the board is drawn, written and read
on the whole board.

Golden data: the boards below are written here by hand from the rule file's
``files``, ``region`` and ``pieces``, never from the code under test.
"""

from __future__ import annotations

from solver import Family
from solver.ruleset.reader import parse

#: Six pieces in the region a1-c2 of an 8-file board, Black mirrored onto a8-c7.
SMALL = ('name = "small"\ntitle = "t"\nsource = "s"\nfiles = 8\nregion = "a1-c2"\n'
         'pawns = "none"\npieces = "KQRRBB"\ncount = 0\n'
         '[[rule]]\nkind = "opposite-colours"\npieces = "BB"\n')


def small() -> Family:
    return Family(parse(SMALL, "small.toml"))


def test_files_is_the_boards_width_and_region_size_the_squares_filled() -> None:
    ruleset = small().ruleset
    assert ruleset.files == 8
    assert ruleset.region_size == 6
    assert ruleset.layout.files == 8
    assert ruleset.region.names == ("a1", "b1", "c1", "a2", "b2", "c2")
    assert ruleset.step_numbering().region_size == 6
