"""One side's ranks kept between runs, so that ``id``, ``position`` and ``random``
answer a small family as fast as Chess960.

Chess960 is answered by arithmetic at start-up speed. Any other family must
first be read from its rule file and numbered, and an enumerated family
counted (a quarter of a second for full Capablanca Random, five times the
whole of ``chess960 id QNRBBNKR``). So the second time a command answers from
a family with mirrored ranks on the classical board and at most
:data:`TABLE_MAX` ranks a side, it writes the family's ranks, in ID order, to
a table in the cache directory; later runs read the table in a millisecond
and import neither the rule reader nor the solver.

* **Where:** ``$CHESS960_CACHE_DIR``, else the user's cache directory as
  `platformdirs <https://pypi.org/project/platformdirs/>`_ finds it: on Linux
  ``$XDG_CACHE_HOME/chess960`` (when absolute), else ``~/.cache/chess960``
  (worked out here, see :func:`cache_dir`); ``~/Library/Caches/chess960`` on
  macOS; ``%LOCALAPPDATA%\\chess960\\Cache`` on Windows. Any non-empty
  ``$CHESS960_NO_CACHE`` turns the cache off: nothing is read or written.
* **When a table is used:** it holds the bytes of the rule file it was made
  from and the version of chess960 that made it, and is used only when both
  are exactly those of this run, its length and checksum are right and it
  has as many ranks as it says. Anything else is ignored (and rewritten).
* **Only exact inputs:** a rank in the family's own upper-case letters, an
  ID written as Python writes it (``518``, not ``0518`` or ``+518``). Anything
  else (a FEN, lower case, a bad input) is answered by the family itself,
  so its errors are the library's own, and the answer never depends on the
  cache.
* **Writing** goes through :func:`~solver.files.write_atomic` (a temporary
  file renamed over the table). When the cache cannot be written (read-only,
  full disk) the command answers as it would have and says nothing.

>>> table = Table("example", 2, ["KRR", "RKR"])
>>> table.id_of("RKR"), table.id_of("rkr"), table.number("1"), table.number("01"), table.rank(1)
(1, None, 1, None, 'RKR')
"""

from __future__ import annotations

import binascii
import os
import sys
from typing import TYPE_CHECKING

from solver import __version__
from solver.errors import Chess960Error
from solver.ruleset.limits import MAX_FILE_BYTES

if TYPE_CHECKING:
    from solver.family import Family
    from solver.ruleset.source import RuleSource

#: The largest side (ranks) a table is kept for: full Capablanca Random
#: (12,118) and Capablanca Random (48,000) are; the 84,000 of
#: capablanca-shuffle are not (making the table would take seconds).
TABLE_MAX = 1 << 16

#: The first line of every table file: what it is and the layout's version.
MAGIC = b"chess960 ranks 1"

#: Tables larger than this are not read (no table the tool writes comes near).
READ_MAX = MAX_FILE_BYTES + TABLE_MAX * 64 + 4096


def cache_dir() -> str | None:
    """The directory of the tables, or None when the cache is turned off (or
    there is no home directory to put it in).

    ``$CHESS960_CACHE_DIR`` when set, else the user's cache directory as
    :func:`platformdirs.user_cache_dir` finds it. On Linux and the other
    XDG systems that is the XDG rule, worked out here by :func:`xdg_cache_dir`
    (the same answer; a test holds the two equal): importing platformdirs
    takes 40 modules and about 10 ms, more than answering from a table adds
    to Chess960's start-up.
    On macOS and Windows platformdirs is asked.

    >>> os.environ["CHESS960_CACHE_DIR"] = "/tmp/tables"
    >>> cache_dir()
    '/tmp/tables'
    >>> del os.environ["CHESS960_CACHE_DIR"]
    """
    env = os.environ
    if env.get("CHESS960_NO_CACHE"):
        return None
    chosen = env.get("CHESS960_CACHE_DIR")
    if chosen:
        return chosen
    if sys.platform not in ("win32", "darwin"):
        return xdg_cache_dir()
    from platformdirs import user_cache_dir

    try:
        found = user_cache_dir("chess960", appauthor=False)
    except (RuntimeError, OSError, KeyError):  # no home directory known
        return None
    return found if os.path.isabs(found) else None


def xdg_cache_dir() -> str | None:
    """``$XDG_CACHE_HOME/chess960`` when that is absolute, else ``~/.cache/chess960``
    (None without a home directory): platformdirs' answer on XDG systems."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "chess960")


def read_source(rules: str) -> RuleSource | None:
    """The rule file ``rules`` names (a bundled name or a path), read once as the
    library reads it, or None when it cannot be (the family's loading then says why).

    The resolver is imported here, not at start-up: Chess960's answers need no file.
    """
    from solver.ruleset.source import RuleSource

    try:
        return RuleSource.read(rules)
    except (LookupError, Chess960Error):
        return None


def stem(source: RuleSource) -> str:
    """The tables' file name for a rule file, without the extension (equal names
    for different files only mean one table replaces the other).

    >>> from solver.ruleset.source import RuleSource
    >>> stem(RuleSource("x.toml", "x.toml", b"abc"))
    '352441c2-3'
    """
    return f"{binascii.crc32(source.data):08x}-{len(source.data):x}"


class Table:
    """One side's ranks in ID order, of the family named ``name``.

    ``count`` is how many positions the family has (its side count:
    ranks are mirrored).
    """

    def __init__(self, name: str, count: int, ranks: list[str]) -> None:
        self.name = name
        self.count = count
        self.ranks = ranks
        self._ids: dict[str, int] | None = None

    def id_of(self, text: str) -> int | None:
        """The ID of ``text`` when it is one of the ranks exactly, else None."""
        ids = self._ids
        if ids is None:
            ids = self._ids = {rank: i for i, rank in enumerate(self.ranks)}
        return ids.get(text)

    def rank(self, number: int) -> str:
        """The rank with ID ``number`` (in range)."""
        return self.ranks[number]

    def number(self, text: str) -> int | None:
        """``text`` as an ID when it is written as Python writes one in range, else None."""
        return plain_number(text, self.count)


def plain_number(text: str, count: int) -> int | None:
    """``text`` as an ID below ``count`` when it is written as Python writes it, else None.

    >>> plain_number("518", 960), plain_number("0518", 960), plain_number("960", 960)
    (518, None, None)
    """
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(count)):
        return None
    number = int(text)
    if str(number) != text or number >= count:
        return None
    return number


def _header(name: str, source: RuleSource, count: int, body: bytes) -> bytes:
    sizes = f"{len(source.data)} {count} {binascii.crc32(body):08x}"
    return b"\n".join([MAGIC, __version__.encode(), name.encode(), sizes.encode(), b""])


def find(source: RuleSource | None) -> Table | None:
    """The table kept for ``source``, when the cache has a sound one."""
    folder = cache_dir()
    if source is None or folder is None:
        return None
    try:
        with open(os.path.join(folder, f"{stem(source)}.ranks"), "rb") as handle:
            blob = handle.read(READ_MAX + 1)
    except (OSError, ValueError):
        return None
    try:
        magic, version, name, sizes, rest = blob.split(b"\n", 4)
        size, count, crc = sizes.split(b" ")
        rule_size = int(size)
        body = rest[rule_size:]
        ranks = body.decode().split("\n")
        table = Table(name.decode(), int(count), ranks)
    except ValueError:
        return None
    if (magic != MAGIC or version != __version__.encode() or rest[:rule_size] != source.data
            or len(blob) > READ_MAX or len(ranks) != table.count or not table.count
            or crc != f"{binascii.crc32(body):08x}".encode()):
        return None
    return table


def keeps(family: Family) -> bool:
    """Whether a table is kept for ``family``: mirrored ranks on the classical
    board (so its text answers are its ranks), at most :data:`TABLE_MAX` of them."""
    return (not family.sides.independent and family.layout is None
            and family.side_count <= TABLE_MAX)


def remember(source: RuleSource | None, family: Family) -> None:
    """Note that ``family``, loaded from ``source`` (its very bytes), has answered a
    command: the second time, write its table (see the module's text).

    Nothing here fails: a cache that cannot be written is left as it is.
    """
    folder = cache_dir()
    if source is None or folder is None:
        return
    path = os.path.join(folder, stem(source))
    seen = f"{path}.seen"
    try:
        if not keeps(family):
            return
        if not os.path.exists(seen):
            os.makedirs(folder, exist_ok=True)
            with open(seen, "wb"):
                pass
            return
        ranks = family.side_table()
        body = "\n".join(ranks).encode()
        header = _header(family.name, source, len(ranks), body)
        from solver.files import write_atomic

        write_atomic(f"{path}.ranks", (header + source.data + body).decode())
        os.remove(seen)
    except (OSError, Chess960Error, UnicodeDecodeError):
        return
