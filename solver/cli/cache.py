"""One side's ranks kept between runs, so that ``id``, ``position`` and ``random``
answer a small family as fast as Chess960.

Chess960 is answered by arithmetic at start-up speed (while its rule file is
the one shipped: :func:`solver.numbering.shortcut.arithmetic`). Any other family must
first be read from its rule file and numbered, and an enumerated family
counted (a quarter of a second for full Capablanca Random, five times the
whole of ``chess960 id QNRBBNKR``). So the second time a command answers from
a family with mirrored ranks on the classical board and at most
:data:`TABLE_MAX` ranks a side, it writes the family's ranks, in ID order, to
a table in the cache directory; later runs read the table in a millisecond
and import neither the rule reader nor the solver.

* **No answers kept:** nothing is kept that could answer otherwise than a
  fresh computation: ``check`` proves its family on every run, ``--help`` is
  Typer's, and a table is used only while the bytes it was made from (the rule
  file's and the numbering code's) are the same.
* **Where:** ``$CHESS960_CACHE_DIR``, else the user's cache directory as
  `platformdirs <https://pypi.org/project/platformdirs/>`_ finds it: on Linux
  ``$XDG_CACHE_HOME/chess960`` (when absolute), else ``~/.cache/chess960``
  (worked out here, see :func:`cache_dir`); ``~/Library/Caches/chess960`` on
  macOS; ``%LOCALAPPDATA%\\chess960\\Cache`` on Windows. Any non-empty
  ``$CHESS960_NO_CACHE`` turns the cache off: nothing is read or written.
* **When a table is used:** only when it is proven to be this family's, as
  this code numbers it. Each table carries a tag: a keyed BLAKE2b hash of the
  bytes of the rule file, of the code that numbers ranks and writes labels
  (the source of the package's modules outside ``cli`` and ``output``, and of
  python-constraint, see :func:`code_id`), of the table's header and of its ranks. The key is 32
  random bytes in the file ``key`` of the cache directory, made with the
  first table and used only while it is a regular file of the user's own
  that no one else may read or write (mode ``0600``). A table whose tag is
  not what this run computes (another rule file or numbering code, any byte
  changed, a table crafted or edited without the key) is ignored, and the
  family answers. Each answer read from a table is checked again before it
  is written: the rank holds the family's pieces (kept in the tagged header)
  and an ID's rank numbers back to that ID (no rank twice); if not, the
  family answers from then on.
* **What is opened:** the table and the key only as regular files, never
  through a symbolic link, and without waiting (a FIFO or a device there is
  ignored, so it can neither block nor eat stdin).
* **Only exact inputs:** a rank in the family's own upper-case letters, an
  ID written as Python writes it (``518``, not ``0518`` or ``+518``). Anything
  else (a FEN, lower case, a bad input) is answered by the family itself,
  so its errors are the library's own, and the answer never depends on the
  cache.
* **Writing** goes through :func:`~solver.files.write_atomic` (a temporary
  file renamed over the table), and the temporary file is made before the
  family's ranks are: a cache that cannot be written costs no extra work when
  read-only, and one try when full (a failed write drops the family's mark),
  and the command answers as it would have and says nothing. The cache
  directory is made (mode ``0700``) when missing: only the directory itself
  when ``$CHESS960_CACHE_DIR`` names it (its parent must exist), with its
  parents at the default place.

>>> table = Table("example", 2, ["KRR", "RKR"], "KRR")
>>> table.id_of("RKR"), table.id_of("rkr"), table.number("1"), table.number("01"), table.rank(1)
(1, None, 1, None, 'RKR')
>>> Table("example", 2, ["KRR", "KRR"], "KRR").id_of("KRR") is None  # a rank twice
True
"""

from __future__ import annotations

import binascii
import contextlib
import os
import stat
import sys

from solver import __version__
from solver.errors import Chess960Error
from solver.numbering.shortcut import READ_FLAGS as _READ_FLAGS
from solver.numbering.shortcut import Choice, arithmetic, plain_number, read_regular

try:  # the C module itself: hashlib would load OpenSSL at start-up (a few ms)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up

if TYPE_CHECKING:
    from solver.family import Family
    from solver.ruleset.source import RuleSource

#: The largest side (ranks) a table is kept for: full Capablanca Random
#: (12,118) and Capablanca Random (48,000) are; the 84,000 of
#: capablanca-shuffle are not (making the table would take seconds).
TABLE_MAX = 1 << 16

#: The first line of every table file: what it is and the layout's version.
MAGIC = b"chess960 ranks 2"

#: Tables larger than this are not read (no table the tool writes comes near).
READ_MAX = TABLE_MAX * 64 + 4096

#: The key's file in the cache directory, and its size in bytes.
KEY_NAME = "key"
KEY_SIZE = 32

#: The package's folders (beside its top-level modules) whose code numbers ranks
#: or writes a conversion table's labels (``notation``: ranks and castling rights).
CODE_FOLDERS = ("board", "kinds", "notation", "numbering", "ruleset", "search")

_MAKE_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))

#: Whether files are checked to be the user's own and private (not on Windows).
_POSIX = os.name == "posix"


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


_CODE_ID: list[bytes] = []


def code_id() -> bytes:
    """A BLAKE2b-256 hash of the code that numbers ranks: the version, and the
    name and bytes of every module at the package's top level and under
    :data:`CODE_FOLDERS`, and of the solver's own search library,
    python-constraint (made once a run, and only when a table is checked).

    Raises :class:`OSError` when a module cannot be read.
    """
    if not _CODE_ID:
        import importlib.util

        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        digest = blake2b(__version__.encode(), digest_size=32)
        found = [(package, path) for path in _modules(package, CODE_FOLDERS)]
        spec = importlib.util.find_spec("constraint")
        if spec is not None and spec.origin is not None:
            library = os.path.dirname(spec.origin)
            found += [(library, path) for path in _modules(library, None, _CODE_SUFFIXES)]
        for base, path in found:
            with open(path, "rb") as handle:
                data = handle.read()
            name = os.path.relpath(path, base).encode()
            digest.update(b"%d %d\n" % (len(name), len(data)) + name + data)
        _CODE_ID.append(digest.digest())
    return _CODE_ID[0]


#: The files of a package whose changes change what it does: sources and extensions.
_CODE_SUFFIXES = (".py", ".so", ".pyd")


def _modules(folder: str, below: tuple[str, ...] | None,
             suffixes: tuple[str, ...] = (".py",)) -> list[str]:
    """The ``.py`` files (or those ending in one of ``suffixes``) in ``folder``
    (sorted), then those of its sub-folders ``below`` (None: all of them but
    ``__pycache__``)."""
    found = []
    folders = []
    with os.scandir(folder) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.is_file() and entry.name.endswith(suffixes):
                found.append(entry.path)
            elif (entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__"
                  and (below is None or entry.name in below)):
                folders.append(entry.path)
    for inner in folders:
        found.extend(_modules(inner, None, suffixes))
    return found


def _tag(key: bytes, source: RuleSource, name: bytes, sizes: bytes, body: bytes,
         magic: bytes = MAGIC) -> bytes:
    """The table's tag: its key's hash of everything it depends on, each part sized."""
    digest = blake2b(key=key, digest_size=32)
    for part in (magic, code_id(), source.data, name, sizes, body):
        digest.update(b"%d\n" % len(part))
        digest.update(part)
    return digest.hexdigest().encode()


def _private(found: os.stat_result) -> bool:
    """Whether a file is the user's own and no one else's to read or write."""
    return not _POSIX or (found.st_uid == os.geteuid() and not found.st_mode & 0o077)


def read_key(folder: str) -> bytes | None:
    """The cache's key, when its file is sound: a regular file (no link) of
    :data:`KEY_SIZE` bytes, the user's own, mode ``0600`` or stricter."""
    try:
        fd = os.open(os.path.join(folder, KEY_NAME), _READ_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        found = os.fstat(fd)
        if (not stat.S_ISREG(found.st_mode) or found.st_size != KEY_SIZE
                or not _private(found)):
            return None
        key = os.read(fd, KEY_SIZE + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return key if len(key) == KEY_SIZE else None


def _make_key(folder: str) -> bytes | None:
    """The cache's key, made now if it has none (or an unsound one); None when
    it cannot be made (or another run is making it this very moment)."""
    key = read_key(folder)
    if key is not None:
        return key
    path = os.path.join(folder, KEY_NAME)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # an unsound key (or a link, a FIFO) is replaced
    key = os.urandom(KEY_SIZE)
    try:
        fd = os.open(path, _MAKE_FLAGS, 0o600)
    except FileExistsError:  # another run made it meanwhile
        return read_key(folder)
    try:
        os.write(fd, key)
        os.fsync(fd)
    finally:
        os.close(fd)
    return read_key(folder)


def find(source: RuleSource | None) -> Table | None:
    """The table kept for ``source``, when the cache has one proven to be its family's."""
    folder = cache_dir()
    if source is None or folder is None:
        return None
    blob = read_regular(os.path.join(folder, f"{stem(source)}.ranks"), READ_MAX)
    if blob is None or not blob.startswith(MAGIC + b"\n"):
        return None
    try:
        _magic, name, sizes, tag, body = blob.split(b"\n", 4)
        count, pieces = sizes.split(b" ")
        key = read_key(folder)
        if key is None or not count.isdigit() or tag != _tag(key, source, name, sizes, body):
            return None
        ranks = body.decode().split("\n")
        table = Table(name.decode(), int(count), ranks, pieces.decode())
    except (ValueError, OSError):
        return None
    return table if table.count and table.trusted else None


class Table:
    """One side's ranks in ID order, of the family named ``name``.

    ``count`` is how many positions the family has (its side count:
    ranks are mirrored); ``pieces`` the letters of every rank, sorted. Each
    answer is checked against them (see the module's text): a table found
    unsound answers nothing more (None: the family answers).
    """

    def __init__(self, name: str, count: int, ranks: list[str], pieces: str) -> None:
        self.name = name
        self.count = count
        self.ranks = ranks
        self.pieces = pieces
        self.trusted = len(ranks) == count
        self._ids: dict[str, int] | None = None

    def _index(self) -> dict[str, int] | None:
        """Each rank's ID (made once), or None when the table is unsound: a rank
        twice, or any rank without the family's pieces (then a rank may stand at
        another's ID, so no answer of the table is taken)."""
        ids = self._ids
        if ids is None:
            ids = self._ids = {rank: i for i, rank in enumerate(self.ranks)}
            pieces = self.pieces
            if len(ids) != len(self.ranks) or any(
                    "".join(sorted(rank)) != pieces for rank in self.ranks):
                self.trusted = False
        return ids if self.trusted else None

    def _sound(self, rank: str, number: int) -> bool:
        """Whether ``rank`` is the table's rank ``number``, has the family's pieces
        and numbers back to ``number``; if not, the table answers nothing more."""
        ids = self._index()
        if (ids is None or ids.get(rank) != number or self.ranks[number] != rank
                or "".join(sorted(rank)) != self.pieces):
            self.trusted = False
        return self.trusted

    def whole(self) -> bool:
        """Whether every rank is in the table once, each with the family's pieces."""
        pieces = self.pieces
        return self._index() is not None and all(
            "".join(sorted(rank)) == pieces for rank in self.ranks)

    def id_of(self, text: str) -> int | None:
        """The ID of ``text`` when it is one of the ranks exactly, else None."""
        ids = self._index()
        number = None if ids is None else ids.get(text)
        return number if number is not None and self._sound(text, number) else None

    def rank(self, number: int) -> str | None:
        """The rank with ID ``number`` (in range), or None when the table is unsound."""
        if not self.trusted or not 0 <= number < len(self.ranks):
            return None
        rank = self.ranks[number]
        return rank if self._sound(rank, number) else None

    def number(self, text: str) -> int | None:
        """``text`` as an ID when it is written as Python writes one in range, else None."""
        return plain_number(text, self.count)


def adopt(source: RuleSource | None, family: Family) -> None:
    """Give ``family``, loaded from ``source``, the cache's table of it, when
    there is one and every rank of it has the family's pieces, once each: then
    every format and command answers its lookups from the table instead of
    counting (an enumerated family whose sides mirror, on the classical board)."""
    ruleset = family.ruleset
    if (ruleset.numbering == "arithmetic" or ruleset.army is not None
            or family.sides.independent or not family.layout.standard):
        return
    table = find(source)
    if table is not None and table.name == family.name and table.whole():
        family.take_listing(table.ranks)


#: A table's label in every message (:class:`~solver.numbering.shortcut.Choice`).
TABLE_LABEL = "rank table"

#: Why a table answers, when one does.
TABLE_REASON = "the family's ranks kept between runs, each answer checked"


def choose(rules: str) -> tuple[Choice, RuleSource | None]:
    """The one place a command's plain answers choose their path: the family
    ``rules``'s shortcut for this run (:mod:`solver.numbering.shortcut`), Chess960's
    arithmetic while its rule file is the one shipped, else the table kept of
    the family, when there is one; and the rule file read (None for the
    arithmetic), to make that table once the family has answered."""
    choice = arithmetic(rules)
    if choice.on:
        return choice, None
    source = read_source(rules)
    table = find(source)
    if table is not None:
        return Choice(TABLE_LABEL, TABLE_REASON, table), source
    return choice, source


def shortcuts(rules: str, family: Family) -> list[Choice]:
    """The shortcuts ``chess960 check`` names for ``family`` (loaded from
    ``rules``), each on or off and why, those on to be proven: the arithmetic
    for Chess960; the table for a family that keeps one (the table kept now,
    else the one this run would write, from :meth:`Family.side_table`, never
    trusted: ``check`` compares it with the solver's listing); else none."""
    found = arithmetic(rules)
    if found.on:
        return [found]
    chosen = [] if found.label == "none" else [found]
    try:
        kept = keeps(family) and family.ruleset.army is None
        if kept and cache_dir() is not None:
            table = find(read_source(rules))
            if table is None or table.name != family.name:
                ranks = family.side_table()
                kept = bool(ranks)
                pieces = "".join(sorted(ranks[0] if ranks else ""))
                table = Table(family.name, len(ranks), ranks, pieces)
    except Chess960Error:  # no ranks to answer with: check says why
        kept = False
    if not kept:
        return chosen or [Choice("none", f"{family.name} answers every command itself")]
    if cache_dir() is None:
        why = "the cache is turned off ($CHESS960_NO_CACHE, or no home directory)"
        return [*chosen, Choice(TABLE_LABEL, why)]
    return [*chosen, Choice(TABLE_LABEL, f"{TABLE_REASON}, from its second answer on", table)]


def keeps(family: Family) -> bool:
    """Whether a table is kept for ``family``: mirrored ranks on the classical
    board (so its text answers are its ranks), at most :data:`TABLE_MAX` of them."""
    return (not family.sides.independent and family.layout.standard
            and family.side_count <= TABLE_MAX)


def make_folder(folder: str) -> None:
    """Make the cache directory ``folder`` when it is missing (mode ``0700``): only
    itself when ``$CHESS960_CACHE_DIR`` names it (its parent must exist; a typo
    there makes no tree of folders), with its parents at the default place."""
    if os.environ.get("CHESS960_CACHE_DIR"):
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, 0o700)
    else:
        os.makedirs(folder, 0o700, exist_ok=True)


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
        if not os.path.lexists(seen):
            make_folder(folder)
            os.close(os.open(seen, _MAKE_FLAGS, 0o600))
            return
    except (OSError, Chess960Error):
        return
    try:
        key = _make_key(folder)
        if key is not None:
            _write_table(f"{path}.ranks", key, source, family)
    except (OSError, Chess960Error, UnicodeError, ValueError):
        pass
    with contextlib.suppress(OSError):  # made or not: a full disk does not make it every run
        os.remove(seen)


def _unlink_unsound(path: str) -> None:
    """Remove what stands at a table's path unless it is a regular file: a link,
    a FIFO, a device is never followed, but replaced."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            os.unlink(path)
    except FileNotFoundError:
        pass


def _write_table(path: str, key: bytes, source: RuleSource, family: Family) -> None:
    """Write ``family``'s table, its ranks made only once the temporary file is."""
    from solver.files import write_atomic

    _unlink_unsound(path)

    def text() -> str:
        ranks = family.side_table()
        body = "\n".join(ranks).encode()
        pieces = "".join(sorted(ranks[0]))
        if any("".join(sorted(rank)) != pieces for rank in ranks):
            raise ValueError("ranks of other pieces")
        name = family.name.encode()
        sizes = f"{len(ranks)} {pieces}".encode()
        tag = _tag(key, source, name, sizes, body)
        return b"\n".join([MAGIC, name, sizes, tag, body]).decode()

    write_atomic(path, text)


# -- conversion tables: `chess960 convert` between two numberings ------------------------

#: The first line of a conversion table.
CONVERT_MAGIC = b"chess960 convert 1"


def _convert_path(folder: str, source: RuleSource, numberings: tuple[str, str]) -> str:
    """A conversion table's file: the rule file's stem and both numberings' names
    (checked names, or ``-`` for the family's own)."""
    return os.path.join(folder, f"{stem(source)}.{numberings[0]}.{numberings[1]}.convert")


def _convert_names(source_name: str | None, target_name: str | None) -> tuple[str, str] | None:
    names = (source_name or "-", target_name or "-")
    ok = all(n == "-" or (n.isascii() and n.replace("-", "").isalnum() and len(n) <= 40
                          and n == n.lower()) for n in names)
    return names if ok else None


def find_conversion(source: RuleSource | None, source_name: str | None,
                    target_name: str | None) -> dict[str, str] | None:
    """The conversion table kept for ``source`` between the two numberings
    (``None``: the family's own), when the cache has one proven to be its:
    each number or label as the first numbering writes it, to the second's.
    A table whose tag is not this run's, or that is not a bijection, is ignored."""
    folder = cache_dir()
    names = _convert_names(source_name, target_name)
    if source is None or folder is None or names is None:
        return None
    blob = read_regular(_convert_path(folder, source, names), READ_MAX)
    if blob is None or not blob.startswith(CONVERT_MAGIC + b"\n"):
        return None
    try:
        _magic, name, sizes, tag, body = blob.split(b"\n", 4)
        key = read_key(folder)
        if key is None or not sizes.isdigit() or name != " ".join(names).encode() or \
                tag != _tag(key, source, name, sizes, body, CONVERT_MAGIC):
            return None
        pairs = [line.split("\t") for line in body.decode().split("\n")]
        table = {given: written for given, written in pairs}
    except (ValueError, OSError):
        return None
    count = int(sizes)
    if len(table) != count or len(set(table.values())) != count:
        return None
    return table


def remember_conversion(source: RuleSource | None, family: Family, source_name: str | None,
                        target_name: str | None) -> None:
    """Note that ``family`` converted between two numberings: the second time, write
    the table of every position's two numbers (at most :data:`TABLE_MAX`). Nothing
    here fails: a cache that cannot be written is left as it is."""
    folder = cache_dir()
    names = _convert_names(source_name, target_name)
    if source is None or folder is None or names is None or family.count > TABLE_MAX:
        return
    path = _convert_path(folder, source, names)
    seen = f"{path}.seen"
    try:
        if not os.path.lexists(seen):
            make_folder(folder)
            os.close(os.open(seen, _MAKE_FLAGS, 0o600))
            return
    except OSError:
        return
    try:
        key = _make_key(folder)
        if key is not None:
            _write_conversion(path, key, source, family, names)
    except (OSError, Chess960Error, UnicodeError, ValueError):
        pass
    with contextlib.suppress(OSError):
        os.remove(seen)


def _write_conversion(path: str, key: bytes, source: RuleSource, family: Family,
                      names: tuple[str, str]) -> None:
    from solver.files import write_atomic

    _unlink_unsound(path)

    def text() -> str:
        read = family.scheme(None if names[0] == "-" else names[0]).text
        write = family.scheme(None if names[1] == "-" else names[1]).text
        lines = [f"{read(number)}\t{write(number)}" for number in range(family.count)]
        body = "\n".join(lines).encode()
        name = " ".join(names).encode()
        sizes = str(family.count).encode()
        tag = _tag(key, source, name, sizes, body, CONVERT_MAGIC)
        return b"\n".join([CONVERT_MAGIC, name, sizes, tag, body]).decode()

    write_atomic(path, text)
