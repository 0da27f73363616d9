"""Covered pieces, written as pychess-variants writes Jieqi.

A family whose pieces start face down (Jieqi: xiangqi's pieces but the
kings, shuffled over xiangqi's start squares) states its ``covered`` start
as its publisher shows it: every covered piece written as the piece whose
start square it stands on, followed by ``~``. That FEN is the same for every
deal, so the deal is kept apart, as pychess-variants keeps it (its game
documents' ``wj`` and ``bj``): each side's covered pieces in the order the
FEN reads their squares (from the top rank down, each rank from the a-file),
White's in upper case, Black's in lower case. An EPD line carries the deal
as the operations ``wj`` and ``bj``.

>>> covered = "r~1k1/4/4/1KN~R~"
>>> deal(covered, "n1k1/4/4/1KRN", 4)
('RN', 'n')
>>> reveal(covered, "RN", "n", 4)
'n1k1/4/4/1KRN'
"""

from __future__ import annotations

from solver.board.covered import MARK, cells
from solver.errors import FenSyntaxError, quote

__all__ = ["deal", "deal_operations", "reveal", "uncover"]

def _join(squares: list[str], files: int) -> str:
    """A placement from its squares (:func:`cells`' inverse)."""
    rows = []
    for start in range(0, len(squares), files):
        row, empty = "", 0
        for square in squares[start:start + files]:
            if not square:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            row += square
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def deal(covered: str, revealed: str, files: int) -> tuple[str, str]:
    """The deal of a revealed placement: the letters on ``covered``'s marked
    squares, White's (upper case) and Black's (lower case), each in reading
    order (pychess-variants' ``wj`` and ``bj``)."""
    white: list[str] = []
    black: list[str] = []
    for shown, piece in zip(cells(covered, files), cells(revealed, files), strict=True):
        if shown.endswith(MARK):
            (white if shown[0].isupper() else black).append(piece)
    return "".join(white), "".join(black)


def reveal(covered: str, white: str, black: str, files: int) -> str:
    """The placement of a deal: ``covered`` with its marked squares filled from
    ``white`` (White's, in reading order) and ``black`` (Black's). Raises
    :class:`ValueError` when a side's letters do not fill its squares, or are
    not of its case."""
    squares = cells(covered, files)
    left = {True: list(white), False: list(black)}
    for side, letters in ((True, white), (False, black)):
        wanted = sum(1 for s in squares if s.endswith(MARK) and s[0].isupper() == side)
        name = "wj" if side else "bj"
        if len(letters) != wanted:
            raise ValueError(f"{name} {quote(letters)} has {len(letters)} pieces, "
                             f"the covered start {wanted}")
        if any(not (c.isascii() and c.isalpha() and c.isupper() == side) for c in letters):
            raise ValueError(f"{name} {quote(letters)} is not {'White' if side else 'Black'}'s "
                             f"pieces: {'upper' if side else 'lower'}-case letters")
    for index, shown in enumerate(squares):
        if shown.endswith(MARK):
            squares[index] = left[shown[0].isupper()].pop(0)
    return _join(squares, files)


def deal_operations(covered: str, revealed: str, files: int) -> str:
    """The deal as EPD operations, as they follow an EPD line's fields.

    >>> deal_operations("r~1k1/4/4/1KN~R~", "n1k1/4/4/1KRN", 4)
    ' wj "RN"; bj "n";'
    """
    white, black = deal(covered, revealed, files)
    return f' wj "{white}"; bj "{black}";'


def uncover(text: str, placement: str, covered: str, operations: tuple[tuple[str, str], ...],
            files: int) -> str:
    """The revealed placement of a FEN or EPD line ``text`` whose ``placement``
    is the family's ``covered`` start, from its ``wj`` and ``bj`` operations.
    Raises :class:`~solver.errors.FenSyntaxError` for another covered
    placement, a line that names no deal, or a deal that does not fit.

    >>> uncover("...", "r~1k1/4/4/1KN~R~", "r~1k1/4/4/1KN~R~", (("wj", '"RN"'), ("bj", '"n"')), 4)
    'n1k1/4/4/1KRN'
    """
    if placement != covered:
        raise FenSyntaxError(text, "placement", f"the covered placement {quote(placement)} is "
                                                f"not the family's covered start {quote(covered)}")
    said = {name: value.strip('"') for name, value in operations if name in ("wj", "bj")}
    if set(said) != {"wj", "bj"}:
        raise FenSyntaxError(text, "placement",
                             "a covered start is written the same for every deal, so it names "
                             "no position: give the deal as the EPD operations wj (White's "
                             "covered pieces) and bj (Black's), each in the order the FEN reads "
                             "their squares, or the revealed FEN")
    try:
        return reveal(covered, said["wj"], said["bj"], files)
    except ValueError as exc:
        raise FenSyntaxError(text, "placement", str(exc)) from None
