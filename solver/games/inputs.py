"""The inputs of the ``games`` commands: paths (``-``: stdin), opened,
decompressed and read in chunks, with the bytes read told to a progress callback,
and outputs: bytes to a file (compressed by its name's ending) or a stream."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO

from solver.errors import NoGamesError
from solver.games.reading import SUFFIXES, chunks, compressor, open_input

Progress = Callable[[int], object]


class Input:
    """One input: its ``path``, the compression found, and its bytes in chunks.

    ``games`` is set by the command once read, so that :meth:`check_games`
    can say that it held none.
    """

    def __init__(self, path: str, stdin: IO[bytes] | None = None,
                 progress: Progress | None = None) -> None:
        self.path = path
        self.stream, self.compression = open_input(path, stdin)
        self.progress = progress
        self.size: int | None = None
        if path != "-":
            try:
                self.size = os.stat(path).st_size
            except OSError:
                self.size = None

    def pieces(self) -> Iterator[bytes]:
        progress = self.progress
        for piece in chunks(self.stream, self.path):
            if progress is not None:
                progress(len(piece))
            yield piece

    def close(self) -> None:
        if self.path != "-":
            self.stream.close()


def no_games(path: str, read: int) -> None:
    """Raise :class:`~solver.errors.NoGamesError` when ``read`` is 0."""
    if not read:
        raise NoGamesError(path)


def compressed(pieces: Iterable[bytes], kind: str | None, path: str) -> Iterator[bytes]:
    """``pieces`` compressed as ``kind`` (None: as they are)."""
    if kind is None:
        yield from pieces
        return
    engine = compressor(kind, path)
    for piece in pieces:
        out = engine.compress(piece)  # type: ignore[attr-defined]
        if out:
            yield out
    yield engine.flush()  # type: ignore[attr-defined]


def kind_of(path: str) -> str | None:
    """The compression a file name's ending asks for (``.gz``, ``.bz2``, ``.xz``, ``.zst``)."""
    lower = path.lower()
    return next((kind for suffix, kind in SUFFIXES.items() if lower.endswith(suffix)), None)
