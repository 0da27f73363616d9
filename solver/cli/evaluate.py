"""What ``chess960 eval`` does: show each source's figures for positions, with
their provenance and spread, or make a table with a UCI engine (``--engine``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from solver.cli.errors import FAILED, failed, report, reported
from solver.cli.inputs import load_family
from solver.errors import Chess960Error
from solver.idlists import read_listed

if TYPE_CHECKING:
    from solver.numbering.shortcut import Shortcut
    from solver.position import Position


class _Plain:
    """A position read by the family's shortcut: its ID, White's rank and Black's
    (the shortcut's families mirror White)."""

    __slots__ = ("black", "id", "white")

    def __init__(self, number: int, rank: str) -> None:
        self.id, self.white, self.black = number, rank, rank


def _plain_position(quick: Shortcut, text: str) -> _Plain | None:
    """``text`` (a plain ID, or a rank in upper-case letters) read by ``quick``, else
    None (the family reads it).

    >>> from solver.numbering.shortcut import Arithmetic
    >>> [(p.id, p.white) for p in map(lambda t: _plain_position(Arithmetic(), t),
    ...                                ["518", "QNRBBNKR"]) if p is not None]
    [(518, 'RNBQKBNR'), (105, 'QNRBBNKR')]
    >>> _plain_position(Arithmetic(), "0518") is None
    True
    """
    number = quick.number(text)
    if number is None:
        number = quick.id_of(text)
    if number is None:
        return None
    rank = quick.rank(number)
    return None if rank is None else _Plain(number, rank)


@reported
def figures_command(rules: str, texts: Sequence[str], fmt: str, tables: Sequence[str], *,
                    out: TextIO, err: TextIO) -> int:
    """``chess960 eval POSITION...``: each source's figures for each position
    (``tables``: these files instead of the shipped sources)."""
    from solver.evaluation.sources import (
        figures_document,
        figures_text,
        position_figures,
        shipped,
        tables_for,
    )
    from solver.numbering.shortcut import choose

    # plain text from the shipped sources: the family's shortcut, when one is on
    # (the shipped Chess960's arithmetic), reads a plain ID or rank without loading it
    quick = choose(rules).shortcut if fmt == "text" and not tables else None
    family = None if quick is not None else load_family(rules)
    used = tables_for(family, list(tables)) if tables and family is not None else None
    name = quick.name if quick is not None else family.name if family is not None else ""
    if used is None and not shipped(name):
        report(out, err, f"no evaluation data is shipped for {name}: make a table "
                         "with `chess960 eval --engine ... -o FILE` and show it with "
                         "--eval-table FILE")
        return FAILED
    bad = False
    documents = []
    shown: dict[str, str] = {}
    for text in texts:
        position: Position | _Plain | None = (
            None if quick is None else _plain_position(quick, text))
        try:
            if position is None:
                if family is None:
                    family = load_family(rules)
                position = read_listed(family, text)
        except Chess960Error as exc:
            report(out, err, exc)
            bad = True
            continue
        found = position_figures(name, position.id, used)
        for figures in found:
            shown.setdefault(figures.table.name, figures.provenance())
        if fmt == "json":
            assert family is not None and not isinstance(position, _Plain)  # (no shortcut)
            documents.append(figures_document(family, position, found))
        else:
            out.write(figures_text(name, position, found))
    if fmt == "json":
        out.write(json.dumps(documents, ensure_ascii=False, indent=1) + "\n")
    elif shown:
        out.write("sources:\n" + "".join(f"  {line}\n" for line in shown.values()))
    out.flush()
    return FAILED if bad else 0


def engine_command(rules: str, engine: str, *, nodes: int | None, depth: int | None,
                   ids: str | None, jobs: int, output: str, timeout: float,
                   out: TextIO, err: TextIO, wdl: bool = False,
                   shard: str | None = None, scheduler: str | None = None) -> int:
    """``chess960 eval --engine``: a table of ``ids`` (all by default; ``shard``
    ``K/N``: shard K of them) in ``output``, progress and a summary on ``err``;
    ``wdl``: with the engine's W/D/L in every row; on the Dask cluster ``scheduler``
    when given (:mod:`solver.evaluation.cluster`)."""
    from solver.evaluation.run import evaluate, parse_shard
    from solver.evaluation.run import shard as shard_ids
    from solver.evaluation.table import visible
    from solver.idlists import id_ranges

    try:
        part = None if shard is None else parse_shard(shard)
        family = load_family(rules)
        numbers = id_ranges(family, [ids]) if ids is not None else range(family.count)
        live = bool(getattr(err, "isatty", lambda: False)())
        step = max(1, -(-len(numbers if part is None else shard_ids(numbers, *part)) // 10))

        def progress(done: int, total: int) -> None:
            if live:
                err.write(f"\reval: {done:,}/{total:,} positions")
                err.flush()
            elif done % step == 0 or done == total:
                err.write(f"eval: {done:,}/{total:,} positions\n")

        if scheduler is not None:
            from solver.evaluation.cluster import evaluate_on_cluster

            summary = evaluate_on_cluster(family, rules, engine, scheduler=scheduler,
                                          ids=numbers, out=output, nodes=nodes, depth=depth,
                                          timeout=timeout, progress=progress, wdl=wdl,
                                          part=part)
        else:
            summary = evaluate(family, engine, ids=numbers, out=output, nodes=nodes,
                               depth=depth, jobs=jobs, timeout=timeout, progress=progress,
                               wdl=wdl, part=part)
        if live and summary.done:
            err.write("\n")
        limit = f"nodes {nodes}" if nodes is not None else f"depth {depth}"
        sharded = "" if part is None else f" (shard {part[0]}/{part[1]})"
        err.write(f"eval: {visible(output)}: {summary.asked:,} {family.name} positions"
                  f"{sharded}, "
                  f"{summary.skipped:,} already there, {summary.done:,} evaluated by "
                  f"{visible(summary.engine)} ({limit}; {summary.setup})\n")
    except (Chess960Error, KeyboardInterrupt) as exc:
        if "live" in locals() and live:
            err.write("\n")
        return failed(out, err, exc)
    return 0


@reported
def merge_command(rules: str, tables: Sequence[str], output: str, *, out: TextIO,
                  err: TextIO) -> int:
    """``chess960 eval merge``: ``tables`` joined into ``output``, a summary on ``err``."""
    from solver.evaluation.merge import merge_tables
    from solver.evaluation.table import visible

    family = load_family(rules)
    merged = merge_tables(family, tables, output)
    setup = ", ".join(visible(v) for v in merged.setup.values()) or "set-up not named"
    err.write(f"eval merge: {visible(output)}: {merged.rows:,} {family.name} positions "
              f"from {merged.tables} table{'' if merged.tables == 1 else 's'} ({setup})\n")
    return 0
