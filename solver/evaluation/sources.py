"""The evaluation tables shipped with the package, with their provenance, and
a position's figures from each (``chess960 eval ID``).

Two MIT-licensed tables of all 960 Chess960 positions, keyed by SP-ID
(``solver/evaluation/data/README.md`` says where each came from, under which
licence, and how it was converted; ``tests/test_evaluation.py`` checks each
row's FEN against the family):

>>> [s.name for s in SOURCES]
['eval960', 'evalanalyzer']
>>> figures = position_figures("chess960", 80)
>>> [(f.source.name, f.evaluation.score()) for f in figures]
[('eval960', '+0.40'), ('evalanalyzer', '+0.80')]
>>> spread(figures)
0.4
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from solver.evaluation.table import EvalTable, Evaluation, read_text

if TYPE_CHECKING:
    from solver.family import Family


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
)

_LOADED: dict[str, EvalTable] = {}


def source_named(name: str) -> Source | None:
    """The shipped source called ``name``, or ``None``."""
    return next((s for s in SOURCES if s.name == name), None)


def shipped(family: str) -> list[Source]:
    """The shipped sources keyed by ``family``'s IDs (by name: the lead's
    numbering work may re-point this one function).

    >>> [s.name for s in shipped("chess960")], shipped("dfrc")
    (['eval960', 'evalanalyzer'], [])
    """
    return [s for s in SOURCES if s.family == family]


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


def position_figures(family: str, number: int,
                     tables: list[EvalTable] | None = None) -> list[Figures]:
    """Each source's figures for position ``number``: the shipped sources of
    ``family``, or the given ``tables`` (their source ``None``)."""
    if tables is None:
        return [Figures(s, t, t.rows.get(number))
                for s in shipped(family) for t in [load_source(s)]]
    return [Figures(None, t, t.rows.get(number)) for t in tables]


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
    (CSV or stored, :func:`~solver.evaluation.store.open_table`, each checked
    against the family, :func:`~solver.evaluation.merge.check`), those of one
    engine set-up joined as one source (:func:`~solver.evaluation.merge.combine`:
    the shards of one run, two machines' tables); else the shipped ones (checked
    too: an edited rule file is refused)."""
    from solver.evaluation.merge import check, combine
    from solver.evaluation.store import open_table

    tables = ([open_table(p, count=family.count) for p in paths] if paths
              else [load_source(s) for s in shipped(family.name)])
    for table in tables:
        check(table, family)
    return combine(tables) if paths else tables
