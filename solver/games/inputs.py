"""The inputs of the ``games`` commands: paths (``-``: stdin), opened,
decompressed and read in chunks, with the bytes read told to a progress callback,
and outputs: bytes to a file (compressed by its name's ending) or a stream."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Final

from solver.errors import InputFileError, NoGamesError
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


def no_games(path: str, read: int, skipped: int = 0) -> None:
    """Raise :class:`~solver.errors.NoGamesError` when ``read`` is 0, and
    :class:`~solver.errors.InputFileError` when every game read was ``skipped``."""
    if not read:
        raise NoGamesError(path)
    if skipped >= read:
        some = "its game was" if read == 1 else f"each of its {read:,} games was"
        raise InputFileError(path, f"{some} skipped (see above): no game could be read")


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


#: A temporary file of an in-place rewrite: beside the file, named after it
#: and the process writing it, so that one left by a killed run is found.
_TEMPORARY_NAME: Final = ".{name}.chess960-{pid}.tmp"


def _temporary(path: str, pid: int) -> str:
    folder, name = os.path.split(path)
    return os.path.join(folder, _TEMPORARY_NAME.format(name=name[:200], pid=pid))


def remove_stale(path: str) -> list[str]:
    """Remove the temporary files that runs killed while rewriting ``path``
    left (their process is gone); returns their paths."""
    import glob

    pattern = _temporary(glob.escape(path), 0).replace(".chess960-0.tmp", ".chess960-*.tmp")
    removed = []
    for temp in glob.glob(pattern):
        pid = temp.rsplit("-", 1)[1][:-len(".tmp")]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        with contextlib.suppress(OSError):
            os.unlink(temp)
            removed.append(temp)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # not this run's: made by an earlier process of the same number
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True


def refuse_in_place(path: str) -> os.stat_result:
    """The file's state before it is rewritten in place; refuses (as ``lint
    --fix`` does) a read-only file, one with hard links, one that is not a
    regular file: :class:`~solver.errors.OutputFileError`."""
    from solver.lists.lint import _refuse_shared

    try:
        found = os.stat(path)
    except OSError as exc:
        raise InputFileError(path, (exc.strerror or str(exc)).lower()) from None
    _refuse_shared(path)
    return found


def replace_in_place(path: str, pieces: Iterable[bytes], before: os.stat_result) -> None:
    """Write ``pieces`` to a temporary file beside ``path``, then rename it over
    ``path``, only if ``path`` is as it was (``before``: same file, size and
    modification time): a file appended to while it was read is left as it is.
    The temporary file is removed on any error (and on Ctrl-C); one left by a
    killed run is removed by the next (:func:`remove_stale`)."""
    from solver.errors import OutputFileError, shown_path
    from solver.files import _TEMPORARY, _signals_held

    remove_stale(path)
    temp = _temporary(path, os.getpid())
    try:
        with _signals_held():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            _TEMPORARY.add(temp)
        with os.fdopen(fd, "wb") as out:
            for piece in pieces:
                out.write(piece)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, stat.S_IMODE(before.st_mode))
        now = os.stat(path)
        if _state(now) != _state(before):
            raise InputFileError(path, "it changed while it was read (another program writes "
                                       "to it?): left as it is")
        with _signals_held():
            os.replace(temp, path)
            _TEMPORARY.discard(temp)
    except OSError as exc:
        raise OutputFileError(shown_path(path), (exc.strerror or str(exc)).lower()) from None
    finally:
        if temp in _TEMPORARY:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            _TEMPORARY.discard(temp)


def _state(found: os.stat_result) -> tuple[int, ...]:
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_nlink)
