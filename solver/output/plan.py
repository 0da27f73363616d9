"""A tournament plan as a table: one start position a round.

Markdown (a table to paste into an announcement) or CSV; each row is the
round, the position's ID, its rank(s) and its FEN, and a board picture
when SVG files were written for the rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from solver.errors import DialectError, UnknownFormatError
from solver.notation.dialects import check_style
from solver.output.base import position_text

if TYPE_CHECKING:
    from solver.family import Family
    from solver.numbering.schemes import Scheme
    from solver.position import Position

#: The table forms :func:`plan_table` writes.
PLAN_FORMATS: Final = ("markdown", "csv")


def plan_fens(family: Family, positions: Sequence[Position], *, dialect: str = "xfen",
              variant: str | None = None) -> list[str]:
    """Each round's start FEN as the plan writes it (``dialect``, ``variant``).

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> plan_fens(chess960, [chess960.position(105)], dialect="shredder")
    ['qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1']
    """
    if variant is not None and family.layout.standard:
        check_style(variant, dialect, family.ruleset.files,
                    family.name if family.independent else None)
    elif variant is not None:
        raise DialectError(variant, dialect, f"{family.name} starts on a board of "
                           f"its own; name no variant")
    return [position.fen(dialect, variant) for position in positions]


def plan_table(
    family: Family,
    positions: Sequence[Position],
    fmt: str = "markdown",
    *,
    dialect: str = "xfen",
    variant: str | None = None,
    pictures: Sequence[str] | None = None,
    numbering: Scheme | None = None,
) -> str:
    """The plan's table, one row a round (``pictures``: an SVG path a round;
    ``numbering``: the id column in this numbering, named in its header).

    >>> from solver.family import Family
    >>> chess960 = Family.load("chess960")
    >>> print(plan_table(chess960, [chess960.position(518)]))
    | round | id | rank | FEN |
    | ---: | ---: | --- | --- |
    | 1 | 518 | RNBQKBNR | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 |
    <BLANKLINE>
    """
    named = "id" if numbering is None else f"id ({numbering.name})"
    header = ["round", named, "rank", "FEN"] + (["board"] if pictures is not None else [])
    rows = []
    fens = plan_fens(family, positions, dialect=dialect, variant=variant)
    for number, (position, fen) in enumerate(zip(positions, fens, strict=True), 1):
        shown = str(position.id) if numbering is None else numbering.text(position.id)
        row = [str(number), shown, position_text(family, position), fen]
        if pictures is not None:
            row.append(pictures[number - 1])
        rows.append(row)
    if fmt == "csv":
        import csv
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        return out.getvalue()
    if fmt != "markdown":
        raise UnknownFormatError(fmt, PLAN_FORMATS, "plan format")
    if pictures is not None:
        rows = [[*row[:-1], f"![round {row[0]}]({row[-1]})"] for row in rows]
    align = ["---:", "---:", "---", "---"] + (["---"] if pictures is not None else [])
    lines = [header, align, *rows]
    return "".join("| " + " | ".join(line) + " |\n" for line in lines)


def _occasion(event: str | None, date: str | None) -> list[tuple[str, str]]:
    """``plan --event --date`` as a page's details."""
    return [(key, value) for key, value in (("event", event), ("date", date))
            if value is not None]


def plan_heading(event: str | None, date: str | None, table: str) -> str:
    """The line above a Markdown plan naming its event and date (``""``: none given).

    >>> plan_heading("Spring Open", "2027-04-01", "markdown").splitlines()
    ['Spring Open, 2027-04-01', '']
    >>> plan_heading("Spring Open", None, "csv")
    ''
    """
    title = ", ".join(value for _, value in _occasion(event, date))
    return f"{title}\n\n" if title and table == "markdown" else ""


def plan_details(seed: str | None, shortlist: str | None, excluded: list[int],
                  mirrors: bool, event: str | None = None,
                  date: str | None = None) -> list[tuple[str, str]]:
    """What a plan's page says of its draw: the event and date, the seed, the
    list drawn from, the IDs excluded (not those off the list) and the mirrors rule."""
    details = [*_occasion(event, date),
               ("seed", "(none: drawn at random)" if seed is None else seed)]
    if shortlist is not None:
        details.append(("drawn from", shortlist))
    if excluded:
        details.append(("excluded", ", ".join(map(str, excluded))))
    if mirrors:
        details.append(("mirrors", "never a position and its left-right mirror"))
    return details
