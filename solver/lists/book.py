"""Engine-testing books for any family: which positions, in which order, for whom.

:func:`book_ids` says which of a family's positions a book holds and in which
order; :func:`write_book` writes them as EPD (an ``id "<family> <number>"``
operation on each line, the number in the book's numbering), FEN lines or PGN
games (:mod:`solver.output`).

* **Which.** Every position once (the default), the numbers ``ids`` (``0-99,518``,
  in the book's numbering; ranks, FENs and ``@FILE`` too: :mod:`solver.idlists`),
  or ``sample`` positions drawn without repeats from ``seed``: the positions, in
  the order, of ``chess960 random --seed S -n N --distinct`` (so a sample as
  large as the family is the whole family shuffled).
* **Order.** The numbering's order (the family's own unless ``numbering``
  names another: then the book is in that numbering's order, with its numbers
  in the EPD ``id``: ``id "chess960 960"``, or a label alone: ``id "FRC 518"``).
* **Pairs.** ``pairs="colour"`` writes each position twice in a row, for a
  runner that gives each game a new line and alternates colours;
  ``pairs="mirror"`` puts each position next to its left-right mirror (when
  that is in the family and not written already), so that a run cut short
  stays balanced between a position and its mirror image. fastchess and
  cutechess-cli play each opening twice with colours swapped when asked
  (``-games 2 -repeat``), and then take a book with each position once.
* **Balanced.** ``exclude`` (IDs, such as the positions outside a band of
  ``--balanced`` or ``--draw-rate``) are left out of the book: of the whole
  family, of ``ids``, and of the positions a ``sample`` is drawn from (as
  ``random --exclude`` leaves them out).
* **Workers.** ``workers=N, worker=K`` (``1 <= K <= N``) keeps every N-th
  unit (a position, or a pair), starting with the K-th: the N slices are
  disjoint and together they are the whole book, each spread over all of it.

>>> from solver.family import Family
>>> list(book_ids(Family.load("chess960"), ids="518,0-1", pairs="mirror"))
[518, 534, 0, 959, 1, 955]
"""

from __future__ import annotations

import io
from collections.abc import Callable, Collection, Iterable, Iterator
from itertools import chain, islice
from typing import TYPE_CHECKING, Final, TextIO

from solver.errors import Chess960Error, IdError, OptionConflictError, quote
from solver.position import Pairs

if TYPE_CHECKING:
    from solver.family import Family
    from solver.numbering.schemes import Scheme
    from solver.output.base import Writer

__all__ = ["BOOK_FORMATS", "PAIRS", "book_ids", "write_book"]

#: The formats a book is written in (:data:`solver.output.FORMATS`).
BOOK_FORMATS: Final = ("epd", "fen", "shredder", "pgn")
#: How positions are paired: each twice in a row, or next to its mirror.
PAIRS: Final = ("colour", "mirror")
#: Positions made between two writes.
CHUNK: Final = 4096

Progress = Callable[[int, int], object]


def _scheme(family: Family, numbering: str | None) -> Scheme | None:
    if numbering is None:
        return None
    scheme = family.scheme(numbering)
    return None if scheme.canonical else scheme


def _ordered(family: Family, scheme: Scheme | None) -> Iterable[int]:
    """Every ID in the numbering's order (by number; labels: by place)."""
    if scheme is None:
        return range(family.count)
    id_at = scheme.order.id_at
    if scheme.spec.label or not scheme.cyclic:
        return map(id_at, range(family.count))
    unstyled = scheme._unstyled  # a number's place, as Scheme.listing uses it
    return (id_at(unstyled(value)) for value in range(scheme.low, scheme.high + 1))


class _Mirrors:
    """Each position's left-right mirror (None: not in the family): both ranks
    read backwards, by the family's own reading (:meth:`Family.identify
    <solver.family.Family.identify>`), and with castling variations the rights
    kept on the other wings."""

    WINGS: Final = {"K": "Q", "Q": "K", "k": "q", "q": "k"}

    def __init__(self, family: Family) -> None:
        self.family = family
        self.placements: dict[tuple[str, str], int | None] = {}

    def placement(self, white: str, black: str) -> int | None:
        """The placement id of the mirrored ranks (None: not in the family)."""
        key = (white, black)
        if key not in self.placements:
            family = self.family
            text = f"{white[::-1]} {black[::-1].lower()}" if family.independent \
                else white[::-1]
            try:
                found: int | None = family.identify(text).id
            except Chess960Error:
                found = None
            if len(self.placements) >= CHUNK * 16:
                self.placements.clear()
            self.placements[key] = found
        return self.placements[key]

    def __call__(self, number: int) -> int | None:
        from solver.board.castling_rules import SubsetCastling

        family = self.family
        position = family.position(number)
        found = self.placement(position.white, position.black)
        rule = family.ruleset.castling
        if found is None or not isinstance(rule, SubsetCastling):
            return found
        kept = rule.kept(rule.split(number)[0])
        return rule.join(rule.variation({self.WINGS[w] for w in kept}), found)


def book_units(family: Family, *, numbering: str | None = None, ids: str | None = None,
               sample: int | None = None, seed: str | None = None,
               pairs: str | None = None, exclude: Collection[int] = ()
               ) -> Iterator[tuple[int, ...]]:
    """The book's units in order: a position, or a pair (``pairs``), none of
    ``exclude`` (a mirror pair is kept whole only when both are allowed)."""
    if ids is not None and sample is not None:
        raise OptionConflictError("book", ("--ids", "--sample"), "give the positions one way")
    if pairs is not None and pairs not in PAIRS:
        raise IdError(pairs, f"pairs {quote(pairs)} is not one of {', '.join(PAIRS)}")
    scheme = _scheme(family, numbering)
    chosen: Iterable[int]
    if ids is not None:
        from solver.idlists import read_numbers

        chosen = read_numbers(family, [ids], scheme)
    elif sample is not None:
        from solver.sampling import iter_ids

        chosen = iter_ids(family.count, sample, seed=seed, distinct=True, exclude=exclude,
                          family=family.name)
    else:
        chosen = _ordered(family, scheme)
    if exclude and sample is None:
        left_out = frozenset(exclude)
        chosen = (number for number in chosen if number not in left_out)
    if pairs == "colour":
        return ((number, number) for number in chosen)
    if pairs == "mirror":
        return _mirror_pairs(family, chosen, frozenset(exclude))
    return ((number,) for number in chosen)


def _mirror_pairs(family: Family, chosen: Iterable[int], exclude: frozenset[int] = frozenset()
                  ) -> Iterator[tuple[int, ...]]:
    mirror = _Mirrors(family)
    written: set[int] | bytearray = bytearray(family.count) if family.count <= 1 << 26 \
        else set()

    def seen(number: int) -> bool:
        return number in written if isinstance(written, set) else bool(written[number])

    def mark(number: int) -> None:
        if isinstance(written, set):
            written.add(number)
        else:
            written[number] = 1

    for number in chosen:
        if seen(number):
            continue
        mark(number)
        other = mirror(number)
        if other is None or other == number or seen(other) or other in exclude:
            yield (number,)
            continue
        mark(other)
        yield (number, other)


def book_ids(family: Family, *, numbering: str | None = None, ids: str | None = None,
             sample: int | None = None, seed: str | None = None, pairs: str | None = None,
             workers: int = 1, worker: int = 1, exclude: Collection[int] = ()
             ) -> Iterator[int]:
    """The IDs of the positions the book holds, in its order (see the module).

    Raises :class:`~solver.errors.IdError` for a bad number and
    :class:`~solver.errors.OptionConflictError` for options that do not go together.
    """
    if not 1 <= worker <= workers:
        raise OptionConflictError("book", ("--workers", "--worker"),
                                  f"worker {worker} is not one of 1 to {workers}")
    units = book_units(family, numbering=numbering, ids=ids, sample=sample, seed=seed,
                       pairs=pairs, exclude=exclude)
    if workers > 1:
        units = islice(units, worker - 1, None, workers)
    for unit in units:
        yield from unit


def _writer(out: TextIO, family: Family, fmt: str, dialect: str, scheme: Scheme | None
            ) -> Writer:
    from solver.output import FORMATS
    from solver.output.epd import EpdWriter
    from solver.output.pgn import tag_value

    if fmt not in BOOK_FORMATS:
        from solver.errors import UnknownFormatError

        raise UnknownFormatError(fmt, BOOK_FORMATS, "book format")
    if fmt == "epd" and scheme is not None:
        text, labelled = scheme.text, bool(scheme.spec.label)

        class Numbered(EpdWriter):
            """EPD whose ``id`` operations hold the book's numbering's numbers
            (``id "chess960 960"``), or its labels alone (``id "FRC 518"``)."""

            def _after(self, number: int | str) -> str:
                if labelled:
                    return f' id "{tag_value(text(int(number)))}";'
                return super()._after(text(int(number)))

        return Numbered(out, family, "id-rank", False, dialect, None)
    return FORMATS[fmt](out, family, "id-rank", False, dialect, None)


def book_text(family: Family, fmt: str = "epd", *, dialect: str = "xfen",
              numbering: str | None = None, ids: str | None = None, sample: int | None = None,
              seed: str | None = None, pairs: str | None = None, workers: int = 1,
              worker: int = 1, progress: Progress | None = None,
              exclude: Collection[int] = ()) -> Iterator[str]:
    """The book's text, a piece at a time (the checks are made before the first piece).

    Every position is the one :meth:`Family.position <solver.family.Family.position>`
    gives for its ID (what ``chess960 position`` writes); the whole family in its
    own order is :meth:`Family.numbered <solver.family.Family.numbered>`'s rows
    (what ``chess960 solve`` writes).
    """
    scheme = _scheme(family, numbering)
    numbers = book_ids(family, numbering=numbering, ids=ids, sample=sample, seed=seed,
                       pairs=pairs, workers=workers, worker=worker, exclude=exclude)
    buffer = io.StringIO()
    writer = _writer(buffer, family, fmt, dialect, scheme)
    first = next(numbers, None)  # the checks of book_ids, made now
    if first is None:
        return iter(())
    whole = ids is None and sample is None and not exclude
    if whole and scheme is None and pairs is None and workers == 1:
        if _plain_pairs(family) and family.side_count <= BOOK_SIDE_MAX and fmt != "pgn":
            return _pair_pieces(family, writer, buffer, family.side_table(), progress)
        if family.linked or _subsets(family):
            return _pieces(writer, buffer, iter(family.numbered()), progress, family.count)
    if whole and not family.independent and family.side_count <= BOOK_SIDE_MAX:
        family.take_listing(family.side_table())  # each rank looked up, not counted
    rows = ((n, p.white, p.black) for n, p in ((n, family.position(n))
                                                for n in chain([first], numbers)))
    return _pieces(writer, buffer, rows, progress, family.count)


def _subsets(family: Family) -> bool:
    """Whether the family's IDs hold castling variations (``castling = "subsets"``)."""
    from solver.board.castling_rules import SubsetCastling

    return isinstance(family.ruleset.castling, SubsetCastling)


def _plain_pairs(family: Family) -> bool:
    """Whether each ID is ``white * side_count + black`` and nothing more."""
    return family.independent and not family.linked and not _subsets(family)


class _Whites(Pairs):
    """The pairs of some of White's ranks (``whites``: their indexes) with every
    rank of Black's, in ID order: a slice of a listing the line formats write
    from one template a White rank."""

    def __init__(self, ranks: list[str], whites: range) -> None:
        super().__init__(ranks)
        self.whites = whites

    def __len__(self) -> int:
        return len(self.whites) * len(self.ranks)

    def __iter__(self) -> Iterator[tuple[int, str, str]]:
        ranks = self.ranks
        n = len(ranks)
        for white in self.whites:
            rank = ranks[white]
            for black, other in enumerate(ranks):
                yield white * n + black, rank, other


def _pair_pieces(family: Family, writer: Writer, buffer: io.StringIO, table: list[str],
                 progress: Progress | None) -> Iterator[str]:
    """A whole independent-sides family in its own order, a block of White's ranks
    at a time (as ``solve`` writes it)."""
    n = len(table)
    step = max(1, CHUNK * 16 // n)
    for start in range(0, n, step):
        writer.write_rows(_Whites(table, range(start, min(n, start + step))))
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        if progress is not None:
            progress(min(n, start + step) * n, n * n)
    writer.end()
    if tail := buffer.getvalue():
        yield tail


#: One side's ranks listed for a whole-family book up to this many (else each looked up).
BOOK_SIDE_MAX: Final = 1 << 21


def _pieces(writer: Writer, buffer: io.StringIO, rows: Iterator[tuple[int, str, str]],
            progress: Progress | None, total: int) -> Iterator[str]:
    """The text of ``rows`` (``(id, white, black)``), :data:`CHUNK` rows at a time."""
    done = 0
    while block := list(islice(rows, CHUNK)):
        writer.write_rows(block)
        done += len(block)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        if progress is not None:
            progress(done, total)
    writer.end()
    if tail := buffer.getvalue():
        yield tail


def write_book(family: Family, out: str | TextIO, fmt: str = "epd", **options: object) -> int:
    """Write the book (:func:`book_text`; ``options`` as it takes them) to the file
    ``out``, atomically, or to the stream ``out``; returns how many positions."""
    from solver.files import write_atomic

    counted = [0]

    def count(done: int, total: int) -> None:
        counted[0] = done
        given = options.get("progress")
        if callable(given):
            given(done, total)

    kept = {k: v for k, v in options.items() if k != "progress"}
    pieces = book_text(family, fmt, progress=count, **kept)  # type: ignore[arg-type]
    if isinstance(out, str):
        write_atomic(out, pieces)
    else:
        for piece in pieces:
            out.write(piece)
        out.flush()
    return counted[0]
