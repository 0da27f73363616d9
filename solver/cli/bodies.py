"""What the common commands do once their command line is parsed, one function a
command, without Typer.

Each function takes exactly the parameters of the Typer command of the same
name in :mod:`solver.cli.app` (names and defaults; a test holds them equal),
and both ways in call it: the Typer command, whose body is this call alone, and
the quick path of :mod:`solver.cli.entry`, which parses with the table
generated from the Typer app (:mod:`solver.cli.quick_table`). Each writes to
the standard streams and returns the exit code; a usage error (options that do
not go together) is a :class:`Usage`, which the Typer command words as Click
does and on which the quick path hands the command line to Typer.

The option callbacks (:func:`check_format`, ...) are here too, so that the
quick path runs the same checks Typer runs; they import Typer only to refuse.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Any

#: :data:`solver.kinds.model.MAX_ARRANGEMENTS` (a test holds them equal), written
#: here so that the quick path does not import the search model for a default.
MAX_ARRANGEMENTS = 6_000_000


class Usage(Exception):  # noqa: N818  (a usage error, worded by Click)
    """Options that do not go together: Click's usage error, about the option
    ``hint`` (``"'--format'"``) when one is named."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def typer_call(body: Callable[..., int], arguments: dict[str, Any]) -> None:
    """The body of a Typer command: ``body`` called with the command's
    ``arguments``; a :class:`Usage` error becomes Click's, the exit code Typer's."""
    import typer

    try:
        code = body(**arguments)
    except Usage as exc:
        if exc.hint is None:
            usage = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
            raise usage(exc.message) from None
        raise typer.BadParameter(exc.message, param_hint=exc.hint) from None
    if code:
        raise typer.Exit(code)


def _bad(message: str) -> Exception:
    import typer

    return typer.BadParameter(message)


def _one_of(value: str, allowed: Any, hint: str) -> None:
    if value not in allowed:
        raise Usage(f"{value!r} is not one of {', '.join(allowed)}", hint)


# -- the options' callbacks (Typer runs them while parsing; so does the quick path) --


#: The callbacks that only check a value is one of a registry's names, and where
#: that registry is: the quick path's table lists the names themselves (and the
#: quick path checks them without importing the registry).
CHOICES = {"check_format": ("solver.output", "FORMATS"),
           "check_dialect": ("solver.notation.dialects", "DIALECTS"),
           "check_variant": ("solver.notation.dialects", "VARIANTS")}


def check_format(value: str) -> str:
    """``--format``: one of :data:`solver.output.FORMATS`."""
    from solver.output import FORMATS

    if value not in FORMATS:
        raise _bad(f"{value!r} is not one of {', '.join(FORMATS)}")
    return value


def check_dialect(value: str) -> str:
    """``--dialect``: one of :data:`solver.notation.dialects.DIALECTS`."""
    from solver.notation.dialects import DIALECTS

    if value not in DIALECTS:
        raise _bad(f"{value!r} is not one of {', '.join(DIALECTS)}")
    return value


def check_variant(value: str | None) -> str | None:
    """``--variant``: one of :data:`solver.notation.dialects.VARIANTS`."""
    if value is not None:
        from solver.notation.dialects import VARIANTS

        if value not in VARIANTS:
            raise _bad(f"{value!r} is not one of {', '.join(VARIANTS)}")
    return value


def check_seed(value: str | None) -> str | None:
    """``--seed``: a seed phrase :func:`solver.sampling.seed_value` takes."""
    if value is not None:
        from solver.errors import Chess960Error
        from solver.sampling import seed_value

        try:
            seed_value(value)
        except Chess960Error as exc:
            raise _bad(str(exc)) from None
    return value


def check_event(value: str | None) -> str | None:
    """``--event``: a name on one line."""
    if value is not None and (not value.strip() or any(c in value for c in "\r\n")):
        raise _bad(f"{value!r} is not an event's name: text on one line, not blank")
    return value


def check_date(value: str | None) -> str | None:
    """``--date``: a date written YYYY-MM-DD."""
    if value is not None:
        import datetime
        import re

        try:
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                raise ValueError
            datetime.date.fromisoformat(value)
        except ValueError:
            raise _bad(f"{value!r} is not a date written YYYY-MM-DD") from None
    return value


def set_max_states(value: int | None) -> int | None:
    """``--max-states``: the counting budget, set for the whole run."""
    if value is not None:
        from solver.numbering.budget import set_max_states as budget

        budget(value)
    return value


def _needs_band(balanced: str | None, tables: list[str] | None,
                draw_rate: str | None = None) -> None:
    if tables and balanced is None and draw_rate is None:
        raise Usage("goes with --balanced or --draw-rate", "'--eval-table'")


def _stdin() -> Any:
    from solver.lines import stdin_bytes

    return stdin_bytes()


# -- the commands -------------------------------------------------------------------


def solve(count: bool = False, rules: str = "chess960", unicode: bool = False,
          max_arrangements: int = MAX_ARRANGEMENTS, max_states: int | None = None,
          fmt: str = "text", dialect: str = "xfen", variant: str | None = None,
          numbering: str | None = None) -> int:
    """``chess960 solve``."""
    from solver.cli.commands import solve_command

    return solve_command(rules, count, fmt, unicode, dialect, variant, max_arrangements,
                         out=sys.stdout, err=sys.stderr, numbering=numbering)


def id_(ranks: list[str], rules: str = "chess960", fmt: str = "text", dialect: str = "xfen",
        variant: str | None = None, max_states: int | None = None,
        numbering: str | None = None) -> int:
    """``chess960 id``."""
    from solver.cli.commands import identify_command

    return identify_command(rules, ranks, fmt, dialect, variant, stdin=_stdin(),
                            out=sys.stdout, err=sys.stderr, numbering=numbering)


def position(ids: list[str] | None = None, rules: str = "chess960", unicode: bool = False,
             fmt: str = "text", white: str | None = None, black: str | None = None,
             dialect: str = "xfen", variant: str | None = None,
             max_states: int | None = None, numbering: str | None = None) -> int:
    """``chess960 position``: IDs, or ``--white`` and ``--black``."""
    if (white is None) != (black is None):
        raise Usage("--white and --black go together")
    if white is not None and ids:
        raise Usage("give position IDs or --white and --black, not both")
    if white is None and not ids:
        raise Usage("missing position IDs (or --white and --black)")
    if white is not None and black is not None:
        from solver.cli.errors import failed
        from solver.cli.inputs import load_family
        from solver.errors import Chess960Error
        from solver.output import PositionWriter

        try:
            family = load_family(rules, MAX_ARRANGEMENTS)
            with PositionWriter(sys.stdout, family, fmt, text="rank", unicode=unicode,
                                dialect=dialect, variant=variant) as writer:
                writer.write(family.pair(white, black))
        except (Chess960Error, KeyboardInterrupt) as exc:
            return failed(sys.stdout, sys.stderr, exc)
        return 0
    from solver.cli.commands import position_command

    return position_command(rules, ids or [], fmt, unicode, dialect, variant, stdin=_stdin(),
                            out=sys.stdout, err=sys.stderr, numbering=numbering)


def random_(count: int = 1, distinct: bool = False, exclude: list[str] | None = None,
            shortlist: str | None = None, seed: str | None = None, rules: str = "chess960",
            unicode: bool = False,
            fmt: str = "text", dialect: str = "xfen", variant: str | None = None,
            max_states: int | None = None, numbering: str | None = None,
            balanced: str | None = None, draw_rate: str | None = None,
            eval_table: list[str] | None = None, certificate: str | None = None,
            preset: str | None = None) -> int:
    """``chess960 random``."""
    _needs_band(balanced, eval_table, draw_rate)
    from solver.cli.commands import random_command

    return random_command(rules, count, distinct=distinct, exclude=exclude or [],
                          shortlist=shortlist, seed=seed,
                          fmt=fmt, unicode=unicode, dialect=dialect, variant=variant,
                          out=sys.stdout, err=sys.stderr, numbering=numbering,
                          balanced=balanced, eval_tables=eval_table or [],
                          certificate=certificate, draw_rate=draw_rate, preset=preset)


def convert(values: list[str], source: str | None = None, target: str | None = None,
            rules: str = "chess960") -> int:
    """``chess960 convert``."""
    from solver.cli.commands import convert_command

    return convert_command(rules, values, source, target, stdin=_stdin(), out=sys.stdout,
                           err=sys.stderr)


def plan_(rounds: int, seed: str | None = None, exclude: list[str] | None = None,
          shortlist: str | None = None, mirrors: bool = False, rules: str = "chess960",
          table: str = "markdown",
          svg_dir: str | None = None, dialect: str = "xfen", variant: str | None = None,
          max_states: int | None = None, numbering: str | None = None,
          balanced: str | None = None, draw_rate: str | None = None,
          eval_table: list[str] | None = None, certificate: str | None = None,
          preset: str | None = None, html: str | None = None,
          commit: str | None = None, sealed: str | None = None, event: str | None = None,
          date: str | None = None) -> int:
    """``chess960 plan``."""
    _needs_band(balanced, eval_table, draw_rate)
    from solver.output.plan import PLAN_FORMATS

    _one_of(table, PLAN_FORMATS, "'--format'")
    if commit is not None or sealed is not None:
        _sealing(commit, sealed, svg_dir=svg_dir, balanced=balanced, certificate=certificate,
                 html=html, draw_rate=draw_rate, preset=preset, **{"from": shortlist})
        assert commit is not None and sealed is not None
        from solver.cli.draws import seal_command

        return seal_command(rules, rounds, seed=seed, exclude=exclude or [], mirrors=mirrors,
                            numbering=numbering, commit=commit, sealed=sealed, event=event,
                            date=date, out=sys.stdout, err=sys.stderr)
    from solver.cli.commands import plan_command

    return plan_command(rules, rounds, seed=seed, exclude=exclude or [], shortlist=shortlist,
                        mirrors=mirrors,
                        table=table, svg_dir=svg_dir, dialect=dialect, variant=variant,
                        out=sys.stdout, err=sys.stderr, numbering=numbering, balanced=balanced,
                        eval_tables=eval_table or [], certificate=certificate, html=html,
                        event=event, date=date, draw_rate=draw_rate, preset=preset)


def _sealing(commit: str | None, sealed: str | None, **shown: str | None) -> None:
    """``plan --commit --sealed``: both given, two files, nothing that would show the rounds."""
    if commit is None or sealed is None:
        raise Usage("--commit and --sealed go together", "'--sealed'" if sealed is None
                    else "'--commit'")
    if commit == sealed:
        raise Usage(f"the commitment and the sealed file are two files, not both {commit!r}",
                    "'--sealed'")
    for option, value in shown.items():
        if value is not None:
            name = f"--{option.replace('_', '-')}"
            raise Usage(f"a sealed draw shows no round before it is played (--commit writes "
                        f"no plan): leave out {name}", f"'{name}'")


def reveal(file: str, round_: int, fmt: str = "text", dialect: str = "xfen") -> int:
    """``chess960 reveal``."""
    from solver.cli.draws import reveal_command

    return reveal_command(file, round_, fmt=fmt, dialect=dialect, stdin=_stdin(),
                          out=sys.stdout, err=sys.stderr)


def lint(files: list[str] | None = None, fix: str | None = None, dialect: str | None = None,
         variant: str | None = None, rules: str | None = None, quiet: bool = False,
         verbose: bool = False, numbering: str | None = None, complete: bool = False) -> int:
    """``chess960 lint``."""
    if fix is not None or dialect is not None or variant is not None:
        from solver.lists.lint import FIX_DIALECTS, NOTATIONS
        from solver.notation.dialects import DIALECTS, VARIANTS

        if fix is not None:
            _one_of(fix, NOTATIONS, "'--fix'")
        if dialect is not None:
            _one_of(dialect, tuple(DIALECTS) if variant is not None else FIX_DIALECTS,
                    "'--dialect'")
        if variant is not None:
            _one_of(variant, VARIANTS, "'--variant'")
    if numbering is not None and rules is None:
        raise Usage("needs --rules: the family whose numbering it is", "'--numbering'")
    if complete and rules is None:
        raise Usage("needs --rules: the family the book claims to be", "'--complete'")
    from solver.cli.lists import lint_command

    return lint_command(files or ["-"], fix, dialect, variant, rules, quiet, verbose,
                        numbering, complete, out=sys.stdout, err=sys.stderr)


def book(rules: str = "chess960", output: str | None = None, fmt: str = "epd",
         dialect: str = "xfen", numbering: str | None = None, ids: str | None = None,
         sample: int | None = None, seed: str | None = None, pairs: str | None = None,
         workers: int = 1, worker: int = 1, balanced: str | None = None,
         draw_rate: str | None = None, eval_table: list[str] | None = None,
         preset: str | None = None) -> int:
    """``chess960 book``."""
    _needs_band(balanced, eval_table, draw_rate)
    from solver.lists.book import BOOK_FORMATS, PAIRS

    _one_of(fmt, BOOK_FORMATS, "'--format'")
    if pairs is not None:
        _one_of(pairs, PAIRS, "'--pairs'")
    if ids is not None and sample is not None:
        raise Usage("give --ids or --sample, not both", "'--sample'")
    if seed is not None and sample is None:
        raise Usage("goes with --sample", "'--seed'")
    if worker > workers:
        raise Usage(f"{worker} is more than --workers {workers}", "'--worker'")
    from solver.cli.lists import book_command

    return book_command(rules, output, fmt, dialect, numbering=numbering, ids=ids,
                        sample=sample, seed=seed, pairs=pairs, workers=workers, worker=worker,
                        out=sys.stdout, err=sys.stderr, balanced=balanced, draw_rate=draw_rate,
                        eval_tables=eval_table or [], preset=preset)


def eval_(positions: list[str] | None = None, rules: str = "chess960", fmt: str = "text",
          eval_table: list[str] | None = None, engine: str | None = None,
          nodes: int | None = None, depth: int | None = None, ids: str | None = None,
          jobs: int = 1, output: str | None = None, timeout: float = 600.0,
          wdl: bool = False, shard: str | None = None,
          scheduler: str | None = None) -> int:
    """``chess960 eval``: the figures of ``positions``, or a table made with
    ``engine``, or (``eval merge T1 T2 -o T``) tables joined."""
    if positions and positions[0] == "merge":  # no position is written so
        if engine is not None or eval_table or wdl or any(
                v is not None for v in (nodes, depth, ids, shard, scheduler)) or jobs != 1:
            raise Usage("eval merge takes tables, -o FILE and --rules")
        if output is None:
            raise Usage("eval merge needs -o FILE, the table to write")
        return eval_merge(positions[1:], output, rules)
    if engine is None:
        if any(v is not None for v in (nodes, depth, ids, output, shard, scheduler)) or wdl:
            raise Usage("--nodes, --depth, --ids, --shard, --wdl, --scheduler and -o go with "
                        "--engine")
        if not positions:
            raise Usage("missing positions (or --engine to make a table)")
        _one_of(fmt, ("text", "json"), "'--format'")
        from solver.cli.evaluate import figures_command

        return figures_command(rules, positions, fmt, eval_table or [], out=sys.stdout,
                               err=sys.stderr)
    if positions or eval_table:
        raise Usage("--engine takes --ids, not positions or --eval-table")
    if (nodes is None) == (depth is None):
        raise Usage("--engine needs one of --nodes and --depth")
    if output is None:
        raise Usage("--engine needs -o FILE, the table to write")
    scheduler = _scheduler(scheduler)
    if scheduler is not None and jobs != 1:
        raise Usage("give --jobs or --scheduler, not both (local:N is N worker processes)",
                    "'--jobs'")
    from solver.cli.evaluate import engine_command

    return engine_command(rules, engine, nodes=nodes, depth=depth, ids=ids, jobs=jobs,
                          output=output, timeout=timeout, out=sys.stdout, err=sys.stderr,
                          wdl=wdl, shard=shard, scheduler=scheduler)


def eval_merge(tables: list[str], output: str, rules: str = "chess960") -> int:
    """``chess960 eval merge``."""
    if not tables:
        raise Usage("eval merge needs the tables to join")
    from solver.cli.evaluate import merge_command

    return merge_command(rules, tables, output, out=sys.stdout, err=sys.stderr)


def _scheduler(given: str | None) -> str | None:
    """``eval --scheduler`` (else ``DASK_SCHEDULER_ADDRESS``), checked: ``local:N``
    or a scheduler's address, and the ``cluster`` extra installed."""
    import os

    scheduler = given if given is not None else os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    if scheduler is None:
        return None
    from solver.evaluation.cluster import local_workers

    try:
        local_workers(scheduler)
    except ValueError:
        raise Usage(f"{scheduler!r} is not local:N (N worker processes, 1 or more) nor a "
                    "scheduler's address such as tcp://HOST:8786", "'--scheduler'") from None
    if "://" not in scheduler and not scheduler.startswith("local:"):
        raise Usage(f"{scheduler!r} is not local:N nor a scheduler's address such as "
                    "tcp://HOST:8786", "'--scheduler'")
    try:
        import importlib

        importlib.import_module("distributed")
    except ImportError:
        raise Usage(f"--scheduler {scheduler!r} needs Dask's distributed: install the "
                    "cluster extra (pip install 'chess960[cluster]')") from None
    return scheduler


def dice(rules: str | None = None, count: int | None = None, sides: int | None = None,
         cards: bool = False, as_json: bool = False, method: str = "id",
         exclude: list[str] | None = None, html: str | None = None) -> int:
    """``chess960 dice``."""
    if rules is not None and count is not None:
        raise Usage("give --rules or --count, not both", "'--count'")
    if sides is not None and cards:
        raise Usage("give --dice or --cards, not both", "'--cards'")
    if method not in ("id", "pieces"):
        raise Usage(f"--method is 'id' or 'pieces', not {method!r}", "'--method'")
    if html is not None and as_json:
        raise Usage("give --json or --html, not both", "'--html'")
    if method == "pieces" and (cards or count is not None):
        raise Usage("--method pieces places a family's pieces with a die: give --rules "
                    "(or nothing), not --count or --cards", "'--method'")
    from solver.cli.draws import dice_command

    return dice_command(rules, count, sides or 10, cards, as_json, out=sys.stdout,
                        err=sys.stderr, method=method, exclude=exclude or [], html=html)


def show(position_: str, rules: str = "chess960", svg: str | None = None,
         letters: bool = False) -> int:
    """``chess960 show``."""
    from solver.cli.commands import show_command

    return show_command(rules, position_, svg, letters, stdin=_stdin(), out=sys.stdout,
                        err=sys.stderr)


def check(rules: str = "chess960", all_: bool = False,
          max_arrangements: int = MAX_ARRANGEMENTS, max_states: int | None = None) -> int:
    """``chess960 check``."""
    from solver.cli.commands import check_command

    return check_command(rules, all_, max_arrangements, out=sys.stdout, err=sys.stderr)


def rules_(numberings: bool = False, rules: str | None = None) -> int:
    """``chess960 rules``."""
    from solver.cli.commands import rules_command

    return rules_command(out=sys.stdout, err=sys.stderr, numberings=numberings, rules=rules)


def which(positions: list[str], rules: list[str] | None = None, fmt: str = "text") -> int:
    """``chess960 which``."""
    _one_of(fmt, ("text", "json"), "'--format'")
    from solver.cli.lists import which_command

    return which_command(positions, rules or [], fmt, stdin=_stdin(), out=sys.stdout,
                         err=sys.stderr)


def compare(file: str, rules: str = "chess960", fmt: str = "text", limit: int = 20,
            numbering: str | None = None) -> int:
    """``chess960 compare``."""
    _one_of(fmt, ("text", "json"), "'--format'")
    from solver.cli.lists import compare_command

    return compare_command(file, rules, fmt, limit, numbering, out=sys.stdout, err=sys.stderr)


def audit(file: str, rules: str = "chess960", level: float = 0.01, fmt: str = "text") -> int:
    """``chess960 audit``."""
    _one_of(fmt, ("text", "json"), "'--format'")
    if not 0 < level < 1:
        raise Usage(f"{level!r} is not between 0 and 1", "'--level'")
    from solver.cli.draws import audit_command

    return audit_command(file, rules, level, fmt, out=sys.stdout, err=sys.stderr)


def tree(files: list[str], rules: str = "chess960", plies: int = 12,
         ids: list[str] | None = None, line: str | None = None, speed: list[str] | None = None,
         rating: str | None = None, since: str | None = None, until: str | None = None,
         player: str | None = None, color: str | None = None, min_games: int = 0,
         fmt: str = "text", out: str | None = None, html: str | None = None,
         transpositions: bool = False) -> int:
    """``chess960 games tree``."""
    if fmt not in ("text", "json", "csv"):
        raise Usage(f"{fmt!r} is not text, json or csv", "'--format'")
    if color is not None and color not in ("white", "black"):
        raise Usage(f"{color!r} is not white or black", "'--color'")
    if color is not None and player is None:
        raise Usage("--color needs --player", "'--color'")
    if html == "-" and fmt != "text":
        raise Usage(f"--html - writes the page instead of --format {fmt!r}: give one of them",
                    "'--html'")
    if transpositions and html is not None:
        raise Usage("the explorer page shows the tree by lines: give --html or "
                    "--transpositions, not both", "'--html'")
    from os.path import abspath

    if html not in (None, "-") and out not in (None, "-") and abspath(html) == abspath(out):
        raise Usage(f"--html {html!r} is the file -o writes too", "'--html'")
    from solver.cli.game_runs import tree_command

    return tree_command(files, rules, plies, ids or [], line, fmt, min_games,
                        {"speed": speed or [], "rating": rating, "since": since,
                         "until": until, "player": player, "color": color}, out, html,
                        transpositions=transpositions)


def stats(files: list[str], rules: str = "chess960", fmt: str = "text",
          number_tag: str | None = None) -> int:
    """``chess960 games stats``."""
    _one_of(fmt, ("text", "csv", "json"), "'--format'")
    from solver.cli.game_runs import stats_command

    return stats_command(files, rules, fmt, number_tag)
