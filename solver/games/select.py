"""``chess960 games filter``: the games that start from given positions, bytes untouched.

>>> from solver.family import Family
>>> fen = b'[FEN "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1"]\\n'
>>> pgn = b'[Result "1-0"]\\n\\n1. e4 1-0\\n\\n[Result "*"]\\n' + fen + b'\\n*\\n'
>>> chooser = Chooser(Family.load("chess960"), {105})
>>> b"".join(chooser.games(iter([pgn]), "x")) == b'[Result "*"]\\n' + fen + b'\\n*\\n'
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from solver.games.headers import Starts
from solver.games.reading import scan

if TYPE_CHECKING:
    from solver.family import Family

#: Told of each game skipped: its number and why.
SkipReport = Callable[[int, str], object]


def parse_ids(family: Family, texts: Iterable[str]) -> set[int]:
    """The ids in ``texts`` (each a comma-separated list of ids or labels:
    ``518,534``, ``FRC 518``, ``DFRC 502:532``); raises the family's
    :class:`~solver.errors.IdError` for one that is not the family's.

    >>> from solver.family import Family
    >>> sorted(parse_ids(Family.load("dfrc"), ["518, 502:532"]))
    [518, 482452]
    """
    from solver.games.labels import read_label

    ids: set[int] = set()
    for text in texts:
        for item in text.split(","):
            if not item.strip():
                continue
            found = read_label(family, item) if ":" in item or not item.strip().isdigit() \
                else None
            ids.add(found.id if found is not None else family.parse_id(item.strip()))
    return ids


class Chooser:
    """Chooses the games whose start is one of ``ids``; counts what it read."""

    def __init__(self, family: Family, ids: set[int]) -> None:
        self.starts = Starts(family)
        self.ids = ids
        self.read = 0
        self.chosen = 0
        self.skipped = 0

    def games(self, pieces: Iterator[bytes], path: str,
              report: SkipReport | None = None) -> Iterator[bytes]:
        """The bytes of each chosen game of one input (its header to the next
        game's, so the blank lines after it come too)."""
        position = self.starts.position
        ids = self.ids
        for game in scan(pieces, path):
            if not game.number:
                continue
            self.read += 1
            if game.problem is not None:
                self.skipped += 1
                if report is not None:
                    report(game.number, game.problem)
                continue
            if position(game.header()) in ids:
                self.chosen += 1
                raw = game.raw()
                yield raw if raw.endswith(b"\n") else raw + b"\n\n"  # the last game of a file
