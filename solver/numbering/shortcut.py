"""Shortcuts: a family's plain answers (an ID's rank, a rank's ID) without
loading the family, behind one seam.

A command never picks a path itself: it asks for the family's
:class:`Choice` (:func:`choose`) and answers through its
:attr:`Choice.shortcut` when one is on, else from the family (the general
path: the rule file read, the ranks solved and numbered). There is one
shortcut, named, and on or off with a reason said in words:

* **chess960 arithmetic** (:class:`Arithmetic`): Scharnagl's formula
  (:mod:`solver.numbering.scharnagl`), for the bundled ``chess960`` only while
  its rule file is byte for byte the one shipped (:data:`CHESS960_DIGEST`).
  Editing ``rules/chess960.toml`` (adding a numbering, say) turns it off, and
  ``chess960 check`` says so: the family then answers like any other.

``which`` has more, beside the family: while every bundled rule file is
the one shipped (:data:`RULES_DIGEST`), a family whose declared width or pieces
cannot make a rank is passed over unread (:func:`bundled_shapes`), and each
family of eight files answers a rank of eight upper-case letters as its file
declares it, unread (:func:`declared_answer`); a test holds ``which``'s
answers equal to reading every family, and an edited rule file turns it off.

What a shortcut answers: an ID's rank and a rank's ID (``id``, ``position``,
``random``, ``show`` in plain text), a plain ID or rank read (``eval``), each
of the family's numberings as written and read (``convert``:
:data:`CHESS960_NUMBERINGS`), and the family's count (``solve --count``, the
count ``dice`` draws from), which :func:`prove` checks against the solver's
listing like the rest.

:func:`plain_start_lines` is the one answer here that no rule file gives:
``lint`` (no options) of a book whose every line is a plain Chess960 start
FEN, each right by X-FEN's definition; a test holds it equal to the linter's.

Every other family answers every command itself, on every run: nothing is
kept between runs (no answer, no table, no proof), so an answer is always
computed.

``chess960 check`` names the family's shortcuts, on or off and why, and
proves the one in use equal to the general path for every position
(:func:`prove`); it never answers from one. A test holds every shortcut
equal to the general path for every family (``tests/test_shortcut.py``).

>>> choice = arithmetic("chess960")
>>> print(choice)
shortcut: chess960 arithmetic (on: rules/chess960.toml is the shipped file)
>>> choice.shortcut.rank(518), choice.shortcut.id_of("QNRBBNKR"), choice.shortcut.number("0518")
('RNBQKBNR', 105, None)
>>> print(arithmetic("chess480"))
shortcut: none (chess480 answers every command itself)
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable

from solver.numbering.scharnagl import scharnagl_id, scharnagl_rank
from solver.ruleset.bundled import bundled_path, rules_folder
from solver.ruleset.limits import MAX_FILE_BYTES

try:  # the C module itself: hashlib would load OpenSSL at start-up (a few ms)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

#: The family the arithmetic answers for, and its count of positions.
ARITHMETIC = "chess960"
ARITHMETIC_COUNT = 960

#: The BLAKE2b-256 of the bundled ``rules/chess960.toml``: only that file is
#: answered by Scharnagl's arithmetic (``check`` proves the two equal); an
#: edited one is a family like any other. A test holds this equal to the file.
CHESS960_DIGEST = "59a8adb0a34148c886b51f1fb2e9997046c9290025291b02d6907295da46824d"

#: Opening only a regular file that is there, never through a link, never waiting.
READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
              | getattr(os, "O_BINARY", 0))


TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Protocol

    class Written(Protocol):
        """A numbering as the general path has it (:class:`solver.numbering.schemes.Scheme`)."""

        def text(self, number: int) -> str: ...
        def read(self, text: str) -> int: ...

    class Shortcut(Protocol):
        """A family's plain answers without loading it: None where the family must answer."""

        name: str
        count: int
        #: Its numberings by name, the family's own first.
        numberings: dict[str, Numbered]

        def id_of(self, text: str) -> int | None: ...
        def number(self, text: str) -> int | None: ...
        def rank(self, number: int) -> str | None: ...


class Choice:
    """A family's shortcut as chosen for this run: ``label`` names the kind
    (``"chess960 arithmetic"`` or ``"none"``), ``reason`` says
    why it is on or off, ``shortcut`` answers when it is on (else None).

    (A plain class, not a dataclass: importing :mod:`dataclasses` would add
    :mod:`inspect` and a dozen modules to Chess960's start-up.)
    """

    __slots__ = ("label", "reason", "shortcut")

    def __init__(self, label: str, reason: str, shortcut: Shortcut | None = None) -> None:
        self.label = label
        self.reason = reason
        self.shortcut = shortcut

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Choice) and (self.label, self.reason, self.shortcut) == (
            other.label, other.reason, other.shortcut)

    def __hash__(self) -> int:
        return hash((self.label, self.reason))

    def __repr__(self) -> str:
        return f"Choice({self.label!r}, {self.reason!r}, {self.shortcut!r})"

    @property
    def on(self) -> bool:
        """Whether the shortcut answers."""
        return self.shortcut is not None

    def __str__(self) -> str:
        if self.label == "none":
            return f"shortcut: none ({self.reason})"
        return f"shortcut: {self.label} ({'on' if self.on else 'off'}: {self.reason})"


def read_regular(path: str, limit: int) -> bytes | None:
    """The bytes of the file at ``path`` when it is a regular file of at most
    ``limit`` bytes, else None: when it is missing, larger, a symbolic link, a
    FIFO, a device or unreadable.

    >>> read_regular("/dev/null", 10) is None
    True
    """
    try:
        fd = os.open(path, READ_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > limit:
            return None
        chunks = []
        size = 0
        while size <= limit and (chunk := os.read(fd, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return b"".join(chunks) if size <= limit else None


def pristine_chess960() -> bool:
    """Whether the bundled ``chess960`` rule file is the one shipped
    (:data:`CHESS960_DIGEST`), so that the arithmetic may answer for it."""
    return _chess960_reason() is None


def _chess960_reason() -> str | None:
    """Why the arithmetic is off for the bundled ``chess960`` (None: it is on)."""
    path = bundled_path(ARITHMETIC)
    data = None if path is None else read_regular(path, MAX_FILE_BYTES)
    if data is None:
        return "rules/chess960.toml cannot be read"
    if blake2b(data, digest_size=32).hexdigest() != CHESS960_DIGEST:
        return "rules/chess960.toml differs from the shipped file"
    return None


def arithmetic_id(rank: str) -> int | None:
    """Scharnagl's number of ``rank`` when it is a Chess960 rank in upper-case letters, else None.

    >>> arithmetic_id("QNRBBNKR"), arithmetic_id("qnrbbnkr"), arithmetic_id("KRRNNBBQ")
    (105, None, None)
    """
    try:
        number = scharnagl_id(rank)
    except (ValueError, StopIteration):
        return None
    return number if scharnagl_rank(number) == rank else None


def chess960_rights(rank: str) -> tuple[str, str]:
    """A Chess960 rank's castling rights, X-FEN's and Shredder-FEN's: its two
    rooks stand either side of the king, so they are the outermost ones, and
    X-FEN always writes ``KQ`` (what :func:`~solver.notation.castling.side_rights`
    says of every Chess960 rank, without importing it).

    >>> chess960_rights("QNRBBNKR"), chess960_rights("RNBQKBNR")
    (('KQ', 'HC'), ('KQ', 'HA'))
    """
    return "KQ", f"{_FILES[rank.rindex('R')]}{_FILES[rank.index('R')]}"


_FILES = "ABCDEFGH"


def arithmetic_line(fmt: str, dialect: str) -> Callable[[int, str], str]:
    r"""The line the format ``fmt`` (``fen``, ``shredder`` or ``epd``) writes in
    ``dialect`` (``xfen`` or ``shredder``) for Chess960's position ``number``,
    whose rank is ``rank``, by arithmetic (without importing the writers): an
    X-FEN castling field is always ``KQkq`` (:func:`chess960_rights`). A test
    holds every line equal to the writers'.

    >>> arithmetic_line("epd", "shredder")(105, "QNRBBNKR")
    'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - id "chess960 105";\n'
    """
    shredder = fmt == "shredder" or dialect == "shredder"
    epd = fmt == "epd"

    def line(number: int, rank: str) -> str:
        white = chess960_rights(rank)[1] if shredder else "KQ"
        end = f'id "chess960 {number}";' if epd else "0 1"
        return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w {white}{white.lower()} - {end}\n"

    return line


def arithmetic_number(text: str) -> int | None:
    """``text`` as a Chess960 ID when it is written as Python writes it (``518``), else None.

    >>> arithmetic_number("518"), arithmetic_number("0518"), arithmetic_number("960")
    (518, None, None)
    """
    return plain_number(text, ARITHMETIC_COUNT)


#: The BLAKE2b-256 of every bundled rule file, each its name, its length and its
#: bytes, in name order (:func:`bundled_shapes`): only while they are the files
#: shipped does ``which`` pass over a family by the width its file declares,
#: without loading it. A test holds this equal to the files.
RULES_DIGEST = "202deed2d17f8960cc0731c8150b9fb422ebb736c293f4f3a787d5e94ce8ff95"


def bundled_shapes() -> dict[str, tuple[int | None, str | None, int | None]] | None:
    """Each bundled family's rank width, piece letters and board width as its
    rule file declares them before any table (:func:`declared_shape`), by name in
    :func:`~solver.ruleset.reader.bundled_names`'s order, while every bundled
    rule file is the one shipped (:data:`RULES_DIGEST`); None when any differs,
    is added, is missing or cannot be read.

    >>> shapes = bundled_shapes()
    >>> shapes["chess960"], shapes["capablanca-random"], shapes["janggi"]
    ((8, 'BKNQR', 8), (10, 'ABCKNQR', 10), (17, 'ABCKNPR', 9))
    """
    folder = rules_folder()
    try:
        names = sorted(name[:-len(".toml")] for name in os.listdir(folder)
                       if name.endswith(".toml"))
    except OSError:
        return None
    digest = blake2b(digest_size=32)
    shapes: dict[str, tuple[int | None, str | None, int | None]] = {}
    for name in names:
        data = read_regular(os.path.join(folder, f"{name}.toml"), MAX_FILE_BYTES)
        if data is None:
            return None
        digest.update(b"%d %s %d\n" % (len(name), name.encode(), len(data)) + data)
        shapes[name] = declared_shape(data)
    return shapes if digest.hexdigest() == RULES_DIGEST else None


def declared_shape(data: bytes) -> tuple[int | None, str | None, int | None]:
    r"""What a rule file's text ``data`` declares before its first table: the
    width of a rank (its ``files = N``, or the squares of its ``region`` when
    that names squares and rectangles alone; None: no plain width or region),
    the upper-case letters of its ``pieces``, or of every ``[[army]]``'s
    together, sorted (None: no such key, or pieces on lines of their own), and
    the board's files (``files = N``, region or not).

    >>> declared_shape(b'files = 8  # wide\npieces = "K + 7 of NBRQ"\n[[rule]]\nfiles = 9\n')
    (8, 'BKNQR', 8)
    >>> declared_shape(b'files = 8\nregion = "a1-h1, b2-c3"\n')
    (12, None, 8)
    >>> declared_shape(b'files = 8\nregion = "rank 1"\n')
    (None, None, 8)
    >>> declared_shape(b'files = 8\n[[army]]\npieces = "RKR"\n[[army]]\npieces = "DKD"\n')
    (8, 'DKR', 8)
    """
    width = None
    letters: set[str] | None = None
    unsaid = False  # pieces written so that their letters are not on their line
    region: tuple[int | None] | None = None  # (its squares,) once a region is declared
    table = b""
    for line in data.split(b"\n"):
        if line.startswith(b"["):
            table = line.partition(b"#")[0].strip()
            continue
        if table and table != b"[[army]]":
            continue
        key, _, value = line.partition(b"=")
        if key.startswith(b"region"):  # its squares, when it is said once and plainly
            plain = key.strip() == b"region" and region is None and not table
            region = (_region_squares(value.partition(b"#")[0]) if plain else None,)
        if line.startswith(b"files = ") and not table:
            value = line[len(b"files = "):].partition(b"#")[0].strip()
            width = int(value) if value.isdigit() else None
        elif line.startswith(b"pieces = "):  # (each [[army]]'s pieces: their letters together)
            found = {chr(c) for c in line[len(b"pieces = "):].partition(b"#")[0] if 65 <= c <= 90}
            unsaid = unsaid or not found
            letters = (letters or set()) | found
    shown = None if letters is None or unsaid else "".join(sorted(letters))
    return width if region is None else region[0], shown, width


def _region_squares(value: bytes) -> int | None:
    """How many squares a ``region`` value (``"a1-h1, e2"``: squares and
    rectangles, none named twice, as the rule reader holds) names; None for
    any other part (``rank 1``)."""
    import re

    count = 0
    for part in value.strip().strip(b'"').split(b","):
        found = re.fullmatch(rb"([a-z])(\d+)(?:-([a-z])(\d+))?", part.strip())
        if found is None:
            return None
        first, low, last, high = found.groups()
        last, high = last or first, high or low
        count += (abs(last[0] - first[0]) + 1) * (abs(int(high) - int(low)) + 1)
    return count


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


#: Chess960's squares of each colour (a1, file 0, is dark).
_COLOURS = {"B:light": (1, 3, 5, 7), "B:dark": (0, 2, 4, 6)}


class Placement:
    """An order of the Chess960 ranks by placement steps (``B:light``,
    ``B:dark``, ``Q``, ``NN``, then ``RKR`` on the three squares left; the
    bishops first), each a digit: which of the free squares its pieces take
    (of their colour for a bishop; a pair: which pair, in
    :func:`itertools.combinations`' order), ``significance`` the steps from
    the least significant digit to the most.

    >>> scharnagl = Placement(("B:light", "B:dark", "Q", "NN"), ("B:light", "B:dark", "Q", "NN"))
    >>> scharnagl.place("RNBQKBNR"), scharnagl.rank(518)
    (518, 'RNBQKBNR')
    """

    __slots__ = ("radices", "significance", "steps")

    def __init__(self, steps: tuple[str, ...], significance: tuple[str, ...]) -> None:
        self.steps = steps
        self.significance = significance
        free = 8
        self.radices: dict[str, int] = {}
        for step in steps:  # each step's count of choices (the bishops placed first)
            self.radices[step] = 4 if step[0] == "B" else \
                free * (free - 1) // 2 if step == "NN" else free
            free -= len(step[:2]) if step == "NN" else 1

    def place(self, rank: str) -> int:
        """The place of the Chess960 ``rank`` in this order."""
        free = list(range(8))
        digits = {}
        for step in self.steps:
            at = [i for i, square in enumerate(free) if rank[square] == step[0]]
            if step[0] == "B":  # the bishop on this step's colour, among that colour's squares
                parity = step == "B:light"
                at = [i for i in at if free[i] % 2 == parity]
                digits[step] = sum(1 for square in free[:at[0]] if square % 2 == parity)
            elif step == "NN":
                first, second = at
                digits[step] = first * (2 * len(free) - first - 1) // 2 + second - first - 1
            else:
                digits[step] = at[0]
            for i in reversed(at):
                del free[i]
        place = 0
        for step in reversed(self.significance):
            place = place * self.radices[step] + digits[step]
        return place

    def rank(self, place: int) -> str:
        """The Chess960 rank at ``place`` (0..959) in this order."""
        digits = {}
        for step in self.significance:
            place, digits[step] = divmod(place, self.radices[step])
        free = list(range(8))
        row = ["R"] * 8
        for step in self.steps:
            digit = digits[step]
            if step[0] == "B":
                parity = step == "B:light"
                at = [[i for i, square in enumerate(free) if square % 2 == parity][digit]]
            elif step == "NN":
                first = 0
                while digit >= len(free) - 1 - first:
                    digit -= len(free) - 1 - first
                    first += 1
                at = [first, first + 1 + digit]
            else:
                at = [digit]
            for i in reversed(at):
                row[free[i]] = step[0]
                del free[i]
        row[free[1]] = "K"  # R K R on the three squares left
        return "".join(row)


#: Scharnagl's placement steps: the light bishop the least significant digit.
SCHARNAGL_STEPS = ("B:light", "B:dark", "Q", "NN")


class Numbered:
    """One numbering of Chess960 by arithmetic: the places of ``placement``
    (None: Scharnagl's IDs themselves) written from ``first``, round within
    960 when ``cyclic``, in the ``label`` template (``"#{number}"``) if any.

    :meth:`read` answers only a text exactly as :meth:`text` writes it (None
    for any other: the family reads it, and words the error).

    >>> scidb = Numbered(None, 1, True)
    >>> scidb.text(0), scidb.text(518), scidb.read("960"), scidb.read("0")
    ('960', '518', 0, None)
    """

    __slots__ = ("cyclic", "first", "label", "placement")

    def __init__(self, placement: Placement | None, first: int = 0, cyclic: bool = False,
                 label: str = "") -> None:
        self.placement = placement
        self.first = first
        self.cyclic = cyclic
        self.label = label

    def text(self, number: int) -> str:
        """How this numbering writes the position with Scharnagl's ID ``number``."""
        return self._written(number if self.placement is None else
                             self.placement.place(scharnagl_rank(number)))

    def _written(self, place: int) -> str:
        """How this numbering writes the position at ``place`` in its order."""
        styled = self.first + (place - self.first) % ARITHMETIC_COUNT if self.cyclic \
            else place + self.first
        return self.label.format(number=styled) if self.label else str(styled)

    def read(self, text: str) -> int | None:
        """Scharnagl's ID of the position this numbering writes as ``text``, or None."""
        prefix = self.label.partition("{")[0]
        digits = text[len(prefix):] if text.startswith(prefix) else ""
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 4:
            return None
        value = int(digits)
        place = value % ARITHMETIC_COUNT if self.cyclic else value - self.first
        if not 0 <= place < ARITHMETIC_COUNT or self._written(place) != text:
            return None
        return place if self.placement is None else scharnagl_id(self.placement.rank(place))


#: Chess960's numberings as the shipped ``rules/chess960.toml`` declares them
#: (and the built-in ``one-based``), by name in the family's order: only while
#: that file is the one shipped (:data:`CHESS960_DIGEST`); ``check`` proves
#: each equal to the family's for every position.
CHESS960_NUMBERINGS = {
    "scharnagl": Numbered(None),
    "scidb": Numbered(None, 1, cyclic=True),
    "xboard": Numbered(None),
    "jocly": Numbered(Placement(("B:dark", "B:light", "Q", "NN"),
                                ("NN", "Q", "B:light", "B:dark")), label="#{number}"),
    "tcec": Numbered(None, label="FRC {number}"),
    "fritz9": Numbered(Placement(("B:light", "B:dark", "NN", "Q"),
                                 ("B:light", "B:dark", "NN", "Q")), 1),
    "one-based": Numbered(None, 1, cyclic=True),
}


#: What stands between a plain Chess960 start FEN's two back ranks, and what may
#: follow White's (X-FEN's ``KQkq``: a Chess960 king stands between its rooks, the
#: outermost ones), a FEN's counters or none (EPD).
_MIDDLE = b"/pppppppp/8/8/8/8/PPPPPPPP/"
_TAILS = (b" w KQkq - 0 1", b" w KQkq -")

#: The largest document :func:`plain_start_lines` reads (the linter reads any).
PLAIN_BYTES = 1 << 20


def plain_start_lines(data: bytes) -> int | None:
    r"""How many lines ``data`` holds when every one (``\n``-ended, at least one) is
    a Chess960 start FEN or EPD line written plainly (its rank in Black's
    letters, ``pppppppp/8/8/8/8/PPPPPPPP``, then White's, ``w KQkq -``, then
    ``0 1`` or nothing); None for anything else. Each is a start position whose
    castling field is right (the linter's answer, a test holds them equal),
    so ``lint`` answers such a book without reading it otherwise.

    >>> plain_start_lines(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
    1
    >>> plain_start_lines(b"rbqnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RBQNKBNR w KQkq - 0 1\n") is None
    True
    """
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    if not lines or len(data) > PLAIN_BYTES:
        return None
    seen: set[bytes] = set()
    for line in lines:
        white = line[35:43]
        if white not in seen:
            if not white.isupper() or arithmetic_id(white.decode("ascii", "replace")) is None:
                return None
            seen.add(white)
        if line[:8] != white.lower() or line[8:35] != _MIDDLE or line[43:] not in _TAILS:
            return None
    return len(lines)


class Arithmetic:
    """Chess960 by Scharnagl's arithmetic."""

    name = ARITHMETIC
    count = ARITHMETIC_COUNT
    id_of = staticmethod(arithmetic_id)
    number = staticmethod(arithmetic_number)
    #: Its numberings by name (the family's own, ``scharnagl``, first).
    numberings = CHESS960_NUMBERINGS

    @staticmethod
    def rank(number: int) -> str:
        """The rank of ID ``number`` (0..959)."""
        return scharnagl_rank(number)


#: The arithmetic's label in every message.
ARITHMETIC_LABEL = "chess960 arithmetic"


def arithmetic(rules: str) -> Choice:
    """The arithmetic's choice for the family ``rules`` (a bundled name or a
    path): on for the bundled ``chess960`` while its file is the one shipped;
    off, with the reason, when that file was edited; ``none`` for any other."""
    if rules != ARITHMETIC:
        return Choice("none", f"{rules} answers every command itself")
    reason = _chess960_reason()
    if reason is not None:
        return Choice(ARITHMETIC_LABEL, reason)
    return Choice(ARITHMETIC_LABEL, "rules/chess960.toml is the shipped file", Arithmetic())


def choose(rules: str) -> Choice:
    """The one place a command's plain answers choose their path: the family
    ``rules``'s shortcut for this run, Chess960's arithmetic while its rule file
    is the one shipped, else none (the family answers).

    >>> choose("chess960").on, choose("chess480").on
    (True, False)
    """
    return arithmetic(rules)


def shortcuts(rules: str, name: str) -> list[Choice]:
    """The shortcuts ``chess960 check`` names for the family ``name`` (loaded from
    ``rules``), each on or off and why, those on to be proven: the arithmetic
    for Chess960 (on, or off when its file was edited); else none.

    >>> shortcuts("rules/shuffle.toml", "shuffle")
    [Choice('none', 'shuffle answers every command itself', None)]
    """
    found = arithmetic(rules)
    if found.label == "none":
        return [Choice("none", f"{name} answers every command itself")]
    return [found]


def prove(shortcut: Shortcut, ranks: list[str],
          numbers: Callable[[int], range] = range,
          schemes: Mapping[str, Written] | None = None) -> list[str]:
    """Where ``shortcut`` answers otherwise than the general path, whose side
    ranks in ID order are ``ranks`` and whose numberings are ``schemes``: each
    ID's rank, each rank's ID, each ID as written (``str``) read back, and each
    numbering's text of each ID read back (of the IDs ``numbers(len(ranks))``);
    [] when it answers the same for every one, and the count and the
    numberings' names agree.

    >>> prove(Arithmetic(), [scharnagl_rank(i) for i in range(960)])
    []
    >>> prove(Arithmetic(), ["RNBQKBNR"])
    ['count: 960, the family has 1', 'id 0: RNBQKBNR by the family, BBQNNRKR by the shortcut']
    """
    wrong = [] if shortcut.count == len(ranks) else \
        [f"count: {shortcut.count}, the family has {len(ranks)}"]
    for number in numbers(len(ranks)):
        rank = ranks[number]
        theirs = shortcut.rank(number)
        if theirs != rank:
            wrong.append(f"id {number}: {rank} by the family, {theirs} by the shortcut")
        elif shortcut.id_of(rank) != number:
            wrong.append(f"{rank}: id {number} by the family, {shortcut.id_of(rank)} "
                         "by the shortcut")
        elif shortcut.number(str(number)) != number:
            wrong.append(f"{number!r} is read as {shortcut.number(str(number))}")
    if schemes is not None:
        wrong += _prove_numberings(shortcut.numberings, schemes,
                                   numbers(len(ranks)))
    return wrong


def _prove_numberings(ours: Mapping[str, Numbered], schemes: Mapping[str, Written],
                      numbers: range) -> list[str]:
    """Where the shortcut's numberings ``ours`` write or read otherwise than the
    family's ``schemes``, for the IDs ``numbers``."""
    if list(ours) != list(schemes):
        return [f"numberings: {', '.join(ours)}, the family has {', '.join(schemes)}"]
    wrong = []
    for name, scheme in schemes.items():
        for number in numbers:
            text = scheme.text(number)
            if ours[name].text(number) != text or ours[name].read(text) != number:
                wrong.append(f"{name} {number}: {text!r} by the family, "
                             f"{ours[name].text(number)!r} by the shortcut, which reads "
                             f"{text!r} as {ours[name].read(text)}")
    return wrong


# -- which's declared answers ---------------------------------------------------
#
# ``which`` of one rank (eight upper-case letters) asks every bundled family of
# eight files. While every bundled rule file is the one shipped
# (:data:`RULES_DIGEST`), the families below answer such a rank by arithmetic,
# as their rule files declare them, without reading the file: held, with the
# family's ID and each numbering's text, or not held; or they leave it to the
# family (:func:`declared_answer`). A test holds each equal to its family for
# every arrangement of Chess960's pieces and for other ranks
# (``tests/test_which_fast.py``).

#: Chess960's pieces, sorted: a rank of every family below but wild3 and wild4.
_SHUFFLE = "BBKNNQRR"

if TYPE_CHECKING:
    from typing import TypeAlias

    #: A family's answer for a rank: its ID and numberings' texts; or False, the
    #: family does not hold it (None from :func:`declared_answer`: the family answers).
    Answer: TypeAlias = "tuple[int, dict[str, str]] | bool"


def step_place(rank: str, steps: tuple[str, ...], files: dict[str, str] | None = None) -> int:
    """The place of ``rank`` (one the steps can place) in the order of the
    placement ``steps``, the first the least significant, each a digit: which
    of the free squares (of its colour, ``B:light``; on its ``files``, a letter's
    allowed files) its piece takes, or which pair for a pair (``NN``, in
    :func:`itertools.combinations`' order); a pattern (``RKR``) takes the
    squares left, in order.

    >>> step_place("RNBQKBNR", ("K", "Q", "RR", "BB", "NN"))  # shuffle's steps
    2772
    >>> step_place("RNBQKBNR", SCHARNAGL_STEPS + ("RKR",))
    518
    """
    free = list(range(len(rank)))
    place, scale = 0, 1
    for step in steps:
        pieces, _, colour = step.partition(":")
        allowed = (files or {}).get(pieces[0])
        options = [s for s in free if (not colour or s % 2 == (colour == "light"))
                   and (allowed is None or "abcdefgh"[s] in allowed)]
        if len(set(pieces)) > 1:  # a pattern: the squares left
            digit, radix, taken = 0, 1, options
        else:
            at = [i for i, square in enumerate(options) if rank[square] == pieces[0]]
            n = len(options)
            if len(pieces) == 1:
                digit, radix = at[0], n
            else:
                first, second = at
                digit = first * (2 * n - first - 1) // 2 + second - first - 1
                radix = n * (n - 1) // 2
            taken = [options[i] for i in at]
        place += digit * scale
        scale *= radix
        free = [s for s in free if s not in taken]
    return place


def _one_based(number: int, count: int) -> str:
    """The built-in ``one-based`` numbering: 1..count, the last standing for 0."""
    return str(number or count)


def _opposite(rank: str) -> bool:
    first = rank.index("B")
    return (rank.index("B", first + 1) - first) % 2 == 1


def _between(rank: str) -> bool:
    first = rank.index("R")
    return first < rank.index("K") < rank.index("R", first + 1)


def _plain(count: int, number: int, own: str = "canonical") -> dict[str, str]:
    """A family's own numbering and ``one-based`` of its ID ``number``."""
    return {own: str(number), "one-based": _one_based(number, count)}


def _paired(side: int, per_side: int, own: str = "canonical") -> tuple[int, dict[str, str]]:
    """An independent family's pair of a side numbered ``side`` and its mirror:
    White's number the more significant (``black-major`` the same for a mirror)."""
    number = side * per_side + side
    return number, {own: str(number), "one-based": _one_based(number, per_side * per_side),
                    "black-major": str(number)}


#: Bishops-opposite's steps (Placement and Transcendental number each side so).
_OPPOSITE_STEPS = ("B:light", "B:dark", "Q", "NN", "K", "RR")


def _bishops_opposite(rank: str) -> int | None:
    if "".join(sorted(rank)) != _SHUFFLE or not _opposite(rank):
        return None
    return step_place(rank, _OPPOSITE_STEPS)


def _chess324(rank: str) -> int | None:
    """Chess324's number of one side (0..17), or None."""
    if "".join(sorted(rank)) != _SHUFFLE or rank[4] != "K" or rank[0] != "R" \
            or rank[7] != "R" or not _opposite(rank):
        return None
    return step_place(rank, ("K", "RR", "B:light", "B:dark", "Q", "NN"), {"K": "e", "R": "ah"})


#: For each knights' digit of Scharnagl's (a pair of the five squares left after
#: the bishops and the queen, in :func:`itertools.combinations`' order), which of
#: the five the king takes: the middle of the three left (R K R).
_KING_AFTER_KNIGHTS = tuple([i for i in range(5) if i not in (a, b)][1]
                            for a in range(5) for b in range(a + 1, 5))


def _chess480(number: int) -> int:
    """Chess480's ID of the Chess960 rank ``number``: how many Chess960 ranks
    before it (in Scharnagl's order: the light bishop's digit the least
    significant, then the dark one's, the queen's, the knights') have the queen
    left of the king, each placed from its ID's digits."""
    count = 0
    for light in range(4):
        for dark in range(4):
            free = [s for s in range(8) if s not in (2 * light + 1, 2 * dark)]
            for queen in range(6):
                square = free.pop(queen)
                low = light + 4 * dark + 16 * queen
                count += sum(1 for knights, king in enumerate(_KING_AFTER_KNIGHTS)
                             if low + 96 * knights < number and square < free[king])
                free.insert(queen, square)
    return count


def _answer_shuffle(rank: str, name: str) -> Answer:
    if "".join(sorted(rank)) != _SHUFFLE:
        return False
    if name == "king-between-rooks":
        if not _between(rank):
            return False
        number = step_place(rank, ("Q", "BB", "NN", "RKR"))
        return number, _plain(1680, number)
    number = step_place(rank, ("K", "Q", "RR", "BB", "NN"))
    return number, _plain(5040, number)


def _answer_opposite(rank: str, name: str) -> Answer:
    number = _bishops_opposite(rank)
    if number is None:
        return False
    if name != "bishops-opposite":  # placement, transcendental: the mirrored pair
        return _paired(number, 2880)
    scidb, part = (number // 960 - 1) % 3, number % 960  # RKR, RRK, KRR: 1..960 each
    return number, {"canonical": str(number), "scidb-shuffle": str(scidb * 960 + (part or 960)),
                    "one-based": _one_based(number, 2880)}


def _answer_chess960(rank: str, name: str) -> Answer:
    number = arithmetic_id(rank)
    if number is None:
        return False
    if name == ARITHMETIC:
        return number, {key: numbered.text(number) for key, numbered in CHESS960_NUMBERINGS.items()}
    if name == "dfrc":
        pair, texts = _paired(number, 960, "scharnagl")
        return pair, {"scharnagl": texts["scharnagl"], "tcec": f"FRC {number}",
                      "one-based": texts["one-based"], "black-major": texts["black-major"]}
    if name == "chess480":
        rank_ = scharnagl_rank(number)
        if rank_.index("Q") > rank_.index("K"):
            return False
        number = _chess480(number)
        return number, _plain(480, number)
    return number, _plain(960, number)  # horde960, seirawan960: Scharnagl's IDs


def _answer_chess324(rank: str, name: str) -> Answer:
    side = _chess324(rank)
    if side is None:
        return False
    number, texts = _paired(side, 18)
    if name == "chess324":
        return number, texts
    # chess324x16: the rank alone has every castling right, the first of 16
    chess960 = arithmetic_id(rank)
    return number, {"canonical": texts["canonical"], "tcec": f"FRC {chess960}",
                    "one-based": _one_based(number, 5184), "black-major": texts["black-major"]}


def _answer_xboard(rank: str, name: str) -> Answer:
    """XBoard's shuffles (``-defaultFrcPosition`` numbers): Chess18 (Chess324's
    side), Shatranj (bishops-opposite's steps), Makruk (its own steps)."""
    if name == "chess18":
        number, count = _chess324(rank), 18
    elif name == "shatranj-shuffle":
        number, count = _bishops_opposite(rank), 2880
    else:  # makruk-shuffle
        number, count = (step_place(rank, ("SS", "M", "NN", "K", "RR"))
                         if "".join(sorted(rank)) == "KMNNRRSS" else None), 5040
    return False if number is None else (number, _plain(count, number, "xboard"))


def _answer_wild3(rank: str, name: str) -> Answer:
    if rank.count("K") != 1 or not set(rank) <= set("BKNQR"):
        return False
    king = rank.index("K")
    pool = 0
    for letter in rank[:king] + rank[king + 1:]:
        pool = pool * 4 + "NBRQ".index(letter)
    number = king * 4 ** 7 + pool
    return number, _plain(131072, number)


def _answer_left(rank: str, name: str) -> Answer | None:
    """Corner chess, Racing Kings: not held when the king stands where their
    rules forbid, or the pieces are not Chess960's; else the family answers."""
    if "".join(sorted(rank)) != _SHUFFLE:
        return False
    if name == "corner":
        return None if rank[7] == "K" and _opposite(rank) else False
    # racing-kings: the rank fills e1-h1 then e2-h2; the king on file g or h
    return None if rank.index("K") in (2, 3, 6, 7) else False


#: Factorials up to a rank's eight squares (:mod:`math` is not imported: start-up).
_FACT = (1, 1, 2, 6, 24, 120, 720, 5040, 40320)


def _comb(n: int, k: int) -> int:
    """``n`` choose ``k`` for ``n`` up to 8 (0 when ``k`` is out of 0..n).

    >>> _comb(4, 2), _comb(3, 4), _comb(3, -1)
    (6, 0, 0)
    """
    return _FACT[n] // (_FACT[k] * _FACT[n - k]) if 0 <= k <= n else 0


def _bishops(count: int, dark: int) -> int:
    """Wild 4's frames' ways to put ``count`` bishops, ``dark`` on dark squares:
    four frames (the king on a dark file) leave 3 dark and 4 light squares, four 4 and 3."""
    if not 0 <= dark <= count:
        return 0
    return 4 * (_comb(3, dark) * _comb(4, count - dark) + _comb(4, dark) * _comb(3, count - dark))


def _weight(used: tuple[int, ...], dark_used: int, dark: int, light: int) -> int:
    """The pairs of every word completing a prefix (``used``: N, B, R, Q counted;
    ``dark_used`` bishops on dark squares) on ``dark`` + ``light`` more squares:
    each completion weighed by how many Black ranks fit it (its class's size)."""
    f = _FACT
    n_used, b_used, r_used, q_used = used
    total = 0
    for more in range(dark + light + 1):  # bishops still to place
        bishops = b_used + more
        rest = dark + light - more
        others = 0  # the other letters on the rest, each weighed by its multinomial
        for n in range(rest + 1):
            for r in range(rest - n + 1):
                q = rest - n - r
                others += (f[rest] // (f[n] * f[r] * f[q])
                           * (f[7 - bishops] // (f[n_used + n] * f[r_used + r] * f[q_used + q])))
        if not others:
            continue
        for on_dark in range(max(0, more - light), min(dark, more) + 1):
            total += (_comb(dark, on_dark) * _comb(light, more - on_dark)
                      * _bishops(bishops, dark_used + on_dark) * others)
    return total


def _completions(klass: tuple[tuple[int, ...], int], used: tuple[int, ...],
                 dark_used: int, dark: int, light: int) -> int:
    """The words completing a prefix on ``dark`` + ``light`` squares into ``klass``."""
    counts, dark_bishops = klass
    rest = [c - u for c, u in zip(counts, used, strict=True)]
    on_dark = dark_bishops - dark_used
    if min(rest) < 0 or not 0 <= on_dark <= dark or not 0 <= rest[1] - on_dark <= light:
        return 0
    f = _FACT
    others = dark + light - rest[1]
    return (_comb(dark, on_dark) * _comb(light, rest[1] - on_dark)
            * f[others] // (f[rest[0]] * f[rest[2]] * f[rest[3]]))


def _wild4_mirrored(rank: str) -> int:
    """Wild 4's ID of the pair of ``rank`` (a king and seven of NBRQ) and its
    mirror, as :meth:`ArmyIndex.pair_id <solver.numbering.armies.ArmyIndex.pair_id>`
    counts it for ``rules/wild4.toml`` (``K + 7 of NBRQ``, its steps ``["K"]``,
    linked ``same-army`` and ``same-colours B``): the pairs of every White rank
    before it (the king's file, then the word of NBRQ), each weighed by the Black
    ranks that fit it, then the Black ranks of its class before its mirror.

    >>> _wild4_mirrored("RNBQKBNR"), _wild4_mirrored("KNNNNNNN")
    (84405197, 0)
    """
    king = rank.index("K")
    word = [(("NBRQ".index(p)), f % 2 == 0) for f, p in enumerate(rank) if p != "K"]
    counts = [0, 0, 0, 0]
    for letter, _ in word:
        counts[letter] += 1
    klass = (tuple(counts), sum(1 for letter, dark in word if letter == 1 and dark))
    before = within = 0
    for frame in range(king):  # each frame before: the king on a dark file leaves 3 dark squares
        dark = 3 if frame % 2 == 0 else 4
        before += _weight((0, 0, 0, 0), 0, dark, 7 - dark)
        within += _completions(klass, (0, 0, 0, 0), 0, dark, 7 - dark)
    used = [0, 0, 0, 0]
    dark_used = 0
    for i, (letter, dark_square) in enumerate(word):
        left = word[i + 1:]
        dark = sum(1 for _, d in left if d)
        light = len(left) - dark
        for smaller in range(letter):
            used[smaller] += 1
            shade = int(smaller == 1 and dark_square)
            before += _weight(tuple(used), dark_used + shade, dark, light)
            within += _completions(klass, tuple(used), dark_used + shade, dark, light)
            used[smaller] -= 1
        used[letter] += 1
        dark_used += int(letter == 1 and dark_square)
    return before + within


def _answer_wild4(rank: str, name: str) -> Answer:
    """Wild 4's pair of ``rank`` and its mirror (:func:`_wild4_mirrored`)."""
    if rank.count("K") != 1 or not set(rank) <= set("BKNQR"):
        return False
    number = _wild4_mirrored(rank)
    return number, _plain(149320544, number)


#: The White ranks of CWDA's pairings of an army against itself: the only
#: single ranks it reads (as the rank and its mirror).
CWDA_MIRRORED = frozenset({"DWACKAWD", "GIHOKHIG", "SMFEKFMS"})

#: Each family that answers by declaration, and how.
_DECLARED: dict[str, Callable[[str, str], Answer | None]] = {
    "chess960": _answer_chess960,
    "horde960": _answer_chess960,
    "seirawan960": _answer_chess960,
    "dfrc": _answer_chess960,
    "chess480": _answer_chess960,
    "shuffle": _answer_shuffle,
    "shuffle-nocastle": _answer_shuffle,
    "king-between-rooks": _answer_shuffle,
    "bishops-opposite": _answer_opposite,
    "placement": _answer_opposite,
    "transcendental": _answer_opposite,
    "chess324": _answer_chess324,
    "chess324x16": _answer_chess324,
    "chess18": _answer_xboard,
    "shatranj-shuffle": _answer_xboard,
    "makruk-shuffle": _answer_xboard,
    "wild3": _answer_wild3,
    "wild4": _answer_wild4,
    "corner": _answer_left,
    "racing-kings": _answer_left,
    "cwda": lambda rank, name: None if rank in CWDA_MIRRORED else False,
}

#: The families :func:`declared_answer` answers for.
DECLARED = frozenset(_DECLARED)


def declared_answer(name: str, rank: str) -> Answer | None:
    """The bundled family ``name``'s answer for ``rank`` (eight upper-case
    letters) as declared here: its ID and numberings' texts, False when it does
    not hold it, None when the family answers (not declared, or a rank the
    declaration leaves to it). Only while every bundled rule file is the one
    shipped (the caller checks :func:`bundled_shapes`).

    >>> declared_answer("shuffle", "RNBQKBNR")
    (2772, {'canonical': '2772', 'one-based': '2772'})
    >>> declared_answer("chess324", "RNBQKBNR")[0], declared_answer("corner", "RNBQKBNR")
    (152, False)
    """
    answer = _DECLARED.get(name)
    if answer is None or len(rank) != 8 or not (rank.isascii() and rank.isupper()
                                                and rank.isalpha()):
        return None
    return answer(rank, name)
