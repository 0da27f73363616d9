"""Writing files so that nothing is ever half-written: :func:`write_atomic`.

Everything the tool writes to a named file goes through :func:`write_atomic`:
the text goes to a temporary file beside the target, is synced, and is
renamed over the target, so readers see the old file or the whole new one.

* Only regular files are written. A directory, device, FIFO or socket at
  the target is refused; so is a **symbolic link**: replacing it would
  either turn the link into a plain file or silently rewrite a file
  elsewhere, so the caller is asked to name the file itself.
* The temporary name is short (``.chess960-XXXXXXXX.tmp``), so any name
  the file system takes can be written.
* The temporary file is removed on any exit: on an error here, and on
  Ctrl-C or SIGTERM through :func:`remove_temporary`, which the command's
  signal handler calls. Between creating it and recording it, and between
  renaming it and forgetting it, those signals are held back.
* On failure the original is untouched and
  :class:`~solver.errors.OutputFileError` names the path and the reason.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from solver.errors import OutputFileError, shown_path

#: Temporary files being written now (removed by :func:`remove_temporary`).
_TEMPORARY: set[str] = set()

_HELD = {signal.SIGINT, signal.SIGTERM}


def remove_temporary() -> None:
    """Remove every temporary file being written (for an immediate exit)."""
    for temp in list(_TEMPORARY):
        with contextlib.suppress(OSError):
            os.unlink(temp)
        _TEMPORARY.discard(temp)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX, or a thread
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextlib.contextmanager
def replacing(path: str, partial: str) -> Iterator[str]:
    """Yield ``partial``, a file beside ``path`` for its new text (removed first
    if a killed run left it, and on Ctrl-C by :func:`remove_temporary`); when
    the block ends well, moved over ``path``. For a writer that cannot give
    :func:`write_atomic` its text (a SQLite store, a table rewritten from its
    rows). An ``OSError`` becomes :class:`~solver.errors.OutputFileError`
    naming ``path``; ``partial`` never stays.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with replacing(str(folder / "t.csv"), str(folder / ".t.csv.part")) as part:
    ...     _ = pathlib.Path(part).write_text("id")
    >>> sorted(p.name for p in folder.iterdir()), (folder / "t.csv").read_text()
    (['t.csv'], 'id')
    """
    _TEMPORARY.add(partial)
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
        yield partial
        os.replace(partial, path)
    except OSError as exc:
        raise OutputFileError(path, (exc.strerror or str(exc)).lower()) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        _TEMPORARY.discard(partial)


def _refuse_odd_target(target: Path, shown: str) -> int | None:
    """The mode of the existing regular file at ``target`` (None if there is
    none); raises :class:`OutputFileError` for anything else there."""
    try:
        found = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputFileError(shown, (exc.strerror or str(exc)).lower()) from None
    mode = found.st_mode
    if stat.S_ISLNK(mode):
        raise OutputFileError(shown, "it is a symbolic link (name the file it points to)")
    if stat.S_ISDIR(mode):
        raise OutputFileError(shown, "it is a directory")
    if not stat.S_ISREG(mode):
        raise OutputFileError(shown, "it is not a regular file")
    return stat.S_IMODE(mode)


Pieces = Iterable[str] | Iterable[bytes]
Text = str | Pieces | Callable[[], str | Pieces]


def write_atomic(path: str | os.PathLike[str], text: Text) -> None:
    """Write ``text`` (UTF-8; or its pieces, in order, bytes as they are) to the
    regular file ``path`` atomically (a function: its result, asked for once the
    temporary file is made, so that a folder that cannot be written costs no work).

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_atomic(folder / ("b" * 250), "<svg/>")
    >>> (folder / ("b" * 250)).read_text()
    '<svg/>'
    >>> write_atomic(folder, "<svg/>")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.OutputFileError: cannot write '...': it is a directory
    """
    write_all_atomic([(path, text)])


def write_all_atomic(files: Iterable[tuple[str | os.PathLike[str], Text]]) -> None:
    """Write each ``(path, text)`` as :func:`write_atomic` does, all or none:
    every text is written to a temporary file beside its target first, and only
    once all are written are they renamed over their targets. On a failure no
    target is touched (short of one failing rename among the last steps).

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / "c").mkdir()
    >>> write_all_atomic([(folder / "a", "1"), (folder / "b", "2"), (folder / "c", "3")])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.OutputFileError: cannot write '...': it is a directory
    >>> sorted(p.name for p in folder.iterdir())
    ['c']
    """
    staged: list[tuple[str, Path, str]] = []  # (temporary, target, its name as shown)
    try:
        for path, text in files:
            target = Path(path)
            shown = shown_path(str(path))
            mode = _refuse_odd_target(target, shown)
            try:
                with _signals_held():
                    fd, temp = tempfile.mkstemp(prefix=".chess960-", suffix=".tmp",
                                                dir=target.parent)
                    _TEMPORARY.add(temp)
                staged.append((temp, target, shown))
                with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                    pieces = text() if callable(text) else text
                    if isinstance(pieces, str):
                        handle.write(pieces)
                    else:
                        for piece in pieces:
                            if isinstance(piece, bytes):
                                handle.flush()
                                handle.buffer.write(piece)
                            else:
                                handle.write(piece)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(temp, mode if mode is not None else 0o666 & ~_umask())
            except OSError as exc:
                raise OutputFileError(shown, (exc.strerror or str(exc)).lower()) from None
        for _, target, shown in staged:
            _refuse_odd_target(target, shown)  # nothing odd put there meanwhile
        for temp, target, shown in staged:
            try:
                with _signals_held():
                    os.replace(temp, target)
                    _TEMPORARY.discard(temp)
            except OSError as exc:
                raise OutputFileError(shown, (exc.strerror or str(exc)).lower()) from None
    finally:
        for temp, _, _ in staged:
            if temp in _TEMPORARY:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                _TEMPORARY.discard(temp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def make_folder(path: str | os.PathLike[str]) -> None:
    """Make the folder ``path`` and its missing parents (an existing folder is
    fine); raises :class:`OutputFileError` when it cannot be made.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp()) / "boards" / "round"
    >>> make_folder(folder); make_folder(folder); folder.is_dir()
    True
    """
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        reason = "it is not a folder" if isinstance(exc, FileExistsError) else (
            exc.strerror or str(exc)).lower()
        raise OutputFileError(shown_path(str(path)), reason) from None


def read_text(path: str, limit: int, refuse: Callable[[str], Exception]) -> str:
    """The text of the file ``path``: a regular file (a FIFO or a device is
    refused at once) of at most ``limit`` bytes of UTF-8; else
    ``refuse(reason)`` is raised, the reason the OS's in lower case, ``not a
    regular file``, ``larger than N bytes`` or ``not UTF-8 text (byte N)``.

    >>> read_text("/dev/null", 10, ValueError)
    Traceback (most recent call last):
    ...
    ValueError: not a regular file
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise refuse((exc.strerror or str(exc)).lower()) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise refuse("not a regular file")
        chunks, size = [], 0
        while size <= limit and (chunk := os.read(fd, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise refuse((exc.strerror or str(exc)).lower()) from None
    finally:
        os.close(fd)
    if size > limit:
        raise refuse(f"larger than {limit:,} bytes")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise refuse(f"not UTF-8 text (byte {exc.start})") from None
