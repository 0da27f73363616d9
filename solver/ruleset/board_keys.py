"""Reading the board keys of a rule file: the board around the family's ranks.

``ranks``, ``pawns``, ``sides`` and ``white`` (a fixed White army) give the
board's height, the pawns and how Black's pieces stand; ``region`` the
squares White's shuffled pieces fill when not the first rank; ``[[piece]]``
tables the family's own pieces (with Betza movement); ``[[front]]`` tables
the pieces standing in front of the rank; ``notation`` how positions are
written (FEN or SFEN). Errors name the file and the key, as
:mod:`solver.ruleset.reader` does.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any, Final

from solver.board.betza import captures
from solver.board.geometry import (
    MAX_RANKS,
    MIN_RANKS,
    PIECE_NAMES,
    STANDARD_PAWNS,
    STANDARD_RANKS,
    Front,
    Layout,
    Region,
    square_name,
)
from solver.board.glyphs import FILE_LETTERS
from solver.board.sides import SIDES, Sides
from solver.errors import BetzaError, quote
from solver.ruleset.limits import MAX_RULES
from solver.syntax.args import key_error as _err
from solver.syntax.args import required as _required
from solver.syntax.args import shown, suggest, type_name

_PIECE_KEYS: Final = ("letter", "name", "betza")
#: Letters a ``[[piece]]`` may not take: the king (castling and every rank
#: need it) and the pawn. Any other built-in letter may be a piece of the
#: family's own (CWDA's cardinal ``C``, Janggi's guard ``A``).
KEPT_LETTERS: Final = ("K", "P")
_FRONT_KEYS: Final = ("piece", "of", "which")
BOARD_NOTATIONS: Final = ("fen", "sfen")
#: How pychess-variants writes a family's castling field (``pychess-castling``):
#: as its shuffles do (the rooks' files, a-side first), or as its fixed starts (X-FEN).
PYCHESS_CASTLING: Final = ("files", "xfen")


def read_board(
    doc: Mapping[str, Any], files: int, path: str, names: Collection[str] = ()
) -> tuple[int, int | None, Sides, tuple[str, ...]]:
    """The board's ranks, White's pawn rank, the sides' relation and a fixed White army
    (of the built-in pieces, pawns and the family's own ``names``)."""
    ranks = doc.get("ranks", STANDARD_RANKS)
    if "ranks" in doc:
        ranks = _required(doc, "ranks", int, path)
        if not MIN_RANKS <= ranks <= MAX_RANKS:
            raise _err(path, "ranks", f"{ranks} is not in {MIN_RANKS}..{MAX_RANKS}")
    pawns = _pawns(doc, ranks, path)
    name = doc.get("sides", "mirror")
    if not isinstance(name, str) or name not in SIDES:
        names = list(SIDES)
        listed = ", ".join(repr(s) for s in names[:-1]) + f" or {names[-1]!r}"
        raise _err(path, "sides", f"expected {listed}, got {shown(name)}",
                   suggest(str(name), names))
    sides = SIDES[name]
    return ranks, pawns, sides, _fixed(doc, sides, files, ranks, pawns, path, names)


def read_pychess_castling(doc: Mapping[str, Any], path: str) -> str:
    """The ``pychess-castling`` key (see :data:`PYCHESS_CASTLING`)."""
    return _one_of(doc, "pychess-castling", PYCHESS_CASTLING, path)


def read_notation(doc: Mapping[str, Any], path: str) -> str:
    return _one_of(doc, "notation", BOARD_NOTATIONS, path)


def _one_of(doc: Mapping[str, Any], key: str, choices: tuple[str, str], path: str) -> str:
    """A key that takes one of two words (the first by default)."""
    value = doc.get(key, choices[0])
    if value not in choices:
        raise _err(path, key, f"expected {choices[0]!r} or {choices[1]!r}, got {shown(value)}",
                   suggest(str(value), choices))
    return str(value)


def _pawns(doc: Mapping[str, Any], ranks: int, path: str) -> int | None:
    """White's pawn rank: 2 by default, ``"none"`` for none; Black's must lie above it."""
    value = doc.get("pawns", STANDARD_PAWNS)
    if value == "none":
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise _err(path, "pawns", f"expected a rank number or 'none', got {shown(value)}",
                   suggest(str(value), ["none"]) if isinstance(value, str) else None)
    highest = ranks // 2
    if not 2 <= value <= highest:
        raise _err(path, "pawns", f"rank {value} is not in 2..{highest}: White's pawns stand "
                                  f"above rank 1 and below Black's, which mirror them on "
                                  f"a board of {ranks} ranks")
    return value


_ROW_RE: Final = re.compile(r"[1-9][0-9]?|[A-Za-z]")


def _fixed(
    doc: Mapping[str, Any], sides: Sides, files: int, ranks: int, pawns: int | None, path: str,
    names: Collection[str] = (),
) -> tuple[str, ...]:
    """White's fixed army of a ``white-fixed`` family, rank 1 first (``" "`` empty)."""
    if "white" not in doc:
        if sides.fixed_white:
            raise _err(path, "white", f"missing: sides = {sides.name!r} needs White's fixed army "
                                      "as FEN ranks, the highest first ('PPPPPPPP/PPPPPPPP')")
        return ()
    if not sides.fixed_white:
        fixed = " or ".join(repr(n) for n, s in SIDES.items() if s.fixed_white)
        raise _err(path, "white", f"a fixed White army needs sides = {fixed}, not {sides.name!r}")
    value = doc["white"]
    if not isinstance(value, str):
        raise _err(path, "white", f"expected FEN ranks, got {type_name(value)} {shown(value)}")
    rows = value.split("/")
    black_pawns = None if pawns is None else ranks + 1 - pawns
    free_above = (black_pawns if black_pawns is not None else ranks) - 1
    if len(rows) > free_above:
        raise _err(path, "white", f"{quote(value)} has {len(rows)} ranks, but Black's pieces "
                                  f"leave White only ranks 1..{free_above}")
    expanded: list[str] = []
    for number, row in zip(range(len(rows), 0, -1), rows, strict=True):
        squares = ""
        at = 0
        while at < len(row):
            token = _ROW_RE.match(row, at)
            if token is None:
                raise _err(path, "white", f"rank {number} {quote(row)} has {row[at]!r}, which "
                                          "is neither a piece letter nor a count of squares")
            text = token.group()
            if text.isdigit():
                squares += " " * int(text)
            elif text != "P" and text not in PIECE_NAMES and text not in names:
                raise _err(path, "white", f"rank {number} {quote(row)} has {text!r}, which is "
                                          f"no white piece; pieces are "
                                          f"P{''.join(PIECE_NAMES)}{''.join(names)}")
            else:
                squares += text
            at = token.end()
            if len(squares) > files:
                break
        if len(squares) != files:
            raise _err(path, "white", f"rank {number} {quote(row)} has {len(squares)} squares, "
                                      f"expected {files}")
        expanded.append(squares)
    if not any(p != " " for row in expanded for p in row):
        raise _err(path, "white", f"{quote(value)} has no piece")
    return tuple(reversed(expanded))


def tables(doc: Mapping[str, Any], key: str, keys: tuple[str, ...],
            path: str) -> list[Mapping[str, Any]]:
    """An array of tables (``[[piece]]``), each checked for unknown keys."""
    tables = doc.get(key, [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise _err(path, key, f"expected an array of tables: write [[{key}]]")
    if len(tables) > MAX_RULES:
        raise _err(path, key, f"{len(tables):,} tables, more than the limit of {MAX_RULES}")
    for index, table in enumerate(tables, 1):
        for name in table:
            if name not in keys:
                raise _err(path, f"{key}[{index}].{name}", f"unknown key {quote(name)} "
                           f"(keys: {', '.join(keys)})", suggest(name, keys))
        for name in keys[:2]:
            if name not in table:
                raise _err(path, f"{key}[{index}].{name}", "missing")
            if not isinstance(table[name], str):
                raise _err(path, f"{key}[{index}].{name}", f"expected a string, got "
                           f"{type_name(table[name])} {shown(table[name])}")
    return tables


_NAME_WORDS: Final = re.compile(r"[a-z][a-z -]{0,38}[a-z]")


def read_declared(doc: Mapping[str, Any], path: str) -> tuple[dict[str, str], dict[str, str]]:
    """The family's own pieces from ``[[piece]]`` tables: letter to name, and
    letter to Betza string for those that give one."""
    names: dict[str, str] = {}
    betza: dict[str, str] = {}
    for index, table in enumerate(tables(doc, "piece", _PIECE_KEYS, path), 1):
        letter, name = table["letter"], table["name"]
        key = f"piece[{index}]"
        if len(letter) != 1 or not letter.isascii() or not letter.isalpha():
            raise _err(path, f"{key}.letter", f"expected one letter, got {quote(letter)}")
        upper = letter.upper()
        if upper in KEPT_LETTERS:
            known = PIECE_NAMES.get(upper, "pawn")
            raise _err(path, f"{key}.letter", f"{upper!r} is the built-in {known}, whose letter "
                                              "every family keeps; any other letter, "
                                              f"{', '.join(sorted(set(PIECE_NAMES) - {'K'}))} "
                                              "included, may be a piece of the family's own")
        if upper in names:
            raise _err(path, f"{key}.letter", f"{upper!r} is declared twice")
        if not _NAME_WORDS.fullmatch(name):
            raise _err(path, f"{key}.name", f"{quote(name)} is not a piece name in lower-case "
                                            "words, such as 'lance'")
        names[upper] = name
        if "betza" in table:
            moves = table["betza"]
            if not isinstance(moves, str):
                raise _err(path, f"{key}.betza", f"expected a string, got {type_name(moves)} "
                                                 f"{shown(moves)}")
            try:
                captures(moves)
            except BetzaError as exc:
                raise _err(path, f"{key}.betza", str(exc)) from None
            betza[upper] = moves
    return names, betza


def read_front(doc: Mapping[str, Any], pieces: str, names: Mapping[str, str],
               pawns: int | None, path: str) -> tuple[Front, ...]:
    """Pieces one rank in front of the rank's (``[[front]]``)."""
    fronts: list[Front] = []
    taken: dict[tuple[str, bool], str] = {}
    for index, table in enumerate(tables(doc, "front", _FRONT_KEYS, path), 1):
        key = f"front[{index}]"
        piece, of = table["piece"].upper(), table["of"].upper()
        if len(piece) != 1 or (piece not in PIECE_NAMES and piece not in names):
            known = "".join(dict.fromkeys([*PIECE_NAMES, *names]))
            raise _err(path, f"{key}.piece", f"unknown piece {quote(table['piece'])}; pieces "
                                             f"are {known}")
        if len(of) != 1 or of not in pieces:
            raise _err(path, f"{key}.of", f"{quote(table['of'])} is not one of the rank's "
                                          f"pieces {pieces}")
        which = table.get("which", "left")
        if which not in ("left", "right"):
            raise _err(path, f"{key}.which", f"expected 'left' or 'right', got {shown(which)}",
                       suggest(str(which), ["left", "right"]))
        if pawns == STANDARD_PAWNS:
            raise _err(path, f"{key}.piece", "pieces in front of the rank stand on rank 2, "
                                             "where White's pawns stand (set pawns = 3)")
        right = which == "right" and pieces.count(of) > 1
        if (of, right) in taken:
            raise _err(path, f"{key}.of", f"{quote(taken[(of, right)])} already stands in front "
                                          f"of the {which} {of!r}")
        taken[(of, right)] = piece
        fronts.append(Front(piece, of, right))
    return tuple(fronts)


_REGION_RE: Final = re.compile(
    r"\s*(?:ranks?\s+(\d{1,2})(?:\s*-\s*(\d{1,2}))?|([a-p])(\d{1,2})(?:\s*-\s*([a-p])(\d{1,2}))?)\s*")


def read_region(doc: Mapping[str, Any], files: int, ranks: int, pawns: int | None, sides: Sides,
                path: str) -> Region | None:
    """White's squares for the shuffled pieces, when not the whole first rank."""
    if "region" not in doc:
        if sides.region_missing is not None:
            raise _err(path, "region", sides.region_missing)
        return None
    value = doc["region"]
    if not isinstance(value, str):
        raise _err(path, "region", f"expected a string, got {type_name(value)} {shown(value)}")
    if sides.region_refused is not None:
        raise _err(path, "region", sides.region_refused)
    if pawns is not None and sides.pawns_refused is not None:
        raise _err(path, "pawns", sides.pawns_refused)
    squares: list[tuple[int, int]] = []
    for part in value.split(","):
        for square in _region_part(part, value, files, ranks, pawns, path):
            if square in squares:
                raise _err(path, "region", f"{quote(value)} names {square_name(*square)} twice")
            squares.append(square)
    region = Region(tuple(squares))
    mine = set(region.squares)
    layout = Layout(files, ranks, sides=sides)
    black = {layout.black_square(sq) for sq in region.squares}
    clash = sorted(mine & black)
    if clash:
        shown_squares = ", ".join(square_name(f, r) for f, r in clash[:4])
        raise _err(path, "region", f"{quote(value)} overlaps Black's squares under sides = "
                                   f"{sides.name!r} ({shown_squares})")
    return region


def _region_part(part: str, value: str, files: int, ranks: int, pawns: int | None,
                 path: str) -> list[tuple[int, int]]:
    """The squares of one comma-separated part of a region: a rank, ranks, a
    rectangle or one square (``e2``)."""
    found = _REGION_RE.fullmatch(part)
    if found is None:
        raise _err(path, "region", f"{quote(value)} is not 'rank N', 'ranks N-M', a "
                                   "rectangle of squares such as 'a1-d2' or a square such "
                                   "as 'e2', or several of them joined by commas")
    if found.group(1):
        low = int(found.group(1))
        high = int(found.group(2) or low)
        left, right = 0, files - 1
    else:
        left, right = sorted(FILE_LETTERS.index(found.group(c) or found.group(3)) for c in (3, 5))
        low, high = sorted(int(found.group(c) or found.group(4)) for c in (4, 6))
    if low > high or low < 1 or high > ranks or right >= files:
        corner = square_name(files - 1, ranks)
        raise _err(path, "region", f"{quote(value)} is not on this {files}x{ranks} board "
                                   f"(a1..{corner})")
    if pawns is not None:
        hit = [r for r in (pawns, ranks + 1 - pawns) if low <= r <= high]
        if hit:
            raise _err(path, "region", f"{quote(value)} covers rank {hit[0]}, where pawns stand "
                                       "(set pawns to another rank or 'none')")
    return [(f, r) for r in range(low, high + 1) for f in range(left, right + 1)]
