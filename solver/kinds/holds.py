"""The ``holds`` kind of rule: some squares of the region hold exactly some
pieces (``.`` an empty square), in any order among themselves; ``each``
splits the squares into one such group per file, or fixes one letter per
square. It states Janggi's wings and fixed pieces, MyShogi's bishop and rook
chosen on the second rank, Chess256's pawn on rank 2 or 3 of each file.

Defined apart from :mod:`solver.kinds.vocabulary`; it joins the registry of
kinds when this module is imported (:mod:`solver.ruleset.reader` does).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from solver.board.geometry import EXTRA_NAMES, PIECE_NAMES, Region, square_name
from solver.board.glyphs import FILE_LETTERS
from solver.errors import Violation, quote
from solver.kinds.base import Placement, Rule, State, Tracker
from solver.kinds.model import Model
from solver.syntax.args import Context, shown, suggest

EACH: Final = ("area", "file", "square")
_SQUARES_RE: Final = re.compile(r"([a-p])(\d{1,2})(?:-([a-p])(\d{1,2}))?")

#: One group: its squares (indices into the region) and the letters it holds, sorted.
Part = tuple[tuple[int, ...], tuple[tuple[str, int], ...]]


def read_squares(text: str, ctx: Context, key: str = "squares") -> list[tuple[int, int]]:
    """Squares and rectangles (``b1-c1``) separated by spaces or commas, in order."""
    squares: list[tuple[int, int]] = []
    for token in re.split(r"[\s,]+", text.strip()):
        found = _SQUARES_RE.fullmatch(token)
        if found is None:
            raise ctx.error(key, f"{quote(token)} is not a square such as 'e2' or a rectangle "
                                 "such as 'b1-c1'")
        a, b = FILE_LETTERS.index(found.group(1)), int(found.group(2))
        c = FILE_LETTERS.index(found.group(3)) if found.group(3) else a
        d = int(found.group(4)) if found.group(4) else b
        for rank in range(min(b, d), max(b, d) + 1):
            for file in range(min(a, c), max(a, c) + 1):
                if (file, rank) in squares:
                    raise ctx.error(key, f"{quote(text)} names {square_name(file, rank)} twice")
                squares.append((file, rank))
    return squares


@dataclass(frozen=True)
class Holds(Rule):
    """Some squares hold exactly some pieces, in any order (``each``: per file, per square)."""

    kind: ClassVar[str] = "holds"
    keys: ClassVar[tuple[str, ...]] = ("squares", "pieces", "each")
    squares: str
    pieces: str
    each: str
    parts: tuple[Part, ...]

    @classmethod
    def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
        text = ctx.string(table, "squares")
        pieces = ctx.string(table, "pieces").replace(" ", "").upper()
        each = table.get("each", "area")
        if each not in EACH:
            raise ctx.error("each", f"expected 'area', 'file' or 'square', got {shown(each)}",
                            suggest(str(each), EACH))
        region = ctx.region or Region.rank_of(ctx.files or ctx.region_size)
        index = {sq: i for i, sq in enumerate(region.squares)}
        texts, held_texts = text.split("|"), pieces.split("|")
        if len(texts) != len(held_texts):
            raise ctx.error("pieces", f"{quote(pieces)} has {len(held_texts)} groups for the "
                                      f"{len(texts)} groups of squares {quote(text)}")
        parts: list[Part] = []
        seen: set[tuple[int, int]] = set()
        for squares_text, held_text in zip(texts, held_texts, strict=True):
            for part in cls._parts(squares_text, held_text, str(each), ctx, index, region):
                if seen & {region.squares[i] for i in part[0]}:
                    raise ctx.error("squares", f"{quote(text)} names a square twice")
                seen.update(region.squares[i] for i in part[0])
                parts.append(part)
        need = Counter[str]()
        for _, held_counts in parts:
            need.update(dict(held_counts))
        for letter, count in need.items():
            if count > ctx.counts.get(letter, 0):
                raise ctx.error("pieces", f"{count} of {letter!r}, but the family has "
                                          f"{ctx.counts.get(letter, 0)}")
        return cls(text, pieces, str(each), tuple(parts))

    @staticmethod
    def _parts(text: str, pieces: str, each: str, ctx: Context,
               index: Mapping[tuple[int, int], int], region: Region) -> list[Part]:
        """One ``|``-separated group's parts."""
        squares = read_squares(text, ctx)
        for square in squares:
            if square not in index:
                raise ctx.error("squares", f"{square_name(*square)} is not a square of the "
                                           f"region ({', '.join(region.names[:4])}...)")
        for char in pieces:
            known = char in PIECE_NAMES or char in ctx.names or char in EXTRA_NAMES
            if not known or not ctx.counts.get(char):
                have = "".join(p * n for p, n in ctx.counts.items())
                raise ctx.error("pieces", f"{char!r} is not among this family's pieces {have}")
        groups: list[list[tuple[int, int]]]
        if each == "file":
            files = list(dict.fromkeys(f for f, _ in squares))
            groups = [[sq for sq in squares if sq[0] == f] for f in files]
            letters = [pieces] * len(groups)
        elif each == "square":
            groups = [[sq] for sq in squares]
            letters = list(pieces)
            if len(pieces) != len(squares):
                raise ctx.error("pieces", f"{quote(pieces)} has {len(pieces)} letters for "
                                          f"{len(squares)} squares, one each")
        else:
            groups, letters = [squares], [pieces]
        parts: list[Part] = []
        for group, held in zip(groups, letters, strict=True):
            if len(held) != len(group):
                where = " ".join(square_name(*sq) for sq in group)
                raise ctx.error("pieces", f"{quote(held)} has {len(held)} letters for the "
                                          f"{len(group)} squares {where}")
            parts.append((tuple(index[sq] for sq in group), tuple(sorted(Counter(held).items()))))
        return parts

    @property
    def label(self) -> str:
        each = "" if self.each == "area" else f" each {self.each}"
        return f"{self.kind} {self.squares} {self.pieces}{each}"

    @property
    def letters(self) -> frozenset[str]:
        return frozenset(self.pieces)

    def constrain(self, model: Model) -> None:
        totals = Counter(model.pieces)
        single = len(self.parts) == 1
        wanted = Counter[str]()
        where: dict[str, set[int]] = {}
        for indices, held in self.parts:
            for letter, count in held:
                wanted[letter] += count
                where.setdefault(letter, set()).update(indices)
        placed: set[str] = set()
        for letter, count in wanted.items():
            if count != totals[letter]:
                continue
            # every copy stands in these parts
            model.restrict(letter, where[letter])
            homes = [indices for indices, held in self.parts if dict(held).get(letter)]
            names = model.instances[letter]
            if (len(names) > 1 and letter not in model.colour_split
                    and all(dict(held).get(letter, 0) <= 1 for _, held in self.parts)):
                # one copy in each of its parts: the copies are told apart by
                # their parts, as a colour-split pair is by colour
                for name, indices in zip(names, homes, strict=True):
                    model.domains[name] = [f for f in model.domains[name] if f in indices]
                model.colour_split.add(letter)
                placed.add(letter)
        for indices, held in self.parts:
            for letter, count in held:
                if letter in placed or (count == totals[letter] and single):
                    continue  # the domains say it all
                names = model.instances[letter]
                on = frozenset(indices)

                def test(*files: int, on: frozenset[int] = on, count: int = count) -> bool:
                    return sum(f in on for f in files) == count

                model.require(names, test, self.label)

    def violations(self, placement: Placement) -> list[Violation]:
        found: list[Violation] = []
        for indices, held in self.parts:
            have = Counter(placement.rank[i] for i in indices)
            if have != Counter(dict(held)):
                names = placement.at(*indices)
                want = "".join(letter * count for letter, count in held)
                shown_have = "".join(placement.rank[i] for i in indices)
                verb = "holds" if len(indices) == 1 else "hold"
                found.append(Violation(self.label, f"{' '.join(names)} {verb} {quote(shown_have)}, "
                                                   f"not the pieces {quote(want)}", names))
        return found

    def tracker(self, region: Region, pieces: str) -> Tracker:
        return _Holds(self.parts)


class _Holds(Tracker):
    """Holds: how many of each part's letters are still to come on its squares."""

    def __init__(self, parts: Sequence[Part]) -> None:
        self.part_of: dict[int, int] = {}
        self.slots: list[dict[str, int]] = []
        start: list[int] = []
        for number, (indices, held) in enumerate(parts):
            for i in indices:
                self.part_of[i] = number
            self.slots.append({letter: len(start) + k for k, (letter, _) in enumerate(held)})
            start.extend(count for _, count in held)
        self.first: tuple[int, ...] = tuple(start)
        # The rank is placed square by square in the region's order: a part
        # whose squares are all placed, or none, has one possible state.
        self.parts = tuple(parts)

    def start(self) -> State:
        return self.first

    def place(self, state: State, file: int, letter: str) -> State | None:
        part = self.part_of.get(file)
        if part is None:
            return state
        slot = self.slots[part].get(letter)
        if slot is None or state[slot] == 0:
            return None
        return (*state[:slot], state[slot] - 1, *state[slot + 1:])

    def finish(self, state: State) -> bool:
        return not any(state)

    def states(self, squares: int) -> int:
        most = 1
        for placed in range(squares + 1):
            total = 1
            for indices, held in self.parts:
                done = sum(i < placed for i in indices)
                if 0 < done < len(indices):
                    total *= _sub_multisets(held, done)
            most = max(most, total)
        return most


def _sub_multisets(held: Sequence[tuple[str, int]], size: int) -> int:
    """How many sub-multisets of ``size`` letters the letters ``held`` have."""
    ways = [1] + [0] * size
    for _, count in held:
        ways = [sum(ways[n - k] for k in range(min(count, n) + 1)) for n in range(size + 1)]
    return ways[size]
