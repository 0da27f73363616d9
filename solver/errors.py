"""The project's exceptions.

Every error the library raises on bad input is a :class:`ValueError`
subclass whose message is one lowercase line that quotes the bad value, and
whose details are attributes, so that callers can react without parsing text.
"""

from __future__ import annotations

from collections.abc import Sequence


class Chess960Error(ValueError):
    """Base class of every error this package raises on bad input."""


class RankError(Chess960Error):
    """A rank (a row of pieces) that is not a start rank of the family.

    ``text`` is the input as given; subclasses add what is wrong with it.
    """

    def __init__(self, text: str, message: str) -> None:
        super().__init__(message)
        self.text = text


class RankLengthError(RankError):
    """A rank with the wrong number of squares."""

    def __init__(self, text: str, length: int, files: int) -> None:
        super().__init__(text, f"{text!r} has {length} squares, expected {files}")
        self.length = length
        self.files = files


class UnknownPieceError(RankError):
    """A rank with a character that names no piece."""

    def __init__(self, text: str, char: str, square: str | None) -> None:
        where = f" on {square}" if square else ""
        super().__init__(text, f"{text!r} has an unknown piece {char!r}{where}")
        self.char = char
        self.square = square


class PieceCountError(RankError):
    """A rank with too many or too few of some piece."""

    def __init__(
        self, text: str, piece: str, found: int, expected: int, squares: Sequence[str], what: str
    ) -> None:
        where = f" ({', '.join(squares)})" if squares else ""
        super().__init__(
            text, f"{text!r} has {found} {what}{where}, expected {expected}"
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
        super().__init__(text, f"{text!r} is not a {family} rank: {reasons}")
        self.family = family
        self.violations = tuple(violations)


class IdError(Chess960Error):
    """A position ID that is not an integer or out of range."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(message)
        self.text = text


class IdSyntaxError(IdError):
    """An ID that is not a plain decimal integer."""

    def __init__(self, text: str) -> None:
        super().__init__(text, f"position id {text!r} is not an integer")


class IdRangeError(IdError):
    """An ID outside ``0 <= id < count``."""

    def __init__(self, text: str, value: int | None, count: int, family: str) -> None:
        shown = str(value) if value is not None else f"{text.strip()[:12]}..."
        super().__init__(text, f"{family} position index not 0 <= {shown} <= {count - 1}")
        self.value = value
        self.count = count
        self.family = family


class RuleFileError(Chess960Error):
    """A rule file that cannot be read, parsed or validated.

    ``path`` names the file, ``key`` the offending key (dotted, e.g.
    ``rule[2].kind``), ``suggestion`` a near valid name when there is one.
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


class UnknownRuleSetError(Chess960Error):
    """A ``--rules`` argument that is neither a bundled family nor a file."""

    def __init__(self, name: str, suggestion: str | None, known: Sequence[str]) -> None:
        hint = f" (did you mean {suggestion!r}?)" if suggestion else ""
        super().__init__(
            f"no rule set {name!r}: not a bundled family ({', '.join(known)}) "
            f"nor a file{hint}"
        )
        self.name = name
        self.suggestion = suggestion
        self.known = tuple(known)


class SearchTooLargeError(Chess960Error):
    """A rule set whose search space exceeds the configured limit."""

    def __init__(self, family: str, arrangements: int, limit: int) -> None:
        super().__init__(
            f"rule set {family!r} has {arrangements:,} arrangements to search, "
            f"over the limit of {limit:,}; raise it with --max-arrangements"
        )
        self.family = family
        self.arrangements = arrangements
        self.limit = limit


class NumberingError(Chess960Error):
    """Placement steps that cannot number the family consistently."""

    def __init__(self, family: str, message: str) -> None:
        super().__init__(f"{family}: {message}")
        self.family = family


class PairError(RankError):
    """A position of an independent-sides family not given as two ranks."""

    def __init__(self, text: str, family: str, length: int, files: int) -> None:
        super().__init__(
            text,
            f"{text!r} has {length} squares; a {family} position is a pair of ranks, "
            f"White's then Black's, {2 * files} squares in all",
        )
        self.family = family
        self.length = length
        self.files = files
