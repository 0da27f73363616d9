"""The project's exceptions.

Every error the library raises is a :class:`Chess960Error` whose message is
one lowercase line that quotes the bad value, and whose details are
attributes, so that callers can react without parsing text. Each one is under
one of a few bases, which say what failed (see :class:`Chess960Error`); an
error on a bad value is also a :class:`ValueError`, one of a file, an engine or
a worker process is not.

>>> from solver import Family, errors
>>> try:
...     Family.load("chess960").id("RNQBKBNR")
... except errors.RuleViolationError as e:
...     print(e.violations[0].rule, e.violations[0].squares)
opposite-colours BB ('d1', 'f1')
"""

from __future__ import annotations

from collections.abc import Sequence

#: Inputs longer than this are quoted in part, so that an error stays one line.
QUOTE_LIMIT = 80
#: File names up to this long are shown whole in errors (the user needs the
#: name to act on it); longer ones, which no file system accepts, in part.
PATH_LIMIT = 1024


def quote(text: str) -> str:
    """``repr(text)``, cut short when very long, so an error stays one short line.

    >>> quote("RNBQ")
    "'RNBQ'"
    >>> quote("9" * 500)
    "'999999999999999999999999999999999999999999999999999999999999'... (500 characters)"
    """
    shown = repr(text)
    if len(shown) <= QUOTE_LIMIT:
        return shown
    prefix = text[: QUOTE_LIMIT - 20]
    while len(repr(prefix)) > QUOTE_LIMIT - 18:
        prefix = prefix[:-1]
    return f"{prefix!r}... ({len(text)} characters)"


def shown_path(path: str) -> str:
    """A file name as an error shows it: whole up to :data:`PATH_LIMIT`
    characters, else its start and its length.

    >>> shown_path("/tmp/board.svg")
    '/tmp/board.svg'
    >>> shown_path("x" * 2000)[-24:]
    'xxx... (2000 characters)'
    """
    if len(path) <= PATH_LIMIT:
        return path
    return f"{path[:PATH_LIMIT - 60]}... ({len(path)} characters)"


class Chess960Error(Exception):
    """Base class of every error this package raises.

    Each error is under one of these bases (the leaves are in :mod:`solver.errors`):

    * :class:`RuleFileError`: a rule file or rule set that cannot be read or used;
    * :class:`PositionError`: a rank, pair of ranks or FEN that is malformed or
      not a start position of the family;
    * :class:`NumberingError`: a position ID, a numbering or its placement steps;
    * :class:`InputError`: a file, line, option or argument given that cannot
      be read, written or used;
    * :class:`DrawError`: a random or physical draw that cannot be made;
    * :class:`LimitError`: work over a set limit;
    * :class:`EngineError`: a UCI engine that fails;
    * :class:`WorkerError`: a solver worker process that fails.

    >>> from solver import Family
    >>> try:
    ...     Family.load("chess960").position(960)
    ... except Chess960Error as e:
    ...     print(e)
    chess960 id 960 is out of range 0..959
    """


class PositionError(Chess960Error, ValueError):
    """A rank, a pair of ranks or a FEN that is malformed or not a start
    position of the family (:class:`RankError`, :class:`FenError`...).

    >>> from solver import Family
    >>> Family.load("chess960").identify("RNBQKBNN")
    Traceback (most recent call last):
    ...
    solver.errors.PieceCountError: 'RNBQKBNN' has 1 rook (a1), expected 2
    """


class NumberingError(Chess960Error, ValueError):
    """A position ID, a numbering or its placement steps that is wrong; as
    itself, placement steps that cannot number the family consistently.

    >>> from solver import Family
    >>> Family.load("chess960").parse_id("x")
    Traceback (most recent call last):
    ...
    solver.errors.IdSyntaxError: position id 'x' is not an integer
    """

    def __init__(self, family: str, message: str) -> None:
        super().__init__(f"{family}: {message}")
        self.family = family


class InputError(Chess960Error):
    """A file, line, option or argument given that cannot be read, written or
    used. Its leaves on a bad value are also :class:`ValueError` errors; those of
    a file that cannot be read or written (:class:`InputFileError`,
    :class:`OutputFileError`, :class:`EvalTableError`) are not.

    >>> from solver import Position
    >>> Position(518, "RNBQKBNR", "RNBQKBNR").fen(dialect="uci")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.DialectError: unknown dialect 'uci'; dialects are xfen, shredder, ...
    """


class LimitError(Chess960Error):
    """Work over a set limit (``--max-arrangements``, ``--max-states``).

    >>> from solver import Family
    >>> Family.load("chess960", max_arrangements=10).ranks()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.SearchTooLargeError: rule set 'chess960' has 2,880 arrangements to search ...
    """


class RankError(PositionError):
    """A rank (a row of pieces) that is not a start rank of the family.

    ``text`` is the input as given; subclasses add what is wrong with it.
    """

    def __init__(self, text: str, message: str) -> None:
        super().__init__(message)
        self.text = text


class RankLengthError(RankError):
    """A rank with the wrong number of squares."""

    def __init__(self, text: str, length: int, files: int) -> None:
        super().__init__(text, f"{quote(text)} has {length} squares, expected {files}")
        self.length = length
        self.files = files


class UnknownPieceError(RankError):
    """A rank with a character that names no piece."""

    def __init__(self, text: str, char: str, square: str | None) -> None:
        where = f" on {square}" if square else ""
        super().__init__(text, f"{quote(text)} has an unknown piece {char!r}{where}")
        self.char = char
        self.square = square


class PieceCountError(RankError):
    """A rank with too many or too few of some piece."""

    def __init__(
        self, text: str, piece: str, found: int, expected: int, squares: Sequence[str], what: str
    ) -> None:
        where = f" ({', '.join(squares)})" if squares else ""
        super().__init__(
            text, f"{quote(text)} has {found} {what}{where}, expected {expected}"
        )
        self.piece = piece
        self.found = found
        self.expected = expected
        self.squares = tuple(squares)


class Violation:
    """One placement rule that a rank breaks, with the squares involved."""

    __slots__ = ("message", "rule", "squares")

    def __init__(self, rule: str, message: str, squares: Sequence[str]) -> None:
        self.rule = rule
        self.message = message
        self.squares = tuple(squares)

    def __repr__(self) -> str:
        return f"Violation({self.rule!r}, {self.message!r}, {self.squares!r})"

    def __str__(self) -> str:
        return f"{self.message} (rule {self.rule})"


class RuleViolationError(RankError):
    """A well-formed rank that breaks one or more of the family's rules.

    ``violations`` lists every broken rule, not just the first.
    """

    def __init__(self, text: str, family: str, violations: Sequence[Violation]) -> None:
        reasons = "; ".join(str(v) for v in violations)
        super().__init__(text, f"{quote(text)} is not a {family} rank: {reasons}")
        self.family = family
        self.violations = tuple(violations)


class IdError(NumberingError):
    """A position ID that is not an integer or out of range."""

    def __init__(self, text: str, message: str) -> None:
        Chess960Error.__init__(self, message)
        self.text = text


class IdSyntaxError(IdError):
    """An ID that is not a plain decimal integer."""

    def __init__(self, text: str) -> None:
        super().__init__(text, f"position id {quote(text)} is not an integer")


class IdRangeError(IdError):
    """An ID outside ``0 <= id < count``."""

    def __init__(self, text: str, value: int | None, count: int, family: str) -> None:
        shown = str(value) if value is not None else f"{text.strip()[:12]}..."
        super().__init__(text, f"{family} id {shown} is out of range 0..{count - 1}")
        self.value = value
        self.count = count
        self.family = family


class IdListError(IdError):
    """An item of a list of positions (``--ids``, ``--exclude``, ``--from``) that
    cannot be read, or a list file that cannot (``where``: ``ids.txt line 3``,
    or ``@ids.txt`` for the whole file; ``text``: the item, None for the file).

    >>> print(IdListError("ids.txt line 3", "9999", "chess960 id 9999 is out of range 0..959"))
    ids.txt line 3: chess960 id 9999 is out of range 0..959
    """

    def __init__(self, where: str, text: str | None, reason: str) -> None:
        IdError.__init__(self, where if text is None else text,
                         reason if text is None else f"{where}: {reason}")
        self.where = where
        self.reason = reason


class IdMismatchError(IdError):
    """A ``<id> <rank>`` line whose id (or a numbering's number or label) is
    not the rank's (``found`` is)."""

    def __init__(self, listed: int | str, rank: str, found: int | str) -> None:
        super().__init__(
            f"{listed} {rank}", f"id {listed} does not match {quote(rank)}, whose id is {found}"
        )
        self.listed = listed
        self.rank = rank
        self.found = found


class RuleFileError(Chess960Error):
    """A rule file or rule set that cannot be read or used: as itself (and
    :class:`InvalidRuleFileError`, :class:`RuleFileReadError`), a rule file,
    where ``path`` names the file, ``key`` the offending key (dotted, e.g.
    ``rule[2].kind``), ``suggestion`` a near valid name when there is one.

    >>> from solver import load
    >>> load("chess961")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.UnknownRuleSetError: no rule set 'chess961': ...
    """

    def __init__(
        self,
        path: str,
        message: str,
        key: str | None = None,
        suggestion: str | None = None,
        line: int | None = None,
    ) -> None:
        where = f"{path}:{line}" if line is not None else path
        prefix = f"{where}: {key}: " if key else f"{where}: "
        hint = f" (did you mean {suggestion!r}?)" if suggestion else ""
        super().__init__(f"{prefix}{message}{hint}")
        self.path = path
        self.key = key
        self.suggestion = suggestion
        self.line = line
        self.reason = message
        #: Every mistake found in the file, this one first (see :meth:`several`).
        self.problems: tuple[RuleFileError, ...] = (self,)

    @classmethod
    def several(cls, problems: Sequence[RuleFileError]) -> RuleFileError:
        """One error for all ``problems`` of a file: the first when alone, else
        the first's details with every message (``; ``-joined) and ``problems``.

        >>> one = InvalidRuleFileError("f.toml", "missing", "title")
        >>> two = InvalidRuleFileError("f.toml", "x")
        >>> InvalidRuleFileError.several([one]) is one
        True
        >>> both = InvalidRuleFileError.several([one, two])
        >>> str(both), len(both.problems)
        ('f.toml: title: missing; f.toml: x', 2)
        """
        if len(problems) == 1:
            return problems[0]
        first = problems[0]
        combined = cls(first.path, first.reason, first.key, first.suggestion, first.line)
        Chess960Error.__init__(combined, "; ".join(str(p) for p in problems))
        combined.problems = tuple(problems)
        return combined


class InvalidRuleFileError(RuleFileError, ValueError):
    """A rule file whose text is not a valid rule file: not UTF-8, too large,
    not TOML, or a key or value the rules do not take."""


class RuleFileReadError(RuleFileError):
    """A rule file that cannot be read: missing, not a regular file, or an OS
    error while reading it. Not a :class:`ValueError`."""


class UnknownRuleSetError(RuleFileError, ValueError):
    """A ``--rules`` argument that is neither a bundled family nor a file."""

    def __init__(self, name: str, suggestion: str | None, known: Sequence[str]) -> None:
        hint = f" (did you mean {suggestion!r}?)" if suggestion else ""
        Chess960Error.__init__(
            self,
            f"no rule set {name!r}: not a bundled family ({', '.join(known)}) "
            f"nor a file{hint}"
        )
        self.name = name
        self.suggestion = suggestion
        self.known = tuple(known)


class SearchTooLargeError(LimitError):
    """A rule set whose search space exceeds the configured limit.

    ``arrangements`` counts the arrangements of the pieces within the files
    the rules allow them (:meth:`solver.kinds.model.Model.search_size`).
    """

    def __init__(self, family: str, arrangements: int, limit: int) -> None:
        super().__init__(
            f"rule set {quote(family)} has {arrangements:,} arrangements to search "
            f"(of its pieces, within the files its rules allow), over the limit of "
            f"{limit:,}; raise it with --max-arrangements {arrangements}"
        )
        self.family = family
        self.arrangements = arrangements
        self.limit = limit


class CountingTooLargeError(LimitError):
    """A family whose counting (or numbering by counting) would keep more
    states than the bound (:mod:`solver.numbering.budget`).

    ``states`` is the estimate, ``limit`` the bound and ``why`` what makes it
    large (the piece kinds, the rules, a numbering step).
    """

    def __init__(self, family: str, states: int, limit: int, why: str) -> None:
        super().__init__(
            f"rule set {quote(family)} needs about {states:,} counting states, over the "
            f"limit of {limit:,}: {why}; raise it with --max-states {states}"
        )
        self.family = family
        self.states = states
        self.limit = limit
        self.why = why


class PairError(RankError):
    """A position of an independent-sides family not given as two ranks."""

    def __init__(self, text: str, family: str, length: int, files: int) -> None:
        super().__init__(
            text,
            f"{quote(text)} has {length} squares; a {family} position is a pair of ranks, "
            f"White's then Black's, {2 * files} squares in all",
        )
        self.family = family
        self.length = length
        self.files = files


class PairOrderError(RankError):
    """A pair of ranks written Black's first: lower case (or black glyphs) before
    upper case (or white glyphs). ``suggestion`` is the pair the other way round."""

    def __init__(self, text: str, family: str, suggestion: str) -> None:
        super().__init__(
            text,
            f"{quote(text)} gives Black's rank (lower case) first: a {family} pair is "
            f"White's rank in upper case, then Black's in lower case, such as "
            f"{quote(suggestion)}",
        )
        self.family = family
        self.suggestion = suggestion


class FenError(PositionError):
    """A FEN that is not a start position of the family.

    ``text`` is the FEN as given; subclasses add what is wrong with it.
    """

    def __init__(self, text: str, message: str) -> None:
        super().__init__(message)
        self.text = text


class FenSyntaxError(FenError):
    """A FEN that cannot be read: fields, ranks, squares or characters.

    ``field`` names the FEN field at fault (``placement``, ``side to move``,
    ``castling``, ``en passant``, ``halfmove clock``, ``move number``,
    ``opcodes`` for EPD operations, or ``fields`` for their number) and
    ``reason`` says what is wrong.
    """

    def __init__(self, text: str, field: str, reason: str) -> None:
        super().__init__(text, f"fen {quote(text)} cannot be read: {reason}")
        self.field = field
        self.reason = reason


class NotStartPositionError(FenError):
    """A readable FEN that is not a start position.

    ``reasons`` lists every reason (pawns off their ranks, pieces in the
    middle of the board, black to move, an en passant square);
    ``squares`` names the squares involved.
    """

    def __init__(self, text: str, reasons: Sequence[str], squares: Sequence[str] = ()) -> None:
        super().__init__(text, f"fen {quote(text)} is not a start position: {'; '.join(reasons)}")
        self.reasons = tuple(reasons)
        self.squares = tuple(squares)


class CastlingRightsError(FenError):
    """Castling rights that do not match the rooks on the back ranks.

    ``right`` is the wrong right as written (``None`` when one is missing),
    ``expected`` the rights the rooks give, in X-FEN and in Shredder-FEN.
    """

    def __init__(
        self, text: str, right: str | None, reason: str, expected: tuple[str, str],
        allows: str | None = None,
    ) -> None:
        xfen, shredder = expected
        want = f"{xfen!r} or {shredder!r}" if xfen != shredder else repr(xfen)
        if xfen == "-":
            want = "'-' (no castling)"
        gives = f"the rooks give {want}"
        if allows is not None:
            gives = (f"the family allows {allows}, so the field is '-'" if xfen == "-"
                     else f"the family allows {allows}: here {want}")
        super().__init__(
            text, f"fen {quote(text)} has wrong castling rights: {reason}; {gives}"
        )
        self.right = right
        #: What the family's castling rule allows, in words (``None``: the rooks' rights).
        self.allows = allows
        self.reason = reason
        self.expected = expected


class MirrorError(FenError):
    """A position whose Black rank does not mirror White's, for a mirrored family.

    ``families`` lists the bundled families with independent sides that take
    the pair of ranks (such as ``dfrc``).
    """

    def __init__(
        self, text: str, family: str, white: str, black: str, families: Sequence[str],
        relation: str | None = None,
    ) -> None:
        if families:
            names = ", ".join(families)
            hint = f"the {names} famil{'ies take' if len(families) > 1 else 'y takes'} the pair"
        else:
            hint = "no bundled family takes this pair of ranks"
        relation = relation or f"does not mirror white's {white!r}"
        super().__init__(
            text,
            f"fen {quote(text)} is not a {family} position: black's rank {black!r} {relation}; "
            f"{hint}",
        )
        self.family = family
        self.white = white
        self.black = black
        self.families = tuple(families)


class BetzaError(RuleFileError, ValueError):
    """A Betza string (a piece's movement) this reader does not understand.

    ``text`` is the string and ``at`` the index where reading stopped.
    """

    def __init__(self, text: str, at: int) -> None:
        Chess960Error.__init__(
            self, f"{quote(text)} is not Betza notation this reader knows, at "
                  f"{quote(text[at:])} (atoms WFDNAHCZG and KRBQ, modifiers fblrvsmc)")
        self.text = text
        self.at = at


class StepSyntaxError(NumberingError):
    """A placement step that does not parse, or steps that do not place every piece.

    ``index`` is the 0-based index of the step at fault.
    """

    def __init__(self, index: int, message: str) -> None:
        Chess960Error.__init__(self, message)
        self.index = index


class DialectError(InputError, ValueError):
    """A variant or FEN dialect that cannot be written for a family.

    ``variant`` and ``dialect`` are as given; ``reason`` says what is wrong.
    """

    def __init__(self, variant: str, dialect: str, reason: str) -> None:
        super().__init__(reason)
        self.variant = variant
        self.dialect = dialect
        self.reason = reason


class SidesError(NumberingError):
    """A pair of side IDs given to a family whose Black mirrors White."""

    def __init__(self, family: str) -> None:
        Chess960Error.__init__(
            self,
            f"{family} positions mirror white's rank, so they take one id, not a pair; "
            "a family with independent sides such as dfrc takes white's and black's ids"
        )
        self.family = family


class DrawError(Chess960Error, ValueError):
    """A random or physical draw that cannot be made; as itself, too many
    distinct positions asked for.

    >>> from solver import Family
    >>> Family.load("chess960").random(961, distinct=True)
    Traceback (most recent call last):
    ...
    solver.errors.DrawError: cannot draw 961 distinct chess960 positions: only 960 are left
    """

    def __init__(self, family: str, requested: int, available: int, excluded: int) -> None:
        left = f"only {available:,} {'is' if available == 1 else 'are'} left"
        after = f" after excluding {excluded:,}" if excluded else ""
        what = "distinct " if available else ""
        super().__init__(
            f"cannot draw {requested:,} {what}{family} position{'s' if requested != 1 else ''}: "
            f"{left}{after}"
        )
        self.family = family
        self.requested = requested
        self.available = available
        self.excluded = excluded


class OutputFileError(InputError):
    """A file that cannot be written; ``path`` names it, ``reason`` says why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot write {path!r}: {reason}")
        self.path = path
        self.reason = reason


class InputFileError(InputError):
    """A file that cannot be read (``path`` and the ``reason``)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot read {path!r}: {reason}")
        self.path = path
        self.reason = reason


class TreeError(InputError, ValueError):
    """A ``games tree`` option or a tree file (``games merge``) that cannot be used."""


class SampleError(InputError, ValueError):
    """A sample of draws that cannot be audited: none, or too few for the test
    (``name`` of the file, the ``reason``)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason


class DocumentError(InputError, ValueError):
    """A document that is not in the format its first line shows (``fmt``, ``reason``)."""

    def __init__(self, fmt: str, reason: str) -> None:
        super().__init__(f"not a {fmt} document: {reason}")
        self.fmt = fmt
        self.reason = reason


class SeedError(InputError, ValueError):
    """A random seed that is empty, not valid Unicode text, or neither text nor an integer."""

    def __init__(self, seed: object, reason: str | None = None) -> None:
        if seed == "":
            super().__init__("seed '' is empty: give a phrase or an integer")
        else:
            shown = quote(seed) if isinstance(seed, str) else repr(seed)[:60]
            super().__init__(f"seed {shown} {reason or 'is not a valid seed'}")
        self.seed = seed
        self.reason = reason


class ArgumentTypeError(InputError, TypeError):
    """An API argument of the wrong type (``Family.position("5")``); also a
    :class:`TypeError`. ``argument`` names it, ``expected`` the type it takes,
    ``value`` is what was given."""

    def __init__(self, argument: str, expected: str, value: object) -> None:
        shown = repr(value)
        if len(shown) > QUOTE_LIMIT:
            shown = shown[:QUOTE_LIMIT - 3] + "..."
        super().__init__(f"{argument} must be {expected}, not {type(value).__name__} {shown}")
        self.argument = argument
        self.expected = expected
        self.value = value


def need_text(value: object, argument: str) -> str:
    """``value`` when it is a ``str``, else raise :class:`ArgumentTypeError`.

    >>> need_text(5, "rank")
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentTypeError: rank must be text (str), not int 5
    """
    if not isinstance(value, str):
        raise ArgumentTypeError(argument, "text (str)", value)
    return value


def need_int(value: object, argument: str) -> int:
    """``value`` when it is an ``int`` (not a ``bool``), else raise :class:`ArgumentTypeError`.

    >>> need_int("5", "id")
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentTypeError: id must be an integer (int), not str '5'
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(argument, "an integer (int)", value)
    return value


class EmptyFamilyError(RuleFileError, ValueError):
    """A rule set whose rules admit no rank at all.

    ``conflict`` lists the labels of a smallest set of rules that cannot all
    hold together (empty when the pieces alone cannot be placed).
    """

    def __init__(self, family: str, conflict: Sequence[str]) -> None:
        why = (f": these rules cannot all hold: {'; '.join(conflict)}" if conflict
               else "")
        Chess960Error.__init__(self, f"rule set {family!r} has no positions at all{why}")
        self.family = family
        self.conflict = tuple(conflict)


class WorkerError(Chess960Error):
    """A solver worker process that stopped before finishing its part.

    ``exitcode`` is its exit status (negative: the signal that killed it);
    ``reason`` the error it reported before stopping, if any.

    >>> print(WorkerError(-9))
    a solver worker process stopped unexpectedly (killed by signal 9)
    >>> print(WorkerError(None, "MemoryError()"))
    a solver worker process failed: MemoryError()
    """

    def __init__(self, exitcode: int | None, reason: str | None = None) -> None:
        how = (f" (killed by signal {-exitcode})" if exitcode is not None and exitcode < 0
               else f" (exit status {exitcode})" if exitcode else "")
        super().__init__(f"a solver worker process failed: {reason}" if reason is not None
                         else f"a solver worker process stopped unexpectedly{how}")
        self.exitcode = exitcode
        self.reason = reason


class RecordIdError(IdError):
    """A record of a document read back (a line, an EPD line's ``id``, a CSV row)
    whose id is not its position's: ``listed`` is the id it gives, ``found`` the
    position's."""

    def __init__(self, text: str, message: str, listed: str | int, found: int) -> None:
        super().__init__(text, message)
        self.listed = listed
        self.found = found


class UnknownFormatError(InputError, ValueError):
    """An output format (or a plan's table format) that is not one of ``known``.

    >>> print(UnknownFormatError("yaml", ("text", "json")))
    unknown format 'yaml'; formats are text, json
    """

    def __init__(self, fmt: str, known: Sequence[str], what: str = "format") -> None:
        super().__init__(f"unknown {what} {fmt!r}; formats are {', '.join(known)}")
        self.format = fmt
        self.known = tuple(known)


class DrawCountError(DrawError):
    """A number of draws, rounds or choices that cannot be drawn (negative, or none
    to choose from); ``value`` is the number as given.

    >>> print(DrawCountError(-1, "cannot plan -1 rounds"))
    cannot plan -1 rounds
    """

    def __init__(self, value: int, message: str) -> None:
        Chess960Error.__init__(self, message)
        self.value = value


class UnknownNumberingError(NumberingError):
    """A numbering name the family does not have; ``known`` lists those it has.

    >>> print(UnknownNumberingError("scid", "chess960", ("scharnagl", "scidb")))
    unknown numbering 'scid' of chess960; its numberings are scharnagl, scidb
    """

    def __init__(self, name: str, family: str, known: Sequence[str]) -> None:
        Chess960Error.__init__(self, f"unknown numbering {name!r} of {family}; its numberings "
                                     f"are {', '.join(known)}")
        self.name = name
        self.family = family
        self.known = tuple(known)


class NumberingLabelError(IdError):
    """A number or label that is none of a numbering's (out of range, or not its form).

    >>> print(NumberingLabelError("0", "scidb", "chess960", "1..960"))
    '0' is not a chess960 number in the numbering scidb (1..960)
    """

    def __init__(self, text: str, numbering: str, family: str, expected: str) -> None:
        super().__init__(text, f"{quote(text)} is not a {family} number in the numbering "
                               f"{numbering} ({expected})")
        self.numbering = numbering
        self.family = family
        self.expected = expected


class EvalTableError(InputError):
    """An evaluation table that cannot be used: ``path`` (``line`` from 1, 0 for
    the whole file) and the ``reason``.

    >>> print(EvalTableError("t.csv", 3, "id '9x' is not a number"))
    evaluation table 't.csv', line 3: id '9x' is not a number
    """

    def __init__(self, path: str, line: int, reason: str) -> None:
        where = f", line {line}" if line else ""
        super().__init__(f"evaluation table {shown_path(path)!r}{where}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


class BandError(InputError, ValueError):
    """A ``--balanced`` band that cannot be read or used (``text`` as given).

    >>> print(BandError("x", "is not a number of pawns"))
    band 'x' is not a number of pawns
    """

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"band {quote(text)} {reason}")
        self.text = text
        self.reason = reason


class EngineError(Chess960Error):
    """A UCI engine that cannot be started or that broke the protocol
    (``engine`` as given, and the ``reason``).

    >>> print(EngineError("stockfish", "exited with code 1 before 'uciok'"))
    engine 'stockfish': exited with code 1 before 'uciok'
    """

    def __init__(self, engine: str, reason: str) -> None:
        super().__init__(f"engine {shown_path(engine)!r}: {reason}")  # a path, whole
        self.engine = engine
        self.reason = reason


class ClusterError(EngineError):
    """A Dask scheduler that cannot be reached, a shard the cluster gave up on,
    or a worker's error (its message, naming the worker): engine evaluation on
    a cluster (``eval --scheduler``) that failed.

    >>> print(ClusterError.of("tcp://nowhere:8786", "cannot connect: timed out"))
    scheduler 'tcp://nowhere:8786': cannot connect: timed out
    """

    def __init__(self, message: str, scheduler: str = "", reason: str = "") -> None:
        Chess960Error.__init__(self, message)
        self.engine, self.reason, self.scheduler = "", reason or message, scheduler

    @classmethod
    def of(cls, scheduler: str, reason: str) -> ClusterError:
        """The error ``reason`` about the scheduler at ``scheduler``."""
        return cls(f"scheduler {quote(scheduler)}: {reason}", scheduler, reason)


# -- draws an arbiter can defend (solver/draws/) ----------------------------------------


class ExclusionError(IdSyntaxError):
    """An ``exclude`` item that is neither a position ID nor one of the family's
    exclusion presets (:mod:`solver.draws.presets`); ``family`` is the family's
    name, ``presets`` the names it has.

    >>> print(ExclusionError("chess957", "chess960", ("chess958", "chess959")))
    'chess957' is neither a position id nor an exclusion preset of chess960 (chess958, chess959)
    """

    def __init__(self, text: str, family: str, presets: Sequence[str]) -> None:
        known = f"({', '.join(presets)})" if presets else "(it has none)"
        IdError.__init__(self, text, f"{quote(text)} is neither a position id nor an "
                                     f"exclusion preset of {family} {known}")
        self.family = family
        self.presets = tuple(presets)


class CertificateError(InputError, ValueError):
    """A draw certificate that cannot be read or does not hold (``path`` names
    it, ``reason`` says what is wrong).

    >>> print(CertificateError("round.json", "'seed' is missing"))
    round.json: 'seed' is missing
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{shown_path(path)}: {reason}")
        self.path = path
        self.reason = reason


class UnknownAlgorithmError(CertificateError):
    """A certificate whose draw algorithm (``name``, ``version``) this build
    does not have; ``known`` maps each algorithm it has to its version."""

    def __init__(self, path: str, name: object, version: object,
                 known: dict[str, int]) -> None:
        have = ", ".join(f"{n} version {v}" for n, v in sorted(known.items()))
        shown = quote(name) if isinstance(name, str) else repr(name)[:40]
        super().__init__(path, f"unknown draw algorithm {shown} version {version!r}: "
                               f"this build draws by {have}")
        self.name = name
        self.version = version
        self.known = dict(known)


class CertificateMismatchError(CertificateError):
    """A certificate that disagrees with the draw made again: ``what`` differs
    (``"result 2"``, ``"rule file"``, ``"family"``...), ``recorded`` is the
    certificate's value, ``derived`` what the draw gives now."""

    def __init__(self, path: str, what: str, recorded: object, derived: object,
                 reason: str) -> None:
        super().__init__(path, reason)
        self.what = what
        self.recorded = recorded
        self.derived = derived


class ProcedureError(InputError, ValueError):
    """A described physical draw procedure (:mod:`solver.draws.procedure`) that
    cannot be read or computed; ``name`` is the file (or procedure) it is in."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{shown_path(name)}: {reason}")
        self.name = name
        self.reason = reason


class NotUniformError(ProcedureError):
    """A procedure whose outcomes are not all equally likely: ``groups`` lists
    ``(probability, ids)`` from the most likely, ``count`` is the number of IDs."""

    def __init__(self, name: str, reason: str, groups: Sequence[tuple[object, Sequence[int]]],
                 count: int) -> None:
        super().__init__(name, reason)
        self.groups = tuple((p, tuple(ids)) for p, ids in groups)
        self.count = count


class DiceError(DrawError):
    """A physical draw that cannot be stated: ``sides`` (the die's faces or the
    deck's cards) and ``count`` (the IDs to draw among) say which."""

    def __init__(self, sides: int, count: int, reason: str) -> None:
        Chess960Error.__init__(self, reason)
        self.sides = sides
        self.count = count


class OptionConflictError(InputError, ValueError):
    """Options of a command that cannot go together; ``options`` names them.

    >>> print(OptionConflictError("plan", ("--certificate", "--numbering"), "why"))
    plan: --certificate and --numbering do not go together: why
    """

    def __init__(self, command: str, options: Sequence[str], reason: str) -> None:
        super().__init__(f"{command}: {' and '.join(options)} do not go together: {reason}")
        self.command = command
        self.options = tuple(options)
        self.reason = reason


class CompressionError(InputFileError):
    """A compressed file whose codec needs an optional package that is not
    installed (``codec``: ``zstd``; ``package``: ``zstandard``)."""

    def __init__(self, path: str, codec: str, package: str) -> None:
        super().__init__(path, f"it is {codec}-compressed, which needs the optional package "
                               f"{package!r} (pip install 'chess960-solver[{codec}]')")
        self.codec = codec
        self.package = package


class NoGamesError(InputError, ValueError):
    """An input that holds no PGN game at all (``path`` names it)."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path!r} holds no PGN game (no header block [Name \"value\"])")
        self.path = path


class ArmyError(RankError):
    """A rank whose pieces are not the family's army that varies
    (``K + 7 of NBRQ``): ``army`` is the army as written."""

    def __init__(self, text: str, family: str, army: str, reason: str) -> None:
        super().__init__(text, f"{quote(text)} is not a {family} rank: {reason} "
                               f"(the army is {army})")
        self.family = family
        self.army = army
        self.reason = reason


class LinkError(RankError):
    """A pair of ranks that the family's ``link`` does not tie (wild 4's Black
    has White's pieces, as many bishops on dark squares)."""

    def __init__(self, text: str, family: str, white: str, black: str, reason: str) -> None:
        super().__init__(text, f"{quote(text)} is not a {family} position: black's "
                               f"{black.lower()!r} does not fit white's {white!r}: {reason}")
        self.family = family
        self.white = white
        self.black = black
        self.reason = reason


class NoFamilyError(PositionError):
    """A position none of the families looked in holds (``chess960 which``).

    ``families`` names every family looked in; ``nearest`` the nearest ones
    with what each says is wrong (``(family, reason)``); ``close`` whether
    those hold boards of the position's shape (a rule broken), not only the
    nearest of families that cannot hold it at all.

    >>> print(NoFamilyError("BBNNRKRQX", ["chess960"], [("chess960", "9 squares")], False))
    'BBNNRKRQX' is in none of the 1 family looked in: chess960 (9 squares)
    """

    def __init__(self, text: str, families: Sequence[str],
                 nearest: Sequence[tuple[str, str]], close: bool) -> None:
        said = "; ".join(f"{name} ({why})" for name, why in nearest)
        n = len(families)
        what = f"; the nearest: {said}" if close else f": {said}"
        super().__init__(f"{quote(text)} is in none of the {n} famil{'y' if n == 1 else 'ies'}"
                         f" looked in{what}")
        self.text = text
        self.families = tuple(families)
        self.nearest = tuple(nearest)
        self.close = close
