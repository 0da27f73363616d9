"""The line and document formats: text, FEN, Shredder-FEN, JSON, CSV.

JSON objects and CSV columns: ``id``, ``rank`` (White's), ``black_rank``
(families with independent sides only, in lower case as Black's pieces are
written), ``fen``, ``shredder_fen``, ``family``. :mod:`json` and :mod:`csv`
are imported only when those formats are written or read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import islice
from typing import TYPE_CHECKING, Any, Final

from solver.errors import DocumentError, RecordIdError
from solver.notation.ranks import format_rank
from solver.output.base import (
    MARKS,
    NUMBER,
    Writer,
    columns,
    letters,
    position_text,
    unmarked,
)
from solver.position import Mirrored, Pairs

if TYPE_CHECKING:
    from solver.family import Family
    from solver.position import Position


class _Shown(dict[str, str]):
    """Each rank's text, made on first use."""

    def __init__(self, make: Callable[[str], str]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, rank: str) -> str:
        shown = self[rank] = self.make(rank)
        return shown


def id_lines(start: int, ranks: list[str]) -> str:
    """``<id> <rank>`` lines for ``ranks``, numbered from ``start``.

    Ranks of one width in ASCII are laid out a column at a time (each digit
    of the IDs, each file of the ranks: one slice assignment each), so a
    line costs a few nanoseconds; others are formatted line by line.

    >>> id_lines(998, ["AB", "BA", "AA"])
    '998 AB\\n999 BA\\n1000 AA\\n'
    """
    width = len(ranks[0]) if ranks else 0
    blob = "".join(ranks).encode("utf-8")
    if len(blob) != width * len(ranks) or len(ranks) < 64:
        numbers = range(start, start + len(ranks))
        return "".join([f"{n} {r}\n" for n, r in zip(numbers, ranks, strict=True)])
    parts = []
    at, end = start, start + len(ranks)
    while at < end:
        digits = len(str(at))
        stop = min(end, 10 ** digits)
        count, line = stop - at, digits + width + 2
        text = bytearray(count * line)
        ids = _ids(at, stop, digits)
        for j in range(digits):
            text[j::line] = ids[j::digits]
        text[digits::line] = b" " * count
        files = blob[(at - start) * width:(stop - start) * width]
        for j in range(width):
            text[digits + 1 + j::line] = files[j::width]
        text[line - 1::line] = b"\n" * count
        parts.append(text.decode("ascii"))
        at = stop
    return "".join(parts)


#: Every three-digit ending of a number, in order: ``b"000001...999"``.
_ENDINGS = "".join(f"{n:03d}" for n in range(1000)).encode("ascii")


def _ids(start: int, stop: int, digits: int) -> bytes:
    """The IDs ``start..stop-1``, each ``digits`` digits long, written end to end.

    >>> _ids(998, 1000, 3), _ids(1998, 2002, 4)
    (b'998999', b'1998199920002001')
    """
    count = stop - start
    if digits <= 3 or count < 2000:
        return "".join(map(str, range(start, stop))).encode("ascii")
    out = bytearray(count * digits)
    high = digits - 3
    first = start % 1000 * 3
    endings = (_ENDINGS * (count // 1000 + 2))[first:first + count * 3]
    for j in range(3):
        out[high + j::digits] = endings[j::3]
    heads = range(start // 1000, (stop - 1) // 1000 + 1)
    runs = [min(stop, (h + 1) * 1000) - max(start, h * 1000) for h in heads]
    written = "".join(map(str, heads)).encode("ascii")
    for j in range(high):
        column = written[j::high]
        out[j::digits] = b"".join([column[i:i + 1] * n for i, n in enumerate(runs)])
    return bytes(out)


#: An ``<id> <rank>`` line: the ID, then the rank (or pair) as group 1.
_ID_RANK: Final = re.compile(r"[0-9]+ +([^ 0-9].*)")


class TextWriter(Writer):
    """Each command's own plain lines: an ID, a rank, or ``<id> <rank>``."""

    name = "text"
    help = "plain lines: <id> <rank> (solve, random), the rank (position), the id (id)"
    fens = False
    head = "[0-9]+ +[^ 0-9]"  # <id> <rank> (a list of IDs or ranks alone is read as it is)

    def write(self, position: Position) -> None:
        self.count += 1
        if self.text == "id":
            self.out.write(f"{position.id}\n")
            return
        shown = position_text(self.family, position, self.unicode)
        self.out.write(f"{shown}\n" if self.text == "rank" else f"{position.id} {shown}\n")

    def write_rows(self, rows: Iterable[tuple[int, str, str]]) -> None:
        """``<id> <rank>`` lines straight from the rows, each rank formatted once.

        A mirrored family's lines go out one by one, as the solver finds them;
        an independent family's rows come from a listing already made, so
        they are joined and written a block at a time.
        """
        if self.text != "id-rank":
            super().write_rows(rows)
            return
        unicode, out = self.unicode, self.out
        whites = _Shown(lambda rank: format_rank(rank, unicode))
        if isinstance(rows, Mirrored):  # a block of lines at a time
            for start, ranks in rows.blocks():
                out.write(id_lines(start, [whites[r] for r in ranks] if unicode else ranks))
                self.count += len(ranks)
            return
        if not self.family.sides.independent:
            for number, white, _ in rows:
                out.write(f"{number} {whites[white]}\n")
                self.count += 1
            return
        blacks = _Shown(lambda rank: format_rank(rank, unicode, black=True))
        if isinstance(rows, Pairs):
            self._write_pairs(rows, whites, blacks)
            return
        iterator = iter(rows)
        while block := list(islice(iterator, 8192)):
            out.write("".join([f"{n} {whites[w]} {blacks[b]}\n" for n, w, b in block]))
            self.count += len(block)

    def _write_pairs(self, rows: Pairs, whites: _Shown, blacks: _Shown) -> None:
        """Every pair of a pair listing, a white rank's block of lines at a time:
        one template of the block's lines (``%d`` for each ID, a mark for
        White's rank) is made once, then filled by ``%`` for each white rank."""
        ranks = rows.ranks
        n = len(ranks)
        template = "".join([f"%d \0 {blacks[b].replace('%', '%%')}\n" for b in ranks])
        for white in getattr(rows, "whites", range(n)):  # a slice of White's ranks
            rank = ranks[white]
            start = white * n
            block = template.replace("\0", whites[rank].replace("%", "%%"))
            self.out.write(block % tuple(range(start, start + n)))
            self.count += n

    @classmethod
    def lines(cls, document: str) -> list[str]:
        """Each line's rank (pair), its ID left out (blank lines kept, so that
        findings name the document's lines)."""
        return [found.group(1) if (found := _ID_RANK.fullmatch(line.strip())) else line
                for line in document.splitlines()]

    @classmethod
    def read(cls, family: Family, document: str) -> list[Position]:
        """Lines of an ID, a rank (pair), or an ID then a rank; the two must agree."""
        found = []
        for line in document.splitlines():
            head, _, rest = line.strip().partition(" ")
            if not head:
                continue
            if not rest:
                found.append(family.read(head))
                continue
            position = family.identify(rest) if head.isdigit() else family.identify(line)
            if head.isdigit() and int(head) != position.id:
                raise RecordIdError(
                    line, f"line {line!r} gives id {head}, but the rank is {position.id}",
                    int(head), position.id)
            found.append(position)
        return found


class FenWriter(Writer):
    """One full FEN a line, castling in X-FEN (``KQkq``, file letters where needed)."""

    name = "fen"
    bulk = True
    help = "one full FEN a line, X-FEN castling"
    shredder = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.shredder and self.dialect == "xfen":
            self.dialect = "shredder"

    def line(self, position: Position) -> str:
        """The position's line."""
        return f"{self.fen(position)}\n"

    def write(self, position: Position) -> None:
        self.count += 1
        self.out.write(self.line(position))

    def marked_line(self, black: str) -> str | None:
        fen = self.parts().marked(black, MARKS[0], MARKS[1])
        return None if fen is None else f"{fen}\n"

    def white_parts(self, white: str) -> tuple[str, ...] | None:
        return self.parts().white(white)

    def line_of(self, number: int, white: str, black: str) -> str | None:
        return f"{self.parts().fen(white, black)}\n"


class ShredderWriter(FenWriter):
    """One full FEN a line, castling in Shredder-FEN (the rooks' files)."""

    name = "shredder"
    help = "one full FEN a line, Shredder-FEN castling (the rooks' files)"
    shredder = True


class _RecordWriter(Writer):
    """What the JSON and CSV writers share: a record's fields, each quoted in the
    format's way (:attr:`quote`) once per rank and family."""

    @staticmethod
    def quote(text: str) -> str:
        """A field as the format writes it."""
        raise NotImplementedError

    def white_parts(self, white: str) -> tuple[str, ...] | None:
        fen, shredder = (parts.white(white) for parts in self.record_parts())
        if fen is None or shredder is None:
            return None
        return (self.quote(format_rank(white, self.unicode)), *fen, *shredder)

    def quoted(self, white: str, black: str) -> tuple[str, str | None, str]:
        """White's rank, Black's (independent sides only, else None) and the
        family's name, as the format writes them (each quoted once)."""
        unicode, quote = self.unicode, self.quote
        black_rank = None
        if self.family.sides.independent:
            black_rank = self.kept("black",
                                   lambda r: quote(format_rank(r, unicode, black=True)))[black]
        rank = self.kept("white", lambda r: quote(format_rank(r, unicode)))[white]
        return rank, black_rank, self.kept("name", quote)[self.family.name]


class JsonWriter(_RecordWriter):
    """One JSON array of objects, written as positions come."""

    name = "json"
    head = r"\{|\[\s*(?:$|[{\]])"
    help = "one array of objects: id, rank, fen, shredder_fen, family"

    @staticmethod
    def quote(text: str) -> str:
        return _json(text)

    bulk = True

    def write(self, position: Position) -> None:
        import json

        fields = self.record(position)
        self.out.write(f"{',' if self.count else '['}\n{json.dumps(fields, ensure_ascii=False)}")
        self.count += 1

    def marked_line(self, black: str) -> str | None:
        fen, shredder = _record_fens(self, black)
        if fen is None or shredder is None:
            return None
        black_rank = ""
        if self.family.sides.independent:
            black_rank = f', "black_rank": {_json(format_rank(black, self.unicode, black=True))}'
        return (f',\n{{"id": {NUMBER}, "rank": {MARKS[0]}{black_rank}, "fen": "{fen}", '
                f'"shredder_fen": "{shredder}", "family": {_json(self.family.name)}}}')

    def opening(self) -> tuple[str, int]:
        return "[", 1

    def line_of(self, number: int, white: str, black: str) -> str | None:
        if not letters(white, black):
            return None
        fen, shredder = self.record_parts()
        rank, black_rank, name = self.quoted(white, black)
        black_part = "" if black_rank is None else f', "black_rank": {black_rank}'
        return (f',\n{{"id": {number}, "rank": {rank}{black_part}, '
                f'"fen": "{fen.fen(white, black)}", '
                f'"shredder_fen": "{shredder.fen(white, black)}", "family": {name}}}')

    def end(self) -> None:
        self.out.write("\n]\n" if self.count else "[]\n")

    @classmethod
    def read(cls, family: Family, document: str) -> list[Position]:
        """Each object's ``fen``, identified; its ``id`` must agree."""
        return [_agreeing(family, item["fen"], item["id"]) for item in _json_records(document)]

    @classmethod
    def lines(cls, document: str) -> list[str]:
        """Each object's ``fen``."""
        return [item["fen"] for item in _json_records(document)]


class CsvWriter(_RecordWriter):
    """A header line, then one row a position."""

    name = "csv"
    head = r"id,|[^,\[{]*,(?:[^,]*,)*fen(?:,|$)"
    bulk = True
    help = "a header line, then one row a position (the JSON fields)"

    @staticmethod
    def quote(text: str) -> str:
        return _csv_field(text)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._csv: Any = None

    def write(self, position: Position) -> None:
        fields = self.record(position)
        if self._csv is None:
            import csv

            self._csv = csv.writer(self.out, lineterminator="\n")
            self._csv.writerow(list(fields))
        self._csv.writerow(list(fields.values()))
        self.count += 1

    def marked_line(self, black: str) -> str | None:
        fen, shredder = _record_fens(self, black)
        name = _csv_field(self.family.name)
        if fen is None or shredder is None or not unmarked(name):
            return None
        black_rank = ""
        if self.family.sides.independent:
            black_rank = f",{_csv_field(format_rank(black, self.unicode, black=True))}"
        return f"{NUMBER},{MARKS[0]}{black_rank},{fen},{shredder},{name}\n"

    def opening(self) -> tuple[str, int]:
        import csv

        self._csv = csv.writer(self.out, lineterminator="\n")
        return "".join(_csv_field(c) + "," for c in columns(self.family))[:-1] + "\n", 0

    def line_of(self, number: int, white: str, black: str) -> str | None:
        if not letters(white, black):
            return None
        fen, shredder = self.record_parts()
        rank, black_rank, name = self.quoted(white, black)
        black_part = "" if black_rank is None else f",{black_rank}"
        return (f"{number},{rank}{black_part},{fen.fen(white, black)},"
                f"{shredder.fen(white, black)},{name}\n")

    def end(self) -> None:
        if self._csv is None:
            self.out.write(",".join(columns(self.family)) + "\n")

    @classmethod
    def read(cls, family: Family, document: str) -> list[Position]:
        """Each row's ``fen``, identified; its ``id`` must agree."""
        return [_agreeing(family, row["fen"], int(row["id"])) for row in _csv_rows(document)]

    @classmethod
    def lines(cls, document: str) -> list[str]:
        """Each row's ``fen``."""
        return [row["fen"] for row in _csv_rows(document)]


def _json_records(document: str) -> list[dict[str, Any]]:
    """The objects of a JSON array of records (a :class:`~solver.errors.DocumentError`
    for anything else)."""
    import json

    try:
        records = json.loads(document)
    except ValueError as exc:
        raise DocumentError("json", f"it is not JSON: {exc}") from None
    if isinstance(records, dict):
        records = [records]
    if not isinstance(records, list) or not all(
            isinstance(r, dict) and isinstance(r.get("fen"), str)
            and isinstance(r.get("id", 0), int) for r in records):
        raise DocumentError("json", "expected an array of objects, each with its \"fen\"")
    return records


def _csv_rows(document: str) -> list[dict[str, str]]:
    """The rows of a CSV document with a header naming ``fen`` (and ``id``)."""
    import csv

    rows = csv.DictReader(document.splitlines())
    if rows.fieldnames is None or "fen" not in rows.fieldnames:
        raise DocumentError("csv", f"its header {','.join(rows.fieldnames or [])!r} "
                                   "names no fen column")
    found = list(rows)
    if any(r["fen"] is None or (r.get("id") is not None and not r["id"].isdigit())
           for r in found):
        raise DocumentError("csv", "a row has no fen, or an id that is not a number")
    return found


def _record_fens(writer: Writer, black: str) -> tuple[str | None, str | None]:
    """A record's ``fen`` and ``shredder_fen`` against ``black``, White's parts
    marked as :meth:`JsonWriter.white_parts` gives them."""
    fen, shredder = writer.record_parts()
    return (fen.marked(black, MARKS[1], MARKS[2]), shredder.marked(black, MARKS[3], MARKS[4]))


def _json(value: str) -> str:
    """A JSON string, as :func:`json.dumps` writes it in a record."""
    import json

    return json.dumps(value, ensure_ascii=False)


def _csv_field(value: str) -> str:
    """A CSV field, as :func:`csv.writer` writes it in a row of several."""
    import csv
    import io

    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerow([value, ""])
    return text.getvalue()[:-2]


def _agreeing(family: Family, fen: str, number: int) -> Position:
    position = family.identify(fen)
    if position.id != number:
        raise RecordIdError(fen, f"record gives id {number}, but its fen is {position.id}",
                            number, position.id)
    return position
