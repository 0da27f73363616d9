"""From a ``--rules`` argument to the bytes of its rule file: the one way a name or a path
is resolved, checked and read.

A bundled family's name (``chess960``) names ``rules/chess960.toml``; anything
ending in ``.toml``, containing a ``/`` or naming an existing file is a path;
anything else names nothing (:func:`locate` returns None, and
:func:`solver.ruleset.reader.load` says which names there are). The file is
read once, and only if it is a regular file (never a FIFO, a device or a
directory, which could block or never end) of at most
:data:`~solver.ruleset.limits.MAX_FILE_BYTES` bytes.

The library (:func:`solver.ruleset.reader.load`, ``Family.load``), and so the
command, reads rule files here. This module imports nothing but :mod:`os`,
:mod:`stat`, :mod:`re` and the light :mod:`solver.errors`.
"""

from __future__ import annotations

import os
import stat

from solver.errors import InvalidRuleFileError, RuleFileReadError, shown_path
from solver.ruleset.bundled import bundled_path
from solver.ruleset.limits import MAX_FILE_BYTES

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Final

#: Opening without waiting for a writer (a FIFO): the file is checked after it is opened.
_OPEN_FLAGS: Final = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class RuleSource:
    """A rule file's bytes, with the path it was read from and the name errors show.

    >>> source = RuleSource.read("chess960")
    >>> source.shown, source.bundled, source.data[:1]
    ('rules/chess960.toml', True, b'#')
    """

    __slots__ = ("bundled", "data", "path", "shown")

    def __init__(self, path: str, shown: str, data: bytes, bundled: bool = False) -> None:
        self.path = path
        self.shown = shown
        self.data = data
        self.bundled = bundled

    @classmethod
    def read(cls, name_or_path: str) -> RuleSource:
        """The rule file ``name_or_path`` names, read once.

        Raises :class:`~solver.errors.RuleFileError` when it cannot be read,
        is not a regular file or is too large, and
        :class:`LookupError` when the argument names no file at all
        (:func:`solver.ruleset.reader.load` turns that into its error).

        >>> RuleSource.read("/dev/null")
        Traceback (most recent call last):
        ...
        solver.errors.RuleFileReadError: /dev/null: not a regular file
        """
        found = locate(name_or_path)
        if found is None:
            raise LookupError(name_or_path)
        path, shown = found
        return cls.open(path, shown, bundled=path != name_or_path)

    @classmethod
    def open(cls, path: str, shown: str, bundled: bool = False) -> RuleSource:
        """The rule file at ``path`` (named ``shown`` in errors), read once: see :meth:`read`."""
        try:  # a name the system refuses (too long, a loop) is refused here, in lower case
            os.stat(path)
        except FileNotFoundError:
            pass  # refused below, when opening it fails
        except OSError as exc:
            reason = (exc.strerror or str(exc)).lower()
            raise RuleFileReadError(shown_path(shown), f"cannot read: {reason}") from None
        try:
            fd = os.open(path, _OPEN_FLAGS)
        except OSError as exc:
            raise RuleFileReadError(shown, f"cannot read: {exc.strerror or exc}") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise RuleFileReadError(shown_path(shown), "not a regular file")
            chunks = []
            size = 0
            while size <= MAX_FILE_BYTES and (chunk := os.read(fd, MAX_FILE_BYTES + 1 - size)):
                chunks.append(chunk)
                size += len(chunk)
        except OSError as exc:
            raise RuleFileReadError(shown, f"cannot read: {exc.strerror or exc}") from None
        finally:
            os.close(fd)
        if size > MAX_FILE_BYTES:
            raise InvalidRuleFileError(shown, f"larger than {MAX_FILE_BYTES:,} bytes")
        return cls(path, shown, b"".join(chunks), bundled)


def locate(name_or_path: str) -> tuple[str, str] | None:
    """``(path, shown)``: the file ``name_or_path`` names and how errors name it;
    None when it is neither a bundled family nor taken as a path.

    >>> locate("chess960")[1], locate("my.toml"), locate("no-such-family")
    ('rules/chess960.toml', ('my.toml', 'my.toml'), None)
    """
    bundled = bundled_path(name_or_path)
    if bundled is not None:
        return bundled, f"rules/{name_or_path}.toml"
    if ("/" in name_or_path or _suffix(name_or_path) == ".toml"
            or os.path.isfile(name_or_path)):
        return name_or_path, name_or_path
    return None


def _suffix(path: str) -> str:
    """The extension of the last part of ``path``, as :attr:`pathlib.PurePath.suffix` has it."""
    name = os.path.basename(path.rstrip(os.sep))
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""
