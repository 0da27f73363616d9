"""Publishers' own rules for the labels programs write, re-derived on their own.

``chess960 check`` compares a numbering with its publisher's rule where one is
written here, straight from the publisher's code and sharing no code with
:mod:`solver.numbering.schemes` (which writes labels from a rule file's
templates):

* ``tcec``: TCEC's labeller, ``scripts/classifyfrc.py`` of TCEC-Chess/tcecgames
  (``classifyDfrc`` and ``classifyChess324Castling``): ``FRC <SP-ID>`` when
  White's rank is Black's, else ``DFRC <White's SP-ID>:<Black's>``, each
  Scharnagl's number (its ``frcTable``); then nothing when the FEN's castling
  field is ``KQkq``, `` no castling`` when it is ``-``, else a space and the field.

>>> tcec_label("RNBQKBNR", "RNBQKBNR", "KQkq"), tcec_label("RNBQKBNR", "RNBQKBNR", "Kq")
('FRC 518', 'FRC 518 Kq')
>>> tcec_label("RBBQKNNR", "RQBBKNNR", "-")
'DFRC 692:693 no castling'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from solver.errors import Chess960Error
from solver.numbering.scharnagl import scharnagl_id

if TYPE_CHECKING:
    from solver.position import Position

__all__ = ["RULES", "tcec_label"]

#: The castling fields TCEC's labeller reads (its FEN pattern's ``K?Q?k?q?|-``).
_TCEC_CASTLING: Final = re.compile(r"K?Q?k?q?|-")


def tcec_label(white: str, black: str, castling: str) -> str | None:
    """TCEC's Opening tag for the start position with these ranks (Black's in
    either case) and FEN castling field; ``None`` where its labeller writes
    none (a rank that is not Chess960's, another castling field)."""
    if not _TCEC_CASTLING.fullmatch(castling):
        return None
    try:
        w, b = scharnagl_id(white), scharnagl_id(black.upper())
    except Chess960Error:
        return None
    head = f"FRC {w}" if w == b else f"DFRC {w}:{b}"
    if castling == "KQkq":
        return head
    return head + (" no castling" if castling == "-" else " " + castling)


def _tcec(position: Position) -> str | None:
    return tcec_label(position.white, position.black, position.castling)


#: Each numbering with its publisher's rule: (whose rule, its source, the label
#: of a position).
RULES: Final[dict[str, tuple[str, str, Callable[[Position], str | None]]]] = {
    "tcec": ("TCEC's labeller", "TCEC-Chess/tcecgames scripts/classifyfrc.py", _tcec),
}
