"""Which families hold a start position, with its number in each numbering.

:func:`which` reads a rank, a pair of ranks or a start FEN (any castling
notation) with each family's own reading (:meth:`Family.identify
<solver.family.Family.identify>`) and answers every family that holds it. A
family whose board cannot hold the text (another width, other piece letters)
is passed over before anything is solved or numbered; a family too large to
list is numbered without listing (arithmetic or by counting).

>>> found = which("RNBQKBNR")
>>> [(f.family, f.id) for f in found.families if f.family in ("chess960", "dfrc")]
[('chess960', 518), ('dfrc', 497798)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from solver.board.glyphs import BLACK_GLYPHS, WHITE_GLYPHS
from solver.errors import (
    CastlingRightsError,
    Chess960Error,
    FenSyntaxError,
    MirrorError,
    NoFamilyError,
    PairError,
    PieceCountError,
    RankLengthError,
    RuleViolationError,
    UnknownPieceError,
    need_text,
)
from solver.notation.fen import is_fen

if TYPE_CHECKING:
    from solver.family import Family

__all__ = ["Found", "Membership", "bundled_families", "which"]

#: Families named in the error of a position no family holds.
CLOSEST: Final = 3
_SPLIT: Final = re.compile(r"[\s/:]+")


@dataclass(frozen=True, repr=False)
class Membership:
    """One family holding the position: its ID and its number in each numbering."""

    family: str
    id: int
    numberings: dict[str, str]

    def line(self) -> str:
        """``chess960 scharnagl=518 scidb=518 tcec="FRC 518" ...``."""
        shown = [f'{name}="{text}"' if " " in text else f"{name}={text}"
                 for name, text in self.numberings.items()]
        return " ".join([self.family, *shown])

    def __repr__(self) -> str:
        """``<Membership chess960 518>``: the family and the ID.

        >>> Membership("chess960", 518, {"scharnagl": "518"})
        <Membership chess960 518>
        """
        return f"<Membership {self.family} {self.id}>"


@dataclass(frozen=True, repr=False)
class Found:
    """What :func:`which` answers for one text."""

    text: str
    families: list[Membership] = field(default_factory=list)

    def __repr__(self) -> str:
        """``<Found 'RNBQKBNR': chess960 518, dfrc 497798, ...>``: the text and
        each family holding it, with its ID there.

        >>> Found("RNBQKBNR", [Membership("chess960", 518, {})])
        <Found 'RNBQKBNR': chess960 518>
        """
        held = ", ".join(f"{m.family} {m.id}" for m in self.families) or "no family"
        return f"<Found {self.text!r}: {held}>"

    def as_dict(self) -> dict[str, object]:
        return {"position": self.text,
                "families": [{"family": m.family, "id": m.id, "numberings": m.numberings}
                             for m in self.families]}


def bundled_families() -> list[Family]:
    """Every bundled family (rule files read, nothing solved)."""
    from solver.family import Family
    from solver.ruleset.reader import bundled_names

    return [Family.load(name) for name in bundled_names()]


#: Each chess glyph as its letter, White's upper case, Black's lower case.
_GLYPH_LETTERS: Final = str.maketrans({**{g: p for p, g in WHITE_GLYPHS.items()},
                                       **{g: p.lower() for p, g in BLACK_GLYPHS.items()}})


def letters(text: str) -> list[str] | None:
    """The words of a rank or a pair of ranks, glyphs as letters (``None``: not
    pieces alone).

    >>> letters("♖♘♗♕♔♗♘♖ ♜♞♝♛♚♝♞♜")
    ['RNBQKBNR', 'rnbqkbnr']
    """
    words = [w for w in _SPLIT.split(text.strip().translate(_GLYPH_LETTERS)) if w]
    if not words or len(words) > 2 or not all(w.isalpha() for w in words):
        return None
    return words


def piece_letters(family: Family) -> set[str]:
    """Every piece letter a rank of ``family`` may hold (an army's pool with its
    fixed pieces; not the placeholder ``Z`` of its rule file), upper case.

    >>> from solver.family import Family
    >>> sorted(piece_letters(Family.load("wild3")))
    ['B', 'K', 'N', 'Q', 'R']
    """
    ruleset = family.ruleset
    army = ruleset.army
    if army is not None:
        return set(army.fixed + army.pool)
    return {c.upper() for c in ruleset.piece_counts if c.isalpha()}


def _may_hold(family: Family, words: list[str] | None) -> bool:
    """Whether ``family``'s board and pieces can hold a rank or a pair of ranks
    (:func:`letters`; ``None``, a FEN: the family's reader decides) at all: cheap
    checks on the rule file alone, before anything is numbered."""
    if words is None:
        return True
    files = family.ruleset.region_size
    text = "".join(words)
    if len(text) not in (files, 2 * files) or (len(words) == 2 and len(words[0]) != files):
        return False
    return set(text.upper()) <= piece_letters(family)


def _read(family: Family, text: str, words: list[str] | None) -> int:
    """The ID of ``text`` in ``family``: its own reading, or :func:`other_reading`."""
    try:
        return family.identify(text).id
    except Chess960Error:
        found = other_reading(family, words)
        if found is None:
            raise
        return found


def other_reading(family: Family, words: list[str] | None) -> int | None:
    """When a family's own reading fails: a single rank as the position whose
    Black answers it (independent sides), a pair whose Black answers White as
    White's rank (shared sides); ``None`` when neither reads ``words``
    (:func:`letters` of a text)."""
    if words is None:
        return None
    layout = family.ruleset.layout
    files = family.ruleset.region_size
    letters = "".join(words)
    try:
        if family.independent and len(letters) == files:
            white = letters.upper()
            return family.identify(f"{white} {layout.black_rank(white).lower()}").id
        if not family.independent and len(letters) == 2 * files:
            white, black = letters[:files].upper(), letters[files:].upper()
            if black == layout.black_rank(white):
                return family.identify(white).id
    except Chess960Error:
        pass
    return None


def _error(family: Family, text: str) -> Chess960Error:
    """What ``family``'s own reading says is wrong with ``text``."""
    try:
        family.identify(text)
    except Chess960Error as exc:
        return exc
    return Chess960Error(f"{family.name} cannot hold it")  # pragma: no cover


def _closeness(exc: Chess960Error) -> int:
    """How near a family came to holding the position (lower: nearer)."""
    if isinstance(exc, RuleViolationError | MirrorError | CastlingRightsError):
        return 0
    if isinstance(exc, PieceCountError):
        return 1
    if isinstance(exc, RankLengthError | FenSyntaxError | PairError | UnknownPieceError):
        return 3
    return 2


def _reason(family: Family, exc: Chess960Error) -> str:
    if isinstance(exc, RuleViolationError):
        return "; ".join(str(v) for v in exc.violations)
    reason = getattr(exc, "reason", None)
    if isinstance(exc, MirrorError) or not isinstance(reason, str):
        message = str(exc)
        _, colon, rest = message.partition(": ")
        return rest if colon else message
    return reason


def which(text: str, families: Sequence[Family] | None = None) -> Found:
    """Every family (default: the bundled ones) holding the position ``text``.

    >>> from solver import which
    >>> which("RQNBKNBR bbqnnrkr")  # a pair of ranks: the families of pairs
    <Found 'RQNBKNBR bbqnnrkr': dfrc 488640, placement 4231680, transcendental 4231680,
     wild4 87328604>

    Raises :class:`~solver.errors.NoFamilyError` when none does, naming the
    rules the nearest families' positions break.
    """
    need_text(text, "position")
    chosen = list(families) if families is not None else bundled_families()
    words = None if is_fen(text) else letters(text)
    found = Found(text)
    misses: list[tuple[int, Family, Chess960Error | None]] = []
    for family in chosen:
        if not _may_hold(family, words):
            misses.append((3, family, None))
            continue
        try:
            number = _read(family, text, words)
        except Chess960Error as exc:
            misses.append((_closeness(exc), family, exc))
            continue
        names = {name: scheme.text(number) for name, scheme in family.schemes.items()}
        found.families.append(Membership(family.name, number, names))
    if not found.families:
        best = min((m[0] for m in misses), default=3)
        nearest = sorted(((len(getattr(exc, "violations", ())) or 1, family.name, family, exc)
                          for rank, family, exc in misses if rank == best),
                         key=lambda m: m[:2])[:CLOSEST]
        near = [(family.name, _reason(family, exc if exc is not None else _error(family, text)))
                for _, _, family, exc in nearest]
        raise NoFamilyError(text, [m[1].name for m in misses], near, best < 2)
    return found


def which_all(texts: Iterable[str], families: Sequence[Family] | None = None
              ) -> Iterable[Found | Chess960Error]:
    """:func:`which` of each text (families read once); an error stands for its text."""
    chosen = list(families) if families is not None else bundled_families()
    for text in texts:
        try:
            yield which(text, chosen)
        except Chess960Error as exc:
            yield exc
