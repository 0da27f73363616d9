"""Reading a rule's arguments from its TOML table, and naming what is wrong.

:class:`Context` knows where a ``[[rule]]`` table stands (file, index, the
family's files and pieces) and reads typed arguments from it: one piece, two
pieces, a set of files, a full rank, a bounded integer. Every error is a
:class:`~solver.errors.RuleFileError` naming the file and the dotted key,
with "did you mean" from :func:`suggest` where it helps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from solver.board.geometry import PIECE_NAMES, Region, piece_name
from solver.board.glyphs import FILE_LETTERS
from solver.errors import QUOTE_LIMIT, InvalidRuleFileError, RuleFileError, quote

#: Most items in one array (such as the ranks of an ``exclude`` rule).
MAX_ITEMS: Final = 1_000


def suggest(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate nearest to ``word``, if one is near enough.

    >>> suggest("oposite-colours", ["opposite-colours", "between"])
    'opposite-colours'
    """
    import difflib  # only on the error path: keeps start-up fast

    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def type_name(value: object) -> str:
    """A TOML-ish name for the type of ``value``."""
    names = {bool: "boolean", int: "integer", float: "float", str: "string",
             list: "array", dict: "table"}
    return names.get(type(value), type(value).__name__)


def shown(value: object) -> str:
    """``value`` for an error message: quoted, and cut short when long.

    >>> shown("x" * 3)
    "'xxx'"
    >>> shown([1234567890] * 20)[-40:]
    '34567890, 1234567... (array of 20 items)'
    """
    if isinstance(value, str):
        return quote(value)
    text = repr(value)
    if len(text) <= QUOTE_LIMIT:
        return text
    size = f" ({type_name(value)} of {len(value)} items)" if isinstance(value, list | dict) else ""
    return f"{text[:QUOTE_LIMIT]}...{size}"


def key_error(path: str, key: str, message: str, suggestion: str | None = None) -> RuleFileError:
    """The error of one key of a rule file (``key`` a dotted path, ``numbering.kind``)."""
    return InvalidRuleFileError(path, message, key, suggestion)


def required(doc: Mapping[str, Any], key: str, kind: type, path: str) -> Any:
    """The value of a key that must be given, of type ``kind``.

    >>> required({"files": "8"}, "files", int, "x.toml")
    Traceback (most recent call last):
    ...
    solver.errors.InvalidRuleFileError: x.toml: files: expected an integer, got string '8'
    """
    if key not in doc:
        raise key_error(path, key, "missing")
    value = doc[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = type_name(kind())
        article = "an" if expected[0] in "aeiou" else "a"
        raise key_error(path, key,
                        f"expected {article} {expected}, got {type_name(value)} {shown(value)}")
    return value


@dataclass(frozen=True)
class Context:
    """Where a rule stands, for reading its arguments and naming errors.

    ``index`` counts the ``[[rule]]`` tables from 1; errors name the key as
    ``rule[2].pieces``.
    """

    path: str
    index: int
    #: How many squares the pieces fill (a rank string's length).
    region_size: int
    counts: Mapping[str, int]
    #: The family's own pieces, letter to name (``{"L": "lance"}``).
    names: Mapping[str, str] = field(default_factory=dict)
    #: The board's width (0: the region's size, a first rank).
    files: int = 0
    #: The region when it is not the first rank, and White's pawn rank.
    region: Region | None = None
    pawns: int | None = 2
    #: The family's own pieces' movement in Betza's notation, where given.
    betza: Mapping[str, str] = field(default_factory=dict)

    def one_rank(self, kind: str) -> None:
        """Refuse a kind that reads the rank left to right (or its pawns on rank 2)
        when the family's pieces fill another region."""
        if self.region is not None and not self.region.one_rank:
            where = ", ".join(self.region.names)
            raise self.error("kind", f"{kind} reads a rank from left to right, but this family's "
                                     f"pieces fill the squares {quote(where)}")

    def error(self, key: str, message: str, suggestion: str | None = None) -> RuleFileError:
        return InvalidRuleFileError(self.path, message, f"rule[{self.index}].{key}", suggestion)

    def string(self, table: Mapping[str, Any], key: str) -> str:
        if key not in table:
            raise self.error(key, "missing")
        value = table[key]
        if not isinstance(value, str):
            raise self.error(key, f"expected a string, got {type_name(value)} {shown(value)}")
        return value

    def piece(self, table: Mapping[str, Any], key: str) -> str:
        """One piece letter that the family has."""
        value = self.string(table, key)
        if len(value) != 1:
            raise self.error(key, f"expected one piece letter, got {quote(value)}")
        return self._letter(key, value)

    def _letter(self, key: str, char: str) -> str:
        letter = char.upper()
        if letter not in PIECE_NAMES and letter not in self.names:
            names = list(dict.fromkeys([*PIECE_NAMES, *self.names]))
            raise self.error(key, f"unknown piece {char!r}; pieces are {''.join(names)}")
        if not self.counts.get(letter):
            have = "".join(p * n for p, n in self.counts.items())
            raise self.error(key, f"piece {letter!r} is not among this family's pieces {have}")
        return letter

    def two_pieces(self, table: Mapping[str, Any], key: str) -> str:
        """Two pieces: the two of a pair (``BB``) or two single pieces (``QA``)."""
        value = self.string(table, key)
        if len(value) != 2:
            raise self.error(key, f"expected two piece letters, got {quote(value)}")
        first, second = (self._letter(key, c) for c in value)
        if first == second:
            if self.counts[first] != 2:
                raise self.error(
                    key, f"{value!r} names a pair but the family has "
                    f"{self.counts[first]} {piece_name(first, self.counts[first], self.names)}",
                )
        else:
            for letter in (first, second):
                if self.counts[letter] != 1:
                    raise self.error(
                        key, f"{letter!r} stands for {self.counts[letter]} pieces; "
                        f"name a pair ({letter * 2!r}) or pieces the family has once",
                    )
        return first + second

    def file_set(self, table: Mapping[str, Any], key: str) -> tuple[int, ...]:
        """Files written as letters, ``"ah"`` or ``["a", "h"]``."""
        if key not in table:
            raise self.error(key, "missing")
        value = table[key]
        if isinstance(value, str):
            letters: list[Any] = list(value.replace(",", "").replace(" ", ""))
        elif isinstance(value, list):
            letters = value
            if len(letters) > MAX_ITEMS:
                raise self.error(key, f"{len(letters):,} items, more than {MAX_ITEMS:,}")
        else:
            raise self.error(key, f"expected file letters, got {type_name(value)} {shown(value)}")
        width = self.files or self.region_size
        valid = FILE_LETTERS[:width]
        files: set[int] = set()
        for letter in letters:
            if not isinstance(letter, str) or len(letter) != 1 or letter.lower() not in valid:
                raise self.error(key, f"{shown(letter)} is not a file of this {width}-file "
                                      f"board ({valid[0]}..{valid[-1]})")
            files.add(valid.index(letter.lower()))
        if not files:
            raise self.error(key, "names no file")
        return tuple(sorted(files))

    def rank(self, value: object, key: str) -> str:
        """A full rank of the family's pieces, in letters."""
        if not isinstance(value, str):
            raise self.error(key, f"expected a rank string, got {type_name(value)} {shown(value)}")
        letters = value.replace(" ", "").upper()
        if len(letters) != self.region_size or Counter(letters) != Counter(self.counts):
            pieces = "".join(p * n for p, n in self.counts.items())
            raise self.error(key, f"{quote(value)} is not an arrangement of the pieces {pieces}")
        return letters

    def integer(self, table: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
        value = table.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(key, f"expected an integer, got {type_name(value)} {shown(value)}")
        if not low <= value <= high:
            raise self.error(key, f"{value} is not in {low}..{high}")
        return value
