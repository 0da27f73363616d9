"""A tournament's plan drawn as ``chess960 plan`` asks: the positions of its
rounds, with everything left out (IDs and presets, evaluation bands, the
positions off a list), and its certificate when one is asked for.

>>> planned = draw_plan("chess960", 3, seed="Open 2026")
>>> len(planned.drawn), planned.certified is None, planned.scheme is None
(3, True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from solver.errors import Chess960Error, OptionConflictError

if TYPE_CHECKING:
    from solver.draws.certificate import Certified
    from solver.family import Family
    from solver.numbering.schemes import Scheme
    from solver.position import Position

__all__ = ["Planned", "certificate_ids", "certificate_list", "draw_plan", "outside_bands",
           "write_boards"]


class Planned(NamedTuple):
    """A plan drawn: its family, its rounds' positions, the numbering its IDs
    are written in (``None``: the family's own), every ID left out, those
    off the list among them, and the draw with its certificate (or ``None``)."""

    family: Family
    drawn: list[Position]
    scheme: Scheme | None
    left_out: list[int]
    outside: list[int]
    certified: Certified | None


def certificate_ids(command: str) -> Chess960Error:
    """``--numbering`` with ``--certificate``: a certificate records the family's own IDs."""
    return OptionConflictError(command, ("--certificate", "--numbering"),
                               "a certificate records the family's own ids (convert them "
                               "with `chess960 convert`)")


def certificate_list(command: str) -> Chess960Error:
    """``--from`` with ``--certificate``: a certificate records exclusions, not a list."""
    return OptionConflictError(command, ("--certificate", "--from"),
                               "a certificate records the ids left out, not a list to "
                               "draw from (give them with --exclude @FILE)")


def _mirrored_list() -> Chess960Error:
    """``plan --from`` with ``--exclude-mirrors``: the mirrors of the positions off
    the list would be left out too (a list position whose mirror is not listed)."""
    return OptionConflictError("plan", ("--from", "--exclude-mirrors"),
                               "the mirror of every position off the list would be left "
                               "out too (list the positions and their mirrors as you want "
                               "them, and draw with --from alone)")


def outside_bands(family: Family, band: str | None, tables: Sequence[str],
                  note: Callable[[str], object], draw_rate: str | None = None,
                  preset: str | None = None) -> list[int]:
    """The IDs outside ``band``, ``draw_rate`` and the named subset ``preset``
    (:func:`solver.evaluation.band.restrict`; none without any, nothing
    imported), each note given to ``note`` as a line."""
    if band is None and draw_rate is None and preset is None:
        return []
    from solver.evaluation.band import restrict

    return restrict(family, band, list(tables), draw_rate, preset,
                    lambda text: note(f"{text}\n"))


def _quiet(text: str) -> None:
    """A note no one reads (the default: a library call prints nothing)."""


def draw_plan(rules: str, rounds: int, *, seed: str | None = None,
              exclude: Sequence[str] = (), shortlist: str | None = None,
              mirrors: bool = False, numbering: str | None = None,
              balanced: str | None = None, eval_tables: Sequence[str] = (),
              draw_rate: str | None = None, preset: str | None = None,
              certificate: bool = False, event: str | None = None,
              date: str | None = None, note: Callable[[str], object] = _quiet,
              band_note: Callable[[str], object] = _quiet) -> Planned:
    """``rounds`` distinct positions of the family ``rules`` drawn from ``seed``
    (:func:`solver.sampling.plan`), leaving out ``exclude`` (IDs in
    ``numbering``, and presets: each note a line given to ``note``), the
    positions outside the evaluation bands (their notes to ``band_note``), the mirrors of those
    drawn (``mirrors``) and the positions off the list ``shortlist``; with
    ``certificate``, drawn by :func:`solver.draws.certificate.certify`
    (``event`` and ``date`` in it), which records the family's own IDs and
    no list."""
    from solver.draws.presets import excluded_ids, off_list
    from solver.family import Family

    family = Family.load(rules)
    scheme = None
    if numbering is not None:
        scheme = family.scheme(numbering)
        scheme = None if scheme.canonical else scheme
    banned = outside_bands(family, balanced, eval_tables, band_note, draw_rate, preset)
    if shortlist is not None and mirrors:
        raise _mirrored_list()
    outside = off_list(family, shortlist, scheme, exclude, rounds)
    if certificate:
        from solver.draws.certificate import certify

        if scheme is not None:
            raise certificate_ids("plan")
        if shortlist is not None:
            raise certificate_list("plan")
        certified = certify(rules, "plan", rounds, seed=seed,
                            exclude=[*exclude, *map(str, [*banned, *outside])],
                            mirrors=mirrors, event=event, date=date)
        return Planned(certified.family, certified.positions, None,
                       list(certified.certificate.excluded), outside, certified)
    from solver.sampling import plan

    read = family.parse_id if scheme is None else scheme.read
    left_out = [*(excluded_ids(family.name, exclude, read, lambda text: family.identify(text).id,
                               note) if exclude else []), *banned, *outside]
    drawn = plan(family, rounds, seed=seed, exclude=left_out, mirrors=mirrors)
    return Planned(family, drawn, scheme, left_out, outside, None)


def write_boards(family: Family, drawn: Sequence[Position], folder: str) -> list[str]:
    """Each round's board as ``folder/round-N.svg`` (the folder made when
    missing): all the rounds' boards or none (a later one that cannot be
    written leaves no earlier one behind). Their paths, in round order."""
    import os

    from solver.files import make_folder, write_all_atomic
    from solver.output.diagram import board_svg

    make_folder(folder)
    pictures = [os.path.join(folder, f"round-{n}.svg") for n in range(1, len(drawn) + 1)]
    write_all_atomic((path, board_svg(family, found))
                     for path, found in zip(pictures, drawn, strict=True))
    return pictures
