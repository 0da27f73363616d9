"""``chess960 eval --engine``: a family's positions evaluated by any UCI engine,
in parallel, resumably, into a table (:mod:`solver.evaluation.table`).

* Each job runs one engine process (``Threads`` 1, so a fixed ``--nodes``
  gives the same figures on every run); jobs take the next ID not yet done.
* The engine is set up for the family (:func:`engine_setup`): ``UCI_Chess960``
  for the 8-file chess families, ``UCI_Variant`` ``caparandom`` (else
  ``capablanca``) for Capablanca's 10 files, which Fairy-Stockfish offers,
  and ``UCI_ShowWDL`` where offered (with ``wdl``, required: an engine without
  it is refused, and so is a search that ends with no ``wdl`` in its score).
* The table is locked (``flock``) while a run writes it: a second run on the
  same table is refused with one error, and a lock is never left behind (the
  system releases it however the run ends).
* Rows are appended to the table as they come, one whole line a write; an
  existing table (a run stopped by Ctrl-C, a crash or a full disk) is read
  first and its IDs skipped, a last line cut short is dropped, and a table of
  another family or with another header is refused. When every ID is done
  the table is rewritten in ID order, atomically, through a hidden
  ``.NAME.part`` beside it (a killed run's is removed by the next run).
* An ``-o`` ending in ``.sqlite`` (``.sqlite3``, ``.db``) is a stored table
  (:mod:`solver.evaluation.store`): rows are committed in transactions, at
  least every second, and a run resumed reads only their IDs, so a table of
  any family's size goes on in bounded time and memory; it records the
  engine, the limit and the shard, and a run with others is refused.
* ``shard=(K, N)`` evaluates every N-th of the IDs, starting with the K-th
  (:func:`shard`, as ``book --workers N --worker K`` slices a book): N runs,
  on as many machines, make N disjoint tables that ``chess960 eval merge``
  joins.
* Ctrl-C (or SIGTERM) ends the engines too: ``quit``, half a second, then
  SIGTERM and SIGKILL (:func:`~solver.evaluation.uci.stop_engines`).
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Final

from solver.errors import (
    EngineError,
    EvalTableError,
    IdError,
    OutputFileError,
    quote,
)
from solver.evaluation.store import StoreWriter, wants_store
from solver.evaluation.table import (
    COLUMNS,
    Evaluation,
    csv_lines,
    read_table,
    regular_file,
    verify,
)
from solver.evaluation.uci import Engine, Result, stop_engines

if TYPE_CHECKING:
    from solver.family import Family
    from solver.position import Position

#: The table's header line.
HEADER: Final = ",".join(COLUMNS) + "\n"


class Shard(Sequence[int]):
    """Every ``parts``-th of ``ids``, starting with the ``part``-th (from 1), never
    listed.

    >>> from solver.sampling import IdRanges
    >>> list(Shard(IdRanges([range(0, 5), range(10, 12)]), 2, 3)), len(Shard(range(7), 1, 3))
    ([1, 4], 3)
    """

    def __init__(self, ids: Sequence[int], part: int, parts: int) -> None:
        self.ids, self.part, self.parts = ids, part, parts

    def __len__(self) -> int:
        return max(0, -(-(len(self.ids) - self.part + 1) // self.parts))

    def __iter__(self) -> Iterator[int]:
        return islice(self.ids, self.part - 1, None, self.parts)

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self.ids[self.part - 1 + (index % len(self)) * self.parts]


def parse_shard(text: str) -> tuple[int, int]:
    """``K/N`` read: shard K of N.

    >>> parse_shard("2/3")
    (2, 3)

    Raises :class:`~solver.errors.IdError` for anything else, or K not from 1 to N.
    """
    part, slash, parts = text.partition("/")
    if not (slash and part.isascii() and part.isdigit() and parts.isascii()
            and parts.isdigit() and len(text) < 20):
        raise IdError(text, f"shard {quote(text)} is not K/N (such as 2/3: the second of "
                            "three)")
    if not 1 <= int(part) <= int(parts):
        raise IdError(text, f"shard {quote(text)} is not one of 1/{int(parts)} to "
                            f"{int(parts)}/{int(parts)}")
    return int(part), int(parts)


def shard(ids: Sequence[int], part: int, parts: int) -> Sequence[int]:
    """Shard ``part`` of ``parts`` of ``ids``: every ``parts``-th ID, starting with
    the ``part``-th, the definition ``book --workers N --worker K`` slices books
    by. The ``parts`` shards are disjoint, together they are ``ids``, and each
    is spread over all of them.

    >>> shard(range(960), 2, 3)
    range(1, 960, 3)

    Raises :class:`~solver.errors.IdError` for a part not from 1 to ``parts``.
    """
    if not 1 <= part <= parts:
        raise IdError(f"{part}/{parts}", f"shard {part}/{parts} is not one of 1/{parts} to "
                                         f"{parts}/{parts}")
    if isinstance(ids, range):
        return ids[part - 1::parts]
    return Shard(ids, part, parts)


@dataclass(frozen=True)
class Setup:
    """How an engine is set up for a family: options, and how a position's FEN is written."""

    options: dict[str, str]
    fen: Callable[[Position], str]
    words: str
    #: Whether every row must have W/D/L (``eval --wdl``).
    wdl: bool = False


def engine_setup(family: Family, engine: Engine, wdl: bool = False) -> Setup:
    """The options and FENs that make ``engine`` play ``family``'s game (with
    ``wdl``, and report its win/draw/loss model).

    Raises :class:`~solver.errors.EngineError` for a family on a board no UCI
    variant is known for, or an engine without the options it needs.
    """
    setup = _setup(family, engine)
    if not wdl:
        return setup
    if "UCI_ShowWDL" not in engine.options:
        raise EngineError(engine.engine, "offers no UCI_ShowWDL option, which --wdl needs "
                                         "(its win/draw/loss model): leave out --wdl, or use "
                                         "an engine that has one, such as Stockfish")
    return Setup(setup.options, setup.fen, f"{setup.words}, UCI_ShowWDL", True)


def _setup(family: Family, engine: Engine) -> Setup:
    """:func:`engine_setup` without ``wdl``."""
    from solver.notation.dialects import start_fen
    from solver.notation.fen import position_fen

    pieces = set(family.ruleset.pieces)
    files = family.ruleset.files
    options: dict[str, str] = {}
    offered = engine.options
    if "UCI_ShowWDL" in offered:
        options["UCI_ShowWDL"] = "true"
    if "Threads" in offered:
        options["Threads"] = "1"
    if family.layout.chessboard and pieces <= set("KQRBN"):
        if "UCI_Chess960" not in offered:
            raise EngineError(engine.engine, f"offers no UCI_Chess960 option, which "
                                             f"{family.name} positions need")
        options["UCI_Chess960"] = "true"
        variant = offered.get("UCI_Variant")
        if variant is not None and "chess" in variant.choices:
            options["UCI_Variant"] = "chess"
        return Setup(options, lambda p: position_fen(p, shredder=True),
                     "UCI_Chess960, Shredder-FEN")
    if family.layout.standard and files == 10 and {"A", "C"} <= pieces:
        variant = offered.get("UCI_Variant")
        choice = next((c for c in ("caparandom", "capablanca")
                       if variant is not None and c in variant.choices), None)
        if choice is None:
            raise EngineError(engine.engine, f"offers no UCI_Variant capablanca, which "
                                             f"{family.name} positions need (Fairy-Stockfish "
                                             "does)")
        options["UCI_Variant"] = choice
        if "UCI_Chess960" in offered:
            options["UCI_Chess960"] = "true"
        return Setup(options,
                     lambda p: start_fen(p.white, p.black, variant="capablanca", dialect="fsf"),
                     f"UCI_Variant {choice}, Fairy-Stockfish FEN")
    raise EngineError(engine.engine, f"no UCI set-up is known for {family.name} ({files} "
                                     "files): `eval --engine` plays the 8-file chess "
                                     "families and Capablanca's 10 files")


def evaluation(number: int, fen: str, engine: str, limit: str, result: Result,
               white_to_move: bool = True) -> Evaluation:
    """A table row from an engine's result (scores turned to White's point of view).

    >>> evaluation(5, "f", "E", "nodes 9", Result(55, None, (1, 2, 3), 8, 9, 0.004, "e2e4")).row()
    ... # doctest: +NORMALIZE_WHITESPACE
    {'id': '5', 'fen': 'f', 'engine': 'E', 'limit': 'nodes 9', 'depth': '8', 'nodes': '9',
     'time': '0.004', 'eval': '0.55', 'mate': '', 'wins': '1', 'draws': '2', 'losses': '3'}
    """
    sign = 1 if white_to_move else -1
    wdl = result.wdl if white_to_move or result.wdl is None else result.wdl[::-1]
    return Evaluation(number, fen, engine, limit, result.depth, result.nodes, result.time,
                      None if result.cp is None else round(sign * result.cp / 100, 2),
                      None if result.mate is None else sign * result.mate,
                      *(wdl if wdl is not None else (None, None, None)))


@dataclass(frozen=True)
class Summary:
    """What a run did: IDs asked for, already in the table, evaluated now."""

    asked: int
    skipped: int
    done: int
    engine: str
    setup: str


def lock_table(path: str) -> int:
    """The table at ``path`` (made empty if absent) opened and locked for this run
    alone (``flock``, released when the descriptor is closed or the process ends,
    however it ends).

    Raises :class:`~solver.errors.EvalTableError` when another run holds it.
    """
    import fcntl
    import stat

    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            mine, now = os.fstat(fd), os.stat(path, follow_symlinks=False)
        except BlockingIOError:
            os.close(fd)
            raise EvalTableError(path, 0, "is being written by another `chess960 eval "
                                          "--engine` run: let it end, or give another "
                                          "-o FILE") from None
        except BaseException:
            os.close(fd)
            raise
        if (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino):
            if stat.S_ISREG(mine.st_mode):
                return fd
            os.close(fd)
            raise EvalTableError(path, 0, "is not a regular file")
        os.close(fd)  # the run before rewrote it meanwhile: lock the new file


def _partial(path: str) -> str:
    """The hidden file beside the table that its rewrite in ID order is made in
    (left by a run killed then; removed by the next run, which holds the lock).

    >>> _partial("out/sf.csv")
    'out/.sf.csv.part'
    """
    folder, base = os.path.split(path)
    if len(base) > 240:
        import hashlib

        base = f"{base[:200]}-{hashlib.sha256(base.encode()).hexdigest()[:16]}"
    return os.path.join(folder, f".{base}.part")


def resume(path: str, fd: int, family: Family) -> set[int]:
    """The IDs already in the table at ``path`` (open and locked as ``fd``; given
    its header if empty); a last line cut short is dropped, and a rewrite a
    killed run left is removed."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(_partial(path))
    header = HEADER.encode()
    with open(fd, "rb", closefd=False) as handle:
        start = handle.read(len(header))
        if len(start) < len(header) and header.startswith(start):  # empty, or cut short
            os.ftruncate(fd, 0)
            os.pwrite(fd, header, 0)
            return set()
        if start != header:
            raise EvalTableError(path, 1, "is not a table `chess960 eval` writes (its header "
                                          "differs): give another -o FILE")
        size = os.fstat(fd).st_size
        if os.pread(fd, 1, size - 1) != b"\n":
            end = size
            while end > len(header):  # back to the last line break, a block at a time
                block = os.pread(fd, min(1 << 16, end - len(header)),
                                 max(len(header), end - (1 << 16)))
                at = block.rfind(b"\n")
                if at >= 0:
                    end = end - len(block) + at + 1
                    break
                end -= len(block)
            os.ftruncate(fd, end)
    table = read_table(path, count=family.count)
    verify(table, family)
    return set(table.rows)


def evaluate(family: Family, engine: str, *, ids: Sequence[int], out: str,
             nodes: int | None = None, depth: int | None = None, jobs: int = 1,
             timeout: float = 600.0,
             progress: Callable[[int, int], None] | None = None,
             wdl: bool = False, part: tuple[int, int] | None = None) -> Summary:
    """Evaluate ``ids`` of ``family`` with ``engine`` (a path or a name) into the
    table ``out`` (see the module); ``progress(done, total)`` after each; with
    ``wdl``, each row's W/D/L required (``UCI_ShowWDL``); ``part``: ``(K, N)``,
    only shard K of N of ``ids`` (:func:`shard`)."""
    if (nodes is None) == (depth is None):
        raise EngineError(engine, "give one limit: nodes or depth")
    limit = f"nodes {nodes}" if nodes is not None else f"depth {depth}"
    if part is not None:
        ids = shard(ids, *part)
    regular_file(out, links=False)  # before an engine is started for nothing
    first = Engine(engine, timeout)  # asked for its options, then the first job's engine
    try:
        setup = engine_setup(family, first, wdl)
        name = first.name
        try:
            fd = lock_table(out)
        except OSError as exc:
            raise OutputFileError(out, (exc.strerror or str(exc)).lower()) from None
        return _locked(family, engine, ids, out, fd, limit, nodes, depth, jobs, timeout, setup,
                       name, progress, part, [first])
    finally:
        first.close()


def _locked(family: Family, engine: str, ids: Sequence[int], out: str, fd: int, limit: str,
            nodes: int | None, depth: int | None, jobs: int, timeout: float, setup: Setup,
            name: str, progress: Callable[[int, int], None] | None,
            part: tuple[int, int] | None, spare: list[Engine]) -> Summary:
    """:func:`evaluate`, once the table is locked (as ``fd``, closed here)."""
    try:
        writer = _writer(family, out, fd, {"engine": name, "limit": limit} | (
            {} if part is None else {"shard": f"{part[0]}/{part[1]}"}))
        try:
            summary = _run(family, engine, ids, out, writer, limit, nodes, depth, jobs,
                           timeout, setup, name, progress, spare)
        finally:
            try:
                writer.close()
            except OSError as exc:
                raise OutputFileError(out, (exc.strerror or str(exc)).lower()) from None
        if isinstance(writer, _CsvRows):
            sort_table(out, family)
        return summary
    finally:
        os.close(fd)


class _CsvRows:
    """Rows appended to a CSV table (open and locked as ``fd``), one whole line
    a write; its IDs already there in :attr:`done`."""

    def __init__(self, path: str, fd: int, family: Family) -> None:
        self.done: set[int] = resume(path, fd, family)
        self._handle = open(os.dup(fd), "a", encoding="utf-8", newline="")  # noqa: SIM115

    def add(self, row: Evaluation) -> None:
        self._handle.write(csv_lines([row], header=False))
        self._handle.flush()

    def close(self) -> None:
        try:
            os.fsync(self._handle.fileno())
        finally:
            self._handle.close()


class _StoreTable:
    """Rows added to a stored table; its IDs already there in :attr:`done`, kept
    as the gaps between them (bounded and quick, whatever the table's size)."""

    def __init__(self, path: str, family: Family, setup: dict[str, str]) -> None:
        self._writer = StoreWriter(path, family, setup)
        self.done = _Gaps(self._writer.gaps(family.count))
        self.add = self._writer.add
        self.close = self._writer.close


def _within(part: range, gap: range) -> range:
    """The IDs of ``part`` (a step up) inside ``gap`` (step 1), as a range.

    >>> _within(range(1, 20, 3), range(5, 11)), _within(range(0, 5), range(7, 9))
    (range(7, 13, 3), range(5, 5))
    """
    step = part.step
    first = max(0, -(-(gap.start - part.start) // step))
    last = max(first, min(len(part), -(-(gap.stop - part.start) // step)))
    return part[first:last]


class _Gaps:
    """The IDs done, kept as the sorted disjoint ranges of those not done.

    >>> done = _Gaps([range(0, 2), range(5, 7)])
    >>> 1 in done, 3 in done, list(done.missing(range(0, 10, 2))), done.among(range(0, 10))
    (False, True, [0, 6], 6)
    """

    def __init__(self, gaps: list[range]) -> None:
        self.gaps = gaps
        self._starts = [gap.start for gap in gaps]

    def __contains__(self, number: int) -> bool:
        from bisect import bisect_right

        at = bisect_right(self._starts, number) - 1
        return not (at >= 0 and number in self.gaps[at])

    def _parts(self, ids: Sequence[int]) -> list[range] | None:
        from solver.sampling import IdRanges

        parts = [ids] if isinstance(ids, range) else (
            ids.ranges if isinstance(ids, IdRanges) else None)
        return None if parts is None or any(p.step < 0 for p in parts) else parts

    def missing(self, ids: Sequence[int]) -> Iterator[int]:
        """The IDs of ``ids`` not done, in their order."""
        parts = self._parts(ids)
        if parts is None:
            yield from (number for number in ids if number not in self)
            return
        for part in parts:
            for gap in self.gaps:
                yield from _within(part, gap)

    def among(self, ids: Sequence[int]) -> int:
        """How many of ``ids`` are done."""
        parts = self._parts(ids)
        if parts is None:
            return sum(1 for number in ids if number in self)
        return len(ids) - sum(len(_within(part, gap)) for part in parts for gap in self.gaps)


def _writer(family: Family, out: str, fd: int, setup: dict[str, str]) -> _CsvRows | _StoreTable:
    """The writer of the table ``out`` (open and locked as ``fd``): stored or CSV."""
    try:
        if wants_store(out):
            return _StoreTable(out, family, setup)
        return _CsvRows(out, fd, family)
    except OSError as exc:
        raise EvalTableError(out, 0, (exc.strerror or str(exc)).lower()) from None


def _run(family: Family, engine: str, ids: Sequence[int], out: str,
         writer: _CsvRows | _StoreTable, limit: str, nodes: int | None, depth: int | None,
         jobs: int, timeout: float, setup: Setup, name: str,
         progress: Callable[[int, int], None] | None,
         spare: list[Engine] | None = None) -> Summary:
    """:func:`evaluate`, once the table is locked and open (``writer``); ``spare``:
    engines already started, which jobs take before starting their own."""
    done = writer.done
    skipped = done.among(ids) if isinstance(done, _Gaps) else count_among(done, ids)
    remaining = len(ids) - skipped
    jobs = max(1, min(jobs, remaining))
    work: Iterator[int] = (done.missing(ids) if isinstance(done, _Gaps)  # never listed
                           else (number for number in ids if number not in done))
    lock = threading.Lock()
    results: queue.Queue[Evaluation | BaseException | None] = queue.Queue()
    stop = threading.Event()

    def next_id() -> int | None:
        with lock:
            return None if stop.is_set() else next(work, None)

    def worker() -> None:
        with lock:
            started = spare.pop() if spare else None
        _work(family, engine, timeout, setup, name, limit, nodes, depth, next_id, results,
              started)

    threads = ([threading.Thread(target=worker, daemon=True) for _ in range(jobs)]
               if remaining else [])
    for thread in threads:
        thread.start()
    finished = 0
    count = 0
    failure: BaseException | None = None
    try:
        while finished < len(threads):
            item = results.get()
            if item is None:
                finished += 1
            elif isinstance(item, BaseException):
                failure = failure or item
                stop.set()
            else:  # rows that came after a failure are kept too
                writer.add(item)
                count += 1
                if progress is not None:
                    progress(skipped + count, len(ids))
    except OSError as exc:  # a full disk: the rows written so far stay, for a rerun
        stop.set()
        raise OutputFileError(out, (exc.strerror or str(exc)).lower()) from None
    except KeyboardInterrupt:  # in-process (the command's own handler stops engines too)
        stop.set()
        stop_engines()
        raise
    if failure is not None:
        raise failure
    return Summary(len(ids), skipped, count, name, setup.words)


def count_among(done: Iterable[int], ids: Sequence[int]) -> int:
    """How many of ``ids`` (given once each) are in ``done``, without listing
    ``ids`` when it is a range (a range of ranges, say ``0-149320543``).

    >>> from solver.sampling import IdRanges
    >>> count_among({1, 5, 9}, IdRanges([range(0, 6)])), count_among({1, 5, 9}, [9, 2])
    (2, 1)
    """
    from solver.sampling import IdRanges

    members: Sequence[int] | frozenset[int] = (
        ids if isinstance(ids, range | IdRanges) else frozenset(ids))
    return sum(1 for number in done if number in members)


def _work(family: Family, engine: str, timeout: float, setup: Setup, name: str, limit: str,
          nodes: int | None, depth: int | None, next_id: Callable[[], int | None],
          results: queue.Queue[Evaluation | BaseException | None],
          started: Engine | None = None) -> None:
    """One job: an engine process (``started``, or one started here) evaluating IDs
    from ``next_id`` until none is left, each row (or the error that stopped it)
    put on ``results``, then ``None``."""
    from solver.notation.fen import position_fen

    try:
        with started or Engine(engine, timeout) as running:
            for option, value in setup.options.items():
                running.set_option(option, value)
            running.ready()
            while (number := next_id()) is not None:
                position = family.position(number)
                result = running.analyse(setup.fen(position), nodes=nodes, depth=depth)
                if setup.wdl and result.wdl is None:
                    raise EngineError(engine, f"gave no 'wdl' with its last score for id "
                                              f"{number}, though UCI_ShowWDL is on (--wdl)")
                results.put(evaluation(number, position_fen(position), name, limit, result))
    except BaseException as exc:  # reported by the main thread
        results.put(exc)
    finally:
        results.put(None)


def sort_table(path: str, family: Family) -> None:
    """Rewrite the table in ID order, atomically (through :func:`_partial`, which
    Ctrl-C removes; a SIGKILL leaves it to the next run)."""
    from solver.files import replacing

    table = read_table(path, count=family.count)
    with replacing(path, _partial(path)) as partial:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
                     | os.O_CLOEXEC, 0o600)
        with open(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(csv_lines([table.rows[n] for n in sorted(table.rows)], header=True))
            handle.flush()
            os.fchmod(handle.fileno(), os.stat(path).st_mode & 0o777)
            os.fsync(handle.fileno())
