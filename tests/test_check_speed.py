"""`check`'s faster proofs prove what the one-at-a-time ones did (issue 38:
`check --all` under 30 s): a further numbering's way back decoded in one walk,
an arithmetic side's lookup table decoded in one walk, and the families
proven in worker processes, reports in order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.check import check_each, check_named
from solver.errors import Chess960Error, WorkerError
from solver.family import Family
from solver.numbering import encoder, schemes
from solver.numbering.schemes import PairOrder, SideOrder, prove
from solver.search.csp.workers import each_in_workers


def _side_orders() -> list[tuple[str, str, SideOrder]]:
    """Every bundled further numbering ordered by other steps, small enough to
    compare one id at a time here."""
    from solver.ruleset.reader import bundled_names

    found = []
    for name in bundled_names():
        family = Family.load(name)
        if family.ruleset.armies or family.ruleset.army is not None:
            continue
        for scheme in family.schemes.values():
            order = scheme.order
            side = order.side if isinstance(order, PairOrder) else order
            if (isinstance(side, SideOrder) and side.numbering is not None
                    and family.side_count <= 3_000):
                found.append((name, scheme.name, side))
    return found


@pytest.mark.parametrize(("family", "numbering", "side"), _side_orders(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_the_way_back_in_one_walk_is_id_at_for_every_place(family: str, numbering: str,
                                                           side: SideOrder) -> None:
    n = side.family.side_count
    assert side.all_ids_at(n) == [side.id_at(p) for p in range(n)], (family, numbering)


def test_there_are_such_numberings() -> None:
    assert {(f, n) for f, n, _ in _side_orders()} >= {("racing-kings", "pychess"),
                                                       ("bishops-opposite", "scidb-shuffle")}


def test_a_way_back_that_misplaces_two_positions_is_caught(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    family = Family.load("bishops-opposite")
    scheme = family.scheme("scidb-shuffle")
    assert prove(scheme) == []
    real = encoder.decode_all

    def swapped(numbering: object) -> list[str]:
        ranks = real(numbering)  # type: ignore[arg-type]
        ranks[10], ranks[20] = ranks[20], ranks[10]
        return ranks

    monkeypatch.setattr(encoder, "decode_all", swapped)
    assert prove(scheme) == ["the order's way back does not return every position"]


def test_a_place_that_is_not_a_bijection_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    family = Family.load("bishops-opposite")
    scheme = family.scheme("scidb-shuffle")
    real = SideOrder.place
    monkeypatch.setattr(SideOrder, "place", lambda self, n: real(self, 0 if n == 5 else n))
    assert "the order is not a bijection onto 0..2879" in prove(scheme)


def test_an_arithmetic_sides_table_is_decode_of_every_id() -> None:
    family = Family.load("chess960")
    index = family.index
    for number in range(0, 960, 7):  # enough lookups to build the table
        family.rank_id(family.rank_of(number))
    assert index.by_id is not None and index.ids is not None
    numbering = family.numbering
    assert index.by_id == [numbering.decode(i) for i in range(960)]
    assert index.ids == {rank: i for i, rank in enumerate(index.by_id)}
    assert schemes.scheme_named is not None  # (the module is the one proven above)


def _fails(x: int) -> int:
    if x == 3:
        raise Chess960Error(f"item {x!r} is refused")
    return x


def _breaks(x: int) -> int:
    if x == 2:
        raise KeyError(x)
    return x


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(-50, 50), max_size=12), st.integers(1, 3))
def test_each_in_workers_is_map_in_order(items: list[int], workers: int) -> None:
    assert list(each_in_workers(abs, items, workers)) == [abs(x) for x in items]


def test_a_workers_error_is_raised_with_its_message() -> None:
    with pytest.raises(Chess960Error, match="item 3 is refused"):
        list(each_in_workers(_fails, [1, 2, 3, 4, 5], 2))
    with pytest.raises(WorkerError, match="KeyError: 2"):
        list(each_in_workers(_breaks, [1, 2, 3], 2))


def test_families_proven_in_workers_say_what_they_say_here() -> None:
    names = ["janggi", "racing-kings", "bishops-opposite"]
    here = [check_named(name).text() for name in names]
    there = list(check_each(names, workers=2))
    assert [r.text() for r in there] == here
    assert [r.family for r in there] == names and all(r.ok for r in there)


def test_a_family_that_cannot_load_in_a_worker_is_an_error_line() -> None:
    with pytest.raises(Chess960Error, match="no-such-family"):
        list(check_each(["janggi", "no-such-family"], workers=2))
