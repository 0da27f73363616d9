"""Answering many inputs, each on its own: the loop every command shares.

Commands take several inputs (ranks, FENs, IDs), and ``-`` for one input per
line of standard input. Each is answered in turn; one that fails gets an
``error:`` line on stderr (after the answers before it are flushed, so the
two streams stay in order), and the others are still answered.

Standard input is read as bytes, in chunks (:class:`solver.lines.LineReader`), and
decoded here, line by line, as UTF-8: memory stays bounded whatever comes
in. A line longer than :data:`MAX_LINE` bytes, a line that is not UTF-8 and
a blank line are each one ``error: line N: ...``; with ``blank="\\n"`` (the
text formats) each of them still gets its own empty line on stdout, so that
answers line up with input lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solver.cli.errors import report
from solver.errors import Chess960Error, IdMismatchError
from solver.lines import MAX_LINE, read_lines, split_listed
from solver.notation.start_lines import MEMO_LINE, Quick, ranks_answer

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up

if TYPE_CHECKING:
    from typing import BinaryIO, TextIO

    from solver.family import Family

#: Answers remembered per distinct input line of ``-`` (memory stays bounded:
#: at most this many lines, each at most :data:`MEMO_LINE` bytes).
MEMO_MAX = 1 << 16


Answer = Callable[[str], str]


def load_family(rules: str, max_arrangements: int | None = None) -> Family:
    """:meth:`Family.load <solver.family.Family.load>` (which refuses a FIFO, a
    device or a directory at once).

    >>> load_family("/dev/null")
    Traceback (most recent call last):
    ...
    solver.errors.RuleFileReadError: /dev/null: not a regular file
    """
    from solver.family import Family
    from solver.kinds.model import MAX_ARRANGEMENTS

    limit = MAX_ARRANGEMENTS if max_arrangements is None else max_arrangements
    return Family.load(rules, limit)


def answer_all(
    texts: Iterable[str],
    answer: Answer,
    stdin: BinaryIO | None,
    out: TextIO,
    err: TextIO,
    memo: bool = True,
    blank: str = "\n",
    quick: Quick | None = None,
) -> bool:
    """Write ``answer(text)`` for each of ``texts`` (``-``: each line of ``stdin``).

    ``answer`` returns the text to write, or writes itself and returns ``""``
    (then ``memo`` must be false: equal stdin lines are otherwise answered
    once). A stdin line that fails gets ``blank`` on ``out``. ``quick``
    answers a stdin line (bytes) as ``answer`` would, or says None. Returns
    whether any input failed.

    >>> import io, sys
    >>> from solver.notation.ranks import parse_id
    >>> def answer(text: str) -> str:
    ...     return f"{parse_id(text, 960)}\\n"
    >>> answer_all(["518", "x"], answer, None, sys.stdout, sys.stdout)
    518
    error: position id 'x' is not an integer
    True
    >>> answer_all(["-"], answer, io.BytesIO(b"1\\n\\n\\xff\\n2"), sys.stdout, sys.stdout)
    1
    error: line 2: blank line
    <BLANKLINE>
    error: line 3: not UTF-8 (byte 0xff at column 1)
    <BLANKLINE>
    2
    True
    """
    bad = False
    for text in texts:
        if text == "-":
            if stdin is None:
                report(out, err, "cannot read standard input: it is closed")
                bad = True
                continue
            bad |= _lines(answer, stdin, out, err, memo, blank, quick)
            continue
        try:
            found = answer(text)
        except Chess960Error as exc:
            report(out, err, str(exc))
            bad = True
            continue
        out.write(found)
    return bad


def _decode(line: bytes | None) -> str:
    """A line's text, or a :class:`_LineError` saying why it has none."""
    if line is None:
        raise _LineError(f"longer than {MAX_LINE:,} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _LineError(
            f"not UTF-8 (byte 0x{line[exc.start]:02x} at column {exc.start + 1})"
        ) from None
    text = text.removesuffix("\r")
    if not text.strip():
        raise _LineError("blank line")
    return text


class _LineError(Exception):
    """A stdin line that is no input at all (too long, not UTF-8, blank)."""


def _lines(
    answer: Answer, stdin: BinaryIO, out: TextIO, err: TextIO, memo: bool, blank: str,
    quick: Quick | None = None,
) -> bool:
    """Answer stdin line by line, in order; equal lines are answered once."""
    known: dict[bytes | None, str] = {}
    lookup = known.get
    bad = False
    number = 0
    for lines in read_lines(stdin):
        answers = list(map(lookup, lines))
        if quick is not None and None in answers:
            answers = [said if said is not None else quick(line)
                       for said, line in zip(answers, lines, strict=True)]
            # remembered as any line's answer where lines repeat (a tenth of the batch or more)
            if memo and len(known) < MEMO_MAX and len(set(lines)) * 10 <= len(lines) * 9:
                for said, line in zip(answers, lines, strict=True):
                    if said is not None and len(known) < MEMO_MAX and \
                            len(line) <= MEMO_LINE:  # type: ignore[arg-type]
                        known[line] = said
        if None not in answers:
            out.write("".join(answers))  # type: ignore[arg-type]
            number += len(lines)
            out.flush()
            continue
        start = 0
        for index, known_answer in enumerate(answers):
            if known_answer is not None:
                continue
            line = lines[index]
            if memo and (known_answer := lookup(line)) is not None:  # earlier in this batch
                answers[index] = known_answer
                continue
            try:
                found = answer(_decode(line))
            except (Chess960Error, _LineError) as exc:
                out.write("".join(answers[start:index]))  # type: ignore[arg-type]
                report(out, err, f"line {number + index + 1}: {exc}")
                out.write(blank)
                answers[index] = ""
                start = index + 1
                bad = True
                continue
            if not memo:
                out.write("".join(answers[start:index]))  # type: ignore[arg-type]
                start = index + 1
            answers[index] = found
            if memo and line is not None and len(line) <= MEMO_LINE and len(known) < MEMO_MAX:
                known[line] = found
        out.write("".join(answers[start:]))  # type: ignore[arg-type]
        out.flush()
        number += len(lines)
    return bad


def identify_all(
    family: Family, texts: Iterable[str], stdin: BinaryIO | None, out: TextIO, err: TextIO,
    read: Callable[[str], str] | None = None,
) -> bool:
    """Write the ID of each rank, pair or start FEN in ``texts`` (``-``: stdin's lines).

    The plain ``chess960 id``; returns whether any input failed. Lines that
    ``solve`` writes, ``<id> <rank>``, are taken too: the id must be the rank's.
    ``read`` turns each text first (a variant's FEN into the family's).
    """
    if read is None:
        return answer_all(texts, id_answer(family.fen_identifier()), stdin, out, err,
                          quick=family_ranks(family))
    identify = family.identify
    return answer_all(texts, id_answer(lambda text: identify(read(text)).id), stdin, out, err)


def family_ranks(family: Family) -> Quick | None:
    """:func:`ranks_answer` for ``family`` when it stands on the classical board
    of eight files (else None)."""
    if not family.layout.chessboard:
        return None

    def rank_id(rank: str) -> int | None:
        try:
            return family.rank_id(family.validate(rank))
        except Chess960Error:
            return None

    return ranks_answer(rank_id, family.side_count if family.independent else None)


def id_answer(identify: Callable[[str], int]) -> Answer:
    """The answer of ``chess960 id`` to one input, given how to identify a rank:
    its ID and a line break; a ``solve`` line's id must be the rank's.

    >>> answer = id_answer(len)
    >>> answer("ABC"), answer("3 ABC")
    ('3\\n', '3\\n')
    >>> answer("4 ABC")
    Traceback (most recent call last):
    ...
    solver.errors.IdMismatchError: id 4 does not match 'ABC', whose id is 3
    """

    def answer(text: str) -> str:
        listed, text = split_listed(text)
        found = identify(text)
        if listed is not None and listed != found:
            raise IdMismatchError(listed, text, found)
        return f"{found}\n"

    return answer
