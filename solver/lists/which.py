"""Which families hold a start position, with its number in each numbering.

:func:`which` reads a rank, a pair of ranks or a start FEN (any castling
notation) with each family's own reading (:meth:`Family.identify
<solver.family.Family.identify>`) and answers every family that holds it. A
family whose board cannot hold the text (another width, other piece letters)
is passed over before anything is solved or numbered; a family too large to
list is numbered without listing (arithmetic or by counting). While every
bundled rule file is the one shipped
(:func:`~solver.numbering.shortcut.bundled_shapes`), a bundled family is read
only when a rank could fit the width and pieces its file declares (:class:`Bundled`),
and a rank of eight upper-case letters is answered by each family's declared
arithmetic (:func:`~solver.numbering.shortcut.declared_answer`), no rule file
read; a test holds the answers equal to reading every family
(``tests/test_which_fast.py``).

>>> found = which("RNBQKBNR")
>>> [(f.family, f.id) for f in found.families if f.family in ("chess960", "dfrc")]
[('chess960', 518), ('dfrc', 497798)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

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

TYPE_CHECKING = False  # typing and dataclasses are not imported: ``which`` of a rank reads
if TYPE_CHECKING:  # no rule file, and its start-up is the command's time (issue 34)
    from typing import Final, TypeAlias

    from solver.family import Family

    #: A family :func:`which` looks in: read already, or a bundled one read when needed.
    Candidate: TypeAlias = "Family | Bundled"

__all__ = ["Bundled", "Found", "Membership", "bundled_candidates", "bundled_families", "which",
           "with_families"]

#: Families named in the error of a position no family holds.
CLOSEST: Final = 3
_SPLIT: Final = re.compile(r"[\s/:]+")


class Membership:
    """One family holding the position: its ID and its number in each numbering."""

    __slots__ = ("family", "id", "numberings")

    def __init__(self, family: str, id: int, numberings: dict[str, str]) -> None:
        self.family = family
        self.id = id
        self.numberings = numberings

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Membership) and (self.family, self.id, self.numberings) == (
            other.family, other.id, other.numberings)

    __hash__ = None  # type: ignore[assignment]  # (its numberings are a dict)

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


class Found:
    """What :func:`which` answers for one text."""

    __slots__ = ("families", "text")

    def __init__(self, text: str, families: list[Membership] | None = None) -> None:
        self.text = text
        self.families = [] if families is None else families

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Found) and (self.text, self.families) == (
            other.text, other.families)

    __hash__ = None  # type: ignore[assignment]  # (its families are a list)

    def __repr__(self) -> str:
        """``<Found 'RNBQKBNR': chess960 518, dfrc 497798, ...>``: the text and
        each family holding it, with its ID there.

        >>> Found("RNBQKBNR", [Membership("chess960", 518, {})])
        <Found 'RNBQKBNR': chess960 518>
        """
        held = ", ".join(f"{m.family} {m.id}" for m in self.families) or "no family"
        return f"<Found {self.text!r}: {held}>"

    def lines(self, heading: bool = False) -> str:
        """What ``chess960 which`` writes: each family's :meth:`Membership.line`,
        indented under the text when ``heading`` (several texts asked).

        >>> print(Found("x", [Membership("f", 3, {"a": "3"})]).lines(heading=True), end="")
        x
          f a=3
        """
        indent = "  " if heading else ""
        return "".join([f"{self.text}\n" if heading else "",
                        *(f"{indent}{member.line()}\n" for member in self.families)])

    def as_dict(self) -> dict[str, object]:
        return {"position": self.text,
                "families": [{"family": m.family, "id": m.id, "numberings": m.numberings}
                             for m in self.families]}


def bundled_families() -> list[Family]:
    """Every bundled family (rule files read, nothing solved)."""
    from solver.family import Family
    from solver.ruleset.reader import bundled_names

    return [Family.load(name) for name in bundled_names()]


class Bundled:
    """A bundled family read only when asked (:attr:`family`), with the width
    of a rank, the piece letters and the board's files its rule file declares
    (:func:`~solver.numbering.shortcut.bundled_shapes`; None: a region, which
    only the full reading knows, or no letters or files said).

    >>> Bundled("chess960", 8, "BKNQR").family.name
    'chess960'
    """

    __slots__ = ("_family", "files", "letters", "name", "width")

    def __init__(self, name: str, width: int | None, letters: str | None = None,
                 files: int | None = None) -> None:
        self.name = name
        self.width = width
        self.letters = letters
        self.files = width if files is None else files
        self._family: Family | None = None

    def __repr__(self) -> str:
        return f"Bundled({self.name!r}, {self.width!r}, {self.letters!r}, {self.files!r})"

    def may_hold(self, words: list[str] | None, board: int | None = None) -> bool:
        """Whether a rank or a pair of ranks (:func:`letters`; None, a FEN: it
        may) fits the width and the pieces the rule file declares; a FEN whose
        rows are all ``board`` files wide (:func:`fen_width`), its board's files."""
        if words is None:
            return board is None or self.files is None or board == self.files
        if self.width is not None and not _fits(self.width, words):
            return False
        return self.letters is None or set("".join(words).upper()) <= set(self.letters)

    @property
    def family(self) -> Family:
        """The family, its rule file read on the first call."""
        if self._family is None:
            from solver.family import Family

            self._family = Family.load(self.name)
        return self._family


def bundled_candidates() -> list[Candidate]:
    """Every bundled family, in :func:`bundled_families`' order: while every
    bundled rule file is the one shipped, each a :class:`Bundled` read only
    when a position could fit its declared width; else each read now
    (:func:`bundled_families`, whose errors say what is wrong with a file)."""
    from solver.numbering.shortcut import bundled_shapes

    shapes = bundled_shapes()
    if shapes is None:
        return list(bundled_families())
    return [Bundled(name, *shape) for name, shape in shapes.items()]


def with_families(extra: Iterable[Family]) -> list[Candidate]:
    """The bundled families (:func:`bundled_candidates`), then each of ``extra``
    whose name is none of theirs, in order."""
    chosen = bundled_candidates()
    names = {candidate.name for candidate in chosen}
    for family in extra:
        if family.name not in names:
            chosen.append(family)
            names.add(family.name)
    return chosen


def _loaded(candidate: Candidate) -> Family:
    return candidate.family if isinstance(candidate, Bundled) else candidate


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


_RUNS: Final = re.compile(r"\d+|[A-Za-z]")


def fen_width(text: str) -> int | None:
    """How many files wide every row of the FEN ``text``'s board is (None: rows
    of other widths, or not a board of letters and digits alone).

    >>> fen_width("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    8
    >>> fen_width("rnbqkbnrca/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRCA w - - 0 1")
    10
    >>> fen_width("rnbqkbnr/ppp/8 w - - 0 1") is None
    True
    """
    widths = set()
    board = text.split(maxsplit=1)
    for row in board[0].split("/") if board else ():
        runs = _RUNS.findall(row)
        if "".join(runs) != row:
            return None
        widths.add(sum(int(run) if run.isdigit() else 1 for run in runs))
    return widths.pop() if len(widths) == 1 else None


def piece_letters(family: Family) -> set[str]:
    """Every piece letter a rank of ``family`` may hold (an army's pool with its
    fixed pieces, not the placeholder ``Z`` of its rule file; every army's with
    armies of the sides' own), upper case.

    >>> from solver.family import Family
    >>> sorted(piece_letters(Family.load("wild3")))
    ['B', 'K', 'N', 'Q', 'R']
    """
    ruleset = family.ruleset
    army = ruleset.army
    if army is not None:
        return set(army.fixed + army.pool)
    if ruleset.armies:  # armies of the sides' own: any army's letters
        return {c for side in ruleset.armies for c in side.pieces}
    return {c.upper() for c in ruleset.piece_counts if c.isalpha()}


def _may_hold(family: Family, words: list[str] | None) -> bool:
    """Whether ``family``'s board and pieces can hold a rank or a pair of ranks
    (:func:`letters`; ``None``, a FEN: the family's reader decides) at all: cheap
    checks on the rule file alone, before anything is numbered."""
    if words is None:
        return True
    if not _fits(family.ruleset.region_size, words):
        return False
    return set("".join(words).upper()) <= piece_letters(family)


def _fits(files: int, words: list[str] | None) -> bool:
    """Whether a rank or a pair of ranks (``words``; None, a FEN: it may) is as
    wide as a region of ``files`` squares, or twice that, split after the first."""
    if words is None:
        return True
    size = sum(len(word) for word in words)
    return size in (files, 2 * files) and (len(words) == 1 or len(words[0]) == files)


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


def which(text: str, families: Sequence[Candidate] | None = None) -> Found:
    """Every family (default: the bundled ones) holding the position ``text``.

    >>> from solver import which
    >>> which("RQNBKNBR bbqnnrkr")  # a pair of ranks: the families of pairs
    <Found 'RQNBKNBR bbqnnrkr': dfrc 488640, placement 4231680, transcendental 4231680,
     wild4 87328604>

    Raises :class:`~solver.errors.NoFamilyError` when none does, naming the
    rules the nearest families' positions break.
    """
    need_text(text, "position")
    chosen = list(families) if families is not None else bundled_candidates()
    fen = "/" in text and _is_fen(text)  # (a FEN's board has a "/")
    words = None if fen else letters(text)
    board = fen_width(text) if fen else None
    found = Found(text)
    misses: list[tuple[int | None, Candidate, Chess960Error | None]] = []
    for candidate in chosen:
        held = _member(candidate, text, words, board)
        if isinstance(held, Membership):
            found.families.append(held)
        else:
            misses.append((held[0], candidate, held[1]))
    if not found.families:
        raise _none_holds(text, words, board, misses)
    return found


def _none_holds(text: str, words: list[str] | None, board: int | None,
                misses: list[tuple[int | None, Candidate, Chess960Error | None]]
                ) -> NoFamilyError:
    """The error of ``text``, which no family holds, naming the rules the
    nearest families' positions break: a family passed over by its declaration
    (nearness None) is read now, to say how near it came."""
    near_misses: list[tuple[int, Candidate, Chess960Error | None]] = []
    for rank, candidate, exc in misses:
        held = (rank, exc) if rank is not None else \
            _member(_loaded(candidate), text, words, board)
        if isinstance(held, Membership) or held[0] is None:  # pragma: no cover - a test holds
            raise Chess960Error(f"which: {candidate.name}'s declaration differs from its "
                                f"rule file for {text!r}")
        near_misses.append((held[0], candidate, held[1]))
    best = min((m[0] for m in near_misses), default=3)
    nearest = sorted(((len(getattr(exc, "violations", ())) or 1, candidate.name, candidate, exc)
                      for rank, candidate, exc in near_misses if rank == best),
                     key=lambda m: m[:2])[:CLOSEST]
    near = [(candidate.name, _reason(_loaded(candidate), exc if exc is not None
                                     else _error(_loaded(candidate), text)))
            for _, _, candidate, exc in nearest]
    return NoFamilyError(text, [m[1].name for m in near_misses], near, best < 2)


def _member(candidate: Candidate, text: str, words: list[str] | None, board: int | None = None
            ) -> Membership | tuple[int | None, Chess960Error | None]:
    """``candidate``'s membership of ``text``, or how near it came (:func:`_closeness`;
    None: its board cannot hold it). A bundled family too narrow or too wide for a
    rank or a FEN's board (``board`` files), or without its pieces, is passed over
    unread (its reader would refuse the FEN's rows, as near as that); a rank of
    eight upper-case letters is answered as the family's shipped rule file declares
    (:func:`_declared`) where it can be, nearness unknown (None, None) when not held."""
    if isinstance(candidate, Bundled):
        if not candidate.may_hold(words, board):
            return 3, None
        quick = _declared(candidate.name, text, words)
        if quick is not None:
            return quick
    family = _loaded(candidate)
    if not _may_hold(family, words):
        return 3, None
    try:
        number = _read(family, text, words)
    except Chess960Error as exc:
        return _closeness(exc), exc
    names = {name: scheme.text(number) for name, scheme in family.schemes.items()}
    return Membership(family.name, number, names)


def _declared(name: str, text: str, words: list[str] | None
              ) -> Membership | tuple[None, None] | None:
    """The bundled family ``name``'s membership of ``text`` as its shipped rule
    file declares it (:func:`~solver.numbering.shortcut.declared_answer`: Chess960's
    arithmetic and the families numbered like it) when ``text`` is one rank, else
    None (the family answers); (None, None) when it does not hold it."""
    from solver.numbering.shortcut import declared_answer

    if words is None or words != [text]:
        return None
    answer = declared_answer(name, text)
    if answer is None:
        return None
    if isinstance(answer, bool):  # (False: not held)
        return None, None
    number, numberings = answer
    return Membership(name, number, numberings)


def _is_fen(text: str) -> bool:
    from solver.notation.fen import is_fen

    return is_fen(text)


def which_all(texts: Iterable[str], families: Sequence[Candidate] | None = None
              ) -> Iterable[Found | Chess960Error]:
    """:func:`which` of each text (families read once); an error stands for its text."""
    chosen = list(families) if families is not None else bundled_candidates()
    for text in texts:
        try:
            yield which(text, chosen)
        except Chess960Error as exc:
            yield exc
