"""The evaluation tables shipped with the package, with their provenance, and
a position's figures from each (``chess960 eval ID``).

Three MIT-licensed tables of all 960 Chess960 positions, keyed by SP-ID
(``solver/evaluation/data/README.md`` says where each came from, under which
licence, and how it was converted; ``tests/test_evaluation.py`` checks each
row's FEN against the family). The first two are the family's default
sources (``eval ID`` and ``--balanced`` use them unless told otherwise); the
third, eval960's depth-32 run, is used when named: ``--eval-table eval960-d32``
(a shipped source's name stands for its table wherever a table file is taken).

>>> [s.name for s in SOURCES]
['eval960', 'evalanalyzer', 'eval960-d32']
>>> figures = position_figures("chess960", 80)
>>> [(f.source.name, f.evaluation.score()) for f in figures]
[('eval960', '+0.40'), ('evalanalyzer', '+0.80')]
>>> spread(figures)
0.4
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from solver.evaluation.table import EvalTable, Evaluation, read_text, visible

if TYPE_CHECKING:
    from solver.family import Family
    from solver.position import Position


@dataclass(frozen=True)
class Source:
    """A shipped table and where it came from."""

    #: The name ``--balanced NAME:...`` takes.
    name: str
    #: The family whose IDs key it.
    family: str
    #: Its file in ``solver/evaluation/data``.
    file: str
    #: Who made it, and where.
    origin: str
    url: str
    #: The upstream commit it was taken from, and that commit's date.
    commit: str
    date: str
    licence: str
    engine: str
    #: The search limit, in words.
    limit: str
    #: What it gives besides the eval.
    gives: str
    #: Whether ``eval ID`` and the bands use it when no table is given (else by name).
    default: bool = True


SOURCES: Final = (
    Source("eval960", "chess960", "eval960.csv", "clfs/eval960 (Calvin Figuereo-Supraner)",
           "https://github.com/clfs/eval960", "71c276387e17fe0b74e1eb89cf1fcb1db6c84507",
           "2026-01-29", "MIT", "Stockfish 17.1",
           "1 s a position (953 rows; 5 rows about 100,000 nodes, 2 longer), 1 thread, "
           "1 GiB hash; depth, nodes and time per row",
           "eval, W/D/L per mille"),
    Source("evalanalyzer", "chess960", "evalanalyzer.csv",
           "bariskisir/Chess960EvalAnalyzer (Barış Kısır)",
           "https://github.com/bariskisir/Chess960EvalAnalyzer",
           "92a9710ef3054f53db292cb7c36344848c3e870f", "2026-02-14", "MIT", "Stockfish 18",
           "depth 25", "eval"),
    Source("eval960-d32", "chess960", "eval960-d32.csv",
           "clfs/eval960 (Calvin Figuereo-Supraner), stockfish_17_1_depth_32.jsonl",
           "https://github.com/clfs/eval960", "a78d20903a3c9b3e75cb16d994ec6741d83527b3",
           "2026-01-27", "MIT", "Stockfish 17.1",
           "depth 32 (median 23.3 s a position; one process, in ID order; threads and hash "
           "not recorded); depth, nodes and time per row",
           "eval, W/D/L per mille", default=False),
)

#: Each family's named subsets (``--preset NAME``: only these positions): name -> the
#: file in ``solver/evaluation/data`` listing them, one ``WHITE black`` pair of ranks a
#: line (:func:`subset_ids` reads it; the data's README says whose it is).
SUBSETS: Final[dict[str, dict[str, str]]] = {
    "dfrc": {"dfrc4852": "dfrc4852.txt"},
}

_LOADED: dict[str, EvalTable] = {}


def source_named(name: str) -> Source | None:
    """The shipped source called ``name``, or ``None``."""
    return next((s for s in SOURCES if s.name == name), None)


def shipped(family: str) -> list[Source]:
    """The default shipped sources keyed by ``family``'s IDs (by name: the lead's
    numbering work may re-point this one function); the others are used by name
    (:func:`tables_for`).

    >>> [s.name for s in shipped("chess960")], shipped("dfrc")
    (['eval960', 'evalanalyzer'], [])
    """
    return [s for s in SOURCES if s.family == family and s.default]


def load_source(source: Source) -> EvalTable:
    """The shipped table of ``source`` (read once a process)."""
    table = _LOADED.get(source.name)
    if table is None:
        from importlib.resources import files

        data = files("solver.evaluation").joinpath("data", source.file).read_bytes()
        table = read_text(data.decode("utf-8"), f"<shipped {source.file}>", source.name)
        _LOADED[source.name] = table
    return table


@dataclass(frozen=True)
class Figures:
    """One source's figures for one position (``evaluation`` None: not in the table)."""

    source: Source | None
    table: EvalTable
    evaluation: Evaluation | None

    def search(self) -> str:
        """What the search behind the row was: its limit, or what it reached."""
        row = self.evaluation
        assert row is not None
        parts = [row.limit] if row.limit else []
        if row.depth is not None and f"depth {row.depth}" != row.limit:
            parts.append(f"depth {row.depth}")
        if row.nodes is not None:
            parts.append(f"{row.nodes:,} nodes")
        if row.time is not None:
            parts.append(f"{row.time:g} s")
        if not parts and self.source is not None:
            parts.append(self.source.limit.split(" (")[0])
        return ", ".join(parts)

    def provenance(self) -> str:
        """Where the figures come from: the source's origin, licence and engine,
        or the table's file, engines, limits and size."""
        source = self.source
        if source is None:
            table = self.table
            engines = ", ".join(visible(e) for e in table.engines() if e) or "engine not named"
            limits = ", ".join(visible(limit) for limit in table.limits()) or "limit not named"
            return (f"{visible(table.name)}: {visible(table.path)}, {engines}, {limits}, "
                    f"{len(table.rows):,} positions")
        return (f"{source.name}: {source.origin}, {source.licence}, {source.url} at "
                f"{source.commit[:7]} ({source.date}); {source.engine}, {source.limit}; "
                f"gives {source.gives}")


def position_figures(family: str, number: int,
                     tables: list[EvalTable] | None = None) -> list[Figures]:
    """Each source's figures for position ``number``: the shipped sources of
    ``family``, or the given ``tables`` (their source ``None``)."""
    if tables is None:
        return [Figures(s, t, t.rows.get(number))
                for s in shipped(family) for t in [load_source(s)]]
    return [Figures(source_named(t.name) if t.path.startswith("<shipped") else None, t,
                    t.rows.get(number)) for t in tables]


def spread(figures: list[Figures]) -> float | None:
    """The highest eval less the lowest, in pawns, over the sources that give
    one (``None`` with fewer than two, or a mate among them)."""
    values = [f.evaluation.pawns for f in figures if f.evaluation is not None]
    if len(values) < 2 or any(v is None for v in values):
        return None
    found = [v for v in values if v is not None]
    return round(max(found) - min(found), 6)


def tables_for(family: Family, paths: list[str]) -> list[EvalTable]:
    """The tables a command uses for ``family``: the files ``paths`` when given
    (a path that is no file but a shipped source's name of the family, such as
    ``eval960-d32``, stands for that source; CSV or stored,
    :func:`~solver.evaluation.store.open_table`, each checked against the family,
    :func:`~solver.evaluation.merge.check`), those of one engine set-up joined as
    one source (:func:`~solver.evaluation.merge.combine`: the shards of one run,
    two machines' tables); else the default shipped ones (checked too: an edited
    rule file is refused).

    >>> from solver.family import Family
    >>> [t.name for t in tables_for(Family.load("chess960"), ["eval960-d32"])]
    ['eval960-d32']
    """
    import os

    from solver.evaluation.merge import check, combine
    from solver.evaluation.store import open_table

    def opened(path: str) -> EvalTable:
        source = source_named(path)
        if source is not None and source.family == family.name and not os.path.exists(path):
            return load_source(source)
        return open_table(path, count=family.count)

    tables = ([opened(p) for p in paths] if paths
              else [load_source(s) for s in shipped(family.name)])
    for table in tables:
        check(table, family)
    return combine(tables) if paths else tables


def subset_ids(family: Family, name: str) -> list[int]:
    """The IDs of ``family``'s named subset ``name`` (``--preset``), sorted: the
    pairs of ranks its file lists (:data:`SUBSETS`), each
    looked up in the family's own side numbering.

    >>> from solver.family import Family
    >>> found = subset_ids(Family.load("dfrc"), "dfrc4852")
    >>> len(found), found[:3]
    (20797, [3, 44, 64])

    Raises :class:`~solver.errors.IdError` for a name that is not one of the
    family's subsets, and when the family's sides are not independent.
    """
    from importlib.resources import files

    from solver.errors import IdError

    own = SUBSETS.get(family.name, {})
    if name not in own:
        names = ", ".join(sorted(own)) or "none"
        raise IdError(name, f"preset {name!r} is not a named subset of {family.name} "
                            f"(its subsets: {names})")
    if not family.independent:  # pragma: no cover - every subset's family has two sides
        raise IdError(name, f"preset {name!r} needs independent sides")
    text = files("solver.evaluation").joinpath("data", own[name]).read_text("ascii")
    table = family.side_table()
    index = {rank: i for i, rank in enumerate(table)}
    count = len(table)
    found = set()
    for line in text.splitlines():
        white, black = line.split()
        if white not in index or black.upper() not in index:  # an edited rule file
            raise IdError(name, f"preset {name!r} lists {line!r}, not a position of "
                                f"{family.name}")
        found.add(index[white] * count + index[black.upper()])
    return sorted(found)


class Placed(Protocol):
    """A position's ID and its back ranks (a :class:`~solver.position.Position`,
    or a shortcut's answer)."""

    @property
    def id(self) -> int: ...
    @property
    def white(self) -> str: ...
    @property
    def black(self) -> str: ...


def position_words(position: Placed) -> str:
    """White's rank, and Black's after a space when it differs."""
    if position.black == position.white:
        return position.white
    return f"{position.white} {position.black.lower()}"


def figures_text(family: str, position: Placed, found: list[Figures]) -> str:
    """What ``chess960 eval`` writes of the figures ``found`` for ``position``
    of ``family``: a line naming it, a table of the sources, and their spread."""
    rows = [("source", "eval", "W/D/L", "engine", "search")]
    for figures in found:
        row = figures.evaluation
        if row is None:
            rows.append((visible(figures.table.name), "-", "", "", "not in the table"))
            continue
        wdl = ("/".join(str(v) for v in (row.wins, row.draws, row.losses))
               if row.wins is not None else "")
        rows.append((visible(figures.table.name), row.score(), wdl, visible(row.engine),
                     visible(figures.search())))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = [f"{family} {position.id} {position_words(position)}"]
    for cells in rows:
        lines.append("  " + "  ".join(c.rjust(w) if i == 1 else c.ljust(w)
                                      for i, (c, w) in enumerate(zip(cells, widths, strict=True))
                                      ).rstrip())
    apart = spread(found)
    if apart is not None:
        lines.append(f"  spread {apart:.2f} pawns (the highest eval less the lowest)")
    return "\n".join(lines) + "\n"


def figures_document(family: Family, position: Position, found: list[Figures]
                     ) -> dict[str, Any]:
    """``chess960 eval --format json``'s document of the figures ``found`` for ``position``."""
    from solver.notation.fen import position_fen

    sources = []
    for figures in found:
        entry: dict[str, Any] = {"source": figures.table.name}
        row = figures.evaluation
        if row is not None:
            entry.update({"eval": row.pawns, "mate": row.mate, "wins": row.wins,
                          "draws": row.draws, "losses": row.losses, "engine": row.engine,
                          "limit": row.limit, "depth": row.depth, "nodes": row.nodes,
                          "time": row.time})
        source = figures.source
        if source is not None:
            entry.update({"origin": source.origin, "url": source.url, "commit": source.commit,
                          "date": source.date, "licence": source.licence,
                          "table_engine": source.engine, "table_limit": source.limit})
        else:
            entry["path"] = figures.table.path
        sources.append(entry)
    return {"family": family.name, "id": position.id, "rank": position_words(position),
            "fen": position_fen(position), "sources": sources, "spread": spread(found)}
