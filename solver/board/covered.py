"""A start with covered pieces on the board (Jieqi's, as pychess-variants
shows it): a FEN placement with ``~`` after each piece that starts face
down, read square by square and checked against a family's board. The deal
is written and read in :mod:`solver.notation.covered`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.errors import quote

if TYPE_CHECKING:
    from solver.board.geometry import Layout

__all__ = ["MARK", "cells", "check_covered"]

#: What follows a covered piece's letter.
MARK = "~"


def cells(placement: str, files: int) -> list[str]:
    """Every square of a FEN placement, in reading order: ``""`` empty, else
    the letter, with :data:`MARK` when covered. Raises :class:`ValueError`
    when a rank does not fill ``files`` squares.

    >>> cells("r~k1/1P~1", 3)
    ['r~', 'k', '', '', 'P~', '']
    """
    found: list[str] = []
    for row in placement.split("/"):
        squares: list[str] = []
        digits = ""
        for char in row:
            if char.isascii() and char.isdigit():
                digits += char
                continue
            if digits:
                squares += [""] * int(digits)
                digits = ""
            if char == MARK:
                if not squares or not squares[-1] or squares[-1].endswith(MARK):
                    raise ValueError(f"{MARK!r} follows no piece in the rank {row!r}")
                squares[-1] += MARK
            else:
                squares.append(char)
        if digits:
            squares += [""] * int(digits)
        if len(squares) != files:
            raise ValueError(f"the rank {row!r} has {len(squares)} squares, not {files}")
        found += squares
    return found


def check_covered(covered: str, layout: Layout) -> str | None:
    """What is wrong with ``covered`` as the covered start of a family on
    ``layout``, or ``None``: each rank fills the board, the family's squares
    hold pieces of their side (marked or not), every other square what the
    board puts there, unmarked, and some piece is covered.

    >>> from solver.board.geometry import Layout
    >>> check_covered("r~n~b~q~k~b~n~r~/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", Layout(8)) is None
    True
    >>> check_covered("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", Layout(8))
    "no piece is covered (marked '~')"
    >>> check_covered("r~n~b~q~k~b~n~r~/pppppppp/8/8/8/8/PPPPPPP~P/RNBQKBNR", Layout(8))
    "g2 holds 'P' on the board, 'P~' in the covered start"
    """
    size = len(layout.squares) or layout.files
    board = "".join(layout.rows("?" * size, "!" * size))  # the family's squares: ? and !
    files = layout.files
    try:
        shown = cells(covered, files)
    except ValueError as exc:
        return str(exc)
    if len(shown) != len(board):
        return f"it has {len(shown) // files} ranks, the board {len(board) // files}"
    if not any(square.endswith(MARK) for square in shown):
        return f"no piece is covered (marked {MARK!r})"
    for index, (mine, theirs) in enumerate(zip(shown, board, strict=True)):
        square = f"{chr(ord('a') + index % files)}{layout.ranks - index // files}"
        own = theirs in "?!"
        if theirs == " " and not mine:
            continue
        if own and mine and mine[0].isalpha() and mine[0].isupper() == (theirs == "?"):
            continue
        if not own and mine == theirs:
            continue
        held = ("a White piece" if theirs == "?" else "a Black piece" if theirs == "!"
                else "nothing" if theirs == " " else quote(theirs))
        return f"{square} holds {held} on the board, " \
               f"{quote(mine) if mine else 'nothing'} in the covered start"
    return None
